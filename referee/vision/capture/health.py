"""A capture's health: the state it is in, the counts it reports, and how long it waits to reconnect.

A capture is :attr:`CameraState.STARTING` until its source opens, then ``LIVE``; a live source that stops
delivering is ``RECONNECTING`` while it is reopened, after a pause that doubles each time from the first
delay up to the longest (:class:`Backoff`) and starts over once a frame comes; a file or folder that ran
out is ``ENDED``; a source that cannot be opened (or a live one out of retries) is ``FAILED``; one stopped
by its owner is ``STOPPED``. A phone is waited for rather than retried: it stays ``STARTING`` until the
first one streams. None of this raises into the pipeline: :class:`CaptureStatus` reports it, with the
frames read, handed over, dropped (a live source's stale frames) and corrupt, for ``session.set_status``
and the dashboard.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from referee.live_status import CameraStatus


class CameraState(enum.StrEnum):
    STARTING = "starting"
    LIVE = "live"
    RECONNECTING = "reconnecting"
    ENDED = "ended"
    FAILED = "failed"
    STOPPED = "stopped"


#: The states a capture does not leave: no frame comes after them.
FINAL_STATES = (CameraState.ENDED, CameraState.FAILED, CameraState.STOPPED)


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

    def as_dict(self) -> CameraStatus:
        """Every key of :class:`~referee.live_status.CameraStatus`."""
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


class Backoff:
    """The pause before the next try to reopen a source: ``first`` seconds, doubled after each try up to
    ``longest``, and ``first`` again once the source delivers."""

    def __init__(self, first: float, longest: float) -> None:
        self.first = first
        self.longest = longest
        #: The pause the next try waits.
        self.delay = first

    def waited(self) -> None:
        """A pause of :attr:`delay` was taken: the next one is twice as long (at most ``longest``)."""
        self.delay = min(self.delay * 2, self.longest)

    def reset(self) -> None:
        """The source delivered: the next pause is the first again."""
        self.delay = self.first
