"""The pages on real screens (real Chromium): the operator's pages on a phone (390 px wide: no sideways
scrolling, no control cut off), the OBS overlay at 720p and at 4K (everything three times the size,
nothing off the canvas, the last alerts in a strip), the status pill telling the truth when the footage
ends, and the links a run prints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from referee.commands import server_lines
from referee.pipeline import Pipeline
from referee.session import MatchSession
from referee.store import Store
from referee.vision.capture import Capture
from tests.test_pipeline import ColourDetector
from tests.web.conftest import TOKEN, LiveServer, live_server
from tests.web.test_browser import CHROMIUM, chromium

PHONE = {"width": 390, "height": 844}

# Every visible element matching ``selector`` whose box sticks out of the viewport: sideways (a control
# cut off at the right), and with ``vertical`` up or down too (the overlay's canvas does not scroll).
OUTSIDE = """({ selector, vertical }) => Array.from(document.querySelectorAll(selector)).filter((n) => {
  const r = n.getBoundingClientRect();
  if (!r.width || !r.height || getComputedStyle(n).visibility === "hidden") return false;
  const across = r.left < -0.5 || r.right > innerWidth + 0.5;
  return across || (vertical && (r.top < -0.5 || r.bottom > innerHeight + 0.5));
}).map((n) => n.tagName + "#" + n.id + "." + n.className + " " + Math.round(n.getBoundingClientRect().right))"""


def test_a_run_prints_the_dashboard_the_one_click_link_and_the_overlay() -> None:
    lines = server_lines("127.0.0.1", 8000, "a b/c")
    assert lines[0] == "dashboard: http://127.0.0.1:8000/  (admin token: a b/c)"
    assert lines[1].endswith("http://127.0.0.1:8000/#token=a%20b%2Fc")  # common.js reads it back decoded
    assert lines[2].endswith("http://127.0.0.1:8000/overlay")


def _no_sideways_scroll(page: Any, path: str) -> None:
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], (path, width, page.evaluate(OUTSIDE, {"selector": "body *", "vertical": False}))
    # Every control on the page fits across the screen (none half cut off at the right).
    assert page.evaluate(OUTSIDE, {"selector": "button, input, select, a, label", "vertical": False}) == [], path


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_the_operator_pages_fit_a_phone() -> None:
    errors: list[str] = []
    session = MatchSession(Store(":memory:"), players=4, names=["Ann", "Bob", "Cy", "Dominique-Alexandra"])
    session.submit({"type": "start", "card": "red_5"})
    with live_server(session) as live, chromium() as (browser, expect):
        page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(live.url + "/#token=" + TOKEN)
        expect(page.locator("#conn")).to_have_text("live")
        expect(page.locator("#score-form button[type=submit]")).to_be_visible()
        _no_sideways_scroll(page, "/")
        page.locator("#help-toggle").click()  # the shortcuts' help opened: still no sideways scroll
        _no_sideways_scroll(page, "/ with help")
        # A control works by touch: UNO for the player whose turn it is.
        page.locator("#btn-uno").tap()
        expect(page.locator("#result")).to_contain_text("calls UNO")
        if page.request.get(live.url + "/calibrate").ok:  # the calibration page, where this build has one
            page.goto(live.url + "/calibrate")
            page.wait_for_load_state("networkidle")
            _no_sideways_scroll(page, "/calibrate")
    assert errors == []


def _overlay_boxes(page: Any) -> dict[str, Any]:
    boxes: dict[str, Any]
    boxes = page.evaluate("""() => Object.fromEntries(["banner", "strip", "players", "top-card"].map((id) => {
      const n = document.getElementById(id);
      const r = n.getBoundingClientRect();
      return [id, { font: parseFloat(getComputedStyle(n).fontSize), left: r.left, top: r.top, right: r.right,
                    bottom: r.bottom }];
    }))""")
    return boxes


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_the_overlay_scales_from_720p_to_4k_and_keeps_the_last_alerts(live: LiveServer) -> None:
    errors: list[str] = []
    # Alerts before the overlay opens: Cy plays, again and again, while it is Bob's turn.
    for card in ("red_9", "red_1", "red_2", "red_3"):
        assert live.post("/api/observations", {"type": "play", "card": card, "seat": 2}).status_code == 200
    boxes = {}
    with chromium() as (browser, expect):
        for width, height in ((1280, 720), (3840, 2160)):
            page = browser.new_page(viewport={"width": width, "height": height})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            alerts = live.session.snapshot()["alerts"]
            assert len(alerts) >= 4
            page.goto(live.url + "/overlay?banner=60")
            strip = page.locator("#strip li")
            expect(strip).to_have_count(3)  # the last three, newest first
            expect(strip.first).to_have_attribute("data-seq", str(alerts[-1]["seq"]))
            expect(strip.nth(2)).to_have_attribute("data-seq", str(alerts[-3]["seq"]))
            expect(page.locator("#players li").first).to_contain_text("cards")  # counts said as cards
            page.wait_for_timeout(300)  # let its event stream connect
            assert live.post("/api/observations", {"type": "play", "card": "green_8", "seat": 2}).status_code == 200
            expect(page.locator("#banner")).to_be_visible()
            expect(strip).to_have_count(3)
            expect(strip.first).to_contain_text("Cy")  # the new alert leads the strip
            page.wait_for_timeout(700)  # the strip's slide-in
            boxes[width] = _overlay_boxes(page)
            outside = page.evaluate(OUTSIDE, {"selector": "body *", "vertical": True})
            assert outside == [], (width, outside)
            page.close()
    small, large = boxes[1280], boxes[3840]
    for name in ("banner", "strip", "players", "top-card"):
        assert large[name]["font"] == pytest.approx(3 * small[name]["font"], rel=0.05), name
        assert large[name]["right"] == pytest.approx(3 * small[name]["right"], rel=0.05), name
    assert 20 <= small["banner"]["font"] <= 32  # legible on a 720p stream, not shouting
    assert errors == []


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_the_pill_says_the_footage_ended_and_the_pipeline_line_is_in_words(
    live: LiveServer, session: MatchSession, tmp_path: Path
) -> None:
    for i in range(12):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), np.full((120, 160, 3), 60, np.uint8))
    errors: list[str] = []
    with chromium() as (browser, expect):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(live.url + "/#token=" + TOKEN)
        expect(page.locator("#conn")).to_have_text("live")
        expect(page.locator("#status")).to_have_text("pipeline: no camera attached")

        session.set_status(camera="reconnecting", camera_message="no frames; retry in 2.0s")
        expect(page.locator("#conn")).to_have_text("camera reconnecting")
        expect(page.locator("#conn")).to_have_attribute("title", "no frames; retry in 2.0s")

        Pipeline(ColourDetector(), session, players=3, fps=15).run(Capture(tmp_path, fps=15))  # a file's end
        assert session.snapshot()["status"]["camera"] == "ended"
        expect(page.locator("#conn")).to_have_text("footage ended")
        expect(page.locator("#status")).to_contain_text("12 frames judged")
        expect(page.locator("#status")).not_to_contain_text("frames_read")

        session.set_status(camera="live", fps=15.0, source_fps=15.0)
        expect(page.locator("#status")).to_contain_text("judging 15 frames a second of 15")
        expect(page.locator("#conn")).to_have_text("live")
    assert errors == []
