"""Many tables, one hall, on loopback: N tables publishing to a real Mosquitto, a real `referee hub`.

Each simulated table is a real match record (:class:`Store` on a file) and :class:`MatchSession`, fed a
recorded match (the rules simulator's, seeded; misplays injected at some tables) at ``--speed`` times
its own pace, published by the real :class:`TablePublisher` (events and state signed with the table's
key, status, a JPEG frame every 2 s), as its own MQTT user. The tables run in worker processes of
``--per-process`` tables each (one process per table is what a hall runs; many in one are what a
2-core machine can simulate). The broker is Mosquitto running the configuration a hall should run
(``referee/hall/broker/hall.conf`` and ``hall.acl``: persistence, queues, inflight, per-table users),
with only its port, folders and users put in place. The hub runs as its own process (``referee hub
--hall-key``); a viewer follows its hall stream (``/api/hall/events``, reconnecting with
``Last-Event-ID``) and times each event from the moment its table recorded it to its arrival. Mid-run
the broker is killed (``SIGKILL``: what it acknowledged since its last autosave is lost) and started
again, later the hub likewise; at the end every table's record is compared with the hub's. With
``--hostile`` an intruder (a user the ACL lets write anywhere under ``uno/``: a stolen password or an
open broker) publishes poison, forged, tampered and garbage messages on every topic of every table
while they play. Prints one JSON line:

    python benchmarks/bench_hall.py                 # 32 tables, 5x speed, 60 s
    python benchmarks/bench_hall.py --tables 200 --speed 1 --seconds 60
    python benchmarks/bench_hall.py --tables 4 --seconds 20 --no-restarts --hostile

Keys: ``tables``, ``speed``, ``events_sent`` (in the tables' records), ``events_received`` (in the
hub's record), ``lost``, ``duplicated`` (recorded or shown twice at the hub), ``duplicates_dropped``
(arrived again and dropped by id), ``resend_requests``, ``dropped`` (messages the hub judged unfit, by
reason), ``hostile_sent`` (by kind), ``viewer_events``, ``viewer_lost``, ``viewer_duplicated``,
``latency_ms_p50``/``p95``/``max`` (record -> hub's stream, steady phase, before any restart),
``latency_ms_p95_all`` (whole run), ``after_broker_restart_s``/``after_hub_restart_s`` (until the hub's
stream was again within 1 s of the tables), ``catch_up_s`` (from the end of play to the hub having
everything), ``hub_cpu_percent``/``hub_rss_mb_max``, ``broker_cpu_percent``/``broker_rss_mb_max``,
``tables_cpu_percent`` (all worker processes together), ``events_per_s``, ``duration_s``.
"""

from __future__ import annotations

import argparse
import hashlib
import heapq
import json
import logging
import os
import random
import socket
import sqlite3
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
from referee.hall.mosquitto import Mosquitto
from referee.hall.proof import derive_table_key, sign
from referee.hall.publisher import TablePublisher
from referee.rules import ObservationError
from referee.rules.simulate import SIM_PRESETS, simulate_game
from referee.session import MatchSession
from referee.store import Store

log = logging.getLogger("bench_hall")

INJECT = ("illegal_card", "out_of_turn", "missed_uno", None, "missed_draw_penalty", None)
FRAME = (Path(__file__).resolve().parent.parent / "referee" / "web" / "static" / "placeholder.jpg").read_bytes()
#: The benchmark's own secret: every password and the hall key are derived from it.
SECRET_ENV = "BENCH_HALL_SECRET"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def table_name(index: int) -> str:
    return f"T{index:03d}"


def password(secret: str, user: str) -> str:
    return hashlib.sha256(f"{secret}\n{user}".encode()).hexdigest()[:24]


def hall_key(secret: str) -> bytes:
    return hashlib.sha256(f"{secret}\nhall key".encode()).hexdigest().encode()


@dataclass
class Table:
    """One simulated table: its record, session, publisher and the match it replays."""

    name: str
    session: MatchSession
    publisher: TablePublisher
    lines: list[dict[str, Any]]
    next_line: int = 0
    refused: int = 0


