"""Small helpers to feed a referee short scripted games."""

from __future__ import annotations

from typing import Any

from referee.contract import AlertLine, OutputLine
from referee.rules import Referee


def run(script: list[dict[str, Any]], rules: str | None = None) -> tuple[Referee, list[OutputLine]]:
    """Feed every observation of ``script``; returns the referee and all its output lines."""
    ref = Referee(rules=rules)
    out: list[OutputLine] = []
    for obs in script:
        out.extend(ref.observe(obs))
    return ref, out


def alerts(lines: list[OutputLine]) -> list[tuple[str, int]]:
    """``(code, seat)`` of every alert line."""
    return [(line["code"], line["seat"]) for line in lines if line["type"] == "alert"]


def alert(line: OutputLine) -> AlertLine:
    """``line``, which the test knows is an alert, as one (checked: a line of another type fails the test)."""
    assert line["type"] == "alert", line
    return line


def message(line: OutputLine) -> str:
    """The message of ``line``, which the test knows is an alert or an info line (checked)."""
    assert line["type"] == "alert" or line["type"] == "info", line
    return line["message"]


def setup(players: int = 4, dealer: int = 0, rules: str = "official", **options: Any) -> dict[str, Any]:
    return {"type": "setup", "players": players, "dealer": dealer, "rules": rules, "options": options}


def start(card: str) -> dict[str, Any]:
    return {"type": "start", "card": card}


def play(seat: int | None, card: str, color: str | None = None, **extra: Any) -> dict[str, Any]:
    obs: dict[str, Any] = {"type": "play", "card": card, "seat": seat, **extra}
    if color is not None:
        obs["color"] = color
    return obs


def draw(seat: int | None, count: int = 1) -> dict[str, Any]:
    return {"type": "draw", "seat": seat, "count": count}


def pass_(seat: int | None) -> dict[str, Any]:
    return {"type": "pass", "seat": seat}


def uno(seat: int) -> dict[str, Any]:
    return {"type": "uno", "seat": seat}


def color(colour: str, seat: int | None = None) -> dict[str, Any]:
    return {"type": "color", "color": colour, "seat": seat}


def challenge(seat: int) -> dict[str, Any]:
    return {"type": "challenge", "seat": seat}


def reveal(seat: int, cards: list[str]) -> dict[str, Any]:
    return {"type": "reveal", "seat": seat, "cards": cards}
