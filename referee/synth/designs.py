"""How decks are drawn: :class:`CardDesign` (colour-free: the inks are a :class:`~referee.synth.printing.Palette`)
and the fixed pool of designs the generator draws from (:data:`DESIGNS`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["CARD_H", "CARD_W", "DESIGNS", "VIDEO_DESIGNS", "CardDesign"]

#: Face size in pixels (a real card is 56 x 87 mm).
CARD_W, CARD_H = 200, 310


@dataclass(frozen=True)
class CardDesign:
    """How a deck is drawn; colours are not part of it (see :class:`Palette`)."""

    #: classic (3-D symbols, tilted oval), flat (newer print), plain (no oval), ring (the oval a thin
    #: white ring on the card's colour, white symbols outlined in black with an offset drop shadow),
    #: burst (a white sunburst disc in the middle, symbols in the card's colour outlined in black)
    kind: str = "classic"
    font: int = 0  # index into fonts.available_fonts(), modulo its length
    typeface: str = ""  # a display typeface by file name (fonts.display_font); ``font`` where not installed
    weight: int = 0  # the big symbol's strokes made this many pixels bolder (negative: thinner)
    shear: float = 0.18  # italic lean of the numerals
    border: float = 0.075  # white margin, share of the width
    radius: float = 0.09  # corner radius, share of the width
    oval_angle: float = -58.0  # degrees, cv2 convention (negative leans up-right)
    oval_scale: float = 1.0
    symbol_scale: float = 1.0
    shadow: int = 6  # offset of the dark 3-D shadow of the big symbol, pixels (0: none)
    outline: int = 3  # dark outline of the big symbol, pixels
    corner_scale: float = 1.0
    wild_rotation: int = 0  # which quadrant gets which colour on wild cards
    skip_angle: float = 40.0  # slash of the skip ring, degrees from horizontal
    digit_width: float = 0.85  # numerals are narrower than the font's (printed UNO digits are tall)
    wild_split: float = 0.0  # angle of the wild oval's colour split, degrees (0: card axes)
    ring: float = 0.03  # width of the oval's ring where ``kind`` is ring, share of the width
    one_flag: bool = True  # UNO's own 1 (a flag, no foot) rather than the font's


#: How many designs the generated game videos draw from: the pool as it was when the dev and held-out
#: hours were made, so that footage stays the same play for play. Training scenes draw from them all.
VIDEO_DESIGNS = 32

#: The display typefaces the fourth generator's designs take in turn (``fonts.display_font``).
_TYPEFACES = (
    "FredokaOne-Regular.ttf",
    "Lato-BlackItalic.ttf",
    "RedHatDisplay-Black.ttf",
    "SourceSansPro-BlackIt.ttf",
    "Manrope-ExtraBold.ttf",
    "RedHatDisplay-ExtraBoldItalic.ttf",
    "Lato-Black.ttf",
    "HankenGrotesk-BoldItalic.otf",
    "SourceSansPro-Black.ttf",
    "FjallaOne-Regular.ttf",
    "RedHatDisplay-BlackItalic.ttf",
    "Lato-BoldItalic.ttf",
)


def _design_pool() -> tuple[CardDesign, ...]:
    """A fixed pool of decks: the classic print, the flatter newer print, plain budget decks, then the later
    printings, each batch from a generator of its own (so the ones before stay as they were)."""
    first = [CardDesign(), CardDesign(kind="flat", shadow=0, outline=2, shear=0.12), *_first_printings()]
    return tuple([*first, *_ring_printings(), *_typeface_printings()])


def _first_printings() -> list[CardDesign]:
    """The first generator's 30 designs: classic, flat and plain prints."""
    rng = np.random.default_rng(20241104)
    pool: list[CardDesign] = []
    for i in range(30):
        kind = ("classic", "flat", "classic", "flat", "classic", "plain", "classic", "flat")[i % 8]
        pool.append(
            CardDesign(
                kind=kind,
                font=int(rng.integers(0, 8)),
                shear=float(rng.uniform(0.0, 0.28)),
                border=float(rng.uniform(0.05, 0.1)),
                radius=float(rng.uniform(0.05, 0.13)),
                oval_angle=float(rng.uniform(-66, -50)),
                oval_scale=float(rng.uniform(0.9, 1.08)),
                symbol_scale=float(rng.uniform(0.85, 1.12)),
                shadow=int(rng.integers(3, 9)) if kind == "classic" else 0,
                outline=int(rng.integers(2, 5)) if kind != "plain" else int(rng.integers(0, 3)),
                corner_scale=float(rng.uniform(0.8, 1.2)),
                wild_rotation=int(rng.integers(0, 4)),
                skip_angle=float(rng.choice([40.0, -40.0, 35.0, 50.0])),
                digit_width=float(rng.uniform(0.7, 1.0)),
                wild_split=float(rng.choice([0.0, 10.0, -58.0, 30.0])),
            )
        )
    return pool


