"""Judging a ``play``: whose turn it was, whether the card follows the pile, and what it does.

:func:`judge_play` reads as the steps it takes: ignore what cannot be judged, close the UNO window,
count the card on the pile (:func:`referee.rules.pile.see`), judge the order of play (a missed draw, a
stack or deflection, a jump-in, a skipped or out-of-turn seat), judge the card (illegal, a wild's colour
inferred, an earlier Wild Draw Four proven a bluff), lay it, and take its effect (turn order, draws owed,
seven-zero hand passing). Also here: the UNO window and a missed draw, which a ``draw`` closes too.
"""

from __future__ import annotations

from referee.cards import Card, Colour
from referee.contract import AlertCode, OutputLine
from referee.rules.observations import ObservationError
from referee.rules.pile import see
from referee.rules.report import alert, describe_top, info, say, who
from referee.rules.scoring import end_round
from referee.rules.state import DRAW_PENALTY, WILD_DRAW4, WILD_VALUES, RoundState, Wd4

__all__ = ["close_uno_window", "judge_play", "missed_draw"]


def judge_play(
    state: RoundState, card: Card, seat: int | None, named: Colour | None, target: int | None, out: list[OutputLine]
) -> None:
    """Judge ``card`` landing on the pile from ``seat`` (``None``: the seat in turn), ``named`` the
    colour named for a wild, ``target`` the seat a seven swaps hands with (seven-zero).

    Raises :class:`ObservationError` for a named colour the deck does not have, changing nothing.
    """
    value = card.value
    if (state.round_over or named is not None or state.eliminated or value == "back") and _ignored(
        state, card, seat, named, out
    ):
        return
    if seat is None:
        seat = state.turn
    if state.uno_watch is not None:
        close_uno_window(state, seat, out)
    match = state.match
    unseen = state.unseen
    room = unseen.get(card, 0)
    if room > 0 and (match.counts_known or state.pile_size < state.pile_limit):
        unseen[card] = room - 1  # the common case of see(), inline
        state.pile_size += 1
        possible = True
    else:
        possible = see(state, card, seat, out)
    stacked = deflected = False
    judged = possible
    if state.pending_draw or seat != state.turn:
        stacked, deflected, judged = _judge_order(state, card, seat, judged, out)
    colour = card.colour
    if judged and colour is not None and colour != state.colour and not state.matches(card):
        _illegal_card(state, card, seat, out)
    if state.colour is None and colour is not None:
        _colour_inferred(state, card, seat, out)
    if state.wd4_watch and possible:
        _bluff_proven(state, card, seat, out)
    left = _lay(state, card, seat, named, possible, stacked, out)
    state.uno_owed.pop(seat, None)  # played on: a missed call's penalty not drawn by now is let go
    _take_effect(state, value, seat, deflected)
    if match.options.seven_zero and not state.round_over and value in ("0", "7"):
        _seven_zero(state, seat, value, target, out)
        left = state.counts[seat]
    if left is not None and left >= 2:
        state.uno_called[seat] = False
    elif left == 1 and match.counts_known and not state.round_over:
        state.uno_watch = seat


def _ignored(state: RoundState, card: Card, seat: int | None, named: Colour | None, out: list[OutputLine]) -> bool:
    """A play not judged (after the round, face down, by an eliminated seat): an info line says so."""
    if state.round_over:
        info(state, out, f"play of {say(card)} after the round ended ignored")
        return True
    if card.value == "back":
        info(state, out, "face-down card on the pile ignored")
        return True
    if named is not None and named not in state.match.deck.colours:
        raise ObservationError(f"color {named.value!r} is not in the {state.match.deck.name} deck")
    if seat is None:
        seat = state.turn
    if state.eliminated and seat in state.eliminated:
        info(state, out, f"{who(seat)} is out of the match; play of {say(card)} ignored")
        return True
    return False


