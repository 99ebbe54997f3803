"""The pipeline's health as ``/api/state`` shows it (its ``status``), one shape for each part that sets it.

The capture sets :class:`CameraStatus` (``CaptureStatus.as_dict``, every key at once), the frame loop its
own keys (``Pipeline.status``), a phone's link ``phone`` (:class:`PhoneStatus`, ``PhoneLink.status``).
The session merges them as they come into one :class:`PipelineStatus`, which is why its keys, the
camera's among them, are not required. Here, below the capture, the phone and the session alike, so that
each names the same keys and none imports another's layer for them.
"""

from __future__ import annotations

from typing import TypedDict

__all__ = ["CameraStatus", "PhoneStatus", "PipelineStatus"]


class CameraStatus(TypedDict, total=False):
    """A capture's health (``CaptureStatus.as_dict``, which gives every key): the first keys of
    :class:`PipelineStatus`."""

    source: str
    camera: str  # the CameraState's value
    frames_read: int
    delivered: int
    dropped: int
    corrupt: int
    reconnects: int
    source_fps: float | None
    camera_message: str
    late_s: float


class PhoneStatus(TypedDict):
    """A phone's link (``PhoneLink.status``): the dashboard's ``status.phone`` and ``/api/camera``."""

    link: str  # the LinkState's value
    client: str | None
    fps: float | None
    kbps: int | None
    size: list[int] | None
    frames: int
    replaced: int
    refused: int
    undecodable: int
    connections: int
    url: str
    message: str


class PipelineStatus(CameraStatus, total=False):
    """The session's ``status``: the capture's keys (:class:`CameraStatus`), the frame loop's
    (``Pipeline.status``) and a phone's link (``phone``), each set as it comes."""

    fps: float | None
    warning: str | None
    frames: int
    detections: int
    observations: int
    refused: int
    pile: list[str]
    table: str
    phone: PhoneStatus
