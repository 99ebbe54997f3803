"""The hub's server-sent streams: the hall's feed of every table's lines, and one stream of each table's
events, fed from the receiver's batches on the server's event loop."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from referee.hall.receiver import Batch, HubReceiver
from referee.web.app import encode_event
from referee.web.fanout import Fanout

__all__ = ["HubFeeds"]


def _line_message(hid: int, line: dict[str, Any]) -> bytes:
    data = json.dumps(dict(line, id=hid), separators=(",", ":"), allow_nan=False)
    return f"id: {hid}\ndata: {data}\n\n".encode()


class HubFeeds:
    """``hall`` streams the lines of every table; :meth:`table` one table's events (made on the first
    client). :meth:`start` hooks them to the receiver, whose thread hands each batch to the event loop;
    :meth:`close` ends every stream (what :func:`referee.web.app.make_server`'s shutdown calls first)."""

    def __init__(self, receiver: HubReceiver, *, buffer_size: int, keepalive_s: float) -> None:
        self.receiver = receiver
        store = receiver.store
        self._buffer_size = buffer_size
        self._keepalive_s = keepalive_s
        self.hall = Fanout(lambda after, limit: [(hid, _line_message(hid, json.loads(text)))
                                                 for hid, text in store.feed_after(after, limit)],
                           store.last_hid, buffer_size=buffer_size, keepalive_s=keepalive_s)
        self.tables: dict[str, Fanout] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def closing(self) -> bool:
        return self.hall.closing

    def table(self, name: str) -> Fanout:
        """The stream of table ``name``'s events."""
        fanout = self.tables.get(name)
        if fanout is None:
            receiver = self.receiver

            def fetch(after: int, limit: int) -> list[tuple[int, bytes]]:
                view = receiver.views.get(name)
                if view is None or view.record is None:
                    return []
                return [(int(e["id"]), encode_event(e))
                        for e in receiver.store.events_after(name, view.record, after, limit)]

            def last() -> int:
                view = receiver.views.get(name)
                return view.last_id if view is not None else 0

            fanout = self.tables[name] = Fanout(fetch, last, buffer_size=self._buffer_size,
                                                keepalive_s=self._keepalive_s)
        return fanout

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Take the receiver's batches onto ``loop`` from now on."""
        self._loop = loop
        self.receiver.on_batch = self._on_batch

    def close(self) -> None:
        self.hall.close()
        for fanout in self.tables.values():
            fanout.close()

    def _dispatch(self, batch: Batch) -> None:
        for name in batch.switched:  # ids start again: streams end, clients start over
            old = self.tables.pop(name, None)
            if old is not None:
                old.close()
        for name, event in batch.events:
            if name in self.tables:
                self.tables[name].publish(int(event["id"]), encode_event(event))
        for hid, line in batch.lines:
            self.hall.publish(hid, _line_message(hid, line))

    def _on_batch(self, batch: Batch) -> None:  # the receiver's thread
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._dispatch, batch)
