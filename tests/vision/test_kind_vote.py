"""Where a black card and a coloured one are read in one box, the card's own pixels say which kind it is.

Ring-faced game 16003 (``benchmarks/e2e_eval.py --faces`` of the second printing's crops): a wild draw four
read as a wild draw four at 0.74 and as a yellow reverse at 0.87 in the same box once it lay still, the
yellow read on only 0.37 of its coloured pixels (its four colours split the vote), was played as the yellow
reverse, and the turns after it were alerted as out of turn.
"""

from __future__ import annotations

import numpy as np
import pytest

from referee.vision.tracking.state import KIND_DOUBT, ONE_COLOUR, Candidate
from tests.vision.test_track import A


def voted(*reads: tuple[str, float, float], frames: int = 6) -> Candidate:
    box = np.array(A, np.float32)
    cand = Candidate(anchor=box, box=box, first_frame=0, seat=None, origin=box)
    for _ in range(frames):
        for label, conf, colour in reads:
            cand.also_read(label, conf, colour)
            cand.confidence.append(conf)
    return cand


def test_a_black_card_whose_colours_split_is_not_read_as_a_coloured_one() -> None:
    cand = voted(("yellow_reverse", 0.87, 0.37), ("wild_draw4", 0.74, 1.0))
    assert cand.pixels_say_black() is True
    assert cand.leading == "wild_draw4"


def test_a_coloured_card_of_one_colour_is_not_read_as_a_black_one() -> None:
    """The other way round: a red reverse whose red is sure is not lost to a wild draw four read there."""
    cand = voted(("red_reverse", 0.6, 0.95), ("wild_draw4", 0.8, 1.0))
    assert cand.pixels_say_black() is False
    assert cand.leading == "red_reverse"


@pytest.mark.parametrize("colour", [0.3, 0.95])
def test_faces_of_one_kind_are_weighed_as_before(colour: float) -> None:
    """With no face of the other kind read, the colour's confidence weighs colours, never faces."""
    cand = voted(("yellow_reverse", 0.9, colour), ("yellow_4", 0.5, colour))
    assert cand.leading == "yellow_reverse"
    assert dict(cand.ranked())["yellow_reverse"] == pytest.approx(0.9 / 1.4)


def test_the_kind_weighs_but_does_not_silence() -> None:
    """A coloured face read far more surely than the black one it is doubted against still leads."""
    cand = voted(("yellow_reverse", 0.95, 0.5), ("wild_draw4", 0.1, 1.0))
    assert cand.leading == "yellow_reverse"
    assert 0 < KIND_DOUBT < 1 and 0.4 < ONE_COLOUR < 0.69
