"""`referee eval DATA`: reader quality on a YOLO dataset or on folders of single-card photos.

Every headline figure is the label **the pipeline would settle on** for each card: the detector's box
and face, the colour read from its pixels, and the closer look (the detector on a crop around the card,
averaged with the face classifier, replaces the face when it is sure of another), with a learned deck
(``--deck``, :mod:`referee.vision.deck`) when one is given. The detector alone is reported beside it.

- A YOLO ``data.yaml``: classes are matched by name. A dataset named by faces (``7``, ``skip``) is
  scored on the model's faces; one named by contract-1 labels (``red_7``) on full labels, face and
  colour. Predictions of classes the dataset does not label (``back``, say) are ignored. Prints
  ``map50``, ``map50_95``, ``precision``, ``recall`` (the detector's boxes and faces, as ultralytics
  scores them), ``card_accuracy`` (each labelled card as the pipeline names it, among the boxes the
  tracker reads: :func:`~referee.vision.tracking.frame.readable`; a card it would not read is ``none``),
  ``card_accuracy_detector``, ``images``, ``per_class``,
  and, for a dataset `referee synth` wrote (its ``meta/`` sidecars say how much of each card shows),
  ``card_accuracy_by_visible``: card accuracy per visible share (under half, 0.5-0.7, 0.7-0.9, whole).
- A folder of class-named folders of photos (``red_7/*.jpg``): the label of the most confident card
  per photo against the folder's name. Prints ``top1_accuracy`` (as the pipeline names it),
  ``top1_accuracy_detector``, ``top1_accuracy_classifier`` (the classifier's face alone on the
  detector's box), ``images``, ``per_class`` (as the pipeline names it), ``confusions``.

A missing or unreadable image is reported and skipped; an unknown class name, an input size the model
cannot take or a deck that does not fit the classifier is a one-line error.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import BLACK_VALUES, CLASSIC_COLOURS, FACE_CLASSES, Card, CardError, Colour, folder_label
from referee.vision.classify import (
    ACROSS_KINDS_CONFIDENCE,
    CLASSIFIER_ALONE_CONFIDENCE,
    SECOND_LOOK_CONFIDENCE,
    FaceClassifier,
    load_classifier,
    needs_reading,
    read_on_deck,
    second_look,
)
from referee.vision.detect import (
    DetectorError,
    OnnxDetector,
    UltralyticsDetector,
    card_colour,
    load_detector,
    look_closer,
)
from referee.vision.detections import Detections
from referee.vision.tracking import TrackerConfig, closer_label
from referee.vision.tracking.closer import named_surely
from referee.vision.tracking.frame import readable

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
IOU_THRESHOLDS = np.linspace(0.5, 0.95, 10)
#: A box at least this share of the median card box of its image is a whole card (the tracker's rule for a
#: card just laid: :attr:`referee.vision.tracking.TrackerConfig.whole_area_share`).
WHOLE_AREA_SHARE = TrackerConfig.whole_area_share
#: Which boxes the tracker reads (:func:`~referee.vision.tracking.frame.readable`): the card accuracy counts
#: only those, as the pipeline sees no other.
READING = TrackerConfig()


class EvalError(ValueError):
    """The dataset cannot be evaluated as given."""


@dataclass(frozen=True)
class YoloDataset:
    names: tuple[str, ...]
    images: tuple[Path, ...]
    labels_dir_of: dict[Path, Path]

    def label_file(self, image: Path) -> Path:
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


def _names_mode(names: Sequence[str]) -> str:
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


def _prediction_names(det: Detections, face_names: Sequence[str], mode: str) -> list[str]:
    if mode == "face":
        return [face_names[int(c)] for c in det.class_id]
    return list(det.labels)


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


def _read_labels(path: Path, shape: tuple[int, ...], n_classes: int) -> tuple[npt.NDArray[np.float32], list[int]]:
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


def pipeline_label(detector: OnnxDetector | UltralyticsDetector, classifier: FaceClassifier | None,
                   image: npt.NDArray[np.uint8], box: npt.NDArray[np.float32], label: str, *,
                   whole: bool = False, faces: frozenset[str] | None = None,
                   read: Sequence[tuple[str, float]] | None = None, found_only: bool = False) -> str:
    """The label the pipeline settles on for the card the detector read as ``label`` at ``box``: its
    closer look (:func:`~referee.vision.detect.look_closer` averaged with the classifier,
    :func:`~referee.vision.classify.second_look`) replaces the face when sure of another
    (:func:`~referee.vision.tracking.closer_label` at
    :data:`~referee.vision.classify.SECOND_LOOK_CONFIDENCE`, a card of the other kind at
    :data:`~referee.vision.classify.ACROSS_KINDS_CONFIDENCE` with the colour read at its box); a card
    lying ``whole`` (as a card just laid on the pile, and the card of a photo), or any card once a learned deck
    reads with the classifier (:attr:`~referee.vision.classify.FaceClassifier.taught`), lets the classifier speak
    alone at :data:`~referee.vision.classify.CLASSIFIER_ALONE_CONFIDENCE`. With the deck's ``faces``, a face it
    does not print is read by the classifier among them first, and closer looks name only them (as
    :class:`referee.pipeline.Pipeline` does). ``read``: the classifier's faces for the card (among
    ``faces``) when the caller has them already. Without a classifier, the detector's. A card the detector
    found but did not read (``found_only``: its face under the tracker's bar, kept for its card-ness) is
    named only by a closer look sure of a face, as the tracker names it
    (:func:`~referee.vision.tracking.closer.name_unread`), else ``none``."""
    if classifier is None:
        return "none" if found_only else label
    if read is None:
        read = classifier.read(image, box, allowed=faces)
    if faces is not None and needs_reading(label, faces, tuple(detector.face_names)):
        label = read_on_deck(label, read)
    closer = look_closer(detector, image, box)
    if faces is not None:
        closer = [(face, p) for face, p in closer if face in faces]
    both = second_look(closer, read, alone=CLASSIFIER_ALONE_CONFIDENCE if whole or classifier.taught else None)
    name = named_surely if found_only else closer_label
    named = name(label, both, SECOND_LOOK_CONFIDENCE, across=ACROSS_KINDS_CONFIDENCE,
                 colour=lambda: card_colour(detector, image, box))
    return named or ("none" if found_only else label)


def _progress(total: int, what: str) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, desc=f"eval {what}", unit="image", file=sys.stderr, disable=total < 20)


def evaluate_yolo(
    detector: OnnxDetector | UltralyticsDetector, yaml_path: Path, limit: int | None = None,
    classifier: FaceClassifier | None = None,
) -> dict[str, Any]:
    dataset = load_yolo_dataset(yaml_path)
    mode = _names_mode(dataset.names)
    wanted = set(dataset.names)
    face_names = detector.face_names
    # Per class: list of (confidence, tp flags at 10 IoU thresholds); count of ground truths.
    records: dict[str, list[tuple[float, npt.NDArray[np.bool_]]]] = defaultdict(list)
    n_gt: dict[str, int] = defaultdict(int)
    card_hits = card_total = read_hits = pipeline_hits = 0
    confusions: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    # bucket -> [detector hits, cards, classifier hits, pipeline hits], where meta sidecars say how much shows
    by_visible: dict[str, list[int]] = {}
    tp50 = fp50 = 0
    images = skipped = 0
    bar = _progress(len(dataset.images[:limit]), yaml_path.parent.name)
    for image_path in dataset.images[:limit]:
        bar.update()
        image = cv2.imread(str(image_path))
        if image is None:
            log.warning("unreadable image skipped: %s", image_path)
            skipped += 1
            continue
        images += 1
        gt_boxes, gt_cls = _read_labels(dataset.label_file(image_path), image.shape, len(dataset.names))
        gt_names = [dataset.names[c] for c in gt_cls]
        found = detector.detect(image)
        found_names = _prediction_names(found, face_names, mode)
        # The boxes the tracker would read (the card accuracy), and every box the detector gives (the mAP).
        tracked = set(readable(found, READING)[0])
        keep = [i for i, n in enumerate(found_names) if n in wanted and i in tracked]
        det = found[np.asarray(keep, np.int64)] if keep else Detections.empty()
        pred_names = [found_names[i] for i in keep]
        scored = [i for i, n in enumerate(found_names) if n in wanted]
        for name in gt_names:
            n_gt[name] += 1
        iou = box_iou(det.xyxy, gt_boxes)
        # Which boxes are whole cards, as the tracker tells a card just laid (TrackerConfig.whole_area_share).
        areas = (det.xyxy[:, 2] - det.xyxy[:, 0]) * (det.xyxy[:, 3] - det.xyxy[:, 1])
        whole_area = WHOLE_AREA_SHARE * float(np.median(areas)) if len(det) else 0.0
        visible = _visible_shares(image_path, gt_boxes)
        # Card accuracy: each labelled card's best-overlapping prediction names it right.
        for g, name in enumerate(gt_names):
            best = int(iou[:, g].argmax()) if len(det) and iou[:, g].max() > 0.3 else None
            hit = best is not None and pred_names[best] == name
            card_total += 1
            card_hits += hit
            # The same box read again by the face classifier (the colour stays the detector's).
            classified = (classifier.read(image, det.xyxy[best])
                          if best is not None and classifier is not None else [])
            read_hit = best is not None and classifier is not None and _relabel(
                classified, pred_names[best], mode) == name
            read_hits += read_hit
            read = "none" if best is None else _named(
                detector, classifier, image, det.xyxy[best], pred_names[best], mode,
                whole=bool(areas[best] >= whole_area), read=classified,
                found_only=bool(det.confidence[best] < READING.min_confidence))
            named = read == name
            pipeline_hits += named
            if not named:
                confusions[name][read] += 1
            if visible is not None:
                bucket = by_visible.setdefault(_visible_bucket(visible[g]), [0, 0, 0, 0])
                bucket[0] += hit
                bucket[1] += 1
                bucket[2] += read_hit
                bucket[3] += named
        # Matching for AP: per IoU threshold, greedy by confidence among ground truths of the same name.
        det = found[np.asarray(scored, np.int64)] if scored else Detections.empty()
        pred_names = [found_names[i] for i in scored]
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
        for p in order:
            records[pred_names[p]].append((float(det.confidence[p]), flags[p]))
            if det.confidence[p] >= 0.25:
                tp50 += int(flags[p, 0])
                fp50 += int(not flags[p, 0])
    per_class: dict[str, float] = {}
    ap_all: list[npt.NDArray[np.float64]] = []
    for name in dataset.names:
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
    total_gt = sum(n_gt.values())
    aps_arr = np.stack(ap_all) if ap_all else np.zeros((1, 10))
    return {
        "data": str(yaml_path),
        "mode": mode,
        "model": str(getattr(detector, "path", "")),
        "imgsz": detector.imgsz,
        "map50": round(float(aps_arr[:, 0].mean()), 4),
        "map50_95": round(float(aps_arr.mean()), 4),
        "precision": round(tp50 / max(tp50 + fp50, 1), 4),
        "recall": round(tp50 / max(total_gt, 1), 4),
        "card_accuracy": round(pipeline_hits / max(card_total, 1), 4),
        "card_accuracy_detector": round(card_hits / max(card_total, 1), 4),
        "confusions": {k: dict(v) for k, v in confusions.items()},
        "images": images,
        "skipped": skipped,
        "per_class": per_class,
        **({"card_accuracy_by_visible": {
            bucket: {"cards": n, "accuracy": round(named / n, 4), "accuracy_detector": round(hits / n, 4),
                     **({"accuracy_classifier": round(read / n, 4)} if classifier is not None else {})}
            for bucket, (hits, n, read, named) in sorted(by_visible.items())
        }} if by_visible else {}),
        **({"classifier": str(classifier.path),
            "card_accuracy_classifier": round(read_hits / max(card_total, 1), 4)} if classifier is not None else {}),
    }


def _named(detector: OnnxDetector | UltralyticsDetector, classifier: FaceClassifier | None,
           image: npt.NDArray[np.uint8], box: npt.NDArray[np.float32], name: str, mode: str, *,
           read: Sequence[tuple[str, float]], whole: bool = False, found_only: bool = False) -> str:
    """The prediction ``name`` as the pipeline would settle it (a faces dataset: its face); ``read``: the
    classifier's faces for the box; ``found_only``: found by card-ness, its face under the bar."""
    if mode == "label":
        return pipeline_label(detector, classifier, image, box, name, whole=whole, read=read, found_only=found_only)
    return _relabel(_closer_faces(detector, classifier, image, box, read), name, mode)


def _closer_faces(detector: OnnxDetector | UltralyticsDetector, classifier: FaceClassifier | None,
                  image: npt.NDArray[np.uint8], box: npt.NDArray[np.float32], read: Sequence[tuple[str, float]]
                  ) -> list[tuple[str, float]]:
    """The closer look's surest face when it is sure enough to replace the detector's (a faces dataset)."""
    if classifier is None:
        return []
    both = second_look(look_closer(detector, image, box), read)
    return both[:1] if both and both[0][1] >= SECOND_LOOK_CONFIDENCE else []


def _relabel(faces: Sequence[tuple[str, float]], name: str, mode: str) -> str:
    """``name`` (a prediction's face, or colour + face) with its face replaced by the surest of ``faces``;
    the colour stays (``name`` itself when ``faces`` is empty)."""
    if not faces:
        return name
    face = faces[0][0]
    if mode != "label" or face in BLACK_VALUES or face == "back":
        return face
    colour = name.split("_", 1)[0]
    return face if colour in BLACK_VALUES or colour == "back" else f"{colour}_{face}"


VISIBLE_BUCKETS = (0.5, 0.7, 0.9)  # edges: how much of a card shows, from `referee synth`'s meta sidecars


def _visible_bucket(share: float) -> str:
    low = 0.0
    for edge in VISIBLE_BUCKETS:
        if share < edge:
            return f"{low:.1f}-{edge:.1f}"
        low = edge
    return f"{low:.1f}-1.0"


def _visible_shares(image_path: Path, gt_boxes: npt.NDArray[np.float32]) -> list[float] | None:
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


def evaluate_folders(
    detector: OnnxDetector | UltralyticsDetector, root: Path, limit: int | None = None,
    classifier: FaceClassifier | None = None, faces: frozenset[str] | None = None,
) -> dict[str, Any]:
    folders = sorted(p for p in root.iterdir() if p.is_dir())
    if not folders:
        raise EvalError(f"{root}: no class folders")
    for folder in folders:
        try:
            Card.from_label(folder_label(folder.name))
        except CardError:
            raise EvalError(f"{root}: folder {folder.name!r} is not a card label (contract 1; red_1of2 for red_1/2)"
                            ) from None
    files = {folder: sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)[:limit]
             for folder in folders}
    # reader -> label -> hits; reader -> truth -> read -> count. "pipeline": the label the pipeline settles
    # on; "detector": the most confident detection's; "classifier": its face read by the classifier alone.
    readers = ("pipeline", "detector") + (("classifier",) if classifier is not None else ())
    hits: dict[str, dict[str, int]] = {r: defaultdict(int) for r in readers}
    confusions: dict[str, dict[str, dict[str, int]]] = {
        r: defaultdict(lambda: defaultdict(int)) for r in readers}
    totals: dict[str, int] = defaultdict(int)
    images = skipped = 0
    bar = _progress(sum(len(v) for v in files.values()), root.name)
    for folder in folders:
        for image_path in files[folder]:
            bar.update()
            image = cv2.imread(str(image_path))
            if image is None:
                log.warning("unreadable image skipped: %s", image_path)
                skipped += 1
                continue
            images += 1
            truth = folder_label(folder.name)
            totals[truth] += 1
            for reader, read in _reads(detector, classifier, image, faces).items():
                if read == truth:
                    hits[reader][truth] += 1
                else:
                    confusions[reader][truth][read] += 1
    bar.close()
    if images == 0:
        raise EvalError(f"{root}: no readable image in its class folders")
    out: dict[str, Any] = {
        "data": str(root),
        "model": str(getattr(detector, "path", "")),
        "imgsz": detector.imgsz,
        "top1_accuracy": round(sum(hits["pipeline"].values()) / images, 4),
        "images": images,
        "skipped": skipped,
        "per_class": {name: round(hits["pipeline"][name] / n, 4) for name, n in totals.items()},
        "confusions": {k: dict(v) for k, v in confusions["pipeline"].items()},
        "top1_accuracy_detector": round(sum(hits["detector"].values()) / images, 4),
        "per_class_detector": {name: round(hits["detector"][name] / n, 4) for name, n in totals.items()},
        "confusions_detector": {k: dict(v) for k, v in confusions["detector"].items()},
    }
    if classifier is not None:
        out.update({
            "classifier": str(classifier.path),
            "top1_accuracy_classifier": round(sum(hits["classifier"].values()) / images, 4),
            "confusions_classifier": {k: dict(v) for k, v in confusions["classifier"].items()},
        })
    return out


