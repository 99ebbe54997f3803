"""A table's side of a hall: its match record published to an MQTT broker (docs/contract.md, contract 6).

The table's SQLite record stays the source of truth; the publisher only reads it. A background
thread sends every event after the last one the broker acknowledged (PUBACK), in order, QoS 1, each
as one JSON message carrying the store's event ``id`` (plus ``table``, ``record``: the record's
identity, and ``sent_at``: when the table had it, in epoch seconds). While the broker is away the
table referees on and nothing is lost: paho keeps what was in flight and sends it again, the rest is
read from the record once the broker answers. How far the broker acknowledged is kept in the record
(``meta``), so a restarted table sends only what the broker has not had. Consumers drop the few
duplicates that at-least-once delivery brings, by ``id``.

Besides the events: the live state (``session.snapshot()``) retained on ``state`` at most every
``state_every_s`` while it changes (and every ``state_refresh_s`` in any case), ``online`` retained on
``status`` (``offline`` as the last will, and on a clean stop), and a JPEG on ``frame`` at most every
``frame_every_s``. A hub that finds a gap (a broker that lost what it had acknowledged, in a crash)
asks on ``resend`` for everything after an id; the publisher sends it again.
"""

from __future__ import annotations

import collections
import json
import logging
import threading
import time
import uuid
from typing import Any

from paho.mqtt.client import Client, ConnectFlags, DisconnectFlags, MQTTMessage
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from referee.hall.broker_url import BrokerUrl
from referee.hall.client import KEEPALIVE_S, ConnectionReport, Will, make_client
from referee.hall.proof import sign, unsign
from referee.hall.topics import Topics, check_table_name
from referee.session import Event, MatchSession
from referee.store import Store, StoreError

__all__ = ["RECORD_KEY", "TablePublisher", "record_identity"]

log = logging.getLogger(__name__)

#: The ``meta`` key of the record's identity (a random id, made once per record file).
RECORD_KEY = "record_id"
#: How often the acknowledged cursor is written to the record (seconds): a table killed in between
#: sends at most this much again, which consumers drop as duplicates.
CURSOR_SAVE_S = 1.0


def record_identity(store: Store) -> str:
    """The record's identity: made and kept on first use, so consumers can tell a table restarted
    on the same record (same ids, carry on) from one started on a fresh record (ids from 1 again)."""
    found = store.meta(RECORD_KEY)
    if found:
        return found
    made = uuid.uuid4().hex
    store.set_meta(RECORD_KEY, made)
    return made


def _dumps(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":"), allow_nan=False).encode()


