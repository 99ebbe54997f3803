"""Simulated UNO matches: an independent oracle for the referee.

The simulator deals a real deck, knows every hand, plays complete legal matches (several rounds up
to the target) and writes down only what is public at the table, as contract-2 observations. It can
also inject one misplay of a chosen alert kind and says which alerts the referee must raise; or play
one round with several misplays made one after another at set turns (:func:`simulate_scripted_round`,
for filmed games).

It is deliberately a second, separate implementation of the rules: it imports the card model and
nothing of the referee's logic, so a disagreement between the two is a bug in one of them.

Its players are *conservative*: where the rule sheets disagree they choose moves that are legal
under every reading (a Wild Draw Four only when nothing else in the hand could be played, a jump-in
only with an identical coloured number, a seven-zero card never when a one-card hand would change
owner), so a legal simulated game must never raise an alert under any preset.

What the table reports: every play (a wild's colour in the play, in a separate ``color`` line, or,
for legal games on request, never), every draw with its count (penalty draws too), a ``pass`` after
drawing without playing, ``uno`` right after the play that leaves one card, a challenge and the
challenged hand, and at a round's end the final +2/+4 draw and every other hand (``reveal``).
Seats are given (or, on request, ``null`` for in-turn actions).

How each injected misplay is made (then play goes on legally; a misplayed card stays on the pile and
takes effect, play goes on from the seat that played it, and its player draws the penalty):

* ``illegal_card``: the seat in turn plays a plain card matching neither colour nor face.
* ``out_of_turn``: another seat (not one that was just skipped) plays a plain card, not identical
  to the top card (that could be a legal jump-in).
* ``skipped_turn_played``: the seat skipped by a skip (or a 2-player reverse, or a +2/+4 it has
  drawn) plays; or the victim of a pending +2/+4 plays a card instead of drawing (it still owes
  them).
* ``missed_draw_penalty``: the victim of a +2/+4 draws nothing and the next seat plays; the cards
  are drawn late.
* ``missed_uno``: a seat plays its second-last card without calling and the next seat acts.
* ``illegal_wild_draw_four``: a seat holding the current colour plays a +4; the victim challenges
  and the hand is shown (``how="challenge"``), or nobody challenges and the bluffer later plays that
  colour without having drawn or swapped hands (``how="inference"``; if that never happens, the
  match counts as not injected).
* ``failed_challenge``: the victim of an honest +4 challenges.
* ``impossible_card``: a card the preset's deck does not hold (of the current colour, so that it
  would otherwise match) was in a hand instead of a real one and is played; the table removes it at
  the next reshuffle.

Misplays that need hand counts (UNO, missed draws, inference) wait for the first reported draw.

Pure: standard library only; all randomness comes from ``random.Random(seed)``.

>>> game = simulate_game(7, "official", 3)
>>> game.observations[0]["type"], game.expected_alerts
('setup', [])
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from referee.cards import FRACTIONS, Card, Colour, DeckSpec, find_deck
from referee.contract import ALERT_CODES, ObservationDict

__all__ = [
    "ALERT_CODES",
    "SIM_PRESETS",
    "SimRules",
    "SimulatedGame",
    "simulate_game",
    "simulate_games",
    "simulate_scripted_round",
]

#: Presets the simulator can play, with the deck each one uses.
SIM_PRESETS: tuple[str, ...] = ("official", "nl", "de", "lb", "breuken", "house")

#: An observation as the simulator writes it (contract 2 JSON); every code of ``ALERT_CODES`` can be injected.
Observation = ObservationDict


@dataclass(frozen=True)
class SimRules:
    """The facts of a preset the simulator plays by: option values, never the referee's logic."""

    preset: str
    deck: DeckSpec
    hand_size: int = 7
    target: int = 500
    scoring: str = "winner_takes"
    stack_draw2: bool = False
    stack_draw4: bool = False
    #: a +2 of the named colour on a +4, a +4 on a +2
    stack_mixed: bool = False
    #: the victim of a +2/+4 may send it back with a reverse of the current colour
    reverse_deflects_draw: bool = False
    jump_in: bool = False
    seven_zero: bool = False
    two_player_reverse_skip: bool = True
    #: who acts first after a reverse start card: "dealer" or "right_of_dealer"
    reverse_start: str = "dealer"
    uno_penalty: int = 2
    misplay_penalty: int = 2
    challenge_guilty_penalty: int = 4
    challenge_failed_penalty: int = 2
    #: a guilty Wild Draw Four goes back to its player's hand
    challenge_takeback: bool = False
    #: ... who must then play a card again
    challenge_guilty_replays: bool = False
    fraction_points: int = 1
    #: the ``setup.options`` this simulation announces
    options: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def for_preset(cls, preset: str, options: Mapping[str, Any] | None = None) -> SimRules:
        """The simulator's rules for ``preset`` with ``options`` (contract-4 names) applied.

        The option *values* come from the preset table (data the referee's docs cite per sheet), so
        both sides agree on what was chosen; what the options *mean* is implemented here again.
        """
        from referee.rules.presets import find_preset

        opts = dict(options or {})
        facts = find_preset(preset).with_overrides(opts)
        unsupported = [
            name
            for name in ("teams", "draw_until_playable")
            if getattr(facts, name)
        ]
        if facts.scoring == "elimination":
            unsupported.append("scoring=elimination")
        if unsupported:
            raise ValueError(f"simulator does not play {', '.join(unsupported)}")
        return cls(
            preset=facts.preset,
            deck=find_deck(facts.deck),
            hand_size=facts.hand_size,
            target=facts.target,
            scoring=facts.scoring,
            stack_draw2=facts.stack_draw2,
            stack_draw4=facts.stack_draw4,
            stack_mixed=facts.stack_mixed,
            reverse_deflects_draw=facts.reverse_deflects_draw,
            jump_in=facts.jump_in,
            seven_zero=facts.seven_zero,
            two_player_reverse_skip=facts.two_player_reverse_skip,
            reverse_start=facts.reverse_start,
            uno_penalty=facts.uno_penalty,
            misplay_penalty=facts.misplay_penalty,
            challenge_guilty_penalty=facts.challenge_guilty_penalty,
            challenge_failed_penalty=facts.challenge_failed_penalty,
            challenge_takeback=facts.challenge_takeback,
            challenge_guilty_replays=facts.challenge_guilty_replays,
            fraction_points=facts.fraction_points,
            options=opts,
        )

    def points(self, card: Card) -> int:
        """What ``card`` left in a hand scores."""
        return self.fraction_points if card.is_fraction else card.points()


