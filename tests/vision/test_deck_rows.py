"""Teaching a deck from photos of its cards laid out in rows: every card found in reading order, a label
proposed for each (each label once), the proposals file corrected by hand, then learned as one photo a card."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from referee.vision import deck_rows as rows
from referee.vision.classify import DEFAULT_CLASSIFIER
from referee.vision.deck import DeckError, load_deck
from tests.vision.test_deck import _photo


def test_cards_are_taken_in_rows_top_to_bottom_each_left_to_right() -> None:
    # Two rows, the second a little crooked, given in no order.
    boxes = np.array([[220, 210, 300, 330], [10, 0, 90, 120], [120, 8, 200, 128], [10, 200, 90, 320],
                      [230, 4, 310, 124], [115, 190, 195, 310]], np.float32)
    ordered = rows.reading_order(boxes)
    assert [tuple(b[:2]) for b in ordered] == [(10, 0), (120, 8), (230, 4), (10, 200), (115, 190), (220, 210)]


def test_a_card_found_twice_is_kept_once() -> None:
    boxes = np.array([[0, 0, 100, 150], [5, 5, 98, 148], [200, 0, 300, 150]], np.float32)
    kept = rows._one_each(boxes, np.array([0.7, 0.9, 0.8], np.float32))
    assert len(kept) == 2 and [5, 5, 98, 148] in kept.tolist()


def test_each_label_goes_to_the_card_surest_of_it() -> None:
    # Two cards both read best as red_1; the second is surer, so the first gets its next best, red_7.
    scores = [{"red_1": 0.6, "red_7": 0.4}, {"red_1": 0.9, "red_7": 0.1}]
    assert rows._assign(scores, {"red_1": 1, "red_7": 1}) == ["red_7", "red_1"]
    assert rows._assign(scores, {"red_1": 2, "red_7": 2}) == ["red_1", "red_1"]  # a deck's second copies


def test_the_proposals_file_round_trips_and_says_a_bad_line(tmp_path: Path) -> None:
    found = [rows.CardProposal("a.jpg", 1, (1.0, 2.0, 30.0, 40.0), "red_7", True, [("red_7", 0.97)]),
             rows.CardProposal("a.jpg", 2, (50.0, 2.0, 80.0, 40.0), "blue_1/2", False, [("blue_1/2", 0.5)])]
    path = tmp_path / "proposals.jsonl"
    rows.write_proposals(found, path)
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"photo": "a.jpg", "card": 1, "label": "red_7", "sure": True,
                                    "box": [1.0, 2.0, 30.0, 40.0], "choices": [["red_7", 0.97]]}
    back = rows.read_proposals(path)
    assert [(p.label, p.box) for p in back] == [("red_7", (1.0, 2.0, 30.0, 40.0)),
                                                ("blue_1/2", (50.0, 2.0, 80.0, 40.0))]
    path.write_text(lines[0].replace('"red_7"', '"skip"') + "\n" + lines[1] + "\n")
    assert [p.label for p in rows.read_proposals(path)] == ["blue_1/2"]  # skipped: left out
    path.write_text(lines[0].replace('"red_7"', '"purple_7"') + "\n")
    with pytest.raises(DeckError, match=r"proposals.jsonl:1: 'purple_7' is not a card label"):
        rows.read_proposals(path)
    path.write_text(lines[0].replace('"a.jpg"', '"../a.jpg"') + "\n")
    with pytest.raises(DeckError, match="a photo a file name"):
        rows.read_proposals(path)


def test_a_card_is_cut_out_whole_with_table_around_it() -> None:
    image = np.zeros((200, 300, 3), np.uint8)
    assert rows.cut_out(image, (100, 50, 150, 150)).shape == (136, 86, 3)  # 18 % of 100 px each side
    assert rows.cut_out(image, (0, 0, 50, 100)).shape == (118, 68, 3)  # not past the photo's edge


def _layout(labels: list[str], seed: int) -> Any:
    """Cards in a row of a table photo: each one's own generated photo, side by side."""
    return np.hstack([_photo(label, seed + i, size=(420, 320)) for i, label in enumerate(labels)])


@pytest.mark.skipif(not DEFAULT_CLASSIFIER.is_file(), reason="no shipped classifier")
def test_propose_correct_and_learn_from_photos_of_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    first, second = ["red_6", "red_9", "green_3"], ["blue_draw2", "yellow_reverse", "wild"]
    photos = tmp_path / "rows"
    photos.mkdir()
    cv2.imwrite(str(photos / "row1.jpg"), _layout(first, 10))
    cv2.imwrite(str(photos / "row2.jpg"), _layout(second, 20))
    proposals = tmp_path / "proposals.jsonl"
    assert main(["learn-deck", str(photos), "--propose", str(proposals)]) == 0
    said = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert said["photos"] == 2 and said["cards"] == 6
    lines = [json.loads(line) for line in proposals.read_text().splitlines()]
    assert [(line["photo"], line["card"]) for line in lines] == [(f"row{r}.jpg", c) for r in (1, 2) for c in (1, 2, 3)]
    proposed = [line["label"] for line in lines]
    assert len(set(proposed)) == 6  # each label once
    right = sum(a == b for a, b in zip(proposed, first + second, strict=True))
    assert right >= 4, proposed
    # The player puts the wrong ones right, then learns.
    proposals.write_text("".join(json.dumps({**line, "label": label}) + "\n"
                                 for line, label in zip(lines, first + second, strict=True)))
    deck = tmp_path / "deck"
    assert main(["learn-deck", str(photos), "--proposals", str(proposals), "--out", str(deck), "--views", "24"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["cards"] == 6 and summary["labels_learned"] == 6
    assert set(load_deck(deck).labels) == set(first + second)


def test_learn_deck_without_out_or_propose_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    assert main(["learn-deck", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.strip().splitlines() == [
        "referee learn-deck: --out DECK is needed (or --propose FILE for photos of cards in rows)"]
