"""The hand that laid a card rests on it, still, then draws back: the motion detector counts that as a
new visit (the pile lay still long enough), but it is the same hand, and the card showing more of itself
is no card laid on it.

From games 15042 and 15060 (dev; generated, no calibration): a yellow skip believed with the fingers
still hiding its left side; the hand drew back 0.2 s later (a new visit by the count) and the skip's box
grew to the left, which was taken for a second yellow skip laid on it and believed in the next player's
visit (a false play, judged as the skipped player's). In 15060 the same happened to a yellow 2, and the
grown top card, not seen in its pose, let the strip of a yellow 5 buried under it be believed as a play.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.vision.tracking import MotionSample, PileTracker

from .test_track import CFG, Row, card, dets


def visit(n: int, seat: int, *, arm: bool = False, hand: bool = False) -> MotionSample:
    """Visit ``n`` by ``seat``: an arm over the pile, a hand stirring there (no arm seen), or still."""
    return MotionSample(seat=seat, disturbed=arm or hand, hand_over_pile=hand, arm_over_pile=arm, pile_visit=n)


class Feed:
    def __init__(self) -> None:
        self.tracker = PileTracker(CFG, expect_start=False)
        self.frame = 0
        self.out: list[tuple[object, object]] = []

    def __call__(self, rows: Sequence[Row], n: int, motion: MotionSample) -> None:
        for _ in range(n):
            for event in self.tracker.update(dets(rows), self.frame / 10, self.frame, motion):
                obs = event.as_dict()
                if obs["type"] in ("start", "play"):
                    self.out.append((obs["card"], obs["seat"]))
            self.frame += 1


CUT = (116.0, 100.0, 240.0, 250.0)  # the left side under the fingers that laid it
WHOLE = (100.0, 100.0, 240.0, 250.0)  # a ninth wider: the whole card


def test_the_laying_hand_drawing_back_in_a_new_visit_lays_no_twin() -> None:
    feed = Feed()
    feed([card("blue_5", (108.0, 108.0, 236.0, 246.0))], 8, visit(1, seat=2))
    feed([card("yellow_skip", CUT)], 2, visit(2, seat=0, arm=True))
    feed([card("yellow_skip", CUT)], CFG.min_hits + 2, visit(2, seat=0))
    assert feed.out == [("blue_5", 2), ("yellow_skip", 0)]
    # The fingers go: the same hand stirs again, a new visit by the count, and the whole card shows.
    feed([card("yellow_skip", WHOLE)], 2, visit(3, seat=0, hand=True))
    feed([card("yellow_skip", WHOLE)], 12, visit(3, seat=0))
    # The next player's hand comes over the pile and goes without laying a card.
    feed([card("yellow_skip", WHOLE)], 3, visit(4, seat=1, arm=True))
    feed([card("yellow_skip", WHOLE)], 20, visit(4, seat=1))
    assert feed.out == [("blue_5", 2), ("yellow_skip", 0)]


def test_a_strip_of_a_buried_card_by_the_grown_top_card_is_that_card() -> None:
    """The 15060 form: a yellow 5, then a yellow reverse over most of it, then a yellow 2 believed with
    the fingers on it. The incoming yellow 2 hid the yellow 5's strip long enough for it to count as
    buried; as the hand draws back the strip shows again, reaching under the (grown) yellow 2."""
    five, reverse = (30.0, 100.0, 170.0, 250.0), (104.0, 92.0, 244.0, 242.0)
    strip = (30.0, 100.0, 118.0, 246.0)
    feed = Feed()
    feed([card("yellow_5", five)], 8, visit(1, seat=2))
    feed([card("yellow_5", five), card("yellow_reverse", reverse)], 2, visit(2, seat=3, arm=True))
    feed([card("yellow_5", strip), card("yellow_reverse", reverse)], 10, visit(2, seat=3))
    # The yellow 2 comes in over the yellow 5's strip and comes to rest with the fingers on its left
    # side, over the strip too.
    feed([card("yellow_2", (20.0, 110.0, 150.0, 250.0))], 1, visit(3, seat=0, arm=True))
    feed([card("yellow_2", (60.0, 104.0, 200.0, 250.0))], 1, visit(3, seat=0, arm=True))
    feed([card("yellow_2", CUT)], CFG.min_hits + 3, visit(3, seat=0))
    assert feed.out == [("yellow_5", 2), ("yellow_reverse", 3), ("yellow_2", 0)]
    feed([card("yellow_2", WHOLE), card("yellow_5", strip)], 2, visit(4, seat=0, hand=True))
    feed([card("yellow_2", WHOLE), card("yellow_5", strip)], 15, visit(4, seat=0))
    assert feed.out == [("yellow_5", 2), ("yellow_reverse", 3), ("yellow_2", 0)]


def test_a_twin_laid_later_by_the_next_hand_is_still_a_new_card() -> None:
    """The same skip, whole after the drawing back; then the next player lays a second yellow skip over
    it, its box a sixth higher: a new card, as before."""
    feed = Feed()
    feed([card("blue_5", (108.0, 108.0, 236.0, 246.0))], 8, visit(1, seat=2))
    feed([card("yellow_skip", CUT)], 2, visit(2, seat=0, arm=True))
    feed([card("yellow_skip", CUT)], CFG.min_hits + 2, visit(2, seat=0))
    feed([card("yellow_skip", WHOLE)], 2, visit(3, seat=0, hand=True))
    feed([card("yellow_skip", WHOLE)], 12, visit(3, seat=0))
    later = (100.0, 75.0, 240.0, 228.0)
    feed([card("yellow_skip", later)], 3, visit(4, seat=1, arm=True))
    feed([card("yellow_skip", later)], 20, visit(4, seat=1))
    assert feed.out == [("blue_5", 2), ("yellow_skip", 0), ("yellow_skip", 1)]
