"""Cards, labels and decks: the vocabulary every other module speaks.

A card's label (contract 1 of docs/contract.md) is ``<colour>_<value>`` for coloured cards (``red_7``,
``blue_draw2``, ``green_1/2``) and a bare name for black cards (``wild``, ``wild_draw4``, ``blank``)
and for a face-down card (``back``).

This module is pure: standard library only.

>>> Card.from_label("red_7")
Card.from_label('red_7')
>>> Card.from_label("yellow_2/4").matches_face(Card.from_label("red_1/2"))
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "ACTION_VALUES",
    "BLACK_VALUES",
    "CLASSIC",
    "CLASSIC_COLOURS",
    "CLASSIC_WITH_BLANKS",
    "DECKS",
    "FACE_CLASSES",
    "FRACTIONS",
    "FRACTION_VALUES",
    "LB_COLOURS",
    "LUXEMBOURGISH",
    "NUMBER_VALUES",
    "READER_FACES",
    "Card",
    "CardError",
    "Colour",
    "DeckSpec",
    "face_folder",
    "find_deck",
    "folder_face",
    "folder_label",
]


class CardError(ValueError):
    """A label or card that does not exist."""


class Colour(enum.StrEnum):
    """Card colours across the supported decks (the value is the label prefix)."""

    RED = "red"
    GREEN = "green"
    BLUE = "blue"
    YELLOW = "yellow"
    ORANGE = "orange"
    VIOLET = "violet"


CLASSIC_COLOURS: tuple[Colour, ...] = (Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE)
LB_COLOURS: tuple[Colour, ...] = (Colour.ORANGE, Colour.GREEN, Colour.VIOLET, Colour.YELLOW)

NUMBER_VALUES: tuple[str, ...] = tuple(str(n) for n in range(10))
ACTION_VALUES: tuple[str, ...] = ("skip", "reverse", "draw2")
BLACK_VALUES: tuple[str, ...] = ("wild", "wild_draw4", "blank")
BACK = "back"


def _proper_fractions() -> tuple[str, ...]:
    """Every proper fraction n/d with 2 <= d <= 10, unreduced (2/4 and 1/2 are different cards): 45."""
    return tuple(f"{n}/{d}" for d in range(2, 11) for n in range(1, d))


FRACTION_VALUES: tuple[str, ...] = _proper_fractions()

_COLOURED_VALUES = frozenset(NUMBER_VALUES + ACTION_VALUES + FRACTION_VALUES)

#: What the detector sees: the face symbol, colour-blind. The colour of a coloured card is read from
#: its pixels against the deck's palette, so new palettes (orange, violet) need no retraining.
#: Fraction faces are not (yet) detector classes: the fractions deck is judged from logged labels.
FACE_CLASSES: tuple[str, ...] = NUMBER_VALUES + ACTION_VALUES + BLACK_VALUES + (BACK,)

#: What the face classifier reads (the closer look at one card): the detector's faces and the fractions.
READER_FACES: tuple[str, ...] = FACE_CLASSES + FRACTION_VALUES


def face_folder(face: str) -> str:
    """A face as a file name (``1/2`` -> ``1of2``): crop folders are named by face."""
    return face.replace("/", "of")


def folder_face(name: str) -> str:
    """The face a folder of :func:`face_folder` holds (``1of2`` -> ``1/2``)."""
    return name.replace("of", "/") if "of" in name and name.replace("of", "").isdigit() else name


def folder_label(name: str) -> str:
    """The contract-1 label a class folder is named for: ``red_7``, or ``red_1of2`` for ``red_1/2`` (a
    file name cannot hold a slash)."""
    colour, _, face = name.rpartition("_")
    return f"{colour}_{folder_face(face)}" if colour else folder_face(name)


@dataclass(frozen=True, slots=True)
class Card:
    """One card face: a colour (``None`` for black cards and the back) and a value.

    ``value`` is ``"0"``..``"9"``, ``"skip"``, ``"reverse"``, ``"draw2"``, a fraction ``"n/d"``,
    ``"wild"``, ``"wild_draw4"``, ``"blank"`` or ``"back"``.
    """

    colour: Colour | None
    value: str

    def __post_init__(self) -> None:
        if self.colour is None:
            if self.value not in BLACK_VALUES and self.value != BACK:
                raise CardError(f"card without a colour must be black or the back: {self.value!r}")
        elif self.value not in _COLOURED_VALUES:
            raise CardError(f"no such coloured card: {self.colour.value}_{self.value}")

    @classmethod
    def from_label(cls, label: str) -> Card:
        """Parse a contract-1 label; raises :class:`CardError` quoting the label."""
        if not isinstance(label, str):
            raise CardError(f"card label must be a string: {label!r}")
        text = label.strip().lower()
        if text in BLACK_VALUES or text == BACK:
            return cls(None, text)
        colour_text, sep, value = text.partition("_")
        if not sep:
            raise CardError(f"unknown card label: {label!r}")
        try:
            colour = Colour(colour_text)
        except ValueError:
            raise CardError(f"unknown colour in card label: {label!r}") from None
        if value not in _COLOURED_VALUES:
            raise CardError(f"unknown value in card label: {label!r}")
        return cls(colour, value)

    @property
    def label(self) -> str:
        """The contract-1 label; ``Card.from_label(card.label) == card``."""
        return self.value if self.colour is None else f"{self.colour.value}_{self.value}"

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"Card.from_label({self.label!r})"

    # Questions about the card.
    @property
    def is_black(self) -> bool:
        return self.colour is None and self.value != BACK

    @property
    def is_wild(self) -> bool:
        """A card that names a colour when played (wild, wild draw four, blank custom card)."""
        return self.value in BLACK_VALUES

    @property
    def is_back(self) -> bool:
        return self.value == BACK

    @property
    def is_number(self) -> bool:
        return self.value in NUMBER_VALUES

    @property
    def is_fraction(self) -> bool:
        return "/" in self.value

    @property
    def is_action(self) -> bool:
        return self.value in ACTION_VALUES or self.value == "wild_draw4"

    @property
    def number(self) -> int | None:
        return int(self.value) if self.is_number else None

    @property
    def fraction(self) -> Fraction | None:
        if not self.is_fraction:
            return None
        num, den = self.value.split("/")
        return Fraction(int(num), int(den))

    @property
    def draw_penalty(self) -> int:
        """Cards the next player must take: 2 for a draw two, 4 for a wild draw four, else 0."""
        return {"draw2": 2, "wild_draw4": 4}.get(self.value, 0)

    @property
    def face(self) -> str:
        """The detector's class for this card: the value for every card (colour read from pixels)."""
        return self.value

    def matches_face(self, other: Card) -> bool:
        """Same number, symbol or (fractions deck) an equivalent fraction."""
        if self.is_fraction and other.is_fraction:
            return self.fraction == other.fraction
        return self.value == other.value

    def with_colour(self, colour: Colour | None) -> Card:
        return Card(colour, self.value)

    def points(self) -> int:
        """Classic scoring: a number its face value, an action 20, a black card 50.

        A fraction card scores its value rounded up (the fractions sheet scores them like numbers; a
        proper fraction is below 1, so each counts 1). Presets may override this.
        """
        if self.is_number:
            return int(self.value)
        if self.is_fraction:
            return 1
        if self.value in ACTION_VALUES:
            return 20
        if self.value in BLACK_VALUES:
            return 50
        return 0


