"""Real photos as a poor webcam would show them: how the reading holds up under colour casts and low quality.

    python benchmarks/camera_casts.py ../shared/data/real-single-cards ../shared/data/second-printing/tables/data.yaml

A webcam whose automatic white balance failed tints the whole view (tungsten light: warm; fluorescent tubes:
green; a north window: cool), and a cheap one adds low resolution, noise, soft focus, washed-out colours and
heavy JPEG; a card held up to it may be cut by the frame (``close``) or half under a thumb (``thumb``). Real decks
under such webcams are what the referee meets and what nobody in this project has
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
    "strong-warm": (0.5, 0.9, 1.4),  # a candle-coloured bulb, the webcam's balance stuck on daylight
    "strong-cool": (1.5, 1.0, 0.65),  # blue hour through a window, the balance stuck on tungsten
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


def dim(image: Image, rng: np.random.Generator) -> Image:
    """A dark room: a quarter of the light, the gain turned up to make up for it, so the sensor's noise grows."""
    linear = (image.astype(np.float32) / 255.0) ** 2.2 * 0.25
    shot = rng.normal(0.0, 1.0, linear.shape).astype(np.float32) * np.sqrt(linear / 400.0)
    bright = np.clip((linear + shot) * 3.2, 0.0, 1.0) ** (1 / 2.2) * 255.0
    noisy = np.clip(bright + rng.normal(0.0, 4.0, bright.shape), 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 70])
    out: Image = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else noisy
    return out


def bright(image: Image) -> Image:
    """A webcam metering on a dark room behind a lit card: the exposure 2.5 times too long, the card's white and
    its palest colours clipped to white (the sensor's channels saturate one by one, so pale colours turn whiter)."""
    return cast(image, (2.5, 2.5, 2.5))


def shake(image: Image, rng: np.random.Generator) -> Image:
    """A hand or a camera moving during the exposure: a motion blur 1 % of the view long, in any direction."""
    length = max(3, round(0.01 * max(image.shape[:2])) | 1)
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    out: Image = cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6))
    return out


def glare(image: Image, rng: np.random.Generator) -> Image:
    """A lamp's reflection on a glossy card or table: a soft white patch a third of the view wide, anywhere."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy, r = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h, 0.17 * max(h, w)
    patch = np.exp(-(((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * r * r)))[..., None] * 0.85
    out: Image = (image.astype(np.float32) * (1 - patch) + 255.0 * patch).astype(np.uint8)
    return out


def far(image: Image) -> Image:
    """The camera farther away or of lower resolution: the view's long side 640 pixels."""
    h, w = image.shape[:2]
    scale = min(1.0, 640 / max(h, w))
    out: Image = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    return out


def tilt(image: Image, rng: np.random.Generator) -> tuple[Image, npt.NDArray[np.float64]]:
    """The camera (or the hand holding the card) at a slant: the view seen in perspective, a side shrunk by up to
    a third, and turned by up to 25 degrees; with the homography, so boxes follow."""
    h, w = image.shape[:2]
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    side = int(rng.integers(4))
    shrink = float(rng.uniform(0.15, 0.33))
    moved = corners.copy()
    a, b = side, (side + 1) % 4
    centre = (corners[a] + corners[b]) / 2
    moved[a] = centre + (corners[a] - centre) * (1 - shrink)
    moved[b] = centre + (corners[b] - centre) * (1 - shrink)
    homography = cv2.getPerspectiveTransform(corners, moved)
    turn = np.vstack([cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(-25, 25)), 1.0), [0, 0, 1]])
    full = turn @ homography
    out: Image = cv2.warpPerspective(image, full, (w, h), borderMode=cv2.BORDER_REFLECT)
    return out, full


def mirror(image: Image) -> tuple[Image, npt.NDArray[np.float64]]:
    """A view seen in a mirror (a webcam app's selfie view, a front camera): flipped left to right; with the
    homography, so boxes follow."""
    w = image.shape[1]
    flip = np.array([[-1.0, 0.0, w], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    out: Image = np.ascontiguousarray(image[:, ::-1])
    return out, flip


def close(image: Image) -> tuple[Image, npt.NDArray[np.float64]]:
    """The card held close to the camera: the middle of the view blown up 2.2 times, so that a card that filled
    half of it now fills it, cut by the frame's edges; with the homography, so boxes follow."""
    h, w = image.shape[:2]
    zoom = 2.2
    move = np.array([[zoom, 0.0, w / 2 * (1 - zoom)], [0.0, zoom, h / 2 * (1 - zoom)], [0.0, 0.0, 1.0]])
    out: Image = cv2.warpPerspective(image, move, (w, h), flags=cv2.INTER_LINEAR)
    return out, move


#: Skin tones (BGR) of the thumb that :func:`thumb` lays over the view: light, medium, dark.
SKIN = ((120, 150, 200), (80, 110, 160), (50, 70, 110))


def thumb(image: Image, rng: np.random.Generator) -> Image:
    """A hand holding the card up to the camera: a thumb from any edge of the view, a third of the way across it,
    its tone any of :data:`SKIN`, lit from its middle (the shared photos' cards lie near the middle, so it covers an
    edge or a corner of most and reaches the middle of some)."""
    h, w = image.shape[:2]
    side, along = int(rng.integers(4)), float(rng.uniform(0.3, 0.7))
    reach, width = 0.35 * (h if side % 2 == 0 else w), 0.11 * max(h, w)
    centre = [(along * w, h), (w, along * h), (along * w, 0.0), (0.0, along * h)][side]
    mask = np.zeros((h, w), np.uint8)
    cv2.ellipse(mask, (round(centre[0]), round(centre[1])), (round(reach), round(width)), 90 * (side % 2 == 0),
                0, 360, 255, -1)
    lit = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), width / 3)[..., None]
    skin = np.asarray(SKIN[int(rng.integers(len(SKIN)))], np.float32) * (0.7 + 0.4 * lit)
    out: Image = np.where(mask[..., None] > 0, np.clip(skin, 0, 255), image).astype(np.uint8)
    return out


