"""The arms seen in the last seconds of footage (part of :mod:`referee.vision.table_finder`): where the arm
that laid a card on the pile, or reached to the stock, comes into the view. An arm comes in from outside the
view by its player's shoulder, however near the pile or the stock the player sits. And the hands that came to
the pile (:class:`PileVisits`): an arm reaching across it to the stock lays no card. And the hands at the stock
(:class:`StockVisits`): one there as the camera was knocked is a draw the knock cut short."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from referee.vision.calibration import CalibrationProfile, Point, Quad
from referee.vision.table_seats import angle
from referee.vision.tracking.arms import ARM_PAST, blob_touching, passed_on

__all__ = ["ARM_HISTORY_S", "ARM_WINDOW", "CUT_HELD_S", "CUT_QUIET_S", "DRAW_ARM_S", "DRAW_WINDOW", "ArmHistory",
           "PileVisits", "StockVisits"]

#: Seconds of foreground masks kept to find the arm that laid a card.
ARM_HISTORY_S = 3.0
#: The window around a card's rest time whose arms laid it (seconds before, after).
ARM_WINDOW = (0.7, 0.5)
#: The window around a draw's time whose arms reached to the stock (seconds before, after).
DRAW_WINDOW = (0.6, 0.3)
#: Seconds before and after a draw's time in which an arm over the pile is the drawing arm, on its way.
DRAW_ARM_S = (1.0, 0.3)
#: Seconds an arm must have held at the stock, the camera still, for a hand there as it was knocked to have drawn
#: (a hand that draws dwells there; the motion detector's own least, 0.25 s)...
CUT_HELD_S = 0.25
#: ...and the seconds with no arm at the stock, once the camera is followed, before that draw is said (longer than
#: the motion detector takes to judge a draw whose hand is seen leaving the stock in the followed view).
CUT_QUIET_S = 0.6
#: Frames an arm over the stock had its hand at the pile for it to have been on its way there (no draw).
CUT_PASSED = 2


class PileVisits:
    """Footage times an arm was over the pile while the camera held still (the last few hundred frames), and
    of the draws judged lately: whether a hand came to the pile between two moments (:meth:`hand_between`).
    A visit counts once its arm has left without reaching on past the pile to the stock (:meth:`update`);
    an arm within :data:`DRAW_ARM_S` of a draw judged is the drawing arm too."""

    def __init__(self) -> None:
        self.visits: deque[float] = deque(maxlen=256)
        self.drawn: deque[float] = deque(maxlen=64)
        #: The visit going on now, and whether its hand has reached on past the pile to the stock.
        self._visit: list[float] = []
        self._drew = False

    def update(self, t: float, profile: CalibrationProfile, foreground: npt.NDArray[np.bool_], busy: bool) -> None:
        """An arm over the pile now (``busy``, the camera still), or not: a visit ends when it has left. An
        arm drawing across the pile lays no card, and its draw may go unjudged (its hand left the stock as
        the camera was knocked: the pipeline judges no draw through a moving view)."""
        if busy:
            self._visit.append(t)
            if not self._drew and profile.stock is not None and not profile.is_whole_frame:
                shape = foreground.shape
                pile, stock = profile.mask(profile.pile, shape), profile.mask(profile.stock, shape)
                # passed_on's arm over its first zone with its hand in the second: here over the pile, on to the stock.
                self._drew = passed_on(foreground, pile, stock)
            return
        if self._visit and not self._drew:
            self.visits.extend(self._visit)
        self._visit, self._drew = [], False

    def hand_between(self, start: float, end: float) -> bool:
        """An arm came over the pile after ``start`` and before ``end`` that was no drawing arm (the visit now
        counted while its hand has not reached the stock)."""
        before, after = DRAW_ARM_S
        visits = [*self.visits, *([] if self._drew else self._visit)]
        return any(start < v < end and not any(d - before <= v <= d + after for d in self.drawn) for v in visits)


class ArmHistory:
    """The motion detector's foreground (low resolution) of the last :data:`ARM_HISTORY_S` seconds, and the
    arms in it. Points are camera pixels."""

    def __init__(self) -> None:
        self.frames: deque[tuple[float, npt.NDArray[np.bool_]]] = deque()
        #: Low-resolution pixels per camera pixel.
        self.scale = 1.0

    def add(self, t: float, foreground: npt.NDArray[np.bool_], image_width: int) -> None:
        self.scale = foreground.shape[1] / image_width
        self.frames.append((t, foreground.copy()))
        while self.frames and self.frames[0][0] < t - ARM_HISTORY_S:
            self.frames.popleft()

    def clear(self) -> None:
        """The camera moved: the arms seen before point from elsewhere."""
        self.frames.clear()

    def _roots(self, profile: CalibrationProfile, zone_quad: Quad, t: float,
               window: tuple[float, float]) -> tuple[list[Point], npt.NDArray[np.bool_]] | None:
        if not self.frames:
            return None
        zone = profile.mask(zone_quad, self.frames[-1][1].shape)
        roots = [r for ts, fg in self.frames if t - window[0] <= ts <= t + window[1]
                 and (r := self.root(fg, zone)) is not None]
        return roots, zone

    def at_pile(self, profile: CalibrationProfile, t: float) -> Point | None:
        """Where the arm over the pile around ``t`` comes in: the one the others seen agree with most."""
        found = self._roots(profile, profile.pile, t, ARM_WINDOW)
        if found is None or not found[0]:
            return None
        roots = found[0]
        origin = profile.pile_centre
        angles = np.array([angle(origin, r) for r in roots])
        spread = [float(np.abs(np.remainder(angles - a + math.pi, 2 * math.pi) - math.pi).sum()) for a in angles]
        return roots[int(np.argmin(spread))]

    def at_stock(self, profile: CalibrationProfile, t: float) -> Point | None:
        """Where the arm reaching to the stock around ``t`` comes in: the farthest from the stock seen."""
        if profile.stock is None:
            return None
        found = self._roots(profile, profile.stock, t, DRAW_WINDOW)
        if found is None or not found[0]:
            return None
        roots, zone = found
        zy, zx = np.nonzero(zone)
        stock = float(zx.mean()) / self.scale, float(zy.mean()) / self.scale
        return max(roots, key=lambda r: math.hypot(r[0] - stock[0], r[1] - stock[1]))

    def root(self, foreground: npt.NDArray[np.bool_], zone: npt.NDArray[np.bool_]) -> Point | None:
        """The far end (camera pixels) of the foreground reaching into ``zone`` from the view's edge: an arm
        comes in from outside the view, however near the pile its player sits (a pile near one edge leaves
        that side's arms too short for :meth:`Zones.arm_root`, which wants them past the zone's corners). Or one
        reaching past the zone's corners as :meth:`Zones.arm_root` wants, from within the view: a player whose
        shoulder the camera sees (seated inside a wide view), whose arm never touches its edge."""
        blob = blob_touching(foreground, zone)
        if blob is None:
            return None
        ys, xs = np.nonzero(blob)
        zy, zx = np.nonzero(zone)
        cx, cy = float(zx.mean()), float(zy.mean())
        reach = (xs - cx) ** 2 + (ys - cy) ** 2
        far = int(np.argmax(reach))
        from_outside = bool(blob[0, :].any() or blob[-1, :].any() or blob[:, 0].any() or blob[:, -1].any())
        if not from_outside and math.sqrt(float(reach[far])) < ARM_PAST * math.sqrt(float(zone.sum()) / math.pi):
            return None  # no arm from outside, nor one past the zone's corners: a hand already in view, or no hand
        return float(xs[far]) / self.scale, float(ys[far]) / self.scale


class StockVisits:
    """The arm at the stock while the camera held still, and a draw a knock cut short. The motion detector judges
    a draw as its hand leaves the stock; the pipeline judges none through a moving view, and the detector made for
    the followed view starts with no hand in sight. So a hand that had held at the stock (:data:`CUT_HELD_S`, its
    hand not going on to the pile) when the camera began to move, or had just left it, and whose draw was not
    judged, drew: said once the view is followed and no arm has been at the stock for :data:`CUT_QUIET_S` (a hand
    still there is the motion detector's to judge), unless a draw is judged meanwhile, or the arm at the stock in the
    followed view reaches on to the pile (:data:`CUT_PASSED` frames: it was on its way there)."""

    def __init__(self) -> None:
        #: The visit going on (or just ended): footage times an arm was at the stock, where it came in (the
        #: farthest from the stock seen), and the frames its hand was at the pile.
        self._run: list[float] = []
        self._root: Point = (0.0, 0.0)
        self._far = -1.0
        self._passed = 0
        #: A draw cut short by a knock: (when the camera began to move, where its arm comes in, when its hand
        #: came), and whether the view has been followed since; the last time an arm was seen at the stock.
        self._cut: tuple[float, Point, float] | None = None
        self._followed = False
        self._held = False
        self._seen = 0.0
        self._moving = False

    def update(self, t: float, profile: CalibrationProfile, foreground: npt.NDArray[np.bool_], arms: ArmHistory, *,
               moving: bool, drawn: Sequence[float], fps: float) -> None:
        """One frame: the arm reaching into the stock now, if any (``arms``' :meth:`ArmHistory.root`), and
        whether its hand is at the pile; ``moving``: the camera is moving (the foreground shows the view moving,
        not arms: the frame it begins, :meth:`knocked`). A view that stopped moving with no follow (taken as it
        is) drops a waiting draw."""
        if moving and not self._moving:
            self.knocked(t, fps, drawn)
        self._moving = moving
        if moving or profile.stock is None or profile.is_whole_frame:
            return
        if self._cut is not None and not self._followed:
            self._cut = None
        shape = foreground.shape
        stock = profile.mask(profile.stock, shape)
        if (root := arms.root(foreground, stock)) is None:
            return
        passed = passed_on(foreground, stock, profile.mask(profile.pile, shape))
        sx, sy = np.mean(np.array(profile.stock, np.float64), axis=0)
        far = math.hypot(root[0] - sx, root[1] - sy)
        self._seen = t
        if self._run and t - self._run[-1] > CUT_QUIET_S:
            self._run, self._far, self._passed = [], -1.0, 0  # a new visit
        self._run.append(t)
        self._passed += passed
        if far > self._far:
            self._root, self._far = root, far
        if self._cut is not None and self._passed >= CUT_PASSED:
            self._cut = None  # the arm at the stock once the view was followed went on to the pile: on its way there

    def knocked(self, t: float, fps: float, drawn: Sequence[float]) -> None:
        """The camera began to move at ``t``: a hand at the stock, or that left it just now (its draw not judged
        yet), that held there long enough drew, unless a draw was judged since it came. One that came just before
        and was still there may have drawn through the knock: it did if it had come :data:`CUT_HELD_S` before
        the view was followed (:meth:`moved`: a hand that came to the stock a frame before the knock can draw
        while the view moves)."""
        if self._run and t - self._run[-1] <= CUT_HELD_S and self._cut is None and self._passed < CUT_PASSED \
                and not any(d >= self._run[0] for d in drawn):
            held = len(self._run) >= max(2, round(CUT_HELD_S * fps))
            if held or t - self._run[-1] <= 1.5 / fps:
                self._cut, self._followed, self._held = (t, self._root, self._run[0]), False, held
        self._run, self._far, self._passed = [], -1.0, 0

    def moved(self, move: Callable[[Point], Point], t: float) -> None:
        """The camera was followed at ``t``: where the waiting draw's arm comes in moves with it (a hand there as
        the camera began to move that came less than :data:`CUT_HELD_S` before this drew nothing sure)."""
        self._run, self._far, self._passed = [], -1.0, 0
        if self._cut is not None:
            left, root, came = self._cut
            held = self._held or t - came >= CUT_HELD_S
            self._cut, self._followed = ((left, move(root), came), True) if held else (None, False)

    def cut_short(self, t: float, drawn: Sequence[float]) -> tuple[float, Point] | None:
        """The draw a knock cut short, once it is to be said: (when the camera began to move, where its arm comes
        in); else ``None``. Dropped when a draw was judged since its hand came."""
        if self._cut is None:
            return None
        left, root, came = self._cut
        if any(d >= came for d in drawn):
            self._cut = None
            return None
        if not self._followed or t - max(self._seen, left) < CUT_QUIET_S:
            return None
        self._cut = None
        return left, root
