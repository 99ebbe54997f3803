"""``python -m referee.web.screenshot``: the README's pictures of the pages, made again in one command.

Plays a short scripted game (one illegal card, a wild with its colour named, a missed UNO call) into a
fresh in-memory match, with a frame of the demo footage as the live camera view (the calibration page
clicks on it too), serves the pages on a free loopback port and photographs them with Playwright driving
Chromium: ``docs/dashboard.png``, ``docs/calibrate.png``, ``docs/teach.png`` and ``docs/overlay.png`` (the
overlay over the camera's picture, as OBS shows it). ``OUT.png`` photographs the dashboard alone, as
before; ``--frame IMAGE`` shows that picture as the camera's; ``--lang`` any of the four languages.
"""

from __future__ import annotations

import argparse
import base64
import logging
import socket
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

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


class _StillTable:
    """The running pipeline as /calibrate sees it, for a still frame: the demo's calibration, no cards."""

    def __init__(self, frame: Any, profile: Any) -> None:
        self.frame = frame
        self.profile = profile
        self.players = int(profile.players)

    def set_profile(self, profile: Any) -> None:
        self.profile = profile

    def current_profile(self) -> Any:
        return self.profile

    def camera_frame(self) -> Any:
        return self.frame

    def landed_cards(self, image_size: tuple[int, int]) -> list[Any]:
        return []


def _demo_frame(frame: Path | None) -> Any:
    """The picture shown as the camera's: ``frame``, else one from the demo footage (None: none found)."""
    import cv2

    if frame is not None:
        image = cv2.imread(str(frame))
        if image is None:
            raise SystemExit(f"cannot read image {frame}")
        return image
    capture = cv2.VideoCapture(str(DEMO / "demo.mp4"))
    capture.set(cv2.CAP_PROP_POS_FRAMES, 240)
    ok, image = capture.read()
    capture.release()
    return image if ok else None


#: The bundled demo footage and its calibration.
DEMO = Path(__file__).resolve().parents[2] / "datasets" / "demo"

#: The pages photographed into a folder: file name, path, viewport, what shows the page is drawn.
PAGES: tuple[tuple[str, str, tuple[int, int], str], ...] = (
    ("dashboard.png", "/", (1440, 1100), "#alerts li"),
    ("calibrate.png", "/calibrate", (1280, 820), "#where:not(:empty)"),
    ("teach.png", "/teach", (1100, 900), "#labels .tile"),
    ("overlay.png", "/overlay", (1280, 720), "#players li"),
)


def take(out: Path, frame: Path | None = None, chromium: str = "/usr/bin/chromium", lang: str = "en") -> None:
    """Serve a scripted match and photograph its pages: into the folder ``out``, or the dashboard alone
    into ``out`` when it names a ``.png``."""
    import cv2
    from playwright.sync_api import sync_playwright

    from referee.vision.calibration import CalibrationProfile
    from referee.vision.overlay import annotate

    session = MatchSession(Store(":memory:"), players=4, names=["Ana", "Ben", "Chloé", "Dev"])
    for obs in SCRIPT:
        session.submit(obs, source="operator")
    session.set_status(fps=29.8, source_fps=30.0, frames=1800, camera="live")
    image = _demo_frame(frame)
    table: _StillTable | None = None
    jpeg = b""
    if image is not None:
        profile = CalibrationProfile.load(DEMO / "demo.calibration.json")
        table = _StillTable(image, profile.fitted(image.shape[1], image.shape[0]))
        shown = annotate(image, profile=table.profile, state={**session.snapshot(), "lang": lang})
        jpeg = cv2.imencode(".jpg", shown)[1].tobytes()
        session.set_frame(jpeg)
    with tempfile.TemporaryDirectory(prefix="referee-screenshot-") as scratch:
        app = create_app(session, token="screenshot", table=table, deck_dir=Path(scratch) / "deck",
                         calibration_file=Path(scratch) / "table.json")
        port = _free_port()
        server = make_server(app, "127.0.0.1", port)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        pages = [("", "/", (1440, 1100), "#alerts li")] if out.suffix == ".png" else list(PAGES)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, args=[
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
                for name, path, (width, height), drawn in pages:
                    page = browser.new_page(viewport={"width": width, "height": height})
                    page.goto(f"http://127.0.0.1:{port}{path}?lang={lang}#token=screenshot")
                    page.wait_for_selector(drawn)
                    if path == "/overlay" and jpeg:  # as OBS shows it: over the camera's picture
                        page.evaluate("""(data) => {
                          const img = document.createElement("img");
                          img.src = "data:image/jpeg;base64," + data;
                          img.style.cssText = "position:fixed;inset:0;width:100%;height:100%;"
                            + "object-fit:cover;z-index:-1";
                          document.body.prepend(img);
                        }""", base64.b64encode(jpeg).decode())
                    page.wait_for_timeout(1500)  # the live image and the alert highlight settle
                    target = out if not name else out / name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(target), full_page=path != "/overlay")
                    log.info("saved %s", target)
                    page.close()
                browser.close()
        finally:
            server.should_exit = True
            thread.join(10)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?", default=Path("docs"),
                        help="a folder for every page's picture (docs), or OUT.png for the dashboard's alone")
    parser.add_argument("--frame", type=Path, default=None, help="image shown as the live view")
    parser.add_argument("--lang", default="en", choices=("en", "nl", "de", "lb"))
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    take(args.out, args.frame, args.chromium, args.lang)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
