"""The hall and a table's pages at the hub say only what the catalogue says, in every language (real
Chromium): the same check as tests/web/test_page_words.py, on the hub's pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from referee.hall.broker_url import BrokerUrl
from referee.words import LANGUAGES
from tests.hall.conftest import play_some, publisher, same_events, table, wait_for
from tests.hall.test_web import live_hub
from tests.web.page_words import english_leaks, machine_labels, read_page, unexplained
from tests.web.test_browser import CHROMIUM, chromium
from tests.web.test_page_words import CUT_WORDS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium"),
]

NAMES = ("Ann", "Bob", "Cy")


def test_the_hall_says_only_what_the_catalogue_says(tmp_path: Path, url: BrokerUrl) -> None:
    a = table()
    pub = publisher(a, url, "A")
    errors: list[str] = []
    found: dict[str, list[Any]] = {}
    try:
        with live_hub(tmp_path / "hub.db", url) as (base, receiver), chromium() as (browser, expect):
            play_some(a, 1)
            a.submit({"type": "play", "card": "blue_9", "seat": a.expected_seat()})  # an illegal card
            a.submit({"type": "play", "card": "red_7", "seat": 0})  # a play out of turn
            wait_for(lambda: same_events(receiver.store, "A", a), what="table A at the hub")
            icon = httpx.get(base + "/favicon.ico", timeout=10)  # browsers ask for it: the pages' own icon
            assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
            for lang in LANGUAGES:
                for path, drawn in (("/", "#feed li"), ("/t/A/", "#alerts li"), ("/t/A/overlay", "#players li")):
                    page = browser.new_page(viewport={"width": 1280, "height": 800})
                    page.on("pageerror", lambda exc: errors.append(str(exc)))
                    page.goto(f"{base}{path}?lang={lang}")
                    expect(page.locator("html")).to_have_attribute("lang", lang)
                    expect(page.locator(drawn).first).to_be_visible()
                    pieces = read_page(page)
                    for kind, bad in (("not in the catalogue", unexplained(pieces, lang, (*NAMES, "A"))),
                                      ("machine label", machine_labels(pieces)),
                                      ("English", english_leaks(pieces, lang))):
                        if bad:
                            found[f"{lang} {path} {kind}"] = bad
                    page.set_viewport_size({"width": 390, "height": 844})  # a phone: nothing cut, nothing wider
                    if cut := page.evaluate(CUT_WORDS):
                        found[f"{lang} {path} cut at 390 px"] = cut
                    if (wide := page.evaluate("document.documentElement.scrollWidth")) > 390:
                        found[f"{lang} {path} wider than 390 px"] = [wide]
                    page.close()
    finally:
        pub.stop()
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
    assert errors == []
