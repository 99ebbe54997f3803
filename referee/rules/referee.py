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
observations (:mod:`referee.rules.observations`); those are trusted (seats are not range-checked).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Any

from referee.cards import Card, Colour, DeckSpec
from referee.contract import MAX_DRAW_COUNT, Line
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
    intern_card,
    known_card,
    known_colour,
    parse_observation,
)
from referee.rules.presets import RuleOptions, find_preset
from referee.rules.quotes import citation
from referee.words import card_words, player_words

__all__ = ["Referee"]

log = logging.getLogger(__name__)

#: cards a draw card makes the next player take (Card.draw_penalty without building a dict per call)
_DRAW_PENALTY = {"draw2": 2, "wild_draw4": 4}
_WILD_VALUES = frozenset(("wild", "wild_draw4", "blank"))
_WILD_DRAW4 = Card(None, "wild_draw4")
#: a time ``t`` must lie strictly between these (NaN fails both comparisons): see ``_time`` of observations
_INF = math.inf


def _who(seat: int | None) -> str:
    """A seat in a message, as people count: "Player 1" is seat 0."""
    return player_words(seat)


def _say(card: Card) -> str:
    """A card in a message, in words: "Red 7", "Wild Draw Four"."""
    return card_words(card.label)


class _Wd4:
    """The last Wild Draw Four played: enough to settle a challenge. ``check`` is the colour its player
    must not have held (``None``: not judged): the colour before it, or before its stack's first +4."""

    __slots__ = ("challenged", "check", "named", "player", "prev_colour", "prev_top", "victim")

    def __init__(self, player: int, victim: int, prev_colour: Colour | None, prev_top: Card | None) -> None:
        self.player = player
        self.victim = victim
        self.prev_colour = prev_colour
        self.prev_top = prev_top
        self.check = prev_colour
        self.challenged = False


