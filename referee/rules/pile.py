"""Cards seen on the pile, counted against the copies the deck holds (``impossible_card``)."""

from __future__ import annotations

from referee.cards import Card
from referee.contract import AlertCode, OutputLine
from referee.rules.report import alert, say
from referee.rules.state import RoundState

__all__ = ["see"]


def see(state: RoundState, card: Card, seat: int | None, out: list[OutputLine]) -> bool:
    """Count ``card`` on the pile; False (and an impossible_card alert) if it cannot exist."""
    # A wild's named colour travels beside the card, so the card itself is the key.
    if not state.match.counts_known and state.pile_size + 1 > state.pile_limit:
        # Draws are not reported, so reshuffles are invisible: a pile this big proves one.
        state.reshuffle()
    unseen = state.unseen
    left = unseen.get(card, 0) - 1
    unseen[card] = left
    state.pile_size += 1
    if left < 0:
        copies = state.copies.get(card, 0)
        seen = copies - left
        who = seat if seat is not None else state.dealer  # a start card: the dealer turned it
        deck = state.match.deck.name
        if copies == 0:
            why = f"{say(card)} is not in the {deck} deck"
        else:
            why = f"{say(card)} seen {seen} times but the {deck} deck holds {copies}"
        alert(state, out, AlertCode.IMPOSSIBLE_CARD, who, 0, f"{why} (a misread or a foreign card)", card)
        return False
    return True
