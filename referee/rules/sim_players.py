"""How the simulated players choose: conservative moves, legal under every rule sheet's reading.

A Wild Draw Four only when nothing else in the hand could be played, a jump-in only with an identical
coloured number, a seven-zero card never when a one-card hand would change owner; a bluffer who has not
drawn since plays the colour it hid. Functions of the :class:`~referee.rules.sim_table.SimTable`, which
asks them at each turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.cards import Card, Colour

if TYPE_CHECKING:
    from referee.rules.sim_table import SimTable

__all__ = ["choose", "find_jump_in", "penalty_answers", "pick_colour", "safe_playable"]


def safe_playable(table: SimTable, hand: list[Card]) -> list[int]:
    """Indexes of cards in ``hand`` legal under every sheet's reading."""
    ordinary = [i for i, c in enumerate(hand) if c.value != "wild_draw4" and table.matches(c)]
    if table.rules.seven_zero:
        ordinary = [i for i in ordinary if hand_passing_is_clear(table, hand, hand[i])]
    if ordinary:
        return ordinary
    # Wild Draw Four only when nothing else at all could be played (the strictest sheet) and
    # the hand holds no card of the current colour (a seven-zero card held back counts).
    if any(c.colour == table.colour for c in hand):
        return []
    return [i for i, c in enumerate(hand) if c.value == "wild_draw4"]


def hand_passing_is_clear(table: SimTable, hand: list[Card], card: Card) -> bool:
    """Seven-zero: play a 7 or 0 only where no hand of one card changes owner (who would have
    to call UNO is then unclear) and never as the last card."""
    if card.value not in ("7", "0"):
        return True
    left = len(hand) - 1
    if left <= 1:
        return False
    if card.value == "7":
        return any(len(h) not in (0, 1) for h in table.hands if h is not hand)
    return all(len(h) != 1 for h in table.hands if h is not hand)


def pick_colour(table: SimTable, seat: int) -> Colour:
    """The colour named for a wild: mostly one the hand holds."""
    colours = [c.colour for c in table.hands[seat] if c.colour is not None]
    if colours and table.rng.random() < 0.8:
        return table.rng.choice(colours)
    return table.rng.choice(table.rules.deck.colours)


def choose(table: SimTable, seat: int, playable: list[int]) -> int:
    """Which of the ``playable`` cards (indexes into the hand) ``seat`` plays."""
    bluffed = table.bluff.get(seat)
    if bluffed is not None:
        # a bluffer who has not drawn since plays the colour it hid, proving the bluff
        proof = [i for i in playable if table.hands[seat][i].colour == bluffed]
        if proof:
            return table.rng.choice(proof)
    return table.rng.choice(playable)


def find_jump_in(table: SimTable, seat: int) -> int | None:
    """A seat other than ``seat`` holding a card identical to a coloured number on the pile."""
    if len(table.pile) < 2 or not table.top.is_number or table.top.colour != table.colour:
        return None
    if table.rules.seven_zero and table.top.value in ("7", "0"):
        return None
    for k in range(1, table.n):
        other = (seat + k) % table.n
        if any(c == table.top for c in table.hands[other]):
            return other
    return None


def penalty_answers(table: SimTable, seat: int) -> tuple[list[int], list[int]]:
    """The victim of a +2/+4: indexes of the cards in its hand that may stack on it, and of those
    that may send it back (a reverse)."""
    hand = table.hands[seat]
    top = table.top
    rules = table.rules
    holds_colour = any(h.colour == table.colour for h in hand)
    answers: list[int] = []
    deflects: list[int] = []
    for i, c in enumerate(hand):
        if c.value == "draw2":
            same = top.value == "draw2" and rules.stack_draw2
            mixed = top.value == "wild_draw4" and rules.stack_mixed and c.colour == table.colour
            if same or mixed:
                answers.append(i)
        elif c.value == "wild_draw4" and not holds_colour:
            # a stacked +4 follows the +4 rule too (conservative)
            same = top.value == "wild_draw4" and rules.stack_draw4
            mixed = top.value == "draw2" and rules.stack_mixed
            if same or mixed:
                answers.append(i)
        elif c.value == "reverse" and c.colour == table.colour and rules.reverse_deflects_draw:
            deflects.append(i)
    return answers, deflects
