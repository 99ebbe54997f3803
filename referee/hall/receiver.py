"""The hub's side of a hall: every table's messages from the broker into the hub's own record.

The receiver subscribes to ``PREFIX/+/events|state|status|frame`` with a persistent session (a
stable client id, ``clean_session=False``): while the hub is down the broker keeps what QoS 1 brought
for it. Messages are handed from paho's thread to one writer thread, which records a batch in one
transaction and only then acknowledges it to the broker (manual acks): a hub killed mid-batch is
sent that batch again.

Each message is judged alone, before anything is written: too big, not JSON (a 100 000-deep nesting
included), not the shape its topic carries, naming another table, or (with a hall key, see
:mod:`~referee.hall.proof`) not signed by its table: it is logged once per table and reason, counted
(:attr:`HubReceiver.dropped`, on ``/api/hall``), acknowledged and dropped, and never holds the messages
behind it. Each is then recorded under a savepoint of its own, so one that still fails takes nothing
else with it. Only the record itself failing (busy, disk full) holds a batch, which is then tried again
until it is recorded; nothing is acknowledged before.

A table's events are recorded strictly in id order, each once: a duplicate (an id already recorded)
is dropped, and one that arrives ahead of a gap is held until the gap is filled. A gap is noticed
from the ids, or from a table's retained state naming a newer event than the hub has (a table
publishes its state at least every 5 s, so lost last events are noticed too); when it lasts
``gap_grace_s``, the hub asks the table (``PREFIX/NAME/resend``) to send again from its last id, and
asks again whenever ``resend_every_s`` passes without the gap shrinking. So nothing is lost whatever
lost it: the broker (killed without saving, a queue that overflowed), the link, or the hub.

A table's record changes (a table restarted on a fresh record starts its ids at 1) only on a message
of the new record that is proven, when the hub proves messages, and sent after the newest it has of
the current one; without a hall key the hub trusts the broker to let only a table publish on its
topics (the shipped broker configuration's ACL does).
"""

from __future__ import annotations

import collections
import json
import logging
import queue
import sqlite3
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
from referee.hall.hub_store import HubStore, HubTransaction, TableRow
from referee.hall.message import DROP_REASONS, MAX_MESSAGE_BYTES, Drop, Message, judge
from referee.hall.proof import derive_table_key, sign
from referee.hall.topics import KINDS, Topics
from referee.hall.views import TableView

__all__ = ["DROP_REASONS", "MAX_FRAME_BYTES", "MAX_MESSAGE_BYTES", "Batch", "HubReceiver"]

_Message = Message  # the name the tests build messages by

log = logging.getLogger(__name__)

#: Events held per table while waiting for a gap to fill (more are dropped: they come again).
HELD_MAX = 5000
#: Tables a drop is said of, per reason (then only counted: a flood of names fills no log).
SAID_MAX = 100
#: The largest frame kept.
MAX_FRAME_BYTES = 4 << 20
#: Statuses kept for tables not yet proven (more are dropped: a flood of names fills no memory).
PENDING_MAX = 10_000


@dataclass
class Batch:
    """What one committed batch changed: accepted events per table, and the hall stream's new lines."""

    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    lines: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    switched: set[str] = field(default_factory=set)

    def merge(self, other: Batch) -> None:
        self.events.extend(other.events)
        self.lines.extend(other.lines)
        self.switched |= other.switched


def _store_trouble(exc: BaseException) -> bool:
    """The record failing (busy, full, gone), not the message: try again rather than drop."""
    return isinstance(exc, OSError | MemoryError) or (
        isinstance(exc, sqlite3.DatabaseError) and not isinstance(
            exc, sqlite3.IntegrityError | sqlite3.DataError | sqlite3.ProgrammingError | sqlite3.InterfaceError))


