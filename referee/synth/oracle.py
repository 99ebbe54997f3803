"""A detector double for benchmarks and tests: it replays a generated game's ground-truth boxes.

:func:`referee.synth.video.load_boxes` reads what :func:`~referee.synth.video.write_video` wrote beside
the footage (per frame, every card a perfect detector could report); :class:`OracleDetector` answers
``detect`` with those cards, boxed in the pile view as the real detector would box them. It measures
the tracker and the wiring (``referee bench``, ``benchmarks/e2e_eval.py --oracle``), never the model.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.cards import FACE_CLASSES, Card
from referee.synth.filming import VisibleCard
from referee.vision.calibration import CalibrationProfile
from referee.vision.detections import Detections

__all__ = ["OracleDetector"]

Image = NDArray[np.uint8]


class OracleDetector:
    """A detector double that reads the generator's ground truth: every card at least ``min_visible``
    visible, boxed in the pile view of ``profile``. Set :attr:`frame_index` before each ``detect``
    (or let it count calls). For validating the pipeline and the evaluation, never a measurement of
    the model."""

    def __init__(self, frames: Sequence[Sequence[VisibleCard]], profile: CalibrationProfile,
                 *, min_visible: float = 0.5, confidence: float = 0.9) -> None:
        self.frames = frames
        self.profile = profile
        self.min_visible = min_visible
        self.confidence = confidence
        self.frame_index: int | None = None
        self._calls = 0
        self._names = tuple(FACE_CLASSES)
        self._homography = profile.pile_homography()
        #: The profile in use now, asked at each ``detect`` (a pipeline that finds its table changes it);
        #: ``None``: ``profile`` throughout.
        self.follow: Callable[[], CalibrationProfile | None] | None = None

    @property
    def face_names(self) -> tuple[str, ...]:
        return self._names

    def detect(self, image: Image) -> Detections:
        index = self.frame_index if self.frame_index is not None else self._calls
        self._calls += 1
        if not 0 <= index < len(self.frames):
            return Detections.empty()
        ph, pw = image.shape[:2]
        current = self.follow() if self.follow is not None else None
        if current is not None and current is not self.profile:
            self.profile, self._homography = current, current.pile_homography()
        boxes, labels, classes = [], [], []
        for label, quad, visible in self.frames[index]:
            if visible < self.min_visible:
                continue
            pts = cv2.perspectiveTransform(quad.reshape(-1, 1, 2).astype(np.float64), self._homography)
            pts = pts.reshape(-1, 2)
            cx, cy = pts.mean(axis=0)
            if not (0 <= cx < pw and 0 <= cy < ph):
                continue
            x0, y0 = max(0.0, float(pts[:, 0].min())), max(0.0, float(pts[:, 1].min()))
            x1, y1 = min(float(pw), float(pts[:, 0].max())), min(float(ph), float(pts[:, 1].max()))
            boxes.append((x0, y0, x1, y1))
            labels.append(label)
            classes.append(self._names.index(Card.from_label(label).face))
        if not boxes:
            return Detections.empty()
        n = len(boxes)
        return Detections(np.asarray(boxes, np.float32), np.full(n, self.confidence, np.float32),
                          np.asarray(classes, np.int64), tuple(labels), np.full(n, 0.95, np.float32))
