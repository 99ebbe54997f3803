"""The web side: dashboard, OBS overlay, MJPEG live view, JSON state, server-sent events, controls.

``create_app(session, token=...)`` builds a FastAPI app around one :class:`MatchSession`; nothing
lives at module level. Viewing is open; every control needs the admin token (``Authorization:
Bearer <token>`` or ``X-Admin-Token``), checked by :class:`~referee.web.guard.RequestGuard` before
the body is read, which also caps bodies, refuses non-finite JSON numbers and answers retried POSTs
(``Idempotency-Key``, :mod:`referee.web.idempotency`). The routes live in one module per concern, each
adding its own to the app: what anyone may see (:mod:`referee.web.views`), the controls
(:mod:`referee.web.controls`), ``/teach``, ``/calibrate``, ``/camera``, the instant replays and the
words. (Not ``APIRouter``: FastAPI 0.16x keeps an included router as one lazy entry of ``app.routes``,
which the guard's list of controls and the tests walk.)
A record that cannot be written is a 503.

Events reach browsers through :class:`EventHub`: the session calls the hub's listener from whatever
thread submitted the observation; the listener only schedules the event on the server's event loop,
which appends it to each client's bounded buffer. A client whose buffer fills (a slow reader) is
switched to catching up from the store, so it costs the pipeline nothing and misses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute

from referee.cards import DECKS
from referee.clips import ClipStore
from referee.rules import ObservationError
from referee.session import Event, MatchSession, RefereeFailure
from referee.store import Store, StoreError, StoreUnavailable
from referee.vision.phone import MAX_FRAME_BYTES, PhoneLink
from referee.web.calibrate import LiveTable, register_calibrate
from referee.web.camera import CAMERA_FRAME_PATH, register_camera
from referee.web.controls import ADMIN, MULTIPART_SLACK, read_upload, register_controls, require_admin
from referee.web.fanout import Fanout
from referee.web.guard import RequestGuard
from referee.web.hands import DetectorLoader, HandReader, model_loader
from referee.web.idempotency import IdempotentReplies
from referee.web.language import register_words
from referee.web.replay import register_replay
from referee.web.teach import DECK_PHOTO_PATH, register_teach
from referee.web.views import EVENT_ID_LIMIT as EVENT_ID_LIMIT
from referee.web.views import MJPEG_BOUNDARY as MJPEG_BOUNDARY
from referee.web.views import NO_FOREIGN_FRAMES as NO_FOREIGN_FRAMES
from referee.web.views import load_assets, mjpeg_part, page, register_views

__all__ = ["EventHub", "create_app", "load_assets", "make_server", "mjpeg_part", "serve"]

log = logging.getLogger(__name__)

#: The largest hand photo accepted (bytes).
MAX_PHOTO_BYTES = 8 * 1024 * 1024
#: The largest JSON body a control accepts (bytes): a reveal of 120 cards is about 4 KB.
MAX_JSON_BYTES = 256 * 1024


# Event fan-out.
def encode_event(event: Mapping[str, Any]) -> bytes:
    """One server-sent event: ``id`` is the event's id, ``data`` its JSON (one line)."""
    data = json.dumps(event, separators=(",", ":"), allow_nan=False)
    return f"id: {event['id']}\ndata: {data}\n\n".encode()


class EventHub(Fanout):
    """Fans a session's events out to SSE clients (:class:`~referee.web.fanout.Fanout` over the store's
    events): the session's listener, on any thread, hands each event to the server's event loop."""

    def __init__(self, session: MatchSession, *, buffer_size: int = 256,
                 keepalive_s: float = 15.0) -> None:
        super().__init__(lambda after, limit: [(int(e["id"]), encode_event(e))
                                               for e in session.store.events_since(after, limit)],
                         session.store.last_event_id, buffer_size=buffer_size, keepalive_s=keepalive_s)
        self.session = session
        self._loop: asyncio.AbstractEventLoop | None = None
        self._remove_listener: Callable[[], None] | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._remove_listener = self.session.add_listener(self._from_any_thread)

    def close(self) -> None:
        """Stop: every open stream ends (clients reconnect elsewhere or later and resume)."""
        if self._remove_listener is not None:
            self._remove_listener()
            self._remove_listener = None
        super().close()

    def _from_any_thread(self, event: Event) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop is shutting down
            loop.call_soon_threadsafe(self.publish, int(event["id"]), encode_event(event))


