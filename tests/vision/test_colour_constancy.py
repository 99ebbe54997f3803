"""A card's colour read against its own white, from the pixels surely on it.

A webcam whose white balance failed tints the whole view; the card's white border and symbols are white in
every printing, so they tell the tint. ``benchmarks/camera_casts.py`` measures the same on real photos under
each cast: before this reading, the shared single-card photos under a warm cast had 39 colours wrong and the
second printing's table photos under a cool cast 17 (both 0 and 2 after).
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from referee.cards import Colour
from referee.synth.render import _hsv_to_bgr
from referee.vision.card_shape import CARD_ASPECT
from referee.vision.card_white import HUE_REGION, balance_gains, on_card
from referee.vision.colour import read_colour

#: Channel gains (B, G, R) in linear light of failed white balances (as benchmarks/camera_casts.py).
CASTS = {"warm": (0.62, 0.95, 1.25), "green": (0.85, 1.2, 0.8), "cool": (1.3, 1.0, 0.78)}


def _cast(image: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    linear = (image.astype(np.float32) / 255.0) ** 2.2
    out: npt.NDArray[np.uint8] = ((np.clip(linear * np.asarray(gains, np.float32), 0, 1) ** (1 / 2.2)) * 255
                                  + 0.5).astype(np.uint8)
    return out


def _card(hue: float, *, table: tuple[int, int, int] = (90, 90, 90), angle: float = 0.0, sat: float = 220.0,
          val: float = 210.0) -> tuple[np.ndarray, tuple[float, float, float, float], np.ndarray]:
    """A card of ``hue`` (white border, coloured body, white oval) lying turned by ``angle`` on ``table``:
    the image, the card's box and its outline."""
    image = np.full((260, 260, 3), table, np.uint8)
    long_side = 150.0
    size = (long_side * CARD_ASPECT, long_side)
    outline = cv2.boxPoints(((130.0, 130.0), size, angle))
    cv2.fillConvexPoly(image, outline.astype(np.int32), (242, 242, 242))
    body = cv2.boxPoints(((130.0, 130.0), (size[0] - 14, size[1] - 14), angle))
    cv2.fillConvexPoly(image, body.astype(np.int32), _hsv_to_bgr(hue, sat, val))
    cv2.ellipse(image, (130, 130), (22, 40), angle + 30, 0, 360, (242, 242, 242), -1)
    x, y, w, h = cv2.boundingRect(outline.astype(np.int32))
    return image, (float(x), float(y), float(x + w), float(y + h)), outline


@pytest.mark.parametrize("angle", [0.0, 10.0, 30.0, 45.0, 60.0, 80.0, 90.0, -35.0])
def test_the_region_read_lies_on_the_card_however_it_is_turned(angle: float) -> None:
    image, box, outline = _card(27.0, angle=angle)
    x1, y1, x2, y2 = box
    size = (int(y2 - y1), int(x2 - x1))
    mask = on_card(size, (x2 - x1, y2 - y1), HUE_REGION)
    card = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(card, outline.astype(np.int32), 1)
    on = card[int(y1):int(y1) + size[0], int(x1):int(x1) + size[1]].astype(bool)
    assert mask.sum() > 0.1 * mask.size  # enough of the card to read
    assert not (mask & ~on).any()  # and never the table


@pytest.mark.parametrize("cast", sorted(CASTS))
@pytest.mark.parametrize(("hue", "colour"), [(96.0, Colour.BLUE), (106.0, Colour.BLUE), (40.0, Colour.GREEN),
                                             (31.0, Colour.YELLOW), (24.0, Colour.YELLOW), (176.0, Colour.RED),
                                             (68.0, Colour.GREEN)])
def test_a_card_under_a_cast_reads_its_colour(cast: str, hue: float, colour: Colour) -> None:
    image, box, _ = _card(hue, angle=20.0)
    assert read_colour(_cast(image, CASTS[cast]), box)[0] is colour


def test_without_its_white_a_cast_misreads_the_card() -> None:
    """The comparison that shows what the white is for: the box's middle as the camera shows it."""
    image, box, _ = _card(96.0)  # a cyan blue, under tungsten light: green as the camera shows it
    warm = _cast(image, CASTS["warm"])
    assert read_colour(warm, box, whites=False)[0] is Colour.GREEN
    assert read_colour(warm, box)[0] is Colour.BLUE


def test_a_pale_card_turned_on_a_wooden_table_reads_its_own_colour() -> None:
    """A washed-out lime green card, turned, on wood: the wood in its box's corners is more saturated
    than the card, and read from the box's middle it made the card yellow (a second-printing table photo)."""
    wood = _hsv_to_bgr(14.0, 150.0, 170.0)
    image, box, _ = _card(42.0, table=wood, angle=35.0, sat=75.0, val=225.0)
    assert read_colour(image, box)[0] is Colour.GREEN


def test_no_white_no_correction() -> None:
    body = np.full((400, 3), _hsv_to_bgr(106.0, 220.0, 210.0), np.uint8)
    assert balance_gains(body) is None


