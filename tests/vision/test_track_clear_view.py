"""A clear view of a tentative card is the frames since an arm was last over the pile, not every clear frame it
ever had: the frames before an arm came say nothing of what lies there once it has gone.

From game 15089 (the spent held-out set 15078-15089; generated, no calibration or calibrated, a bump or not): a
green 2 lay on top; seat 0's hand, reaching across the pile for the stock, hid its upper part, and what showed of
it (its lower part, about two thirds of the card) was read as a green 7, then a green 1. Two of those frames
came before the arm was seen over the pile (a hand stirring there), six under it, and one as the arm left with
the hand still there: three clear frames in all, a card's settling time, and the green 7 was believed (a false
play) a frame before the green 2 showed whole again. Then the green 2, half hidden by the next hand, was taken
for a second green 2 laid on the green 7 (a false play judged out of turn, and the next play too).
"""

from __future__ import annotations

from .test_track import CFG, card
from .test_track_drawback import visit
from .test_track_settling import plays

GREEN_2 = (99.0, 159.0, 240.0, 266.0)  # the top card, whole
LOWER_PART = (99.0, 195.0, 226.0, 266.0)  # what a hand over its upper part leaves of it


def test_a_part_of_the_top_card_read_as_another_card_before_and_after_an_arm_is_no_card() -> None:
    assert plays([
        ([card("green_2", GREEN_2)], 8, visit(1, seat=3)),
        ([card("green_7", LOWER_PART)], CFG.min_hits - 2, visit(2, seat=0, hand=True)),  # the hand comes
        ([card("green_7", LOWER_PART)], 6, visit(2, seat=0, arm=True)),
        ([card("green_7", LOWER_PART)], 2, visit(2, seat=0, hand=True)),  # the arm leaves, the hand still there
        ([card("green_2", GREEN_2)], 15, visit(2, seat=0)),
    ]) == [("green_2", 3)]


def test_a_card_laid_there_and_still_there_once_the_arm_has_gone_is_a_card() -> None:
    assert plays([
        ([card("green_2", GREEN_2)], 8, visit(1, seat=3)),
        ([card("green_7", LOWER_PART)], CFG.min_hits - 2, visit(2, seat=0, hand=True)),
        ([card("green_7", LOWER_PART)], 6, visit(2, seat=0, arm=True)),
        ([card("green_7", LOWER_PART)], 15, visit(2, seat=0)),
    ]) == [("green_2", 3), ("green_7", 0)]
