"""The record's rows and the transaction that writes them (:mod:`referee.store` opens the file and reads).

The rows a read returns (:class:`MatchRow`, :class:`StoredObservation`, :class:`StoredReply`), the errors
of the record, and :class:`Transaction`: every write, inside one ``BEGIN IMMEDIATE`` ... ``COMMIT``
(:func:`immediate`).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

__all__ = ["REPLY_KEEP_S", "MatchRow", "StoreError", "StoreUnavailable", "StoredObservation", "StoredReply",
           "Transaction", "dumps", "immediate"]

#: How long an idempotent reply is kept (seconds): far longer than any client retries.
REPLY_KEEP_S = 24 * 3600


class StoreError(RuntimeError):
    """The record cannot be read or written as asked (unknown match, nothing to undo...)."""


class StoreUnavailable(StoreError):
    """SQLite cannot use the file now (locked elsewhere, disk full, read-only, I/O error); nothing of
    the failed operation was written, and trying again later may succeed."""


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One match as recorded."""

    id: int
    created_at: str
    rules: str
    players: int
    names: tuple[str, ...]
    finished: bool
    winner: int | None


@dataclass(frozen=True, slots=True)
class StoredObservation:
    """One observation as recorded: its place in the match, when and where from, and the object."""

    seq: int
    t: float | None
    source: str
    observation: dict[str, Any]
    undone: bool = False


@dataclass(frozen=True, slots=True)
class StoredReply:
    """The first answer to a request sent with an idempotency key, and what that request was."""

    fingerprint: str
    status: int
    media_type: str
    body: bytes


def dumps(value: object) -> str:
    """Compact JSON as the record stores it (NaN refused)."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False, sort_keys=False)


@contextmanager
def immediate(conn: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any error (the caller holds the connection's lock)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            # SQLite may have rolled back already (disk full); a failing rollback must not hide the
            # error that caused it.
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise


class Transaction:
    """Writes inside one SQLite transaction; obtained from :meth:`Store.transaction`."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def create_match(self, rules: str, players: int, names: Sequence[str]) -> int:
        cur = self._conn.execute(
            "INSERT INTO matches (rules, players, names) VALUES (?, ?, ?)",
            (rules, players, dumps(list(names))),
        )
        assert cur.lastrowid is not None
        return int(cur.lastrowid)

    def set_names(self, match_id: int, names: Sequence[str]) -> None:
        self._conn.execute(
            "UPDATE matches SET names = ? WHERE id = ?", (dumps(list(names)), match_id)
        )

    def set_finished(self, match_id: int, finished: bool, winner: int | None = None) -> None:
        self._conn.execute(
            "UPDATE matches SET finished = ?, winner = ? WHERE id = ?",
            (int(finished), winner, match_id),
        )

    def add_observation(
        self, match_id: int, observation: Mapping[str, Any], source: str
    ) -> int:
        """Append an observation to the match; returns its ``seq`` (never reused, even after undo)."""
        row = self._conn.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM observations WHERE match_id = ?", (match_id,)
        ).fetchone()
        seq = int(row[0]) + 1
        t = observation.get("t")
        self._conn.execute(
            "INSERT INTO observations (match_id, seq, t, source, json) VALUES (?, ?, ?, ?, ?)",
            (
                match_id,
                seq,
                float(t) if isinstance(t, int | float) and not isinstance(t, bool) else None,
                source,
                dumps(dict(observation)),
            ),
        )
        return seq

    def add_outputs(self, match_id: int, seq: int, outputs: Sequence[Mapping[str, Any]]) -> None:
        self._conn.executemany(
            "INSERT INTO outputs (match_id, seq, idx, type, code, seat, json)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    match_id,
                    seq,
                    idx,
                    str(out.get("type", "")),
                    out.get("code") if isinstance(out.get("code"), str) else None,
                    out.get("seat") if isinstance(out.get("seat"), int) else None,
                    dumps(dict(out)),
                )
                for idx, out in enumerate(outputs)
            ],
        )

    def mark_undone(self, match_id: int, seq: int) -> None:
        cur = self._conn.execute(
            "UPDATE observations SET undone = 1 WHERE match_id = ? AND seq = ? AND undone = 0",
            (match_id, seq),
        )
        if cur.rowcount != 1:
            raise StoreError(f"no active observation {seq} in match {match_id}")

    def set_rounds(self, match_id: int, rounds: Sequence[Mapping[str, Any]]) -> None:
        """Replace the match's rounds (``number``, ``setup_seq``, ``winner``, ``points``, ``scores``)."""
        self._conn.execute("DELETE FROM rounds WHERE match_id = ?", (match_id,))
        self._conn.executemany(
            "INSERT INTO rounds (match_id, number, setup_seq, winner, points, scores)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                (
                    match_id,
                    r["number"],
                    r["setup_seq"],
                    r.get("winner"),
                    r.get("points"),
                    None if r.get("scores") is None else dumps(r["scores"]),
                )
                for r in rounds
            ],
        )

    def add_event(self, match_id: int, kind: str, payload: Mapping[str, Any]) -> int:
        """Record a broadcast event; returns its id (global, increasing)."""
        cur = self._conn.execute(
            "INSERT INTO events (match_id, kind, json) VALUES (?, ?, ?)",
            (match_id, kind, dumps(dict(payload))),
        )
        assert cur.lastrowid is not None
        return int(cur.lastrowid)

    def save_reply(self, key: str, reply: StoredReply) -> None:
        """Record the answer to a request sent under ``key`` (the first one stays), and forget answers
        past their day. Written in the transaction that records what the request did, a retry finds
        it exactly when the request's change was committed."""
        self._conn.execute(
            "DELETE FROM replies WHERE created < CAST(strftime('%s', 'now') AS INTEGER) - ?",
            (REPLY_KEEP_S,))
        self._conn.execute(
            "INSERT OR IGNORE INTO replies (key, fingerprint, status, media_type, body)"
            " VALUES (?, ?, ?, ?, ?)",
            (key, reply.fingerprint, reply.status, reply.media_type, reply.body))
