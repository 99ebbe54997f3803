"""Every word a person reads on the pages, in English, Dutch, German and Luxembourgish: one catalogue.

Each phrase is one entry, its four languages side by side (en, nl, de, lb), so a phrase cannot be added in one
language and forgotten in another. The pages get them from ``GET /api/words`` (:func:`referee.words.catalog`
puts :func:`phrases` under ``strings``); Python fills them with :func:`phrase`. ``{name}`` is a value filled in,
``[x]`` a key shown as a keyboard key, `` `x` `` a command shown as code.

Sentences the referee writes in English (an alert's detail line, the camera's state) have a ``msg_`` entry
whose English is the line's pattern: the pages match the line against it and say it in their language
(:data:`SENTENCES`). Pure: no I/O, so the referee core may use it.

>>> phrase("turn_round_over", "nl"), phrase("photos_many", "de", n=3)
('Ronde voorbij', '3 Fotos')
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.phrases import (
    calibrate,
    camera,
    common,
    dashboard,
    decks,
    game,
    hall,
    notices,
    overlay,
    pages,
    replay,
    scoreboard,
    sentences,
    status,
    teach,
)

__all__ = ["PHRASES", "SENTENCES", "phrase", "phrases"]

#: The order of each entry's four texts.
_ORDER: tuple[str, ...] = ("en", "nl", "de", "lb")

#: One phrase: (English, Dutch, German, Luxembourgish).
_Texts = tuple[str, str, str, str]


def _merged(*parts: Mapping[str, _Texts]) -> dict[str, _Texts]:
    """The parts as one catalogue, in their order; a key in two parts is an error (one would hide the other)."""
    merged: dict[str, _Texts] = {}
    for part in parts:
        if twice := sorted(merged.keys() & part.keys()):
            raise ValueError(f"phrases in two parts of the catalogue: {', '.join(twice)}")
        merged.update(part)
    return merged


#: key -> (English, Dutch, German, Luxembourgish): every part, in this order (the order of the pages'
#: ``strings`` in ``GET /api/words``). Each part is one concern: a page, or what several pages share.
PHRASES: dict[str, tuple[str, str, str, str]] = _merged(
    common.PHRASES,
    dashboard.PHRASES,
    scoreboard.PHRASES,
    game.PHRASES,
    notices.PHRASES,
    status.PHRASES,
    replay.PHRASES,
    hall.PHRASES,
    pages.PHRASES,
    sentences.PHRASES,
    overlay.PHRASES,
    decks.PHRASES,
    teach.PHRASES,
    calibrate.PHRASES,
    camera.PHRASES,
)

#: The phrases whose English is a line the referee writes (the pages translate such lines by it).
SENTENCES: tuple[str, ...] = tuple(key for key in PHRASES if key.startswith("msg_"))


def phrases(lang: str) -> dict[str, str]:
    """Every phrase in ``lang`` (English for a language not in the catalogue)."""
    index = _ORDER.index(lang) if lang in _ORDER else 0
    return {key: texts[index] for key, texts in PHRASES.items()}


def phrase(key: str, lang: str = "en", **values: object) -> str:
    """One phrase in ``lang`` with its ``{name}`` slots filled; the key itself when there is no such phrase."""
    texts = PHRASES.get(key)
    if texts is None:
        return key
    text = texts[_ORDER.index(lang) if lang in _ORDER else 0]
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text
