"""The pile the tracker believes: a sequence of cards, top last, changed only through its own verbs."""

from __future__ import annotations

import numpy as np

from referee.vision.tracking.pile import TAKEN_BACK_KEPT, Pile
from referee.vision.tracking.state import PileCard


def _card(label: str, x: float = 0.0) -> PileCard:
    return PileCard(label, np.array([x, 0, x + 50, 80], np.float32), 0, 1, 0.1, visit=3, lost_in_visit=4)


def test_a_pile_is_its_cards_top_last() -> None:
    pile = Pile()
    assert not pile and pile.top is None
    for label in ("red_5", "red_7", "blue_7"):
        pile.lay(_card(label))
    assert [c.label for c in pile] == ["red_5", "red_7", "blue_7"]
    assert len(pile) == 3 and pile[-1] is pile.top and pile.top.label == "blue_7"
    assert [c.label for c in pile[-2:]] == ["red_7", "blue_7"]
    assert [c.label for c in reversed(pile)] == ["blue_7", "red_7", "red_5"]
    pile.keep_last(2)
    assert [c.label for c in pile] == ["red_7", "blue_7"]


def test_cards_taken_back_are_kept_a_while_and_one_come_back_is_restored() -> None:
    pile = Pile()
    for k in range(TAKEN_BACK_KEPT + 2):
        pile.lay(_card(f"red_{k}", 10.0 * k))
        assert pile.take_back().label == f"red_{k}"
    assert not pile
    assert [c.label for c in pile.taken_back] == [f"red_{k}" for k in range(2, TAKEN_BACK_KEPT + 2)]
    # Read again where it was taken from: back on top; elsewhere or as another card: not.
    assert not pile.restore(np.array([300, 0, 350, 80], np.float32), "red_5", 0.9)
    assert not pile.restore(np.array([50, 0, 100, 80], np.float32), "red_4", 0.9)  # red_4 lay at 40
    assert pile.restore(np.array([50, 0, 100, 80], np.float32), "red_5", 0.9)
    assert pile.top is not None and pile.top.label == "red_5" and pile.top.missing == 0
    assert "red_5" not in [c.label for c in pile.taken_back]


def test_a_new_view_moves_or_forgets_every_card_and_a_new_round_gathers_them() -> None:
    pile = Pile()
    pile.lay(_card("red_5", 0.0))
    pile.lay(_card("red_6", 100.0))
    pile.lay(_card("red_7", 200.0))
    pile.take_back()
    pile.remap(lambda box: None if box[0] >= 100 else box + 5)
    assert [c.label for c in pile] == ["red_5"] and pile.taken_back == []
    assert pile[0].xyxy[0] == 5 and pile[0].visit is None and pile[0].lost_in_visit is None
    pile.take_back()
    pile.clear()
    assert not pile and pile.taken_back == []
