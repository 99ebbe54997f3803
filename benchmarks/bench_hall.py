"""Many tables, one hall, on loopback: N tables publishing to a real Mosquitto, a real `referee hub`.

Each simulated table is a real match record (:class:`Store` on a file) and :class:`MatchSession`, fed a
recorded match (the rules simulator's, seeded; misplays injected at some tables) at ``--speed`` times
its own pace, published by the real :class:`TablePublisher` (events, state, status, a JPEG frame every
2 s). The hub runs as its own process (``referee hub``); a viewer follows its hall stream
(``/api/hall/events``, reconnecting with ``Last-Event-ID``) and times each event from the moment its
table recorded it to its arrival. Mid-run the broker is killed (``SIGKILL``: what it held is lost)
and started again, later the hub likewise; at the end every table's record is compared with the
hub's. Prints one JSON line:

    python benchmarks/bench_hall.py                 # 32 tables, 5x speed, 60 s
    python benchmarks/bench_hall.py --tables 4 --seconds 20 --no-restarts

Keys: ``tables``, ``speed``, ``events_sent`` (in the tables' records), ``events_received`` (in the
hub's record), ``lost``, ``duplicated`` (recorded or shown twice at the hub), ``duplicates_dropped``
(arrived again and dropped by id), ``resend_requests``, ``viewer_events``, ``viewer_lost``,
``viewer_duplicated``, ``latency_ms_p50``/``p95``/``max`` (record -> hub's stream, steady phase, before
any restart), ``latency_ms_p95_all`` (whole run), ``after_broker_restart_s``/``after_hub_restart_s``
(until the hub's stream was again within 1 s of the tables), ``catch_up_s`` (from the end of play to
the hub having everything), ``hub_cpu_percent``/``hub_rss_mb_max``, ``broker_cpu_percent``/
``broker_rss_mb_max``, ``tables_cpu_percent``, ``events_per_s``, ``duration_s``.
"""

from __future__ import annotations

import argparse
import heapq
import json
import logging
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

from referee.hall.broker_url import parse_broker_url
from referee.hall.hub_store import HubStore
from referee.hall.mosquitto import Mosquitto
from referee.hall.publisher import TablePublisher
from referee.rules import ObservationError
from referee.rules.simulate import SIM_PRESETS, simulate_game
from referee.session import MatchSession
from referee.store import Store

log = logging.getLogger("bench_hall")

INJECT = ("illegal_card", "out_of_turn", "missed_uno", None, "missed_draw_penalty", None)
FRAME = (Path(__file__).resolve().parent.parent / "referee" / "web" / "static" / "placeholder.jpg").read_bytes()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


@dataclass
class Table:
    """One simulated table: its record, session, publisher and the match it replays."""

    name: str
    session: MatchSession
    publisher: TablePublisher
    lines: list[dict[str, Any]]
    next_line: int = 0
    refused: int = 0


def make_table(index: int, folder: Path, url: str, frame_every_s: float) -> Table:
    preset = SIM_PRESETS[index % len(SIM_PRESETS)]
    game = simulate_game(1000 + index, preset, 2 + index % 5, INJECT[index % len(INJECT)])
    setup, *lines = game.observations
    store = Store(folder / f"table{index:02d}.db", synchronous="NORMAL")
    session = MatchSession(store, rules=str(setup.get("rules", preset)), players=int(setup["players"]),
                           dealer=int(setup.get("dealer") or 0), options=dict(setup.get("options") or {}))
    name = f"T{index:02d}"
    publisher = TablePublisher(session, parse_broker_url(url), name, frame_every_s=frame_every_s)
    return Table(name, session, publisher, lines)


def play(tables: list[Table], speed: float, seconds: float, stop: threading.Event) -> None:
    """Feed every table its match at ``speed`` times its own pace, for ``seconds``, from one thread."""
    start = time.monotonic()
    queue: list[tuple[float, int]] = []
    for i, table in enumerate(tables):
        if table.lines:  # the tables start a little apart, as a hall does
            heapq.heappush(queue, (start + i / len(tables), i))
    origin = {i: float(t.lines[0].get("t") or 0.0) if t.lines else 0.0 for i, t in enumerate(tables)}
    frame_at = [0.0] * len(tables)
    while queue and not stop.is_set():
        due, i = heapq.heappop(queue)
        now = time.monotonic()
        if now - start > seconds:
            break
        if due > now:
            time.sleep(due - now)
        table = tables[i]
        line = table.lines[table.next_line]
        try:
            table.session.submit(line, source="bench")
        except ObservationError:
            table.refused += 1
        table.next_line += 1
        if time.monotonic() - frame_at[i] >= 1.0:
            table.session.set_frame(FRAME)
            frame_at[i] = time.monotonic()
        if table.next_line < len(table.lines):
            offset = float(table.lines[table.next_line].get("t") or 0.0) - origin[i]
            heapq.heappush(queue, (start + i / len(tables) + max(offset, 0.0) / speed, i))


