"""A fake camera for Chromium: footage written as a Y4M file, which Chromium plays as its camera with
``--use-fake-device-for-media-stream --use-file-for-fake-video-capture=FILE.y4m`` (looping it)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import cv2
import numpy as np


def chromium_camera_args(path: Path) -> list[str]:
    """Chromium's flags for a camera fed by ``path`` (and no permission prompt)."""
    return ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-video-capture={path}"]


def write_y4m(frames: Iterable[np.ndarray], path: Path, fps: int) -> int:
    """Write BGR ``frames`` (all one even size) as a 4:2:0 Y4M at ``fps``; returns the frames written."""
    count = 0
    with path.open("wb") as out:
        for image in frames:
            height, width = image.shape[:2]
            if count == 0:
                out.write(f"YUV4MPEG2 W{width} H{height} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
            out.write(b"FRAME\n")
            out.write(cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420).tobytes())
            count += 1
    return count


def video_frames(video: Path, limit: int | None = None, size: tuple[int, int] | None = None) -> Iterator[np.ndarray]:
    """The frames of ``video`` (the first ``limit``; resized to ``size`` (width, height) when given)."""
    capture = cv2.VideoCapture(str(video))
    try:
        count = 0
        while limit is None or count < limit:
            ok, image = capture.read()
            if not ok:
                return
            yield image if size is None else cv2.resize(image, size, interpolation=cv2.INTER_AREA)
            count += 1
    finally:
        capture.release()
