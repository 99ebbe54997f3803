"""Printings: the inks of one printed card (:class:`Palette`) and how a card maker might print each colour,
over the hues measured on real decks or (``wide``) every hue printers use.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass

import numpy as np

from referee.cards import Card, Colour

__all__ = ["BGR", "Palette", "hsv_to_bgr", "printing_colour", "random_palette"]

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class Palette:
    """The inks of one printed card (BGR)."""

    body: BGR
    white: BGR = (238, 242, 242)
    ink: BGR = (25, 22, 22)
    quad: tuple[BGR, BGR, BGR, BGR] = ((40, 40, 200), (210, 140, 20), (60, 150, 40), (30, 200, 245))
    back_red: BGR = (40, 30, 200)
    back_yellow: BGR = (30, 210, 250)

    def slot(self, name: str) -> BGR:
        if name.startswith("q"):
            return self.quad[int(name[1])]
        value: BGR = getattr(self, name)
        return value


# Printing hues (OpenCV HSV, hue 0..179) measured on real decks; orange/violet from the LB deck.
_HUES: dict[Colour, tuple[float, float]] = {
    Colour.RED: (-4.0, 3.0),
    Colour.YELLOW: (21.0, 29.0),
    Colour.GREEN: (62.0, 84.0),
    Colour.BLUE: (95.0, 106.0),
    Colour.ORANGE: (8.0, 15.0),
    Colour.VIOLET: (130.0, 155.0),
}
#: Each colour over the range printers use (``wide``): red scarlet to crimson, yellow amber to lemon,
#: green lime to teal, blue cyan to navy (a lime green prints at about 42).
_WIDE_HUES: dict[Colour, tuple[float, float]] = {
    Colour.RED: (-9.0, 5.0),
    Colour.YELLOW: (19.0, 31.0),
    Colour.GREEN: (38.0, 88.0),
    Colour.BLUE: (92.0, 118.0),
    Colour.ORANGE: (7.0, 16.0),
    Colour.VIOLET: (128.0, 158.0),
}


def hsv_to_bgr(h: float, s: float, v: float) -> BGR:
    """OpenCV-scaled HSV (hue 0..180, saturation and value 0..255) to BGR."""
    r, g, b = colorsys.hsv_to_rgb((h % 180) / 180, min(max(s, 0), 255) / 255, min(max(v, 0), 255) / 255)
    return round(b * 255), round(g * 255), round(r * 255)


def printing_colour(colour: Colour | None, rng: np.random.Generator, *, wide: bool = False) -> BGR:
    """One printing of ``colour`` (any hue when ``None``), as a card maker might print it; ``wide``
    over every hue printers use for it (:data:`_WIDE_HUES`), not only the common ones."""
    if colour is None:
        return hsv_to_bgr(rng.uniform(0, 180), rng.uniform(110, 250), rng.uniform(110, 250))
    lo, hi = (_WIDE_HUES if wide else _HUES)[colour]
    sat = rng.uniform(150, 250) if colour is not Colour.VIOLET else rng.uniform(110, 220)
    val = rng.uniform(175, 250) if colour is not Colour.VIOLET else rng.uniform(110, 200)
    if colour is Colour.YELLOW:
        val = rng.uniform(220, 255)
    if colour is Colour.GREEN:
        val = rng.uniform(140, 215)
    return hsv_to_bgr(rng.uniform(lo, hi), sat, val)


def random_palette(card: Card, rng: np.random.Generator, *, hue_random: bool = False, wide: bool = False
                   ) -> Palette:
    """A printing of ``card``; ``hue_random`` paints a coloured card in an arbitrary hue, ``wide`` draws
    its colours over every hue printers use (:func:`printing_colour`)."""
    white = hsv_to_bgr(rng.uniform(15, 35), rng.uniform(0, 30), rng.uniform(215, 252))
    ink = tuple(int(x) for x in rng.integers(5, 45, 3))
    quad_colours = (Colour.RED, Colour.BLUE, Colour.GREEN, Colour.YELLOW)
    quad = tuple(printing_colour(c, rng, wide=wide) for c in quad_colours)
    if card.colour is not None:
        body = printing_colour(None if hue_random else card.colour, rng, wide=wide)
    elif card.value == "blank" and rng.random() < 0.6:  # a cream custom card ...
        body = hsv_to_bgr(rng.uniform(15, 35), rng.uniform(0, 35), rng.uniform(205, 250))
    else:
        body = tuple(int(x) for x in rng.integers(8, 40, 3))  # type: ignore[assignment]
    return Palette(
        body=body,
        white=white,
        ink=ink,  # type: ignore[arg-type]
        quad=quad,  # type: ignore[arg-type]
        back_red=printing_colour(Colour.RED, rng),
        back_yellow=printing_colour(Colour.YELLOW, rng),
    )