def make_table(index: int, folder: Path, port: int, frame_every_s: float, secret: str, prove: bool) -> Table:
    preset = SIM_PRESETS[index % len(SIM_PRESETS)]
    game = simulate_game(1000 + index, preset, 2 + index % 5, INJECT[index % len(INJECT)])
    setup, *lines = game.log()
    name = table_name(index)
    store = Store(folder / f"{name}.db", synchronous="NORMAL")
    session = MatchSession(store, rules=str(setup.get("rules", preset)), players=int(setup["players"]),
                           dealer=int(setup.get("dealer") or 0), options=dict(setup.get("options") or {}))
    url = parse_broker_url(f"mqtt://{name}:{password(secret, name)}@127.0.0.1:{port}")
    key = derive_table_key(hall_key(secret), name) if prove else None
    publisher = TablePublisher(session, url, name, frame_every_s=frame_every_s, key=key)
    return Table(name, session, publisher, lines)


def play(tables: list[Table], speed: float, seconds: float, start: float) -> None:
    """Feed every table its match at ``speed`` times its own pace from ``start`` (monotonic) for
    ``seconds``, from one thread."""
    queue: list[tuple[float, int]] = []
    for i, table in enumerate(tables):
        if table.lines:  # the tables start a little apart, as a hall does
            heapq.heappush(queue, (start + i / len(tables), i))
    origin = {i: float(t.lines[0].get("t") or 0.0) if t.lines else 0.0 for i, t in enumerate(tables)}
    frame_at = [0.0] * len(tables)
    while queue:
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


def worker(args: argparse.Namespace) -> int:
    """A process of simulated tables: plays from ``--start-at`` (epoch), says ``played``, keeps publishing
    (resends asked for included) until its stdin closes, then stops its publishers."""
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    secret = os.environ[SECRET_ENV]
    tables = [make_table(i, Path(args.folder), args.port, args.frame_every, secret, not args.no_proof)
              for i in range(args.first, args.first + args.count)]
    for table in tables:
        table.publisher.start()
    start = time.monotonic() + max(0.0, args.start_at - time.time())
    play(tables, args.speed, args.seconds, start)
    print(json.dumps({"played": len(tables), "refused": sum(t.refused for t in tables)}), flush=True)
    sys.stdin.read()
    for table in tables:
        table.publisher.stop()
    return 0


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

    def __init__(self, folder: Path, broker_url: str, hub_password: str, key_file: Path | None) -> None:
        self.folder = folder
        self.broker_url = broker_url
        self.hub_password = hub_password
        self.key_file = key_file
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.counters: dict[str, int] = {"duplicates_dropped": 0, "resend_requests": 0}
        self.dropped: dict[str, int] = {}
        self._last: dict[str, int] = {}

    def start(self) -> None:
        out = (self.folder / "hub.log").open("ab")
        command = [sys.executable, "-m", "referee.cli", "hub", "--broker", self.broker_url, "--port", str(self.port),
                   "--db", str(self.folder / "hub.db")]
        if self.key_file is not None:
            command += ["--hall-key", str(self.key_file)]
        self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                        env=dict(os.environ, REFEREE_MQTT_PASSWORD=self.hub_password))
        deadline = time.monotonic() + 60
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
        values = {key: int(health.get(key, 0)) for key in self.counters}
        values.update({f"dropped.{k}": int(v) for k, v in (health.get("dropped") or {}).items()})
        for key, value in values.items():
            gained = max(0, value - self._last.get(key, 0))
            if key.startswith("dropped."):
                self.dropped[key[8:]] = self.dropped.get(key[8:], 0) + gained
            else:
                self.counters[key] += gained
            self._last[key] = value

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=15)


