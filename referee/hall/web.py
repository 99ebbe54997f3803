"""The hub's web side: the hall page and, under ``/t/NAME/``, each table's own pages, read-only.

``/`` is the hall: a tile per table (top card, turn, counts, scores, last alert, live/offline), a
feed of every table's alerts and the standings across tables, kept live by ``/api/hall/events``
(server-sent events; ``/api/hall`` is the whole picture at once). ``/t/NAME/`` serves the very
dashboard and overlay a table serves, with the same read API (``api/state``, ``api/events``,
``api/meta``, ``api/words``, ``stream.mjpg``) built from the hub's record; ``/api/words`` is the hall's
words (``?lang=``, else English). The hub holds no table's admin token and has no way to act on a
table, so every control there answers 403; act on the table's own dashboard.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse

from referee.cards import DECKS
from referee.hall.receiver import Batch, HubReceiver
from referee.hall.views import TableView, standings
from referee.web.app import (  # the table's own pages and helpers: one copy of each
    EVENT_ID_LIMIT,
    MJPEG_BOUNDARY,
    NO_FOREIGN_FRAMES,
    encode_event,
    load_assets,
    mjpeg_part,
)
from referee.web.fanout import Fanout
from referee.words import catalog

__all__ = ["READ_ONLY", "create_hub_app"]

#: What a control on a table's pages at the hub answers.
READ_ONLY = ("read-only: the hub holds no table's admin token and cannot act on a table; "
             "use the table's own dashboard for its controls")
#: A table's reads that need its admin token (answered 403 at the hub, like its controls).
ADMIN_READS = frozenset({"api/log"})
#: Alerts the hall page's feed starts with.
FEED_ALERTS = 100


def _line_message(hid: int, line: dict[str, Any]) -> bytes:
    data = json.dumps(dict(line, id=hid), separators=(",", ":"), allow_nan=False)
    return f"id: {hid}\ndata: {data}\n\n".encode()


class _Streams:
    """The app's endless streams, for :func:`referee.web.app.make_server` to end before it waits."""

    def __init__(self, close: Callable[[], None]) -> None:
        self.close = close


