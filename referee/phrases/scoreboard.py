"""The dashboard's score board (each round, the hands left, scored by hand or from a photo) and its game setup
(players, rules, target, a new match, the links to the log and to /teach)."""

from __future__ import annotations

__all__ = ["PHRASES"]

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
    "scoreboard": ("Score board", "Scorebord", "Punktestand", "Punktestand"),
    "score_round": ("Score the round", "De ronde tellen", "Die Runde werten", "D’Ronn zielen"),
    "score_help": (
        "Type each hand left at the end of the round, or propose it from a photo of the hand laid out on the table "
        "(check it before scoring); the referee adds them up.",
        "Typ elke hand die aan het eind van de ronde over is, of laat hem voorstellen uit een foto van de hand op "
        "tafel (controleer hem vóór het tellen); de scheidsrechter telt ze op.",
        "Tippe jede Hand, die am Ende der Runde übrig ist, oder lass sie aus einem Foto der auf den Tisch gelegten "
        "Hand vorschlagen (vor dem Werten prüfen); der Schiedsrichter zählt zusammen.",
        "Tippt all Hand, déi um Enn vun der Ronn iwwreg ass, oder loosst se vun enger Foto vun der Hand um Dësch "
        "proposéieren (kuckt se no, ier Dir zielt); de Schiedsriichter zielt se zesummen.",
    ),
    "round": ("Round", "Ronde", "Runde", "Ronn"),
    "winner": ("Winner", "Winnaar", "Gewinner", "Gewënner"),
    "points": ("Points", "Punten", "Punkte", "Punkten"),
    "match": ("Match", "Partij", "Spiel", "Spill"),
    "to_target": ("to {n}", "tot {n}", "bis {n}", "bis {n}"),
    "hands_missing": ("hands?", "handen?", "Hände?", "Hänn?"),
    "cards_left": ("cards left", "overgebleven kaarten", "übrige Karten", "iwwreg Kaarten"),
    "from_photo": ("From photo", "Uit foto", "Aus Foto", "Vun enger Foto"),
    "from_photo_title": (
        "propose this hand from a photo of it (check it, then score)",
        "stel deze hand voor uit een foto ervan (controleer, tel dan)",
        "diese Hand aus einem Foto vorschlagen (prüfen, dann werten)",
        "dës Hand vun enger Foto proposéieren (nokucken, dann zielen)",
    ),
    "score_hands": ("Score the hands", "Handen tellen", "Hände werten", "Hänn zielen"),
    "setup": ("Game setup", "Spelinstellingen", "Spiel einrichten", "Spill astellen"),
    "players": ("Players", "Spelers", "Spieler", "Spiller"),
    "dealer_field": ("Dealer", "Deler", "Geber", "Deeler"),
    "rules": ("Rules", "Regels", "Regeln", "Reegelen"),
    "language": ("Language", "Taal", "Sprache", "Sprooch"),
    "target": ("Target", "Doel", "Ziel", "Zil"),
    "target_placeholder": ("preset", "standaard", "Vorgabe", "Standard"),
    "hand_size": ("Hand size", "Kaarten per hand", "Handkarten", "Kaarten an der Hand"),
    "stack2": ("stack +2", "+2 stapelen", "+2 stapeln", "+2 stackelen"),
    "stack4": ("stack +4", "+4 stapelen", "+4 stapeln", "+4 stackelen"),
    "jump_in": ("jump-in", "inspringen", "Reinwerfen", "dertëschent spillen"),
    "seven_zero": ("seven-zero", "zeven-nul", "Sieben-Null", "Siwen-Null"),
    "more": ("More", "Meer", "Mehr", "Méi"),
    "more_placeholder": ("name=value, …", "naam=waarde, …", "Name=Wert, …", "Numm=Wäert, …"),
    "new_match": ("New match", "Nieuwe partij", "Neues Spiel", "Neit Spill"),
    "next_round": ("Next round", "Volgende ronde", "Nächste Runde", "Nächst Ronn"),
    "rename": ("Rename players", "Namen wijzigen", "Spieler umbenennen", "Spiller ëmbenennen"),
    "download_log": ("Download log", "Log downloaden", "Protokoll laden", "Protokoll eroflueden"),
    "teach": ("Teach this deck", "Dit spel aanleren", "Dieses Deck anlernen", "Dëst Spill léieren"),
    "teach_title": (
        "teach the reader your own deck from photos of its cards",
        "leer de lezer je eigen kaarten aan met foto's ervan",
        "dem Leser das eigene Deck mit Fotos seiner Karten beibringen",
        "dem Lieser Äert eegent Spill mat Fotoe vu senge Kaarte bäibréngen",
    ),
}
