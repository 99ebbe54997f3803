"""Read a card's colour from its pixels against a deck's palette.

The detector predicts colour-blind faces (``7``, ``skip``, ``wild``); this module names the colour, so
a deck with another palette (the Luxembourgish orange and violet) needs no retraining. A coloured UNO
card is mostly one saturated hue (the card body and the symbol), on a white oval and border; we vote
the hue of its saturated, well-lit pixels against the palette's hue centres.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import NamedTuple, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import CLASSIC_COLOURS, Colour
from referee.vision.card_white import GAIN_RANGE, LIVE_GAIN_RANGE, MIN_SATURATION, MIN_VALUE, card_light

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



#: Rounds of choosing the whites :func:`view_white_gains` balances on, each among the pixels balanced by the round
#: before: under a cast the least saturated bright pixels are not only the whites but also the pale inks of the
#: cast's opposite hue (a cool light makes a pale lime or a cream less saturated), so the first estimate falls
#: short of the cast; balanced by it, the whites turn nearly grey and those inks show their own colour again.
WHITE_ROUNDS = 3


def white_balance_gains(
    image: npt.NDArray[np.uint8], cards: npt.NDArray[np.float32] | Sequence[Sequence[float]] | None = None
) -> npt.NDArray[np.float32]:
    """Per-channel gains that make the bright, unsaturated pixels (cards' white borders) neutral
    (:func:`view_white_gains`; no white found: no change, gains of 1)."""
    gains = view_white_gains(image, cards)
    return np.ones(3, np.float32) if gains is None else gains


def view_white_gains(
    image: npt.NDArray[np.uint8], cards: npt.NDArray[np.float32] | Sequence[Sequence[float]] | None = None
) -> npt.NDArray[np.float32] | None:
    """Per-channel gains that make the bright, unsaturated pixels (cards' white borders) neutral; ``None``
    where too few such pixels show (a pile of dark cards, a hand over it, a cast so strong no white looks white
    any more): nothing is known of the light then, which is not the same as knowing it is neutral.

    ``cards``: boxes (x1, y1, x2, y2) of cards in ``image``; only their pixels are looked at. Without
    them the whole image is, and a light table (beige wood is bright and little saturated) passes
    for white, and its gains turn a teal-green card blue. The whites are chosen again among the pixels
    balanced by the last estimate (:data:`WHITE_ROUNDS`).
    """
    h, w = image.shape[:2]
    small = cv2.resize(image, (64, 64), interpolation=cv2.INTER_AREA) if image.shape[0] > 64 else image
    region = np.ones(small.shape[:2], bool)
    if cards is not None:
        region[:] = False
        sx, sy = small.shape[1] / w, small.shape[0] / h
        for x1, y1, x2, y2 in np.asarray(cards, np.float32).reshape(-1, 4):
            # The box's rim holds table where the card lies rotated.
            dx, dy = 0.1 * (x2 - x1), 0.1 * (y2 - y1)
            region[max(int((y1 + dy) * sy), 0):int((y2 - dy) * sy) + 1,
                   max(int((x1 + dx) * sx), 0):int((x2 - dx) * sx) + 1] = True
        if region.sum() < 20:
            return None
    raw = small.astype(np.float32)
    gains: npt.NDArray[np.float32] | None = None
    for _ in range(WHITE_ROUNDS):
        balanced = small if gains is None else np.clip(raw * gains, 0, 255).astype(np.uint8)
        hsv = cv2.cvtColor(balanced, cv2.COLOR_BGR2HSV)
        # Near-white under coloured light is still fairly unsaturated, and among the brightest pixels.
        value = hsv[..., 2]
        mask = region & (hsv[..., 1] < 110) & (value >= max(140, np.percentile(value[region], 80)))
        if mask.sum() < 20:
            break
        mean = raw[mask].mean(axis=0)
        gains = np.clip(mean.mean() / np.maximum(mean, 1.0), 0.6, 1.6).astype(np.float32)
    return gains


#: A known colour's spread, with :class:`DeckColours`' ``spreads``: this many deviations of its cards' hues from the
#: centre it is read against (the median's, as a standard deviation), and never under :data:`MIN_SPREAD` hue units
#: (nor over its stock spread).
SPREAD_K = 2.0
#: No colour is read narrower than the error one card's own balance can make. A card is balanced on its own white
#: (:func:`~referee.vision.card_white.balance_gains`: its brightest unsaturated pixels); where a lamp's glare lies
#: over a glossy card those are the glare's, washed towards the lamp's white with the palest of the ink, so that card
#: is hardly balanced while the others are, and its hues lie up to 5 units from theirs. A colour seen narrow beside
#: a wide one keeps about its own spread on that side, so a floor under that error hands such a card to the neighbour.
MIN_SPREAD = 5.0
#: The sure reads a colour's spread is measured over: its newest.
SPREAD_READS = 256


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

    With ``spreads``, a colour whose neighbours are both known is also read in units of the spread its own
    cards showed (:data:`SPREAD_K` deviations of their hues, between :data:`MIN_SPREAD` and its stock spread)
    rather than the spread of every printing there is: one deck under one camera prints its green a few hue
    units wide, not from lime to teal. The deviation is the median's: a card of the neighbour's colour read
    surely as this one (the misread this is to mend) must not widen it over the neighbour. A hue is then
    named by the two centres either side of it, so the boundary between two known neighbours lies between
    their learned centres in proportion to how widely each was seen, never past either, and a narrow colour
    keeps the hues past its centre on its far side. ``photos``: each card is balanced on its own white as a photo is
    (:func:`read_colour`: a wider gain range, strong casts), for a folder of photos from one camera;
    otherwise as the live pile view is.
    """

    def __init__(
        self, palette: Sequence[Colour] = CLASSIC_COLOURS, *, sure: float = 0.9, rate: float = 0.1,
        reach: float = 0.5, min_reads: int = 3, spreads: bool = False, photos: bool = False,
    ) -> None:
        self.palette = tuple(palette)
        self.sure = sure
        self.rate = rate
        self.min_reads = min_reads
        self.spreads = spreads
        self.photos = photos
        #: Set false to read against what was learned without learning more (a folder's second pass).
        self.learning = True
        self.stock = [HUE_CENTRES[c] for c in self.palette]
        self.widths = [HUE_WIDTHS[c] for c in self.palette]
        #: What each colour's sure reads taught (stock centres until then), and how many there were.
        self.learned = list(self.stock)
        self.reads = [0] * len(self.palette)
        #: Each colour's newest sure reads' hues, as offsets from its stock centre (its spread).
        self._seen: list[deque[float]] = [deque(maxlen=SPREAD_READS) for _ in self.palette]
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

    @property
    def read_widths(self) -> list[float]:
        """The spreads colours are read in: with ``spreads``, a colour known, its neighbours known too, in
        the spread its cards showed; otherwise its stock spread (:data:`HUE_WIDTHS`)."""
        out = list(self.widths)
        if not self.spreads:
            return out
        centres = self.centres
        for i, stock_width in enumerate(self.widths):
            if self._known(i) and self._known(self._below[i]) and self._known(self._above[i]):
                # About the centre read against (its reach may stop it short of the cards' own middle), and the
                # median's: one misread is one card.
                seen = np.asarray(self._seen[i], np.float32) - _signed(centres[i], self.stock[i])
                deviation = 1.4826 * float(np.median(np.abs(seen)))
                out[i] = float(np.clip(SPREAD_K * deviation, MIN_SPREAD, stock_width))
        return out

    def read(
        self, image: npt.NDArray[np.uint8], xyxy: Sequence[float] | npt.NDArray[np.float32], *, learn: bool = True
    ) -> tuple[Colour, float]:
        """:func:`read_colour` against the deck's centres; a sure reading teaches them (with ``learn``)."""
        hues = (_card_hues(image, xyxy) if self.photos
                else _card_hues(image, xyxy, gain_range=LIVE_GAIN_RANGE, strong_casts=False))
        colour, share, hue = _vote(hues, self.palette, self.centres, self.read_widths, between=self.spreads)
        if learn and self.learning and hue is not None and share >= self.sure:
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
        self._seen[i].append(_signed(hue, stock))


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


#: A clipped pixel votes only where it is clearly nearer one colour than any other: its distance to the nearest
#: centre (in units of that colour's spread) at most this share of its distance to the next.
_CLIPPED_CLEAR = 0.75


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
    """Hue, weight and clipping of the saturated, well-lit pixels surely on the card in box ``xyxy``
    (:func:`~referee.vision.card_white.card_light`; ``None``: too small), balanced on the card's own whites
    first. Without ``whites``, those of the box's middle half as the camera shows them (the reading before, to
    compare)."""
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
    keep = (sat >= MIN_SATURATION) & (val >= MIN_VALUE)
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
    *,
    between: bool = False,
) -> tuple[Colour, float, float | None]:
    """Each pixel votes for its nearest centre, in units of each colour's spread (``widths``), a clipped one
    only where clearly within one colour (:func:`fair_votes`): the winner, its share of the votes, and the mean
    hue of the pixels that voted for it (``None`` without votes). ``between``: only for one of the two centres
    on either side of it on the hue circle; otherwise a colour much narrower than its neighbour would lose
    the hues just past its centre on its far side too, where the neighbour, counted in its wide units, is
    nearer."""
    if pixels is None:
        return palette[0], 0.0, None
    units = _units(pixels.hue, centres, widths, between)
    fair = fair_votes(units, pixels.clipped)
    hue, weight, units = pixels.hue[fair], pixels.weight[fair], units[:, fair]
    distances = np.stack([_hue_distance(hue, c) for c in centres])
    nearest = units.argmin(axis=0)
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


def _units(hue: npt.NDArray[np.float32], centres: Sequence[float], widths: Sequence[float],
           between: bool) -> npt.NDArray[np.float32]:
    """Each hue's distance to each centre (colours x pixels) in units of that colour's width; with ``between``,
    infinite to every centre but the nearest below and the nearest above it on the hue circle."""
    units = np.stack([_hue_distance(hue, c) / w for c, w in zip(centres, widths, strict=True)])
    if between and len(centres) > 2:
        c = np.asarray(centres, np.float32)[:, None]
        below = ((hue[None, :] - c) % 180.0).argmin(axis=0)
        above = ((c - hue[None, :]) % 180.0).argmin(axis=0)
        rows = np.arange(len(centres))[:, None]
        units = np.where((rows == below) | (rows == above), units, np.float32(np.inf))
    out: npt.NDArray[np.float32] = units.astype(np.float32)
    return out
