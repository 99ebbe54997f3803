"""The hub's side of a hall: every table's messages from the broker into the hub's own record.

The receiver subscribes to ``PREFIX/+/events|state|status|frame`` with a persistent session (a
stable client id, ``clean_session=False``): while the hub is down the broker keeps what QoS 1 brought
for it. Messages are handed from paho's thread to one writer thread, which records a batch in one
transaction and only then acknowledges it to the broker (manual acks): a hub killed mid-batch is
sent that batch again.

A table's events are recorded strictly in id order, each once: a duplicate (an id already recorded)
is dropped, and one that arrives ahead of a gap is held until the gap is filled. The gap is noticed
from the ids, or from a table's retained state naming a newer event than the hub has; when it lasts
``gap_grace_s``, the hub asks the table (``PREFIX/NAME/resend``) to send again from its last id. So
nothing is lost even when the broker itself lost what it had acknowledged (killed without saving).
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from paho.mqtt.client import Client, ConnectFlags, DisconnectFlags, MQTTMessage
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from referee.hall.broker_url import BrokerUrl
from referee.hall.client import KEEPALIVE_S, ConnectionReport, make_client
from referee.hall.hub_store import HubStore, HubTransaction
from referee.hall.topics import KINDS, Topics
from referee.hall.views import TableView

__all__ = ["Batch", "HubReceiver"]

log = logging.getLogger(__name__)

#: Events held per table while waiting for a gap to fill (more are dropped: they come again).
HELD_MAX = 5000


@dataclass
class Batch:
    """What one committed batch changed: accepted events per table, and the hall stream's new lines."""

    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    lines: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    switched: set[str] = field(default_factory=set)


@dataclass
class _Message:
    table: str
    kind: str
    payload: bytes
    mid: int
    qos: int
    received_at: float