@dataclass
class Viewer:
    """Follows the hub's hall stream, reconnecting with Last-Event-ID; times every event line."""

    base: str
    seen: dict[tuple[str, int], float] = field(default_factory=dict)
    latencies: list[tuple[float, float]] = field(default_factory=list)  # (received at, latency s)
    duplicated: int = 0
    reconnects: int = 0
    last_id: int | None = None
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        while not self.stop.is_set():
            headers = {} if self.last_id is None else {"Last-Event-ID": str(self.last_id)}
            try:
                with httpx.stream("GET", self.base + "/api/hall/events", headers=headers,
                                  timeout=httpx.Timeout(5.0, read=30.0)) as response:
                    for line in response.iter_lines():
                        if self.stop.is_set():
                            return
                        if line.startswith("data: "):
                            self._line(json.loads(line[6:]))
            except httpx.HTTPError:
                pass
            if not self.stop.is_set():
                self.reconnects += 1
                time.sleep(0.2)

    def _line(self, line: dict[str, Any]) -> None:
        now = time.time()
        self.last_id = int(line["id"])
        if "event_id" not in line:
            return
        key = (str(line["table"]), int(line["event_id"]))
        if key in self.seen:
            self.duplicated += 1
            return
        self.seen[key] = now
        if isinstance(line.get("sent_at"), int | float):
            self.latencies.append((now, now - float(line["sent_at"])))


class Sampler:
    """CPU and memory of a few processes, sampled twice a second; survives their restarts."""

    def __init__(self) -> None:
        self.cpu: dict[str, list[tuple[float, float]]] = {}
        self.rss: dict[str, float] = {}
        self._procs: dict[str, psutil.Process] = {}
        self.stop = threading.Event()

    def watch(self, name: str, pid: int) -> None:
        proc = psutil.Process(pid)
        proc.cpu_percent(None)
        self._procs[name] = proc

    def run(self) -> None:
        while not self.stop.wait(0.5):
            for name, proc in list(self._procs.items()):
                try:
                    cpu = proc.cpu_percent(None)
                    rss = proc.memory_info().rss / 2**20
                except psutil.Error:
                    continue
                self.cpu.setdefault(name, []).append((time.monotonic(), cpu))
                self.rss[name] = max(self.rss.get(name, 0.0), rss)

    def mean_cpu(self, name: str, since: float = 0.0, until: float = float("inf")) -> float | None:
        values = [c for t, c in self.cpu.get(name, []) if since <= t <= until]
        return round(sum(values) / len(values), 1) if values else None


class Hub:
    """`referee hub` in its own process, restartable on the same record and session."""

    def __init__(self, folder: Path, broker_url: str) -> None:
        self.folder = folder
        self.broker_url = broker_url
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.counters: dict[str, int] = {"duplicates_dropped": 0, "resend_requests": 0}
        self._last: dict[str, int] = {}

    def start(self) -> None:
        out = (self.folder / "hub.log").open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "referee.cli", "hub", "--broker", self.broker_url, "--port", str(self.port),
             "--db", str(self.folder / "hub.db")], stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/healthz", timeout=1).json().get("connected"):
                    self._last = {}
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the hub did not start (see hub.log)")

    def poll(self) -> None:
        """Keep the hub's counters, adding up across its restarts."""
        try:
            health = httpx.get(self.base + "/healthz", timeout=2).json()
        except httpx.HTTPError:
            return
        for key in self.counters:
            value = int(health.get(key, 0))
            self.counters[key] += max(0, value - self._last.get(key, 0))
            self._last[key] = value

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=15)


