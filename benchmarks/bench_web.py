"""Load benchmark of the web side on loopback: many overlays on /api/events, viewers on /stream.mjpg.

Starts the server in a subprocess (a real match record, frames fed at camera rate), connects
``--sse`` event clients and ``--mjpeg`` stream clients, then posts ``--observations`` contract-2
observations (a simulated legal game) at ``--rate`` per second and measures, for every event at
every client, the delay from the start of its POST to its arrival. Clients that drop reconnect with
``Last-Event-ID`` (as browsers do). Prints one JSON line:

    python benchmarks/bench_web.py            # 200 SSE + 20 MJPEG clients, 100 observations

Keys: ``sse_clients``, ``mjpeg_clients``, ``observations``, ``events_expected``, ``events_received``,
``lost_events``, ``duplicate_events``, ``delay_ms_p50``/``p95``/``max`` (POST start -> event at a
client), ``post_ms_p50``/``p95`` (POST round trip), ``mjpeg_fps_mean``, ``mjpeg_fps_min``,
``reconnects``, ``server_cpu_percent``, ``server_rss_mb``, ``duration_s``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger("bench_web")

ID_LINE = re.compile(rb"(?:^|\n)id: (\d+)\n")
TOKEN = "bench-token"


# The server side (run in its own process).
def serve(port: int, db: Path, players: int, dealer: int, fps: float) -> None:
    import cv2
    import numpy as np

    from referee.session import MatchSession
    from referee.store import Store
    from referee.web.app import create_app, make_server

    session = MatchSession(Store(db), players=players, dealer=dealer)
    app = create_app(session, token=TOKEN)
    stop = threading.Event()

    def feed_frames() -> None:
        # A 640x360 frame that changes every time, JPEG-encoded as the pipeline would.
        base = np.zeros((360, 640, 3), np.uint8)
        cv2.rectangle(base, (250, 100), (390, 300), (40, 40, 220), -1)
        index = 0
        while not stop.is_set():
            frame = base.copy()
            cv2.putText(frame, f"frame {index}", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0,
                        (255, 255, 255), 2)
            session.set_frame(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])[1]
                              .tobytes())
            index += 1
            stop.wait(1.0 / fps)

    feeder = threading.Thread(target=feed_frames, daemon=True)
    feeder.start()
    make_server(app, "127.0.0.1", port, log_level="warning").run()
    stop.set()


# The client side.
@dataclass
class SseClient:
    after: int
    received: dict[int, float] = field(default_factory=dict)
    duplicates: int = 0
    reconnects: int = 0
    last_id: int = 0


@dataclass
class MjpegClient:
    frames: int = 0
    first: float | None = None
    last: float | None = None


async def _open(port: int, path: str, headers: dict[str, str]) -> tuple[asyncio.StreamReader,
                                                                         asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "".join(
        f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
    writer.write(head.encode())
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise ConnectionError(f"{path}: {status!r}")
    while (await reader.readline()) not in (b"\r\n", b""):
        pass
    return reader, writer


async def run_sse(port: int, client: SseClient, connected: asyncio.Event, done: asyncio.Event,
                  counter: list[int]) -> None:
    client.last_id = client.after
    first = True
    while not done.is_set():
        try:
            headers = {"Accept": "text/event-stream"}
            if not first:
                headers["Last-Event-ID"] = str(client.last_id)
            reader, writer = await _open(port, f"/api/events?after={client.after}", headers)
        except (OSError, ConnectionError):
            await asyncio.sleep(0.2)
            continue
        if first:
            counter[0] += 1
            if counter[0] >= counter[1]:
                connected.set()
        else:
            client.reconnects += 1
        first = False
        buffer = b""
        try:
            while not done.is_set():
                chunk = await reader.read(65536)
                if not chunk:
                    break
                now = time.perf_counter()
                buffer += chunk
                end = buffer.rfind(b"\n\n")
                if end < 0:
                    continue
                complete, buffer = buffer[:end + 2], buffer[end + 2:]
                for match in ID_LINE.finditer(complete):
                    event_id = int(match.group(1))
                    if event_id in client.received:
                        client.duplicates += 1
                    else:
                        client.received[event_id] = now
                    client.last_id = max(client.last_id, event_id)
        except (OSError, ConnectionError):
            pass
        finally:
            writer.close()


async def run_mjpeg(port: int, client: MjpegClient, done: asyncio.Event) -> None:
    try:
        reader, writer = await _open(port, "/stream.mjpg", {})
    except (OSError, ConnectionError):
        return
    tail = b""
    try:
        while not done.is_set():
            chunk = await reader.read(262144)
            if not chunk:
                break
            data = tail + chunk
            parts = data.count(b"--frame\r\n")
            if parts:
                now = time.perf_counter()
                client.first = client.first or now
                client.last = now
                client.frames += parts
            tail = data[-16:]
    finally:
        writer.close()


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


async def load(port: int, observations: list[dict[str, Any]], args: argparse.Namespace,
               server_pid: int) -> dict[str, Any]:
    import httpx
    import psutil

    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10,
                                 headers={"X-Admin-Token": TOKEN}) as http:
        start_id = (await http.get("/api/state")).json()["event_id"]
        done = asyncio.Event()
        connected = asyncio.Event()
        counter = [0, args.sse]
        sse = [SseClient(after=start_id) for _ in range(args.sse)]
        mjpeg = [MjpegClient() for _ in range(args.mjpeg)]
        tasks = [asyncio.create_task(run_sse(port, c, connected, done, counter)) for c in sse]
        tasks += [asyncio.create_task(run_mjpeg(port, c, done)) for c in mjpeg]
        if args.sse:
            await asyncio.wait_for(connected.wait(), 60)
        await asyncio.sleep(0.5)

        proc = psutil.Process(server_pid)
        proc.cpu_percent(None)
        started = time.perf_counter()
        posted: dict[int, float] = {}
        post_ms: list[float] = []
        for i, obs in enumerate(observations):
            due = started + i / args.rate
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            sent = time.perf_counter()
            response = await http.post("/api/observations", json=obs)
            post_ms.append((time.perf_counter() - sent) * 1000)
            if response.status_code != 200:
                raise RuntimeError(f"observation {i} refused: {response.text}")
            posted[int(response.json()["id"])] = sent
        expected = set(posted)
        deadline = time.perf_counter() + args.drain
        while time.perf_counter() < deadline and any(
                not expected <= c.received.keys() for c in sse):
            await asyncio.sleep(0.05)
        elapsed = time.perf_counter() - started
        cpu = proc.cpu_percent(None)
        rss_mb = proc.memory_info().rss / 2**20
        done.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    delays = [(c.received[i] - posted[i]) * 1000 for c in sse for i in expected if i in c.received]
    received = sum(len(expected & c.received.keys()) for c in sse)
    fps = [c.frames / (c.last - c.first) for c in mjpeg
           if c.first is not None and c.last is not None and c.last > c.first]
    return {
        "sse_clients": args.sse,
        "mjpeg_clients": args.mjpeg,
        "observations": len(observations),
        "rate_per_s": args.rate,
        "events_expected": len(expected) * args.sse,
        "events_received": received,
        "lost_events": len(expected) * args.sse - received,
        "duplicate_events": sum(c.duplicates for c in sse),
        "delay_ms_p50": round(_percentile(delays, 50), 2),
        "delay_ms_p95": round(_percentile(delays, 95), 2),
        "delay_ms_max": round(max(delays), 2) if delays else None,
        "post_ms_p50": round(_percentile(post_ms, 50), 2),
        "post_ms_p95": round(_percentile(post_ms, 95), 2),
        "mjpeg_fps_mean": round(sum(fps) / len(fps), 2) if fps else 0.0,
        "mjpeg_fps_min": round(min(fps), 2) if fps else 0.0,
        "reconnects": sum(c.reconnects for c in sse),
        "server_cpu_percent": round(cpu, 1),
        "server_rss_mb": round(rss_mb, 1),
        "duration_s": round(elapsed, 2),
        "cpus": os.cpu_count(),
    }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sse", type=int, default=200, help="event-stream clients")
    parser.add_argument("--mjpeg", type=int, default=20, help="MJPEG clients")
    parser.add_argument("--observations", type=int, default=100)
    parser.add_argument("--rate", type=float, default=10.0, help="observations per second")
    parser.add_argument("--fps", type=float, default=15.0, help="frames fed to the session per second")
    parser.add_argument("--drain", type=float, default=15.0, help="seconds to wait for stragglers")
    parser.add_argument("--timeout", type=float, default=180.0, help="whole run, seconds")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--players", type=int, default=4, help=argparse.SUPPRESS)
    parser.add_argument("--dealer", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    if args.serve:
        assert args.db is not None
        serve(args.port, args.db, args.players, args.dealer, args.fps)
        return 0

    import httpx

    from referee.rules.simulate import simulate_game

    game = simulate_game(3, "official", 4).log()
    setup, observations = game[0], game[1:1 + args.observations]
    if len(observations) < args.observations:
        raise SystemExit(f"the simulated game has only {len(observations)} observations")
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp:
        server = subprocess.Popen(
            [sys.executable, __file__, "--serve", "--port", str(port), "--db",
             str(Path(tmp) / "bench.db"), "--players", str(setup["players"]), "--dealer",
             str(setup["dealer"]), "--fps", str(args.fps)],
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the benchmark server did not start")
                try:
                    httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            result = asyncio.run(asyncio.wait_for(load(port, observations, args, server.pid),
                                                  args.timeout))
        finally:
            server.terminate()
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(5)
    print(json.dumps(result), flush=True)
    return 0 if result["lost_events"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
