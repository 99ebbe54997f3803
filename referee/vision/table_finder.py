"""The table found from the footage: where the pile, the stock and each seat are, with no calibration.

A referee started with no ``--calibration`` first searches the whole frame (the pile could be anywhere)
and watches the game itself:

* **the stock** is the face-down card that stays put in the first seconds (the detector's ``back``
  readings, found in the same place frame after frame, before any card has been played); its size is a
  card's size on this table;
* **the pile** is where the first card (the start card) comes to rest and stays: a zone around it the
  size the calibration gives one (:data:`PILE_HALF` card heights each way), after which the pipeline
  looks there alone, at the calibrated speed. Cards landing elsewhere, again and again, move it;
* **the seats** follow from the game: the dealer turns the start card from their side, and every later
  card comes from the arm of the player whose turn it is (the referee's turn order). An arm's direction
  is the far end of the foreground blob that reaches into the pile zone (:class:`Zones`), taken around
  the moment the card came to rest. Each seat is the middle of its arms' far ends; the seats are sure
  once every seat has been seen, they go round clockwise in seat order, they are apart, and the plays
  agree with them (at most one in five out: an out-of-turn play among the first ones outvoted). Until
  then the pipeline gives a play or draw to the seat the referee expects and marks it ``unsure``
  (:attr:`TableFinder.unsure`): no verdict that depends on the guess is raised as sure.
* **a camera bumped** mid-game (given profile or found): the table's features move as a whole. Points
  tracked from a reference view (Lucas-Kanade, with a RANSAC similarity) say by how much; once the view
  holds still shifted by more than :data:`BUMP_PX` the zones and seats move with it (the cards on the
  pile stay where they were in the pile view: nothing lost or seen twice).

The table's plane is taken as seen (the pile zone an upright square of camera pixels the size of the
cards): on a webcam looking down the perspective within the zone is small. What was found is a
:class:`~referee.vision.calibration.CalibrationProfile` (``method`` ``"found"``), saved like any other
for next time (:meth:`TableFinder.on_found`); markers and clicks stay overrides.
"""

from __future__ import annotations

import logging
import math
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.vision.calibration import CalibrationProfile, Point, Quad
from referee.vision.camera_follower import BUMP_PX, CameraFollower
from referee.vision.detections import Detections
from referee.vision.table_seats import DRAW_PLAIN, SAME_SEAT, SeatFinder, along_edge, angle

log = logging.getLogger(__name__)

__all__ = ["BUMP_PX", "PILE_HALF", "STOCK_HALF", "CameraFollower", "Change", "SeatFinder", "TableFinder"]

#: Half the pile zone's side, in card heights (as the synthetic calibration draws it).
PILE_HALF = 1.45
#: Half the stock zone's side, in card heights.
STOCK_HALF = 0.85
#: A card's width over its height.
CARD_ASPECT = 200 / 310
#: Detector runs on which the stock's back must be seen in one place before it is believed.
STOCK_SIGHTINGS = 3
#: Seconds to wait for the stock once the pile is found before looking at the pile alone without it.
STOCK_WAIT_S = 4.0
#: Seconds of foreground masks kept to find the arm that laid a card.
ARM_HISTORY_S = 3.0
#: The window around a card's rest time whose arms laid it (seconds before, after).
ARM_WINDOW = (0.7, 0.5)
#: Seconds either side of a bump followed in which a play's or draw's seat is not sure.
BUMP_UNSURE_S = 1.5


@dataclass(frozen=True)
class Change:
    """A profile for the pipeline to use from its next frame; ``camera``: the camera moved by it (the pile
    view's cards stay where they are in it, and what the motion detector learnt of the table moves too),
    else the pile zone changed on the table (the cards known on the pile are moved into the new view)."""

    profile: CalibrationProfile
    #: The 2x3 similarity (camera pixels) the camera moved by, or ``None``: the zones changed on the table.
    camera: npt.NDArray[np.float64] | None = None
    why: str = ""

    @property
    def moved_with_camera(self) -> bool:
        return self.camera is not None


