"""The words every page's head shares: the pages' titles, the live connection's state, the admin token field."""

from __future__ import annotations

__all__ = ["PHRASES"]

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
    "title": ("UNO referee", "UNO-scheidsrechter", "UNO-Schiedsrichter", "UNO-Schiedsriichter"),
    "overlay_title": (
        "UNO referee overlay",
        "UNO-scheidsrechter overlay",
        "UNO-Schiedsrichter Overlay",
        "UNO-Schiedsriichter Overlay",
    ),
    "connecting": ("connecting…", "verbinden…", "verbinde…", "verbannen…"),
    "live": ("live", "live", "live", "live"),
    "offline": ("offline", "offline", "offline", "offline"),
    "conn_title": (
        "live connection to the referee",
        "live verbinding met de scheidsrechter",
        "Live-Verbindung zum Schiedsrichter",
        "Live-Verbindung mam Schiedsriichter",
    ),
    "admin_token": ("Admin token", "Beheerderstoken", "Admin-Token", "Admin-Token"),
    "token_placeholder": ("needed for controls", "voor de bediening", "für die Steuerung", "fir d’Steierung"),
    "save": ("Save", "Opslaan", "Speichern", "Späicheren"),
    "token_saved": (
        "Token saved in this browser.",
        "Token opgeslagen in deze browser.",
        "Token in diesem Browser gespeichert.",
        "Token an dësem Browser gespäichert.",
    ),
}
