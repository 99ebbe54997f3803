"""Kill the server mid-game (SIGKILL) and restart it on the same record: every event is there."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from referee.rules.simulate import simulate_game
from tests.web.conftest import AUTH, TOKEN, free_port, read_events


@contextmanager
def server_process(
    db: Path, port: int, players: int, dealer: int
) -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee.web", "--db", str(db), "--port", str(port), "--token",
         TOKEN, "--players", str(players), "--dealer", str(dealer)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, "server exited"
            assert time.monotonic() < deadline, "server did not start"
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


def test_a_killed_server_restarts_with_every_event(tmp_path: Path) -> None:
    game = simulate_game(11, "official", 3)
    log = game.log()
    setup, plays = log[0], log[1:200]
    db = tmp_path / "match.db"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    acked: list[tuple[int, dict[str, Any]]] = []  # (event id, observation) the server confirmed

    with server_process(db, port, setup["players"], setup["dealer"]) as proc:
        def post_all() -> None:
            with httpx.Client(base_url=url, headers=AUTH, timeout=5) as http:
                for obs in plays:
                    try:
                        response = http.post("/api/observations", json=obs)
                    except httpx.TransportError:
                        return  # the server is gone
                    assert response.status_code == 200, response.text
                    acked.append((response.json()["id"], obs))

        poster = threading.Thread(target=post_all)
        poster.start()
        while len(acked) < 40:
            assert poster.is_alive()
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)  # mid-game, while observations are still coming in
        proc.wait(10)
        poster.join(10)
    assert 40 <= len(acked) < len(plays)

    with server_process(db, port, 9, 0):
        state = httpx.get(url + "/api/state").json()
        assert state["match_id"] == 1 and state["players"] == setup["players"]
        last_id = state["event_id"]
        events = read_events(url + "/api/events?after=0", last_id)
        assert [e["id"] for e in events] == list(range(1, last_id + 1))
        by_id = {e["id"]: e for e in events}
        for event_id, obs in acked:
            assert by_id[event_id]["observation"] == obs
        exported = httpx.get(url + "/api/log", headers=AUTH).text
        log = [json.loads(line) for line in exported.splitlines()]
        # the log holds every confirmed observation, in order, and at most the one in flight
        assert log[1:len(acked) + 1] == [obs for _, obs in acked]
        assert log[1:] == plays[:len(log) - 1] and len(log) - 1 - len(acked) in (0, 1)
        # and the game goes on
        following = plays[len(log) - 1]
        response = httpx.post(url + "/api/observations", json=following, headers=AUTH)
        assert response.status_code == 200 and response.json()["id"] == last_id + 1

