"""The broker configuration a hall should run (referee/hall/broker/hall.conf and hall.acl), run as
shipped: each table publishes only on its own topics as its own user, the hub reads them all and asks
for resends, nobody anonymous gets in, and the hub's session and queue outlive a broker restart."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from referee.hall.broker_url import parse_broker_url
from referee.hall.hub_store import HubStore
from referee.hall.mosquitto import HALL_CONF, Mosquitto, find_mosquitto, hall_settings
from referee.hall.receiver import HubReceiver
from tests.hall.conftest import Recorder, play_some, publisher, same_events, table, wait_for

USERS = {"hub": "hub-password-1", "A": "table-a-password", "B": "table-b-password"}


@pytest.fixture
def hall_broker(tmp_path: Path) -> Iterator[Mosquitto]:
    if find_mosquitto() is None or shutil.which("mosquitto_passwd") is None:
        pytest.skip("needs mosquitto and mosquitto_passwd")
    with Mosquitto(tmp_path / "broker", hall=True, users=USERS) as running:
        yield running


def _url(broker: Mosquitto, user: str) -> str:
    return f"mqtt://{user}:{USERS[user]}@127.0.0.1:{broker.port}"


@pytest.fixture
def hall_hub(tmp_path: Path, hall_broker: Mosquitto) -> Iterator[Callable[[], HubReceiver]]:
    made: list[HubReceiver] = []

    def make() -> HubReceiver:
        made.append(HubReceiver(HubStore(tmp_path / "hub.db"), parse_broker_url(_url(hall_broker, "hub"))).start())
        return made[-1]

    yield make
    for receiver in made:
        receiver.stop()


def test_the_shipped_configuration_is_what_runs() -> None:
    settings = hall_settings()
    assert "persistence true" in settings and "max_queued_messages 200000" in settings
    assert "max_inflight_messages 200" in settings
    assert "acl_file /etc/mosquitto/hall.acl" in HALL_CONF.read_text()  # placed by the private broker instead
    done = subprocess.run([find_mosquitto() or "mosquitto", "-h"], capture_output=True, text=True)
    assert "mosquitto" in done.stdout + done.stderr


def test_each_table_publishes_only_on_its_own_topics(hall_broker: Mosquitto,
                                                     hall_hub: Callable[[], HubReceiver]) -> None:
    hub = hall_hub()
    a, b = table(), table(players=2)
    pubs = [publisher(a, parse_broker_url(_url(hall_broker, "A")), "A"),
            publisher(b, parse_broker_url(_url(hall_broker, "B")), "B")]
    play_some(a, 2)
    play_some(b, 2)
    wait_for(lambda: same_events(hub.store, "A", a) and same_events(hub.store, "B", b), what="both tables")
    # Table B's user forging on table A's topics: the broker drops it (MQTT 3.1.1 cannot say so).
    forger = Recorder(parse_broker_url(_url(hall_broker, "B")), "uno/B/resend")
    wait_for(forger.client.is_connected, what="the forger")
    forger.client.publish("uno/A/events", json.dumps({"id": a.last_event_id + 1, "kind": "observation",
                                                      "record": "x"}), qos=1).wait_for_publish(5)
    forger.client.publish("uno/A/status", b"offline", qos=1, retain=True).wait_for_publish(5)
    play_some(a, 1)
    wait_for(lambda: same_events(hub.store, "A", a), what="A's next events")
    assert hub.views["A"].record == pubs[0].record and hub.views["A"].status == "online"
    assert sum(hub.dropped.values()) == 0  # nothing forged even reached the hub
    # Anonymous clients are refused.
    anonymous = Recorder(parse_broker_url(hall_broker.url), "uno/#")
    with pytest.raises(AssertionError):
        wait_for(anonymous.client.is_connected, timeout=1.5, what="an anonymous client")
    anonymous.close()
    forger.close()
    for pub in pubs:
        pub.stop()


def test_the_hub_session_outlives_a_broker_restart(hall_broker: Mosquitto,
                                                    hall_hub: Callable[[], HubReceiver]) -> None:
    session = table()
    pub = publisher(session, parse_broker_url(_url(hall_broker, "A")), "A")
    hub = hall_hub()
    play_some(session, 1)
    wait_for(lambda: same_events(hub.store, "A", session), what="the first events")
    hub.stop()
    play_some(session, 3)  # queued at the broker for the hub's session ...
    wait_for(lambda: pub.acked_id == session.last_event_id, what="the broker to take them")
    hall_broker.stop()  # ... saved on a clean stop (persistence true) ...
    hall_broker.start()
    again = hall_hub()  # ... and delivered to the hub's session after it: no resend needed
    wait_for(lambda: same_events(again.store, "A", session), timeout=20, what="the queued events")
    assert again.resend_requests == 0
    pub.stop()