class HubReceiver:
    """Follows every table under ``topics`` on the broker at ``url`` into ``store``.

    ``on_batch`` is called (from the writer thread) after each committed batch. ``client_id`` names
    the hub's persistent session at the broker: keep it the same across restarts (two hubs on one
    broker need two ids). ``batch``: the most messages recorded in one transaction. ``hall_key``: prove
    every event and state by its table's key (:mod:`~referee.hall.proof`); ``None``: trust the broker.
    """

    def __init__(self, store: HubStore, url: BrokerUrl, *, topics: Topics | None = None,
                 client_id: str = "referee-hub", batch: int = 500, gap_grace_s: float = 1.0,
                 resend_every_s: float = 2.0, on_batch: Callable[[Batch], None] | None = None,
                 hall_key: bytes | None = None) -> None:
        self.store = store
        self.url = url
        self.topics = topics or Topics()
        self.batch = batch
        self.gap_grace_s = gap_grace_s
        self.resend_every_s = resend_every_s
        self.on_batch = on_batch
        self.hall_key = hall_key
        #: held while the views change; a reader that must see a table whole takes it too
        self.lock = threading.RLock()
        self.views: dict[str, TableView] = {}
        self.frames: dict[str, tuple[int, bytes]] = {}
        self.duplicates = 0
        self.resend_requests = 0
        #: messages dropped since start, by reason (:data:`DROP_REASONS`)
        self.dropped: collections.Counter[str] = collections.Counter({reason: 0 for reason in DROP_REASONS})
        self._said: set[tuple[str, str]] = set()
        #: the last status of each table not yet proven (proving): shown once the table proves a record
        self._pending_status: dict[str, str] = {}
        self._count_lock = threading.Lock()
        self._keys: dict[str, bytes] = {}
        self._held: dict[str, dict[int, dict[str, Any]]] = {}
        self._retired: dict[str, set[str]] = {}
        self._queue: queue.Queue[Message] = queue.Queue()
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
        self.views.clear()
        for row in self.store.tables():
            self.views[row.name] = self._view_from_row(row)
            self._retired[row.name] = self.store.retired(row.name)

    def _view_from_record(self, name: str) -> TableView:
        row = next((r for r in self.store.tables() if r.name == name), None)
        return TableView(name) if row is None else self._view_from_row(row)

    def _view_from_row(self, row: TableRow) -> TableView:
        view = TableView(row.name, row.record, row.last_id, row.status)
        if row.record is not None:
            for event in self.store.recent_events(row.name, row.record, 300):
                view.apply(event)
            view.last_id = row.last_id
        if row.state is not None and row.state.get("record") == row.record:
            view.adopt(row.state)
        return view

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

    @property
    def proving(self) -> bool:
        """Whether events and states must be signed by their table (a hall key was given)."""
        return self.hall_key is not None

    def counters(self) -> dict[str, Any]:
        """What the hub dropped and asked for, for ``/api/hall`` and ``/healthz``."""
        return {"proof": "hmac" if self.proving else "broker", "dropped": dict(self.dropped),
                "duplicates_dropped": self.duplicates, "resend_requests": self.resend_requests}

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
        try:
            parsed = self.topics.parse(message.topic)
        except UnicodeDecodeError:  # paho decodes the topic on access
            parsed = None
        if parsed is None or parsed[1] not in KINDS:
            self._count("?", "unreadable", "a topic that names no table")
        elif parsed[1] == "frame":  # kept in memory only: the newest is all a live view needs
            self._frame(parsed[0], bytes(message.payload))
        else:
            self._queue.put(Message(parsed[0], parsed[1], bytes(message.payload), message.mid, message.qos,
                                     time.time()))
            return
        if message.qos:
            client.ack(message.mid, message.qos)

    def _frame(self, table: str, jpeg: bytes) -> None:
        if len(jpeg) > MAX_FRAME_BYTES or not jpeg.startswith(b"\xff\xd8"):
            self._count(table, "unreadable", "a frame that is not a JPEG (or over 4 MB)")
            return
        if self.proving:
            view = self.views.get(table)
            if view is None or view.record is None:
                return  # not kept before the table proves a record (its next frame comes in seconds)
        index = self.frames.get(table, (0, b""))[0] + 1
        self.frames[table] = (index, jpeg)

    def _count(self, table: str, reason: str, detail: str) -> None:
        """Count a dropped message; say so once per table and reason."""
        with self._count_lock:
            self.dropped[reason] += 1
            said = sum(1 for _, r in self._said if r == reason)
            first = (table, reason) not in self._said and said < SAID_MAX
            if first:
                self._said.add((table, reason))
        if first and said == SAID_MAX - 1:
            log.warning("hub: %s messages of further tables are counted on /api/hall, not said", reason)
        if first:
            log.warning("hub: %s message from table %s dropped: %s (said once per table and reason; counted "
                        "on /api/hall)", reason, table, detail)

    # The writer thread.
    def _run(self) -> None:
        pending: list[Message] = []
        trouble = False
        while not self._stop.is_set():
            if not pending:
                try:
                    pending = [self._queue.get(timeout=0.25)]
                except queue.Empty:
                    pending = []
                while pending and len(pending) < self.batch:
                    try:
                        pending.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
            if pending:
                try:
                    self._record(pending)
                    pending, trouble = [], False
                except Exception as exc:
                    with self.lock:
                        self._load()  # what the views had taken of the failed batch is undone
                    if not _store_trouble(exc):  # not the record: a bug met by one of them; find it alone
                        log.exception("hub: a batch of %d message(s) failed; recording them one by one",
                                      len(pending))
                        pending = self._one_by_one(pending)
                    elif not trouble:
                        trouble = True
                        log.warning("hub: cannot write its record (%s); %d message(s) wait, unacknowledged, "
                                    "and are tried again every second", exc, len(pending))
                    if pending:
                        self._stop.wait(1.0)
            try:
                self._ask_for_gaps()
            except Exception:
                log.exception("hub: could not ask for a gap to be filled")

    def _one_by_one(self, messages: list[Message]) -> list[Message]:
        """Record each message alone; one that still fails (not for the record's sake) is dropped.
        Returns what is left when the record itself fails."""
        for index, message in enumerate(messages):
            try:
                self._record([message])
            except Exception as exc:
                with self.lock:
                    self._load()
                if _store_trouble(exc):
                    return messages[index:]
                self._count(message.table, "failed", f"{type(exc).__name__}: it cannot be recorded")
                self._ack([message])
        return []

    def _ack(self, messages: list[Message]) -> None:
        for message in messages:
            if message.qos:
                self._client.ack(message.mid, message.qos)

    def _record(self, messages: list[Message]) -> None:
        batch = Batch()
        with self.lock, self.store.transaction() as tx:
            for message in messages:
                try:
                    value = self._judge(message)
                except Drop as drop:
                    self._count(message.table, drop.reason, str(drop))
                    continue
                part = Batch()
                try:
                    with tx.savepoint():
                        if message.kind == "events":
                            self._event(tx, message.table, value, message.received_at, part)
                        elif message.kind == "state":
                            self._state(tx, message.table, value, part)
                        else:
                            self._status(tx, message.table, value, part)
                except Drop as drop:
                    self._count(message.table, drop.reason, str(drop))
                    continue
                except Exception as exc:
                    if _store_trouble(exc):
                        raise
                    log.debug("hub: %s message from table %s failed", message.kind, message.table, exc_info=True)
                    self._count(message.table, "failed", f"{type(exc).__name__}: {exc}"[:200])
                    # Its view may have taken part of it: rebuilt from the record as the savepoint left it.
                    self.views[message.table] = self._view_from_record(message.table)
                    continue
                batch.merge(part)
        self._ack(messages)
        if self.on_batch is not None and (batch.events or batch.lines or batch.switched):
            self.on_batch(batch)

    # Judging a message alone (no view, no record touched).
    def _key(self, table: str) -> bytes:
        assert self.hall_key is not None
        key = self._keys.get(table)
        if key is None:
            key = self._keys[table] = derive_table_key(self.hall_key, table)
        return key

    def _judge(self, message: Message) -> Any:
        """The message's content, checked (:func:`~referee.hall.message.judge`); raises :class:`Drop`."""
        return judge(message, None if self.hall_key is None else self._key)

    # Recording a judged message (inside the batch's transaction, under a savepoint of its own).
    def _view(self, tx: HubTransaction, table: str, value: dict[str, Any], batch: Batch) -> TableView:
        """The table's view following the message's record; raises :class:`Drop` for a record it has
        left, or (proving) one that is not newer than the current one."""
        record = str(value["record"])
        view = self.views.get(table)
        if view is None:
            view = self.views[table] = TableView(table)
            self._retired[table] = set()
        if view.record == record:
            return view
        if record in self._retired[table]:
            raise Drop("stale_record", "a record the table has left")
        if view.record is not None:
            sent_at = value.get("sent_at")
            if self.proving and not (isinstance(sent_at, int | float) and sent_at > view.sent_at):
                raise Drop("stale_record", "another record, not sent after the current one's newest message")
            log.info("hub: table %s is on a fresh record; following it", table)
            tx.retire(table, view.record)
            self._retired[table].add(view.record)
            batch.switched.add(table)
        view.reset(record)
        self._held[table] = {}
        tx.set_table(table, record=record, last_id=0, seen_at=time.time())
        pending = self._pending_status.pop(table, None)
        if pending is not None and pending != view.status:
            view.status = pending
            tx.set_status(table, pending, time.time())
        return view

    def _event(self, tx: HubTransaction, table: str, event: dict[str, Any], received_at: float,
               batch: Batch) -> None:
        event_id = int(event["id"])
        view = self._view(tx, table, event, batch)
        if event_id <= view.last_id:
            self.duplicates += 1
            return
        held = self._held.setdefault(table, {})
        if event_id > view.last_id + 1:
            if event_id in held:
                self.duplicates += 1
            elif len(held) < HELD_MAX:
                held[event_id] = event
                view.known_last = max(view.known_last, event_id)
            return
        self._accept(tx, view, event, received_at, batch)
        while view.last_id + 1 in held:
            self._accept(tx, view, held.pop(view.last_id + 1), received_at, batch)
        tx.set_table(table, record=view.record, last_id=view.last_id, seen_at=time.time())

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

    def _state(self, tx: HubTransaction, table: str, snapshot: dict[str, Any], batch: Batch) -> None:
        view = self._view(tx, table, snapshot, batch)
        before = view.tile()
        view.adopt(snapshot)
        tx.set_state(table, snapshot)
        if view.tile() != before:
            self._line(tx, view, batch, kind="state")

    def _status(self, tx: HubTransaction, table: str, status: str, batch: Batch) -> None:
        view = self.views.get(table)
        if self.proving and (view is None or view.record is None):
            if table not in self._pending_status and len(self._pending_status) >= PENDING_MAX:
                raise Drop("unproven", "a status of a table that has proven nothing yet")
            self._pending_status[table] = status  # shown once the table proves a record
            return
        if view is None:
            view = self.views[table] = TableView(table)
            self._retired[table] = set()
        if status == view.status:
            return
        view.status = status
        tx.set_status(table, status, time.time())
        self._line(tx, view, batch, kind="status")

    def _ask_for_gaps(self) -> None:
        """Ask each table with a gap that has lasted ``gap_grace_s`` to send again; ask again when the
        gap has not shrunk for ``resend_every_s`` (a table sending a long backlog is not asked twice)."""
        if not self._connected:
            return
        now = time.monotonic()
        with self.lock:
            views = list(self.views.items())
        for name, view in views:
            if not (view.has_gap or self._held.get(name)) or view.record is None:
                view.gap_since = None
                view.resend_from = -1
                continue
            if view.gap_since is None:
                view.gap_since = now
            if now - view.gap_since < self.gap_grace_s:
                continue
            if view.resend_from >= 0 and view.last_id > view.resend_from:
                view.resend_from, view.resend_at = view.last_id, now  # it is coming: wait on
                continue
            if now - view.resend_at < self.resend_every_s:
                continue
            view.resend_at, view.resend_from = now, view.last_id
            self.resend_requests += 1
            log.info("hub: table %s has a gap after event %d; asking it to send again", name, view.last_id)
            request = json.dumps({"after": view.last_id, "record": view.record}, separators=(",", ":")).encode()
            if self.hall_key is not None:
                request = sign(self._key(name), "resend", request)
            self._client.publish(self.topics.of(name, "resend"), request, qos=1)