class HubReceiver:
    """Follows every table under ``topics`` on the broker at ``url`` into ``store``.

    ``on_batch`` is called (from the writer thread) after each committed batch. ``client_id`` names
    the hub's persistent session at the broker: keep it the same across restarts (two hubs on one
    broker need two ids). ``batch``: the most messages recorded in one transaction.
    """

    def __init__(self, store: HubStore, url: BrokerUrl, *, topics: Topics | None = None,
                 client_id: str = "referee-hub", batch: int = 500, gap_grace_s: float = 1.0,
                 resend_every_s: float = 2.0, on_batch: Callable[[Batch], None] | None = None) -> None:
        self.store = store
        self.url = url
        self.topics = topics or Topics()
        self.batch = batch
        self.gap_grace_s = gap_grace_s
        self.resend_every_s = resend_every_s
        self.on_batch = on_batch
        #: held while the views change; a reader that must see a table whole takes it too
        self.lock = threading.RLock()
        self.views: dict[str, TableView] = {}
        self.frames: dict[str, tuple[int, bytes]] = {}
        self.duplicates = 0
        self.resend_requests = 0
        self._held: dict[str, dict[int, dict[str, Any]]] = {}
        self._retired: dict[str, set[str]] = {}
        self._queue: queue.Queue[_Message] = queue.Queue()
        self._stop = threading.Event()
        self._connected = False
        self._load()
        self._report = ConnectionReport(url, "hub",
                                        "serving what it has recorded; it catches up when the broker answers")
        self._client = make_client(url, client_id, clean_session=False, manual_ack=True)
        self._client.on_connect = self._on_connect
        self._client.on_connect_fail = self._on_connect_fail
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._thread = threading.Thread(target=self._run, name="hub-writer", daemon=True)

    def _load(self) -> None:
        """The views as the record left them (a restarted hub resumes where it stopped)."""
        for row in self.store.tables():
            view = TableView(row.name, row.record, row.last_id, row.status)
            if row.record is not None:
                for event in self.store.recent_events(row.name, row.record, 300):
                    view.apply(event)
                view.last_id = row.last_id
            if row.state is not None and row.state.get("record") == row.record:
                view.adopt(row.state)
            self.views[row.name] = view
            self._retired[row.name] = self.store.retired(row.name)

    # Life.
    def start(self) -> HubReceiver:
        self._client.connect_async(self.url.host, self.url.port, keepalive=KEEPALIVE_S)
        self._client.loop_start()
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._client.disconnect()
        self._client.loop_stop()

    @property
    def connected(self) -> bool:
        return self._connected

    # paho's thread.
    def _on_connect(self, client: Client, _: object, flags: ConnectFlags, reason: ReasonCode,
                    properties: Properties | None) -> None:
        if reason.is_failure:
            self._report.down(str(reason))
            return
        # Always (again): a broker restarted without its saved state has forgotten the session.
        client.subscribe([(self.topics.all_tables(kind), 1) for kind in KINDS])
        self._connected = True
        self._report.up()

    def _on_connect_fail(self, client: Client, _: object) -> None:
        self._report.down("no connection")

    def _on_disconnect(self, client: Client, _: object, flags: DisconnectFlags, reason: ReasonCode,
                       properties: Properties | None) -> None:
        self._connected = False
        if not self._stop.is_set():
            self._report.down(f"disconnected: {reason}")

    def _on_message(self, client: Client, _: object, message: MQTTMessage) -> None:
        parsed = self.topics.parse(message.topic)
        if parsed is None or parsed[1] not in KINDS:
            if message.qos:
                client.ack(message.mid, message.qos)
            return
        table, kind = parsed
        if kind == "frame":  # kept in memory only: the newest is all a live view needs
            index = self.frames.get(table, (0, b""))[0] + 1
            self.frames[table] = (index, bytes(message.payload))
            if message.qos:
                client.ack(message.mid, message.qos)
            return
        self._queue.put(_Message(table, kind, bytes(message.payload), message.mid, message.qos, time.time()))

    # The writer thread.
    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                messages = [self._queue.get(timeout=0.25)]
            except queue.Empty:
                messages = []
            while messages and len(messages) < self.batch:
                try:
                    messages.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                if messages:
                    self._record(messages)
                self._ask_for_gaps()
            except Exception:
                log.exception("hub: could not record %d message(s); they come again", len(messages))
                with self.lock:
                    self.views.clear()
                    self._load()

    def _record(self, messages: list[_Message]) -> None:
        batch = Batch()
        dirty: set[str] = set()
        with self.lock, self.store.transaction() as tx:
            for message in messages:
                try:
                    if message.kind == "events":
                        self._event(tx, message, batch, dirty)
                    elif message.kind == "state":
                        self._state(tx, message, batch)
                    elif message.kind == "status":
                        self._status(tx, message, batch)
                except (ValueError, TypeError, KeyError) as exc:
                    log.warning("hub: unreadable %s message from table %s dropped (%s)", message.kind,
                                message.table, exc)
            for name in dirty:
                view = self.views[name]
                tx.set_table(name, record=view.record, last_id=view.last_id, seen_at=time.time())
        for message in messages:
            if message.qos:
                self._client.ack(message.mid, message.qos)
        if self.on_batch is not None and (batch.events or batch.lines or batch.switched):
            self.on_batch(batch)

    def _view(self, tx: HubTransaction, table: str, record: str, batch: Batch) -> TableView | None:
        """The table's view following ``record``, or ``None`` when ``record`` is one it has left."""
        view = self.views.get(table)
        if view is None:
            view = self.views[table] = TableView(table)
            self._retired[table] = set()
        if view.record == record:
            return view
        if record in self._retired[table]:
            return None
        if view.record is not None:
            log.info("hub: table %s is on a fresh record; following it", table)
            tx.retire(table, view.record)
            self._retired[table].add(view.record)
            batch.switched.add(table)
        view.reset(record)
        self._held[table] = {}
        tx.set_table(table, record=record, last_id=0, seen_at=time.time())
        return view

    def _event(self, tx: HubTransaction, message: _Message, batch: Batch, dirty: set[str]) -> None:
        event = json.loads(message.payload)
        event_id = int(event["id"])
        view = self._view(tx, message.table, str(event["record"]), batch)
        if view is None:
            return
        if event_id <= view.last_id:
            self.duplicates += 1
            return
        held = self._held.setdefault(message.table, {})
        if event_id > view.last_id + 1:
            if event_id in held:
                self.duplicates += 1
            elif len(held) < HELD_MAX:
                held[event_id] = event
            view.known_last = max(view.known_last, event_id)
            return
        self._accept(tx, view, event, message.received_at, batch)
        while view.last_id + 1 in held:
            self._accept(tx, view, held.pop(view.last_id + 1), message.received_at, batch)
        dirty.add(message.table)

    def _accept(self, tx: HubTransaction, view: TableView, event: dict[str, Any], received_at: float,
                batch: Batch) -> None:
        assert view.record is not None
        if not tx.add_event(view.name, view.record, event, received_at):
            self.duplicates += 1  # recorded before the view knew (a restarted hub): keep the view in step
        alerts = view.apply(event)
        batch.events.append((view.name, event))
        self._line(tx, view, batch, kind=str(event.get("kind")), alerts=alerts, sent_at=event.get("sent_at"),
                   event_id=int(event["id"]))

    def _line(self, tx: HubTransaction, view: TableView, batch: Batch, *, kind: str,
              alerts: list[dict[str, Any]] | None = None, **extra: Any) -> None:
        shown = view.alert_lines(alerts or [])
        line = {"table": view.name, "kind": kind, "tile": view.tile(), "alerts": shown, **extra}
        batch.lines.append((tx.add_feed(view.name, len(shown), line), line))

    def _state(self, tx: HubTransaction, message: _Message, batch: Batch) -> None:
        snapshot = json.loads(message.payload)
        if not isinstance(snapshot, dict):
            raise ValueError("a state is a JSON object")
        view = self._view(tx, message.table, str(snapshot["record"]), batch)
        if view is None:
            return
        before = view.tile()
        view.adopt(snapshot)
        tx.set_state(message.table, snapshot)
        if view.tile() != before:
            self._line(tx, view, batch, kind="state")

    def _status(self, tx: HubTransaction, message: _Message, batch: Batch) -> None:
        status = message.payload.decode("utf-8", "replace").strip()[:20]
        view = self.views.get(message.table)
        if view is None:
            view = self.views[message.table] = TableView(message.table)
            self._retired[message.table] = set()
        if status == view.status:
            return
        view.status = status
        tx.set_status(message.table, status, time.time())
        self._line(tx, view, batch, kind="status")

    def _ask_for_gaps(self) -> None:
        """Ask each table with a gap that has lasted ``gap_grace_s`` to send again (now and then)."""
        if not self._connected:
            return
        now = time.monotonic()
        with self.lock:
            views = list(self.views.items())
        for name, view in views:
            if not (view.has_gap or self._held.get(name)) or view.record is None:
                view.gap_since = None
                continue
            if view.gap_since is None:
                view.gap_since = now
            if now - view.gap_since < self.gap_grace_s or now - view.resend_at < self.resend_every_s:
                continue
            view.resend_at = now
            self.resend_requests += 1
            log.info("hub: table %s has a gap after event %d; asking it to send again", name, view.last_id)
            request = json.dumps({"after": view.last_id, "record": view.record}).encode()
            self._client.publish(self.topics.of(name, "resend"), request, qos=1)
