"""Boxes on the top-down pile view, and the geometry the tracker reads them by.

A box is ``xyxy`` in top-down pile pixels. A card on the pile never moves, turns or grows once seen
whole; these measures tell a box that did one of those (a new card) from one a hand only swelled or
cut short (the same card).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np
import numpy.typing as npt

from referee.vision.detections import box_area, intersection, iou

if TYPE_CHECKING:
    from referee.vision.tracking.config import TrackerConfig

Box = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]


def turned(first: Box, now: Box) -> float:
    """How much a box changed shape the way a card turned in place changes it: the lesser of its
    growth along one axis and its shrinking along the other, as shares of its first size (0.0 where
    it grew on both axes or shrank on both, as a box swollen by a hand or cut short by a card over
    it does)."""
    dw = float(now[2] - now[0]) / max(float(first[2] - first[0]), 1.0) - 1.0
    dh = float(now[3] - now[1]) / max(float(first[3] - first[1]), 1.0) - 1.0
    return max(min(dw, -dh), min(-dw, dh), 0.0)


def containment(inner: Box, outer: Box) -> float:
    """How much of ``inner`` lies inside ``outer`` (1.0: all of it)."""
    area = box_area(inner)
    return intersection(inner, outer) / area if area > 0 else 0.0


def translation(first: Box, now: Box) -> float:
    """How far a box moved as a whole from ``first`` to ``now``, as a share of its first size: along
    the axis where both its edges moved the same way, the lesser of the two shifts (0.0 where no axis
    did: a box that only grew or shrank on one side, or both ways, changed shape in place)."""
    shifts = []
    for lo, hi in ((0, 2), (1, 3)):
        d_lo, d_hi = float(now[lo] - first[lo]), float(now[hi] - first[hi])
        size = max(float(first[hi] - first[lo]), 1.0)
        shifts.append(min(abs(d_lo), abs(d_hi)) / size if d_lo * d_hi > 0 else 0.0)
    return max(shifts)


def overhang(box: Box, pose: Box) -> float:
    """How far ``box`` sticks out of ``pose`` on its worst side, as a share of the pose's size that way."""
    w, h = max(float(pose[2] - pose[0]), 1.0), max(float(pose[3] - pose[1]), 1.0)
    return max(float(pose[0] - box[0]) / w, float(box[2] - pose[2]) / w,
               float(pose[1] - box[1]) / h, float(box[3] - pose[3]) / h, 0.0)


def cut_short(cfg: TrackerConfig, box: Box, pose: Box) -> bool:
    """``box`` is ``pose`` with one edge cut short: three of its edges lie on the pose's (within
    ``max_overhang`` of its size, as a still card's boxes jitter), the fourth further inside it. What
    shows of a card that something lies over on one side keeps the edges that still show where they
    were; a card laid on it has edges of its own (one laid straighter on a turned card lies inside it
    on every side)."""
    w, h = max(float(pose[2] - pose[0]), 1.0), max(float(pose[3] - pose[1]), 1.0)
    insets = (float(box[0] - pose[0]) / w, float(pose[2] - box[2]) / w,
              float(box[1] - pose[1]) / h, float(pose[3] - box[3]) / h)
    on_edge = sum(abs(d) <= cfg.max_overhang for d in insets)
    return on_edge == 3 and max(insets) > cfg.max_overhang


def in_pose(cfg: TrackerConfig, box: Box, pose: Box) -> bool:
    """``box`` lies in ``pose``: nearly the same box, or mostly inside it (the part that shows)."""
    return iou(box, pose) >= cfg.same_pose_iou or containment(box, pose) >= cfg.known_containment


def over_most_of(cfg: TrackerConfig, box: Box, pose: Box) -> bool:
    """``box`` covers most of ``pose`` (``hides_top_share``): a card lying there now would hide the one in it."""
    return intersection(pose, box) >= cfg.hides_top_share * box_area(pose)


def low_res_area(xyxy: Box, size: tuple[int, int], shape: tuple[int, ...]) -> tuple[slice, slice] | None:
    """The pixels of an image of ``shape`` (rows, cols) under ``xyxy`` given in pixels of an image of
    ``size`` (width, height): the same view at a lower resolution. ``None`` when nothing is under it."""
    if size[0] <= 0 or size[1] <= 0:
        return None
    h, w = shape[:2]
    sx, sy = w / size[0], h / size[1]
    x1, y1 = max(int(xyxy[0] * sx), 0), max(int(xyxy[1] * sy), 0)
    x2, y2 = min(int(np.ceil(xyxy[2] * sx)), w), min(int(np.ceil(xyxy[3] * sy)), h)
    if x2 <= x1 or y2 <= y1:
        return None
    return slice(y1, y2), slice(x1, x2)


def changed_under(before: npt.NDArray[np.uint8], now: npt.NDArray[np.uint8], xyxy: Box, size: tuple[int, int],
                  level: int) -> tuple[tuple[slice, slice], npt.NDArray[np.bool_]] | None:
    """Which pixels of the low-resolution pile picture under ``xyxy`` (pixels of a view of ``size``) differ
    by more than ``level`` grey levels between ``before`` and ``now``, and where they lie
    (:func:`low_res_area`); ``None`` when nothing is under it."""
    area = low_res_area(xyxy, size, now.shape)
    if area is None:
        return None
    changed: npt.NDArray[np.bool_] = cv2.absdiff(now[area], before[area]) > level
    return area, changed
