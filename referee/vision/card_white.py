"""A card's own pixels, and the light they were taken under.

Which pixels lie surely on a card (its box and aspect give its size and its angle up to a mirror), balanced on
the card's own white (the one reference every printing carries: a failed white balance or a lamp tints the
whole view, and one gain per channel undoes it), and which of them reached the sensor's ceiling. What
:mod:`referee.vision.colour` reads a card's colour from, and a learned deck's palette too.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from referee.vision.card_shape import CARD_ASPECT, card_in_box

#: A coloured pixel: at least this saturated and this light (OpenCV's 0..255).
MIN_SATURATION = 90
MIN_VALUE = 60

#: The card's share, each way, that its colour is read from (:func:`on_card`): its white border left out,
#: and the detector's box a little loose.
HUE_REGION = 0.75
#: The same for the whites the crop is balanced on: the border in.
WHITE_REGION = 0.95
#: The card's own whites, by which :func:`balance_gains` corrects a crop: its pixels at most this
#: saturated (OpenCV's 0..255) among its brightest. White under a strong cast is still fairly unsaturated
#: (a failed webcam balance that doubles red over blue in linear light gives white a saturation of about
#: 70), and a UNO colour is well over 120 even when washed out.
_WHITE_SATURATION = 120
#: At least this share of the card must be such whites for a correction: a card whose white is hidden is
#: read as it shows.
_WHITE_SHARE = 0.02
#: A cast stronger still leaves no pixel of the card that unsaturated: a cool light through a window turns
#: a thin white ring light blue at a saturation of 125-150. The card's white is then its least saturated
#: bright pixels (within :data:`_CAST_WHITE_SPREAD` of their 5th percentile), taken where they are at most
#: this saturated and clearly less so than the card's colour
#: (:data:`_CAST_WHITE_BELOW_COLOUR` of its 75th percentile): a pale colour with no white showing is one
#: cluster, and is read as it shows.
_CAST_WHITE_SATURATION = 150
_CAST_WHITE_SPREAD = 25
_CAST_WHITE_BELOW_COLOUR = 0.75
#: ... and of a hue at least this far from the colour's (OpenCV's hue, 0..180).
_CAST_WHITE_HUE_APART = 20
#: How far one channel may be scaled: a cast stronger than this is beyond what the card's white can tell.
GAIN_RANGE = (0.6, 1.7)
#: The same where the whole view was balanced already (the live pile view,
#: :class:`~referee.vision.colour.DeckColours`): what is left to undo is light over one part of the table, and a
#: card half under others whose white does not show could otherwise have the least saturated of its own colour
#: taken for a white under a strong cast (a pale yellow balanced into blue).
LIVE_GAIN_RANGE = (0.8, 1.25)


def on_card(shape: tuple[int, int], box_size: tuple[float, float], share: float) -> npt.NDArray[np.bool_]:
    """Which pixels of a crop of ``shape`` (h, w), resized from a box of ``box_size`` (w, h), lie on the
    card surely: within ``share`` of the card's size of its centre, whichever way it is turned.

    A card turned by an angle fills its box only in part, and the box's corners hold the table (or the
    card below), whose hues can outvote a pale card's. The box and the card's aspect (:data:`CARD_ASPECT`)
    give the card's size and its angle up to a mirror (turned by +a or -a, the box is the same); the pixels
    within both candidate rectangles, shrunk to ``share``, are the card's whatever the mirror. The region
    depends on the box's shape only, so it is kept for each shape met (to a hundredth of its aspect)."""
    bw, bh = (max(float(v), 1.0) for v in box_size)
    return _on_card(shape, round(bw / bh, 2), share)


@lru_cache(maxsize=1024)
def _on_card(shape: tuple[int, int], aspect: float, share: float) -> npt.NDArray[np.bool_]:
    bw, bh = aspect, 1.0
    a, t = card_in_box(bw, bh)
    b = CARD_ASPECT * a
    h, w = shape
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    x = (xs + 0.5) / w * bw - bw / 2
    y = (ys + 0.5) / h * bh - bh / 2
    inside = np.ones(shape, bool)
    for angle in (t, -t):
        c, s_ = np.cos(angle), np.sin(angle)
        along, across = x * c + y * s_, -x * s_ + y * c
        inside &= (np.abs(along) <= share * a / 2) & (np.abs(across) <= share * b / 2)
    inside.setflags(write=False)
    return inside


