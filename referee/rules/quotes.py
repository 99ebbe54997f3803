"""The rule sheets' own words for each alert: what an alert cites (docs/contract.md, contracts 3 and 4).

Every preset follows one rule sheet (``RuleOptions.sheet``); an alert names the rule it broke by
quoting that sheet, in the sheet's language, with an English rendering beside it for the Dutch,
German and Luxembourgish sheets. The quotes are copied verbatim from the sheets in
``../shared/rule-sheets/``; the only liberty taken is the print's layout: a line break is a space and
a word hyphenated across a line break is joined (003 is printed in narrow columns). Two passages of
one sheet are joined with :data:`JOIN`. Where a sheet says nothing that fits (002 never counts the
deck's cards) there is no quote and the alert cites the sheet alone.

Pure data and lookups, no I/O (the referee core imports it)::

    >>> citation("000_6215b461eaecddde.txt", "missed_uno")["quote"][:38]
    'Wanneer een speler vergeet UNO te roep'
"""

from __future__ import annotations

from referee.contract import ALERT_CODES, Citation

__all__ = ["ALERT_CODES", "JOIN", "QUOTES", "SHEET_LANGUAGES", "citation"]

#: Between two passages of one sheet quoted together.
JOIN = " … "

#: Rule sheet file -> its language (the dashboard's language codes).
SHEET_LANGUAGES: dict[str, str] = {
    "000_6215b461eaecddde.txt": "nl",
    "001_f43d10cde2cbdaf2.txt": "nl",
    "002_b6167d2e732525d9.txt": "de",
    "003_697eb92a66101dde.txt": "lb",
    "004_5ec70557fe9b417d.txt": "en",
}

_NL_MISPLAY = (
    "Wanneer een speler een verkeerde kaart speelt en een andere speler heeft dit door moet deze twee kaarten "
    "van de stok pakken.",
    "When a player plays a wrong card and another player notices, that player must take two cards from the "
    "stock.",
)
_NL_DRAW2 = (
    "Als de neem-twee kaart wordt gespeeld moet de volgende speler twee kaarten van de stok pakken én een beurt "
    "overslaan.",
    "When the draw-two card is played, the next player must take two cards from the stock and skip a turn.",
)
_BREUKEN_DRAW2 = (
    "Wanneer deze kaart wordt gespeeld moet de volgende speler 2 kaarten van de stok nemen en mag hij geen kaart "
    "uitspelen.",
    "When this card is played, the next player must take 2 cards from the stock and may not play a card.",
)
_DE_MISPLAY = (
    "Wer eine Karte legt, obwohl er nicht dran ist, oder eine falsche Karte gelegt hat, muss diese wieder "
    "aufnehmen und erhält zusätzlich eine Strafkarte.",
    "Whoever lays a card when it is not their turn, or has laid a wrong card, must take it back and gets one "
    "penalty card as well.",
)
_DE_DRAW2 = (
    "Wenn diese Karte gelegt wird, muss der nächste Spieler 2 Karten ziehen und darf in dieser Runde keine "
    "Karten ablegen.",
    "When this card is laid, the next player must draw 2 cards and may not lay any card this round.",
)
_LB_DRAW2 = (
    "Wann e Spiller dës Kaart wielt, muss de nächste Spiller 2 Kaarten zéien a säin Tour passen.",
    "When a player chooses this card, the next player must draw 2 cards and pass their turn.",
)
_EN_DRAW2 = ("The next player takes two cards from the deck (into the dark one) and skips his turn.", "")

