"""Retried control POSTs count once: the ``Idempotency-Key`` header.

A client whose answer was lost (a dropped Wi-Fi, a timeout) cannot tell whether its play was
recorded; sent again with the same ``Idempotency-Key``, the request is not run again: the first answer
comes back (marked ``Idempotent-Replayed: true``) and nothing new is recorded.

The answers are kept in the match record (the store's ``replies`` table, a day long), so a retry is
recognised after a server restart too. A control that records something saves its answer in the
same transaction (:func:`answer_in_transaction`, handed to the session's write as ``also``), so a
process killed at any instant has either recorded the request and its answer, or neither; other
answers are saved once they have been sent. Answers of 500 and above are not kept (the request
may be retried for real). The same key on a different request (another path, query or body) is
refused with 422, and a retry that arrives while the first is still running with 409, so the two
can never both run.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi.encoders import jsonable_encoder
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from referee.session import AlsoInTransaction, Event
from referee.store import Store, StoredReply, StoreError, Transaction

__all__ = ["IdempotentReplies", "PendingReply", "answer_in_transaction"]

log = logging.getLogger(__name__)

_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")  # printable ASCII without spaces, as in most clients


def _fingerprint(scope: Scope, body: bytes) -> str:
    digest = hashlib.sha256()
    for part in (scope["method"].encode(), scope["path"].encode(), scope.get("query_string", b""),
                 body):
        digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


#: Where a keyed request's :class:`PendingReply` waits in its ASGI scope for the route to save it.
_SCOPE_KEY = "referee.idempotency"


@dataclass
class PendingReply:
    """A keyed request's answer to be saved: its key, its request's fingerprint, whether saved."""

    key: str
    fingerprint: str
    saved: bool = False

    def save(self, tx: Transaction, body: Any) -> None:
        """Save ``body`` (a response model or JSON-able value) as the 200 answer, inside ``tx``."""
        rendered = bytes(JSONResponse(jsonable_encoder(body)).body)
        tx.save_reply(self.key, StoredReply(self.fingerprint, 200, "application/json", rendered))
        self.saved = True


def answer_in_transaction(scope: Scope, answer: Callable[[Event], Any]) -> AlsoInTransaction | None:
    """For a request sent with an ``Idempotency-Key``: the ``also`` that saves ``answer(event)`` (the
    route's 200 answer, built from the event its write records) in that write's transaction;
    ``None`` for any other request."""
    pending = scope.get(_SCOPE_KEY)
    if not isinstance(pending, PendingReply):
        return None
    return lambda tx, event: pending.save(tx, answer(event))


class _Recorder:
    """Passes the app's answer on to the client and keeps a copy of it."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.status = 0
        self.media_type = "application/json"
        self.body = bytearray()
        self.complete = False

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = int(message["status"])
            for name, value in message.get("headers", []):
                if name.lower() == b"content-type":
                    self.media_type = value.decode("latin-1")
        elif message["type"] == "http.response.body":
            self.body += message.get("body", b"")
            self.complete = not message.get("more_body", False)
        await self._send(message)


class IdempotentReplies:
    """Runs a keyed request once and answers its retries from ``store``; see the module docstring."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._running: set[str] = set()

    async def handle(self, app: ASGIApp, scope: Scope, receive: Receive, send: Send, key: str,
                     body: bytes) -> None:
        """Answer a request carrying ``Idempotency-Key: key`` whose body is ``body``."""
        if not _KEY.match(key):
            await _refuse(422, "Idempotency-Key must be 1 to 200 printable ASCII characters, "
                          "without spaces", scope, receive, send)
            return
        if key in self._running:  # checked and taken with no await between: one runs at a time
            await _refuse(409, "a request with this Idempotency-Key is still running: retry "
                          "later", scope, receive, send)
            return
        self._running.add(key)
        try:
            fingerprint = _fingerprint(scope, body)
            try:
                stored = await asyncio.to_thread(self._store.reply, key)
            except StoreError as exc:  # out here the app's own 503 handler does not reach
                await _refuse(503, f"record unavailable: {exc}; nothing was recorded", scope,
                              receive, send)
                return
            if stored is not None:
                await self._replay(stored, fingerprint, scope, receive, send)
                return
            pending = PendingReply(key, fingerprint)
            recorder = _Recorder(send)
            await app({**scope, _SCOPE_KEY: pending}, receive, recorder.send)
            if recorder.complete and 0 < recorder.status < 500 and not pending.saved:
                reply = StoredReply(fingerprint, recorder.status, recorder.media_type,
                                    bytes(recorder.body))
                try:
                    await asyncio.to_thread(self._store.save_reply, key, reply)
                except StoreError as exc:
                    log.warning("answer to Idempotency-Key %r not kept: %s", key, exc)
        finally:
            self._running.discard(key)

    @staticmethod
    async def _replay(stored: StoredReply, fingerprint: str, scope: Scope, receive: Receive,
                      send: Send) -> None:
        if stored.fingerprint != fingerprint:
            await _refuse(422, "this Idempotency-Key was used for a different request: use a new "
                          "key for each request", scope, receive, send)
            return
        await Response(stored.body, status_code=stored.status, media_type=stored.media_type,
                       headers={"Idempotent-Replayed": "true"})(scope, receive, send)


async def _refuse(status: int, detail: str, scope: Scope, receive: Receive, send: Send) -> None:
    await JSONResponse({"detail": detail}, status_code=status)(scope, receive, send)
