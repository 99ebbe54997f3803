"""Decks the reader never saw: photos of printings held out of training, read without and with learn-deck.

    python benchmarks/printings_eval.py --decks 3 --photos 10 --work out/printings [--seed 5]

Each deck is a printing drawn from its own seed, outside the renderer's pool (``DESIGNS``: the models
never saw it), printed one way throughout: one body colour per colour, drawn anywhere in the range
printers use (a lime or a teal green, an amber or a lemon yellow). Its kinds cycle through the thin
white ring with white outlined numerals, the classic filled oval, the flat print and the plain budget
deck. For every label of the classic deck (54), ``--photos`` photos are made the way a player takes
them for ``referee learn-deck``: the card near the centre of a table, turned any way, seen a little
from the side, with another card at the edge now and then, under warm or cool light, blurred, noisy.

Then, per deck, as a user would:

1. ``referee eval`` on all its photos, no enrolment (``generic``: ``top1_accuracy`` as the pipeline
   names the card, and the detector alone); and on ten webcam views of a whole table (1280x720, twelve
   cards lying apart, each 16-30 px long at the detector's 320 px input) written as a YOLO data.yaml
   (``tables_generic``: ``card_accuracy``; ``tables_recall``: cards found; ``tables_whole_view``: the
   cards read when the detector looks at the whole view only, not again on tiles: ``--no-tiles``);
2. ``referee learn-deck`` from the first photo of each label, ``referee eval --deck`` on the other
   photos and the table views (``learned_1``, ``tables_learned_1``); and from the first five
   (``learned_5``) when there are ten.

Each deck's faces are also written (``WORK/deckN/faces/LABEL/0.png``): ``python benchmarks/e2e_eval.py
--faces WORK/deckN/faces`` films whole games with that printing.

One JSON line last. Generated: a means to find what fails, not the goal (real decks are).
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.cards import CLASSIC, Card, Colour
from referee.synth.render import CardDesign, Palette, printing_colour, random_palette
from referee.synth.scene import CardPlacement, camera_effects, card_quad, compose, tilt_quad
from referee.synth.tables import table_view
from referee.synth.textures import background

KINDS = ("ring", "classic", "flat", "plain")
#: Whole-table views per deck (12 cards each, some 35 px tall at the detector's input).
TABLE_VIEWS = 10


def held_out_design(rng: np.random.Generator, kind: str) -> CardDesign:
    """A printing drawn outside the renderer's pool (its own seed)."""
    return CardDesign(
        kind=kind, font=int(rng.integers(0, 8)), shear=float(rng.uniform(0.0, 0.25)),
        border=float(rng.uniform(0.05, 0.1)), radius=float(rng.uniform(0.05, 0.13)),
        oval_angle=float(rng.uniform(-66, -45)), oval_scale=float(rng.uniform(0.88, 1.08)),
        symbol_scale=float(rng.uniform(0.8, 1.15)),
        shadow=int(rng.integers(3, 10)) if kind in ("ring", "classic") else 0,
        outline=int(rng.integers(1, 5)), corner_scale=float(rng.uniform(0.8, 1.25)),
        wild_rotation=int(rng.integers(0, 4)), skip_angle=float(rng.choice([40.0, -40.0, 45.0])),
        digit_width=float(rng.uniform(0.65, 1.0)), wild_split=float(rng.choice([0.0, 10.0, -58.0])),
        ring=float(rng.uniform(0.015, 0.05)), one_flag=bool(rng.random() < 0.5),
    )


def deck_palettes(rng: np.random.Generator) -> dict[Colour | None, Palette]:
    """One printing of each colour for the whole deck (and of its black cards)."""
    base = random_palette(Card(Colour.RED, "1"), rng, wide=True)
    out: dict[Colour | None, Palette] = {None: Palette(**{**base.__dict__, "body": (22, 20, 20)})}
    for colour in (Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE):
        out[colour] = Palette(**{**base.__dict__, "body": printing_colour(colour, rng, wide=True)})
    return out