def create_app(
    session: MatchSession,
    token: str | None = None,
    *,
    max_stream_fps: float = 15.0,
    sse_buffer: int = 256,
    sse_keepalive_s: float = 15.0,
    hand_detector: DetectorLoader | None = None,
    max_photo_bytes: int = MAX_PHOTO_BYTES,
    max_json_bytes: int = MAX_JSON_BYTES,
    on_deck: Callable[[Path], None] | None = None,
    deck_dir: Path | None = None,
    clips: ClipStore | None = None,
    table: LiveTable | None = None,
    calibration_file: Path | None = None,
    phone: PhoneLink | None = None,
) -> FastAPI:
    """The web app for ``session``; ``token`` guards the controls (random if not given).

    ``hand_detector`` builds the detector that reads hands from photos (given the deck's colours;
    default: the shipped ONNX model, loaded on the first photo). A control's body is capped at
    ``max_json_bytes``, a hand photo at ``max_photo_bytes``. On shutdown the record's write-ahead
    log is folded into its file (:meth:`Store.checkpoint`), so a cleanly stopped server leaves a
    database file that holds everything on its own. ``/teach`` (:mod:`referee.web.teach`) learns the
    deck at the table from photos into ``deck_dir`` (default: beside the record) and hands the learned
    deck's folder to ``on_deck`` (the live pipeline's; ``None``: learned and saved only). Instant
    replays (:mod:`referee.web.replay`) are read from ``clips`` (default: beside the record).
    ``/calibrate`` (:mod:`referee.web.calibrate`) saves a profile clicked on the camera's frame to
    ``calibration_file`` (default: beside the record) and applies it to ``table`` (the live pipeline).
    ``/camera`` (:mod:`referee.web.camera`) streams a phone's camera into ``phone`` (``referee run
    --source phone``; ``None``: the page says how to start one).
    """
    admin_token = token or secrets.token_urlsafe(16)
    assets = load_assets()
    hub = EventHub(session, buffer_size=sse_buffer, keepalive_s=sse_keepalive_s)
    labels, colours = _offered()
    frame_interval = 1.0 / max(max_stream_fps, 0.1)
    hands = HandReader(hand_detector or model_loader())

    app = FastAPI(title="UNO referee", lifespan=_lifespan(hub, session), docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.session = session
    app.state.token = admin_token
    app.state.hub = hub

    _add_error_handlers(app)
    register_views(app, session, hub, assets, labels=labels, colours=colours, frame_interval=frame_interval)
    register_controls(app, session, hands, max_photo_bytes=max_photo_bytes)
    register_teach(app, session, admin=ADMIN, page=lambda: page(assets, "teach.html", NO_FOREIGN_FRAMES),
                   read_upload=read_upload, max_photo_bytes=max_photo_bytes, on_deck=on_deck,
                   deck_dir=deck_dir)
    register_replay(app, session, admin=ADMIN, clips=clips)
    register_calibrate(app, session, admin=ADMIN, page=lambda: page(assets, "calibrate.html", NO_FOREIGN_FRAMES),
                       table=table, calibration_file=calibration_file)
    register_words(app, session)
    register_camera(app, phone=phone, token=admin_token, admin=ADMIN,
                    page=lambda: page(assets, "camera.html", NO_FOREIGN_FRAMES))

    _guard(app, session, admin_token, max_json_bytes=max_json_bytes, max_photo_bytes=max_photo_bytes)
    return app


def _offered() -> tuple[list[str], list[str]]:
    """Every card label and colour of every deck: what ``/api/meta`` offers the pages."""
    labels = sorted({label for deck in DECKS.values() for label in deck.labels()})
    colours = sorted({c.value for d in DECKS.values() for c in d.colours})
    return labels, colours


def _lifespan(hub: EventHub,
              session: MatchSession) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    """The app's life: the event hub runs while it serves; on shutdown the record is folded into its file."""

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        hub.start(asyncio.get_running_loop())
        try:
            yield
        finally:
            hub.close()
            await asyncio.to_thread(_fold_journal, session.store)

    return lifespan


def _add_error_handlers(app: FastAPI) -> None:
    """Bad input (422, 400), a referee failure (500) and a record that cannot be used (503) as JSON answers."""

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own handler echoes each bad input as it came, and cannot encode NaN (a 500).
        return JSONResponse({"detail": [_plain_error(e) for e in exc.errors()[:20]]},
                            status_code=422)

    @app.exception_handler(ObservationError)
    async def _rejected(_: Request, exc: ObservationError) -> JSONResponse:
        return JSONResponse({"detail": f"observation rejected: {exc}"}, status_code=400)

    @app.exception_handler(RefereeFailure)
    async def _referee_failed(_: Request, exc: RefereeFailure) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=500)

    @app.exception_handler(StoreError)
    async def _store_failed(_: Request, exc: StoreError) -> JSONResponse:
        log.error("store: %s", exc)
        retry = {"Retry-After": "5"} if isinstance(exc, StoreUnavailable) else None
        return JSONResponse({"detail": f"record unavailable: {exc}; nothing was recorded"},
                            status_code=503, headers=retry)


