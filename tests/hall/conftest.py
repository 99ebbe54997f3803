"""Fixtures for the hall tests: a private Mosquitto on a loopback port, tables and a hub in process.

The hall tests need Debian's ``mosquitto`` (``.ci/run`` installs it); without it they are skipped,
saying so.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from paho.mqtt.client import Client, MQTTMessage

from referee.hall.broker_url import BrokerUrl, parse_broker_url
from referee.hall.client import make_client
from referee.hall.hub_store import HubStore
from referee.hall.mosquitto import Mosquitto, find_mosquitto
from referee.hall.publisher import TablePublisher
from referee.hall.receiver import HubReceiver
from referee.session import MatchSession
from referee.store import Store

needs_broker = pytest.mark.skipif(find_mosquitto() is None,
                                  reason="needs the mosquitto broker (apt-get install mosquitto; .ci/run does)")


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    if find_mosquitto() is None:
        pytest.skip("needs the mosquitto broker (apt-get install mosquitto; .ci/run does)")
    with Mosquitto(tmp_path / "broker") as running:
        yield running


@pytest.fixture
def url(broker: Mosquitto) -> BrokerUrl:
    return parse_broker_url(broker.url)


def wait_for(check: Callable[[], object], timeout: float = 15.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def table(path: Path | str = ":memory:", players: int = 3) -> MatchSession:
    """A match on a record at ``path`` with red_5 turned up."""
    session = MatchSession(Store(path, synchronous="NORMAL"), players=players, names=["Ann", "Bob", "Cy"][:players])
    if session.last_event_id == 1:
        session.submit({"type": "start", "card": "red_5"})
    return session


def play_some(session: MatchSession, turns: int) -> None:
    """``turns`` legal turns: each seat draws one card and passes, in turn."""
    for _ in range(turns):
        seat = session.expected_seat()
        assert seat is not None
        session.submit({"type": "draw", "seat": seat, "count": 1})
        session.submit({"type": "pass", "seat": seat})


def publisher(session: MatchSession, url: BrokerUrl, name: str, **options: Any) -> TablePublisher:
    return TablePublisher(session, url, name, **{"frame_every_s": 0.2, "state_every_s": 0.2, **options}).start()


class Recorder:
    """A plain MQTT subscriber that keeps every message it gets, by topic."""

    def __init__(self, url: BrokerUrl, topic: str) -> None:
        self.messages: list[tuple[str, bytes, bool]] = []
        self._lock = threading.Lock()
        self.client = make_client(url, f"recorder-{id(self)}")
        self.client.on_connect = lambda c, *_: c.subscribe(topic, qos=1)
        self.client.on_message = self._on_message
        self.client.connect(url.host, url.port)
        self.client.loop_start()

    def _on_message(self, client: Client, _: object, message: MQTTMessage) -> None:
        with self._lock:
            self.messages.append((message.topic, bytes(message.payload), bool(message.retain)))

    def events(self) -> list[dict[str, Any]]:
        with self._lock:
            return [json.loads(p) for t, p, _ in self.messages if t.endswith("/events")]

    def payloads(self, suffix: str) -> list[bytes]:
        with self._lock:
            return [p for t, p, _ in self.messages if t.endswith(suffix)]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def hub_factory(tmp_path: Path, url: BrokerUrl) -> Iterator[Callable[..., HubReceiver]]:
    """Makes hub receivers on ``tmp_path/hub.db`` (started); stops them all at the end."""
    made: list[HubReceiver] = []

    def make(path: Path | None = None, **options: Any) -> HubReceiver:
        receiver = HubReceiver(HubStore(path or tmp_path / "hub.db"), url, **options).start()
        made.append(receiver)
        return receiver

    yield make
    for receiver in made:
        receiver.stop()


def same_events(hub: HubStore, name: str, session: MatchSession) -> bool:
    return hub.event_ids(name) == [int(e["id"]) for e in session.events_since(0)]
