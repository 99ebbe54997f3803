"""Golden game logs: ``tests/games/NAME.jsonl`` replayed must print ``NAME.expected.jsonl``.

Messages are prose and may be reworded, so they are checked to be present, not compared.
Regenerate after a deliberate change with ``python -m tests.rules.test_golden`` and review the diff.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from referee.rules.replay import replay_file

GAMES = Path(__file__).resolve().parent.parent / "games"
LOGS = sorted(p for p in GAMES.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))


def _expected_path(log: Path) -> Path:
    return log.with_name(log.name.removesuffix(".jsonl") + ".expected.jsonl")


def _replay(log: Path) -> tuple[int, list[dict[str, Any]]]:
    out = io.StringIO()
    status = replay_file(log, out, rules=None)
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


def _without_messages(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in line.items() if k != "message"} for line in lines]


def test_there_are_golden_games() -> None:
    assert len(LOGS) >= 4
    for log in LOGS:
        assert _expected_path(log).exists(), f"{log.name} has no expected output"


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_golden_game(log: Path) -> None:
    status, got = _replay(log)
    expected = [json.loads(line) for line in _expected_path(log).read_text().splitlines() if line]
    assert _without_messages(got) == _without_messages(expected)
    for line in got:
        if line["type"] in ("alert", "error", "info"):
            assert isinstance(line["message"], str) and line["message"]
    assert status == (1 if any(line["type"] == "error" for line in got) else 0)


def _regenerate() -> None:  # pragma: no cover - a maintenance tool
    for log in LOGS:
        _, got = _replay(log)
        text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in got)
        _expected_path(log).write_text(text)
        print(f"wrote {_expected_path(log).name}: {len(got)} lines")


if __name__ == "__main__":  # pragma: no cover
    _regenerate()
