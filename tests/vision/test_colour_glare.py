"""A lamp's glare over a glossy card: its white washed to the lamp's white, so that card is hardly balanced.

Each card is balanced on its own white (its brightest unsaturated pixels). Under a glare those are the glare's, as
white as the lamp, and the card's ink is read as the camera showed it, while the folder's other cards were balanced
on their own white: the second printing's close-ups under ``benchmarks/camera_casts.py``'s ``glare`` showed their
yellows at 27-28 against 24-25 for the others, and three read green: the folder's yellow was seen 3.2 units wide
beside a green 22 wide, and the boundary between them lay at 27.4. No colour is read narrower than the error one
card's balance can make (:data:`~referee.vision.colour.MIN_SPREAD`).
"""

from __future__ import annotations

import cv2
import numpy as np

from referee.cards import Colour
from referee.synth.render import _hsv_to_bgr
from referee.vision.colour import DeckColours

#: A camera whose balance left the view cool (pixel gains B, G, R): a yellow printed at 24 shows at 29.
CAMERA = np.array([1.08, 1.0, 0.85], np.float32)
BOX = (0.0, 0.0, 100.0, 150.0)


def _whites() -> np.ndarray:
    """Where the card is white: its border and a thin ring (the second printing's)."""
    white = np.full((150, 100), 255, np.uint8)
    white[6:144, 6:94] = 0
    cv2.ellipse(white, (50, 75), (30, 50), 30, 0, 360, 255, 3)
    return white > 0


def _card(hue: float, *, glare: bool = False) -> np.ndarray:
    """A card printed at ``hue`` as the camera shows it; with ``glare``, its white washed to the lamp's white."""
    card = np.empty((150, 100, 3), np.float32)
    card[:] = _hsv_to_bgr(hue, 230, 235)
    card[_whites()] = 235
    shown: np.ndarray = np.clip(card * CAMERA, 0, 255).astype(np.uint8)
    if glare:
        shown[_whites()] = 250
    return shown


#: The folder's cards: printed hue -> cards. Its greens run from a lime to a grass green, so green is read wide.
FOLDER = {176.0: 6, 22.0: 1, 23.0: 1, 24.0: 2, 25.0: 1, 26.0: 1, 38.0: 2, 44.0: 2, 50.0: 2, 56.0: 2, 62.0: 2, 103.0: 6}


def _folder() -> DeckColours:
    deck = DeckColours(spreads=True, photos=True)
    for hue, cards in FOLDER.items():
        for _ in range(cards):
            deck.read(_card(hue), BOX)
    deck.learning = False
    return deck


def test_a_yellow_whose_white_a_glare_washed_reads_yellow_beside_a_wide_green() -> None:
    deck = _folder()
    widths = dict(zip(deck.palette, deck.read_widths, strict=True))
    assert widths[Colour.YELLOW] < 6.0 < 15.0 < widths[Colour.GREEN]  # its yellows were seen within 4 units
    assert deck.read(_card(24.0), BOX, learn=False)[0] is Colour.YELLOW
    # Balanced on the glare, the yellow shows as the camera showed it (29), 5 units from the folder's others.
    assert deck.read(_card(24.0, glare=True), BOX, learn=False)[0] is Colour.YELLOW
