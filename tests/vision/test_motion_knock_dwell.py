"""A hand at the stock as the camera was knocked and still there once the view is followed was there all the while:
the knock's frames count as its dwell (:meth:`StockWatch._through_the_knock`)."""

from __future__ import annotations

import numpy as np
import pytest

from referee.vision.calibration import CalibrationProfile
from referee.vision.tracking import MotionDetector
from tests.vision.test_motion_bump import MOVE, PILE, SEATS, STOCK, _frame, _moved

cv2 = pytest.importorskip("cv2")

KNOCK = 3  # frames the camera moves for (0.2 s)


def _draws(before: int, during: int, after: int) -> list[int | None]:
    """Draws the pipeline hears: seat 3's hand at the stock ``before`` frames of a still view, the first ``during``
    frames of the knock (:data:`KNOCK` frames moving), ``after`` frames more in the followed view, and gone; the
    pipeline hears no draw through a moving view (:meth:`MotionDetector.heard`)."""
    profile = CalibrationProfile((320, 240), PILE, SEATS, stock=STOCK)
    motion = MotionDetector(profile, fps=15, width=80)
    draws: list[int | None] = []

    def see(detector: MotionDetector, image: np.ndarray, moving: bool = False) -> None:
        draws.extend(detector.heard(detector.update(image, image[80:170, 100:180]), moving).draws)

    for reach in [0.0] * 8 + [1.0] * before:
        see(motion, _frame(reach, streaky=False))
    for k in range(KNOCK):
        part = np.array([[1.0, 0.0, MOVE[0, 2] * (k + 1) / KNOCK], [0.0, 1.0, MOVE[1, 2] * (k + 1) / KNOCK]])
        see(motion, _frame(1.0 if k < during else 0.0, part, streaky=False), moving=True)
    followed = MotionDetector(_moved(profile), fps=15, width=80)
    followed.learnt_from(motion, MOVE)
    for reach in [1.0] * after + [0.0] * 12:
        see(followed, _frame(reach, MOVE, streaky=False))
    return draws


def test_a_hand_at_the_stock_through_a_knock_drew() -> None:
    """Held-out game 15122 (no calibration, with a bump, run once at 82a7bdb): seat 0's hand came to the stock as
    the camera was knocked (ramp 0.16 s, the view followed 0.2 s later) and left 0.13 s after: 1 frame in the zone
    before the view was watched no more, 2 after, the knock's 3 not counted: too short a dwell for a draw (4 frames),
    and the draw was lost. The hand was there as the knock began and once it was followed: it was there between."""
    assert _draws(0, KNOCK, 1) == [3]


def test_a_hand_that_came_only_after_the_knock_is_judged_on_what_is_seen() -> None:
    """No hand at the stock as the camera began to move: the knock's frames are nobody's dwell."""
    assert _draws(0, 0, 1) == []


def test_a_hand_that_left_during_the_knock_is_not_lengthened() -> None:
    """A hand at the stock as the knock began and gone once the view is followed: nothing is added."""
    assert _draws(0, 2, 0) == []