Change = Callable[[Image], "Image | tuple[Image, npt.NDArray[np.float64]]"]


def conditions(seed: int) -> dict[str, Change]:
    """The clean photo and each degradation, by name; a geometric one also returns its homography."""
    rng = np.random.default_rng(seed)
    out: dict[str, Change] = {"clean": lambda image: image}
    for name, gains in CASTS.items():
        out[name] = lambda image, gains=gains: cast(image, gains)  # type: ignore[misc]
    out["webcam"] = lambda image: webcam(image, rng)
    out["dim"] = lambda image: dim(image, rng)
    out["shake"] = lambda image: shake(image, rng)
    out["glare"] = lambda image: glare(image, rng)
    out["far"] = far
    out["bright"] = bright
    out["mirror"] = mirror
    out["tilt"] = lambda image: tilt(image, rng)
    out["bright-webcam"] = lambda image: webcam(bright(image), rng)  # after the others: their noise draws stay
    out["close"] = close
    hands = np.random.default_rng(seed + 1)  # its own draws, so that the others' stay as they were
    out["thumb"] = lambda image: thumb(image, hands)
    return out


def _photos(data: Path) -> list[Path]:
    if data.is_file():  # a YOLO data.yaml: its images folder(s)
        return sorted(p for p in data.parent.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES and "images" in p.parts)
    return sorted(p for p in data.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES)


def degrade(data: Path, to: Path, change: Change) -> Path:
    """A copy of the dataset at ``data`` (folders or ``data.yaml``) in ``to`` with every photo changed;
    ``data.yaml`` linked, labels linked or, where the change moved the view, their boxes moved with it.
    The path to evaluate."""
    root = data.parent if data.is_file() else data
    moved: dict[Path, npt.NDArray[np.float64]] = {}
    shapes: dict[Path, tuple[int, int]] = {}
    for path in _photos(data):
        image = cv2.imread(str(path))
        if image is None:
            continue
        out = to / path.relative_to(root)
        out.parent.mkdir(parents=True, exist_ok=True)
        changed = change(image)
        if isinstance(changed, tuple):
            changed, homography = changed
            moved[path.relative_to(root)] = homography
            shapes[path.relative_to(root)] = image.shape[:2]
        cv2.imwrite(str(out.with_suffix(".png")), changed)
    if data.is_file():
        for other in root.rglob("*"):
            if other.is_file() and other.suffix.lower() not in IMAGE_SUFFIXES:
                target = to / other.relative_to(root)
                target.parent.mkdir(parents=True, exist_ok=True)
                image_of = _image_of(other.relative_to(root), moved)
                if image_of is None:
                    target.symlink_to(other.resolve())
                else:
                    target.write_text(move_boxes(other.read_text(), moved[image_of], shapes[image_of]))
        return to / data.name
    return to


def _image_of(label: Path, moved: dict[Path, npt.NDArray[np.float64]]) -> Path | None:
    """The changed photo whose YOLO label file ``label`` is (``labels/x.txt`` for ``images/x.jpg``)."""
    if label.suffix != ".txt":
        return None
    for image in moved:
        if image.stem == label.stem and image.parent.as_posix().replace("images", "labels") == label.parent.as_posix():
            return image
    return None


def move_boxes(text: str, homography: npt.NDArray[np.float64], shape: tuple[int, int]) -> str:
    """YOLO label lines with each box's corners carried by ``homography``, the new box around them, cut to the
    view; a box less than half in view is left out (a card mostly outside the frame is no card to read)."""
    h, w = shape
    lines = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) != 5:
            continue
        cx, cy, bw, bh = (float(v) for v in parts[1:])
        x0, x1, y0, y1 = (cx - bw / 2) * w, (cx + bw / 2) * w, (cy - bh / 2) * h, (cy + bh / 2) * h
        corners = np.float32([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]])
        out = cv2.perspectiveTransform(corners, homography.astype(np.float32)).reshape(4, 2)
        lo, hi = np.clip(out.min(0), 0, [w, h]), np.clip(out.max(0), 0, [w, h])
        if np.prod(hi - lo) < 0.5 * np.prod(out.max(0) - out.min(0)):
            continue
        lines.append(f"{parts[0]} {(lo[0] + hi[0]) / 2 / w:.6f} {(lo[1] + hi[1]) / 2 / h:.6f} "
                     f"{(hi[0] - lo[0]) / w:.6f} {(hi[1] - lo[1]) / h:.6f}")
    return "\n".join(lines) + "\n"


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