class Intruder:
    """Publishes poison, forged, tampered and garbage messages on every topic of the tables, in turn."""

    def __init__(self, port: int, user_password: str, names: list[str], rate: float, secret: str) -> None:
        from referee.hall.client import make_client

        self.url = parse_broker_url(f"mqtt://intruder:{user_password}@127.0.0.1:{port}")
        self.names = names
        self.rate = rate
        self.sent: dict[str, int] = {}
        self.stop = threading.Event()
        self._wrong_key = derive_table_key(b"not the hall key of this hall", "x")
        self._client = make_client(self.url, "bench-intruder")
        self._client.connect_async(self.url.host, self.url.port)
        self._client.loop_start()
        self._random = random.Random(49)

    def _messages(self, name: str) -> list[tuple[str, str, bytes, bool]]:
        forged = {"id": 1, "kind": "observation", "record": "forged", "table": name, "sent_at": time.time() + 3600,
                  "outputs": [], "state": {"names": ["Mallory"]}}
        body = json.dumps(forged, separators=(",", ":")).encode()
        return [
            ("poison", "events", b"[" * 100_000, False),
            ("forged_record", "events", body, False),
            ("forged_next", "events", json.dumps(dict(forged, id=10**6, record="x")).encode(), False),
            ("wrong_key", "events", sign(self._wrong_key, "events", body), False),
            ("tampered", "events", sign(self._wrong_key, "events", body)[:-10] + b'000000000"}', False),
            ("garbage", "events", self._random.randbytes(200), False),
            ("not_utf8", "events", b'{"id":1,"record":"\xed\xa0\x80"}', False),
            ("forged_state", "state", json.dumps({"record": "forged", "event_id": 10**6}).encode(), False),
            ("poison_state", "state", b"{" * 50_000, False),
            ("garbage_status", "status", self._random.randbytes(50), False),
            ("garbage_frame", "frame", b"not a jpeg", False),
            ("forged_resend", "resend", json.dumps({"after": 0, "record": "x"}).encode(), False),
            ("poison_resend", "resend", b"[" * 100_000, False),
            ("odd_topic", "events/extra", b"{}", False),
            ("odd_kind", "votes", b"{}", False),
        ]

    def run(self) -> None:
        turn = 0
        while not self.stop.wait(1.0 / self.rate):
            if not self._client.is_connected():
                continue
            name = self.names[turn % len(self.names)]
            messages = self._messages(name)
            what, kind, payload, retain = messages[(turn // len(self.names)) % len(messages)]
            self._client.publish(f"uno/{name}/{kind}", payload, qos=1, retain=retain)
            self.sent[what] = self.sent.get(what, 0) + 1
            turn += 1

    def close(self) -> None:
        self.stop.set()
        self._client.disconnect()
        self._client.loop_stop()


def hub_ids(path: Path) -> dict[str, list[int]]:
    """Every table's event ids in the hub's record (its current record), read-only."""
    if not path.exists():
        return {}
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    try:
        rows = conn.execute("SELECT e.name, e.id FROM events e JOIN tables t ON t.name = e.name AND t.record = e.record"
                            " ORDER BY e.name, e.id").fetchall()
    except sqlite3.Error:
        return {}
    finally:
        conn.close()
    out: dict[str, list[int]] = {}
    for name, event_id in rows:
        out.setdefault(str(name), []).append(int(event_id))
    return out


def table_ids(path: Path) -> list[int]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    try:
        return [int(r[0]) for r in conn.execute("SELECT id FROM events ORDER BY id")]
    finally:
        conn.close()


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
    parser.add_argument("--per-process", type=int, default=100, help="simulated tables per worker process")
    parser.add_argument("--no-proof", action="store_true", help="tables do not sign, the hub has no hall key")
    parser.add_argument("--hostile", action="store_true", help="an intruder publishes bad messages on every topic")
    parser.add_argument("--hostile-rate", type=float, default=50.0, help="the intruder's messages a second")
    parser.add_argument("--catch-up-limit", type=float, default=120.0)
    # A worker process (started by main, not by hand).
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--folder", default="", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--start-at", type=float, default=0.0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    secret = os.urandom(16).hex()
    folder = Path(tempfile.mkdtemp(prefix="bench_hall_"))
    names = [table_name(i) for i in range(args.tables)]
    users = {"hub": password(secret, "hub"), **{name: password(secret, name) for name in names}}
    extra_acl = ""
    if args.hostile:
        users["intruder"] = password(secret, "intruder")
        extra_acl = "user intruder\ntopic write uno/#\n"
    broker = Mosquitto(folder / "broker", hall=True, users=users, extra_acl=extra_acl).start()
    key_file = None
    if not args.no_proof:
        key_file = folder / "hall.key"
        key_file.write_bytes(hall_key(secret) + b"\n")
        key_file.chmod(0o600)
    hub = Hub(folder, f"mqtt://hub@127.0.0.1:{broker.port}", users["hub"], key_file)
    hub.start()
    sampler = Sampler()
    sampler.watch("broker", broker.pid or 0)
    sampler.watch("hub", hub.process.pid if hub.process else 0)
    threading.Thread(target=sampler.run, daemon=True).start()
    viewer = Viewer(hub.base)
    threading.Thread(target=viewer.run, daemon=True).start()

    # The tables, in worker processes; they all start playing at the same moment.
    per = max(1, args.per_process)
    start_at = time.time() + 5 + 0.1 * args.tables
    workers: list[subprocess.Popen[str]] = []
    for first in range(0, args.tables, per):
        command = [sys.executable, __file__, "--worker", "--first", str(first),
                   "--count", str(min(per, args.tables - first)), "--folder", str(folder), "--port", str(broker.port),
                   "--start-at", str(start_at), "--speed", str(args.speed), "--seconds", str(args.seconds),
                   "--frame-every", str(args.frame_every)] + (["--no-proof"] if args.no_proof else [])
        workers.append(subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=(folder / f"worker{first}.log").open("wb"), text=True,
                                        env=dict(os.environ, **{SECRET_ENV: secret})))
        sampler.watch(f"tables{first}", workers[-1].pid)
    intruder = None
    if args.hostile:
        intruder = Intruder(broker.port, users["intruder"], names, args.hostile_rate, secret)
        threading.Thread(target=intruder.run, daemon=True).start()
    time.sleep(max(0.0, start_at - time.time()))
    began = time.monotonic()
    began_wall = time.time()
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
    refused = 0
    for process in workers:
        assert process.stdout is not None
        line = process.stdout.readline()
        refused += int(json.loads(line)["refused"]) if line.strip() else 0
    played = time.monotonic()
    if intruder is not None:
        intruder.close()

    # Catch-up: until the hub's record holds every table's record.
    sent = {name: table_ids(folder / f"{name}.db") for name in names}
    deadline = time.monotonic() + args.catch_up_limit
    received: dict[str, list[int]] = {}
    while time.monotonic() < deadline:
        received = hub_ids(folder / "hub.db")
        if all(received.get(name, []) == ids for name, ids in sent.items()):
            break
        hub.poll()
        time.sleep(0.5)
    caught_up = time.monotonic()
    time.sleep(0.5)
    hub.poll()
    viewer.stop.set()
    sampler.stop.set()
    for process in workers:
        assert process.stdin is not None
        process.stdin.close()
    for process in workers:
        process.wait(timeout=120)

    events_sent = sum(len(ids) for ids in sent.values())
    lost = sum(len(set(ids) - set(received.get(name, []))) for name, ids in sent.items())
    stored_twice = sum(len(ids) - len(set(ids)) for ids in received.values())
    expected_keys = {(name, i) for name, ids in sent.items() for i in ids}
    steady = [lat * 1000 for at, lat in viewer.latencies if at < began_wall + (steady_until - began)]
    everything = [lat * 1000 for _, lat in viewer.latencies]
    tables_cpu = [sampler.mean_cpu(f"tables{first}", began, played) for first in range(0, args.tables, per)]
    result = {
        "tables": args.tables, "speed": args.speed, "seconds": args.seconds, "restarts": not args.no_restarts,
        "proof": not args.no_proof, "hostile": args.hostile, "worker_processes": len(workers),
        "events_sent": events_sent, "events_received": sum(len(received.get(name, [])) for name in names),
        "lost": lost, "duplicated": stored_twice + viewer.duplicated,
        "duplicates_dropped": hub.counters["duplicates_dropped"], "resend_requests": hub.counters["resend_requests"],
        "dropped": hub.dropped, "hostile_sent": intruder.sent if intruder is not None else None,
        "refused_observations": refused,
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
        "tables_cpu_percent": round(sum(c for c in tables_cpu if c is not None), 1),
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
