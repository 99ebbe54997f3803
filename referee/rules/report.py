"""The referee's output lines (contract 3, docs/contract.md): alerts and info lines, in words people use.

Messages name seats as people do, 1-based ("Player 2" is seat 1), and cards in words ("Red 7"). Each
line carries the ``t`` of the observation that caused it, when that had one.
"""

from __future__ import annotations

from referee.cards import Card
from referee.contract import AlertCode, AlertLine, InfoLine, OutputLine
from referee.rules.quotes import citation
from referee.rules.state import RoundState
from referee.words import card_words, player_words

__all__ = ["alert", "describe_top", "info", "say", "who"]


def who(seat: int | None) -> str:
    """A seat in a message, as people count: "Player 1" is seat 0."""
    return player_words(seat)


def say(card: Card) -> str:
    """A card in a message, in words: "Red 7", "Wild Draw Four"."""
    return card_words(card.label)


def describe_top(state: RoundState) -> str:
    """The pile's top card and the colour to follow, in words."""
    if state.top is None:
        return "an empty pile"
    colour = state.colour.value if state.colour is not None else "unnamed"
    return f"{say(state.top)} (colour {colour})"


def alert(
    state: RoundState,
    out: list[OutputLine],
    code: AlertCode,
    seat: int,
    penalty: int,
    message: str,
    card: Card | None = None,
) -> None:
    """Add an alert line: ``seat`` broke the rule ``code`` and must draw ``penalty`` cards; ``card`` is
    the card it is about, and the line cites what the preset's rule sheet says of it."""
    line: AlertLine = {
        "type": "alert",
        "code": code,
        "seat": seat,
        "penalty_cards": penalty,
        "message": message,
    }
    if card is not None:
        line["card"] = card.label
    line["rule"] = citation(state.match.options.sheet, code)
    if state.t is not None:
        line["t"] = state.t
    out.append(line)


def info(state: RoundState, out: list[OutputLine], message: str, *, seat: int | None = None,
         inferred_colour: str | None = None) -> None:
    """Add an info line: something worth saying that breaks no rule (a jump-in's ``seat``, the colour a play
    was taken to follow: what it is about)."""
    line: InfoLine = {"type": "info", "message": message}
    if seat is not None:
        line["seat"] = seat
    if inferred_colour is not None:
        line["inferred_colour"] = inferred_colour
    if state.t is not None:
        line["t"] = state.t
    out.append(line)
