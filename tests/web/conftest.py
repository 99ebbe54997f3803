"""Fixtures for the web tests: an app on an in-memory record, and a real server on loopback."""

from __future__ import annotations

import json
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from referee.session import MatchSession
from referee.store import Store
from referee.web.app import create_app, make_server

with warnings.catch_warnings():
    # Starlette asks for the httpx2 package in its test client; httpx still works the same.
    warnings.filterwarnings("ignore", message=".*install `httpx2` instead")
    from fastapi.testclient import TestClient as TestClient

TOKEN = "test-token-123"
AUTH = {"X-Admin-Token": TOKEN}


@pytest.fixture
def session() -> MatchSession:
    """A 3-seat match on an in-memory record with red_5 turned up (seat 1 to play)."""
    match = MatchSession(Store(":memory:"), players=3, names=["Ann", "Bob", "Cy"])
    match.submit({"type": "start", "card": "red_5"})
    return match


@pytest.fixture
def client(session: MatchSession) -> Iterator[TestClient]:
    with TestClient(create_app(session, token=TOKEN)) as test_client:
        yield test_client


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LiveServer:
    url: str
    session: MatchSession

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return httpx.post(self.url + path, json=body, headers=AUTH, timeout=10)


@contextmanager
def live_server(session: MatchSession, **app_options: Any) -> Iterator[LiveServer]:
    """uvicorn serving ``session`` on a free loopback port, in a thread, for the block's length."""
    app = create_app(session, token=TOKEN, **app_options)
    port = free_port()
    server = make_server(app, "127.0.0.1", port)
    thread = threading.Thread(target=server.run, name="uvicorn-test", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("test server did not start")
        time.sleep(0.02)
    try:
        yield LiveServer(f"http://127.0.0.1:{port}", session)
    finally:
        server.should_exit = True
        thread.join(15)


@pytest.fixture
def live(session: MatchSession) -> Iterator[LiveServer]:
    with live_server(session) as server:
        yield server


def read_events(url: str, count: int, headers: dict[str, str] | None = None,
                timeout: float = 10.0) -> list[dict[str, Any]]:
    """The first ``count`` server-sent events from ``url`` (their ``id:`` must match the data's)."""
    events: list[dict[str, Any]] = []
    with httpx.stream("GET", url, headers=headers, timeout=timeout) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        current: dict[str, Any] = {}
        for line in response.iter_lines():
            if line.startswith("id: "):
                current["id"] = int(line[4:])
            elif line.startswith("data: "):
                current["data"] = json.loads(line[6:])
            elif line == "" and "data" in current:
                assert current["data"]["id"] == current["id"]
                events.append(current["data"])
                current = {}
                if len(events) >= count:
                    break
    return events
