"""Card faces drawn by our own code: every label of contract 1, in many designs and printings.

A face is built once per (value, design) as a stack of soft masks, each naming a palette *slot*
(``body``, ``white``, ``ink``, ...); :func:`colourise` then paints that stack with any palette, so one
cached structure yields the card in every colour and printing (the detector must be colour-blind).

>>> import numpy as np
>>> face = render_card(Card.from_label("red_7"), rng=np.random.default_rng(0))
>>> face.shape, face.dtype
((310, 200, 4), dtype('uint8'))
"""

from __future__ import annotations

import colorsys
import functools
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.cards import Card, Colour
from referee.synth.fonts import available_fonts, display_font, text_mask

__all__ = [
    "BGR",
    "CARD_H",
    "CARD_W",
    "DESIGNS",
    "CardDesign",
    "Palette",
    "Structure",
    "colourise",
    "printing_colour",
    "random_palette",
    "render_card",
    "structure",
    "weather",
]

#: Face size in pixels (a real card is 56 x 87 mm).
CARD_W, CARD_H = 200, 310

BGR = tuple[int, int, int]
Mask = NDArray[np.uint8]
Image = NDArray[np.uint8]
Layers = tuple[tuple[str, Mask], ...]


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

def _design_pool() -> tuple[CardDesign, ...]:
    """A fixed pool of decks: the classic print, the flatter newer print, plain budget decks."""
    rng = np.random.default_rng(20241104)
    pool = [CardDesign(), CardDesign(kind="flat", shadow=0, outline=2, shear=0.12)]
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
    # More printings, from a second generator (so the first 32 stay as they were): the thin
    # white ring around the oval with white outlined numerals and drop shadows, as many current decks
    # print it, and budget decks whose white symbols carry a shadow but no oval.
    rng = np.random.default_rng(20261126)
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
    # A fourth generator: the type designs of the display typefaces, heavier strokes and outlines
    # (an outline and a drop shadow close a 3's mouths until it reads 8), and the sunburst disc.
    rng = np.random.default_rng(20261127)
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
    return tuple(pool)


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

DESIGNS: tuple[CardDesign, ...] = _design_pool()


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


def _hsv_to_bgr(h: float, s: float, v: float) -> BGR:
    """OpenCV-scaled HSV (hue 0..180, saturation and value 0..255) to BGR."""
    r, g, b = colorsys.hsv_to_rgb((h % 180) / 180, min(max(s, 0), 255) / 255, min(max(v, 0), 255) / 255)
    return round(b * 255), round(g * 255), round(r * 255)


def printing_colour(colour: Colour | None, rng: np.random.Generator, *, wide: bool = False) -> BGR:
    """One printing of ``colour`` (any hue when ``None``), as a card maker might print it; ``wide``
    over every hue printers use for it (:data:`_WIDE_HUES`), not only the common ones."""
    if colour is None:
        return _hsv_to_bgr(rng.uniform(0, 180), rng.uniform(110, 250), rng.uniform(110, 250))
    lo, hi = (_WIDE_HUES if wide else _HUES)[colour]
    sat = rng.uniform(150, 250) if colour is not Colour.VIOLET else rng.uniform(110, 220)
    val = rng.uniform(175, 250) if colour is not Colour.VIOLET else rng.uniform(110, 200)
    if colour is Colour.YELLOW:
        val = rng.uniform(220, 255)
    if colour is Colour.GREEN:
        val = rng.uniform(140, 215)
    return _hsv_to_bgr(rng.uniform(lo, hi), sat, val)


