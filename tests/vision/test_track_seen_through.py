"""A box found but never read, named closer up as the card being laid beside it, is that card seen through it.

From ring-faced game 16101 (the second printing's photographed cards, no calibration file, a bump): a green 9 was laid
on a green 7, beside the strip of a yellow 7 further down. The strip, boxed with the 9's edge, was found but never
read (green 1 at 0.04); the closer look, shown mostly the green 9 through that box, named it green 9. Believed in
the same frame as the real green 9, and the newer of the two, it went on top; when the next hand came it was gone
from view and taken back, the green 9's play with it: a missed play and a false out-of-turn alert for the next one.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from referee.vision.detect import DETECTOR_LOOK_CONFIDENCE
from referee.vision.tracking import CloserLook, PileTracker

from .test_track import CFG, Feed, _visit, card

YELLOW = (140.0, 114.0, 265.0, 197.0)
GREEN_7 = (107.0, 111.0, 241.0, 221.0)
NINE = (103.0, 120.0, 227.0, 257.0)
STRIP = (115.0, 112.0, 264.0, 197.0)  # the yellow 7's strip boxed with the 9's edge: two thirds of it the 9


def _look() -> CloserLook:
    def look(pose: npt.NDArray[np.float32], *, whole: bool = False) -> list[tuple[str, float]]:
        return [("9", 0.95)] if np.allclose(pose, NINE, atol=4) or np.allclose(pose, STRIP, atol=4) else [("7", 0.95)]

    return CloserLook(look, DETECTOR_LOOK_CONFIDENCE)


def _events() -> list[tuple[object, object]]:
    feed = Feed(PileTracker(CFG, expect_start=False, second_look=_look()))
    feed([card("yellow_7", YELLOW)], 8, motion=_visit(1, seat=0))
    feed([card("green_7", GREEN_7), card("yellow_7", YELLOW)], 2, motion=_visit(2, arm=True, seat=0))
    feed([card("green_7", GREEN_7), card("yellow_7", YELLOW)], 8, motion=_visit(2, seat=0))
    # the 9 read 9 and 6 in every frame, near a tie: it waits for a clear view, and is judged with the strip
    nine = [card("green_9", NINE, 0.95), card("green_6", NINE, 0.75)]
    strip = ("green_1", STRIP, 0.04, 0.7, 0.8)  # kept for its card-ness, never read
    feed(nine, 2, motion=_visit(3, arm=True, seat=1))
    feed([*nine, strip], 2, motion=_visit(3, arm=True, seat=1))
    feed([*nine, strip], 8, motion=_visit(3, seat=1))
    feed(nine, 3 * CFG.takeback_frames, motion=_visit(4, arm=True, seat=2))
    return [(o["type"], o["card"]) for _, o in feed.out]


def test_an_unread_box_named_closer_up_as_the_card_it_overlaps_is_no_second_card() -> None:
    assert _events() == [("play", "yellow_7"), ("play", "green_7"), ("play", "green_9")]

