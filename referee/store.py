"""The record of a match: SQLite (WAL) tables for matches, rounds, observations, outputs and events.

Everything the referee is told (contract 2) and everything it says (contract 3) is written here, in
one transaction per observation, *before* anything is broadcast: a server killed mid-game restarts on
the same file and resumes the same match with nothing lost.

- ``matches``: one row per match (preset, seats, players' names, finished/winner).
- ``rounds``: one row per round of a match (the setup observation that began it, winner, points,
  scores after it), kept in step with the observations.
- ``observations``: ``(match_id, seq)`` -> ``t``, ``source``, the observation as JSON; an undone
  observation stays in the record with ``undone = 1`` and is left out of the replayable log.
- ``outputs``: the referee's output lines for each observation (``alerts`` is a view of them).
- ``events``: what was broadcast, with a global, monotonically increasing id (server-sent events
  resume from it).

- ``replies``: the answers to control requests sent with an ``Idempotency-Key`` (the web app's
  retried POSTs), kept a day, so a retry is answered from here even after a restart.
- ``meta``: small named values about the record itself (its identity, how far a publisher got:
  :mod:`referee.hall.publisher`).

A :class:`Store` is thread-safe: a writing connection guarded by a re-entrant lock, through which
every write goes (:meth:`Store.transaction`), and a reading connection with a lock of its own, so a
read never waits for a write (WAL lets readers go on beside a writer, in this process or another).
When SQLite cannot read or write the file (database locked past the busy timeout, disk full,
read-only, I/O error) the store raises :class:`StoreUnavailable`, so callers can tell "try again
later" from a bug.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from referee.store_rows import (
    REPLY_KEEP_S,
    MatchRow,
    StoredObservation,
    StoredReply,
    StoreError,
    StoreUnavailable,
    Transaction,
    immediate,
)

__all__ = ["MatchRow", "Store", "StoreError", "StoreUnavailable", "StoredObservation", "StoredReply",
           "Transaction", "immediate"]

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    rules       TEXT NOT NULL,
    players     INTEGER NOT NULL,
    names       TEXT NOT NULL DEFAULT '[]',
    finished    INTEGER NOT NULL DEFAULT 0,
    winner      INTEGER
);
CREATE TABLE IF NOT EXISTS rounds (
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    number      INTEGER NOT NULL,
    setup_seq   INTEGER NOT NULL,
    winner      INTEGER,
    points      INTEGER,
    scores      TEXT,
    PRIMARY KEY (match_id, number)
);
CREATE TABLE IF NOT EXISTS observations (
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    seq         INTEGER NOT NULL,
    t           REAL,
    source      TEXT NOT NULL,
    json        TEXT NOT NULL,
    undone      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seq)
);
CREATE TABLE IF NOT EXISTS outputs (
    match_id    INTEGER NOT NULL,
    seq         INTEGER NOT NULL,
    idx         INTEGER NOT NULL,
    type        TEXT NOT NULL,
    code        TEXT,
    seat        INTEGER,
    json        TEXT NOT NULL,
    PRIMARY KEY (match_id, seq, idx),
    FOREIGN KEY (match_id, seq) REFERENCES observations(match_id, seq)
);
CREATE VIEW IF NOT EXISTS alerts AS
    SELECT o.match_id, o.seq, o.idx, o.code, o.seat, o.json
    FROM outputs o JOIN observations b ON b.match_id = o.match_id AND b.seq = o.seq
    WHERE o.type = 'alert' AND b.undone = 0;
CREATE TABLE IF NOT EXISTS events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id    INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    json        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS replies (
    key         TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    status      INTEGER NOT NULL,
    media_type  TEXT NOT NULL,
    body        BLOB NOT NULL,
    created     INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER))
);
CREATE TABLE IF NOT EXISTS meta (
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL
);
"""

#: How long a write waits for a lock held by another connection before giving up (seconds): a
#: control answers 503 within a second rather than hanging while another process holds the record.
BUSY_TIMEOUT_S = 0.5

Synchronous = Literal["OFF", "NORMAL", "FULL", "EXTRA"]


