"""The motion detector skips work whose answer is known: an arm cannot reach past a zone that covers the view."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from referee.vision.calibration import CalibrationProfile
from referee.vision.tracking.arms import Zones
from referee.vision.tracking.motion import MotionDetector


@pytest.mark.parametrize("size", [(1280, 720), (640, 480), (720, 1280), (320, 240)])
def test_a_whole_frame_pile_has_no_arm_to_find(size: tuple[int, int]) -> None:
    motion = MotionDetector(CalibrationProfile.whole_frame(*size))
    assert not motion._pile_arms
    # Whatever stands out, even a blob from every edge and corner, reaches no further than the view's corners.
    zones = Zones(motion.profile, motion.scale)
    h, w = motion.pile_zone.shape
    for x0, y0 in itertools.product((0, w // 2, w - 3), (0, h // 2, h - 3)):
        foreground = np.zeros((h, w), bool)
        foreground[y0:y0 + 3, x0:x0 + 3] = True
        foreground[h // 2 - 1:h // 2 + 2, :] = True
        foreground[:, w // 2 - 1:w // 2 + 2] = True
        assert zones.arm_root(foreground, motion.pile_zone) is None


def test_a_calibrated_pile_looks_for_arms() -> None:
    pile = ((120.0, 80.0), (200.0, 80.0), (200.0, 160.0), (120.0, 160.0))
    seats = ((160.0, 235.0), (5.0, 120.0), (160.0, 5.0), (315.0, 120.0))
    motion = MotionDetector(CalibrationProfile((320, 240), pile, seats), fps=15, width=80)
    assert motion._pile_arms
    # An arm from the bottom edge into the pile zone: its root is found, and the sample says an arm is there.
    frame = np.full((240, 320, 3), 90, np.uint8)
    for _ in range(3):
        motion.update(frame, frame[80:160, 120:200])
    arm = frame.copy()
    arm[130:240, 150:170] = (40, 160, 230)
    sample = motion.update(arm, arm[80:160, 120:200])
    assert sample.arm_over_pile
