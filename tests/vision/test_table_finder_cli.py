"""``referee run --found-calibration FILE``: where the table found from the footage is saved."""

from __future__ import annotations

from pathlib import Path

from referee.cli import build_parser
from referee.commands import FOUND_CALIBRATION, _saver
from referee.vision.calibration import CalibrationProfile


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
