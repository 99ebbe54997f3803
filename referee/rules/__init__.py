"""The rules engine: rule presets, observations and the Referee state machine (pure)."""

from __future__ import annotations

from referee.rules.observations import Observation, ObservationError, parse_observation
from referee.rules.presets import PRESETS, RuleOptions, find_preset
from referee.rules.referee import Referee

__all__ = [
    "PRESETS",
    "Observation",
    "ObservationError",
    "Referee",
    "RuleOptions",
    "find_preset",
    "parse_observation",
]
