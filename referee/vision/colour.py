"""Read a card's colour from its pixels against a deck's palette.

The detector predicts colour-blind faces (``7``, ``skip``, ``wild``); this module names the colour, so
a deck with another palette (the Luxembourgish orange and violet) needs no retraining. A coloured UNO
card is mostly one saturated hue (the card body and the symbol), on a white oval and border; we vote
the hue of its saturated, well-lit pixels against the palette's hue centres.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import CLASSIC_COLOURS, Colour
from referee.vision.card_shape import CARD_ASPECT, card_in_box

#: Hue centres in OpenCV's 0..180 scale, as printed UNO colours photograph under neutral light.
HUE_CENTRES: dict[Colour, float] = {
    Colour.RED: 176.0,
    Colour.ORANGE: 12.0,
    Colour.YELLOW: 27.0,
    Colour.GREEN: 68.0,
    Colour.BLUE: 106.0,
    Colour.VIOLET: 145.0,
}

#: How far each colour's printings spread around its centre (OpenCV hue units): printers print green
#: anywhere from a lime at 38 to a teal at 88 and yellow only from amber to lemon (19-31), so a pixel
#: is named by its distance to each centre in units of that colour's spread. With equal spreads a lime
#: green at 42 lies nearer the yellow centre (27) than the green one (68) and read yellow: the boundary
#: between them is now at 36 (it was 47.5), between green and blue at 91 (87), between red and yellow
#: at 13 (11.5). ``benchmarks/colour_eval.py`` measures both ways on cards printed over these ranges.
HUE_WIDTHS: dict[Colour, float] = {
    Colour.RED: 7.0,
    Colour.ORANGE: 4.5,
    Colour.YELLOW: 6.0,
    Colour.GREEN: 22.0,
    Colour.BLUE: 14.0,
    Colour.VIOLET: 14.0,
}

_MIN_SATURATION = 90
_MIN_VALUE = 60


def white_balance_gains(
    image: npt.NDArray[np.uint8], cards: npt.NDArray[np.float32] | Sequence[Sequence[float]] | None = None
) -> npt.NDArray[np.float32]:
    """Per-channel gains that make the bright, unsaturated pixels (cards' white borders) neutral.

    ``cards``: boxes (x1, y1, x2, y2) of cards in ``image``; only their pixels are looked at. Without
    them the whole image is, and a light table (beige wood is bright and little saturated) passes
    for white, and its gains turn a teal-green card blue.
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


class ColourReader(Protocol):
    """What the detector reads colours with, frame by frame: :class:`DeckColours` (learning the deck's
    printing as it plays) or a learned deck's palette (:class:`referee.vision.deck.DeckPalette`)."""

    palette: tuple[Colour, ...]

    def read(self, image: npt.NDArray[np.uint8], xyxy: Sequence[float] | npt.NDArray[np.float32], *,
             learn: bool = True) -> tuple[Colour, float]: ...


def _hue_distance(h: npt.NDArray[np.float32], centre: float) -> npt.NDArray[np.float32]:
    d: npt.NDArray[np.float32] = np.abs(h - centre)
    nearest: npt.NDArray[np.float32] = np.minimum(d, np.float32(180.0) - d)
    return nearest


def read_colour(
    image: npt.NDArray[np.uint8],
    xyxy: Sequence[float] | npt.NDArray[np.float32],
    palette: Sequence[Colour] = CLASSIC_COLOURS,
    *,
    widths: bool = True,
    whites: bool = True,
) -> tuple[Colour, float]:
    """The palette colour of the card in box ``xyxy`` of BGR ``image`` and the share of votes it won
    (``widths``: each hue named in units of each colour's spread, :data:`HUE_WIDTHS`; without, by the
    nearest centre; ``whites``: read on the card balanced on its own whites; without, the box's middle as
    the camera shows it: both for comparison)."""
    spread = [HUE_WIDTHS[c] if widths else 1.0 for c in palette]
    colour, share, _ = _vote(_card_hues(image, xyxy, whites=whites), palette, [HUE_CENTRES[c] for c in palette],
                             spread)
    return colour, share


class DeckColours:
    """The deck's own printing of each colour, learned from the cards read surely.

    Printers differ: one deck's green is a teal at hue 84-86, another's a grass green at 62, and under
    warm light corrected by the white balance the teal drifts to 88, past the midpoint (87) between
    the stock green (68) and blue (106) centres, so every green card reads blue, and surely. But a
    deck prints each colour one way, so each card read surely (``sure``
    of the votes) teaches its colour's centre the hue it showed: the mean of the first reads, then a
    moving average (``rate``), at most ``reach`` of the way to a neighbouring colour's stock centre.

    A colour gives ground only to a neighbour that has shown its own printing: a learned centre moves
    towards a neighbour (on the hue circle) only once that neighbour is learned too (``min_reads``
    sure reads). Otherwise a deck whose blue is printed at 100 would pull blue towards green before
    any green card came, and its greens at 85 would read blue, surely, teaching blue more of them,
    until every green card of the game reads blue.

    No colour can walk into another: a learned centre stays within ``reach`` of the way from its stock
    centre to the stock boundary with each neighbour (where the two are equally far in units of their
    spreads, :data:`HUE_WIDTHS`). Two neighbours' centres therefore never meet or cross, whatever the
    cards teach them, and a card printed at its colour's stock hue reads that colour for the whole game.
    (With a reach measured to the neighbour's centre, a yellow and a green that both drifted towards each
    other met, and from then on every yellow card read green and every green yellow.)
    """

    def __init__(
        self, palette: Sequence[Colour] = CLASSIC_COLOURS, *, sure: float = 0.9, rate: float = 0.1,
        reach: float = 0.5, min_reads: int = 3,
    ) -> None:
        self.palette = tuple(palette)
        self.sure = sure
        self.rate = rate
        self.min_reads = min_reads
        self.stock = [HUE_CENTRES[c] for c in self.palette]
        self.widths = [HUE_WIDTHS[c] for c in self.palette]
        #: What each colour's sure reads taught (stock centres until then), and how many there were.
        self.learned = list(self.stock)
        self.reads = [0] * len(self.palette)
        n = len(self.stock)
        # Each colour's neighbours on the hue circle, below and above, and how far it may go each way.
        self._below: list[int | None] = [None] * n
        self._above: list[int | None] = [None] * n
        self._reach_below = [0.0] * n
        self._reach_above = [0.0] * n
        for i, h in enumerate(self.stock):
            others = [(j, _signed(o, h)) for j, o in enumerate(self.stock) if j != i]
            below = [(j, d) for j, d in others if d < 0]
            above = [(j, d) for j, d in others if d > 0]
            # The stock boundary with a neighbour lies w_i / (w_i + w_j) of the way to it.
            if below:
                j, d = max(below, key=lambda jd: jd[1])
                self._below[i] = j
                self._reach_below[i] = reach * -d * self.widths[i] / (self.widths[i] + self.widths[j])
            if above:
                j, d = min(above, key=lambda jd: jd[1])
                self._above[i] = j
                self._reach_above[i] = reach * d * self.widths[i] / (self.widths[i] + self.widths[j])

    def _known(self, j: int | None) -> bool:
        return j is None or self.reads[j] >= self.min_reads

    @property
    def centres(self) -> list[float]:
        """The centres colours are read against: each learned centre, moved towards a neighbour only
        as far as that neighbour is known."""
        out = []
        for i, stock in enumerate(self.stock):
            if not self._known(i):
                out.append(stock)
                continue
            lo = -self._reach_below[i] if self._known(self._below[i]) else 0.0
            hi = self._reach_above[i] if self._known(self._above[i]) else 0.0
            out.append((stock + float(np.clip(_signed(self.learned[i], stock), lo, hi))) % 180.0)
        return out

    def read(
        self, image: npt.NDArray[np.uint8], xyxy: Sequence[float] | npt.NDArray[np.float32], *, learn: bool = True
    ) -> tuple[Colour, float]:
        """:func:`read_colour` against the deck's centres; a sure reading teaches them (with ``learn``)."""
        hues = _card_hues(image, xyxy, gain_range=LIVE_GAIN_RANGE, strong_casts=False)
        colour, share, hue = _vote(hues, self.palette, self.centres, self.widths)
        if learn and hue is not None and share >= self.sure:
            self.learn(colour, hue)
        return colour, share

    def learn(self, colour: Colour, hue: float) -> None:
        """Pull ``colour``'s learned centre towards ``hue`` (within its reach of the stock centre)."""
        i = self.palette.index(colour)
        stock = self.stock[i]
        # The mean of its first reads, then a moving average (the light changes).
        rate = max(self.rate, 1.0 / (self.reads[i] + 1))
        towards = self.learned[i] + rate * _signed(hue, self.learned[i])
        offset = float(np.clip(_signed(towards, stock), -self._reach_below[i], self._reach_above[i]))
        self.learned[i] = (stock + offset) % 180.0
        self.reads[i] += 1


def _signed(h: float, centre: float) -> float:
    """``h - centre`` on the hue circle (0..180), in -90..90."""
    return (h - centre + 90.0) % 180.0 - 90.0


def box_middle(
    image: npt.NDArray[np.uint8], xyxy: Sequence[float] | npt.NDArray[np.float32], shrink: float
) -> npt.NDArray[np.uint8] | None:
    """The middle of box ``xyxy``, ``shrink`` of its size cut off each side, at most 96 x 96 pixels
    (``None``: too small). A box's corners hold table, or the card under it, when the card lies turned,
    and their hues would outvote the card's own where the card below or the cloth has a strong colour."""
    h_img, w_img = image.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in xyxy)
    dx, dy = (x2 - x1) * shrink, (y2 - y1) * shrink
    xa, ya = max(int(x1 + dx), 0), max(int(y1 + dy), 0)
    xb, yb = min(int(x2 - dx), w_img), min(int(y2 - dy), h_img)
    if xb - xa < 2 or yb - ya < 2:
        return None
    crop = image[ya:yb, xa:xb]
    if crop.shape[0] * crop.shape[1] > 96 * 96:
        crop = cv2.resize(crop, (96, 96), interpolation=cv2.INTER_AREA)
    return crop


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
#: The same where the whole view was balanced already (the live pile view, :class:`DeckColours`): what is
#: left to undo is light over one part of the table, and a card half under others whose white does not show
#: could otherwise have the least saturated of its own colour taken for a white under a strong cast (a pale
#: yellow balanced into blue).
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
    ink = ~bright & (saturation >= _MIN_SATURATION) & (hsv[:, 2] >= _MIN_VALUE)
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
#: (:func:`fair_votes`).
CLIPPED = 250
#: A clipped pixel votes only where it is clearly nearer one colour than any other: its distance to the nearest
#: centre (in units of that colour's spread) at most this share of its distance to the next.
_CLIPPED_CLEAR = 0.75


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


