"""A whole view goes into a model that takes any size letterboxed only to its stride, as ultralytics' predict
does (issue 48: a 16:9 view costs the detector 60 % of a square one), and finds what the square look finds."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.bench import make_clip
from referee.vision.detect import DEFAULT_MODEL, OnnxDetector, letterbox


@pytest.mark.parametrize(
    ("shape", "padded_shape", "pad"),
    [((720, 1280), (192, 320), (0.0, 6.0)), ((360, 640), (192, 320), (0.0, 6.0)),
     ((540, 405), (320, 256), (8.0, 0.0)), ((320, 320), (320, 320), (0.0, 0.0))],
)
def test_letterbox_to_the_stride(shape: tuple[int, int], padded_shape: tuple[int, int],
                                 pad: tuple[float, float]) -> None:
    image = np.full((*shape, 3), 200, np.uint8)
    padded, r, got = letterbox(image, 320, 32)
    assert padded.shape[:2] == padded_shape
    assert r == pytest.approx(min(320 / shape[0], 320 / shape[1]))
    assert got == pytest.approx(pad, abs=1)
    if got[1] > 0:
        assert (padded[0] == 114).all() and (padded[int(got[1]) + 1] == 200).all()


def _takes_any_size() -> bool:
    if not DEFAULT_MODEL.is_file():
        return False
    return OnnxDetector().stride is not None


@pytest.mark.skipif(not _takes_any_size(), reason="the shipped model takes one input size")
def test_a_wide_view_is_found_as_the_square_look_finds_it(tmp_path: Path) -> None:
    video = tmp_path / "clip.avi"
    make_clip(video, 60, (1280, 720))
    capture = cv2.VideoCapture(str(video))
    frames = []
    for _ in range(60):
        ok, image = capture.read()
        assert ok
        frames.append(cv2.resize(image, (640, 360), interpolation=cv2.INTER_AREA))
    capture.release()
    detector = OnnxDetector()
    assert not detector.rect  # photos are looked at square, as their figures were measured
    found = 0
    for view in frames[25::5]:  # a card at rest, and one sliding in
        detector.rect = True  # as the pipeline looks at its frames
        rect = detector.detect(view)
        detector.rect = False
        square = detector.detect(view)
        sure = [i for i in range(len(square)) if square.confidence[i] >= 0.5]
        for i in sure:
            ious = [_iou(square.xyxy[i], box) for box in rect.xyxy]
            best = int(np.argmax(ious)) if ious else -1
            assert best >= 0 and ious[best] > 0.9 and rect.labels[best] == square.labels[i]
            found += 1
    assert found >= 3


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    x1, y1 = max(a[0], b[0]), max(a[1], b[1])
    x2, y2 = min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, x2 - x1) * max(0.0, y2 - y1)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return float(inter / union) if union > 0 else 0.0


@pytest.mark.skipif(not _takes_any_size(), reason="the shipped model takes one input size")
def test_the_pipeline_looks_at_its_frames_only_as_wide_as_they_are() -> None:
    from referee.pipeline import Pipeline
    from referee.session import MatchSession
    from referee.store import Store

    detector = OnnxDetector()
    Pipeline(detector, MatchSession(Store(":memory:"), players=4))
    assert detector.rect
