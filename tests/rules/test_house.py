"""House rules: jump-in, seven-zero, draws reported or not, reshuffles."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rules.helpers import alerts, challenge, draw, pass_, play, reveal, run, setup, start

Script = list[dict[str, Any]]

JUMP_IN: list[tuple[str, str, Script, list[tuple[str, int]]]] = [
    (
        "identical card",
        "house",
        [setup(rules="house"), start("red_5"), play(1, "red_6"), play(3, "red_6"), play(0, "red_7")],
        [],
    ),
    (
        "not identical",
        "house",
        [setup(rules="house"), start("red_5"), play(1, "red_6"), play(3, "blue_6")],
        [("out_of_turn", 3)],
    ),
    ("jump-in off", "official", [setup(), start("red_5"), play(1, "red_6"), play(3, "red_6")], [("out_of_turn", 3)]),
    ("not on the start card", "house", [setup(rules="house"), start("red_5"), play(3, "red_5")], [("out_of_turn", 3)]),
    (
        "never a wild draw four",
        "house",
        [setup(rules="house"), start("red_5"), play(1, "wild_draw4", "red"), draw(2, 4), play(0, "wild_draw4", "red")],
        [("out_of_turn", 0)],
    ),
    (
        "skipped player escapes with an identical skip",
        "house",
        [setup(rules="house"), start("red_5"), play(1, "red_skip"), play(2, "red_skip"), play(0, "red_1")],
        [],
    ),
]


@pytest.mark.parametrize(("name", "rules", "script", "expected"), JUMP_IN, ids=[j[0] for j in JUMP_IN])
def test_jump_in(name: str, rules: str, script: Script, expected: list[tuple[str, int]]) -> None:
    _, out = run(script, rules)
    assert alerts(out) == expected


def test_zero_passes_hands_on() -> None:
    ref, _ = run([setup(3, rules="house", draws_reported=True), start("red_5"), draw(1, 2), play(1, "red_0")])
    # before: [7, 9, 7]; seat 1 plays -> 8; hands move one seat clockwise
    assert ref.snapshot()["hand_counts"] == [7, 7, 8]


def test_seven_swaps_with_the_named_seat() -> None:
    ref, _ = run([setup(3, rules="house", draws_reported=True), start("red_5"), draw(1, 3), play(1, "red_7", target=0)])
    assert ref.snapshot()["hand_counts"] == [9, 7, 7]


def test_seven_without_a_target_makes_counts_unknown() -> None:
    ref, out = run([setup(3, rules="house", draws_reported=True), start("red_5"), play(1, "red_7")])
    assert ref.snapshot()["hand_counts"] == [None, None, None]
    assert alerts(out) == []


def test_seven_is_plain_without_the_option() -> None:
    ref, _ = run([setup(3, draws_reported=True), start("red_5"), draw(1, 3), play(1, "red_7", target=0)])
    assert ref.snapshot()["hand_counts"] == [7, 9, 7]


def test_hand_counts_known_once_a_draw_is_reported() -> None:
    ref, _ = run([setup(3), start("red_5"), play(1, "red_6")])
    assert ref.snapshot()["hand_counts"] == [None, None, None]
    ref.observe(draw(2))
    assert ref.snapshot()["hand_counts"] == [7, 6, 8]


def test_draws_reported_false_keeps_counts_unknown() -> None:
    ref, _ = run([setup(3, draws_reported=False), start("red_5"), draw(1), pass_(1)])
    assert ref.snapshot()["hand_counts"] == [None, None, None]


def test_reshuffle_lets_cards_be_seen_again() -> None:
    # 2 players x 7 from 108: the stock holds 94 - 1 (start card). Draw it all, then see red_5 again.
    script: Script = [
        setup(2, draws_reported=True),
        start("red_5"),
        play(1, "red_5"),
        play(0, "red_6"),
        draw(1, 93),
        pass_(1),
        play(0, "red_6"),
        draw(1, 1),  # the stock is empty: the pile (but its top red_6) is shuffled in
        pass_(1),
        play(0, "red_5"),
    ]
    _, out = run(script)
    assert alerts(out) == []
    _, out = run([*script[:-4], pass_(1), play(0, "red_5")])
    assert alerts(out) == [("impossible_card", 0)]


def test_draw_until_playable_is_an_option() -> None:
    ref, out = run([setup(rules="house", draw_until_playable=True), start("red_5"), draw(1, 3), play(1, "red_1")])
    assert alerts(out) == [] and ref.snapshot()["options"]["draw_until_playable"] is True


# A +4 stacked on a +4 (UNO Stacked: "If a player misplaces the ... +4 ... and is caught, the normal rules
# apply, but the amount of the penalty increases depending on the number of cards used"): seat 1 plays a
# +4 on red naming blue, seat 2 stacks a +4 naming green, seat 3 (owing 8) challenges seat 2.
STACKED = [setup(rules="house"), start("red_5"), play(1, "wild_draw4", "blue"), play(2, "wild_draw4", "green"),
           challenge(3)]


def test_a_stacked_wild_draw_four_is_checked_against_the_colour_before_the_stack() -> None:
    """Seat 2 held red (the colour before the stack's first +4): guilty, and draws the stack's 8."""
    ref, out = run([*STACKED, reveal(2, ["red_3", "yellow_9"])], "house")
    found = [line for line in out if line["type"] == "alert"]
    assert [(a["code"], a["seat"], a["penalty_cards"]) for a in found] == [("illegal_wild_draw_four", 2, 8)]
    assert "red" in found[0]["message"]
    state = ref.snapshot()
    # the guilty +4 goes back (official's take-back): seat 1's +4 is on top again, its blue named
    assert (state["top_card"], state["colour"], state["pending_draw"], state["turn"]) == (
        "wild_draw4", "blue", 0, 3)


def test_a_stacked_wild_draw_four_without_that_colour_fails_the_challenge() -> None:
    """Seat 2 held blue (the colour seat 1 named) but no red: the challenger takes the 8, plus 2."""
    _, out = run([*STACKED, reveal(2, ["blue_3", "yellow_9"])], "house")
    assert [(a["code"], a["seat"], a["penalty_cards"]) for a in out if a["type"] == "alert"] == [
        ("failed_challenge", 3, 10)]
    assert not any("cannot be settled" in str(line.get("message")) for line in out)


def test_a_wild_draw_four_stacked_on_a_draw_two_is_not_judged() -> None:
    script = [setup(rules="house"), start("red_5"), play(1, "red_draw2"), play(2, "wild_draw4", "green"),
              challenge(3), reveal(2, ["red_3"])]
    _, out = run(script, "house")
    assert alerts(out) == []
    assert any("cannot be settled" in str(line.get("message")) for line in out)
