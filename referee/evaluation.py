"""``referee eval``: photos read as the pipeline reads them, with the deck the game's preset prints and a deck
learned by ``referee learn-deck`` (contract 4's JSON).

The reading itself is :mod:`referee.vision.evaluate` (``evaluate_yolo`` for a YOLO ``data.yaml``,
``evaluate_folders`` for class-named folders of photos); this module puts together what it reads with: the
detector and classifier, the preset's faces and palette, a learned deck (:mod:`referee.readers`). It sits
above vision for that reason: vision never imports the layer that knows the presets.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee.cards import CLASSIC_COLOURS, Card, Colour, folder_label
from referee.readers import CommandError, apply_deck, deck_faces, deck_palette
from referee.vision.classify import FaceClassifier, load_classifier
from referee.vision.detect import DetectorError, OnnxDetector, UltralyticsDetector, load_detector
from referee.vision.evaluate import evaluate_folders, evaluate_yolo
from referee.vision.yolo_data import EvalError, load_yolo_dataset, names_mode

__all__ = ["evaluate", "folder_rules", "labels_rules", "main"]


def folder_rules(root: Path) -> str:
    """The rule preset whose deck a folder of class-named folders shows (:func:`labels_rules`)."""
    return labels_rules([folder_label(p.name) for p in root.iterdir() if p.is_dir()])


def labels_rules(labels: Sequence[str]) -> str:
    """The rule preset whose deck prints ``labels`` (``red_7``, ``7``, ``red_1/2``): the fractions deck for
    fraction labels, the Luxembourgish one for orange, violet or blank cards, else the classic."""
    if any("/" in label for label in labels):
        return "breuken"
    if any(label.startswith(("orange_", "violet_")) or label == "blank" for label in labels):
        return "lb"
    return "official"


def one_deck(labels: Sequence[str]) -> bool:
    """Whether ``labels`` can all be one deck's: no fraction beside a plain number or a skip."""
    faces = {label.rsplit("_", 1)[-1] if "/" not in label else "fraction" for label in labels}
    return not ("fraction" in faces and faces & {*map(str, range(10)), "skip"})


def evaluate(data: Path, model: Path | None = None, *, imgsz: int | None = None, conf: float = 0.001,
             limit: int | None = None, classifier: Path | None = None, deck: Path | None = None,
             rules: str | None = None, tiles: bool = True) -> dict[str, Any]:
    """``referee eval``'s figures for ``data``: a YOLO ``data.yaml`` (or the folder holding one), or a folder
    of class-named folders of photos, read by the detector at ``model`` with ``classifier`` and ``deck``."""
    if not data.exists():
        raise EvalError(f"no such dataset: {data}")
    if data.is_dir() and (data / "data.yaml").is_file():
        data = data / "data.yaml"
    if data.is_file():
        # Read colours against every palette the dataset labels (classic, plus orange/violet if present).
        names = load_yolo_dataset(data).names
        colours = {Card.from_label(n).colour for n in names if names_mode(names) == "label"}
        palette = [c for c in Colour if c in colours] or list(CLASSIC_COLOURS)
        detector = load_detector(model, imgsz=imgsz, conf=conf, palette=palette)
        _set_tiles(detector, tiles)
        reader = _with_deck(deck, detector, load_classifier(classifier), palette)
        # Cards are named among the faces of the deck the labels show, as the pipeline names them in a game
        # (labels of more than one deck, as a generator's validation set has: among any face).
        table_rules = rules or (labels_rules(names) if one_deck(names) else None)
        try:
            table_faces = deck_faces(table_rules, {}) if table_rules else None
        except CommandError as exc:
            raise EvalError(str(exc)) from None
        return {**evaluate_yolo(detector, data, limit, reader, table_faces), "rules": table_rules,
                **({"deck": str(deck)} if deck else {}), **({} if tiles else {"tiles": False})}
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
