"""The table found from the footage: where the pile, the stock and each seat are, with no calibration.

A referee started with no ``--calibration`` first searches the whole frame (the pile could be anywhere)
and watches the game itself:

* **the stock** is the face-down card that stays put in the first seconds (the detector's ``back``
  readings, found in the same place frame after frame, before any card has been played); its size is a
  card's size on this table;
* **the pile** is where the first card (the start card) comes to rest and stays: a zone around it the
  size the calibration gives one (:data:`PILE_HALF` card heights each way), after which the pipeline
  looks there alone, at the calibrated speed. Cards landing elsewhere, again and again, move it;
* **the seats** follow from the game (:mod:`referee.vision.table_seats`, the arms from
  :mod:`referee.vision.table_arms`): the dealer turns the start card from their side, and every later card
  comes from the arm of the player whose turn it is. An arm's side is where it comes into the view, taken
  around the moment the card came to rest (or the hand left the stock). The seats are sure once every
  side has been seen, they go round clockwise in seat order, and the plays agree with them (at most one
  in five out). Before that, an arm from the dealer's side, from a side an even step round from it (seen
  from the view's middle), or from the last side left is that side's seat: plain, and judged sure as long
  as no play before it was a guess. Otherwise the pipeline gives a play to the seat the referee expects
  (a draw to the seat that owes it) and marks it ``unsure`` (:attr:`TableFinder.unsure`): no verdict
  that depends on a guess is raised as sure.
* **a camera bumped** mid-game (given profile or found; :mod:`referee.vision.camera_follower`): the
  table's features move as a whole; once the view holds still shifted by more than :data:`BUMP_PX` the
  zones and seats move with it (the cards on the pile stay where they were in the pile view: nothing lost
  or seen twice; the card last laid, seen again about the bump with no hand at the pile since, is not
  played again: :mod:`referee.vision.table_again`; an arm that reached on past the pile to the stock, or came
  about a draw judged, laid no card; a hand at the stock as the camera was knocked drew, its draw said once
  the view is followed: :meth:`TableFinder.cut_short`). A run given a calibration gets a finder given its
  profile, which does this alone (``referee run --calibration``).
* **the table's plane** (:mod:`referee.vision.table_plane`): the start card's four corners, once no hand
  hides it. A card seen as a rectangle (a webcam looking down) keeps the pile zone an upright square of
  camera pixels; one seen as a trapezoid (a phone held low) makes it the table's square round the card
  as the camera sees it, read from above.

What was found is a :class:`~referee.vision.calibration.CalibrationProfile` (``method`` ``"found"``),
saved like any other for next time (:meth:`TableFinder.on_found`); markers and clicks stay overrides.
"""

from __future__ import annotations

import logging
import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from referee import contract
from referee.contract import OutputLine
from referee.vision.calibration import CalibrationProfile, Point, Quad
from referee.vision.camera_follower import BUMP_PX, CameraFollower
from referee.vision.detections import Detections
from referee.vision.table_again import BUMP_UNSURE_S, PileTop
from referee.vision.table_arms import DRAW_ARM_S, ArmHistory, PileVisits, StockVisits
from referee.vision.table_plane import card_height, card_quad, clamped_square, pile_on_plane, stock_seen, tilt
from referee.vision.table_seats import DRAW_PLAIN, SAME_SEAT, SeatFinder, along_edge

log = logging.getLogger(__name__)

__all__ = ["BUMP_PX", "BUMP_UNSURE_S", "DRAW_ARM_S", "PILE_HALF", "STOCK_HALF", "CameraFollower", "Change",
           "SeatFinder", "TableFinder"]

