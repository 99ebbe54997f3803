"""The card a detector's upright box holds: its size whatever its angle, and boxes no whole card makes."""

from __future__ import annotations

import math

import pytest

from referee.vision.card_shape import CARD_ASPECT, card_in_box, card_length, holds_whole_card


def _box_of(length: float, angle: float) -> list[float]:
    """The upright box of a card ``length`` long turned by ``angle`` (radians) from lying long side across."""
    short = CARD_ASPECT * length
    w = length * math.cos(angle) + short * math.sin(angle)
    h = length * math.sin(angle) + short * math.cos(angle)
    return [100.0, 100.0, 100.0 + w, 100.0 + h]


@pytest.mark.parametrize("degrees", [0, 10, 30, 45, 60, 80, 90])
def test_a_cards_length_and_angle_come_back_from_its_box(degrees: int) -> None:
    box = _box_of(200.0, math.radians(degrees))
    length, angle = card_in_box(box[2] - box[0], box[3] - box[1])
    assert length == pytest.approx(200.0, rel=1e-6)
    assert angle == pytest.approx(math.radians(degrees), abs=1e-6)
    assert card_length(box) == pytest.approx(200.0, rel=1e-6)


def test_a_square_card_among_turned_ones_is_whole_though_its_box_is_half_their_area() -> None:
    """The same card's box grows 2.1 times in area from lying square to lying at 45 degrees: judged by area a
    square card among turned ones looked partly hidden, and the classifier was not let speak alone on it."""
    square, turned = _box_of(200.0, 0.0), _box_of(200.0, math.radians(45))
    def area(b: list[float]) -> float:
        return (b[2] - b[0]) * (b[3] - b[1])
    assert area(square) < 0.5 * area(turned)
    assert holds_whole_card(square, card_length(turned), 0.9)
    assert holds_whole_card(turned, card_length(square), 0.9)


def test_a_card_cut_off_or_smaller_is_not_whole() -> None:
    whole = card_length(_box_of(200.0, 0.3))
    # half the card under another: a box narrower than any whole card's
    assert not holds_whole_card([0.0, 0.0, 200.0, 60.0], whole, 0.9)
    # a card-shaped box of a card two thirds the others' size: a corner showing, or a card far off
    assert not holds_whole_card(_box_of(130.0, 0.3), whole, 0.9)
    assert not holds_whole_card([10.0, 10.0, 10.0, 50.0], whole, 0.9)  # no box at all