def photo(rng: np.random.Generator, card: Card, design: CardDesign, palettes: dict[Colour | None, Palette],
          size: tuple[int, int] = (540, 405)) -> np.ndarray:
    """A phone photo of ``card`` near the centre of a table."""
    h, w = size
    side = max(h, w)
    base = background(rng, side)[:h, :w].copy()
    height = h * rng.uniform(0.45, 0.8)
    centre = (w / 2 + rng.normal(0, w * 0.04), h / 2 + rng.normal(0, h * 0.04))
    quad = card_quad(centre, height, rng.uniform(0, 360), rng.uniform(-0.02, 0.02, 8))
    quad = tilt_quad(quad, rng.normal(0, 12), rng.normal(0, 12), side * rng.uniform(1.0, 2.0))
    items = []
    if rng.random() < 0.25:  # another card at the edge of the photo
        other = Card(Colour.BLUE, "5") if card.colour is not Colour.BLUE else Card(Colour.RED, "2")
        edge = (rng.choice([0.0, w]), rng.uniform(0, h))
        items.append(CardPlacement(other, card_quad(edge, height, rng.uniform(0, 360)), design,
                                   palette=palettes[other.colour]))
    items.append(CardPlacement(card, quad, design, palette=palettes[card.colour],
                               wear=float(rng.uniform(0, 0.6)) if rng.random() < 0.3 else 0.0,
                               gloss=float(rng.uniform(0.1, 0.5)) if rng.random() < 0.3 else 0.0))
    image = compose(base, items, rng).image
    return camera_effects(image, rng, strength=0.7)


