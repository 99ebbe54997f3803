"""The catalogue of what the pages say: every phrase in all four languages, with the same slots."""

from __future__ import annotations

import re

import pytest

from referee.phrases import PHRASES, SENTENCES, phrase, phrases
from referee.words import LANGUAGES, catalog

SLOT = re.compile(r"\{(\w+)\}")


@pytest.mark.parametrize("key", sorted(PHRASES))
def test_each_phrase_is_said_in_every_language_with_the_same_slots(key: str) -> None:
    texts = PHRASES[key]
    assert len(texts) == len(LANGUAGES) and all(text.strip() for text in texts), key
    slots = [sorted(SLOT.findall(text)) for text in texts]
    assert all(s == slots[0] for s in slots), (key, slots)
    assert [text.count("[") for text in texts] == [texts[0].count("[")] * len(texts), key  # the same keys


def test_phrases_per_language_and_filled() -> None:
    assert phrases("nl")["turn_round_over"] == "Ronde voorbij"
    assert phrases("xx") == phrases("en")
    assert phrase("photos_many", "de", n=3) == "3 Fotos"
    assert phrase("no_such_phrase") == "no_such_phrase"


def test_the_pages_get_the_phrases_and_the_referees_sentences() -> None:
    words = catalog("lb")
    assert words["strings"] == phrases("lb")
    assert set(words["sentences"]) == set(SENTENCES) and "msg_not_their_turn" in SENTENCES
    assert words["sentences"]["msg_not_their_turn"]["en"] == "{player} played {card} but it was {other}'s turn"
    assert words["english_cards"]["Wild Draw Four"] == "wild_draw4"
