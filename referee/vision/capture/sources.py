"""What ``--source`` names, and what a capture hands on: the kind of source, how to open it, each frame.

:func:`parse_source` reads a ``--source``: a number is a camera index, an ``rtsp://``/``http://`` URL a
stream (``file://`` a path), ``phone`` the phone streaming to the dashboard's ``/camera`` page
(:mod:`referee.vision.phone`; a file of that name is ``./phone``), a folder its images in name order, any
other existing path a video file. Cameras, streams and the phone are *live*: they deliver frames whether
or not anyone reads them, so a capture keeps only the newest; files and folders wait for the reader.

A :class:`Frame` is one image with its position in the source (``frame_index``) and its time ``t`` in
seconds: the file's own timeline, or the capture's clock since it started for a live source.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
Clock = Callable[[], float]

#: The frame rate a source that does not say its own is taken to have.
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
