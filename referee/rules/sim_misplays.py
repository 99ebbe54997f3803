"""The misplays the simulator can inject, one function per alert code (:data:`MISPLAYS`).

Each makes its misplay at ``seat``'s turn on a :class:`~referee.rules.sim_table.SimTable` and records
the alert the referee must raise, or raises :class:`~referee.rules.sim_table.NoChance` when the position
allows none (the table then plays on legally and tries again at a later turn). How each is made: the
docstring of :mod:`referee.rules.simulate`.
"""

from __future__ import annotations

from referee.cards import FRACTIONS, Card
from referee.contract import Challenge, Reveal
from referee.rules.sim_table import Misplay, NoChance, SimTable

__all__ = ["MISPLAYS"]


def misplay(table: SimTable, seat: int, index: int, code: str, penalty: int) -> None:
    """``seat`` misplays ``hands[seat][index]``: the card stays on the pile and takes effect
    (the camera saw it land), play goes on from that seat, and it draws ``penalty`` cards."""
    table.expect(code, seat)
    if penalty:
        table.owed.append((seat, penalty))
    table.play(seat, index)


def non_matching(table: SimTable, hand: list[Card]) -> list[int]:
    return [i for i in plain_cards(table, hand) if not table.matches(hand[i])]


def plain_cards(table: SimTable, hand: list[Card]) -> list[int]:
    """Coloured cards without effect on turn order, draws or hands."""
    return [
        i
        for i, c in enumerate(hand)
        if c.colour is not None and c.value not in ("skip", "reverse", "draw2", "7", "0")
    ]


def matching_plain(table: SimTable, hand: list[Card]) -> list[int]:
    return [i for i in plain_cards(table, hand) if table.matches(hand[i])]


def counts_public(table: SimTable) -> bool:
    """Hand counts are public once a draw has been reported (the referee needs them)."""
    return table.draws_reported


def inject_illegal_card(table: SimTable, seat: int) -> None:
    hand = table.hands[seat]
    wrong = non_matching(table, hand)
    if table.pending_draw or not wrong or len(hand) < 3:
        raise NoChance
    misplay(table, seat, table.rng.choice(wrong), "illegal_card", table.rules.misplay_penalty)


def inject_out_of_turn(table: SimTable, seat: int) -> None:
    if table.pending_draw or len(table.pile) < 2:
        raise NoChance
    others = [s for s in range(table.n) if s not in (seat, table.last_skipped)]
    table.rng.shuffle(others)
    for other in others:
        hand = table.hands[other]
        # a card identical to the top would be a legal jump-in under some presets
        plain = [i for i in plain_cards(table, hand) if hand[i] != table.top]
        if len(hand) >= 3 and plain:
            pick = table.rng.choice(plain)
            misplay(table, other, pick, "out_of_turn", table.rules.misplay_penalty)
            return
    raise NoChance


def inject_skipped_turn_played(table: SimTable, seat: int) -> None:
    victim = table.last_skipped
    if table.pending_draw and counts_public(table):
        # the victim of a +2/+4 plays instead of drawing; it still owes the cards
        hand = table.hands[seat]
        plain = matching_plain(table, hand)
        if len(hand) < 3 or not plain:
            raise NoChance
        owed, table.pending_draw = table.pending_draw, 0
        penalty = table.rules.misplay_penalty + owed
        table.how = "instead_of_drawing"
        misplay(table, seat, table.rng.choice(plain), "skipped_turn_played", penalty)
        return
    if table.pending_draw or victim is None or victim == seat:
        raise NoChance
    hand = table.hands[victim]
    plain = [i for i in plain_cards(table, hand) if hand[i] != table.top]
    if len(hand) < 3 or not plain:
        raise NoChance
    pick = table.rng.choice(plain)
    table.how = "after_skip"
    misplay(table, victim, pick, "skipped_turn_played", table.rules.misplay_penalty)


