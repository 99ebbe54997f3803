"""Instant replays: a short clip of the camera around every play and every alert, kept with the match.

Three pieces, one job each, and none of them in the frame loop's way:

- :class:`FrameRing`: the last few seconds of the stream's JPEGs with their footage time ``t``. The
  pipeline already encodes a frame for the MJPEG live view at the stream rate; it hands the same bytes
  here (one ``deque.append``), so recording costs the live pipeline no encoding and no frames.
- :class:`ClipStore`: the clips on disk, ``<folder>/<match id>/<seq>.webm`` where ``seq`` is the number
  of the observation (in its match) the clip shows: the ``seq`` every alert and play entry already
  carries on the dashboard. Each match's clips are capped in bytes, the oldest dropped first.
- :class:`ClipRecorder`: a session listener. For every ``start`` or ``play`` and every observation that
  drew an alert it takes the ring's frames from ``CLIP_BEFORE_S`` before the observation's ``t`` (the
  card came to rest) and queues the cut; a background thread (lowered priority, never the frame loop)
  waits until the ring holds ``CLIP_AFTER_S`` after it, then writes the clip as WebM/VP8 (the format
  Chromium plays in a ``<video>``; OpenCV's own FFmpeg writes it, no extra dependency). A corrected
  misread (``correct`` event) keeps its clip: the clip follows the play to its new ``seq``.

Clips are a convenience beside the record, not part of it: one that cannot be written is logged and
skipped, and the SQLite record never waits on it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import tempfile
import threading
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np

__all__ = [
    "CLIP_AFTER_S", "CLIP_BEFORE_S", "CLIP_MEDIA_TYPE", "DEFAULT_CAP_BYTES", "ClipRecorder", "ClipStore",
    "FrameRing", "StreamFrame", "clips_dir_for", "encode_clip", "recorder_for",
]

log = logging.getLogger(__name__)

#: Seconds of footage kept before the observation's ``t`` (the card coming in and settling) ...
CLIP_BEFORE_S = 4.0
#: ... and after it (the table's reaction).
CLIP_AFTER_S = 1.0
#: Seconds of stream frames the ring holds: the clip's window and room for the writer to be late (it
#: runs at the lowest priority, so on a busy machine it may wait seconds for a core). About 12 MB of
#: 960 px JPEGs at 10 a second.
RING_SECONDS = 12.0
#: The writer thread's niceness (Linux): the lowest priority, so it only takes what the frame loop leaves.
WRITER_NICENESS = 19
#: Each match's clips together stay under this many bytes (the oldest are dropped first).
DEFAULT_CAP_BYTES = 50 * 2**20
#: Clips are scaled down to at most this width (pixels): a replay is watched in a side panel or a
#: corner of the stream, and 480 px costs half the CPU of 640 (about 0.3 s a clip on one core).
CLIP_WIDTH = 480
#: JPEG decoding at a fraction of the size, widest reduction first: (factor, imread flag).
REDUCED_DECODES = ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4), (2, cv2.IMREAD_REDUCED_COLOR_2))
CLIP_MEDIA_TYPE = "video/webm"
CLIP_SUFFIX = ".webm"
#: A clip is written under this name, then renamed: FFmpeg picks its muxer by the name, and its Matroska
#: muxer takes VP8 with no complaint where its WebM muxer prints "tag 'VP80' is not supported" once per
#: clip on stderr (OpenCV's writer always passes a codec tag). WebM is Matroska with a narrower DocType;
#: Chromium (and OBS's browser source) play the file served as ``video/webm`` alike (checked by
#: ``tests/web/test_replay_browser.py``).
PART_SUFFIX = ".part.mkv"
#: How long (wall seconds) a cut waits for its after-part when no frame comes (a camera that stalled).
MAX_WAIT_S = 10.0
#: How long :meth:`ClipRecorder.close` waits for the writer to finish the clip it is encoding (seconds).
CLOSE_TIMEOUT_S = 120.0
#: A rate for a clip whose frames' times say none (one frame, or all at the same ``t``).
FALLBACK_FPS = 10.0
#: Cuts waiting for the writer at most: past this (a writer far behind) new ones are skipped, so the
#: frames they hold stay bounded.
MAX_PENDING = 32
#: Observation types that are a card on the pile: each gets a clip, alert or not.
CARD_TYPES = ("start", "play")


class StreamFrame(NamedTuple):
    """One encoded stream frame: footage seconds and JPEG bytes."""

    t: float
    jpeg: bytes


class FrameRing:
    """The last ``seconds`` of stream frames, thread-safe: the pipeline adds, the clip writer reads.

    Bounded by footage time, not a count, so a clip's window is the same at any stream rate; ``limit``
    caps the count as well (a source whose ``t`` stands still must not fill memory).
    """

    def __init__(self, seconds: float = RING_SECONDS, limit: int = 600) -> None:
        self.seconds = seconds
        self._frames: deque[StreamFrame] = deque(maxlen=limit)
        self._cond = threading.Condition()
        self._ended = False

    def add(self, t: float, jpeg: bytes) -> None:
        """Keep ``jpeg`` (the frame at footage time ``t``) and forget what is older than the window."""
        with self._cond:
            if self._frames and t < self._frames[-1].t:  # the footage started again (a new file, a loop)
                self._frames.clear()
            self._frames.append(StreamFrame(float(t), jpeg))
            while self._frames[0].t < t - self.seconds:
                self._frames.popleft()
            self._ended = False
            self._cond.notify_all()

    def end(self) -> None:
        """The footage ended: a cut waiting for frames after it takes what there is."""
        with self._cond:
            self._ended = True
            self._cond.notify_all()

    @property
    def latest(self) -> float | None:
        """The newest frame's ``t`` (``None`` before the first)."""
        with self._cond:
            return self._frames[-1].t if self._frames else None

    def since(self, t0: float, t1: float = float("inf")) -> list[StreamFrame]:
        """The frames with ``t0 <= t <= t1``, oldest first (a copy: the bytes are shared, never changed)."""
        with self._cond:
            return [f for f in self._frames if t0 <= f.t <= t1]

    def wait_until(self, t: float, timeout: float) -> bool:
        """Wait (at most ``timeout`` wall seconds) until a frame at or after ``t`` is in, or the footage
        ended; ``True`` when the frames reach ``t``."""
        def reached() -> bool:
            return self._ended or (bool(self._frames) and self._frames[-1].t >= t)

        with self._cond:
            self._cond.wait_for(reached, timeout)
            return bool(self._frames) and self._frames[-1].t >= t

    def __len__(self) -> int:
        with self._cond:
            return len(self._frames)


