"""The guard in front of the app: token before body, body caps, finite JSON, bounded event ids."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import MutableMapping, Sequence
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.requests import Request

from referee.session import MatchSession
from referee.web.app import MAX_JSON_BYTES, create_app
from referee.web.guard import json_problem
from tests.web.conftest import AUTH, TOKEN, TestClient

CHUNK = 64 * 1024


def asgi_post(app: FastAPI, path: str, headers: dict[str, str],
              chunks: Sequence[bytes]) -> tuple[int, int, dict[str, Any]]:
    """POST ``chunks`` straight into the ASGI app: (status, chunks the app read, JSON answer)."""

    async def run() -> tuple[int, int, dict[str, Any]]:
        reads = 0
        sent: list[MutableMapping[str, Any]] = []

        async def receive() -> dict[str, Any]:
            nonlocal reads
            if reads >= len(chunks):
                return {"type": "http.disconnect"}
            reads += 1
            return {"type": "http.request", "body": chunks[reads - 1],
                    "more_body": reads < len(chunks)}

        async def send(message: MutableMapping[str, Any]) -> None:
            sent.append(message)

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
                 "query_string": b"", "root_path": "", "client": ("127.0.0.1", 5000),
                 "server": ("127.0.0.1", 8000),
                 "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]}
        await app(scope, receive, send)
        body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        return int(sent[0]["status"]), reads, json.loads(body)

    return asyncio.run(run())


@pytest.fixture
def app(session: MatchSession) -> FastAPI:
    return create_app(session, token=TOKEN)


# 2.5 MB of JSON-ish bytes in 64 KB chunks: what FastAPI would read (and parse) whole.
BIG = [b"[" + b"1," * (CHUNK // 2 - 1) + b"1"] + [b",1" * (CHUNK // 2)] * 38 + [b"]"]


@pytest.mark.parametrize("path", ["/api/observations", "/api/setup", "/api/hands/photo"])
@pytest.mark.parametrize("headers", [{}, {"X-Admin-Token": "wrong"},
                                     {"Authorization": "Bearer wrong"}])
def test_a_bad_token_is_refused_before_a_byte_of_the_body_is_read(
    app: FastAPI, session: MatchSession, path: str, headers: dict[str, str]
) -> None:
    before = session.last_event_id
    status, reads, answer = asgi_post(
        app, path, {**headers, "Content-Type": "application/json"}, BIG)
    assert (status, reads) == (401, 0)
    assert "admin token required" in answer["detail"]
    assert session.last_event_id == before


def test_a_declared_oversized_body_is_refused_unread(app: FastAPI) -> None:
    headers = {**AUTH, "Content-Type": "application/json", "Content-Length": str(225 * 2**20)}
    status, reads, answer = asgi_post(app, "/api/observations", headers, BIG)
    assert (status, reads) == (413, 0)
    assert "too large" in answer["detail"]


@pytest.mark.parametrize(("path", "limit"), [("/api/observations", MAX_JSON_BYTES),
                                             ("/api/hands/photo", 8 * 2**20 + CHUNK)])
def test_an_undeclared_body_is_read_only_up_to_its_limit(
    app: FastAPI, path: str, limit: int
) -> None:
    chunks = [bytes(CHUNK)] * (limit // CHUNK + 40)
    headers = {**AUTH, "Content-Type": "image/png" if "photo" in path else "application/json"}
    status, reads, answer = asgi_post(app, path, headers, chunks)
    assert status == 413 and "too large" in answer["detail"]
    assert reads * CHUNK <= limit + CHUNK < len(chunks) * CHUNK


def test_json_bodies_are_capped(client: TestClient, session: MatchSession) -> None:
    before = session.export_log()
    names = {"names": ["x" * 30] * (MAX_JSON_BYTES // 30)}
    response = client.post("/api/names", json=names, headers=AUTH)
    assert response.status_code == 413
    assert "at most 256 KB" in response.json()["detail"]
    assert session.export_log() == before
    small = client.post("/api/names", json={"names": ["A", "B", "C"]}, headers=AUTH)
    assert small.status_code == 200


@pytest.mark.parametrize(("path", "raw"), [
    ("/api/observations", '{"type": "draw", "seat": 2, "count": 1, "t": NaN}'),
    ("/api/observations", '{"type": "play", "card": "red_7", "seat": NaN}'),
    ("/api/observations", '{"type": "draw", "seat": 2, "count": Infinity}'),
    ("/api/observations", '{"type": "play", "card": "red_7", "seat": 1, "t": 1e400}'),
    ("/api/observations", '{"type": "reveal", "seat": 0, "cards": [-Infinity]}'),
    ("/api/setup", '{"mode": "round", "players": 3, "options": {"x": NaN}}'),
    ("/api/setup", '{"mode": "round", "players": 3, "target": 1e400}'),
    ("/api/correct", '{"card": "red_7", "color": NaN}'),
    ("/api/names", '{"names": [NaN]}'),
])
def test_non_finite_numbers_are_a_plain_422(
    client: TestClient, session: MatchSession, path: str, raw: str
) -> None:
    before = session.export_log()
    response = client.post(path, content=raw,
                           headers={**AUTH, "Content-Type": "application/json"})
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert isinstance(detail, str) and "finite" in detail
    assert session.export_log() == before


def test_json_nested_too_deep_is_a_422(client: TestClient) -> None:
    response = client.post("/api/observations", content="[" * 100_000 + "]" * 100_000,
                           headers={**AUTH, "Content-Type": "application/json"})
    assert response.status_code == 422 and "nested too deeply" in response.json()["detail"]


@pytest.mark.parametrize(("body", "problem"), [
    (b'{"t": 1.5, "n": [1, 2e3]}', None), (b'{"t": NaN}', "NaN"), (b"[1e999]", "1e999"),
    (b"not json", None), (b"", None),
])
def test_json_problem(body: bytes, problem: str | None) -> None:
    found = json_problem(body)
    assert found == problem if problem is None else problem in (found or "")


def test_the_validation_handler_never_echoes_a_non_finite_number(app: FastAPI) -> None:
    handler = app.exception_handlers[RequestValidationError]
    error = RequestValidationError([
        {"type": "finite_number", "loc": ("body", "t"), "msg": "Input should be a finite number",
         "input": float("nan")},
        {"type": "x", "loc": ("body", "cards"), "msg": "m", "input": [float("inf"), b"\xff\x00"]},
    ])
    scope = {"type": "http", "method": "POST", "path": "/", "headers": [], "query_string": b""}
    response: Any = asyncio.run(handler(Request(scope), error))  # type: ignore[arg-type]
    assert response.status_code == 422
    detail = json.loads(response.body)["detail"]  # plain JSON: json.loads refuses no NaN, so check
    assert detail[0]["input"] == "nan" and detail[1]["input"][0] == "inf"
    assert "NaN" not in response.body.decode() and "Infinity" not in response.body.decode()


@pytest.mark.parametrize(("query", "headers"), [
    ("?after=9223372036854775808", {}),
    ("?after=-1", {}),
    ("?after=99999999999999999999999999", {}),
    ("", {"Last-Event-ID": "9223372036854775808"}),
])
def test_event_ids_past_sqlite_integers_are_a_422_without_a_traceback(
    client: TestClient, caplog: pytest.LogCaptureFixture, query: str, headers: dict[str, str]
) -> None:
    with caplog.at_level(logging.DEBUG):
        response = client.get("/api/events" + query, headers=headers)
    assert response.status_code == 422
    assert "less than 9223372036854775808" in json.dumps(response.json()) or "-1" in query
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