def fair_votes(distances: npt.NDArray[np.float32], clipped: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Which pixels vote, given each one's ``distances`` to each colour (colours x pixels, in units of each
    colour's spread) and which are ``clipped``: every unclipped pixel, and a clipped one only where it is clearly
    nearer one colour than the next (:data:`_CLIPPED_CLEAR`); all of them where none would be left."""
    if distances.shape[0] < 2 or not clipped.any():
        return np.ones(distances.shape[1], bool)
    two = np.sort(distances, axis=0)[:2]
    fair: npt.NDArray[np.bool_] = ~clipped | (two[0] <= _CLIPPED_CLEAR * two[1])
    return fair if fair.any() else np.ones(distances.shape[1], bool)


def _card_hues(
    image: npt.NDArray[np.uint8], xyxy: Sequence[float] | npt.NDArray[np.float32], *, whites: bool = True,
    gain_range: tuple[float, float] = GAIN_RANGE, strong_casts: bool = True,
) -> Hues | None:
    """Hue, weight and clipping of the saturated, well-lit pixels surely on the card in box ``xyxy`` (:func:`on_card`;
    ``None``: too small), balanced on the card's own whites first (:func:`balance_gains`). Without
    ``whites``, those of the box's middle half as the camera shows them (the reading before, to compare)."""
    if whites:
        found = card_light(image, xyxy, gain_range=gain_range, strong_casts=strong_casts)
        if found is None:
            return None
        pixels, clipped = found
    else:
        middle = box_middle(image, xyxy, 0.25)
        if middle is None:
            return None
        pixels = middle.reshape(-1, 3)
        clipped = np.zeros(len(pixels), bool)
    hsv = cv2.cvtColor(pixels.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3)
    sat = hsv[:, 1].astype(np.float32)
    val = hsv[:, 2].astype(np.float32)
    keep = (sat >= _MIN_SATURATION) & (val >= _MIN_VALUE)
    if keep.sum() < 10:
        keep = sat >= np.percentile(sat, 75)
    hue = hsv[keep, 0].astype(np.float32)
    weight: npt.NDArray[np.float32] = ((sat[keep] * val[keep]) / (255.0 * 255.0)).astype(np.float32)
    return Hues(hue, weight, clipped[keep])


class Hues(NamedTuple):
    """A card's coloured pixels as they vote: their hue (OpenCV's 0..180), weight, and whether clipped."""

    hue: npt.NDArray[np.float32]
    weight: npt.NDArray[np.float32]
    clipped: npt.NDArray[np.bool_]


def _vote(
    pixels: Hues | None,
    palette: Sequence[Colour],
    centres: Sequence[float],
    widths: Sequence[float],
) -> tuple[Colour, float, float | None]:
    """Each pixel votes for its nearest centre, in units of each colour's spread (``widths``), a clipped one
    only where clearly within one colour (:func:`fair_votes`): the winner, its share of the votes, and the mean
    hue of the pixels that voted for it (``None`` without votes)."""
    if pixels is None:
        return palette[0], 0.0, None
    fair = fair_votes(np.stack([_hue_distance(pixels.hue, c) / w for c, w in zip(centres, widths, strict=True)]),
                      pixels.clipped)
    hue, weight = pixels.hue[fair], pixels.weight[fair]
    distances = np.stack([_hue_distance(hue, c) for c in centres])
    nearest = (distances / np.asarray(widths, np.float32)[:, None]).argmin(axis=0)
    # Votes far from every centre (a hand, the table) count little.
    weight = weight * np.exp(-((distances.min(axis=0) / 18.0) ** 2))
    votes = np.bincount(nearest, weights=weight, minlength=len(palette))
    total = float(votes.sum())
    if total <= 0:
        return palette[0], 0.0, None
    best = int(votes.argmax())
    mine = nearest == best
    offsets = (hue[mine] - centres[best] + 90.0) % 180.0 - 90.0
    mean_hue = (centres[best] + float(np.average(offsets, weights=weight[mine]))) % 180.0
    return palette[best], float(votes[best] / total), mean_hue
