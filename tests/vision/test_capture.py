"""Capture: sources, frame order and time, newest-frame-only, corrupt frames, reconnect with back-off."""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.live_status import CameraStatus
from referee.vision.capture import (
    CameraState,
    Capture,
    Image,
    SourceKind,
    SourceSpec,
    parse_source,
)


def _image(value: int, size: tuple[int, int] = (48, 64)) -> Image:
    return np.full((*size, 3), value % 256, np.uint8)


class FakeCamera:
    """A live reader: ``frames`` images, then it stops delivering (read fails)."""

    def __init__(self, frames: int, start: int = 0, gate: threading.Event | None = None) -> None:
        self.left = frames
        self.value = start
        self.gate = gate
        self.released = False

    @property
    def fps(self) -> float | None:
        return 30.0

    def read(self) -> tuple[bool, Image | None]:
        if self.gate is not None:
            self.gate.wait(1.0)
        if self.left <= 0:
            return False, None
        self.left -= 1
        self.value += 1
        return True, _image(self.value)

    def at_end(self) -> bool:
        return False

    def release(self) -> None:
        self.released = True


@pytest.mark.parametrize(
    ("text", "kind"),
    [("0", SourceKind.CAMERA), ("2", SourceKind.CAMERA), ("rtsp://cam.local/live", SourceKind.STREAM),
     ("http://10.0.0.2:8080/video", SourceKind.STREAM)],
)
def test_parse_source(text: str, kind: SourceKind) -> None:
    assert parse_source(text).kind is kind


def test_parse_source_paths(tmp_path: Path) -> None:
    video = tmp_path / "a.mp4"
    video.write_bytes(b"x")
    assert parse_source(str(tmp_path)) == SourceSpec(SourceKind.FOLDER, str(tmp_path))
    assert parse_source(video).kind is SourceKind.FILE
    with pytest.raises(FileNotFoundError, match=r"nope\.mp4"):
        parse_source(tmp_path / "nope.mp4")


def test_video_file_delivers_every_frame_in_order_with_file_time(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (64, 48))
    for i in range(12):
        writer.write(_image(i * 20))
    writer.release()
    with Capture(path) as capture:
        frames = list(capture)
    assert [f.frame_index for f in frames] == list(range(12))
    assert [f.t for f in frames] == pytest.approx([i / 10 for i in range(12)])
    assert [int(f.image.mean()) for f in frames] == pytest.approx([i * 20 for i in range(12)], abs=3)
    status = capture.status()
    assert status.state is CameraState.ENDED and status.dropped == 0 and status.corrupt == 0
    # the session's status is set piecemeal, so no key of CameraStatus is required: the capture gives each
    assert list(status.as_dict()) == list(CameraStatus.__annotations__)


def test_folder_skips_and_counts_a_corrupt_image(tmp_path: Path) -> None:
    for i in range(4):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), _image(40 * i))
    (tmp_path / "002.png").write_bytes(b"not a png")
    with Capture(tmp_path) as capture:
        frames = list(capture)
    assert [f.frame_index for f in frames] == [0, 1, 3]
    assert capture.status().corrupt == 1
    assert capture.status().state is CameraState.ENDED


def test_a_mirrored_capture_flips_every_frame_left_to_right(tmp_path: Path) -> None:
    """``referee run --mirror``: a camera that mirrors its view (a selfie view) seen as the table lies."""
    image = np.zeros((20, 30, 3), np.uint8)
    image[:, :10] = 255  # white on the left
    cv2.imwrite(str(tmp_path / "000.png"), image)
    with Capture(tmp_path, mirror=True) as capture:
        (frame,) = list(capture)
    assert frame.image[:, 20:].min() == 255 and frame.image[:, :20].max() == 0  # white on the right
    with Capture(tmp_path) as capture:
        (frame,) = list(capture)
    assert np.array_equal(frame.image, image)


def test_live_source_keeps_only_the_newest_frame() -> None:
    camera = FakeCamera(frames=50)
    capture = Capture(SourceSpec(SourceKind.CAMERA, 0), opener=lambda spec: camera, max_reconnects=0)
    capture.start()
    # Let the camera run ahead of a slow consumer.
    for _ in range(200):
        if camera.left == 0:
            break
        threading.Event().wait(0.005)
    frames = []
    while (frame := capture.read(timeout=2.0)) is not None:
        frames.append(frame)
    capture.stop()
    assert len(frames) < 50
    assert frames[-1].frame_index == 49  # the newest frame is never lost
    assert capture.status().dropped == 50 - len(frames)


class FakeFile(FakeCamera):
    """A file reader: ``frames`` images, then its end."""

    def at_end(self) -> bool:
        return self.left <= 0


def _slow_consumer(capture: Capture, seconds: float) -> list[int]:
    """Take frames as a busy pipeline would, ``seconds`` each; the indices it was given."""
    seen = []
    with capture:
        while (frame := capture.read(timeout=2.0)) is not None:
            seen.append(frame.frame_index)
            threading.Event().wait(seconds)
    return seen


