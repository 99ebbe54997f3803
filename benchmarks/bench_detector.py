"""Detector speed: our onnxruntime path beside plain ultralytics predict, on the same frames.

    python benchmarks/bench_detector.py [--model models/detector.onnx] [--frames 200] [--source DIR]

Frames come from a folder of images (default: the generated validation set, else generated on the
fly by the synthesiser). Prints one JSON line: per-frame milliseconds p50/p95 for
``onnx`` (letterbox + onnxruntime + decode + NMS + colour reading: everything the pipeline calls, with
small cards found again on tiles), ``onnx_whole_view`` (the same, the whole view only: ``tiles`` off),
``ultralytics_onnx`` (``YOLO(model.onnx).predict`` at its defaults) and ``ultralytics_pt``
(``YOLO(model.pt).predict`` at its defaults, i.e. imgsz 640 unless the weights say otherwise).
With ``models/classifier.onnx`` there, also the closer look on each frame's surest card:
``closer_detector`` (:func:`look_closer`: two detector calls on a crop), ``classifier`` (one read: the
crop as it lies and turned, one batch) and ``second_look`` (both, as the pipeline runs them).

What tiles cost where they are used: ``--source out/printings/deck0/tables/images/val --no-baseline`` (whole-table
views written by ``benchmarks/printings_eval.py``, cards 16-30 px long at the input).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee import yolo_env  # noqa: E402
from referee.vision.classify import DEFAULT_CLASSIFIER, FaceClassifier, second_look  # noqa: E402
from referee.vision.detect import OnnxDetector, look_closer  # noqa: E402


def _frames(source: Path | None, n: int) -> list[np.ndarray]:
    candidates = [source] if source else [ROOT / "datasets/generated/images/val", ROOT / "datasets/sample"]
    for folder in candidates:
        if folder and folder.is_dir():
            files = sorted(p for p in folder.rglob("*") if p.suffix.lower() in {".jpg", ".png"})[:n]
            images = [img for p in files if (img := cv2.imread(str(p))) is not None]
            if images:
                return [images[i % len(images)] for i in range(n)]
    raise SystemExit("no frames: pass --source DIR or generate datasets/generated with `referee synth`")


def _time(call: Callable[[np.ndarray], object], frames: list[np.ndarray], warmup: int = 5) -> list[float]:
    for frame in frames[:warmup]:
        call(frame)
    out = []
    for frame in frames:
        t0 = time.perf_counter()
        call(frame)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def _stats(ms: list[float]) -> dict[str, float]:
    ms_sorted = sorted(ms)
    return {
        "ms_p50": round(statistics.median(ms_sorted), 2),
        "ms_p95": round(ms_sorted[int(0.95 * (len(ms_sorted) - 1))], 2),
        "fps": round(1000 / statistics.mean(ms_sorted), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=ROOT / "models/detector.onnx")
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--source", type=Path, default=None)
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args()
    frames = _frames(args.source, args.frames)
    result: dict[str, object] = {"frames": len(frames), "frame_shape": list(frames[0].shape), "cpus": os.cpu_count()}
    detector = OnnxDetector(args.model)
    result["imgsz"] = detector.imgsz
    result["onnx"] = _stats(_time(detector.detect, frames))
    whole_view = OnnxDetector(args.model)
    whole_view.tiles = False
    result["onnx_whole_view"] = _stats(_time(whole_view.detect, frames))
    if DEFAULT_CLASSIFIER.is_file():
        classifier = FaceClassifier()
        boxes: dict[int, np.ndarray] = {}
        for frame in frames:
            raw_boxes, confidence, _ = detector.raw(frame)
            box = raw_boxes[int(np.argmax(confidence))] if len(confidence) else np.array([0, 0, 64, 96], np.float32)
            boxes[id(frame)] = box
        result["closer_detector"] = _stats(_time(lambda f: look_closer(detector, f, boxes[id(f)]), frames))
        result["classifier"] = _stats(_time(lambda f: classifier.read(f, boxes[id(f)]), frames))
        result["second_look"] = _stats(_time(lambda f: second_look(
            look_closer(detector, f, boxes[id(f)]), classifier.read(f, boxes[id(f)])), frames))
    if not args.no_baseline:
        try:
            yolo_env.prepare()
            from ultralytics import YOLO
        except ImportError:
            result["ultralytics_onnx"] = result["ultralytics_pt"] = None
        else:
            onnx_model = YOLO(str(args.model), task="detect")
            result["ultralytics_onnx"] = _stats(
                _time(lambda f: onnx_model.predict(f, imgsz=detector.imgsz, verbose=False), frames)
            )
            pt = args.model.with_suffix(".pt")
            if pt.exists():
                pt_model = YOLO(str(pt))
                result["ultralytics_pt"] = _stats(_time(lambda f: pt_model.predict(f, verbose=False), frames))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
