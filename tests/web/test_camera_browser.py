"""/camera in a real browser (Debian's Chromium through Playwright) with a fake camera fed by footage:
the frames reach the referee over https, over plain requests where the WebSocket is refused, and (slow)
the whole demo judged through the page gives the verdicts of the file itself."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from referee.session import MatchSession
from referee.store import Store
from referee.vision.capture import Capture, Frame
from referee.vision.phone import PhoneLink
from referee.web.app import create_app, make_server
from referee.web.tls import certificate_for
from tests.web.conftest import TOKEN, free_port
from tests.web.fake_camera import chromium_camera_args, video_frames, write_y4m
from tests.web.test_screens import _no_sideways_scroll

CHROMIUM = Path("/usr/bin/chromium")
DEMO = Path("datasets/demo")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium"),
]


@contextlib.contextmanager
def camera_browser(footage: Path) -> Iterator[tuple[Any, Any]]:
    """Chromium whose camera plays ``footage`` (a Y4M), trusting the test's self-signed certificate."""
    sync_api = pytest.importorskip("playwright.sync_api")
    sync_api.expect.set_options(timeout=20_000)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--ignore-certificate-errors", *chromium_camera_args(footage)])
        try:
            yield browser, sync_api.expect
        finally:
            browser.close()


@contextlib.contextmanager
def phone_server(tmp_path: Path, *, https: bool) -> Iterator[tuple[str, MatchSession, PhoneLink]]:
    """The web app with a phone link on a loopback port (https with a certificate made in ``tmp_path``)."""
    session = MatchSession(Store(":memory:"), players=3)
    phone = PhoneLink(on_status=lambda status: session.set_status(phone=status))
    app = create_app(session, token=TOKEN, phone=phone)
    port = free_port()
    tls = certificate_for(["127.0.0.1"], tmp_path / "tls") if https else None
    server = make_server(app, "127.0.0.1", port, tls=tls)
    thread = threading.Thread(target=server.run, name="uvicorn-camera-test", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("test server did not start")
        time.sleep(0.02)
    try:
        yield f"{'https' if https else 'http'}://127.0.0.1:{port}", session, phone
    finally:
        phone.close()
        server.should_exit = True
        thread.join(15)


@contextlib.contextmanager
def consumed(capture: Capture) -> Iterator[list[Frame]]:
    """Every frame ``capture`` hands over, read on a thread as the pipeline would."""
    frames: list[Frame] = []

    def consume() -> None:
        while True:
            frame = capture.read(timeout=0.2)
            if frame is not None:
                frames.append(frame)
            elif capture.finished:
                return

    capture.start()
    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    try:
        yield frames
    finally:
        capture.stop()
        thread.join(5)


@pytest.fixture(scope="module")
def short_footage(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three seconds of the demo at 320x180, 15 frames a second."""
    path = tmp_path_factory.mktemp("camera") / "short.y4m"
    assert write_y4m(video_frames(DEMO / "demo.mp4", 45, (320, 180)), path, 15) == 45
    return path


def wait_until(condition: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_the_phone_page_streams_its_camera_over_https(short_footage: Path, tmp_path: Path) -> None:
    errors: list[str] = []
    with phone_server(tmp_path, https=True) as (url, session, phone), consumed(phone.capture()) as frames, \
            camera_browser(short_footage) as (browser, expect):
        phone_browser = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page = phone_browser.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url + "/camera#token=" + TOKEN)
        expect(page.locator("#link")).to_have_text("streaming")
        assert page.evaluate("location.hash") == ""  # the token left the address bar
        _no_sideways_scroll(page, "/camera")  # a phone's width
        wait_until(lambda: len(frames) >= 20)
        assert frames[0].image.shape == (180, 320, 3)
        assert [f.frame_index for f in frames[:20]] == list(range(20))
        expect(page.locator("#state")).to_contain_text("frames a second arrive")
        expect(page.locator("#state")).to_contain_text("320×180")
        assert page.evaluate("cameraPage.transport()") == "ws"
        status = httpx.get(url + "/api/state", verify=False).json()["status"]["phone"]
        assert status["link"] == "connected" and status["size"] == [320, 180] and status["fps"] > 5
        # The dashboard shows the phone's link and its frame rate.
        dashboard = browser.new_page(viewport={"width": 1400, "height": 1000})
        dashboard.goto(url + "/")
        expect(dashboard.locator("#status")).to_contain_text(re.compile(r"phone: \d+(\.\d)? frames a second"))
        dashboard.close()
        # The phone goes away: the capture waits for it, and the dashboard says so.
        page.close()
        wait_until(lambda: phone.status()["link"] == "disconnected")
        assert httpx.get(url + "/api/camera", verify=False).json()["link"] == "disconnected"
        assert session.snapshot()["status"]["phone"]["link"] == "disconnected"
        # ... and it comes back: the frames go on.
        count = len(frames)
        again = phone_browser.new_page()
        again.goto(url + "/camera")  # the token is remembered by this browser
        wait_until(lambda: len(frames) >= count + 10)
        assert phone.status()["connections"] == 2
        assert frames[-1].frame_index > frames[count - 1].frame_index
    assert errors == []


#: A WebSocket that never opens, as an iPhone's to a self-signed certificate (the page itself loaded).
REFUSED_WEBSOCKET = """window.WebSocket = class {
  constructor() { this.readyState = 3; setTimeout(() => this.onclose && this.onclose({ code: 1006 }), 50); }
  send() {} close() {}
}; window.WebSocket.OPEN = 1;"""


@pytest.mark.parametrize("refusal", [REFUSED_WEBSOCKET, "delete window.WebSocket"], ids=["refused", "absent"])
def test_where_the_websocket_is_refused_frames_go_as_requests(short_footage: Path, tmp_path: Path,
                                                              refusal: str) -> None:
    with phone_server(tmp_path, https=False) as (url, _, phone), consumed(phone.capture()) as frames, \
            camera_browser(short_footage) as (browser, expect):
        page = browser.new_page()
        page.add_init_script(refusal)
        page.goto(url + "/camera#token=" + TOKEN)
        expect(page.locator("#link")).to_have_text("streaming")
        wait_until(lambda: len(frames) >= 15)
        assert page.evaluate("cameraPage.transport()") == "http"
        expect(page.locator("#state")).to_contain_text("frames a second arrive")
        page.close()
        wait_until(lambda: phone.status()["link"] == "disconnected")  # the page said goodbye


def test_without_the_token_the_page_asks_for_it(short_footage: Path, tmp_path: Path) -> None:
    with phone_server(tmp_path, https=False) as (url, _, phone), camera_browser(short_footage) as (browser, expect):
        page = browser.new_page()
        page.goto(url + "/camera")
        expect(page.locator("#problem")).to_contain_text("admin token required")
        expect(page.locator("#token-form")).to_be_visible()
        page.fill("#token", TOKEN)
        page.click("#token-form button")
        expect(page.locator("#link")).to_have_text("streaming")
        wait_until(lambda: phone.status()["frames"] > 3)


# The whole demo through the page, against the file itself.
#: Still frames before and after the demo: the page loses the camera's first frames while it connects,
#: and Chromium plays the file in a loop (the test closes the page within the frames after it).
LEAD_IN_FRAMES = 30
LEAD_OUT_FRAMES = 60


def verdicts(log: Path) -> list[dict[str, Any]]:
    """The observations and referee lines of a run's ``--log``, without times, frame numbers and
    confidences (which differ between a file and a live source)."""
    noise = {"t", "frame_index", "confidence", "alternatives", "unsure", "message"}
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    return [{k: v for k, v in line.items() if k not in noise} for line in lines]


def demo_through_the_phone(tmp_path: Path, footage: Path, script: Path, port: int, out: Path) -> dict[str, Any]:
    """``referee run --source phone`` on the demo's table, fed by Chromium's fake camera playing
    ``footage``; returns the link's status when the page was closed."""
    command = [sys.executable, "-m", "referee.cli", "run", "--source", "phone", "--host", "127.0.0.1",
               "--port", str(port), "--token", TOKEN, "--calibration", str(DEMO / "demo.calibration.json"),
               "--script", str(script), "--log", str(out), "--clips-mb", "0"]
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path)}
    url = f"http://127.0.0.1:{port}"
    with (tmp_path / "run.err").open("w") as errors:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors, env=env)
        try:
            wait_until(lambda: _up(url), timeout=60)
            with camera_browser(footage) as (browser, expect):
                page = browser.new_page()
                page.goto(url + "/camera#token=" + TOKEN)
                expect(page.locator("#link")).to_have_text("streaming")
                last = LEAD_IN_FRAMES + 565 + LEAD_OUT_FRAMES // 3
                wait_until(lambda: httpx.get(url + "/api/camera").json()["frames"] >= last, timeout=120)
                page.close()
            time.sleep(1.0)  # the last frames judged
            status: dict[str, Any] = httpx.get(url + "/api/state").json()["status"]
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(30)
    return status


