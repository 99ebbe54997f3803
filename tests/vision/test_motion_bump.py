"""The motion detector through a knocked camera: a hand's visit to the stock goes on in the followed view."""

from __future__ import annotations

import numpy as np
import pytest

from referee.vision.calibration import CalibrationProfile
from referee.vision.tracking import MotionDetector

cv2 = pytest.importorskip("cv2")

PILE = ((100.0, 80.0), (180.0, 80.0), (180.0, 170.0), (100.0, 170.0))
STOCK = ((240.0, 10.0), (290.0, 10.0), (290.0, 70.0), (240.0, 70.0))
SEATS = ((150.0, 235.0), (5.0, 120.0), (150.0, 5.0), (315.0, 120.0))
SHOULDER, HAND = np.array([319.0, 150.0]), np.array([265.0, 40.0])  # seat 3's arm, reaching to the stock
MOVE = np.array([[1.0, 0.0, -30.0], [0.0, 1.0, 24.0]])  # the knock: 30 px left, 24 down
KNOCK = 6  # frames the camera moves for (0.4 s)


def _table(streaky: bool) -> np.ndarray:
    """Light wood, with dark streaks when ``streaky``: a camera moving over it stirs the frame differencing
    everywhere; over plain wood the stock's neighbourhood stays still."""
    image = np.full((240, 320, 3), (150, 180, 200), np.uint8)
    for x in range(0, 320 if streaky else 0, 9):
        cv2.line(image, (x, 0), (x + 40, 239), (90, 110, 130), 2)
    return image


def _frame(reach: float, camera: np.ndarray | None = None, *, streaky: bool = True) -> np.ndarray:
    image = _table(streaky)
    if reach > 0:
        tip = SHOULDER + reach * (HAND - SHOULDER)
        cv2.line(image, (int(SHOULDER[0]), int(SHOULDER[1])), (int(tip[0]), int(tip[1])), (30, 50, 110), 16)
    if camera is not None:
        image = cv2.warpAffine(image, camera, (320, 240), borderMode=cv2.BORDER_REPLICATE)
    return image


def _moved(profile: CalibrationProfile) -> CalibrationProfile:
    def quad(q: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
        return tuple((x + MOVE[0, 2], y + MOVE[1, 2]) for x, y in q)

    return CalibrationProfile((320, 240), quad(PILE), quad(SEATS), stock=quad(STOCK))  # type: ignore[arg-type]


def _knocked(held: int, *, left_at: int, streaky: bool = True) -> list[int | None]:
    """Draws the pipeline hears: the table still, seat 3's hand at the stock for ``held`` frames (none: no hand),
    the camera knocked (:data:`KNOCK` frames moving; the hand leaves at its ``left_at``-th), the view followed
    (a detector for the moved zones learns from the old one) and held still with no hand. As the pipeline does,
    what the detector says of draws while the camera moves is dropped (the view moving looks like hands)."""
    profile = CalibrationProfile((320, 240), PILE, SEATS, stock=STOCK)
    motion = MotionDetector(profile, fps=15, width=80)
    draws: list[int | None] = []

    def see(detector: MotionDetector, image: np.ndarray, moving: bool = False) -> None:
        sample = detector.update(image, image[80:170, 100:180])
        detector.camera_moving = moving  # the pipeline hears the camera is moving once the frame is looked at
        draws.extend(() if moving else sample.draws)

    for reach in [0.0] * 8 + ([0.5] + [1.0] * held if held else []):
        see(motion, _frame(reach, streaky=streaky))
    for k in range(KNOCK):
        part = np.array([[1.0, 0.0, MOVE[0, 2] * (k + 1) / KNOCK], [0.0, 1.0, MOVE[1, 2] * (k + 1) / KNOCK]])
        see(motion, _frame(1.0 if held and k < left_at else 0.0, part, streaky=streaky), moving=True)
    followed = MotionDetector(_moved(profile), fps=15, width=80)
    followed.learnt_from(motion, MOVE)
    for _ in range(12):
        see(followed, _frame(0.0, MOVE, streaky=streaky))
    return draws


def test_a_hand_at_the_stock_as_the_camera_is_knocked_drew_once_the_view_is_followed() -> None:
    """Dev game 15007: seat 2's hand held at the stock 0.6 s, the camera was knocked as it left, and the view was
    followed 0.27 s later. The visit was still going on in the old zones (the view moving stirred the stock zone),
    and the detector made for the followed view started with no visit: the draw was lost (the table finder's
    StockVisits said it instead). The visit is carried over, moved with the camera: it ends in the followed
    view, and the draw is its seat's."""
    assert _knocked(10, left_at=2) == [3]


def test_a_hand_that_left_the_stock_as_the_camera_began_to_move_drew() -> None:
    """Over plain wood the view moving leaves the stock's neighbourhood still: the visit of a hand that left as
    the knock began ended while the camera moved, and the pipeline hears no draw through a moving view. The
    visit is held as it was while the camera moves, and ends once the view is followed."""
    assert _knocked(10, left_at=0, streaky=False) == [3]


def test_a_knock_with_no_hand_at_the_stock_draws_nothing() -> None:
    """The view moving over a streaky table stirs the stock zone as a hand would: nothing of it is carried into
    the followed view as a visit."""
    assert _knocked(0, left_at=0) == []
