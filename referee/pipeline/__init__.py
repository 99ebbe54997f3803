"""The one place that wires the camera to the referee: capture -> calibration warp -> detect ->
track -> ``session.submit``, plus the annotated frame and the health status for the dashboard.

The commands that run it (``referee run``, ``referee demo``) are in :mod:`referee.commands`. Every
observation and every referee output line (contracts 2 and 3) goes, in order, to the
:class:`LogWriter`'s streams; that includes what the dashboard submits, because the log follows the
session's events rather than only the pipeline's own submissions.

One module per part, the frame loop first (its docstring lists the steps a frame takes):

- :mod:`~referee.pipeline.loop`: :class:`Pipeline`, its wiring and the frame loop (``step``, ``submit``, ``run``);
- :mod:`~referee.pipeline.table_view`: the calibration in use, the pile view, the motion zones, a new profile
  between frames;
- :mod:`~referee.pipeline.frame_counts`: the motion-gated detection and the frame counts retimed to the rate
  frames are judged at;
- :mod:`~referee.pipeline.reading`: a card read again off the deck's faces and closer up (detector, classifier);
- :mod:`~referee.pipeline.seating`: a play's or draw's seat while the table finder places the players;
- :mod:`~referee.pipeline.corrections`: take-backs and re-reads of the newest play;
- :mod:`~referee.pipeline.status`: the run's counts and the annotated frame streamed;
- :mod:`~referee.pipeline.log_writer`: the contract-2/3 log;
- :mod:`~referee.pipeline.session_protocol`: what the pipeline needs of the match session.
"""

from __future__ import annotations

from referee.pipeline.frame_counts import RETIME_SHARE
from referee.pipeline.log_writer import LogWriter
from referee.pipeline.loop import Pipeline
from referee.pipeline.session_protocol import Session, card_query
from referee.pipeline.status import PipelineStats

__all__ = ["RETIME_SHARE", "LogWriter", "Pipeline", "PipelineStats", "Session", "card_query"]
