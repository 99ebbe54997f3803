"""A learned deck (``referee learn-deck``): its head, its palette, the command and ``--deck``."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cards import Card, Colour
from referee.synth.render import _hsv_to_bgr, random_palette, render_card
from referee.vision import deck as dk
from referee.vision.classify import DEFAULT_CLASSIFIER, softmax

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
    table = np.full((h, w, 3), rng.integers(40, 120, 3), np.uint8)
    table = cv2.add(table, rng.integers(0, 25, (h, w, 3), dtype=np.uint8))
    scale = 0.8 * h / face.shape[0]
    m = cv2.getRotationMatrix2D((face.shape[1] / 2, face.shape[0] / 2), float(rng.uniform(-12, 12)), scale)
    m[:, 2] += (w / 2 - face.shape[1] / 2, h / 2 - face.shape[0] / 2)
    warped = cv2.warpAffine(face, m, (w, h))
    alpha = warped[..., 3:4].astype(np.float32) / 255.0
    return (warped[..., :3] * alpha + table * (1 - alpha)).astype(np.uint8)


def test_generic_head_is_recovered_from_the_outputs() -> None:
    rng = np.random.default_rng(0)
    weights, bias = rng.normal(size=(5, 8)).astype(np.float32), rng.normal(size=5).astype(np.float32)
    embedding = rng.normal(size=(40, 8)).astype(np.float32)
    w, b = dk.generic_head(embedding @ weights.T + bias, embedding)
    assert np.allclose(w, weights, atol=1e-4) and np.allclose(b, bias, atol=1e-4)


def test_fit_head_learns_the_shown_faces_and_keeps_the_others() -> None:
    rng = np.random.default_rng(1)
    # The generic head reads each face along its own axis; the deck shows faces 0 and 1 elsewhere.
    start = (np.eye(3, 4, dtype=np.float32) * 2, np.zeros(3, np.float32))
    x = np.vstack([rng.normal([0, 0, 0, 3], 0.3, (30, 4)), rng.normal([0, 3, 0, -3], 0.3, (30, 4))]).astype(np.float32)
    y = np.array([0] * 30 + [1] * 30, np.int64)
    w, b = dk.fit_head(x, y, start, pull=1e-3)
    assert ((x @ w.T + b).argmax(axis=1) == y).all()
    # Face 2, never shown, still reads as the generic head read it.
    assert softmax(np.array([[0, 0, 3, 0]], np.float32) @ w.T + b)[0].argmax() == 2


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
    (tmp_path / dk.HEAD_FILE).write_bytes(b"")
    with pytest.raises(dk.DeckError, match="not a readable deck"):
        dk.load_deck(tmp_path)
    (tmp_path / "photos" / "purple_3").mkdir(parents=True)
    with pytest.raises(dk.DeckError, match="purple_3"):
        dk.photo_folders(tmp_path / "photos")


@pytest.mark.skipif(not DEFAULT_CLASSIFIER.is_file(), reason="no shipped classifier")
def test_learn_deck_then_read_with_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The command end to end on generated photos of a ring-printed deck: one photo per label to learn,
    then ``referee eval --deck`` reads others of the same labels."""
    from referee.cli import main

    labels = ["red_6", "red_9", "green_3", "blue_draw2", "yellow_reverse", "wild"]
    for split, seeds in (("learn", (10,)), ("read", (20, 21))):
        for label in labels:
            folder = tmp_path / split / label
            folder.mkdir(parents=True)
            for seed in seeds:
                cv2.imwrite(str(folder / f"{seed}.jpg"), _photo(label, seed + labels.index(label)))
    deck = tmp_path / "deck"
    assert main(["learn-deck", str(tmp_path / "learn"), "--out", str(deck), "--views", "24"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["labels_learned"] == len(labels) and summary["photos"] == len(labels)
    assert set(summary["palette"]) == {"red", "green", "blue", "yellow"}
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
    assert "no such folder" in json.loads(capsys.readouterr().out.strip().splitlines()[-1])["error"]
