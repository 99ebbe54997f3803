"""Presets: one per rule sheet, every option overridable by name, each preset judged by its sheet."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from referee.rules import PRESETS, ObservationError, RuleOptions, find_preset
from referee.rules import presets as presets_module
from referee.rules.presets import parse_option_value
from tests.rules.helpers import alerts, challenge, draw, play, reveal, run, setup, start

SHEETS = Path(__file__).resolve().parents[3] / "shared" / "rule-sheets"

FACTS: list[tuple[str, str, str, int, int, str, bool]] = [
    # preset, sheet, deck, uno penalty, misplay penalty, reverse start, takeback
    ("official", "004_5ec70557fe9b417d.txt", "classic", 2, 2, "dealer", True),
    ("nl", "000_6215b461eaecddde.txt", "classic", 2, 2, "right_of_dealer", False),
    ("de", "002_b6167d2e732525d9.txt", "classic", 1, 1, "dealer", False),
    ("lb", "003_697eb92a66101dde.txt", "lb", 2, 2, "dealer", False),
    ("breuken", "001_f43d10cde2cbdaf2.txt", "breuken", 2, 2, "right_of_dealer", True),
    ("house", "004_5ec70557fe9b417d.txt", "classic_blanks", 2, 2, "dealer", True),
]


def test_the_six_presets() -> None:
    assert set(PRESETS) == {"official", "nl", "de", "lb", "breuken", "house"}
    assert find_preset(None).preset == "official"
    assert find_preset(" DE ").preset == "de"
    with pytest.raises(ObservationError, match="known: official"):
        find_preset("pesten")


@pytest.mark.parametrize(("name", "sheet", "deck", "uno_penalty", "misplay", "reverse_start", "takeback"), FACTS)
def test_preset_facts_and_citation(
    name: str, sheet: str, deck: str, uno_penalty: int, misplay: int, reverse_start: str, takeback: bool
) -> None:
    opts = find_preset(name)
    got = (opts.sheet, opts.deck, opts.uno_penalty, opts.misplay_penalty, opts.reverse_start)
    assert got == (sheet, deck, uno_penalty, misplay, reverse_start)
    assert opts.challenge_takeback is takeback
    doc = getattr(presets_module, name).__doc__
    assert doc is not None and sheet in doc
    if SHEETS.is_dir():  # the shared folder is beside the checkout on the build machine only
        assert (SHEETS / sheet).is_file()
        readme = (SHEETS / "README.md").read_text()
        row = next(line for line in readme.splitlines() if line.startswith(f"| {sheet}"))
        assert f"`{name}`" in row


def test_house_turns_on_the_optional_rules() -> None:
    house = find_preset("house")
    assert house.stack_draw2 and house.stack_draw4 and house.stack_mixed
    assert house.jump_in and house.seven_zero and house.reverse_deflects_draw
    assert not find_preset("official").jump_in


OVERRIDES: list[tuple[str, Any, Any]] = [
    ("stack_draw2", True, True),
    ("stack_draw2", "true", True),
    ("jump_in", "off", False),
    ("seven_zero", "yes", True),
    ("uno_penalty", 4, 4),
    ("misplay_penalty", "1", 1),
    ("scoring", "own_points", "own_points"),
    ("scoring", "elimination", "elimination"),
    ("target", 1000, 1000),
    ("target", 200, 200),
    ("teams", True, True),
    ("hand_size", 5, 5),
    ("deck", "lb", "lb"),
    ("draws_reported", None, None),
]


@pytest.mark.parametrize(("option", "value", "expected"), OVERRIDES)
def test_override_by_name(option: str, value: Any, expected: Any) -> None:
    assert getattr(find_preset("official").with_overrides({option: value}), option) == expected


BAD_OVERRIDES: list[tuple[str, Any]] = [
    ("stack_draw3", True),
    ("stack_draw2", 1),
    ("stack_draw2", "maybe"),
    ("uno_penalty", 2.5),
    ("uno_penalty", True),
    ("uno_penalty", -1),
    ("scoring", "lowest"),
    ("target", 0),
    ("reverse_start", "left"),
    ("deck", "tarot"),
    ("preset", "de"),
]


@pytest.mark.parametrize(("option", "value"), BAD_OVERRIDES)
def test_bad_override_names_the_option(option: str, value: Any) -> None:
    with pytest.raises(ObservationError, match=re.escape(option)):
        find_preset("official").with_overrides({option: value})


def test_every_option_is_overridable() -> None:
    base = find_preset("official")
    for field in dataclasses.fields(RuleOptions):
        if field.name in ("preset", "sheet"):
            continue
        value = getattr(base, field.name)
        assert parse_option_value(field.name, value) == value
        assert getattr(base.with_overrides({field.name: value}), field.name) == value


@pytest.mark.parametrize(("name", "misplay"), [(f[0], f[4]) for f in FACTS])
def test_misplay_penalty_per_preset(name: str, misplay: int) -> None:
    first = {"lb": "orange_5", "breuken": "red_1/2"}.get(name, "red_5")
    wrong = {"lb": "violet_1/2", "breuken": "blue_3/4"}.get(name, "blue_7")
    wrong = "violet_7" if name == "lb" else wrong
    _, out = run([setup(rules=name), start(first), play(1, wrong)])
    found = [(a["code"], a["penalty_cards"]) for a in out if a["type"] == "alert"]
    assert found == [("illegal_card", misplay)]


FRACTIONS: list[tuple[str, str, str, bool]] = [
    ("equivalent fraction", "red_1/2", "blue_2/4", True),
    ("equivalent fraction 4/8", "red_1/2", "green_4/8", True),
    ("same colour", "red_1/2", "red_2/3", True),
    ("different value and colour", "red_1/2", "blue_2/3", False),
    ("draw two on draw two", "red_draw2", "blue_draw2", True),
]


@pytest.mark.parametrize(("name", "top", "card", "legal"), FRACTIONS, ids=[f[0] for f in FRACTIONS])
def test_breuken_equivalent_fractions(name: str, top: str, card: str, legal: bool) -> None:
    script = [setup(rules="breuken"), start(top)]
    if top.endswith("draw2"):
        script.append(draw(1, 2))
        seat = 2
    else:
        seat = 1
    ref, _ = run(script)
    assert ref.legal_now(card) is legal
    assert (alerts(ref.observe(play(seat, card))) == []) is legal


def test_lb_blank_card_is_a_wild() -> None:
    _, out = run([setup(rules="lb"), start("orange_5"), play(1, "blank", "violet"), play(2, "violet_3")])
    assert alerts(out) == []


def test_lb_blank_start_card_first_player_names_colour() -> None:
    ref, _ = run([setup(rules="lb"), start("blank"), {"type": "color", "color": "green", "seat": 1}])
    assert ref.snapshot()["colour"] == "green" and ref.expected_seat == 1


@pytest.mark.parametrize("name", list(PRESETS))
def test_challenge_penalties_per_preset(name: str) -> None:
    colours = {"lb": ("orange", "violet")}.get(name, ("red", "blue"))
    first = {"breuken": "red_1/2"}.get(name, f"{colours[0]}_5")
    own = {"breuken": "green_1/3"}.get(name, "green_1") if name != "lb" else "green_1"
    script = [setup(rules=name), start(first), play(1, "wild_draw4", colours[1]), challenge(2), reveal(1, [own])]
    _, out = run(script)
    found = [(a["code"], a["seat"], a["penalty_cards"]) for a in out if a["type"] == "alert"]
    assert found == [("failed_challenge", 2, 6)]