@dataclass
class SimulatedGame:
    """One simulated match: what the table showed and what the referee must say about it."""

    seed: int
    preset: str
    players: int
    inject: str | None
    observations: list[Observation]
    #: ``(code, seat)`` for every alert the referee must raise, in order
    expected_alerts: list[tuple[str, int]]
    #: True when the requested misplay was actually made (a match can end before a chance arises)
    injected: bool
    final_scores: list[int]
    rounds: int
    winner: int | None
    #: how the misplay was made, e.g. ``"challenge"`` or ``"inference"`` for a bluffed +4
    how: str | None = None


class _NoChance(Exception):
    """The injector found no chance for its misplay in this position."""


class _Table:
    """One match in progress: every hand, the stock, the pile, whose turn it is.

    ``inject`` is made once ``first_after`` turns have been played (``None``: a drawn number, 3..40),
    then each code of ``then`` in turn, at least ``gap`` turns after the misplay before it.
    ``dealer`` fixes the first round's dealer (``None``: drawn).
    """

    def __init__(
        self,
        seed: int,
        rules: SimRules,
        players: int,
        inject: str | None,
        *,
        max_rounds: int,
        separate_colour: float,
        unnamed_colour: float = 0.0,
        anonymous_seats: float = 0.0,
        then: Sequence[str] = (),
        first_after: int | None = None,
        gap: int = 0,
        dealer: int | None = None,
    ) -> None:
        if players < 2 or players > 10:
            raise ValueError(f"players must be 2..10, got {players}")
        if inject is not None and inject not in ALERT_CODES:
            raise ValueError(f"unknown alert code to inject: {inject!r}")
        unknown = [code for code in then if code not in ALERT_CODES]
        if unknown:
            raise ValueError(f"unknown alert codes to inject: {unknown}")
        if dealer is not None and not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat 0..{players - 1}, got {dealer}")
        self.rng = random.Random(seed)
        self.rules = rules
        self.n = players
        self.inject = inject
        self.injected = False
        self.how: str | None = None
        self.misplayed = False
        self.pending_uno: int | None = None
        #: the seat that had to skip, until the next play or pass
        self.last_skipped: int | None = None
        self.draws_reported = False
        # Drawn even when given, so that giving it leaves the rest of the seed's game as it was.
        drawn_after = self.rng.randint(3, 40)
        #: turns before the injector looks for a chance
        self.inject_after = drawn_after if first_after is None else first_after
        #: misplays still to make after ``inject``, and the turns between two of them
        self.queue = list(then)
        self.gap = gap
        self.turns_played = 0
        self.max_rounds = max_rounds
        self.separate_colour = separate_colour
        self.unnamed_colour = unnamed_colour
        self.anonymous_seats = anonymous_seats
        self.obs: list[Observation] = []
        self.expected: list[tuple[str, int]] = []
        self.t = 0.0
        self.scores = [0] * players
        drawn_dealer = self.rng.randrange(players)  # drawn even when given, as above
        self.dealer = drawn_dealer if dealer is None else dealer
        self.rounds = 0
        self.winner: int | None = None
        # round state
        self.hands: list[list[Card]] = []
        self.stock: list[Card] = []
        self.pile: list[Card] = []
        self.colour: Colour | None = None
        self.direction = 1
        self.turn = 0
        self.pending_draw = 0
        self.round_over = False
        # Wild Draw Four bookkeeping for injection by inference: seat -> colour it still held
        self.bluff: dict[int, Colour] = {}
        self.foreign: Card | None = None
        #: penalty draws to report once the current action is over: (seat, cards)
        self.owed: list[tuple[int, int]] = []
        self.last_player = 0
        self.obs_target = -1
        self.foreign_replaced: Card | None = None

    # -- output -------------------------------------------------------------------------------
    def emit(self, kind: str, **fields: Any) -> None:
        self.t = round(self.t + 0.5 + self.rng.random(), 3)
        if (
            self.anonymous_seats
            and kind in ("play", "draw", "pass")
            and fields["seat"] == self.turn
            and self.rng.random() < self.anonymous_seats
        ):
            fields["seat"] = None  # unknown to the camera: the referee assumes the expected seat
        self.obs.append({"type": kind, **fields, "t": self.t})
        if kind in ("play", "pass"):
            self.last_skipped = None
        elif kind == "draw":
            self.draws_reported = True

    def expect(self, code: str, seat: int) -> None:
        self.expected.append((code, seat))
        self.injected = True

    # -- helpers ------------------------------------------------------------------------------
    @property
    def top(self) -> Card:
        return self.pile[-1]

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % self.n

    def wants_inject(self, code: str) -> bool:
        return self.inject == code and not self.misplayed and self.turns_played >= self.inject_after

    def matches(self, card: Card) -> bool:
        """Plain matching against the pile: colour, face, or a black card."""
        if card.is_wild:
            return True
        if card.colour == self.colour:
            return True
        return not self.top.is_wild and card.matches_face(self.top)

    def safe_playable(self, hand: list[Card]) -> list[int]:
        """Indexes of cards in ``hand`` legal under every sheet's reading."""
        ordinary = [i for i, c in enumerate(hand) if c.value != "wild_draw4" and self.matches(c)]
        if self.rules.seven_zero:
            ordinary = [i for i in ordinary if self.hand_passing_is_clear(hand, hand[i])]
        if ordinary:
            return ordinary
        # Wild Draw Four only when nothing else at all could be played (the strictest sheet) and
        # the hand holds no card of the current colour (a seven-zero card held back counts).
        if any(c.colour == self.colour for c in hand):
            return []
        return [i for i, c in enumerate(hand) if c.value == "wild_draw4"]

    def hand_passing_is_clear(self, hand: list[Card], card: Card) -> bool:
        """Seven-zero: play a 7 or 0 only where no hand of one card changes owner (who would have
        to call UNO is then unclear) and never as the last card."""
        if card.value not in ("7", "0"):
            return True
        left = len(hand) - 1
        if left <= 1:
            return False
        if card.value == "7":
            return any(len(h) not in (0, 1) for h in self.hands if h is not hand)
        return all(len(h) != 1 for h in self.hands if h is not hand)

    def draw_cards(self, seat: int, count: int, *, report: bool = True) -> int:
        got = 0
        for _ in range(count):
            if not self.stock:
                self.reshuffle()
            if not self.stock:
                break
            self.hands[seat].append(self.stock.pop())
            got += 1
        self.bluff.pop(seat, None)
        if report and got:
            self.emit("draw", seat=seat, count=got)
        return got

    def reshuffle(self) -> None:
        """The pile but its top card becomes the new stock."""
        if len(self.pile) <= 1:
            return
        rest = self.pile[:-1]
        self.pile = self.pile[-1:]
        recycled = []
        for card in rest:
            if self.foreign is not None and card == self.foreign:
                # the table removed the foreign card once the referee flagged it
                assert self.foreign_replaced is not None
                card = self.foreign_replaced
                self.foreign = None
            recycled.append(Card(None, card.value) if card.is_wild else card)
        self.rng.shuffle(recycled)
        self.stock = recycled + self.stock

    def pick_colour(self, seat: int) -> Colour:
        colours = [c.colour for c in self.hands[seat] if c.colour is not None]
        if colours and self.rng.random() < 0.8:
            return self.rng.choice(colours)
        return self.rng.choice(self.rules.deck.colours)

    # -- the match ----------------------------------------------------------------------------
    def play_match(self) -> None:
        while self.winner is None and self.rounds < self.max_rounds:
            self.play_round()
            self.dealer = (self.dealer + 1) % self.n

    def deal(self) -> None:
        deck = list(self.rules.deck.cards())
        self.rng.shuffle(deck)
        self.stock = deck
        self.hands = [[] for _ in range(self.n)]
        for _ in range(self.rules.hand_size):
            for k in range(1, self.n + 1):
                self.hands[(self.dealer + k) % self.n].append(self.stock.pop())
        self.pile = []
        self.direction = 1
        self.pending_draw = 0
        self.bluff = {}
        self.round_over = False

    def play_round(self) -> None:
        self.rounds += 1
        self.deal()
        self.emit(
            "setup",
            players=self.n,
            dealer=self.dealer,
            rules=self.rules.preset,
            hand_size=self.rules.hand_size,
            options=dict(self.rules.options),
        )
        self.start_pile()
        guard = 0
        while not self.round_over:
            guard += 1
            if guard > 5000:
                raise RuntimeError("simulated round did not end")  # pragma: no cover
            self.take_turn()
        self.finish_round()

    def start_pile(self) -> None:
        first = self.next_seat(self.dealer)
        while True:
            card = self.stock.pop()
            self.emit("start", card=card.label)
            if card.value == "wild_draw4":
                # returned to the stock, shuffled in, and the next card turned
                self.stock.append(card)
                self.rng.shuffle(self.stock)
                continue
            break
        self.pile = [card]
        self.colour = card.colour
        self.turn = first
        if card.is_wild:
            # the first player names the colour, then plays
            colour = self.pick_colour(first)
            self.colour = colour
            self.emit("color", color=colour.value, seat=first)
        elif card.value == "skip":
            self.last_skipped = first
            self.turn = self.next_seat(first)
        elif card.value == "reverse":
            self.direction = -1
            if self.n == 2 and self.rules.two_player_reverse_skip:
                self.last_skipped = first
                self.turn = self.dealer
            elif self.rules.reverse_start == "dealer":
                self.turn = self.dealer
            else:
                self.turn = self.next_seat(self.dealer)
        elif card.value == "draw2":
            self.pending_draw = 2

    def take_turn(self) -> None:
        seat = self.turn
        if (
            self.rules.jump_in
            and self.pending_draw == 0
            and self.pending_uno is None
            and self.rng.random() < 0.15
        ):
            jumper = self.find_jump_in(seat)
            if jumper is not None:
                self.turns_played += 1
                index = next(
                    i for i, c in enumerate(self.hands[jumper]) if c == self.top and not c.is_wild
                )
                self.play(jumper, index)
                return
        self.turns_played += 1
        uno_offender, self.pending_uno = self.pending_uno, None
        self.act(seat)
        if uno_offender is not None:
            # the next player acted before anyone called UNO
            self.expect("missed_uno", uno_offender)
            if not self.round_over:
                self.draw_cards(uno_offender, self.rules.uno_penalty)

    def act(self, seat: int) -> None:
        """``seat`` takes its turn: a misplay when one is due, else a legal move."""
        if self.inject is not None and self.wants_inject(self.inject) and self.try_inject(seat):
            return
        if self.pending_draw:
            self.face_penalty(seat)
            return
        hand = self.hands[seat]
        playable = self.safe_playable(hand)
        if playable and self.rng.random() < 0.93:
            self.play(seat, self.choose(seat, playable))
            return
        self.draw_cards(seat, 1)
        drawn = len(hand) - 1
        if drawn in self.safe_playable(hand) and self.rng.random() < 0.7:
            self.play(seat, drawn)
            return
        self.emit("pass", seat=seat)
        self.turn = self.next_seat(seat)

    def choose(self, seat: int, playable: list[int]) -> int:
        bluffed = self.bluff.get(seat)
        if bluffed is not None:
            # a bluffer who has not drawn since plays the colour it hid, proving the bluff
            proof = [i for i in playable if self.hands[seat][i].colour == bluffed]
            if proof:
                return self.rng.choice(proof)
        return self.rng.choice(playable)

    def find_jump_in(self, seat: int) -> int | None:
        """A seat other than ``seat`` holding a card identical to a coloured number on the pile."""
        if len(self.pile) < 2 or not self.top.is_number or self.top.colour != self.colour:
            return None
        if self.rules.seven_zero and self.top.value in ("7", "0"):
            return None
        for k in range(1, self.n):
            other = (seat + k) % self.n
            if any(c == self.top for c in self.hands[other]):
                return other
        return None

    def face_penalty(self, seat: int) -> None:
        """The victim of a +2/+4: stack or deflect when allowed, else take the cards and lose
        the turn."""
        hand = self.hands[seat]
        top = self.top
        rules = self.rules
        holds_colour = any(h.colour == self.colour for h in hand)
        answers: list[int] = []
        deflects: list[int] = []
        for i, c in enumerate(hand):
            if c.value == "draw2":
                same = top.value == "draw2" and rules.stack_draw2
                mixed = top.value == "wild_draw4" and rules.stack_mixed and c.colour == self.colour
                if same or mixed:
                    answers.append(i)
            elif c.value == "wild_draw4" and not holds_colour:
                # a stacked +4 follows the +4 rule too (conservative)
                same = top.value == "wild_draw4" and rules.stack_draw4
                mixed = top.value == "draw2" and rules.stack_mixed
                if same or mixed:
                    answers.append(i)
            elif c.value == "reverse" and c.colour == self.colour and rules.reverse_deflects_draw:
                deflects.append(i)
        if (answers or deflects) and self.rng.random() < 0.8:
            pick = self.rng.choice(answers + deflects)
            self.play(seat, pick, deflect=pick in deflects)
            return
        self.draw_cards(seat, self.pending_draw)
        self.pending_draw = 0
        self.last_skipped = seat
        self.turn = self.next_seat(seat)

    def play(
        self, seat: int, index: int, *, uno_missed: bool = False, deflect: bool = False
    ) -> None:
        """``seat`` plays ``hands[seat][index]`` and its effect is applied."""
        hand = self.hands[seat]
        card = hand.pop(index)
        hidden = self.bluff.get(seat)
        if hidden is not None and card.colour == hidden and card in self.rules.deck:
            # any play of the colour it hid, not drawn since, proves the bluff (a jump-in too)
            del self.bluff[seat]
            self.expect("illegal_wild_draw_four", seat)
            self.owed.append((seat, self.rules.challenge_guilty_penalty))
        fields: dict[str, Any] = {"card": card.label, "seat": seat}
        colour: Colour | None = card.colour
        separate = False
        if card.is_wild:
            colour = self.pick_colour(seat)
            roll = self.rng.random()
            # never named at all: the referee must wait, or infer it from the next play
            unnamed = roll < self.unnamed_colour
            separate = not unnamed and roll < self.unnamed_colour + self.separate_colour
            if not unnamed and not separate:
                fields["color"] = colour.value
        if self.rules.seven_zero and card.value == "7" and hand:
            targets = [s for s in range(self.n) if s != seat and len(self.hands[s]) > 1]
            fields["target"] = self.rng.choice(targets)
        self.emit("play", **fields)
        self.obs_target = fields.get("target", -1)
        if separate:
            assert colour is not None
            self.emit("color", color=colour.value, seat=seat)
        self.pile.append(card)
        self.colour = colour
        if len(hand) == 1 and not uno_missed:
            self.emit("uno", seat=seat)
        if deflect:
            # a reverse sends the pending draw back: the seat before is the new victim
            self.direction = -self.direction
            self.turn = self.next_seat(seat)
            if not hand:
                self.round_over = True
                self.last_player = seat
        else:
            self.apply_effect(seat, card)
        self.pay_owed()  # penalties are drawn after the play, hands already passed on

    def pay_owed(self) -> None:
        owed, self.owed = self.owed, []
        for seat, count in owed:
            if self.hands[seat]:  # a player who just went out draws nothing
                self.draw_cards(seat, count)

    def apply_effect(self, seat: int, card: Card) -> None:
        if card.value == "reverse":
            self.direction = -self.direction
        if card.draw_penalty:
            self.pending_draw += card.draw_penalty
        if not self.hands[seat]:
            self.round_over = True
            self.last_player = seat
            return
        if self.rules.seven_zero and card.value in ("7", "0"):
            self.seven_zero(seat, card)
        reverse_skips = self.n == 2 and self.rules.two_player_reverse_skip
        if card.value == "skip" or (card.value == "reverse" and reverse_skips):
            self.last_skipped = self.next_seat(seat)
            self.turn = self.next_seat(seat, 2)
        else:
            self.turn = self.next_seat(seat)

    def seven_zero(self, seat: int, card: Card) -> None:
        """A 7 swaps hands with the chosen seat; a 0 passes every hand on in the direction of
        play."""
        if card.value == "7":
            target = self.obs_target
            self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
            self.bluff.pop(seat, None)
            self.bluff.pop(target, None)
        else:
            moved = [[] for _ in range(self.n)]  # type: list[list[Card]]
            for s in range(self.n):
                moved[self.next_seat(s)] = self.hands[s]
            self.hands = moved
            self.bluff.clear()

    # -- injected misplays ------------------------------------------------------------------------
    def try_inject(self, seat: int) -> bool:
        """Make the requested misplay now if the position allows it; True when the turn is used.
        The next misplay of the queue, if any, is then due :attr:`gap` turns later."""
        assert self.inject is not None
        handler = getattr(self, "inject_" + self.inject)
        try:
            handler(seat)
        except _NoChance:
            return False
        self.misplayed = True
        if self.queue:
            self.inject = self.queue.pop(0)
            self.misplayed = False
            self.inject_after = self.turns_played + self.gap
        return True

    def misplay(self, seat: int, index: int, code: str, penalty: int) -> None:
        """``seat`` misplays ``hands[seat][index]``: the card stays on the pile and takes effect
        (the camera saw it land), play goes on from that seat, and it draws ``penalty`` cards."""
        self.expect(code, seat)
        if penalty:
            self.owed.append((seat, penalty))
        self.play(seat, index)

    def non_matching(self, hand: list[Card]) -> list[int]:
        return [i for i in self.plain(hand) if not self.matches(hand[i])]

    def plain(self, hand: list[Card]) -> list[int]:
        """Coloured cards without effect on turn order, draws or hands."""
        return [
            i
            for i, c in enumerate(hand)
            if c.colour is not None and c.value not in ("skip", "reverse", "draw2", "7", "0")
        ]

    def matching_plain(self, hand: list[Card]) -> list[int]:
        return [i for i in self.plain(hand) if self.matches(hand[i])]

    def counts_public(self) -> bool:
        """Hand counts are public once a draw has been reported (the referee needs them)."""
        return self.draws_reported

    def inject_illegal_card(self, seat: int) -> None:
        hand = self.hands[seat]
        wrong = self.non_matching(hand)
        if self.pending_draw or not wrong or len(hand) < 3:
            raise _NoChance
        self.misplay(seat, self.rng.choice(wrong), "illegal_card", self.rules.misplay_penalty)

    def inject_out_of_turn(self, seat: int) -> None:
        if self.pending_draw or len(self.pile) < 2:
            raise _NoChance
        others = [s for s in range(self.n) if s not in (seat, self.last_skipped)]
        self.rng.shuffle(others)
        for other in others:
            hand = self.hands[other]
            # a card identical to the top would be a legal jump-in under some presets
            plain = [i for i in self.plain(hand) if hand[i] != self.top]
            if len(hand) >= 3 and plain:
                pick = self.rng.choice(plain)
                self.misplay(other, pick, "out_of_turn", self.rules.misplay_penalty)
                return
        raise _NoChance

    def inject_skipped_turn_played(self, seat: int) -> None:
        victim = self.last_skipped
        if self.pending_draw and self.counts_public():
            # the victim of a +2/+4 plays instead of drawing; it still owes the cards
            hand = self.hands[seat]
            plain = self.matching_plain(hand)
            if len(hand) < 3 or not plain:
                raise _NoChance
            owed, self.pending_draw = self.pending_draw, 0
            penalty = self.rules.misplay_penalty + owed
            self.how = "instead_of_drawing"
            self.misplay(seat, self.rng.choice(plain), "skipped_turn_played", penalty)
            return
        if self.pending_draw or victim is None or victim == seat:
            raise _NoChance
        hand = self.hands[victim]
        plain = [i for i in self.plain(hand) if hand[i] != self.top]
        if len(hand) < 3 or not plain:
            raise _NoChance
        pick = self.rng.choice(plain)
        self.how = "after_skip"
        self.misplay(victim, pick, "skipped_turn_played", self.rules.misplay_penalty)

    def inject_missed_draw_penalty(self, seat: int) -> None:
        # seat is the victim of a +2/+4; it takes nothing and the player after it plays
        if not self.pending_draw or not self.counts_public():
            raise _NoChance
        after = self.next_seat(seat)
        hand = self.hands[after]
        plain = self.matching_plain(hand)
        if len(hand) < 3 or not plain:
            raise _NoChance
        count, self.pending_draw = self.pending_draw, 0
        self.expect("missed_draw_penalty", seat)
        self.owed.append((seat, count))
        self.play(after, self.rng.choice(plain))

    def inject_missed_uno(self, seat: int) -> None:
        hand = self.hands[seat]
        plain = self.matching_plain(hand)
        if self.pending_draw or len(hand) != 2 or not plain or not self.counts_public():
            raise _NoChance
        self.play(seat, self.rng.choice(plain), uno_missed=True)
        # the next player acts before anyone calls it
        self.pending_uno = seat

    def inject_illegal_wild_draw_four(self, seat: int) -> None:
        hand = self.hands[seat]
        held = [c.colour for c in hand if c.colour == self.colour]
        fours = [i for i, c in enumerate(hand) if c.value == "wild_draw4"]
        if self.pending_draw or not held or not fours or len(hand) < 4:
            raise _NoChance
        hidden, below = self.colour, self.top
        assert hidden is not None
        self.play(seat, fours[0])
        victim = self.turn
        if self.rng.random() < 0.5:
            # the victim challenges and the hand shown proves the bluff
            self.emit("challenge", seat=victim)
            self.emit("reveal", seat=seat, cards=[c.label for c in self.hands[seat]])
            self.how = "challenge"
            self.expect("illegal_wild_draw_four", seat)
            self.pending_draw = 0
            if self.rules.challenge_takeback:
                self.hands[seat].append(self.pile.pop())
                assert self.top == below
                self.colour = hidden
            self.turn = seat if self.rules.challenge_guilty_replays else victim
            self.draw_cards(seat, self.rules.challenge_guilty_penalty)
        elif self.counts_public():
            # no challenge: proven later, when the bluffer plays the hidden colour undrawn
            self.bluff[seat] = hidden
            self.how = "inference"

    def inject_failed_challenge(self, seat: int) -> None:
        # seat is the victim of an honest Wild Draw Four
        if self.pending_draw != 4 or self.top.value != "wild_draw4" or len(self.pile) < 2:
            raise _NoChance
        player = self.next_seat(seat, -1)
        self.emit("challenge", seat=seat)
        self.emit("reveal", seat=player, cards=[c.label for c in self.hands[player]])
        self.expect("failed_challenge", seat)
        count, self.pending_draw = self.pending_draw, 0
        self.draw_cards(seat, count + self.rules.challenge_failed_penalty)
        self.last_skipped = seat
        self.turn = self.next_seat(seat)

    def inject_impossible_card(self, seat: int) -> None:
        hand = self.hands[seat]
        if self.pending_draw or len(hand) < 3 or self.colour is None:
            raise _NoChance
        value = "5" if self.rules.deck is FRACTIONS else "1/2"
        foreign = Card(self.colour, value)
        assert foreign not in self.rules.deck
        # the foreign card was in this hand all along, in place of one the deck really holds
        self.foreign = foreign
        self.foreign_replaced = hand.pop(self.rng.randrange(len(hand)))
        self.hands[seat].append(foreign)
        self.expect("impossible_card", seat)
        self.play(seat, len(hand) - 1)

    def finish_round(self) -> None:
        winner = self.last_player
        if self.pending_draw:
            victim = self.next_seat(winner)
            self.draw_cards(victim, self.pending_draw)
            self.pending_draw = 0
        points = [sum(self.rules.points(c) for c in hand) for hand in self.hands]
        for seat in range(self.n):
            if seat != winner and self.hands[seat]:
                self.emit("reveal", seat=seat, cards=[c.label for c in self.hands[seat]])
        if self.rules.scoring == "own_points":
            for seat in range(self.n):
                self.scores[seat] += points[seat]
            if max(self.scores) >= self.rules.target:
                low = min(self.scores)
                self.winner = self.scores.index(low)
        else:
            self.scores[winner] += sum(points)
            if self.scores[winner] >= self.rules.target:
                self.winner = winner


