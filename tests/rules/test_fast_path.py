"""The referee's fast path for well-formed dicts judges exactly like the general (parsing) path.

Each case runs twice, with the fast path and without it (``_FAST_PATHS`` emptied): the lines, the
error messages and the final state must be the same.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

import referee.rules.referee as referee_module
from referee.cards import Card, Colour
from referee.contract import CameraNotes, observation_json
from referee.rules import Referee
from referee.rules.observations import (
    Challenge,
    ColorNamed,
    Draw,
    Observation,
    ObservationError,
    Pass,
    Play,
    Reveal,
    Start,
    Uno,
    checked,
)
from referee.rules.referee import RefereeSnapshot
from referee.rules.simulate import ALERT_CODES, SIM_PRESETS, simulate_game

Outcome = tuple[list[Any], RefereeSnapshot]


def judge_all(observations: list[Any]) -> Outcome:
    """Every observation's lines (or its error message), and the referee's final snapshot."""
    ref = Referee()
    results: list[Any] = []
    for obs in observations:
        try:
            results.append(ref.observe(obs))
        except ObservationError as exc:
            results.append(f"ObservationError: {exc}")
    return results, ref.snapshot()


def both_paths(observations: list[Any], monkeypatch: pytest.MonkeyPatch) -> tuple[Outcome, Outcome]:
    fast = judge_all(observations)
    with monkeypatch.context() as patch:
        patch.setattr(referee_module, "_FAST_PATHS", {})
        general = judge_all(observations)
    # Compared as repr: 3 == 3.0, but a line's "t" must be the same number type on both paths.
    assert repr(fast) == repr(general)
    return fast, general


@pytest.mark.parametrize("seed", range(12))
def test_simulated_matches_judged_alike(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    preset, players = SIM_PRESETS[seed % len(SIM_PRESETS)], 2 + seed % 5
    options = {"seven_zero": True} if seed % 3 == 0 else {}
    if seed % 2:  # a misplay injected
        game = simulate_game(seed, preset, players, ALERT_CODES[seed % len(ALERT_CODES)], options=options)
    else:  # a legal match, reported loosely
        game = simulate_game(seed, preset, players, options=options, unnamed_colour=0.3, anonymous_seats=0.3)
    fast, general = both_paths(game.log(), monkeypatch)
    assert fast == general
    # The simulator's typed observations, judged as they are, say the same as their JSON.
    assert repr(judge_all(list(game.observations))) == repr(fast)


ODD: list[dict[str, Any]] = [
    {"type": "play", "card": "blue_5", "seat": 1, "t": 2.5},
    {"type": "play", "card": " Blue_5 ", "seat": 1},
    {"type": "play", "card": "blue_5", "seat": True},
    {"type": "play", "card": "blue_5", "seat": 4},
    {"type": "play", "card": "blue_5", "seat": -1},
    {"type": "play", "card": "blue_5", "seat": "1"},
    {"type": "play", "card": "blue_5", "seat": None},
    {"type": "play", "card": "blue_5", "seat": 1, "t": 3},
    {"type": "play", "card": "green_9", "seat": 3, "t": 3},
    {"type": "play", "card": "green_9", "seat": 3, "t": 3.5},
    {"type": "play", "card": "blue_5", "seat": 1, "t": True},
    {"type": "play", "card": "blue_5", "seat": 1, "t": "soon"},
    {"type": "play", "card": "blue_10", "seat": 1},
    {"type": "play", "card": 5, "seat": 1},
    {"type": "play", "card": ["blue_5"], "seat": 1},
    {"type": "play", "card": None, "seat": 1},
    {"type": "play", "seat": 1},
    {"type": "play", "card": "wild", "seat": 1, "color": "blue"},
    {"type": "play", "card": "wild", "seat": 1, "color": " BLUE"},
    {"type": "play", "card": "wild", "seat": 1, "color": Colour.BLUE},
    {"type": "play", "card": "wild", "seat": 1, "color": "purple"},
    {"type": "play", "card": "wild", "seat": 1, "color": "orange"},
    {"type": "play", "card": "wild", "seat": 1, "color": 3},
    {"type": "play", "card": "red_7", "seat": 1, "target": 2},
    {"type": "play", "card": "red_7", "seat": 1, "target": None},
    {"type": "play", "card": "red_7", "seat": 1, "target": 4},
    {"type": "play", "card": "red_7", "seat": 1, "target": False},
    {"type": "draw", "seat": 1, "count": 2, "t": 1.0},
    {"type": "draw", "seat": 1},
    {"type": "draw", "seat": None, "count": 1},
    {"type": "draw", "seat": 1, "count": 0},
    {"type": "draw", "seat": 1, "count": 201},
    {"type": "draw", "seat": 1, "count": None},
    {"type": "draw", "seat": 1, "count": True},
    {"type": "draw", "seat": 1, "count": 2.0},
    {"type": "draw", "seat": 7, "count": 1},
    {"type": "pass", "seat": 1},
    {"type": "pass", "seat": None, "t": 4},
    {"type": "pass", "seat": False},
    {"type": "pass", "seat": 4},
    {"type": "uno", "seat": 1, "t": 0.5},
    {"type": "uno", "seat": None},
    {"type": "uno", "seat": 1.0},
    {"type": ["play"], "card": "blue_5", "seat": 1},
]


@pytest.mark.parametrize("obs", ODD, ids=repr)
def test_odd_dicts_judged_alike(obs: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    script: list[Any] = [
        {"type": "setup", "players": 4, "dealer": 0, "rules": "house", "options": {"seven_zero": True}},
        {"type": "start", "card": "red_5"},
        obs,
        {"type": "play", "card": "red_3", "seat": 2},
    ]
    fast, general = both_paths(script, monkeypatch)
    assert fast == general


def test_no_fast_path_before_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    fast, general = both_paths([{"type": "play", "card": "red_3", "seat": 2}], monkeypatch)
    assert fast == general
    assert fast[0] == ["ObservationError: 'play' observation before any setup"]


def test_well_formed_dicts_skip_the_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    ref = Referee()
    ref.observe({"type": "setup", "players": 3, "dealer": 0})
    ref.observe({"type": "start", "card": "red_5"})
    ref.observe({"type": "play", "card": "red_6", "seat": 1})  # the label is now known

    def no_parsing(*args: object) -> None:
        raise AssertionError("parsed")

    monkeypatch.setattr(referee_module, "PARSERS", {})
    monkeypatch.setattr(referee_module, "parse_observation", no_parsing)
    for obs in (
        {"type": "uno", "seat": 2, "t": 1.5},
        {"type": "play", "card": "red_6", "seat": 2, "color": "blue", "target": None, "t": 2.0},
        {"type": "draw", "seat": 0, "count": 2},
        {"type": "pass", "seat": 0},
    ):
        ref.observe(obs)
    assert ref.snapshot()["turn"] == 1


def _card(label: str) -> Card:
    return Card.from_label(label)


#: Typed observations as a camera (or any caller) may make them: the dataclasses check nothing themselves.
TYPED: list[Observation] = [
    Play(_card("blue_5"), 1, t=2.5, camera=CameraNotes(40, alternatives=("blue_6",), confidence=0.9, unsure="why")),
    Play(_card("blue_5"), 4),
    Play(_card("blue_5"), -1),
    Play(_card("blue_5"), None, t=3),  # a whole t
    Play(_card("blue_5"), 1, t=math.nan),
    Play(_card("wild"), 1, Colour.BLUE),
    Play(_card("red_7"), 1, target=2),
    Play(_card("red_7"), 1, target=4),
    Start(_card("green_9"), 3),  # a whole t
    Draw(1, 2, 1.0, CameraNotes(12)),
    Draw(1, 0),
    Draw(1, 201),
    Draw(7),
    Pass(4),
    Pass(None, 4),
    Uno(1, 0.5),
    Challenge(2),
    ColorNamed(Colour.GREEN, 1),
    Reveal(1, (_card("red_1"),)),
]


@pytest.mark.parametrize("obs", TYPED, ids=repr)
def test_typed_observations_held_to_the_parser_are_judged_as_their_json(obs: Observation) -> None:
    """:func:`checked` holds a typed observation to the parser (a seat off the table refused, a whole ``t``
    made seconds): it is judged as its JSON would be, lines, errors and final state alike."""
    opening: list[Any] = [
        {"type": "setup", "players": 4, "dealer": 0, "rules": "house", "options": {"seven_zero": True}},
        {"type": "start", "card": "red_5"},
    ]
    after = {"type": "play", "card": "red_3", "seat": 2}
    as_json = judge_all([*opening, observation_json(obs), after])
    ref = Referee()
    results: list[Any] = [ref.observe(o) for o in opening]
    try:
        results.append(ref.observe(checked(obs, ref.players or None)))
    except ObservationError as exc:
        results.append(f"ObservationError: {exc}")
    results.append(ref.observe(dict(after)))
    assert repr((results, ref.snapshot())) == repr(as_json)


def test_a_well_formed_typed_observation_is_judged_as_it_is() -> None:
    play = Play(_card("blue_5"), 1, t=2.5, camera=CameraNotes(40, unsure="seats a guess"))
    assert checked(play, 4) is play
    assert checked(Play(_card("blue_5"), 1, t=3), 4) == Play(_card("blue_5"), 1, t=3.0)
    with pytest.raises(ObservationError, match="before any setup"):
        Referee().observe(checked(play))
    assert judge_all([observation_json(play)])[0] == ["ObservationError: 'play' observation before any setup"]
