"""A calibration set while the pipeline runs: applied between frames, the pile zone used changes, the
cards known on the pile stay known, and where cards landed is kept for the suggested pile zone."""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt
import pytest

from referee.pipeline import Pipeline
from referee.session import MatchSession
from referee.store import Store
from referee.vision.calibration import CalibrationProfile
from referee.vision.capture import Frame
from referee.vision.detections import Detections
from referee.vision.recalibration import LiveProfile, suggest_pile_zone, view_mover
from tests.test_pipeline import ColourDetector, _game

FPS = 30.0
#: The pile zone clicked: around where the game's cards land (centres (150, 120) and (175, 125)).
ZONE = ((60.0, 30.0), (270.0, 30.0), (270.0, 220.0), (60.0, 220.0))


class ViewSizes(ColourDetector):
    """The colour detector, noting the size of each pile view it is shown."""

    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[tuple[int, int]] = []

    def detect(self, image: npt.NDArray[np.uint8]) -> Detections:
        self.sizes.append((image.shape[1], image.shape[0]))
        return super().detect(image)


def frame(image: npt.NDArray[np.uint8], i: int) -> Frame:
    return Frame(image=image, t=i / FPS, frame_index=i, captured_at=i / FPS)


def test_a_profile_set_live_changes_the_pile_zone_between_frames_and_keeps_the_pile() -> None:
    session = MatchSession(Store(":memory:"), players=4)
    detector = ViewSizes()
    pipeline = Pipeline(detector, session, players=4, fps=FPS)
    frames = _game()
    laid_first = 8 + 29  # the start card has settled by here
    for i, image in enumerate(frames[:laid_first]):
        pipeline.step(frame(image, i))
    assert pipeline.profile is not None and pipeline.profile.is_whole_frame
    assert [o["type"] for o in session.export_log()] == ["setup", "start"]
    before = pipeline.current_profile()
    assert before is not None and before.pile_size == (320, 240)

    clicked = CalibrationProfile((320, 240), ZONE, before.seats, method="clicked")
    pipeline.set_profile(clicked)
    assert pipeline.current_profile() == clicked  # what the page reads back at once
    assert pipeline.profile is not None and pipeline.profile.is_whole_frame  # nothing changes mid-frame
    pipeline.step(frame(frames[laid_first], laid_first))
    assert pipeline.profile == clicked
    assert pipeline.profile.pile_size == (210, 190) and detector.sizes[-1] == (210, 190)  # the new view
    # The start card is still the pile's, moved into the new view: (150 - 60 - 20, 120 - 30 - 30) ...
    top = pipeline.tracker.top
    assert top is not None and top.label == "red_5"
    assert top.xyxy.tolist() == pytest.approx([70, 60, 110, 120], abs=1.5)
    for i in range(laid_first + 1, len(frames)):
        pipeline.step(frame(frames[i], i))
    # ... so it was not taken for a new card, and the next card is read in the new view.
    assert [(o["type"], o.get("card")) for o in session.export_log()] == [
        ("setup", None), ("start", "red_5"), ("play", "red_7")]
    # Both cards landed, noted in camera pixels whatever the view was.
    landed = pipeline.landed_cards((320, 240))
    assert len(landed) == 2
    assert np.ravel(landed[0]).tolist() == pytest.approx([130, 90, 170, 90, 170, 150, 130, 150], abs=1.5)
    assert np.ravel(landed[1]).tolist() == pytest.approx([155, 95, 195, 95, 195, 155, 155, 155], abs=1.5)


def test_a_profile_for_another_frame_size_is_fitted_to_the_camera() -> None:
    pipeline = Pipeline(ColourDetector(), MatchSession(Store(":memory:"), players=4), players=4, fps=FPS)
    still = _game()[0]
    pipeline.step(frame(still, 0))
    double = tuple((2 * x, 2 * y) for x, y in ZONE)
    pipeline.set_profile(CalibrationProfile((640, 480), double, CalibrationProfile.whole_frame(640, 480).seats))  # type: ignore[arg-type]
    pipeline.step(frame(still, 1))
    assert pipeline.profile is not None and pipeline.profile.pile == ZONE


def test_the_last_request_before_a_frame_wins_and_requests_from_threads_are_safe() -> None:
    live = LiveProfile()
    profiles = [CalibrationProfile.from_corners(((10.0 + k, 10.0), (200.0, 10.0), (200.0, 200.0), (10.0, 200.0)),
                                                320, 240) for k in range(8)]
    threads = [threading.Thread(target=live.request, args=(p,)) for p in profiles]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    taken = live.take()
    assert taken in profiles and live.take() is None and live.pending() is None


def test_landed_cards_are_bounded_and_scaled_to_the_frame_asked_for() -> None:
    live = LiveProfile(kept=4)
    for k in range(10):
        live.note_landed([(10.0 + k, 10.0), (50.0 + k, 10.0), (50.0 + k, 70.0), (10.0 + k, 70.0)], (320, 240))
    landed = live.landed((640, 480))
    assert len(landed) == 4 and landed[0][0] == (32.0, 20.0)  # the newest four, doubled
    assert suggest_pile_zone(landed[:2], (640, 480)) is None


def test_a_card_leaving_the_new_view_is_forgotten() -> None:
    old = CalibrationProfile.whole_frame(320, 240)
    new = CalibrationProfile.from_corners(ZONE, 320, 240)
    move = view_mover(old, new)
    inside = move(np.array([130, 90, 170, 150], np.float32))
    assert inside is not None and inside.tolist() == pytest.approx([70, 60, 110, 120], abs=0.5)
    assert move(np.array([0, 0, 40, 40], np.float32)) is None  # mostly outside the new zone
