"""A retried control POST with the same Idempotency-Key gets the first answer and records nothing."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import httpx
import pytest

from referee.session import MatchSession
from referee.store import Store, StoreUnavailable
from referee.web.app import create_app
from referee.web.idempotency import IdempotentReplies
from tests.web.conftest import AUTH, TOKEN, TestClient, free_port

PLAY = {"type": "play", "card": "blue_7", "seat": 1}
Answer = list[MutableMapping[str, Any]]  # the ASGI messages sent back


def keyed(key: str) -> dict[str, str]:
    return {**AUTH, "Idempotency-Key": key}


@pytest.mark.parametrize(("path", "body"), [
    ("/api/observations", PLAY),
    ("/api/undo", None),
    ("/api/correct", {"card": "red_6"}),
    ("/api/setup", {"mode": "round", "players": 3}),
    ("/api/names", {"names": ["A", "B", "C"]}),
])
def test_a_retry_gets_the_first_answer_and_records_nothing(
    client: TestClient, session: MatchSession, path: str, body: Any
) -> None:
    if path == "/api/undo":
        client.post("/api/observations", json=PLAY, headers=AUTH)
    first = client.post(path, json=body, headers=keyed("retry-1"))
    assert first.status_code == 200, first.text
    events = session.last_event_id
    recorded = session.store.observations(session.match_id, include_undone=True)
    again = client.post(path, json=body, headers=keyed("retry-1"))
    assert (again.status_code, again.json()) == (200, first.json())
    assert again.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in first.headers
    assert session.last_event_id == events
    assert session.store.observations(session.match_id, include_undone=True) == recorded


def test_each_key_counts_once_and_no_key_every_time(client: TestClient,
                                                    session: MatchSession) -> None:
    for key in ("a", "b", "a", "b"):
        assert client.post("/api/observations", json={"type": "uno", "seat": 1},
                           headers=keyed(key)).status_code == 200
    assert len(session.export_log()) == 4
    for _ in range(2):
        client.post("/api/observations", json={"type": "uno", "seat": 1}, headers=AUTH)
    assert len(session.export_log()) == 6


def test_a_refusal_is_replayed_too(client: TestClient, session: MatchSession) -> None:
    bad = {"type": "play", "card": "purple_7", "seat": 1}
    first = client.post("/api/observations", json=bad, headers=keyed("k"))
    again = client.post("/api/observations", json=bad, headers=keyed("k"))
    assert first.status_code == again.status_code == 400 and first.json() == again.json()


@pytest.mark.parametrize(("path", "body"), [
    ("/api/observations", {"type": "play", "card": "blue_8", "seat": 1}),
    ("/api/names", {"names": ["A", "B", "C"]}),
])
def test_a_key_reused_for_another_request_is_refused(
    client: TestClient, session: MatchSession, path: str, body: Any
) -> None:
    assert client.post("/api/observations", json=PLAY, headers=keyed("k")).status_code == 200
    before = session.last_event_id
    response = client.post(path, json=body, headers=keyed("k"))
    assert response.status_code == 422 and "different request" in response.json()["detail"]
    assert session.last_event_id == before


@pytest.mark.parametrize("key", ["", "has space", "x" * 201, "caf\u00e9".encode()])
def test_a_malformed_key_is_refused(client: TestClient, session: MatchSession,
                                    key: str | bytes) -> None:
    before = session.last_event_id
    headers: dict[str, str | bytes] = {**AUTH, "Idempotency-Key": key}
    response = client.post("/api/observations", json=PLAY, headers=headers)
    assert response.status_code == 422 and "Idempotency-Key" in response.json()["detail"]
    assert session.last_event_id == before


def test_the_token_comes_before_the_key(client: TestClient, session: MatchSession) -> None:
    assert client.post("/api/observations", json=PLAY, headers=keyed("k")).status_code == 200
    stranger = client.post("/api/observations", json=PLAY,
                           headers={"Idempotency-Key": "k"})
    assert stranger.status_code == 401


def test_keys_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "match.db"
    match = MatchSession(Store(db), players=3)
    match.submit({"type": "start", "card": "red_5"})
    with TestClient(create_app(match, token=TOKEN)) as client:
        first = client.post("/api/observations", json=PLAY, headers=keyed("before-restart"))
    match.store.close()
    resumed = MatchSession(Store(db))
    with TestClient(create_app(resumed, token=TOKEN)) as client:
        again = client.post("/api/observations", json=PLAY, headers=keyed("before-restart"))
    assert again.status_code == 200 and again.json() == first.json()
    assert [o["type"] for o in resumed.export_log()] == ["setup", "start", "play"]
    resumed.store.close()


def test_a_retry_while_the_first_runs_is_a_409() -> None:
    """The two copies of one request never both run."""
    replies = IdempotentReplies(Store(":memory:"))
    release = asyncio.Event()
    runs: list[str] = []

    async def slow_app(scope: Any, receive: Any, send: Any) -> None:
        runs.append(scope["path"])
        await release.wait()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": b'{"id":7}'})

    async def post(answers: Answer) -> None:
        async def receive() -> dict[str, Any]:
            return {"type": "http.disconnect"}

        async def send(message: MutableMapping[str, Any]) -> None:
            answers.append(message)

        scope = {"type": "http", "method": "POST", "path": "/api/observations",
                 "query_string": b"", "headers": []}
        await replies.handle(slow_app, scope, receive, send, "same", b"{}")

    async def main() -> tuple[Answer, Answer, Answer]:
        first: Answer = []
        second: Answer = []
        third: Answer = []
        running = asyncio.create_task(post(first))
        while not runs:
            await asyncio.sleep(0.01)
        await post(second)
        release.set()
        await running
        await post(third)
        return first, second, third

    first, second, third = asyncio.run(main())
    assert runs == ["/api/observations"]
    assert first[0]["status"] == 200 and third[0]["status"] == 200
    assert second[0]["status"] == 409
    assert b"still running" in second[1]["body"]
    assert json.loads(third[1]["body"]) == {"id": 7}


class _UnreadableStore:
    def reply(self, key: str) -> None:
        raise StoreUnavailable("the match record cannot be read now (disk I/O error)")


def test_a_record_that_cannot_be_read_is_a_503_and_the_request_does_not_run() -> None:
    replies = IdempotentReplies(_UnreadableStore())  # type: ignore[arg-type]
    runs: list[str] = []
    answer: Answer = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        runs.append(scope["path"])

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        answer.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/observations", "query_string": b"",
             "headers": []}
    asyncio.run(replies.handle(app, scope, receive, send, "k", b"{}"))
    assert runs == [] and answer[0]["status"] == 503
    assert b"disk I/O error" in answer[1]["body"]


# A server whose process is killed (SIGKILL) the moment anything saves an answer in a transaction of
# its own, after the request: the worst instant for a crash when answers were saved after the fact.
_KILLED_AFTER_ANSWERING = """
import os, signal, sys
from referee.store import Store
Store.save_reply = lambda *args, **kwargs: os.kill(os.getpid(), signal.SIGKILL)
from referee.web.standalone import main
sys.exit(main(sys.argv[1:]))
"""


def _serve(db: Path, port: int, *, killed_after_answering: bool) -> subprocess.Popen[bytes]:
    args = ["--db", str(db), "--port", str(port), "--token", TOKEN, "--players", "3"]
    command = ([sys.executable, "-c", _KILLED_AFTER_ANSWERING, *args] if killed_after_answering
               else [sys.executable, "-m", "referee.web", *args])
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, "server exited"
        assert time.monotonic() < deadline, "server did not start"
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.1)


@pytest.mark.parametrize(("path", "body"), [
    ("/api/observations", {"type": "start", "card": "red_5"}),
    ("/api/names", {"names": ["A", "B", "C"]}),
    ("/api/setup", {"mode": "round", "players": 3}),
    ("/api/setup", {"mode": "match", "players": 3, "names": ["A", "B", "C"]}),
])
def test_a_request_recorded_before_a_kill_is_recorded_once_when_retried(
    tmp_path: Path, path: str, body: Any
) -> None:
    """The answer is in the record exactly when the request's change is: a process killed right after
    answering (before any later save) still answers the retry from the record."""
    db = tmp_path / "match.db"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = _serve(db, port, killed_after_answering=True)
    try:
        try:
            first: httpx.Response | None = httpx.post(url + path, json=body, headers=keyed("k-1"),
                                                      timeout=10)
        except httpx.TransportError:
            first = None  # killed before the answer left: the retry must still count once
        time.sleep(0.3)  # (a save outside the request's transaction kills it in this time)
    finally:
        proc.kill()  # kill -9 just after the answer
        proc.wait(10)
    recorded = Store(db)
    events = recorded.last_event_id()
    recorded.close()
    assert events == 2  # the match's setup, then what the request did

    proc = _serve(db, port, killed_after_answering=False)
    try:
        again = httpx.post(url + path, json=body, headers=keyed("k-1"), timeout=10)
        assert again.status_code == 200, again.text
        assert again.headers["idempotent-replayed"] == "true"
        if first is not None:
            assert again.json() == first.json()
        assert httpx.get(url + "/api/state", timeout=10).json()["event_id"] == 2
    finally:
        proc.terminate()
        proc.wait(10)
