"""Every thread a run starts is joined by the time it ends (issue 48).

A thread still running native code when the process exits (the clip writer in its encoder, the capture
in its decoder) aborts the process after its last frame: ``terminate called without an active
exception``, exit status -6. So the capture's reader, the clip writer and ``referee run --no-serve`` as a
whole leave no thread behind, and the clip writer is joined even when it is far behind (a loaded machine
gives its lowest priority next to nothing). ``benchmarks/stress_exit.py`` runs ``referee run`` two at a
time, several times, for the exit status (the slow test below).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

import referee.clips
from referee.bench import make_clip
from referee.clips import ClipRecorder, ClipStore
from referee.commands import execute
from referee.vision.capture import Capture
from referee.vision.detect import DEFAULT_MODEL

ROOT = Path(__file__).resolve().parent.parent


def new_threads(before: set[threading.Thread]) -> list[str]:
    """The threads alive now that were not before (their names)."""
    return sorted(t.name for t in threading.enumerate() if t not in before and t.is_alive())


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three seconds of the bench's footage (a card landing each second), small."""
    path = tmp_path_factory.mktemp("clip") / "clip.avi"
    make_clip(path, 90, (480, 270))
    return path


def test_the_capture_joins_its_reader_even_with_frames_unread(clip: Path) -> None:
    before = set(threading.enumerate())
    capture = Capture(clip, realtime=False).start()
    assert capture.read(timeout=10) is not None  # the rest stays unread: the reader waits on a full buffer
    capture.stop()
    assert new_threads(before) == []


def test_the_clip_writer_is_joined_when_far_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight clips queued behind a slow writer (0.3 s each): ``close`` writes them all and joins the writer
    well within a timeout shorter than the writer alone would need."""
    real = referee.clips.encode_clip

    def slow(*args: object, **kw: object) -> int:
        time.sleep(0.3)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(referee.clips, "encode_clip", slow)
    before = set(threading.enumerate())
    clips = ClipRecorder(ClipStore(tmp_path / "clips"))
    jpeg = bytes(cv2.imencode(".jpg", np.full((90, 160, 3), 128, np.uint8))[1])
    for i in range(30):
        clips.ring.add(i / 10, jpeg)
    play = {"type": "play", "card": "red_7", "seat": 1, "t": 2.0}
    for seq in range(1, 9):
        clips.on_event({"kind": "observation", "match_id": 1, "seq": seq, "observation": play, "outputs": []})
    start = time.monotonic()
    clips.close(timeout=1.5)  # the writer alone: 8 x 0.3 s
    assert new_threads(before) == []
    assert clips.written == 8 and sorted(clips.store.clips(1)) == list(range(1, 9))
    assert time.monotonic() - start < 10


def test_closing_twice_is_harmless(tmp_path: Path) -> None:
    before = set(threading.enumerate())
    clips = ClipRecorder(ClipStore(tmp_path / "clips"))
    clips.close(timeout=5)
    clips.close(timeout=5)
    assert new_threads(before) == []


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped detector model")
def test_referee_run_no_serve_leaves_no_thread_behind(tmp_path: Path, clip: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``referee run --source FILE --no-serve`` as shipped (no calibration: the table finder on; instant
    replays on, in a temporary folder): every thread it started is joined when it returns."""
    monkeypatch.chdir(tmp_path)  # the table found is saved under the working folder
    args = argparse.Namespace(
        rules="official", players=4, dealer=0, option=[], db=None, model=None, log=tmp_path / "out.jsonl",
        no_serve=True, calibration=None, realtime=False, host="127.0.0.1", port=0, token=None, script=None,
        found_calibration=tmp_path / "found.json", clips_mb=50.0,
    )
    before = set(threading.enumerate())
    out = (tmp_path / "stdout.jsonl").open("w")
    try:
        assert execute(args, str(clip), realtime=False, out=out) == 0
    finally:
        out.close()
    assert new_threads(before) == []
    lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert lines and lines[0]["type"] == "setup"


@pytest.mark.slow
@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped detector model")
def test_runs_two_at_a_time_all_exit_cleanly() -> None:
    """Three rounds of two ``referee run --no-serve`` at once: every one exits 0, no abort on stderr."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "stress_exit.py"), "--rounds", "3",
                           "--at-once", "2", "--frames", "90", "--size", "640x360"],
                          capture_output=True, text=True, timeout=900)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert done.returncode == 0, result["failed"]
    assert result["statuses"] == [0] * 6
