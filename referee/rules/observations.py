"""Contract-2 observations: parse and validate the dicts the referee is fed.

Each observation type of docs/contract.md (contract 2) becomes a small frozen dataclass of
:mod:`referee.contract` (re-exported here); unknown extra fields are ignored (forward compatible),
missing or malformed ones raise :class:`ObservationError` naming the field and the value. The camera's
additions to a start, play or draw are read back as its :class:`~referee.contract.CameraNotes` (the
referee judges without them). :func:`checked` holds a typed observation to what the parser would have read
from its JSON, so the camera's may be judged as they are.

>>> parse_observation({"type": "play", "card": "red_7", "seat": 1, "t": 3.2})
Play(card=Card.from_label('red_7'), seat=1, color=None, target=None, t=3.2)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from referee.cards import Card, CardError, Colour
from referee.contract import (
    MAX_DRAW_COUNT,
    MAX_HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OBSERVATION_TYPES,
    CameraNotes,
    Challenge,
    ColorNamed,
    Draw,
    Observation,
    Pass,
    Play,
    Reveal,
    Setup,
    Start,
    Uno,
    observation_json,
)

__all__ = [
    "MAX_PLAYERS",
    "PARSERS",
    "Challenge",
    "ColorNamed",
    "Draw",
    "Observation",
    "ObservationError",
    "Pass",
    "Play",
    "Reveal",
    "Setup",
    "Start",
    "Uno",
    "camera_notes",
    "card_from_label",
    "checked",
    "draw_fields",
    "intern_card",
    "parse_observation",
    "play_fields",
    "seat_fields",
]

_INF = math.inf


class ObservationError(ValueError):
    """An observation the referee cannot accept (bad type, field or value); nothing was changed."""


_CARD_CACHE: dict[str, Card] = {}
_INTERNED: dict[Card, Card] = {}


def intern_card(card: Card) -> Card:
    """The one shared instance equal to ``card``: dict lookups with it skip ``__eq__``."""
    return _INTERNED.setdefault(card, card)


def card_from_label(label: object, field_name: str = "card") -> Card:
    """A card from its label (cached); ObservationError naming ``field_name`` on a bad label."""
    if isinstance(label, str):
        card = _CARD_CACHE.get(label)
        if card is not None:
            return card
    try:
        card = intern_card(Card.from_label(label))  # type: ignore[arg-type]
    except CardError as exc:
        raise ObservationError(f"{field_name}: {exc}") from None
    if isinstance(label, str) and len(_CARD_CACHE) < 4096:
        _CARD_CACHE[label] = card
    return card


_COLOURS: dict[str, Colour] = {c.value: c for c in Colour}

# -- the common case, read cheaply ------------------------------------------------------------------
# The fields of a well-formed observation, in its dataclass's order, or None for anything else (an odd
# value, a label not parsed before, a colour not named exactly, an error to report), which the full
# parser below then reads. The parsers start with these; the referee calls them itself to judge a
# well-formed dict without building the observation (that took about half of the time spent judging).
# ``players`` bounds the seats.

PlayFields = tuple[Card, int | None, Colour | None, int | None, float | None]


def play_fields(obj: Mapping[str, Any], players: int) -> PlayFields | None:
    """A well-formed ``play``'s ``(card, seat, color, target, t)``, or None."""
    label = obj.get("card")
    card = _CARD_CACHE.get(label) if type(label) is str else None
    colour = obj.get("color")
    named = _COLOURS.get(colour) if type(colour) is str else None
    seat = obj.get("seat")
    target = obj.get("target")
    t = obj.get("t")
    if (
        card is None
        or (named is None and colour is not None)
        or not (seat is None or (type(seat) is int and 0 <= seat < players))
        or not (target is None or (type(target) is int and 0 <= target < players))
        or not (t is None or (type(t) is float and -_INF < t < _INF))  # NaN fails the comparison
    ):
        return None
    return card, seat, named, target, t


def draw_fields(obj: Mapping[str, Any], players: int) -> tuple[int | None, int, float | None] | None:
    """A well-formed ``draw``'s ``(seat, count, t)``, or None."""
    count = obj.get("count", 1)
    seat = obj.get("seat")
    t = obj.get("t")
    if (
        not (type(count) is int and 1 <= count <= MAX_DRAW_COUNT)
        or not (seat is None or (type(seat) is int and 0 <= seat < players))
        or not (t is None or (type(t) is float and -_INF < t < _INF))
    ):
        return None
    return seat, count, t


