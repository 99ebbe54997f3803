"""The shapes a face is drawn from, as card-sized soft masks: rounded rectangles, ellipses, arrows, the
little cards of draw faces, UNO's own 1, and each value's symbol (:func:`symbol_parts`).
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.synth.designs import CARD_H, CARD_W, CardDesign
from referee.synth.fonts import available_fonts, display_font, text_mask

__all__ = ["Mask", "blank", "burst", "ellipse", "rounded_rect", "symbol_parts"]

Mask = NDArray[np.uint8]


def blank() -> Mask:
    """An empty card-sized mask."""
    return np.zeros((CARD_H, CARD_W), np.uint8)


def rounded_rect(x0: float, y0: float, x1: float, y1: float, r: float) -> Mask:
    """A filled rectangle with corners of radius ``r``, drawn at sub-pixel precision."""
    mask = blank()
    s = 4  # sub-pixel precision for cv2 drawing
    p = [round(v * (1 << s)) for v in (x0, y0, x1, y1)]
    rr = max(1, round(r * (1 << s)))
    cv2.rectangle(mask, (p[0] + rr, p[1]), (p[2] - rr, p[3]), 255, -1, cv2.LINE_AA, s)
    cv2.rectangle(mask, (p[0], p[1] + rr), (p[2], p[3] - rr), 255, -1, cv2.LINE_AA, s)
    for cx, cy in ((p[0] + rr, p[1] + rr), (p[2] - rr, p[1] + rr), (p[0] + rr, p[3] - rr),
                   (p[2] - rr, p[3] - rr)):
        cv2.circle(mask, (cx, cy), rr, 255, -1, cv2.LINE_AA, s)
    return mask


def ellipse(cx: float, cy: float, a: float, b: float, angle: float) -> Mask:
    """A filled ellipse of semi-axes ``a`` x ``b`` turned by ``angle`` degrees (cv2 convention)."""
    mask = blank()
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
    mask = blank()
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
    mask = blank()
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


def burst(cx: float, cy: float, rx: float, ry: float, rays: int, depth: float) -> Mask:
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


def symbol_parts(value: str, design: CardDesign, cx: float, cy: float, size: float,
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
        return [(_numeral(value, text(value, size, width_scale=design.digit_width), design, size), fill)]
    if "/" in value:
        num, den = value.split("/")
        h = size * 0.42
        bar = _card_icon(cx, cy, size * 0.55, max(2.0, size * 0.06), 0.0)
        return [(np.maximum(np.maximum(text(num, h, cx, cy - h * 0.7), text(den, h, cx, cy + h * 0.7)),
                            bar), fill)]
    if value == "skip":
        return [(_skip(design, cx, cy, size), fill)]
    if value == "reverse":
        a, b = _reverse_arrows(design, cx, cy, size)
        if corner:
            return [(np.maximum(a, b), fill)]
        return [(a, fill), (b, fill)]
    if value in ("draw2", "wild_draw4"):
        if corner:
            return [(text("+" + ("2" if value == "draw2" else "4"), size), "white")]
        return _drawn_cards(value, design, cx, cy, size, fill)
    if value == "wild":
        return [(ellipse(cx, cy, size * 0.3, size * 0.42, 0), "white")] if corner else []
    if value == "back":
        return [] if corner else [(text("UNO", size * 0.42, width_scale=1.1), "back_yellow")]
    return []  # blank


def _numeral(value: str, mask: Mask, design: CardDesign, size: float) -> Mask:
    """The numeral's ``mask``, a 6 or a 9 underlined (so the two are told apart)."""
    if value in ("6", "9"):
        ys, xs = np.nonzero(mask > 100)
        bar_h = max(2.0, size * 0.09)
        y0 = ys.max() + bar_h * 0.7
        bar = _card_icon((xs.min() + xs.max()) / 2 - design.shear * bar_h, y0 + bar_h / 2,
                         (xs.max() - xs.min()) * 0.62, bar_h, design.shear)
        mask = np.maximum(mask, bar)
    return mask


def _skip(design: CardDesign, cx: float, cy: float, size: float) -> Mask:
    """The skip sign: a ring crossed by a slash at the design's angle."""
    r = size * 0.45
    ring = ellipse(cx, cy, r, r, 0)
    ring[ellipse(cx, cy, r * 0.7, r * 0.7, 0) > 127] = 0
    t = math.radians(design.skip_angle)
    d = np.array([math.cos(t), -math.sin(t)]) * r * 0.8
    n = np.array([math.sin(t), math.cos(t)]) * r * 0.16
    c = np.array([cx, cy])
    slash = _polygon(np.array([c - d - n, c + d - n, c + d + n, c - d + n]))
    return np.maximum(ring, slash)


def _reverse_arrows(design: CardDesign, cx: float, cy: float, size: float) -> tuple[Mask, Mask]:
    """The reverse sign's two arrows: the classic hooks, or two straight fat arrows."""
    if design.kind == "classic" or design.wild_rotation % 2:
        return _hook_arrow(cx, cy, size, flip=False), _hook_arrow(cx, cy, size, flip=True)
    length, width = size * 0.62, size * 0.17
    off = size * 0.16
    a = _arrow(cx + off, cy - off, length, width, -135, -width * 0.3)
    b = _arrow(cx - off, cy + off, length, width, 45, -width * 0.3)
    return a, b


def _drawn_cards(value: str, design: CardDesign, cx: float, cy: float, size: float,
                 fill: str) -> list[tuple[Mask, str]]:
    """The little cards in the middle of a draw-two or wild-draw-four face."""
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
