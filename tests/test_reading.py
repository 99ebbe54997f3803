"""The pipeline reads the deck on the table: faces the detector has no class for, at the camera's resolution."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cards import Card
from referee.commands import deck_faces
from referee.pipeline import Pipeline
from referee.session import MatchSession
from referee.store import Store
from referee.synth.render import render_card
from referee.synth.scene import CardPlacement, card_quad, compose
from referee.synth.textures import background
from referee.vision.capture import Capture
from referee.vision.classify import DEFAULT_CLASSIFIER, load_classifier
from referee.vision.detect import load_detector

pytestmark = pytest.mark.skipif(not DEFAULT_CLASSIFIER.is_file(), reason="no shipped classifier")


def _still(tmp_path: Path, label: str, design: int, frames: int = 30) -> Path:
    """A still 1280x720 camera view of one card lying on a table, ``frames`` times."""
    rng = np.random.default_rng(3)
    table = background(rng, 1280)[:720].copy()
    quad = card_quad((640, 360), 300, 20.0)
    image = compose(table, [CardPlacement(Card.from_label(label), quad, design)], rng).image
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(frames):
        cv2.imwrite(str(folder / f"{i:03d}.png"), image)
    return folder


@pytest.mark.parametrize("label", ["red_3/4", "green_1/2", "blue_7/10"])
def test_a_fraction_card_is_read_from_the_camera(tmp_path: Path, label: str) -> None:
    """The detector has no fraction classes; on the fractions deck the classifier reads such a card among
    the deck's faces (before, the start card was a number the deck does not hold)."""
    folder = _still(tmp_path, label, design=0)
    detector = load_detector()
    session = MatchSession(Store(":memory:"), rules="breuken", players=4)
    pipeline = Pipeline(detector, session, players=4, classifier=load_classifier(),
                        faces=deck_faces("breuken", {}))
    pipeline.run(Capture(folder))
    starts = [o["card"] for o in session.export_log() if o["type"] == "start"]
    assert starts == [label]


def test_a_classic_deck_never_reads_a_fraction(tmp_path: Path) -> None:
    folder = _still(tmp_path, "yellow_4", design=33)  # the thin-ring printing
    session = MatchSession(Store(":memory:"), rules="official", players=4)
    pipeline = Pipeline(load_detector(), session, players=4, classifier=load_classifier(),
                        faces=deck_faces("official", {}))
    pipeline.run(Capture(folder))
    starts = [o["card"] for o in session.export_log() if o["type"] == "start"]
    assert starts == ["yellow_4"]


def test_deck_faces_follow_the_preset() -> None:
    assert "1/2" in deck_faces("breuken", {}) and "7" not in deck_faces("breuken", {})
    assert "7" in deck_faces("official", {}) and "1/2" not in deck_faces("official", {})
    assert "blank" in deck_faces("lb", {}) and "back" in deck_faces("official", {})


def test_render_card_draws_any_design() -> None:
    """A printing held out of the pool renders too (the benchmarks' unseen decks)."""
    from referee.synth.render import CardDesign

    face = render_card(Card.from_label("red_7"), CardDesign(kind="ring", font=3), np.random.default_rng(0))
    assert face.shape == (310, 200, 4)
