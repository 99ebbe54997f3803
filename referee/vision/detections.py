"""One detection type shared by every vision stage (detector -> tracker -> overlay)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from referee.vision.colour import ColourReader

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]


def box_area(b: FloatArray) -> float:
    """Area of an xyxy box (0 when empty)."""
    return float(max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1]))


def intersection(a: FloatArray, b: FloatArray) -> float:
    """Area two xyxy boxes share."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return float(w * h) if w > 0 and h > 0 else 0.0


def iou(a: FloatArray, b: FloatArray) -> float:
    """Intersection over union of two xyxy boxes."""
    inter = intersection(a, b)
    union = box_area(a) + box_area(b) - inter
    return inter / union if union > 0 else 0.0


@dataclass(frozen=True)
class Detections:
    """Parallel arrays, one row per detected card, in the coordinates of the image given to the detector.

    ``labels`` are contract-1 card labels (``red_7``, ``wild``, ``back``): the face class the model
    predicted with the colour read from the card's pixels. ``class_id`` indexes the model's own class
    names (faces); ``colour_confidence`` is how sure the colour reading is (1.0 for black cards).
    ``confidence`` is how sure the model is of that face; ``found``, where the detector gives it, how
    sure it is that a card lies there at all (:func:`referee.vision.detect.decode_cards`): see
    :attr:`cardness`.
    """

    xyxy: FloatArray
    confidence: FloatArray
    class_id: IntArray
    labels: tuple[str, ...] = ()
    colour_confidence: FloatArray = field(default_factory=lambda: np.zeros(0, np.float32))
    found: FloatArray = field(default_factory=lambda: np.zeros(0, np.float32))

    def __post_init__(self) -> None:
        n = len(self.xyxy)
        if self.xyxy.shape != (n, 4):
            raise ValueError(f"xyxy must be (N, 4), got {self.xyxy.shape}")
        if len(self.confidence) != n or len(self.class_id) != n:
            raise ValueError("confidence and class_id must have one entry per box")
        if self.labels and len(self.labels) != n:
            raise ValueError("labels must have one entry per box")
        if len(self.colour_confidence) not in (0, n):
            raise ValueError("colour_confidence must have one entry per box")
        if len(self.found) not in (0, n):
            raise ValueError("found must have one entry per box")

    @classmethod
    def empty(cls) -> Detections:
        return cls(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64))

    @classmethod
    def merge(cls, parts: Sequence[Detections]) -> Detections:
        """All rows of ``parts``, in order (``found``/``colour_confidence`` kept only where every part has them)."""
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls.empty()
        labels = tuple(label for p in parts for label in p.labels) if all(p.labels for p in parts) else ()

        def joined(arrays: list[FloatArray]) -> FloatArray:
            return np.concatenate(arrays) if all(len(a) for a in arrays) else np.zeros(0, np.float32)

        return cls(np.concatenate([p.xyxy for p in parts]), np.concatenate([p.confidence for p in parts]),
                   np.concatenate([p.class_id for p in parts]), labels,
                   joined([p.colour_confidence for p in parts]), joined([p.found for p in parts]))

    def shifted(self, dx: float, dy: float) -> Detections:
        """The same rows with their boxes moved by (``dx``, ``dy``): a crop's detections in the whole image."""
        offset = np.array([dx, dy, dx, dy], np.float32)
        return Detections((self.xyxy + offset).astype(np.float32), self.confidence, self.class_id, self.labels,
                          self.colour_confidence, self.found)

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index: npt.NDArray[np.bool_] | npt.NDArray[np.int64] | Sequence[int]) -> Detections:
        idx = np.asarray(index)
        if idx.dtype == np.bool_:
            idx = np.flatnonzero(idx)
        labels = tuple(self.labels[i] for i in idx) if self.labels else ()
        colour_conf = self.colour_confidence[idx] if len(self.colour_confidence) else self.colour_confidence
        found = self.found[idx] if len(self.found) else self.found
        return Detections(self.xyxy[idx], self.confidence[idx], self.class_id[idx], labels, colour_conf, found)

    @property
    def cardness(self) -> FloatArray:
        """How sure the detector is that each box is a card, whatever its face: ``found`` where given,
        else the face's own ``confidence``."""
        return self.found if len(self.found) else self.confidence

    @property
    def area(self) -> FloatArray:
        wh: FloatArray = np.clip(self.xyxy[:, 2:] - self.xyxy[:, :2], 0, None)
        return (wh[:, 0] * wh[:, 1]).astype(np.float32)

    @property
    def center(self) -> FloatArray:
        return ((self.xyxy[:, :2] + self.xyxy[:, 2:]) / 2).astype(np.float32)


class Detector(Protocol):
    """Anything that turns a BGR image into card detections (ONNX runtime, ultralytics, a test double)."""

    @property
    def face_names(self) -> tuple[str, ...]: ...

    def detect(self, image: npt.NDArray[np.uint8]) -> Detections: ...


@runtime_checkable
class ReadsColours(Protocol):
    """A detector that reads each coloured card's colour against a deck's printing (``deck``: the reader
    learning it as the game plays, :class:`referee.vision.colour.DeckColours`, or a learned deck's palette;
    ``None``: the stock hues until the pipeline gives it one)."""

    deck: ColourReader | None


@runtime_checkable
class FollowsFrames(Protocol):
    """A detector that must know which frame of the footage it is shown (a double replaying the footage's
    ground truth: :class:`referee.synth.oracle.OracleDetector`)."""

    frame_index: int | None


class RawDetector(Detector, Protocol):
    """A detector that also gives its boxes before labelling: image pixels, confidences, face class ids."""

    def raw(self, image: npt.NDArray[np.uint8]) -> tuple[FloatArray, FloatArray, IntArray]: ...
