"""Frame sources: a webcam, a video file, an RTSP/HTTP stream, a folder of images or a phone.

:class:`Capture` reads its source on its own thread. For a live source (camera, stream) or a file
paced in real time it keeps only the newest frame, so the pipeline never falls behind the camera;
for a file it hands over every frame in order, as fast as the pipeline takes them or ``paced`` at the
file's frame rate (a file played like a camera that waits: on a busy machine it runs late, it never
skips a frame, so the verdicts are the same as on a quiet one). Every :class:`Frame` carries
``frame_index`` (its position in the source) and ``t`` (seconds: the file's own timeline, or the
clock since the capture started for a live source). This is the only module that reads the clock.

A live source that stops delivering is reopened with exponential back-off and reported through
:meth:`Capture.status`; it never raises into the pipeline. A camera that never opened at all is not
retried: a wrong index (``--source 5`` on a machine with one camera) fails at once, where retrying
would only wait forever; :meth:`Capture.wait_open` lets a command say so before it starts. A corrupt
frame is skipped and counted; the end of a file or folder ends the capture cleanly.

``--source phone`` is a live source whose frames a phone sends to the dashboard's ``/camera`` page; its
reader comes from :class:`referee.vision.phone.PhoneLink` (pass ``opener=link.open_reader``).
"""

from __future__ import annotations

import enum
import logging
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np
import numpy.typing as npt

log = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]
Clock = Callable[[], float]

#: How long :meth:`Capture.stop` waits for the reader thread (seconds): a file's reader ends at once, a
#: camera's within a frame; only a stream stuck in a read takes longer.
STOP_TIMEOUT_S = 15.0
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"})
DEFAULT_FPS = 30.0


class SourceKind(enum.StrEnum):
    CAMERA = "camera"
    FILE = "file"
    STREAM = "stream"
    FOLDER = "folder"
    #: a phone streaming its camera to the dashboard's ``/camera`` page (:mod:`referee.vision.phone`)
    PHONE = "phone"

    @property
    def is_live(self) -> bool:
        """Live sources deliver frames whether or not anyone reads them."""
        return self in (SourceKind.CAMERA, SourceKind.STREAM, SourceKind.PHONE)


class CameraState(enum.StrEnum):
    STARTING = "starting"
    LIVE = "live"
    RECONNECTING = "reconnecting"
    ENDED = "ended"
    FAILED = "failed"
    STOPPED = "stopped"


@dataclass(frozen=True)
class Frame:
    """One image from the source with its position and time (seconds)."""

    image: Image
    frame_index: int
    t: float
    #: ``time.monotonic()`` when capture got the frame: only for latency accounting (bench, status).
    captured_at: float = 0.0


@dataclass(frozen=True)
class SourceSpec:
    """A parsed ``--source``: what kind of source and how to open it."""

    kind: SourceKind
    target: str | int

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.target}"


_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
#: ``--source phone``: the frames a phone sends to the ``/camera`` page (a file of that name: ``./phone``).
PHONE_SOURCE = "phone"


def parse_source(source: str | int | Path) -> SourceSpec:
    """``0`` -> camera 0, ``rtsp://..``/``http://..`` -> stream, a folder -> images, ``phone`` -> the
    phone on the ``/camera`` page, else a video file.

    Raises :class:`FileNotFoundError` for a path that does not exist.
    """
    if isinstance(source, int):
        return SourceSpec(SourceKind.CAMERA, source)
    text = str(source).strip()
    if text.lower() == PHONE_SOURCE and not isinstance(source, Path):
        return SourceSpec(SourceKind.PHONE, "/camera")  # str(spec): "phone:/camera"
    if text.isdigit():
        return SourceSpec(SourceKind.CAMERA, int(text))
    if _URL.match(text):
        if text.lower().startswith("file://"):
            return parse_source(text[len("file://"):])
        return SourceSpec(SourceKind.STREAM, text)
    path = Path(text).expanduser()
    if path.is_dir():
        return SourceSpec(SourceKind.FOLDER, str(path))
    if path.is_file():
        return SourceSpec(SourceKind.FILE, str(path))
    raise FileNotFoundError(f"no such camera, file, folder or stream: {text!r}")


class Reader(Protocol):
    """The blocking reader behind a :class:`Capture` (OpenCV, an image folder, a test double)."""

    def read(self) -> tuple[bool, Image | None]:
        """``(True, image)``, ``(True, None)`` for a corrupt frame, ``(False, None)`` for no frame."""
        ...

    def at_end(self) -> bool:
        """True when a failed read means the source is exhausted (not a broken camera)."""
        ...

    @property
    def fps(self) -> float | None: ...

    def release(self) -> None: ...