#: Half the pile zone's side, in card heights (as the synthetic calibration draws it).
PILE_HALF = 1.45
#: Half the stock zone's side, in card heights.
STOCK_HALF = 0.85
#: Detector runs on which the stock's back must be seen in one place before it is believed.
STOCK_SIGHTINGS = 3
#: Seconds to wait for the stock once the pile is found before looking at the pile alone without it.
STOCK_WAIT_S = 4.0
#: Seconds after the start card came to rest to find its quad in (the hand that laid it gone).
PLANE_WAIT_S = 3.0


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
        self._arms = ArmHistory()
        self._follow: CameraFollower | None = None
        #: Plays were given the turn's seat before the seats were found (the turn order may be off).
        self._guessed = False
        #: The start card's quad (camera pixels: the table's plane), and its box until the quad is found.
        self._card_quad: Quad | None = None
        self._start_box: tuple[float, float, float, float] | None = None
        #: Cards a penalty named each seat to take and not yet seen drawn (see :meth:`judged`).
        self._owed: dict[int, int] = {}
        #: Footage time each thing was found at (``pile``, ``stock``, ``seats``), and the bumps followed.
        self.found_at: dict[str, float] = {}
        self.bumps: list[float] = []
        #: The hands that came to the pile while the camera held still, and the draws judged: a card is laid by
        #: a hand, so the card last laid seen again about a bump is a new one only when a hand came to the pile
        #: after it was laid (an arm reaching to the stock lays no card on the way).
        self.visits = PileVisits()
        #: The arm at the stock, and a draw a knock cut short: (footage time, where its arm came in) once said.
        self.stock_visits = StockVisits()
        self._cut: tuple[float, Point] | None = None
        self.pile_top = PileTop()  # the cards laid last, and when the pile view changed: what seen_again goes by
        #: A bump moved the found pile zone out past the view's edge: it is put back in view next frame.
        self._into_view = False
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

    def seen_again(self, card: str, t: float, last: tuple[int, contract.Play | contract.Start] | None) -> bool:
        """A play of ``card`` come to rest at ``t`` is the card last laid (``last``: the session's newest play), or
        one under it, seen again about a bump or the pile view's change
        (:meth:`~referee.vision.table_again.PileTop.seen_again`)."""
        return self.pile_top.seen_again(card, t, last, self.bumps, self.visits)

    @property
    def pile_visits(self) -> deque[float]:  # footage times an arm (not drawing) was over the pile, the camera still
        return self.visits.visits

    @property
    def drawn(self) -> deque[float]:  # footage times of the draws judged lately
        return self.visits.drawn

    @property
    def camera_moving(self) -> bool:
        """The camera is moving (knocked, not yet still): the pile view shows the cards elsewhere than the
        tracker knows them, so the pipeline holds its last readings and sees no draws until it is followed."""
        return self._follow is not None and self._follow.unsettled

    @property
    def found_in_place(self) -> bool:  # the frame just seen found the view where it was (CameraFollower.in_place)
        return self._follow is not None and self._follow.in_place

    @property
    def followed_now(self) -> bool:
        """A knocked camera's move was followed in the frame just seen, and the zones not yet moved with it
        (:meth:`take` gives the change): that frame's pile view was cut where the zones lay before the knock,
        and shows the cards shifted, where the tracker may take one for a card sliding in."""
        return self._pending is not None and self._pending.moved_with_camera

    def take(self) -> Change | None:
        change, self._pending = self._pending, None
        return change

    def _change(self, change: Change) -> None:
        self._pending = change
        if change.camera is None and change.why != "seats found":
            self.pile_top.switched.append(self._t)
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
        if self._into_view and self._pending is None and self._landed:
            # The zone moved with the camera reaches out of the view (arms over that edge too short in it).
            self._into_view = False
            self._switch(profile, "pile moved")
        h, w = image.shape[:2]
        self.seat_finder.reach = SAME_SEAT * (w + h)
        self.seat_finder.view = (w, h)
        self._arms.add(t, foreground, w)
        if self._start_box is not None:
            self._look_at_start_card(image, t)
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
        self.visits.update(t, profile, foreground, busy and bumped is None and not self._follow.unsettled)
        if bumped is not None:
            self._bumped(profile, bumped)
        moving = self._follow.unsettled or bumped is not None  # the frame followed: the foreground not yet
        self.stock_visits.update(t, profile, foreground, self._arms, moving=moving, drawn=self.drawn, fps=self.fps)

    def cut_short(self) -> float | None:
        """A draw the camera's knock cut short (:class:`~referee.vision.table_arms.StockVisits`), to be said now:
        about when its hand left the stock (its seat: :meth:`draw_seat` at that time); ``None``: none."""
        self._cut = self.stock_visits.cut_short(self._t, self.drawn)
        if self._cut is not None:
            log.info("a hand at the stock as the camera was knocked (%.1f s) drew: its draw said", self._cut[0])
        return None if self._cut is None else self._cut[0]

    def _look_at_start_card(self, image: npt.NDArray[np.uint8], t: float) -> None:
        """The start card alone on the table, once no hand hides part of it: its quad gives the table's plane
        (:mod:`referee.vision.table_plane`). A steep view's pile zone becomes the table's square round it; given
        up after :data:`PLANE_WAIT_S` or once another card lands on it."""
        if self._pile_t is None or t - self._pile_t > PLANE_WAIT_S or len(self._landed) > 1:
            self._start_box = None
            return
        assert self._start_box is not None
        x1, y1, x2, y2 = self._start_box
        quad = card_quad(image, self._start_box)
        if quad is None:
            return
        qx, qy = [p[0] for p in quad], [p[1] for p in quad]
        if max(abs(min(qx) - x1), abs(max(qx) - x2), abs(min(qy) - y1), abs(max(qy) - y2)) > 0.12 * (x2 - x1 + y2 - y1):
            return  # not the whole card the detector saw: a hand over part of it still
        self._start_box = None
        self._card_quad = quad
        log.debug("start card's quad %s (%.0f%% off a rectangle)", quad, 100 * tilt(quad))
        profile = self.profile
        if profile is not None and not profile.is_whole_frame \
                and pile_on_plane(quad, PILE_HALF, profile.image_size) is not None:
            self._switch(profile, "the table's plane found")

    def _look_for_stock(self, profile: CalibrationProfile, detections: Detections, t: float) -> None:
        if self.stock_found or not profile.is_whole_frame:
            return
        for label, box in zip(detections.labels, detections.xyxy, strict=False):
            if label != "back":
                continue
            corners = profile.pile_to_image(np.array([(box[0], box[1]), (box[2], box[3])], np.float32))
            (x1, y1), (x2, y2) = corners
            self._backs.append(((x1 + x2) / 2, (y1 + y2) / 2, max(x2 - x1, y2 - y1)))
        if (seen := stock_seen(self._backs[-64:], STOCK_SIGHTINGS)) is None:
            return
        cx, cy, size = seen
        if any(math.hypot(cx - px, cy - py) < 1.5 * size for px, py in self._landed):
            return  # a back on the pile is no stock
        self.card_h = size
        stock = clamped_square((cx, cy), STOCK_HALF * self.card_h, profile.image_size)
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
        pile = clamped_square((cx, cy), PILE_HALF * h, base.image_size)
        pile_size = (0, 0)  # the zone's own
        on_plane = None if self._card_quad is None else pile_on_plane(self._card_quad, PILE_HALF, base.image_size)
        if on_plane is not None and why != "pile moved":
            # A steep camera: the pile view is the table's square round the start card, seen from above.
            pile, pile_size = on_plane
            log.info("the table's plane from the start card (seen %.0f%% off a rectangle): pile zone %s",
                     100 * tilt(on_plane[0]), [(round(x), round(y)) for x, y in pile])
        seats = self.seat_finder.seats if self.seats_sure and self.seat_finder.seats else base.seats
        stock = (self.profile.stock if self.profile is not None else None) or base.stock
        found = CalibrationProfile(base.image_size, pile, tuple(seats), stock=stock,
                                   white_balance=base.white_balance, method="found", pile_size=pile_size)
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
            self._start_box = (min(xs), min(ys), max(xs), max(ys))  # its quad once the hand has gone
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

    def guessed(self) -> None:  # a play was given the seat whose turn it was (the seats not found yet)
        self._guessed = True

    def judged(self, observation: contract.Observation, outputs: Sequence[OutputLine]) -> None:
        """The referee's lines on an observation the camera made: a penalty it named is owed by that seat
        (its next draws, :meth:`owing`), and a draw pays off what its seat owed."""
        match observation:
            case contract.Draw(seat=seat, count=count, t=t):
                self.drawn.append(float(t or self._t))
                if seat in self._owed:
                    left = self._owed.pop(seat) - (count or 1)
                    if left > 0:
                        self._owed[seat] = left
            case contract.Start(card=card) | contract.Play(card=card):
                self.pile_top.laid.append(card.label)
        for line in outputs:
            if line["type"] == "alert" and line["penalty_cards"] > 0:
                seat = line["seat"]
                self._owed[seat] = self._owed.pop(seat, 0) + line["penalty_cards"]  # the newest last

    def owing(self) -> int | None:
        """Before the seats are sure, the seat a draw whose hand was not placed goes to when the referee named a
        penalty not drawn yet (a misplay's: the turn has moved on from its seat); ``None``: none owed (the turn's)."""
        return next(reversed(self._owed), None)

    @property
    def plain_so_far(self) -> bool:
        """No play was given the turn's seat for want of a seat seen (:meth:`guessed`): the turn order is no guess."""
        return not self._guessed

    def seat_seen(self, t: float) -> int | None:
        """Before the seats are sure: the seat already found (from earlier plays) that the arm laying the card
        at rest at ``t`` plainly comes from; ``None`` when it comes from none of them, or is not seen."""
        arm = self._pile_arm(t)
        return None if arm is None else self.seat_finder.plainly(*arm)

    def _pile_arm(self, t: float) -> tuple[Point, Point] | None:
        """The pile's centre and where the arm laying the card at rest at ``t`` came into view (camera pixels)."""
        if not self.pile_found or (profile := self.profile) is None or profile.is_whole_frame:
            return None
        root = self._arms.at_pile(profile, t)
        return None if root is None else (profile.pile_centre, root)

    def not_seat(self, seat: int, t: float) -> int | None:
        """Before the seats are sure: the seat of a play laid out of turn (:meth:`SeatFinder.instead_of`)."""
        arm = self._pile_arm(t)
        return None if arm is None else self.seat_finder.instead_of(*arm, seat)

    def draw_seat(self, t: float) -> int | None:
        """The seat whose arms come into the view where the arm reaching to the stock around ``t`` does (a
        player's arms come in by their shoulder, wherever they reach): the seat found (or, before the seats
        are sure, placed from the dealer's side) nearest along the view's edge, when plainly nearer than the
        next. ``None``: not plain (the motion detector's seat stands; before the seats are found, the seat
        that owes the draw)."""
        profile, cut = self.profile, self._cut
        root = cut[1] if cut is not None and cut[0] == t else None  # a draw cut short: its arm as it was
        if profile is None or profile.is_whole_frame or (root is None and (
                self.given is not None or (root := self._arms.at_stock(profile, t)) is None)):
            return None  # a given profile's seats: the motion detector's seat stands, as with no finder
        if self.given is not None:
            return profile.seat_towards(root, tuple(np.mean(np.array(profile.stock or profile.pile), axis=0)))
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
        """Before the seats are sure, a draw's arm from a side no placed seat's arms came from: its seat when plain
        (:meth:`SeatFinder.plainly`), learnt as a play's arm is (one may draw before a first card); else ``None``."""
        seat = self.seat_finder.plainly(profile.pile_centre, root)
        if seat is not None:
            log.debug("a draw's arm from a new side: seat %d", seat)
            self._learn(profile, root, seat)
        return seat

    def played(self, seat: int, t: float, *, start: bool = False) -> None:
        """The card that came to rest at ``t`` was laid by ``seat`` (the start card: the dealer): its arm
        tells where ``seat`` sits."""
        arm, profile = self._pile_arm(t), self.profile
        if arm is not None and profile is not None:
            self._learn(profile, arm[1], seat, start=start)

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
        self.stock_visits.moved(move, self._t)
        self._arms.clear()
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
        upright = self._card_quad is None or pile_on_plane(self._card_quad, PILE_HALF, (w, h)) is None
        self._into_view = self.given is None and upright and not all(
            -1 <= x <= w + 1 and -1 <= y <= h + 1 for x, y in moved.pile)
