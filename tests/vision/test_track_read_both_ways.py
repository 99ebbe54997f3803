"""The top card read two ways in its own pose, as surely one way as the other (a 9 and a 6 of one colour, both
ways up), is the top card read two ways until the vote tells: it waits as long as an identical card laid square
on it would, not as long as any card.

From game 15096 (the spent held-out set 15090-15101; generated, no calibration, a bump or not): a red 9 lay on
top, seen whole; as the next hand came near (no arm over the pile yet), the detector read its box as a red 6 at
0.91 and a red 9 at 0.91 for four frames, the 6 first. The tie, led by the 6, was no vote for the top card, and
it was believed as a red 6 laid on the 9 (a false play, later put right to the 6's own reading), and the next
player's red 7 was judged out of turn.
"""

from __future__ import annotations

from .test_track import CFG, card
from .test_track_drawback import visit
from .test_track_settling import plays

RED_9 = (95.0, 143.0, 218.0, 225.0)
UNDER = (106.0, 113.0, 246.0, 244.0)


def test_the_top_card_read_as_a_six_as_surely_as_a_nine_is_no_new_card() -> None:
    assert plays([
        ([card("red_7", UNDER)], 8, visit(1, seat=0)),
        ([card("red_9", RED_9)], 8, visit(2, seat=1)),
        ([card("red_6", RED_9, conf=0.92), card("red_9", RED_9, conf=0.91)], CFG.min_hits + 1,
         visit(3, seat=2, hand=True)),
        ([card("red_9", RED_9)], 15, visit(3, seat=2)),
    ]) == [("red_7", 0), ("red_9", 1)]


def test_a_six_laid_square_on_the_nine_and_read_so_once_the_hand_has_gone_is_a_card() -> None:
    assert plays([
        ([card("red_7", UNDER)], 8, visit(1, seat=0)),
        ([card("red_9", RED_9)], 8, visit(2, seat=1)),
        ([card("red_6", RED_9, conf=0.92), card("red_9", RED_9, conf=0.91)], CFG.min_hits + 1,
         visit(3, seat=2, arm=True)),
        ([card("red_6", RED_9, conf=0.92), card("red_9", RED_9, conf=0.5)], 15, visit(3, seat=2)),
    ]) == [("red_7", 0), ("red_9", 1), ("red_6", 2)]