def inject_missed_draw_penalty(table: SimTable, seat: int) -> None:
    # seat is the victim of a +2/+4; it takes nothing and the player after it plays
    if not table.pending_draw or not counts_public(table):
        raise NoChance
    after = table.next_seat(seat)
    hand = table.hands[after]
    plain = matching_plain(table, hand)
    if len(hand) < 3 or not plain:
        raise NoChance
    count, table.pending_draw = table.pending_draw, 0
    table.expect("missed_draw_penalty", seat)
    table.owed.append((seat, count))
    table.play(after, table.rng.choice(plain))


def inject_missed_uno(table: SimTable, seat: int) -> None:
    hand = table.hands[seat]
    plain = matching_plain(table, hand)
    if table.pending_draw or len(hand) != 2 or not plain or not counts_public(table):
        raise NoChance
    table.play(seat, table.rng.choice(plain), uno_missed=True)
    # the next player acts before anyone calls it
    table.pending_uno = seat


def inject_illegal_wild_draw_four(table: SimTable, seat: int) -> None:
    hand = table.hands[seat]
    held = [c.colour for c in hand if c.colour == table.colour]
    fours = [i for i, c in enumerate(hand) if c.value == "wild_draw4"]
    if table.pending_draw or not held or not fours or len(hand) < 4:
        raise NoChance
    hidden, below = table.colour, table.top
    assert hidden is not None
    table.play(seat, fours[0])
    victim = table.turn
    if table.rng.random() < 0.5:
        # the victim challenges and the hand shown proves the bluff
        table.emit(Challenge(victim))
        table.emit(Reveal(seat, tuple(table.hands[seat])))
        table.how = "challenge"
        table.expect("illegal_wild_draw_four", seat)
        table.pending_draw = 0
        if table.rules.challenge_takeback:
            table.hands[seat].append(table.pile.pop())
            assert table.top == below
            table.colour = hidden
        table.turn = seat if table.rules.challenge_guilty_replays else victim
        table.draw_cards(seat, table.rules.challenge_guilty_penalty)
    elif counts_public(table):
        # no challenge: proven later, when the bluffer plays the hidden colour undrawn
        table.bluff[seat] = hidden
        table.how = "inference"


def inject_failed_challenge(table: SimTable, seat: int) -> None:
    # seat is the victim of an honest Wild Draw Four
    if table.pending_draw != 4 or table.top.value != "wild_draw4" or len(table.pile) < 2:
        raise NoChance
    player = table.next_seat(seat, -1)
    table.emit(Challenge(seat))
    table.emit(Reveal(player, tuple(table.hands[player])))
    table.expect("failed_challenge", seat)
    count, table.pending_draw = table.pending_draw, 0
    table.draw_cards(seat, count + table.rules.challenge_failed_penalty)
    table.last_skipped = seat
    table.turn = table.next_seat(seat)


def inject_impossible_card(table: SimTable, seat: int) -> None:
    hand = table.hands[seat]
    if table.pending_draw or len(hand) < 3 or table.colour is None:
        raise NoChance
    value = "5" if table.rules.deck is FRACTIONS else "1/2"
    foreign = Card(table.colour, value)
    assert foreign not in table.rules.deck
    # the foreign card was in this hand all along, in place of one the deck really holds
    table.foreign = foreign
    table.foreign_replaced = hand.pop(table.rng.randrange(len(hand)))
    table.hands[seat].append(foreign)
    table.expect("impossible_card", seat)
    table.play(seat, len(hand) - 1)


#: alert code -> the function that makes that misplay
MISPLAYS: dict[str, Misplay] = {
    "illegal_card": inject_illegal_card,
    "out_of_turn": inject_out_of_turn,
    "skipped_turn_played": inject_skipped_turn_played,
    "missed_draw_penalty": inject_missed_draw_penalty,
    "missed_uno": inject_missed_uno,
    "illegal_wild_draw_four": inject_illegal_wild_draw_four,
    "failed_challenge": inject_failed_challenge,
    "impossible_card": inject_impossible_card,
}