def _guard(app: FastAPI, session: MatchSession, admin_token: str, *, max_json_bytes: int,
           max_photo_bytes: int) -> None:
    """Put every request through :class:`RequestGuard`: the token on the controls (the routes that depend on
    ``require_admin``), the bodies' caps, and the answers kept for retried requests."""
    controls = {route.path for route in app.routes if isinstance(route, APIRoute)
                and any(d.dependency is require_admin for d in route.dependencies)}
    app.add_middleware(RequestGuard, token=admin_token, admin_paths=controls,
                       body_limit=max_json_bytes,
                       body_limits={"/api/hands/photo": max_photo_bytes + MULTIPART_SLACK,
                                    DECK_PHOTO_PATH: max_photo_bytes + MULTIPART_SLACK,
                                    CAMERA_FRAME_PATH: MAX_FRAME_BYTES},
                       replies=IdempotentReplies(session.store))


def _plain_error(error: Any) -> dict[str, Any]:
    """A validation error that JSON can carry: its place, message and a short, finite echo."""
    plain: dict[str, Any] = {"type": _text(error.get("type", "")), "loc": _plain(error.get("loc", [])),
                             "msg": _text(error.get("msg", ""), 500)}
    if "input" in error:
        plain["input"] = _plain(error["input"])
    return plain


def _plain(value: Any, depth: int = 0) -> Any:
    """``value`` cut down to short, finite JSON: no NaN or infinity, no bytes, no deep nesting."""
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, bytes):
        return value[:200].decode("utf-8", "replace")
    if depth < 4 and isinstance(value, dict):
        return {_text(k, 64): _plain(v, depth + 1) for k, v in list(value.items())[:20]}
    if depth < 4 and isinstance(value, list | tuple):
        return [_plain(v, depth + 1) for v in value[:20]]
    return _text(value)


def _text(value: object, limit: int = 200) -> str:
    """``str(value)`` cut to ``limit`` characters that UTF-8 can encode (a lone surrogate, which JSON's
    ``\\ud800`` escape lets in, becomes ``\\ud800`` spelled out)."""
    return str(value)[:limit].encode("utf-8", "backslashreplace").decode("utf-8")


def _fold_journal(store: Store) -> None:
    """Checkpoint the record at shutdown; a failure is logged (the log stays, nothing is lost)."""
    try:
        if not store.checkpoint():
            log.warning("match record %s: part of the write-ahead log is still in use", store.path)
    except (StoreError, sqlite3.Error) as exc:  # a record its owner closed first, too
        log.warning("match record %s: not checkpointed at shutdown: %s", store.path, exc)


class _Server(uvicorn.Server):
    """uvicorn's server, ending the app's endless streams first so shutdown does not wait on them."""

    def __init__(self, config: uvicorn.Config, hub: EventHub) -> None:
        super().__init__(config)
        self._hub = hub

    async def shutdown(self, sockets: Any = None) -> None:
        self._hub.close()
        await super().shutdown(sockets=sockets)


def make_server(app: FastAPI, host: str = "127.0.0.1", port: int = 8000,
                log_level: str = "warning", tls: tuple[Path, Path] | None = None) -> uvicorn.Server:
    """A uvicorn server for ``app`` (call ``.run()``, or ``.should_exit = True`` to stop); ``tls``: serve
    https with this (certificate, key) pair (:mod:`referee.web.tls`)."""
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level,
                            timeout_graceful_shutdown=2, lifespan="on",
                            # a phone's frame is the largest WebSocket message (/camera); past this, the
                            # socket closes (the page reconnects) rather than buffer it
                            ws_max_size=2 * MAX_FRAME_BYTES,
                            ssl_certfile=str(tls[0]) if tls else None, ssl_keyfile=str(tls[1]) if tls else None)
    return _Server(config, app.state.hub)


def serve(session: MatchSession, host: str = "127.0.0.1", port: int = 8000,
          token: str | None = None) -> None:
    """Serve the dashboard for ``session`` until interrupted (blocking); prints URL and token."""
    app = create_app(session, token=token)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    print(f"dashboard: http://{shown}:{port}/  overlay: http://{shown}:{port}/overlay", flush=True)
    print(f"admin token: {app.state.token}  (controls: http://{shown}:{port}/#token="
          f"{app.state.token})", flush=True)
    make_server(app, host, port, log_level="info").run()
