"""A hall no message can stall or fool (issue 45, items 1-3): each message judged alone (a poison one
logged once, counted, dropped, never holding those behind it), a table's record changed only by the
table itself (a hall key and an HMAC on each message), and no ``-wal`` file left after SIGTERM."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from referee.hall.broker_url import BrokerUrl, parse_broker_url
from referee.hall.hub_store import HubStore
from referee.hall.mosquitto import Mosquitto
from referee.hall.proof import derive_table_key, sign
from referee.hall.receiver import HubReceiver, _Message
from tests.hall.conftest import Recorder, play_some, publisher, same_events, table, wait_for
from tests.web.conftest import free_port

HALL_KEY = b"a hall key for the tests, long enough"
POISON = b"[" * 100_000


def _message(kind: str, payload: bytes, table: str = "A", mid: int = 0) -> _Message:
    return _Message(table, kind, payload, mid=mid, qos=0, received_at=time.time())


def _event(event_id: int, record: str = "r1", key: bytes | None = None, **fields: object) -> bytes:
    body = json.dumps({"id": event_id, "kind": "observation", "record": record, "table": "A", "seq": event_id,
                       "outputs": [], "state": {"names": ["Ann", "Bob"]}, "sent_at": 1000.0 + event_id, **fields},
                      separators=(",", ":")).encode()
    return body if key is None else sign(key, "events", body)


def test_each_message_is_judged_alone(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    receiver = HubReceiver(HubStore(tmp_path / "hub.db"), parse_broker_url("mqtt://127.0.0.1:9"))
    bad = [POISON, b"\xed\xa0\x80", b"not json", b"[1,2]", b'{"id":"x","record":"r1"}', b'{"id":1}',
           b'{"id":true,"record":"r1"}', b'{"id":1e400,"record":"r1"}', b'{"id":5,"record":"r1","sent_at":NaN}',
           b'{"id":5,"record":"r1","table":"B"}', b"{" * 5000 + b"}" * 5000,
           b'{"id":' + b"9" * 5000 + b',"record":"r1"}']
    with caplog.at_level(logging.WARNING):
        receiver._record([_message("events", _event(1)), *(_message("events", b) for b in bad),
                          _message("events", _event(2)), _message("state", POISON), _message("status", POISON),
                          _message("status", b"online"), _message("events", _event(3))])
        receiver._record([_message("events", POISON) for _ in range(30)] + [_message("events", _event(4))])
    assert receiver.store.event_ids("A") == [1, 2, 3, 4]
    assert receiver.views["A"].status == "online"
    assert receiver.dropped["unreadable"] == len(bad) + 2 + 30
    said = [r for r in caplog.records if "dropped" in r.getMessage()]
    assert len(said) == 1 and "table A" in said[0].getMessage()  # logged once for table A's unreadable ones


def test_a_message_that_fails_while_being_recorded_takes_nothing_else_with_it(tmp_path: Path) -> None:
    receiver = HubReceiver(HubStore(tmp_path / "hub.db"), parse_broker_url("mqtt://127.0.0.1:9"))
    # A well-formed event whose content the view cannot fold in (outputs of the wrong shape): it fails under
    # its own savepoint, after the event row was written; that row is undone and the view rebuilt.
    receiver._record([_message("events", _event(1)), _message("events", _event(2, outputs=[1, 2])),
                      _message("events", _event(2)), _message("events", _event(3))])
    assert receiver.store.event_ids("A") == [1, 2, 3]
    assert receiver.dropped["failed"] == 1
    assert receiver.views["A"].last_id == 3


def test_a_forged_message_cannot_take_a_table_over(tmp_path: Path) -> None:
    key = derive_table_key(HALL_KEY, "A")
    receiver = HubReceiver(HubStore(tmp_path / "hub.db"), parse_broker_url("mqtt://127.0.0.1:9"), hall_key=HALL_KEY)
    receiver._record([_message("events", _event(1, key=key)), _message("events", _event(2, key=key))])
    forged = [
        b'{"id":3,"kind":"observation","record":"x"}',  # issue 45's: no signature
        _event(1, "x", key=derive_table_key(HALL_KEY, "B")),  # signed, by another table's key
        _event(3, "x", key=key)[:-5] + b'00"}',  # a signature tampered with
        _event(3, "x", key=b"not the hall's key at all"),
        sign(key, "state", _event(3, "x")[:-1] + b',"event_id":3}'),  # a state's signature on the events topic
    ]
    receiver._record([_message("events", f) for f in forged] + [_message("state", f) for f in forged[:2]])
    assert receiver.views["A"].record == "r1"
    assert receiver.dropped["unproven"] == len(forged) + 2
    # An old record's genuine message, replayed: not newer than what the table sends now.
    receiver._record([_message("events", _event(1, "r0", key=key, sent_at=999.0))])
    assert receiver.dropped["stale_record"] == 1 and receiver.views["A"].record == "r1"
    receiver._record([_message("events", _event(3, key=key))])
    assert receiver.store.event_ids("A") == [1, 2, 3]
    # The table itself starting a fresh record (signed, sent after the newest of r1) is followed.
    receiver._record([_message("events", _event(1, "r2", key=key, sent_at=2000.0))])
    assert receiver.views["A"].record == "r2"
    # A status of a table that has proven nothing makes no tile; it is shown once the table proves a record.
    receiver._record([_message("status", b"online", table="B")])
    assert "B" not in receiver.views
    receiver._record([_message("events", _event(1, table="B", key=derive_table_key(HALL_KEY, "B")), table="B")])
    assert receiver.views["B"].status == "online"


def test_poison_on_the_broker_does_not_stall_the_hub_even_across_its_restart(
        url: BrokerUrl, hub_factory: Callable[..., HubReceiver]) -> None:
    session = table()
    pub = publisher(session, url, "B")
    hub = hub_factory()
    play_some(session, 1)
    wait_for(lambda: same_events(hub.store, "B", session), what="B's first events")
    attacker = Recorder(url, "nothing")
    wait_for(attacker.client.is_connected, what="the attacker")
    for _ in range(30):
        attacker.client.publish("uno/B/events", POISON, qos=1)
    play_some(session, 3)
    wait_for(lambda: same_events(hub.store, "B", session), what="B's events behind the poison")
    assert hub.dropped["unreadable"] == 30
    hub.stop()  # every poison message was acknowledged: a restarted hub is not sent them again
    again = hub_factory()
    play_some(session, 1)
    wait_for(lambda: same_events(again.store, "B", session), what="B's events after the restart")
    time.sleep(0.5)
    assert again.dropped["unreadable"] == 0
    pub.stop()
    attacker.close()


def test_a_hub_with_a_hall_key_follows_signing_tables_and_drops_forgeries(
        url: BrokerUrl, hub_factory: Callable[..., HubReceiver]) -> None:
    session = table()
    pub = publisher(session, url, "A", key=derive_table_key(HALL_KEY, "A"))
    hub = hub_factory(hall_key=HALL_KEY)
    play_some(session, 2)
    wait_for(lambda: same_events(hub.store, "A", session), what="A's signed events")
    attacker = Recorder(url, "nothing")
    wait_for(attacker.client.is_connected, what="the attacker")
    attacker.client.publish("uno/A/events", json.dumps({"id": session.last_event_id + 1, "kind": "observation",
                                                        "record": "x"}), qos=1)
    attacker.client.publish("uno/A/state", json.dumps({"record": "x", "event_id": 99}), qos=1)
    play_some(session, 2)
    wait_for(lambda: same_events(hub.store, "A", session), what="A's events after the forgeries")
    wait_for(lambda: hub.dropped["unproven"] == 2, what="the forgeries counted")
    assert hub.views["A"].record == pub.record
    pub.stop()
    attacker.close()


def test_an_unsigned_resend_request_is_not_followed_by_a_signing_table(url: BrokerUrl) -> None:
    key = derive_table_key(HALL_KEY, "A")
    session = table()
    pub = publisher(session, url, "A", key=key)
    play_some(session, 2)
    wait_for(lambda: pub.acked_id == session.last_event_id, what="the events")
    sent = pub.sent_count
    asker = Recorder(url, "nothing")
    wait_for(asker.client.is_connected, what="the asker")
    asker.client.publish("uno/A/resend", json.dumps({"after": 0, "record": pub.record}), qos=1)
    asker.client.publish("uno/A/resend", sign(key, "resend", json.dumps({"after": 3, "record": pub.record}).encode()),
                         qos=1)
    wait_for(lambda: pub.sent_count == sent + session.last_event_id - 3, what="the signed request followed")
    time.sleep(0.3)
    assert pub.sent_count == sent + session.last_event_id - 3
    pub.stop()
    asker.close()


def test_the_hub_leaves_no_wal_file_after_sigterm(tmp_path: Path, broker: Mosquitto) -> None:
    port = free_port()
    db = tmp_path / "hub.db"
    out = (tmp_path / "hub.out").open("wb")
    process = subprocess.Popen([sys.executable, "-m", "referee.cli", "hub", "--broker", broker.url, "--port",
                                str(port), "--db", str(db)], stdout=out, stderr=subprocess.STDOUT,
                               env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        wait_for(lambda: _healthy(f"http://127.0.0.1:{port}/healthz"), timeout=30, what="the hub")
        session = table()
        pub = publisher(session, parse_broker_url(broker.url), "A")
        play_some(session, 2)
        wait_for(lambda: _ids(db) == list(range(1, session.last_event_id + 1)), what="the events")
        pub.stop()
        assert Path(f"{db}-wal").exists()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
        out.close()
    assert not Path(f"{db}-wal").exists()
    said = (tmp_path / "hub.out").read_text()
    assert f"hub record: {db.resolve()}" in said


def _ids(db: Path) -> list[int]:
    reader = HubStore(db)
    try:
        return reader.event_ids("A")
    finally:
        reader.close()


def _healthy(address: str) -> bool:
    try:
        return bool(httpx.get(address, timeout=1).json()["connected"])
    except httpx.HTTPError:
        return False


def test_a_hostile_client_on_every_topic_while_two_tables_play(
        broker: Mosquitto, url: BrokerUrl, hub_factory: Callable[..., HubReceiver]) -> None:
    """Issue 45's hostile broker: poison, forged, tampered and garbage messages on every topic of each
    table while it plays; the hub (with the hall key) ends with every real event, each once, in order."""
    sessions = {"A": table(), "B": table(players=2)}
    hub = hub_factory(hall_key=HALL_KEY, gap_grace_s=0.3)
    wait_for(lambda: hub.connected, what="the hub")
    pubs = [publisher(s, url, name, key=derive_table_key(HALL_KEY, name)) for name, s in sessions.items()]
    attacker = Recorder(url, "nothing")
    wait_for(attacker.client.is_connected, what="the attacker")
    wrong = derive_table_key(b"another hall's key, not this one", "A")

    def attack(name: str, n: int) -> None:
        forged = json.dumps({"id": n, "kind": "observation", "record": "forged", "table": name,
                             "sent_at": time.time() + 3600, "outputs": []}).encode()
        for kind, payload in (("events", POISON), ("events", forged), ("events", sign(wrong, "events", forged)),
                              ("events", b"\x00\xff" * 50), ("state", b"{" * 50_000),
                              ("state", json.dumps({"record": "forged", "event_id": 10**6}).encode()),
                              ("status", b"\xed\xa0\x80"), ("frame", b"not a jpeg"),
                              ("resend", json.dumps({"after": 0, "record": "x"}).encode()), ("resend", POISON),
                              ("events/deeper", b"{}"), ("nonsense", b"[]")):
            attacker.client.publish(f"uno/{name}/{kind}", payload, qos=1)

    for _ in range(6):
        for name, session in sessions.items():
            attack(name, session.last_event_id + 1)
            play_some(session, 1)
    wait_for(lambda: all(same_events(hub.store, name, s) for name, s in sessions.items()), timeout=30,
             what="every real event of both tables")
    wait_for(lambda: hub.dropped["unproven"] >= 2 * 6 * 5, what="the forgeries counted")
    # A status and a frame that are not one, on their own topics: counted as they arrive, not by the time the
    # forgeries are (asserted at once, 22 of 24 had been counted on a loaded machine).
    wait_for(lambda: hub.dropped["unreadable"] >= 2 * 6 * 2, what="the unreadable counted")
    for name, session in sessions.items():
        view = hub.views[name]
        assert view.record == next(p.record for p in pubs if p.table == name)
        assert view.last_id == session.last_event_id and view.status == "online"
    # Nothing was asked for or sent again: the forged state's event 1 000 000 opened no gap, and the forged
    # resend requests made no table send anything twice.
    assert hub.resend_requests == 0 and hub.duplicates == 0
    assert all(p.sent_count == s.last_event_id for p, s in zip(pubs, sessions.values(), strict=True))
    for pub in pubs:
        pub.stop()
    attacker.close()
