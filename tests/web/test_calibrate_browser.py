"""Calibration by clicking in a real browser (Debian's Chromium through Playwright): corners clicked on the
live frame are saved, applied to the running pipeline, and are the pile zone of the next ``referee run``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import pytest

import referee.commands
from referee.commands import execute
from referee.pipeline import Pipeline
from referee.session import MatchSession
from referee.vision.calibration import CalibrationProfile
from referee.vision.capture import Frame
from tests.test_pipeline import ColourDetector, _args, _game
from tests.web.conftest import TOKEN, live_server
from tests.web.test_browser import CHROMIUM, chromium

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium"),
]

W, H = 320, 240
#: Clicked in this order (not clockwise), in frame pixels.
CORNERS = [(250.0, 200.0), (80.0, 40.0), (70.0, 190.0), (240.0, 50.0)]
CLOCKWISE = [(80.0, 40.0), (240.0, 50.0), (250.0, 200.0), (70.0, 190.0)]
SEATS = [(160.0, 230.0), (10.0, 120.0), (310.0, 120.0)]


def near(points: Any, expected: list[tuple[float, float]], tolerance: float = 1.5) -> bool:
    return len(points) == len(expected) and all(
        abs(p[0] - e[0]) <= tolerance and abs(p[1] - e[1]) <= tolerance for p, e in zip(points, expected, strict=True))


def test_corners_clicked_on_the_page_are_saved_applied_live_and_used_by_referee_run(
    session: MatchSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "calibration" / "table.json"
    still = _game()[0]
    pipeline = Pipeline(ColourDetector(), session, players=3, fps=30.0)
    pipeline.step(Frame(image=still, t=0.0, frame_index=0, captured_at=0.0))  # the camera's first frame
    errors: list[str] = []
    with live_server(session, table=pipeline, calibration_file=path) as live, chromium() as (browser, expect):
        page = browser.new_page(viewport={"width": 1100, "height": 800})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(live.url + "/calibrate#token=" + TOKEN)
        expect(page.locator("#frame")).to_have_js_property("naturalWidth", W)
        expect(page.locator("#hint")).to_have_text("Click corner 1 of 4 of the pile zone.")
        box = page.locator("#marks").bounding_box()
        assert box is not None and box["width"] > 100

        def at(point: tuple[float, float]) -> tuple[float, float]:
            return box["x"] + point[0] * box["width"] / W, box["y"] + point[1] * box["height"] / H

        for corner in CORNERS:
            page.mouse.click(*at(corner))
        expect(page.locator("#marks circle.corner")).to_have_count(4)
        expect(page.locator("#hint")).to_contain_text("Pile zone set")

        page.locator("button[data-step=stock]").click()  # drag the stock zone
        page.mouse.move(*at((10.0, 10.0)))
        page.mouse.down()
        page.mouse.move(*at((40.0, 30.0)), steps=4)
        page.mouse.move(*at((60.0, 50.0)), steps=4)
        page.mouse.up()
        expect(page.locator("#marks polygon.stock")).to_have_count(1)

        page.locator("button[data-step=seats]").click()
        for seat in SEATS:
            page.mouse.click(*at(seat))
        expect(page.locator("#marks circle.seat")).to_have_count(3)

        page.locator("#btn-save").click()
        expect(page.locator("#result")).to_contain_text("Saved to " + str(path) + " and applied to the live camera")
        expect(page.locator("#result")).to_contain_text("referee run --calibration " + str(path))
        assert not page.locator("#result").evaluate("n => n.classList.contains('error')")

        # On a phone: a tap is a click, and nothing scrolls sideways.
        phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        small = phone.new_page()
        small.on("pageerror", lambda exc: errors.append(str(exc)))
        small.goto(live.url + "/calibrate")
        expect(small.locator("#frame")).to_have_js_property("naturalWidth", W)
        expect(small.locator("#marks circle.corner")).to_have_count(4)  # the saved corners, shown
        assert small.evaluate("document.documentElement.scrollWidth") <= 390
        small.locator("#btn-clear").click()
        expect(small.locator("#marks circle.corner")).to_have_count(0)
        small.locator("#marks").tap(position={"x": 40, "y": 30})
        expect(small.locator("#marks circle.corner")).to_have_count(1)
        expect(small.locator("#hint")).to_have_text("Click corner 2 of 4 of the pile zone.")
        phone.close()
    assert errors == []

    saved = CalibrationProfile.load(path)
    assert saved.method == "clicked" and saved.image_size == (W, H)
    assert near(saved.pile, CLOCKWISE)
    assert saved.stock is not None and near(saved.stock, [(10.0, 10.0), (60.0, 10.0), (60.0, 50.0), (10.0, 50.0)])
    assert near(saved.seats, SEATS)

    # Applied live: the running pipeline takes it between two frames.
    pipeline.step(Frame(image=still, t=1 / 30, frame_index=1, captured_at=1 / 30))
    assert pipeline.profile is not None and pipeline.profile.pile == saved.pile

    # The next `referee run --no-serve --calibration FILE` on short footage judges in the clicked zone.
    footage = tmp_path / "footage"
    footage.mkdir()
    for i, image in enumerate(_game()[:12]):
        cv2.imwrite(str(footage / f"{i:03d}.png"), image)
    used: list[Pipeline] = []

    class Recorded(Pipeline):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            used.append(self)

    monkeypatch.setattr(referee.commands, "Pipeline", Recorded)
    args = _args(tmp_path, players=3, calibration=path)
    assert execute(args, str(footage), realtime=False, detector=ColourDetector()) == 0
    assert len(used) == 1 and used[0].profile is not None
    assert used[0].profile.pile == saved.pile and used[0].profile.seats == saved.seats
    assert used[0].profile.stock == saved.stock