def random_palette(card: Card, rng: np.random.Generator, *, hue_random: bool = False, wide: bool = False
                   ) -> Palette:
    """A printing of ``card``; ``hue_random`` paints a coloured card in an arbitrary hue, ``wide`` draws
    its colours over every hue printers use (:func:`printing_colour`)."""
    white = _hsv_to_bgr(rng.uniform(15, 35), rng.uniform(0, 30), rng.uniform(215, 252))
    ink = tuple(int(x) for x in rng.integers(5, 45, 3))
    quad_colours = (Colour.RED, Colour.BLUE, Colour.GREEN, Colour.YELLOW)
    quad = tuple(printing_colour(c, rng, wide=wide) for c in quad_colours)
    if card.colour is not None:
        body = printing_colour(None if hue_random else card.colour, rng, wide=wide)
    elif card.value == "blank" and rng.random() < 0.6:  # a cream custom card ...
        body = _hsv_to_bgr(rng.uniform(15, 35), rng.uniform(0, 35), rng.uniform(205, 250))
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


# --- shapes -------------------------------------------------------------------------------------


def _blank() -> Mask:
    return np.zeros((CARD_H, CARD_W), np.uint8)


def _rounded_rect(x0: float, y0: float, x1: float, y1: float, r: float) -> Mask:
    mask = _blank()
    s = 4  # sub-pixel precision for cv2 drawing
    p = [round(v * (1 << s)) for v in (x0, y0, x1, y1)]
    rr = max(1, round(r * (1 << s)))
    cv2.rectangle(mask, (p[0] + rr, p[1]), (p[2] - rr, p[3]), 255, -1, cv2.LINE_AA, s)
    cv2.rectangle(mask, (p[0], p[1] + rr), (p[2], p[3] - rr), 255, -1, cv2.LINE_AA, s)
    for cx, cy in ((p[0] + rr, p[1] + rr), (p[2] - rr, p[1] + rr), (p[0] + rr, p[3] - rr),
                   (p[2] - rr, p[3] - rr)):
        cv2.circle(mask, (cx, cy), rr, 255, -1, cv2.LINE_AA, s)
    return mask


def _ellipse(cx: float, cy: float, a: float, b: float, angle: float) -> Mask:
    mask = _blank()
    s = 4
    cv2.ellipse(mask, (round(cx * 16), round(cy * 16)), (round(a * 16), round(b * 16)), angle, 0, 360,
                255, -1, cv2.LINE_AA, s)
    return mask


def _paste(glyph: Mask, cx: float, cy: float, angle: float = 0.0) -> Mask:
    """``glyph`` centred at (cx, cy) on a card-sized mask, rotated by ``angle`` degrees."""
    h, w = glyph.shape
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[0, 2] += cx - w / 2
    m[1, 2] += cy - h / 2
    out: Mask = cv2.warpAffine(glyph, m, (CARD_W, CARD_H), flags=cv2.INTER_LINEAR)
    return out


