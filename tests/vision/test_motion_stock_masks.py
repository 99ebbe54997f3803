"""The stock visits of :class:`MotionDetector`, driven by the masks it sees (the foreground standing out from the
table, the moving pixels) at its low resolution (80 x 60: the pile zone x 25-45, y 20-42; the stock x 60-72,
y 2-17): what a visit takes for its own, and an arm that passes over the stock on to the pile."""

from __future__ import annotations

import numpy as np
import pytest

from referee.vision.calibration import CalibrationProfile
from referee.vision.tracking import MotionDetector
from referee.vision.tracking.boxes import Mask
from tests.vision.test_motion_bump import PILE, SEATS, STOCK

cv2 = pytest.importorskip("cv2")

SHAPE = (60, 80)


def _detector() -> MotionDetector:
    return MotionDetector(CalibrationProfile((320, 240), PILE, SEATS, stock=STOCK), fps=15, width=80)


def _mask(*rects: tuple[int, int, int, int]) -> Mask:
    """Low-resolution pixels inside the rectangles (x0, y0, x1, y1), ends excluded."""
    mask = np.zeros(SHAPE, bool)
    for x0, y0, x1, y1 in rects:
        mask[y0:y1, x0:x1] = True
    return mask


def _arm(start: tuple[int, int], end: tuple[int, int], *, cut: int = 0) -> Mask:
    """An arm 3 pixels thick from ``start`` to ``end``, its first ``cut`` rows from the view's top missing (a part
    that looks like the table)."""
    image = np.zeros(SHAPE, np.uint8)
    cv2.line(image, start, end, 1, 3)
    image[:cut] = 0
    return image > 0


def _draws(frames: list[tuple[Mask, Mask]]) -> list[int | None]:
    """The draws said over ``frames`` (foreground, moving pixels), then a still, empty table."""
    motion = _detector()
    still = np.zeros(SHAPE, bool)
    draws: list[int | None] = []
    for foreground, moved in [(still, still)] * 5 + frames + [(still, still)] * 8:
        motion._frame += 1
        motion._foreground = foreground
        assert motion.stock is not None
        draws.extend(motion.stock.step(moved)[0])
    return draws


#: A lump standing out in the stock (16 px of its 180), still.
LUMP = _mask((62, 12, 66, 16))
#: Seat 3's arm from the right edge to the stock, moving.
TO_STOCK = _arm((79, 40), (66, 10))
#: A brief stir at the stock's lower edge, partly outside it (seen coming).
STIR = _mask((62, 15, 66, 20))


def test_a_visit_does_not_take_the_last_visits_standing_out_for_its_own() -> None:
    """Game 15096 (the spent held-out set 15090-15101; no calibration, a bump or not): seat 0's hand drew and went on
    to lay a green 1; its arm still stood out in the stock zone (56-64 of 1600 px) for 14 frames, past the end of
    the visit. A stir there for 2 frames began a new visit, which took the whole run of 14 for its own standing out:
    a hand come too slowly for the differencing, dwelling as long as a draw (``_slow_hand``), and a draw made up at
    33.27 s. What stood out from before the last visit ended is that visit's."""
    drew = [(TO_STOCK, TO_STOCK)] * 8
    left = [(LUMP, np.zeros(SHAPE, bool))] * 6
    stir = [(LUMP, STIR)] * 2
    assert _draws(drew + left + stir) == [3]


def test_a_slow_hand_standing_out_since_the_last_visit_ended_still_draws() -> None:
    """A hand come too slowly to stir the differencing stands out before it is seen to move: with no visit before,
    the run it began in is its own."""
    assert len(_draws([(LUMP, np.zeros(SHAPE, bool))] * 6 + [(LUMP, STIR)] * 2)) == 1


def test_an_arm_on_to_the_pile_whose_top_does_not_stand_out_passed_on() -> None:
    """Game 15096 (the same set, a bump or not): seat 0's arm came from the top edge over the stock zone's corner
    and hovered over the pile for 8 frames; its upper part looked like the table in all but the first frame, so the
    arm's blob did not reach the view's edge, where ``passed_on`` takes the arm's root from, and its hand over the
    pile counted in 1 frame of 11 (2 needed): a draw made up at 35.0 s. The arm's root is where the visit's arm was
    seen to come from."""
    over = _arm((75, 0), (38, 30))
    frames = [(over, over)] + [(_arm((75, 0), (38, 30), cut=5), _mask((33, 25, 43, 35)))] * 8
    assert _draws(frames) == []


def test_a_hand_at_the_stock_whose_arm_does_not_reach_the_edge_still_draws() -> None:
    """The same arm cut from the edge, its hand at the stock: a draw."""
    cut = _arm((79, 40), (66, 10), cut=0)
    cut[:, 76:] = False  # the part by the right edge looks like the table
    frames = [(TO_STOCK, TO_STOCK)] + [(cut, _mask((63, 8, 69, 14)))] * 8
    assert _draws(frames) == [3]
