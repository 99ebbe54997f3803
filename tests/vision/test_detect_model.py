"""The shipped model, through our ONNX path and through ultralytics' own, gives the same boxes."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.vision.detect import DEFAULT_MODEL, DetectorError, OnnxDetector, load_detector
from referee.vision.evaluate import box_iou

SAMPLES = Path(__file__).resolve().parents[2] / "datasets" / "sample"
needs_model = pytest.mark.skipif(not DEFAULT_MODEL.exists(), reason="no models/detector.onnx yet")


def _sample_frames() -> list[np.ndarray]:
    files = sorted(p for p in SAMPLES.rglob("*") if p.suffix.lower() in {".jpg", ".png"})[:4]
    frames = [img for p in files if (img := cv2.imread(str(p))) is not None]
    if not frames:
        pytest.skip("no sample frames in datasets/sample")
    return frames


def test_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DetectorError, match="no detector model"):
        load_detector(tmp_path / "nope.onnx")


def test_corrupt_model_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x00" * 64)
    with pytest.raises(DetectorError, match="cannot load"):
        OnnxDetector(bad)


@needs_model
def test_rejects_non_images() -> None:
    detector = OnnxDetector()
    with pytest.raises(ValueError, match="BGR image"):
        detector.detect(np.zeros((10, 10), np.uint8))


@needs_model
def test_onnx_path_matches_ultralytics() -> None:
    pytest.importorskip("ultralytics")
    from referee import yolo_env

    yolo_env.prepare()
    from ultralytics import YOLO

    ours = OnnxDetector(conf=0.25)
    theirs = YOLO(str(DEFAULT_MODEL), task="detect")
    compared = 0
    for frame in _sample_frames():
        boxes, conf, cls = ours.raw(frame)
        result = theirs.predict(frame, imgsz=ours.imgsz, conf=0.25, iou=0.7, verbose=False)[0].boxes
        ref_boxes = result.xyxy.numpy()
        assert len(boxes) == len(ref_boxes)
        if not len(boxes):
            continue
        iou = box_iou(boxes, ref_boxes.astype(np.float32))
        match = iou.argmax(axis=1)
        assert (iou.max(axis=1) > 0.98).all()
        assert (cls == result.cls.numpy().astype(np.int64)[match]).all()
        assert np.allclose(conf, result.conf.numpy()[match], atol=1e-3)
        compared += len(boxes)
    assert compared > 0, "the model found no card in the sample frames"
