"""The run's log: every observation and every referee output line (contracts 2 and 3), in order.

:class:`LogWriter` listens to the session's events (:meth:`LogWriter.on_event`), not to the pipeline's own
submissions, so what the dashboard submits is in the log too, in the order the session took it: each
event's observation first, then the referee's output lines for it; an undo and a correction are one
``info`` line each. Each line is written to every stream (stdout, the ``--log`` file) and flushed, under a
lock: the frame loop and the web thread both submit.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from typing import IO, Any

from referee.session import Event


class LogWriter:
    """Contract-2/3 lines, in order, to any number of text streams (stdout, the ``--log`` file)."""

    def __init__(self, *streams: IO[str]) -> None:
        self.streams = [s for s in streams if s is not None]
        self._lock = threading.Lock()
        self.lines = 0

    def write(self, line: Mapping[str, Any]) -> None:
        text = json.dumps(dict(line), separators=(",", ":"), sort_keys=False)
        with self._lock:
            self.lines += 1
            for stream in self.streams:
                stream.write(text + "\n")
                stream.flush()

    def write_all(self, lines: Sequence[Mapping[str, Any]]) -> None:
        for line in lines:
            self.write(line)

    def on_event(self, event: Event) -> None:
        """A session event: its observation, then the referee's output lines."""
        kind = event.get("kind")
        obs = event.get("observation")
        if kind == "undo":
            self.write({"type": "info", "message": "observation undone", "undone": obs})
            return
        if kind == "correct":
            self.write({"type": "info", "message": "last play corrected", "undone_seq": event.get("undone_seq")})
        if isinstance(obs, Mapping):
            self.write(obs)
        for out in event.get("outputs") or ():
            self.write(out)
