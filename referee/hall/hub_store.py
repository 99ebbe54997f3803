"""The hub's own record (SQLite, WAL): what it received from every table, so a restarted hub loses
nothing and serves the same pages.

- ``tables``: one row per table: the record it follows (a table's ``record`` identity), how far that
  record has arrived without a gap (``last_id``), its ``status`` and its last retained ``state``.
- ``retired``: records a table has left (it was restarted on a fresh record); late messages of
  those are ignored.
- ``events``: every event as the table sent it, keyed by ``(table, record, id)``: a duplicate
  (at-least-once delivery, a resend) is dropped by the key.
- ``feed``: the hall's own stream (``/api/hall/events``): one line per change a hall page shows (a
  table's tile after an event or a status change, with the alerts it brought), numbered by ``hid``.

Writes go through :meth:`HubStore.transaction`, one per batch of messages; the hub acknowledges a
batch to the broker only after it is committed. ``synchronous=NORMAL``: a killed hub loses nothing
committed (a power cut may lose the last batches, which the tables send again on request).
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.store import immediate

__all__ = ["HubStore", "HubTransaction", "TableRow"]

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name        TEXT PRIMARY KEY,
    record      TEXT,
    last_id     INTEGER NOT NULL DEFAULT 0,
    status      TEXT NOT NULL DEFAULT 'unknown',
    state       TEXT,
    seen_at     REAL
);
CREATE TABLE IF NOT EXISTS retired (
    name        TEXT NOT NULL,
    record      TEXT NOT NULL,
    PRIMARY KEY (name, record)
);
CREATE TABLE IF NOT EXISTS events (
    name        TEXT NOT NULL,
    record      TEXT NOT NULL,
    id          INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    json        TEXT NOT NULL,
    received_at REAL NOT NULL,
    PRIMARY KEY (name, record, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS feed (
    hid         INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT NOT NULL,
    alerts      INTEGER NOT NULL DEFAULT 0,
    json        TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS feed_alerts ON feed (alerts, hid);
"""


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


@dataclass(frozen=True)
class TableRow:
    """A table as the hub has recorded it."""

    name: str
    record: str | None
    last_id: int
    status: str
    state: dict[str, Any] | None
    seen_at: float | None


class HubTransaction:
    """Writes inside one transaction of :meth:`HubStore.transaction`."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """The writes of one message: undone alone when it fails, the batch's others kept."""
        self._conn.execute("SAVEPOINT message")
        try:
            yield
        except BaseException:
            if self._conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("ROLLBACK TO message")
                    self._conn.execute("RELEASE message")
            raise
        self._conn.execute("RELEASE message")

    def add_event(self, name: str, record: str, event: dict[str, Any], received_at: float) -> bool:
        """Record ``event`` (it has an ``id``); ``False`` when it was recorded before (a duplicate)."""
        cur = self._conn.execute(
            "INSERT OR IGNORE INTO events (name, record, id, kind, json, received_at) VALUES (?, ?, ?, ?, ?, ?)",
            (name, record, int(event["id"]), str(event.get("kind", "")), _dumps(event), received_at))
        return cur.rowcount == 1

    def set_table(self, name: str, *, record: str | None, last_id: int, seen_at: float) -> None:
        self._conn.execute(
            "INSERT INTO tables (name, record, last_id, seen_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT(name) DO UPDATE SET record = excluded.record, last_id = excluded.last_id,"
            " seen_at = excluded.seen_at", (name, record, last_id, seen_at))

    def set_status(self, name: str, status: str, seen_at: float) -> None:
        self._conn.execute(
            "INSERT INTO tables (name, status, seen_at) VALUES (?, ?, ?)"
            " ON CONFLICT(name) DO UPDATE SET status = excluded.status, seen_at = excluded.seen_at",
            (name, status, seen_at))

    def set_state(self, name: str, state: dict[str, Any]) -> None:
        self._conn.execute(
            "INSERT INTO tables (name, state) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET state = excluded.state",
            (name, _dumps(state)))

    def retire(self, name: str, record: str) -> None:
        self._conn.execute("INSERT OR IGNORE INTO retired (name, record) VALUES (?, ?)", (name, record))

    def add_feed(self, name: str, alerts: int, line: dict[str, Any]) -> int:
        """Append a line to the hall's stream; returns its ``hid``."""
        cur = self._conn.execute("INSERT INTO feed (name, alerts, json) VALUES (?, ?, ?)",
                                 (name, alerts, _dumps(line)))
        assert cur.lastrowid is not None
        return int(cur.lastrowid)


