"""The motion detector with a pile zone that reaches the view's edge: a hand from that side is seen coming."""

from __future__ import annotations

import numpy as np
import pytest

from referee.vision.calibration import CalibrationProfile
from referee.vision.tracking import MotionDetector

cv2 = pytest.importorskip("cv2")

PILE = ((120.0, 130.0), (230.0, 130.0), (230.0, 240.0), (120.0, 240.0))  # down to the view's bottom edge
SEATS = ((175.0, 300.0), (-20.0, 185.0), (175.0, -20.0), (340.0, 185.0))


def _hand(start: tuple[int, int], end: tuple[int, int], steps: int) -> list[np.ndarray]:
    """A dark arm reaching from ``start`` towards ``end`` on a light table, held there, then drawn back."""
    frames = []
    for k in [0.0] * 4 + [i / steps for i in range(1, steps + 1)] + [1.0] * 4 + [0.5, 0.0] + [0.0] * 8:
        image = np.full((240, 320, 3), 200, np.uint8)
        if k > 0:
            tip = (int(start[0] + k * (end[0] - start[0])), int(start[1] + k * (end[1] - start[1])))
            cv2.line(image, start, tip, (40, 40, 40), 18)
        frames.append(image)
    return frames


def test_a_hand_from_the_edge_the_pile_zone_reaches_gives_its_seat() -> None:
    """Game 15062 with a bump: the followed pile zone reached the bottom edge of the view, so the hand of the seat
    there (seat 3) came in with no motion around the zone on that side and no arm past its corners: its motion
    began inside the zone, and the seat of the hand before (seat 1) stood for three of its plays (6 sure false
    alerts). Motion at the view's edge within the zone is a hand coming in from outside the view."""
    motion = MotionDetector(CalibrationProfile((320, 240), PILE, SEATS), fps=15, width=80)
    seats = [motion.update(f, f[130:240, 120:230]).seat for f in _hand((0, 185), (175, 185), 6)]
    assert seats[-1] == 1  # a hand from the left, its motion around the zone
    seats = [motion.update(f, f[130:240, 120:230]).seat for f in _hand((175, 239), (175, 185), 3)]
    assert seats[-1] == 0  # from the bottom edge, the zone's own
