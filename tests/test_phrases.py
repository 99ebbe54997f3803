"""The catalogue of what the pages say: every phrase in all four languages, with the same slots, merged from
its parts (``referee/phrases/*.py``) with no key in two of them."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import re
from pathlib import Path

import pytest

import referee.phrases
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


PARTS = sorted(path.stem for path in Path(referee.phrases.__file__).parent.glob("*.py") if path.stem != "__init__")


def test_every_part_is_in_the_catalogue_whole() -> None:
    """A part left out of the merge would lose its phrases without a word; each part's keys stay together."""
    merged = [importlib.import_module(f"referee.phrases.{name}").PHRASES for name in PARTS]
    assert sum(len(part) for part in merged) == len(PHRASES)
    keys = list(PHRASES)
    for part in merged:
        start = keys.index(next(iter(part)))
        assert keys[start:start + len(part)] == list(part)


def test_a_key_in_two_parts_fails_at_import(monkeypatch: pytest.MonkeyPatch) -> None:
    """The package run again (as another module) with one part holding another part's key: the import fails."""
    hall = importlib.import_module("referee.phrases.hall")
    monkeypatch.setattr(hall, "PHRASES", {**hall.PHRASES, "title": PHRASES["title"]})
    spec = importlib.util.spec_from_file_location("phrases_again", referee.phrases.__file__)
    assert spec is not None and spec.loader is not None
    with pytest.raises(ValueError, match="phrases in two parts of the catalogue: title"):
        spec.loader.exec_module(importlib.util.module_from_spec(spec))


def test_the_docstring_example_runs() -> None:
    failed, attempted = doctest.testmod(referee.phrases)
    assert attempted > 0 and failed == 0