def _square(centre: Point, half: float) -> Quad:
    cx, cy = centre
    return ((cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half))


def _clamped_square(centre: Point, half: float, size: tuple[int, int]) -> Quad:
    """An upright square around ``centre`` moved (not shrunk) to lie in the frame where it fits."""
    w, h = size
    cx = min(max(centre[0], half), w - half) if 2 * half <= w else w / 2
    cy = min(max(centre[1], half), h - half) if 2 * half <= h else h / 2
    return _square((cx, cy), half)


def card_height(box: Sequence[float]) -> float:
    """A card's height from its upright box (``x1, y1, x2, y2``) at an unknown turn: the box's sides
    add up to between one and 1.41 times the card's height plus width; taken at 1.15."""
    w, h = float(box[2] - box[0]), float(box[3] - box[1])
    return (w + h) / (1 + CARD_ASPECT) / 1.15


class TableFinder:
    """The table of one camera, found from its footage (see the module docstring). The pipeline calls
    :meth:`observe` each frame, :meth:`landed` for each card believed, :meth:`played` with the seat each
    play or the start was judged for, and applies :meth:`take`'s changes between frames."""

    def __init__(self, players: int, *, given: CalibrationProfile | None = None, fps: float = 15.0,
                 on_found: Callable[[CalibrationProfile], None] | None = None) -> None:
        self.players = players
        self.fps = fps
        self.given = given
        self.on_found = on_found
        self.seat_finder = SeatFinder(players)
        self.profile: CalibrationProfile | None = None
        self.pile_found = given is not None
        self.stock_found = given is not None and given.stock is not None
        self.seats_sure = given is not None
        self.card_h: float | None = None
        self._backs: list[tuple[float, float, float]] = []  # (x, y, card height) camera pixels
        self._landed: deque[Point] = deque(maxlen=8)
        self._pile_t: float | None = None
        self._pending: Change | None = None
        self._history: deque[tuple[float, npt.NDArray[np.bool_]]] = deque()
        self._follow: CameraFollower | None = None
        self._scale = 1.0
        #: Plays were given the turn's seat before the seats were found (the turn order may be off).
        self._guessed = False
        #: Cards a penalty named each seat to take and not yet seen drawn (see :meth:`judged`).
        self._owed: dict[int, int] = {}
        #: Footage time each thing was found at (``pile``, ``stock``, ``seats``), and the bumps followed.
        self.found_at: dict[str, float] = {}
        self.bumps: list[float] = []
        self._t = 0.0

    def summary(self) -> dict[str, object]:
        """What was found and when (footage seconds), the bumps followed, and the profile."""
        return {"found_at": {k: round(v, 2) for k, v in self.found_at.items()},
                "bumps": [round(t, 2) for t in self.bumps], "unsure": self.unsure,
                "profile": None if self.profile is None else self.profile.to_dict()}

    # What the pipeline asks.
    @property
    def unsure(self) -> str | None:
        """Why plays' and draws' seats are guesses now (``None``: the seats are found)."""
        if self.seats_sure:
            return None
        if not self.pile_found:
            return "table not found yet: looking for the pile; seats follow the turn order"
        return f"seats not found yet ({self.seat_finder.why}): seats follow the turn order"

    def settling(self, seat: int, expected: int | None) -> str | None:
        """Once the seats are found: why a play from ``seat`` when the referee expected ``expected`` is not
        sure yet. Seats given by the turn order before (guesses) may have thrown that order off by one, so
        until a play comes from the seat expected, one that does not is said to be unsure; ``None``: sure."""
        if not self.seats_sure or not self._guessed or expected is None:
            return None
        if seat == expected:
            self._guessed = False
            return None
        return "seats just found: the turn order may still follow a guess made before them"

    def moved_near(self, t: float) -> str | None:
        """Why a play or draw that came to rest at ``t`` has no sure seat: the camera was knocked about then
        (its hand was seen through a moving view, and the seats found move with the camera only once it is
        still); ``None`` when it was not."""
        if self.camera_moving or any(-BUMP_UNSURE_S <= b - t <= BUMP_UNSURE_S for b in self.bumps):
            return "the camera moved as this card was laid: its seat follows the turn order"
        return None

    @property
    def camera_moving(self) -> bool:
        """The camera is moving (knocked, not yet still): the pile view shows the cards elsewhere than the
        tracker knows them, so the pipeline holds its last readings and sees no draws until it is followed."""
        return self._follow is not None and self._follow.moving

    def take(self) -> Change | None:
        change, self._pending = self._pending, None
        return change

    def _change(self, change: Change) -> None:
        self._pending = change
        self.profile = change.profile
        log.info("table %s: pile %s, stock %s, seats %s", change.why,
                 [(round(x), round(y)) for x, y in change.profile.pile],
                 None if change.profile.stock is None else [(round(x), round(y)) for x, y in change.profile.stock],
                 [(round(x), round(y)) for x, y in change.profile.seats] if self.seats_sure else "guessed")
        if self.on_found is not None and self.pile_found and change.profile.method == "found":
            self.on_found(change.profile)

    # Each frame.
    def observe(self, image: npt.NDArray[np.uint8], t: float, profile: CalibrationProfile, detections: Detections,
                foreground: npt.NDArray[np.bool_], *, busy: bool = False) -> None:
        """One frame: the view's ``profile`` (in use now), the detections in its pile view, the motion
        detector's foreground (low resolution); ``busy``: an arm is over the pile."""
        if self.profile is None:
            self.profile = profile
        self._t = t
        h, w = image.shape[:2]
        self._scale = foreground.shape[1] / w
        self.seat_finder.reach = SAME_SEAT * (w + h)
        self.seat_finder.view = (w, h)
        self._history.append((t, foreground.copy()))
        while self._history and self._history[0][0] < t - ARM_HISTORY_S:
            self._history.popleft()
        if not self.pile_found or not self.stock_found:
            self._look_for_stock(profile, detections, t)
        if self.pile_found and not self.stock_found and self._pile_t is not None and t - self._pile_t > STOCK_WAIT_S \
                and profile.is_whole_frame:
            log.info("no stock found in %.0f s: looking at the pile alone (draws unseen until it is)", STOCK_WAIT_S)
            self._switch(profile, "pile found (no stock)")
        if self._follow is None:
            self._follow = CameraFollower((w, h), every=max(1, round(self.fps / 5)))
            self._follow.give_up = round(3 * self.fps)
        bumped = self._follow.update(image, busy=busy)
        if bumped is not None:
            self._bumped(profile, bumped)

    def _look_for_stock(self, profile: CalibrationProfile, detections: Detections, t: float) -> None:
        if self.stock_found or not profile.is_whole_frame:
            return
        for label, box in zip(detections.labels, detections.xyxy, strict=False):
            if label != "back":
                continue
            corners = profile.pile_to_image(np.array([(box[0], box[1]), (box[2], box[3])], np.float32))
            (x1, y1), (x2, y2) = corners
            self._backs.append(((x1 + x2) / 2, (y1 + y2) / 2, max(x2 - x1, y2 - y1)))
        if len(self._backs) < STOCK_SIGHTINGS:
            return
        pts = np.array(self._backs[-64:], np.float64)
        best: tuple[int, int] = (0, -1)
        for i, (x, y, size) in enumerate(pts):
            near = int((np.hypot(pts[:, 0] - x, pts[:, 1] - y) < 0.3 * size).sum())
            best = max(best, (near, i))
        near, i = best
        if near < STOCK_SIGHTINGS:
            return
        x, y, size = pts[i]
        close = pts[np.hypot(pts[:, 0] - x, pts[:, 1] - y) < 0.3 * size]
        cx, cy = float(np.median(close[:, 0])), float(np.median(close[:, 1]))
        if any(math.hypot(cx - px, cy - py) < 1.5 * size for px, py in self._landed):
            return  # a back on the pile is no stock
        self.card_h = float(np.median(close[:, 2]))  # a stock lies about square to its table: its box's long side
        stock = _clamped_square((cx, cy), STOCK_HALF * self.card_h, profile.image_size)
        self.stock_found = True
        self.found_at["stock"] = t
        log.info("stock found at (%.0f, %.0f): cards %.0f px tall", cx, cy, self.card_h)
        base = self.profile or profile
        if self.pile_found:
            self._switch(replace(base, stock=stock), "stock found")
        else:
            self.profile = replace(base, stock=stock)

    def _switch(self, base: CalibrationProfile, why: str) -> None:
        """Look at the pile zone around the landed cards (with the stock when found)."""
        assert self._landed
        h = self.card_h or 120.0
        cx = float(np.median([p[0] for p in self._landed]))
        cy = float(np.median([p[1] for p in self._landed]))
        pile = _clamped_square((cx, cy), PILE_HALF * h, base.image_size)
        seats = self.seat_finder.seats if self.seats_sure and self.seat_finder.seats else base.seats
        stock = (self.profile.stock if self.profile is not None else None) or base.stock
        found = CalibrationProfile(base.image_size, pile, tuple(seats), stock=stock,
                                   white_balance=base.white_balance, method="found")
        self._change(Change(found, why=why))

    # Each card believed.
    def landed(self, corners: Sequence[Point], t: float) -> None:
        """A card came to rest at ``corners`` (camera pixels)."""
        if self.given is not None:
            return
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        centre = (float(np.mean(xs)), float(np.mean(ys)))
        self._landed.append(centre)
        if self.card_h is None:
            self.card_h = card_height((min(xs), min(ys), max(xs), max(ys)))
        profile = self.profile
        if profile is None:
            return
        if not self.pile_found:
            self.pile_found = True
            self._pile_t = t
            self.found_at["pile"] = t
            log.info("pile found at (%.0f, %.0f)%s", *centre, "" if self.stock_found else " (stock not yet)")
            if self.stock_found:
                self._switch(profile, "pile found")
            return
        if profile.is_whole_frame:
            return
        # The pile moved (cards land elsewhere, again and again): its zone follows.
        pc = profile.pile_centre
        recent = list(self._landed)[-4:]
        far = 0.6 * (self.card_h or 120.0)
        if len(recent) >= 4 and all(math.hypot(p[0] - pc[0], p[1] - pc[1]) > far for p in recent):
            self._landed = deque(recent, maxlen=self._landed.maxlen)
            self._switch(profile, "pile moved")

    def guessed(self) -> None:
        """A play was given the seat whose turn it was (the seats not found yet)."""
        self._guessed = True

    def judged(self, observation: Mapping[str, Any], outputs: Sequence[Mapping[str, Any]]) -> None:
        """The referee's lines on an observation the camera made: a penalty it named is owed by that seat
        (its next draws, :meth:`owing`), and a draw pays off what its seat owed."""
        if observation.get("type") == "draw" and (seat := observation.get("seat")) in self._owed:
            left = self._owed.pop(seat) - int(observation.get("count") or 1)
            if left > 0:
                self._owed[seat] = left
        for line in outputs:
            cards, seat = line.get("penalty_cards"), line.get("seat")
            if line.get("type") == "alert" and isinstance(cards, int) and cards > 0 and isinstance(seat, int):
                self._owed[seat] = self._owed.pop(seat, 0) + cards  # the newest last

    def owing(self) -> int | None:
        """Before the seats are sure, the seat a draw whose hand was not placed goes to when the referee
        named a penalty that is not drawn yet (a misplay's: the referee's turn has moved on from its
        seat); ``None``: none owed (the seat in turn)."""
        return next(reversed(self._owed), None)

    @property
    def plain_so_far(self) -> bool:
        """No play has been given the turn's seat for want of a seat seen (:meth:`guessed`): every play's
        seat came from its arm, so the referee's turn order rests on no guess."""
        return not self._guessed

    def seat_seen(self, t: float) -> int | None:
        """Before the seats are sure: the seat already found (from earlier plays) that the arm laying the card
        at rest at ``t`` plainly comes from; ``None`` when it comes from none of them, or is not seen."""
        profile = self.profile
        if not self.pile_found or profile is None or profile.is_whole_frame:
            return None
        root = self._arm_at(profile, t)
        return None if root is None else self.seat_finder.plainly(profile.pile_centre, root)

    def draw_seat(self, t: float) -> int | None:
        """The seat whose arms come into the view where the arm reaching to the stock around ``t`` does (a
        player's arms come in by their shoulder, wherever they reach): the seat found (or, before the seats
        are sure, placed from the dealer's side) nearest along the view's edge, when plainly nearer than the
        next. ``None``: not plain (the motion detector's seat stands; before the seats are found, the seat
        that owes the draw)."""
        profile = self.profile
        if profile is None or profile.stock is None or profile.is_whole_frame or not self._history:
            return None
        shape = self._history[-1][1].shape
        zone = profile.mask(profile.stock, shape)
        roots = [r for ts, fg in self._history
                 if t - 0.6 <= ts <= t + 0.3 and (r := self._arm_root(fg, zone)) is not None]
        if not roots:
            return None
        zy, zx = np.nonzero(zone)
        stock = float(zx.mean()) / self._scale, float(zy.mean()) / self._scale
        root = max(roots, key=lambda r: math.hypot(r[0] - stock[0], r[1] - stock[1]))
        if self.seats_sure and self.seat_finder.seats is not None:
            entries = dict(enumerate(self.seat_finder.seats))
        else:
            entries = self.seat_finder.placed_entries()
        size = profile.image_size
        if not self.seats_sure and len(entries) < self.players and all(
                along_edge(p, root, size) > self.seat_finder.reach for p in entries.values()):
            # An arm from a side not placed yet: that side's seat when the game makes it plain (as a play's).
            return self._new_side(profile, root)
        if not entries:
            return None
        ranked = sorted(entries, key=lambda s: along_edge(entries[s], root, size))
        near = along_edge(entries[ranked[0]], root, size)
        if len(ranked) > 1 and near > DRAW_PLAIN * along_edge(entries[ranked[1]], root, size):
            return None
        return ranked[0]

    def _new_side(self, profile: CalibrationProfile, root: Point) -> int | None:
        """Before the seats are sure, a draw's arm from a side no placed seat's arms came from: its seat when
        plain (:meth:`SeatFinder.plainly`: an even step round from the dealer's side, or the last side left),
        learnt as a play's arm is (a player may draw several times before laying a first card); else
        ``None``."""
        seat = self.seat_finder.plainly(profile.pile_centre, root)
        if seat is not None:
            log.debug("a draw's arm from a new side: seat %d", seat)
            self._learn(profile, root, seat)
        return seat

    def played(self, seat: int, t: float, *, start: bool = False) -> None:
        """The card that came to rest at ``t`` was laid by ``seat`` (the start card: the dealer): its arm
        tells where ``seat`` sits."""
        profile = self.profile
        if not self.pile_found or profile is None or profile.is_whole_frame:
            return
        root = self._arm_at(profile, t)
        if root is not None:
            self._learn(profile, root, seat, start=start)

    def _learn(self, profile: CalibrationProfile, root: Point, seat: int, *, start: bool = False) -> None:
        """An arm of ``seat``'s came into the view at ``root``: the seats are solved again with it."""
        self.seat_finder.add(profile.pile_centre, root, seat, start=start)
        if self.seats_sure or self.given is not None:
            return
        seats = self.seat_finder.solve()
        if seats is None:
            log.debug("seats: %s", self.seat_finder.why)
            return
        self.seats_sure = True
        self.found_at["seats"] = self._t
        self._change(Change(replace(profile, seats=seats, method="found"), why="seats found"))

    def _arm_at(self, profile: CalibrationProfile, t: float) -> Point | None:
        """The far end of the arm over the pile around ``t`` (camera pixels): the middle of those seen."""
        if not self._history:
            return None
        shape = self._history[-1][1].shape
        zone = profile.mask(profile.pile, shape)
        roots = [r for ts, fg in self._history if t - ARM_WINDOW[0] <= ts <= t + ARM_WINDOW[1]
                 and (r := self._arm_root(fg, zone)) is not None]
        if not roots:
            return None
        origin = profile.pile_centre
        angles = np.array([angle(origin, r) for r in roots])
        spread = [float(np.abs(np.remainder(angles - a + math.pi, 2 * math.pi) - math.pi).sum()) for a in angles]
        return roots[int(np.argmin(spread))]

    def _arm_root(self, foreground: npt.NDArray[np.bool_], zone: npt.NDArray[np.bool_]) -> Point | None:
        """The far end (camera pixels) of the foreground reaching into ``zone`` from the view's edge: an arm
        comes in from outside the view, however near the pile its player sits (a pile near one edge leaves
        that side's arms too short for :meth:`Zones.arm_root`, which wants them past the zone's corners)."""
        if not (foreground & zone).any():
            return None
        grown = cv2.dilate(foreground.astype(np.uint8), np.ones((3, 3), np.uint8))
        count, labels = cv2.connectedComponents(grown)
        touching = np.unique(labels[zone & (grown > 0)])
        touching = touching[touching > 0]
        if count < 2 or not touching.size:
            return None
        blob = np.isin(labels, touching)
        if not (blob[0, :].any() or blob[-1, :].any() or blob[:, 0].any() or blob[:, -1].any()):
            return None  # no arm from outside: a hand already in view, or no hand
        ys, xs = np.nonzero(blob)
        zy, zx = np.nonzero(zone)
        cx, cy = float(zx.mean()), float(zy.mean())
        far = int(np.argmax((xs - cx) ** 2 + (ys - cy) ** 2))
        return float(xs[far]) / self._scale, float(ys[far]) / self._scale

    # The camera moved.
    def _bumped(self, profile: CalibrationProfile, matrix: npt.NDArray[np.float64]) -> None:
        def move(p: Point) -> Point:
            x, y = p
            return (float(matrix[0, 0] * x + matrix[0, 1] * y + matrix[0, 2]),
                    float(matrix[1, 0] * x + matrix[1, 1] * y + matrix[1, 2]))

        def quad(q: Quad) -> Quad:
            return (move(q[0]), move(q[1]), move(q[2]), move(q[3]))

        w, h = profile.image_size
        self._backs = [(*move((x, y)), s) for x, y, s in self._backs]
        self._landed = deque((move(p) for p in self._landed), maxlen=self._landed.maxlen)
        self.seat_finder.moved(move)
        self._history.clear()  # the arms seen before the bump point from elsewhere
        self.bumps.append(self._t)
        turn = math.degrees(math.atan2(matrix[1, 0], matrix[0, 0]))
        log.warning("the camera moved (%.0f, %.0f px, turned %.1f degrees): the table's zones and seats move with it",
                    matrix[0, 2], matrix[1, 2], turn)
        if profile.is_whole_frame:
            if self.profile is not None and self.profile.stock is not None:
                self.profile = replace(self.profile, stock=quad(self.profile.stock))
            return
        seats = tuple(move(p) for p in profile.seats)
        seats = tuple((min(max(x, -w + 1), 2 * w - 1), min(max(y, -h + 1), 2 * h - 1)) for x, y in seats)
        moved = replace(profile, pile=quad(profile.pile), stock=None if profile.stock is None else quad(profile.stock),
                        seats=seats, pile_size=profile.pile_size)
        self._change(Change(moved, camera=matrix, why="followed the camera"))
