"""What anyone may see of a table: its pages and static files, the health check, the live state, the
events (server-sent) and the annotated camera view (MJPEG). No route here needs the admin token.

Pages and static files are read from the package once, at start (:func:`load_assets`): no path from a
request ever reaches the file system.
"""

from __future__ import annotations

import asyncio
import importlib.resources
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Query
from fastapi.responses import HTMLResponse, Response, StreamingResponse

from referee.session import MatchSession
from referee.web.fanout import Fanout

__all__ = ["EVENT_ID_LIMIT", "MJPEG_BOUNDARY", "NO_FOREIGN_FRAMES", "Assets", "load_assets", "mjpeg_part", "page",
           "register_views"]

MJPEG_BOUNDARY = "frame"
#: Event ids are SQLite integers: ``after`` and ``Last-Event-ID`` stay below this.
EVENT_ID_LIMIT = 2**63
#: Sent with the dashboard (which holds the admin token): no other site may frame it. The overlay
#: goes without, since OBS and other pages embed it.
NO_FOREIGN_FRAMES = {"Content-Security-Policy": "frame-ancestors 'self'",
                     "X-Frame-Options": "SAMEORIGIN"}
_STATIC_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".jpg": "image/jpeg", ".png": "image/png", ".svg": "image/svg+xml"}

#: ``"static/NAME"`` or ``"templates/NAME"`` -> (bytes, content type).
Assets = dict[str, tuple[bytes, str]]


def load_assets() -> Assets:
    """The pages' static files and templates, loaded once: ``"static/NAME"`` -> (bytes, content type)."""
    root = importlib.resources.files("referee.web")
    assets: Assets = {}
    for folder in ("static", "templates"):
        for entry in (root / folder).iterdir():
            suffix = "." + entry.name.rsplit(".", 1)[-1]
            if entry.is_file() and (suffix in _STATIC_TYPES or suffix == ".html"):
                kind = "text/html; charset=utf-8" if suffix == ".html" else _STATIC_TYPES[suffix]
                assets[f"{folder}/{entry.name}"] = (entry.read_bytes(), kind)
    return assets


def page(assets: Assets, name: str, headers: dict[str, str] | None = None) -> HTMLResponse:
    """The template ``name`` as a page, never cached."""
    body, _ = assets[f"templates/{name}"]
    return HTMLResponse(body, headers={"Cache-Control": "no-cache", **(headers or {})})


def _placeholder(assets: Assets) -> bytes:
    return assets["static/placeholder.jpg"][0]


def mjpeg_part(jpeg: bytes) -> bytes:
    """One JPEG as a part of the ``multipart/x-mixed-replace`` MJPEG stream."""
    head = (f"--{MJPEG_BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
            f"Content-Length: {len(jpeg)}\r\n\r\n").encode()
    return head + jpeg + b"\r\n"


def register_views(app: FastAPI, session: MatchSession, hub: Fanout, assets: Assets, *, labels: list[str],
                   colours: list[str], frame_interval: float) -> None:
    """Add the open routes of ``session``'s table to ``app``: ``hub`` streams its events, ``assets`` are the
    pages, ``labels`` and ``colours`` what ``/api/meta`` offers, ``frame_interval`` the MJPEG stream's pace (s)."""

    # Pages.
    @app.get("/", response_class=HTMLResponse)
    def dashboard() -> HTMLResponse:
        return page(assets, "dashboard.html", NO_FOREIGN_FRAMES)

    @app.get("/overlay", response_class=HTMLResponse)
    def overlay() -> HTMLResponse:
        return page(assets, "overlay.html")

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

    _register_live_views(app, session, hub, assets, labels=labels, colours=colours, frame_interval=frame_interval)


def _register_live_views(app: FastAPI, session: MatchSession, hub: Fanout, assets: Assets, *, labels: list[str],
                         colours: list[str], frame_interval: float) -> None:
    """The match as it stands and as it changes: its state, what ``/api/meta`` offers, its events and the
    camera's MJPEG stream."""

    @app.get("/api/state")
    def state() -> dict[str, Any]:
        return {**session.snapshot()}

    @app.get("/api/meta")
    def meta() -> dict[str, Any]:
        from referee.rules import PRESETS

        presets = [p if isinstance(p, str) else str(getattr(p, "name", p)) for p in PRESETS]
        return {"presets": presets, "labels": labels, "colours": colours}

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

