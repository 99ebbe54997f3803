"""The blocking readers behind a capture: OpenCV over a camera, a file or a stream; the images of a folder.

A :class:`Reader` is what the capture thread calls in a loop. ``read`` answers three ways: ``(True, image)``,
``(True, None)`` for a frame that came but is corrupt (skipped and counted), ``(False, None)`` for no frame;
after a failed read, ``at_end`` tells the end of a file or folder (the capture ends cleanly) from a live
source that stopped delivering (the capture reconnects). A decoder error inside a file shows as one failed
read: several in a row, or a position past the file's known length, is its end.

OpenCV's own log is silenced while a source opens (unless this module logs at debug level): a camera index
that does not exist makes every backend print its complaint, a dozen lines per attempt, where the capture
reports the failure in one line of its own. A phone's reader comes from its link
(:meth:`referee.vision.phone.PhoneLink.open_reader`), not from :func:`open_reader`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from referee.vision.capture.sources import Image, SourceKind, SourceSpec

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"})


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