def write_tables(folder: Path, seed: int, design: CardDesign, palettes: dict[Colour | None, Palette],
                 views: int) -> Path:
    """``views`` table views as a YOLO dataset named by contract-1 labels; returns its data.yaml."""
    labels = sorted({c.label for c in CLASSIC.cards()})
    (folder / "images" / "val").mkdir(parents=True, exist_ok=True)
    (folder / "labels" / "val").mkdir(parents=True, exist_ok=True)
    for v in range(views):
        rng = np.random.default_rng([seed, 3, v])
        cards = [Card.from_label(labels[int(i)]) for i in rng.choice(len(labels), 12, replace=False)]
        image, boxes = table_view(rng, cards, design, palettes)
        cv2.imwrite(str(folder / "images" / "val" / f"{v:03d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        h, w = image.shape[:2]
        lines = [f"{labels.index(label)} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} "
                 f"{(y1 - y0) / h:.6f}" for label, (x0, y0, x1, y1) in boxes]
        (folder / "labels" / "val" / f"{v:03d}.txt").write_text("\n".join(lines) + "\n")
    names = "".join(f"  - {n}\n" for n in labels)
    (folder / "data.yaml").write_text(f"path: {folder.resolve()}\nval: images/val\nnames:\n{names}")
    return folder / "data.yaml"


def write_faces(folder: Path, design: CardDesign, palettes: dict[Colour | None, Palette]) -> Path:
    """The deck's face of every label (``LABEL/0.png``, BGRA), the folder ``e2e_eval.py --faces`` films
    game videos with: games played with a printing the models never saw."""
    from referee.synth.render import render_card

    for card in {c.label: c for c in CLASSIC.cards()}.values():
        (folder / card.label).mkdir(parents=True, exist_ok=True)
        face = render_card(card, design, np.random.default_rng(0), palettes[card.colour])
        cv2.imwrite(str(folder / card.label / "0.png"), face)
    return folder


def write_deck(folder: Path, seed: int, kind: str, photos: int) -> dict[str, Any]:
    """A held-out deck's photos in class folders; returns what it is."""
    rng = np.random.default_rng([seed, 1])
    design = held_out_design(rng, kind)
    palettes = deck_palettes(rng)
    labels = sorted({c.label for c in CLASSIC.cards()})
    if folder.exists():
        shutil.rmtree(folder)
    for label in labels:
        (folder / label).mkdir(parents=True)
        for k in range(photos):
            image = photo(np.random.default_rng([seed, 2, labels.index(label), k]), Card.from_label(label), design,
                          palettes)
            cv2.imwrite(str(folder / label / f"{k:02d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    hues = {c.value: round(float(cv2.cvtColor(np.uint8([[p.body]]), cv2.COLOR_BGR2HSV)[0, 0, 0]), 1)
            for c, p in palettes.items() if c is not None}
    write_tables(folder.parent / "tables", seed, design, palettes, TABLE_VIEWS)
    write_faces(folder.parent / "faces", design, palettes)
    return {"seed": seed, "kind": kind, "hues": hues, "labels": len(labels), "photos": photos}


def split(folder: Path, out: Path, first: int) -> tuple[Path, Path]:
    """Links to the first ``first`` photos of each label (to learn) and to the rest (to read)."""
    learn, read = out / f"learn{first}", out / f"read{first}"
    for target in (learn, read):
        if target.exists():
            shutil.rmtree(target)
    for label_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        files = sorted(label_dir.iterdir())
        for target, chosen in ((learn, files[:first]), (read, files[first:])):
            (target / label_dir.name).mkdir(parents=True)
            for f in chosen:
                (target / label_dir.name / f.name).symlink_to(f.resolve())
    return learn, read


def run(decks: int, photos: int, work: Path, seed: int, classifier: Path | None = None,
        kinds: tuple[str, ...] = KINDS) -> dict[str, Any]:
    from referee.evaluation import evaluate
    from referee.vision.classify import load_classifier
    from referee.vision.deck import learn_deck
    from referee.vision.detect import load_detector

    results = []
    for d in range(decks):
        kind = kinds[d % len(kinds)]
        folder = work / f"deck{d}" / "photos"
        info = write_deck(folder, seed + d, kind, photos)
        print(f"deck {d} ({kind}): {info['labels'] * photos} photos written", file=sys.stderr)
        generic = evaluate(folder, classifier=classifier)
        tables = evaluate(work / f"deck{d}" / "tables" / "data.yaml", classifier=classifier)
        row: dict[str, Any] = {**info, "generic": generic["top1_accuracy"],
                               "tables_generic": tables["card_accuracy"],
                               "tables_generic_detector": tables["card_accuracy_detector"],
                               "tables_recall": tables["recall"],
                               "tables_whole_view": evaluate(work / f"deck{d}" / "tables" / "data.yaml",
                                                             classifier=classifier, tiles=False)["card_accuracy"],
                               "generic_detector": generic["top1_accuracy_detector"],
                               "generic_classifier": generic.get("top1_accuracy_classifier"),
                               "generic_confusions": generic["confusions"]}
        for first in (1, 5):
            if photos <= first:
                continue
            learn, read = split(folder, work / f"deck{d}", first)
            deck_dir = work / f"deck{d}" / f"deck{first}"
            reader = _classifier(load_classifier, classifier)
            summary = learn_deck(learn, deck_dir, load_detector(None, conf=0.25), reader)
            learned = evaluate(read, deck=deck_dir, classifier=classifier)
            row[f"learned_{first}"] = learned["top1_accuracy"]
            row[f"tables_learned_{first}"] = evaluate(work / f"deck{d}" / "tables" / "data.yaml", deck=deck_dir,
                                                      classifier=classifier)["card_accuracy"]
            row[f"learned_{first}_seconds"] = summary["seconds"]
            row[f"learned_{first}_confusions"] = learned["confusions"]
        print(json.dumps({k: v for k, v in row.items() if "confusions" not in k}), file=sys.stderr)
        results.append(row)
    mean = {key: round(float(np.mean([r[key] for r in results if r.get(key) is not None])), 4)
            for key in ("generic", "generic_detector", "learned_1", "learned_5", "tables_generic",
                        "tables_generic_detector", "tables_recall", "tables_whole_view", "tables_learned_1",
                        "tables_learned_5")
            if any(key in r for r in results)}
    return {"decks": decks, "photos": photos, "seed": seed, "classifier": str(classifier or "models/classifier.onnx"),
            "mean": mean, "per_deck": results,
            "worst_generic": min(r["generic"] for r in results) if results else math.nan}


def _classifier(loader: Any, path: Path | None) -> Any:
    classifier = loader(path)
    if classifier is None:
        raise SystemExit("no face classifier at models/classifier.onnx")
    return classifier


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=3)
    parser.add_argument("--photos", type=int, default=10, help="photos per label")
    parser.add_argument("--work", type=Path, default=Path("out/printings"))
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--classifier", type=Path, default=None, help="face classifier (default: the shipped one)")
    parser.add_argument("--kinds", default=",".join(KINDS), help="printing kinds the decks cycle through")
    args = parser.parse_args()
    print(json.dumps(run(args.decks, args.photos, args.work, args.seed, args.classifier,
                         tuple(args.kinds.split(",")))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
