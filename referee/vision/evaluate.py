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
  detector's box), ``images``, ``per_class`` (as the pipeline names it), ``confusions``, and ``mirrored``:
  whether the folder's camera mirrors its views (a selfie view; :mod:`referee.vision.mirror`), its photos
  then read flipped back. A table photo whose cards together read surer mirrored is read flipped back too.

A missing or unreadable image is reported and skipped; an unknown class name, an input size the model
cannot take or a deck that does not fit the classifier is a one-line error.

The dataset and the detection metrics are :mod:`referee.vision.yolo_data`, a card named as the pipeline
settles it :mod:`referee.vision.settled_reading`; their names are importable from here too. The command
itself, which puts the detector, classifier, the preset's deck and a learned deck together, is
:mod:`referee.evaluation` (above vision: it knows the presets).
"""

from __future__ import annotations

import logging
import sys
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import Card, CardError, folder_label
from referee.vision.card_shape import card_length, holds_whole_card
from referee.vision.classify import FaceClassifier, read_pad
from referee.vision.colour import DeckColours
from referee.vision.detect import OnnxDetector, UltralyticsDetector
from referee.vision.detections import Detections, ReadsColours
from referee.vision.mirror import camera_mirrored, looks_mirrored, mirror_boxes, mirror_image, read_mirrored
from referee.vision.settled_reading import (
    READING,
    photo_mirror_evidence,
    photo_reads,
    pipeline_label,
    relabel,
    settled_name,
)
from referee.vision.tracking import TrackerConfig
from referee.vision.tracking.frame import readable
from referee.vision.yolo_data import (
    IMAGE_SUFFIXES,
    IOU_THRESHOLDS,
    VISIBLE_BUCKETS,
    EvalError,
    YoloDataset,
    average_precision,
    box_iou,
    class_aps,
    load_yolo_dataset,
    match_for_ap,
    names_mode,
    read_labels,
    visible_bucket,
    visible_shares,
)

__all__ = ["IMAGE_SUFFIXES", "IOU_THRESHOLDS", "READING", "VISIBLE_BUCKETS", "WHOLE_LENGTH_SHARE",
           "EvalError", "YoloDataset", "average_precision", "box_iou", "evaluate_folders", "evaluate_yolo",
           "load_yolo_dataset", "pipeline_label"]

log = logging.getLogger(__name__)

#: A card-shaped box holding a card at least this share of the long side of its image's median card is a whole
#: card (:func:`~referee.vision.card_shape.holds_whole_card`; the tracker's rule for a card just laid:
#: :attr:`referee.vision.tracking.TrackerConfig.whole_length_share`).
WHOLE_LENGTH_SHARE = TrackerConfig.whole_length_share


def _prediction_names(det: Detections, face_names: Sequence[str], mode: str) -> list[str]:
    if mode == "face":
        return [face_names[int(c)] for c in det.class_id]
    return list(det.labels)


def _progress(total: int, what: str) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, desc=f"eval {what}", unit="image", file=sys.stderr, disable=total < 20)


@dataclass(frozen=True)
class _Labelled:
    """One image of a YOLO dataset: its pixels, its labelled cards, and how much of each shows (from the
    sidecar ``referee synth`` writes; ``None`` without one)."""

    image: npt.NDArray[np.uint8]
    gt_boxes: npt.NDArray[np.float32]
    gt_names: list[str]
    visible: list[float] | None


@dataclass
class _CardScores:
    """The card accuracy so far: each labelled card named right by the detector, by the classifier on the
    detector's box and as the pipeline settles it; the pipeline's confusions (truth -> read -> count); and
    per visible share (where the sidecars say) [detector hits, cards, classifier hits, pipeline hits]."""

    cards: int = 0
    detector: int = 0
    classifier: int = 0
    pipeline: int = 0
    confusions: defaultdict[str, defaultdict[str, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    by_visible: dict[str, list[int]] = field(default_factory=dict)


@dataclass
class _BoxScores:
    """What the detector's AP is computed from: per class, each prediction's (confidence, true-positive flags
    at the 10 IoU thresholds); the ground truths per class; true and false positives at IoU 0.5 among the
    predictions of confidence 0.25 or more."""

    records: defaultdict[str, list[tuple[float, npt.NDArray[np.bool_]]]] = field(
        default_factory=lambda: defaultdict(list))
    n_gt: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    tp50: int = 0
    fp50: int = 0


def evaluate_yolo(
    detector: OnnxDetector | UltralyticsDetector, yaml_path: Path, limit: int | None = None,
    classifier: FaceClassifier | None = None, faces: frozenset[str] | None = None,
) -> dict[str, Any]:
    """The detector's boxes (mAP, precision, recall) and each labelled card as the pipeline names it, on the
    YOLO dataset ``yaml_path`` (at most ``limit`` images); the keys the module's docstring lists. ``faces``:
    the faces the deck prints, among which the classifier and the closer look name a card (``None``: any)."""
    dataset = load_yolo_dataset(yaml_path)
    mode = names_mode(dataset.names)
    wanted = set(dataset.names)
    face_names = detector.face_names
    cards, boxes = _CardScores(), _BoxScores()
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
        gt_boxes, gt_cls = read_labels(dataset.label_file(image_path), image.shape, len(dataset.names))
        gt_names = [dataset.names[c] for c in gt_cls]
        found = detector.detect(image)
        if classifier is not None and looks_mirrored(
                classifier, image, found.xyxy[list(readable(found, READING)[0])],
                pad=read_pad(faces, tuple(face_names)), allowed=faces):  # a selfie view: read flipped back
            image, gt_boxes = mirror_image(image), mirror_boxes(gt_boxes, image.shape[1])
            found = detector.detect(image)
        found_names = _prediction_names(found, face_names, mode)
        for name in gt_names:
            boxes.n_gt[name] += 1
        shot = _Labelled(image, gt_boxes, gt_names, visible_shares(image_path, gt_boxes))
        _score_cards(cards, detector, classifier, shot, found, found_names, wanted, mode, faces)
        _score_boxes(boxes, found, found_names, wanted, gt_boxes, gt_names)
    per_class, aps = class_aps(dataset.names, boxes.records, boxes.n_gt)
    total_gt = sum(boxes.n_gt.values())
    return {
        "data": str(yaml_path),
        "mode": mode,
        "model": str(getattr(detector, "path", "")),
        "imgsz": detector.imgsz,
        "map50": round(float(aps[:, 0].mean()), 4),
        "map50_95": round(float(aps.mean()), 4),
        "precision": round(boxes.tp50 / max(boxes.tp50 + boxes.fp50, 1), 4),
        "recall": round(boxes.tp50 / max(total_gt, 1), 4),
        **_card_figures(cards, classifier, images, skipped, per_class),
    }


def _score_cards(scores: _CardScores, detector: OnnxDetector | UltralyticsDetector,
                 classifier: FaceClassifier | None, shot: _Labelled, found: Detections, found_names: list[str],
                 wanted: set[str], mode: str, faces: frozenset[str] | None = None) -> None:
    """Add one image to the card accuracy: each labelled card's best-overlapping box among those the tracker
    reads names it right (or not), as the detector, the classifier and the pipeline name it, among ``faces``."""
    image = shot.image
    # The boxes the tracker would read (the card accuracy), and every box the detector gives (the mAP).
    tracked = set(readable(found, READING)[0])
    keep = [i for i, n in enumerate(found_names) if n in wanted and i in tracked]
    det = found[np.asarray(keep, np.int64)] if keep else Detections.empty()
    pred_names = [found_names[i] for i in keep]
    iou = box_iou(det.xyxy, shot.gt_boxes)
    # Which boxes are whole cards: card-shaped and as long as the image's other cards, whatever their angles.
    pad = read_pad(faces, tuple(detector.face_names))  # the crop's margin a game reads this deck's cards with
    lengths = [card_length(box) for box in det.xyxy]
    median_length = float(np.median(lengths)) if lengths else 0.0
    for g, name in enumerate(shot.gt_names):
        best = int(iou[:, g].argmax()) if len(det) and iou[:, g].max() > 0.3 else None
        hit = best is not None and pred_names[best] == name
        # The same box read again by the face classifier (the colour stays the detector's).
        classified = (classifier.read(image, det.xyxy[best], allowed=faces, pad=pad)
                      if best is not None and classifier is not None else [])
        read_hit = best is not None and classifier is not None and relabel(
            classified, pred_names[best], mode) == name
        read = "none" if best is None else settled_name(
            detector, classifier, image, det.xyxy[best], pred_names[best], mode,
            whole=holds_whole_card(det.xyxy[best], median_length, WHOLE_LENGTH_SHARE), read=classified,
            found_only=bool(det.confidence[best] < READING.min_confidence), faces=faces)
        named = read == name
        scores.cards += 1
        scores.detector += hit
        scores.classifier += read_hit
        scores.pipeline += named
        if not named:
            scores.confusions[name][read] += 1
        if shot.visible is not None:
            bucket = scores.by_visible.setdefault(visible_bucket(shot.visible[g]), [0, 0, 0, 0])
            bucket[0] += hit
            bucket[1] += 1
            bucket[2] += read_hit
            bucket[3] += named


def _score_boxes(scores: _BoxScores, found: Detections, found_names: list[str], wanted: set[str],
                 gt_boxes: npt.NDArray[np.float32], gt_names: list[str]) -> None:
    """Add one image to the AP: every box the detector gives of a class the dataset labels, matched."""
    scored = [i for i, n in enumerate(found_names) if n in wanted]
    det = found[np.asarray(scored, np.int64)] if scored else Detections.empty()
    pred_names = [found_names[i] for i in scored]
    flags, order = match_for_ap(det, pred_names, gt_boxes, gt_names)
    for p in order:
        scores.records[pred_names[p]].append((float(det.confidence[p]), flags[p]))
        if det.confidence[p] >= 0.25:
            scores.tp50 += int(flags[p, 0])
            scores.fp50 += int(not flags[p, 0])


def _card_figures(scores: _CardScores, classifier: FaceClassifier | None, images: int, skipped: int,
                  per_class: dict[str, float]) -> dict[str, Any]:
    """The card accuracy's keys of :func:`evaluate_yolo`, in their order."""
    cards = max(scores.cards, 1)
    return {
        "card_accuracy": round(scores.pipeline / cards, 4),
        "card_accuracy_detector": round(scores.detector / cards, 4),
        "confusions": {k: dict(v) for k, v in scores.confusions.items()},
        "images": images,
        "skipped": skipped,
        "per_class": per_class,
        **({"card_accuracy_by_visible": {
            bucket: {"cards": n, "accuracy": round(named / n, 4), "accuracy_detector": round(hits / n, 4),
                     **({"accuracy_classifier": round(read / n, 4)} if classifier is not None else {})}
            for bucket, (hits, n, read, named) in sorted(scores.by_visible.items())
        }} if scores.by_visible else {}),
        **({"classifier": str(classifier.path),
            "card_accuracy_classifier": round(scores.classifier / cards, 4)} if classifier is not None else {}),
    }


