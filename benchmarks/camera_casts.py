"""Real photos as a poor webcam would show them: how the reading holds up under colour casts and low quality.

    python benchmarks/camera_casts.py ../shared/data/real-single-cards ../shared/data/second-printing/tables/data.yaml

A webcam whose automatic white balance failed tints the whole view (tungsten light: warm; fluorescent tubes:
green; a north window: cool), and a cheap one adds low resolution, noise, soft focus, washed-out colours and
heavy JPEG. Real decks under such webcams are what the referee meets and what nobody in this project has
photographed, so this benchmark makes each condition from the real photos it is given (a folder of
class-named folders, or a YOLO ``data.yaml``) and reads them as ``referee eval`` does. The photos are
degraded into a temporary folder, never into the project.

Each condition is one JSON line: the card accuracy as the pipeline reads it, the detector's and the
classifier's alone, and ``colour_errors``, the cards whose colour was read wrong whatever their face. The
clean photos are read too, in the same run, as the baseline. Progress on stderr.

With ``--learned DECK`` (a YOLO ``data.yaml`` and the folder of one crop per label cut from its photos, as
``benchmarks/deck_split.py`` takes them) each condition is instead read generic and learned, leave one
photo out, the crops a player would photograph under the same camera as degraded as the table photos::

    python benchmarks/camera_casts.py ../shared/data/second-printing/tables/data.yaml \
        --learned ../shared/data/second-printing/deck --only cool webcam
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]

#: Channel gains (B, G, R) in linear light of a failed white balance, as webcams show them.
CASTS: dict[str, tuple[float, float, float]] = {
    "warm": (0.62, 0.95, 1.25),  # tungsten bulbs
    "green": (0.85, 1.2, 0.8),  # fluorescent tubes
    "cool": (1.3, 1.0, 0.78),  # shade, a north window
}

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}


def cast(image: Image, gains: tuple[float, float, float]) -> Image:
    """``image`` under light of another colour: the channels scaled in linear light, clipped as a sensor clips."""
    linear = (image.astype(np.float32) / 255.0) ** 2.2
    tinted = np.clip(linear * np.asarray(gains, np.float32), 0.0, 1.0) ** (1 / 2.2)
    out: Image = (tinted * 255.0 + 0.5).astype(np.uint8)
    return out


def webcam(image: Image, rng: np.random.Generator) -> Image:
    """A cheap webcam's picture of ``image``: 480 lines at most, soft, washed out, warm, noisy, heavily compressed."""
    h, w = image.shape[:2]
    scale = min(1.0, 480 / max(h, 1))
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 1.0)
    hsv = cv2.cvtColor(cast(small, (0.8, 1.0, 1.12)), cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 1] *= 0.75
    washed = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    noisy = np.clip(washed + rng.normal(0.0, 6.0, washed.shape), 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 45])
    out: Image = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else noisy
    return out


def conditions(seed: int) -> dict[str, Callable[[Image], Image]]:
    """The clean photo and each degradation, by name."""
    rng = np.random.default_rng(seed)
    out: dict[str, Callable[[Image], Image]] = {"clean": lambda image: image}
    for name, gains in CASTS.items():
        out[name] = lambda image, gains=gains: cast(image, gains)  # type: ignore[misc]
    out["webcam"] = lambda image: webcam(image, rng)
    return out


def _photos(data: Path) -> list[Path]:
    if data.is_file():  # a YOLO data.yaml: its images folder(s)
        return sorted(p for p in data.parent.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES and "images" in p.parts)
    return sorted(p for p in data.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES)


def degrade(data: Path, to: Path, change: Callable[[Image], Image]) -> Path:
    """A copy of the dataset at ``data`` (folders or ``data.yaml``) in ``to`` with every photo changed;
    labels and ``data.yaml`` linked. The path to evaluate."""
    root = data.parent if data.is_file() else data
    for path in _photos(data):
        image = cv2.imread(str(path))
        if image is None:
            continue
        out = to / path.relative_to(root)
        out.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(out.with_suffix(".png")), change(image))
    if data.is_file():
        for other in root.rglob("*"):
            if other.is_file() and other.suffix.lower() not in IMAGE_SUFFIXES:
                link = to / other.relative_to(root)
                link.parent.mkdir(parents=True, exist_ok=True)
                link.symlink_to(other.resolve())
        return to / data.name
    return to


def colour_errors(result: dict[str, Any]) -> int:
    """Cards whose colour was read wrong, from ``referee eval``'s confusions (as the pipeline reads)."""
    def colour(label: str) -> str:
        return label.split("_")[0] if label.split("_")[0] in {"red", "green", "blue", "yellow"} else "black"

    errors = 0
    for truth, reads in result.get("confusions", {}).items():
        errors += sum(n for read, n in reads.items() if read != "none" and colour(read) != colour(truth))
    return errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="+", type=Path, help="folders of class-named folders or YOLO data.yaml files")
    parser.add_argument("--only", nargs="*", help="conditions to run (default: all)")
    parser.add_argument("--classifier", type=Path, help="face classifier (default: the shipped one)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--learned", type=Path, help="read generic and learned, leave one photo out, with the "
                        "crops of this folder (one class-named folder per label) degraded as the photos")
    args = parser.parse_args(argv)
    from referee.evaluation import evaluate

    if args.learned is not None:
        return learned(args.data, args.learned, args.only, args.seed)
    for data in args.data:
        for name, change in conditions(args.seed).items():
            if args.only and name not in args.only:
                continue
            with tempfile.TemporaryDirectory(prefix="casts-") as tmp:
                target = data if name == "clean" else degrade(data, Path(tmp) / "data", change)
                print(f"{data} {name}", file=sys.stderr)
                result = evaluate(target, classifier=args.classifier)
            accuracy = result.get("card_accuracy", result.get("top1_accuracy"))
            row = {"data": str(data), "condition": name, "accuracy": accuracy,
                   "detector": result.get("card_accuracy_detector", result.get("top1_accuracy_detector")),
                   "classifier": result.get("card_accuracy_classifier", result.get("top1_accuracy_classifier")),
                   "colour_errors": colour_errors(result), "confusions": result.get("confusions")}
            print(json.dumps(row), flush=True)
    return 0


def learned(datasets: list[Path], deck: Path, only: list[str] | None, seed: int) -> int:
    """Each condition read generic and learned from the degraded crops, leave one photo out."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from deck_split import run

    for data in datasets:
        for name, change in conditions(seed).items():
            if only and name not in only:
                continue
            with tempfile.TemporaryDirectory(prefix="casts-") as tmp:
                table = data if name == "clean" else degrade(data, Path(tmp) / "tables", change)
                crops = deck if name == "clean" else degrade(deck, Path(tmp) / "deck", change)
                print(f"{data} {name}, learned", file=sys.stderr)
                result = run(table, crops, Path(tmp) / "work")
            print(json.dumps({"data": str(data), "condition": name, "generic": result["generic"],
                              "learned": result["learned"], "generic_confusions": result["generic_confusions"],
                              "learned_confusions": result["learned_confusions"]}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
