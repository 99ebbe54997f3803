"""The table's plane from the landed card's quad: a phone at a steep angle sees the card as a trapezoid, and
the pile zone becomes the table's square around it as the camera sees it (``referee.vision.table_plane``)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from referee.vision.table_plane import card_quad, pile_on_plane, tilt

W, H = 1280, 720
CARD_H = 160.0
CENTRE = (800.0, 560.0)  # on the table (top-down pixels, 1600 x 1000)


def card_corners(turn_deg: float) -> np.ndarray:
    a = math.radians(turn_deg)
    c, s = math.cos(a), math.sin(a)
    half = np.array([(-100, -155), (100, -155), (100, 155), (-100, 155)], np.float64) * CARD_H / 310
    corners: npt.NDArray[np.float64] = half @ np.array([[c, s], [-s, c]]) + CENTRE
    return corners


def filmed(steep: bool, turn_deg: float = 20.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A card on a wooden table, filmed from above or (``steep``) from a phone held low at the near edge:
    the picture, the table -> picture homography and the card's corners in the picture."""
    rng = np.random.default_rng(3)
    table = cv2.GaussianBlur(rng.integers(70, 110, (1000, 1600, 3)).astype(np.uint8), (0, 0), 2)
    corners = card_corners(turn_deg)
    cv2.fillConvexPoly(table, np.round(corners).astype(np.int32), (245, 245, 245), cv2.LINE_AA)
    inner = (corners - CENTRE) * 0.8 + CENTRE
    cv2.fillConvexPoly(table, np.round(inner).astype(np.int32), (40, 40, 200), cv2.LINE_AA)  # a red face
    src = np.array([(0, 0), (1600, 0), (1600, 1000), (0, 1000)], np.float32)
    dst = (np.array([(400, 60), (880, 60), (1280, 720), (0, 720)], np.float32) if steep
           else np.array([(0, 0), (1280, 0), (1280, 720), (0, 720)], np.float32))
    matrix = cv2.getPerspectiveTransform(src, dst)
    picture = cv2.warpPerspective(table, matrix, (W, H), flags=cv2.INTER_AREA)
    seen = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), matrix).reshape(-1, 2)
    return picture, matrix, seen


def box(points: np.ndarray) -> tuple[float, float, float, float]:
    return float(points[:, 0].min()), float(points[:, 1].min()), float(points[:, 0].max()), float(points[:, 1].max())


@pytest.mark.parametrize("turn", [0.0, 20.0, 75.0])
def test_the_pile_zone_is_the_tables_square_round_the_card_as_a_steep_camera_sees_it(turn: float) -> None:
    picture, matrix, seen = filmed(steep=True, turn_deg=turn)
    quad = card_quad(picture, box(seen))
    assert quad is not None
    assert max(min(math.dist(p, q) for q in seen) for p in quad) < 4.0  # each corner found
    assert tilt(quad) > 0.1
    found = pile_on_plane(quad, 1.45, (W, H))
    assert found is not None
    zone, size = found
    assert size[0] == size[1]
    on_table = cv2.perspectiveTransform(np.array(zone, np.float64).reshape(-1, 1, 2), np.linalg.inv(matrix))
    on_table = on_table.reshape(-1, 2)
    sides = [math.dist(on_table[i], on_table[(i + 1) % 4]) for i in range(4)]
    side = 2 * 1.45 * CARD_H  # table pixels: the card is CARD_H tall on the table
    assert max(abs(s - side) for s in sides) < 0.08 * side  # a square of the table, 2.9 card heights
    diagonals = math.dist(on_table[0], on_table[2]), math.dist(on_table[1], on_table[3])
    assert abs(diagonals[0] - diagonals[1]) < 0.05 * side  # right angles
    assert math.dist(tuple(on_table.mean(axis=0)), CENTRE) < 0.05 * side  # round the card
    top = np.array(zone[1]) - np.array(zone[0])
    assert abs(math.degrees(math.atan2(top[1], top[0]))) < 10  # its top along the picture's rows


def test_a_card_seen_from_above_keeps_the_upright_square() -> None:
    picture, _, seen = filmed(steep=False)
    quad = card_quad(picture, box(seen))
    assert quad is not None and tilt(quad) < 0.04
    assert pile_on_plane(quad, 1.45, (W, H)) is None


def test_no_card_standing_out_gives_no_quad() -> None:
    rng = np.random.default_rng(5)
    plain = cv2.GaussianBlur(rng.integers(70, 110, (H, W, 3)).astype(np.uint8), (0, 0), 2)
    assert card_quad(plain, (500.0, 300.0, 600.0, 450.0)) is None


def test_the_finder_looks_at_the_tables_square_round_a_start_card_seen_steeply() -> None:
    from dataclasses import replace

    from referee.vision.calibration import CalibrationProfile
    from referee.vision.detections import Detections
    from referee.vision.table_finder import TableFinder

    picture, _, seen = filmed(steep=True)
    whole = CalibrationProfile.whole_frame(W, H, 4)
    finder = TableFinder(4)
    finder.observe(picture, 1.0, whole, Detections.empty(), np.zeros((135, 240), bool))
    finder.stock_found = True  # the stock found already (as a back that stays put)
    finder.profile = replace(whole, stock=((60.0, 500.0), (200.0, 500.0), (200.0, 640.0), (60.0, 640.0)))
    x1, y1, x2, y2 = box(seen)
    finder.landed([(x1, y1), (x2, y1), (x2, y2), (x1, y2)], 1.2)  # the start card came to rest
    first = finder.take()
    assert first is not None and first.profile.pile_size[0] == first.profile.pile_size[1]
    # The hand that laid it still there: the upright square first. Next frame, no hand over it: the plane.
    finder.observe(picture, 1.3, first.profile, Detections.empty(), np.zeros((135, 240), bool))
    change = finder.take()
    assert change is not None and finder.pile_found
    pile = np.array(change.profile.pile)
    top, bottom = math.dist(pile[0], pile[1]), math.dist(pile[3], pile[2])
    assert top < 0.9 * bottom  # the far side of the table's square looks shorter
    assert change.profile.pile_size[0] == change.profile.pile_size[1]
    assert math.dist(tuple(pile.mean(axis=0)), tuple(seen.mean(axis=0))) < 60