def _reads(detector: OnnxDetector | UltralyticsDetector, classifier: FaceClassifier | None,
           image: npt.NDArray[np.uint8], faces: frozenset[str] | None = None) -> dict[str, str]:
    """The most confident card's label: as the pipeline names it, as the detector does, and (with a
    classifier) with its face read by the classifier alone."""
    det = detector.detect(image)
    cards = [i for i, label in enumerate(det.labels) if label != "back"]
    if not cards:
        return {"pipeline": "none", "detector": "none", **({"classifier": "none"} if classifier else {})}
    best = max(cards, key=lambda i: det.confidence[i])
    label = det.labels[best]
    classified = classifier.read(image, det.xyxy[best], allowed=faces) if classifier is not None else []
    reads = {"pipeline": pipeline_label(detector, classifier, image, det.xyxy[best], label, whole=True, faces=faces,
                                        read=classified,
                                        found_only=bool(det.confidence[best] < READING.min_confidence)),
             "detector": label}
    if classifier is not None:
        reads["classifier"] = _relabel(classified, label, "label")
    return reads


def folder_rules(root: Path) -> str:
    """The rule preset whose deck a folder of class-named folders shows: the fractions deck for
    fraction labels, the Luxembourgish one for orange, violet or blank cards, else the classic."""
    names = [p.name for p in root.iterdir() if p.is_dir()]
    if any("/" in folder_label(n) for n in names):
        return "breuken"
    if any(n.startswith(("orange_", "violet_")) or n == "blank" for n in names):
        return "lb"
    return "official"


