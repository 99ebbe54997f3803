"""Cards, players and alerts in words people read, in the rule sheets' four languages.

The dashboard, the overlay and the command line speak to people: "Red 2", not ``red_2``; "Player 3",
not seat 2; "draws 2 cards", not "+2". This module is the one source of those words (the browser gets
them from :func:`catalog`, served at ``/api/words``), in English, Dutch, German and Luxembourgish, the
languages of the rule sheets. Templates use ``{player}``, ``{card}`` and ``{n}``, filled the same way by
Python (``str.format``) and by the pages. Pure: no I/O, so the referee core may use it.

>>> card_words("wild_draw4"), card_words("blue_1/2"), card_words("orange_skip", "de")
('Wild Draw Four', 'Blue 1/2', 'Orange Aussetzen')
>>> penalty_words(2), penalty_words(1, "nl")
('draws 2 cards', 'pakt 1 kaart')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.cards import DECKS, Card, CardError
from referee.phrases import SENTENCES, phrases

__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "alert_sentence",
    "alert_title",
    "card_words",
    "catalog",
    "colour_words",
    "find_language",
    "penalty_words",
    "player_words",
]

#: The languages people are spoken to in (the rule sheets' languages), English first (the default).
LANGUAGES: tuple[str, ...] = ("en", "nl", "de", "lb")

#: Each language in its own words (the language picker).
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "nl": "Nederlands", "de": "Deutsch", "lb": "Lëtzebuergesch"}

_COLOURS: dict[str, dict[str, str]] = {
    "en": {"red": "Red", "green": "Green", "blue": "Blue", "yellow": "Yellow", "orange": "Orange",
           "violet": "Violet"},
    "nl": {"red": "Rood", "green": "Groen", "blue": "Blauw", "yellow": "Geel", "orange": "Oranje",
           "violet": "Paars"},
    "de": {"red": "Rot", "green": "Grün", "blue": "Blau", "yellow": "Gelb", "orange": "Orange",
           "violet": "Violett"},
    "lb": {"red": "Rout", "green": "Gréng", "blue": "Blo", "yellow": "Giel", "orange": "Orange",
           "violet": "Violett"},
}

# Faces other than numbers and fractions, named as each language's sheet names them.
_FACES: dict[str, dict[str, str]] = {
    "en": {"skip": "Skip", "reverse": "Reverse", "draw2": "Draw Two", "wild": "Wild",
           "wild_draw4": "Wild Draw Four", "blank": "Blank card", "back": "Face-down card"},
    "nl": {"skip": "Sla beurt over", "reverse": "Keer om", "draw2": "Neem twee", "wild": "Keuzekaart",
           "wild_draw4": "Neem-4 keuzekaart", "blank": "Blanco kaart", "back": "Dichte kaart"},
    "de": {"skip": "Aussetzen", "reverse": "Retour", "draw2": "Zieh Zwei", "wild": "Farbenwahlkarte",
           "wild_draw4": "Zieh Vier Farbenwahlkarte", "blank": "Blanko-Karte", "back": "Verdeckte Karte"},
    "lb": {"skip": "Den Tour passen", "reverse": "Richtung änneren", "draw2": "+2-Kaart", "wild": "Joker",
           "wild_draw4": "Super Joker (+4)", "blank": "Wäiss Kaart", "back": "Verdeckte Kaart"},
}

_PLAYER: dict[str, str] = {"en": "Player {n}", "nl": "Speler {n}", "de": "Spieler {n}", "lb": "Spiller {n}"}
_SOMEONE: dict[str, str] = {"en": "someone", "nl": "iemand", "de": "jemand", "lb": "een"}
_A_CARD: dict[str, str] = {"en": "a card", "nl": "een kaart", "de": "eine Karte", "lb": "eng Kaart"}

#: (none, one, many) cards to draw as a penalty.
_PENALTY: dict[str, tuple[str, str, str]] = {
    "en": ("no penalty cards", "draws 1 card", "draws {n} cards"),
    "nl": ("geen strafkaarten", "pakt 1 kaart", "pakt {n} kaarten"),
    "de": ("keine Strafkarten", "zieht 1 Karte", "zieht {n} Karten"),
    "lb": ("keng Strofkaarten", "zitt 1 Kaart", "zitt {n} Kaarten"),
}

#: Alert code -> (title, what happened as the rule it broke, in one sentence).
_ALERTS: dict[str, dict[str, tuple[str, str]]] = {
    "en": {
        "illegal_card": ("Illegal card", "{player} played {card}, which matches neither the colour nor the number "
                         "or symbol of the top card."),
        "out_of_turn": ("Out of turn", "{player} played {card} when it was not their turn."),
        "skipped_turn_played": ("Played while skipped", "{player} had to skip this turn (or take the penalty "
                                "cards) but played {card}."),
        "missed_draw_penalty": ("Penalty cards not taken", "{player} did not take the cards of {card} before "
                                "play went on."),
        "missed_uno": ("Missed UNO call", "{player} had one card left and did not call UNO before the next "
                       "player acted."),
        "illegal_wild_draw_four": ("Illegal Wild Draw Four", "{player} played {card} while holding a card of the "
                                   "colour in play."),
        "failed_challenge": ("Failed challenge", "{player} challenged a Wild Draw Four that was played "
                             "legally."),
        "impossible_card": ("Impossible card", "{card} from {player} was seen more often than the "
                            "deck holds it (a misread or a card from another deck)."),
    },
    "nl": {
        "illegal_card": ("Verkeerde kaart", "{player} speelde {card}, die in kleur, cijfer en symbool niet past "
                         "op de bovenste kaart."),
        "out_of_turn": ("Niet aan de beurt", "{player} speelde {card} zonder aan de beurt te zijn."),
        "skipped_turn_played": ("Gespeeld tijdens overgeslagen beurt", "{player} moest deze beurt overslaan (of "
                                "de strafkaarten pakken) maar speelde {card}."),
        "missed_draw_penalty": ("Strafkaarten niet gepakt", "{player} pakte de kaarten van {card} niet voordat "
                                "het spel verderging."),
        "missed_uno": ("UNO niet geroepen", "{player} had nog één kaart en riep geen UNO voordat de volgende "
                       "speler aan zet was."),
        "illegal_wild_draw_four": ("Onterechte neem-4", "{player} speelde {card} terwijl er nog een kaart van de "
                                   "gevraagde kleur in de hand zat."),
        "failed_challenge": ("Onterechte twijfel", "{player} twijfelde aan een neem-4 kaart die terecht "
                             "gespeeld was."),
        "impossible_card": ("Onmogelijke kaart", "{card} van {player} is vaker gezien dan het spel "
                            "die kaart bevat (verkeerd gelezen of een vreemde kaart)."),
    },
    "de": {
        "illegal_card": ("Falsche Karte", "{player} hat {card} gelegt, die weder in Farbe noch in Zahl oder "
                         "Symbol zur obersten Karte passt."),
        "out_of_turn": ("Nicht an der Reihe", "{player} war nicht an der Reihe, hat aber {card} gelegt."),
        "skipped_turn_played": ("Trotz Aussetzen gelegt", "{player} musste aussetzen (oder die Strafkarten "
                                "ziehen), hat aber {card} gelegt."),
        "missed_draw_penalty": ("Strafkarten nicht gezogen", "{player} hat die Karten von {card} nicht gezogen, "
                                "bevor weitergespielt wurde."),
        "missed_uno": ("UNO nicht gerufen", "{player} hatte nur noch eine Karte und hat nicht UNO gerufen, bevor "
                       "der nächste Spieler dran war."),
        "illegal_wild_draw_four": ("Unerlaubte Zieh Vier", "{player} hatte noch eine Karte der aktuellen Farbe, "
                                   "hat aber {card} gelegt."),
        "failed_challenge": ("Herausforderung verloren", "{player} hat eine Zieh Vier angezweifelt, die erlaubt "
                             "gelegt wurde."),
        "impossible_card": ("Unmögliche Karte", "{card} von {player} wurde öfter gesehen, als das "
                            "Spiel sie enthält (falsch gelesen oder eine fremde Karte)."),
    },
    "lb": {
        "illegal_card": ("Falsch Kaart", "{player} huet {card} geluecht, déi weder an der Faarf nach an der Zuel "
                         "oder am Symbol op déi iewescht Kaart passt."),
        "out_of_turn": ("Net um Tour", "{player} war net um Tour, huet awer {card} geluecht."),
        "skipped_turn_played": ("Gespillt amplaz ze passen", "{player} hätt säin Tour missen passen (oder "
                                "d’Strofkaarten huelen), huet awer {card} geluecht."),
        "missed_draw_penalty": ("Strofkaarten net geholl", "{player} huet d’Kaarte vun {card} net geholl, ier "
                                "weidergespillt gouf."),
        "missed_uno": ("UNO net geruff", "{player} hat nach eng Kaart an huet net «UNO» geruff, ier den nächste "
                       "Spiller drun war."),
        "illegal_wild_draw_four": ("Falsch Super Joker", "{player} hat nach eng Kaart vun der aktueller Faarf, "
                                   "huet awer {card} geluecht."),
        "failed_challenge": ("Ze Onrecht gezweiwelt", "{player} huet un enger Kaart +4 gezweiwelt, déi richteg "
                             "gespillt gouf."),
        "impossible_card": ("Onméiglech Kaart", "{card} vun {player} gouf méi dacks gesi wéi "
                            "d’Spill se huet (falsch gelies oder eng friem Kaart)."),
    },
}


def find_language(lang: str | None) -> str:
    """``lang`` if it is one of :data:`LANGUAGES` (``"de-AT"`` counts as ``de``), else English."""
    key = (lang or "").strip().lower()[:2]
    return key if key in LANGUAGES else "en"


def card_words(label: str, lang: str = "en") -> str:
    """A contract-1 label in words: ``red_2`` -> "Red 2", ``blue_1/2`` -> "Blue 1/2"; a label that is no
    card comes back as it is (words never fail)."""
    lang = find_language(lang)
    try:
        card = Card.from_label(label)
    except CardError:
        return str(label)
    faces = _FACES[lang]
    if card.colour is None:
        return faces[card.value]
    face = faces.get(card.value, card.value)  # numbers and fractions are read the same everywhere
    return f"{_COLOURS[lang][card.colour.value]} {face}"


def colour_words(colour: str, lang: str = "en") -> str:
    """A colour as the language names it (``"green"`` -> "Groen"); an unknown one as it is."""
    return _COLOURS[find_language(lang)].get(colour, colour)


def player_words(seat: int | None, lang: str = "en", names: Sequence[str] | None = None) -> str:
    """What people call a seat: its name, else "Player N" with N 1-based (JSON keeps seats 0..N-1)."""
    lang = find_language(lang)
    if seat is None:
        return _SOMEONE[lang]
    if names and 0 <= seat < len(names) and names[seat] and names[seat] != _PLAYER["en"].format(n=seat + 1):
        return str(names[seat])
    return _PLAYER[lang].format(n=seat + 1)


def penalty_words(cards: int, lang: str = "en") -> str:
    """The penalty as people say it: "draws 2 cards", never a bare "+2"."""
    none, one, many = _PENALTY[find_language(lang)]
    return none if cards <= 0 else one if cards == 1 else many.format(n=cards)


def alert_title(code: str, lang: str = "en") -> str:
    """An alert code as a short heading ("Missed UNO call")."""
    found = _ALERTS[find_language(lang)].get(code)
    return found[0] if found else code.replace("_", " ")


def alert_sentence(alert: Mapping[str, Any], lang: str = "en", names: Sequence[str] | None = None) -> str:
    """The rule an alert line (contract 3) says was broken, in one sentence naming the player and the
    card ("Ann played Red 2, which matches neither ..."); the line's own ``message`` for an unknown code."""
    lang = find_language(lang)
    found = _ALERTS[lang].get(str(alert.get("code")))
    if found is None:
        return str(alert.get("message", ""))
    seat = alert.get("seat")
    card = alert.get("card")
    return found[1].format(
        player=player_words(seat if isinstance(seat, int) else None, lang, names),
        card=card_words(card, lang) if isinstance(card, str) else _A_CARD[lang],
    )


