"""The camera view in the players' words: the match's language, spelled in the letters the frame's font has,
and every seat's label whole inside the frame (never cut at its edge)."""

from __future__ import annotations

import numpy as np
import pytest

from referee.vision.calibration import CalibrationProfile
from referee.vision.overlay import _draw_panel, annotate, plain

PILE = ((400.0, 200.0), (880.0, 200.0), (880.0, 560.0), (400.0, 560.0))


@pytest.mark.parametrize(("text", "drawn"), [
    ("Grün 7", "Gruen 7"), ("Gréng Joker", "Greng Joker"), ("d’Kaart", "d'Kaart"), ("Zéistapel", "Zeistapel"),
    ("Spieler 2 · 5", "Spieler 2 - 5"), ("Player 1", "Player 1"),
])
def test_words_are_spelled_in_the_fonts_letters(text: str, drawn: str) -> None:
    assert plain(text) == drawn


def test_a_seat_at_the_frames_edge_is_labelled_inside_it() -> None:
    frame = np.zeros((720, 1280, 3), np.uint8)
    seats = ((1279.0, 380.0), (0.0, 380.0), (640.0, 0.0))
    profile = CalibrationProfile((1280, 720), PILE, seats)
    state = {"names": ["Annemarie-Louise", "Bartholomew", "Cy"], "hand_counts": [12, 7, 7], "lang": "de"}
    out = annotate(frame, profile=profile, state=state)
    drawn = np.any(out > 0, axis=2)
    assert not drawn[:, -1].any() and not drawn[:, 0].any() and not drawn[0, :].any()  # nothing cut
    assert drawn[330:380, 1100:1270].any()  # the right-hand seat's label, moved in from the edge


def test_the_panel_speaks_the_matchs_language(monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    monkeypatch.setattr("referee.vision.overlay._text", lambda image, text, *args: said.append(text))
    state = {"top_card": "green_7", "colour": "green", "turn": 1, "names": [], "pending_draw": 2}
    _draw_panel(np.zeros((720, 1280, 3), np.uint8), state, 1.0, "de")
    assert said == ["oben: Grün 7", "Farbe: Grün", "dran: Spieler 2", "2 Karten zu ziehen"]
    said.clear()
    _draw_panel(np.zeros((720, 1280, 3), np.uint8), {**state, "round_over": True}, 1.0, "nl")
    assert said[2] == "Ronde voorbij"
