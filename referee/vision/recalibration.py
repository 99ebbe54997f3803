"""Calibration while the camera runs: a new profile handed to the pipeline between frames, and a
suggested pile zone from where cards have landed.

The calibration page (:mod:`referee.web.calibrate`) saves a profile from clicks while the pipeline runs in
another thread. :class:`LiveProfile` carries it across: the web thread :meth:`~LiveProfile.request`\\ s
it, the pipeline :meth:`~LiveProfile.take`\\ s it before its next frame, so a frame is never judged half
in one pile view and half in another. The pipeline also notes where each card it believed came to
rest, in camera pixels (:meth:`~LiveProfile.note_landed`, a bounded list): :func:`suggest_pile_zone`
turns them into a pile zone with room around it, which the page offers to adopt in one click.

When the pile view changes, the cards the tracker knows are on the pile are moved into the new view
(:func:`view_mover`), so the top card is not taken for a new play when the new view shows it.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence

import cv2
import numpy as np
import numpy.typing as npt

from referee.vision.calibration import CalibrationProfile, Point, Quad, order_clockwise

__all__ = ["LANDED_KEPT", "MIN_LANDED", "LiveProfile", "suggest_pile_zone", "view_mover"]

#: How many landed cards are remembered (the newest): enough to cover a pile's spread, few enough to
#: follow a pile that moved.
LANDED_KEPT = 64
#: Landed cards needed before a pile zone is suggested: one card says little of the pile's spread.
MIN_LANDED = 3
#: The room around the landed cards, in median card lengths: the next card may land a little wider.
MARGIN_CARDS = 0.75
#: A card box must keep at least this share of its area inside the new view to stay on the pile.
KEPT_SHARE = 0.5

Box = npt.NDArray[np.float32]


class LiveProfile:
    """A profile waiting for the pipeline's next frame, and where cards landed; thread-safe."""

    def __init__(self, kept: int = LANDED_KEPT) -> None:
        self._lock = threading.Lock()
        self._pending: CalibrationProfile | None = None
        self._landed: deque[tuple[tuple[int, int], Quad]] = deque(maxlen=kept)

    def request(self, profile: CalibrationProfile) -> None:
        """Use ``profile`` from the next frame on (a later request before that frame wins)."""
        with self._lock:
            self._pending = profile

    def pending(self) -> CalibrationProfile | None:
        """The profile requested and not yet taken, if any."""
        with self._lock:
            return self._pending

    def take(self) -> CalibrationProfile | None:
        """The profile requested since the last call (``None``: none); called between frames."""
        with self._lock:
            profile, self._pending = self._pending, None
            return profile

    def note_landed(self, corners: Sequence[Point], image_size: tuple[int, int]) -> None:
        """A card came to rest at ``corners`` (camera pixels of ``image_size`` frames)."""
        quad = order_clockwise([(float(x), float(y)) for x, y in corners])
        with self._lock:
            self._landed.append(((int(image_size[0]), int(image_size[1])), quad))

    def landed(self, image_size: tuple[int, int]) -> list[Quad]:
        """The landed cards' corners in pixels of ``image_size`` frames (oldest first)."""
        with self._lock:
            noted = list(self._landed)
        out: list[Quad] = []
        for (w, h), quad in noted:
            sx, sy = image_size[0] / w, image_size[1] / h
            out.append(tuple((x * sx, y * sy) for x, y in quad))  # type: ignore[arg-type]
        return out


def suggest_pile_zone(landed: Sequence[Quad], image_size: tuple[int, int], *,
                      min_cards: int = MIN_LANDED, margin: float = MARGIN_CARDS) -> Quad | None:
    """A pile zone around the ``landed`` cards (camera pixels): the smallest rectangle, turned as the
    cards lie, holding all their corners, widened by ``margin`` median card lengths on each side;
    upright and cut to the frame where the turned one would stick out of it. ``None`` with fewer than
    ``min_cards`` cards (too little to tell the pile's spread)."""
    if len(landed) < max(1, min_cards):
        return None
    w, h = image_size
    points = np.asarray([p for quad in landed for p in quad], np.float32).reshape(-1, 2)
    lengths = [max(float(np.ptp(q[:, 0])), float(np.ptp(q[:, 1])))
               for q in (np.asarray(quad, np.float32) for quad in landed)]
    pad = margin * float(np.median(lengths))
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
    turned = cv2.boxPoints(((cx, cy), (rw + 2 * pad, rh + 2 * pad), angle))
    if (turned[:, 0].min() >= 0 and turned[:, 1].min() >= 0
            and turned[:, 0].max() <= w and turned[:, 1].max() <= h):
        corners = turned.astype(np.float64)
    else:
        x1, y1 = max(float(points[:, 0].min()) - pad, 0.0), max(float(points[:, 1].min()) - pad, 0.0)
        x2, y2 = min(float(points[:, 0].max()) + pad, float(w)), min(float(points[:, 1].max()) + pad, float(h))
        if x2 - x1 < 2 or y2 - y1 < 2:
            return None
        corners = np.array([(x1, y1), (x2, y1), (x2, y2), (x1, y2)], np.float64)
    quad = order_clockwise([(round(float(x), 1), round(float(y), 1)) for x, y in corners])
    return quad


def view_mover(old: CalibrationProfile, new: CalibrationProfile) -> Callable[[Box], Box | None]:
    """A box of ``old``'s top-down pile view -> the box it covers in ``new``'s (both profiles for frames
    of one size), cut to the new view; ``None`` when less than :data:`KEPT_SHARE` of it stays inside."""
    matrix = new.pile_homography() @ np.linalg.inv(old.pile_homography())
    width, height = new.pile_size

    def move(box: Box) -> Box | None:
        x1, y1, x2, y2 = (float(v) for v in box[:4])
        corners = np.array([[(x1, y1)], [(x2, y1)], [(x2, y2)], [(x1, y2)]], np.float64)
        moved = cv2.perspectiveTransform(corners, matrix).reshape(-1, 2)
        lo, hi = moved.min(axis=0), moved.max(axis=0)
        full = float((hi[0] - lo[0]) * (hi[1] - lo[1]))
        cut = np.array([max(lo[0], 0.0), max(lo[1], 0.0), min(hi[0], width), min(hi[1], height)], np.float32)
        kept = float(max(cut[2] - cut[0], 0.0) * max(cut[3] - cut[1], 0.0))
        if full <= 0 or kept < KEPT_SHARE * full:
            return None
        return cut

    return move
