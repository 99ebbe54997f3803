"""Frame sources: a webcam, a video file, an RTSP/HTTP stream, a folder of images or a phone.

:class:`Capture` reads its source on its own thread and hands the pipeline each :class:`Frame` (the image, its
position in the source and its time in seconds); for a live source only the newest. This is the only place
that reads the clock. ``--source phone`` is a live source whose frames a phone sends to the dashboard's
``/camera`` page; its reader comes from :class:`referee.vision.phone.PhoneLink` (pass
``opener=link.open_reader``).

One module per part:

- :mod:`~referee.vision.capture.sources`: what ``--source`` names (:func:`parse_source`), and the :class:`Frame`;
- :mod:`~referee.vision.capture.readers`: the blocking readers behind a capture (OpenCV, an image folder);
- :mod:`~referee.vision.capture.health`: the capture's state and counts, and the back-off when it reconnects;
- :mod:`~referee.vision.capture.thread`: :class:`Capture`, the reading thread and the frames it hands over.
"""

from __future__ import annotations

from referee.vision.capture.health import CameraState, CaptureStatus
from referee.vision.capture.readers import IMAGE_SUFFIXES, FolderReader, OpenCVReader, Reader, open_reader, probe_fps
from referee.vision.capture.sources import (
    DEFAULT_FPS,
    PHONE_SOURCE,
    Clock,
    Frame,
    Image,
    SourceKind,
    SourceSpec,
    parse_source,
)
from referee.vision.capture.thread import STOP_TIMEOUT_S, Capture

__all__ = [
    "DEFAULT_FPS",
    "IMAGE_SUFFIXES",
    "PHONE_SOURCE",
    "STOP_TIMEOUT_S",
    "CameraState",
    "Capture",
    "CaptureStatus",
    "Clock",
    "FolderReader",
    "Frame",
    "Image",
    "OpenCVReader",
    "Reader",
    "SourceKind",
    "SourceSpec",
    "open_reader",
    "parse_source",
    "probe_fps",
]