def _up(url: str) -> bool:
    try:
        return httpx.get(url + "/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


@pytest.mark.slow
def test_the_demo_through_the_phone_page_gives_the_files_verdicts(tmp_path: Path) -> None:
    frames = list(video_frames(DEMO / "demo.mp4"))
    assert len(frames) == 565
    footage = tmp_path / "demo.y4m"
    write_y4m([frames[0]] * LEAD_IN_FRAMES + frames + [frames[-1]] * LEAD_OUT_FRAMES, footage, 15)
    # The operator's lines at the same moments of the footage: after the lead-in.
    script = tmp_path / "operator.jsonl"
    lines = [json.loads(line) for line in (DEMO / "demo.operator.jsonl").read_text().splitlines()]
    script.write_text("".join(json.dumps({**line, "t": line["t"] + LEAD_IN_FRAMES / 15} if "t" in line else line) + "\n"
                              for line in lines))
    by_file = tmp_path / "file.jsonl"
    subprocess.run([sys.executable, "-m", "referee.cli", "run", "--source", str(DEMO / "demo.mp4"), "--no-serve",
                    "--calibration", str(DEMO / "demo.calibration.json"), "--script", str(DEMO / "demo.operator.jsonl"),
                    "--log", str(by_file), "--clips-mb", "0"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    by_phone = tmp_path / "phone.jsonl"
    status = demo_through_the_phone(tmp_path, footage, script, free_port(), by_phone)
    phone = status["phone"]
    print(json.dumps({"frames_sent": phone["frames"], "frames_judged": status["frames"],
                      "unsure_lines": by_phone.read_text().count('"unsure"')}))
    assert phone["refused"] == 0 and phone["undecodable"] == 0
    assert verdicts(by_phone) == verdicts(by_file), (tmp_path / "run.err").read_text()[-3000:]