def _ring_printings() -> list[CardDesign]:
    """More printings, from a second generator (so the first 32 stay as they were): the thin white ring
    around the oval with white outlined numerals and drop shadows, as many current decks print it, and
    budget decks whose white symbols carry a shadow but no oval."""
    rng = np.random.default_rng(20261126)
    pool: list[CardDesign] = []
    for i in range(24):
        kind = ("ring", "ring", "ring", "plain")[i % 4]
        pool.append(
            CardDesign(
                kind=kind,
                font=int(rng.integers(0, 8)),
                shear=float(rng.uniform(0.0, 0.22)),
                border=float(rng.uniform(0.05, 0.1)),
                radius=float(rng.uniform(0.05, 0.13)),
                oval_angle=float(rng.uniform(-66, -45)),
                oval_scale=float(rng.uniform(0.88, 1.08)),
                symbol_scale=float(rng.uniform(0.8, 1.15)),
                shadow=int(rng.integers(3, 10)),
                outline=int(rng.integers(1, 5)),
                corner_scale=float(rng.uniform(0.8, 1.25)),
                wild_rotation=int(rng.integers(0, 4)),
                skip_angle=float(rng.choice([40.0, -40.0, 35.0, 50.0])),
                digit_width=float(rng.uniform(0.65, 1.0)),
                wild_split=float(rng.choice([0.0, 10.0, -58.0, 30.0])),
                ring=float(rng.uniform(0.015, 0.05)),
                one_flag=bool(rng.random() < 0.5),
            )
        )
    return pool


def _typeface_printings() -> list[CardDesign]:
    """Another generator's: the type designs of the display typefaces, heavier strokes and outlines (an
    outline and a drop shadow close a 3's mouths until it reads 8), and the sunburst disc."""
    rng = np.random.default_rng(20261127)
    pool: list[CardDesign] = []
    for i in range(24):
        kind = ("ring", "burst", "ring", "flat", "burst", "classic", "ring", "plain")[i % 8]
        pool.append(
            CardDesign(
                kind=kind,
                font=int(rng.integers(0, 8)),
                typeface=_TYPEFACES[i % len(_TYPEFACES)],
                weight=int(rng.integers(-1, 5)),
                shear=float(rng.uniform(0.0, 0.2)),
                border=float(rng.uniform(0.05, 0.1)),
                radius=float(rng.uniform(0.05, 0.13)),
                oval_angle=float(rng.uniform(-66, -45)),
                oval_scale=float(rng.uniform(0.88, 1.08)),
                symbol_scale=float(rng.uniform(0.8, 1.15)),
                shadow=int(rng.integers(0, 11)) if kind != "flat" else 0,
                outline=int(rng.integers(2, 8)),
                corner_scale=float(rng.uniform(0.8, 1.25)),
                wild_rotation=int(rng.integers(0, 4)),
                skip_angle=float(rng.choice([40.0, -40.0, 35.0, 50.0])),
                digit_width=float(rng.uniform(0.7, 1.05)),
                wild_split=float(rng.choice([0.0, 10.0, -58.0, 30.0])),
                ring=float(rng.uniform(0.012, 0.04)),
                one_flag=bool(rng.random() < 0.5),
            )
        )
    return pool


DESIGNS: tuple[CardDesign, ...] = _design_pool()
