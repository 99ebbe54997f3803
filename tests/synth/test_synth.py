"""The generator: faces for every class, boxes that fit the cards, determinism, dataset layout."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from referee.cards import FACE_CLASSES, Card, Colour
from referee.synth.export import CARD_NAMES, generate_image, write_dataset, yolo_lines
from referee.synth.recipe import Recipe, load_recipe
from referee.synth.render import CARD_H, CARD_W, DESIGNS, Palette, _symbol_parts, render_card
from referee.synth.scene import CardPlacement, LabeledBox, Overlay, card_quad, compose

ROOT = Path(__file__).resolve().parents[2]


def _face_card(face: str) -> Card:
    return Card(None, face) if face in ("wild", "wild_draw4", "blank", "back") else Card(Colour.RED, face)


@pytest.mark.parametrize("face", FACE_CLASSES)
def test_every_face_class_renders_as_an_opaque_card(face: str) -> None:
    for design in (0, 1, 3, 5):  # classic, flat, and two from the pool (one plain)
        img = render_card(_face_card(face), design, np.random.default_rng(0))
        assert img.shape == (CARD_H, CARD_W, 4)
        assert img[CARD_H // 2, CARD_W // 2, 3] == 255
        assert img[0, 0, 3] < 128  # rounded corner is transparent
        assert img[..., :3].std() > 10  # something is drawn


def test_faces_differ_between_classes_and_not_within_a_palette() -> None:
    palette = Palette(body=(40, 40, 200))
    faces = {f: render_card(_face_card(f), 0, palette=palette).astype(np.int16) for f in FACE_CLASSES}
    for a in FACE_CLASSES:
        for b in FACE_CLASSES:
            diff = np.abs(faces[a] - faces[b]).mean()
            assert (diff == 0) == (a == b), (a, b)


def test_colours_and_fractions_render() -> None:
    rng = np.random.default_rng(1)
    means = {}
    for colour in Colour:
        img = render_card(Card(colour, "7"), 0, rng)
        means[colour] = img[20:60, 10:25, :3].reshape(-1, 3).mean(axis=0)  # body left of the oval
    assert means[Colour.RED][2] > means[Colour.RED][0] + 60
    assert means[Colour.BLUE][0] > means[Colour.BLUE][2] + 60
    frac = render_card(Card.from_label("green_3/4"), 0, rng)
    assert frac.shape == (CARD_H, CARD_W, 4)
    assert len(DESIGNS) >= 8


def _symbol_box(value: str, design: int) -> tuple[int, int, np.ndarray]:
    """(width, height, mask) of the big symbol of ``value`` in ``DESIGNS[design]``."""
    parts = _symbol_parts(value, DESIGNS[design], CARD_W / 2, CARD_H / 2, CARD_H * 0.42)
    mask = np.maximum.reduce([m for m, _ in parts])
    ys, xs = np.nonzero(mask > 127)
    return int(xs.max() - xs.min()), int(ys.max() - ys.min()), mask


def test_the_classic_print_and_newer_prints_differ_as_real_decks_do() -> None:
    """Design 0 is the classic deck (as in the real photos), design 1 a newer flat print."""
    assert DESIGNS[0].kind == "classic" and DESIGNS[1].kind == "flat" and DESIGNS[1].wild_rotation % 2 == 0
    w, h, _ = _symbol_box("wild_draw4", 0)
    assert w > h  # four wide little cards in two staggered rows
    w, h, _ = _symbol_box("wild_draw4", 1)
    assert h > w  # four tall little cards in a diamond
    hooked, straight = _symbol_box("reverse", 0)[2], _symbol_box("reverse", 1)[2]
    assert (hooked > 127).sum() != (straight > 127).sum()
    w, h, _ = _symbol_box("reverse", 0)
    assert h > 1.25 * w  # the classic arrows stand along the card, an S between two big heads


def test_the_uno_one_has_a_flag_and_no_foot() -> None:
    """Font 1s have a foot; UNO's has none, and a model that learnt the foot reads real 1s as 7s."""
    for design in (0, 1):
        w, h, mask = _symbol_box("1", design)
        rows = (mask > 127).sum(axis=1)
        ys = np.nonzero(rows)[0]
        bottom, widest = rows[ys[-3]], rows.max()
        assert bottom < 0.6 * widest, (design, bottom, widest)  # the flag is wider than the stem's end
        assert h > 2 * w * 0.6


def test_compose_boxes_a_placed_card_tightly() -> None:
    base = np.full((200, 200, 3), 90, np.uint8)
    quad = card_quad((100, 100), 80, 0)
    result = compose(base, [CardPlacement(Card.from_label("blue_5"), quad, shadow=0)],
                     np.random.default_rng(0))
    assert len(result.boxes) == 1
    box = result.boxes[0]
    assert box.face == "5" and box.label == "blue_5" and box.visible > 0.95
    expected = (quad[:, 0].min(), quad[:, 1].min(), quad[:, 0].max(), quad[:, 1].max())
    assert np.allclose(box.xyxy, expected, atol=2.0)


