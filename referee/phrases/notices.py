"""The dashboard's notes: the status line's head, a hand proposed from a photo and the hands scored, the setup's
answers, an alert's rule sheet and log line; then the overlay's turn, what is owed and its last alerts (here
for the catalogue's order)."""

from __future__ import annotations

__all__ = ["PHRASES"]

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
    "pipeline": ("pipeline", "camera", "Kamera", "Kamera"),
    "no_camera": (
        "pipeline: no camera attached",
        "geen camera aangesloten",
        "keine Kamera angeschlossen",
        "keng Kamera ugeschloss",
    ),
    "may_be_wrong": ("(may be wrong)", "(misschien onjuist)", "(vielleicht falsch)", "(vläicht falsch)"),
    "reading_photo": (
        "{who}: reading the photo…",
        "{who}: de foto wordt gelezen…",
        "{who}: Foto wird gelesen…",
        "{who}: d’Foto gëtt gelies…",
    ),
    "proposed": (
        "{who}: {n} card(s) proposed from the photo",
        "{who}: {n} kaart(en) voorgesteld uit de foto",
        "{who}: {n} Karte(n) aus dem Foto vorgeschlagen",
        "{who}: {n} Kaart(en) vun der Foto proposéiert",
    ),
    "unsure_cards": ("(unsure: {cards})", "(onzeker: {cards})", "(unsicher: {cards})", "(onsécher: {cards})"),
    "check_then_score": (
        "Check them, then score the hands.",
        "Controleer ze en tel dan de handen.",
        "Prüfe sie, dann werte die Hände.",
        "Kuckt se no, dann zielt d’Hänn.",
    ),
    "photo_failed": ("{who} photo", "{who} foto", "{who} Foto", "{who} Foto"),
    "scored": (
        "Hands scored for {n} seat(s) ✓",
        "Handen geteld voor {n} speler(s) ✓",
        "Hände gewertet für {n} Spieler ✓",
        "Hänn gezielt fir {n} Spiller ✓",
    ),
    "type_hands_first": (
        "Type the cards left in each hand first.",
        "Typ eerst de overgebleven kaarten van elke hand.",
        "Tippe zuerst die übrigen Karten jeder Hand.",
        "Tippt als éischt déi iwwreg Kaarte vun all Hand.",
    ),
    "match_started": (
        "New match started ✓",
        "Nieuwe partij gestart ✓",
        "Neues Spiel gestartet ✓",
        "Neit Spill ugefaangen ✓",
    ),
    "round_started": (
        "Next round started ✓",
        "Volgende ronde gestart ✓",
        "Nächste Runde gestartet ✓",
        "Nächst Ronn ugefaangen ✓",
    ),
    "setup_failed": ("Setup", "Instellingen", "Einrichten", "Astellen"),
    "renamed": ("Players renamed ✓", "Namen gewijzigd ✓", "Spieler umbenannt ✓", "Spiller ëmbenannt ✓"),
    "rename_failed": ("Rename", "Namen wijzigen", "Umbenennen", "Ëmbenennen"),
    "log_failed": ("Log", "Log", "Protokoll", "Protokoll"),
    "rule_sheet": ("Rule sheet", "Spelregels", "Spielregeln", "Spillreegelen"),
    "in_english": ("In English", "In het Engels", "Auf Englisch", "Op Englesch"),
    "sheet_silent": (
        "The rule sheet says nothing about this.",
        "De spelregels zeggen hier niets over.",
        "Die Spielregeln sagen dazu nichts.",
        "D’Spillreegele soen näischt doriwwer.",
    ),
    "log_line": (
        "the referee's log line",
        "de logregel van de scheidsrechter",
        "die Protokollzeile des Schiedsrichters",
        "d’Protokollzeil vum Schiedsriichter",
    ),
    "turn": ("Turn:", "Beurt:", "Am Zug:", "Um Tour:"),
    "to_draw": ("{n} to draw", "{n} te pakken", "{n} zu ziehen", "{n} ze zéien"),
    "last_alerts": ("last alerts", "laatste meldingen", "letzte Meldungen", "lescht Meldungen"),
}