def clips_dir_for(db: Path | str | None) -> Path | None:
    """The folder beside the match record ``db`` that holds its clips (``referee.db`` ->
    ``referee-clips``, as the learned deck goes to ``referee-deck``); ``None`` for an in-memory record."""
    if db is None or str(db) in ("", ":memory:") or str(db).startswith("file:"):
        return None
    path = Path(db)
    return path.with_name(path.stem + "-clips")


class ClipStore:
    """The clips on disk: ``root/<match id>/<seq>.webm``, each match's under ``cap_bytes``.

    Paths are made from integers only (no name from a request ever reaches the file system). Writes go
    to a ``.part`` file first and are renamed into place, so a clip is either whole or absent.
    """

    def __init__(self, root: Path, cap_bytes: int = DEFAULT_CAP_BYTES) -> None:
        if cap_bytes <= 0:
            raise ValueError(f"the clip cap must be positive, not {cap_bytes}")
        self.root = Path(root)
        self.cap_bytes = int(cap_bytes)
        #: Serialises renames (a corrected play's clip) with the writer's final move and the cap.
        self.lock = threading.RLock()

    def match_dir(self, match_id: int) -> Path:
        return self.root / str(int(match_id))

    def path(self, match_id: int, seq: int) -> Path:
        """Where the clip of observation ``seq`` of match ``match_id`` is (or would be)."""
        return self.match_dir(match_id) / f"{int(seq)}{CLIP_SUFFIX}"

    def find(self, match_id: int, seq: int) -> Path | None:
        """The clip's path when it exists."""
        path = self.path(match_id, seq)
        return path if path.is_file() else None

    def clips(self, match_id: int) -> dict[int, int]:
        """``{seq: bytes}`` of the match's clips."""
        found: dict[int, int] = {}
        for path in self._files(match_id):
            with contextlib.suppress(OSError):
                found[int(path.stem)] = path.stat().st_size
        return found

    def _files(self, match_id: int) -> Iterator[Path]:
        folder = self.match_dir(match_id)
        if not folder.is_dir():
            return
        for path in folder.iterdir():
            if path.suffix == CLIP_SUFFIX and path.stem.isdigit():
                yield path

    def put(self, match_id: int, seq: int, part: Path) -> Path:
        """Move the finished file ``part`` into place as ``seq``'s clip, then hold the match's cap."""
        with self.lock:
            final = self.path(match_id, seq)
            os.replace(part, final)
            self.enforce_cap(match_id)
            return final

    def part_path(self, match_id: int, seq: int) -> Path:
        """A fresh file to write ``seq``'s clip into (its folder made), renamed by :meth:`put`."""
        folder = self.match_dir(match_id)
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f"{int(seq)}{PART_SUFFIX}"

    def move(self, match_id: int, old: int, new: int) -> bool:
        """``old``'s clip becomes ``new``'s (a corrected play keeps its clip); ``False`` when none."""
        with self.lock:
            source = self.path(match_id, old)
            if not source.is_file():
                return False
            os.replace(source, self.path(match_id, new))
            return True

    def enforce_cap(self, match_id: int) -> list[int]:
        """Drop the match's oldest clips (by time written, then ``seq``) until they fit the cap;
        returns the ``seq`` of those dropped."""
        with self.lock:
            entries: list[tuple[int, int, int, Path]] = []
            for path in self._files(match_id):
                with contextlib.suppress(OSError):
                    stat = path.stat()
                    entries.append((stat.st_mtime_ns, int(path.stem), stat.st_size, path))
            entries.sort()
            total = sum(size for _, _, size, _ in entries)
            dropped: list[int] = []
            for _, seq, size, path in entries:
                if total <= self.cap_bytes:
                    break
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
                total -= size
                dropped.append(seq)
            if dropped:
                log.info("match %d: %d oldest clip(s) dropped to stay under %.1f MB", match_id, len(dropped),
                         self.cap_bytes / 2**20)
            return dropped


