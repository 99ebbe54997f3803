"""Every page in every language says only what the catalogue says (real Chromium): the dashboard, the overlay,
/calibrate, /teach and /camera in English, Dutch, German and Luxembourgish, with alerts, the referee's detail
lines and the camera's state on them. A string that is not in the catalogue, a card or state shown by its
program name (``red_0``, ``round_over``), or English on a page in another language fails the test; the
catalogue itself is checked in tests/test_phrases.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from referee.pipeline import Pipeline
from referee.session import MatchSession
from referee.store import Store
from referee.vision.capture import Frame
from referee.words import LANGUAGES
from tests.test_pipeline import ColourDetector, _game
from tests.web.conftest import TOKEN, live_server
from tests.web.page_words import english_leaks, machine_labels, read_page, unexplained
from tests.web.test_browser import CHROMIUM, chromium

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium"),
]

NAMES = ("Ann", "Bob", "Cy")

#: The placeholders and chosen options that do not fit their field ("standa" for "standaard").
CUT_WORDS = """() => Array.from(document.querySelectorAll("input[placeholder], select"))
  .filter((field) => field.checkVisibility())
  .map((field) => {
    const style = getComputedStyle(field);
    const pen = document.createElement("canvas").getContext("2d");
    pen.font = style.font;
    const select = field.tagName === "SELECT";
    const text = select ? ((field.options[field.selectedIndex] || {}).text || "") : field.placeholder;
    const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - (select ? 20 : 0);
    return [field.id || field.tagName, text, Math.round(pen.measureText(text).width), Math.round(room)];
  })
  .filter(([, , needs, room]) => needs > room)"""


def _table(session: MatchSession) -> Pipeline:
    """A match with two alerts (an illegal card, a play out of turn), a camera frame, a file that ended."""
    session.submit({"type": "start", "card": "red_5"})
    session.submit({"type": "play", "card": "blue_7", "seat": 1})
    session.submit({"type": "play", "card": "yellow_reverse", "seat": 0})
    pipeline = Pipeline(ColourDetector(), session, players=3, fps=30.0)
    pipeline.step(Frame(image=_game()[0], t=0.0, frame_index=0, captured_at=0.0))
    session.set_status(camera="ended", camera_message="end of file", frames=12, fps=14.8, source_fps=15.0,
                       warning="falling behind: 9 fps processed of 15, verdicts may be wrong")
    return pipeline


def _ready(page: Any, path: str, expect: Any) -> None:
    """Wait until ``path`` has drawn what it shows from the referee."""
    if path == "/":
        expect(page.locator("#alerts li")).to_have_count(2)
        expect(page.locator("#setup-rules option")).not_to_have_count(0)
    elif path == "/overlay":
        expect(page.locator("#players li")).to_have_count(3)
    elif path == "/calibrate":
        expect(page.locator("#where")).not_to_be_empty()
        expect(page.locator("#hint")).not_to_be_empty()
    elif path == "/teach":
        expect(page.locator("#labels .tile")).to_have_count(54)
        expect(page.locator("#totals")).not_to_be_empty()
    elif path == "/camera":
        expect(page.locator("#problem")).to_be_visible()  # headless Chromium has no camera to give


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_says_only_what_the_catalogue_says(lang: str, tmp_path: Path) -> None:
    session = MatchSession(Store(":memory:"), rules="official", players=3, names=list(NAMES))
    errors: list[str] = []
    found: dict[str, list[Any]] = {}
    with (live_server(session, table=_table(session), deck_dir=tmp_path / "teach",
                      calibration_file=tmp_path / "table.json") as live,
          chromium() as (browser, expect)):
        icon = httpx.get(live.url + "/favicon.ico", timeout=10)  # browsers ask for it: the pages' own icon
        assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
        for path in ("/", "/overlay", "/calibrate", "/teach", "/camera"):
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{live.url}{path}?lang={lang}#token={TOKEN}")
            expect(page.locator("html")).to_have_attribute("lang", lang)
            _ready(page, path, expect)
            pieces = read_page(page)
            assert len(pieces) > 5, (path, pieces)
            for kind, bad in (("not in the catalogue", unexplained(pieces, lang, NAMES)),
                              ("machine label", machine_labels(pieces)),
                              ("English", english_leaks(pieces, lang))):
                if bad:
                    found[f"{path} {kind}"] = bad
            for width in (1280, 390):  # a phone's width too: every word whole, nothing wider than the screen
                page.set_viewport_size({"width": width, "height": 844})
                if cut := page.evaluate(CUT_WORDS):
                    found[f"{path} cut at {width} px"] = cut
                if (wide := page.evaluate("document.documentElement.scrollWidth")) > width:
                    found[f"{path} wider than {width} px"] = [wide]
            page.close()
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
    assert errors == []