@dataclass(frozen=True)
class DeckSpec:
    """A deck as data: its colours and how many copies of each card it holds."""

    name: str
    colours: tuple[Colour, ...]
    copies: Mapping[Card, int]
    note: str = ""

    def count(self, card: Card) -> int:
        """Copies of ``card`` in the deck; a wild's played colour does not matter."""
        return self.copies.get(card if not card.is_wild else Card(None, card.value), 0)

    @property
    def size(self) -> int:
        return sum(self.copies.values())

    def cards(self) -> Iterator[Card]:
        """Every physical card, copies repeated, in a fixed order."""
        for card, n in self.copies.items():
            for _ in range(n):
                yield card

    def labels(self) -> tuple[str, ...]:
        return tuple(card.label for card in self.copies)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and self.count(card) > 0


def _classic_copies(
    colours: tuple[Colour, ...], *, wilds: int = 4, draw4s: int = 4, blanks: int = 0
) -> dict[Card, int]:
    copies: dict[Card, int] = {}
    for colour in colours:
        copies[Card(colour, "0")] = 1
        for value in NUMBER_VALUES[1:] + ACTION_VALUES:
            copies[Card(colour, value)] = 2
    copies[Card(None, "wild")] = wilds
    copies[Card(None, "wild_draw4")] = draw4s
    if blanks:
        copies[Card(None, "blank")] = blanks
    return copies


def _fraction_copies(draw2_per_colour: int = 2, reverse_per_colour: int = 2) -> dict[Card, int]:
    copies: dict[Card, int] = {}
    for colour in CLASSIC_COLOURS:
        for value in FRACTION_VALUES:
            copies[Card(colour, value)] = 1
        copies[Card(colour, "draw2")] = draw2_per_colour
        copies[Card(colour, "reverse")] = reverse_per_colour
    copies[Card(None, "wild")] = 6
    copies[Card(None, "wild_draw4")] = 6
    return copies


CLASSIC = DeckSpec("classic", CLASSIC_COLOURS, _classic_copies(CLASSIC_COLOURS))
CLASSIC_WITH_BLANKS = DeckSpec(
    "classic_blanks", CLASSIC_COLOURS, _classic_copies(CLASSIC_COLOURS, blanks=3)
)
LUXEMBOURGISH = DeckSpec(
    "lb",
    LB_COLOURS,
    _classic_copies(LB_COLOURS, blanks=3),
    note="003_697eb92a66101dde.txt: 19 per colour, 8 each of reverse/skip/+2, 4 Joker, "
    "4 Super Joker (+4), 3 blank custom cards: 111.",
)
FRACTIONS = DeckSpec(
    "breuken",
    CLASSIC_COLOURS,
    _fraction_copies(),
    note="001_f43d10cde2cbdaf2.txt says 196 cards but itemises 45 fractions per colour, '+2' and "
    "'keer om' two of each colour, 6 +4 and 6 colour changers (208). We keep the itemised counts: "
    "the larger deck can never raise a false impossible_card alert.",
)

DECKS: dict[str, DeckSpec] = {
    deck.name: deck for deck in (CLASSIC, CLASSIC_WITH_BLANKS, LUXEMBOURGISH, FRACTIONS)
}


def find_deck(name: str) -> DeckSpec:
    """Deck spec by name (``classic``, ``classic_blanks``, ``lb``, ``breuken``)."""
    try:
        return DECKS[name]
    except KeyError:
        raise CardError(f"unknown deck {name!r}; known: {', '.join(DECKS)}") from None
