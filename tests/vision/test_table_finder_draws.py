"""Draws at a stock that lies between the players: an arm crossing the stock on its way to the pile drew
nothing, whatever seat it seems to point at from the stock (``referee.vision.tracking.arms.passed_on``)."""

from __future__ import annotations

import numpy as np

from referee.vision.tracking.arms import passed_on

SHAPE = (135, 240)


def zone(x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
    mask = np.zeros(SHAPE, bool)
    mask[y0:y1, x0:x1] = True
    return mask


STOCK = zone(40, 80, 60, 100)
PILE = zone(100, 60, 160, 120)


def arm(x0: int, x1: int, y: int = 90) -> np.ndarray:
    """A straight arm along row ``y`` from column ``x0`` (at the view's edge) to its hand at ``x1``."""
    fg = np.zeros(SHAPE, bool)
    lo, hi = sorted((x0, x1))
    fg[y - 3:y + 3, lo:hi + 1] = True
    return fg


def test_an_arm_crossing_the_stock_to_the_pile_passes_on() -> None:
    assert passed_on(arm(0, 130), STOCK, PILE)


def test_an_arm_reaching_over_the_pile_to_the_stock_stops_there() -> None:
    assert not passed_on(arm(239, 45), STOCK, PILE)


def test_a_hand_at_the_stock_alone_stops_there() -> None:
    assert not passed_on(arm(0, 50), STOCK, PILE)
    fg = np.zeros(SHAPE, bool)
    fg[0:95, 47:53] = True  # from the top edge down into the stock
    assert not passed_on(fg, STOCK, PILE)


def test_no_arm_from_the_edge_or_no_pile_zone_says_nothing() -> None:
    assert not passed_on(arm(30, 130), STOCK, PILE)  # where it comes in is not seen
    assert not passed_on(arm(0, 130), STOCK, np.ones(SHAPE, bool))  # the pile not found: the whole view
    assert not passed_on(np.zeros(SHAPE, bool), STOCK, PILE)