def encode_clip(frames: Sequence[StreamFrame], path: Path, *, width: int = CLIP_WIDTH) -> int:
    """Write ``frames`` (JPEGs) to ``path`` as WebM/VP8 at their own pace; returns the frames written
    (0: nothing decodable, and no file). Scaled down to ``width`` at most (even sides, as VP8 wants);
    a JPEG twice as wide or more is decoded at a half, quarter or eighth of its size straight away,
    which halves the clip's CPU time (the decoder skips what the scaling would throw away)."""
    images: list[np.ndarray] = []
    flag = cv2.IMREAD_COLOR
    for f in frames:
        image = cv2.imdecode(np.frombuffer(f.jpeg, np.uint8), flag)
        if image is None:
            continue
        if not images:  # the first frame's width tells how small the rest may be decoded
            flag = next((reduced for factor, reduced in REDUCED_DECODES if image.shape[1] >= factor * width),
                        cv2.IMREAD_COLOR)
        images.append(image)
    if not images:
        return 0
    h, w = images[-1].shape[:2]
    scale = min(1.0, width / w)
    size = (max(2, round(w * scale) // 2 * 2), max(2, round(h * scale) // 2 * 2))
    span = frames[-1].t - frames[0].t
    fps = (len(frames) - 1) / span if len(frames) > 1 and span > 0 else FALLBACK_FPS
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"VP80"), float(min(max(fps, 1.0), 60.0)), size)
    if not writer.isOpened():
        raise OSError(f"this OpenCV cannot write WebM/VP8 to {path}")
    try:
        for image in images:
            if image.shape[1::-1] != size:
                image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
            writer.write(image)
    finally:
        writer.release()
    return len(images)


@dataclass
class _Cut:
    """A clip to write: observation ``seq`` of ``match_id``, footage ``t0..t1``, frames taken so far."""

    match_id: int
    seq: int
    t0: float
    t1: float
    frames: list[StreamFrame] = field(default_factory=list)


