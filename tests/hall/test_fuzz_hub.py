"""Every operation of the hub's web API, fuzzed from its own OpenAPI schema: no answer is ever a 5xx.

As ``tests/web/test_fuzz_api.py`` does for a table's dashboard: schemathesis sends valid and invalid
requests (odd table names, event ids, headers) in-process to one hub app over a real record and a private
Mosquitto, with one table playing. Streams (server-sent events) are cut after a short read.
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

from referee.hall.broker_url import parse_broker_url
from referee.hall.hub_store import HubStore
from referee.hall.mosquitto import Mosquitto, find_mosquitto
from referee.hall.receiver import HubReceiver
from referee.hall.web import create_hub_app
from tests.hall.conftest import play_some, publisher, table

FUZZ_SETTINGS = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                         suppress_health_check=list(HealthCheck))
STREAM_READ_S = 0.2
READ_S = 30.0


@pytest.fixture(scope="module")
def hub_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    if find_mosquitto() is None:
        pytest.skip("needs the mosquitto broker (apt-get install mosquitto; .ci/run does)")
    folder = tmp_path_factory.mktemp("fuzz_hub")
    with Mosquitto(folder / "broker") as broker:
        url = parse_broker_url(broker.url)
        receiver = HubReceiver(HubStore(folder / "hub.db"), url)
        app = create_hub_app(receiver)
        session = table(folder / "a.db")
        sender = publisher(session, url, "A")
        play_some(session, 3)
        try:
            yield app
        finally:
            asgi.shutdown_lifespans()  # stops the receiver and closes the hub's record
            sender.stop()
            session.store.close()


@pytest.fixture(scope="module")
def hub_schema(hub_app: FastAPI) -> Any:
    loaded = schemathesis.openapi.from_dict(hub_app.openapi())
    loaded.app = hub_app
    return loaded


schema = schemathesis.pytest.from_fixture("hub_schema")


def _is_stream(path: str) -> bool:
    return path.endswith("/events") or path.endswith(".mjpg")


@schema.parametrize()
@FUZZ_SETTINGS
def test_no_request_to_the_hub_gets_a_5xx(case: Any) -> None:
    response = case.call(timeout=STREAM_READ_S if _is_stream(case.operation.path) else READ_S)
    case.validate_response(response, checks=[not_a_server_error])
    assert response.status_code < 500, f"{case.operation.label}: {response.status_code} {response.text[:500]}"


def test_the_hubs_routes_are_in_its_schema(hub_app: FastAPI) -> None:
    """The fuzzing above covers each operation: the hall, its stream, a table's pages and state."""
    paths = set(hub_app.openapi()["paths"])
    assert {"/api/hall", "/api/hall/events", "/t/{name}/"} <= paths
