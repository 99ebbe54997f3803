"""A real browser on the hub: the hall shows a tile per table and follows them live; /t/A/ is table A's
own dashboard."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.hall.broker_url import BrokerUrl
from referee.session import MatchSession
from tests.hall.conftest import play_some, publisher, same_events, table, wait_for
from tests.hall.test_web import live_hub
from tests.web.test_browser import CHROMIUM, chromium

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium"),
]


def test_the_hall_and_a_tables_dashboard_in_a_browser(tmp_path: Path, url: BrokerUrl) -> None:
    a, b = table(), table(players=2)
    pubs = [publisher(a, url, "A"), publisher(b, url, "B")]
    errors: list[str] = []
    try:
        _look(tmp_path, url, a, b, errors)
    finally:
        for pub in pubs:
            pub.stop()
    assert errors == []


def _look(tmp_path: Path, url: BrokerUrl, a: MatchSession, b: MatchSession, errors: list[str]) -> None:
    with live_hub(tmp_path / "hub.db", url) as (base, receiver), chromium() as (browser, expect):
        play_some(a, 1)
        play_some(b, 1)
        wait_for(lambda: same_events(receiver.store, "A", a) and same_events(receiver.store, "B", b),
                 what="both tables at the hub")
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(base + "/")
        expect(page.locator(".tile")).to_have_count(2)
        expect(page.locator("#conn")).to_have_text("live")
        tile_a = page.locator('.tile[data-table="A"]')
        expect(tile_a.locator(".pill")).to_have_text("live")
        expect(tile_a.locator(".card")).to_have_text("5")
        expect(page.locator("#standings tr")).to_have_count(5)

        # Live: an illegal card at table A shows on its tile and in the hall's alert feed.
        a.submit({"type": "play", "card": "blue_9", "seat": a.expected_seat()})
        expect(tile_a.locator(".card")).to_have_text("9")
        expect(page.locator('#feed li[data-table="A"][data-code="illegal_card"]')).to_be_visible()
        expect(tile_a.locator(".tile-alert")).to_contain_text(re.compile("illegal card", re.IGNORECASE))

        dashboard = browser.new_page(viewport={"width": 1400, "height": 1000})
        dashboard.on("pageerror", lambda exc: errors.append(str(exc)))
        dashboard.goto(base + "/t/A")  # redirected to /t/A/, so its relative paths are table A's
        expect(dashboard.locator("#conn")).to_have_text("live")
        expect(dashboard.locator("#top-card")).to_have_text("9")
        expect(dashboard.locator("#alerts li[data-code=illegal_card]")).to_be_visible()
        play_some(a, 1)  # a draw and a pass: the turn moves on, live
        expect(dashboard.locator("#seats li.turn .seat-name")).to_have_text(a.names[a.expected_seat() or 0])

        # The hall in Dutch (?lang=nl, its words from the hub's /api/words): labels, cards, alerts in words.
        dutch = browser.new_page(viewport={"width": 1400, "height": 900})
        dutch.on("pageerror", lambda exc: errors.append(str(exc)))
        dutch.goto(base + "/?lang=nl")
        expect(dutch.locator("html")).to_have_attribute("lang", "nl")
        expect(dutch.locator("h2[data-i18n=tables]")).to_have_text("Tafels")
        expect(dutch.locator("#table-count")).to_have_text("2 tafels")
        tile = dutch.locator('.tile[data-table="A"]')
        expect(tile.locator(".tile-card-words")).to_have_text("Blauw 9")
        expect(tile.locator(".tile-alert")).to_have_text(re.compile(r"^Verkeerde kaart · \w+$"))
        expect(dutch.locator('#feed li[data-table="A"] .feed-code')).to_have_text("Verkeerde kaart")
        expect(tile.locator(".tile-seats li").first).to_contain_text(re.compile(r"\d+ kaart"))
