"""Read a card's colour from its pixels against a deck's palette.

The detector predicts colour-blind faces (``7``, ``skip``, ``wild``); this module names the colour, so
a deck with another palette (the Luxembourgish orange and violet) needs no retraining. A coloured UNO
card is mostly one saturated hue (the card body and the symbol), on a white oval and border; we vote
the hue of its saturated, well-lit pixels against the palette's hue centres.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import CLASSIC_COLOURS, Colour

#: Hue centres in OpenCV's 0..180 scale, as printed UNO colours photograph under neutral light.
HUE_CENTRES: dict[Colour, float] = {
    Colour.RED: 176.0,
    Colour.ORANGE: 12.0,
    Colour.YELLOW: 27.0,
    Colour.GREEN: 68.0,
    Colour.BLUE: 106.0,
    Colour.VIOLET: 145.0,
}

_MIN_SATURATION = 90
_MIN_VALUE = 60


def white_balance_gains(
    image: npt.NDArray[np.uint8], cards: npt.NDArray[np.float32] | Sequence[Sequence[float]] | None = None
) -> npt.NDArray[np.float32]:
    """Per-channel gains that make the bright, unsaturated pixels (cards' white borders) neutral.

    ``cards``: boxes (x1, y1, x2, y2) of cards in ``image``; only their pixels are looked at. Without
    them the whole image is, and a light table (beige wood is bright and little saturated) passes
    for white: its gains turn a teal-green card blue (dev seed 137).
    """
    h, w = image.shape[:2]
    small = cv2.resize(image, (64, 64), interpolation=cv2.INTER_AREA) if image.shape[0] > 64 else image
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    region = np.ones(hsv.shape[:2], bool)
    if cards is not None:
        region[:] = False
        sx, sy = small.shape[1] / w, small.shape[0] / h
        for x1, y1, x2, y2 in np.asarray(cards, np.float32).reshape(-1, 4):
            # The box's rim holds table where the card lies rotated.
            dx, dy = 0.1 * (x2 - x1), 0.1 * (y2 - y1)
            region[max(int((y1 + dy) * sy), 0):int((y2 - dy) * sy) + 1,
                   max(int((x1 + dx) * sx), 0):int((x2 - dx) * sx) + 1] = True
        if region.sum() < 20:
            return np.ones(3, np.float32)
    # Near-white under coloured light is still fairly unsaturated, and among the brightest pixels.
    value = hsv[..., 2]
    mask = region & (hsv[..., 1] < 110) & (value >= max(140, np.percentile(value[region], 80)))
    if mask.sum() < 20:
        return np.ones(3, np.float32)
    mean: npt.NDArray[np.float32] = small[mask].astype(np.float32).mean(axis=0)
    gains: npt.NDArray[np.float32] = np.clip(mean.mean() / np.maximum(mean, 1.0), 0.6, 1.6)
    return gains.astype(np.float32)


def _hue_distance(h: npt.NDArray[np.float32], centre: float) -> npt.NDArray[np.float32]:
    d: npt.NDArray[np.float32] = np.abs(h - centre)
    nearest: npt.NDArray[np.float32] = np.minimum(d, np.float32(180.0) - d)
    return nearest


def read_colour(
    image: npt.NDArray[np.uint8],
    xyxy: Sequence[float] | npt.NDArray[np.float32],
    palette: Sequence[Colour] = CLASSIC_COLOURS,
) -> tuple[Colour, float]:
    """The palette colour of the card in box ``xyxy`` of BGR ``image`` and the share of votes it won."""
    h_img, w_img = image.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in xyxy)
    # Shrink the box: its corners hold table, or the card under it, when the card lies turned (by
    # 15 % a green card turned on a red one on blue cloth read green at only 0.55, dev seed 131).
    dx, dy = (x2 - x1) * 0.25, (y2 - y1) * 0.25
    xa, ya = max(int(x1 + dx), 0), max(int(y1 + dy), 0)
    xb, yb = min(int(x2 - dx), w_img), min(int(y2 - dy), h_img)
    if xb - xa < 2 or yb - ya < 2:
        return palette[0], 0.0
    crop = image[ya:yb, xa:xb]
    if crop.shape[0] * crop.shape[1] > 96 * 96:
        crop = cv2.resize(crop, (96, 96), interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).reshape(-1, 3)
    sat = hsv[:, 1].astype(np.float32)
    val = hsv[:, 2].astype(np.float32)
    keep = (sat >= _MIN_SATURATION) & (val >= _MIN_VALUE)
    if keep.sum() < 10:
        keep = sat >= np.percentile(sat, 75)
    hue = hsv[keep, 0].astype(np.float32)
    weight = (sat[keep] * val[keep]) / (255.0 * 255.0)
    distances = np.stack([_hue_distance(hue, HUE_CENTRES[c]) for c in palette])
    nearest = distances.argmin(axis=0)
    # Votes far from every centre (a hand, the table) count little.
    weight = weight * np.exp(-((distances.min(axis=0) / 18.0) ** 2))
    votes = np.bincount(nearest, weights=weight, minlength=len(palette))
    total = float(votes.sum())
    if total <= 0:
        return palette[0], 0.0
    best = int(votes.argmax())
    return palette[best], float(votes[best] / total)
