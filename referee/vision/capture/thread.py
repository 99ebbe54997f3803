"""A source read on its own thread: :class:`Capture` hands the frame loop the next frame, or the newest.

For a live source (camera, stream, phone) or a file paced in real time it keeps only the newest frame, so
the pipeline never falls behind the camera; for a file it hands over every frame in order, as fast as the
pipeline takes them or ``paced`` at the file's frame rate (a file played like a camera that waits: on a busy
machine it runs late, it never skips a frame, so the verdicts are the same as on a quiet one). Every
:class:`~referee.vision.capture.sources.Frame` carries ``frame_index`` (its position in the source) and
``t`` (seconds: the file's own timeline, or the clock since the capture started for a live source). This is
the only module that reads the clock.

The thread (the producer side) opens the source through ``opener`` (:mod:`~referee.vision.capture.readers`),
reads it in a loop and publishes each frame into a small buffer guarded by one condition; the frame loop (the
consumer side) takes them with :meth:`Capture.read`. A file's reader waits while the buffer is full and is
woken once it is half empty, so it decodes a few frames in one go instead of taking the interpreter's lock
from the frame loop at every frame. A live source that stops delivering is reopened with exponential
back-off and reported through :meth:`Capture.status` (:mod:`~referee.vision.capture.health`); it never
raises into the pipeline. A camera that never opened at all is not retried: a wrong index (``--source 5`` on
a machine with one camera) fails at once, where retrying would only wait forever; :meth:`Capture.wait_open`
lets a command say so before it starts. A corrupt frame is skipped and counted; the end of a file or folder
ends the capture cleanly.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

from referee.vision.capture.health import FINAL_STATES, Backoff, CameraState, CaptureStatus
from referee.vision.capture.readers import Reader, open_reader
from referee.vision.capture.sources import DEFAULT_FPS, Clock, Frame, Image, SourceKind, SourceSpec, parse_source

log = logging.getLogger(__name__)

#: How long :meth:`Capture.stop` waits for the reader thread (seconds): a file's reader ends at once, a
#: camera's within a frame; only a stream stuck in a read takes longer.
STOP_TIMEOUT_S = 15.0


class Capture:
    """A source read on its own thread; :meth:`read` returns the next (or newest) frame.

    ``realtime`` paces a file or folder at its frame rate and lets the reader drop stale frames like a
    live camera; it defaults to on for live sources and off for files. ``paced`` paces a file at its
    frame rate and drops nothing (a frame the pipeline is not ready for waits for it). ``opener`` builds
    the reader (tests pass doubles); ``clock`` and ``sleep`` are injectable for the same reason. ``mirror``
    flips every frame left to right (:mod:`referee.vision.mirror`).
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
        mirror: bool = False,
    ) -> None:
        self.spec = source if isinstance(source, SourceSpec) else parse_source(source)
        #: Every frame flipped left to right: a camera that mirrors its view (a selfie view, a flipped capture)
        #: seen as the table lies, so cards read as printed and seats go round the right way.
        self.mirror = mirror
        self.realtime = self.spec.kind.is_live if realtime is None else realtime
        self.keep_latest = self.spec.kind.is_live or self.realtime
        self.paced = (paced or self.realtime) and not self.spec.kind.is_live
        self._fps_override = fps
        self._opener = opener
        self._clock = clock
        self._sleep = sleep
        self._backoff = Backoff(*backoff)
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
            while not self._opened and self._state not in FINAL_STATES:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return True
                self._cond.wait(timeout=0.25 if remaining is None else min(remaining, 0.25))
            return self._opened

    @property
    def finished(self) -> bool:
        with self._cond:
            return self._state in FINAL_STATES and not self._frames

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
                if self._state in FINAL_STATES:
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
        delay = self._backoff.delay
        if self.spec.kind is SourceKind.PHONE:
            # A phone is waited for, not retried: until the first one streams, the capture is starting.
            self._set_state(CameraState.RECONNECTING if self._opened else CameraState.STARTING, reason)
        else:
            self._set_state(CameraState.RECONNECTING, f"{reason}; retry in {delay:.1f}s")
        self._wait(delay)
        self._backoff.waited()

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
        if self.mirror:
            image = np.ascontiguousarray(image[:, ::-1])
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
                        self._backoff.reset()
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
