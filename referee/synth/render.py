"""Card faces drawn by our own code: every label of contract 1, in many designs and printings.

A face is built once per (value, design) as a stack of soft masks, each naming a palette *slot*
(``body``, ``white``, ``ink``, ...); :func:`colourise` then paints that stack with any palette, so one
cached structure yields the card in every colour and printing (the detector must be colour-blind).
The designs are :mod:`referee.synth.designs`, the printings :mod:`referee.synth.printing`, the shapes
:mod:`referee.synth.symbols`; their names are importable from here too.

>>> import numpy as np
>>> face = render_card(Card.from_label("red_7"), rng=np.random.default_rng(0))
>>> face.shape, face.dtype
((310, 200, 4), dtype('uint8'))
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.cards import Card
from referee.synth.designs import _TYPEFACES as _TYPEFACES  # the tests read these here
from referee.synth.designs import CARD_H, CARD_W, DESIGNS, VIDEO_DESIGNS, CardDesign
from referee.synth.printing import _HUES as _HUES
from referee.synth.printing import _WIDE_HUES as _WIDE_HUES
from referee.synth.printing import BGR, Palette, hsv_to_bgr, printing_colour, random_palette
from referee.synth.symbols import Mask, blank, burst, ellipse, rounded_rect, symbol_parts

__all__ = [
    "BGR",
    "CARD_H",
    "CARD_W",
    "DESIGNS",
    "VIDEO_DESIGNS",
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

_hsv_to_bgr = hsv_to_bgr  # the names the tests use
_symbol_parts = symbol_parts

Image = NDArray[np.uint8]
Layers = tuple[tuple[str, Mask], ...]


def _layers(value: str, d: CardDesign, design_index: int) -> tuple[Mask, Layers]:
    """(alpha, layers) of a face in design ``d``, painted in order: colour-free (``design_index`` seeds
    the scribbles of blank cards)."""
    w, h = CARD_W, CARD_H
    r = d.radius * w
    alpha = rounded_rect(0, 0, w - 1, h - 1, r)
    b = d.border * w
    body = rounded_rect(b, b, w - 1 - b, h - 1 - b, max(2.0, r - b * 0.6))
    layers: list[tuple[str, Mask]] = [("white", alpha), ("body", body)]
    has_oval = d.kind != "plain" or value in ("wild", "wild_draw4", "back", "blank")
    if has_oval:
        layers.append(("back_red" if value == "back" else "white", _oval(value, d, design_index, body)))
    if value == "wild":
        layers += _wild_quadrants(d, body)
    if value == "blank":  # ... or a black one with an empty oval; some have rules written on them
        layers += _blank_ink(d, design_index)
    layers += _big_symbol(value, d)
    if value not in ("back", "blank"):
        layers += _corner_indices(value, d, b)
    return alpha, tuple(layers)


def _oval(value: str, d: CardDesign, design_index: int, body: Mask) -> Mask:
    """The oval in the middle of the face (a thin ring, or a sunburst disc, where the design prints one)."""
    w, h = CARD_W, CARD_H
    cx, cy = w / 2, h / 2
    oval = ellipse(cx, cy, h * 0.47 * d.oval_scale, w * 0.36 * d.oval_scale, d.oval_angle)
    oval = np.minimum(oval, body)
    if d.kind == "ring" and value not in ("wild", "wild_draw4", "back"):
        rim = max(2.0, d.ring * w)
        inside = ellipse(cx, cy, h * 0.47 * d.oval_scale - rim, w * 0.36 * d.oval_scale - rim, d.oval_angle)
        oval = np.minimum(oval, 255 - inside)
    if d.kind == "burst" and value not in ("wild", "wild_draw4", "back", "blank"):
        rays = 12 + design_index % 3 * 4
        oval = np.minimum(burst(cx, cy, w * 0.42 * d.oval_scale, h * 0.3 * d.oval_scale, rays,
                                0.05 + d.ring * 2), body)
    return oval


def _wild_quadrants(d: CardDesign, body: Mask) -> list[tuple[str, Mask]]:
    """A wild card's oval split into the four colours."""
    w, h = CARD_W, CARD_H
    cx, cy = w / 2, h / 2
    layers: list[tuple[str, Mask]] = []
    inner = ellipse(cx, cy, h * 0.47 * d.oval_scale - 5, w * 0.36 * d.oval_scale - 5, d.oval_angle)
    inner = np.minimum(inner, body)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    t = math.radians(d.wild_split)
    u = (xx - cx) * math.cos(t) + (yy - cy) * math.sin(t)
    v = -(xx - cx) * math.sin(t) + (yy - cy) * math.cos(t)
    quadrant = ((u > 0).astype(np.int32) * 2 + (v > 0).astype(np.int32) + d.wild_rotation) % 4
    for q in range(4):
        layers.append((f"q{q}", np.where(quadrant == q, inner, 0).astype(np.uint8)))
    return layers


def _blank_ink(d: CardDesign, design_index: int) -> list[tuple[str, Mask]]:
    """A blank card's faint oval, and on some designs a few scribbled lines of rules."""
    w, h = CARD_W, CARD_H
    cx, cy = w / 2, h / 2
    layers: list[tuple[str, Mask]] = [
        ("ink", (ellipse(cx, cy, h * 0.4, w * 0.3, d.oval_angle) // 6).astype(np.uint8))]
    if d.wild_rotation % 2:
        pen = np.random.default_rng(design_index)
        scribble = blank()
        for line in range(int(pen.integers(2, 5))):
            y0 = cy + (line - 1.5) * h * 0.09
            xs = np.linspace(cx - w * 0.25, cx + w * pen.uniform(0.0, 0.25), 14)
            ys = y0 + pen.normal(0, h * 0.012, xs.size) - (xs - cx) * 0.3
            pts = np.stack([xs, ys], axis=1).round().astype(np.int32)
            cv2.polylines(scribble, [pts], False, 200, 2, cv2.LINE_AA)
        layers.append(("ink", scribble))
    return layers


def _big_symbol(value: str, d: CardDesign) -> list[tuple[str, Mask]]:
    """The big symbol in the middle: shadow, outline, fill."""
    w, h = CARD_W, CARD_H
    cx, cy = w / 2, h / 2
    layers: list[tuple[str, Mask]] = []
    size = h * 0.42 * d.symbol_scale
    if value == "back":
        parts = symbol_parts(value, replace(d, shear=0.1), cx, cy, size * 1.1)
        parts = [(cv2.warpAffine(p, cv2.getRotationMatrix2D((cx, cy), 28, 1.0), (w, h)), s)
                 for p, s in parts]
    else:
        parts = symbol_parts(value, d, cx, cy, size)
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
    return layers


def _corner_indices(value: str, d: CardDesign, b: float) -> list[tuple[str, Mask]]:
    """The corner indices: top-left, and the same turned half a turn bottom-right (``b``: the border)."""
    w, h = CARD_W, CARD_H
    layers: list[tuple[str, Mask]] = []
    cs = h * 0.1 * d.corner_scale
    ccx, ccy = b + cs * 0.75, b + cs * 0.8
    for part, slot in symbol_parts(value, d, ccx, ccy, cs, corner=True):
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
    return layers


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
