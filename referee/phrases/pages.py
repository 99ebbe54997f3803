"""What the other pages share (/teach, /calibrate, /camera, the overlay): the way back to the dashboard, a
referee out of reach, counts of photos, a round over; the names of the rule presets (``preset_``) and rule
sheets (``sheet_``), which the pages look up by their prefix; the dashboard's link to /calibrate."""

from __future__ import annotations

__all__ = ["PHRASES"]

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
    "home_title": (
        "back to the dashboard",
        "terug naar het dashboard",
        "zurück zum Dashboard",
        "zréck op den Dashboard",
    ),
    "cannot_reach": (
        "Cannot reach the referee: {error}",
        "De scheidsrechter is niet bereikbaar: {error}",
        "Der Schiedsrichter ist nicht erreichbar: {error}",
        "De Schiedsriichter ass net ze erreechen: {error}",
    ),
    "photo_one": ("1 photo", "1 foto", "1 Foto", "1 Foto"),
    "photos_many": ("{n} photos", "{n} foto’s", "{n} Fotos", "{n} Fotoen"),
    "turn_round_over": ("Round over", "Ronde voorbij", "Runde vorbei", "Ronn eriwwer"),
    "preset_official": ("Official rules", "Officiële regels", "Offizielle Regeln", "Offiziell Reegelen"),
    "preset_nl": ("Dutch rules", "Nederlandse regels", "Niederländische Regeln", "Hollännesch Reegelen"),
    "preset_de": ("German rules", "Duitse regels", "Deutsche Regeln", "Däitsch Reegelen"),
    "preset_lb": ("Luxembourgish rules", "Luxemburgse regels", "Luxemburgische Regeln", "Lëtzebuerger Reegelen"),
    "preset_breuken": ("Fractions deck", "UNO met breuken", "Bruchkarten", "Bréchkaarten"),
    "preset_house": ("House rules", "Huisregels", "Hausregeln", "Hausreegelen"),
    "sheet_000": (
        "Dutch classic rules",
        "Nederlandse klassieke regels",
        "niederländische klassische Regeln",
        "hollännesch klassesch Reegelen",
    ),
    "sheet_001": (
        "UNO met breuken (fractions)",
        "UNO met breuken",
        "UNO met breuken (Brüche)",
        "UNO met breuken (Bréch)",
    ),
    "sheet_002": ("German rules", "Duitse regels", "deutsche Regeln", "däitsch Reegelen"),
    "sheet_003": ("Luxembourgish edition", "Luxemburgse editie", "luxemburgische Ausgabe", "Lëtzebuerger Editioun"),
    "sheet_004": (
        "Official and house rules (English)",
        "Officiële en huisregels (Engels)",
        "Offizielle und Hausregeln (Englisch)",
        "Offiziell an Hausreegelen (Englesch)",
    ),
    "calibrate_link": ("Calibrate the table", "De tafel kalibreren", "Den Tisch kalibrieren", "Den Dësch kalibréieren"),
    "calibrate_link_title": (
        "click the pile's corners, the stock and the seats on the camera's view",
        "klik de hoeken van de stapel, de trekstapel en de plaatsen aan op het camerabeeld",
        "die Ecken des Stapels, den Ziehstapel und die Plätze im Kamerabild anklicken",
        "d’Ecke vum Stapel, den Zéistapel an d’Plazen um Kamerabild klicken",
    ),
}
