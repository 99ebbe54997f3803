"""Arms reaching into a zone, and the seats they come from.

An arm is the foreground blob that reaches into a zone and past its corners; its far end (the shoulder
end) lies towards its player's seat. Zones are masks at the motion detector's low resolution; points
are camera pixels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import cv2
import numpy as np

from referee.vision.calibration import CalibrationProfile, Point
from referee.vision.tracking.background import DILATE
from referee.vision.tracking.boxes import Mask


def farthest(points: Sequence[tuple[float, float]], centre: Point) -> tuple[float, float]:
    """The point farthest from a zone's ``centre`` (camera pixels): at a zone off to one side, the
    hand's or arm's reach from its seat. Two neighbouring seats' hands reach a stock in a corner from
    nearly one direction, and what lies nearer the zone (the hand moving about in it, an arm seen only
    in part as it comes) points between them."""
    cx, cy = centre
    return max(points, key=lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2)


#: How far from a zone's centre, in the zone's equal-area radii, an arm's far end lies: past the zone's corners (a
#: blob that stays nearer is a hand already in the zone, or what lies there, not an arm reaching in).
ARM_PAST = 1.5


class ZoneShape(NamedTuple):
    """A zone mask's centre and equal-area radius, in low-resolution pixels."""

    x: float
    y: float
    radius: float


class Zones:
    """The zones of one camera view at ``scale`` (low-resolution pixels per camera pixel): their shapes,
    the arms reaching into them and the seats those point at."""

    def __init__(self, profile: CalibrationProfile, scale: float) -> None:
        self.profile = profile
        self.scale = scale
        #: each zone mask asked about, with its shape (a view has a few zones: looked up by identity)
        self._shapes: list[tuple[Mask, ZoneShape]] = []

    def shape(self, zone: Mask) -> ZoneShape:
        """Centre (x, y) and equal-area radius of a zone mask, in low-resolution pixels (the zones
        are fixed: computed once each)."""
        for known, shape in self._shapes:
            if known is zone:
                return shape
        zy, zx = np.nonzero(zone)
        shape = ZoneShape(float(zx.mean()), float(zy.mean()), math.sqrt(float(zone.sum()) / math.pi))
        self._shapes.append((zone, shape))
        return shape

    def centre(self, zone: Mask) -> Point:
        """A zone's centre in camera pixels."""
        cx, cy, _ = self.shape(zone)
        return cx / self.scale, cy / self.scale

    def seat_of_arm(self, root: Point, zone: Mask) -> int:
        """The seat an arm reaching into ``zone`` points at: the direction of its far end (its
        :meth:`arm_root`) seen from the zone's centre, not the seat nearest that end. An arm that
        looks like the table (a dark arm on dark wood) stands out only in pieces, and the piece joined
        to the hand can end mid-table, nearer another seat than its own, while it still points the
        right way."""
        return self.profile.seat_towards(root, self.centre(zone))

    def arm_root(self, foreground: Mask, zone: Mask) -> Point | None:
        """Camera pixels of the far end of the foreground blob that reaches into ``zone``: the
        shoulder end of the arm, which is at its player's seat. ``None`` when the blob stays near the
        zone (no arm to follow)."""
        if not (foreground & zone).any():
            return None
        grown = cv2.dilate(foreground.astype(np.uint8), DILATE)
        count, labels = cv2.connectedComponents(grown)
        touching = np.unique(labels[zone & (grown > 0)])
        touching = touching[touching > 0]
        if count < 2 or not touching.size:
            return None
        ys, xs = np.nonzero(np.isin(labels, touching))
        cx, cy, radius = self.shape(zone)
        far = int(np.argmax((xs - cx) ** 2 + (ys - cy) ** 2))
        reach = math.hypot(float(xs[far]) - cx, float(ys[far]) - cy)
        if reach < ARM_PAST * radius:  # not past the zone's corners: no arm
            return None
        return float(xs[far]) / self.scale, float(ys[far]) / self.scale


def blob_touching(foreground: Mask, zone: Mask) -> Mask | None:
    """The foreground blobs (grown by a pixel, so an arm split by a thin gap stays one) that touch ``zone``;
    ``None`` when none does."""
    if not (foreground & zone).any():
        return None
    grown = cv2.dilate(foreground.astype(np.uint8), np.ones((3, 3), np.uint8))
    count, labels = cv2.connectedComponents(grown)
    touching = np.unique(labels[zone & (grown > 0)])
    touching = touching[touching > 0]
    if count < 2 or not touching.size:
        return None
    blob: Mask = np.isin(labels, touching)
    return blob


def comes_in_at(blob: Mask) -> Point | None:
    """Where ``blob`` comes into the view: the middle of its pixels on the view's outermost rows and columns
    (the blob's resolution); ``None`` when it does not reach the edge."""
    edge = np.zeros_like(blob)
    edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = True
    ey, ex = np.nonzero(blob & edge)
    return (float(ex.mean()), float(ey.mean())) if ey.size else None


def passed_on(foreground: Mask, stock: Mask, pile: Mask, came_from: Point | None = None) -> bool:
    """The arm over the ``stock`` zone in ``foreground`` goes on past it to the ``pile`` zone (see
    :func:`blob_passed_on`)."""
    if pile.all():
        return False
    return blob_passed_on(blob_touching(foreground, stock), stock, pile, came_from)


def blob_passed_on(blob: Mask | None, stock: Mask, pile: Mask, came_from: Point | None = None) -> bool:
    """The arm over the ``stock`` zone (``blob``: the foreground blobs touching it, :func:`blob_touching`) goes on
    past it: its hand (the end of the blob away from where it comes into the view) lies in the ``pile`` zone. An arm
    crossing the stock to lay a card or hover over the pile looks like a hand at the stock, and its player drew
    nothing; an arm reaching over the pile to the stock has its hand at the stock. Zones are masks at the
    foreground's resolution; ``False`` when the blob does not come in from the view's edge (where it comes from is
    unknown) or the pile zone is the whole view. ``came_from``: where the same arm came into the view when it was
    last seen to (the foreground's resolution), taken where the blob does not reach the edge in this frame (an arm
    that looks like the table near the edge stands out only in its lower part)."""
    if pile.all() or blob is None or not (blob & pile).any():
        return False
    root = comes_in_at(blob) or came_from
    if root is None:
        return False
    ys, xs = np.nonzero(blob)
    tip = int(np.argmax((xs - root[0]) ** 2 + (ys - root[1]) ** 2))
    return bool(pile[ys[tip], xs[tip]]) and not bool(stock[ys[tip], xs[tip]])
