"""Contract-2 parsing: every type, and errors that name the field and the value."""

from __future__ import annotations

from typing import Any

import pytest

from referee.cards import Card, Colour
from referee.rules.observations import (
    Challenge,
    ColorNamed,
    Draw,
    Observation,
    ObservationError,
    Pass,
    Play,
    Reveal,
    Setup,
    Start,
    Uno,
    parse_observation,
)

GOOD: list[tuple[dict[str, Any], Observation]] = [
    (
        {"type": "setup", "players": 4, "dealer": 2, "rules": "nl", "hand_size": 5, "options": {"jump_in": True}},
        Setup(4, 2, "nl", 5, {"jump_in": True}),
    ),
    ({"type": "setup", "players": 2}, Setup(2, 0)),
    ({"type": "start", "card": "red_5", "t": 1}, Start(Card(Colour.RED, "5"), 1.0)),
    ({"type": "play", "card": "wild", "seat": 1, "color": "blue"}, Play(Card(None, "wild"), 1, Colour.BLUE)),
    ({"type": "play", "card": "green_7", "seat": None, "target": 2}, Play(Card(Colour.GREEN, "7"), None, None, 2)),
    ({"type": "play", "card": " Red_1/2 ", "seat": 0}, Play(Card(Colour.RED, "1/2"), 0)),
    ({"type": "color", "color": "yellow", "seat": 3}, ColorNamed(Colour.YELLOW, 3)),
    ({"type": "draw", "seat": 2, "count": 4, "t": 2.5}, Draw(2, 4, 2.5)),
    ({"type": "draw", "seat": 2}, Draw(2, 1)),
    ({"type": "pass", "seat": 1}, Pass(1)),
    ({"type": "uno", "seat": 1}, Uno(1)),
    ({"type": "challenge", "seat": 1}, Challenge(1)),
    (
        {"type": "reveal", "seat": 1, "cards": ["wild", "blue_3"]},
        Reveal(1, (Card(None, "wild"), Card(Colour.BLUE, "3"))),
    ),
    ({"type": "reveal", "seat": 1, "cards": []}, Reveal(1, ())),
    ({"type": "pass", "seat": 1, "extra": "ignored"}, Pass(1)),
]


@pytest.mark.parametrize(("obj", "expected"), GOOD)
def test_parse(obj: dict[str, Any], expected: Observation) -> None:
    assert parse_observation(obj, players=4) == expected


BAD: list[tuple[object, str]] = [
    ([], "JSON object"),
    ({"seat": 1}, "unknown observation type None"),
    ({"type": "shuffle"}, "'shuffle'"),
    ({"type": "play", "seat": 1}, "'card'"),
    ({"type": "play", "card": "red_10", "seat": 1}, "red_10"),
    ({"type": "play", "card": 7, "seat": 1}, "7"),
    ({"type": "play", "card": "red_1", "seat": 4}, "seat out of range"),
    ({"type": "play", "card": "red_1", "seat": -1}, "seat out of range"),
    ({"type": "play", "card": "red_1", "seat": "1"}, "seat must be an integer"),
    ({"type": "play", "card": "red_1", "seat": True}, "seat must be an integer"),
    ({"type": "play", "card": "wild", "seat": 1, "color": "pink"}, "pink"),
    ({"type": "play", "card": "red_1", "seat": 1, "t": "noon"}, "noon"),
    ({"type": "draw", "seat": 1, "count": 0}, "count"),
    ({"type": "color", "seat": 1}, "'color'"),
    ({"type": "reveal", "seat": 1, "cards": "red_1"}, "cards"),
    ({"type": "reveal", "seat": 1, "cards": ["red_1", "nope"]}, r"cards\[1\]"),
    ({"type": "setup", "players": 1}, "players out of range"),
    ({"type": "setup", "players": 11}, "players out of range"),
    ({"type": "setup", "players": 3, "dealer": 3}, "dealer out of range"),
    ({"type": "setup", "players": 3, "options": [1]}, "options"),
    ({"type": "setup", "players": 3, "rules": 5}, "rules"),
]


@pytest.mark.parametrize(("obj", "needle"), BAD)
def test_bad_observation_names_the_field(obj: object, needle: str) -> None:
    with pytest.raises(ObservationError, match=needle):
        parse_observation(obj, players=4)


def test_observation_error_is_a_value_error() -> None:
    assert issubclass(ObservationError, ValueError)


def test_observations_are_frozen() -> None:
    import dataclasses

    play = Play(Card(Colour.RED, "7"), 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        play.seat = 2  # type: ignore[misc]
    assert play == Play(Card(Colour.RED, "7"), 1, None, None, None)
    assert Draw(1) == Draw(seat=1, count=1, t=None) and hash(Draw(1)) == hash(Draw(1, 1))
