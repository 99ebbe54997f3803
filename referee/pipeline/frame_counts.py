"""Frame counts that stand for times: when to run the detector, and when the counts are set again.

**The detection gate** (frigate's motion-gated detection): the detector runs on every frame while things
move, until a card has had time to settle (:attr:`DetectionGate.settle_frames`: the tracker's hits to
believe a card and misses to drop one, and two more), and at least every :attr:`DetectionGate.refresh_every`
frames (half a second); the pipeline also runs it while the tracker waits to settle a tentative card. In
between, the pile view has not changed, so the last detections stand.

**Retiming**: these counts, the tracker's and the hands' are counted in frames at the source's rate until
the rate frames are judged at is measured (:class:`~referee.vision.keeping_up.KeepingUp`); a machine that
judges every second frame of a 30 fps camera waits 5 of them for a card to settle, not 10. The counts are
set again only when the measured rate differs from the one they stand for by :data:`RETIME_SHARE`, so they
do not follow every stutter.
"""

from __future__ import annotations

from referee.vision.tracking import TrackerConfig

#: The frames judged a second must differ by this share from the rate the frame counts stand for
#: before they are set again (a margin, so the counts do not follow every stutter).
RETIME_SHARE = 0.2

#: "Long ago": the count a gate starts from, and is set to so it looks at once.
_NEVER = 10**9


def needs_retiming(rate: float | None, timed_fps: float) -> bool:
    """The frames judged a second (``rate``, ``None`` until measured) differ enough from ``timed_fps``, the
    rate the frame counts stand for, to set them again."""
    return rate is not None and abs(rate - timed_fps) > RETIME_SHARE * timed_fps


class DetectionGate:
    """Whether this frame needs the detector: motion lately, or none for too long (see the module)."""

    def __init__(self, config: TrackerConfig, fps: float) -> None:
        self.timed(config, fps)
        self.since_motion = _NEVER
        self.since_detect = _NEVER

    def timed(self, config: TrackerConfig, fps: float) -> None:
        """Set the counts for ``config`` (the tracker's, already at ``fps``) and ``fps`` frames a second."""
        self.settle_frames = config.min_hits + config.max_misses + 2
        self.refresh_every = max(1, round(fps / 2))

    def due(self, moved: bool) -> bool:
        """Count one frame (``moved``: the motion detector saw the view disturbed); True when it is to be
        detected on: things moved within the settling time, or the last detection is too old."""
        self.since_motion = 0 if moved else self.since_motion + 1
        self.since_detect += 1
        return self.since_motion <= self.settle_frames or self.since_detect >= self.refresh_every

    def detected(self) -> None:
        """The detector ran on this frame."""
        self.since_detect = 0

    def look_now(self) -> None:
        """Detect on the next frame (a new pile view)."""
        self.since_detect = _NEVER
