"""What a person reads on a page, checked against the one catalogue (``referee/phrases/`` and the card,
player, penalty and alert words of ``referee/words.py``).

:func:`read_page` collects, in a real browser, every piece of text a person can read: each visible element's
text (an element holding only text, ``<kbd>`` and ``<code>`` counts as one piece), the placeholders, titles,
labels and alternative texts, and every option of a visible ``<select>``. :func:`unexplained` returns the
pieces that are not a phrase of the page's language (its ``{slots}`` any text), a joining of such phrases,
a name or a number; :func:`machine_labels` the pieces that show a card or state as a program names it
(``red_0``, ``round_over``); :func:`english_leaks` the English that a page in another language shows.
Verbatim quotes of the rule sheets (each in its own sheet's language) are marked on the page and skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from referee.phrases import phrases
from referee.words import LANGUAGE_NAMES, catalog

#: A page's pieces of text (elements under the ``raw`` selector are skipped).
READ_PAGE = (Path(__file__).with_name("read_page.js")).read_text()

#: Quotes of the rule sheets, each in its sheet's language, and the faces of cards (their printed symbols,
#: "7", "+2", "⇄"): shown as written, not translated.
RAW = "[data-i18n-raw], .rule-quote, .alert-rule-en, .card"

#: Text that needs no words: numbers, symbols and punctuation.
_SYMBOLS = re.compile(r"[\d\s.,:;·%×+\-–—?!()/↻↺✓✕⟳#…\"“”„'’|▶*=<>\[\]]*")
#: Ends of a piece that are no word ("✓ saved", "▶ replay").
_EDGES = " ✓✕▶·…"
_TOKEN = re.compile(r"(\{\w+\})|\[([^\]]+)\]|`([^`]+)`")
#: How a program names a card or a state: lower-case words joined by "_".
MACHINE_LABEL = re.compile(r"\b[a-z]+_[a-z0-9_/]+\b")


def _pattern(text: str) -> str:
    """A phrase as a regular expression: its ``{slots}`` any text, its ``[x]`` and `` `x` `` as shown."""
    text = " ".join(text.split())
    out, at = [], 0
    for found in _TOKEN.finditer(text):
        out.append(re.escape(text[at:found.start()]))
        out.append(".+?" if found.group(1) else re.escape(found.group(2) or found.group(3)))
        at = found.end()
    out.append(re.escape(text[at:]))
    return "".join(out)


def _texts(lang: str) -> list[str]:
    words = catalog(lang)
    texts = list(phrases(lang).values())
    texts += list(words["cards"].values()) + list(words["colours"].values()) + list(LANGUAGE_NAMES.values())
    texts += [words["player"], words["someone"], words["a_card"], *words["penalty"].values()]
    for alert in words["alerts"].values():
        texts += [alert["title"], alert["sentence"]]
    return texts


@cache
def _matcher(lang: str, names: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = sorted({_pattern(text) for text in _texts(lang)} | {re.escape(n) for n in names}, key=len)
    return re.compile("|".join(f"(?:{a})" for a in reversed(alternatives)))


def _said(part: str, lang: str, names: tuple[str, ...], depth: int = 2) -> bool:
    """``part`` is a phrase, a name or a symbol, or up to three of them side by side."""
    matcher = _matcher(lang, names)
    if matcher.fullmatch(part):
        return True
    part = part.strip(_EDGES)
    if len(part) <= 1 or _SYMBOLS.fullmatch(part) or matcher.fullmatch(part):
        return True  # a keyboard key ("r") is one character
    if depth == 0:
        return False
    return any(_said(part[:i], lang, names, 0) and _said(part[i + 1:], lang, names, depth - 1)
               for i, char in enumerate(part) if char == " ")


def read_page(page: Any) -> list[tuple[str, str]]:
    """Every piece of text a person can read on ``page``, with where it is."""
    return [(text, where) for text, where in page.evaluate(READ_PAGE, RAW)]


def unexplained(pieces: Iterable[tuple[str, str]], lang: str, names: Iterable[str] = ()) -> list[tuple[str, str]]:
    """The pieces that are no phrase of ``lang`` (nor phrases joined by " · ", names or numbers)."""
    known = tuple(names)
    return [(text, where) for text, where in pieces
            if not _said(text, lang, known) and not all(_said(part, lang, known) for part in text.split(" · "))]


def machine_labels(pieces: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The pieces of visible text (not placeholders: a typed card is a label) that show a program's name."""
    return [(text, where) for text, where in pieces
            if "@placeholder" not in where and any(_labelled(token) for token in text.split())]


def _labelled(token: str) -> bool:
    """A word of the page that is a program's name (a file's path or name is data, shown as it is)."""
    token = token.strip(".,;:()“”\"'")
    return bool(MACHINE_LABEL.search(token)) and not token.startswith("/") and not re.search(r"\.[a-z]{2,4}$", token)


@cache
def _english_only(lang: str) -> tuple[str, ...]:
    """Runs of English words (three words or more) that no phrase of ``lang`` contains."""
    theirs = " ".join(_texts(lang))
    runs: set[str] = set()
    for text in phrases("en").values():
        for run in _TOKEN.split(" ".join(text.split())):
            run = (run or "").strip(" .,:;()")
            if len(run.split()) >= 3 and run not in theirs:
                runs.add(run)
    colours = catalog(lang)["colours"]
    runs |= {f"{english} " for key, english in catalog("en")["colours"].items() if colours[key] != english}
    return tuple(sorted(runs))


def english_leaks(pieces: Iterable[tuple[str, str]], lang: str) -> list[tuple[str, str, str]]:
    """For a page in ``lang`` (not English): the pieces showing English that ``lang``'s words do not have."""
    if lang == "en":
        return []
    runs = _english_only(lang)
    return [(text, where, run) for text, where in pieces for run in runs if run in text]