def test_a_paced_file_on_a_busy_machine_runs_late_and_skips_nothing() -> None:
    # 30 frames at 200 fps are 0.15 s of footage; a consumer taking 10 ms a frame needs 0.3 s.
    capture = Capture(SourceSpec(SourceKind.FILE, "game.mp4"), paced=True, fps=200.0,
                      opener=lambda spec: FakeFile(frames=30))
    assert _slow_consumer(capture, 0.01) == list(range(30))
    assert capture.status().dropped == 0
    assert capture.status().late_s > 0.05


def test_a_realtime_file_on_a_busy_machine_drops_frames_like_a_camera() -> None:
    capture = Capture(SourceSpec(SourceKind.FILE, "game.mp4"), realtime=True, fps=200.0,
                      opener=lambda spec: FakeFile(frames=30))
    seen = _slow_consumer(capture, 0.01)
    assert len(seen) < 30 and seen == sorted(seen) and seen[-1] == 29
    assert capture.status().dropped == 30 - len(seen)


def test_a_paced_file_is_held_to_its_frame_rate() -> None:
    clock = [0.0]
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        clock[0] += seconds

    capture = Capture(SourceSpec(SourceKind.FILE, "game.mp4"), paced=True, fps=10.0,
                      opener=lambda spec: FakeFile(frames=5), clock=lambda: clock[0], sleep=sleep)
    assert [f.frame_index for f in capture] == [0, 1, 2, 3, 4]
    assert sum(sleeps) == pytest.approx(0.4)  # frame k not before k / 10 s


def test_camera_that_stops_is_retried_with_backoff_and_reported() -> None:
    sleeps: list[float] = []
    readers = [FakeCamera(frames=3), None, FakeCamera(frames=2, start=100)]
    opened: list[FakeCamera | None] = []

    def opener(spec: SourceSpec) -> FakeCamera:
        reader = readers.pop(0) if readers else None
        opened.append(reader)
        if reader is None:
            raise OSError("camera unplugged")
        return reader

    capture = Capture(
        SourceSpec(SourceKind.CAMERA, 0), opener=opener, sleep=sleeps.append,
        backoff=(0.5, 4.0), max_reconnects=1,
    )
    values = [int(frame.image[0, 0, 0]) for frame in capture]
    # Newest-only may drop some frames; the reconnected camera's last frame always arrives.
    assert values[-1] == 102
    assert set(values) <= {1, 2, 3, 101, 102}
    status = capture.status()
    assert status.state is CameraState.FAILED  # the reopened camera stopped too, out of retries
    assert status.reconnects == 2
    assert sleeps == [0.5, 1.0, 0.5, 1.0]  # exponential back-off, reset by a good frame
    assert all(r is None or r.released for r in opened)


def test_unopenable_file_fails_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "broken.mp4"
    path.write_bytes(b"garbage")
    capture = Capture(path)
    assert list(capture) == []
    assert capture.status().state is CameraState.FAILED
    assert "cannot open" in capture.status().message


def test_a_camera_that_never_opened_fails_at_once() -> None:
    # Issue 34: `--source 5` with no such camera retried forever, flooding stderr.
    sleeps: list[float] = []
    attempts: list[SourceSpec] = []

    def opener(spec: SourceSpec) -> FakeCamera:
        attempts.append(spec)
        raise OSError(f"cannot open {spec}")

    capture = Capture(SourceSpec(SourceKind.CAMERA, 5), opener=opener, sleep=sleeps.append)
    assert capture.wait_open(timeout=10.0) is False
    assert list(capture) == []
    status = capture.status()
    assert status.state is CameraState.FAILED and "camera 5 did not open" in status.message
    assert len(attempts) == 1 and sleeps == [] and status.reconnects == 0


def test_a_camera_that_worked_and_dropped_is_still_reopened() -> None:
    sleeps: list[float] = []
    readers = [FakeCamera(frames=2), None, None, FakeCamera(frames=1, start=100)]

    def opener(spec: SourceSpec) -> FakeCamera:
        reader = readers.pop(0) if readers else None
        if reader is None:
            raise OSError("camera unplugged")
        return reader

    capture = Capture(SourceSpec(SourceKind.CAMERA, 0), opener=opener, sleep=sleeps.append,
                      backoff=(0.5, 4.0), max_reconnects=2)
    assert capture.wait_open(timeout=10.0) is True
    values = [int(frame.image[0, 0, 0]) for frame in capture]
    assert values[-1] == 101  # two failed reopenings, then the camera came back
    assert readers == []
    assert sleeps[:3] == [0.5, 1.0, 2.0]


def test_a_missing_camera_index_prints_nothing_of_opencvs(capfd: pytest.CaptureFixture[str]) -> None:
    capture = Capture(SourceSpec(SourceKind.CAMERA, 97))
    assert capture.wait_open(timeout=30.0) is False
    capture.stop()
    assert "did not open" in capture.status().message
    assert capfd.readouterr().err == ""
