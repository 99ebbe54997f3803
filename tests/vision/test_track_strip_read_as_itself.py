"""The strip of a card below the top one, read as another face but also as that card, is that card showing.

From the real-card game 16112 (the thin-ring printing's photographed faces, no calibration; the held-out set
16112-16117's first run): a wild draw four was laid over the right part of a yellow 3. The 3's left part, in place
inside its own pose, read yellow 8 at 0.86-0.91 and yellow 3 at 0.41-0.69 in the same box, frame after frame; it was
found no card while no hand had come, and, as the next player's hand came to the stock, started again as a tentative
card, was believed as a yellow 8 (an illegal card on the wild draw four, an out-of-turn alert after, a third yellow 8
later). A sure reading, so not the unsure strip the rule knew; but read as the card it lies in for a third of its
vote.
"""

from __future__ import annotations

from referee.vision.tracking import PileTracker

from .test_track import CFG, Feed, Row, _visit, card

YELLOW_3 = (114.0, 103.0, 220.0, 243.0)
WILD_DRAW4 = (142.0, 123.0, 271.0, 258.0)  # over the 3's right part
STRIP = (116.0, 104.0, 199.0, 252.0)  # the 3's left part, in place inside its pose


def _strip(three: float) -> list[Row]:
    return [card("wild_draw4", WILD_DRAW4, 0.95), card("yellow_8", STRIP, 0.88), card("yellow_3", STRIP, three)]


def test_a_strip_of_the_card_below_read_also_as_that_card_is_no_card_laid() -> None:
    feed = Feed(PileTracker(CFG, expect_start=False))
    feed([card("yellow_3", YELLOW_3)], 8, motion=_visit(1, seat=2))
    feed([card("yellow_3", YELLOW_3), card("wild_draw4", WILD_DRAW4)], 4, motion=_visit(2, arm=True, seat=3))
    feed(_strip(0.6), 10, motion=_visit(2, seat=3))
    # The next hand, on its way to the stock, hides the strip long enough for what was found of it to be forgotten.
    feed([card("wild_draw4", WILD_DRAW4, 0.95)], CFG.max_misses + 2, motion=_visit(3, arm=True, seat=0))
    feed(_strip(0.45), 12, motion=_visit(3, seat=0))
    assert [o["card"] for _, o in feed.out if o["type"] == "play"] == ["yellow_3", "wild_draw4"]