def _polygon(points: NDArray[np.float64]) -> Mask:
    mask = _blank()
    cv2.fillPoly(mask, [np.round(points * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    return mask


def _arrow(cx: float, cy: float, length: float, width: float, angle: float, bend: float) -> Mask:
    """A fat arrow pointing at ``angle`` (degrees, image y down) with a slightly bent tail."""
    hl, hw = length * 0.42, width * 1.25
    pts = np.array([
        [-length / 2, -width / 2 + bend], [length / 2 - hl, -width / 2], [length / 2 - hl, -hw],
        [length / 2, 0.0], [length / 2 - hl, hw], [length / 2 - hl, width / 2],
        [-length / 2, width / 2 + bend],
    ])
    t = math.radians(angle)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    return _polygon(pts @ rot.T + np.array([cx, cy]))


def _hook_arrow(cx: float, cy: float, size: float, *, flip: bool) -> Mask:
    """The classic reverse arrow, measured on real cards (units of ``size``, the symbol height):
    a big head pointing up and right, its thick shaft running down-left and curling back to end
    at the centre; or the same turned half a turn about (cx, cy) when ``flip``. The two shafts
    of a face make an S between the heads."""
    tip, base = np.array([0.37, -0.5]) * size, np.array([0.155, -0.32]) * size
    head_dir = (tip - base) / np.linalg.norm(tip - base)
    normal = np.array([-head_dir[1], head_dir[0]])
    head = np.array([tip, base + normal * size * 0.26, base - normal * size * 0.26])
    shaft = np.array([[0.17, -0.33], [0.02, -0.22], [-0.09, -0.12], [-0.12, -0.04], [-0.07, 0.02],
                      [0.03, 0.04]]) * size
    sign = -1.0 if flip else 1.0
    c = np.array([cx, cy])
    mask = _polygon(c + sign * head)
    cv2.polylines(mask, [np.round((c + sign * shaft) * 16).astype(np.int32)], False, 255,
                  max(1, round(size * 0.17)), cv2.LINE_AA, 4)
    return mask


def _uno_one(cx: float, cy: float, size: float, shear: float, width_scale: float) -> Mask:
    """The numeral 1 as UNO prints it, ``size`` px tall: a thick stem and a long flag, no foot."""
    sw = size * 0.2 * width_scale  # stem width
    stem = np.array([[0.0, -0.5], [0.0, 0.5], [-1.0, 0.5], [-1.0, -0.5]]) * [sw, size]
    stem[:, 0] += sw * 0.45
    flag = np.array([[-sw * 0.55, -size * 0.5], [-sw * 0.55, -size * 0.22],
                     [-sw * 1.75, -size * 0.12], [-sw * 1.75, -size * 0.36]])
    mask = _blank()
    for part in (stem, flag):
        part = part.copy()
        part[:, 0] -= part[:, 1] * shear
        mask = np.maximum(mask, _polygon(part + np.array([cx, cy])))
    return mask


def _embolden(mask: Mask, weight: int) -> Mask:
    """``mask`` with its strokes ``weight`` pixels bolder (negative: thinner), grown on a margin."""
    r = abs(weight)
    grown = cv2.copyMakeBorder(mask, r, r, r, r, cv2.BORDER_CONSTANT, value=0)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    out: Mask = cv2.dilate(grown, kernel) if weight > 0 else cv2.erode(grown, kernel)
    return out


def _burst(cx: float, cy: float, rx: float, ry: float, rays: int, depth: float) -> Mask:
    """A sunburst disc: ``rays`` soft points round an ellipse of radii ``rx`` x ``ry``."""
    t = np.linspace(0.0, 2 * math.pi, rays * 8, endpoint=False)
    r = 1.0 - depth * (0.5 - 0.5 * np.cos(t * rays))
    points = np.stack([cx + rx * r * np.cos(t), cy + ry * r * np.sin(t)], axis=1)
    return _polygon(points)


def _card_icon(cx: float, cy: float, w: float, h: float, shear: float) -> Mask:
    """A small sheared card, as on draw-two and wild-draw-four faces."""
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    pts[:, 0] -= pts[:, 1] * shear
    return _polygon(pts + np.array([cx, cy]))


def _symbol_parts(value: str, design: CardDesign, cx: float, cy: float, size: float,
                  *, corner: bool = False) -> list[tuple[Mask, str]]:
    """The symbol for ``value`` as parts ``(mask, fill slot)``, drawn in order, ``size`` px tall."""
    fonts = available_fonts()
    font = (display_font(design.typeface) if design.typeface else None) or fonts[design.font % len(fonts)]
    fill = "white" if corner or design.kind in ("plain", "ring") else "body"

    def text(t: str, height: float, x: float = cx, y: float = cy, width_scale: float = 1.0) -> Mask:
        mask = text_mask(t, font, max(6, round(height)), shear=design.shear, width_scale=width_scale)
        if design.weight and not corner:
            mask = _embolden(mask, design.weight)
        return _paste(mask, x, y)

    if value == "1" and design.kind != "plain" and design.one_flag:  # UNO's own 1: a big flag and no foot
        return [(_uno_one(cx, cy, size, design.shear, design.digit_width), fill)]
    if value.isdigit():
        mask = text(value, size, width_scale=design.digit_width)
        if value in ("6", "9"):
            ys, xs = np.nonzero(mask > 100)
            bar_h = max(2.0, size * 0.09)
            y0 = ys.max() + bar_h * 0.7
            bar = _card_icon((xs.min() + xs.max()) / 2 - design.shear * bar_h, y0 + bar_h / 2,
                             (xs.max() - xs.min()) * 0.62, bar_h, design.shear)
            mask = np.maximum(mask, bar)
        return [(mask, fill)]
    if "/" in value:
        num, den = value.split("/")
        h = size * 0.42
        bar = _card_icon(cx, cy, size * 0.55, max(2.0, size * 0.06), 0.0)
        return [(np.maximum(np.maximum(text(num, h, cx, cy - h * 0.7), text(den, h, cx, cy + h * 0.7)),
                            bar), fill)]
    if value == "skip":
        r = size * 0.45
        ring = _ellipse(cx, cy, r, r, 0)
        ring[_ellipse(cx, cy, r * 0.7, r * 0.7, 0) > 127] = 0
        t = math.radians(design.skip_angle)
        d = np.array([math.cos(t), -math.sin(t)]) * r * 0.8
        n = np.array([math.sin(t), math.cos(t)]) * r * 0.16
        c = np.array([cx, cy])
        slash = _polygon(np.array([c - d - n, c + d - n, c + d + n, c - d + n]))
        return [(np.maximum(ring, slash), fill)]
    if value == "reverse" and (design.kind == "classic" or design.wild_rotation % 2):
        a, b = _hook_arrow(cx, cy, size, flip=False), _hook_arrow(cx, cy, size, flip=True)
        if corner:
            return [(np.maximum(a, b), fill)]
        return [(a, fill), (b, fill)]
    if value == "reverse":
        length, width = size * 0.62, size * 0.17
        off = size * 0.16
        a = _arrow(cx + off, cy - off, length, width, -135, -width * 0.3)
        b = _arrow(cx - off, cy + off, length, width, 45, -width * 0.3)
        if corner:
            return [(np.maximum(a, b), fill)]
        return [(a, fill), (b, fill)]
    if value in ("draw2", "wild_draw4"):
        if corner:
            return [(text("+" + ("2" if value == "draw2" else "4"), size), "white")]
        if value == "draw2":  # two tall slanted cards, the second lower left, overlapping
            w, h = size * 0.3, size * 0.6
            return [(_card_icon(cx + size * 0.12, cy - size * 0.14, w, h, 0.3), fill),
                    (_card_icon(cx - size * 0.12, cy + size * 0.14, w, h, 0.3), fill)]
        if design.kind == "classic" or design.wild_rotation % 2:
            # The classic wild draw four: four wide slanted cards in two staggered rows.
            w, h = size * 0.44, size * 0.22
            offs = ((-0.17, -0.13), (0.19, -0.19), (-0.19, 0.13), (0.17, 0.07))
            return [(_card_icon(cx + dx * size, cy + dy * size, w, h, -0.35), f"q{i}")
                    for i, (dx, dy) in enumerate(offs)]
        # Other printings: four small tall cards overlapping in a diamond.
        w, h = size * 0.26, size * 0.44
        offs = ((0.04, -0.2), (-0.17, -0.02), (0.19, 0.02), (-0.02, 0.2))
        return [(_card_icon(cx + dx * size, cy + dy * size, w, h, 0.3), f"q{i}")
                for i, (dx, dy) in enumerate(offs)]
    if value == "wild":
        return [(_ellipse(cx, cy, size * 0.3, size * 0.42, 0), "white")] if corner else []
    if value == "back":
        return [] if corner else [(text("UNO", size * 0.42, width_scale=1.1), "back_yellow")]
    return []  # blank


def _layers(value: str, d: CardDesign, design_index: int) -> tuple[Mask, Layers]:
    """(alpha, layers) of a face in design ``d``, painted in order: colour-free (``design_index`` seeds
    the scribbles of blank cards)."""
    w, h = CARD_W, CARD_H
    r = d.radius * w
    alpha = _rounded_rect(0, 0, w - 1, h - 1, r)
    b = d.border * w
    body = _rounded_rect(b, b, w - 1 - b, h - 1 - b, max(2.0, r - b * 0.6))
    layers: list[tuple[str, Mask]] = [("white", alpha), ("body", body)]
    cx, cy = w / 2, h / 2
    oval_slot = "back_red" if value == "back" else "white"
    oval = _ellipse(cx, cy, h * 0.47 * d.oval_scale, w * 0.36 * d.oval_scale, d.oval_angle)
    oval = np.minimum(oval, body)
    if d.kind == "ring" and value not in ("wild", "wild_draw4", "back"):
        rim = max(2.0, d.ring * w)
        inside = _ellipse(cx, cy, h * 0.47 * d.oval_scale - rim, w * 0.36 * d.oval_scale - rim, d.oval_angle)
        oval = np.minimum(oval, 255 - inside)
    if d.kind == "burst" and value not in ("wild", "wild_draw4", "back", "blank"):
        rays = 12 + design_index % 3 * 4
        oval = np.minimum(_burst(cx, cy, w * 0.42 * d.oval_scale, h * 0.3 * d.oval_scale, rays,
                                 0.05 + d.ring * 2), body)
    has_oval = d.kind != "plain" or value in ("wild", "wild_draw4", "back", "blank")
    if has_oval:
        layers.append((oval_slot, oval))
    if value == "wild":
        inner = _ellipse(cx, cy, h * 0.47 * d.oval_scale - 5, w * 0.36 * d.oval_scale - 5, d.oval_angle)
        inner = np.minimum(inner, body)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        t = math.radians(d.wild_split)
        u = (xx - cx) * math.cos(t) + (yy - cy) * math.sin(t)
        v = -(xx - cx) * math.sin(t) + (yy - cy) * math.cos(t)
        quadrant = ((u > 0).astype(np.int32) * 2 + (v > 0).astype(np.int32) + d.wild_rotation) % 4
        for q in range(4):
            layers.append((f"q{q}", np.where(quadrant == q, inner, 0).astype(np.uint8)))
    if value == "blank":  # ... or a black one with an empty oval; some have rules written on them
        layers.append(("ink", (_ellipse(cx, cy, h * 0.4, w * 0.3, d.oval_angle) // 6).astype(np.uint8)))
        if d.wild_rotation % 2:
            pen = np.random.default_rng(design_index)
            scribble = _blank()
            for line in range(int(pen.integers(2, 5))):
                y0 = cy + (line - 1.5) * h * 0.09
                xs = np.linspace(cx - w * 0.25, cx + w * pen.uniform(0.0, 0.25), 14)
                ys = y0 + pen.normal(0, h * 0.012, xs.size) - (xs - cx) * 0.3
                pts = np.stack([xs, ys], axis=1).round().astype(np.int32)
                cv2.polylines(scribble, [pts], False, 200, 2, cv2.LINE_AA)
            layers.append(("ink", scribble))
    # The big symbol: shadow, outline, fill.
    size = h * 0.42 * d.symbol_scale
    if value == "back":
        parts = _symbol_parts(value, replace(d, shear=0.1), cx, cy, size * 1.1)
        parts = [(cv2.warpAffine(p, cv2.getRotationMatrix2D((cx, cy), 28, 1.0), (w, h)), s)
                 for p, s in parts]
    else:
        parts = _symbol_parts(value, d, cx, cy, size)
    outline = max(1, d.outline)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * outline + 1, 2 * outline + 1))
    # The little cards of draw-two and wild-draw-four faces are printed as cards: a white rim.
    # (The ring printing draws draw-two's cards plain white.)
    rim = (value == "wild_draw4" and d.kind != "plain") or (value == "draw2" and d.kind not in ("plain", "ring"))
    rim_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    for part, slot in parts:
        if d.shadow:
            shadow = np.roll(cv2.dilate(part, kernel), (d.shadow, -d.shadow), axis=(0, 1))
            layers.append(("ink", shadow))
        if d.outline:
            layers.append(("ink", cv2.dilate(part, kernel)))
        if rim:
            layers.append(("white", part))
            part = cv2.erode(part, rim_kernel)
        layers.append((slot, part))
    # Corner indices: top-left, and the same turned half a turn bottom-right.
    if value not in ("back", "blank"):
        cs = h * 0.1 * d.corner_scale
        ccx, ccy = b + cs * 0.75, b + cs * 0.8
        for part, slot in _symbol_parts(value, d, ccx, ccy, cs, corner=True):
            both = np.maximum(part, part[::-1, ::-1])
            if value == "wild":
                yy, xx = np.mgrid[0:h, 0:w]
                for q in range(4):
                    top = ((xx > ccx) * 2 + (yy > ccy) + d.wild_rotation) % 4 == q
                    bottom = ((xx < w - ccx) * 2 + (yy < h - ccy) + d.wild_rotation) % 4 == q
                    sel = np.where(yy < h / 2, top, bottom)
                    layers.append((f"q{q}", np.where(sel, both, 0).astype(np.uint8)))
                continue
            if d.kind != "plain":
                layers.append(("ink", cv2.dilate(both, np.ones((3, 3), np.uint8))))
            layers.append((slot, both))
    return alpha, tuple(layers)


@dataclass(frozen=True)
class Structure:
    """A colour-free face: the final weight of each palette slot in every pixel.

    Painting is linear in the colours, so the layer stack folds into one weight map per slot and
    colouring becomes one small matrix product.
    """

    alpha: Mask
    slots: tuple[str, ...]
    weights: NDArray[np.uint8]  # (H*W, len(slots))

    @property
    def size(self) -> tuple[int, int]:
        """(height, width) in pixels."""
        h, w = self.alpha.shape
        return h, w


#: Faces exist at full, half and quarter resolution: small cards in a scene need no more pixels.
LEVELS = 3


def structure(value: str, design_index: int, level: int = 0) -> Structure:
    """The cached colour-free structure of ``value`` in design ``DESIGNS[design_index]``,
    at ``1 / 2**level`` of the full resolution."""
    return design_structure(value, DESIGNS[design_index % len(DESIGNS)], level, design_index % len(DESIGNS))


@functools.lru_cache(maxsize=2048)
def design_structure(value: str, design: CardDesign, level: int = 0, seed: int = 0) -> Structure:
    """:func:`structure` of any design, in the pool or not (a printing held out of training, say)."""
    if level > 0:
        full = design_structure(value, design, 0, seed)
        h, w = CARD_H >> level, CARD_W >> level
        n = len(full.slots)
        full_weights = full.weights.reshape(CARD_H, CARD_W, n)
        small = np.dstack([  # cv2's area resize takes at most 4 channels at a time
            cv2.resize(np.ascontiguousarray(full_weights[..., i : i + 4]), (w, h),
                       interpolation=cv2.INTER_AREA).reshape(h, w, -1)
            for i in range(0, n, 4)
        ]).reshape(h * w, n)
        alpha = cv2.resize(full.alpha, (w, h), interpolation=cv2.INTER_AREA)
        return Structure(alpha=alpha, slots=full.slots, weights=np.ascontiguousarray(small))
    alpha, layers = _layers(value, design, seed)
    slots: list[str] = []
    for slot, _ in layers:
        if slot not in slots:
            slots.append(slot)
    weights = np.zeros((CARD_H, CARD_W, len(slots)), np.float32)
    for slot, mask in layers:
        m = mask.astype(np.float32) * (1.0 / 255.0)
        weights *= (1.0 - m)[..., None]
        weights[..., slots.index(slot)] += m
    packed = np.round(weights * 255).astype(np.uint8).reshape(-1, len(slots))
    return Structure(alpha=alpha, slots=tuple(slots), weights=packed)


def colourise(shape: Structure, palette: Palette) -> Image:
    """Paint a structure with ``palette``: a BGRA face."""
    colours = np.array([palette.slot(s) for s in shape.slots], np.float32) * (1.0 / 255.0)
    bgr = shape.weights.astype(np.float32) @ colours
    h, w = shape.size
    face = np.empty((h, w, 4), np.uint8)
    face[..., :3] = np.clip(bgr + 0.5, 0, 255).astype(np.uint8).reshape(h, w, 3)
    face[..., 3] = shape.alpha
    return face


def render_card(
    card: Card,
    design: CardDesign | int | None = None,
    rng: np.random.Generator | None = None,
    palette: Palette | None = None,
    *,
    hue_random: bool = False,
    wide: bool = False,
    height: float | None = None,
) -> Image:
    """A BGRA face of ``card`` (``CARD_H`` x ``CARD_W``), alpha = the card's outline.

    ``design`` is an index into :data:`DESIGNS` (random when ``None``), ``palette`` the inks
    (a random printing of the card's colour when ``None``). ``height``, the size the card will
    be shown at, picks a smaller face (half or quarter size) when that is enough.
    """
    rng = rng if rng is not None else np.random.default_rng()
    if design is None:
        design = int(rng.integers(0, len(DESIGNS)))
    palette = palette if palette is not None else random_palette(card, rng, hue_random=hue_random, wide=wide)
    level = 0
    while height is not None and level < LEVELS - 1 and height < (CARD_H >> level) * 0.6:
        level += 1
    if isinstance(design, CardDesign):  # any design, in the pool or not
        return colourise(design_structure(card.value, design, level), palette)
    return colourise(structure(card.value, design % len(DESIGNS), level), palette)


@functools.cache
def _grid(h: int, w: int) -> NDArray[np.float32]:
    return np.mgrid[0:h, 0:w].astype(np.float32)


def weather(face: Image, rng: np.random.Generator, *, wear: float, gloss: float) -> Image:
    """Age a BGRA face in place-free fashion: worn (faded, scuffed edges, grime) and glossy."""
    out = face.copy()
    h, w = face.shape[:2]
    bgr = out[..., :3].astype(np.float32)
    if wear > 0:
        grey = bgr.mean(axis=2, keepdims=True)
        bgr = bgr + (grey - bgr) * (0.25 * wear)  # faded ink
        noise = cv2.resize(rng.normal(0, 1, (25, 38)).astype(np.float32), (w, h))
        bgr *= (1.0 + 0.06 * wear * noise)[..., None]
        k = max(3, round(5 * w / CARD_W) | 1)
        edge = cv2.erode(face[..., 3], np.ones((k, k), np.uint8))
        rim = (face[..., 3] > 0) & (edge < 128)
        scuff = rng.random(rim.shape) < 0.5 * wear
        bgr[rim & scuff] = bgr[rim & scuff] * 0.3 + 230 * 0.7
    if gloss > 0:
        yy, xx = _grid(h, w) * (CARD_H / h)
        t = rng.uniform(0, math.pi)
        pos = rng.uniform(-0.5, 0.5) * CARD_H
        dist = (xx - CARD_W / 2) * math.cos(t) + (yy - CARD_H / 2) * math.sin(t) - pos
        band = np.exp(-(dist / (rng.uniform(8, 40))) ** 2) * gloss * 120
        bgr += band[..., None]
    out[..., :3] = np.clip(bgr, 0, 255).astype(np.uint8)
    return out
