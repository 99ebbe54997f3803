"""``referee replay``: contract-3 lines out, bad lines reported by number, the rest still judged."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.rules.replay import replay_file, replay_lines

LOG = [
    '{"type":"play","card":"red_1","seat":0}',
    '{"type":"setup","players":2,"dealer":0}',
    '{"type":"start","card":"red_5"}',
    "{not json",
    '{"type":"play","card":"red_11","seat":1}',
    '{"type":"play","card":"red_1","seat":5}',
    "",
    '{"type":"play","card":"blue_7","seat":1}',
]


def test_errors_name_the_line_and_judging_goes_on() -> None:
    out = io.StringIO()
    errors = replay_lines(LOG, out)
    lines = [json.loads(text) for text in out.getvalue().splitlines()]
    assert errors == 4
    assert [(line["type"], line.get("line")) for line in lines] == [
        ("error", 1),
        ("error", 4),
        ("error", 5),
        ("error", 6),
        ("alert", None),
    ]
    assert "before any setup" in lines[0]["message"]
    assert "red_11" in lines[2]["message"]
    assert lines[4]["code"] == "illegal_card" and lines[4]["seat"] == 1


def test_exit_status(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text('{"type":"setup","players":2,"dealer":0}\n{"type":"start","card":"red_5"}\n')
    assert replay_file(good, io.StringIO()) == 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text("[]\n")
    out = io.StringIO()
    assert replay_file(bad, out) == 1
    assert json.loads(out.getvalue())["line"] == 1
    missing = io.StringIO()
    assert replay_file(tmp_path / "nope.jsonl", missing) == 2
    assert "cannot read" in missing.getvalue()


def test_default_rules_apply_when_setup_names_none(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text(
        '{"type":"setup","players":2,"dealer":0}\n{"type":"start","card":"red_5"}\n'
        '{"type":"play","card":"blue_1","seat":1}\n'
    )
    out = io.StringIO()
    replay_file(log, out, rules="de")
    assert json.loads(out.getvalue())["penalty_cards"] == 1


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_cli_replay(tmp_path: Path, source: str) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(LOG) + "\n")
    arg = str(log) if source == "file" else "-"
    proc = subprocess.run(
        [sys.executable, "-m", "referee.cli", "replay", arg],
        input=None if source == "file" else log.read_text(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    lines = [json.loads(text) for text in proc.stdout.splitlines()]
    assert lines[-1]["code"] == "illegal_card"


def test_an_internal_error_loses_only_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.rules.referee import Referee

    real = Referee.observe

    def flaky(self: Referee, obs: dict[str, object]) -> list[dict[str, object]]:
        if obs.get("card") == "red_9":
            raise RuntimeError("boom")
        return real(self, obs)

    monkeypatch.setattr(Referee, "observe", flaky)
    log = [*LOG[1:3], '{"type":"play","card":"red_9","seat":1}', '{"type":"play","card":"blue_7","seat":1}']
    out = io.StringIO()
    assert replay_lines(log, out) == 1
    lines = [json.loads(text) for text in out.getvalue().splitlines()]
    assert lines[0]["type"] == "error" and "boom" in lines[0]["message"] and lines[0]["line"] == 3
    assert lines[1]["code"] == "illegal_card"
