"""The door in front of the web app: the admin token, body sizes, finite JSON, retried POSTs.

FastAPI reads and parses a request's body before any dependency runs, so a token checked in a
dependency comes too late: a stranger's 200 MB body would be parsed first. :class:`RequestGuard` is a
plain ASGI middleware that runs before all of that. On a control path it checks the token from the
headers alone (401 without reading a byte of the body), refuses a body over its path's limit (413,
from ``Content-Length`` when declared, else as the bytes arrive), and refuses JSON holding a number
that is not finite (422: ``NaN``, ``Infinity``, ``1e400``), which Python's parser would let through
and no JSON answer could echo back. Then it hands the buffered body on, through
:class:`~referee.web.idempotency.IdempotentReplies` when the request carries an ``Idempotency-Key``.
Open paths (pages, views, streams) read no body; only a declared oversized one is refused there.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Collection, Mapping

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from referee.rules.replay import FINITE_JSON, NonFiniteNumber
from referee.web.idempotency import IdempotentReplies

__all__ = ["ADMIN_TOKEN_REQUIRED", "RequestGuard", "json_problem", "supplied_token", "token_matches"]

ADMIN_TOKEN_REQUIRED = ("admin token required: send 'Authorization: Bearer <token>' or "
                        "'X-Admin-Token: <token>'")


def supplied_token(authorization: str | None, x_admin_token: str | None) -> str | None:
    """The token a request offers: ``X-Admin-Token``, else a bearer ``Authorization``."""
    if x_admin_token is not None:
        return x_admin_token
    if authorization is None:
        return None
    scheme, _, value = authorization.partition(" ")
    return value.strip() if scheme.lower() == "bearer" else None


def token_matches(supplied: str | None, token: str) -> bool:
    """Whether ``supplied`` is the admin token (compared in constant time)."""
    return supplied is not None and secrets.compare_digest(supplied.encode(), token.encode())


def json_problem(body: bytes) -> str | None:
    """Why ``body`` cannot be taken as JSON numbers we can store and echo, or ``None`` (malformed
    JSON is left to the app's own parser, which reports it)."""
    try:
        # Decoded as json.loads decodes bytes (UTF-8, -16 or -32), read as `referee replay` reads a line.
        FINITE_JSON.decode(body.decode(json.detect_encoding(body), "surrogatepass"))
    except NonFiniteNumber as exc:
        return f"every number must be finite: {exc}"
    except RecursionError:
        return "the JSON body is nested too deeply"
    except ValueError:
        return None
    return None


def _is_json(content_type: str | None) -> bool:
    """Whether the app will parse the body as JSON (FastAPI does when no type is given too)."""
    if not content_type:
        return True
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


class _Disconnected(Exception):
    """The client went away while its body was being read."""


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole body, or ``None`` as soon as it passes ``limit`` bytes (the rest is not read)."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] != "http.request":
            raise _Disconnected
        body += message.get("body", b"")
        if len(body) > limit:
            return None
        if not message.get("more_body", False):
            return bytes(body)


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` once, then whatever the client sends (a disconnect)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


class RequestGuard:
    """ASGI middleware guarding ``admin_paths``; see the module's docstring.

    ``body_limits`` gives a path its own body limit (the hand photo), ``body_limit`` every other.
    """

    def __init__(self, app: ASGIApp, *, token: str, admin_paths: Collection[str], body_limit: int,
                 body_limits: Mapping[str, int] | None = None,
                 replies: IdempotentReplies | None = None) -> None:
        self.app = app
        self._token = token
        self._admin_paths = frozenset(admin_paths)
        self._body_limit = body_limit
        self._body_limits = dict(body_limits or {})
        self._replies = replies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        path = scope["path"]
        admin = path in self._admin_paths
        if admin and not token_matches(
                supplied_token(headers.get("authorization"), headers.get("x-admin-token")),
                self._token):
            await JSONResponse({"detail": ADMIN_TOKEN_REQUIRED}, status_code=401,
                               headers={"WWW-Authenticate": "Bearer"})(scope, receive, send)
            return
        limit = self._body_limits.get(path, self._body_limit)
        declared = headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _too_large(limit, scope, receive, send)
            return
        if not admin:
            await self.app(scope, receive, send)
            return
        try:
            body = await _read_body(receive, limit)
        except _Disconnected:
            return
        if body is None:
            await _too_large(limit, scope, receive, send)
            return
        problem = json_problem(body) if body and _is_json(headers.get("content-type")) else None
        if problem is not None:
            await JSONResponse({"detail": f"request refused: {problem}"},
                               status_code=422)(scope, receive, send)
            return
        replay = _replaying(body, receive)
        key = headers.get("idempotency-key")
        if key is not None and scope["method"] == "POST" and self._replies is not None:
            await self._replies.handle(self.app, scope, replay, send, key, body)
        else:
            await self.app(scope, replay, send)


async def _too_large(limit: int, scope: Scope, receive: Receive, send: Send) -> None:
    size = f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit // 1024} KB"
    await JSONResponse({"detail": f"request body too large: at most {size}"},
                       status_code=413, headers={"Connection": "close"})(scope, receive, send)
