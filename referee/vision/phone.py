"""A phone as the camera: the frames a phone's browser sends from the ``/camera`` page, as a live source.

The page sends each frame as one message (a binary WebSocket message, or the body of one POST where a
browser refuses the WebSocket): 8 bytes, the sender's clock when it took the frame (milliseconds,
little-endian float64), then the frame as a JPEG. :class:`PhoneLink` stands between the web server and
the :class:`~referee.vision.capture.Capture` thread. The server hands it each message as it comes
(:meth:`PhoneLink.offer`, on the event loop: it checks the message and keeps the newest frame, it never
decodes); the capture reads through :class:`PhoneReader`, which decodes only the frame it takes, so a
frame the pipeline had no time for costs nothing but its bytes.

One phone at a time: a new connection takes over from the one before (a phone that reconnects before
its old socket was noticed dead). A phone that goes away, or stops sending (its screen locked), leaves
the capture waiting in its ``reconnecting`` state, saying why; when it comes back the frames go on, on
the capture's own timeline. A bad message (not a JPEG, too large, a picture of absurd size) is refused
with one log line per kind of problem now and then, and the link goes on.
"""

from __future__ import annotations

import enum
import logging
import math
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from referee.live_status import PhoneStatus
from referee.vision.capture import Capture, Clock, Image, SourceKind, SourceSpec

__all__ = [
    "HEADER_BYTES",
    "MAX_FRAME_BYTES",
    "MAX_FRAME_PIXELS",
    "LinkState",
    "PhoneFrame",
    "PhoneLink",
    "PhoneReader",
    "frame_message",
    "jpeg_size",
]

log = logging.getLogger(__name__)

#: The sender's capture time (ms, little-endian float64) before each JPEG.
HEADER_BYTES = 8
#: The largest frame message accepted (bytes): a 4K JPEG at high quality is about 3 MB.
MAX_FRAME_BYTES = 4 * 1024 * 1024
#: The most pixels a frame may have (4096 x 4096): a small JPEG may claim a huge picture.
MAX_FRAME_PIXELS = 4096 * 4096
#: Seconds between two log lines about the same kind of bad message from one phone.
PROBLEM_LOG_EVERY_S = 10.0
#: A connection whose newest message is refused for this reason has been replaced by a newer one.
SUPERSEDED = "another phone took over the camera"

_JPEG_START = b"\xff\xd8\xff"
#: Start-of-frame markers (baseline, extended, progressive, lossless, ...): they carry the picture's size.
_SOF_MARKERS = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})


class LinkState(enum.StrEnum):
    """Where the phone stands, as the dashboard shows it."""

    WAITING = "waiting"  # no phone has connected yet
    CONNECTED = "connected"  # frames are coming
    STALLED = "stalled"  # connected, but no frame for a while (screen locked, page in the background)
    DISCONNECTED = "disconnected"  # the phone went away; waiting for it to come back
    CLOSED = "closed"  # the run is over


def frame_message(jpeg: bytes, sent_ms: float) -> bytes:
    """One frame as the page sends it: the time it was taken (ms), then the JPEG."""
    return struct.pack("<d", sent_ms) + jpeg


