"""What the referee holds between observations: the match (:class:`MatchState`) and the round in
progress (:class:`RoundState`), with the questions the judging asks of them.

Plain values with slots, changed in place by the judging functions (:mod:`referee.rules.play`,
:mod:`referee.rules.actions`, :mod:`referee.rules.challenge`, :mod:`referee.rules.scoring`), one
observation at a time: no copy per step, so judging stays fast. Only what is public at the table is
here: the pile, the named colour, hand counts, calls, draws and shown hands.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.cards import Card, Colour, DeckSpec
from referee.rules.observations import intern_card
from referee.rules.presets import RuleOptions

__all__ = ["DRAW_PENALTY", "WILD_DRAW4", "WILD_VALUES", "MatchState", "RoundState", "Wd4", "interned_copies"]

#: cards a draw card makes the next player take (Card.draw_penalty without building a dict per call)
DRAW_PENALTY = {"draw2": 2, "wild_draw4": 4}
#: the values whose colour is named when played
WILD_VALUES = frozenset(("wild", "wild_draw4", "blank"))
WILD_DRAW4 = Card(None, "wild_draw4")

_DECK_COPIES: dict[str, dict[Card, int]] = {}


def interned_copies(deck: DeckSpec) -> dict[Card, int]:
    """``deck.copies`` keyed by interned cards (see :func:`intern_card`), built once per deck."""
    copies = _DECK_COPIES.get(deck.name)
    if copies is None:
        copies = {intern_card(card): n for card, n in deck.copies.items()}
        _DECK_COPIES[deck.name] = copies
    return copies


class Wd4:
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


@dataclass(slots=True, eq=False)
class MatchState:
    """The match around the rounds: its rules, seats, scores and who is out. ``players`` is 0 before
    the first ``setup``."""

    options: RuleOptions
    #: the preset a ``setup`` without ``rules`` plays
    default_rules: str
    deck: DeckSpec = field(init=False)
    players: int = 0
    dealer: int = 0
    #: the round's number, from 1
    round: int = 0
    scores: list[int] = field(default_factory=list)
    eliminated: set[int] = field(default_factory=set)
    match_over: bool = False
    match_winner: int | None = None
    #: a draw has been reported in this match
    draws_seen: bool = False
    #: hand counts are trusted: draws are reported (by option, or seen in this match)
    counts_known: bool = False

    def __post_init__(self) -> None:
        self.use(self.options)

    def use(self, options: RuleOptions) -> None:
        """Play by ``options`` from now on (a ``setup``'s)."""
        self.options = options
        self.deck = options.deck_spec
        self.update_counts_known()

    def update_counts_known(self) -> None:
        reported = self.options.draws_reported
        self.counts_known = self.draws_seen if reported is None else reported

    def partner(self, seat: int) -> int | None:
        """The seat's team mate under team play (sitting opposite), else ``None``."""
        if not self.options.teams or self.players % 2:
            return None
        return (seat + self.players // 2) % self.players


@dataclass(slots=True, eq=False)
class RoundState:
    """One round as the table shows it: whose turn, the pile's top and colour, what is owed, hand
    counts (``None`` where unknown), UNO calls, the Wild Draw Fours still to prove, the copies of each
    card not yet seen on the pile. :meth:`deal` makes the state a round starts from."""

    match: MatchState
    players: int
    dealer: int
    #: the match's eliminated seats (the same set)
    eliminated: set[int]
    turn: int
    counts: list[int | None]
    uno_called: list[bool]
    #: copies of each card not yet seen on the pile since the deal or the last reshuffle
    unseen: dict[Card, int]
    #: copies of each card the deck holds (interned: see :func:`interned_copies`)
    copies: dict[Card, int]
    stock: int
    #: the most cards the pile can hold without a reshuffle (every active seat holds one card)
    pile_limit: int
    direction: int = 1
    colour: Colour | None = None
    top: Card | None = None
    pending_draw: int = 0
    draw_victim: int | None = None
    skipped_seat: int | None = None
    round_over: bool = False
    round_winner: int | None = None
    started: bool = False
    plays: int = 0
    last_player: int | None = None
    uno_watch: int | None = None
    #: seat -> cards it owes for a missed UNO call, until it draws them: the penalty is taken when the
    #: call is caught, before that seat answers a +2/+4 the catching play may have put on it
    uno_owed: dict[int, int] = field(default_factory=dict)
    #: seat -> colours it held when it played a Wild Draw Four on them (unproven bluffs)
    wd4_watch: dict[int, set[Colour]] = field(default_factory=dict)
    last_wd4: Wd4 | None = None
    challenge_pending: bool = False
    pile_size: int = 0
    reveals: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    scored: bool = False
    #: the top card could not exist (impossible_card): the next play is not judged against it
    top_doubtful: bool = False
    #: the time of the observation being judged, stamped on the lines it causes
    t: float | None = None

    @classmethod
    def deal(cls, match: MatchState, players: int, dealer: int, hand_size: int) -> RoundState:
        """The state after ``hand_size`` cards were dealt to each of ``players`` seats."""
        deck = match.deck
        copies = interned_copies(deck)
        return cls(
            match=match,
            players=players,
            dealer=dealer,
            eliminated=match.eliminated,
            turn=(dealer + 1) % players if players else 0,
            counts=[hand_size] * players,
            uno_called=[False] * players,
            unseen=dict(copies),
            copies=copies,
            stock=deck.size - players * hand_size,
            pile_limit=deck.size - max(players - len(match.eliminated) - 1, 0),
        )

    # -- seats ------------------------------------------------------------------------------------
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

    def is_victim_to_answer(self) -> bool:
        """A +2/+4 is pending and its victim is the seat in turn."""
        return bool(self.pending_draw) and self.draw_victim == self.turn

    # -- what a card may do -----------------------------------------------------------------------
    def matches(self, card: Card) -> bool:
        """The card follows the pile: the current colour, the top card's face, or a black card."""
        top = self.top
        colour = card.colour
        if colour is None or top is None or self.colour is None or self.top_doubtful:
            return True  # a black card, an empty pile, an unnamed colour or a card that cannot be
        if colour == self.colour:
            return True
        if card.value == top.value:
            return True
        return top.colour is not None and card.matches_face(top)

    def stacks(self, card: Card) -> bool:
        """The card may be stacked on the pending +2/+4 (stacking options)."""
        top = self.top
        if top is None:
            return False
        opts = self.match.options
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

    def deflects(self, card: Card) -> bool:
        """The card is a reverse that sends the pending +2/+4 back (``reverse_deflects_draw``)."""
        return (
            self.match.options.reverse_deflects_draw
            and card.value == "reverse"
            and (self.colour is None or card.colour == self.colour)
        )

    def is_jump_in(self, card: Card) -> bool:
        """The card, played out of turn, is a legal jump-in (identical to the top card)."""
        top = self.top
        return (
            self.match.options.jump_in
            and top is not None
            and self.plays > 0
            and not self.pending_draw
            and card.value != "wild_draw4"
            and card.value == top.value
            and (card.is_wild or card.colour == top.colour)
        )

    def in_deck_now(self, card: Card) -> bool:
        """The deck holds a copy of the card not yet seen on the pile (or the pile is big enough to
        prove a reshuffle)."""
        if card.is_back:
            return False
        if self.unseen.get(intern_card(card), 0) > 0:
            return True
        # Draws not reported: a pile this big proves a reshuffle, which puts its cards back (see_card).
        return not self.match.counts_known and self.pile_size + 1 > self.pile_limit and self.copies.get(card, 0) > 0

    # -- small changes ----------------------------------------------------------------------------
    def hand_changed(self, seat: int, delta: int) -> None:
        count = self.counts[seat]
        if count is not None:
            self.counts[seat] = max(count + delta, 0)

    def clear_pending(self) -> None:
        self.pending_draw = 0
        self.draw_victim = None

    def unsee(self, card: Card) -> None:
        """The card left the pile (back into the stock or a hand)."""
        self.unseen[card] = self.unseen.get(card, 0) + 1
        self.pile_size = max(self.pile_size - 1, 0)

    def reshuffle(self) -> None:
        """The pile but its top card becomes the stock: those cards may be seen again."""
        self.stock += max(self.pile_size - 1, 0)
        self.unseen = dict(self.copies)
        self.pile_size = 0
        if self.top is not None:
            self.unseen[self.top] = self.unseen.get(self.top, 0) - 1
            self.pile_size = 1
