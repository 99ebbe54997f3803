"""What a command opens to read cards, shared by ``run``, ``demo``, ``serve``, ``eval`` and ``bench``: the
game's deck (its faces and colours), the detector, the face classifier, and a deck learned at the table.

Library code: the commands (:mod:`referee.commands`, :mod:`referee.bench`, :mod:`referee.evaluation`)
import it, never the other way round. A problem with the input (an unknown preset, a model or deck that
cannot be loaded) is a :class:`CommandError` saying why, which a command prints as one line (exit 2).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from referee.cards import CLASSIC_COLOURS, Colour, DeckSpec
from referee.rules import ObservationError, find_preset
from referee.vision.classify import FaceClassifier
from referee.vision.detect import OnnxDetector, UltralyticsDetector
from referee.vision.detections import Detector, ReadsColours

__all__ = ["CommandError", "apply_deck", "deck_faces", "deck_palette", "deck_spec", "open_classifier",
           "open_detector"]

log = logging.getLogger(__name__)


class CommandError(Exception):
    """A problem with the command's input (source, model, calibration, rules): message, exit 2."""


def deck_spec(rules: str, options: Mapping[str, Any]) -> DeckSpec:
    """The deck of preset ``rules`` with ``options``; an unknown preset or option is a :class:`CommandError`."""
    try:
        return find_preset(rules).with_overrides(options).deck_spec
    except ObservationError as exc:
        raise CommandError(str(exc)) from None


def deck_faces(rules: str, options: Mapping[str, Any]) -> frozenset[str]:
    """The faces the preset's deck prints (and the back): what a card on this table can be read as."""
    return frozenset(card.value for card in deck_spec(rules, options).copies) | {"back"}


def deck_palette(rules: str, options: Mapping[str, Any]) -> tuple[Colour, ...]:
    """The colours the preset's deck prints."""
    return tuple(deck_spec(rules, options).colours) or CLASSIC_COLOURS


def open_detector(model: Path | None, palette: Sequence[Colour]) -> Detector:
    """The detector at ``model`` (by default the shipped ``models/detector.onnx``) reading colours
    against ``palette``; a model that cannot be loaded is a :class:`CommandError` saying why."""
    from referee.vision.detect import DetectorError, load_detector

    try:
        return load_detector(model, palette=palette)
    except DetectorError as exc:
        raise CommandError(str(exc)) from None


def open_classifier(path: Path | None, detector: Detector) -> FaceClassifier | None:
    """The face classifier at ``path`` (by default ``models/classifier.onnx`` when it is there) for a
    model detector; none for a double (it replays the footage's truth: nothing to read closer up)."""
    from referee.vision.classify import load_classifier
    from referee.vision.detect import DetectorError

    if not isinstance(detector, OnnxDetector | UltralyticsDetector):
        return None
    try:
        return load_classifier(path)
    except DetectorError as exc:
        raise CommandError(str(exc)) from None


def apply_deck(path: Path | None, detector: Detector, classifier: FaceClassifier | None,
               palette: Sequence[Colour]) -> None:
    """Read with the deck learned at ``path`` (``referee learn-deck``): its faces through ``classifier``'s
    head, its colours against its own palette where it learned every colour of ``palette``. A deck that
    cannot be used is a :class:`CommandError` saying why; ``None`` changes nothing."""
    if path is None:
        return
    from referee.vision.deck import DeckError, load_deck

    try:
        deck = load_deck(path)
        if classifier is None:
            raise DeckError("a learned deck needs the face classifier (models/classifier.onnx or --classifier)")
        deck.apply(classifier)
    except DeckError as exc:
        raise CommandError(str(exc)) from None
    if deck.palette is not None and set(palette) <= set(deck.palette.palette) and isinstance(detector, ReadsColours):
        detector.deck = deck.palette
    elif deck.palette is not None:
        log.warning("the deck %s learned the colours %s, not all of %s: colours are read against the stock hues",
                    path, ", ".join(c.value for c in deck.palette.palette), ", ".join(c.value for c in palette))
    log.info("reading with the deck learned in %s (%d labels)", path, len(deck.labels))


