"""The printings people own: the thin-ring oval, white outlined numerals, colours over their whole range."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import Card, Colour
from referee.synth.render import _WIDE_HUES, DESIGNS, VIDEO_DESIGNS, CardDesign, printing_colour, render_card


def _hue(bgr: tuple[int, int, int]) -> float:
    return float(cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0, 0])


def test_the_pool_holds_ring_printings_after_the_video_designs() -> None:
    kinds = [d.kind for d in DESIGNS]
    assert "ring" not in kinds[:VIDEO_DESIGNS], "the game videos' designs must stay as they were"
    assert kinds[VIDEO_DESIGNS:].count("ring") >= 12
    assert DESIGNS[0] == CardDesign()


def test_a_ring_card_shows_its_colour_inside_the_oval_and_a_white_numeral() -> None:
    card = Card.from_label("green_8")
    ring = render_card(card, next(i for i, d in enumerate(DESIGNS) if d.kind == "ring"), np.random.default_rng(0))
    classic = render_card(card, 0, np.random.default_rng(0))
    # Inside the oval, beside the numeral: the body colour on the ring printing, white on the classic one.
    for face, coloured in ((ring, True), (classic, False)):
        patch = cv2.cvtColor(np.ascontiguousarray(face[150:160, 40:50, :3]), cv2.COLOR_BGR2HSV)
        assert (patch[..., 1].mean() > 100) == coloured
    # The numeral itself is white on the ring printing.
    centre = cv2.cvtColor(np.ascontiguousarray(ring[120:190, 70:130, :3]), cv2.COLOR_BGR2HSV)
    assert ((centre[..., 1] < 60) & (centre[..., 2] > 180)).mean() > 0.2


def test_wide_printings_span_each_colours_range() -> None:
    rng = np.random.default_rng(0)
    greens = [_hue(printing_colour(Colour.GREEN, rng, wide=True)) for _ in range(400)]
    assert min(greens) < 42 and max(greens) > 84  # lime to teal
    lo, hi = _WIDE_HUES[Colour.YELLOW]
    yellows = [_hue(printing_colour(Colour.YELLOW, rng, wide=True)) for _ in range(200)]
    assert lo - 1 <= min(yellows) and max(yellows) <= hi + 1


def test_the_fourth_generator_brings_other_type_designs_and_the_sunburst() -> None:
    from referee.synth.fonts import display_font
    from referee.synth.render import _TYPEFACES

    fourth = DESIGNS[56:]
    assert len(fourth) == 24 and all(d.typeface in _TYPEFACES for d in fourth)
    assert sum(d.kind == "burst" for d in fourth) >= 4
    assert all(display_font(t) is not None for t in _TYPEFACES), "pip install -e '.[train]' brings the typefaces"
    # Another typeface draws another 3, and a bolder stroke covers more of the card.
    card = Card.from_label("red_3")
    base = CardDesign(kind="ring", outline=0, shadow=0)

    def ink(design: CardDesign) -> np.ndarray:
        face = render_card(card, design, np.random.default_rng(0))
        saturation: npt.NDArray[np.uint8] = cv2.cvtColor(np.ascontiguousarray(face[60:250, 30:170, :3]),
                                                         cv2.COLOR_BGR2HSV)[..., 1]
        return saturation < 60

    plain, rounder, bolder = ink(base), ink(CardDesign(kind="ring", outline=0, shadow=0,
                                                         typeface="FredokaOne-Regular.ttf")), ink(
        CardDesign(kind="ring", outline=0, shadow=0, weight=4))
    assert (plain != rounder).mean() > 0.02
    assert bolder.sum() > plain.sum() * 1.1


def test_a_sunburst_card_shows_a_white_disc_with_points_and_a_coloured_numeral() -> None:
    card = Card.from_label("blue_5")
    face = render_card(card, CardDesign(kind="burst", outline=3, shadow=0), np.random.default_rng(0))
    hsv = cv2.cvtColor(np.ascontiguousarray(face[..., :3]), cv2.COLOR_BGR2HSV)
    white = (hsv[..., 1] < 50) & (hsv[..., 2] > 180)
    assert white[155, 30:50].mean() > 0.5  # the disc reaches out to the sides, left of the numeral
    centre = hsv[130:180, 80:120]
    assert (centre[..., 1] > 100).mean() > 0.2  # the numeral is in the card's colour
