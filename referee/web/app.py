"""The web side: dashboard, OBS overlay, MJPEG live view, JSON state, server-sent events, controls.

``create_app(session, token=...)`` builds a FastAPI app around one :class:`MatchSession`; nothing
lives at module level. Viewing is open; every control needs the admin token (``Authorization:
Bearer <token>`` or ``X-Admin-Token``), checked by :class:`~referee.web.guard.RequestGuard` before
the body is read, which also caps bodies, refuses non-finite JSON numbers and answers retried POSTs
(``Idempotency-Key``, :mod:`referee.web.idempotency`). Request bodies are the strict models of
:mod:`referee.web.models`. Pages and static files are read from the package once, at start: no path
from a request ever reaches the file system. A record that cannot be written is a 503.

Events reach browsers through :class:`EventHub`: the session calls the hub's listener from whatever
thread submitted the observation; the listener only schedules the event on the server's event loop,
which appends it to each client's bounded buffer. A client whose buffer fills (a slow reader) is
switched to catching up from the store, so it costs the pipeline nothing and misses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.resources
import json
import logging
import math
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Annotated, Any

import uvicorn
from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.routing import APIRoute

from referee.cards import DECKS
from referee.clips import ClipStore
from referee.rules import ObservationError
from referee.session import Event, MatchSession, RefereeFailure
from referee.store import Store, StoreError, StoreUnavailable
from referee.vision.phone import MAX_FRAME_BYTES, PhoneLink
from referee.web.calibrate import LiveTable, register_calibrate
from referee.web.camera import CAMERA_FRAME_PATH, register_camera
from referee.web.fanout import Fanout
from referee.web.guard import ADMIN_TOKEN_REQUIRED, RequestGuard, supplied_token, token_matches
from referee.web.hands import (
    DetectorLoader,
    DetectorUnavailable,
    HandReader,
    ImageError,
    ImageTooLarge,
    image_from_multipart,
    model_loader,
    palette_for,
)
from referee.web.idempotency import IdempotentReplies, answer_in_transaction
from referee.web.language import register_words, setup_language
from referee.web.models import (
    CorrectIn,
    EventOut,
    HandCardOut,
    HandPhotoOut,
    NamesIn,
    Observation,
    OkOut,
    SetupIn,
)
from referee.web.replay import register_replay
from referee.web.teach import DECK_PHOTO_PATH, register_teach

__all__ = ["EventHub", "create_app", "load_assets", "make_server", "mjpeg_part", "serve"]

log = logging.getLogger(__name__)

MJPEG_BOUNDARY = "frame"
#: The largest hand photo accepted (bytes).
MAX_PHOTO_BYTES = 8 * 1024 * 1024
#: The largest JSON body a control accepts (bytes): a reveal of 120 cards is about 4 KB.
MAX_JSON_BYTES = 256 * 1024
#: Room for a multipart upload's headers and boundaries around the photo itself (bytes).
MULTIPART_SLACK = 64 * 1024
#: Event ids are SQLite integers: ``after`` and ``Last-Event-ID`` stay below this.
EVENT_ID_LIMIT = 2**63
#: Sent with the dashboard (which holds the admin token): no other site may frame it. The overlay
#: goes without, since OBS and other pages embed it.
NO_FOREIGN_FRAMES = {"Content-Security-Policy": "frame-ancestors 'self'",
                     "X-Frame-Options": "SAMEORIGIN"}
_STATIC_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".jpg": "image/jpeg", ".png": "image/png", ".svg": "image/svg+xml"}

def load_assets() -> dict[str, tuple[bytes, str]]:
    """The pages' static files and templates, loaded once: ``"static/NAME"`` -> (bytes, content type)."""
    root = importlib.resources.files("referee.web")
    assets: dict[str, tuple[bytes, str]] = {}
    for folder in ("static", "templates"):
        for entry in (root / folder).iterdir():
            suffix = "." + entry.name.rsplit(".", 1)[-1]
            if entry.is_file() and (suffix in _STATIC_TYPES or suffix == ".html"):
                kind = "text/html; charset=utf-8" if suffix == ".html" else _STATIC_TYPES[suffix]
                assets[f"{folder}/{entry.name}"] = (entry.read_bytes(), kind)
    return assets


