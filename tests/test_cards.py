from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.cards import (
    CLASSIC,
    CLASSIC_WITH_BLANKS,
    DECKS,
    FACE_CLASSES,
    FRACTION_VALUES,
    FRACTIONS,
    LUXEMBOURGISH,
    Card,
    CardError,
    Colour,
    find_deck,
)

ALL_LABELS = sorted({card.label for deck in DECKS.values() for card in deck.copies} | {"back"})


@pytest.mark.parametrize(
    ("label", "colour", "value"),
    [
        ("red_7", Colour.RED, "7"),
        ("blue_draw2", Colour.BLUE, "draw2"),
        ("green_reverse", Colour.GREEN, "reverse"),
        ("yellow_skip", Colour.YELLOW, "skip"),
        ("orange_0", Colour.ORANGE, "0"),
        ("violet_9", Colour.VIOLET, "9"),
        ("red_1/2", Colour.RED, "1/2"),
        ("wild", None, "wild"),
        ("wild_draw4", None, "wild_draw4"),
        ("blank", None, "blank"),
        ("back", None, "back"),
    ],
)
def test_parse(label: str, colour: Colour | None, value: str) -> None:
    card = Card.from_label(label)
    assert (card.colour, card.value) == (colour, value)
    assert card.label == label
    assert eval(repr(card)) == card


@pytest.mark.parametrize(
    "label",
    ["", "red", "red_", "purple_3", "red_10", "red_wild", "wild_red", "red_1/1", "red_0/2",
     "red_3/2", "red_1/11", "draw2", "blue_draw4", "back_red"],
)
def test_parse_rejects(label: str) -> None:
    with pytest.raises(CardError, match=r"card label|colour|value"):
        Card.from_label(label)


@given(st.sampled_from(ALL_LABELS))
def test_label_round_trip(label: str) -> None:
    assert Card.from_label(label).label == label


def test_coloured_card_needs_known_value() -> None:
    with pytest.raises(CardError):
        Card(Colour.RED, "wild")
    with pytest.raises(CardError):
        Card(None, "7")


@pytest.mark.parametrize(
    ("deck", "size"),
    [(CLASSIC, 108), (CLASSIC_WITH_BLANKS, 111), (LUXEMBOURGISH, 111), (FRACTIONS, 208)],
)
def test_deck_sizes(deck: object, size: int) -> None:
    assert deck.size == size  # type: ignore[attr-defined]


def test_classic_composition() -> None:
    per_colour = {c: sum(n for card, n in CLASSIC.copies.items() if card.colour is c) for c in CLASSIC.colours}
    assert set(per_colour.values()) == {25}  # 19 numbers + 6 actions
    assert CLASSIC.count(Card.from_label("red_0")) == 1
    assert CLASSIC.count(Card.from_label("red_5")) == 2
    assert CLASSIC.count(Card.from_label("wild_draw4")) == 4
    assert CLASSIC.count(Card.from_label("orange_5")) == 0
    assert Card.from_label("blank") not in CLASSIC


def test_luxembourgish_palette() -> None:
    assert {c.value for c in LUXEMBOURGISH.colours} == {"orange", "green", "violet", "yellow"}
    assert LUXEMBOURGISH.count(Card.from_label("blank")) == 3
    assert LUXEMBOURGISH.count(Card.from_label("red_1")) == 0


def test_fractions_deck() -> None:
    assert len(FRACTION_VALUES) == 45
    assert FRACTIONS.count(Card.from_label("blue_7/10")) == 1
    assert Card.from_label("red_1/2").matches_face(Card.from_label("green_4/8"))
    assert not Card.from_label("red_1/2").matches_face(Card.from_label("green_1/3"))
    assert FRACTIONS.count(Card.from_label("red_skip")) == 0


def test_points() -> None:
    assert Card.from_label("red_7").points() == 7
    assert Card.from_label("red_skip").points() == 20
    assert Card.from_label("wild_draw4").points() == 50


def test_face_classes_cover_classic() -> None:
    assert {card.face for card in CLASSIC_WITH_BLANKS.copies} <= set(FACE_CLASSES)
    assert "back" in FACE_CLASSES
    assert len(set(FACE_CLASSES)) == len(FACE_CLASSES)


def test_find_deck() -> None:
    assert find_deck("lb") is LUXEMBOURGISH
    with pytest.raises(CardError, match="unknown deck 'nope'"):
        find_deck("nope")


def test_class_folders_name_fractions_without_a_slash() -> None:
    from referee.cards import folder_label

    assert folder_label("red_1of2") == "red_1/2" and folder_label("red_7") == "red_7"
    assert folder_label("wild_draw4") == "wild_draw4" and folder_label("back") == "back"