def evaluate_folders(
    detector: OnnxDetector | UltralyticsDetector, root: Path, limit: int | None = None,
    classifier: FaceClassifier | None = None, faces: frozenset[str] | None = None,
) -> dict[str, Any]:
    """The most confident card of each photo in ``root``'s class-named folders (at most ``limit`` a folder)
    against the folder's name; the keys the module's docstring lists."""
    files = _class_folders(root, limit)
    # reader -> label -> hits; reader -> truth -> read -> count. "pipeline": the label the pipeline settles
    # on; "detector": the most confident detection's; "classifier": its face read by the classifier alone.
    readers = ("pipeline", "detector") + (("classifier",) if classifier is not None else ())
    hits: dict[str, dict[str, int]] = {r: defaultdict(int) for r in readers}
    confusions: dict[str, dict[str, dict[str, int]]] = {
        r: defaultdict(lambda: defaultdict(int)) for r in readers}
    totals: dict[str, int] = defaultdict(int)
    images = skipped = 0
    photos = [p for paths in files.values() for p in paths]
    evidence, colours = _camera_look(detector, classifier, photos, faces, f"{root.name}: the camera")
    camera = camera_mirrored(list(evidence.values()))
    bar = _progress(len(photos), root.name)
    with _reading_with(detector, colours):  # the folder's colours as its camera shows them
        for folder, paths in files.items():
            for image_path in paths:
                bar.update()
                image = cv2.imread(str(image_path))
                if image is None:
                    log.warning("unreadable image skipped: %s", image_path)
                    skipped += 1
                    continue
                images += 1
                truth = folder_label(folder.name)
                totals[truth] += 1
                flip = read_mirrored(evidence.get(image_path, 0.0), camera)
                _count(photo_reads(detector, classifier, image, faces, mirrored=flip), truth, hits, confusions)
    bar.close()
    if images == 0:
        raise EvalError(f"{root}: no readable image in its class folders")
    out: dict[str, Any] = {
        "data": str(root),
        "model": str(getattr(detector, "path", "")),
        "imgsz": detector.imgsz,
        "top1_accuracy": round(sum(hits["pipeline"].values()) / images, 4),
        "images": images,
        "mirrored": camera,
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


def _count(reads: dict[str, str], truth: str, hits: dict[str, dict[str, int]],
           confusions: dict[str, dict[str, dict[str, int]]]) -> None:
    """Count each reader's read of a photo of ``truth``: a hit, or a confusion with what it read."""
    for reader, read in reads.items():
        if read == truth:
            hits[reader][truth] += 1
        else:
            confusions[reader][truth][read] += 1


def _camera_look(detector: OnnxDetector | UltralyticsDetector, classifier: FaceClassifier | None,
                 paths: Sequence[Path], faces: frozenset[str] | None, what: str
                 ) -> tuple[dict[Path, float], DeckColours | None]:
    """The photos of a folder come from one camera: how much surer each photo's card reads mirrored
    (:func:`photo_mirror_evidence`; empty without a classifier), as the photos together say whether the camera
    mirrors its views (a selfie view); and how the camera shows the deck's colours, as a game learns them
    (:class:`~referee.vision.colour.DeckColours`, read as photos are, each colour in the spread its cards
    showed), taught by every card read surely; ``None`` where the detector reads a learned deck's palette."""
    evidence: dict[Path, float] = {}
    learns = isinstance(detector, ReadsColours) and detector.deck is None
    colours = DeckColours(detector.palette, spreads=True, photos=True) if learns else None
    if colours is None and classifier is None:
        return evidence, None  # nothing to learn from the photos
    bar = _progress(len(paths), what)
    with _reading_with(detector, colours):
        for path in paths:
            bar.update()
            image = cv2.imread(str(path))
            if image is None:
                continue
            if classifier is None:
                detector.detect(image)
            else:
                evidence[path] = photo_mirror_evidence(detector, classifier, image, faces)
    bar.close()
    if colours is not None:
        colours.learning = False
    return evidence, colours


@contextmanager
def _reading_with(detector: OnnxDetector | UltralyticsDetector, colours: DeckColours | None) -> Iterator[None]:
    """``detector`` reading colours against ``colours`` meanwhile (nothing changed with ``None``)."""
    if colours is None or not isinstance(detector, ReadsColours):
        yield
        return
    deck, detector.deck = detector.deck, colours
    try:
        yield
    finally:
        detector.deck = deck


def _class_folders(root: Path, limit: int | None) -> dict[Path, list[Path]]:
    """``root``'s class folders, each named for a card label, with their photos (at most ``limit`` each)."""
    folders = sorted(p for p in root.iterdir() if p.is_dir())
    if not folders:
        raise EvalError(f"{root}: no class folders")
    for folder in folders:
        try:
            Card.from_label(folder_label(folder.name))
        except CardError:
            raise EvalError(f"{root}: folder {folder.name!r} is not a card label (contract 1; red_1of2 for red_1/2)"
                            ) from None
    return {folder: sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)[:limit]
            for folder in folders}