def _judge_order(
    state: RoundState, card: Card, seat: int, judged: bool, out: list[OutputLine]
) -> tuple[bool, bool, bool]:
    """A play while a +2/+4 is pending or from a seat not in turn: ``(stacked, deflected, judged)``,
    ``judged`` False where the card's legality is not judged after all."""
    # A pending +2/+4 whose victim let play go on: the draw was missed.
    victim = state.draw_victim
    if (
        state.pending_draw
        and victim is not None
        and seat != victim
        and (seat == state.turn or seat == state.next_seat(victim))
    ):
        missed_draw(state, out)
    if state.pending_draw and seat == state.draw_victim:
        if state.stacks(card):
            return True, False, False
        if state.deflects(card):
            return False, True, False
        owed = state.pending_draw
        message = f"{who(seat)} played {say(card)} instead of drawing {owed} for {describe_top(state)}"
        penalty = state.match.options.misplay_penalty + owed
        alert(state, out, AlertCode.SKIPPED_TURN_PLAYED, seat, penalty, message, card)
        state.clear_pending()
        return False, False, False
    if seat != state.turn:
        _out_of_turn(state, card, seat, out)
        if state.pending_draw:
            # Play order is already broken: the victim still owes the cards, silently.
            state.clear_pending()
        return False, False, False
    return False, False, judged


def _out_of_turn(state: RoundState, card: Card, seat: int, out: list[OutputLine]) -> None:
    """A seat not in turn plays: a legal jump-in, or a skipped or out-of-turn seat's misplay."""
    penalty = state.match.options.misplay_penalty
    if state.is_jump_in(card):
        # Checked first: an identical card lets even a skipped player escape (004).
        info(state, out, f"{who(seat)} jumps in with {say(card)}", seat=seat)
    elif seat == state.skipped_seat:
        message = f"{who(seat)} had to skip but played {say(card)}"
        alert(state, out, AlertCode.SKIPPED_TURN_PLAYED, seat, penalty, message, card)
    else:
        message = f"{who(seat)} played {say(card)} but it was {who(state.turn)}'s turn"
        alert(state, out, AlertCode.OUT_OF_TURN, seat, penalty, message, card)


def _illegal_card(state: RoundState, card: Card, seat: int, out: list[OutputLine]) -> None:
    message = f"{who(seat)} played {say(card)} on {describe_top(state)}"
    alert(state, out, AlertCode.ILLEGAL_CARD, seat, state.match.options.misplay_penalty, message, card)


def _colour_inferred(state: RoundState, card: Card, seat: int, out: list[OutputLine]) -> None:
    """A coloured card on a wild whose colour was not named: it names it, as an info line says."""
    top = state.top
    if top is not None and top.value in WILD_VALUES and card.colour is not None:
        colour = card.colour.value
        message = f"colour of {say(top)} not named: inferred {colour} from {who(seat)}'s {say(card)}"
        info(state, out, message, inferred_colour=colour)


def _bluff_proven(state: RoundState, card: Card, seat: int, out: list[OutputLine]) -> None:
    """A Wild Draw Four proven illegal by a later play of the colour it should have followed (an
    impossible card is not the card we think: it proves nothing, and is not judged here)."""
    watched = state.wd4_watch.get(seat)
    colour = card.colour
    if watched is not None and colour is not None and colour in watched:
        del state.wd4_watch[seat]
        message = (
            f"{who(seat)} played {say(card)}: they held {colour.value} when they played "
            "a Wild Draw Four on that colour"
        )
        penalty = state.match.options.challenge_guilty_penalty
        alert(state, out, AlertCode.ILLEGAL_WILD_DRAW_FOUR, seat, penalty, message, WILD_DRAW4)


def _lay(
    state: RoundState, card: Card, seat: int, named: Colour | None, possible: bool, stacked: bool, out: list[OutputLine]
) -> int | None:
    """Put the card on the pile and take it from the hand; the cards left (``None``: unknown). A
    hand emptied ends the round."""
    prev_top, prev_colour = state.top, state.colour
    state.plays += 1
    state.started = True
    state.last_player = seat
    state.skipped_seat = None
    left = state.counts[seat]
    if left:
        left -= 1
        state.counts[seat] = left
    value = card.value
    state.top = card
    state.colour = named if value in WILD_VALUES else card.colour
    state.top_doubtful = not possible
    if value == "wild_draw4":
        _record_wd4(state, seat, prev_top, prev_colour, stacked)
    if left == 0 and state.match.counts_known:
        end_round(state, seat, out)
    return left


