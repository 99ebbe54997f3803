"""The top card's strip under a hand, read as its face in another colour, is no card that slid in.

From game 15160 (generated, no calibration, uncast): a red draw two lay on top. Seat 3's arm crossed the pile to the
stock, and for nine frames only the card's lower strip showed (with the fingers below it), still, read as a yellow and
a green draw two. As the arm drew back the card showed again, first nearly in its pose (0.742 IoU, under the 0.75 that
makes it the top card seen whole), and that reading continued the strip's tentative card; next frame the card lay in
its very pose, and the strip, first read as a draw two a little outside the pose, made it a draw two that had slid in
(``twins.slid_in``): a second red draw two played, and two alerts. A pixel more and the top card had been seen whole
(the live white balance's drift of a percent decided it).
"""

from __future__ import annotations

from referee.vision.tracking import PileTracker, TrackerConfig

from .test_track import Feed, _visit, card

CFG = TrackerConfig(fps=15)
TOP = (113.0, 137.0, 255.0, 254.0)
REST = (112.0, 135.0, 254.0, 252.0)
STRIP = (140.0, 219.0, 255.0, 266.0)  # its lower part and the fingers below, an arm over its upper part
STRIP_ON = (137.0, 205.0, 256.0, 266.0)
NEARLY = (143.0, 136.0, 254.0, 261.0)  # the card showing again as the arm draws back: 0.742 IoU with its pose
BACK = (112.0, 136.0, 254.0, 252.0)


def _game(nearly: tuple[float, float, float, float]) -> list[tuple[object, object]]:
    feed = Feed(PileTracker(CFG, expect_start=False))
    feed([card("green_draw2", (118.0, 128.0, 243.0, 267.0))], 10, motion=_visit(1, seat=0))
    feed([card("red_draw2", TOP)], 4, motion=_visit(2, arm=True, seat=2))
    feed([card("red_draw2", REST)], 20, motion=_visit(2, seat=2))
    feed([card("red_draw2", REST)], 10, motion=_visit(3, seat=3))
    feed([card("yellow_draw2", STRIP, conf=0.39, colour=0.44)], 2, motion=_visit(3, arm=True, seat=3))
    feed([card("green_draw2", STRIP_ON, conf=0.36, colour=0.62)], 4, motion=_visit(3, arm=True, seat=3))
    feed([card("yellow_draw2", STRIP_ON, conf=0.41, colour=0.5)], 3, motion=_visit(3, arm=True, seat=3))
    feed([card("red_draw2", nearly, conf=0.78, colour=0.97)], 1, motion=_visit(3, arm=True, seat=3))
    feed([card("red_draw2", BACK, conf=0.97, colour=1.0)], 1, motion=_visit(3, arm=True, seat=3))
    feed([card("red_draw2", BACK, conf=0.97, colour=1.0)], 20, motion=_visit(3, seat=3))
    return [(o["card"], o["seat"]) for _, o in feed.out if o["type"] == "play"]


def test_the_top_cards_strip_under_a_hand_is_no_card_sliding_in() -> None:
    assert _game(NEARLY) == [("green_draw2", 0), ("red_draw2", 2)]


def test_the_same_with_the_card_seen_whole_a_pixel_sooner() -> None:
    """A pixel more of the card as the arm drew back: seen whole, the top card (the game without the drift)."""
    assert _game((142.0, 136.0, 254.0, 260.0)) == [("green_draw2", 0), ("red_draw2", 2)]