@contextmanager
def _opencv_quiet() -> Iterator[None]:
    """OpenCV's own log silenced (unless this module logs at debug level): a camera index that does not
    exist makes every backend print its complaint, a dozen lines per attempt; the capture reports the
    failure in one line of its own."""
    if log.isEnabledFor(logging.DEBUG):
        yield
        return
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        cv2.utils.logging.setLogLevel(level)


class OpenCVReader:
    """``cv2.VideoCapture`` over a camera index, a file or a stream URL."""

    def __init__(self, spec: SourceSpec) -> None:
        self._spec = spec
        with _opencv_quiet():
            self._cap = cv2.VideoCapture(spec.target)
        if not self._cap.isOpened():
            self._cap.release()
            raise OSError(f"cannot open {spec}")
        self._frames = int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self._position = 0
        self._failures = 0

    @property
    def fps(self) -> float | None:
        fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        return fps if 1.0 <= fps <= 1000.0 else None

    def read(self) -> tuple[bool, Image | None]:
        ok, image = self._cap.read()
        self._position += 1
        if not ok or image is None:
            self._failures += 1
            return False, None
        self._failures = 0
        if image.ndim != 3 or image.shape[2] != 3 or image.size == 0:
            return True, None
        return True, np.ascontiguousarray(image, dtype=np.uint8)

    def at_end(self) -> bool:
        if self._spec.kind is not SourceKind.FILE:
            return False
        # A decoder error inside a file shows as one failed read; several in a row, or a position past
        # the known length, is the end of the file.
        return self._frames <= 0 or self._position >= self._frames or self._failures > 5

    def release(self) -> None:
        self._cap.release()


class FolderReader:
    """The images of a folder in name order; an unreadable image is a corrupt frame."""

    def __init__(self, folder: str | Path, fps: float | None = None) -> None:
        self._paths = sorted(
            p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()
        )
        if not self._paths:
            raise OSError(f"no images ({', '.join(sorted(IMAGE_SUFFIXES))}) in {folder}")
        self._next = 0
        self._fps = fps

    @property
    def fps(self) -> float | None:
        return self._fps

    def read(self) -> tuple[bool, Image | None]:
        if self._next >= len(self._paths):
            return False, None
        path = self._paths[self._next]
        self._next += 1
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None or image.size == 0:
            log.warning("unreadable image skipped: %s", path)
            return True, None
        return True, np.ascontiguousarray(image, dtype=np.uint8)

    def at_end(self) -> bool:
        return self._next >= len(self._paths)

    def release(self) -> None:
        self._next = len(self._paths)


def probe_fps(spec: SourceSpec) -> float | None:
    """A video file's frame rate, read from its header (``None`` for other sources or when unknown)."""
    if spec.kind is not SourceKind.FILE:
        return None
    cap = cv2.VideoCapture(spec.target)
    try:
        fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0) if cap.isOpened() else 0.0
    finally:
        cap.release()
    return fps if 1.0 <= fps <= 1000.0 else None


def open_reader(spec: SourceSpec) -> Reader:
    if spec.kind is SourceKind.PHONE:
        raise OSError("a phone source is read through its link: Capture(spec, opener=PhoneLink().open_reader)")
    if spec.kind is SourceKind.FOLDER:
        return FolderReader(spec.target if isinstance(spec.target, str) else str(spec.target))
    return OpenCVReader(spec)


@dataclass(frozen=True)
class CaptureStatus:
    """Health of the source, for ``session.set_status`` and the dashboard."""

    source: str
    state: CameraState
    frames: int
    delivered: int
    dropped: int
    corrupt: int
    reconnects: int
    fps: float | None
    message: str
    #: a paced file: how far the frames handed over trail the footage's own clock, seconds
    late_s: float = 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "camera": self.state.value,
            "frames_read": self.frames,
            "delivered": self.delivered,
            "dropped": self.dropped,
            "corrupt": self.corrupt,
            "reconnects": self.reconnects,
            "source_fps": self.fps,
            "camera_message": self.message,
            "late_s": round(self.late_s, 1),
        }


