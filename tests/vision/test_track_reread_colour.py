"""A card believed under a hand and read in clear view as its own face in another colour, not quite surely.

From the ring-faced game 16002 under a cool window light (`benchmarks/e2e_eval.py --cast cool`): a pale lime green
skip was laid by a hand that then rested on a third of it. No pixel of the pale ink was as saturated as the skin, so
the skin alone voted and the card read red skip, its colour 1.0 sure, and was believed with the arm over the pile.
In clear view it read green skip, but only 0.65-0.79 sure of the colour (the cool light between green and blue), so
too few frames reached the 0.75 a re-read counted, and the false red skip stayed. The question a re-read answers
for such a card is its colour under the arm: the clear view's own face in another colour counts once it is read
at least as surely as a colour is ever believed (``unsure_colour``).
"""

from __future__ import annotations

from referee.vision.tracking import PileTracker

from .test_track import CFG, B, Feed, _visit, card


def _believed_red_skip_under_the_hand() -> Feed:
    feed = Feed(PileTracker(CFG, expect_start=False))
    feed([card("yellow_skip")], 8, motion=_visit(1, seat=1))
    feed([card("red_skip", B, conf=0.92, colour=1.0)], CFG.min_hits + 1, motion=_visit(2, arm=True, seat=2))
    assert [o["card"] for _, o in feed.out] == ["yellow_skip", "red_skip"]
    return feed


def test_its_own_face_in_another_colour_in_clear_view_re_reads_the_colour() -> None:
    feed = _believed_red_skip_under_the_hand()
    got = feed([card("green_skip", B, conf=0.96, colour=0.7)], 3 * CFG.min_hits + 5, motion=_visit(2, seat=2))
    assert [(o["type"], o["card"], o["was"]) for o in got] == [("reread", "green_skip", "red_skip")]


def test_another_face_wants_a_sure_colour_as_before() -> None:
    """Another face read as unsurely is no evidence about the colour under the arm: no re-read."""
    feed = _believed_red_skip_under_the_hand()
    assert feed([card("green_2", B, conf=0.96, colour=0.7)], 3 * CFG.min_hits + 5, motion=_visit(2, seat=2)) == []


def test_a_colour_read_less_surely_than_any_belief_counts_for_nothing() -> None:
    feed = _believed_red_skip_under_the_hand()
    assert feed([card("green_skip", B, conf=0.96, colour=0.55)], 3 * CFG.min_hits + 5, motion=_visit(2, seat=2)) == []
