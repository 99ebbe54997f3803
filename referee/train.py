"""`referee train`: train the card detector with ultralytics from its yaml and export it to ONNX.

Training from a yaml is from scratch (no weights can be downloaded here) on the generated
dataset of :mod:`referee.synth`. Interrupted runs resume from ``last.pt``; a finished run can be
continued from the committed ``models/detector.pt`` by passing it as ``--model`` (its weights are the
start; the optimizer and schedule are new, so pass a fine-tuning ``--set lr0=...``).

The shipped files are ``models/detector.pt`` (training/resume, ultralytics backend) and
``models/detector.onnx`` (run time, onnxruntime backend).
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import time
from pathlib import Path
from typing import Any

from referee import yolo_env

log = logging.getLogger(__name__)

MODELS_DIR = yolo_env.PROJECT_ROOT / "models"
RUNS_DIR = yolo_env.PROJECT_ROOT / "runs"

#: Training settings any ``--set KEY=VALUE`` may override (``--set workers=16 --set amp=true`` on a GPU).
DEFAULTS: dict[str, Any] = {
    "workers": 2,
    "amp": False,  # AMP's check downloads a model; on this CPU it would not help anyway
    "plots": False,
    "patience": 0,
    "seed": 0,
    "deterministic": False,
}

#: Augmentations for cards seen from above. No horizontal flips: a mirrored "2" or "7" never occurs
#: on a real table. Hue shift is large because the classes are colour-blind faces (the colour is read
#: from pixels afterwards): the model must not learn colour.
AUGMENT: dict[str, Any] = {
    "fliplr": 0.0,
    "flipud": 0.0,
    "hsv_h": 0.5,
    "hsv_s": 0.6,
    "hsv_v": 0.4,
    "degrees": 0.0,  # the generator rotates cards itself; rotating boxes here would loosen them
    "perspective": 0.0005,
    "scale": 0.5,
    "translate": 0.1,
    "mosaic": 1.0,
    "close_mosaic": 5,
}


def export_onnx(weights: Path, imgsz: int, out_dir: Path | None = None, name: str = "detector") -> Path:
    """Export ``weights`` to ``out_dir/<name>.onnx`` (opset 17, simplified). Any input size (``dynamic``):
    the detector letterboxes a whole view only to the model's stride, as ultralytics' predict does, so a
    16:9 view costs it 60 % of a square one; a square input runs exactly as a static export would."""
    yolo_env.prepare()
    from ultralytics import YOLO

    model = YOLO(str(weights))
    exported = Path(model.export(format="onnx", imgsz=imgsz, opset=17, simplify=True, dynamic=True))
    out_dir = out_dir or MODELS_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{name}.onnx"
    if exported.resolve() != target.resolve():
        shutil.copyfile(exported, target)
    log.info("exported %s -> %s", weights, target)
    return target


def train(
    data: Path,
    model: str,
    *,
    epochs: int,
    imgsz: int,
    batch: int,
    device: str = "cpu",
    name: str = "detector",
    resume: bool = False,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Train (or resume), copy the best weights into models/, export ONNX; return a summary."""
    yolo_env.prepare()
    from ultralytics import YOLO

    yolo_env.tune_threads()
    run_dir = RUNS_DIR / name
    started = time.time()
    if resume:
        last = run_dir / "weights" / "last.pt"
        if not last.exists():
            raise FileNotFoundError(f"nothing to resume: {last} does not exist")
        yolo = YOLO(str(last))
        yolo.train(resume=True)
    else:
        yolo = YOLO(model)
        yolo.train(
            data=str(data.resolve()),
            epochs=epochs,
            imgsz=imgsz,
            batch=batch,
            device=device,
            project=str(RUNS_DIR),
            name=name,
            exist_ok=True,
            # From a yaml: from scratch (nothing can be downloaded here). From a .pt: from its weights
            # (ultralytics drops them when pretrained=False).
            pretrained=str(model).endswith(".pt"),
            **{**DEFAULTS, **AUGMENT, **(extra or {})},
        )
    best = run_dir / "weights" / "best.pt"
    if not best.exists():
        best = run_dir / "weights" / "last.pt"
    MODELS_DIR.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(best, MODELS_DIR / "detector.pt")
    onnx_path = export_onnx(MODELS_DIR / "detector.pt", imgsz)
    summary = {
        "weights": str(MODELS_DIR / "detector.pt"),
        "onnx": str(onnx_path),
        "epochs": epochs,
        "imgsz": imgsz,
        "seconds": round(time.time() - started, 1),
        "results_csv": str(run_dir / "results.csv"),
    }
    return summary


def parse_overrides(items: list[str]) -> dict[str, Any]:
    """``["lr0=0.01", "cos_lr=true"]`` -> ``{"lr0": 0.01, "cos_lr": True}`` (numbers and booleans typed)."""
    parsed: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise ValueError(f"expected KEY=VALUE, got {item!r}")
        value: Any = raw
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        else:
            for cast in (int, float):
                try:
                    value = cast(raw)
                    break
                except ValueError:
                    continue
        parsed[key.strip()] = value
    return parsed


def main(args: argparse.Namespace) -> int:
    if args.export_only:
        path = export_onnx(Path(args.model), args.imgsz)
        print(json.dumps({"onnx": str(path)}))
        return 0
    if not args.resume and not Path(args.data).exists():
        log.error("no dataset at %s: generate one with `referee synth --out %s`", args.data, Path(args.data).parent)
        return 2
    summary = train(
        Path(args.data),
        args.model,
        epochs=args.epochs,
        imgsz=args.imgsz,
        batch=args.batch,
        device=args.device,
        name=args.name,
        resume=args.resume,
        extra={
            **{k: v for k, v in {"time": args.hours, "cache": "ram" if args.cache else None}.items() if v},
            **parse_overrides(args.overrides),
        },
    )
    print(json.dumps(summary))
    return 0
