"""Judging the table's other actions: the ``start`` card, a ``draw``, a ``pass``, a named ``color`` and
an ``uno`` call. One function per observation type; each changes the :class:`RoundState` in place and
adds the lines it causes to ``out``."""

from __future__ import annotations

from referee.cards import Card, Colour
from referee.contract import OutputLine
from referee.rules.observations import ObservationError
from referee.rules.pile import see
from referee.rules.play import close_uno_window, missed_draw
from referee.rules.report import info, who
from referee.rules.scoring import end_round
from referee.rules.state import RoundState

__all__ = ["judge_color", "judge_draw", "judge_pass", "judge_start", "judge_uno"]


def judge_start(state: RoundState, card: Card, out: list[OutputLine]) -> None:
    """The card turned from the stock to start the pile, and what it does to the first turn.

    Raises :class:`ObservationError` for a start card after the round's first play, or a second one.
    """
    if state.plays or state.round_over:
        raise ObservationError(f"start card {card.label!r} after the round's first play")
    if state.started:
        raise ObservationError(f"second start card {card.label!r}: the pile already starts with {state.top}")
    if card.is_back:
        info(state, out, "face-down start card ignored")
        return
    state.stock -= 1
    see(state, card, None, out)
    if card.value == "wild_draw4":
        # Every sheet: a Wild Draw Four start card goes back into the stock; another is turned.
        state.stock += 1
        state.unsee(card)
        info(state, out, "wild_draw4 start card goes back into the stock; turn another")
        return
    state.started = True
    state.top = card
    state.colour = card.colour
    _first_turn(state, card.value)


def _first_turn(state: RoundState, value: str) -> None:
    """Who acts first after a start card of ``value``. A wild or blank start card: the first player
    names the colour (the colour stays ``None`` until then)."""
    first = state.turn = state.next_seat(state.dealer)
    if value == "skip":
        state.skipped_seat = first
        state.turn = state.next_seat(first)
    elif value == "reverse":
        options = state.match.options
        if state.active_players == 2 and options.two_player_reverse_skip:
            state.skipped_seat = first
            state.turn = state.next_seat(first)
        else:
            state.direction = -1
            state.turn = state.dealer if options.reverse_start == "dealer" else state.next_seat(state.dealer)
    elif value == "draw2":
        state.pending_draw = 2
        state.draw_victim = first


def judge_draw(state: RoundState, seat: int | None, count: int, out: list[OutputLine]) -> None:
    """``seat`` (``None``: the seat that owes a draw, or the seat in turn) took ``count`` cards."""
    if seat is None:
        seat = state.draw_victim if state.pending_draw and state.draw_victim is not None else state.turn
    if not state.match.draws_seen:
        _first_draw_seen(state, out)
    if not state.round_over:
        in_turn = seat == state.turn or seat == state.draw_victim
        if in_turn and state.uno_watch is not None:
            close_uno_window(state, seat, out)
        if state.pending_draw and state.draw_victim is not None and seat != state.draw_victim and seat == state.turn:
            missed_draw(state, out)
    state.hand_changed(seat, count)
    state.uno_called[seat] = False
    if state.wd4_watch:
        state.wd4_watch.pop(seat, None)
    state.stock -= count
    if state.stock < 0:
        # The stock ran out during this draw: the pile (but its top) was shuffled into it.
        state.reshuffle()
        state.stock = max(state.stock, 0)
    # A missed UNO call's penalty is taken first: it was owed before the +2/+4 was answered, which the
    # seat may still stack on (house rules) or draw.
    owed = state.uno_owed.pop(seat, 0)
    if owed > count:
        state.uno_owed[seat] = owed - count
    count -= min(owed, count)
    if count and state.pending_draw and seat == state.draw_victim:
        state.pending_draw -= count
        if state.pending_draw <= 0:
            state.clear_pending()
            if state.turn == seat and not state.round_over:
                state.skipped_seat = seat
                state.turn = state.next_seat(seat)


def _first_draw_seen(state: RoundState, out: list[OutputLine]) -> None:
    """The match's first reported draw: hand counts may now be trusted."""
    match = state.match
    match.draws_seen = True
    match.update_counts_known()
    last = state.last_player
    if not state.round_over and match.counts_known and last is not None and state.counts[last] == 0:
        # The hand emptied before any draw was seen (counts not yet trusted); this is the
        # final +2/+4 (or a later draw): the round ended with that play.
        end_round(state, last, out)


def judge_pass(state: RoundState, seat: int | None, out: list[OutputLine]) -> None:
    """``seat`` (``None``: the seat in turn) ends the turn without playing; another seat's pass is
    passed over."""
    if seat is None:
        seat = state.turn
    if state.round_over or seat != state.turn:
        return
    if state.uno_watch is not None:
        close_uno_window(state, seat, out)
    state.turn = state.next_seat(seat)
    state.skipped_seat = None


def judge_color(state: RoundState, colour: Colour, out: list[OutputLine]) -> None:
    """The colour named for the wild on top of the pile.

    Raises :class:`ObservationError` for a colour the deck does not have.
    """
    deck = state.match.deck
    if colour not in deck.colours:
        raise ObservationError(f"color {colour.value!r} is not in the {deck.name} deck")
    top = state.top
    if top is None or not top.is_wild:
        info(state, out, f"colour {colour.value} named but the top card is not a wild: ignored")
        return
    if state.colour is not None and state.colour != colour:
        info(state, out, f"colour for {top.label} changed from {state.colour.value} to {colour.value}")
    state.colour = colour


def judge_uno(state: RoundState, seat: int | None, out: list[OutputLine]) -> None:
    """``seat`` (``None``: the last seat that played) called UNO; a call holding more than two cards
    is ignored."""
    if seat is None:
        seat = state.last_player
    if seat is None:
        return
    count = state.counts[seat]
    if state.match.counts_known and count is not None and count > 2:
        info(state, out, f"{who(seat)} called UNO holding {count} cards: ignored")
        return
    state.uno_called[seat] = True
    if state.uno_watch == seat:
        state.uno_watch = None
