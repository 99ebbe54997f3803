"""``referee learn-deck PHOTOS --out DECK``: teach the reader one physical deck (:mod:`referee.vision.deck`)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from referee.vision.classify import load_classifier
from referee.vision.deck import DeckError, learn_deck
from referee.vision.detect import DetectorError, load_detector

log = logging.getLogger(__name__)


def _shown(items: Iterable[Any]) -> Iterator[Any]:
    """``items`` with a progress bar on stderr, then a line saying what the silent last step is."""
    from tqdm import tqdm

    yield from tqdm(items, desc="learn-deck", unit="label", file=sys.stderr)
    print("learn-deck: every photo read; fitting the deck's reader to them (the last step: it can take a "
          "minute)...", file=sys.stderr, flush=True)


def main(args: argparse.Namespace) -> int:
    """Learn the deck; one JSON line (labels learned, time), or one line of error and exit 2."""
    try:
        detector = load_detector(args.model, conf=0.25)
        classifier = load_classifier(args.classifier)
        if classifier is None:
            raise DeckError("no face classifier at models/classifier.onnx: train one (`referee train-classifier`)"
                            " or give --classifier")
        summary = learn_deck(Path(args.photos), Path(args.out), detector, classifier, views_per_label=args.views,
                             seed=args.seed, progress=_shown)
    except (DeckError, DetectorError) as exc:
        print(f"referee learn-deck: {exc}", file=sys.stderr)
        return 2
    keys = ("deck", "labels_learned", "photos", "views", "palette", "stock_colours_misread", "views_read_right_generic",
            "views_read_right_learned", "seconds", "skipped")
    print(json.dumps({k: summary[k] for k in keys}))
    return 0
