"""Is the pipeline keeping up with its source? How many of the source's frames it judges, in footage time.

A live camera does not wait: when the machine is busy the pipeline takes the newest frame and the
ones between are gone. The tracker's settling, debouncing and seat attribution were tuned for a rate;
at half of it a card's landing may be seen in two frames instead of five, and a hand's path to its seat
in fragments. So the referee says when it falls behind, plainly, and the verdicts it reaches meanwhile
are marked as unsure rather than raised as confident alerts.

The rate is counted on the frames' own times (``Frame.t``: the file's timeline, or the capture clock
for a live source), so a file judged frame by frame is never behind however slow the machine: it is
late, not blind.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

#: Behind when fewer than this share of the source's frames are judged (over :data:`WINDOW_S`)...
BEHIND_SHARE = 0.75
#: ...and caught up again from this share (a margin, so the status does not flicker at the edge).
CAUGHT_UP_SHARE = 0.85
#: Seconds of footage the rate is counted over, at most...
WINDOW_S = 2.0
#: ...and at least (from the start, or after the footage started again).
MIN_SPAN_S = 0.5


@dataclass
class KeepingUp:
    """The processed rate over the last :data:`WINDOW_S` of footage against the source's frame rate."""

    source_fps: float
    _times: deque[float] = field(default_factory=deque)
    behind: bool = False

    def update(self, t: float) -> str | None:
        """Count a frame judged at footage time ``t``; returns what changed (to log), or ``None``."""
        times = self._times
        if times and t < times[-1]:  # the footage started again (a new file, a reconnected camera)
            times.clear()
        times.append(t)
        while len(times) > 2 and times[-1] - times[0] > WINDOW_S:
            times.popleft()
        rate = self.rate
        if rate is None:
            return None
        if not self.behind and rate < BEHIND_SHARE * self.source_fps:
            self.behind = True
            return self.warning
        if self.behind and rate >= CAUGHT_UP_SHARE * self.source_fps:
            self.behind = False
            return f"caught up: {rate:.0f} fps processed of {self.source_fps:.0f}"
        return None

    @property
    def rate(self) -> float | None:
        """Frames judged per second of footage; ``None`` until :data:`MIN_SPAN_S` of it has been seen."""
        times = self._times
        span = times[-1] - times[0] if len(times) > 1 else 0.0
        if span < MIN_SPAN_S:
            return None
        return (len(times) - 1) / span

    @property
    def warning(self) -> str | None:
        """The plain-words status while behind, else ``None``."""
        rate = self.rate
        if not self.behind or rate is None:
            return None
        return f"falling behind: {rate:.0f} fps processed of {self.source_fps:.0f}, verdicts may be wrong"
