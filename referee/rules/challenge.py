"""Judging a ``challenge`` of a Wild Draw Four and a ``reveal``: the hand shown settles the challenge,
or, at the round's end, scores the round."""

from __future__ import annotations

from referee.cards import Card
from referee.contract import AlertCode, OutputLine
from referee.rules.observations import ObservationError
from referee.rules.report import alert, info, who
from referee.rules.scoring import end_round, missing_reveals, score
from referee.rules.state import WILD_DRAW4, RoundState, Wd4

__all__ = ["judge_challenge", "judge_reveal"]


def judge_challenge(state: RoundState, seat: int | None, out: list[OutputLine]) -> None:
    """``seat`` (``None``: the last Wild Draw Four's victim) challenges it; its player must show the
    hand. Ignored (an info line) when there is no Wild Draw Four to challenge or its cards are taken."""
    wd4 = state.last_wd4
    if seat is None:
        seat = wd4.victim if wd4 else None
    top = state.top
    if (
        wd4 is None
        or wd4.challenged
        or top is None
        or top.value != "wild_draw4"
        or seat != wd4.victim
        or state.draw_victim != seat  # too late: the victim has already taken the cards
        or state.round_over
    ):
        info(state, out, f"challenge by {who(seat)} ignored: no Wild Draw Four to challenge")
        return
    wd4.challenged = True
    state.challenge_pending = True
    state.wd4_watch.pop(wd4.player, None)
    info(state, out, f"{who(seat)} challenges {who(wd4.player)}'s Wild Draw Four: show the hand")


def judge_reveal(state: RoundState, seat: int | None, cards: tuple[Card, ...], out: list[OutputLine]) -> None:
    """``seat`` shows ``cards``: to settle a pending challenge, or for scoring at the round's end (an
    empty hand, or any hand shown when counts are not known, ends the round).

    Raises :class:`ObservationError` for a reveal without a seat outside a challenge.
    """
    wd4 = state.last_wd4
    if state.challenge_pending and wd4 is not None and (seat is None or seat == wd4.player):
        _settle_challenge(state, wd4, cards, out)
        return
    if seat is None:
        raise ObservationError("reveal needs a 'seat' outside a challenge")
    if not state.round_over:
        if not cards:
            state.counts[seat] = 0
            end_round(state, seat, out)
        elif not state.match.counts_known and state.last_player is not None:
            end_round(state, state.last_player, out)
        else:
            info(state, out, f"{who(seat)} showed their hand before the round ended: ignored")
            return
    if seat == state.round_winner:
        return
    if state.pending_draw and seat == state.draw_victim:
        info(state, out, f"{who(seat)} shows their hand but still owes {state.pending_draw} cards")
    known = state.counts[seat]
    if state.match.counts_known and known is not None and known != len(cards):
        info(state, out, f"{who(seat)} shows {len(cards)} cards but the referee counted {known}")
    state.counts[seat] = len(cards)
    state.reveals[seat] = cards
    if not state.scored and not missing_reveals(state):
        score(state, out)


def _settle_challenge(state: RoundState, wd4: Wd4, cards: tuple[Card, ...], out: list[OutputLine]) -> None:
    """The challenged player's hand: guilty when it holds the colour its Wild Draw Four had to follow."""
    state.challenge_pending = False
    state.counts[wd4.player] = len(cards)
    check = wd4.check
    if check is None:
        info(state, out, "challenge cannot be settled: the colour before the +4 is unknown")
        return
    owed = state.pending_draw if state.draw_victim == wd4.victim and state.pending_draw else 4
    if any(card.colour == check for card in cards):
        _guilty(state, wd4, owed, out)
        return
    penalty = owed + state.match.options.challenge_failed_penalty
    message = f"{who(wd4.player)} held no {check.value}: the challenge failed"
    alert(state, out, AlertCode.FAILED_CHALLENGE, wd4.victim, penalty, message, WILD_DRAW4)
    state.pending_draw = penalty
    state.draw_victim = wd4.victim
    state.turn = wd4.victim


def _guilty(state: RoundState, wd4: Wd4, owed: int, out: list[OutputLine]) -> None:
    """The Wild Draw Four was illegal: its player draws (a stacked +4 the stack's cards too), its
    victim owes nothing, and under ``challenge_takeback`` the card goes back to the hand."""
    opts = state.match.options
    player, victim = wd4.player, wd4.victim
    assert wd4.check is not None
    message = f"{who(player)}'s hand holds {wd4.check.value}: its Wild Draw Four was illegal"
    # A stacked +4 caught: the normal penalty, grown by the cards stacked before it.
    penalty = opts.challenge_guilty_penalty + max(owed - 4, 0)
    alert(state, out, AlertCode.ILLEGAL_WILD_DRAW_FOUR, player, penalty, message, WILD_DRAW4)
    if state.draw_victim == victim:
        state.clear_pending()
    state.skipped_seat = None
    if opts.challenge_takeback:
        state.hand_changed(player, 1)
        if state.top is not None:
            state.unsee(state.top)
        state.top, state.colour = wd4.prev_top, wd4.prev_colour
        state.top_doubtful = False
        state.uno_watch = None
    state.turn = player if opts.challenge_guilty_replays else victim
