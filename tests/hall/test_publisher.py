"""A table's publisher against a real broker: every event once and in order, state, status, frames;
a broker that goes away and comes back; a table restarted on its record; a hub's resend request."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from referee.hall.broker_url import BrokerUrl, parse_broker_url
from referee.hall.mosquitto import Mosquitto
from tests.hall.conftest import Recorder, play_some, publisher, table, wait_for


def test_every_event_is_published_in_order_with_its_id(url: BrokerUrl) -> None:
    recorder = Recorder(url, "uno/#")
    session = table()
    wait_for(lambda: recorder.client.is_connected(), what="the recorder")
    pub = publisher(session, url, "A")
    play_some(session, 10)
    session.set_frame(b"\xff\xd8jpeg\xff\xd9")
    wait_for(lambda: pub.acked_id == session.last_event_id, what="every event acknowledged")
    wait_for(lambda: recorder.payloads("/frame"), what="a frame")
    pub.stop()
    wait_for(lambda: recorder.payloads("/status")[-1:] == [b"offline"], what="offline said on stopping")
    events = recorder.events()
    stored = session.events_since(0)
    assert [e["id"] for e in events] == [e["id"] for e in stored]
    for sent, kept in zip(events, stored, strict=True):
        assert sent["table"] == "A" and sent["record"] == pub.record and sent["sent_at"] > 0
        assert {k: v for k, v in sent.items() if k not in ("table", "record", "sent_at")} == kept
    state = json.loads(recorder.payloads("/state")[-1])
    assert state["event_id"] == session.last_event_id and state["table"] == "A"
    assert recorder.payloads("/status") == [b"online", b"offline"]
    assert recorder.payloads("/frame") == [b"\xff\xd8jpeg\xff\xd9"]
    recorder.close()


def test_a_broker_that_comes_back_gets_what_it_missed_in_order(broker: Mosquitto, url: BrokerUrl,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    session = table()
    pub = publisher(session, url, "A")
    play_some(session, 3)
    wait_for(lambda: pub.acked_id == session.last_event_id, what="the first events")
    broker.kill()
    play_some(session, 5)  # refereeing goes on without the broker
    broker.start()
    recorder = Recorder(url, "uno/A/events")
    wait_for(lambda: recorder.client.is_connected(), what="the recorder")
    play_some(session, 2)
    wait_for(lambda: pub.acked_id == session.last_event_id, what="everything after the restart")
    wait_for(lambda: recorder.events() and recorder.events()[-1]["id"] == session.last_event_id, what="the tail")
    pub.stop()
    ids = [e["id"] for e in recorder.events()]
    # What was recorded while the broker was away came after it returned, in order, each once.
    assert ids == sorted(ids) and len(ids) == len(set(ids))
    assert ids[-4:] == list(range(session.last_event_id - 3, session.last_event_id + 1))
    unreachable = [r for r in caplog.records if "unreachable" in r.getMessage() and "table A" in r.getMessage()]
    assert len(unreachable) == 1  # said once, not on every retry
    recorder.close()


def test_a_restarted_table_sends_only_what_the_broker_has_not_had(tmp_path: Path, url: BrokerUrl) -> None:
    recorder = Recorder(url, "uno/A/events")
    wait_for(lambda: recorder.client.is_connected(), what="the recorder")
    session = table(tmp_path / "a.db")
    pub = publisher(session, url, "A")
    play_some(session, 4)
    wait_for(lambda: pub.acked_id == session.last_event_id, what="the first run")
    pub.stop()
    first_run = session.last_event_id
    session.store.close()

    again = table(tmp_path / "a.db")
    assert again.last_event_id == first_run
    play_some(again, 2)
    pub = publisher(again, url, "A")
    wait_for(lambda: pub.acked_id == again.last_event_id, what="the second run")
    pub.stop()
    ids = [e["id"] for e in recorder.events()]
    assert ids == list(range(1, again.last_event_id + 1))  # nothing twice
    assert {e["record"] for e in recorder.events()} == {pub.record}
    recorder.close()


def test_a_resend_request_sends_again_from_the_id_asked(url: BrokerUrl) -> None:
    session = table()
    pub = publisher(session, url, "A")
    play_some(session, 3)
    wait_for(lambda: pub.acked_id == session.last_event_id, what="the events")
    recorder = Recorder(url, "uno/A/events")
    wait_for(lambda: recorder.client.is_connected(), what="the recorder")
    asker = Recorder(url, "nothing")
    asker.client.publish("uno/A/resend", json.dumps({"after": 4, "record": "another"}), qos=1)
    asker.client.publish("uno/A/resend", json.dumps({"after": 4, "record": pub.record}), qos=1)
    wait_for(lambda: len(recorder.events()) >= session.last_event_id - 4, what="the resent events")
    pub.stop()
    assert [e["id"] for e in recorder.events()] == list(range(5, session.last_event_id + 1))
    recorder.close()
    asker.close()


def test_no_broker_at_start_says_so_once_and_referees_on(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    broker = Mosquitto(tmp_path / "late")
    url = parse_broker_url(broker.url)
    session = table()
    with caplog.at_level(logging.INFO):
        pub = publisher(session, url, "A", drain_s=0.5)
        play_some(session, 3)
        wait_for(lambda: any("unreachable" in r.getMessage() for r in caplog.records), what="the warning")
        assert not pub.connected
        with broker:
            wait_for(lambda: pub.acked_id == session.last_event_id, timeout=20, what="publishing once it is up")
            pub.stop()
    said = [r.getMessage() for r in caplog.records if "unreachable" in r.getMessage()]
    assert len(said) == 1 and "refereeing goes on" in said[0]
