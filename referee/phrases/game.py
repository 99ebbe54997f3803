"""What the dashboard's script writes as the game goes: the setup's current rules and name fields, what a
control just did (``{who} plays {card}``), a correction or an undo answered, the turn and the direction, what is
owed, each seat's cards, points and dealer, the match's line."""

from __future__ import annotations

__all__ = ["PHRASES"]

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
    "current_rules": ("(current)", "(huidige)", "(aktuell)", "(aktuell)"),
    "name_placeholder": ("{player}: name", "{player}: naam", "{player}: Name", "{player}: Numm"),
    "names_colour": ("{who} names {colour}", "{who} kiest {colour}", "{who} wählt {colour}", "{who} wielt {colour}"),
    "calls_uno": ("{who} calls UNO", "{who} roept UNO", "{who} ruft UNO", "{who} rifft UNO"),
    "draws": ("{who} draws {n}", "{who} pakt {n}", "{who} zieht {n}", "{who} zitt {n}"),
    "passes": ("{who} passes", "{who} past", "{who} passt", "{who} passt"),
    "challenges": ("{who} challenges", "{who} betwijfelt", "{who} zweifelt an", "{who} zweiwelt"),
    "plays": ("{who} plays {card}", "{who} speelt {card}", "{who} legt {card}", "{who} spillt {card}"),
    "type_right_card": (
        "Type the right card, then press m again.",
        "Typ de juiste kaart en druk nog eens op m.",
        "Tippe die richtige Karte, dann noch einmal m.",
        "Tippt déi richteg Kaart, dann nach eng Kéier m.",
    ),
    "corrected": (
        "Last play corrected to {card} ✓",
        "Laatste zet verbeterd naar {card} ✓",
        "Letzter Zug korrigiert auf {card} ✓",
        "Leschten Zuch op {card} korrigéiert ✓",
    ),
    "correct_failed": ("Correct", "Verbeteren", "Korrigieren", "Korrigéieren"),
    "shows": ("{who} shows {n} cards", "{who} toont {n} kaarten", "{who} zeigt {n} Karten", "{who} weist {n} Kaarten"),
    "undone": (
        "Last observation undone ✓",
        "Laatste waarneming ongedaan gemaakt ✓",
        "Letzte Beobachtung rückgängig gemacht ✓",
        "Lescht Observatioun réckgängeg gemaach ✓",
    ),
    "undo_failed": ("Undo", "Ongedaan maken", "Rückgängig", "Réckgängeg"),
    "turn_suffix": ("(turn)", "(beurt)", "(am Zug)", "(um Tour)"),
    "clockwise": ("↻ clockwise", "↻ met de klok mee", "↻ im Uhrzeigersinn", "↻ ewéi d’Auer"),
    "counter_clockwise": ("↺ counter-clockwise", "↺ tegen de klok in", "↺ gegen den Uhrzeigersinn", "↺ géint d’Auer"),
    "to_take": ("{n} cards to take", "{n} kaarten te pakken", "{n} Karten zu ziehen", "{n} Kaarten ze zéien"),
    "skip": ("skip", "overslaan", "aussetzen", "passen"),
    "round_over": ("round over", "ronde voorbij", "Runde vorbei", "Ronn eriwwer"),
    "match_over": (
        "match over: {who} wins",
        "partij voorbij: {who} wint",
        "Spiel vorbei: {who} gewinnt",
        "Spill eriwwer: {who} gewënnt",
    ),
    "cards_unknown": ("? cards", "? kaarten", "? Karten", "? Kaarten"),
    "card_one": ("1 card", "1 kaart", "1 Karte", "1 Kaart"),
    "cards_many": ("{n} cards", "{n} kaarten", "{n} Karten", "{n} Kaarten"),
    "pts": ("{n} pts", "{n} ptn", "{n} Pkt.", "{n} Pkt."),
    "dealer": ("dealer", "deler", "Geber", "Deeler"),
    "key_n": ("key {n}", "toets {n}", "Taste {n}", "Tast {n}"),
    "match_info": ("Match {id}", "Partij {id}", "Spiel {id}", "Spill {id}"),
    "round_n": ("round {n}", "ronde {n}", "Runde {n}", "Ronn {n}"),
}