def evaluate(data: Path, model: Path | None = None, *, imgsz: int | None = None, conf: float = 0.001,
             limit: int | None = None, classifier: Path | None = None, deck: Path | None = None,
             rules: str | None = None, tiles: bool = True) -> dict[str, Any]:
    if not data.exists():
        raise EvalError(f"no such dataset: {data}")
    if data.is_dir() and (data / "data.yaml").is_file():
        data = data / "data.yaml"
    if data.is_file():
        # Read colours against every palette the dataset labels (classic, plus orange/violet if present).
        names = load_yolo_dataset(data).names
        colours = {Card.from_label(n).colour for n in names if _names_mode(names) == "label"}
        palette = [c for c in Colour if c in colours] or list(CLASSIC_COLOURS)
        detector = load_detector(model, imgsz=imgsz, conf=conf, palette=palette)
        _set_tiles(detector, tiles)
        reader = _with_deck(deck, detector, load_classifier(classifier), palette)
        return {**evaluate_yolo(detector, data, limit, reader), **({"deck": str(deck)} if deck else {}),
                **({} if tiles else {"tiles": False})}
    from referee.readers import CommandError, deck_faces, deck_palette

    rules = rules or folder_rules(data)
    try:
        faces, colours_of_deck = deck_faces(rules, {}), deck_palette(rules, {})
    except CommandError as exc:
        raise EvalError(str(exc)) from None
    detector = load_detector(model, imgsz=imgsz, conf=0.25 if conf < 0.25 else conf, palette=colours_of_deck)
    _set_tiles(detector, tiles)
    reader = _with_deck(deck, detector, load_classifier(classifier), colours_of_deck)
    return {**evaluate_folders(detector, data, limit, reader, faces), "rules": rules,
            **({"deck": str(deck)} if deck else {}), **({} if tiles else {"tiles": False})}


def _set_tiles(detector: OnnxDetector | UltralyticsDetector, tiles: bool) -> None:
    """Find small cards again on tiles (the ONNX detector's default) or in the whole view only."""
    if isinstance(detector, OnnxDetector):
        detector.tiles = tiles


def _with_deck(deck: Path | None, detector: OnnxDetector | UltralyticsDetector, classifier: FaceClassifier | None,
               palette: Sequence[Colour]) -> FaceClassifier | None:
    """``classifier`` reading with the learned ``deck`` (and the detector reading its palette)."""
    if deck is None:
        return classifier
    from referee.readers import CommandError, apply_deck

    try:
        apply_deck(deck, detector, classifier, palette)
    except CommandError as exc:
        raise EvalError(str(exc)) from None
    return classifier


def main(args: argparse.Namespace) -> int:
    try:
        result = evaluate(args.data, args.model, imgsz=args.imgsz, conf=args.conf, limit=args.limit,
                          classifier=getattr(args, "classifier", None), deck=getattr(args, "deck", None),
                          rules=getattr(args, "rules", None), tiles=getattr(args, "tiles", True))
    except (EvalError, DetectorError) as exc:
        print(f"referee eval: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result), file=sys.stdout)
    return 0