def jpeg_size(data: bytes | memoryview) -> tuple[int, int] | None:
    """A JPEG's (width, height) from its start-of-frame header, without decoding; ``None`` when the
    bytes are not a JPEG or its header cannot be found."""
    view = memoryview(data)
    if bytes(view[:3]) != _JPEG_START:
        return None
    i = 2
    n = len(view)
    while i + 4 <= n:
        if view[i] != 0xFF:
            return None
        marker = view[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length follows
            i += 2
            continue
        length = (view[i + 2] << 8) | view[i + 3]
        if length < 2:
            return None
        if marker in _SOF_MARKERS:
            if i + 9 > n:
                return None
            height = (view[i + 5] << 8) | view[i + 6]
            width = (view[i + 7] << 8) | view[i + 8]
            return (width, height) if width and height else None
        if marker == 0xDA:  # start of scan before any frame header
            return None
        i += 2 + length
    return None


@dataclass(frozen=True)
class PhoneFrame:
    """One frame as it came: which connection sent it, when it was taken (the sender's clock, ms) and
    when it arrived (the link's clock, seconds), its JPEG and size."""

    connection: int
    sent_ms: float
    arrived: float
    jpeg: bytes
    size: tuple[int, int]


class _Problems:
    """One log line per kind of problem now and then, with how many there were since the last one."""

    def __init__(self, clock: Clock, every_s: float) -> None:
        self._clock = clock
        self._every = every_s
        self._last: dict[str, float] = {}
        self._since: dict[str, int] = {}

    def report(self, who: str, kind: str, message: str) -> None:
        now = self._clock()
        key = f"{who}\0{kind}"
        self._since[key] = self._since.get(key, 0) + 1
        last = self._last.get(key)
        if last is not None and now - last < self._every:
            return
        count = self._since.pop(key)
        self._last[key] = now
        more = f" ({count} such since the last report)" if count > 1 else ""
        log.warning("phone %s: %s%s", who, message, more)


class PhoneLink:
    """The phone's frames between the web server and the capture (see the module's docstring).

    ``stall_s``: seconds without a frame before a connected phone counts as stalled (and the capture
    waits for it rather than for a frame). ``wait_s``: how long :meth:`open_reader` waits for a phone
    before it says it is still waiting (the capture asks again at once; a stop is noticed in between).
    ``on_status`` is called with :meth:`status` when the link changes, and at most once a second while
    frames come (the dashboard shows it). ``url``: where the phone opens the page (shown in messages).
    """

    def __init__(
        self,
        *,
        stall_s: float = 2.0,
        wait_s: float = 0.5,
        max_frame_bytes: int = MAX_FRAME_BYTES,
        max_frame_pixels: int = MAX_FRAME_PIXELS,
        on_status: Callable[[PhoneStatus], None] | None = None,
        url: str = "/camera",
        clock: Clock = time.monotonic,
    ) -> None:
        self.stall_s = stall_s
        self.wait_s = wait_s
        self.max_frame_bytes = max_frame_bytes
        self.max_frame_pixels = max_frame_pixels
        self.url = url
        #: called with :meth:`status` when the link changes (the dashboard's ``status.phone``)
        self.on_status = on_status
        #: called with the frame rate coming in when it is first measured and when it changes by a tenth
        #: (the pipeline's own measure of keeping up compares with it: the phone's rate is known only now)
        self.on_rate: Callable[[float], None] | None = None
        self._rate_given: float | None = None
        self._clock = clock
        self._cond = threading.Condition()
        self._state = LinkState.WAITING
        self._connection = 0
        self._next_connection = 1
        self._client = ""
        self._info: dict[str, Any] = {}
        self._frame: PhoneFrame | None = None
        self._last_frame_at: float | None = None
        self._arrivals: deque[float] = deque(maxlen=64)
        self._bytes: deque[tuple[float, int]] = deque(maxlen=64)
        self._size: tuple[int, int] | None = None
        self._frames = 0
        self._replaced = 0
        self._refused = 0
        self._undecodable = 0
        self._connections = 0
        self._reported_at = -math.inf
        self._problems = _Problems(clock, PROBLEM_LOG_EVERY_S)

    # The web server's side.
    def connect(self, client: str, info: Mapping[str, Any] | None = None) -> int:
        """A phone connected (``client``: its address, for the log); returns its connection's number.
        A connection before it is superseded: its next message is refused with :data:`SUPERSEDED`."""
        with self._cond:
            previous = self._connection
            connection = self._next_connection
            self._next_connection += 1
            self._connection = connection
            self._client = client
            self._info = dict(info or {})
            self._frame = None
            self._connections += 1
            self._state = LinkState.CONNECTED
            self._last_frame_at = None
            self._arrivals.clear()
            self._bytes.clear()
            self._cond.notify_all()
        log.info("phone %s connected%s", client, " (the phone before it is replaced)" if previous else "")
        self.report()
        return connection

    def disconnect(self, connection: int, reason: str = "") -> None:
        """Connection ``connection`` ended; the capture waits for the phone to come back."""
        with self._cond:
            if connection != self._connection or self._state is LinkState.CLOSED:
                return
            self._connection = 0
            self._frame = None
            self._state = LinkState.DISCONNECTED
            client = self._client
            self._cond.notify_all()
        log.info("phone %s went away%s; waiting for it to reconnect", client, f" ({reason})" if reason else "")
        self.report()

    def is_current(self, connection: int) -> bool:
        with self._cond:
            return connection == self._connection and connection != 0

    def offer(self, connection: int, message: bytes) -> str | None:
        """One frame message from ``connection``: kept as the newest frame (``None``), or refused with the
        reason (logged here, now and then; :data:`SUPERSEDED` for a connection another has replaced)."""
        now = self._clock()
        with self._cond:
            if connection != self._connection or connection == 0:
                return SUPERSEDED
            client = self._client
        problem = self._check(message)
        if problem is not None:
            with self._cond:
                self._refused += 1
            self._problems.report(client, problem[0], f"frame refused: {problem[1]}")
            return problem[1]
        sent_ms = struct.unpack_from("<d", message)[0]
        size = jpeg_size(memoryview(message)[HEADER_BYTES:])
        assert size is not None  # checked above
        report = False
        with self._cond:
            if connection != self._connection:
                return SUPERSEDED
            if self._frame is not None:
                self._replaced += 1  # the capture had not taken the one before: only the newest counts
            self._frame = PhoneFrame(connection, sent_ms, now, message[HEADER_BYTES:], size)
            self._frames += 1
            self._size = size
            self._last_frame_at = now
            self._arrivals.append(now)
            self._bytes.append((now, len(message)))
            if self._state is not LinkState.CONNECTED:
                self._state = LinkState.CONNECTED
                report = True
            if now - self._reported_at >= 1.0:
                report = True
            self._cond.notify_all()
        if report:
            self.report()
        return None

    def _check(self, message: bytes) -> tuple[str, str] | None:
        """(kind, reason) when ``message`` is no frame this link takes, else ``None``."""
        if len(message) > self.max_frame_bytes:
            return "large", (f"{len(message)} bytes, over the limit of {self.max_frame_bytes} "
                             "(send smaller frames: lower resolution or JPEG quality)")
        if len(message) < HEADER_BYTES + len(_JPEG_START):
            return "short", f"{len(message)} bytes: too short for a frame (8-byte time, then a JPEG)"
        sent_ms = struct.unpack_from("<d", message)[0]
        if not math.isfinite(sent_ms):
            return "time", "its time (the first 8 bytes) is not a finite number"
        body = memoryview(message)[HEADER_BYTES:]
        if bytes(body[:3]) != _JPEG_START:
            return "jpeg", "not a JPEG (a frame is an 8-byte time, then the JPEG's bytes)"
        size = jpeg_size(body)
        if size is None:
            return "jpeg", "a JPEG without a readable picture size"
        if size[0] * size[1] > self.max_frame_pixels:
            return "pixels", f"a {size[0]}x{size[1]} picture: over {self.max_frame_pixels} pixels"
        return None

    def close(self) -> None:
        """The run is over: the capture's reader ends, and no phone is taken any more."""
        with self._cond:
            self._state = LinkState.CLOSED
            self._connection = 0
            self._frame = None
            self._cond.notify_all()
        self.report()

    # The capture's side.
    def capture(self, *, mirror: bool = False) -> Capture:
        """The live source of ``--source phone``: a :class:`Capture` that reads this link, waiting for a
        phone (not retrying with back-off) whenever none is streaming; ``mirror``: each frame flipped."""
        return Capture(SourceSpec(SourceKind.PHONE, "/camera"), opener=self.open_reader, backoff=(0.0, 0.0),
                       mirror=mirror)

    def open_reader(self, spec: SourceSpec | None = None) -> PhoneReader:
        """A reader of the phone now streaming (the :class:`Capture`'s ``opener``): waits up to ``wait_s``
        for a phone with a frame to give, else raises :class:`OSError` saying what it waits for."""
        deadline = self._clock() + self.wait_s
        with self._cond:
            while True:
                if self._state is LinkState.CLOSED:
                    raise OSError("the phone link is closed")
                if self._connection and self._frame is not None:
                    return PhoneReader(self, self._connection)
                remaining = deadline - self._clock()
                if remaining <= 0:
                    raise OSError(self._waiting_for())
                self._cond.wait(timeout=min(remaining, 0.25))

    def _waiting_for(self) -> str:
        if self._state is LinkState.WAITING:
            return f"waiting for the phone: open {self.url} on it"
        if self._state is LinkState.DISCONNECTED:
            return f"the phone went away: waiting for it to reconnect (or open {self.url} again)"
        if self._connection and self._state is LinkState.STALLED:
            return "the phone is connected but sends no frames (its screen locked, or the page in the background?)"
        return "waiting for the phone's first frame"

    def take(self, connection: int, timeout: float) -> PhoneFrame | None:
        """The newest frame of ``connection`` not taken yet, waiting up to ``timeout`` seconds; ``None``
        when that connection has ended, the link closed or no frame came (then the phone is stalled)."""
        deadline = self._clock() + timeout
        stalled = False
        with self._cond:
            while True:
                if connection != self._connection or self._state is LinkState.CLOSED:
                    return None
                frame = self._frame
                if frame is not None:
                    self._frame = None
                    return frame
                remaining = deadline - self._clock()
                if remaining <= 0:
                    if self._state is LinkState.CONNECTED:
                        self._state = LinkState.STALLED
                        stalled = True
                    break
                self._cond.wait(timeout=min(remaining, 0.25))
            client = self._client
        if stalled:
            log.warning("phone %s: no frame for %.1f s (its screen locked, or the page in the background?)",
                        client, timeout)
            self.report()
        return None

    def decode(self, frame: PhoneFrame) -> Image | None:
        """The frame's picture (BGR), or ``None`` for a JPEG that does not decode (logged now and then)."""
        image = cv2.imdecode(np.frombuffer(frame.jpeg, np.uint8), cv2.IMREAD_COLOR)
        if image is None or image.ndim != 3 or image.shape[2] != 3 or image.size == 0:
            with self._cond:
                self._undecodable += 1
                client = self._client
            self._problems.report(client, "decode", f"a {len(frame.jpeg)}-byte JPEG that does not decode: skipped")
            return None
        return np.ascontiguousarray(image, dtype=np.uint8)

    @property
    def closed(self) -> bool:
        with self._cond:
            return self._state is LinkState.CLOSED

    @property
    def announced_fps(self) -> float | None:
        """The frame rate the phone's camera says it gives (``None`` when it did not say)."""
        with self._cond:
            fps = self._info.get("fps")
        return float(fps) if isinstance(fps, int | float) and 1.0 <= fps <= 240.0 else None

    # What the dashboard shows.
    def status(self) -> PhoneStatus:
        """The link's state, the phone's address, the frame rate coming in, the frames and bytes so far."""
        now = self._clock()
        with self._cond:
            state = self._state
            if (state is LinkState.CONNECTED and self._last_frame_at is not None
                    and now - self._last_frame_at > self.stall_s):
                state = LinkState.STALLED
            recent = [t for t in self._arrivals if now - t <= 2.0]
            fps = (len(recent) - 1) / (recent[-1] - recent[0]) if len(recent) > 2 and recent[-1] > recent[0] else None
            sent = [(t, n) for t, n in self._bytes if now - t <= 2.0]
            span = (sent[-1][0] - sent[0][0]) if len(sent) > 2 else 0.0
            kbps = sum(n for _, n in sent[1:]) * 8 / 1000 / span if span > 0 else None
            return {
                "link": state.value,
                "client": self._client or None,
                "fps": None if fps is None or state is not LinkState.CONNECTED else round(fps, 1),
                "kbps": None if kbps is None or state is not LinkState.CONNECTED else round(kbps),
                "size": list(self._size) if self._size else None,
                "frames": self._frames,
                "replaced": self._replaced,
                "refused": self._refused,
                "undecodable": self._undecodable,
                "connections": self._connections,
                "url": self.url,
                "message": "" if state is LinkState.CONNECTED else self._waiting_for_state(state),
            }

    def _waiting_for_state(self, state: LinkState) -> str:
        if state is LinkState.CLOSED:
            return "the run is over"
        if state is LinkState.STALLED:
            return "connected, but no frame comes (the phone's screen locked, or the page in the background?)"
        if state is LinkState.DISCONNECTED:
            return f"the phone went away: waiting for it to reconnect (or open {self.url} again)"
        return f"waiting for a phone: open {self.url} on it"

    def report(self) -> None:
        """Hand :meth:`status` to ``on_status`` now (and the rate to ``on_rate`` when it changed)."""
        listener, rate_listener = self.on_status, self.on_rate
        if listener is None and rate_listener is None:
            return
        status = self.status()
        with self._cond:
            self._reported_at = self._clock()
            fps = status["fps"]
            given = self._rate_given
            new_rate = isinstance(fps, float) and fps >= 1.0 and (given is None or abs(fps - given) > 0.1 * given)
            if new_rate:
                self._rate_given = fps
        try:
            if listener is not None:
                listener(status)
            if rate_listener is not None and new_rate and fps is not None:
                rate_listener(fps)
        except Exception:  # the dashboard's status is a nicety; the frames must go on
            log.exception("phone link: status listener failed")


class PhoneReader:
    """The :class:`~referee.vision.capture.Reader` of one phone connection: the newest frame, decoded.

    A read that finds the connection ended, or no frame within the link's ``stall_s``, is a failed read
    (the capture then waits for the phone through :meth:`PhoneLink.open_reader`); :attr:`last` is the
    frame the latest read decoded (its times, for latency accounting).
    """

    def __init__(self, link: PhoneLink, connection: int) -> None:
        self._link = link
        self._connection = connection
        self.last: PhoneFrame | None = None

    @property
    def fps(self) -> float | None:
        return self._link.announced_fps

    def read(self) -> tuple[bool, Image | None]:
        frame = self._link.take(self._connection, self._link.stall_s)
        if frame is None:
            return False, None
        self.last = frame
        return True, self._link.decode(frame)

    def at_end(self) -> bool:
        return self._link.closed

    def release(self) -> None:
        """Nothing to let go: the link stays for the next reader."""
