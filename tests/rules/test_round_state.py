"""The referee's parts on their own: the state values, one judging function per observation type, and
alert codes as :class:`AlertCode` members (the same JSON as plain strings)."""

from __future__ import annotations

import json

from referee.cards import Card, Colour
from referee.contract import AlertCode, OutputLine
from referee.rules import Referee, find_preset
from referee.rules.actions import judge_draw, judge_start
from referee.rules.play import judge_play
from referee.rules.state import MatchState, RoundState
from tests.rules.helpers import alert


def _round(players: int = 3, rules: str = "official") -> RoundState:
    options = find_preset(rules)
    match = MatchState(options, options.preset)
    match.players = players
    match.scores = [0] * players
    match.round = 1
    state = RoundState.deal(match, players, 0, 7)
    state.turn = state.next_seat(0)
    return state


def test_a_round_judged_by_its_functions() -> None:
    state = _round()
    out: list[OutputLine] = []
    judge_start(state, Card.from_label("red_5"), out)
    assert (state.top, state.colour, state.turn) == (Card.from_label("red_5"), Colour.RED, 1)
    judge_play(state, Card.from_label("red_skip"), 1, None, None, out)
    assert (state.turn, state.skipped_seat) == (0, 2)
    judge_play(state, Card.from_label("blue_7"), 0, None, None, out)
    assert [alert(line)["code"] for line in out] == [AlertCode.ILLEGAL_CARD]
    assert state.counts == [6, 6, 7]


def test_a_draw_owed_is_paid() -> None:
    state = _round()
    out: list[OutputLine] = []
    judge_start(state, Card.from_label("green_draw2"), out)
    assert (state.pending_draw, state.draw_victim) == (2, 1)
    judge_draw(state, 1, 2, out)
    assert (state.pending_draw, state.draw_victim, state.turn, state.counts[1]) == (0, None, 2, 9)
    assert state.match.counts_known and out == []


def test_alert_codes_are_members_and_dump_as_strings() -> None:
    ref = Referee()
    ref.observe({"type": "setup", "players": 3, "dealer": 0})
    ref.observe({"type": "start", "card": "red_5"})
    (line,) = ref.observe({"type": "play", "card": "blue_7", "seat": 2})
    assert alert(line)["code"] is AlertCode.OUT_OF_TURN
    assert json.loads(json.dumps(line))["code"] == "out_of_turn"
    assert ref.state.turn == 0 and ref.match.round == 1
