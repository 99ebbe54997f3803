"""Procedural backgrounds (tables, cloths, desks with clutter) and skin-tone hands, all BGR(A) uint8."""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = ["background", "clutter", "hand_layer", "skin_tone", "thumb_layer"]

Image = NDArray[np.uint8]
Rng = np.random.Generator


def _smooth_noise(rng: Rng, h: int, w: int, cells_y: int, cells_x: int) -> NDArray[np.float32]:
    small = rng.normal(0, 1, (max(1, cells_y), max(1, cells_x))).astype(np.float32)
    out: NDArray[np.float32] = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return out


def _colour(rng: Rng, h: tuple[float, float], s: tuple[float, float], v: tuple[float, float]) -> NDArray[np.float32]:
    px = np.array([[[rng.uniform(*h) % 180, rng.uniform(*s), rng.uniform(*v)]]], np.uint8)
    out: NDArray[np.float32] = cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    return out


def _wood(rng: Rng, size: int) -> NDArray[np.float32]:
    """Wood or wood-laminate desk: straight fine grain, some broader figure, optional planks."""
    base = _colour(rng, (8, 22), (35, 150), (100, 240))
    y = np.arange(size, dtype=np.float32)[:, None]
    # Grain runs along x: noise with many cells across y and few along x.
    fine = _smooth_noise(rng, size, size, size // 2, int(rng.integers(4, 16)))
    streaks = _smooth_noise(rng, size, size, size // 6, 3)
    warp = _smooth_noise(rng, size, size, 4, 2) * rng.uniform(5, 40)
    freq = rng.uniform(0.03, 0.2)
    figure = 0.5 + 0.5 * np.sin((y + warp) * freq)
    shade = (1.0 + rng.uniform(0.01, 0.05) * fine + rng.uniform(0.01, 0.06) * streaks
             - rng.uniform(0.0, 0.2) * figure ** rng.uniform(1, 5))
    if rng.random() < 0.3:
        width = int(rng.integers(size // 6, size // 2))
        shade[::width, :] *= 0.6
        shade[1::width, :] *= 0.8
    img = (shade[..., None] * base).astype(np.float32)
    return img if rng.random() < 0.5 else img.transpose(1, 0, 2).copy()


def _cloth(rng: Rng, size: int) -> NDArray[np.float32]:
    base = _colour(rng, (0, 180), (30, 220), (50, 220))
    noise = _smooth_noise(rng, size, size, size // 3, size // 3) * rng.uniform(0.02, 0.07)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    period = rng.uniform(2.0, 5.0)
    weave = np.sin(xx * math.pi / period) * np.sin(yy * math.pi / period) * rng.uniform(0, 0.06)
    folds = _smooth_noise(rng, size, size, 3, 3) * rng.uniform(0, 0.1)
    out: NDArray[np.float32] = (1 + noise + weave + folds)[..., None] * base
    return out


def _pattern(rng: Rng, size: int) -> NDArray[np.float32]:
    a = _colour(rng, (0, 180), (0, 200), (60, 250))
    b = _colour(rng, (0, 180), (0, 200), (60, 250))
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    period = rng.uniform(12, 80)
    t = rng.uniform(0, math.pi)
    u = xx * math.cos(t) + yy * math.sin(t)
    v = -xx * math.sin(t) + yy * math.cos(t)
    kind = rng.integers(0, 3)
    if kind == 0:
        sel = ((u // period + v // period) % 2).astype(np.float32)
    elif kind == 1:
        sel = ((u // period) % 2).astype(np.float32)
    else:
        sel = (((u % period) - period / 2) ** 2 + ((v % period) - period / 2) ** 2 < (period / 4) ** 2)
        sel = sel.astype(np.float32)
    sel = cv2.GaussianBlur(sel, (0, 0), 1.0)[..., None]
    out: NDArray[np.float32] = a * sel + b * (1 - sel)
    return out


def _plain(rng: Rng, size: int) -> NDArray[np.float32]:
    base = _colour(rng, (0, 180), (0, 120), (40, 250))
    grad = _smooth_noise(rng, size, size, 2, 2) * rng.uniform(0.02, 0.12)
    return (1 + grad)[..., None] * base


def _blurry_room(rng: Rng, size: int) -> NDArray[np.float32]:
    img = _plain(rng, size)
    for _ in range(int(rng.integers(4, 14))):
        c = _colour(rng, (0, 180), (0, 120), (20, 255))
        x0, y0 = rng.integers(-size // 4, size, 2)
        w, h = rng.integers(size // 12, size // 2, 2)
        cv2.rectangle(img, (int(x0), int(y0)), (int(x0 + w), int(y0 + h)), c.tolist(), -1)
    sigma = rng.uniform(2, 12)
    small = cv2.resize(img, (size // 4, size // 4), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / 4)
    out: NDArray[np.float32] = cv2.resize(small, (size, size), interpolation=cv2.INTER_LINEAR)
    return out


def background(rng: Rng, size: int) -> Image:
    """A random surface seen from above: wood, cloth or felt, pattern, plain, or a blurry room."""
    kind = rng.choice(5, p=[0.36, 0.22, 0.12, 0.15, 0.15])
    maker = (_wood, _cloth, _pattern, _plain, _blurry_room)[int(kind)]
    work = min(size, 384)  # drawn at most 384 px wide, then scaled: textures are soft in photos
    img = np.clip(maker(rng, work), 0, 255).astype(np.uint8)
    if work != size:
        img = cv2.resize(img, (size, size), interpolation=cv2.INTER_LINEAR)
    return img


_KEY_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _text_lines(img: Image, rng: Rng, x: int, y: int, w: int, h: int, colour: list[int]) -> None:
    """Lines of random words, as on a screen or a printed page."""
    scale = rng.uniform(0.3, 0.7)
    step = int(28 * scale) + 4
    for ly in range(y + step, y + h - 4, step):
        words = " ".join("".join(rng.choice(list("abcdefghijklmnoprstuw0123456789"),
                                            int(rng.integers(2, 9))))
                         for _ in range(int(rng.integers(1, 6))))
        cv2.putText(img, words, (x + 6, ly), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)


def _keyboard(img: Image, rng: Rng, x: int, y: int, w: int, h: int) -> None:
    body = int(rng.choice([30, 60, 170, 200]))
    cv2.rectangle(img, (x, y), (x + w, y + h), (int(body),) * 3, -1)
    key = max(4, int(w / rng.uniform(12, 18)))
    gap = max(1, key // 6)
    keycol = int(rng.choice([15, 40, 220, 235])) if body < 100 else int(rng.choice([30, 235]))
    ink = (235,) * 3 if keycol < 128 else (30,) * 3
    labelled = key >= 9 and rng.random() < 0.7  # key caps printed with letters and digits
    for ky in range(y + gap, y + h - key, key + gap):
        for kx in range(x + gap, x + w - key, key + gap):
            cv2.rectangle(img, (kx, ky), (kx + key - gap, ky + key - gap), (keycol,) * 3, -1)
            if labelled:
                char = _KEY_CHARS[int(rng.integers(0, len(_KEY_CHARS)))]
                cv2.putText(img, char, (kx + key // 5, ky + key * 3 // 5), cv2.FONT_HERSHEY_SIMPLEX,
                            key / 40, ink, 1, cv2.LINE_AA)


def clutter(img: Image, rng: Rng, count: int) -> None:
    """Draw desk clutter in place: keyboards, laptops, papers, screens, cables, mice, earbud cases."""
    size = img.shape[0]
    for _ in range(count):
        kind = int(rng.integers(0, 7))
        x, y = (int(v) for v in rng.integers(-size // 3, size, 2))
        w, h = (int(v) for v in rng.integers(size // 8, size // 1.5, 2))
        if kind == 0:
            _keyboard(img, rng, x, y, w, h)
        elif kind == 1:  # paper or sticker with lines of "text"
            cv2.rectangle(img, (x, y), (x + w, y + h), (int(rng.integers(215, 255)),) * 3, -1)
            for ly in range(y + 10, y + h - 5, int(rng.integers(8, 18))):
                cv2.line(img, (x + 8, ly), (x + w - int(rng.integers(8, max(9, w // 2))), ly),
                         (int(rng.integers(20, 120)),) * 3, 2)
        elif kind == 2:  # screen with text, dark or light theme
            dark = rng.random() < 0.6
            cv2.rectangle(img, (x, y), (x + w, y + h), (20, 20, 20) if dark else (240, 240, 240), -1)
            text_col = rng.integers(120, 255, 3) if dark else rng.integers(0, 120, 3)
            _text_lines(img, rng, x, y, w, h, text_col.tolist())
        elif kind == 3:  # cable
            pts = np.cumsum(rng.normal(0, size / 10, (8, 2)), axis=0) + rng.uniform(0, size, 2)
            cv2.polylines(img, [pts.astype(np.int32)], False, (int(rng.integers(10, 60)),) * 3,
                          int(rng.integers(3, 10)), cv2.LINE_AA)
        elif kind == 4:  # mouse, earbud case, mug seen from above
            col = (int(rng.integers(10, 250)),) * 3
            cv2.ellipse(img, (x, y), (w // 4, h // 3), float(rng.uniform(0, 180)), 0, 360, col, -1,
                        cv2.LINE_AA)
        elif kind == 5:  # laptop: silver or dark body, keyboard, touchpad
            body = int(rng.choice([35, 150, 185, 210]))
            cv2.rectangle(img, (x, y), (x + w, y + h), (body + 5, body, body - 3), -1)
            _keyboard(img, rng, x + w // 12, y + h // 10, w * 5 // 6, h // 2)
            pad = (body + 20) if body < 100 else body - 25
            cv2.rectangle(img, (x + w // 3, y + h * 2 // 3), (x + w * 2 // 3, y + h * 9 // 10),
                          (pad,) * 3, 2)
        else:  # a coloured object (book, box): teaches that colour alone is not a card
            col = rng.integers(0, 255, 3).tolist()
            cv2.rectangle(img, (x, y), (x + w, y + h), col, -1)


_SKIN_HSV = ((4, 18), (60, 170), (45, 230))


def skin_tone(rng: Rng) -> NDArray[np.float32]:
    """A BGR skin colour, light to dark."""
    return _colour(rng, *_SKIN_HSV)


def hand_layer(rng: Rng, size: int, target: tuple[float, float], reach: float,
               angle: float | None = None, skin: NDArray[np.float32] | None = None,
               palm_radius: float | None = None) -> Image:
    """A BGRA hand (palm and fingers) reaching from outside the frame towards ``target``.

    ``angle`` (radians) points from the target back to the wrist (random when ``None``); ``skin``
    is its BGR colour (a random skin tone when ``None``).
    """
    skin = skin if skin is not None else skin_tone(rng)
    angle = angle if angle is not None else rng.uniform(0, 2 * math.pi)
    dx, dy = math.cos(angle), math.sin(angle)
    tx, ty = target
    # Wrist well outside the frame in direction (dx, dy), palm centre 'reach' before the target.
    palm_r = palm_radius if palm_radius is not None else size * rng.uniform(0.09, 0.16)
    px, py = tx + dx * (reach + palm_r), ty + dy * (reach + palm_r)
    wx, wy = px + dx * size, py + dy * size
    mask = np.zeros((size, size), np.uint8)
    cv2.line(mask, (int(wx), int(wy)), (int(px), int(py)), 255, int(palm_r * 1.6), cv2.LINE_AA)
    cv2.ellipse(mask, (int(px), int(py)), (int(palm_r * 1.1), int(palm_r)),
                math.degrees(angle), 0, 360, 255, -1, cv2.LINE_AA)
    n_fingers = int(rng.integers(1, 5))
    spread = rng.uniform(0.25, 0.5)
    for i in range(n_fingers):
        a = angle + math.pi + (i - (n_fingers - 1) / 2) * spread / max(1, n_fingers - 1) * 2
        length = palm_r * rng.uniform(1.2, 2.2)
        fx, fy = px + math.cos(a) * length, py + math.sin(a) * length
        cv2.line(mask, (int(px), int(py)), (int(fx), int(fy)), 255,
                 max(3, int(palm_r * rng.uniform(0.3, 0.42))), cv2.LINE_AA)
    if rng.random() < 0.7:  # thumb
        a = angle + math.pi + rng.choice([-1, 1]) * rng.uniform(0.9, 1.5)
        fx, fy = px + math.cos(a) * palm_r * 1.6, py + math.sin(a) * palm_r * 1.6
        cv2.line(mask, (int(px), int(py)), (int(fx), int(fy)), 255, max(3, int(palm_r * 0.45)),
                 cv2.LINE_AA)
    return _shade_skin(rng, mask, skin, palm_r)


def _shade_skin(rng: Rng, mask: Image, skin: NDArray[np.float32], radius: float) -> Image:
    """Skin-coloured BGRA layer over ``mask``, darker towards its edges (a rounded body)."""
    size = mask.shape[0]
    q = 4  # shading varies slowly: compute it at a quarter of the resolution
    small = cv2.resize(mask, (size // q, size // q), interpolation=cv2.INTER_AREA)
    edge = cv2.GaussianBlur(small, (0, 0), max(0.5, radius * 0.15 / q)).astype(np.float32) / 255.0
    shade_small = (1.0 + _smooth_noise(rng, size // q, size // q, 4, 4) * 0.08) * (0.7 + 0.3 * edge)
    shade_small = np.clip(shade_small[..., None] * skin, 0, 255).astype(np.uint8)
    layer = np.empty((size, size, 4), np.uint8)
    layer[..., :3] = cv2.resize(shade_small, (size, size), interpolation=cv2.INTER_LINEAR)
    layer[..., 3] = mask
    return layer


def thumb_layer(rng: Rng, size: int, tip: tuple[float, float], angle: float, width: float,
                skin: NDArray[np.float32]) -> Image:
    """A BGRA thumb ending at ``tip``, coming from direction ``angle`` (radians), over a card."""
    mask = np.zeros((size, size), np.uint8)
    length = width * rng.uniform(2.5, 4.0)
    base = (tip[0] + math.cos(angle) * length, tip[1] + math.sin(angle) * length)
    cv2.line(mask, (int(base[0]), int(base[1])), (int(tip[0]), int(tip[1])), 255,
             max(2, int(width)), cv2.LINE_AA)
    return _shade_skin(rng, mask, skin, width)
