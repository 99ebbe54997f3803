"""Round end, scoring modes, teams and match end."""

from __future__ import annotations

from typing import Any, Literal, overload

import pytest

from referee.contract import EliminatedLine, InfoLine, MatchEndLine, OutputLine, RoundEndLine, ScoresLine
from tests.rules.helpers import alerts, draw, message, play, reveal, run, start

Script = list[dict[str, Any]]


def one_card_setup(players: int = 3, dealer: int = 0, rules: str = "official", **options: Any) -> dict[str, Any]:
    return {
        "type": "setup",
        "players": players,
        "dealer": dealer,
        "rules": rules,
        "hand_size": 1,
        "options": {"draws_reported": True, **options},
    }


@overload
def lines_of(out: list[OutputLine], kind: Literal["round_end"]) -> list[RoundEndLine]: ...
@overload
def lines_of(out: list[OutputLine], kind: Literal["scores"]) -> list[ScoresLine]: ...
@overload
def lines_of(out: list[OutputLine], kind: Literal["match_end"]) -> list[MatchEndLine]: ...
@overload
def lines_of(out: list[OutputLine], kind: Literal["info"]) -> list[InfoLine]: ...
@overload
def lines_of(out: list[OutputLine], kind: Literal["eliminated"]) -> list[EliminatedLine]: ...
def lines_of(out: list[OutputLine], kind: str) -> list[Any]:
    """The lines of type ``kind`` (typed as that kind's line)."""
    return [line for line in out if line["type"] == kind]


ROUND = [start("red_5"), play(1, "red_7"), reveal(0, ["red_9", "wild"]), reveal(2, ["blue_skip"])]

SCORING: list[tuple[str, dict[str, Any], list[int], int | None]] = [
    # name, options, scores after the round, match winner
    ("winner takes", {}, [0, 79, 0], None),
    ("winner takes reaches the target", {"target": 50}, [0, 79, 0], 1),
    ("own points", {"scoring": "own_points"}, [59, 0, 20], None),
    ("own points: lowest wins at the target", {"scoring": "own_points", "target": 50}, [59, 0, 20], 1),
    ("target 200", {"target": 200}, [0, 79, 0], None),
]


@pytest.mark.parametrize(("name", "options", "scores", "winner"), SCORING, ids=[s[0] for s in SCORING])
def test_scoring_modes(name: str, options: dict[str, Any], scores: list[int], winner: int | None) -> None:
    ref, out = run([one_card_setup(**options), *ROUND])
    ends = lines_of(out, "round_end")
    assert [(e["winner"], e["points"]) for e in ends] == [(1, None), (1, 79)]
    assert lines_of(out, "scores")[-1]["scores"] == scores
    assert ref.snapshot()["scores"] == scores
    match_end = lines_of(out, "match_end")
    assert [m["winner"] for m in match_end] == ([] if winner is None else [winner])
    assert ref.snapshot()["match_over"] is (winner is not None)


def test_scores_carry_over_and_a_new_match_starts_after_match_end() -> None:
    ref, _ = run(
        [
            one_card_setup(),
            *ROUND,
            one_card_setup(dealer=1),
            start("red_6"),
            play(2, "red_8"),
            reveal(0, ["blue_1"]),
            reveal(1, ["green_2"]),
        ]
    )
    assert ref.snapshot()["scores"] == [0, 79, 3]
    assert ref.snapshot()["round"] == 2
    ref, _ = run([one_card_setup(target=50), *ROUND, one_card_setup(target=50)])
    assert ref.snapshot()["scores"] == [0, 0, 0] and ref.snapshot()["round"] == 1


