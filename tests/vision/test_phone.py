"""The phone's link: frames in from the web server, out to the capture; bad messages refused; a phone
that goes away waited for."""

from __future__ import annotations

import logging
import struct

import cv2
import numpy as np
import pytest

from referee.live_status import PhoneStatus
from referee.vision.capture import CameraState, SourceKind, parse_source
from referee.vision.phone import (
    SUPERSEDED,
    LinkState,
    PhoneLink,
    frame_message,
    jpeg_size,
)


def jpeg(width: int = 64, height: int = 48, value: int = 120) -> bytes:
    image = np.full((height, width, 3), value, np.uint8)
    image[: height // 2, : width // 2] = (0, 0, 255)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    encoded: bytes = data.tobytes()
    return encoded


def huge_jpeg_header(width: int, height: int) -> bytes:
    """A JPEG that claims a ``width`` x ``height`` picture in a few bytes (its start-of-frame header)."""
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00" + b"\x00" * 9 + sof + b"\xff\xd9"


def test_phone_is_a_live_source() -> None:
    spec = parse_source("phone")
    assert spec.kind is SourceKind.PHONE and spec.kind.is_live
    assert str(spec) == "phone:/camera"


@pytest.mark.parametrize(("data", "size"), [
    (jpeg(64, 48), (64, 48)),
    (jpeg(640, 360), (640, 360)),
    (huge_jpeg_header(60000, 60000), (60000, 60000)),
    (b"\x89PNG\r\n\x1a\n", None),
    (b"\xff\xd8\xff", None),
    (b"", None),
])
def test_jpeg_size_reads_the_header_without_decoding(data: bytes, size: tuple[int, int] | None) -> None:
    assert jpeg_size(data) == size


@pytest.mark.parametrize(("message", "reason"), [
    (b"", "too short"),
    (b"\x00" * 5, "too short"),
    (struct.pack("<d", float("nan")) + jpeg(), "not a finite number"),
    (frame_message(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, 1.0), "not a JPEG"),
    (jpeg(), "not a JPEG"),  # the time left out: the JPEG's own bytes read as the time
    (frame_message(huge_jpeg_header(60000, 60000), 1.0), "60000x60000 picture"),
    (frame_message(b"\xff\xd8\xff" + b"\x00" * 2000, 1.0), "without a readable picture size"),
])
def test_bad_messages_are_refused_and_the_link_goes_on(message: bytes, reason: str,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    link = PhoneLink()
    connection = link.connect("10.0.0.7")
    with caplog.at_level(logging.WARNING, "referee.vision.phone"):
        problem = link.offer(connection, message)
    assert problem is not None and reason in problem
    assert [r.getMessage() for r in caplog.records] == [f"phone 10.0.0.7: frame refused: {problem}"]
    assert link.offer(connection, frame_message(jpeg(), 5.0)) is None  # the next good frame is taken
    assert link.status()["refused"] == 1 and link.status()["frames"] == 1
    assert list(link.status()) == list(PhoneStatus.__annotations__)


def test_an_oversized_message_is_refused_by_its_length() -> None:
    link = PhoneLink(max_frame_bytes=1000)
    connection = link.connect("phone")
    problem = link.offer(connection, frame_message(jpeg(), 1.0) + b"\x00" * 2000)
    assert problem is not None and "over the limit of 1000" in problem


def test_the_same_problem_is_logged_now_and_then(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    link = PhoneLink(clock=lambda: now[0])
    connection = link.connect("phone")
    with caplog.at_level(logging.WARNING, "referee.vision.phone"):
        for _ in range(50):
            link.offer(connection, b"not a frame at all")
            now[0] += 0.25  # 50 refusals over 12.5 s: two lines, ten seconds apart
        link.offer(connection, b"not a frame at all")
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2, lines
    assert "such since the last report" in lines[1]


def test_frames_reach_the_capture_newest_first_and_decoded() -> None:
    link = PhoneLink(wait_s=0.05)
    with pytest.raises(OSError, match="waiting for the phone: open /camera"):
        link.open_reader()
    connection = link.connect("phone", {"fps": 30})
    link.offer(connection, frame_message(jpeg(value=10), 1.0))
    link.offer(connection, frame_message(jpeg(value=200), 2.0))  # the capture had not taken the first
    reader = link.open_reader()
    assert reader.fps == 30.0
    ok, image = reader.read()
    assert ok and image is not None and image.shape == (48, 64, 3)
    assert reader.last is not None and reader.last.sent_ms == 2.0
    assert link.status()["replaced"] == 1


def test_a_jpeg_that_does_not_decode_is_a_corrupt_frame(caplog: pytest.LogCaptureFixture) -> None:
    link = PhoneLink()
    connection = link.connect("phone")
    whole = jpeg()
    sof = whole.index(b"\xff\xc0")
    broken = whole[: sof + 2 + int.from_bytes(whole[sof + 2: sof + 4], "big")] + b"\xff\xd9"  # the size, no picture
    assert link.offer(connection, frame_message(broken, 1.0)) is None
    reader = link.open_reader()
    with caplog.at_level(logging.WARNING, "referee.vision.phone"):
        assert reader.read() == (True, None)
    assert "does not decode" in caplog.text
    assert link.status()["undecodable"] == 1


def test_a_new_connection_takes_over() -> None:
    link = PhoneLink()
    first = link.connect("phone A")
    second = link.connect("phone B")
    assert link.offer(first, frame_message(jpeg(), 1.0)) == SUPERSEDED
    assert link.offer(second, frame_message(jpeg(), 1.0)) is None
    link.disconnect(first)  # the old socket's end is no news
    assert link.status()["link"] == "connected"


def test_the_capture_waits_for_a_phone_that_went_away() -> None:
    """The capture says it waits, then goes on with the phone's frames on the same timeline."""
    link = PhoneLink(wait_s=0.05, stall_s=0.2)
    statuses: list[str] = []
    link.on_status = lambda status: statuses.append(status["link"])
    capture = link.capture()
    capture.start()
    try:
        assert capture.read(timeout=0.3) is None
        assert capture.status().state is CameraState.STARTING
        assert "waiting for the phone" in capture.status().message
        connection = link.connect("phone")
        link.offer(connection, frame_message(jpeg(), 1.0))
        frame = capture.read(timeout=2.0)
        assert frame is not None and frame.frame_index == 0
        link.disconnect(connection, "closed (1001)")
        assert capture.read(timeout=0.5) is None
        status = capture.status()
        assert status.state is CameraState.RECONNECTING and "went away" in status.message
        again = link.connect("phone")
        link.offer(again, frame_message(jpeg(), 2.0))
        frame = capture.read(timeout=2.0)
        assert frame is not None and frame.frame_index >= 1
        assert capture.status().state is CameraState.LIVE
    finally:
        capture.stop()
    assert statuses[0] == "connected" and statuses.index("disconnected") < len(statuses) - 1  # then back
    assert capture._thread is not None and not capture._thread.is_alive()


def test_a_phone_that_stops_sending_is_stalled() -> None:
    link = PhoneLink(wait_s=0.05, stall_s=0.1)
    connection = link.connect("phone")
    link.offer(connection, frame_message(jpeg(), 1.0))
    reader = link.open_reader()
    assert reader.read()[0]
    assert reader.read() == (False, None)  # no frame within stall_s
    assert link.status()["link"] == LinkState.STALLED.value
    with pytest.raises(OSError, match="sends no frames"):
        link.open_reader()
    link.offer(connection, frame_message(jpeg(), 2.0))
    assert link.status()["link"] == "connected"
    link.close()
    with pytest.raises(OSError, match="closed"):
        link.open_reader()


def test_the_rate_coming_in_is_told_when_it_changes() -> None:
    now = [0.0]
    link = PhoneLink(clock=lambda: now[0])
    rates: list[float] = []
    link.on_rate = rates.append
    connection = link.connect("phone")
    for fps, seconds in ((15, 3.0), (16, 2.0), (30, 3.0)):
        for _ in range(int(fps * seconds)):
            now[0] += 1 / fps
            link.offer(connection, frame_message(jpeg(), now[0] * 1000))
    told = [round(r) for r in rates]
    # Told once a second at most, and only a change of a tenth or more (the window mixes two rates a while).
    assert told[0] == 15 and told[-1] == 30 and len(told) <= 5, told
