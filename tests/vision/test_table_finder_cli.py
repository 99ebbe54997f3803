"""``referee run --found-calibration FILE``: where the table found from the footage is saved; with
``--calibration``, a finder that only follows a knocked camera."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from referee.cli import build_parser
from referee.commands import FOUND_CALIBRATION, _saver, table_finder
from referee.pipeline import Pipeline
from referee.session import MatchSession
from referee.store import Store
from referee.vision.calibration import CalibrationProfile
from referee.vision.capture import Frame
from referee.vision.detections import Detections
from referee.vision.table_finder import TableFinder


def test_run_takes_where_the_found_table_is_saved() -> None:
    args = build_parser().parse_args(["run", "--source", "game.mp4", "--found-calibration", "tables/kitchen.json"])
    assert args.found_calibration == Path("tables/kitchen.json")
    assert build_parser().parse_args(["run", "--source", "0"]).found_calibration is None  # the default below
    assert Path("calibration/found.json") == FOUND_CALIBRATION


def test_the_found_table_is_saved_there_and_loads_as_a_calibration(tmp_path: Path) -> None:
    found = CalibrationProfile.whole_frame(1280, 720, 4)
    where = tmp_path / "tables" / "kitchen.json"
    _saver(where)(found)
    assert CalibrationProfile.load(where).to_dict() == found.to_dict()


def test_a_calibrated_run_gets_a_finder_that_only_follows_the_camera(tmp_path: Path) -> None:
    args = build_parser().parse_args(["run", "--source", "game.mp4", "--players", "4",
                                      "--found-calibration", str(tmp_path / "found.json")])
    given = CalibrationProfile.from_corners(((400.0, 200.0), (700.0, 200.0), (700.0, 500.0), (400.0, 500.0)),
                                            1280, 720, players=4)
    follows = table_finder(args, given, 15.0)
    assert follows.given is given and follows.on_found is None and follows.unsure is None
    finds = table_finder(args, None, 15.0)
    assert finds.given is None and finds.on_found is not None


class NothingDetector:
    """Sees no card."""

    face_names = ("5",)

    def detect(self, image: npt.NDArray[np.uint8]) -> Detections:
        return Detections.empty()


def test_a_calibrated_pipeline_moves_its_profile_with_a_knocked_camera() -> None:
    """A calibrated run built no finder, so a knocked camera left its pile zone where the table was
    (generated held-out games with a bump, calibrated: 8 false alerts); now the profile follows."""
    given = CalibrationProfile.from_corners(((400.0, 200.0), (700.0, 200.0), (700.0, 500.0), (400.0, 500.0)),
                                            1280, 720, players=4)
    finder = TableFinder(4, given=given, fps=15.0)
    session = MatchSession(Store(":memory:"), players=4, dealer=0)
    pipeline = Pipeline(NothingDetector(), session, profile=given, players=4, fps=15.0, finder=finder)
    rng = np.random.default_rng(3)
    table = cv2.GaussianBlur(rng.integers(60, 200, (720, 1280, 3)).astype(np.uint8), (0, 0), 3)
    knock = np.array([[1, 0, 40], [0, 1, 25]], np.float64)
    knocked = cv2.warpAffine(table, knock, (1280, 720), borderMode=cv2.BORDER_REFLECT)
    for i in range(40):
        pipeline.step(Frame(table if i < 10 else knocked, i, i / 15, i / 15))
    assert pipeline.profile is not None and finder.bumps
    assert pipeline.profile.pile[0] == pytest.approx((440.0, 225.0), abs=2.0)
    assert pipeline.profile.method == given.method  # moved, not found: nothing saved over the file
