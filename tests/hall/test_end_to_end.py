"""The real parts together: a Mosquitto broker, `referee hub`, and two `referee run` tables on generated
footage, each its own process, publishing with --publish. What reaches the hub must be each table's own
record and log, event for event."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import httpx
import pytest

import referee.web
from referee.hall.mosquitto import Mosquitto
from referee.pipeline import LogWriter
from referee.session import Event
from referee.store import Store
from tests.hall.conftest import wait_for
from tests.web.conftest import free_port, read_events

SEEDS = {"A": 21, "B": 34}


@pytest.fixture(scope="module")
def footage(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from referee.synth.video import VideoConfig, write_video

    folder = tmp_path_factory.mktemp("footage")
    config = VideoConfig(seconds=10, fps=8, width=640, height=360, card_height=60, misplays=("out_of_turn",))
    return {name: write_video(folder / f"{name}.mp4", seed, config).video for name, seed in SEEDS.items()}


def _referee(*args: str, log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    with log.open("wb") as out:
        return subprocess.Popen([sys.executable, "-m", "referee.cli", *args], stdout=out, stderr=subprocess.STDOUT,
                                env=env)


@pytest.fixture
def hub(tmp_path: Path, broker: Mosquitto) -> Iterator[str]:
    port = free_port()
    process = _referee("hub", "--broker", broker.url, "--port", str(port), "--db", str(tmp_path / "hub.db"),
                       log=tmp_path / "hub.out")
    base = f"http://127.0.0.1:{port}"

    def up() -> bool:
        try:
            return httpx.get(base + "/healthz", timeout=1).json()["connected"] is True
        except httpx.HTTPError:
            return False

    try:
        wait_for(up, timeout=30, what="the hub")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=15)
    assert "hall: http://localhost:" in (tmp_path / "hub.out").read_text()


def _arrived(state_url: str, count: int) -> Callable[[], bool]:
    return lambda: bool(httpx.get(state_url, timeout=5).json()["event_id"] == count)


def _log_from(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The `--log` a table writes, rebuilt from the events the hub has of it."""
    out = io.StringIO()
    writer = LogWriter(out)
    for event in events:
        writer.on_event(cast(Event, event))  # the table's own events, its envelope aside (checked by the caller)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_two_tables_and_a_hub(tmp_path: Path, broker: Mosquitto, hub: str, footage: dict[str, Path]) -> None:
    tables = {}
    for name, video in footage.items():
        tables[name] = _referee(
            "run", "--source", str(video), "--no-serve", "--calibration", str(video.with_suffix(".calibration.json")),
            "--script", str(video.with_suffix(".operator.jsonl")), "--db", str(tmp_path / f"{name}.db"),
            "--log", str(tmp_path / f"{name}.jsonl"), "--publish", broker.url, "--table", name,
            "--frame-every", "0.5", log=tmp_path / f"{name}.out")
    for name, process in tables.items():
        assert process.wait(timeout=180) == 0, (tmp_path / f"{name}.out").read_text()[-2000:]

    hall = httpx.get(hub + "/api/hall", timeout=10).json()
    assert {t["table"] for t in hall["tables"]} == {"A", "B"}
    for name in tables:
        record = Store(tmp_path / f"{name}.db")
        own = record.events_since(0)
        log = [json.loads(line) for line in (tmp_path / f"{name}.jsonl").read_text().splitlines()]
        assert any(line.get("type") == "play" for line in log)  # the footage was judged
        wait_for(_arrived(f"{hub}/t/{name}/api/state", len(own)), timeout=30, what=f"table {name} at the hub")
        events = read_events(f"{hub}/t/{name}/api/events?after=0", len(own))
        # Event for event the table's record (the envelope aside), and so its log, line for line.
        assert [{k: v for k, v in e.items() if k not in ("table", "record", "sent_at")} for e in events] == own
        assert _log_from(events) == log
        record.close()
    wait_for(lambda: all(t["status"] == "offline" for t in httpx.get(hub + "/api/hall", timeout=5).json()["tables"]),
             what="both tables offline after their footage ended")
    # The table's camera view, as the table last published it (not the placeholder of a table without one).
    placeholder = (Path(referee.web.__file__).parent / "static" / "placeholder.jpg").read_bytes()
    deadline = time.monotonic() + 5
    part = b""
    with httpx.stream("GET", hub + "/t/A/stream.mjpg", timeout=10) as response:
        for chunk in response.iter_bytes():
            part += chunk
            if b"\xff\xd9\r\n" in part or time.monotonic() > deadline:
                break
    assert b"Content-Type: image/jpeg" in part and placeholder not in part
