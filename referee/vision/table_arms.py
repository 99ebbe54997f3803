"""The arms seen in the last seconds of footage (part of :mod:`referee.vision.table_finder`): where the arm
that laid a card on the pile, or reached to the stock, comes into the view. An arm comes in from outside the
view by its player's shoulder, however near the pile or the stock the player sits. And the hands that came to
the pile (:class:`PileVisits`): an arm reaching across it to the stock lays no card."""

from __future__ import annotations

import math
from collections import deque

import numpy as np
import numpy.typing as npt

from referee.vision.calibration import CalibrationProfile, Point, Quad
from referee.vision.table_seats import angle
from referee.vision.tracking.motion import blob_touching, passed_on

__all__ = ["ARM_HISTORY_S", "ARM_WINDOW", "DRAW_ARM_S", "DRAW_WINDOW", "ArmHistory", "PileVisits"]

#: Seconds of foreground masks kept to find the arm that laid a card.
ARM_HISTORY_S = 3.0
#: The window around a card's rest time whose arms laid it (seconds before, after).
ARM_WINDOW = (0.7, 0.5)
#: The window around a draw's time whose arms reached to the stock (seconds before, after).
DRAW_WINDOW = (0.6, 0.3)
#: Seconds before and after a draw's time in which an arm over the pile is the drawing arm, on its way.
DRAW_ARM_S = (1.0, 0.3)


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
        that side's arms too short for :meth:`Zones.arm_root`, which wants them past the zone's corners)."""
        blob = blob_touching(foreground, zone)
        if blob is None:
            return None
        if not (blob[0, :].any() or blob[-1, :].any() or blob[:, 0].any() or blob[:, -1].any()):
            return None  # no arm from outside: a hand already in view, or no hand
        ys, xs = np.nonzero(blob)
        zy, zx = np.nonzero(zone)
        cx, cy = float(zx.mean()), float(zy.mean())
        far = int(np.argmax((xs - cx) ** 2 + (ys - cy) ** 2))
        return float(xs[far]) / self.scale, float(ys[far]) / self.scale
