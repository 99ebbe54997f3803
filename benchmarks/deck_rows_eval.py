"""Teaching a deck from photos of cards laid out together, leave one photo out: how many labels the player
must correct, and how well the learned deck then reads the photo left out.

    python benchmarks/deck_rows_eval.py ../shared/data/second-printing/tables/data.yaml

For each table photo of the YOLO dataset, the *other* photos are the layout photos (the second printing's
seven photos hold its 54 cards, some twice): :func:`referee.vision.deck_rows.propose` finds every card in
them and proposes a label; each proposal is checked against the labelled card it covers (box overlap 0.5):
a wrong label is one tap (the player picks the right one), a box on no labelled card one tap (the player
skips it), a labelled card not found is counted as missed. The corrected proposals are learned
(:func:`~referee.vision.deck_rows.learn_rows`) and the photo left out is read as the pipeline reads it
(``referee eval``'s ``card_accuracy``) with that deck. Compare ``benchmarks/deck_split.py``: the same split
learned from one crop a card. One JSON line last; a line a photo on stderr. ``--no-learn``: the taps alone.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent))
from deck_split import labelled, one_photo


def overlap(a: Any, b: Any) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def check(proposals: list[Any], truth: dict[str, list[tuple[str, Any]]]) -> tuple[list[Any], dict[str, int]]:
    """The proposals as the player leaves them (right labels, boxes on no card skipped) and the taps it took."""
    counts = {"found": len(proposals), "taps": 0, "relabelled": 0, "skipped": 0, "sure": 0, "sure_wrong": 0,
              "missed": 0}
    used: set[tuple[str, int]] = set()
    corrected = []
    for p in proposals:
        cards = truth[Path(p.photo).stem]
        best = max(range(len(cards)), key=lambda i: overlap(p.box, cards[i][1]), default=None)
        counts["sure"] += int(p.sure)
        if best is None or overlap(p.box, cards[best][1]) < 0.5:
            counts["taps"] += 1
            counts["skipped"] += 1
            continue
        used.add((p.photo, best))
        right = cards[best][0]
        if p.label != right:
            counts["taps"] += 1
            counts["relabelled"] += 1
            counts["sure_wrong"] += int(p.sure)
            p.label = right
        corrected.append(p)
    counts["missed"] = sum(len(truth[Path(photo).stem]) for photo in {p.photo for p in proposals}) - len(used)
    return corrected, counts


def run(data: Path, work: Path, learn: bool) -> dict[str, Any]:
    from referee.cards import find_deck
    from referee.evaluation import evaluate
    from referee.vision.classify import load_classifier
    from referee.vision.deck_rows import learn_rows, propose
    from referee.vision.detect import load_detector
    from referee.vision.evaluate import load_yolo_dataset

    dataset = load_yolo_dataset(data)
    truth = {path.stem: labelled(dataset, path, cv2.imread(str(path)).shape) for path in dataset.images}
    detector, classifier = load_detector(None, conf=0.25), load_classifier(None)
    if classifier is None:
        raise SystemExit("no face classifier at models/classifier.onnx")
    deck = find_deck("classic")
    rows, right, total = [], 0, 0
    for path in dataset.images:
        folder = work / path.stem
        if folder.exists():
            shutil.rmtree(folder)
        layout = folder / "layout"
        layout.mkdir(parents=True)
        for other in dataset.images:
            if other != path:
                (layout / other.name).symlink_to(other.resolve())
        proposals = propose(sorted(layout.iterdir()), detector, classifier, deck)
        corrected, counts = check(proposals, truth)
        row: dict[str, Any] = {"photo": path.stem, "layout_photos": len(dataset.images) - 1, **counts,
                               "labels": len({p.label for p in corrected})}
        if learn:
            summary = learn_rows(layout, corrected, folder / "deck", detector, classifier)
            result = evaluate(one_photo(folder / "read", path, dataset), deck=folder / "deck")
            cards = len(truth[path.stem])
            row.update(learned=result["card_accuracy"], cards=cards, learn_seconds=summary["seconds"])
            right += round(result["card_accuracy"] * cards)
            total += cards
        rows.append(row)
        print(json.dumps(row), file=sys.stderr)
    taps = [r["taps"] for r in rows]
    out: dict[str, Any] = {"data": str(data), "taps_mean": round(sum(taps) / len(taps), 2), "taps_max": max(taps),
                           "sure_wrong": sum(r["sure_wrong"] for r in rows), "photos": rows}
    if learn:
        out["learned"] = round(right / max(total, 1), 4)
        out["cards"] = total
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="a YOLO data.yaml of photos of several cards, contract-1 names")
    parser.add_argument("--work", type=Path, default=Path("out/deck_rows"))
    parser.add_argument("--no-learn", action="store_true", help="count the taps only")
    args = parser.parse_args()
    print(json.dumps(run(args.data, args.work, not args.no_learn)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
