"""What the tracker emits: typed events, which the pipeline dispatches on by class (``match``).

Three are contract-2 observations, which the pipeline hands to the session (the match's record) as the
typed :mod:`referee.contract` value :meth:`~Start.observation` gives (the camera's additions its
:class:`~referee.contract.CameraNotes`): :class:`Start`, :class:`Play` and :class:`Draw`. Their
:meth:`~Start.as_dict` is that value's JSON, as the observation log holds it. Two are for the pipeline
alone, which acts on them itself: :class:`TakeBack` (the top card lifted off: its play is undone) and
:class:`Reread` (the top card read otherwise in clear view: its play is corrected). Their
:meth:`~TakeBack.as_dict` is for traces and tests.

Each event carries ``t`` (seconds: when it happened) and ``frame_index`` (when the tracker believed it).
A :class:`Play` or :class:`Start` may carry ``corrected_from`` and ``reason`` (a reading put right),
``alternatives`` (its other readings) and ``confidence``. The pipeline sets ``unsure`` on a start, play
or draw (why the camera is not sure of what it saw) before it is judged: the referee's alerts on it then
carry it too (contract 2's camera additions).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from referee import contract
from referee.cards import Card
from referee.contract import CameraNotes, ObservationDict, observation_json


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

    def observation(self) -> contract.Start:
        """The contract-2 ``start`` observation, with the camera's notes."""
        return contract.Start(Card.from_label(self.card), self.t, CameraNotes(
            self.frame_index, self.corrected_from, self.reason, self.alternatives, self.confidence, self.unsure))

    def as_dict(self) -> ObservationDict:
        """The contract-2 ``start`` observation, as the log holds it."""
        return observation_json(self.observation())


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

    def observation(self) -> contract.Play:
        """The contract-2 ``play`` observation (no colour named: that is the operator's ``color``), with the
        camera's notes."""
        return contract.Play(Card.from_label(self.card), self.seat, t=self.t, camera=CameraNotes(
            self.frame_index, self.corrected_from, self.reason, self.alternatives, self.confidence, self.unsure))

    def as_dict(self) -> ObservationDict:
        """The contract-2 ``play`` observation, as the log holds it."""
        return observation_json(self.observation())


@dataclass(frozen=True, slots=True)
class Draw:
    """``count`` cards (one) taken from the stock by ``seat`` (``None``: the seat that owes it) at ``t``."""

    seat: int | None
    t: float
    frame_index: int
    count: int = 1
    #: Why the camera is not sure of what it saw (set by the pipeline: it fell behind, the seats are a guess).
    unsure: str | None = None

    def observation(self) -> contract.Draw:
        """The contract-2 ``draw`` observation, with the camera's notes (when, and ``unsure``)."""
        return contract.Draw(self.seat, self.count, self.t, CameraNotes(self.frame_index, unsure=self.unsure))

    def as_dict(self) -> ObservationDict:
        """The contract-2 ``draw`` observation, as the log holds it."""
        return observation_json(self.observation())


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