class Referee:
    """Judges a UNO match from contract-2 observations (see the module docstring).

    >>> ref = Referee()
    >>> ref.observe({"type": "setup", "players": 3, "dealer": 0})
    []
    >>> ref.observe({"type": "start", "card": "red_5"})
    []
    >>> [line["code"] for line in ref.observe({"type": "play", "card": "blue_7", "seat": 1})]
    ['illegal_card']
    """

    def __init__(self, rules: str | None = None) -> None:
        self.default_rules = find_preset(rules).preset
        self.options: RuleOptions = find_preset(rules)
        self.deck: DeckSpec = self.options.deck_spec
        self.players = 0
        self.dealer = 0
        self.round = 0
        self.scores: list[int] = []
        self.eliminated: set[int] = set()
        self.match_over = False
        self.match_winner: int | None = None
        self.draws_seen = False
        self.counts_known = False
        self._update_counts_known()
        self._t: float | None = None
        self._reset_round(0, 0, 7)

    # -- state ----------------------------------------------------------------------------------
    def _reset_round(self, players: int, dealer: int, hand_size: int) -> None:
        self.turn = (dealer + 1) % players if players else 0
        self.direction = 1
        self.colour: Colour | None = None
        self.top: Card | None = None
        self.counts: list[int | None] = [hand_size] * players
        self.pending_draw = 0
        self.draw_victim: int | None = None
        self.skipped_seat: int | None = None
        self.round_over = False
        self.round_winner: int | None = None
        self.started = False
        self.plays = 0
        self.last_player: int | None = None
        self.uno_called = [False] * players
        self.uno_watch: int | None = None
        #: seat -> colours it held when it played a Wild Draw Four on them (unproven bluffs)
        self.wd4_watch: dict[int, set[Colour]] = {}
        self.last_wd4: _Wd4 | None = None
        self.challenge_pending = False
        #: copies of each card not yet seen on the pile since the deal or the last reshuffle
        self.unseen: dict[Card, int] = dict(_interned_copies(self.deck))
        self.pile_size = 0
        self.stock = self.deck.size - players * hand_size
        self._copies = _interned_copies(self.deck)
        self._pile_limit = self.deck.size - max(players - len(self.eliminated) - 1, 0)
        self.reveals: dict[int, tuple[Card, ...]] = {}
        self.scored = False
        #: the top card could not exist (impossible_card): the next play is not judged against it
        self.top_doubtful = False

    @property
    def in_round(self) -> bool:
        return self.players > 0

    def _update_counts_known(self) -> None:
        reported = self.options.draws_reported
        #: hand counts are trusted: draws are reported (by option, or seen in this match)
        self.counts_known = self.draws_seen if reported is None else reported

    @property
    def expected_seat(self) -> int | None:
        """The seat that should act now (``None`` before setup or after the round ended)."""
        if not self.in_round or self.round_over:
            return None
        return self.turn

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places on in the direction of play, skipping eliminated seats."""
        n = self.players
        if not self.eliminated or len(self.eliminated) >= n:
            return (seat + self.direction * steps) % n
        for _ in range(steps):
            seat = (seat + self.direction) % n
            while seat in self.eliminated:
                seat = (seat + self.direction) % n
        return seat

    @property
    def active_players(self) -> int:
        return self.players - len(self.eliminated)

    def partner(self, seat: int) -> int | None:
        if not self.options.teams or self.players % 2:
            return None
        return (seat + self.players // 2) % self.players

    def snapshot(self) -> dict[str, Any]:
        """JSON-able live state (see the agreed API)."""
        known = self.counts_known
        return {
            "preset": self.options.preset,
            "players": self.players,
            "dealer": self.dealer,
            "round": self.round,
            "turn": self.expected_seat,
            "direction": self.direction,
            "colour": self.colour.value if self.colour is not None else None,
            "top_card": self.top.label if self.top is not None else None,
            "hand_counts": list(self.counts) if known else [None] * self.players,
            "pending_draw": self.pending_draw,
            "pending_skip": self.pending_draw > 0 and self.draw_victim == self.turn,
            "scores": list(self.scores),
            "target": self.options.target,
            "round_over": self.round_over,
            "match_over": self.match_over,
            "winner": self.round_winner,
            "match_winner": self.match_winner,
            "eliminated": sorted(self.eliminated),
            "options": self.options.as_dict(),
        }

    # -- queries --------------------------------------------------------------------------------
    def legal_now(self, card_label: str) -> bool:
        """Would the expected seat's playing this card be legal right now? Not for a card of which
        every copy the deck holds is already on the pile (it would be ``impossible_card``)."""
        if not self.in_round or self.round_over:
            return False
        try:
            card = card_from_label(card_label)
        except ObservationError:
            return False
        if not self._in_deck_now(card):
            return False
        if self.pending_draw and self.draw_victim == self.turn:
            return self._stacks(card) or self._deflects(card)
        return self._matches(card)

    def possible_now(self, card_label: str) -> bool:
        """Could this card land on the pile now: the deck holds a copy not yet seen on the pile (or
        the pile is big enough to prove a reshuffle)? A card that could not is ``impossible_card``:
        a foreign card, or a misread."""
        try:
            card = card_from_label(card_label)
        except ObservationError:
            return False
        return self._in_deck_now(card)

    def _in_deck_now(self, card: Card) -> bool:
        if card.is_back:
            return False
        if self.unseen.get(intern_card(card), 0) > 0:
            return True
        # Draws not reported: a pile this big proves a reshuffle, which puts its cards back (:meth:`_see`).
        return not self.counts_known and self.pile_size + 1 > self._pile_limit and self._copies.get(card, 0) > 0

    def _matches(self, card: Card) -> bool:
        top = self.top
        colour = card.colour
        if colour is None or top is None or self.colour is None or self.top_doubtful:
            return True  # a black card, an empty pile, an unnamed colour or a card that cannot be
        if colour == self.colour:
            return True
        if card.value == top.value:
            return True
        return top.colour is not None and card.matches_face(top)

    def _stacks(self, card: Card) -> bool:
        top = self.top
        if top is None:
            return False
        opts = self.options
        if card.value == "draw2":
            if top.value == "draw2":
                return opts.stack_draw2
            if top.value == "wild_draw4":
                return opts.stack_mixed and (self.colour is None or card.colour == self.colour)
        elif card.value == "wild_draw4":
            if top.value == "wild_draw4":
                return opts.stack_draw4
            if top.value == "draw2":
                return opts.stack_mixed
        return False

    def _deflects(self, card: Card) -> bool:
        return (
            self.options.reverse_deflects_draw
            and card.value == "reverse"
            and (self.colour is None or card.colour == self.colour)
        )

    # -- entry point ----------------------------------------------------------------------------
    def observe(self, obs: dict[str, Any] | Observation) -> list[Line]:
        """Judge one observation; returns the contract-3 lines it causes.

        Raises :class:`ObservationError` on bad input, leaving the state unchanged.
        """
        if type(obs) is dict and self.players:
            # Fast path: parsing and building the observation took about half of the time spent
            # here, so a well-formed play, draw, pass or uno dict is judged straight from its fields.
            # Anything else (a new label, an odd value, an error to report) takes the general path.
            kind = obs.get("type")
            fast = _FAST_PATHS.get(kind) if type(kind) is str else None
            if fast is not None:
                out: list[Line] = []
                if fast(self, obs, out):
                    return out
        if isinstance(obs, dict):
            kind = obs.get("type")
            parser = PARSERS.get(kind) if type(kind) is str else None
            parsed = (
                parse_observation(obs, self.players or None) if parser is None else parser(obs, self.players or None)
            )
        elif type(obs) in _HANDLERS or type(obs) is Setup:
            parsed = obs
        else:
            parsed = parse_observation(obs, self.players or None)  # a Mapping, or a clear error
        if type(parsed) is Setup:
            return self._setup(parsed)
        if not self.players:
            kind = obs.get("type") if isinstance(obs, dict) else type(obs).__name__
            raise ObservationError(f"{kind!r} observation before any setup")
        self._t = parsed.t
        out = []
        _HANDLERS[type(parsed)](self, parsed, out)
        return out

    # -- the fast path: well-formed dicts ---------------------------------------------------------
    # Each accepts exactly the dicts its parser (referee.rules.observations) would turn into the same
    # values, checks them all before touching the state, and returns False for anything else (the
    # general path then parses, judges, or raises the parser's clear error).
    # tests/rules/test_fast_path.py holds the two paths to the same lines and errors.

    def _fast_play(self, obs: dict[str, Any], out: list[Line]) -> bool:
        label = obs.get("card")
        card = known_card(label) if type(label) is str else None
        colour = obs.get("color")
        named = known_colour(colour) if type(colour) is str else None
        seat = obs.get("seat")
        target = obs.get("target")
        t = obs.get("t")
        players = self.players
        if (
            card is None
            or (named is None and colour is not None)
            or not (seat is None or (type(seat) is int and 0 <= seat < players))
            or not (target is None or (type(target) is int and 0 <= target < players))
            or not (t is None or (type(t) is float and -_INF < t < _INF))
        ):
            return False
        self._t = t
        self._play(card, seat, named, target, out)
        return True

    def _fast_draw(self, obs: dict[str, Any], out: list[Line]) -> bool:
        count = obs.get("count", 1)
        seat = obs.get("seat")
        t = obs.get("t")
        if (
            not (type(count) is int and 1 <= count <= MAX_DRAW_COUNT)
            or not (seat is None or (type(seat) is int and 0 <= seat < self.players))
            or not (t is None or (type(t) is float and -_INF < t < _INF))
        ):
            return False
        self._t = t
        self._draw(seat, count, out)
        return True

    def _fast_seat_only(
        self, obs: dict[str, Any], out: list[Line], action: Callable[[Referee, int | None, list[Line]], None]
    ) -> bool:
        """Fast path of an observation that carries nothing but a seat (``pass``, ``uno``)."""
        seat = obs.get("seat")
        t = obs.get("t")
        if not (seat is None or (type(seat) is int and 0 <= seat < self.players)) or not (
            t is None or (type(t) is float and -_INF < t < _INF)
        ):
            return False
        self._t = t
        action(self, seat, out)
        return True

    def _fast_pass(self, obs: dict[str, Any], out: list[Line]) -> bool:
        return self._fast_seat_only(obs, out, Referee._pass)

    def _fast_uno(self, obs: dict[str, Any], out: list[Line]) -> bool:
        return self._fast_seat_only(obs, out, Referee._uno)

    # -- output helpers -------------------------------------------------------------------------
    def _alert(
        self, out: list[Line], code: str, seat: int, penalty: int, message: str, card: Card | None = None
    ) -> None:
        line: Line = {
            "type": "alert",
            "code": code,
            "seat": seat,
            "penalty_cards": penalty,
            "message": message,
        }
        if card is not None:
            line["card"] = card.label
        line["rule"] = citation(self.options.sheet, code)
        if self._t is not None:
            line["t"] = self._t
        out.append(line)

    def _info(self, out: list[Line], message: str, **extra: Any) -> None:
        line: Line = {"type": "info", "message": message, **extra}
        if self._t is not None:
            line["t"] = self._t
        out.append(line)

    def _describe_top(self) -> str:
        if self.top is None:
            return "an empty pile"
        colour = self.colour.value if self.colour is not None else "unnamed"
        return f"{_say(self.top)} (colour {colour})"

    # -- setup and start ------------------------------------------------------------------------
    def _setup(self, obs: Setup) -> list[Line]:
        out: list[Line] = []
        preset = find_preset(obs.rules if obs.rules is not None else self.default_rules)
        options = preset.with_overrides(obs.options)
        self._t = obs.t
        hand_size = obs.hand_size if obs.hand_size is not None else options.hand_size
        new_match = self.match_over or obs.players != self.players or options.preset != self.options.preset
        if self.in_round and not self.round_over and self.plays:
            self._info(out, f"round {self.round} abandoned without a winner")
        elif self.in_round and self.round_over and not self.scored and not new_match:
            missing = self._missing_reveals()
            self._info(out, f"round {self.round} not scored: hands of {', '.join(_who(s) for s in missing)} not shown")
        self.options = options
        self.deck = options.deck_spec
        self._update_counts_known()
        if new_match:
            self.scores = [0] * obs.players
            self.eliminated = set()
            self.match_over = False
            self.match_winner = None
            self.round = 0
        self.players = obs.players
        self.dealer = obs.dealer
        self.round += 1
        self._reset_round(obs.players, obs.dealer, hand_size)
        for seat in self.eliminated:
            self.counts[seat] = 0
        self.turn = self.next_seat(obs.dealer)
        return out

    def _start(self, obs: Start, out: list[Line]) -> None:
        card = obs.card
        if self.plays or self.round_over:
            raise ObservationError(f"start card {card.label!r} after the round's first play")
        if self.started:
            raise ObservationError(f"second start card {card.label!r}: the pile already starts with {self.top}")
        if card.is_back:
            self._info(out, "face-down start card ignored")
            return
        self.stock -= 1
        self._see(card, None, out)
        first = self.next_seat(self.dealer)
        if card.value == "wild_draw4":
            # Every sheet: a Wild Draw Four start card goes back into the stock; another is turned.
            self.stock += 1
            self._unsee(card)
            self._info(out, "wild_draw4 start card goes back into the stock; turn another")
            return
        self.started = True
        self.top = card
        self.colour = card.colour
        self.turn = first
        value = card.value
        if value == "skip":
            self.skipped_seat = first
            self.turn = self.next_seat(first)
        elif value == "reverse":
            if self.active_players == 2 and self.options.two_player_reverse_skip:
                self.skipped_seat = first
                self.turn = self.next_seat(first)
            else:
                self.direction = -1
                if self.options.reverse_start == "dealer":
                    self.turn = self.dealer
                else:
                    self.turn = self.next_seat(self.dealer)
        elif value == "draw2":
            self.pending_draw = 2
            self.draw_victim = first
        # A wild or blank start card: the first player names the colour (colour stays None).

    # -- cards seen on the pile -----------------------------------------------------------------
    def _see(self, card: Card, seat: int | None, out: list[Line]) -> bool:
        """Count ``card`` on the pile; False (and an impossible_card alert) if it cannot exist."""
        # A wild's named colour travels beside the card, so the card itself is the key.
        if not self.counts_known and self.pile_size + 1 > self._pile_limit:
            # Draws are not reported, so reshuffles are invisible: a pile this big proves one.
            self._reshuffle()
        unseen = self.unseen
        left = unseen.get(card, 0) - 1
        unseen[card] = left
        self.pile_size += 1
        if left < 0:
            copies = self._copies.get(card, 0)
            seen = copies - left
            who = seat if seat is not None else self.dealer  # a start card: the dealer turned it
            if copies == 0:
                why = f"{_say(card)} is not in the {self.deck.name} deck"
            else:
                why = f"{_say(card)} seen {seen} times but the {self.deck.name} deck holds {copies}"
            self._alert(out, "impossible_card", who, 0, f"{why} (a misread or a foreign card)", card)
            return False
        return True

    def _unsee(self, card: Card) -> None:
        self.unseen[card] = self.unseen.get(card, 0) + 1
        self.pile_size = max(self.pile_size - 1, 0)

    def _reshuffle(self) -> None:
        """The pile but its top card becomes the stock: those cards may be seen again."""
        self.stock += max(self.pile_size - 1, 0)
        self.unseen = dict(self._copies)
        self.pile_size = 0
        if self.top is not None:
            self.unseen[self.top] = self.unseen.get(self.top, 0) - 1
            self.pile_size = 1

    # -- the UNO window -------------------------------------------------------------------------
    def _close_uno_window(self, actor: int, out: list[Line]) -> None:
        watched = self.uno_watch
        if watched is None or watched == actor:
            return
        self.uno_watch = None
        if self.counts_known and self.counts[watched] == 1 and not self.uno_called[watched]:
            penalty = self.options.uno_penalty
            self._alert(
                out,
                "missed_uno",
                watched,
                penalty,
                f"{_who(watched)} has one card left and did not call UNO before {_who(actor)} acted",
            )

    def _hand_changed(self, seat: int, delta: int) -> None:
        count = self.counts[seat]
        if count is not None:
            self.counts[seat] = max(count + delta, 0)

    # -- play -----------------------------------------------------------------------------------
    def _play(self, card: Card, seat: int | None, named: Colour | None, target: int | None, out: list[Line]) -> None:
        value = card.value
        if self.round_over:
            self._info(out, f"play of {_say(card)} after the round ended ignored")
            return
        if value == "back":
            self._info(out, "face-down card on the pile ignored")
            return
        if named is not None and named not in self.deck.colours:
            raise ObservationError(f"color {named.value!r} is not in the {self.deck.name} deck")
        if seat is None:
            seat = self.turn
        if self.eliminated and seat in self.eliminated:
            self._info(out, f"{_who(seat)} is out of the match; play of {_say(card)} ignored")
            return
        if self.uno_watch is not None:
            self._close_uno_window(seat, out)
        unseen = self.unseen
        room = unseen.get(card, 0)
        if room > 0 and (self.counts_known or self.pile_size < self._pile_limit):
            unseen[card] = room - 1  # the common case of _see, inline
            self.pile_size += 1
            possible = True
        else:
            possible = self._see(card, seat, out)
        opts = self.options
        stacked = deflected = False

        # A pending +2/+4 whose victim let play go on: the draw was missed.
        victim = self.draw_victim
        if (
            self.pending_draw
            and victim is not None
            and seat != victim
            and (seat == self.turn or seat == self.next_seat(victim))
        ):
            self._missed_draw(out)

        judged = possible
        if self.pending_draw and seat == self.draw_victim:
            if self._stacks(card):
                stacked = True
                judged = False
            elif self._deflects(card):
                deflected = True
                judged = False
            else:
                owed = self.pending_draw
                self._alert(
                    out,
                    "skipped_turn_played",
                    seat,
                    opts.misplay_penalty + owed,
                    f"{_who(seat)} played {_say(card)} instead of drawing {owed} for {self._describe_top()}",
                    card,
                )
                self._clear_pending()
                judged = False
        elif seat != self.turn:
            judged = False
            if self._is_jump_in(card):
                # Checked first: an identical card lets even a skipped player escape (004).
                self._info(out, f"{_who(seat)} jumps in with {_say(card)}", seat=seat)
            elif seat == self.skipped_seat:
                self._alert(
                    out,
                    "skipped_turn_played",
                    seat,
                    opts.misplay_penalty,
                    f"{_who(seat)} had to skip but played {_say(card)}",
                    card,
                )
            else:
                expected = self.turn
                self._alert(
                    out,
                    "out_of_turn",
                    seat,
                    opts.misplay_penalty,
                    f"{_who(seat)} played {_say(card)} but it was {_who(expected)}'s turn",
                    card,
                )
            if self.pending_draw:
                # Play order is already broken: the victim still owes the cards, silently.
                self._clear_pending()
        colour = card.colour
        if judged and colour is not None and colour != self.colour and not self._matches(card):
            self._alert(
                out,
                "illegal_card",
                seat,
                opts.misplay_penalty,
                f"{_who(seat)} played {_say(card)} on {self._describe_top()}",
                card,
            )
        if self.colour is None and card.colour is not None and self.top is not None and self.top.value in _WILD_VALUES:
            self._info(
                out,
                f"colour of {_say(self.top)} not named: inferred {card.colour.value} from {_who(seat)}'s {_say(card)}",
                inferred_colour=card.colour.value,
            )

        # A Wild Draw Four proven illegal by a later play of the colour it should have followed.
        # An impossible card is not the card we think: it proves nothing.
        watched = self.wd4_watch.get(seat) if self.wd4_watch else None
        if watched is not None and card.colour in watched and possible:
            del self.wd4_watch[seat]
            self._alert(
                out,
                "illegal_wild_draw_four",
                seat,
                opts.challenge_guilty_penalty,
                f"{_who(seat)} played {_say(card)}: they held {card.colour.value} when they played "
                "a Wild Draw Four on that colour",
                _WILD_DRAW4,
            )

        # Apply the card.
        prev_top, prev_colour = self.top, self.colour
        self.plays += 1
        self.started = True
        self.last_player = seat
        self.skipped_seat = None
        left = self.counts[seat]
        if left:
            left -= 1
            self.counts[seat] = left
        self.top = card
        self.colour = named if value in _WILD_VALUES else card.colour
        self.top_doubtful = not possible
        if value == "wild_draw4":
            victim = self.next_seat(seat)
            answered = self.last_wd4
            self.last_wd4 = _Wd4(seat, victim, prev_colour, prev_top)
            if not stacked and prev_colour is not None and self.counts_known:
                self.wd4_watch.setdefault(seat, set()).add(prev_colour)
            if stacked:
                # On a +4: judged as the stack's first +4 is (its colour before). On a +2: not judged.
                on_four = prev_top is not None and prev_top.value == "wild_draw4" and answered is not None
                self.last_wd4.check = answered.check if on_four and answered is not None else None
        if left == 0 and self.counts_known:
            self._end_round(seat, out)

        # Effects.
        if deflected:
            self.direction = -self.direction
            self.draw_victim = self.next_seat(seat)
            self.turn = self.draw_victim
        elif value in _DRAW_PENALTY:
            self.pending_draw += _DRAW_PENALTY[value]
            self.draw_victim = self.next_seat(seat)
            self.turn = self.draw_victim
        elif value == "skip" or (value == "reverse" and self.active_players == 2 and opts.two_player_reverse_skip):
            if value == "reverse":
                self.direction = -self.direction
            self.skipped_seat = self.next_seat(seat)
            self.turn = self.next_seat(seat, 2)
        elif value == "reverse":
            self.direction = -self.direction
            self.turn = self.next_seat(seat)
        else:
            self.turn = self.next_seat(seat)
        if opts.seven_zero and not self.round_over and value in ("0", "7"):
            self._seven_zero(seat, value, target, out)
            left = self.counts[seat]
        if left is not None and left >= 2:
            self.uno_called[seat] = False
        elif left == 1 and self.counts_known and not self.round_over:
            self.uno_watch = seat

    def _is_jump_in(self, card: Card) -> bool:
        top = self.top
        return (
            self.options.jump_in
            and top is not None
            and self.plays > 0
            and not self.pending_draw
            and card.value != "wild_draw4"
            and card.value == top.value
            and (card.is_wild or card.colour == top.colour)
        )

    def _clear_pending(self) -> None:
        self.pending_draw = 0
        self.draw_victim = None

    def _missed_draw(self, out: list[Line]) -> None:
        victim = self.draw_victim
        assert victim is not None
        owed = self.pending_draw
        if self.counts_known:
            self._alert(
                out,
                "missed_draw_penalty",
                victim,
                owed,
                f"{_who(victim)} did not draw the {owed} cards of {self._describe_top()} before play went on",
                self.top,
            )
        else:
            self._hand_changed(victim, owed)
        self._clear_pending()
        self.skipped_seat = victim
        self.turn = self.next_seat(victim)

    def _seven_zero(self, seat: int, value: str, target: int | None, out: list[Line]) -> None:
        self.uno_watch = None
        if value == "0":
            self.wd4_watch.clear()
            seats = [s for s in range(self.players) if s not in self.eliminated]
            old = {s: self.counts[s] for s in seats}
            called = {s: self.uno_called[s] for s in seats}
            for s in seats:
                receiver = self.next_seat(s)
                self.counts[receiver] = old[s]
                self.uno_called[receiver] = called[s]
            self._info(out, "zero played: every hand passes on in the direction of play")
            return
        if target is None or target == seat or target in self.eliminated:
            self.wd4_watch.clear()
            self.counts = [None] * self.players
            self._info(out, f"{_who(seat)} swaps hands with an unnamed seat: hand counts unknown")
            return
        a, b = self.counts[seat], self.counts[target]
        self.counts[seat], self.counts[target] = b, a
        self.wd4_watch.pop(seat, None)
        self.wd4_watch.pop(target, None)
        self.uno_called[seat], self.uno_called[target] = (
            self.uno_called[target],
            self.uno_called[seat],
        )
        self._info(out, f"{_who(seat)} swaps hands with {_who(target)}")

    # -- other observations ---------------------------------------------------------------------
    def _draw(self, seat: int | None, count: int, out: list[Line]) -> None:
        if seat is None:
            seat = self.draw_victim if self.pending_draw and self.draw_victim is not None else self.turn
        if not self.draws_seen:
            self.draws_seen = True
            self._update_counts_known()
            last = self.last_player
            if not self.round_over and self.counts_known and last is not None and self.counts[last] == 0:
                # The hand emptied before any draw was seen (counts not yet trusted); this is the
                # final +2/+4 (or a later draw): the round ended with that play.
                self._end_round(last, out)
        if not self.round_over:
            in_turn = seat == self.turn or seat == self.draw_victim
            if in_turn and self.uno_watch is not None:
                self._close_uno_window(seat, out)
            if self.pending_draw and self.draw_victim is not None and seat != self.draw_victim and seat == self.turn:
                self._missed_draw(out)
        self._hand_changed(seat, count)
        self.uno_called[seat] = False
        if self.wd4_watch:
            self.wd4_watch.pop(seat, None)
        self.stock -= count
        if self.stock < 0:
            # The stock ran out during this draw: the pile (but its top) was shuffled into it.
            self._reshuffle()
            self.stock = max(self.stock, 0)
        if self.pending_draw and seat == self.draw_victim:
            self.pending_draw -= count
            if self.pending_draw <= 0:
                self._clear_pending()
                if self.turn == seat and not self.round_over:
                    self.skipped_seat = seat
                    self.turn = self.next_seat(seat)

    def _pass(self, seat: int | None, out: list[Line]) -> None:
        if seat is None:
            seat = self.turn
        if self.round_over or seat != self.turn:
            return
        if self.uno_watch is not None:
            self._close_uno_window(seat, out)
        self.turn = self.next_seat(seat)
        self.skipped_seat = None

    def _colour_named(self, obs: ColorNamed, out: list[Line]) -> None:
        colour = obs.color
        if colour not in self.deck.colours:
            raise ObservationError(f"color {colour.value!r} is not in the {self.deck.name} deck")
        top = self.top
        if top is None or not top.is_wild:
            self._info(out, f"colour {colour.value} named but the top card is not a wild: ignored")
            return
        if self.colour is not None and self.colour != colour:
            self._info(out, f"colour for {top.label} changed from {self.colour.value} to {colour.value}")
        self.colour = colour

    def _uno(self, seat: int | None, out: list[Line]) -> None:
        if seat is None:
            seat = self.last_player
        if seat is None:
            return
        count = self.counts[seat]
        if self.counts_known and count is not None and count > 2:
            self._info(out, f"{_who(seat)} called UNO holding {count} cards: ignored")
            return
        self.uno_called[seat] = True
        if self.uno_watch == seat:
            self.uno_watch = None

    def _challenge(self, obs: Challenge, out: list[Line]) -> None:
        wd4 = self.last_wd4
        seat = obs.seat if obs.seat is not None else (wd4.victim if wd4 else None)
        if (
            wd4 is None
            or wd4.challenged
            or self.top is None
            or self.top.value != "wild_draw4"
            or seat != wd4.victim
            or self.draw_victim != seat  # too late: the victim has already taken the cards
            or self.round_over
        ):
            self._info(out, f"challenge by {_who(seat)} ignored: no Wild Draw Four to challenge")
            return
        wd4.challenged = True
        self.challenge_pending = True
        self.wd4_watch.pop(wd4.player, None)
        self._info(out, f"{_who(seat)} challenges {_who(wd4.player)}'s Wild Draw Four: show the hand")

    def _reveal(self, obs: Reveal, out: list[Line]) -> None:
        wd4 = self.last_wd4
        seat = obs.seat
        if self.challenge_pending and wd4 is not None and (seat is None or seat == wd4.player):
            self._settle_challenge(wd4, obs.cards, out)
            return
        if seat is None:
            raise ObservationError("reveal needs a 'seat' outside a challenge")
        if not self.round_over:
            if not obs.cards:
                self.counts[seat] = 0
                self._end_round(seat, out)
            elif not self.counts_known and self.last_player is not None:
                self._end_round(self.last_player, out)
            else:
                self._info(out, f"{_who(seat)} showed their hand before the round ended: ignored")
                return
        if seat == self.round_winner:
            return
        if self.pending_draw and seat == self.draw_victim:
            self._info(out, f"{_who(seat)} shows their hand but still owes {self.pending_draw} cards")
        known = self.counts[seat]
        if self.counts_known and known is not None and known != len(obs.cards):
            self._info(
                out,
                f"{_who(seat)} shows {len(obs.cards)} cards but the referee counted {known}",
            )
        self.counts[seat] = len(obs.cards)
        self.reveals[seat] = obs.cards
        if not self.scored and not self._missing_reveals():
            self._score(out)

    def _settle_challenge(self, wd4: _Wd4, cards: tuple[Card, ...], out: list[Line]) -> None:
        self.challenge_pending = False
        opts = self.options
        player, victim = wd4.player, wd4.victim
        self.counts[player] = len(cards)
        check = wd4.check
        if check is None:
            self._info(out, "challenge cannot be settled: the colour before the +4 is unknown")
            return
        owed = self.pending_draw if self.draw_victim == victim and self.pending_draw else 4
        guilty = any(card.colour == check for card in cards)
        if guilty:
            # A stacked +4 caught: the normal penalty, grown by the cards stacked before it.
            self._alert(
                out,
                "illegal_wild_draw_four",
                player,
                opts.challenge_guilty_penalty + max(owed - 4, 0),
                f"{_who(player)}'s hand holds {check.value}: its Wild Draw Four was illegal",
                _WILD_DRAW4,
            )
            if self.draw_victim == victim:
                self._clear_pending()
            self.skipped_seat = None
            if opts.challenge_takeback:
                self._hand_changed(player, 1)
                if self.top is not None:
                    self._unsee(self.top)
                self.top, self.colour = wd4.prev_top, wd4.prev_colour
                self.top_doubtful = False
                self.uno_watch = None
            self.turn = player if opts.challenge_guilty_replays else victim
        else:
            penalty = owed + opts.challenge_failed_penalty
            self._alert(
                out,
                "failed_challenge",
                victim,
                penalty,
                f"{_who(player)} held no {check.value}: the challenge failed",
                _WILD_DRAW4,
            )
            self.pending_draw = penalty
            self.draw_victim = victim
            self.turn = victim

    # -- round end and scoring ------------------------------------------------------------------
    def _end_round(self, winner: int, out: list[Line]) -> None:
        self.round_over = True
        self.round_winner = winner
        self.uno_watch = None
        self.wd4_watch.clear()
        line: Line = {"type": "round_end", "winner": winner, "points": None, "round": self.round}
        mate = self.partner(winner)
        if mate is not None:
            line["team"] = sorted((winner, mate))
        out.append(line)
        if not self._missing_reveals():
            self._score(out)

    def _scoring_seats(self) -> list[int]:
        winner = self.round_winner
        mate = self.partner(winner) if winner is not None else None
        return [s for s in range(self.players) if s != winner and s != mate and s not in self.eliminated]

    def _missing_reveals(self) -> list[int]:
        """The scoring seats whose hands must still be shown before the round is scored.

        A seat known to hold no card need not show it; without reported draws, though, a count of 0
        is only the deal less the cards played (every draw unseen), so such a seat must show its hand
        too: scoring it as empty would give the round 0 points and ignore the reveal that follows.
        """
        known = self.counts_known
        counts = self.counts
        return [s for s in self._scoring_seats() if s not in self.reveals and not (known and counts[s] == 0)]

    def _hand_points(self, cards: tuple[Card, ...]) -> int:
        total = 0
        for card in cards:
            total += self.options.fraction_points if card.is_fraction else card.points()
        return total

    def _score(self, out: list[Line]) -> None:
        self.scored = True
        winner = self.round_winner
        assert winner is not None
        opts = self.options
        own = {s: self._hand_points(self.reveals.get(s, ())) for s in self._scoring_seats()}
        points = sum(own.values())
        mate = self.partner(winner)
        if opts.scoring == "winner_takes":
            self.scores[winner] += points
            if mate is not None:
                self.scores[mate] += points
        else:
            for s, p in own.items():
                self.scores[s] += p
        line: Line = {"type": "round_end", "winner": winner, "points": points, "round": self.round}
        if mate is not None:
            line["team"] = sorted((winner, mate))
        out.append(line)
        out.append({"type": "scores", "scores": list(self.scores), "round": self.round})
        self._check_match_end(out)

    def _check_match_end(self, out: list[Line]) -> None:
        opts = self.options
        target = opts.target
        winner: int | None = None
        if opts.scoring == "winner_takes":
            best = max(self.scores)
            if best >= target:
                winner = self.round_winner if self.round_winner is not None else 0
                if self.scores[winner] < best:
                    winner = self.scores.index(best)
        elif opts.scoring == "own_points":
            if max(self.scores) >= target:
                winner = min(range(self.players), key=lambda s: (self.scores[s], s))
        else:
            for s in range(self.players):
                if s not in self.eliminated and self.scores[s] >= target:
                    self.eliminated.add(s)
                    out.append({"type": "eliminated", "seat": s, "score": self.scores[s]})
            left = [s for s in range(self.players) if s not in self.eliminated]
            if len(left) == 1:
                winner = left[0]
            elif not left:
                winner = min(range(self.players), key=lambda s: (self.scores[s], s))
        if winner is not None:
            self.match_over = True
            self.match_winner = winner
            line: Line = {"type": "match_end", "winner": winner, "scores": list(self.scores)}
            mate = self.partner(winner)
            if mate is not None:
                line["team"] = sorted((winner, mate))
            out.append(line)


_DECK_COPIES: dict[str, dict[Card, int]] = {}


def _interned_copies(deck: DeckSpec) -> dict[Card, int]:
    """``deck.copies`` keyed by interned cards (see :func:`intern_card`), built once per deck."""
    copies = _DECK_COPIES.get(deck.name)
    if copies is None:
        copies = {intern_card(card): n for card, n in deck.copies.items()}
        _DECK_COPIES[deck.name] = copies
    return copies


def _judge_play(referee: Referee, obs: Play, out: list[Line]) -> None:
    referee._play(obs.card, obs.seat, obs.color, obs.target, out)


def _judge_draw(referee: Referee, obs: Draw, out: list[Line]) -> None:
    referee._draw(obs.seat, obs.count, out)


def _judge_pass(referee: Referee, obs: Pass, out: list[Line]) -> None:
    referee._pass(obs.seat, out)


def _judge_uno(referee: Referee, obs: Uno, out: list[Line]) -> None:
    referee._uno(obs.seat, out)


#: observation type -> its fast path for well-formed dicts (see Referee.observe)
_FAST_PATHS: dict[str, Callable[[Referee, dict[str, Any], list[Line]], bool]] = {
    "play": Referee._fast_play,
    "draw": Referee._fast_draw,
    "pass": Referee._fast_pass,
    "uno": Referee._fast_uno,
}

#: parsed observation type -> what judges it (the hot handlers take fields, see Referee.observe)
_HANDLERS: dict[type, Callable[[Referee, Any, list[Line]], None]] = {
    Play: _judge_play,
    Draw: _judge_draw,
    Pass: _judge_pass,
    ColorNamed: Referee._colour_named,
    Uno: _judge_uno,
    Start: Referee._start,
    Challenge: Referee._challenge,
    Reveal: Referee._reveal,
}
