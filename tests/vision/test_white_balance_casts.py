"""The live pile view's white balance under a webcam's colour cast (issue 44: the ring-faced games under
``benchmarks/e2e_eval.py --cast cool`` / ``strong-cool``)."""

from __future__ import annotations

import numpy as np
import pytest

from referee.vision import colour
from referee.vision.colour import view_white_gains, white_balance_gains
from referee.vision.white_balance import WhiteBalance, apply_gains

#: A cool window light as a webcam stuck on indoor balance shows it (BGR gains in its pixels).
COOL = (1.13, 1.0, 0.89)
CARD = np.array([[40.0, 40.0, 200.0, 200.0]], np.float32)
#: A pale cream ink (BGR; saturation 127 of 255), brighter than the card's shaded white: under the cool light its
#: saturation falls to about 90, as unsaturated as a white may be.
CREAM = (120, 225, 240)


def _card(ink: tuple[int, int, int], white: tuple[int, int, int] = (225, 225, 225)) -> np.ndarray:
    """A 240 x 240 view of green cloth with one card: a white border and oval, ``ink`` between."""
    rng = np.random.default_rng(1)
    view = np.zeros((240, 240, 3), np.float32)
    view[:] = (40, 140, 60)
    view[40:200, 40:200] = white
    view[70:170, 70:170] = ink
    view[95:145, 95:145] = white
    noisy = view + rng.normal(0, 2, view.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def test_a_frame_with_no_white_leaves_the_gains_as_they_were() -> None:
    """A pile whose top card shows no white (a dark card, a hand over it, a cast so strong no white looks white)
    tells nothing of the light. Counted as neutral, it pulled the gains back towards none: under a strong cool
    cast half of the ring-faced games' updates found no white, and greens read blue."""
    solid = np.zeros((240, 240, 3), np.uint8)
    solid[:] = (40, 140, 60)
    solid[40:200, 40:200] = (30, 60, 200)  # a red card filling its box, no white showing
    assert view_white_gains(solid, CARD) is None
    assert np.allclose(white_balance_gains(solid, CARD), 1.0)  # the public estimate still says "no change"
    balance = WhiteBalance(auto=True, every=1, rate=0.5)
    balance.gains[:] = (0.88, 1.0, 1.12)  # learned from the whites seen before
    balance(solid, CARD)
    assert np.allclose(balance.gains, (0.88, 1.0, 1.12))


def test_the_whites_are_chosen_again_in_the_light_first_found() -> None:
    """Under a cool light a pale cream ink is as unsaturated as the white beside it, and both were taken for the
    white: the estimate fell short of the cast. Balanced by that first estimate the white turns grey and the
    ink shows its own colour, too saturated to be a white: chosen again, the whites alone set the gains."""
    card = _card(ink=CREAM, white=(200, 200, 200))
    cool = apply_gains(card, COOL)
    gains = view_white_gains(cool, CARD)
    assert gains is not None
    fixed = apply_gains(cool, gains)[95:145, 95:145].reshape(-1, 3).astype(np.float32).mean(axis=0)
    assert max(fixed) - min(fixed) <= 4, fixed  # the oval's white reads grey
    blue_over_red = gains[0] / gains[2]
    assert blue_over_red == pytest.approx(0.89 / 1.13, abs=0.03)


def test_one_round_falls_short_of_the_cast(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same card with the whites chosen once (as before): the cream is counted as white."""
    monkeypatch.setattr(colour, "WHITE_ROUNDS", 1)
    cool = apply_gains(_card(ink=CREAM, white=(200, 200, 200)), COOL)
    gains = view_white_gains(cool, CARD)
    assert gains is not None
    assert gains[0] / gains[2] > 0.89 / 1.13 + 0.1
