"""The typed contract (referee.contract): alert codes as JSON, one set of limits at every edge, purity."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from referee import contract as c
from referee.cards import Card
from referee.rules import ObservationError, Referee, parse_observation
from referee.rules.quotes import ALERT_CODES as QUOTED_CODES
from referee.rules.quotes import QUOTES
from referee.rules.simulate import ALERT_CODES as SIMULATED_CODES
from referee.rules.simulate import simulate_game

CONTRACT_FILE = Path(c.__file__)
DOC = Path(__file__).parents[1] / "docs" / "contract.md"


def test_alert_codes_are_the_contract_and_one_tuple() -> None:
    assert c.ALERT_CODES == (
        "illegal_card", "out_of_turn", "skipped_turn_played", "missed_draw_penalty", "missed_uno",
        "illegal_wild_draw_four", "failed_challenge", "impossible_card",
    )
    assert QUOTED_CODES is c.ALERT_CODES and SIMULATED_CODES is c.ALERT_CODES
    assert all(type(code) is str for code in c.ALERT_CODES)


def test_an_alert_code_member_is_its_string_in_json() -> None:
    line = {"type": "alert", "code": c.AlertCode.MISSED_UNO, "seat": 1}
    assert json.dumps(line) == json.dumps({"type": "alert", "code": "missed_uno", "seat": 1})
    member: str = c.AlertCode.MISSED_UNO  # a StrEnum member is a str (to mypy, only an enum literal)
    assert c.AlertCode("missed_uno") is c.AlertCode.MISSED_UNO and member == "missed_uno"


def test_every_alert_code_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    for code in c.ALERT_CODES:
        assert f"`{code}`" in text, code
    for sheet_quotes in QUOTES.values():
        assert set(sheet_quotes) <= set(c.ALERT_CODES)


def test_observation_types_are_what_the_parser_knows() -> None:
    from referee.rules.observations import PARSERS

    assert set(PARSERS) == set(c.OBSERVATION_TYPES)
    with pytest.raises(ObservationError, match=", ".join(c.OBSERVATION_TYPES)):
        parse_observation({"type": "shout"})


@pytest.mark.parametrize("seed", range(6))
def test_an_observation_and_its_json_round_trip(seed: int) -> None:
    """``observation_json`` is the parser's inverse: a simulated match's every observation (wilds named
    and not, seats unknown, sevens swapped, hands revealed) comes back as it was, and so does its JSON."""
    game = simulate_game(seed, ("official", "house", "lb")[seed % 3], 2 + seed % 4,
                         options={"seven_zero": True}, unnamed_colour=0.3, anonymous_seats=0.3)
    for obs in game.observations:
        line = c.observation_json(obs)
        assert parse_observation(line) == obs
        assert c.observation_json(parse_observation(json.loads(json.dumps(line)))) == line


def test_observation_json_leaves_out_what_is_not_said() -> None:
    from referee.cards import Card, Colour

    assert c.observation_json(c.Play(Card.from_label("wild"), None, Colour.RED, t=1.5)) == {
        "type": "play", "card": "wild", "seat": None, "color": "red", "t": 1.5}
    assert c.observation_json(c.Reveal(2, (Card.from_label("red_7"), Card.from_label("blue_skip")))) == {
        "type": "reveal", "seat": 2, "cards": ["red_7", "blue_skip"]}
    assert c.observation_json(c.ColorNamed(Colour.BLUE)) == {"type": "color", "color": "blue"}


def _referee(players: int = 3) -> Referee:
    referee = Referee()
    referee.observe({"type": "setup", "players": players, "dealer": 0})
    referee.observe({"type": "start", "card": "red_5"})
    return referee


# (observation, accepted): each limit at its edge, for the parser, the referee's fast path and the web.
LIMITS: list[tuple[dict[str, Any], bool]] = [
    ({"type": "draw", "seat": 1, "count": c.MAX_DRAW_COUNT}, True),
    ({"type": "draw", "seat": 1, "count": c.MAX_DRAW_COUNT + 1}, False),
    ({"type": "draw", "seat": 1, "count": 0}, False),
    ({"type": "setup", "players": c.MAX_PLAYERS, "dealer": c.MAX_PLAYERS - 1}, True),
    ({"type": "setup", "players": c.MAX_PLAYERS + 1}, False),
    ({"type": "setup", "players": c.MIN_PLAYERS}, True),
    ({"type": "setup", "players": c.MIN_PLAYERS - 1}, False),
    ({"type": "setup", "players": 3, "hand_size": c.MAX_HAND_SIZE}, True),
    ({"type": "setup", "players": 3, "hand_size": c.MAX_HAND_SIZE + 1}, False),
]


def test_the_draw_limit_is_200() -> None:
    # The fractions deck holds 208 cards: a long "draw until you can play" fits in one draw.
    assert c.MAX_DRAW_COUNT == 200


@pytest.mark.parametrize(("obs", "accepted"), LIMITS)
def test_the_referee_keeps_the_limits(obs: dict[str, Any], accepted: bool) -> None:
    referee = _referee()
    if accepted:
        parse_observation(obs)
        referee.observe(dict(obs))
    else:
        with pytest.raises(ObservationError):
            parse_observation(obs)
        with pytest.raises(ObservationError):
            referee.observe(dict(obs))


@pytest.mark.parametrize(("obs", "accepted"), LIMITS)
def test_the_web_api_keeps_the_same_limits(obs: dict[str, Any], accepted: bool) -> None:
    from pydantic import TypeAdapter, ValidationError

    from referee.web.models import Observation

    adapter: TypeAdapter[Any] = TypeAdapter(Observation)
    if accepted:
        adapter.validate_python(obs)
    else:
        with pytest.raises(ValidationError):
            adapter.validate_python(obs)


def test_the_contract_module_is_pure() -> None:
    tree = ast.parse(CONTRACT_FILE.read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert imported <= {"__future__", "enum", "collections.abc", "dataclasses", "typing", "referee.cards"}


def test_the_camera_notes_are_written_in_the_camera_logs_order() -> None:
    """A start, play or draw the camera saw carries its notes as a field; its JSON has them as keys of their
    own after ``t``, in the order the camera's log has them (a correction, alternatives, the frame, a reason
    that corrects nothing, the confidence, ``unsure`` last); the parser reads them back."""
    notes = c.CameraNotes(50, corrected_from="red_6", reason="read closer up", alternatives=("red_6", "yellow_9"),
                          confidence=0.812, unsure="seats a guess")
    play = c.Play(Card.from_label("red_9"), 1, t=1.5, camera=notes)
    line = c.observation_json(play)
    assert json.dumps(line) == (
        '{"type": "play", "card": "red_9", "seat": 1, "t": 1.5, "corrected_from": "red_6", '
        '"reason": "read closer up", "alternatives": ["red_6", "yellow_9"], "frame_index": 50, '
        '"confidence": 0.812, "unsure": "seats a guess"}')
    inferred = c.Start(Card.from_label("blue_4"), 3.0, c.CameraNotes(90, reason="laid square"))
    assert list(c.observation_json(inferred)) == ["type", "card", "t", "frame_index", "reason"]
    assert c.observation_json(c.Draw(None, 1, 0.4, c.CameraNotes(11))) == {
        "type": "draw", "seat": None, "count": 1, "t": 0.4, "frame_index": 11}
    assert parse_observation(line) == play
    assert parse_observation(c.observation_json(inferred)) == inferred


def test_the_camera_notes_are_read_back_and_a_malformed_note_left_out() -> None:
    """The referee judges without the notes, so one of the wrong kind never refuses the observation: it is
    left out (no integer ``frame_index``: no notes at all)."""
    draw = c.Draw(2, 3, 0.4, c.CameraNotes(11, unsure="falling behind"))
    assert parse_observation(c.observation_json(draw)) == draw
    line = {"type": "play", "card": "red_9", "seat": 1, "frame_index": 7, "confidence": "high",
            "alternatives": ["red_6", 9], "reason": None, "unsure": 3}
    notes = c.CameraNotes(7, alternatives=("red_6",))
    assert parse_observation(line) == c.Play(Card.from_label("red_9"), 1, camera=notes)
    for frame in ("7", 7.0, True, None):
        assert parse_observation({"type": "start", "card": "red_9", "frame_index": frame}) == c.Start(
            Card.from_label("red_9"))
    assert parse_observation({"type": "play", "card": "red_9", "seat": 1, "unsure": "why"}) == c.Play(
        Card.from_label("red_9"), 1)


def _keys(line_type: type) -> tuple[set[str], set[str]]:
    """A line TypedDict's required and optional keys (``NotRequired``), read from its annotations."""
    from typing import NotRequired, get_origin, get_type_hints

    hints = get_type_hints(line_type, include_extras=True)
    optional = {key for key, hint in hints.items() if get_origin(hint) is NotRequired}
    return set(hints) - optional, optional


def test_every_output_line_the_referee_says_has_its_typed_shape() -> None:
    """The referee's lines are typed as :data:`OutputLine` from the rules to the pipeline: over simulated
    matches (every alert code injected, seven-zero and jump-ins, wilds named late) each line has its
    TypedDict's required keys and no key it does not name."""
    shapes = {"alert": c.AlertLine, "round_end": c.RoundEndLine, "scores": c.ScoresLine,
              "match_end": c.MatchEndLine, "info": c.InfoLine, "eliminated": c.EliminatedLine}
    keys = {kind: _keys(shape) for kind, shape in shapes.items()}
    games = [simulate_game(600 + i, "official", 3, code) for i, code in enumerate(c.ALERT_CODES)]
    games += [simulate_game(900 + seed, "house", 3, options={"seven_zero": True, "jump_in": True},
                            unnamed_colour=0.4, anonymous_seats=0.5, separate_colour=0.3) for seed in range(3)]
    seen: set[str] = set()
    for game in games:
        referee = Referee()
        for obs in game.observations:
            for line in referee.observe(obs):
                required, optional = keys[line["type"]]
                assert required <= set(line) <= required | optional, line
                seen.add(line["type"])
    assert {"alert", "info", "round_end", "scores"} <= seen
