"""A twin of the top card that the deck holds no other copy of is the top card seen again.

Fractions game 316 (held out): a red 2/7 laid across the top card was found by the pile's picture changing
under it and placed in the pose of the card it covered; seen in its own box once the hand had gone, it was
taken for an identical card laid on it and played again, with an ``impossible_card`` and an out-of-turn alert.
The fractions deck holds one red 2/7.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.vision.tracking import PileTracker

from .test_track import CFG, Feed, _visit, card

FIRST = (109.0, 94.0, 245.0, 228.0)
TWIN = (112.0, 148.0, 240.0, 231.0)  # laid nearly square on it, a little lower


def _played(possible_now: Callable[[str], bool] | None) -> list[tuple[object, object]]:
    feed = Feed(PileTracker(CFG, expect_start=False, possible_now=possible_now))
    feed([card("yellow_8", FIRST)], 8, motion=_visit(1, seat=0))
    feed([card("yellow_8", TWIN, 0.95)], 6, motion=_visit(2, arm=True, seat=1))
    feed([card("yellow_8", TWIN, 0.96)], 4 * CFG.min_hits, motion=_visit(2, seat=1))
    return [(o["card"], o["seat"]) for _, o in feed.out]


def test_a_twin_of_a_pile_card_the_deck_holds_once_is_that_card_seen_again() -> None:
    assert _played(lambda label: label != "yellow_8") == [("yellow_8", 0)]


def test_a_twin_the_deck_can_hold_is_played_as_before() -> None:
    assert _played(lambda label: True) == [("yellow_8", 0), ("yellow_8", 1)]
    assert _played(None) == [("yellow_8", 0), ("yellow_8", 1)]


def test_a_card_read_as_one_further_down_the_deck_cannot_hold_is_still_said() -> None:
    """Read as a card under the top one that the deck holds no other copy of: more often another card misread
    (a ring-printing blue 3 read as an 8 already played, put right by the closer look once said); vetoed, it
    would be lost, with a false out-of-turn alert for the next player."""
    three, apart = (300.0, 200.0, 400.0, 350.0), (420.0, 120.0, 520.0, 270.0)
    feed = Feed(PileTracker(CFG, expect_start=False, possible_now=lambda label: label != "yellow_8"))
    feed([card("yellow_8", FIRST)], 8, motion=_visit(1, seat=0))
    feed([card("yellow_8", FIRST), card("red_3", three)], 2, motion=_visit(2, arm=True, seat=1))
    feed([card("yellow_8", FIRST), card("red_3", three)], 8, motion=_visit(2, seat=1))
    seen = [card("yellow_8", FIRST), card("red_3", three), card("yellow_8", apart)]
    feed(seen, 2, motion=_visit(3, arm=True, seat=2))
    feed(seen, 8, motion=_visit(3, seat=2))
    assert [(o["card"], o["seat"]) for _, o in feed.out] == [("yellow_8", 0), ("red_3", 1), ("yellow_8", 2)]