class TablePublisher:
    """Publishes ``session``'s record as table ``table`` to the broker at ``url``.

    ``window``: events handed to the MQTT client and not yet acknowledged, at most (more waits in the
    record; raising it helps a high-latency broker link, at the cost of more sent again after a
    restart). ``frame_every_s``: the least time between two published frames (0: none).
    ``state_every_s``: the least time between two published states while events come in;
    ``state_refresh_s``: the most. ``drain_s``: how long :meth:`stop` waits for the broker to
    acknowledge what is left. ``key``: the table's key (:mod:`~referee.hall.proof`): every event and
    state is signed with it, and only resend requests signed with it are followed.
    """

    def __init__(self, session: MatchSession, url: BrokerUrl, table: str, *, topics: Topics | None = None,
                 window: int = 256, frame_every_s: float = 2.0, state_every_s: float = 1.0,
                 state_refresh_s: float = 5.0, drain_s: float = 5.0, key: bytes | None = None) -> None:
        self.session = session
        self.url = url
        self.table = check_table_name(table)
        self.topics = topics or Topics()
        self.window = window
        self.frame_every_s = frame_every_s
        self.state_every_s = state_every_s
        self.state_refresh_s = state_refresh_s
        self.drain_s = drain_s
        self.key = key
        self._said_unsigned = False
        self.record = record_identity(session.store)
        self._cursor_key = f"hall.acked {url.address} {self.topics.of(self.table, 'events')}"
        self._acked = int(session.store.meta(self._cursor_key) or 0)
        self._saved = self._acked
        self._sent = self._acked
        self._unacked: dict[int, int] = {}  # event id -> copies in flight
        self._mids: dict[int, int] = {}  # MQTT message id -> event id
        self._acks: collections.deque[int] = collections.deque()  # from paho's thread
        self._rewinds: collections.deque[int] = collections.deque()
        self._seen_at: dict[int, float] = {}
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._connected = False
        self._announce = False
        self._state_at = 0.0
        self._state_id = -1
        self._frame_at = 0.0
        self._frame_index = -1
        self._cursor_at = 0.0
        self.sent_count = 0
        self._report = ConnectionReport(url, f"table {self.table}",
                                        "refereeing goes on; the record is published when the broker answers")
        status = self.topics.of(self.table, "status")
        self._client = make_client(url, f"referee-table-{self.topics.prefix}-{self.table}".replace("/", "-"),
                                   will=Will(status, b"offline"))
        self._client.on_connect = self._on_connect
        self._client.on_connect_fail = self._on_connect_fail
        self._client.on_disconnect = self._on_disconnect
        self._client.on_publish = self._on_publish
        self._client.on_message = self._on_message
        self._remove_listener = session.add_listener(self._on_event)
        self._thread = threading.Thread(target=self._run, name=f"publish-{self.table}", daemon=True)

    # Life.
    def start(self) -> TablePublisher:
        """Connect in the background and start publishing; returns self."""
        log.info("table %s: publishing to %s under %s/%s/", self.table, self.url, self.topics.prefix, self.table)
        self._client.connect_async(self.url.host, self.url.port, keepalive=KEEPALIVE_S)
        self._client.loop_start()
        self._thread.start()
        return self

    def stop(self) -> None:
        """Send what is left (up to ``drain_s``), say ``offline``, keep the cursor, disconnect."""
        deadline = time.monotonic() + self.drain_s
        while self._connected and time.monotonic() < deadline and self.acked_id < self.session.last_event_id:
            self._wake.set()
            time.sleep(0.05)
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=5)
        self._remove_listener()
        self._take_acks()
        left = self.session.last_event_id - self._acked
        if left > 0:
            log.warning("table %s: %d event(s) not acknowledged by the broker; they are sent when this "
                        "record is next published", self.table, left)
        if self._connected:
            if self._state_id != self.session.last_published_id:
                self._publish_state(time.monotonic())  # the last word on the state, before going offline
            info = self._client.publish(self.topics.of(self.table, "status"), b"offline", qos=1, retain=True)
            info.wait_for_publish(timeout=2)
        self._save_cursor(force=True)
        self._client.disconnect()
        self._client.loop_stop()

    @property
    def connected(self) -> bool:
        return self._connected

    @property
    def acked_id(self) -> int:
        """Every event up to this id has been acknowledged by the broker (as the sender last looked)."""
        return self._acked

    # paho's thread: record what happened and wake the sender; never wait on anything.
    def _on_connect(self, client: Client, _: object, flags: ConnectFlags, reason: ReasonCode,
                    properties: Properties | None) -> None:
        if reason.is_failure:
            self._report.down(str(reason))
            return
        client.subscribe(self.topics.of(self.table, "resend"), qos=1)
        self._connected = True
        self._announce = True
        self._report.up()
        self._wake.set()

    def _on_connect_fail(self, client: Client, _: object) -> None:
        self._report.down("no connection")

    def _on_disconnect(self, client: Client, _: object, flags: DisconnectFlags, reason: ReasonCode,
                       properties: Properties | None) -> None:
        self._connected = False
        if not self._stop.is_set():
            self._report.down(f"disconnected: {reason}")

    def _on_publish(self, client: Client, _: object, mid: int, reason: ReasonCode,
                    properties: Properties | None) -> None:
        self._acks.append(mid)
        self._wake.set()

    def _on_message(self, client: Client, _: object, message: MQTTMessage) -> None:
        payload = bytes(message.payload)
        if self.key is not None:
            proven = unsign(self.key, "resend", payload)
            if proven is None:
                if not self._said_unsigned:
                    self._said_unsigned = True
                    log.warning("table %s: a resend request not signed with this table's key ignored (said once)",
                                self.table)
                return
            payload = proven
        try:
            request = json.loads(payload)
            after = int(request["after"])
        except Exception:  # not JSON, too deep, no "after", not a number: a stranger's, or garbage
            log.warning("table %s: unreadable resend request ignored", self.table)
            return
        if request.get("record", self.record) != self.record or after < 0:
            return
        self._rewinds.append(after)
        self._wake.set()

    def _on_event(self, event: Event) -> None:
        # The session's listener: called with the session's lock held, so only a note and a wake-up.
        if len(self._seen_at) < 100_000:
            self._seen_at[int(event["id"])] = time.time()
        self._wake.set()

    # The sender thread.
    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            try:
                self._step()
            except StoreError as exc:  # the record is busy or gone for a moment: try again
                log.warning("table %s: cannot read the record to publish: %s", self.table, exc)
                self._stop.wait(1.0)
            except Exception:
                log.exception("table %s: publishing failed; retrying", self.table)
                self._stop.wait(1.0)
            self._wake.wait(0.25)

    def _step(self) -> None:
        self._take_acks()
        while self._rewinds:
            after = self._rewinds.popleft()
            if after < self._sent:
                log.info("table %s: the hub asked for the events after %d again", self.table, after)
                self._sent = after
        now = time.monotonic()
        if self._connected:
            if self._announce:
                self._announce = False
                self._client.publish(self.topics.of(self.table, "status"), b"online", qos=1, retain=True)
                self._publish_state(now)
            self._feed()
            if (now - self._state_at >= self.state_every_s and self._state_id != self.session.last_published_id) \
                    or now - self._state_at >= self.state_refresh_s:
                self._publish_state(now)
            self._publish_frame(now)
        if now - self._cursor_at >= CURSOR_SAVE_S:
            self._save_cursor()
            self._cursor_at = now

    def _feed(self) -> None:
        topic = self.topics.of(self.table, "events")
        while self._connected and not self._stop.is_set():
            room = self.window - len(self._mids)
            if room <= 0:
                return
            events = self.session.store.events_since(self._sent, limit=min(room, 200))
            if not events:
                return
            for event in events:
                event_id = int(event["id"])
                event["table"] = self.table
                event["record"] = self.record
                event["sent_at"] = self._seen_at.pop(event_id, None) or time.time()
                info = self._client.publish(topic, self._signed("events", _dumps(event)), qos=1)
                self._mids[info.mid] = event_id
                self._unacked[event_id] = self._unacked.get(event_id, 0) + 1
                self._sent = event_id
                self.sent_count += 1

    def _take_acks(self) -> None:
        acked_any = False
        while self._acks:
            event_id = self._mids.pop(self._acks.popleft(), None)
            if event_id is None:
                continue  # a state or status message
            acked_any = True
            copies = self._unacked.get(event_id, 0) - 1
            if copies > 0:
                self._unacked[event_id] = copies
            else:
                self._unacked.pop(event_id, None)
        if acked_any or not self._unacked:
            reach = min(self._unacked) - 1 if self._unacked else self._sent
            self._acked = max(self._acked, reach)

    def _publish_state(self, now: float) -> None:
        snapshot: dict[str, Any] = {**self.session.snapshot(), "table": self.table, "record": self.record,
                                    "sent_at": time.time()}
        self._state_id = int(snapshot.get("event_id") or 0)
        self._client.publish(self.topics.of(self.table, "state"), self._signed("state", _dumps(snapshot)), qos=1,
                             retain=True)
        self._state_at = now

    def _signed(self, kind: str, body: bytes) -> bytes:
        return body if self.key is None else sign(self.key, kind, body)

    def _publish_frame(self, now: float) -> None:
        if self.frame_every_s <= 0 or now - self._frame_at < self.frame_every_s:
            return
        index, jpeg = self.session.frame()
        if jpeg is None or index == self._frame_index:
            return
        self._frame_index = index
        self._frame_at = now
        self._client.publish(self.topics.of(self.table, "frame"), jpeg, qos=0, retain=True)

    def _save_cursor(self, force: bool = False) -> None:
        if self._acked == self._saved and not force:
            return
        try:
            self.session.store.set_meta(self._cursor_key, str(self._acked))
            self._saved = self._acked
        except StoreError as exc:
            log.warning("table %s: cannot keep the publishing cursor: %s", self.table, exc)

    def describe(self) -> dict[str, Any]:
        """Where publishing stands (for a health view or a benchmark)."""
        return {"table": self.table, "broker": str(self.url), "connected": self._connected,
                "acked_id": self.acked_id, "sent": self.sent_count}
