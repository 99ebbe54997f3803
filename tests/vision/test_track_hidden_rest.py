"""A part of the top card whose rest a still hand hides is the top card showing, not a card laid.

From the real-card game 16111 (the thin-ring printing's photographed faces, no calibration): a green 6 lay on top. The
next player's hand came to the pile's edge and held still over the card's right third; no arm reached over the pile
as the arms are seen, so the view looked clear. The left two thirds, boxed on their own, read green 5 at 0.44-0.62 for
three frames and were played: an out-of-turn alert, taken back with the play once the 6 showed whole again. The rest
of the top card's pose had changed since before the visit (57 % of it), where nothing was read: hidden, so what
showed was the top card's part.
"""

from __future__ import annotations

import numpy as np

from referee.vision.tracking import MotionSample, PileTracker

from .test_track import CFG, Feed, card

PART = (200.0, 150.0, 268.0, 300.0)  # the left two thirds of A

EMPTY = np.full((72, 96), 120, np.uint8)  # the top-down pile, grey, low resolution (640x480 -> 96x72)
TOP = EMPTY.copy()
TOP[22:45, 30:45] = 200  # A in pile-image pixels: the top card
HAND = TOP.copy()
HAND[22:45, 37:46] = 90  # its right third under a hand held still, its shadow on the part beside
NEW = TOP.copy()
NEW[22:45, 30:41] = 240  # another face where the part lies, the rest as it was


def motion(visit: int, now: np.ndarray, before: np.ndarray, *, arm: bool = False, hand: bool = False,
           seat: int = 0) -> MotionSample:
    return MotionSample(seat=seat, disturbed=arm or hand, hand_over_pile=hand, arm_over_pile=arm, pile_visit=visit,
                        pile_now=now, pile_before=before, pile_size=(640, 480))


def _plays(rest: np.ndarray) -> list[object]:
    feed = Feed(PileTracker(CFG, expect_start=False))
    feed([card("green_6")], 2, motion=motion(1, EMPTY, EMPTY, arm=True))
    feed([card("green_6")], 10, motion=motion(1, TOP, EMPTY))
    feed([card("green_5", PART, conf=0.55)], 2, motion=motion(2, rest, TOP, hand=True, seat=2))  # it comes
    feed([card("green_5", PART, conf=0.55)], 4 * CFG.min_hits, motion=motion(2, rest, TOP, seat=2))  # held still
    feed([card("green_6")], 10, motion=motion(2, TOP, TOP, seat=2))
    return [o["card"] for _, o in feed.out if o["type"] == "play"]


def test_the_part_of_the_top_card_beside_a_still_hand_is_no_card_laid() -> None:
    assert _plays(HAND) == ["green_6"]


def test_a_part_beside_a_rest_as_it_was_is_left_to_the_other_rules() -> None:
    """The rest as it lay before the visit, another face where the part lies: this rule says nothing (the reading
    is judged as before)."""
    assert _plays(NEW) == ["green_6", "green_5"]
