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


class _Reader:
    """A classifier double: each box's faces among the deck's, surest first, by the box's left edge."""

    def __init__(self, reads: dict[int, list[tuple[str, float]]]) -> None:
        self.reads = reads

    def read(self, image: np.ndarray, box: np.ndarray, **_: object) -> list[tuple[str, float]]:
        return self.reads[int(box[0])]


def test_a_card_read_among_its_decks_faces_is_as_sure_as_the_classifier() -> None:
    """On a deck whose faces the detector has no classes for, its confidence is of a face the card does not have;
    a card read among the deck's faces is as sure as the classifier is of the face it names. A strip of a card left
    showing under the card laid on it gives the classifier too little of a face: it spreads the read over the
    deck's faces (held-out fractions game 315: a yellow 1/10's strip read 3/5 at 0.045, kept at the detector's 0.7
    and played as a yellow 3/5, the 1/7 laid on it lost); the box stays a card found (its card-ness kept), its face
    under the tracker's bar, and only a clear view names it. A card read surely is sure (game 310: a blue 7/8 laid
    on a blue 1/8, read 7/8 at 0.93 while the detector's own face scored 0.5-0.7, was taken for a card read unsure
    where the pile had hardly changed, and lost). A box the detector only found (its face under the tracker's bar)
    stays found, however sure the classifier: game 319, a strip of a yellow 2/10 left showing under a wild draw
    four, kept alive so, let the wild draw four's boxes over it be taken for a card laid there."""
    from dataclasses import replace as replaced

    from referee.pipeline.reading import Reading
    from referee.pipeline.status import PipelineStats
    from referee.pipeline.table_view import TableView
    from referee.vision.detections import Detections
    from referee.vision.tracking import TrackerConfig
    from referee.vision.tracking.frame import readable

    detector = load_detector()
    strip, whole = [("3/5", 0.045), ("8/10", 0.044), ("5/10", 0.04)], [("7/8", 0.93), ("1/8", 0.01)]
    reader = _Reader({150: strip, 80: whole, 10: [("2/10", 0.8), ("1/10", 0.1)]})
    reading = Reading(detector, reader, deck_faces("breuken", {}), TableView(None, 4),  # type: ignore[arg-type]
                      PipelineStats(), None)
    reading.frame_image = np.zeros((360, 360, 3), np.uint8)
    detections = Detections(np.array([[150, 120, 240, 200], [80, 110, 220, 250], [10, 250, 90, 350]], np.float32),
                            np.array([0.7, 0.6, 0.2], np.float32), np.array([5, 7, 2]),
                            ("yellow_5", "blue_7", "yellow_2"))
    read = reading.read_off_deck(detections)
    assert read.labels == ("yellow_3/5", "blue_7/8", "yellow_2/10")
    cfg = TrackerConfig()
    assert read.confidence.tolist() == pytest.approx([0.045, 0.93, 0.2])
    assert reading.read_bar == cfg.min_confidence
    assert float(read.confidence[0]) < cfg.min_confidence and float(read.confidence[1]) > cfg.unsure_confidence
    assert read.cardness.tolist() == pytest.approx([0.7, 0.6, 0.2])  # still a card there
    rows, _ = readable(read, cfg)
    assert rows == [1, 2, 0]  # the 7/8 read; the two others found, not read (last, surest first)
    # The detector's card-ness, where it gives one, is kept as it was.
    found = reading.read_off_deck(replaced(detections, found=np.array([0.9, 0.8, 0.5], np.float32)))
    assert found.cardness.tolist() == pytest.approx([0.9, 0.8, 0.5])


def test_a_card_the_deck_cannot_hold_keeps_no_sureness_the_classifier_gave_another_face() -> None:
    """The classic deck prints no blank card, the detector has a class for it: a strip of a card left showing
    under one being laid, read "blank" by the detector and "7" by the classifier among the deck's faces, stays
    "blank" (a black card: no colour to give a 7) and was given the classifier's 0.9 for the 7 it did not take
    (generated game 15069, no calibration: a blank card played, an impossible-card alert). The classifier gave
    the blank nothing: the box is a card found, not read."""
    from referee.pipeline.reading import Reading
    from referee.pipeline.status import PipelineStats
    from referee.pipeline.table_view import TableView
    from referee.vision.detections import Detections
    from referee.vision.tracking import TrackerConfig
    from referee.vision.tracking.frame import readable

    detector = load_detector()
    reader = _Reader({150: [("7", 0.9), ("1", 0.05)]})
    reading = Reading(detector, reader, deck_faces("official", {}), TableView(None, 4),  # type: ignore[arg-type]
                      PipelineStats(), None)
    reading.frame_image = np.zeros((360, 360, 3), np.uint8)
    detections = Detections(np.array([[150, 120, 240, 200], [80, 110, 220, 250]], np.float32),
                            np.array([0.6, 0.7], np.float32), np.array([15, 7]), ("blank", "red_7"))
    read = reading.read_off_deck(detections)
    assert read.labels == ("blank", "red_7")  # the red 7 (the deck prints it) not read again
    assert read.confidence.tolist() == pytest.approx([0.0, 0.7])
    assert read.cardness.tolist() == pytest.approx([0.6, 0.7])  # still a card there
    assert readable(read, TrackerConfig())[0] == [1, 0]  # the red 7 read; the blank found, not read


def test_a_fraction_card_is_read_with_the_least_margin_so_its_numerals_keep_their_pixels(tmp_path: Path) -> None:
    """A fraction's numerals are small: a card some 120 px long in the camera frame is shrunk about half into the
    classifier's 96 px crop at the usual margin (15 %), and fractions of like digits are then told apart by a few
    pixels: this yellow 8/9 was read 6/8 (the classifier alone: 6/8 at 0.49). The fractions deck's cards are read
    with the least margin the classifier learned (5 %): 8/9 at 0.68. On 330 such stills of look-alike fractions
    (ten labels, every third design, three angles) the classifier at the wider margin misread 8 that the narrower
    reads right, and the narrower none that the wider reads right; through the pipeline, 3 of those 8 were
    misread before. The classic deck keeps the usual margin."""
    from referee.pipeline.reading import Reading
    from referee.pipeline.status import PipelineStats
    from referee.pipeline.table_view import TableView
    from referee.vision.classify import CROP_PAD, FRACTIONS_PAD

    rng = np.random.default_rng([2, 21, 17])
    table = background(rng, 1280)[:720].copy()
    quad = card_quad((640, 360), 120, 17.0)
    image = compose(table, [CardPlacement(Card.from_label("yellow_8/9"), quad, 21)], rng).image
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(30):
        cv2.imwrite(str(folder / f"{i:03d}.png"), image)
    detector, classifier = load_detector(), load_classifier()
    session = MatchSession(Store(":memory:"), rules="breuken", players=4)
    Pipeline(detector, session, players=4, classifier=classifier, faces=deck_faces("breuken", {})).run(Capture(folder))
    assert [o["card"] for o in session.export_log() if o["type"] == "start"] == ["yellow_8/9"]
    view, stats = TableView(None, 4), PipelineStats()
    assert Reading(detector, classifier, deck_faces("breuken", {}), view, stats, None).pad == FRACTIONS_PAD
    assert Reading(detector, classifier, deck_faces("official", {}), view, stats, None).pad == CROP_PAD
    assert Reading(detector, classifier, None, view, stats, None).pad == CROP_PAD
