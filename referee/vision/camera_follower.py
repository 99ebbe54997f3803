"""A camera bumped or turned mid-game, noticed: the table's features move as a whole (part of
:mod:`referee.vision.table_finder`). Corners tracked from a reference view (Lucas-Kanade there and back,
then a RANSAC similarity with no zoom) say by how much, once the view holds still again."""

from __future__ import annotations

import logging
import math

import cv2
import numpy as np
import numpy.typing as npt

log = logging.getLogger(__name__)

__all__ = ["BUMP_CHECKS", "BUMP_PX", "BUMP_STEADY_PX", "FOLLOW_WIDTH", "MAX_ZOOM", "SPREAD", "CameraFollower"]

#: A view moved by more than this (camera pixels at a corner) is a bump...
BUMP_PX = 8.0
#: ...once two checks this close to each other (pixels) agree that it holds still there.
BUMP_STEADY_PX = 3.0
#: Checks in a row that must see the view moved the same way (the camera holds still after the bump).
BUMP_CHECKS = 3
#: The most a bumped view may seem to grow or shrink (a share): more is no bump but a poor match.
MAX_ZOOM = 0.004
#: The points that agree on a move must lie this share of the view apart at least, each way (a hand moving
#: over the table is smaller; a plain table holds few points the tracking keeps, often only round the cards).
SPREAD = 0.3
#: Width of the grey images the camera's movement is measured on.
FOLLOW_WIDTH = 640


class CameraFollower:
    """Notices the camera moved as a whole (a bump): features tracked from a reference view."""

    def __init__(self, image_size: tuple[int, int], every: int = 2) -> None:
        w, h = image_size
        self.scale = FOLLOW_WIDTH / w
        self.size = (FOLLOW_WIDTH, max(16, round(h * self.scale)))
        self.every = max(1, every)
        self._clahe = cv2.createCLAHE(clipLimit=3.0, tileGridSize=(8, 8))
        self._ref: npt.NDArray[np.uint8] | None = None
        self._points: npt.NDArray[np.float32] | None = None
        self._last: npt.NDArray[np.float64] | None = None
        self._frames = 0
        self._since_ref = 0
        self._steady = 0
        self._moving_since: int | None = None
        #: Frames the view may be seen moving before it is taken as it is (a camera carried, not knocked).
        self.give_up = 90

    def _grey(self, image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        small = cv2.resize(image, self.size, interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        # A plain table has little to hold on to beside the cards' strong corners: its grain, drawn out
        # (local contrast), and the sensor's grain smoothed away.
        out: npt.NDArray[np.uint8] = self._clahe.apply(cv2.GaussianBlur(grey, (3, 3), 0))
        return out

    def reference(self, image: npt.NDArray[np.uint8]) -> None:
        """Measure movement from this view on."""
        grey = self._grey(image)
        points = cv2.goodFeaturesToTrack(grey, maxCorners=300, qualityLevel=0.001, minDistance=10, blockSize=7)
        self._ref = grey
        self._points = None if points is None or len(points) < 12 else points.astype(np.float32)
        self._last = None
        self._since_ref = 0
        self._steady = 0
        self._moving_since = None

    @property
    def moving(self) -> bool:
        """The view is seen moved from its reference and not yet still: what it shows now is not where
        the zones say."""
        return self._moving_since is not None

    def update(self, image: npt.NDArray[np.uint8], *, busy: bool = False) -> npt.NDArray[np.float64] | None:
        """A 2x3 similarity (camera pixels, reference -> now) once the view holds still moved by more than
        :data:`BUMP_PX`; ``None`` otherwise. ``busy``: a hand is over the table (the reference is not renewed)."""
        self._frames += 1
        self._since_ref += 1
        if self._ref is None:
            self.reference(image)
            return None
        if self._points is None or (self._frames % self.every and self._last is None):
            return None  # while the view is seen moved, every frame is checked
        grey = self._grey(image)
        moved, status, _ = cv2.calcOpticalFlowPyrLK(self._ref, grey, self._points, None, winSize=(21, 21), maxLevel=3)
        back, status_back, _ = cv2.calcOpticalFlowPyrLK(grey, self._ref, moved, None, winSize=(21, 21), maxLevel=3)
        # Kept: points tracked there and back to where they were (a point on grain the noise hides is not).
        ok = (status.ravel() == 1) & (status_back.ravel() == 1) & (
            np.linalg.norm((back - self._points).reshape(-1, 2), axis=1) < 1.0)
        if ok.sum() < 12:
            return None
        matrix, inliers = cv2.estimateAffinePartial2D(self._points[ok], moved[ok], method=cv2.RANSAC,
                                                      ransacReprojThreshold=2.0)
        if matrix is None or inliers is None or inliers.sum() < max(12, 0.5 * ok.sum()):
            return None
        if abs(math.hypot(matrix[0, 0], matrix[1, 0]) - 1.0) > MAX_ZOOM:
            return None  # a knocked camera turns and shifts; it does not come nearer the table
        # The table moves as a whole: what agrees must lie all over the view, not on one hand.
        kept = self._points[ok][inliers.ravel() == 1].reshape(-1, 2)
        w, h = self.size
        if np.ptp(kept[:, 0]) < SPREAD * w or np.ptp(kept[:, 1]) < SPREAD * h:
            return None
        w, h = self.size
        corners = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64)
        shift = corners @ matrix[:, :2].T + matrix[:, 2] - corners
        moved_px = float(np.abs(shift).max()) / self.scale
        if moved_px <= BUMP_PX:
            self._last = None
            self._moving_since = None
            if self._since_ref > 150 and not busy:  # follow the light and the new cards, slowly
                self.reference(image)
            return None
        if self._moving_since is None:
            self._moving_since = self._frames
        elif self._frames - self._moving_since > self.give_up:
            log.warning("the view keeps moving: taken as it is now (the zones stay where they were)")
            self.reference(image)
            return None
        last, self._last = self._last, matrix
        drift = None if last is None else corners @ (matrix - last)[:, :2].T + (matrix - last)[:, 2]
        if drift is None or float(np.abs(drift).max()) / self.scale > BUMP_STEADY_PX:
            self._steady = 0
            return None  # still moving
        self._steady += 1
        if self._steady < BUMP_CHECKS - 1:
            return None
        # To camera pixels: scale down, move, scale up.
        s = self.scale
        full: npt.NDArray[np.float64] = np.array(matrix, np.float64)
        full[:, 2] /= s
        self.reference(image)
        return full
