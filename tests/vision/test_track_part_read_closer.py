"""What a hand leaves of the top card, read closer up as the top card, is the top card seen in part.

From game 15102 (the spent held-out set 15102-15113; generated, no calibration): a green 7 lay on top. A hand came
over its upper part, and its lower part showed alone for a few frames (a box inside the 7's pose, the same left,
right and bottom edges, 0.69 IoU with it), read green 2 at 0.5-0.64 by the pile view. Once the hand had gone it
was believed, and the closer look named it green 7, the top card's own face: played as a second green 7, and two
out_of_turn alerts. A box inside the top card's pose read closer up as the top card joins the top card's
readings, as one in its very pose already did.
"""

from __future__ import annotations

import numpy as np

from referee.vision.detect import DETECTOR_LOOK_CONFIDENCE
from referee.vision.tracking import CloserLook, PileTracker

from .test_track import CFG, Feed, _visit, card

TOP = (101.0, 123.0, 239.0, 264.0)
PART = (102.0, 164.0, 237.0, 264.0)  # its lower part, what a hand over its upper part leaves
UNDER = (96.0, 114.0, 245.0, 246.0)


def _look(face_in_part: str) -> CloserLook:
    def look(pose: np.ndarray, *, whole: bool = False) -> list[tuple[str, float]]:
        if np.allclose(pose, PART, atol=3):
            return [(face_in_part, 0.9)]
        return [("7", 0.97)] if np.allclose(pose, TOP, atol=3) else [("1", 0.97)]

    return CloserLook(look, DETECTOR_LOOK_CONFIDENCE)


def _run(face_in_part: str) -> list[tuple[object, object]]:
    feed = Feed(PileTracker(CFG, expect_start=False, second_look=_look(face_in_part)))
    feed([card("blue_1", UNDER)], 8, motion=_visit(1, seat=3))
    feed([card("green_7", TOP), card("blue_1", UNDER)], 2, motion=_visit(2, arm=True, seat=0))
    feed([card("green_7", TOP)], 8, motion=_visit(2, seat=0))
    feed([card("green_2", PART, conf=0.55)], 2, motion=_visit(3, arm=True, seat=1))
    feed([card("green_2", PART, conf=0.62)], 3 * CFG.min_hits, motion=_visit(3, seat=1))
    feed([card("green_7", TOP)], 8, motion=_visit(3, seat=1))
    return [(o["card"], o["seat"]) for _, o in feed.out if o["type"] == "play"]


def test_the_part_of_the_top_card_read_closer_up_as_the_top_card_is_no_new_card() -> None:
    assert _run("7") == [("blue_1", 3), ("green_7", 0)]


def test_the_part_read_closer_up_as_another_face_is_left_to_the_other_rules() -> None:
    """Not read as the top card closer up: this rule says nothing (the card is judged as before)."""
    assert ("green_7", 0) in _run("2")
