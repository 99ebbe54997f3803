"""Overlay: detections mapped back onto the camera frame, zones, seats and the referee's state."""

from __future__ import annotations

import cv2
import numpy as np

from referee.vision.calibration import CalibrationProfile
from referee.vision.detections import Detections
from referee.vision.overlay import annotate, encode_jpeg

PILE = ((400.0, 200.0), (880.0, 200.0), (880.0, 560.0), (400.0, 560.0))
SEATS = ((640.0, 700.0), (20.0, 380.0), (640.0, 20.0), (1260.0, 380.0))


def test_overlay_draws_on_a_copy_where_the_cards_are() -> None:
    frame = np.full((720, 1280, 3), 90, np.uint8)
    profile = CalibrationProfile((1280, 720), PILE, SEATS)
    # A detection in top-down pile pixels (480x360): its box maps to x 500..600, y 300..400 in the frame.
    dets = Detections(np.array([[100, 100, 200, 200]], np.float32), np.array([0.9], np.float32),
                      np.zeros(1, np.int64), ("red_7",), np.ones(1, np.float32))
    state = {"turn": 1, "direction": -1, "colour": "red", "top_card": "red_7", "hand_counts": [7, 6, 7, 7],
             "names": ["Ann", "Bob", "Cy", "Di"], "pending_draw": 0}
    out = annotate(frame, profile=profile, detections=dets, state=state, status={"fps": 29.7, "camera": "live"})
    assert out is not frame and (frame == 90).all()
    changed = np.any(out != 90, axis=2)
    assert changed[300, 498:503].any() and changed[350, 598:603].any()  # the card's outline
    assert not changed[450, 700]  # inside the pile zone, away from everything drawn
    assert changed[380, 10:40].any()  # seat 1's marker (its turn: filled)
    jpeg = encode_jpeg(out)
    decoded = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == frame.shape


def test_overlay_without_calibration_or_state() -> None:
    frame = np.zeros((240, 320, 3), np.uint8)
    out = annotate(frame)
    assert out.shape == frame.shape and out.any()  # seats around the edges


def test_overlay_on_a_smaller_copy_of_the_frame() -> None:
    profile = CalibrationProfile((1280, 720), PILE, SEATS)
    dets = Detections(np.array([[100, 100, 200, 200]], np.float32), np.array([0.9], np.float32),
                      np.zeros(1, np.int64), ("blue_1",), np.ones(1, np.float32))
    out = annotate(np.full((360, 640, 3), 90, np.uint8), profile=profile, detections=dets)
    changed = np.any(out != 90, axis=2)
    assert changed[150, 248:252].any() and changed[175, 298:302].any()  # half of x 500..600, y 300..400
