"""One simulated match in progress (:class:`SimTable`): every hand, the stock, the pile, whose turn it is,
played by conservative players who make only moves legal under every rule sheet's reading.

The table writes down what is public as contract-2 observations (:meth:`SimTable.emit`) and the alerts
the referee must raise (:meth:`SimTable.expect`). It makes a misplay when one is due through the
functions it is given (``misplays``: :data:`referee.rules.sim_misplays.MISPLAYS`). The rules it plays by
and how it reports: the docstring of :mod:`referee.rules.simulate`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from referee.cards import Card, Colour
from referee.contract import ALERT_CODES, ColorNamed, Draw, Observation, Pass, Play, Reveal, Setup, Start, Uno
from referee.rules.sim_players import choose, find_jump_in, penalty_answers, pick_colour, safe_playable
from referee.rules.sim_rules import SimRules

__all__ = ["Misplay", "NoChance", "SimTable"]


class NoChance(Exception):
    """The injector found no chance for its misplay in this position."""


def _check_table(players: int, inject: str | None, then: Sequence[str], dealer: int | None) -> None:
    if players < 2 or players > 10:
        raise ValueError(f"players must be 2..10, got {players}")
    if inject is not None and inject not in ALERT_CODES:
        raise ValueError(f"unknown alert code to inject: {inject!r}")
    unknown = [code for code in then if code not in ALERT_CODES]
    if unknown:
        raise ValueError(f"unknown alert codes to inject: {unknown}")
    if dealer is not None and not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat 0..{players - 1}, got {dealer}")


class SimTable:
    """One match in progress: every hand, the stock, the pile, whose turn it is.

    ``inject`` is made once ``first_after`` turns have been played (``None``: a drawn number, 3..40),
    then each code of ``then`` in turn, at least ``gap`` turns after the misplay before it.
    ``dealer`` fixes the first round's dealer (``None``: drawn). ``misplays`` makes each misplay (alert
    code -> the function that makes it: :data:`referee.rules.sim_misplays.MISPLAYS`).
    """

    def __init__(
        self,
        seed: int,
        rules: SimRules,
        players: int,
        inject: str | None,
        *,
        misplays: Mapping[str, Misplay],
        max_rounds: int,
        separate_colour: float,
        unnamed_colour: float = 0.0,
        anonymous_seats: float = 0.0,
        then: Sequence[str] = (),
        first_after: int | None = None,
        gap: int = 0,
        dealer: int | None = None,
    ) -> None:
        _check_table(players, inject, then, dealer)
        self.rng = random.Random(seed)
        self.rules = rules
        self.misplays = misplays
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
        self._clear_round()

    def _clear_round(self) -> None:
        """The round state before the first deal."""
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
    def emit(self, obs: Observation) -> None:
        """Write down ``obs`` (its ``t`` the table's clock, moved on)."""
        self.t = round(self.t + 0.5 + self.rng.random(), 3)
        if (
            self.anonymous_seats
            and isinstance(obs, Play | Draw | Pass)
            and obs.seat == self.turn
            and self.rng.random() < self.anonymous_seats
        ):
            obs = replace(obs, seat=None)  # unknown to the camera: the referee assumes the expected seat
        self.obs.append(replace(obs, t=self.t))
        if isinstance(obs, Play | Pass):
            self.last_skipped = None
        elif isinstance(obs, Draw):
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
            self.emit(Draw(seat, got))
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
        self.emit(Setup(self.n, self.dealer, self.rules.preset, self.rules.hand_size, dict(self.rules.options)))
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
            self.emit(Start(card))
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
            colour = pick_colour(self, first)
            self.colour = colour
            self.emit(ColorNamed(colour, first))
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
            jumper = find_jump_in(self, seat)
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
        playable = safe_playable(self, hand)
        if playable and self.rng.random() < 0.93:
            self.play(seat, choose(self, seat, playable))
            return
        self.draw_cards(seat, 1)
        drawn = len(hand) - 1
        if drawn in safe_playable(self, hand) and self.rng.random() < 0.7:
            self.play(seat, drawn)
            return
        self.emit(Pass(seat))
        self.turn = self.next_seat(seat)

    def face_penalty(self, seat: int) -> None:
        """The victim of a +2/+4: stack or deflect when allowed, else take the cards and lose
        the turn."""
        answers, deflects = penalty_answers(self, seat)
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
        named: Colour | None = None  # the colour named in the play
        target: int | None = None
        colour: Colour | None = card.colour
        separate = False
        if card.is_wild:
            colour = pick_colour(self, seat)
            roll = self.rng.random()
            # never named at all: the referee must wait, or infer it from the next play
            unnamed = roll < self.unnamed_colour
            separate = not unnamed and roll < self.unnamed_colour + self.separate_colour
            if not unnamed and not separate:
                named = colour
        if self.rules.seven_zero and card.value == "7" and hand:
            targets = [s for s in range(self.n) if s != seat and len(self.hands[s]) > 1]
            target = self.rng.choice(targets)
        self.emit(Play(card, seat, named, target))
        self.obs_target = -1 if target is None else target
        if separate:
            assert colour is not None
            self.emit(ColorNamed(colour, seat))
        self.pile.append(card)
        self.colour = colour
        if len(hand) == 1 and not uno_missed:
            self.emit(Uno(seat))
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

    # -- injected misplays (made by the functions of ``misplays``) ------------------------------------
    def try_inject(self, seat: int) -> bool:
        """Make the requested misplay now if the position allows it; True when the turn is used.
        The next misplay of the queue, if any, is then due :attr:`gap` turns later."""
        assert self.inject is not None
        try:
            self.misplays[self.inject](self, seat)
        except NoChance:
            return False
        self.misplayed = True
        if self.queue:
            self.inject = self.queue.pop(0)
            self.misplayed = False
            self.inject_after = self.turns_played + self.gap
        return True


    def finish_round(self) -> None:
        winner = self.last_player
        if self.pending_draw:
            victim = self.next_seat(winner)
            self.draw_cards(victim, self.pending_draw)
            self.pending_draw = 0
        points = [sum(self.rules.points(c) for c in hand) for hand in self.hands]
        for seat in range(self.n):
            if seat != winner and self.hands[seat]:
                self.emit(Reveal(seat, tuple(self.hands[seat])))
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


#: Makes one misplay at a seat's turn on the table, or raises :class:`NoChance`.
Misplay = Callable[[SimTable, int], None]
