"""The frame in which a knocked camera's move is followed is not read: its pile view was cut where the zones
lay before the knock, so it shows the cards shifted, and the tracker took the top card, seen in its place again
the next frame, for a card like it sliding in.

From games 15059 and 15065 (dev; generated, a knock in every game, calibrated or not): the green draw two and
the red 5 on top of the pile were each played a second time just after the knock (false plays, judged out of
turn).
"""

from __future__ import annotations

import cv2
import numpy as np

from referee.pipeline import Pipeline
from referee.session import MatchSession
from referee.store import Store
from referee.vision.calibration import CalibrationProfile
from referee.vision.capture import Frame
from referee.vision.detections import Detections
from referee.vision.table_finder import TableFinder
from referee.vision.tracking import MotionSample, TrackerEvent
from tests.vision.test_table_finder_bump import plain_table_with_cards


class NoCards:
    """A detector that finds nothing (what the tracker is shown is all the test looks at)."""

    face_names: tuple[str, ...] = ()

    def detect(self, image: np.ndarray) -> Detections:
        return Detections.empty()


def test_the_frame_a_knock_is_followed_in_is_not_read() -> None:
    profile = CalibrationProfile(
        (1280, 720), ((380.0, 180.0), (920.0, 180.0), (920.0, 560.0), (380.0, 560.0)),
        ((640.0, 719.0), (0.0, 360.0), (640.0, 0.0), (1279.0, 360.0)),
        stock=((960.0, 300.0), (1100.0, 300.0), (1100.0, 440.0), (960.0, 440.0)))
    finder = TableFinder(4, given=profile, fps=15.0)
    session = MatchSession(Store(":memory:"), players=4, dealer=0)
    pipeline = Pipeline(NoCards(), session, profile=profile, players=4, fps=15.0, finder=finder)
    fresh_at: dict[int, bool] = {}
    update = pipeline.tracker.update

    def seen(detections: Detections, t: float, frame_index: int, motion: MotionSample | None = None, *,
             fresh: bool = True) -> list[TrackerEvent]:
        fresh_at[frame_index] = fresh
        return update(detections, t, frame_index, motion, fresh=fresh)

    pipeline.tracker.update = seen  # type: ignore[method-assign]
    image = plain_table_with_cards()

    def knocked(share: float) -> np.ndarray:  # the camera slid ``share`` of the way
        knock = cv2.getRotationMatrix2D((640.0, 360.0), 2.0 * share, 1.0)
        knock[:, 2] += (30.0 * share, -24.0 * share)
        out: np.ndarray = cv2.warpAffine(image, knock, (1280, 720), borderMode=cv2.BORDER_REFLECT)
        return out

    followed_in = None
    for k in range(60):  # still, then knocked over four frames (0.27 s), then still again
        pipeline.step(Frame(knocked(min(max(k - 19, 0), 4) / 4), k, k / 15.0))
        if finder.bumps and followed_in is None:
            followed_in = k
        if followed_in is not None and k > followed_in:
            break
    assert followed_in is not None, "the knock was not followed"
    assert fresh_at[followed_in] is False  # cut by the zones before the knock: not read
    assert fresh_at[followed_in + 1] is True  # the zones moved with the camera: read at once
