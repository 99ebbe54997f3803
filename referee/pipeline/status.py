"""What the pipeline shows of itself: the run's counts, and the annotated frame streamed to the dashboard.

:class:`PipelineStats` counts what one run did (frames, detector calls, observations, refusals, and with a
timer the milliseconds per frame and per detector call and each verdict's latency): ``referee bench`` and
the status line read it.

:func:`publish_frame` draws the overlay (the pile zone, the detections, the referee's state and the status
line) on a frame scaled down to the stream's width (encoding is the costly part) and hands the JPEG to the
session, which serves it as ``/stream.mjpg``; the same bytes go to the instant replays' ring
(:class:`~referee.clips.FrameRing`), so a replay costs the frame loop no second encoding.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2

from referee.clips import FrameRing
from referee.contract import Observation
from referee.pipeline.session_protocol import Session
from referee.session_game import PipelineStatus
from referee.vision.calibration import CalibrationProfile
from referee.vision.capture import Frame
from referee.vision.detections import Detections
from referee.vision.overlay import annotate, encode_jpeg


@dataclass
class PipelineStats:
    """What one run did (the bench and the status line read it)."""

    frames: int = 0
    detector_calls: int = 0
    observations: int = 0
    refused: int = 0
    detector_ms: list[float] = field(default_factory=list)
    frame_ms: list[float] = field(default_factory=list)
    #: (observation, frame captured_at, verdict time) for each observation submitted.
    verdicts: list[tuple[Observation, float, float]] = field(default_factory=list)


def publish_frame(session: Session, frame: Frame, detections: Detections, *, profile: CalibrationProfile | None,
                  status: PipelineStatus, width: int, replay: FrameRing | None) -> None:
    """``frame`` annotated (at most ``width`` pixels wide) to the session's stream and to ``replay``."""
    state = session.snapshot()
    image = frame.image
    h, w = image.shape[:2]
    if w > width:  # the stream need not be full size; encoding is the costly part
        image = cv2.resize(image, (width, round(h * width / w)), interpolation=cv2.INTER_LINEAR)
    image = annotate(image, profile=profile, detections=detections, state=state, status=status)
    jpeg = encode_jpeg(image)
    session.set_frame(jpeg)
    if replay is not None:  # the same bytes: a replay costs the frame loop no encoding
        replay.add(frame.t, jpeg)
