"""The hall's routes: the page with a tile per table, its words, the whole picture at once
(``/api/hall``) and its live feed (``/api/hall/events``), the static files and the health check."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Query
from fastapi.responses import HTMLResponse, Response, StreamingResponse

from referee.hall.feeds import HubFeeds
from referee.hall.views import standings
from referee.web.views import EVENT_ID_LIMIT, NO_FOREIGN_FRAMES, Assets, page
from referee.words import catalog

__all__ = ["FEED_ALERTS", "register_hall", "sse", "static_file"]

#: Alerts the hall page's feed starts with.
FEED_ALERTS = 100


def static_file(assets: Assets, name: str) -> Response:
    """The static file ``name`` (a dictionary lookup: never a file path); 404 when there is none."""
    asset = assets.get(f"static/{name}")
    if asset is None:
        raise HTTPException(status_code=404, detail=f"no static file {name!r}")
    return Response(asset[0], media_type=asset[1], headers={"Cache-Control": "no-cache"})


def sse(stream: AsyncIterator[bytes]) -> StreamingResponse:
    """A server-sent event stream, never cached nor buffered by a proxy."""
    return StreamingResponse(stream, media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def register_hall(app: FastAPI, feeds: HubFeeds, assets: Assets) -> None:
    """Add the hall's routes to ``app``: ``feeds`` streams its lines, ``assets`` are the pages."""
    receiver = feeds.receiver
    store = receiver.store

    @app.get("/", response_class=HTMLResponse)
    def hall_page() -> HTMLResponse:
        return page(assets, "hall.html", NO_FOREIGN_FRAMES)

    @app.get("/static/{name}")
    def static(name: str) -> Response:
        return static_file(assets, name)

    @app.get("/favicon.ico")
    def favicon() -> Response:  # browsers ask for it whatever the page links: the pages' own icon
        return static_file(assets, "favicon.svg")

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "broker": str(receiver.url), "connected": receiver.connected,
                "tables": len(receiver.views), "sse_clients": feeds.hall.clients, **receiver.counters()}

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
        return sse(feeds.hall.stream(last_event_id if last_event_id is not None else after))
