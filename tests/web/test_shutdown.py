"""A clean stop (SIGTERM, Ctrl-C) folds the write-ahead log in: the .db file alone holds the match."""

from __future__ import annotations

import shutil
import signal
from pathlib import Path

import httpx
import pytest

from referee.session import MatchSession
from referee.store import Store
from referee.web.app import create_app
from tests.web.conftest import AUTH, TOKEN, TestClient, free_port
from tests.web.test_restart import server_process

PLAYS = [{"type": "start", "card": "red_5"}, {"type": "play", "card": "red_7", "seat": 1},
         {"type": "play", "card": "blue_7", "seat": 2}, {"type": "draw", "seat": 0, "count": 1}]


def database_alone(db: Path, into: Path) -> Path:
    """A copy of ``db`` without its -wal and -shm files (what a backup of the file alone gets)."""
    into.mkdir()
    copy = into / db.name
    shutil.copyfile(db, copy)
    return copy


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "ctrl-c"])
def test_after_a_clean_stop_the_database_file_alone_holds_every_observation(
    tmp_path: Path, stop: signal.Signals
) -> None:
    db = tmp_path / "match.db"
    port = free_port()
    with server_process(db, port, 3, 0) as proc:
        for obs in PLAYS:
            response = httpx.post(f"http://127.0.0.1:{port}/api/observations", json=obs,
                                  headers=AUTH, timeout=10)
            assert response.status_code == 200, response.text
        proc.send_signal(stop)
        proc.wait(20)
    with Store(database_alone(db, tmp_path / "backup")) as alone:
        match_id = alone.latest_open_match()
        assert match_id is not None
        assert [o.observation for o in alone.observations(match_id)][1:] == PLAYS


def test_the_app_checkpoints_its_record_on_shutdown(tmp_path: Path) -> None:
    db = tmp_path / "match.db"
    match = MatchSession(Store(db), players=3)
    with TestClient(create_app(match, token=TOKEN)) as client:
        for obs in PLAYS:
            assert client.post("/api/observations", json=obs, headers=AUTH).status_code == 200
    with Store(database_alone(db, tmp_path / "backup")) as alone:
        assert [o.observation for o in alone.observations(match.match_id)][1:] == PLAYS
    # the session's record stays open for whoever owns it
    assert match.submit_event({"type": "uno", "seat": 1})["seq"] == len(PLAYS) + 2
    match.store.close()
