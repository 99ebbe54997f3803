"""``referee replay``: the referee alone over an observation log (contract 2 in, contract 3 out).

The only module of ``referee.rules`` that reads a file. Every output line is one JSON object;
a bad input line (malformed JSON, unknown label or type, seat out of range, an event before
``setup``) prints ``{"type":"error","line":N,"message":...}`` and the rest of the log is still judged.

Exit status: 0 when every line was accepted, 1 when at least one line was rejected (the judgement of
the other lines is complete either way).
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from referee.rules.observations import ObservationError
from referee.rules.referee import Referee

__all__ = ["replay_file", "replay_lines"]

log = logging.getLogger(__name__)


def _dump(line: dict[str, Any]) -> str:
    return json.dumps(line, separators=(",", ":"), ensure_ascii=False)


def replay_lines(lines: Iterable[str], out: TextIO, rules: str | None = None) -> int:
    """Judge JSON ``lines`` and write contract-3 lines to ``out``; returns the number of errors."""
    referee = Referee(rules=rules)
    errors = 0
    for number, text in enumerate(lines, start=1):
        text = text.strip()
        if not text:
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            errors += 1
            message = f"malformed JSON: {exc.msg} at column {exc.colno}"
            out.write(_dump({"type": "error", "line": number, "message": message}) + "\n")
            continue
        try:
            produced = referee.observe(obj)
        except ObservationError as exc:
            errors += 1
            out.write(_dump({"type": "error", "line": number, "message": str(exc)}) + "\n")
            continue
        except Exception as exc:  # a referee bug must not lose the rest of the log
            log.exception("referee failed on line %d: %s", number, text)
            errors += 1
            message = f"internal referee error ({type(exc).__name__}: {exc}); line skipped"
            out.write(_dump({"type": "error", "line": number, "message": message}) + "\n")
            continue
        for line in produced:
            out.write(_dump(line) + "\n")
    return errors


def replay_file(path: Path | str, out: TextIO, rules: str | None = None) -> int:
    """Replay the log at ``path`` ('-' for standard input); exit status 0, or 1 if any line was bad."""
    try:
        Referee(rules=rules)
    except ObservationError as exc:
        out.write(_dump({"type": "error", "line": 0, "message": str(exc)}) + "\n")
        return 2
    if str(path) == "-":
        errors = replay_lines(sys.stdin, out, rules)
    else:
        try:
            with open(path, encoding="utf-8") as handle:
                errors = replay_lines(handle, out, rules)
        except OSError as exc:
            message = f"cannot read {path}: {exc.strerror or exc}"
            out.write(_dump({"type": "error", "line": 0, "message": message}) + "\n")
            return 2
    if errors:
        log.warning("%d line(s) of %s rejected", errors, path)
    return 1 if errors else 0
