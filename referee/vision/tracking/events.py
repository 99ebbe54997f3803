"""What the tracker emits: contract-2 observations (``start``, ``play``, ``draw``) and two for the pipeline
alone (``take_back``, ``reread``), as the dicts the pipeline dispatches on by ``type``.

Each event carries ``t`` (seconds: when it happened) and, once believed, ``frame_index`` (when the tracker
believed it). A ``play`` or ``start`` may carry ``corrected_from`` and ``reason`` (a reading put right),
``alternatives`` (its other readings) and ``confidence``.
"""

from __future__ import annotations

from typing import Any

Observation = dict[str, Any]


def start(card: str, t: float) -> Observation:
    """The card turned from the stock to start the pile, come to rest at ``t``."""
    return {"type": "start", "card": card, "t": t}


def play(card: str, seat: int | None, t: float) -> Observation:
    """``card`` laid on the pile by ``seat``, come to rest at ``t``."""
    return {"type": "play", "card": card, "seat": seat, "t": t}


def draw(seat: int | None, t: float, frame_index: int) -> Observation:
    """One card taken from the stock by ``seat`` (``None``: the seat that owes it)."""
    return {"type": "draw", "seat": seat, "count": 1, "t": t, "frame_index": frame_index}


def take_back(card: str, seat: int | None, t: float, frame_index: int) -> Observation:
    """The top card, ``card``, lifted off the pile: its play is undone."""
    return {"type": "take_back", "card": card, "seat": seat, "t": t, "frame_index": frame_index}


def reread(card: str, was: str, seat: int | None, t: float, frame_index: int) -> Observation:
    """The top card, believed as ``was``, read as ``card`` in clear view: its play is corrected."""
    return {"type": "reread", "card": card, "was": was, "seat": seat, "t": t, "frame_index": frame_index}
