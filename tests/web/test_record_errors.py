"""A record that cannot be written (here: locked elsewhere) is a 503; /healthz answers meanwhile."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from referee.session import MatchSession
from referee.store import Store
from referee.web.app import create_app
from tests.web.conftest import AUTH, TOKEN, TestClient, live_server, read_events


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Another connection holds the record's write lock for the block's length."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def table(path: Path, busy_timeout_s: float | None = None) -> MatchSession:
    store = Store(path) if busy_timeout_s is None else Store(path, busy_timeout_s=busy_timeout_s)
    match = MatchSession(store, players=3)
    match.submit({"type": "start", "card": "red_5"})
    return match


def test_a_locked_record_is_a_503_and_nothing_changes(tmp_path: Path) -> None:
    match = table(tmp_path / "match.db", busy_timeout_s=0.2)
    before = match.export_log()
    with TestClient(create_app(match, token=TOKEN)) as client, locked(tmp_path / "match.db"):
        for path, body in [("/api/observations", {"type": "play", "card": "red_7", "seat": 1}),
                           ("/api/names", {"names": ["A", "B", "C"]}),
                           ("/api/undo", None), ("/api/setup", {"players": 3})]:
            response = client.post(path, json=body, headers=AUTH)
            assert response.status_code == 503, path
            assert "record unavailable" in response.json()["detail"]
            assert "database is locked" in response.json()["detail"]
            assert response.headers["retry-after"] == "5"
        assert client.get("/api/state").json()["top_card"] == "red_5"  # reads go on
    assert match.export_log() == before
    with TestClient(create_app(match, token=TOKEN)) as client:  # the lock is gone: all is well
        response = client.post("/api/observations", json={"type": "play", "card": "red_7",
                                                          "seat": 1}, headers=AUTH)
        assert response.status_code == 200 and match.export_log()[-1]["card"] == "red_7"


def test_healthz_answers_at_once_while_a_write_waits_on_a_lock(tmp_path: Path) -> None:
    match = table(tmp_path / "match.db", busy_timeout_s=3.0)
    answers: list[int] = []
    with live_server(match) as live, locked(tmp_path / "match.db"):
        writer = threading.Thread(target=lambda: answers.append(live.post(
            "/api/observations", {"type": "play", "card": "red_7", "seat": 1}).status_code))
        writer.start()
        time.sleep(0.3)  # the play now waits for the lock, holding the session's
        started = time.monotonic()
        health = httpx.get(live.url + "/healthz", timeout=10)
        elapsed = time.monotonic() - started
        assert health.status_code == 200 and health.json()["event_id"] == 2
        assert elapsed < 1.0, f"/healthz took {elapsed:.1f} s"
        writer.join(10)
    assert answers == [503]


def test_a_write_gives_up_on_a_held_lock_within_a_second(tmp_path: Path) -> None:
    match = table(tmp_path / "match.db")  # the record as every command opens it
    with TestClient(create_app(match, token=TOKEN)) as client, locked(tmp_path / "match.db"):
        for path, body in [("/api/observations", {"type": "play", "card": "red_7", "seat": 1}),
                           ("/api/names", {"names": ["A", "B", "C"]})]:
            started = time.monotonic()
            response = client.post(path, json=body, headers=AUTH)
            elapsed = time.monotonic() - started
            assert response.status_code == 503, path
            assert elapsed < 1.0, f"{path} gave up after {elapsed:.1f} s"


def test_reads_answer_at_once_while_a_write_waits_on_a_lock(tmp_path: Path) -> None:
    match = table(tmp_path / "match.db", busy_timeout_s=3.0)
    answers: list[int] = []
    with live_server(match) as live, locked(tmp_path / "match.db"):
        writer = threading.Thread(target=lambda: answers.append(live.post(
            "/api/observations", {"type": "play", "card": "red_7", "seat": 1}).status_code))
        writer.start()
        time.sleep(0.3)  # the play now waits for the lock, holding the session's
        for path in ("/api/state", "/api/log", "/api/words", "/api/clips", "/api/meta"):
            started = time.monotonic()
            response = httpx.get(live.url + path, headers=AUTH, timeout=10)
            elapsed = time.monotonic() - started
            assert response.status_code == 200, path
            assert elapsed < 1.0, f"{path} took {elapsed:.1f} s"
        assert httpx.get(live.url + "/api/state", timeout=10).json()["top_card"] == "red_5"
        started = time.monotonic()
        events = read_events(live.url + "/api/events?after=0", 2, timeout=5)
        assert [e["id"] for e in events] == [1, 2] and time.monotonic() - started < 1.0
        writer.join(10)
    assert answers == [503]