def _box_crop(image: npt.NDArray[np.uint8], xyxy: Sequence[float] | npt.NDArray[np.float32]
              ) -> tuple[npt.NDArray[np.uint8], tuple[float, float]] | None:
    """The whole box, every n-th pixel each way so at most about 80 x 80 (colour statistics need no more,
    and skipping is ten times cheaper than resizing a close-up), and the box's size (``None``: too small)."""
    h_img, w_img = image.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in xyxy)
    xa, ya, xb, yb = max(int(x1), 0), max(int(y1), 0), min(int(np.ceil(x2)), w_img), min(int(np.ceil(y2)), h_img)
    if xb - xa < 4 or yb - ya < 4:
        return None
    step = max(1, -(-max(xb - xa, yb - ya) // 80))
    return image[ya:yb:step, xa:xb:step], (xb - xa, yb - ya)


def balance_gains(pixels: npt.NDArray[np.uint8], gain_range: tuple[float, float] = GAIN_RANGE, *,
                  strong_casts: bool = True) -> npt.NDArray[np.float32] | None:
    """Channel gains that make the brightest unsaturated of ``pixels`` (N x 3 BGR, one card's) neutral
    grey: the card's white border, oval, ring, disc or numerals. Colour constancy with the one reference
    every printing carries: a camera whose white balance failed tints the whole view (a green cast under
    fluorescent tubes turns yellow green and red brown; a cool one, red violet and yellow green), and a
    light over one part of the table tints the cards there; a channel gain in the camera's linear light is
    a channel gain in its gamma-encoded pixels too, so one gain per channel undoes it. Under a cast too
    strong for enough pixels to look white, the least saturated bright cluster where it is of another hue than
    the card's colour and clearly less saturated or lighter in every channel (:func:`_tinted_white`), with
    ``strong_casts``: not in a view balanced as a whole already (the live pile view), where no strong cast is
    left and a pale card half under others could have its palest pixels taken for a tinted white (a yellow
    balanced into blue). ``None`` where too little white shows."""
    flat = pixels.reshape(-1, 3)
    hsv = cv2.cvtColor(flat.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3)
    saturation, value = hsv[:, 1], hsv[:, 2]
    bright = value >= max(100.0, float(np.percentile(value, 80)))
    if bright.sum() < 10:
        return None
    enough = max(10, _WHITE_SHARE * len(value))
    white = bright & (saturation <= _WHITE_SATURATION)
    if white.sum() < enough:  # too little plain white: a strong cast, or no white showing
        least = float(np.percentile(saturation[bright], 5))
        white = bright & (saturation <= least + _CAST_WHITE_SPREAD)
        if not (strong_casts and _tinted_white(flat, hsv, white, bright, least)):
            return None
        if white.sum() < enough:
            return None
    mean = flat[white].astype(np.float32).mean(axis=0)
    gains: npt.NDArray[np.float32] = np.clip(mean.mean() / np.maximum(mean, 1.0), *gain_range).astype(np.float32)
    return gains


def _tinted_white(pixels: npt.NDArray[np.uint8], hsv: npt.NDArray[np.uint8], white: npt.NDArray[np.bool_],
                  bright: npt.NDArray[np.bool_], least: float) -> bool:
    """Whether the ``white`` pixels of a card with no plain white (their saturation from ``least`` up) are its
    white under a strong cast, not the palest of its colour: at most :data:`_CAST_WHITE_SATURATION`, of another
    hue than the card's colour (a cast tints white its own way, whatever the card's colour; a pale pink card's
    palest pixels are pink), and either clearly less saturated than the colour or lighter than it in every
    channel (:func:`_whiter_than`): a cast as strong as a cool window on a yellow card makes the white ring as
    saturated as the lime the yellow turns, and only its light tells them apart."""
    saturation = hsv[:, 1].astype(np.float32)
    if least > _CAST_WHITE_SATURATION or white.sum() < 10:
        return False
    paler = least <= _CAST_WHITE_BELOW_COLOUR * float(np.percentile(saturation, 75))
    colour = ~white & (saturation > least + _CAST_WHITE_SPREAD)
    if paler and colour.sum() >= 10 and _hues_apart(hsv, white, colour) >= _CAST_WHITE_HUE_APART:
        return True
    ink = ~bright & (saturation >= MIN_SATURATION) & (hsv[:, 2] >= MIN_VALUE)
    return bool(ink.sum() >= 10 and _hues_apart(hsv, white, ink) >= _CAST_WHITE_HUE_APART
                and _whiter_than(pixels[white], pixels[ink]))


def _hues_apart(hsv: npt.NDArray[np.uint8], a: npt.NDArray[np.bool_], b: npt.NDArray[np.bool_]) -> float:
    """How far apart the mean hues of the pixels ``a`` and ``b`` are (OpenCV's hue units, 0..90)."""
    angle = hsv[:, 0].astype(np.float32) * (np.pi / 90.0)  # OpenCV's hue is 0..180
    mean_a = np.arctan2(np.sin(angle[a]).mean(), np.cos(angle[a]).mean())
    mean_b = np.arctan2(np.sin(angle[b]).mean(), np.cos(angle[b]).mean())
    return float(abs((mean_a - mean_b + np.pi) % (2 * np.pi) - np.pi) * (90.0 / np.pi))


#: How much darker than an ink a channel of a white may look and still be its white (JPEG, a sensor clipping
#: the white's strongest channel first).
_WHITER_SLACK = 0.95


def _whiter_than(white: npt.NDArray[np.uint8], ink: npt.NDArray[np.uint8]) -> bool:
    """Whether ``white`` (N x 3) is lighter than ``ink`` (M x 3) in every channel, as paper is under the light
    that lights both: an ink only takes light away, each channel its own share, so in any light a white
    reflects at least as much of each channel as any colour printed beside it. The palest of a colour is as
    light in its own channels only, and a cast tints the white and the ink by the same gains."""
    w = white.astype(np.float32).mean(axis=0)
    k = ink.astype(np.float32).mean(axis=0)
    return bool((w >= _WHITER_SLACK * k).all() and w.sum() > k.sum())


#: A channel at least this bright is at the ceiling of the sensor (or of the balance's gain): the light it got is
#: unknown, so the pixel's hue is the ratio of its other channels to the ceiling, bent away from the clipped
#: channel. An overexposed blue card (a webcam metering on a dark room) clips blue and then green: its body
#: turns the cyan (hue 90) between green and blue. Bent by a few units, a hue well inside one colour still names
#: it (a clipped yellow is still yellow); between two colours it names neither, and such a pixel does not vote
#: (:func:`referee.vision.colour.fair_votes`).
CLIPPED = 250


class CardPixels(NamedTuple):
    """The pixels (N x 3 BGR) surely on a card, balanced on its own whites, and which of them reached the
    ceiling (:data:`CLIPPED`) in the camera's pixels or in the balancing."""

    pixels: npt.NDArray[np.uint8]
    clipped: npt.NDArray[np.bool_]


def card_light(image: npt.NDArray[np.uint8], xyxy: Sequence[float] | npt.NDArray[np.float32], *,
               gain_range: tuple[float, float] | None = GAIN_RANGE, strong_casts: bool = True) -> CardPixels | None:
    """The pixels surely on the card at box ``xyxy`` (:func:`on_card`), balanced on the card's own whites
    (:func:`balance_gains`, each channel within ``gain_range``; ``None``: not balanced), with those clipped;
    ``None`` for a box too small."""
    found = _box_crop(image, xyxy)
    if found is None:
        return None
    crop, size = found
    shape = (crop.shape[0], crop.shape[1])
    pixels = crop[on_card(shape, size, HUE_REGION)]
    if len(pixels) < 10:
        return None
    clipped = pixels.max(axis=1) >= CLIPPED
    gains = (balance_gains(crop[on_card(shape, size, WHITE_REGION)], gain_range, strong_casts=strong_casts)
             if gain_range else None)
    if gains is None:
        return CardPixels(pixels, clipped)
    balanced = pixels.astype(np.float32) * gains
    out: npt.NDArray[np.uint8] = np.clip(balanced, 0, 255).astype(np.uint8)
    return CardPixels(out, clipped | (balanced.max(axis=1) > 255))


def card_pixels(image: npt.NDArray[np.uint8], xyxy: Sequence[float] | npt.NDArray[np.float32], *,
                gain_range: tuple[float, float] | None = GAIN_RANGE, strong_casts: bool = True
                ) -> npt.NDArray[np.uint8] | None:
    """The pixels (N x 3 BGR) surely on the card at box ``xyxy``, balanced on the card's own whites
    (:func:`card_light` without which are clipped); ``None`` for a box too small."""
    found = card_light(image, xyxy, gain_range=gain_range, strong_casts=strong_casts)
    return None if found is None else found.pixels
