"""A YOLO dataset as ``referee eval`` reads it (its ``data.yaml``, label files and, for one ``referee synth``
wrote, the sidecars saying how much of each card shows), and the detection metrics scored on it: IoU,
COCO-style average precision and the greedy matching ultralytics does.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from referee.cards import FACE_CLASSES, Card, CardError
from referee.vision.detections import Detections

__all__ = ["IMAGE_SUFFIXES", "IOU_THRESHOLDS", "VISIBLE_BUCKETS", "EvalError", "YoloDataset", "average_precision",
           "box_iou", "class_aps", "load_yolo_dataset", "match_for_ap", "names_mode", "read_labels",
           "visible_bucket", "visible_shares"]

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
IOU_THRESHOLDS = np.linspace(0.5, 0.95, 10)


class EvalError(ValueError):
    """The dataset cannot be evaluated as given."""


@dataclass(frozen=True)
class YoloDataset:
    """A YOLO dataset's class names and one split's images, with where each image's labels lie."""

    names: tuple[str, ...]
    images: tuple[Path, ...]
    labels_dir_of: dict[Path, Path]

    def label_file(self, image: Path) -> Path:
        """The label file of ``image`` (it may not exist: no card in it)."""
        return self.labels_dir_of[image] / (image.stem + ".txt")


def _parse_simple_yaml(text: str) -> dict[str, Any]:
    """The subset of YAML that ultralytics data files use (keys, scalars, a names list or mapping)."""
    try:
        import yaml  # PyYAML comes with ultralytics; fall back to our reader without it

        loaded = yaml.safe_load(text)
        if isinstance(loaded, dict):
            return loaded
        raise EvalError("data.yaml is not a mapping")
    except ImportError:
        pass
    data: dict[str, Any] = {}
    current: str | None = None
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if not line.startswith((" ", "\t", "-")):
            key, _, value = line.partition(":")
            current = key.strip()
            value = value.strip()
            if value.startswith("[") and value.endswith("]"):
                data[current] = [v.strip().strip("'\"") for v in value[1:-1].split(",") if v.strip()]
            elif value:
                data[current] = value.strip("'\"")
            else:
                data[current] = None
            continue
        item = line.strip()
        if current is None:
            continue
        if item.startswith("-"):
            lst = data.get(current) or []
            lst.append(item[1:].strip().strip("'\""))
            data[current] = lst
        else:
            k, _, v = item.partition(":")
            mapping = data.get(current) or {}
            mapping[int(k.strip())] = v.strip().strip("'\"")
            data[current] = mapping
    return data


def load_yolo_dataset(yaml_path: Path, split: str = "val") -> YoloDataset:
    """The dataset ``yaml_path`` describes, its ``split`` (else ``val``, else ``test``) images listed."""
    if not yaml_path.is_file():
        raise EvalError(f"no such data file: {yaml_path}")
    data = _parse_simple_yaml(yaml_path.read_text())
    names_field = data.get("names")
    if isinstance(names_field, dict):
        names = tuple(str(names_field[k]) for k in sorted(names_field))
    elif isinstance(names_field, list):
        names = tuple(str(n) for n in names_field)
    else:
        raise EvalError(f"{yaml_path}: no 'names' list")
    # A relative or missing `path` is relative to the yaml file's own folder, as in ultralytics.
    root = Path(str(data.get("path") or "."))
    if not root.is_absolute():
        root = (yaml_path.parent / root).resolve()
    entry = data.get(split) or data.get("val") or data.get("test")
    if not entry:
        raise EvalError(f"{yaml_path}: no '{split}' split")
    image_dirs = [root / e for e in (entry if isinstance(entry, list) else [entry])]
    images: list[Path] = []
    labels_dir_of: dict[Path, Path] = {}
    for image_dir in image_dirs:
        if not image_dir.is_dir():
            raise EvalError(f"{yaml_path}: image folder {image_dir} does not exist")
        labels_dir = image_dir
        if "images" in image_dir.parts:
            parts = list(image_dir.parts)
            parts[len(parts) - 1 - parts[::-1].index("images")] = "labels"
            labels_dir = Path(*parts)
        for image in sorted(image_dir.iterdir()):
            if image.suffix.lower() in IMAGE_SUFFIXES:
                images.append(image)
                labels_dir_of[image] = labels_dir
    return YoloDataset(names, tuple(images), labels_dir_of)


def names_mode(names: Sequence[str]) -> str:
    """'face' when the dataset names faces, 'label' when it names contract-1 cards."""
    if all(n in FACE_CLASSES for n in names):
        return "face"
    for n in names:
        try:
            Card.from_label(n)
        except CardError:
            raise EvalError(
                f"unknown class name {n!r} in dataset: expected card labels (contract 1) or faces"
            ) from None
    return "label"