# Event fan-out.
def encode_event(event: Event) -> bytes:
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


def _placeholder(assets: dict[str, tuple[bytes, str]]) -> bytes:
    return assets["static/placeholder.jpg"][0]


def mjpeg_part(jpeg: bytes) -> bytes:
    """One JPEG as a part of the ``multipart/x-mixed-replace`` MJPEG stream."""
    head = (f"--{MJPEG_BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
            f"Content-Length: {len(jpeg)}\r\n\r\n").encode()
    return head + jpeg + b"\r\n"


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
    labels = sorted({label for deck in DECKS.values() for label in deck.labels()})
    frame_interval = 1.0 / max(max_stream_fps, 0.1)
    hands = HandReader(hand_detector or model_loader())

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        hub.start(asyncio.get_running_loop())
        try:
            yield
        finally:
            hub.close()
            await asyncio.to_thread(_fold_journal, session.store)

    app = FastAPI(title="UNO referee", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.session = session
    app.state.token = admin_token
    app.state.hub = hub

    def require_admin(
        authorization: Annotated[str | None, Header()] = None,
        x_admin_token: Annotated[str | None, Header()] = None,
    ) -> None:
        # RequestGuard checks the token before any body is read; this marks the route as a control
        # (the guard's list is made from these routes) and checks again.
        if not token_matches(supplied_token(authorization, x_admin_token), admin_token):
            raise HTTPException(status_code=401, detail=ADMIN_TOKEN_REQUIRED,
                                headers={"WWW-Authenticate": "Bearer"})

    admin = [Depends(require_admin)]

    def event_out(event: Event) -> EventOut:
        return EventOut(id=event["id"], kind=event["kind"], seq=event.get("seq"),
                        outputs=event.get("outputs", []))

    def page(name: str, headers: dict[str, str] | None = None) -> HTMLResponse:
        body, _ = assets[f"templates/{name}"]
        return HTMLResponse(body, headers={"Cache-Control": "no-cache", **(headers or {})})

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

    # Pages.
    @app.get("/", response_class=HTMLResponse)
    def dashboard() -> HTMLResponse:
        return page("dashboard.html", NO_FOREIGN_FRAMES)

    @app.get("/overlay", response_class=HTMLResponse)
    def overlay() -> HTMLResponse:
        return page("overlay.html")

    @app.get("/static/{name}")
    def static(name: str) -> Response:
        asset = assets.get(f"static/{name}")  # a dictionary lookup: never a file path
        if asset is None:
            raise HTTPException(status_code=404, detail=f"no static file {name!r}")
        return Response(asset[0], media_type=asset[1], headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico")
    def favicon() -> Response:  # browsers ask for it whatever the page links: the pages' own icon
        return static("favicon.svg")

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        # From memory only, on the event loop: no lock and no record, so it answers at once even
        # while a write waits for a lock held elsewhere.
        return {"ok": True, "match_id": session.match_id, "event_id": session.last_published_id,
                "sse_clients": hub.clients}

    # Views.
    @app.get("/api/state")
    def state() -> dict[str, Any]:
        return session.snapshot()

    @app.get("/api/meta")
    def meta() -> dict[str, Any]:
        from referee.rules import PRESETS

        presets = [p if isinstance(p, str) else str(getattr(p, "name", p)) for p in PRESETS]
        return {"presets": presets, "labels": labels,
                "colours": sorted({c.value for d in DECKS.values() for c in d.colours})}

    @app.get("/api/events")
    async def events(
        last_event_id: Annotated[int | None, Header(ge=0, lt=EVENT_ID_LIMIT)] = None,
        after: Annotated[int | None, Query(ge=0, lt=EVENT_ID_LIMIT)] = None,
    ) -> StreamingResponse:
        start = last_event_id if last_event_id is not None else after
        return StreamingResponse(
            hub.stream(start), media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    @app.get("/stream.mjpg")
    async def stream_mjpg() -> StreamingResponse:
        async def frames() -> AsyncIterator[bytes]:
            loop = asyncio.get_running_loop()
            last_index = -1
            repeat_at = 0.0
            due = loop.time()
            while not hub.closing:
                index, jpeg = session.frame()
                now = loop.time()
                if jpeg is not None and index != last_index:
                    last_index = index
                    repeat_at = now + 1.0
                    yield mjpeg_part(jpeg)
                elif now >= repeat_at:
                    # Nothing new: repeat (the placeholder or the last frame) once a second.
                    yield mjpeg_part(jpeg if jpeg is not None else _placeholder(assets))
                    repeat_at = now + 1.0
                # A fixed schedule, so sending time does not lower the rate.
                due = max(due + frame_interval, loop.time())
                await asyncio.sleep(due - loop.time())

        return StreamingResponse(
            frames(), media_type=f"multipart/x-mixed-replace; boundary={MJPEG_BOUNDARY}",
            headers={"Cache-Control": "no-cache, no-store"},
        )

    # Controls.
    # A control that records something saves a keyed request's answer in the same transaction.
    def ok_out(event: Event) -> OkOut:
        return OkOut(event_id=event["id"])

    @app.post("/api/observations", response_model=EventOut, dependencies=admin)
    def post_observation(
        request: Request,
        obs: Observation,
        source: Annotated[str, Query(pattern=r"^[a-z][a-z0-9_-]{0,39}$")] = "operator",
    ) -> EventOut:
        return event_out(session.submit_event(obs.model_dump(exclude_none=True), source=source,
                                              also=answer_in_transaction(request.scope, event_out)))

    @app.post("/api/undo", response_model=OkOut, dependencies=admin)
    def undo(request: Request) -> OkOut:
        try:
            session.undo(also=answer_in_transaction(request.scope, ok_out))
        except ValueError as exc:
            raise HTTPException(status_code=409, detail=str(exc)) from None
        return OkOut(event_id=session.last_event_id)

    @app.post("/api/correct", response_model=EventOut, dependencies=admin)
    def correct(request: Request, body: CorrectIn) -> EventOut:
        return event_out(session.correct(body.card, body.color,
                                         also=answer_in_transaction(request.scope, event_out)))

    @app.post("/api/setup", response_model=OkOut, dependencies=admin)
    def setup(request: Request, body: SetupIn) -> OkOut:
        players = body.players or len(body.names) or len(session.names)
        if body.names and len(body.names) != players:
            raise HTTPException(status_code=422,
                                detail=f"{len(body.names)} names for {players} players")
        if body.dealer >= players:
            raise HTTPException(status_code=422,
                                detail=f"dealer seat {body.dealer} out of range for {players}")
        options: dict[str, Any] = dict(body.options)
        lang = setup_language(options)  # the pages' language, saved with the setup (not a rule option)
        if body.target is not None:
            options["target"] = body.target
        obs: dict[str, Any] = {"type": "setup", "players": players, "dealer": body.dealer,
                               "options": options}
        if lang is not None:
            obs["lang"] = lang
        if body.rules is not None:
            obs["rules"] = body.rules
        if body.hand_size is not None:
            obs["hand_size"] = body.hand_size
        # The answer rides on the last write (with names, a round's setup and its names are two).
        answer = answer_in_transaction(request.scope, ok_out)
        if body.mode == "match":
            session.new_match(obs, body.names or None, also=answer)
        else:
            session.submit_event(obs, source="operator", also=None if body.names else answer)
            if body.names:
                session.set_names(body.names, also=answer)
        return OkOut(event_id=session.last_event_id)

    @app.post("/api/names", response_model=OkOut, dependencies=admin)
    def names(request: Request, body: NamesIn) -> OkOut:
        session.set_names(body.names, also=answer_in_transaction(request.scope, ok_out))
        return OkOut(event_id=session.last_event_id)

    @app.post("/api/hands/photo", response_model=HandPhotoOut, dependencies=admin)
    async def hand_photo(
        request: Request,
        seat: Annotated[int, Query(ge=0, le=15)],
        submit: bool = False,
    ) -> HandPhotoOut:
        """Propose a seat's hand from a photo (JPEG/PNG body or multipart field ``image``)."""
        snap = await asyncio.to_thread(session.snapshot)  # off the loop: it may wait on the record
        players = int(snap.get("players") or 0)
        if seat >= players:
            raise HTTPException(status_code=422,
                                detail=f"seat {seat} out of range for {players} players")
        data = await _read_upload(request, max_photo_bytes)
        palette = palette_for(snap.get("options"))
        try:
            proposal = await asyncio.to_thread(hands.read, data, palette)
        except ImageTooLarge as exc:
            raise HTTPException(status_code=413, detail=str(exc)) from None
        except ImageError as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        except DetectorUnavailable as exc:
            log.warning("hand photo: %s", exc)
            raise HTTPException(status_code=503,
                                detail=f"no card detector available: {exc}") from None
        found = proposal.detections
        out = HandPhotoOut(
            seat=seat, cards=proposal.cards, width=proposal.width, height=proposal.height,
            backs=proposal.backs, duplicates=proposal.duplicates,
            detections=[
                HandCardOut(label=label, confidence=round(float(found.confidence[i]), 4),
                            colour_confidence=round(float(found.colour_confidence[i]), 4)
                            if len(found.colour_confidence) else 1.0,
                            xyxy=[round(float(v), 1) for v in found.xyxy[i]])
                for i, label in enumerate(found.labels)
            ],
        )
        if submit:
            if not out.cards:
                raise HTTPException(status_code=422,
                                    detail="no cards found in the photo: nothing submitted")
            answer = answer_in_transaction(
                request.scope, lambda e: out.model_copy(update={"submitted": event_out(e)}))
            event = await asyncio.to_thread(  # off the loop: it may wait on the record
                session.submit_event, {"type": "reveal", "seat": seat, "cards": out.cards},
                source="photo", also=answer)
            out.submitted = event_out(event)
        return out

    register_teach(app, session, admin=admin, page=lambda: page("teach.html", NO_FOREIGN_FRAMES),
                   read_upload=_read_upload, max_photo_bytes=max_photo_bytes, on_deck=on_deck,
                   deck_dir=deck_dir)
    register_replay(app, session, admin=admin, clips=clips)
    register_calibrate(app, session, admin=admin, page=lambda: page("calibrate.html", NO_FOREIGN_FRAMES),
                       table=table, calibration_file=calibration_file)
    register_words(app, session)
    register_camera(app, phone=phone, token=admin_token, admin=admin,
                    page=lambda: page("camera.html", NO_FOREIGN_FRAMES))

    @app.get("/api/log", dependencies=admin)
    def export_log() -> Response:
        lines = "".join(json.dumps(o, separators=(",", ":")) + "\n" for o in session.export_log())
        return Response(lines, media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="match-{session.match_id}.jsonl"'})

    controls = {route.path for route in app.routes if isinstance(route, APIRoute)
                and any(d.dependency is require_admin for d in route.dependencies)}
    app.add_middleware(RequestGuard, token=admin_token, admin_paths=controls,
                       body_limit=max_json_bytes,
                       body_limits={"/api/hands/photo": max_photo_bytes + MULTIPART_SLACK,
                                    DECK_PHOTO_PATH: max_photo_bytes + MULTIPART_SLACK,
                                    CAMERA_FRAME_PATH: MAX_FRAME_BYTES},
                       replies=IdempotentReplies(session.store))
    return app


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


async def _read_upload(request: Request, limit: int) -> bytes:
    """The uploaded image's bytes: the raw body (``image/*``) or a multipart field; 413 past
    ``limit``, 415 for other content types. (:class:`RequestGuard` has capped the body already.)"""
    content_type = request.headers.get("content-type", "")
    kind = content_type.split(";", 1)[0].strip().lower()
    multipart = kind == "multipart/form-data"
    if not (multipart or kind.startswith("image/") or kind == "application/octet-stream"):
        raise HTTPException(status_code=415, detail=f"send the photo as image/jpeg, image/png or "
                            f"multipart/form-data, not {kind or 'no content type'!r}")
    too_big = HTTPException(status_code=413,
                            detail=f"photo too large: at most {limit // (1024 * 1024)} MB")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit + (MULTIPART_SLACK if multipart else 0):
        raise too_big
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit + (MULTIPART_SLACK if multipart else 0):
            raise too_big
    if not multipart:
        return bytes(body)
    try:
        data = image_from_multipart(content_type, bytes(body))
    except ImageError as exc:
        raise HTTPException(status_code=400, detail=str(exc)) from None
    if len(data) > limit:
        raise too_big
    return data


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
