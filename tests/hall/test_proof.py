"""Per-table keys and the HMAC each message carries (referee/hall/proof.py), and their flags."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.hall.command import add_hub_options, add_publish_options, publish_settings
from referee.hall.proof import KEY_ENV, ProofError, derive_table_key, sign, strip_signature, table_key_from, unsign

KEY = derive_table_key(b"the hall key of a test hall", "A")


def test_a_signed_message_is_still_one_json_object_and_proves_its_kind_and_bytes() -> None:
    body = json.dumps({"id": 7, "record": "r", "table": "A"}, separators=(",", ":")).encode()
    signed = sign(KEY, "events", body)
    assert json.loads(signed)["id"] == 7 and len(json.loads(signed)["sig"]) == 64
    assert unsign(KEY, "events", signed) == body
    assert strip_signature(signed) == body and strip_signature(body) == body
    assert unsign(KEY, "state", signed) is None  # another topic's kind
    assert unsign(derive_table_key(b"the hall key of a test hall", "B"), "events", signed) is None  # another table
    assert unsign(KEY, "events", signed.replace(b'"id":7', b'"id":8')) is None  # tampered
    assert unsign(KEY, "events", body) is None and unsign(KEY, "events", b"") is None
    with pytest.raises(ValueError):
        sign(KEY, "events", b"{}")


def test_keys_come_from_a_file_or_the_environment(tmp_path: Path) -> None:
    (tmp_path / "k").write_text(KEY.decode() + "\n")
    assert table_key_from(tmp_path / "k", env={}) == KEY
    (tmp_path / "line").write_text(f"A {KEY.decode()}\n")  # as `python -m referee.hall.proof key ... A` prints it
    assert table_key_from(tmp_path / "line", env={}) == KEY
    assert table_key_from(None, env={KEY_ENV: KEY.decode()}) == KEY
    assert table_key_from(None, env={}) is None
    (tmp_path / "short").write_text("abc\n")
    with pytest.raises(ProofError, match="too short"):
        table_key_from(tmp_path / "short", env={})
    with pytest.raises(ProofError, match="cannot read"):
        table_key_from(tmp_path / "missing", env={})


def test_publish_settings_take_the_table_key(tmp_path: Path) -> None:
    (tmp_path / "k").write_text(KEY.decode())
    parser = argparse.ArgumentParser()
    add_publish_options(parser)
    args = parser.parse_args(["--publish", "mqtt://127.0.0.1:1883", "--table", "A", "--table-key-file",
                              str(tmp_path / "k")])
    settings = publish_settings(args)
    assert settings is not None and settings.key == KEY
    args = parser.parse_args(["--publish", "mqtt://127.0.0.1:1883", "--table-key-file", str(tmp_path / "none")])
    with pytest.raises(ValueError, match="cannot read the table key file"):
        publish_settings(args)
    hub = argparse.ArgumentParser()
    add_hub_options(hub)
    assert hub.parse_args(["--broker", "mqtt://h:1", "--hall-key", "f"]).hall_key == Path("f")


def test_the_organiser_makes_a_hall_key_and_each_table_s_key(tmp_path: Path) -> None:
    made = subprocess.run([sys.executable, "-m", "referee.hall.proof", "new"], capture_output=True, text=True,
                          check=True).stdout.strip()
    assert len(made) == 64
    (tmp_path / "hall.key").write_text(made + "\n")
    done = subprocess.run([sys.executable, "-m", "referee.hall.proof", "key", "--hall-key", str(tmp_path / "hall.key"),
                           "A", "B"], capture_output=True, text=True, check=True)
    lines = [line.split() for line in done.stdout.splitlines()]
    assert lines == [["A", derive_table_key(made.encode(), "A").decode()],
                     ["B", derive_table_key(made.encode(), "B").decode()]]
    bad = subprocess.run([sys.executable, "-m", "referee.hall.proof", "key", "--hall-key", str(tmp_path / "hall.key"),
                          "a/b"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "bad table name" in bad.stderr
