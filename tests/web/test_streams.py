"""Server-sent events and the MJPEG stream on a real server; the hub's bounded buffers."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import httpx

from referee.session import MatchSession
from referee.store import Store
from referee.web.app import EventHub
from tests.web.conftest import LiveServer, read_events


def test_events_arrive_in_order_with_their_ids(live: LiveServer) -> None:
    got: list[dict[str, Any]] = []
    reader = threading.Thread(
        target=lambda: got.extend(read_events(live.url + "/api/events?after=2", 3)))
    reader.start()
    live.post("/api/observations", {"type": "play", "card": "blue_7", "seat": 1})
    live.post("/api/observations", {"type": "play", "card": "blue_3", "seat": 2})
    live.post("/api/undo")
    reader.join(15)
    assert [(e["id"], e["kind"]) for e in got] == [(3, "observation"), (4, "observation"),
                                                  (5, "undo")]
    assert got[0]["outputs"][0]["code"] == "illegal_card"
    assert got[0]["state"]["top_card"] == "blue_7" and got[2]["state"]["top_card"] == "blue_7"
    assert got[2]["seq"] == 4


def test_a_client_that_reconnects_misses_nothing(live: LiveServer) -> None:
    for card in ("red_7", "red_2", "red_9"):
        live.post("/api/observations", {"type": "play", "card": card})
    resumed = read_events(live.url + "/api/events", 3, headers={"Last-Event-ID": "2"})
    assert [e["id"] for e in resumed] == [3, 4, 5]
    assert [e["observation"]["card"] for e in resumed] == ["red_7", "red_2", "red_9"]
    # the header wins over the query (a browser's EventSource resends its first URL)
    again = read_events(live.url + "/api/events?after=0", 1, headers={"Last-Event-ID": "4"})
    assert again[0]["id"] == 5


def test_a_fresh_client_starts_from_now(live: LiveServer) -> None:
    got: list[dict[str, Any]] = []
    reader = threading.Thread(target=lambda: got.extend(read_events(live.url + "/api/events", 1)))
    reader.start()
    deadline = time.monotonic() + 10
    while httpx.get(live.url + "/healthz").json()["sse_clients"] < 1:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    live.post("/api/observations", {"type": "uno", "seat": 1})
    reader.join(15)
    assert [e["id"] for e in got] == [3]


def test_mjpeg_sends_a_placeholder_then_the_session_frames(live: LiveServer) -> None:
    jpeg = b"\xff\xd8\xff\xe0" + b"frame-one" + b"\xff\xd9"
    with httpx.stream("GET", live.url + "/stream.mjpg", timeout=10) as response:
        assert response.headers["content-type"] == "multipart/x-mixed-replace; boundary=frame"
        chunks = response.iter_bytes()
        buffer = b""
        while b"\r\n\r\n" not in buffer or len(buffer) < 1000:
            buffer += next(chunks)
        assert buffer.startswith(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: ")
        assert b"\r\n\r\n\xff\xd8" in buffer  # the placeholder is a JPEG
        live.session.set_frame(jpeg)
        while jpeg not in buffer:
            buffer += next(chunks)
        part = buffer[buffer.index(jpeg) - 200:buffer.index(jpeg) + len(jpeg) + 2]
        assert f"Content-Length: {len(jpeg)}\r\n\r\n".encode() + jpeg + b"\r\n" in part


def test_a_slow_client_costs_the_submitter_nothing_and_catches_up_from_the_record() -> None:
    session = MatchSession(Store(":memory:"), players=3)

    async def scenario() -> tuple[list[int], float, int]:
        hub = EventHub(session, buffer_size=4, keepalive_s=5)
        hub.start(asyncio.get_running_loop())
        stream = hub.stream(after=None)
        assert await anext(stream) == b"retry: 1000\n\n"
        # The client reads nothing while 40 observations go in from another thread.
        started = time.perf_counter()
        await asyncio.to_thread(
            lambda: [session.submit({"type": "uno", "seat": i % 3}) for i in range(40)])
        elapsed = time.perf_counter() - started
        await asyncio.sleep(0.05)  # let the loop dispatch what the thread published
        ids: list[int] = []
        while len(ids) < 40:
            chunk = await asyncio.wait_for(anext(stream), 5)
            ids.append(int(chunk.split(b"\n", 1)[0][4:]))
        await stream.aclose()
        hub.close()
        return ids, elapsed, hub.overflows

    ids, elapsed, overflows = asyncio.run(scenario())
    assert ids == list(range(2, 42))
    assert overflows >= 1
    assert elapsed < 5
