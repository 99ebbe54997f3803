"""The live view draws the table found from the footage: its pile and stock zones and each seat, the seats
as guesses (a broken ring, ``N?``) until they are found (the pipeline's status ``table``)."""

from __future__ import annotations

import math

import numpy as np

from referee.live_status import PipelineStatus
from referee.vision.calibration import CalibrationProfile
from referee.vision.overlay import annotate, seats_guessed

W, H = 1280, 720
FOUND = CalibrationProfile(
    (W, H), ((400.0, 200.0), (760.0, 200.0), (760.0, 560.0), (400.0, 560.0)),
    ((200.0, 400.0), (640.0, 120.0), (1080.0, 400.0), (640.0, 640.0)),
    stock=((900.0, 150.0), (1100.0, 150.0), (1100.0, 350.0), (900.0, 350.0)), method="found")


def ring(image: np.ndarray, seat: int) -> float:
    """The share of seat ``seat``'s marker ring (radius 18 at 1280 px) drawn plainly on a grey view."""
    x, y = FOUND.seats[seat]
    points = [(round(y + 18 * math.sin(math.radians(d))), round(x + 18 * math.cos(math.radians(d))))
              for d in range(0, 360, 2)]
    return float(np.mean([int(image[py, px].max()) > 70 for py, px in points]))


def test_the_found_zones_and_seats_are_drawn() -> None:
    blank = np.full((H, W, 3), 40, np.uint8)
    shown = annotate(blank, profile=FOUND, status={"table": "found"})
    assert (shown[200, 500] != 40).any()  # the pile zone's top edge
    assert (shown[150, 1000] != 40).any()  # the stock zone's top edge
    for seat in range(4):
        assert ring(shown, seat) > 0.95  # a whole ring


def test_seats_not_found_yet_are_drawn_as_guesses() -> None:
    blank = np.full((H, W, 3), 40, np.uint8)
    status: PipelineStatus = {"table": "seats not found yet (arms seen from 2 of 4 sides): seats follow the turn order"}
    assert seats_guessed(status) and not seats_guessed({"table": "found"}) and not seats_guessed({"fps": 15.0})
    shown = annotate(blank, profile=FOUND, status=status)
    for seat in range(4):
        assert 0.3 < ring(shown, seat) < 0.9  # a broken ring
