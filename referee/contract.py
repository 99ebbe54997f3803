"""The typed values of contracts 2 and 3 (docs/contract.md): observations, alert codes, output lines, limits.

One module for what the referee is told and what it says, so the tracker, the referee, the store, the
web API and the hall agree on names and bounds:

- the observations as frozen dataclasses (:class:`Setup`, :class:`Start`, :class:`Play`,
  :class:`ColorNamed`, :class:`Draw`, :class:`Pass`, :class:`Uno`, :class:`Challenge`,
  :class:`Reveal`; their union :data:`Observation`), which :func:`referee.rules.observations.parse_observation`
  builds from JSON and :func:`observation_json` writes as JSON; a start, play or draw the camera saw carries
  :class:`CameraNotes` (contract 2's camera additions: when it was believed, a reading put right, the other
  readings, how sure);
- :class:`AlertCode`, a ``str`` enum, so an alert's JSON is the same whether its code is a member or a
  plain string (``json.dumps(AlertCode.MISSED_UNO) == '"missed_uno"'``);
- the output lines' shapes as ``TypedDict`` (:class:`AlertLine`, :class:`RoundEndLine`, ...), the JSON
  form they keep from the referee to the log, the store, the web and MQTT;
- the limits every edge checks (:data:`MAX_PLAYERS`, :data:`MAX_HAND_SIZE`, :data:`MAX_DRAW_COUNT`).

JSON (``dict[str, Any]``: :data:`ObservationDict`, :data:`Line`) belongs at the edges: the log, the web
API, MQTT. Pure: the standard library and :mod:`referee.cards` only, so every layer may use it (the
rules, vision's tracker, the session, the web).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Literal, NotRequired, TypedDict

from referee.cards import Card, Colour

__all__ = [
    "ALERT_CODES",
    "MAX_DRAW_COUNT",
    "MAX_HAND_SIZE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "OBSERVATION_TYPES",
    "OUTPUT_TYPES",
    "AlertCode",
    "AlertLine",
    "CameraNotes",
    "Challenge",
    "Citation",
    "ColorNamed",
    "Draw",
    "EliminatedLine",
    "InfoLine",
    "Line",
    "MatchEndLine",
    "Observation",
    "ObservationDict",
    "ObservationType",
    "OutputLine",
    "Pass",
    "Play",
    "Reveal",
    "RoundEndLine",
    "ScoresLine",
    "Setup",
    "Start",
    "Uno",
    "observation_json",
    "observation_type",
]

# -- limits -------------------------------------------------------------------------------------------
#: Seats at one table: a ``setup``'s ``players``.
MIN_PLAYERS = 2
MAX_PLAYERS = 10
#: Cards dealt to each player: a ``setup``'s ``hand_size``.
MAX_HAND_SIZE = 30
#: Cards one ``draw`` may report. The largest deck (the fractions deck) holds 208 cards, so a long "draw
#: until you can play" fits; the referee, ``referee replay`` and the web API all refuse more.
MAX_DRAW_COUNT = 200


# -- alert codes ----------------------------------------------------------------------------------------
class AlertCode(enum.StrEnum):
    """Every alert code of contract 3 (how each is decided: :mod:`referee.rules.referee`)."""

    ILLEGAL_CARD = "illegal_card"
    OUT_OF_TURN = "out_of_turn"
    SKIPPED_TURN_PLAYED = "skipped_turn_played"
    MISSED_DRAW_PENALTY = "missed_draw_penalty"
    MISSED_UNO = "missed_uno"
    ILLEGAL_WILD_DRAW_FOUR = "illegal_wild_draw_four"
    FAILED_CHALLENGE = "failed_challenge"
    IMPOSSIBLE_CARD = "impossible_card"


#: The alert codes as plain strings, in the contract's order.
ALERT_CODES: tuple[str, ...] = tuple(code.value for code in AlertCode)

# -- observations ---------------------------------------------------------------------------------------
ObservationType = Literal["setup", "start", "play", "color", "draw", "pass", "uno", "challenge", "reveal"]
#: Every observation type of contract 2, in the contract's order.
OBSERVATION_TYPES: tuple[ObservationType, ...] = (
    "setup", "start", "play", "color", "draw", "pass", "uno", "challenge", "reveal",
)
#: An observation as JSON (contract 2): read from a log or a request, written to the record.
ObservationDict = dict[str, Any]


@dataclass(frozen=True, slots=True)
class CameraNotes:
    """What the camera adds to a ``start``, ``play`` or ``draw`` it saw (contract 2's camera additions).

    The referee judges without them (a parsed observation has none); the record keeps them, the alerts an
    ``unsure`` observation led to carry its ``unsure``, and a later fix by seat reads ``alternatives``.
    """

    #: The frame the tracker believed the observation at.
    frame_index: int
    #: The label first voted, when the reading was put right (and ``reason`` says why).
    corrected_from: str | None = None
    #: Why the reading was put right, or (without ``corrected_from``) why a play was inferred.
    reason: str | None = None
    #: The card's other readings (sorted), for a later fix by seat.
    alternatives: tuple[str, ...] = ()
    #: The mean confidence of the frames that voted (rounded to 3 places).
    confidence: float | None = None
    #: Why the camera is not sure of what it saw (it fell behind, the seats are a guess).
    unsure: str | None = None


@dataclass(frozen=True, slots=True)
class Setup:
    """Starts a round; later setups start new rounds of the same match."""

    players: int
    dealer: int
    rules: str | None = None
    hand_size: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    t: float | None = None


@dataclass(frozen=True, slots=True)
class Start:
    """The card turned from the stock to start the pile."""

    card: Card
    t: float | None = None
    camera: CameraNotes | None = None


@dataclass(frozen=True, slots=True)
class Play:
    """A card landed on the pile; ``color`` is the colour named for a wild, ``target`` the seat a
    seven is swapped with (seven-zero)."""

    card: Card
    seat: int | None
    color: Colour | None = None
    target: int | None = None
    t: float | None = None
    camera: CameraNotes | None = None


@dataclass(frozen=True, slots=True)
class ColorNamed:
    """The colour named for the wild just played."""

    color: Colour
    seat: int | None = None
    t: float | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    """Cards taken from the stock."""

    seat: int | None
    count: int = 1
    t: float | None = None
    camera: CameraNotes | None = None


@dataclass(frozen=True, slots=True)
class Pass:
    """A player ends the turn without playing."""

    seat: int | None
    t: float | None = None


@dataclass(frozen=True, slots=True)
class Uno:
    """A player called UNO."""

    seat: int | None
    t: float | None = None


@dataclass(frozen=True, slots=True)
class Challenge:
    """The victim of a Wild Draw Four challenges it."""

    seat: int | None
    t: float | None = None


@dataclass(frozen=True, slots=True)
class Reveal:
    """A hand shown, to settle a challenge or for scoring at the round's end."""

    seat: int | None
    cards: tuple[Card, ...]
    t: float | None = None


Observation = Setup | Start | Play | ColorNamed | Draw | Pass | Uno | Challenge | Reveal


def _fast_init(cls: type[Any]) -> None:
    """Give a frozen slots dataclass an equivalent ``__init__`` that fills the slots directly.

    A frozen dataclass's generated ``__init__`` goes through ``object.__setattr__`` per field,
    which made building observations half the cost of judging them. Same signature and defaults;
    instances stay frozen (assignment still raises ``FrozenInstanceError``).
    """
    names = [f.name for f in fields(cls)]
    namespace: dict[str, Any] = {}
    params = []
    for f in fields(cls):
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    body = "".join(f"    _set_{name}(self, {name})\n" for name in names)
    exec(f"def __init__(self, {', '.join(params)}):\n{body}", namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init


for _cls in (Start, Play, ColorNamed, Draw, Pass, Uno, Challenge, Reveal):
    _fast_init(_cls)

#: Each observation class's ``type`` in the log.
_TYPES: dict[type[Any], ObservationType] = {
    Setup: "setup", Start: "start", Play: "play", ColorNamed: "color", Draw: "draw", Pass: "pass", Uno: "uno",
    Challenge: "challenge", Reveal: "reveal",
}


def observation_type(obs: Observation) -> ObservationType:
    """``obs``'s ``type`` in the log (``"play"`` for a :class:`Play`)."""
    return _TYPES[type(obs)]


def observation_json(obs: Observation) -> ObservationDict:
    """``obs`` as its contract-2 JSON object, the inverse of
    :func:`referee.rules.observations.parse_observation`: ``type`` first, then the fields in their
    order; an optional field (one whose default is ``None``) is left out while it is ``None`` (a
    ``seat`` the table does not know is ``null``); cards as labels, colours by name. The camera's notes
    (the last field) are written as keys of their own, in the order the camera's log has them
    (:func:`_camera_json`)."""
    out: ObservationDict = {"type": _TYPES[type(obs)]}
    for f in fields(obs):
        value = getattr(obs, f.name)
        if value is None and f.default is None:
            continue
        if isinstance(value, CameraNotes):
            _camera_json(out, value)
        else:
            out[f.name] = _json_value(value)
    return out


def _camera_json(out: ObservationDict, notes: CameraNotes) -> None:
    """``notes`` added to ``out`` in the order of the camera's log: a correction (``corrected_from`` and
    its ``reason``), ``alternatives``, ``frame_index``, then a ``reason`` that corrects nothing (why a play
    was inferred), ``confidence``, and ``unsure`` last. A key whose value is ``None`` (or no alternatives)
    is left out."""
    if notes.corrected_from is not None:
        out["corrected_from"] = notes.corrected_from
        if notes.reason is not None:
            out["reason"] = notes.reason
    if notes.alternatives:
        out["alternatives"] = list(notes.alternatives)
    out["frame_index"] = notes.frame_index
    if notes.corrected_from is None and notes.reason is not None:
        out["reason"] = notes.reason
    if notes.confidence is not None:
        out["confidence"] = notes.confidence
    if notes.unsure is not None:
        out["unsure"] = notes.unsure


def _json_value(value: object) -> object:
    """A field's value as JSON: a card's label, a colour's name, a list of labels, a plain dict."""
    if isinstance(value, Card):
        return value.label
    if isinstance(value, Colour):
        return value.value
    if isinstance(value, tuple):
        return [_json_value(v) for v in value]
    if isinstance(value, Mapping):
        return dict(value)
    return value


# -- output lines ---------------------------------------------------------------------------------------
#: Every output line type the referee emits: contract 3's fixed four, then ``info`` and ``eliminated``.
OUTPUT_TYPES: tuple[str, ...] = ("alert", "round_end", "scores", "match_end", "info", "eliminated")
#: A line as plain JSON, where its shape is not known: a log's or a script's line, read back from a file.
#: The referee's output lines are typed :data:`OutputLine` (the ``*Line`` types below).
Line = dict[str, Any]


class Citation(TypedDict):
    """What an alert's rule sheet says of it (:func:`referee.rules.quotes.citation`)."""

    sheet: str
    lang: str
    quote: NotRequired[str]
    quote_en: NotRequired[str]


class AlertLine(TypedDict):
    """A rule broken: ``penalty_cards`` is what ``seat`` must draw under the active preset."""

    type: Literal["alert"]
    #: a member where the referee made the line (its JSON is the code's value); a line read back from JSON
    #: is a :data:`Line`, its code a plain string
    code: AlertCode
    seat: int
    penalty_cards: int
    message: str
    card: NotRequired[str]
    rule: NotRequired[Citation]
    t: NotRequired[float]
    unsure: NotRequired[str]


class RoundEndLine(TypedDict):
    """A round won by ``winner``; ``points`` is ``None`` until the hands needed are revealed."""

    type: Literal["round_end"]
    winner: int
    points: int | None
    round: int
    team: NotRequired[list[int]]  # the winner and partner (team play)


class ScoresLine(TypedDict):
    """The scores after a scored round."""

    type: Literal["scores"]
    scores: list[int]
    round: int


class MatchEndLine(TypedDict):
    """The match won by ``winner`` (the target reached)."""

    type: Literal["match_end"]
    winner: int
    scores: list[int]
    team: NotRequired[list[int]]


class InfoLine(TypedDict):
    """Something worth saying that breaks no rule (a colour inferred, a jump-in, a hand swap, ...); a
    consumer ignores fields it does not know (contract 3), so it may carry more about what it says."""

    type: Literal["info"]
    message: str
    seat: NotRequired[int]  # a jump-in's seat
    inferred_colour: NotRequired[str]  # the colour a play was taken to follow
    t: NotRequired[float]


class EliminatedLine(TypedDict):
    """A seat out of the match (``scoring=elimination``)."""

    type: Literal["eliminated"]
    seat: int
    score: int


OutputLine = AlertLine | RoundEndLine | ScoresLine | MatchEndLine | InfoLine | EliminatedLine