def test_compose_drops_covered_cards_but_keeps_the_top_card() -> None:
    base = np.zeros((200, 200, 3), np.uint8)
    quad = card_quad((100, 100), 80, 30)
    cover = np.zeros((200, 200, 4), np.uint8)
    cover[:, :118, 3] = 255  # hides most of both cards
    cover[:, :118, 1] = 200
    items: list[CardPlacement | Overlay] = [
        CardPlacement(Card.from_label("red_1"), quad),
        CardPlacement(Card.from_label("red_2"), quad, always_label=True),
        Overlay(cover),
    ]
    result = compose(base, items, np.random.default_rng(0))
    assert [b.label for b in result.boxes] == ["red_2"]
    assert result.boxes[0].visible < 0.4 and result.boxes[0].xyxy[0] >= 118
    assert (result.image[:, :118, 1] > 100).all()


@pytest.mark.parametrize("split", ["train", "val"])
def test_generation_is_reproducible_and_boxes_fit(split: str) -> None:
    recipe = Recipe()
    for index in range(4):
        img_a, boxes_a, q_a = generate_image(7, split, index, 256, recipe)
        img_b, boxes_b, q_b = generate_image(7, split, index, 256, recipe)
        assert np.array_equal(img_a, img_b) and boxes_a == boxes_b and q_a == q_b
        assert img_a.shape == (256, 256, 3)
        assert boxes_a, "the top card is always labelled"
        for box in boxes_a:
            x0, y0, x1, y1 = box.xyxy
            assert 0 <= x0 < x1 <= 256 and 0 <= y0 < y1 <= 256
            assert box.face in FACE_CLASSES
            if split == "val":
                assert box.label in CARD_NAMES
    other, _, _ = generate_image(8, split, 0, 256, recipe)
    assert not np.array_equal(other, generate_image(7, split, 0, 256, recipe)[0])


def test_yolo_lines_normalise_and_filter() -> None:
    boxes = [LabeledBox("7", "red_7", (10, 20, 30, 60), 1.0), LabeledBox("skip", None, (0, 0, 50, 50), 1.0)]
    faces = yolo_lines(boxes, (100, 200), FACE_CLASSES).splitlines()
    assert faces[0] == "7 0.100000 0.400000 0.100000 0.400000"
    assert faces[1].startswith(f"{FACE_CLASSES.index('skip')} ")
    cards = yolo_lines(boxes, (100, 200), CARD_NAMES, full_label=True).splitlines()
    assert cards == [f"{CARD_NAMES.index('red_7')} 0.100000 0.400000 0.100000 0.400000"]


def _yaml_names(path: Path) -> list[str]:
    lines = path.read_text().splitlines()
    start = lines.index("names:") + 1
    return [json.loads(line.split(":", 1)[1]) for line in lines[start:]]


def test_write_dataset_layout(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    summary = write_dataset(out, train=3, val=2, seed=3, size=128, workers=1, progress=False)
    assert summary["train"] == 3 and summary["val"] == 2
    assert _yaml_names(out / "data.yaml") == list(FACE_CLASSES)
    assert _yaml_names(out / "data_cards.yaml") == list(CARD_NAMES)
    for split, n in (("train", 3), ("val", 2)):
        images = sorted((out / "images" / split).glob("*.jpg"))
        assert len(images) == n
        for image in images:
            face_txt = (out / "labels" / split / f"{image.stem}.txt").read_text().split()
            assert face_txt and len(face_txt) % 5 == 0
            assert (out / "cards" / "images" / split / image.name).exists()
            meta = json.loads((out / "meta" / split / f"{image.stem}.json").read_text())
            assert len(meta["boxes"]) == len(face_txt) // 5
    assert summary["boxes"] == sum(summary["boxes_per_class"].values()) > 0


def test_recipe_file_loads_and_rejects_unknown_keys(tmp_path: Path) -> None:
    assert load_recipe(ROOT / "datasets" / "recipe.json").val_scene.random_hue_share == 0.0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"scene": {"no_such_knob": 1}}))
    with pytest.raises(ValueError, match="no_such_knob"):
        load_recipe(bad)


def test_docstring_examples_run() -> None:
    import doctest

    from referee.synth import render, scene

    for module in (render, scene):
        failed, attempted = doctest.testmod(module)
        assert attempted > 0 and failed == 0, module.__name__


def test_hershey_fallback_draws_text() -> None:
    from referee.synth.fonts import available_fonts, text_mask

    assert "hershey:duplex" in available_fonts()
    for font in (available_fonts()[0], "hershey:duplex"):
        mask = text_mask("7", font, 40, shear=0.2)
        assert mask.shape[0] == 40 and mask.max() == 255


def test_cli_reports_bad_input_without_writing(tmp_path: Path) -> None:
    import argparse

    from referee.synth.command import main

    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    out = tmp_path / "ds"
    args = argparse.Namespace(out=out, train=2, val=1, seed=0, imgsz=128, workers=1, recipe=bad)
    assert main(args) == 2
    args.recipe, args.train = None, -1
    assert main(args) == 2
    assert not (out / "data.yaml").exists()