def _unavailable(exc: BaseException) -> bool:
    """An error of the file or its surroundings, not of the program (constraint, misuse)."""
    return isinstance(exc, sqlite3.OperationalError) or type(exc) is sqlite3.DatabaseError


@contextmanager
def _reporting(path: str, doing: str) -> Iterator[None]:
    """Turn SQLite's errors of the file into :class:`StoreUnavailable` naming what failed."""
    try:
        yield
    except sqlite3.Error as exc:
        if not _unavailable(exc):
            raise
        log.error("match record %s: cannot %s: %s", path, doing, exc)
        raise StoreUnavailable(f"the match record cannot {doing} now ({exc})") from exc


class Store:
    """SQLite record of matches; ``path`` is a file (WAL journal) or ``":memory:"``.

    ``synchronous="FULL"`` (default) syncs every commit, so an acknowledged observation survives a
    power cut as well as a killed process; ``"NORMAL"`` survives a killed process only.
    ``busy_timeout_s`` is how long a write waits for a lock held by another connection before
    :class:`StoreUnavailable`. Reads go through a connection of their own and never wait for a
    write (an in-memory store has one connection only: nothing else can lock it).
    """

    def __init__(self, path: Path | str, *, synchronous: Synchronous = "FULL",
                 busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self.path = str(path)
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"unknown synchronous mode: {synchronous!r}")
        self._lock = threading.RLock()
        # isolation_level=None: transactions are explicit (BEGIN IMMEDIATE ... COMMIT).
        self._conn = sqlite3.connect(
            self.path, check_same_thread=False, isolation_level=None, timeout=busy_timeout_s
        )
        self._conn.row_factory = sqlite3.Row
        with self._lock:
            if self.path != ":memory:":
                mode = self._conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    log.warning("SQLite journal mode is %s, not WAL, for %s", mode, self.path)
            self._conn.execute(f"PRAGMA synchronous={synchronous}")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._conn.executescript(_SCHEMA)
            version = int(self._conn.execute("PRAGMA user_version").fetchone()[0])
            if version == 0:
                self._conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            elif version != SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: schema version {version}, this program writes {SCHEMA_VERSION}"
                )
        self._read_lock = self._lock
        self._reader = self._conn
        if self.path != ":memory:":
            self._read_lock = threading.RLock()
            self._reader = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                           timeout=busy_timeout_s)
            self._reader.row_factory = sqlite3.Row

    def close(self) -> None:
        with self._read_lock:
            if self._reader is not self._conn:
                self._reader.close()
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def journal_mode(self) -> str:
        with self._lock, _reporting(self.path, "be read"):
            return str(self._conn.execute("PRAGMA journal_mode").fetchone()[0]).lower()

    def checkpoint(self) -> bool:
        """Fold the write-ahead log into the database file, so the file alone holds every commit
        (a clean stop does this; a copy of the .db then needs no -wal beside it). Returns whether
        the whole log was folded (a reader elsewhere can hold part of it back)."""
        with self._lock, _reporting(self.path, "be checkpointed"):
            busy = self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        return not busy

    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """One atomic write: everything inside is committed together or not at all."""
        with self._lock, _reporting(self.path, "be written"), immediate(self._conn):
            yield Transaction(self._conn)

    # Reads.
    def _rows(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        with self._read_lock, _reporting(self.path, "be read"):
            return list(self._reader.execute(sql, params).fetchall())

    def match(self, match_id: int) -> MatchRow:
        rows = self._rows("SELECT * FROM matches WHERE id = ?", (match_id,))
        if not rows:
            raise StoreError(f"no match {match_id} in {self.path}")
        return _match_row(rows[0])

    def matches(self) -> list[MatchRow]:
        return [_match_row(r) for r in self._rows("SELECT * FROM matches ORDER BY id")]

    def latest_open_match(self) -> int | None:
        """The newest match that has not finished, if any."""
        rows = self._rows("SELECT id FROM matches WHERE finished = 0 ORDER BY id DESC LIMIT 1")
        return int(rows[0]["id"]) if rows else None

    def observations(self, match_id: int, *, include_undone: bool = False) -> list[StoredObservation]:
        sql = "SELECT seq, t, source, json, undone FROM observations WHERE match_id = ?"
        if not include_undone:
            sql += " AND undone = 0"
        return [
            StoredObservation(
                seq=int(r["seq"]),
                t=r["t"],
                source=str(r["source"]),
                observation=json.loads(r["json"]),
                undone=bool(r["undone"]),
            )
            for r in self._rows(sql + " ORDER BY seq", (match_id,))
        ]

    def outputs(self, match_id: int, *, include_undone: bool = False) -> list[tuple[int, dict[str, Any]]]:
        """``(seq, output line)`` for every output of the match, in order."""
        sql = (
            "SELECT o.seq, o.json FROM outputs o JOIN observations b"
            " ON b.match_id = o.match_id AND b.seq = o.seq WHERE o.match_id = ?"
        )
        if not include_undone:
            sql += " AND b.undone = 0"
        rows = self._rows(sql + " ORDER BY o.seq, o.idx", (match_id,))
        return [(int(r["seq"]), json.loads(r["json"])) for r in rows]

    def alerts(self, match_id: int) -> list[tuple[int, dict[str, Any]]]:
        rows = self._rows(
            "SELECT seq, json FROM alerts WHERE match_id = ? ORDER BY seq, idx", (match_id,)
        )
        return [(int(r["seq"]), json.loads(r["json"])) for r in rows]

    def rounds(self, match_id: int) -> list[dict[str, Any]]:
        rows = self._rows("SELECT * FROM rounds WHERE match_id = ? ORDER BY number", (match_id,))
        return [
            {
                "number": int(r["number"]),
                "setup_seq": int(r["setup_seq"]),
                "winner": r["winner"],
                "points": r["points"],
                "scores": None if r["scores"] is None else json.loads(r["scores"]),
            }
            for r in rows
        ]

    def last_event_id(self) -> int:
        rows = self._rows("SELECT COALESCE(MAX(id), 0) AS last FROM events")
        return int(rows[0]["last"])

    def events_since(self, event_id: int, limit: int | None = None) -> list[dict[str, Any]]:
        """Events with an id above ``event_id``, oldest first, each with its ``id`` and ``kind``."""
        sql = "SELECT id, kind, json FROM events WHERE id > ? ORDER BY id"
        params: list[object] = [event_id]
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        out = []
        for r in self._rows(sql, params):
            event = json.loads(r["json"])
            event["id"] = int(r["id"])
            event["kind"] = str(r["kind"])
            out.append(event)
        return out


    # Named values about the record.
    def meta(self, key: str) -> str | None:
        """The value recorded under ``key`` in the ``meta`` table, if any."""
        rows = self._rows("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0]["value"]) if rows else None

    def set_meta(self, key: str, value: str) -> None:
        """Record ``value`` under ``key`` (replacing what was there)."""
        with self.transaction():
            self._conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # Replies to retried requests.
    def reply(self, key: str) -> StoredReply | None:
        """The reply recorded under ``key`` (younger than :data:`REPLY_KEEP_S`), if any."""
        rows = self._rows(
            "SELECT fingerprint, status, media_type, body FROM replies WHERE key = ?"
            " AND created >= CAST(strftime('%s', 'now') AS INTEGER) - ?", (key, REPLY_KEEP_S))
        if not rows:
            return None
        r = rows[0]
        return StoredReply(str(r["fingerprint"]), int(r["status"]), str(r["media_type"]),
                           bytes(r["body"]))

    def save_reply(self, key: str, reply: StoredReply) -> None:
        """Record the reply under ``key`` in a transaction of its own (:meth:`Transaction.save_reply`)."""
        with self.transaction() as tx:
            tx.save_reply(key, reply)


def _match_row(r: sqlite3.Row) -> MatchRow:
    return MatchRow(
        id=int(r["id"]),
        created_at=str(r["created_at"]),
        rules=str(r["rules"]),
        players=int(r["players"]),
        names=tuple(json.loads(r["names"])),
        finished=bool(r["finished"]),
        winner=r["winner"],
    )