class HubStore:
    """The hub's SQLite record at ``path`` (a file, or ``":memory:"``); thread-safe."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self._lock = threading.RLock()
        self._closed = False
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10)
        self._conn.row_factory = sqlite3.Row
        with self._lock:
            if self.path != ":memory:":
                self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.executescript(_SCHEMA)

    def close(self) -> None:
        """Checkpoint the write-ahead log into the record and close it: no ``-wal`` file is left. A
        checkpoint that cannot finish (another process reading the record) is said, not hidden."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                busy = self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                if busy is not None and busy[0]:
                    log.warning("hub: the record %s could not be checkpointed (another process reads it); "
                                "its -wal file stays until the next start", self.path)
            except sqlite3.Error as exc:
                log.warning("hub: the record %s could not be checkpointed: %s", self.path, exc)
            self._conn.close()

    @contextmanager
    def transaction(self) -> Iterator[HubTransaction]:
        """One atomic write."""
        with self._lock, immediate(self._conn):
            yield HubTransaction(self._conn)

    def _rows(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return list(self._conn.execute(sql, params).fetchall())

    # Reads.
    def tables(self) -> list[TableRow]:
        return [TableRow(name=str(r["name"]), record=r["record"], last_id=int(r["last_id"]), status=str(r["status"]),
                         state=json.loads(r["state"]) if r["state"] else None, seen_at=r["seen_at"])
                for r in self._rows("SELECT * FROM tables ORDER BY name")]

    def retired(self, name: str) -> set[str]:
        return {str(r["record"]) for r in self._rows("SELECT record FROM retired WHERE name = ?", (name,))}

    def events_after(self, name: str, record: str, after: int, limit: int = 500) -> list[dict[str, Any]]:
        """A table's events of ``record`` with an id above ``after``, oldest first."""
        rows = self._rows("SELECT json FROM events WHERE name = ? AND record = ? AND id > ? ORDER BY id LIMIT ?",
                          (name, record, after, limit))
        return [json.loads(r["json"]) for r in rows]

    def recent_events(self, name: str, record: str, limit: int) -> list[dict[str, Any]]:
        """A table's newest ``limit`` events of ``record``, oldest first."""
        rows = self._rows("SELECT json FROM events WHERE name = ? AND record = ? ORDER BY id DESC LIMIT ?",
                          (name, record, limit))
        return [json.loads(r["json"]) for r in reversed(rows)]

    def event_ids(self, name: str, record: str | None = None) -> list[int]:
        """Ids recorded for a table (its current or given record), in order: for checks and benchmarks."""
        if record is None:
            rows = self._rows("SELECT record FROM tables WHERE name = ?", (name,))
            record = rows[0]["record"] if rows else None
        return [int(r["id"]) for r in self._rows(
            "SELECT id FROM events WHERE name = ? AND record = ? ORDER BY id", (name, record))]

    def last_hid(self) -> int:
        return int(self._rows("SELECT COALESCE(MAX(hid), 0) AS last FROM feed")[0]["last"])

    def feed_after(self, hid: int, limit: int = 500) -> list[tuple[int, str]]:
        """``(hid, line JSON)`` of the hall's stream after ``hid``, oldest first."""
        rows = self._rows("SELECT hid, json FROM feed WHERE hid > ? ORDER BY hid LIMIT ?", (hid, limit))
        return [(int(r["hid"]), str(r["json"])) for r in rows]

    def recent_alert_lines(self, limit: int) -> list[dict[str, Any]]:
        """The newest ``limit`` lines of the hall's stream that brought alerts, oldest first."""
        rows = self._rows("SELECT hid, json FROM feed WHERE alerts > 0 ORDER BY hid DESC LIMIT ?", (limit,))
        out = []
        for r in reversed(rows):
            line = json.loads(r["json"])
            line["id"] = int(r["hid"])
            out.append(line)
        return out