def simulate_game(
    seed: int,
    preset: str = "official",
    players: int = 4,
    inject: str | None = None,
    *,
    options: Mapping[str, Any] | None = None,
    max_rounds: int = 50,
    separate_colour: float = 0.2,
    unnamed_colour: float = 0.0,
    anonymous_seats: float = 0.0,
) -> SimulatedGame:
    """Play one match (rounds up to the target, at most ``max_rounds``) and record it.

    ``inject`` names an alert code: once, at a random point, a player makes that misplay; the game
    then goes on legally. ``expected_alerts`` lists ``(code, seat)`` the referee must raise.

    How the table reports a wild's colour: in a separate ``color`` line with probability
    ``separate_colour``, never with ``unnamed_colour`` (the referee must infer it), else in the
    play.
    ``anonymous_seats``: probability that an in-turn play, draw or pass comes with ``seat: null``.
    Both of those last two make some misplays unjudgeable, so they need ``inject=None``.
    """
    if inject is not None and (unnamed_colour or anonymous_seats):
        raise ValueError("unnamed_colour and anonymous_seats are for legal games (inject=None)")
    rules = SimRules.for_preset(preset, options)
    table = _Table(
        seed,
        rules,
        players,
        inject,
        max_rounds=max_rounds,
        separate_colour=separate_colour,
        unnamed_colour=unnamed_colour,
        anonymous_seats=anonymous_seats,
    )
    return _played(table, seed, preset, players, inject)


