"""A card believed before it came to rest, still sliding into place in the hand visit that laid it, is that
card, not a second card of its face.

From game 15055 (dev; generated, no calibration, and calibrated too): a red 3 was believed as the hand slid it
in, half hidden, and 0.07 s later the same card, 24 px further on and whole, was believed a second time (a
false play, judged out of turn).
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.vision.tracking import MotionSample, PileTracker

from .test_track import CFG, Row, card, dets
from .test_track_drawback import visit


def plays(steps: Sequence[tuple[Sequence[Row], int, MotionSample]]) -> list[tuple[object, object]]:
    tracker = PileTracker(CFG, expect_start=False)
    out: list[tuple[object, object]] = []
    frame = 0
    for rows, n, motion in steps:
        for _ in range(n):
            for event in tracker.update(dets(rows), frame / 10, frame, motion):
                obs = event.as_dict()
                if obs["type"] in ("start", "play"):
                    out.append((obs["card"], obs["seat"]))
            frame += 1
    return out


BASE = (100.0, 110.0, 230.0, 240.0)
SLIDING = (89.0, 120.0, 220.0, 224.0)  # half hidden under the hand, still on its way
AT_REST = (83.0, 95.0, 219.0, 213.0)  # 24 px further on, whole: 0.69 IoU over where it was believed


def test_a_card_believed_on_its_way_and_coming_to_rest_in_the_same_visit_is_one_card() -> None:
    assert plays([
        ([card("blue_5", BASE)], 8, visit(1, seat=2)),
        ([card("red_3", SLIDING)], CFG.min_hits + 1, visit(2, seat=1, hand=True)),
        ([card("red_3", AT_REST)], 6, visit(2, seat=1, hand=True)),
        ([card("red_3", AT_REST)], 15, visit(2, seat=1)),
        ([card("red_3", AT_REST)], 3, visit(3, seat=2, arm=True)),  # the next hand passes over it
        ([card("red_3", AT_REST)], 15, visit(3, seat=2)),
    ]) == [("blue_5", 2), ("red_3", 1)]


def test_a_second_card_of_that_face_laid_by_the_next_hand_is_a_new_card() -> None:
    assert plays([
        ([card("blue_5", BASE)], 8, visit(1, seat=2)),
        ([card("red_3", SLIDING)], CFG.min_hits + 1, visit(2, seat=1, hand=True)),
        ([card("red_3", AT_REST)], 6, visit(2, seat=1, hand=True)),
        ([card("red_3", AT_REST)], 15, visit(2, seat=1)),
        ([card("red_3", (60.0, 70.0, 196.0, 188.0))], 3, visit(3, seat=2, arm=True)),
        ([card("red_3", (60.0, 70.0, 196.0, 188.0))], 15, visit(3, seat=2)),
    ]) == [("blue_5", 2), ("red_3", 1), ("red_3", 2)]
