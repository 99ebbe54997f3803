"""Overlay: detections mapped back onto the camera frame, zones, seats and the referee's state."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from referee.vision.calibration import CalibrationProfile
from referee.vision.detections import Detections
from referee.vision.overlay import FONT, _light, _text, annotate, encode_jpeg

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


def test_labels_are_light_text_in_a_dark_outline_without_black_blobs() -> None:
    """A label reads on any cloth: on white it is ringed by dark pixels, on black its light letters show;
    and the dark stays within the outline's width of the letters (a thicker dark copy of the text drifts
    off the light one in OpenCV 5, leaving black blobs after the last letters)."""
    text, org, scale = "Yellow Draw Two 0.61", (20, 40), 0.6
    (width, _), _ = cv2.getTextSize(text, FONT, scale, 1)
    white = np.full((60, 300, 3), 235, np.uint8)
    _text(white, text, org, scale, _light((30, 210, 240)))
    dark = np.argwhere(white.max(axis=2) < 80)
    assert len(dark) > 100
    assert dark[:, 1].max() <= org[0] + width + 4 and dark[:, 1].min() >= org[0] - 4
    black = np.zeros((60, 300, 3), np.uint8)
    _text(black, text, org, scale, (255, 255, 255))
    assert (black.min(axis=2) > 200).sum() > 50
    assert _light((200, 110, 30)) == (228, 182, 142)  # blue, halfway to white: legible on the dark outline


def test_labels_at_the_frame_edge_are_clipped_not_refused() -> None:
    frame = np.full((40, 80, 3), 90, np.uint8)
    _text(frame, "Dominique-Alexandra (7)", (-30, 5), 0.6, (255, 255, 255))  # partly off the frame
    _text(frame, "gone", (500, 500), 0.6, (255, 255, 255))  # wholly off it: nothing drawn
    assert (frame != 90).any()


def test_a_label_drawn_again_is_drawn_the_same_and_the_outlines_kept_stay_few(monkeypatch: Any) -> None:
    """Outlines are made once per label and place, and kept: a label drawn with a kept outline equals one
    drawn with a fresh one, on any cloth, and the store empties itself when full."""
    from referee.vision import overlay

    monkeypatch.setattr(overlay, "_HALOS", {})
    monkeypatch.setattr(overlay, "_HALOS_MAX", 8)
    label = ("Spieler 3 (7)", (20, 60), 0.6, (255, 255, 255))
    cloths = (np.random.default_rng(3).integers(0, 255, (120, 200, 3), np.uint8), np.full((120, 200, 3), 200, np.uint8))
    for cloth in cloths:
        fresh, kept = cloth.copy(), cloth.copy()
        overlay._HALOS.clear()
        _text(fresh, *label)
        assert len(overlay._HALOS) == 1
        _text(kept, *label)
        assert len(overlay._HALOS) == 1 and np.array_equal(fresh, kept)
    assert (kept < 60).any()  # the outline darkens the light cloth around the letters
    for k in range(20):
        _text(kept, f"{k} fps", (5, 100), 0.6, (230, 230, 230))
    assert 1 <= len(overlay._HALOS) <= 8
