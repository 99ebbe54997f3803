"""A learned deck (``referee learn-deck``): its views, its palette, the command and ``--deck``."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from referee.cards import Card, Colour
from referee.synth.render import _hsv_to_bgr, random_palette, render_card
from referee.vision import deck as dk
from referee.vision.classify import DEFAULT_CLASSIFIER
from referee.vision.matcher import DeckMatcher

RING = 32  # the first design of the thin-ring printing (referee.synth.render)


def _photo(label: str, seed: int, *, hue: float | None = None, size: tuple[int, int] = (420, 320)) -> np.ndarray:
    """A phone-photo-like picture: one card near the centre of a textured table, turned a little."""
    rng = np.random.default_rng(seed)
    card = Card.from_label(label)
    palette = random_palette(card, rng)
    if hue is not None:
        palette = type(palette)(**{**palette.__dict__, "body": _hsv_to_bgr(hue, 220, 220)})
    face = render_card(card, RING, rng, palette)
    h, w = size
    table: npt.NDArray[np.uint8] = np.full((h, w, 3), rng.integers(40, 120, 3), np.uint8)
    table = cv2.add(table, rng.integers(0, 25, (h, w, 3), dtype=np.uint8))
    scale = 0.8 * h / face.shape[0]
    m = cv2.getRotationMatrix2D((face.shape[1] / 2, face.shape[0] / 2), float(rng.uniform(-12, 12)), scale)
    m[:, 2] += (w / 2 - face.shape[1] / 2, h / 2 - face.shape[0] / 2)
    warped: npt.NDArray[np.uint8] = cv2.warpAffine(face, m, (w, h))
    alpha = warped[..., 3:4].astype(np.float32) / 255.0
    return (warped[..., :3] * alpha + table * (1 - alpha)).astype(np.uint8)


def test_the_matcher_names_the_face_of_the_nearest_views_and_keeps_no_head() -> None:
    rng = np.random.default_rng(1)
    # Two faces whose views lie along their own directions; a third the deck was never shown.
    threes = rng.normal([0, 0, 0, 3], 0.3, (30, 4)).astype(np.float32)
    eights = rng.normal([0, 3, 0, -3], 0.3, (30, 4)).astype(np.float32)
    matcher = DeckMatcher.enrol(["3"] * 30 + ["8"] * 30, np.vstack([threes, eights]))
    assert matcher.faces == ("3", "8")
    probs = matcher.probabilities(np.array([[0, 0, 0, 2.5], [0, 2, 0, -2.5]], np.float32))
    assert probs.argmax(axis=1).tolist() == [0, 1] and (probs.max(axis=1) > 0.99).all()
    # Halfway between the two, it is unsure: neither face gets the bar at which a reader speaks alone.
    assert matcher.probabilities(np.array([[0, 0.707, 0, 0.293]], np.float32)).max() < 0.85


def test_a_taught_classifier_reads_the_deck_faces_as_the_deck_says_and_the_others_as_before() -> None:
    """FaceClassifier.probabilities: the head's share for the deck's faces is split as the views say."""
    from referee.vision.classify import FaceClassifier

    classifier = FaceClassifier.__new__(FaceClassifier)
    classifier.face_names = ("3", "8", "back")
    generic = np.array([[0.1, 4.0, 0.0], [0.0, 0.0, 5.0]], np.float32)  # both read as 8 and back by the head
    embedding = np.array([[1, 0], [0, 1]], np.float32)
    classifier.outputs = lambda crops: (generic, embedding)  # type: ignore[method-assign]
    classifier.deck = DeckMatcher.enrol(["3", "8"], np.array([[1, 0], [-1, 0.2]], np.float32))
    classifier.game = None
    probs = classifier.probabilities([np.zeros((4, 4, 3), np.uint8)] * 2)
    assert probs[0].argmax() == 0 and probs[0, 0] > 0.9  # the deck's 3, where the head said 8
    assert probs[1].argmax() == 2  # the back was not taught: the head's reading stands
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    assert classifier.taught


def test_views_unsure_between_two_faces_are_settled_by_a_sure_head() -> None:
    """A learned deck's views lie about as near a reverse as a 4 (one photo a label: a reverse whose views lay
    nearest a 4's); the head is sure of the reverse: the reading is the reverse. Views sure of a face outvote a
    head sure of another (a thin-ring 3 the head reads 8)."""
    from referee.vision.classify import FaceClassifier

    classifier = FaceClassifier.__new__(FaceClassifier)
    classifier.face_names = ("4", "reverse", "3", "8")
    head = np.log(np.array([[0.004, 0.99, 0.003, 0.003], [0.002, 0.002, 0.046, 0.95]], np.float32))
    # Cosine to each face's view: the first card 0.02 nearer the 4 than the reverse; the second 0.2 nearer the 3.
    views = np.eye(4, dtype=np.float32)
    embedding = np.array([[0.52, 0.50, 0.0, 0.0], [0.0, 0.0, 0.6, 0.4]], np.float32)
    classifier.outputs = lambda crops: (head, embedding)  # type: ignore[method-assign]
    classifier.deck = DeckMatcher.enrol(["4", "reverse", "3", "8"], views)
    classifier.game = None
    probs = classifier.probabilities([np.zeros((4, 4, 3), np.uint8)] * 2)
    assert probs[0].argmax() == 1 and probs[1].argmax() == 2
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)


def test_deck_palette_separates_a_lime_green_from_a_lemon_yellow() -> None:
    lime, lemon = _photo("green_4", 0, hue=42), _photo("yellow_4", 1, hue=29)
    box = np.array([60, 40, 260, 380], np.float32)
    g, y = dk.card_chroma(lime, box), dk.card_chroma(lemon, box)
    assert g is not None and y is not None
    centre = {Colour.GREEN: np.median(g[0], axis=0), Colour.YELLOW: np.median(y[0], axis=0)}
    palette = dk.DeckPalette({c: (float(v[0]), float(v[1])) for c, v in centre.items()})
    warm = np.clip(lime.astype(np.float32) * [0.8, 1.0, 1.2], 0, 255).astype(np.uint8)  # warm light
    assert palette.read(lime, box)[0] is Colour.GREEN
    assert palette.read(warm, box)[0] is Colour.GREEN
    assert palette.read(lemon, box)[0] is Colour.YELLOW


def test_views_are_classifier_crops() -> None:
    photo = _photo("red_7", 2)
    crops = dk.views(photo, np.array([60, 40, 260, 380], np.float32), np.random.default_rng(0), 6, 96)
    assert len(crops) == 6 and all(c.shape == (96, 96, 3) and c.dtype == np.uint8 for c in crops)


def test_a_folder_that_is_not_a_deck_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(dk.DeckError, match="not a learned deck"):
        dk.load_deck(tmp_path)
    (tmp_path / dk.DECK_FILE).write_text("{nonsense")
    (tmp_path / dk.VIEWS_FILE).write_bytes(b"")
    with pytest.raises(dk.DeckError, match="not a readable deck"):
        dk.load_deck(tmp_path)
    (tmp_path / dk.DECK_FILE).write_text('{"labels": ["red_3"], "faces": ["3"]}')  # a deck of format 1: a head
    with pytest.raises(dk.DeckError, match="older referee"):
        dk.load_deck(tmp_path)
    (tmp_path / "photos" / "purple_3").mkdir(parents=True)
    with pytest.raises(dk.DeckError, match="purple_3"):
        dk.photo_folders(tmp_path / "photos")


@pytest.mark.skipif(not DEFAULT_CLASSIFIER.is_file(), reason="no shipped classifier")
def test_learn_deck_then_read_with_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The command end to end on generated photos of a ring-printed deck: one photo per label to learn,
    then ``referee eval --deck`` reads others of the same labels. Its green is a lime (hue 33) the stock
    colour reading calls yellow, so the deck keeps its own palette."""
    from referee.cli import main

    labels = ["red_6", "red_9", "green_3", "blue_draw2", "yellow_reverse", "wild"]
    for split, seeds in (("learn", (10,)), ("read", (20, 21))):
        for label in labels:
            folder = tmp_path / split / label
            folder.mkdir(parents=True)
            for seed in seeds:
                hue = 33.0 if label.startswith("green") else None
                cv2.imwrite(str(folder / f"{seed}.jpg"), _photo(label, seed + labels.index(label), hue=hue))
    deck = tmp_path / "deck"
    assert main(["learn-deck", str(tmp_path / "learn"), "--out", str(deck), "--views", "24"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["labels_learned"] == len(labels) and summary["photos"] == len(labels)
    assert summary["stock_colours_misread"] >= 1 and set(summary["palette"]) == {"red", "green", "blue", "yellow"}
    learned = dk.load_deck(deck)
    assert set(learned.labels) == set(labels)
    assert main(["eval", str(tmp_path / "read"), "--deck", str(deck)]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["deck"] == str(deck) and result["images"] == 2 * len(labels)
    assert {"top1_accuracy", "top1_accuracy_detector", "top1_accuracy_classifier"} <= set(result)
    assert result["top1_accuracy"] >= 0.8


def test_learn_deck_on_a_missing_folder_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    assert main(["learn-deck", str(tmp_path / "nope"), "--out", str(tmp_path / "deck")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip().splitlines() == [f"referee learn-deck: no such folder of photos: {tmp_path / 'nope'}"]
