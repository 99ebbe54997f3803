"""The dashboard's live view and its controls: the table's state, the control buttons and fields, the keyboard
help (``?``)."""

from __future__ import annotations

__all__ = ["PHRASES"]

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
    "live_view": ("Live view", "Live beeld", "Live-Bild", "Live-Bild"),
    "live_alt": (
        "live camera view of the discard pile",
        "live camerabeeld van de aflegstapel",
        "Live-Kamerabild des Ablegestapels",
        "Live-Kamerabild vum Koup",
    ),
    "top_card": ("top card", "bovenste kaart", "oberste Karte", "iewescht Kaart"),
    "colour": ("Colour", "Kleur", "Farbe", "Faarf"),
    "direction": ("Direction", "Richting", "Richtung", "Richtung"),
    "pending": ("Pending", "Openstaand", "Offen", "Op"),
    "seats": ("players", "spelers", "Spieler", "Spiller"),
    "alerts": ("Alerts", "Meldingen", "Meldungen", "Meldungen"),
    "no_alerts": (
        "No alerts yet: every play so far is fine.",
        "Nog geen meldingen: elke zet was tot nu toe in orde.",
        "Noch keine Meldungen: bisher war jeder Zug in Ordnung.",
        "Nach keng Meldungen: bis elo war all Zuch an der Rei.",
    ),
    "controls": ("Controls", "Bediening", "Steuerung", "Steierung"),
    "shortcuts_title": ("keyboard shortcuts (?)", "sneltoetsen (?)", "Tastenkürzel (?)", "Tastekierzel (?)"),
    "acting": ("Acting for", "Namens", "Handelt für", "Handelt fir"),
    "acting_keys": (
        "(keys [1]–[9] pick a player, [0] follows the turn)",
        "(toetsen [1]–[9] kiezen een speler, [0] volgt de beurt)",
        "(Tasten [1]–[9] wählen einen Spieler, [0] folgt dem Zug)",
        "(Tasten [1]–[9] wielen e Spiller, [0] follegt dem Tour)",
    ),
    "wild_colour": ("Wild colour", "Kleur van de keuzekaart", "Farbe der Farbenwahlkarte", "Faarf vum Joker"),
    "btn_uno": ("UNO! [u]", "UNO! [u]", "UNO! [u]", "UNO! [u]"),
    "draw_count": ("Draw", "Aantal", "Anzahl", "Zuel"),
    "btn_draw": ("Draw [d]", "Pakken [d]", "Ziehen [d]", "Zéien [d]"),
    "btn_pass": ("Pass [p]", "Passen [p]", "Passen [p]", "Passen [p]"),
    "btn_challenge": (
        "Challenge Wild Draw Four [c]",
        "Neem-4 betwijfelen [c]",
        "Zieh Vier anzweifeln [c]",
        "Un der +4 zweiwelen [c]",
    ),
    "card_field": ("Card", "Kaart", "Karte", "Kaart"),
    "card_placeholder": (
        "e.g. red_7, wild_draw4",
        "bv. red_7, wild_draw4",
        "z. B. red_7, wild_draw4",
        "z. B. red_7, wild_draw4",
    ),
    "btn_play": ("Play [k]", "Spelen [k]", "Legen [k]", "Spillen [k]"),
    "btn_correct": ("Correct misread [m]", "Verkeerd gelezen [m]", "Falsch gelesen [m]", "Falsch gelies [m]"),
    "correct_title": (
        "replace the card of the last play",
        "vervang de kaart van de laatste zet",
        "die Karte des letzten Zugs ersetzen",
        "d’Kaart vum leschten Zuch ersetzen",
    ),
    "hand_field": ("Hand", "Hand", "Hand", "Hand"),
    "hand_placeholder": ("e.g. blue_3 wild", "bv. blue_3 wild", "z. B. blue_3 wild", "z. B. blue_3 wild"),
    "btn_reveal": ("Reveal [h]", "Tonen [h]", "Zeigen [h]", "Weisen [h]"),
    "btn_undo": ("Undo last [z]", "Laatste ongedaan maken [z]", "Letztes rückgängig [z]", "Lescht réckgängeg [z]"),
    "help_title": ("Keyboard shortcuts", "Sneltoetsen", "Tastenkürzel", "Tastekierzel"),
    "help_seat": (
        "act for that player / follow the turn",
        "namens die speler handelen / de beurt volgen",
        "für diesen Spieler handeln / dem Zug folgen",
        "fir dee Spiller handelen / dem Tour nogoen",
    ),
    "help_colour": (
        "name the wild's colour",
        "de kleur van de keuzekaart noemen",
        "die Farbe der Farbenwahlkarte nennen",
        "d’Faarf vum Joker nennen",
    ),
    "help_uno": ("UNO call", "UNO roepen", "UNO rufen", "UNO ruffen"),
    "help_draw": (
        "draw the count shown",
        "het getoonde aantal pakken",
        "die angezeigte Anzahl ziehen",
        "déi gewisen Zuel zéien",
    ),
    "help_pass": ("pass", "passen", "passen", "passen"),
    "help_challenge": (
        "challenge a Wild Draw Four",
        "een neem-4 betwijfelen",
        "eine Zieh Vier anzweifeln",
        "un enger +4 zweiwelen",
    ),
    "help_play": (
        "type a card to play (Enter plays it)",
        "een kaart typen om te spelen (Enter speelt hem)",
        "eine Karte zum Legen tippen (Enter legt sie)",
        "eng Kaart tippe fir ze spillen (Enter spillt se)",
    ),
    "help_correct": (
        "correct the last play's card with the card typed",
        "de kaart van de laatste zet vervangen door de getypte kaart",
        "die Karte des letzten Zugs durch die getippte ersetzen",
        "d’Kaart vum leschten Zuch duerch déi getippten ersetzen",
    ),
    "help_reveal": (
        "type a hand to reveal (Enter reveals it)",
        "een hand typen om te tonen (Enter toont hem)",
        "eine Hand zum Zeigen tippen (Enter zeigt sie)",
        "eng Hand tippe fir se ze weisen (Enter weist se)",
    ),
    "help_undo": (
        "undo the last observation",
        "de laatste waarneming ongedaan maken",
        "die letzte Beobachtung rückgängig machen",
        "déi lescht Observatioun réckgängeg maachen",
    ),
    "help_esc": ("leave a text field", "een tekstveld verlaten", "ein Textfeld verlassen", "en Textfeld verloossen"),
}
