"""The pages' language: ``GET /api/words`` serves :func:`referee.words.catalog` to the browser.

The dashboard and the overlay speak English, Dutch, German or Luxembourgish. A page asks for the
language it was given (``?lang=`` in its address, else the one kept in the browser); without one it
gets the match's language, chosen in the dashboard's setup and saved in the match's ``setup``
observation (an extra ``lang`` field, which the referee ignores), so an OBS overlay follows the table.
The card, player, penalty and alert words come from Python here, so the pages and the command line
say the same; the pages' own labels are in ``static/i18n.js``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any

from fastapi import FastAPI, Query

from referee.session import MatchSession
from referee.words import LANGUAGES, catalog, find_language

__all__ = ["match_language", "register_words", "setup_language"]


def match_language(observations: Iterable[Mapping[str, Any]]) -> str | None:
    """The language of the latest ``setup`` that named one (None: no setup did)."""
    found: str | None = None
    for obs in observations:
        lang = obs.get("lang") if obs.get("type") == "setup" else None
        if isinstance(lang, str) and lang in LANGUAGES:
            found = lang
    return found


def setup_language(options: dict[str, Any]) -> str | None:
    """Take ``lang`` out of a setup's ``options`` (the rule options know no such name): the language
    to save on the setup observation, or None when none (or an unknown one) was given."""
    lang = options.pop("lang", None)
    return find_language(lang) if isinstance(lang, str) and lang.strip() else None


def register_words(app: FastAPI, session: MatchSession) -> None:
    """``GET /api/words?lang=xx``: the words of ``xx`` (English for an unknown one); without ``lang``,
    the match's language (English when the setup chose none). ``match_lang`` says which that is."""

    @app.get("/api/words")
    def words(lang: Annotated[str | None, Query(max_length=16)] = None) -> dict[str, Any]:
        chosen = match_language(session.export_log())
        out = catalog(lang if lang else (chosen or "en"))
        out["match_lang"] = chosen
        return out
