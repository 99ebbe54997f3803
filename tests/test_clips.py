"""Instant replays (referee.clips): the frame ring, the cut around an observation, the per-match cap, and a
corrected play keeping its clip."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.clips import (
    ClipRecorder,
    ClipStore,
    FrameRing,
    StreamFrame,
    clips_dir_for,
    encode_clip,
    recorder_for,
)
from referee.session import MatchSession
from referee.store import Store

FPS = 10


def jpeg(value: int, size: tuple[int, int] = (160, 120)) -> bytes:
    """A small JPEG whose grey level says which frame it is."""
    image = np.full((size[1], size[0], 3), value % 256, np.uint8)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return bytes(data)


def frame_values(path: Path) -> list[int]:
    """The grey level of each frame of a written clip (to tell which frames went in)."""
    video = cv2.VideoCapture(str(path))
    values = []
    while True:
        ok, image = video.read()
        if not ok:
            break
        values.append(round(float(image.mean())))
    video.release()
    return values


def feed(ring: FrameRing, start: float, end: float) -> None:
    """Frames at FPS from ``start`` to ``end`` (footage seconds), each grey level = 10 x its second."""
    n = round((end - start) * FPS)
    for i in range(n + 1):
        t = start + i / FPS
        ring.add(t, jpeg(round(t * 10)))


# The ring.
def test_the_ring_keeps_only_its_seconds_and_cuts_by_time() -> None:
    ring = FrameRing(seconds=3.0)
    feed(ring, 0.0, 10.0)
    assert ring.latest == pytest.approx(10.0)
    kept = ring.since(0.0)
    assert kept[0].t >= 7.0 - 1e-9 and len(kept) == 31
    window = ring.since(8.0, 9.0)
    assert [round(f.t, 1) for f in window] == [round(8.0 + i / 10, 1) for i in range(11)]


def test_the_ring_starts_again_when_the_footage_does() -> None:
    ring = FrameRing(seconds=5.0)
    feed(ring, 0.0, 2.0)
    ring.add(0.0, jpeg(0))  # a new file: time starts over
    assert len(ring) == 1


def test_a_wait_for_frames_ends_when_they_come_or_the_footage_ends() -> None:
    ring = FrameRing()
    ring.add(1.0, jpeg(1))
    assert not ring.wait_until(2.0, timeout=0.05)
    threading.Timer(0.05, lambda: ring.add(2.5, jpeg(2))).start()
    assert ring.wait_until(2.0, timeout=5.0)
    threading.Timer(0.05, ring.end).start()
    assert not ring.wait_until(9.0, timeout=5.0)  # returned at the end, long before the timeout


# Encoding.
def test_a_clip_is_webm_at_the_frames_own_pace(tmp_path: Path) -> None:
    frames = [StreamFrame(i / FPS, jpeg(i * 20, (321, 241))) for i in range(12)]
    path = tmp_path / "clip.webm"
    assert encode_clip(frames, path, width=200) == 12
    data = path.read_bytes()
    assert data[:4] == b"\x1a\x45\xdf\xa3"  # EBML: Matroska/WebM
    video = cv2.VideoCapture(str(path))
    assert video.get(cv2.CAP_PROP_FPS) == pytest.approx(FPS, rel=0.05)
    assert (video.get(cv2.CAP_PROP_FRAME_WIDTH), video.get(cv2.CAP_PROP_FRAME_HEIGHT)) == (200, 150)
    video.release()
    # A stream frame twice the clip's width or more is decoded small at once; the clip's size is the same.
    wide = [StreamFrame(i / FPS, jpeg(i * 20, (961, 541))) for i in range(3)]
    assert encode_clip(wide, tmp_path / "wide.webm", width=240) == 3
    video = cv2.VideoCapture(str(tmp_path / "wide.webm"))
    assert (video.get(cv2.CAP_PROP_FRAME_WIDTH), video.get(cv2.CAP_PROP_FRAME_HEIGHT)) == (240, 134)
    video.release()
    assert encode_clip([StreamFrame(0.0, b"not a jpeg")], tmp_path / "none.webm") == 0
    assert not (tmp_path / "none.webm").exists()


# The store and its cap.
def test_clips_live_beside_the_record() -> None:
    assert clips_dir_for("/data/referee.db") == Path("/data/referee-clips")
    assert clips_dir_for(":memory:") is None and clips_dir_for(None) is None


def test_the_cap_drops_the_oldest_clips_first(tmp_path: Path) -> None:
    store = ClipStore(tmp_path, cap_bytes=2500)
    for order, seq in enumerate((3, 1, 2), 1):  # written in this order: 3 is the oldest
        part = store.part_path(7, seq)
        part.write_bytes(b"x" * 1000)
        os.utime(part, ns=(order * 10**9, order * 10**9))
        store.put(7, seq, part)
    assert sorted(store.clips(7)) == [1, 2]
    assert store.find(7, 3) is None and store.find(7, 1) is not None
    # Another match has a cap of its own.
    part = store.part_path(8, 1)
    part.write_bytes(b"x" * 2000)
    store.put(8, 1, part)
    assert store.clips(8) == {1: 2000} and sorted(store.clips(7)) == [1, 2]
    with pytest.raises(ValueError):
        ClipStore(tmp_path, cap_bytes=0)


def test_no_clips_when_the_cap_is_zero(tmp_path: Path) -> None:
    assert recorder_for(tmp_path / "a.db", 0) is None
    recorder = recorder_for(tmp_path / "a.db", 1.5)
    assert recorder is not None
    try:
        assert recorder.store.root == tmp_path / "a-clips" and recorder.store.cap_bytes == round(1.5 * 2**20)
    finally:
        recorder.close()


# The recorder on a live session.
@pytest.fixture
def match() -> MatchSession:
    session = MatchSession(Store(":memory:"), players=3)
    session.submit({"type": "start", "card": "red_5", "t": 0.5})
    return session


def recorder(tmp_path: Path, session: MatchSession, **kw: float) -> ClipRecorder:
    clips = ClipRecorder(ClipStore(tmp_path / "clips"), **kw)  # type: ignore[arg-type]
    session.add_listener(clips.on_event)
    return clips


def test_a_play_gets_the_seconds_before_it_settled_and_one_after(tmp_path: Path, match: MatchSession) -> None:
    clips = recorder(tmp_path, match)
    try:
        feed(clips.ring, 0.0, 6.0)
        seq = match.submit_event({"type": "play", "card": "red_7", "seat": 1, "t": 6.0})["seq"]
        assert clips.ring.latest == pytest.approx(6.0)
        assert match.store.observations(match.match_id)[-1].seq == seq
        # The after-part has not come: nothing written yet.
        assert not clips.wait_idle(0.2) and clips.store.find(match.match_id, seq) is None
        feed(clips.ring, 6.1, 7.5)
        assert clips.wait_idle(30)
        path = clips.store.find(match.match_id, seq)
        assert path is not None
        values = frame_values(path)
        # 2.0 .. 7.0 s at 10 fps: grey levels 20 .. 70 (JPEG and VP8 blur them a little).
        assert len(values) == 51
        assert abs(values[0] - 20) <= 3 and abs(values[-1] - 70) <= 3
    finally:
        clips.close()


def test_an_alert_without_a_card_gets_a_clip_and_a_quiet_observation_none(tmp_path: Path) -> None:
    clips = ClipRecorder(ClipStore(tmp_path / "clips"))
    try:
        feed(clips.ring, 0.0, 3.0)
        alert = {"type": "alert", "code": "missed_uno", "seat": 0, "penalty_cards": 2, "message": "..."}
        draw = {"type": "draw", "seat": 1, "count": 1}
        clips.on_event({"kind": "observation", "match_id": 4, "seq": 8, "observation": draw, "outputs": []})
        # No t: the newest frame's.
        clips.on_event({"kind": "observation", "match_id": 4, "seq": 9, "observation": draw, "outputs": [alert]})
        clips.on_event({"kind": "undo", "match_id": 4, "seq": 9, "observation": draw, "outputs": []})
        clips.ring.end()
        assert clips.wait_idle(30)
        assert sorted(clips.store.clips(4)) == [9]
    finally:
        clips.close()


def test_a_corrected_play_keeps_its_clip_written_or_queued(tmp_path: Path, match: MatchSession) -> None:
    clips = recorder(tmp_path, match)
    try:
        feed(clips.ring, 0.0, 3.0)
        first = match.submit_event({"type": "play", "card": "red_7", "seat": 1, "t": 3.0})["seq"]
        # Corrected before its clip is written (the tracker's re-read comes within a second) ...
        fixed = match.correct("red_8", source="camera")["seq"]
        feed(clips.ring, 3.1, 4.5)
        assert clips.wait_idle(30)
        assert sorted(clips.store.clips(match.match_id)) == [fixed]
        # ... and after: the operator's correction.
        again = match.correct("red_9")["seq"]
        assert sorted(clips.store.clips(match.match_id)) == [again]
        assert first < fixed < again
    finally:
        clips.close()


def test_without_frames_there_is_no_clip(tmp_path: Path, match: MatchSession) -> None:
    clips = recorder(tmp_path, match)
    try:
        match.submit({"type": "play", "card": "red_7", "seat": 1})
        assert clips.wait_idle(5) and clips.store.clips(match.match_id) == {}
    finally:
        clips.close()


def test_close_writes_what_is_queued_beside_a_record(tmp_path: Path, match: MatchSession) -> None:
    clips = ClipRecorder.beside(tmp_path / "referee.db")
    match.add_listener(clips.on_event)
    feed(clips.ring, 0.0, 2.0)
    seq = match.submit_event({"type": "play", "card": "red_7", "seat": 1, "t": 2.0})["seq"]
    clips.close()  # the footage ended before the after-part: the clip takes what there is
    assert clips.written == 1 and clips.store.find(match.match_id, seq) is not None


def test_close_removes_a_temporary_folder_without_writing_into_it(match: MatchSession) -> None:
    """A run with no record keeps its clips only while it runs: what is still queued at the end is not
    written into a folder about to go (work for no one, at the process's exit)."""
    clips = ClipRecorder.beside(None)
    match.add_listener(clips.on_event)
    clips.ring.add(0.0, jpeg(0))
    clips.ring.add(2.0, jpeg(20))
    # Held by the writer until the after-part comes, and then one more queued behind it.
    match.submit_event({"type": "play", "card": "red_7", "seat": 1, "t": 2.0})
    match.submit_event({"type": "play", "card": "red_8", "seat": 2, "t": 2.0})
    root = clips.store.root
    assert root.is_dir()
    clips.close()
    assert clips.written + clips.unwritten == 2 and clips.unwritten >= 1
    assert not root.exists()


def test_a_writer_far_behind_skips_new_clips_rather_than_hold_their_frames(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("referee.clips.MAX_PENDING", 2)
    clips = ClipRecorder(ClipStore(tmp_path / "clips"), max_wait_s=30.0)
    try:
        feed(clips.ring, 0.0, 2.0)
        draw = {"type": "play", "card": "red_7", "seat": 1, "t": 2.0}
        for seq in (5, 6, 7):  # their after-part has not come: the writer waits on the first
            clips.on_event({"kind": "observation", "match_id": 1, "seq": seq, "observation": draw, "outputs": []})
        clips.ring.end()
        assert clips.wait_idle(30)
        assert sorted(clips.store.clips(1)) == [5, 6]
    finally:
        clips.close()
