"""The hub's pages and API over a real broker: the hall, and each table's read-only pages under /t/NAME/."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from referee.hall.broker_url import BrokerUrl
from referee.hall.hub_store import HubStore
from referee.hall.receiver import HubReceiver
from referee.hall.web import READ_ONLY, create_hub_app
from referee.session import MatchSession
from referee.web.app import make_server
from tests.hall.conftest import play_some, publisher, same_events, table, wait_for
from tests.web.conftest import free_port, read_events

JPEG = b"\xff\xd8\xff\xe0 a frame \xff\xd9"


@contextmanager
def live_hub(path: Path, url: BrokerUrl) -> Iterator[tuple[str, HubReceiver]]:
    """``referee hub``'s app on a free loopback port, in a thread."""
    receiver = HubReceiver(HubStore(path), url)
    server = make_server(create_hub_app(receiver), "127.0.0.1", port := free_port())
    thread = threading.Thread(target=server.run, name="hub-test", daemon=True)
    thread.start()
    wait_for(lambda: server.started, what="the hub's server")
    try:
        yield f"http://127.0.0.1:{port}", receiver
    finally:
        server.should_exit = True
        thread.join(15)


@pytest.fixture
def hall(tmp_path: Path, url: BrokerUrl) -> Iterator[tuple[str, HubReceiver, MatchSession, MatchSession]]:
    a, b = table(), table(players=2)
    pubs = [publisher(a, url, "A"), publisher(b, url, "B")]
    with live_hub(tmp_path / "hub.db", url) as (base, receiver):
        play_some(a, 2)
        a.submit({"type": "play", "card": "blue_9", "seat": a.expected_seat()})  # an illegal card
        a.set_frame(JPEG)
        play_some(b, 1)
        wait_for(lambda: same_events(receiver.store, "A", a) and same_events(receiver.store, "B", b),
                 what="both tables at the hub")
        yield base, receiver, a, b
        for pub in pubs:
            pub.stop()


def _get(url: str) -> Any:
    response = httpx.get(url, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def test_the_hall_shows_every_table_alerts_and_standings(hall: tuple[str, HubReceiver, MatchSession,
                                                                        MatchSession]) -> None:
    base, _, _, b = hall
    page = httpx.get(base + "/", timeout=10)
    assert page.status_code == 200 and "UNO hall" in page.text
    assert 'src="static/i18n.js"' in page.text  # the hall speaks the players' language: its words are here
    from referee.words import catalog

    assert _get(base + "/api/words?lang=de") == {**catalog("de"), "match_lang": None}
    assert _get(base + "/api/words")["lang"] == "en" and _get(base + "/api/words?lang=xx")["lang"] == "en"
    wait_for(lambda: all(t["live"] for t in _get(base + "/api/hall")["tables"]), what="both tiles live")
    state = _get(base + "/api/hall")
    tiles = {t["table"]: t for t in state["tables"]}
    assert set(tiles) == {"A", "B"}
    assert tiles["A"]["top_card"] == "blue_9" and tiles["A"]["names"] == ["Ann", "Bob", "Cy"]
    assert tiles["A"]["last_alert"]["code"] == "illegal_card"
    assert tiles["B"]["event_id"] == b.last_event_id
    assert [(x["table"], x["code"]) for x in state["alerts"]] == [("A", "illegal_card")]
    assert len(state["standings"]) == 5 and state["standings"][0]["rank"] == 1
    # The hall's stream resumes from an id, and goes on live.
    lines = read_events(base + "/api/hall/events?after=0", 3)
    assert [line["id"] for line in lines] == [1, 2, 3]
    after = state["event_id"]
    play_some(b, 1)
    live = read_events(base + f"/api/hall/events?after={after}", 2)
    assert all(line["table"] == "B" for line in live) and live[-1]["tile"]["event_id"] == b.last_event_id


def test_a_table_has_its_own_pages_at_the_hub_read_only(hall: tuple[str, HubReceiver, MatchSession,
                                                                       MatchSession]) -> None:
    base, _, a, _ = hall
    moved = httpx.get(base + "/t/A", timeout=10)
    assert moved.status_code == 307 and moved.headers["location"] == "/t/A/"
    dashboard = httpx.get(base + "/t/A/", timeout=10)
    assert dashboard.status_code == 200 and 'src="static/dashboard.js"' in dashboard.text
    assert httpx.get(base + "/t/A/overlay", timeout=10).status_code == 200
    assert httpx.get(base + "/t/A/static/common.js", timeout=10).status_code == 200
    assert "presets" in _get(base + "/t/A/api/meta")
    from referee.words import catalog  # the pages speak the table's language at the hub too

    assert _get(base + "/t/A/api/words?lang=nl") == {**catalog("nl"), "match_lang": None}

    state = _get(base + "/t/A/api/state")
    own = a.snapshot()
    assert state["event_id"] == own["event_id"]
    for key in ("top_card", "colour", "turn", "names", "hand_counts", "scores", "rounds"):
        assert state[key] == own[key], key
    assert [(x["code"], x["seq"]) for x in state["alerts"]] == [(x["code"], x["seq"]) for x in own["alerts"]]

    events = read_events(base + "/t/A/api/events?after=0", a.last_event_id)
    assert [e["id"] for e in events] == [e["id"] for e in a.events_since(0)]
    assert events[-1]["outputs"][0]["code"] == "illegal_card"

    with httpx.stream("GET", base + "/t/A/stream.mjpg", timeout=10) as response:
        assert response.headers["content-type"].startswith("multipart/x-mixed-replace")
        data = b""
        for chunk in response.iter_bytes():
            data += chunk
            if JPEG in data or len(data) > 100_000:
                break
    assert JPEG in data

    for method, path in (("POST", "/t/A/api/observations"), ("POST", "/t/A/api/undo"), ("GET", "/t/A/api/log")):
        refused = httpx.request(method, base + path, json={"type": "pass", "seat": 0}, timeout=10,
                                headers={"X-Admin-Token": "anything"})
        assert refused.status_code == 403 and refused.json()["detail"] == READ_ONLY
    assert httpx.get(base + "/t/Z/", timeout=10).status_code == 404
    assert httpx.get(base + "/t/Z/api/state", timeout=10).status_code == 404


def test_the_hub_serves_its_record_after_a_restart(tmp_path: Path, url: BrokerUrl) -> None:
    a = table()
    pub = publisher(a, url, "A")
    with live_hub(tmp_path / "hub.db", url) as (base, receiver):
        play_some(a, 2)
        wait_for(lambda: same_events(receiver.store, "A", a), what="A at the hub")
        before = _get(base + "/t/A/api/state")
    pub.stop()
    time.sleep(0.2)
    with live_hub(tmp_path / "hub.db", url) as (base, _):
        after = _get(base + "/t/A/api/state")
        assert after["event_id"] == before["event_id"] and after["top_card"] == before["top_card"]
        wait_for(lambda: _get(base + "/api/hall")["tables"][0]["status"] == "offline", what="A offline")
