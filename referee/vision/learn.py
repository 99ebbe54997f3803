"""``referee learn-deck PHOTOS --out DECK``: teach the reader one physical deck (:mod:`referee.vision.deck`)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from referee.cards import CLASSIC
from referee.vision.classify import FaceClassifier, load_classifier
from referee.vision.deck import DeckError, learn_deck
from referee.vision.deck_rows import layout_photos, learn_rows, propose, read_proposals, write_proposals
from referee.vision.detect import DetectorError, load_detector

log = logging.getLogger(__name__)


def _shown(items: Iterable[Any]) -> Iterator[Any]:
    """``items`` with a progress bar on stderr, then a line saying what the silent last step is."""
    from tqdm import tqdm

    yield from tqdm(items, desc="learn-deck", unit="label", file=sys.stderr)
    print("learn-deck: every photo read; fitting the deck's reader to them (the last step: it can take a "
          "minute)...", file=sys.stderr, flush=True)


def _propose(args: argparse.Namespace, detector: Any, classifier: FaceClassifier, out: Path) -> int:
    """Find and label every card of the layout photos into ``out``; one JSON line saying what to check."""
    deck = getattr(args, "layout_deck", None) or CLASSIC  # the preset's deck (the command line found it)
    photos = layout_photos(Path(args.photos))
    found = propose(photos, detector, classifier, deck)
    write_proposals(found, out)
    unsure = [f"{p.photo} card {p.card}: {p.label}" for p in found if not p.sure]
    print(json.dumps({"proposals": str(out), "photos": len(photos), "cards": len(found),
                      "sure": len(found) - len(unsure), "to_check": unsure}))
    return 0


def main(args: argparse.Namespace) -> int:
    """Learn the deck; one JSON line (labels learned, time), or one line of error and exit 2. With
    ``--propose FILE`` (photos of the deck laid out in rows): write the label proposed for each card found
    and one JSON line (cards found, how many sure); with ``--proposals FILE``: learn from that file."""
    propose_to, proposals = getattr(args, "propose", None), getattr(args, "proposals", None)
    if propose_to is None and args.out is None:
        print("referee learn-deck: --out DECK is needed (or --propose FILE for photos of cards in rows)",
              file=sys.stderr)
        return 2
    try:
        detector = load_detector(args.model, conf=0.25)
        classifier = load_classifier(args.classifier)
        if classifier is None:
            raise DeckError("no face classifier at models/classifier.onnx: train one (`referee train-classifier`)"
                            " or give --classifier")
        if propose_to is not None:
            return _propose(args, detector, classifier, Path(propose_to))
        if proposals is not None:
            found = read_proposals(Path(proposals))
            summary = learn_rows(Path(args.photos), found, Path(args.out), detector, classifier,
                                 views_per_label=args.views, seed=args.seed, progress=_shown)
        else:
            summary = learn_deck(Path(args.photos), Path(args.out), detector, classifier, views_per_label=args.views,
                                 seed=args.seed, progress=_shown)
    except (DeckError, DetectorError) as exc:
        print(f"referee learn-deck: {exc}", file=sys.stderr)
        return 2
    rows = ("cards",) if proposals is not None else ()
    keys = (*rows, "deck", "labels_learned", "photos", "views", "palette", "stock_colours_misread",
            "views_read_right_generic", "views_read_right_learned", "seconds", "skipped")
    print(json.dumps({k: summary[k] for k in keys}))
    return 0
