"""The closer look's two judgements of a card just laid: does it lie whole (so the face classifier may speak
alone), and which colour goes with the face it names."""

from __future__ import annotations

import math

import numpy as np

from referee.vision.card_shape import CARD_ASPECT
from referee.vision.tracking import TrackerConfig
from referee.vision.tracking.closer import lies_whole
from referee.vision.tracking.state import Candidate, PileCard
from referee.vision.tracking.votes import in_voted_colour

CFG = TrackerConfig()


def _box(length: float, degrees: float, x: float = 100.0, y: float = 100.0) -> np.ndarray:
    t = math.radians(degrees)
    short = CARD_ASPECT * length
    w = length * math.cos(t) + short * math.sin(t)
    h = length * math.sin(t) + short * math.cos(t)
    return np.array([x, y, x + w, y + h], np.float32)


def _pile(*boxes: np.ndarray) -> list[PileCard]:
    return [PileCard(f"red_{i}", box, 0, i, float(i), in_full_view=True) for i, box in enumerate(boxes)]


def test_a_card_laid_square_on_a_pile_of_turned_cards_lies_whole() -> None:
    """Its box is under half the area of the turned cards' boxes (a card's box grows 2.1 times from lying
    square to lying at 45 degrees): judged by area it looked partly hidden, and the classifier, which reads
    an unfamiliar printing better than the detector, was not let speak alone on it."""
    pile = _pile(_box(120, 40), _box(120, 50), _box(120, 35))
    assert lies_whole(CFG, pile, _box(120, 0))
    assert lies_whole(CFG, pile, _box(120, 90))


def test_a_strip_of_a_card_or_a_smaller_one_does_not_lie_whole() -> None:
    pile = _pile(_box(120, 10), _box(120, 80))
    assert not lies_whole(CFG, pile, np.array([100, 100, 220, 140], np.float32))  # half hidden: too narrow
    assert not lies_whole(CFG, pile, _box(80, 20))  # two thirds the size: a corner showing, or far off
    assert lies_whole(CFG, [], _box(80, 20))  # the first card, with none to compare


def _candidate(votes: dict[str, float]) -> Candidate:
    box = np.array([0, 0, 60, 90], np.float32)
    cand = Candidate(anchor=box, box=box, first_frame=0, seat=1, origin=box)
    cand.votes.update(votes)
    return cand


def test_the_face_read_closer_up_takes_the_colour_it_was_read_in() -> None:
    """Read red 6/7 in the frames a hand was over it (skin reads warm), green 5/7 once the hand had gone:
    the closer look that names the 5/7 names it green, not in the colour of the label it corrects
    (generated fractions game 304)."""
    cand = _candidate({"red_6/7": 1.1, "green_5/7": 2.8, "red_5/7": 0.3})
    assert in_voted_colour(cand, "red_5/7") == "green_5/7"
    assert in_voted_colour(cand, "red_3/7") == "red_3/7"  # a face never voted: as named
    assert in_voted_colour(cand, "wild_draw4") == "wild_draw4"
