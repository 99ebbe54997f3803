"""Instant replays in a real browser (Debian's Chromium through Playwright): a clip plays beside its alert
and from the play list on the dashboard, and on the overlay when the operator cues it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.clips import ClipStore, StreamFrame, encode_clip
from referee.session import MatchSession
from tests.web.conftest import TOKEN, live_server
from tests.web.test_browser import CHROMIUM, chromium

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium"),
]

#: A clip's state in the page: ready, how long, how far it played, and any media error.
PLAYING = """(v) => ({ready: v.readyState, duration: v.duration, at: v.currentTime,
                      error: v.error ? v.error.code : null, width: v.videoWidth})"""


def write_clip(clips: ClipStore, match_id: int, seq: int) -> None:
    """A real two-second WebM clip, as the recorder writes them."""
    frames = []
    for i in range(20):
        image = np.full((180, 320, 3), (40, 40 + 8 * i, 200), np.uint8)
        cv2.putText(image, str(i), (120, 120), cv2.FONT_HERSHEY_SIMPLEX, 2, (255, 255, 255), 3)
        frames.append(StreamFrame(i / 10, bytes(cv2.imencode(".jpg", image)[1])))
    part = clips.part_path(match_id, seq)
    assert encode_clip(frames, part) == 20
    clips.put(match_id, seq, part)


def test_a_clip_plays_beside_its_alert_in_the_play_list_and_on_the_overlay(
    session: MatchSession, tmp_path: Path
) -> None:
    clips = ClipStore(tmp_path / "clips")
    errors: list[str] = []
    with live_server(session, clips=clips) as live, chromium() as (browser, expect):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(live.url + "/#token=" + TOKEN)
        expect(page.locator("#conn")).to_have_text("live")
        overlay = browser.new_page(viewport={"width": 1280, "height": 720})
        overlay.on("pageerror", lambda exc: errors.append(str(exc)))
        overlay.goto(live.url + "/overlay")
        expect(overlay.locator("#replay")).to_be_hidden()

        response = live.post("/api/observations", {"type": "play", "card": "blue_7", "seat": 1})
        seq = response.json()["seq"]
        alert = page.locator(f"#alerts li[data-seq='{seq}']")
        expect(alert).to_be_visible()
        # The clip is written a moment after the card settled: the button comes when it is there.
        expect(alert.locator(".replay-btn")).to_have_count(0)
        write_clip(clips, session.match_id, seq)
        expect(alert.locator(".replay-btn")).to_be_visible()

        # One click plays it, inline.
        alert.locator(".replay-btn").click()
        player = alert.locator("video.replay-video")
        expect(player).to_be_visible()
        page.wait_for_function("(v) => v.currentTime > 0.2", arg=player.element_handle(), timeout=15_000)
        state = player.evaluate(PLAYING)
        assert state["error"] is None and state["duration"] == pytest.approx(2.0, abs=0.25)
        assert state["width"] == 320 and state["ready"] >= 2

        # The play list holds the start card and this play; the play replays the same way.
        plays = page.locator("#replay-plays li.replay-play")
        expect(plays).to_have_count(2)
        expect(plays.first.locator(".replay-card")).to_have_text("Blue 7")  # in words, as the rest of the page
        expect(plays.first.locator(".replay-who")).to_have_text("Bob")
        expect(plays.nth(1).locator(".replay-none")).to_have_text("no clip")
        plays.first.locator(".replay-btn").click()
        listed = plays.first.locator("video.replay-video")
        expect(listed).to_be_visible()
        page.wait_for_function("(v) => v.currentTime > 0.2", arg=listed.element_handle(), timeout=15_000)
        expect(alert.locator("video")).to_have_count(0)  # one player at a time

        # The operator's key i puts the newest clip on the overlay, which plays it.
        page.locator("h1").click()
        page.keyboard.press("i")
        expect(page.locator("#result")).to_have_text("Replay on the overlay ✓")
        stage = overlay.locator("#replay")
        expect(stage).to_be_visible()
        expect(stage.locator(".replay-label")).to_have_text("Instant replay")
        shown = stage.locator("video")
        overlay.wait_for_function("(v) => v.currentTime > 0.2", arg=shown.element_handle(), timeout=15_000)
        expect(stage).to_be_hidden(timeout=15_000)  # gone once played
    assert errors == []
