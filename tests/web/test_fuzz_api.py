"""Every operation of the web API, fuzzed from its own OpenAPI schema: no answer is ever a 5xx.

schemathesis generates valid and invalid requests (path, query, headers, JSON bodies) for each
operation FastAPI describes, and sends them in-process to one app over a real SQLite record, once with
the admin token and once without it. Runs are bounded (a few dozen examples per operation) and
derandomized, so CI sees the same requests every time. The app serves no ``/openapi.json``
(``openapi_url=None``); the schema comes from ``app.openapi()``, which describes the same routes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.python import asgi
from starlette.routing import WebSocketRoute

from referee.session import MatchSession
from referee.store import Store
from referee.web.app import create_app
from tests.web.conftest import TOKEN

#: Examples per operation and auth variant: enough to reach every handler with odd input, few enough
#: for the whole file to run in seconds on two cores.
MAX_EXAMPLES = 30
#: ``/api/events`` never ends (server-sent events): a request that gets past validation is read for
#: this long, then cut, which is when its status (200) is known. Each such request costs that long, so
#: the stream gets fewer examples, once (it is open: the token changes nothing there).
SSE_READ_S = 0.2
SSE_EXAMPLES = 12
#: Generous for everything else, so a loaded CI machine does not time a request out.
READ_S = 30.0
AUTH_HEADERS = ("authorization", "x-admin-token")
UPLOADS = ("/api/hands/photo", "/api/deck/photos")

FUZZ_SETTINGS = settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,  # the same examples on every run
    database=None,
    suppress_health_check=list(HealthCheck),
)
SSE_SETTINGS = settings(FUZZ_SETTINGS, max_examples=SSE_EXAMPLES)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    """One app over a record on disk, shared by every operation: state the fuzzer builds up (new
    rounds, names, undone plays) is what later requests meet."""
    folder = tmp_path_factory.mktemp("fuzz")
    match = MatchSession(Store(folder / "match.db"), players=3, names=["Ann", "Bob", "Cy"])
    match.submit({"type": "start", "card": "red_5"})
    application = create_app(match, token=TOKEN, deck_dir=folder / "deck")
    yield application
    # schemathesis runs the app's lifespan (the event hub) for the rest of the process; end it here,
    # while the record is still open, so it checkpoints and lets the file go.
    asgi.shutdown_lifespans()
    match.store.close()


def fuzzable(described: dict[str, Any]) -> dict[str, Any]:
    """The app's schema, plus what FastAPI cannot see: the photo uploads read their body by hand
    (raw image bytes or a multipart field), so describe it, and give card labels an example so that
    some requests get past the label check."""
    upload = {"required": True, "content": {
        "image/png": {"schema": {"type": "string", "format": "binary"}},
        "image/jpeg": {"schema": {"type": "string", "format": "binary"}},
        "multipart/form-data": {"schema": {
            "type": "object", "required": ["image"],
            "properties": {"image": {"type": "string", "format": "binary"}}}},
    }}
    for path in UPLOADS:
        described["paths"][path]["post"]["requestBody"] = upload
    for operations in described["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"] == "label":
                    parameter["examples"] = {"card": {"value": "red_7"}, "fraction": {"value": "Red_1of2"}}
    return described


@pytest.fixture(scope="module")
def api_schema(app: FastAPI) -> Any:
    loaded = schemathesis.openapi.from_dict(fuzzable(app.openapi()))
    loaded.app = app  # requests go to the app in-process (schemathesis' ASGI transport)
    return loaded


# /stream.mjpg is an endless MJPEG stream with no parameters: nothing to fuzz, and a request to it
# only ends by timing out. /api/events is fuzzed on its own (below), its requests cut after SSE_READ_S.
schema = schemathesis.pytest.from_fixture("api_schema").exclude(path=["/stream.mjpg", "/api/events"])
events = schemathesis.pytest.from_fixture("api_schema").include(path="/api/events")


def send(case: Any, headers: dict[str, str] | None = None) -> None:
    timeout = SSE_READ_S if case.operation.path == "/api/events" else READ_S
    response = case.call(headers=headers, timeout=timeout)
    case.validate_response(response, checks=[not_a_server_error])
    assert response.status_code < 500, f"{case.operation.label}: {response.status_code} {response.text[:500]}"


@schema.parametrize()
@FUZZ_SETTINGS
def test_no_request_with_the_admin_token_gets_a_5xx(case: Any) -> None:
    # The token in the header the dashboard sends; the generated token headers are dropped, or a
    # random X-Admin-Token (which wins over Authorization) would keep every control at 401.
    if case.headers:
        case.headers = {k: v for k, v in case.headers.items() if k.lower() not in AUTH_HEADERS}
    send(case, {"Authorization": f"Bearer {TOKEN}"})


@schema.parametrize()
@FUZZ_SETTINGS
def test_no_request_without_the_token_gets_a_5xx(case: Any) -> None:
    # Whatever token headers the fuzzer makes up (none, empty, odd schemes, wrong tokens).
    send(case)


@events.parametrize()
@SSE_SETTINGS
def test_no_request_for_the_event_stream_gets_a_5xx(case: Any) -> None:
    send(case)


def test_every_route_is_in_the_schema(app: FastAPI) -> None:
    """The fuzzing above covers each operation: a new route is in the schema, hence fuzzed."""
    paths = set(app.openapi()["paths"])
    assert {"/api/observations", "/api/setup", "/api/hands/photo", "/api/events", "/api/deck/photos",
            "/api/log", "/stream.mjpg"} <= paths
    # A WebSocket has no OpenAPI operation to fuzz: the phone's (/camera) has its bad input tested in
    # tests/web/test_camera.py.
    sockets = {route.path for route in app.routes if isinstance(route, WebSocketRoute)}
    assert sockets == {"/api/camera/stream"}
    routes = {getattr(route, "path", None) for route in app.routes} - {None} - sockets
    assert paths == routes
