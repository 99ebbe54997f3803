"""`referee learn-deck` measured with an honest split: learn from the first photos of each label, read the rest.

    python benchmarks/learn_split.py ../shared/data/real-single-cards --first 1 [--first 5] [--classifier C]

For each ``--first N``: the first N photos of each label's folder (by name) are linked into ``WORK/learnN``,
the others into ``WORK/readN``; a deck is learned from ``learnN`` (``referee learn-deck``) and ``readN`` is
read as the pipeline names each card (``referee eval``'s ``top1_accuracy``), without the deck (``generic``)
and with it (``learned``). One JSON line last.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from printings_eval import split


def run(photos: Path, firsts: list[int], work: Path, classifier: Path | None) -> dict[str, Any]:
    from referee.evaluation import evaluate
    from referee.vision.classify import load_classifier
    from referee.vision.deck import learn_deck
    from referee.vision.detect import load_detector

    rows: dict[str, Any] = {}
    for first in firsts:
        learn, read = split(photos, work, first)
        reader = load_classifier(classifier)
        if reader is None:
            raise SystemExit("no face classifier at models/classifier.onnx")
        summary = learn_deck(learn, work / f"deck{first}", load_detector(None, conf=0.25), reader)
        generic = evaluate(read, classifier=classifier)
        learned = evaluate(read, deck=work / f"deck{first}", classifier=classifier)
        rows[f"first_{first}"] = {
            "read": generic["images"], "generic": generic["top1_accuracy"], "learned": learned["top1_accuracy"],
            "learn_seconds": summary["seconds"], "learned_confusions": learned["confusions"],
        }
        print(json.dumps({first: {k: v for k, v in rows[f"first_{first}"].items() if k != "learned_confusions"}}),
              file=sys.stderr)
    return {"photos": str(photos), "classifier": str(classifier or "models/classifier.onnx"), **rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", type=Path, help="class-named folders of photos")
    parser.add_argument("--first", type=int, action="append", help="photos per label to learn from (repeatable)")
    parser.add_argument("--work", type=Path, default=Path("out/learn_split"))
    parser.add_argument("--classifier", type=Path, default=None, help="face classifier (default: the shipped one)")
    args = parser.parse_args()
    print(json.dumps(run(args.photos, args.first or [1], args.work, args.classifier)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
