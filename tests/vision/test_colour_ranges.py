"""Colours named in units of each colour's spread: a lime green is green, a lemon yellow yellow."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import Colour
from referee.synth.render import _hsv_to_bgr
from referee.vision.colour import DeckColours, read_colour


def _card(hue: float) -> np.ndarray:
    """A card seen from above: white border, a body of ``hue``, a white oval in the middle."""
    image = np.full((120, 80, 3), 235, np.uint8)
    image[8:112, 8:72] = _hsv_to_bgr(hue, 220, 210)
    image[45:75, 25:55] = 240
    return image


BOX = (0.0, 0.0, 80.0, 120.0)


@pytest.mark.parametrize(("hue", "colour"), [
    (40.0, Colour.GREEN),  # lime (issue 32's deck: about 42)
    (44.0, Colour.GREEN),
    (30.0, Colour.YELLOW),  # lemon
    (21.0, Colour.YELLOW),  # amber
    (88.0, Colour.GREEN),  # teal
    (96.0, Colour.BLUE),  # cyan-ish blue
    (176.0, Colour.RED),
])
def test_printers_ranges_read_as_their_colour(hue: float, colour: Colour) -> None:
    assert read_colour(_card(hue), BOX)[0] is colour


def test_nearest_centre_alone_read_a_lime_green_yellow() -> None:
    """The obvious alternative, kept for comparison (benchmarks/colour_eval.py): equal spreads."""
    assert read_colour(_card(40.0), BOX, widths=False)[0] is Colour.YELLOW


def test_deck_colours_read_with_the_spreads_too() -> None:
    deck = DeckColours()
    assert deck.read(_card(40.0), BOX, learn=False)[0] is Colour.GREEN