def seat_fields(obj: Mapping[str, Any], players: int) -> tuple[int | None, float | None] | None:
    """A well-formed ``(seat, t)`` of an observation that carries nothing else (``pass``, ``uno``,
    ``challenge``), or None."""
    seat = obj.get("seat")
    t = obj.get("t")
    if not (seat is None or (type(seat) is int and 0 <= seat < players)) or not (
        t is None or (type(t) is float and -_INF < t < _INF)
    ):
        return None
    return seat, t


def _colour(value: object, field_name: str) -> Colour:
    if isinstance(value, str):
        colour = _COLOURS.get(value)
        if colour is not None:
            return colour
    if not isinstance(value, str):
        raise ObservationError(f"{field_name} must be a colour name, got {value!r}")
    try:
        return Colour(value.strip().lower())
    except ValueError:
        known = ", ".join(c.value for c in Colour)
        raise ObservationError(f"{field_name}: unknown colour {value!r} (known: {known})") from None


def _int(value: object, field_name: str, *, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ObservationError(f"{field_name} must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise ObservationError(f"{field_name} out of range ({bound}): {value!r}")
    return value


def _seat(obj: Mapping[str, Any], players: int | None, name: str = "seat") -> int | None:
    value = obj.get(name)
    if value is None:
        return None
    high = players - 1 if players is not None else MAX_PLAYERS - 1
    if type(value) is int and 0 <= value <= high:  # the common case, checked cheaply
        return value
    return _int(value, name, low=0, high=high)


def _time(obj: Mapping[str, Any]) -> float | None:
    """``t`` as seconds; NaN, an infinity or an integer too big for a float is refused (it could
    not be printed back as JSON, nor compared with other times)."""
    value = obj.get("t")
    if value is None or (type(value) is float and -_INF < value < _INF):  # the common case, cheaply
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ObservationError(f"t must be a number of seconds, got {value!r}")
    try:
        seconds = float(value)
    except OverflowError:
        raise ObservationError("t out of range: an integer too large for a number of seconds") from None
    if not math.isfinite(seconds):
        raise ObservationError(f"t must be a finite number of seconds, got {value!r}")
    return seconds


def _required(obj: Mapping[str, Any], name: str, kind: str) -> Any:
    if name not in obj or obj[name] is None:
        raise ObservationError(f"{kind} observation needs a {name!r} field: {dict(obj)!r}")
    return obj[name]


def _parse_setup(obj: Mapping[str, Any], players: int | None) -> Setup:
    n = _int(_required(obj, "players", "setup"), "players", low=MIN_PLAYERS, high=MAX_PLAYERS)
    dealer = _int(obj.get("dealer", 0), "dealer", low=0, high=n - 1)
    rules = obj.get("rules")
    if rules is not None and not isinstance(rules, str):
        raise ObservationError(f"rules must be a preset name, got {rules!r}")
    hand_size = obj.get("hand_size")
    if hand_size is not None:
        hand_size = _int(hand_size, "hand_size", low=1, high=MAX_HAND_SIZE)
    options = obj.get("options") or {}
    if not isinstance(options, Mapping):
        raise ObservationError(f"options must be an object, got {options!r}")
    return Setup(n, dealer, rules, hand_size, dict(options), _time(obj))


def _parse_play(obj: Mapping[str, Any], players: int | None) -> Play:
    fields = play_fields(obj, players or MAX_PLAYERS)
    if fields is not None:
        return Play(*fields, camera_notes(obj))
    card = card_from_label(_required(obj, "card", "play"))
    colour = obj.get("color")
    named = _colour(colour, "color") if colour is not None else None
    target = _seat(obj, players, "target") if "target" in obj else None
    return Play(card, _seat(obj, players), named, target, _time(obj), camera_notes(obj))


def _parse_draw(obj: Mapping[str, Any], players: int | None) -> Draw:
    fields = draw_fields(obj, players or MAX_PLAYERS)
    if fields is not None:
        return Draw(*fields, camera_notes(obj))
    count = _int(obj.get("count", 1), "count", low=1, high=MAX_DRAW_COUNT)
    return Draw(_seat(obj, players), count, _time(obj), camera_notes(obj))


def _parse_seat_only(cls: type[Pass | Uno | Challenge]) -> Callable[[Mapping[str, Any], int | None], Observation]:
    """The parser of an observation that carries nothing but a seat (and ``t``)."""

    def parse(obj: Mapping[str, Any], players: int | None) -> Observation:
        fields = seat_fields(obj, players or MAX_PLAYERS)
        if fields is not None:
            return cls(*fields)
        return cls(_seat(obj, players), _time(obj))

    return parse


def _parse_reveal(obj: Mapping[str, Any], players: int | None) -> Reveal:
    cards = obj.get("cards")
    if not isinstance(cards, list | tuple):
        raise ObservationError(f"reveal needs a 'cards' list of labels, got {cards!r}")
    parsed = tuple(card_from_label(label, f"cards[{i}]") for i, label in enumerate(cards))
    return Reveal(_seat(obj, players), parsed, _time(obj))


def parse_observation(obj: object, players: int | None = None) -> Observation:
    """Validate one contract-2 dict; ``players`` (when known) bounds the seats."""
    if type(obj) is not dict and not isinstance(obj, Mapping):
        raise ObservationError(f"an observation must be a JSON object, got {obj!r}")
    kind = obj.get("type")
    parser = PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        known = ", ".join(OBSERVATION_TYPES)
        raise ObservationError(f"unknown observation type {kind!r} (known: {known})")
    return parser(obj, players)


def _parse_colour_named(obj: Mapping[str, Any], players: int | None) -> ColorNamed:
    colour = _colour(_required(obj, "color", "color"), "color")
    return ColorNamed(colour, _seat(obj, players), _time(obj))


def _parse_start(obj: Mapping[str, Any], players: int | None) -> Start:
    return Start(card_from_label(_required(obj, "card", "start")), _time(obj), camera_notes(obj))


#: observation type -> its parser (what :func:`parse_observation` dispatches to)
PARSERS: dict[str, Callable[[Mapping[str, Any], int | None], Observation]] = {
    "play": _parse_play,
    "draw": _parse_draw,
    "pass": _parse_seat_only(Pass),
    "color": _parse_colour_named,
    "uno": _parse_seat_only(Uno),
    "start": _parse_start,
    "setup": _parse_setup,
    "challenge": _parse_seat_only(Challenge),
    "reveal": _parse_reveal,
}


# -- the camera's notes, and typed observations held to the parser ------------------------------------


def camera_notes(obj: Mapping[str, Any]) -> CameraNotes | None:
    """What the camera added to a ``start``, ``play`` or ``draw`` (contract 2's camera additions), read
    back from its JSON: ``None`` without an integer ``frame_index`` (no camera saw it). The referee judges
    without them, so a note of the wrong kind is left out, never refused."""
    frame_index = obj.get("frame_index")
    if type(frame_index) is not int:
        return None
    alternatives = obj.get("alternatives")
    confidence = obj.get("confidence")
    return CameraNotes(
        frame_index, _text(obj.get("corrected_from")), _text(obj.get("reason")),
        tuple(a for a in alternatives if isinstance(a, str)) if isinstance(alternatives, list | tuple) else (),
        confidence if type(confidence) in (float, int) else None, _text(obj.get("unsure")),
    )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _at_table(seat: int | None, players: int) -> bool:
    return seat is None or (type(seat) is int and 0 <= seat < players)


def _seconds(t: float | None) -> bool:
    return t is None or (type(t) is float and -_INF < t < _INF)


def checked(obs: Observation, players: int | None = None) -> Observation:
    """``obs`` as :func:`parse_observation` reads its JSON (:func:`~referee.contract.observation_json`),
    ``players`` (when known) bounding the seats: ``obs`` itself when its values are the well-formed ones the
    parser's cheap checks pass (a start, play, draw, pass, uno or challenge: seats at the table, ``t`` a
    finite float, a draw's count in bounds), else its JSON parsed (a seat out of bounds refused with the
    parser's error, a whole ``t`` made seconds). A typed observation so held is judged as its JSON would be."""
    high = players or MAX_PLAYERS
    match obs:
        case Play(seat=seat, target=target, t=t):
            well_formed = _at_table(seat, high) and _at_table(target, high) and _seconds(t)
        case Draw(seat=seat, count=count, t=t):
            well_formed = (_at_table(seat, high) and type(count) is int and 1 <= count <= MAX_DRAW_COUNT
                           and _seconds(t))
        case Start(t=t):
            well_formed = _seconds(t)
        case Pass(seat=seat, t=t) | Uno(seat=seat, t=t) | Challenge(seat=seat, t=t):
            well_formed = _at_table(seat, high) and _seconds(t)
        case _:
            well_formed = False
    return obs if well_formed else parse_observation(observation_json(obs), players)