def test_elimination() -> None:
    script: Script = [
        one_card_setup(scoring="elimination", target=50),
        *ROUND,
        one_card_setup(dealer=2, scoring="elimination", target=50),
        start("red_5"),
    ]
    ref, out = run(script)
    assert [e["seat"] for e in lines_of(out, "eliminated")] == [0]
    assert ref.snapshot()["turn"] == 1  # seat 0 is out: left of the dealer (2) is seat 1
    out = ref.observe(play(0, "red_1"))
    assert "out of the match" in message(out[0])
    ref.observe(play(1, "red_2"))
    out = ref.observe(reveal(2, ["wild_draw4"]))
    assert [e["seat"] for e in lines_of(out, "eliminated")] == [2]
    assert [m["winner"] for m in lines_of(out, "match_end")] == [1]


def test_teams_score_together_and_partners_need_not_show() -> None:
    script: Script = [
        one_card_setup(4, teams=True),
        start("red_5"),
        play(1, "red_7"),
        reveal(0, ["red_9"]),
        reveal(2, ["blue_skip"]),
    ]
    ref, out = run(script)
    assert lines_of(out, "round_end")[0]["team"] == [1, 3]
    assert ref.snapshot()["scores"] == [0, 29, 0, 29]


def test_final_draw_two_still_makes_the_next_player_draw() -> None:
    script: Script = [
        one_card_setup(),
        start("red_5"),
        play(1, "red_draw2"),
        draw(2, 2),
        reveal(0, ["red_1"]),
        reveal(2, ["blue_1", "blue_2", "blue_3"]),
    ]
    ref, out = run(script)
    assert alerts(out) == []
    assert ref.snapshot()["pending_draw"] == 0
    assert ref.snapshot()["scores"] == [0, 7, 0]


def test_fraction_cards_score_ten_in_breuken() -> None:
    script: Script = [
        one_card_setup(rules="breuken"),
        start("red_1/2"),
        play(1, "blue_2/4"),
        reveal(0, ["red_1/3", "green_3/4"]),
        reveal(2, ["wild"]),
    ]
    ref, out = run(script)
    assert alerts(out) == []
    assert ref.snapshot()["scores"] == [0, 70, 0]


def test_round_ends_on_reveals_when_draws_are_not_reported() -> None:
    script: Script = [
        {"type": "setup", "players": 2, "dealer": 0},
        start("red_5"),
        play(1, "red_7"),
        reveal(0, ["red_9"]),
    ]
    _, out = run(script)
    assert [(e["winner"], e["points"]) for e in lines_of(out, "round_end")] == [(1, None), (1, 9)]


def test_unscored_round_is_reported_when_the_next_setup_comes() -> None:
    _, out = run([one_card_setup(), start("red_5"), play(1, "red_7"), one_card_setup()])
    assert any("not scored" in line["message"] for line in lines_of(out, "info"))


def test_without_reported_draws_an_estimated_empty_hand_still_waits_for_its_reveal() -> None:
    # Issue 34 (found by fuzzing): seven plays each and no draw reported, so every seat's hand count
    # estimate is 0; hands that were never seen drawn are not known to be empty. The round must wait
    # for the losers' reveals, not score 0 at once and then ignore them.
    cards = [f"red_{v}" for v in range(1, 10)] + [f"blue_{v}" for v in range(9, 0, -1)]
    cards += [f"green_{v}" for v in range(1, 5)]
    seats = [1, 2, 0] * 7 + [1]  # seat 1 plays an eighth card (it drew unseen): the round is over
    script: Script = [
        {"type": "setup", "players": 3, "dealer": 0},
        start("red_0"),
        *(play(seat, card) for seat, card in zip(seats, cards, strict=True)),
        reveal(0, ["red_9"]),
    ]
    ref, out = run(script)
    assert alerts(out) == []
    assert [(e["winner"], e["points"]) for e in lines_of(out, "round_end")] == [(1, None)]
    assert lines_of(out, "scores") == []
    out = ref.observe(reveal(2, ["blue_skip"]))
    assert [(e["winner"], e["points"]) for e in lines_of(out, "round_end")] == [(1, 29)]
    assert ref.snapshot()["scores"] == [0, 29, 0]
