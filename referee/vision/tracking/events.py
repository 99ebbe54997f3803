"""What the tracker emits: typed events, which the pipeline dispatches on by class (``match``).

Three are contract-2 observations, which the pipeline hands to the session (the match's record) as the
typed :mod:`referee.contract` value :meth:`~Start.observation` gives (the camera's additions its
:class:`~referee.contract.CameraNotes`): :class:`Start`, :class:`Play` and :class:`Draw`. Their
:meth:`~Start.as_dict` is that value's JSON, as the observation log holds it. Two are for the pipeline
alone, which acts on them itself: :class:`TakeBack` (the top card lifted off: its play is undone) and
:class:`Reread` (the top card read otherwise in clear view: its play is corrected). Their
:meth:`~TakeBack.as_dict` is for traces and tests.

Each event carries ``t`` (seconds: when it happened). A start, play or draw holds what the camera adds to
it as one :class:`~referee.contract.CameraNotes` (``camera``): ``frame_index`` (when the tracker believed
it); for a start or play ``corrected_from`` and ``reason`` (a reading put right), ``alternatives`` (its
other readings) and ``confidence``; and ``unsure`` (why the camera is not sure of what it saw), which the
pipeline sets (:func:`noted`) before it is judged: the referee's alerts on it then carry it too (contract
2's camera additions). The tracker makes them with those notes given flat (``Play(card, seat, t,
frame_index, confidence=...)``); :func:`dataclasses.replace` gives them whole (``camera=``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeVar

from referee import contract
from referee.cards import Card
from referee.contract import CameraNotes, ObservationDict, observation_json


def _notes(frame_index: int | None, camera: CameraNotes | None, flat: CameraNotes) -> CameraNotes:
    """An observed event's notes: ``flat`` (built from the notes given flat, ``frame_index`` first) or
    ``camera`` (given whole); one of the two, not both."""
    if camera is None:
        if frame_index is None:
            raise TypeError("an observed event needs its frame_index (or its camera notes whole)")
        return flat
    if frame_index is not None or flat != CameraNotes(0):
        raise TypeError("an observed event takes its camera notes flat or whole, not both")
    return camera


@dataclass(frozen=True, slots=True, init=False)
class Start:
    """The card turned from the stock to start the pile, come to rest at ``t``.

    Made with the camera's notes flat, as the tracker knows them (``Start(card, t, frame_index,
    corrected_from=..., reason=..., alternatives=..., confidence=...)``), or whole (``camera=``)."""

    card: str
    t: float
    #: What the camera adds: when the tracker believed it, a reading put right, its other readings, how sure.
    camera: CameraNotes

    def __init__(self, card: str, t: float, frame_index: int | None = None, corrected_from: str | None = None,
                 reason: str | None = None, alternatives: tuple[str, ...] = (), confidence: float | None = None,
                 unsure: str | None = None, *, camera: CameraNotes | None = None) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "t", t)
        object.__setattr__(self, "camera", _notes(frame_index, camera, CameraNotes(
            frame_index or 0, corrected_from, reason, alternatives, confidence, unsure)))

    def observation(self) -> contract.Start:
        """The contract-2 ``start`` observation, with the camera's notes."""
        return contract.Start(Card.from_label(self.card), self.t, self.camera)

    def as_dict(self) -> ObservationDict:
        """The contract-2 ``start`` observation, as the log holds it."""
        return observation_json(self.observation())


@dataclass(frozen=True, slots=True, init=False)
class Play:
    """``card`` laid on the pile by ``seat`` (``None``: unknown), come to rest at ``t``.

    Made with the camera's notes flat, as the tracker knows them (``Play(card, seat, t, frame_index,
    corrected_from=..., reason=..., alternatives=..., confidence=...)``), or whole (``camera=``)."""

    card: str
    seat: int | None
    t: float
    #: What the camera adds: when the tracker believed it, a reading put right (or why a play was inferred),
    #: its other readings, how sure.
    camera: CameraNotes

    def __init__(self, card: str, seat: int | None, t: float, frame_index: int | None = None,
                 corrected_from: str | None = None, reason: str | None = None, alternatives: tuple[str, ...] = (),
                 confidence: float | None = None, unsure: str | None = None, *,
                 camera: CameraNotes | None = None) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "t", t)
        object.__setattr__(self, "camera", _notes(frame_index, camera, CameraNotes(
            frame_index or 0, corrected_from, reason, alternatives, confidence, unsure)))

    def observation(self) -> contract.Play:
        """The contract-2 ``play`` observation (no colour named: that is the operator's ``color``), with the
        camera's notes."""
        return contract.Play(Card.from_label(self.card), self.seat, t=self.t, camera=self.camera)

    def as_dict(self) -> ObservationDict:
        """The contract-2 ``play`` observation, as the log holds it."""
        return observation_json(self.observation())


@dataclass(frozen=True, slots=True, init=False)
class Draw:
    """``count`` cards (one) taken from the stock by ``seat`` (``None``: the seat that owes it) at ``t``.

    Made with the camera's notes flat (``Draw(seat, t, frame_index)``) or whole (``camera=``)."""

    seat: int | None
    t: float
    count: int
    #: What the camera adds: when the tracker believed it (and ``unsure``, set by the pipeline).
    camera: CameraNotes

    def __init__(self, seat: int | None, t: float, frame_index: int | None = None, count: int = 1,
                 unsure: str | None = None, *, camera: CameraNotes | None = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "t", t)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "camera", _notes(frame_index, camera, CameraNotes(frame_index or 0, unsure=unsure)))

    def observation(self) -> contract.Draw:
        """The contract-2 ``draw`` observation, with the camera's notes (when, and ``unsure``)."""
        return contract.Draw(self.seat, self.count, self.t, self.camera)

    def as_dict(self) -> ObservationDict:
        """The contract-2 ``draw`` observation, as the log holds it."""
        return observation_json(self.observation())


#: The tracker's observations: the events that carry the camera's notes.
Observed = TypeVar("Observed", bound=Start | Play | Draw)


def noted(event: Observed, *, frame_index: int | None = None, unsure: str | None = None) -> Observed:
    """``event`` with its notes changed: believed at ``frame_index`` (a draw judged later than it was
    drawn), or ``unsure`` (why the camera is not sure of it: set by the pipeline); ``None`` keeps a note."""
    notes = event.camera
    if frame_index is not None:
        notes = replace(notes, frame_index=frame_index)
    if unsure is not None:
        notes = replace(notes, unsure=unsure)
    return replace(event, camera=notes)


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
