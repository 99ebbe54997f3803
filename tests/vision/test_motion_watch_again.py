"""A hand that came to the stock as the camera was knocked and left before the view was followed: the frames the
view already held still in, where it is followed, are watched again at the stock (``MotionDetector.learnt_from``'s
``still``, ``StockWatch.watch_again``)."""

from __future__ import annotations

import numpy as np
import pytest

from referee.vision.calibration import CalibrationProfile
from referee.vision.camera_follower import BUMP_CHECKS
from referee.vision.tracking import MotionDetector
from tests.vision.test_motion_bump import MOVE, PILE, SEATS, STOCK, _frame, _moved

cv2 = pytest.importorskip("cv2")

KNOCK = 3  # frames the camera moves for (0.2 s)


def _draws(hand: list[float], *, still: int, streaky: bool = False) -> list[int | None]:
    """Draws the pipeline hears: the table still, the camera knocked (:data:`KNOCK` frames moving), then
    :data:`BUMP_CHECKS` frames at rest in the moved view, still taken for moving (a follower takes a view for still
    once that many checks agree on its move), seat 3's hand reaching ``hand[k]`` of the way to the stock in the k-th
    of those frames; then the view followed, its detector told the last ``still`` frames were at rest, and no hand."""
    profile = CalibrationProfile((320, 240), PILE, SEATS, stock=STOCK)
    motion = MotionDetector(profile, fps=15, width=80)
    draws: list[int | None] = []

    def see(detector: MotionDetector, image: np.ndarray, moving: bool = False) -> None:
        draws.extend(detector.heard(detector.update(image, image[80:170, 100:180]), moving).draws)

    for _ in range(8):
        see(motion, _frame(0.0, streaky=streaky))
    for k in range(KNOCK):
        part = np.array([[1.0, 0.0, MOVE[0, 2] * (k + 1) / KNOCK], [0.0, 1.0, MOVE[1, 2] * (k + 1) / KNOCK]])
        see(motion, _frame(0.6 if k == KNOCK - 1 and hand else 0.0, part, streaky=streaky), moving=True)
    for reach in hand or [0.0] * BUMP_CHECKS:
        see(motion, _frame(reach, MOVE, streaky=streaky), moving=True)
    followed = MotionDetector(_moved(profile), fps=15, width=80)
    followed.learnt_from(motion, MOVE, still=still)
    for _ in range(12):
        see(followed, _frame(0.0, MOVE, streaky=streaky))
    return draws


def test_a_hand_that_drew_while_the_camera_was_taken_for_moving_drew() -> None:
    """Game 15116 (the spent held-out set 15114-15125; no calibration, a bump): the camera was knocked at 35.71 s
    (ramp 0.25 s), seen moving from 35.80 s and followed at 36.20 s; seat 3's hand came to the stock at 35.80 s, in
    the first frame seen moving, and had left by the follow. The frames from 36.00 s showed the view at rest in its
    new place with the hand at the stock (the follower's three checks that agreed on the move), but the camera was
    taken for moving till the follow, so nothing watched them, and the draw was lost. They are watched again in
    the followed view's zones."""
    assert _draws([1.0] * BUMP_CHECKS, still=BUMP_CHECKS) == [3]
    assert _draws([1.0] * BUMP_CHECKS, still=0) == []  # as before: nobody watched those frames


@pytest.mark.parametrize("streaky", [False, True])
def test_the_frames_watched_again_with_no_hand_draw_nothing(streaky: bool) -> None:
    """The view at rest, no hand at the stock: the moved picture of the table matches what those frames show."""
    assert _draws([], still=BUMP_CHECKS, streaky=streaky) == []


def test_a_hand_only_passing_by_in_those_frames_draws_nothing() -> None:
    """A hand seen at the stock in one of those frames only (on its way elsewhere) dwelt too little for a draw."""
    assert _draws([0.0, 1.0, 0.0], still=BUMP_CHECKS) == []