class Capture:
    """A source read on its own thread; :meth:`read` returns the next (or newest) frame.

    ``realtime`` paces a file or folder at its frame rate and lets the reader drop stale frames like a
    live camera; it defaults to on for live sources and off for files. ``paced`` paces a file at its
    frame rate and drops nothing (a frame the pipeline is not ready for waits for it). ``opener`` builds
    the reader (tests pass doubles); ``clock`` and ``sleep`` are injectable for the same reason.
    """

    def __init__(
        self,
        source: str | int | Path | SourceSpec,
        *,
        realtime: bool | None = None,
        paced: bool = False,
        fps: float | None = None,
        opener: Callable[[SourceSpec], Reader] = open_reader,
        clock: Clock = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        backoff: tuple[float, float] = (0.5, 8.0),
        max_reconnects: int | None = None,
        buffer: int = 8,
    ) -> None:
        self.spec = source if isinstance(source, SourceSpec) else parse_source(source)
        self.realtime = self.spec.kind.is_live if realtime is None else realtime
        self.keep_latest = self.spec.kind.is_live or self.realtime
        self.paced = (paced or self.realtime) and not self.spec.kind.is_live
        self._fps_override = fps
        self._opener = opener
        self._clock = clock
        self._sleep = sleep
        self._backoff = backoff
        self._max_reconnects = max_reconnects
        self._frames: deque[Frame] = deque(maxlen=1 if self.keep_latest else max(1, buffer))
        #: A file's reader waiting on a full buffer is woken once it is down to this many frames.
        self._refill_at = (self._frames.maxlen or 1) // 2
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._state = CameraState.STARTING
        self._message = ""
        self._frames_read = 0
        self._delivered = 0
        self._dropped = 0
        self._corrupt = 0
        self._reconnects = 0
        self._fps: float | None = fps
        self._t0: float | None = None
        self._delay = backoff[0]
        self._late = 0.0
        #: the source opened at least once (a camera that never did is not retried)
        self._opened = False

    # Life cycle.
    def start(self) -> Capture:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name=f"capture {self.spec}", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = STOP_TIMEOUT_S) -> None:
        """Stop reading and wait for the reader thread to end (it releases the source as it does): a thread
        left running at the process's exit, inside the decoder, aborts it. ``timeout`` bounds a reader stuck
        in a read (a stream that stopped answering), which is then logged."""
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("capture %s: the reader is still in a read after %.0f s", self.spec, timeout)
        if self._state not in (CameraState.ENDED, CameraState.FAILED):
            self._set_state(CameraState.STOPPED, "stopped")

    def __enter__(self) -> Capture:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def fps(self) -> float:
        """The source's frame rate (the file's, the camera's, or 30 when it does not say)."""
        return self._fps or DEFAULT_FPS

    def wait_open(self, timeout: float | None = None) -> bool:
        """Start the capture and wait until its source has opened (True) or failed to (False); True
        also when ``timeout`` seconds pass first (the source may still open: nothing is known yet)."""
        self.start()
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while not self._opened and self._state not in (CameraState.FAILED, CameraState.ENDED,
                                                            CameraState.STOPPED):
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return True
                self._cond.wait(timeout=0.25 if remaining is None else min(remaining, 0.25))
            return self._opened

    @property
    def finished(self) -> bool:
        with self._cond:
            return self._state in (CameraState.ENDED, CameraState.FAILED, CameraState.STOPPED) and not self._frames

    def status(self) -> CaptureStatus:
        with self._cond:
            return CaptureStatus(
                str(self.spec), self._state, self._frames_read, self._delivered, self._dropped,
                self._corrupt, self._reconnects, self._fps, self._message, self._late,
            )

    # Consumer side.
    def read(self, timeout: float | None = None) -> Frame | None:
        """The next frame (newest, for live sources); ``None`` once the source has ended or stopped.

        With a ``timeout`` it also returns ``None`` when no frame came in time; tell the two apart
        with :attr:`finished`.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while not self._frames:
                if self._state in (CameraState.ENDED, CameraState.FAILED, CameraState.STOPPED):
                    return None
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return None
                self._cond.wait(timeout=0.25 if remaining is None else min(remaining, 0.25))
            frame = self._frames.popleft()
            self._delivered += 1
            if self.paced and self._t0 is not None:
                self._late = max(0.0, self._clock() - self._t0 - frame.frame_index / self.fps)
            if len(self._frames) <= self._refill_at:
                # The reader, waiting on a full buffer, decodes the next few frames in one go: woken once
                # per frame it would take the interpreter's lock from the frame loop at every frame.
                self._cond.notify_all()
            return frame

    def __iter__(self) -> Iterator[Frame]:
        self.start()
        while True:
            frame = self.read()
            if frame is None:
                return
            yield frame

    # Producer side.
    def _set_state(self, state: CameraState, message: str, level: int = logging.INFO) -> None:
        with self._cond:
            changed = state is not self._state
            self._state = state
            self._message = message
            self._cond.notify_all()
        if changed:
            log.log(level, "capture %s: %s%s", self.spec, state.value, f" ({message})" if message else "")

    def _wait(self, seconds: float) -> None:
        """Back-off pause that a :meth:`stop` cuts short (the injected sleep, for tests)."""
        if self._sleep is time.sleep:
            self._stop.wait(seconds)
        else:
            self._sleep(seconds)

    def _backoff_wait(self, reason: str) -> None:
        delay = self._delay
        if self.spec.kind is SourceKind.PHONE:
            # A phone is waited for, not retried: until the first one streams, the capture is starting.
            self._set_state(CameraState.RECONNECTING if self._opened else CameraState.STARTING, reason)
        else:
            self._set_state(CameraState.RECONNECTING, f"{reason}; retry in {delay:.1f}s")
        self._wait(delay)
        self._delay = min(delay * 2, self._backoff[1])

    def _open(self) -> Reader | None:
        """Open the source, retrying with back-off; ``None`` when stopped or out of retries."""
        attempts = 0
        while not self._stop.is_set():
            try:
                reader = self._opener(self.spec)
            except Exception as exc:  # a driver may raise anything; a camera must never crash us
                attempts += 1
                if self.spec.kind is SourceKind.CAMERA and not self._opened:
                    # Never opened: a wrong index, or a camera another program holds. Retrying would
                    # wait forever; whoever started the capture reports it (see wait_open).
                    message = f"camera {self.spec.target} did not open (no such camera, or another program holds it)"
                    self._set_state(CameraState.FAILED, message, logging.DEBUG)
                    return None
                if not self.spec.kind.is_live or (
                    self._max_reconnects is not None and attempts > self._max_reconnects
                ):
                    self._set_state(CameraState.FAILED, str(exc) or type(exc).__name__)
                    return None
                self._backoff_wait(str(exc) or type(exc).__name__)
                continue
            if self._fps_override is None and reader.fps:
                self._fps = reader.fps
            with self._cond:
                self._opened = True
                self._cond.notify_all()
            return reader
        return None

    def _publish(self, image: Image, frame_index: int) -> None:
        now = self._clock()
        if self._t0 is None:
            self._t0 = now
        live_t = now - self._t0
        t = live_t if self.spec.kind.is_live else frame_index / self.fps
        frame = Frame(image, frame_index, round(t, 4), now)
        with self._cond:
            if not self.keep_latest:
                while len(self._frames) >= (self._frames.maxlen or 1) and not self._stop.is_set():
                    self._cond.wait(timeout=0.25)
            elif self._frames:
                self._dropped += 1
            self._frames.append(frame)
            self._cond.notify_all()

    def _pace(self, frame_index: int) -> None:
        """Hold a real-time file frame until its moment on the capture clock."""
        if self._t0 is None:
            self._t0 = self._clock()
            return
        wait = self._t0 + frame_index / self.fps - self._clock()
        if wait > 0:
            self._sleep(wait)

    def _loop(self) -> None:
        try:
            self._run()
        except Exception as exc:  # report, never take the process down
            log.exception("capture %s failed", self.spec)
            self._set_state(CameraState.FAILED, f"{type(exc).__name__}: {exc}")

    def _run(self) -> None:
        reader = self._open()
        if reader is None:
            return
        self._set_state(CameraState.LIVE, "")
        index = 0
        reconnects_in_a_row = 0
        try:
            while not self._stop.is_set():
                try:
                    ok, image = reader.read()
                except cv2.error as exc:
                    log.warning("capture %s: read error: %s", self.spec, exc)
                    ok, image = True, None
                if ok:
                    with self._cond:
                        self._frames_read += 1
                    if image is None:
                        with self._cond:
                            self._corrupt += 1
                        log.debug("capture %s: corrupt frame %d skipped", self.spec, index)
                    else:
                        if self.paced:
                            self._pace(index)
                        self._publish(image, index)
                        reconnects_in_a_row = 0
                        self._delay = self._backoff[0]
                    index += 1
                    continue
                if reader.at_end():
                    self._set_state(CameraState.ENDED, f"end of {self.spec.kind.value}")
                    return
                if not self.spec.kind.is_live:
                    # A file frame that would not decode, before the end: skip it.
                    with self._cond:
                        self._frames_read += 1
                        self._corrupt += 1
                    index += 1
                    continue
                # A live source stopped delivering: report, back off, reopen.
                reader.release()
                reconnects_in_a_row += 1
                with self._cond:
                    self._reconnects += 1
                if self._max_reconnects is not None and reconnects_in_a_row > self._max_reconnects:
                    self._set_state(CameraState.FAILED, "camera stopped delivering frames")
                    return
                self._backoff_wait("no frames")
                new_reader = self._open()
                if new_reader is None:
                    return
                reader = new_reader
                self._set_state(CameraState.LIVE, "reconnected")
        finally:
            reader.release()
            with self._cond:
                self._cond.notify_all()
