"""A real browser (Debian's Chromium through Playwright) on the dashboard and the overlay."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.session import MatchSession
from tests.web.conftest import TOKEN, LiveServer, live_server
from tests.web.test_hands import HAND, FakeDetector, Loader, jpeg

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium"),
]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@contextlib.contextmanager
def chromium() -> Iterator[tuple[Any, Any]]:
    """Debian's Chromium through Playwright (its own browser download fails here), closed afterwards;
    with Playwright's ``expect``, patient enough for a loaded CI machine."""
    sync_api = pytest.importorskip("playwright.sync_api")
    sync_api.expect.set_options(timeout=15_000)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser, sync_api.expect
        finally:
            browser.close()


def test_an_alert_appears_on_the_dashboard_and_the_overlay(
    live: LiveServer, tmp_path: Path
) -> None:
    errors: list[str] = []
    with chromium() as (browser, expect):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(live.url + "/#token=" + TOKEN)
        expect(page.locator("#conn")).to_have_text("live")
        expect(page.locator("#top-card")).to_have_text("5")
        expect(page.locator("#seats li.turn .seat-name")).to_have_text("Bob")
        assert page.evaluate("location.hash") == ""  # the token left the address bar

        overlay = browser.new_page(viewport={"width": 1280, "height": 720})
        overlay.on("pageerror", lambda exc: errors.append(str(exc)))
        overlay.goto(live.url + "/overlay")
        expect(overlay.locator("#colour")).to_have_text("Red")
        expect(overlay.locator("#turn")).to_have_text("Bob")
        expect(overlay.locator("#banner")).to_be_hidden()
        overlay.wait_for_timeout(300)  # let its event stream connect

        response = live.post("/api/observations",
                             {"type": "play", "card": "blue_7", "seat": 1})
        assert response.status_code == 200

        alert = page.locator("#alerts li[data-code=illegal_card]")
        expect(alert).to_be_visible()
        expect(alert.locator(".alert-who")).to_have_text("Bob")
        expect(alert.locator(".alert-penalty")).to_have_text("draws 2 cards")
        # In words: the card, the player's name, the rule; the referee's "Player 2" is shown as Bob.
        expect(alert.locator(".alert-sentence")).to_contain_text("Bob played Blue 7, which matches neither")
        expect(alert.locator(".alert-message")).to_contain_text("Bob played Blue 7 on Red 5")
        expect(alert.locator("blockquote.alert-rule")).to_contain_text("If a player put a card on the playing deck")
        expect(page.locator("#top-card")).to_have_text("7")
        expect(page.locator("#colour")).to_have_text("Blue")

        expect(overlay.locator("#banner")).to_be_visible()
        expect(overlay.locator("#banner-code")).to_have_text("Illegal card")
        expect(overlay.locator("#banner-who")).to_have_text("Bob")
        expect(overlay.locator("#banner-penalty")).to_have_text("draws 2 cards")
        expect(overlay.locator("#banner-message")).to_contain_text("Bob played Blue 7")
        expect(overlay.locator("#colour")).to_have_text("Blue")

        # A control by its keyboard shortcut: Cy (seat 3, key 3) calls UNO.
        page.locator("h1").click()
        page.keyboard.press("3")
        expect(page.locator("#acting")).to_have_text("Cy")
        page.keyboard.press("u")
        expect(page.locator("#result")).to_contain_text("Cy calls UNO")
        deadline = time.monotonic() + 10
        while live.session.export_log()[-1] != {"type": "uno", "seat": 2}:
            assert time.monotonic() < deadline, live.session.export_log()[-1]
            time.sleep(0.05)

        # The overlay re-fetches everything when OBS reloads it.
        overlay.reload()
        expect(overlay.locator("#colour")).to_have_text("Blue")
        expect(overlay.locator("#players li")).to_have_count(3)

        page.screenshot(path=str(tmp_path / "dashboard.png"), full_page=True)
        overlay.screenshot(path=str(tmp_path / "overlay.png"))
    assert errors == []
    for name in ("dashboard.png", "overlay.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_hand_from_a_photo_fills_the_seat_field_and_scores(
    session: MatchSession, tmp_path: Path
) -> None:
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(jpeg())
    errors: list[str] = []
    with live_server(session, hand_detector=Loader(FakeDetector(HAND))) as live, chromium() as (browser, expect):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(live.url + "/#token=" + TOKEN)
        expect(page.locator("#conn")).to_have_text("live")
        page.locator('input[data-photo-seat="2"]').set_input_files(str(photo))
        field = page.locator('#score-form input[data-seat="2"]')
        expect(field).to_have_value("blue_7 wild green_skip")
        expect(page.locator("#result")).to_contain_text("3 card(s) proposed")
        assert "reveal" not in {o["type"] for o in live.session.export_log()}
        field.fill("blue_7 wild")  # the operator corrects the proposal, then scores
        page.locator("#score-form button[type=submit]").click()
        expect(page.locator("#result")).to_contain_text("Hands scored for 1 seat")
        assert live.session.export_log()[-1] == {"type": "reveal", "seat": 2,
                                                 "cards": ["blue_7", "wild"]}
    assert errors == []


def test_a_pipeline_falling_behind_says_so_and_its_alerts_are_shown_as_unsure(live: LiveServer) -> None:
    errors: list[str] = []
    why = "falling behind: 9 fps processed of 30, verdicts may be wrong"
    with chromium() as (browser, expect):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(live.url + "/#token=" + TOKEN)
        expect(page.locator("#conn")).to_have_text("live")
        expect(page.locator("#pipeline-warning")).to_be_hidden()

        live.session.set_status(fps=9.0, warning=why)
        live.session.submit({"type": "play", "card": "blue_7", "seat": 1, "unsure": why})  # illegal on red_5
        expect(page.locator("#pipeline-warning")).to_have_text(why)
        alert = page.locator("#alerts li[data-code=illegal_card]")
        expect(alert).to_have_class("alert alert-illegal_card alert-unsure")
        expect(alert.locator("strong")).to_have_text("Illegal card (may be wrong)")
        expect(alert.locator(".alert-unsure-why")).to_have_text(why)
        expect(page.locator("#status")).not_to_contain_text("warning")

        live.session.set_status(fps=30.0, warning=None)
        expect(page.locator("#pipeline-warning")).to_be_hidden()
    assert errors == []