class ClipRecorder:
    """Records a clip for every card on the pile and every alert (see the module's docstring).

    ``on_event`` is the session listener (called under the session's lock: it only copies references
    out of the ring and queues the cut); the writer thread does the rest. ``close()`` writes what is
    queued (a cut whose after-part never came gets what there is) and stops the thread.
    """

    def __init__(self, store: ClipStore, ring: FrameRing | None = None, *, before_s: float = CLIP_BEFORE_S,
                 after_s: float = CLIP_AFTER_S, width: int = CLIP_WIDTH, max_wait_s: float = MAX_WAIT_S,
                 temporary: tempfile.TemporaryDirectory[str] | None = None) -> None:
        self.store = store
        self.ring = ring or FrameRing(max(RING_SECONDS, before_s + after_s + 3.0))
        self.before_s = before_s
        self.after_s = after_s
        self.width = width
        self.max_wait_s = max_wait_s
        #: Clips written (the tests and the bench read it).
        self.written = 0
        #: Clips still queued when a temporary folder was closed, so never written (see :meth:`close`).
        self.unwritten = 0
        self._queue: queue.Queue[_Cut | None] = queue.Queue()
        #: (match, seq) of each queued cut -> the seq its clip is written as (a corrected play's new one).
        self._targets: dict[tuple[int, int], int] = {}
        self._pending = 0
        self._idle = threading.Condition()
        self._temporary = temporary
        self._thread = threading.Thread(target=self._work, name="clip-writer", daemon=True)
        self._thread.start()

    @classmethod
    def beside(cls, db: Path | str | None, cap_bytes: int = DEFAULT_CAP_BYTES) -> ClipRecorder:
        """A recorder writing beside the record ``db`` (:func:`clips_dir_for`), or into a temporary
        folder (removed on :meth:`close`) for an in-memory record."""
        root = clips_dir_for(db)
        temporary = None
        if root is None:
            temporary = tempfile.TemporaryDirectory(prefix="referee-clips-")
            root = Path(temporary.name)
        return cls(ClipStore(root, cap_bytes), temporary=temporary)

    # The session's side.
    def on_event(self, event: Mapping[str, Any]) -> None:
        """Session listener: queue a clip for a card on the pile or an alert; a correction moves one."""
        kind = event.get("kind")
        obs = event.get("observation")
        match_id, seq = event.get("match_id"), event.get("seq")
        if kind not in ("observation", "correct") or not isinstance(obs, Mapping):
            return
        if not isinstance(match_id, int) or not isinstance(seq, int):
            return
        undone = event.get("undone_seq")
        if kind == "correct" and isinstance(undone, int) and self._follow(match_id, undone, seq):
            return
        alerts = any(isinstance(o, Mapping) and o.get("type") == "alert" for o in event.get("outputs") or ())
        if obs.get("type") not in CARD_TYPES and not alerts:
            return
        t = obs.get("t")
        at = float(t) if isinstance(t, int | float) and not isinstance(t, bool) else self.ring.latest
        if at is None:  # no camera frame yet (a dashboard-only session): nothing to show
            return
        with self._idle:
            if self._pending >= MAX_PENDING:
                log.warning("clip writer %d clips behind: no clip for observation %d", self._pending, seq)
                return
            self._pending += 1
        cut = _Cut(match_id, seq, at - self.before_s, at + self.after_s)
        cut.frames = self.ring.since(cut.t0, cut.t1)
        with self.store.lock:
            self._targets[(match_id, seq)] = seq
        self._queue.put(cut)

    def _follow(self, match_id: int, old: int, new: int) -> bool:
        """The play ``old`` was corrected into ``new``: its clip, written or still to be, goes with it;
        ``False`` when it has none (the corrected play then gets a clip of its own)."""
        with self.store.lock:
            if self.store.move(match_id, old, new):
                return True
            followed = False
            for key, target in self._targets.items():
                if key[0] == match_id and target == old:
                    self._targets[key] = new
                    followed = True
            return followed

    # The writer's side.
    def _work(self) -> None:
        with contextlib.suppress(AttributeError, OSError):  # Linux: this thread yields to the frame loop
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), WRITER_NICENESS)
        while True:
            cut = self._queue.get()
            if cut is None:
                return
            self._process(cut)

    def _process(self, cut: _Cut) -> None:
        """Write ``cut`` (a failure is logged, never raised) and count it done."""
        try:
            self._write(cut)
        except Exception:
            log.exception("clip of observation %d (match %d) not written", cut.seq, cut.match_id)
        finally:
            self._done(cut)

    def _done(self, cut: _Cut) -> None:
        """``cut`` is off the queue, written or not."""
        with self.store.lock:
            self._targets.pop((cut.match_id, cut.seq), None)
        with self._idle:
            self._pending -= 1
            self._idle.notify_all()

    def _write(self, cut: _Cut) -> None:
        self.ring.wait_until(cut.t1, self.max_wait_s)
        last = cut.frames[-1].t if cut.frames else cut.t0 - 1.0
        frames = [*cut.frames, *(f for f in self.ring.since(cut.t0, cut.t1) if f.t > last)]
        if not frames:
            log.debug("no frames for the clip of observation %d", cut.seq)
            return
        part = self.store.part_path(cut.match_id, cut.seq)
        try:
            if not encode_clip(frames, part, width=self.width):
                return
            with self.store.lock:  # corrected meanwhile: written as the corrected play's
                seq = self._targets.pop((cut.match_id, cut.seq), cut.seq)
                self.store.put(cut.match_id, seq, part)
                self.written += 1
        finally:
            with contextlib.suppress(FileNotFoundError):
                part.unlink()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until every queued clip is written (or given up); ``True`` when none is left."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def close(self, timeout: float = CLOSE_TIMEOUT_S) -> None:
        """The footage ended: write what is queued with the frames there are, stop the writer and wait
        for it, and remove a temporary folder.

        The caller writes queued cuts itself, beside the writer: the frame loop is over, so they need not
        wait for the lowest priority's share of a busy machine (where a writer at niceness 19 could take
        longer than any timeout, and a thread still encoding when the process exits aborts it in native
        code: ``terminate called without an active exception``). In a temporary folder (a run with no
        record) the queued cuts are not written at all: the folder goes with this call, and no one could
        watch them (:attr:`unwritten` counts them). The writer finishes the cut it holds (bounded: the ring
        has ended, so no cut waits for frames) and is joined; ``timeout`` only bounds a writer stuck in
        its encoder, which is then logged."""
        self.ring.end()
        while True:
            try:
                cut = self._queue.get_nowait()
            except queue.Empty:
                break
            if cut is None:  # closed twice
                break
            if self._temporary is None:
                self._process(cut)
            else:
                self.unwritten += 1
                self._done(cut)
        self._queue.put(None)
        if self._thread is not threading.current_thread():
            # The frame loop is over: the writer need no longer yield to it, and at the lowest priority on a
            # busy machine it could wait longer than any timeout for a core (a thread still encoding when the
            # process exits aborts it). Taking a niceness back needs the privilege to (Linux: root or
            # CAP_SYS_NICE); without it the writer finishes at its own pace.
            native = self._thread.native_id
            if native is not None:
                with contextlib.suppress(AttributeError, OSError):
                    os.setpriority(os.PRIO_PROCESS, native, 0)
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.error("the clip writer is still writing after %.0f s: the process may abort at exit", timeout)
                return  # its folder is still in use
        if self._temporary is not None:
            self._temporary.cleanup()
            self._temporary = None


def recorder_for(db: Path | str | None, cap_mb: float | None = None) -> ClipRecorder | None:
    """The recorder a run uses: clips beside the record ``db`` (a temporary folder for an in-memory
    one), each match's capped at ``cap_mb`` megabytes (default :data:`DEFAULT_CAP_BYTES`); ``None``
    (no clips) when ``cap_mb`` is 0."""
    if cap_mb is not None and cap_mb <= 0:
        return None
    cap = DEFAULT_CAP_BYTES if cap_mb is None else max(1, round(cap_mb * 2**20))
    return ClipRecorder.beside(db, cap)
