"""The web API's request and response bodies: contract-2 observations and the controls, strict.

Strict means a field takes its own JSON type only: ``"1"``, ``1.0`` or ``true`` is not the seat 1,
and ``NaN``/``Infinity`` are no numbers. Labels and colours are lower-cased before they are checked,
so ``RED_7`` is ``red_7``. Numbers a table could never use (a hand of a billion cards) are refused
here, with a 422 that names the field, before the referee sees them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints

from referee.cards import Colour
from referee.contract import MAX_DRAW_COUNT, MAX_HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS

__all__ = ["ChallengeObs", "ColorObs", "CorrectIn", "DrawObs", "EventOut", "HandCardOut",
           "HandPhotoOut", "NamesIn", "Observation", "OkOut", "PassObs", "PlayObs", "RevealObs",
           "SetupIn", "SetupObs", "StartObs", "UnoObs"]

#: The numeric rule options and the range accepted for each (the referee takes any value >= 1 or
#: >= 0): hand sizes as in a setup's ``hand_size``, targets up to far beyond the sheets' 1000, and
#: penalties up to 60 cards.
OPTION_RANGES: dict[str, tuple[int, int]] = {
    "hand_size": (1, MAX_HAND_SIZE), "target": (1, 100_000), "uno_penalty": (0, 60),
    "misplay_penalty": (0, 60), "challenge_guilty_penalty": (0, 60),
    "challenge_failed_penalty": (0, 60), "fraction_points": (0, 1000),
}


def _lowered(value: object) -> object:
    """Strip and lower-case a string before its pattern is checked; anything else as it is."""
    return value.strip().lower() if isinstance(value, str) else value


def _a_colour(value: str) -> str:
    known = [c.value for c in Colour]
    if value not in known:
        raise ValueError(f"unknown colour {value!r} (known: {', '.join(known)})")
    return value


def _options_in_range(options: Mapping[str, Any]) -> Mapping[str, Any]:
    """Refuse a numeric option outside :data:`OPTION_RANGES` (given as a number or a string)."""
    for name, (low, high) in OPTION_RANGES.items():
        value = options.get(name)
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit() and len(value) < 30:
            value = int(value)
        if type(value) is int and not low <= value <= high:
            raise ValueError(f"option {name} must be between {low} and {high}, got {value}")
    return options


Label = Annotated[str, BeforeValidator(_lowered),
                  StringConstraints(min_length=1, max_length=32, pattern=r"^[a-z0-9_/]+$")]
ColourName = Annotated[str, BeforeValidator(_lowered),
                       StringConstraints(min_length=1, max_length=16, pattern=r"^[a-z]+$")]
KnownColour = Annotated[ColourName, AfterValidator(_a_colour)]
Seat = Annotated[int, Field(ge=0, le=15)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, max_length=40)]
PresetName = Annotated[str, StringConstraints(max_length=32, pattern=r"^[a-z0-9_-]+$")]
OptionValue = bool | int | Annotated[float, Field(allow_inf_nan=False)] | Annotated[
    str, StringConstraints(max_length=64)]
Options = Annotated[dict[Annotated[str, StringConstraints(max_length=40)], OptionValue],
                    Field(max_length=40), AfterValidator(_options_in_range)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _Obs(_Strict):
    t: float | None = Field(default=None, ge=0, allow_inf_nan=False)


class SetupObs(_Obs):
    type: Literal["setup"]
    players: int = Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)
    dealer: int = Field(default=0, ge=0, le=MAX_PLAYERS - 1)
    rules: PresetName | None = None
    hand_size: int | None = Field(default=None, ge=1, le=MAX_HAND_SIZE)
    options: Options = Field(default_factory=dict)


class StartObs(_Obs):
    type: Literal["start"]
    card: Label


class PlayObs(_Obs):
    type: Literal["play"]
    card: Label
    seat: Seat | None = None
    color: ColourName | None = None
    target: Seat | None = None  # the seat a seven swaps hands with (seven-zero)


class ColorObs(_Obs):
    type: Literal["color"]
    color: ColourName
    seat: Seat | None = None


class DrawObs(_Obs):
    type: Literal["draw"]
    seat: Seat | None = None
    count: int = Field(default=1, ge=1, le=MAX_DRAW_COUNT)


class PassObs(_Obs):
    type: Literal["pass"]
    seat: Seat | None = None


class UnoObs(_Obs):
    type: Literal["uno"]
    seat: Seat | None = None


class ChallengeObs(_Obs):
    type: Literal["challenge"]
    seat: Seat | None = None


class RevealObs(_Obs):
    type: Literal["reveal"]
    seat: Seat | None = None
    cards: list[Label] = Field(max_length=120)


Observation = Annotated[
    SetupObs | StartObs | PlayObs | ColorObs | DrawObs | PassObs | UnoObs | ChallengeObs
    | RevealObs,
    Field(discriminator="type"),
]


class SetupIn(_Strict):
    """A new match (``mode="match"``) or the next round of this one (``mode="round"``)."""

    mode: Literal["match", "round"] = "match"
    names: list[Name] = Field(default_factory=list, max_length=MAX_PLAYERS)
    players: int | None = Field(default=None, ge=MIN_PLAYERS, le=MAX_PLAYERS)
    dealer: int = Field(default=0, ge=0, le=MAX_PLAYERS - 1)
    rules: PresetName | None = None
    hand_size: int | None = Field(default=None, ge=1, le=MAX_HAND_SIZE)
    options: Options = Field(default_factory=dict)
    target: int | None = Field(default=None, ge=1, le=100000)


class CorrectIn(_Strict):
    card: Label
    color: KnownColour | None = None


class NamesIn(_Strict):
    names: list[Name] = Field(min_length=1, max_length=MAX_PLAYERS)


class EventOut(BaseModel):
    id: int
    kind: str
    seq: int | None = None
    outputs: list[dict[str, Any]] = Field(default_factory=list)


class OkOut(BaseModel):
    ok: bool = True
    event_id: int


class HandCardOut(BaseModel):
    label: str
    confidence: float
    colour_confidence: float
    xyxy: list[float]


class HandPhotoOut(BaseModel):
    """The cards proposed for one seat's hand from a photo (submitted only with ``submit=true``)."""

    seat: int
    cards: list[str]
    detections: list[HandCardOut]
    width: int
    height: int
    backs: int
    duplicates: int
    submitted: EventOut | None = None
