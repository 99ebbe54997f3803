"""What the tracker emits: typed events, which the pipeline dispatches on by class (``match``).

Three are contract-2 observations, which the pipeline hands to the session (the match's record) as
:meth:`~Start.as_dict` writes them, the JSON of the observation log: :class:`Start`, :class:`Play` and
:class:`Draw`. Two are for the pipeline alone, which acts on them itself: :class:`TakeBack` (the top card
lifted off: its play is undone) and :class:`Reread` (the top card read otherwise in clear view: its play is
corrected). Their :meth:`~TakeBack.as_dict` is for traces and tests.

Each event carries ``t`` (seconds: when it happened) and ``frame_index`` (when the tracker believed it).
A :class:`Play` or :class:`Start` may carry ``corrected_from`` and ``reason`` (a reading put right),
``alternatives`` (its other readings) and ``confidence``. The pipeline sets ``unsure`` on a start, play
or draw (why the camera is not sure of what it saw) before it is judged: the referee's alerts on it then
carry it too (contract 2's camera additions).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from referee.contract import ObservationDict


def _details(
    obs: ObservationDict, frame_index: int, corrected_from: str | None, reason: str | None,
    alternatives: tuple[str, ...], confidence: float | None, unsure: str | None,
) -> ObservationDict:
    """``obs`` with what a start or play may carry, in the order of its keys in the log: a correction
    (``corrected_from`` and its ``reason``), ``alternatives``, ``frame_index``, then a ``reason`` that
    corrects nothing (why a play was inferred), ``confidence`` and ``unsure``."""
    if corrected_from is not None:
        obs["corrected_from"] = corrected_from
        if reason is not None:
            obs["reason"] = reason
    if alternatives:
        obs["alternatives"] = list(alternatives)
    obs["frame_index"] = frame_index
    if corrected_from is None and reason is not None:
        obs["reason"] = reason
    if confidence is not None:
        obs["confidence"] = confidence
    return _unsure(obs, unsure)


def _unsure(obs: ObservationDict, unsure: str | None) -> ObservationDict:
    """``obs`` with ``unsure`` last, when there is one."""
    if unsure is not None:
        obs["unsure"] = unsure
    return obs


def alternatives_of(obs: Mapping[str, object]) -> tuple[str, ...]:
    """The other readings a recorded ``start`` or ``play`` carries (``()``: none): what :meth:`Play.as_dict`
    wrote as ``alternatives``, read back from the record."""
    found = obs.get("alternatives")
    if not isinstance(found, list | tuple):
        return ()
    return tuple(label for label in found if isinstance(label, str))


@dataclass(frozen=True, slots=True)
class Start:
    """The card turned from the stock to start the pile, come to rest at ``t``."""

    card: str
    t: float
    frame_index: int
    #: The label first voted, when the reading was put right (and ``reason`` says why).
    corrected_from: str | None = None
    reason: str | None = None
    #: The card's other readings (sorted), for a later fix by seat.
    alternatives: tuple[str, ...] = ()
    #: The mean confidence of the frames that voted (rounded to 3 places).
    confidence: float | None = None
    #: Why the camera is not sure of what it saw (set by the pipeline: it fell behind, the seats are a guess).
    unsure: str | None = None

    def as_dict(self) -> ObservationDict:
        """The contract-2 ``start`` observation, as the log holds it."""
        return _details({"type": "start", "card": self.card, "t": self.t}, self.frame_index,
                        self.corrected_from, self.reason, self.alternatives, self.confidence, self.unsure)


@dataclass(frozen=True, slots=True)
class Play:
    """``card`` laid on the pile by ``seat`` (``None``: unknown), come to rest at ``t``."""

    card: str
    seat: int | None
    t: float
    frame_index: int
    #: The label first voted, when the reading was put right (and ``reason`` says why).
    corrected_from: str | None = None
    #: Why the reading was put right, or (without ``corrected_from``) why a play was inferred.
    reason: str | None = None
    #: The card's other readings (sorted), for a later fix by seat.
    alternatives: tuple[str, ...] = ()
    #: The mean confidence of the frames that voted (rounded to 3 places).
    confidence: float | None = None
    #: Why the camera is not sure of what it saw (set by the pipeline: it fell behind, the seats are a guess).
    unsure: str | None = None

    def as_dict(self) -> ObservationDict:
        """The contract-2 ``play`` observation, as the log holds it."""
        return _details({"type": "play", "card": self.card, "seat": self.seat, "t": self.t}, self.frame_index,
                        self.corrected_from, self.reason, self.alternatives, self.confidence, self.unsure)


@dataclass(frozen=True, slots=True)
class Draw:
    """``count`` cards (one) taken from the stock by ``seat`` (``None``: the seat that owes it) at ``t``."""

    seat: int | None
    t: float
    frame_index: int
    count: int = 1
    #: Why the camera is not sure of what it saw (set by the pipeline: it fell behind, the seats are a guess).
    unsure: str | None = None

    def as_dict(self) -> ObservationDict:
        """The contract-2 ``draw`` observation, as the log holds it."""
        return _unsure({"type": "draw", "seat": self.seat, "count": self.count, "t": self.t,
                        "frame_index": self.frame_index}, self.unsure)


@dataclass(frozen=True, slots=True)
class TakeBack:
    """The top card, ``card`` (laid by ``seat``), lifted off the pile: its play is undone."""

    card: str
    seat: int | None
    t: float
    frame_index: int

    def as_dict(self) -> dict[str, object]:
        """As a dict of ``type`` ``take_back`` (for the pipeline alone: no contract-2 observation)."""
        return {"type": "take_back", "card": self.card, "seat": self.seat, "t": self.t,
                "frame_index": self.frame_index}


@dataclass(frozen=True, slots=True)
class Reread:
    """The top card, believed as ``was``, read as ``card`` in clear view: its play is corrected."""

    card: str
    was: str
    seat: int | None
    t: float
    frame_index: int

    def as_dict(self) -> dict[str, object]:
        """As a dict of ``type`` ``reread`` (for the pipeline alone: no contract-2 observation)."""
        return {"type": "reread", "card": self.card, "was": self.was, "seat": self.seat, "t": self.t,
                "frame_index": self.frame_index}


#: Everything :meth:`~referee.vision.tracking.PileTracker.update` emits.
TrackerEvent = Start | Play | Draw | TakeBack | Reread