def box_iou(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Pairwise IoU of xyxy boxes (len(a), len(b))."""
    if not len(a) or not len(b):
        return np.zeros((len(a), len(b)), np.float32)
    tl = np.maximum(a[:, None, :2], b[None, :, :2])
    br = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter: npt.NDArray[np.float32] = np.prod(np.clip(br - tl, 0, None), axis=2)
    area_a = np.prod(a[:, 2:] - a[:, :2], axis=1)
    area_b = np.prod(b[:, 2:] - b[:, :2], axis=1)
    iou: npt.NDArray[np.float32] = (inter / (area_a[:, None] + area_b[None, :] - inter + 1e-9)).astype(np.float32)
    return iou


def average_precision(recall: npt.NDArray[np.float64], precision: npt.NDArray[np.float64]) -> float:
    """COCO-style 101-point interpolated AP, as ultralytics computes it."""
    mrec = np.concatenate(([0.0], recall, [1.0]))
    mpre = np.concatenate(([1.0], precision, [0.0]))
    mpre = np.flip(np.maximum.accumulate(np.flip(mpre)))
    x = np.linspace(0, 1, 101)
    return float(np.trapezoid(np.interp(x, mrec, mpre), x))


def read_labels(path: Path, shape: tuple[int, ...], n_classes: int) -> tuple[npt.NDArray[np.float32], list[int]]:
    """The xyxy boxes (pixels of an image of ``shape``) and classes of a YOLO label file; none without one."""
    if not path.exists():
        return np.zeros((0, 4), np.float32), []
    h, w = shape[:2]
    boxes: list[list[float]] = []
    classes: list[int] = []
    for lineno, line in enumerate(path.read_text().splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 5:
            raise EvalError(f"{path}:{lineno}: expected 'class cx cy w h', got {line!r}")
        cls = int(parts[0])
        if not 0 <= cls < n_classes:
            raise EvalError(f"{path}:{lineno}: class {cls} outside the dataset's {n_classes} names")
        cx, cy, bw, bh = (float(p) for p in parts[1:])
        boxes.append([(cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h])
        classes.append(cls)
    return np.asarray(boxes, np.float32).reshape(-1, 4), classes


def match_for_ap(det: Detections, pred_names: Sequence[str], gt_boxes: npt.NDArray[np.float32],
                 gt_names: Sequence[str]) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.intp]]:
    """Which predictions are true positives at each of :data:`IOU_THRESHOLDS` (a row per prediction), and
    the predictions by falling confidence: per threshold, greedy by confidence among ground truths of the
    same name, each ground truth matched once (its best overlap among those left)."""
    iou = box_iou(det.xyxy, gt_boxes)
    order = np.argsort(-det.confidence)
    flags = np.zeros((len(det), len(IOU_THRESHOLDS)), bool)
    for t_index, threshold in enumerate(IOU_THRESHOLDS):
        used = np.zeros(len(gt_names), bool)
        for p in order:
            candidates = [
                g for g in range(len(gt_names))
                if not used[g] and gt_names[g] == pred_names[p] and iou[p, g] >= threshold
            ]
            if candidates:
                used[max(candidates, key=lambda g: iou[p, g])] = True
                flags[p, t_index] = True
    return flags, order


def class_aps(names: Sequence[str], records: Mapping[str, list[tuple[float, npt.NDArray[np.bool_]]]],
              n_gt: Mapping[str, int]) -> tuple[dict[str, float], npt.NDArray[np.float64]]:
    """Each labelled class's AP50 (rounded), and the AP at every IoU threshold, a row per labelled class;
    ``records``: per class, each prediction's confidence and true-positive flags; ``n_gt``: its cards."""
    per_class: dict[str, float] = {}
    ap_all: list[npt.NDArray[np.float64]] = []
    for name in names:
        if n_gt[name] == 0:
            continue
        recs = sorted(records.get(name, []), key=lambda r: -r[0])
        aps = np.zeros(10)
        if recs:
            flags = np.stack([r[1] for r in recs]).astype(np.float64)
            for t in range(10):
                tp = np.cumsum(flags[:, t])
                fp = np.cumsum(1 - flags[:, t])
                aps[t] = average_precision(tp / n_gt[name], tp / np.maximum(tp + fp, 1e-9))
        per_class[name] = round(float(aps[0]), 4)
        ap_all.append(aps)
    return per_class, (np.stack(ap_all) if ap_all else np.zeros((1, 10)))


VISIBLE_BUCKETS = (0.5, 0.7, 0.9)  # edges: how much of a card shows, from `referee synth`'s meta sidecars


def visible_bucket(share: float) -> str:
    """The bucket of :data:`VISIBLE_BUCKETS` a visible share falls in, as ``"0.5-0.7"``."""
    low = 0.0
    for edge in VISIBLE_BUCKETS:
        if share < edge:
            return f"{low:.1f}-{edge:.1f}"
        low = edge
    return f"{low:.1f}-1.0"


def visible_shares(image_path: Path, gt_boxes: npt.NDArray[np.float32]) -> list[float] | None:
    """Each labelled box's visible share from the sidecar `referee synth` writes beside a dataset
    (``meta/<split>/<stem>.json``; ``cards/`` datasets share their parent's), matched by box; None
    without one, or when a box has no counterpart there (the sidecar then describes other labels)."""
    split = image_path.parent.name
    for root in (image_path.parents[2], image_path.parents[3] if len(image_path.parents) > 3 else None):
        if root is None:
            continue
        meta = root / "meta" / split / f"{image_path.stem}.json"
        if not meta.is_file():
            continue
        try:
            boxes = json.loads(meta.read_text())["boxes"]
            meta_xyxy = np.asarray([b["xyxy"] for b in boxes], np.float32).reshape(-1, 4)
            shares = [float(b["visible"]) for b in boxes]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("unreadable sidecar %s ignored: %s", meta, exc)
            return None
        if not len(gt_boxes):
            return []
        if not len(meta_xyxy):
            return None
        overlap = box_iou(gt_boxes, meta_xyxy)
        best = overlap.argmax(axis=1)
        if (overlap[np.arange(len(gt_boxes)), best] < 0.9).any():
            return None
        return [shares[int(m)] for m in best]
    return None
