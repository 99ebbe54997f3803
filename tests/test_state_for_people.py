"""What the pages need to speak to people, in the live state: the match's language (the camera view speaks
it) and the hand size this round dealt (the next round deals the same unless told otherwise)."""

from __future__ import annotations

from referee.session import MatchSession
from referee.store import Store


def test_the_state_says_the_hand_size_the_round_dealt() -> None:
    assert MatchSession(Store(":memory:"), players=4, hand_size=4).snapshot()["hand_size"] == 4
    assert MatchSession(Store(":memory:"), players=4).snapshot()["hand_size"] == 7  # the preset's


def test_the_state_says_the_language_the_setup_chose() -> None:
    match = MatchSession(Store(":memory:"), players=3)
    assert match.snapshot()["lang"] is None
    match.submit({"type": "setup", "players": 3, "dealer": 0, "rules": "official", "lang": "lb"})
    assert match.snapshot()["lang"] == "lb"
    match.submit({"type": "setup", "players": 3, "dealer": 1, "rules": "official"})  # a round naming none
    assert match.snapshot()["lang"] == "lb"
