"""What a card being laid leaves showing of the top card is no new card, and the new card is not lost.

From ring-faced game 16104 (the second printing's photographed cards, no calibration file, a bump): a blue draw two
was laid over the lower half of the top card, a blue 4. The 4's upper half, boxed on its own as the hand brought the
draw two in, read blue 1 (the upper half of a 4), and was played as a new card; the draw two itself, read by the
pile view as a blue 4 (0.54), was dropped as "a twin of the top card the deck cannot hold" (both blue 4s were on the
pile), so the next player's draw went unseen and a false out-of-turn alert followed. Two rules, one for each half:
the strip of the top card whose rest lies under a card being laid is that card showing; a reading of the top card's
label the deck cannot hold is the top card seen again only in the top card's pose, not in a box reaching well out of
it (a card laid over it, misread, which the closer look names).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from referee.vision.detect import DETECTOR_LOOK_CONFIDENCE
from referee.vision.tracking import CloserLook, PileTracker

from .test_track import CFG, Feed, _visit, card

UNDER = (78.0, 113.0, 207.0, 251.0)
TOP = (127.0, 89.0, 247.0, 228.0)
STRIP = (145.0, 91.0, 248.0, 185.0)  # the top card's upper half, beside the new card
NEW = (111.0, 143.0, 249.0, 267.0)  # the card laid over the top card's lower half


def _look() -> CloserLook:
    def look(pose: npt.NDArray[np.float32], *, whole: bool = False) -> list[tuple[str, float]]:
        if np.allclose(pose, NEW, atol=4):
            return [("draw2", 0.97)]
        if np.allclose(pose, UNDER, atol=4):
            return [("8", 0.97)]
        return [("1", 0.9)] if np.allclose(pose, STRIP, atol=4) else [("4", 0.97)]

    return CloserLook(look, DETECTOR_LOOK_CONFIDENCE)


def _plays(strip_read: str = "blue_1", strip_confidence: float = 0.65,
           new_reads: tuple[str, ...] = ("blue_reverse", "blue_draw2"), *,
           possible_now: Callable[[str], bool] | None = None) -> list[object]:
    """The pile view's story of 16104: the strip boxed first under the arm, the new card read two ways (unsure, so
    it waits for a clear view) and missed in the first frames after the arm has gone, so the strip is judged alone."""
    feed = Feed(PileTracker(CFG, expect_start=False, second_look=_look(), possible_now=possible_now))
    feed([card("blue_8", UNDER)], 8, motion=_visit(1, seat=1))
    feed([card("blue_4", TOP), card("blue_8", UNDER)], 2, motion=_visit(2, arm=True, seat=2))
    feed([card("blue_4", TOP), card("blue_8", UNDER)], 8, motion=_visit(2, seat=2))
    strip = card(strip_read, STRIP, strip_confidence)
    new = [card(label, NEW, 0.6 - 0.1 * k) for k, label in enumerate(new_reads)]
    feed([strip], 2, motion=_visit(3, arm=True, seat=3))
    feed([strip, *new], 4, motion=_visit(3, arm=True, seat=3))
    feed([strip, *new], 2, motion=_visit(3, seat=3))
    feed([strip], 1, motion=_visit(3, seat=3))
    feed([strip, *new], 4 * CFG.min_hits, motion=_visit(3, seat=3))
    return [o["card"] for _, o in feed.out if o["type"] == "play"]


def test_the_top_cards_strip_beside_a_card_being_laid_over_it_is_no_new_card() -> None:
    assert _plays() == ["blue_8", "blue_4", "blue_draw2"]


def test_a_card_laid_over_the_top_read_as_its_last_copy_is_named_closer_up_not_lost() -> None:
    played = _plays(new_reads=("blue_4",), possible_now=lambda label: label != "blue_4")
    assert played == ["blue_8", "blue_4", "blue_draw2"]


def test_a_strip_of_another_colour_is_left_to_the_other_rules() -> None:
    """The strip rule holds for the top card's own colour (or an unsure reading) only: a red card read surely, boxed
    in the top card's pose beside a card being laid, is no part of a blue card."""
    assert "red_1" in _plays(strip_read="red_1", strip_confidence=0.9)
    assert "red_1" not in _plays(strip_read="red_1")
