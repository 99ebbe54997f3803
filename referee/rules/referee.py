"""The referee: a state machine fed contract-2 observations that emits contract-3 lines.

It sees only what is public at the table: the pile, named colours, calls, draws and shown hands.
Pure (standard library only) and fast: one small mutable state, no copies per step.

How each alert is decided (the simulator and the tests rely on these, keep them in sync):

``illegal_card``
    the expected player's card matches neither the current colour nor the top card's face. Not
    judged while the colour of a wild is still unnamed: the colour is then inferred from the play
    (an ``info`` line says so). Penalty: ``misplay_penalty``.
``out_of_turn``
    a seat other than the expected one plays (and it is not a legal jump-in, nor the seat that had
    to skip). The play still lands: the referee re-syncs to the actual player. ``misplay_penalty``.
``skipped_turn_played``
    the seat skipped by a skip / +2 / +4 plays next, or the victim of a pending +2/+4 plays
    instead of drawing (a card that may not stack). Penalty: ``misplay_penalty`` (+ the pending draw
    for the victim, who still owes it).
``missed_draw_penalty``
    the victim of a +2/+4 has not drawn the cards when another seat plays or draws in turn (needs
    draws reported). Penalty: the cards still owed.
``missed_uno``
    a seat is down to one card, did not call UNO (a call when holding two or one card counts), and
    another seat plays, draws or passes. Needs hand counts. Penalty: ``uno_penalty``.
``illegal_wild_draw_four``
    a challenge's reveal shows a card of the colour that was current when the +4 was played; or
    (by inference, needs draws reported) its player later plays a card of that colour without having
    drawn or swapped hands since. Penalty: ``challenge_guilty_penalty``. A +4 stacked on a +4
    (``stack_draw4``) is checked against the colour current before the stack's first +4, and its
    penalty grows by the cards stacked before it (the stack's total: 8 for two +4s under the
    defaults); a +4 stacked on a +2 (``stack_mixed``) is not judged.
``failed_challenge``
    the reveal shows no such card. Penalty (on the challenger): the cards owed (4, or the stack's
    total) + ``challenge_failed_penalty``.
``impossible_card``
    a card seen on the pile more often this round (since the last reshuffle) than the deck holds,
    or one not in the deck at all. Its legality is then not judged (it is not the card we think).
    Penalty: 0.

Round end: a hand count reaching zero (hand counts known), or, when they are not known, a reveal
of an empty hand or a reveal outside a challenge (the winner is then the last seat that played).
``round_end`` is emitted with ``points: null`` when the hand empties, and again with the points when
every needed hand is revealed, followed by ``scores`` (and ``match_end`` at the target). Extra line
types: ``info`` (a wild's colour inferred, a jump-in, a hand swap, an ignored observation, ...) and
``eliminated`` (``scoring=elimination``); consumers may ignore both.

Beyond contract 3, an alert line carries ``card`` (the label of the card it is about, where there is
one: the card played, the +2/+4 not drawn for, the Wild Draw Four) and ``rule``, what the preset's rule
sheet says of it (:func:`referee.rules.quotes.citation`: ``sheet``, ``lang`` and, where the sheet says
something that fits, ``quote`` verbatim with ``quote_en``). Messages name seats as people do, 1-based
("Player 2" is seat 1), and cards in words ("Red 7").

Beyond contract 2, a ``play`` of a 7 under seven-zero may carry ``target`` (the seat it swaps hands
with); without it the hand counts become unknown. ``observe`` also accepts already parsed
observations (:mod:`referee.rules.observations`); those are trusted (seats are not range-checked: hold one
that comes from outside to the parser with :func:`~referee.rules.observations.checked` first).

The parts, one concept a module: the state between observations (:mod:`referee.rules.state`:
:class:`~referee.rules.state.MatchState`, :class:`~referee.rules.state.RoundState`), one judging
function per observation type (:mod:`referee.rules.play`, :mod:`referee.rules.actions`,
:mod:`referee.rules.challenge`; ``setup`` here), the pile's card counts (:mod:`referee.rules.pile`),
scoring (:mod:`referee.rules.scoring`) and the lines said (:mod:`referee.rules.report`). This module
holds :class:`Referee`, which parses, dispatches and answers the live questions.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypedDict

from referee.contract import OutputLine, observation_type
from referee.rules.actions import judge_color, judge_draw, judge_pass, judge_start, judge_uno
from referee.rules.challenge import judge_challenge, judge_reveal
from referee.rules.observations import (
    PARSERS,
    Challenge,
    ColorNamed,
    Draw,
    Observation,
    ObservationError,
    Pass,
    Play,
    Reveal,
    Setup,
    Start,
    Uno,
    card_from_label,
    draw_fields,
    parse_observation,
    play_fields,
    seat_fields,
)
from referee.rules.play import judge_play
from referee.rules.presets import OptionValues, RuleOptions, find_preset
from referee.rules.report import info, who
from referee.rules.scoring import missing_reveals
from referee.rules.state import MatchState, RoundState

__all__ = ["Referee", "RefereeSnapshot"]

log = logging.getLogger(__name__)


class RefereeSnapshot(TypedDict):
    """What the referee knows now, as JSON (:meth:`Referee.snapshot`; the start of ``/api/state``)."""

    preset: str
    players: int
    dealer: int
    round: int
    turn: int | None  # the seat that should act (None: no round going on)
    direction: int  # 1 clockwise, -1 the other way
    colour: str | None  # the colour to follow (None: none yet, or a wild's not named)
    top_card: str | None
    hand_counts: list[int | None]  # None each while the counts are not known
    pending_draw: int
    pending_skip: bool
    scores: list[int]
    target: int
    round_over: bool
    match_over: bool
    winner: int | None  # the round's
    match_winner: int | None
    eliminated: list[int]
    options: OptionValues  # the rules in force, by option name


class Referee:
    """Judges a UNO match from contract-2 observations (see the module docstring).

    ``match`` and ``state`` hold what it knows (:class:`MatchState`, :class:`RoundState`); read them,
    change them only through :meth:`observe`.

    >>> ref = Referee()
    >>> ref.observe({"type": "setup", "players": 3, "dealer": 0})
    []
    >>> ref.observe({"type": "start", "card": "red_5"})
    []
    >>> [line["code"] for line in ref.observe({"type": "play", "card": "blue_7", "seat": 1})]
    [<AlertCode.ILLEGAL_CARD: 'illegal_card'>]
    """

    def __init__(self, rules: str | None = None) -> None:
        options = find_preset(rules)
        self.match = MatchState(options, options.preset)
        self.state = RoundState.deal(self.match, 0, 0, 7)

    # -- the match, read ------------------------------------------------------------------------
    @property
    def options(self) -> RuleOptions:
        """The rules in force (the last ``setup``'s preset and options)."""
        return self.match.options

    @property
    def players(self) -> int:
        """Seats at the table; 0 before the first ``setup``."""
        return self.match.players

    @property
    def scores(self) -> list[int]:
        return self.match.scores

    @property
    def challenge_pending(self) -> bool:
        """A Wild Draw Four was challenged and its player's hand is not shown yet."""
        return self.state.challenge_pending

    @property
    def in_round(self) -> bool:
        return self.match.players > 0

    @property
    def expected_seat(self) -> int | None:
        """The seat that should act now (``None`` before setup or after the round ended)."""
        if not self.in_round or self.state.round_over:
            return None
        return self.state.turn

    def snapshot(self) -> RefereeSnapshot:
        """JSON-able live state (see the agreed API)."""
        match, state = self.match, self.state
        return {
            "preset": match.options.preset,
            "players": match.players,
            "dealer": match.dealer,
            "round": match.round,
            "turn": self.expected_seat,
            "direction": state.direction,
            "colour": state.colour.value if state.colour is not None else None,
            "top_card": state.top.label if state.top is not None else None,
            "hand_counts": list(state.counts) if match.counts_known else [None] * match.players,
            "pending_draw": state.pending_draw,
            "pending_skip": state.pending_draw > 0 and state.draw_victim == state.turn,
            "scores": list(match.scores),
            "target": match.options.target,
            "round_over": state.round_over,
            "match_over": match.match_over,
            "winner": state.round_winner,
            "match_winner": match.match_winner,
            "eliminated": sorted(match.eliminated),
            "options": match.options.as_dict(),
        }

    # -- queries --------------------------------------------------------------------------------
    def legal_now(self, card_label: str) -> bool:
        """Would the expected seat's playing this card be legal right now? Not for a card of which
        every copy the deck holds is already on the pile (it would be ``impossible_card``)."""
        state = self.state
        if not self.in_round or state.round_over:
            return False
        try:
            card = card_from_label(card_label)
        except ObservationError:
            return False
        if not state.in_deck_now(card):
            return False
        if state.pending_draw and state.draw_victim == state.turn:
            return state.stacks(card) or state.deflects(card)
        return state.matches(card)

    def possible_now(self, card_label: str) -> bool:
        """Could this card land on the pile now: the deck holds a copy not yet seen on the pile (or
        the pile is big enough to prove a reshuffle)? A card that could not is ``impossible_card``:
        a foreign card, or a misread."""
        try:
            card = card_from_label(card_label)
        except ObservationError:
            return False
        return self.state.in_deck_now(card)

    # -- entry point ----------------------------------------------------------------------------
    def observe(self, obs: dict[str, Any] | Observation) -> list[OutputLine]:
        """Judge one observation; returns the contract-3 lines it causes.

        Raises :class:`ObservationError` on bad input, leaving the state unchanged.
        """
        players = self.match.players
        if type(obs) is dict and players:
            # The common case: a well-formed play, draw, pass or uno dict is judged straight from
            # its fields (read by the parser's own cheap check), without building the observation.
            kind = obs.get("type")
            fast = _FAST_PATHS.get(kind) if type(kind) is str else None
            if fast is not None:
                out: list[OutputLine] = []
                if fast(self.state, obs, players, out):
                    return out
        parsed = self._parsed(obs)
        if isinstance(parsed, Setup):
            return self._setup(parsed)
        if not players:
            raise ObservationError(f"{observation_type(parsed)!r} observation before any setup")
        self.state.t = parsed.t
        out = []
        judge(self.state, parsed, out)
        return out

    def _parsed(self, obs: dict[str, Any] | Observation) -> Observation:
        """``obs`` as an observation: a dict parsed (seats bounded by the table), an observation as is."""
        players = self.match.players or None
        if isinstance(obs, dict):
            kind = obs.get("type")
            parser = PARSERS.get(kind) if type(kind) is str else None
            return parse_observation(obs, players) if parser is None else parser(obs, players)
        if type(obs) in _JUDGED_TYPES or type(obs) is Setup:
            return obs
        return parse_observation(obs, players)  # a Mapping, or a clear error

    # -- setup: a new round, or a new match -----------------------------------------------------
    def _setup(self, obs: Setup) -> list[OutputLine]:
        out: list[OutputLine] = []
        match, state = self.match, self.state
        options = find_preset(obs.rules if obs.rules is not None else match.default_rules).with_overrides(obs.options)
        state.t = obs.t
        hand_size = obs.hand_size if obs.hand_size is not None else options.hand_size
        new_match = match.match_over or obs.players != match.players or options.preset != match.options.preset
        if self.in_round and not state.round_over and state.plays:
            info(state, out, f"round {match.round} abandoned without a winner")
        elif self.in_round and state.round_over and not state.scored and not new_match:
            missing = ", ".join(who(s) for s in missing_reveals(state))
            info(state, out, f"round {match.round} not scored: hands of {missing} not shown")
        match.use(options)
        if new_match:
            match.scores = [0] * obs.players
            match.eliminated = set()
            match.match_over = False
            match.match_winner = None
            match.round = 0
        match.players = obs.players
        match.dealer = obs.dealer
        match.round += 1
        state = self.state = RoundState.deal(match, obs.players, obs.dealer, hand_size)
        for seat in match.eliminated:
            state.counts[seat] = 0
        state.turn = state.next_seat(obs.dealer)
        return out


# -- the fast path: well-formed dicts -------------------------------------------------------------
# Each reads its fields with the parser's cheap check (referee.rules.observations) and returns False
# for anything else: the general path then parses, judges, or raises the parser's clear error.
# tests/rules/test_fast_path.py holds the two paths to the same lines and errors.


def _fast_play(state: RoundState, obs: dict[str, Any], players: int, out: list[OutputLine]) -> bool:
    fields = play_fields(obs, players)
    if fields is None:
        return False
    card, seat, named, target, state.t = fields
    judge_play(state, card, seat, named, target, out)
    return True


def _fast_draw(state: RoundState, obs: dict[str, Any], players: int, out: list[OutputLine]) -> bool:
    fields = draw_fields(obs, players)
    if fields is None:
        return False
    seat, count, state.t = fields
    judge_draw(state, seat, count, out)
    return True


def _fast_pass(state: RoundState, obs: dict[str, Any], players: int, out: list[OutputLine]) -> bool:
    fields = seat_fields(obs, players)
    if fields is None:
        return False
    seat, state.t = fields
    judge_pass(state, seat, out)
    return True


def _fast_uno(state: RoundState, obs: dict[str, Any], players: int, out: list[OutputLine]) -> bool:
    fields = seat_fields(obs, players)
    if fields is None:
        return False
    seat, state.t = fields
    judge_uno(state, seat, out)
    return True


#: observation type -> its fast path for well-formed dicts (see Referee.observe)
_FAST_PATHS: dict[str, Callable[[RoundState, dict[str, Any], int, list[OutputLine]], bool]] = {
    "play": _fast_play,
    "draw": _fast_draw,
    "pass": _fast_pass,
    "uno": _fast_uno,
}

#: The observations judged in a round: every type but ``setup`` (the Referee's own).
Judged = Start | Play | ColorNamed | Draw | Pass | Uno | Challenge | Reveal
_JUDGED_TYPES = frozenset({Start, Play, ColorNamed, Draw, Pass, Uno, Challenge, Reveal})


def judge(state: RoundState, obs: Judged, out: list[OutputLine]) -> None:
    """Judge ``obs`` on ``state``, adding the lines it causes to ``out``: one judging function per
    observation type, as the dict fast path calls them (the types in the order the simulated games
    see them most; ``type(obs) is``, not ``match``: that is twice as slow)."""
    if type(obs) is Play:
        judge_play(state, obs.card, obs.seat, obs.color, obs.target, out)
    elif type(obs) is Draw:
        judge_draw(state, obs.seat, obs.count, out)
    elif type(obs) is Pass:
        judge_pass(state, obs.seat, out)
    elif type(obs) is Uno:
        judge_uno(state, obs.seat, out)
    elif type(obs) is Reveal:
        judge_reveal(state, obs.seat, obs.cards, out)
    elif type(obs) is Start:
        judge_start(state, obs.card, out)
    elif type(obs) is ColorNamed:
        judge_color(state, obs.color, out)
    elif type(obs) is Challenge:
        judge_challenge(state, obs.seat, out)
    else:
        raise TypeError(f"not an observation judged in a round: {obs!r}")
