"""The strip of a card under the top one, read otherwise and closer up as that card, is no new card.

From generated game 15171 (the held-out set 15162-15173, no calibration; dev since): a yellow 3 was laid over the upper
half of an older yellow 3. The older one's lower strip showed beside it, read yellow 8 and green 8 (a 3 in part reads
as an 8), and was dropped as the top card's rest beside a card being laid. When the next hand came it was found again
in place, read green 8 at 0.74-0.8, and believed once the hand had gone; the closer look named it yellow 3, the face
of the card it lay in: played as a third yellow 3, with an impossible-card and two out-of-turn alerts.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from referee.vision.detect import DETECTOR_LOOK_CONFIDENCE
from referee.vision.tracking import CloserLook, PileTracker

from .test_track import CFG, Feed, _visit, card

OLDER = (108.0, 129.0, 245.0, 261.0)
TOP = (131.0, 122.0, 255.0, 208.0)
STRIP = (107.0, 158.0, 243.0, 261.0)  # the older card's lower strip, beside the top one


def _look(strip_face: str) -> CloserLook:
    def look(pose: npt.NDArray[np.float32], *, whole: bool = False) -> list[tuple[str, float]]:
        return [(strip_face, 0.97)] if np.allclose(pose, STRIP, atol=4) else [("3", 0.95)]

    return CloserLook(look, DETECTOR_LOOK_CONFIDENCE)


def _plays(strip_face: str) -> list[object]:
    feed = Feed(PileTracker(CFG, expect_start=False, second_look=_look(strip_face)))
    feed([card("yellow_3", OLDER)], 2, motion=_visit(1, arm=True, seat=0))
    feed([card("yellow_3", OLDER)], 8, motion=_visit(1, seat=0))
    feed([card("yellow_3", TOP), card("yellow_3", OLDER)], 2, motion=_visit(2, arm=True, seat=1))
    feed([card("yellow_3", TOP)], 10, motion=_visit(2, seat=1))
    feed([card("yellow_3", TOP), card("yellow_8", STRIP, 0.78, 0.6)], 3, motion=_visit(3, arm=True, seat=2))
    feed([card("yellow_3", TOP), card("yellow_8", STRIP, 0.78, 0.6)], 4 * CFG.min_hits, motion=_visit(3, seat=2))
    return [o["card"] for _, o in feed.out if o["type"] == "play"]


def test_the_strip_of_a_card_below_read_closer_up_as_that_card_is_no_new_card() -> None:
    assert _plays("3") == ["yellow_3", "yellow_3"]


def test_read_closer_up_as_another_face_it_is_left_to_the_other_rules() -> None:
    """Named another face closer up, the rule says nothing: the reading is judged as before."""
    assert _plays("6")[:2] == ["yellow_3", "yellow_3"]
