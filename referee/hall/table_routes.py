"""One table's pages at the hub, under ``/t/NAME/``, read-only: the very dashboard and overlay a table
serves, with the same read API (``api/state``, ``api/events``, ``api/meta``, ``api/words``,
``stream.mjpg``) built from the hub's record. Every control, and a read that needs the table's admin
token, answers 403: the hub holds no table's token and has no way to act on a table."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse

from referee.cards import DECKS
from referee.hall.feeds import HubFeeds
from referee.hall.hall_routes import sse, static_file
from referee.hall.receiver import HubReceiver
from referee.hall.views import TableView
from referee.web.views import EVENT_ID_LIMIT, MJPEG_BOUNDARY, NO_FOREIGN_FRAMES, Assets, mjpeg_part, page
from referee.words import catalog

__all__ = ["ADMIN_READS", "READ_ONLY", "register_tables"]

#: What a control on a table's pages at the hub answers.
READ_ONLY = ("read-only: the hub holds no table's admin token and cannot act on a table; "
             "use the table's own dashboard for its controls")
#: A table's reads that need its admin token (answered 403 at the hub, like its controls).
ADMIN_READS = frozenset({"api/log"})


def _view_of(receiver: HubReceiver, name: str) -> TableView:
    """Table ``name``'s view; 404 when the hub has no record of it."""
    with receiver.lock:
        view = receiver.views.get(name)
    if view is None or view.record is None:
        raise HTTPException(status_code=404, detail=f"no table {name!r} at this hub")
    return view


def _frames(feeds: HubFeeds, name: str, assets: Assets, frame_interval: float) -> AsyncIterator[bytes]:
    """Table ``name``'s camera view as MJPEG parts: each new frame, else the last one (or the
    placeholder) once a second."""
    receiver = feeds.receiver

    async def parts() -> AsyncIterator[bytes]:
        last_index = -1
        loop = asyncio.get_running_loop()
        repeat_at = 0.0
        while not feeds.closing:
            index, jpeg = receiver.frames.get(name, (0, b""))
            now = loop.time()
            if jpeg and index != last_index:
                last_index, repeat_at = index, now + 1.0
                yield mjpeg_part(jpeg)
            elif now >= repeat_at:  # nothing new: the last frame (or the placeholder) once a second
                yield mjpeg_part(jpeg or assets["static/placeholder.jpg"][0])
                repeat_at = now + 1.0
            await asyncio.sleep(frame_interval)

    return parts()


def register_tables(app: FastAPI, feeds: HubFeeds, assets: Assets, *, frame_interval: float) -> None:
    """Add each table's read-only routes to ``app``: ``feeds`` streams its events, ``assets`` are the
    pages, ``frame_interval`` the MJPEG stream's pace (s)."""
    receiver = feeds.receiver
    labels = sorted({label for deck in DECKS.values() for label in deck.labels()})

    def view_of(name: str) -> TableView:
        return _view_of(receiver, name)

    _register_pages(app, view_of, assets)

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
        return sse(feeds.table(name).stream(last_event_id if last_event_id is not None else after))

    @app.get("/t/{name}/stream.mjpg")
    async def table_stream(name: str) -> StreamingResponse:
        view_of(name)
        return StreamingResponse(_frames(feeds, name, assets, frame_interval),
                                 media_type=f"multipart/x-mixed-replace; boundary={MJPEG_BOUNDARY}",
                                 headers={"Cache-Control": "no-cache, no-store"})

    _register_controls(app, view_of)


def _register_pages(app: FastAPI, view_of: Callable[[str], TableView], assets: Assets) -> None:
    """A table's pages and static files (the table's own, served from the hub)."""

    @app.get("/t/{name}")
    def table_root(name: str) -> RedirectResponse:
        view_of(name)
        return RedirectResponse(f"/t/{name}/", status_code=307)

    @app.get("/t/{name}/", response_class=HTMLResponse)
    def table_dashboard(name: str) -> HTMLResponse:
        view_of(name)
        return page(assets, "dashboard.html", NO_FOREIGN_FRAMES)

    @app.get("/t/{name}/overlay", response_class=HTMLResponse)
    def table_overlay(name: str) -> HTMLResponse:
        view_of(name)
        return page(assets, "overlay.html")

    @app.get("/t/{name}/static/{file}")
    def table_static(name: str, file: str) -> Response:
        return static_file(assets, file)


def _register_controls(app: FastAPI, view_of: Callable[[str], TableView]) -> None:
    """Every other path under a table: a control (or an admin read) answers 403, an unknown read 404."""

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
