"""A broker that wants a user and password: the right ones connect, a wrong one is said once, and the
password shows nowhere (logs, errors, the command's own output)."""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.hall.broker_url import parse_broker_url
from referee.hall.mosquitto import Mosquitto, find_mosquitto
from tests.hall.conftest import play_some, publisher, table, wait_for

SECRET = "s3cret-hall-pw"


@pytest.fixture
def locked_broker(tmp_path: Path) -> Iterator[Mosquitto]:
    passwd = shutil.which("mosquitto_passwd")
    if find_mosquitto() is None or passwd is None:
        pytest.skip("needs mosquitto and mosquitto_passwd")
    users = tmp_path / "users"
    subprocess.run([passwd, "-b", "-c", str(users), "ann", SECRET], check=True, capture_output=True)
    users.chmod(0o600)
    with Mosquitto(tmp_path / "broker", password_file=users) as running:
        yield running


def test_the_right_password_connects_and_a_wrong_one_is_said_once(
        locked_broker: Mosquitto, caplog: pytest.LogCaptureFixture) -> None:
    session = table()
    good = parse_broker_url(f"mqtt://ann:{SECRET}@127.0.0.1:{locked_broker.port}")
    with caplog.at_level(logging.INFO):
        pub = publisher(session, good, "A")
        play_some(session, 1)
        wait_for(lambda: pub.acked_id == session.last_event_id, what="publishing with the password")
        pub.stop()
        bad = parse_broker_url(f"mqtt://ann:wrong-{SECRET}@127.0.0.1:{locked_broker.port}")
        refused = publisher(table(), bad, "B", drain_s=0.2)
        wait_for(lambda: any("Not authorized" in r.getMessage() for r in caplog.records), what="the refusal")
        refused.stop()
    said = [r.getMessage() for r in caplog.records if "table B" in r.getMessage() and "unreachable" in r.getMessage()]
    assert len(said) == 1 and "ann:***@" in said[0]
    assert all(SECRET not in r.getMessage() for r in caplog.records)


def test_a_bad_url_is_one_line_without_the_password(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "referee.cli", "run", "--source", str(tmp_path), "--no-serve",
                           "--publish", f"mqtt://ann:{SECRET}@hall:port"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "referee run: bad broker URL" in done.stderr
    assert SECRET not in done.stderr + done.stdout and "ann:***@" in done.stderr
