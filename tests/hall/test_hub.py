"""The hub: each event recorded once and in order, gaps filled by asking the table, a fresh record
followed, and nothing lost when the hub or the broker restarts."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from referee.hall.broker_url import BrokerUrl, parse_broker_url
from referee.hall.hub_store import HubStore
from referee.hall.mosquitto import Mosquitto
from referee.hall.receiver import Batch, HubReceiver, _Message
from tests.hall.conftest import play_some, publisher, same_events, table, wait_for


def _event(event_id: int, record: str = "r1", **fields: object) -> _Message:
    body = {"id": event_id, "kind": "observation", "record": record, "table": "A", "seq": event_id,
            "outputs": [], "state": {"names": ["Ann", "Bob"], "turn": 0, "top_card": "red_5"}, **fields}
    return _Message("A", "events", json.dumps(body).encode(), mid=event_id, qos=0, received_at=time.time())


def test_events_are_recorded_once_each_in_id_order(tmp_path: Path) -> None:
    batches: list[Batch] = []
    receiver = HubReceiver(HubStore(tmp_path / "hub.db"), parse_broker_url("mqtt://127.0.0.1:9"),
                           on_batch=batches.append)
    receiver._record([_event(1), _event(2), _event(2), _event(4), _event(3)])
    receiver._record([_event(5), _event(4), _event(1)])
    assert receiver.store.event_ids("A") == [1, 2, 3, 4, 5]
    assert receiver.duplicates == 3
    # Live viewers got them in order too, each once.
    assert [e["id"] for b in batches for _, e in b.events] == [1, 2, 3, 4, 5]
    assert receiver.views["A"].last_id == 5


def test_a_table_on_a_fresh_record_is_followed_and_its_old_record_ignored(tmp_path: Path) -> None:
    receiver = HubReceiver(HubStore(tmp_path / "hub.db"), parse_broker_url("mqtt://127.0.0.1:9"))
    receiver._record([_event(1), _event(2), _event(3)])
    receiver._record([_event(1, "r2"), _event(2, "r2"), _event(4, "r1")])
    assert receiver.store.event_ids("A") == [1, 2]
    assert receiver.store.event_ids("A", "r1") == [1, 2, 3]
    assert receiver.views["A"].record == "r2"


def test_alerts_follow_undo_and_corrections(tmp_path: Path) -> None:
    receiver = HubReceiver(HubStore(tmp_path / "hub.db"), parse_broker_url("mqtt://127.0.0.1:9"))
    alert = {"type": "alert", "code": "illegal_card", "seat": 1, "penalty_cards": 2, "message": "seat 1 played"}
    receiver._record([_event(1, outputs=[alert]), _event(2, outputs=[dict(alert, code="out_of_turn")])])
    assert [a["code"] for a in receiver.views["A"].snapshot()["alerts"]] == ["illegal_card", "out_of_turn"]
    receiver._record([_event(3, kind="undo", seq=2)])
    assert [a["code"] for a in receiver.views["A"].snapshot()["alerts"]] == ["illegal_card"]
    assert receiver.views["A"].tile()["last_alert"]["who"] == "Bob"


def test_a_restarted_hub_catches_up_from_the_broker_and_its_record(
        tmp_path: Path, url: BrokerUrl, hub_factory: Callable[..., HubReceiver]) -> None:
    session = table()
    pub = publisher(session, url, "A")
    hub = hub_factory()
    play_some(session, 3)
    wait_for(lambda: same_events(hub.store, "A", session), what="the hub to have the first events")
    hub.stop()  # gone: the broker keeps what comes for its session
    play_some(session, 4)
    wait_for(lambda: pub.acked_id == session.last_event_id, what="the broker to take them")
    again = hub_factory()
    assert again.views["A"].last_id >= hub.views["A"].last_id  # resumed from its record (and maybe further)
    play_some(session, 1)
    wait_for(lambda: same_events(again.store, "A", session), what="the restarted hub to catch up")
    assert again.resend_requests == 0  # the broker's queue was enough: no gap after what its record had
    pub.stop()


def test_nothing_is_lost_when_the_broker_loses_what_it_held(
        tmp_path: Path, broker: Mosquitto, url: BrokerUrl, hub_factory: Callable[..., HubReceiver]) -> None:
    session = table()
    pub = publisher(session, url, "A")
    hub = hub_factory()
    play_some(session, 2)
    wait_for(lambda: same_events(hub.store, "A", session), what="the first events")
    hub.stop()
    play_some(session, 3)  # acknowledged by the broker, queued for the hub ...
    wait_for(lambda: pub.acked_id == session.last_event_id, what="the broker to take them")
    broker.kill()  # ... and lost with it
    broker.start()
    play_some(session, 1)
    again = hub_factory()
    wait_for(lambda: same_events(again.store, "A", session), timeout=30, what="the gap to be filled")
    assert again.resend_requests >= 1
    pub.stop()


def test_two_tables_and_a_broker_restart(broker: Mosquitto, url: BrokerUrl,
                                         hub_factory: Callable[..., HubReceiver]) -> None:
    a, b = table(), table(players=2)
    pubs = [publisher(a, url, "A"), publisher(b, url, "B")]
    hub = hub_factory()
    play_some(a, 2)
    play_some(b, 2)
    broker.restart(down_s=0.5)
    play_some(a, 3)
    play_some(b, 1)
    wait_for(lambda: same_events(hub.store, "A", a) and same_events(hub.store, "B", b), timeout=30,
             what="both tables")
    wait_for(lambda: hub.views["A"].status == "online" and hub.views["B"].status == "online", what="both online")
    for pub in pubs:
        pub.stop()
    wait_for(lambda: hub.views["A"].status == "offline", what="A offline")


def test_a_table_view_speaks_the_language_its_setup_chose() -> None:
    from referee.hall.views import TableView

    view = TableView("A")
    view.apply({"id": 1, "kind": "observation", "seq": 1,
                "observation": {"type": "setup", "players": 3, "lang": "de"}, "outputs": []})
    view.apply({"id": 2, "kind": "observation", "seq": 2, "observation": {"type": "play", "card": "red_1"},
                "outputs": []})
    assert view.lang == "de"
    view.reset("fresh record")
    assert view.lang is None
