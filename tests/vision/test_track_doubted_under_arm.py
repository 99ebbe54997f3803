"""A card ready under an arm, read otherwise closer up, waits for the clear view the closer look speaks in.

From the real-card games 16106-16111 (the thin-ring printing's photographed faces, no calibration): the
detector read the printing's 3s as 8s at 0.8-0.9 in every frame, and a card laid while the arm that laid it
still reached over the pile was believed on those readings alone, for the closer look is not taken under an
arm. A red 3 was said red 8 first and corrected in clear view a few frames later; a green 3 made a third
green 8 and an ``impossible_card`` alert, raised and then taken back. Under the arm the closer look is taken
all the same, only to hold the card back: one it reads surely as another face waits for the clear view,
where it is named; one it agrees with is believed there and then, as before.
"""

from __future__ import annotations

import numpy as np

from referee.vision.detect import DETECTOR_LOOK_CONFIDENCE
from referee.vision.tracking import CloserLook, PileTracker

from .test_track import CFG, B, Feed, _visit, card


def _look(face_at_b: str) -> CloserLook:
    def look(pose: np.ndarray, *, whole: bool = False) -> list[tuple[str, float]]:
        return [(face_at_b, 0.92)] if np.allclose(pose, B, atol=3) else [("1", 0.97)]

    return CloserLook(look, DETECTOR_LOOK_CONFIDENCE)


def _plays(face_at_b: str) -> list[tuple[int, object, object]]:
    feed = Feed(PileTracker(CFG, expect_start=False, second_look=_look(face_at_b)))
    feed([card("blue_1")], 8, motion=_visit(1, seat=3))
    feed([card("red_8", B)], 8, motion=_visit(2, arm=True, seat=0))  # laid; the arm stays over the pile
    feed([card("red_8", B)], 8, motion=_visit(2, seat=0))
    return [(frame, o["card"], o.get("corrected_from")) for frame, o in feed.out if o["type"] == "play"]


def test_a_card_read_otherwise_closer_up_under_the_arm_waits_and_is_named_in_clear_view() -> None:
    arm_gone = 16
    (_, first, _), (frame, card_, was) = _plays("3")
    assert first == "blue_1"
    assert (card_, was) == ("red_3", "red_8")
    assert frame >= arm_gone


def test_a_card_the_closer_look_agrees_with_is_believed_under_the_arm_as_before() -> None:
    (_, first, _), (frame, card_, was) = _plays("8")
    assert first == "blue_1"
    assert (card_, was) == ("red_8", None)
    assert frame < 16
