"""An arm whose shoulder the camera sees is an arm: its far end is where its player sits.

From the held-out real-card game 16114 (the thin-ring printing's photographed faces, no calibration): seat 0 sat inside
the wide view, at its top left, so its arms over the pile never touched the view's edge. The table finder took only
arms coming in from the edge, so seat 0's plays (the start card among them) gave the seat finder no sample, the seats
were never found in two minutes, and draws were given by the turn order (three made up, one to the wrong seat). The
motion detector's zones already took an arm reaching past the zone's corners, edge or not; the finder does too now.
"""

from __future__ import annotations

import numpy as np

from referee.vision.table_arms import ArmHistory

SHAPE = (72, 128)  # low resolution of a 1280x720 view
ZONE = np.zeros(SHAPE, bool)
ZONE[30:50, 90:110] = True  # the pile


def _arm(x0: int, y0: int) -> np.ndarray:
    """An arm from (x0, y0) (low-resolution pixels) to the pile's middle, three pixels thick."""
    fg = np.zeros(SHAPE, bool)
    for t in np.linspace(0.0, 1.0, 200):
        x, y = round(x0 + t * (100 - x0)), round(y0 + t * (40 - y0))
        fg[max(y - 1, 0):y + 2, max(x - 1, 0):x + 2] = True
    return fg


def test_an_arm_from_a_shoulder_in_view_reaching_past_the_zone_is_an_arm() -> None:
    arms = ArmHistory()
    arms.scale = 0.1
    root = arms.root(_arm(12, 18), ZONE)
    assert root is not None and abs(root[0] - 110) < 20 and abs(root[1] - 170) < 20  # camera pixels


def test_an_arm_from_the_edge_is_an_arm_as_before() -> None:
    arms = ArmHistory()
    arms.scale = 0.1
    assert arms.root(_arm(0, 5), ZONE) is not None


def test_a_hand_already_in_the_zone_is_no_arm() -> None:
    """What stays near the zone, not from its edge (a hand already over the pile, the cards lying there): no arm."""
    arms = ArmHistory()
    arms.scale = 0.1
    assert arms.root(_arm(90, 37), ZONE) is None
