"""The words the overlay draws on the camera's view (:mod:`referee.vision.overlay`)."""

from __future__ import annotations

__all__ = ["PHRASES"]

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
    "view_top": ("top: {card}", "boven: {card}", "oben: {card}", "uewen: {card}"),
    "view_colour": ("colour: {colour}", "kleur: {colour}", "Farbe: {colour}", "Faarf: {colour}"),
    "view_turn": ("turn: {player}", "beurt: {player}", "dran: {player}", "drun: {player}"),
    "view_stock": ("stock", "trekstapel", "Ziehstapel", "Zeistapel"),
    "view_to_draw": ("{n} cards to draw", "{n} kaarten te pakken", "{n} Karten zu ziehen", "{n} Kaarten ze zeien"),
}