def test_the_live_reader_balances_within_a_narrow_range() -> None:
    """The live pile view was balanced as a whole already: each card's own white only evens out the light
    over its part of the table (LIVE_GAIN_RANGE), so a card whose white is hidden under others cannot have
    the least saturated of its own colour balanced away. A photo's card gets the whole range."""
    from referee.vision.card_white import GAIN_RANGE, LIVE_GAIN_RANGE, card_pixels
    from referee.vision.colour import DeckColours

    image, box, _ = _card(106.0, angle=20.0)
    warm = _cast(image, (0.4, 0.85, 1.0))  # a strong tungsten cast, red not clipped
    pixels = card_pixels(warm, box, gain_range=None)
    assert pixels is not None
    wide, narrow = balance_gains(pixels, GAIN_RANGE), balance_gains(pixels, LIVE_GAIN_RANGE)
    assert wide is not None and narrow is not None
    assert wide.max() > LIVE_GAIN_RANGE[1] and LIVE_GAIN_RANGE[0] <= narrow.min() <= narrow.max() <= LIVE_GAIN_RANGE[1]
    assert read_colour(warm, box)[0] is Colour.BLUE
    assert DeckColours().read(image, box, learn=False)[0] is Colour.BLUE


def _cluster(rng: np.random.Generator, bgr: tuple[int, int, int], n: int, spread: float) -> np.ndarray:
    """``n`` pixels of ``bgr``, each lit a little brighter or darker (within ``spread``)."""
    lit = np.asarray(bgr, np.float32) * rng.uniform(1 - spread, 1 + spread, (n, 1))
    return np.clip(lit, 0, 255).astype(np.uint8)


def test_a_white_as_saturated_as_the_ink_under_a_strong_cast_is_found_by_its_light() -> None:
    """A cool window light over a camera already balanced cool (a second-printing table photo under
    benchmarks/camera_casts.py's strong cool): the thin white ring turns light blue as saturated as the lime
    the yellow turns, so neither is "clearly less saturated"; the ring is still lighter in every channel, as a
    white is beside any ink under one light. Before, no white was found and the yellow read blue."""
    rng = np.random.default_rng(0)
    ring = _cluster(rng, (250, 200, 118), 180, 0.03)
    ink = _cluster(rng, (78, 150, 112), 720, 0.12)
    outline = _cluster(rng, (40, 38, 35), 100, 0.2)
    gains = balance_gains(np.concatenate([ring, ink, outline]))
    assert gains is not None
    assert gains[0] < 0.85 < 1.4 < gains[2]  # blue taken down, red brought up
    balanced = np.clip(ink.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    hue = cv2.cvtColor(balanced.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV)[..., 0]
    assert 15 <= float(np.median(hue)) <= 32  # yellow again


@pytest.mark.parametrize(("palest", "ink_bgr"), [((105, 225, 240), (40, 200, 235)), ((150, 110, 255), (70, 200, 235))])
def test_no_white_is_made_of_the_palest_ink_or_a_light_that_is_not_lighter_in_every_channel(
        palest: tuple[int, int, int], ink_bgr: tuple[int, int, int]) -> None:
    """A yellow card with no white showing, its brightest pixels too saturated to be a plain white: its palest
    yellow is of the ink's own hue; a pink patch as saturated as the ink is of another hue but darker in green
    than the yellow. Neither is balanced on (either would turn the yellow blue or green)."""
    rng = np.random.default_rng(1)
    ink = _cluster(rng, ink_bgr, 720, 0.12)
    pale = _cluster(rng, palest, 180, 0.03)
    assert balance_gains(np.concatenate([pale, ink])) is None


def _shaded_card(hue: float, exposure: float) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A card of ``hue`` lit unevenly (its body from a quarter to full light across it, as a card held towards a
    lamp), photographed with ``exposure`` times the light (in linear light, clipped as a sensor clips)."""
    image, box, _ = _card(hue, sat=230.0, val=243.0)
    x1, _, x2, _ = (int(v) for v in box)
    light = np.ones(image.shape[:2], np.float32)
    light[:, x1:x2] = np.linspace(0.25, 1.0, x2 - x1, dtype=np.float32)[None, :]
    linear = (image.astype(np.float32) / 255.0) ** 2.2 * light[..., None] * exposure
    return ((np.clip(linear, 0, 1) ** (1 / 2.2)) * 255 + 0.5).astype(np.uint8), box


@pytest.mark.parametrize(("hue", "colour"), [(94.0, Colour.BLUE), (97.0, Colour.BLUE), (68.0, Colour.GREEN),
                                             (27.0, Colour.YELLOW), (176.0, Colour.RED)])
def test_an_overexposed_card_reads_its_colour_from_the_pixels_the_ceiling_spared(hue: float, colour: Colour) -> None:
    """A webcam metering on a dark room behind a lit card (benchmarks/camera_casts.py's ``bright``, 2.5 times
    the light): a classic cyan-blue card (the shared photos' blue is BGR 243, 214, 22: hue 94) clips blue and
    then green, and its lit part turns the cyan (hue 90)
    between green and blue. Every such pixel voted green, and 9 of the shared blue photos read green; a clipped
    pixel between two colours no longer votes, and the card's shaded part, unclipped, says blue. A clipped
    pixel well inside one colour still votes (an overexposed yellow is yellow)."""
    image, box = _shaded_card(hue, 2.5)
    assert read_colour(image, box)[0] is colour
    from referee.vision.colour import DeckColours

    assert DeckColours().read(image, box, learn=False)[0] is colour


def test_a_clipped_blue_card_reads_green_when_its_clipped_pixels_vote() -> None:
    """The comparison that shows what the rule is for: the same card, its pixels as the camera shows them
    (read from the box's middle, no clipping known), reads green."""
    image, box = _shaded_card(94.0, 2.5)
    x1, y1, x2, y2 = (int(v) for v in box)
    lit = image[y1 + 20:y2 - 20, (x1 + x2) // 2:x2 - 10].reshape(-1, 3)
    assert np.median(lit[:, :2].min(axis=1)) >= 250  # its lit half clipped in blue and green
    assert read_colour(image, box, whites=False)[0] is Colour.GREEN