def _all_labels() -> list[str]:
    labels = {label for deck in DECKS.values() for label in deck.labels()}
    return sorted(labels | {"back"})


def catalog(lang: str = "en") -> dict[str, Any]:
    """Everything the pages need to say cards, players, penalties and alerts in ``lang`` (JSON-able):
    the same words and templates as this module's functions, so the browser and Python agree."""
    lang = find_language(lang)
    none, one, many = _PENALTY[lang]
    english, words = phrases("en"), phrases(lang)
    return {
        "lang": lang,
        "languages": dict(LANGUAGE_NAMES),
        "colours": dict(_COLOURS[lang]),
        "cards": {label: card_words(label, lang) for label in _all_labels()},
        "player": _PLAYER[lang],
        "someone": _SOMEONE[lang],
        "a_card": _A_CARD[lang],
        "penalty": {"none": none, "one": one, "many": many},
        "alerts": {code: {"title": title, "sentence": sentence} for code, (title, sentence) in _ALERTS[lang].items()},
        # Every other word the pages show (referee/phrases/), and what the pages need to say the referee's
        # own English lines in ``lang``: those lines' patterns, and the English card words they name cards by.
        "strings": phrases(lang),
        "sentences": {key: {"en": english[key], "text": words[key]} for key in SENTENCES},
        "english_cards": {card_words(label): label for label in _all_labels()},
    }
