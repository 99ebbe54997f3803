"""The hub's web side: the hall page and, under ``/t/NAME/``, each table's own pages, read-only.

``/`` is the hall: a tile per table (top card, turn, counts, scores, last alert, live/offline), a
feed of every table's alerts and the standings across tables, kept live by ``/api/hall/events``
(server-sent events; ``/api/hall`` is the whole picture at once). ``/t/NAME/`` serves the very
dashboard and overlay a table serves, with the same read API (``api/state``, ``api/events``,
``api/meta``, ``api/words``, ``stream.mjpg``) built from the hub's record; ``/api/words`` is the hall's
words (``?lang=``, else English). The hub holds no table's admin token and has no way to act on a
table, so every control there answers 403; act on the table's own dashboard.

The routes live in one module per concern, each adding its own to the app, as the table's own app does
(:mod:`referee.web.app`): the hall (:mod:`referee.hall.hall_routes`) and each table's read-only pages
(:mod:`referee.hall.table_routes`); the streams they serve are :class:`~referee.hall.feeds.HubFeeds`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from fastapi import FastAPI

from referee.hall.feeds import HubFeeds
from referee.hall.hall_routes import FEED_ALERTS as FEED_ALERTS
from referee.hall.hall_routes import register_hall
from referee.hall.receiver import HubReceiver
from referee.hall.table_routes import ADMIN_READS as ADMIN_READS
from referee.hall.table_routes import READ_ONLY, register_tables
from referee.web.app import load_assets

__all__ = ["READ_ONLY", "create_hub_app"]


def create_hub_app(receiver: HubReceiver, *, max_stream_fps: float = 5.0, sse_buffer: int = 1024,
                   sse_keepalive_s: float = 15.0, close_store: bool = False) -> FastAPI:
    """The hub's app over ``receiver`` (started and stopped with the app). ``close_store``: close (and
    checkpoint) the receiver's record when the app stops: uvicorn re-raises SIGTERM once it has shut
    down, so code after ``server.run()`` never runs on SIGTERM and a ``-wal`` file was left behind."""
    assets = load_assets()
    feeds = HubFeeds(receiver, buffer_size=sse_buffer, keepalive_s=sse_keepalive_s)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        feeds.start(asyncio.get_running_loop())
        receiver.start()
        try:
            yield
        finally:
            feeds.close()
            await asyncio.to_thread(receiver.stop)
            if close_store:
                await asyncio.to_thread(receiver.store.close)

    app = FastAPI(title="UNO referee hub", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.receiver = receiver
    app.state.hub = feeds  # what make_server's shutdown closes first
    register_hall(app, feeds, assets)
    register_tables(app, feeds, assets, frame_interval=1.0 / max(max_stream_fps, 0.1))
    return app