def _recovered_after(viewer: Viewer, at: float | None, until: float | None = None) -> float | None:
    """Seconds from ``at`` (wall clock) until the stream was again within 1 s of the tables (counting
    only what arrived before ``until``: the next restart)."""
    if at is None:
        return None
    late = [received for received, latency in viewer.latencies
            if at <= received < (until or float("inf")) and latency > 1.0]
    return round((max(late) if late else at) - at, 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=32)
    parser.add_argument("--speed", type=float, default=5.0, help="times each match's own pace (default 5)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the tables play (default 60)")
    parser.add_argument("--down", type=float, default=3.0, help="seconds the broker, then the hub, stay down")
    parser.add_argument("--no-restarts", action="store_true", help="no broker or hub restart")
    parser.add_argument("--frame-every", type=float, default=2.0)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    folder = Path(tempfile.mkdtemp(prefix="bench_hall_"))
    broker = Mosquitto(folder / "broker").start()
    hub = Hub(folder, broker.url)
    hub.start()
    sampler = Sampler()
    sampler.watch("broker", broker.pid or 0)
    sampler.watch("hub", hub.process.pid if hub.process else 0)
    sampler.watch("tables", os.getpid())
    threading.Thread(target=sampler.run, daemon=True).start()
    viewer = Viewer(hub.base)
    threading.Thread(target=viewer.run, daemon=True).start()

    tables = [make_table(i, folder, broker.url, args.frame_every) for i in range(args.tables)]
    for table in tables:
        table.publisher.start()
    stop = threading.Event()
    player = threading.Thread(target=play, args=(tables, args.speed, args.seconds, stop), daemon=True)
    began = time.monotonic()
    began_wall = time.time()
    player.start()
    steady_until = began + (args.seconds / 3 if not args.no_restarts else args.seconds)
    broker_back: float | None = None
    hub_down: float | None = None
    hub_back: float | None = None
    if not args.no_restarts:
        time.sleep(max(0.0, steady_until - time.monotonic()))
        hub.poll()
        broker.kill()
        time.sleep(args.down)
        broker.start()
        broker_back = time.time()
        sampler.watch("broker", broker.pid or 0)
        time.sleep(max(0.0, began + 2 * args.seconds / 3 - time.monotonic()))
        hub.poll()
        hub_down = time.time()
        hub.kill()
        time.sleep(args.down)
        hub.start()
        hub_back = time.time()
        sampler.watch("hub", hub.process.pid if hub.process else 0)
    player.join()
    played = time.monotonic()

    # Catch-up: until the hub's record holds every table's record.
    hub_store = HubStore(folder / "hub.db")
    sent = {t.name: [int(e["id"]) for e in t.session.events_since(0)] for t in tables}
    deadline = time.monotonic() + 120
    received: dict[str, list[int]] = {}
    while time.monotonic() < deadline:
        received = {name: hub_store.event_ids(name) for name in sent}
        if received == sent:
            break
        hub.poll()
        time.sleep(0.25)
    caught_up = time.monotonic()
    time.sleep(0.5)
    hub.poll()
    viewer.stop.set()
    sampler.stop.set()
    for table in tables:
        table.publisher.stop()

    events_sent = sum(len(ids) for ids in sent.values())
    lost = sum(len(set(ids) - set(received.get(name, []))) for name, ids in sent.items())
    stored_twice = sum(len(ids) - len(set(ids)) for ids in received.values())
    expected_keys = {(name, i) for name, ids in sent.items() for i in ids}
    steady = [lat * 1000 for at, lat in viewer.latencies if at < began_wall + (steady_until - began)]
    everything = [lat * 1000 for _, lat in viewer.latencies]
    result = {
        "tables": args.tables, "speed": args.speed, "seconds": args.seconds, "restarts": not args.no_restarts,
        "events_sent": events_sent, "events_received": sum(len(ids) for ids in received.values()),
        "lost": lost, "duplicated": stored_twice + viewer.duplicated,
        "duplicates_dropped": hub.counters["duplicates_dropped"], "resend_requests": hub.counters["resend_requests"],
        "refused_observations": sum(t.refused for t in tables),
        "viewer_events": len(viewer.seen), "viewer_lost": len(expected_keys - set(viewer.seen)),
        "viewer_duplicated": viewer.duplicated, "viewer_reconnects": viewer.reconnects,
        "latency_ms_p50": _percentile(steady, 0.50), "latency_ms_p95": _percentile(steady, 0.95),
        "latency_ms_max": _percentile(steady, 1.0), "latency_ms_p95_all": _percentile(everything, 0.95),
        "after_broker_restart_s": _recovered_after(viewer, broker_back, hub_down),
        "after_hub_restart_s": _recovered_after(viewer, hub_back),
        "catch_up_s": round(caught_up - played, 2),
        "hub_cpu_percent": sampler.mean_cpu("hub", began, played),
        "hub_rss_mb_max": round(sampler.rss.get("hub", 0.0), 1),
        "broker_cpu_percent": sampler.mean_cpu("broker", began, played),
        "broker_rss_mb_max": round(sampler.rss.get("broker", 0.0), 1),
        "tables_cpu_percent": sampler.mean_cpu("tables", began, played),
        "events_per_s": round(events_sent / max(played - began, 1e-9), 1),
        "duration_s": round(time.monotonic() - began, 1),
        "cpus": os.cpu_count(),
    }
    hub.stop()
    broker.stop()
    print(json.dumps(result), flush=True)
    return 0 if lost == 0 and result["duplicated"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