#: Sheet -> alert code -> (quote in the sheet's language, English rendering; "" for an English sheet).
QUOTES: dict[str, dict[str, tuple[str, str]]] = {
    "000_6215b461eaecddde.txt": {
        "illegal_card": _NL_MISPLAY,
        "out_of_turn": (
            "De beurt gaat verder met de volgende speler" + JOIN + _NL_MISPLAY[0],
            "The turn passes to the next player" + JOIN + _NL_MISPLAY[1],
        ),
        "skipped_turn_played": (
            "Als de sla-beurt-over kaart wordt neergelegd, wordt de speler die aan de beurt zou zijn overgeslagen."
            + JOIN + _NL_DRAW2[0],
            "When the skip card is laid down, the player whose turn it would be is skipped." + JOIN + _NL_DRAW2[1],
        ),
        "missed_draw_penalty": _NL_DRAW2,
        "missed_uno": (
            "Wanneer een speler vergeet UNO te roepen bij zijn/haar laatste kaart moet de speler twee kaarten van "
            "de stok pakken.",
            "When a player forgets to call UNO at his/her last card, the player must take two cards from the "
            "stock.",
        ),
        "illegal_wild_draw_four": (
            "Deze kaart mag echter alleen gespeeld worden als een speler geen kleur in zijn hand heeft die op de "
            "open stapel ligt." + JOIN + "Indien de kaart onterecht gespeeld is moet de speler die de kaart heeft "
            "gespeeld zelf 4 kaarten pakken van de stok.",
            "This card may only be played when a player has no card in hand of the colour on the open pile."
            + JOIN + "If the card was played wrongly, the player who played it must take 4 cards from the stock "
            "themselves.",
        ),
        "failed_challenge": (
            "Als de kaart terecht is gespeeld, moet de speler boven zijn 4 kaarten nog 2 kaarten van de stok "
            "pakken.",
            "If the card was played rightly, the player must take 2 more cards from the stock on top of the 4.",
        ),
        "impossible_card": ("Het spel UNO bevat 108 kaarten.", "The game of UNO holds 108 cards."),
    },
    "001_f43d10cde2cbdaf2.txt": {
        "illegal_card": (
            "Voorbeeld: als de opgelegde kaart een rode 1/2 is, kan hij eender welke rode kaart of eender welke "
            "kaart met 1/2 erop spelen, ook mag hij kaart met een gelijkwaardige breuk spelen, bvb. 2/4 of 4/8.",
            "Example: if the card turned up is a red 1/2, he may play any red card or any card showing 1/2, and he "
            "may also play a card with an equivalent fraction, e.g. 2/4 or 4/8.",
        ),
        "out_of_turn": (
            "De speler links van de gever begint het spel.",
            "The player left of the dealer starts the game.",
        ),
        "skipped_turn_played": _BREUKEN_DRAW2,
        "missed_draw_penalty": _BREUKEN_DRAW2,
        "missed_uno": (
            "Als hij vergeet te roepen en één van zijn tegenspelers merkt dat op, dan moet hij twee strafkaarten "
            "nemen van de stock.",
            "If he forgets to call and one of his opponents notices, he must take two penalty cards from the "
            "stock.",
        ),
        "illegal_wild_draw_four": (
            'Wanneer blijkt dat de uitspeler wel in het bezit is van een speelbare kaart, wordt hij gestraft en '
            'moet hij de "+ 4" kaart terugnemen, de juiste kleurkaart uitspelen en 4 kaarten als straf van de '
            "stock nemen.",
            'When it turns out that the player did hold a playable card, he is penalised: he must take the "+ 4" '
            "card back, play the right colour card and take 4 cards from the stock as a penalty.",
        ),
        "failed_challenge": (
            "Wanneer daarentegen blijkt dat de uitspeler toch geen speelbare kaart heeft, moet de 'achterdochtige' "
            "speler 2 extra strafkaarten (6 in totaal) nemen en zijn beurt overslaan.",
            "When, on the other hand, it turns out that the player had no playable card after all, the "
            "'suspicious' player must take 2 extra penalty cards (6 in all) and skip his turn.",
        ),
        "impossible_card": ("196 kaarten als volgt verdeeld:", "196 cards, divided as follows:"),
    },
    "002_b6167d2e732525d9.txt": {
        "illegal_card": (
            "Eine Karte kann nur auf eine Karte der gleichen Farbe oder der gleichen Zahl gelegt werden."
            + JOIN + _DE_MISPLAY[0],
            "A card can only be laid on a card of the same colour or the same number." + JOIN + _DE_MISPLAY[1],
        ),
        "out_of_turn": _DE_MISPLAY,
        "skipped_turn_played": (
            "Nachdem diese Karte gelegt wurde, wird der nächste Spieler „übersprungen“." + JOIN + _DE_DRAW2[0],
            "After this card has been laid, the next player is “skipped”." + JOIN + _DE_DRAW2[1],
        ),
        "missed_draw_penalty": _DE_DRAW2,
        "missed_uno": (
            "Vergisst ein Spieler nach dem legen seiner vorletzten Karte UNO! zu rufen und hat der nächste Spieler "
            "seine Karte noch nicht ausgespielt, so muss er eine Strafkarte ziehen.",
            "If a player forgets to call UNO! after laying his second-to-last card and the next player has not yet "
            "played his card, he must draw one penalty card.",
        ),
        "illegal_wild_draw_four": (
            "Wurde er hingegen überführt, die +4 unrechtmäßig ausgespielt zu haben, so muss er selbst die 4 Karten "
            "ziehen.",
            "If, however, he is shown to have played the +4 unlawfully, he must draw the 4 cards himself.",
        ),
        "failed_challenge": (
            "Kann er dies bestätigen, so muss der herausfordernde Spieler statt 4 nun 6 Karten aufnehmen.",
            "If he can confirm this, the challenging player must now take 6 cards instead of 4.",
        ),
    },
    "003_697eb92a66101dde.txt": {
        "illegal_card": (
            "Hien deckt déi siichtbar Kaart vum Koup mat enger Kaart vun der selwechter Faarf. Oder hie wielt eng "
            "Kaart mat der selwechter Zuel oder dem selwechte Symbol.",
            "He covers the visible card of the pile with a card of the same colour. Or he chooses a card with the "
            "same number or the same symbol.",
        ),
        "out_of_turn": (
            "De lénke Spiller vun der Persoun déi d’Kaarten ausdeelt fänkt un. Den Tour vum Spill dréit ewéi "
            "d’Auer.",
            "The player left of the person who deals the cards begins. Play goes round clockwise.",
        ),
        "skipped_turn_played": (
            "Mat dëser Kaart muss de Spiller säin Tour passen." + JOIN + _LB_DRAW2[0],
            "With this card the player must pass their turn." + JOIN + _LB_DRAW2[1],
        ),
        "missed_draw_penalty": _LB_DRAW2,
        "missed_uno": (
            "Wann e Spiller seng virlescht Kaart placéiere kann, muss hien «UNO» ruffen. Wann hien dat net mécht, "
            "an en anere Spiller dat bemierkt, muss hien 2 Kaarte vum Koup huelen.",
            "When a player can lay his second-to-last card, he must call «UNO». If he does not, and another player "
            "notices, he must take 2 cards from the pile.",
        ),
        "illegal_wild_draw_four": (
            "OPGEPASST! D’Kaart +4 kann nëmme benotzt ginn, wann de Spiller net déi néideg Faarf huet." + JOIN
            + "Ass hien e Ligener, da gëtt hie bestrooft a selwer kritt 4 Kaarte vum Koup.",
            "CAREFUL! The +4 card may only be used when the player does not have the colour needed." + JOIN
            + "If he is a liar, he is punished and gets 4 cards from the pile himself.",
        ),
        "failed_challenge": (
            "Entweder de Spiller mat der Kaart +4 ass éierlech, da kritt de Spiller 6 Kaarten amplaz 4 Kaarte vum "
            "Koup.",
            "Either the player with the +4 card is honest, then the player gets 6 cards instead of 4 from the "
            "pile.",
        ),
        "impossible_card": (
            "19: eng eenzeg Null an zwou Kaarte vun all Ziffer",
            "19: a single zero and two cards of each digit",
        ),
    },
    "004_5ec70557fe9b417d.txt": {
        "illegal_card": (
            "If a player put a card on the playing deck that does not fit, that is, cheated, and this was noticed, "
            "then such a player takes two cards from the playing deck.",
            "",
        ),
        "out_of_turn": (
            "Each player, on his turn, must put one card on the playing deck, but only if his card matches the top "
            "card of the deck in color or number.",
            "",
        ),
        "skipped_turn_played": ("The next player skips his turn." + JOIN + _EN_DRAW2[0], ""),
        "missed_draw_penalty": _EN_DRAW2,
        "missed_uno": (
            "If any player, after putting his penultimate card on the playing deck, and until the time when the "
            "next player came around, does not say “Uno!”, Then he takes two more cards from the deck.",
            "",
        ),
        "illegal_wild_draw_four": (
            "It is possible to use a “take four” card only if the player does not have a card of a suitable color "
            "to put it on the game deck." + JOIN + "If he is guilty, then he is supposed to draw 4 pieces from "
            "the pile",
            "",
        ),
        "failed_challenge": (
            "If the suspicions were in vain, player 2 takes four cards from the deck, as well as two more cards "
            "for distrust and skips the move.",
            "",
        ),
        "impossible_card": ("The game uses 108 cards:", ""),
    },
}


def citation(sheet: str, code: str) -> Citation:
    """What an alert of ``code`` cites under ``sheet``: ``sheet`` and ``lang`` always; ``quote`` (the
    sheet's words) and ``quote_en`` (English: the quote itself for an English sheet) where the sheet
    says something that fits. An unknown sheet cites itself alone."""
    out: Citation = {"sheet": sheet, "lang": SHEET_LANGUAGES.get(sheet, "en")}
    found = QUOTES.get(sheet, {}).get(code)
    if found is not None:
        quote, english = found
        out["quote"] = quote
        out["quote_en"] = english or quote
    return out
