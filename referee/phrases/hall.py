"""The hall (``referee hall``): its page, the tables publishing to it, its broker, the standings over them."""

from __future__ import annotations

__all__ = ["PHRASES"]

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
    "hall_title": (
        "UNO referee hall",
        "UNO-scheidsrechter zaal",
        "UNO-Schiedsrichter Saal",
        "UNO-Schiedsriichter Sall",
    ),
    "hall": ("UNO hall", "UNO-zaal", "UNO-Saal", "UNO-Sall"),
    "tables": ("Tables", "Tafels", "Tische", "Dëscher"),
    "no_tables": (
        "No table has published yet.",
        "Nog geen tafel heeft iets doorgegeven.",
        "Noch kein Tisch hat etwas gesendet.",
        "Nach keen Dësch huet eppes geschéckt.",
    ),
    "table_one": ("1 table", "1 tafel", "1 Tisch", "1 Dësch"),
    "tables_many": ("{n} tables", "{n} tafels", "{n} Tische", "{n} Dëscher"),
    "broker": ("broker {url}", "broker {url}", "Broker {url}", "Broker {url}"),
    "standings": ("Standings", "Stand", "Tabelle", "Classement"),
    "player": ("Player", "Speler", "Spieler", "Spiller"),
    "table": ("Table", "Tafel", "Tisch", "Dësch"),
    "score": ("Score", "Score", "Punkte", "Punkten"),
    "rounds_won": ("Rounds", "Rondes", "Runden", "Ronnen"),
    "match_done": ("match over", "partij voorbij", "Spiel vorbei", "Spill eriwwer"),
}
