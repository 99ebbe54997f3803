"""``python -m referee.web.screenshot OUT.png``: a picture of the dashboard mid-game, for the README.

Plays a short scripted game (one illegal card, a wild with its colour named, a missed UNO call) into
a fresh in-memory match, serves the dashboard on a free loopback port and photographs it with
Playwright driving Chromium. ``--frame IMAGE`` shows that picture as the live camera view.
"""

from __future__ import annotations

import argparse
import logging
import socket
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from referee.session import MatchSession
from referee.store import Store
from referee.web.app import create_app, make_server

log = logging.getLogger(__name__)

SCRIPT: tuple[dict[str, object], ...] = (
    {"type": "start", "card": "red_5"},
    {"type": "play", "card": "red_9", "seat": 1},
    {"type": "play", "card": "blue_9", "seat": 2},
    {"type": "play", "card": "green_2", "seat": 3},
    {"type": "draw", "seat": 0, "count": 1},
    {"type": "play", "card": "green_7", "seat": 0},
    {"type": "play", "card": "wild", "seat": 1},
    {"type": "color", "color": "yellow", "seat": 1},
    {"type": "play", "card": "yellow_draw2", "seat": 2},
    {"type": "play", "card": "yellow_3", "seat": 3},
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def take(out: Path, frame: Path | None = None, chromium: str = "/usr/bin/chromium") -> None:
    """Serve a scripted match and save a screenshot of its dashboard to ``out``."""
    from playwright.sync_api import sync_playwright

    session = MatchSession(Store(":memory:"), players=4, names=["Ana", "Ben", "Chloé", "Dev"])
    for obs in SCRIPT:
        session.submit(obs, source="operator")
    session.set_status(fps=29.8, camera="demo footage", detections=1)
    if frame is not None:
        import cv2

        image = cv2.imread(str(frame))
        if image is None:
            raise SystemExit(f"cannot read image {frame}")
        session.set_frame(cv2.imencode(".jpg", image)[1].tobytes())
    app = create_app(session, token="screenshot")
    port = _free_port()
    server = make_server(app, "127.0.0.1", port)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            page = browser.new_page(viewport={"width": 1440, "height": 1100})
            page.goto(f"http://127.0.0.1:{port}/#token=screenshot")
            page.wait_for_selector("#alerts li")
            page.wait_for_timeout(1500)  # the live image and the alert highlight settle
            out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out), full_page=True)
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
    log.info("saved %s", out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?", default=Path("docs/dashboard.png"))
    parser.add_argument("--frame", type=Path, default=None, help="image shown as the live view")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    take(args.out, args.frame, args.chromium)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
