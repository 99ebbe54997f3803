"""Server-sent events from a record that grows: live fan-out to every client, catch-up from the record.

Over any numbered record: a table's session events (:class:`referee.web.app.EventHub`), the hub's hall
stream, or one table's events as the hub recorded them. A client resumes after the id
it last saw (``Last-Event-ID`` / ``?after=``) from the record, then follows live lines from a bounded
buffer; one that falls behind is switched back to the record, so it misses nothing and costs the
writer nothing.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field

__all__ = ["Fanout"]

#: ``(after, limit) -> [(id, encoded SSE message)]``, oldest first.
Fetch = Callable[[int, int], list[tuple[int, bytes]]]
CATCH_UP_BATCH = 500


@dataclass(eq=False)
class _Client:
    last_id: int
    catch_up: bool
    buffer: collections.deque[tuple[int, bytes]] = field(default_factory=collections.deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class Fanout:
    """Fans numbered SSE messages out on one event loop; :meth:`publish` is called on that loop."""

    def __init__(self, fetch: Fetch, last_id: Callable[[], int], *, buffer_size: int = 256,
                 keepalive_s: float = 15.0) -> None:
        self._fetch = fetch
        self._last_id = last_id
        self.buffer_size = buffer_size
        self.keepalive_s = keepalive_s
        self.closing = False
        #: clients switched back to the record for falling behind
        self.overflows = 0
        self._clients: set[_Client] = set()

    @property
    def clients(self) -> int:
        return len(self._clients)

    def close(self) -> None:
        """End every open stream (clients reconnect and resume)."""
        self.closing = True
        for client in self._clients:
            client.wake.set()

    def publish(self, message_id: int, data: bytes) -> None:
        for client in self._clients:
            if client.catch_up:
                continue
            if len(client.buffer) >= self.buffer_size:
                # Too slow: drop its buffer and let it catch up from the record.
                client.buffer.clear()
                client.catch_up = True
                self.overflows += 1
            else:
                client.buffer.append((message_id, data))
            client.wake.set()

    async def stream(self, after: int | None) -> AsyncGenerator[bytes, None]:
        """Every message with an id above ``after`` (default: from now on), then live ones."""
        if after is None:
            client = _Client(last_id=await asyncio.to_thread(self._last_id), catch_up=False)
        else:
            client = _Client(last_id=after, catch_up=True)
        self._clients.add(client)
        try:
            yield b"retry: 1000\n\n"
            while not self.closing:
                if client.catch_up:
                    client.catch_up = False
                    client.buffer.clear()
                    while True:
                        batch = await asyncio.to_thread(self._fetch, client.last_id, CATCH_UP_BATCH)
                        for message_id, data in batch:
                            yield data
                            client.last_id = message_id
                        if len(batch) < CATCH_UP_BATCH:
                            break
                    continue
                while client.buffer and not client.catch_up:
                    message_id, data = client.buffer.popleft()
                    if message_id > client.last_id:
                        yield data
                        client.last_id = message_id
                if client.catch_up or client.buffer or self.closing:
                    continue
                client.wake.clear()
                try:
                    await asyncio.wait_for(client.wake.wait(), self.keepalive_s)
                except TimeoutError:
                    yield b": keepalive\n\n"
        finally:
            self._clients.discard(client)