def create_hub_app(receiver: HubReceiver, *, max_stream_fps: float = 5.0, sse_buffer: int = 1024,
                   sse_keepalive_s: float = 15.0, close_store: bool = False) -> FastAPI:
    """The hub's app over ``receiver`` (started and stopped with the app). ``close_store``: close (and
    checkpoint) the receiver's record when the app stops: uvicorn re-raises SIGTERM once it has shut
    down, so code after ``server.run()`` never runs on SIGTERM and a ``-wal`` file was left behind."""
    assets = load_assets()
    store = receiver.store
    hall = Fanout(lambda after, limit: [(hid, _line_message(hid, json.loads(text)))
                                        for hid, text in store.feed_after(after, limit)],
                  store.last_hid, buffer_size=sse_buffer, keepalive_s=sse_keepalive_s)
    tables: dict[str, Fanout] = {}
    labels = sorted({label for deck in DECKS.values() for label in deck.labels()})
    frame_interval = 1.0 / max(max_stream_fps, 0.1)
    loop_ref: list[asyncio.AbstractEventLoop] = []

    def view_of(name: str) -> TableView:
        with receiver.lock:
            view = receiver.views.get(name)
        if view is None or view.record is None:
            raise HTTPException(status_code=404, detail=f"no table {name!r} at this hub")
        return view

    def table_fanout(name: str) -> Fanout:
        fanout = tables.get(name)
        if fanout is None:
            def fetch(after: int, limit: int) -> list[tuple[int, bytes]]:
                view = receiver.views.get(name)
                if view is None or view.record is None:
                    return []
                return [(int(e["id"]), encode_event(e)) for e in store.events_after(name, view.record, after, limit)]

            def last() -> int:
                view = receiver.views.get(name)
                return view.last_id if view is not None else 0

            fanout = tables[name] = Fanout(fetch, last, buffer_size=sse_buffer, keepalive_s=sse_keepalive_s)
        return fanout

    def dispatch(batch: Batch) -> None:
        for name in batch.switched:  # ids start again: streams end, clients start over
            old = tables.pop(name, None)
            if old is not None:
                old.close()
        for name, event in batch.events:
            if name in tables:
                tables[name].publish(int(event["id"]), encode_event(event))
        for hid, line in batch.lines:
            hall.publish(hid, _line_message(hid, line))

    def on_batch(batch: Batch) -> None:  # the receiver's thread
        if loop_ref and not loop_ref[0].is_closed():
            with contextlib.suppress(RuntimeError):
                loop_ref[0].call_soon_threadsafe(dispatch, batch)

    def close_streams() -> None:
        hall.close()
        for fanout in tables.values():
            fanout.close()

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        loop_ref.append(asyncio.get_running_loop())
        receiver.on_batch = on_batch
        receiver.start()
        try:
            yield
        finally:
            close_streams()
            await asyncio.to_thread(receiver.stop)
            if close_store:
                await asyncio.to_thread(store.close)

    app = FastAPI(title="UNO referee hub", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.receiver = receiver
    app.state.hub = _Streams(close_streams)  # what make_server's shutdown closes first

    def page(name: str, headers: dict[str, str] | None = None) -> HTMLResponse:
        return HTMLResponse(assets[f"templates/{name}"][0], headers={"Cache-Control": "no-cache", **(headers or {})})

    def static_file(name: str) -> Response:
        asset = assets.get(f"static/{name}")
        if asset is None:
            raise HTTPException(status_code=404, detail=f"no static file {name!r}")
        return Response(asset[0], media_type=asset[1], headers={"Cache-Control": "no-cache"})

    def sse(stream: AsyncIterator[bytes]) -> StreamingResponse:
        return StreamingResponse(stream, media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    # The hall.
    @app.get("/", response_class=HTMLResponse)
    def hall_page() -> HTMLResponse:
        return page("hall.html", NO_FOREIGN_FRAMES)

    @app.get("/static/{name}")
    def static(name: str) -> Response:
        return static_file(name)

    @app.get("/favicon.ico")
    def favicon() -> Response:  # browsers ask for it whatever the page links: the pages' own icon
        return static_file("favicon.svg")

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "broker": str(receiver.url), "connected": receiver.connected,
                "tables": len(receiver.views), "sse_clients": hall.clients, **receiver.counters()}

    @app.get("/api/words")
    def hall_words(lang: Annotated[str | None, Query(max_length=16)] = None) -> dict[str, Any]:
        """The hall page's words (i18n.js fetches the relative ``api/words``): ``lang``, else English; the
        hall has no match, so no match language."""
        return {**catalog(lang or "en"), "match_lang": None}

    @app.get("/api/hall")
    def hall_state() -> dict[str, Any]:
        with receiver.lock:
            tiles = [view.tile() for _, view in sorted(receiver.views.items())]
            event_id = store.last_hid()
        alerts = [dict(alert, id=line["id"]) for line in store.recent_alert_lines(FEED_ALERTS)
                  for alert in line.get("alerts", [])]
        return {"event_id": event_id, "broker": {"url": str(receiver.url), "connected": receiver.connected},
                "tables": tiles, "alerts": alerts[-FEED_ALERTS:], "standings": standings(tiles),
                "messages": receiver.counters()}

    @app.get("/api/hall/events")
    async def hall_events(
        last_event_id: Annotated[int | None, Header(ge=0, lt=EVENT_ID_LIMIT)] = None,
        after: Annotated[int | None, Query(ge=0, lt=EVENT_ID_LIMIT)] = None,
    ) -> StreamingResponse:
        return sse(hall.stream(last_event_id if last_event_id is not None else after))

    # One table, read-only.
    @app.get("/t/{name}")
    def table_root(name: str) -> RedirectResponse:
        view_of(name)
        return RedirectResponse(f"/t/{name}/", status_code=307)

    @app.get("/t/{name}/", response_class=HTMLResponse)
    def table_dashboard(name: str) -> HTMLResponse:
        view_of(name)
        return page("dashboard.html", NO_FOREIGN_FRAMES)

    @app.get("/t/{name}/overlay", response_class=HTMLResponse)
    def table_overlay(name: str) -> HTMLResponse:
        view_of(name)
        return page("overlay.html")

    @app.get("/t/{name}/static/{file}")
    def table_static(name: str, file: str) -> Response:
        return static_file(file)

    @app.get("/t/{name}/api/state")
    def table_state(name: str) -> dict[str, Any]:
        view = view_of(name)
        with receiver.lock:
            return view.snapshot()

    @app.get("/t/{name}/api/meta")
    def table_meta(name: str) -> dict[str, Any]:
        from referee.rules import PRESETS

        view_of(name)
        presets = [p if isinstance(p, str) else str(getattr(p, "name", p)) for p in PRESETS]
        return {"presets": presets, "labels": labels, "read_only": True,
                "colours": sorted({c.value for d in DECKS.values() for c in d.colours})}

    @app.get("/t/{name}/api/words")
    def table_words(name: str, lang: Annotated[str | None, Query(max_length=16)] = None) -> dict[str, Any]:
        """The words of the table's pages, as a table serves them: ``lang``, else its setup's language."""
        view = view_of(name)
        with receiver.lock:
            chosen = view.lang
        return {**catalog(lang if lang else (chosen or "en")), "match_lang": chosen}

    @app.get("/t/{name}/healthz")
    async def table_health(name: str) -> dict[str, Any]:
        view = view_of(name)
        return {"ok": True, "table": name, "live": view.status == "online", "event_id": view.last_id}

    @app.get("/t/{name}/api/events")
    async def table_events(
        name: str,
        last_event_id: Annotated[int | None, Header(ge=0, lt=EVENT_ID_LIMIT)] = None,
        after: Annotated[int | None, Query(ge=0, lt=EVENT_ID_LIMIT)] = None,
    ) -> StreamingResponse:
        view_of(name)
        return sse(table_fanout(name).stream(last_event_id if last_event_id is not None else after))

    @app.get("/t/{name}/stream.mjpg")
    async def table_stream(name: str) -> StreamingResponse:
        view_of(name)

        async def frames() -> AsyncIterator[bytes]:
            last_index = -1
            loop = asyncio.get_running_loop()
            repeat_at = 0.0
            while not hall.closing:
                index, jpeg = receiver.frames.get(name, (0, b""))
                now = loop.time()
                if jpeg and index != last_index:
                    last_index, repeat_at = index, now + 1.0
                    yield mjpeg_part(jpeg)
                elif now >= repeat_at:  # nothing new: the last frame (or the placeholder) once a second
                    yield mjpeg_part(jpeg or assets["static/placeholder.jpg"][0])
                    repeat_at = now + 1.0
                await asyncio.sleep(frame_interval)

        return StreamingResponse(frames(), media_type=f"multipart/x-mixed-replace; boundary={MJPEG_BOUNDARY}",
                                 headers={"Cache-Control": "no-cache, no-store"})

    def table_control(name: str, rest: str, request: Request) -> JSONResponse:
        view_of(name)
        if request.method == "GET" and rest not in ADMIN_READS:
            raise HTTPException(status_code=404, detail=f"the hub does not serve {rest!r} for a table")
        return JSONResponse({"detail": READ_ONLY}, status_code=403)

    # One route per method, so each is its own operation in the schema (one route of five methods gives
    # five operations of one id).
    for method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
        app.add_api_route("/t/{name}/{rest:path}", table_control, methods=[method],
                          name=f"table_control_{method.lower()}", response_model=None)

    return app