def _record_wd4(state: RoundState, seat: int, prev_top: Card | None, prev_colour: Colour | None, stacked: bool) -> None:
    """Remember a Wild Draw Four: what a challenge checks, and the colour its player must not play."""
    answered = state.last_wd4
    wd4 = state.last_wd4 = Wd4(seat, state.next_seat(seat), prev_colour, prev_top)
    if not stacked and prev_colour is not None and state.match.counts_known:
        state.wd4_watch.setdefault(seat, set()).add(prev_colour)
    if stacked:
        # On a +4: judged as the stack's first +4 is (its colour before). On a +2: not judged.
        on_four = prev_top is not None and prev_top.value == "wild_draw4" and answered is not None
        wd4.check = answered.check if on_four and answered is not None else None


def _take_effect(state: RoundState, value: str, seat: int, deflected: bool) -> None:
    """Turn order and draws owed after a card of ``value`` from ``seat``."""
    if deflected:
        state.direction = -state.direction
        state.draw_victim = state.next_seat(seat)
        state.turn = state.draw_victim
    elif value in DRAW_PENALTY:
        state.pending_draw += DRAW_PENALTY[value]
        state.draw_victim = state.next_seat(seat)
        state.turn = state.draw_victim
    elif value == "skip" or (
        value == "reverse" and state.active_players == 2 and state.match.options.two_player_reverse_skip
    ):
        if value == "reverse":
            state.direction = -state.direction
        state.skipped_seat = state.next_seat(seat)
        state.turn = state.next_seat(seat, 2)
    elif value == "reverse":
        state.direction = -state.direction
        state.turn = state.next_seat(seat)
    else:
        state.turn = state.next_seat(seat)


def _seven_zero(state: RoundState, seat: int, value: str, target: int | None, out: list[OutputLine]) -> None:
    """Seven-zero: a 0 passes every hand on in the direction of play, a 7 swaps hands with ``target``."""
    state.uno_watch = None
    if value == "0":
        state.wd4_watch.clear()
        seats = [s for s in range(state.players) if s not in state.eliminated]
        old = {s: state.counts[s] for s in seats}
        called = {s: state.uno_called[s] for s in seats}
        for s in seats:
            receiver = state.next_seat(s)
            state.counts[receiver] = old[s]
            state.uno_called[receiver] = called[s]
        info(state, out, "zero played: every hand passes on in the direction of play")
        return
    if target is None or target == seat or target in state.eliminated:
        state.wd4_watch.clear()
        state.counts = [None] * state.players
        info(state, out, f"{who(seat)} swaps hands with an unnamed seat: hand counts unknown")
        return
    counts, called_uno = state.counts, state.uno_called
    counts[seat], counts[target] = counts[target], counts[seat]
    state.wd4_watch.pop(seat, None)
    state.wd4_watch.pop(target, None)
    called_uno[seat], called_uno[target] = called_uno[target], called_uno[seat]
    info(state, out, f"{who(seat)} swaps hands with {who(target)}")


def missed_draw(state: RoundState, out: list[OutputLine]) -> None:
    """The victim of a +2/+4 let play go on without drawing: alerted when hand counts are known (else
    the cards are counted as taken), and play goes on after the victim."""
    victim = state.draw_victim
    assert victim is not None
    owed = state.pending_draw
    if state.match.counts_known:
        message = f"{who(victim)} did not draw the {owed} cards of {describe_top(state)} before play went on"
        alert(state, out, AlertCode.MISSED_DRAW_PENALTY, victim, owed, message, state.top)
    else:
        state.hand_changed(victim, owed)
    state.clear_pending()
    state.skipped_seat = victim
    state.turn = state.next_seat(victim)


def close_uno_window(state: RoundState, actor: int, out: list[OutputLine]) -> None:
    """``actor`` acts: a seat left with one card and no UNO call before this has missed its call."""
    watched = state.uno_watch
    if watched is None or watched == actor:
        return
    state.uno_watch = None
    if state.match.counts_known and state.counts[watched] == 1 and not state.uno_called[watched]:
        message = f"{who(watched)} has one card left and did not call UNO before {who(actor)} acted"
        alert(state, out, AlertCode.MISSED_UNO, watched, state.match.options.uno_penalty, message)
        if state.match.options.uno_penalty > 0:
            state.uno_owed[watched] = state.match.options.uno_penalty
