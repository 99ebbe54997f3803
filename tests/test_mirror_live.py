"""A live camera that mirrors its view: the referee says so, and ``--mirror`` reads it as the table lies.

The demo footage flipped left to right, run with no calibration: without ``--mirror`` the referee misreads its
cards (9 alerts where the footage has 2, on the day this was written) and warns that the view looks mirrored;
with ``--mirror`` its verdicts are the unflipped footage's, and nothing is said.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import cv2
import pytest

from referee.commands import demo_footage, execute
from referee.vision.mirror import MIRRORED_WARNING
from tests.test_pipeline import _args


def _verdicts(log: Path) -> list[tuple[str, object, object]]:
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    return [(d["type"], d.get("code") or d.get("card"), d.get("seat")) for d in lines if d["type"] != "info"]


@pytest.mark.slow
def test_the_demo_seen_in_a_mirror_is_said_to_be_and_read_as_the_table_lies_with_mirror(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    footage, operator, _ = demo_footage()
    flipped = tmp_path / "flipped.mp4"
    source = cv2.VideoCapture(str(footage))
    size = (int(source.get(cv2.CAP_PROP_FRAME_WIDTH)), int(source.get(cv2.CAP_PROP_FRAME_HEIGHT)))
    out = cv2.VideoWriter(str(flipped), cv2.VideoWriter_fourcc(*"mp4v"), source.get(cv2.CAP_PROP_FPS), size)
    while (got := source.read())[0]:
        out.write(cv2.flip(got[1], 1))
    out.release()
    source.release()

    def run(video: Path, name: str, *, mirror: bool) -> list[tuple[str, object, object]]:
        caplog.clear()
        args = _args(tmp_path, log=tmp_path / f"{name}.jsonl", script=operator, mirror=mirror,
                     found_calibration=tmp_path / f"{name}.found.json")
        with caplog.at_level(logging.WARNING):
            assert execute(args, str(video), realtime=False, paced=True) == 0
        return _verdicts(tmp_path / f"{name}.jsonl")

    plain = run(footage, "plain", mirror=False)
    assert MIRRORED_WARNING not in caplog.text
    assert run(flipped, "flipped", mirror=True) == plain
    assert MIRRORED_WARNING not in caplog.text
    misread = run(flipped, "misread", mirror=False)
    assert MIRRORED_WARNING in caplog.text
    assert misread != plain
