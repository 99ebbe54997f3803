"""Rule options and the presets, one per rule sheet (docs/contract.md, contract 4).

:class:`RuleOptions` is the whole rule set as data; a preset is a function returning one, its
docstring citing the sheet it follows (the sheets live in ``../shared/rule-sheets/``) and every
choice made where the sheets disagree, are silent, or say two things. Any option can be overridden by
name from ``setup.options``::

    >>> find_preset("official").with_overrides({"stack_draw2": True}).stack_draw2
    True

Choices common to every preset (the sheets agree or say nothing):

* A Wild Draw Four is legal when its player holds no card of the current *colour* (numbers, actions
  and wilds in hand do not matter): every sheet says so except one loose passage of 004 ("matches the
  color or value"), which its detailed "Honesty check" paragraph contradicts.
* A Wild Draw Four turned as the start card goes back into the stock and another card is turned
  (every sheet). A wild (or a blank) start card: the player left of the dealer names the colour, then
  plays (000, 002, 003, 004).
* The UNO window closes when the next player acts: plays a card or draws (000: "wanneer de volgende
  speler zijn beurt begint", 002: "bevor der nächste Spieler eine Karte gezogen oder abgeworfen hat",
  004: "laying out a card or drawing a card from the deck").
* A misplayed card stays on the pile for the referee (the camera sees it; the sheets' "take it back"
  is up to the table) and an out-of-turn play costs what a misplay costs (002 puts both in one rule).
* With two players a reverse acts as a skip (001's 2-player rules; the published rules agree).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from referee.cards import DeckSpec, find_deck
from referee.rules.observations import ObservationError

__all__ = [
    "PRESETS",
    "PRESET_SHEETS",
    "SCORING_MODES",
    "OptionValue",
    "OptionValues",
    "RuleOptions",
    "breuken",
    "de",
    "find_preset",
    "house",
    "lb",
    "nl",
    "official",
    "parse_option_value",
]

SCORING_MODES = ("winner_takes", "own_points", "elimination")
REVERSE_STARTS = ("dealer", "right_of_dealer")

_CHOICES: dict[str, tuple[str, ...]] = {
    "scoring": SCORING_MODES,
    "reverse_start": REVERSE_STARTS,
    "deck": ("classic", "classic_blanks", "lb", "breuken"),
}


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Every rule the referee applies, as data. Field names are the ``setup.options`` names."""

    preset: str = "official"
    #: the rule sheet file the preset follows (informational)
    sheet: str = "004_5ec70557fe9b417d.txt"
    #: deck name in :data:`referee.cards.DECKS` (copies feed ``impossible_card``)
    deck: str = "classic"
    hand_size: int = 7
    #: points that end the match: 200, 500 or 1000 in the sheets (any positive number accepted)
    target: int = 500
    scoring: str = "winner_takes"
    #: teams of two, partners sitting opposite (seat s and s + players/2); a team scores together
    teams: bool = False
    stack_draw2: bool = False
    stack_draw4: bool = False
    #: a +2 (of the named colour) on a +4 and a +4 on a +2 may stack
    stack_mixed: bool = False
    #: anyone may play out of turn a card identical (colour and face) to the top card
    jump_in: bool = False
    #: a 0 passes every hand on in the direction of play; a 7 swaps hands with a chosen player
    seven_zero: bool = False
    #: the victim of a +2/+4 may play a reverse of the current colour to send the draw back
    reverse_deflects_draw: bool = False
    #: a player who cannot play draws until a card is playable (draws of several cards are normal)
    draw_until_playable: bool = False
    two_player_reverse_skip: bool = True
    #: who acts first after a reverse start card: the dealer, or the player right of the dealer
    reverse_start: str = "dealer"
    uno_penalty: int = 2
    misplay_penalty: int = 2
    #: cards the challenged player draws when the Wild Draw Four was illegal
    challenge_guilty_penalty: int = 4
    #: cards a failed challenger draws on top of the four
    challenge_failed_penalty: int = 2
    #: a guilty Wild Draw Four goes back to its player's hand (the pile reverts)
    challenge_takeback: bool = False
    #: ... and its player must play again, now a card of the right colour
    challenge_guilty_replays: bool = False
    #: points of a fraction card in a hand (the fractions sheet counts its number cards 10)
    fraction_points: int = 1
    #: draws are reported (hand counts known from the deal); None: known once a draw is seen
    draws_reported: bool | None = None

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise ObservationError(f"option {name}: {value!r} is not one of {', '.join(allowed)}")
        for name in ("hand_size", "target"):
            if getattr(self, name) < 1:
                raise ObservationError(f"option {name} must be >= 1, got {getattr(self, name)!r}")
        for name in (
            "uno_penalty",
            "misplay_penalty",
            "challenge_guilty_penalty",
            "challenge_failed_penalty",
            "fraction_points",
        ):
            if getattr(self, name) < 0:
                raise ObservationError(f"option {name} must be >= 0, got {getattr(self, name)!r}")

    @property
    def deck_spec(self) -> DeckSpec:
        return find_deck(self.deck)

    def with_overrides(self, options: Mapping[str, Any]) -> RuleOptions:
        """A copy with ``options`` applied by name; ObservationError on an unknown name or bad value."""
        if not options:
            return self
        changes: dict[str, Any] = {}
        for name, value in options.items():
            kind = _FIELD_TYPES.get(name)
            if kind is None or name in ("preset", "sheet"):
                known = ", ".join(n for n in _FIELD_TYPES if n not in ("preset", "sheet"))
                raise ObservationError(f"unknown rule option {name!r} (known: {known})")
            changes[name] = parse_option_value(name, value)
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> OptionValues:
        """Every option by name, in the fields' order (the snapshot's ``options``)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


#: A value of a rule option (a field of :class:`RuleOptions`).
OptionValue = bool | int | str | None
#: The rules in force by option name (:meth:`RuleOptions.as_dict`).
OptionValues = dict[str, OptionValue]


_FIELD_TYPES: dict[str, str] = {f.name: str(f.type) for f in fields(RuleOptions)}

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def parse_option_value(name: str, value: object) -> Any:
    """Check (and from a string, convert) ``value`` for option ``name``; ObservationError if bad.

    Strings are accepted so that ``--option stack_draw2=true`` works from the command line.
    """
    kind = _FIELD_TYPES.get(name)
    if kind is None:
        raise ObservationError(f"unknown rule option {name!r}")
    if kind == "bool" or kind == "bool | None":
        if value is None and kind == "bool | None":
            return None
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
            return value.strip().lower() in _TRUE
        raise ObservationError(f"option {name} must be true or false, got {value!r}")
    if kind == "int":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value)
        raise ObservationError(f"option {name} must be an integer, got {value!r}")
    if not isinstance(value, str):
        raise ObservationError(f"option {name} must be a string, got {value!r}")
    allowed = _CHOICES.get(name)
    if allowed is not None and value not in allowed:
        raise ObservationError(f"option {name}: {value!r} is not one of {', '.join(allowed)}")
    return value


def official() -> RuleOptions:
    """The published English rules, as given in 004_5ec70557fe9b417d.txt (the compendium).

    Classic 108-card deck, 7 cards, 500 points, the round's winner takes the points in the other
    hands. Missed UNO 2 cards; a wrong card 2 ("takes two cards from the playing deck"). Wild Draw
    Four challenge ("Honesty check", given twice): guilty -> its player takes the card back and draws
    4 (the victim then plays on the card below); innocent -> the challenger draws 4 + 2.

    Choices: 004 also describes deflecting a +2 with any +2 (not summed) and a +4 with a +2 of the
    named colour inside its basic rules; those contradict the published rules and its own "UNO
    Stacked" section, so they are house options here (``stack_draw2``, ``stack_mixed``). A reverse
    start card: "continued by the one sitting from the beginner to the right", i.e. the dealer plays
    first and play goes right (the published rules say the same). One passage makes only number cards
    valid start cards; we follow the main text (an action start card acts on the first player).
    """
    return RuleOptions(
        preset="official",
        sheet="004_5ec70557fe9b417d.txt",
        challenge_takeback=True,
        reverse_start="dealer",
    )


def nl() -> RuleOptions:
    """Dutch classic rules: 000_6215b461eaecddde.txt.

    Classic deck, 7 cards, 500 points, winner takes (the sheet's variant "iedereen telt zijn eigen
    strafpunten" is ``scoring=own_points``). Missed UNO 2 cards ("moet de speler twee kaarten van de
    stok pakken"), only until the next player begins; wrong card 2 ("Verkeerde kaart spelen").
    Challenge: innocent -> 2 more for the challenger ("boven zijn 4 kaarten nog 2"), guilty -> its
    player draws 4 himself (no takeback mentioned, so the card stays).

    Choice: for a reverse start card the sheet only says "geldt dezelfde regel" (the same rule as in
    play), so play goes counter-clockwise as if the dealer had played it: the player right of the
    dealer starts.
    """
    return RuleOptions(preset="nl", sheet="000_6215b461eaecddde.txt", reverse_start="right_of_dealer")


def de() -> RuleOptions:
    """German rules: 002_b6167d2e732525d9.txt.

    Classic deck, 7 cards, 500 points, winner takes. A wrong card or a card out of turn: 1 penalty
    card ("muss diese wieder aufnehmen und erhält zusätzlich eine Strafkarte"). Reverse start card:
    "fängt der Geber an" (the dealer starts, then to his right). Challenge: innocent -> the
    challenger takes 6 instead of 4; guilty -> its player draws the 4.

    Choice: missed UNO costs 2 cards in "Spielverlauf" but 1 in the "Strafen" list; we follow the
    "Strafen" list (1), the sheet's dedicated penalty table, which is also consistent with its
    1-card misplay penalty.
    """
    return RuleOptions(
        preset="de",
        sheet="002_b6167d2e732525d9.txt",
        uno_penalty=1,
        misplay_penalty=1,
        reverse_start="dealer",
    )


def lb() -> RuleOptions:
    """Luxembourgish edition: 003_697eb92a66101dde.txt.

    The ``lb`` deck (orange, green, violet, yellow; 4 Joker, 4 Super Joker = +4, 3 blank cards).
    7 cards ("et kënnen der awer och méi oder manner verdeelt ginn": ``hand_size``), 500 points,
    winner takes. Missed UNO 2 cards. Challenge: honest -> the challenger takes 6 instead of 4; liar
    -> he takes the 4 himself.

    Choices: the blank custom card carries a rule the table writes on it; the referee treats it as a
    wild (its player names a colour, 50 points), which is what the sheet says of a blank start card
    ("wielt eng Startfaarf"). The sheet gives no misplay penalty: 2, as in the published rules. It
    says nothing of a reverse start card: the dealer starts, as in the published rules.
    """
    return RuleOptions(preset="lb", sheet="003_697eb92a66101dde.txt", deck="lb")


def breuken() -> RuleOptions:
    """ "UNO met breuken", the fractions deck: 001_f43d10cde2cbdaf2.txt.

    Equivalent fractions match (1/2 on 2/4). Reverse start card: "de eerste speler is dan diegene
    die rechts van de gever zit". Missed UNO 2 cards, before the next player is at turn. Challenge:
    guilty -> take the +4 back, play the right colour card, draw 4 (``challenge_takeback``,
    ``challenge_guilty_replays``); innocent -> the challenger draws 6 in all and skips. Variants:
    2 players (reverse and skip: play again), teams (``teams``), "Afval UNO" (``scoring=elimination``).

    Choices: the score table says "Alle kaarten van 0 tot 9: 10 punten" while the deck's number
    cards are fractions, so a fraction card counts 10 (``fraction_points``). The deck counts follow
    the itemised list (208 cards), see ``referee.cards.FRACTIONS``. No misplay penalty is given: 2.
    """
    return RuleOptions(
        preset="breuken",
        sheet="001_f43d10cde2cbdaf2.txt",
        deck="breuken",
        reverse_start="right_of_dealer",
        challenge_takeback=True,
        challenge_guilty_replays=True,
        fraction_points=10,
    )


def house() -> RuleOptions:
    """The optional rules collection of 004_5ec70557fe9b417d.txt on top of ``official``.

    "UNO Stacked": +2 on +2 and +4 on +4, summed (``stack_draw2``, ``stack_draw4``); the basic-rules
    passage "escape a +4 only with a +2 of the new ordered color" (``stack_mixed``); "Interception of
    the move" (``jump_in``: an identical card, not a +4, not on the start card); seven-zero
    (``seven_zero``); the "Reverse" rule that sends a +2/+4 back (``reverse_deflects_draw``).
    The deck holds the blank cards the compendium mentions ("white blank cards ... to introduce
    additional rules"): ``classic_blanks``, each treated as a wild.

    Choice: draw-until-playable is not in the sheet, so it stays off (``draw_until_playable``).
    Choice: "UNO Stacked" says a misplaced +4 that is caught follows "the normal rules" with "the
    amount of the penalty increases depending on the number of cards used": a +4 stacked on a +4 is
    challenged like any +4, checked against the colour current before the stack's first +4, and
    caught it costs ``challenge_guilty_penalty`` plus the cards stacked before it (8 for two +4s); a
    failed challenge costs the stack's total plus ``challenge_failed_penalty``. A +4 stacked on a +2
    (``stack_mixed``) is not judged.
    """
    return dataclasses.replace(
        official(),
        preset="house",
        deck="classic_blanks",
        stack_draw2=True,
        stack_draw4=True,
        stack_mixed=True,
        jump_in=True,
        seven_zero=True,
        reverse_deflects_draw=True,
    )


_PRESET_FUNCTIONS: tuple[Callable[[], RuleOptions], ...] = (official, nl, de, lb, breuken, house)

#: Preset name -> its rule options.
PRESETS: dict[str, RuleOptions] = {f.__name__: f() for f in _PRESET_FUNCTIONS}

#: Preset name -> the rule sheet file it follows.
PRESET_SHEETS: dict[str, str] = {name: opts.sheet for name, opts in PRESETS.items()}


def find_preset(name: str | None) -> RuleOptions:
    """Preset by name (``None``: ``official``); ObservationError naming the known ones."""
    key = "official" if name is None else name.strip().lower()
    try:
        return PRESETS[key]
    except KeyError:
        raise ObservationError(f"unknown rule preset {name!r} (known: {', '.join(PRESETS)})") from None