def _played(table: _Table, seed: int, preset: str, players: int, inject: str | None) -> SimulatedGame:
    """Play ``table``'s match out; what it came to."""
    table.play_match()
    return SimulatedGame(
        seed=seed,
        preset=preset,
        players=players,
        inject=inject,
        observations=table.obs,
        expected_alerts=table.expected,
        injected=table.injected,
        final_scores=list(table.scores),
        rounds=table.rounds,
        winner=table.winner,
        how=table.how if table.injected else None,
    )


def simulate_scripted_round(
    seed: int,
    preset: str = "official",
    players: int = 4,
    misplays: Sequence[str] = (),
    *,
    first_after: int = 3,
    gap: int = 4,
    dealer: int | None = None,
    hand_size: int | None = None,
) -> SimulatedGame:
    """Play one round with ``misplays`` (alert codes) made one after another, as a filmed game has them.

    The first misplay is made at its first chance once ``first_after`` turns have been played, each
    next one at its first chance at least ``gap`` turns after the one before; misplays that find no
    chance before the round ends are not made. ``dealer`` fixes the dealer (``None``: drawn). Wild
    colours are named in the play. ``expected_alerts`` lists the alerts of every misplay made;
    ``injected`` says whether any was. ``hand_size`` deals that many cards each (``None``: the
    preset's, 7 for every sheet); the ``setup`` line says so in its ``hand_size``, as a table that
    agreed on short hands would tell the referee (a short round fits a short video).
    """
    rules = SimRules.for_preset(preset)
    if hand_size is not None:
        if not 1 <= hand_size <= 30:
            raise ValueError(f"hand_size must be 1..30 (as a setup's), got {hand_size}")
        rules = replace(rules, hand_size=hand_size)
    table = _Table(
        seed,
        rules,
        players,
        misplays[0] if misplays else None,
        max_rounds=1,
        separate_colour=0.0,
        then=misplays[1:],
        first_after=first_after,
        gap=gap,
        dealer=dealer,
    )
    return _played(table, seed, preset, players, misplays[0] if misplays else None)


def simulate_games(
    count: int, *, first_seed: int = 0, inject: str | None = None
) -> Iterator[SimulatedGame]:
    """``count`` matches over every preset and 2..6 players, seeds ``first_seed`` onwards."""
    for seed in range(first_seed, first_seed + count):
        preset = SIM_PRESETS[seed % len(SIM_PRESETS)]
        players = 2 + (seed // len(SIM_PRESETS)) % 5
        yield simulate_game(seed, preset, players, inject)
