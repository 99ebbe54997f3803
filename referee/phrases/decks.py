"""The decks' names: in a referee line's ``{deck}`` slot (``deck_``, its English the deck's id) and as /teach's
title for the deck in use (``deckname_``)."""

from __future__ import annotations

__all__ = ["PHRASES"]

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
    "deck_classic": ("classic", "het klassieke spel", "das klassische Spiel", "d’klassescht Spill"),
    "deck_classic_blanks": (
        "classic_blanks",
        "het klassieke spel met blanco kaarten",
        "das klassische Spiel mit Blanko-Karten",
        "d’klassescht Spill mat wäisse Kaarten",
    ),
    "deck_lb": ("lb", "het Luxemburgse spel", "das luxemburgische Spiel", "d’Lëtzebuerger Spill"),
    "deck_breuken": ("breuken", "het breukenspel", "das Bruchkartenspiel", "d’Bréchkaartespill"),
    "deckname_classic": ("classic UNO deck", "klassiek UNO-spel", "klassisches UNO-Spiel", "klassescht UNO-Spill"),
    "deckname_classic_blanks": (
        "classic UNO deck with blank cards",
        "klassiek UNO-spel met blanco kaarten",
        "klassisches UNO-Spiel mit Blanko-Karten",
        "klassescht UNO-Spill mat wäisse Kaarten",
    ),
    "deckname_lb": (
        "Luxembourgish UNO deck",
        "Luxemburgs UNO-spel",
        "luxemburgisches UNO-Spiel",
        "Lëtzebuerger UNO-Spill",
    ),
    "deckname_breuken": ("UNO fractions deck", "UNO met breuken", "UNO-Bruchkartenspiel", "UNO-Bréchkaartespill"),
}
