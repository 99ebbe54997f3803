"""``referee replay``: the referee alone over an observation log (contract 2 in, contract 3 out).

The only module of ``referee.rules`` that reads a file. Every output line is one JSON object;
a bad input line (malformed JSON, unknown label or type, seat out of range, an event before
``setup``) prints ``{"type":"error","line":N,"message":...}`` and the rest of the log is still judged.

A log written by ``referee run --log`` holds the referee's output lines (contract 3) between the
observations: those are passed over (the replay says them anew). Its two kinds of fix are applied as
the session applied them: ``{"type":"info","undone":OBS}`` withdraws that observation (a ghost card,
a take-back, the dashboard's undo) and ``{"type":"info","undone_seq":N}`` the newest play (a misread
corrected: the fixed play follows). The referee is then rebuilt from the observations left, and an
``info`` line says what was withdrawn; what was printed before stays printed.

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


#: Referee output (contract 3) found in a ``referee run --log``: said then, not judged again.
OUTPUT_TYPES = frozenset({"alert", "info", "round_end", "scores", "match_end", "error"})


def _withdrawn(obj: dict[str, Any], kept: list[tuple[int, dict[str, Any]]]) -> int | None:
    """The index in ``kept`` of the observation a fix line withdraws, if it is one and finds it."""
    if obj.get("type") != "info":
        return None
    if isinstance(obj.get("undone"), dict):
        return next((i for i in range(len(kept) - 1, -1, -1) if kept[i][1] == obj["undone"]), None)
    if "undone_seq" in obj:
        return next((i for i in range(len(kept) - 1, -1, -1) if kept[i][1].get("type") == "play"), None)
    return None


def _rebuilt(kept: list[tuple[int, dict[str, Any]]], rules: str | None, out: TextIO) -> tuple[Referee, int]:
    """A referee that has judged ``kept`` again (its outputs unsaid); lines it now rejects are dropped
    from ``kept`` and reported. Returns the referee and the number of lines dropped."""
    referee = Referee(rules=rules)
    dropped = 0
    for number, obj in list(kept):
        try:
            referee.observe(obj)
        except Exception as exc:  # ObservationError, or a referee bug: either way the line goes
            kept.remove((number, obj))
            dropped += 1
            message = f"rejected once judged again without the withdrawn line: {exc}"
            out.write(_dump({"type": "error", "line": number, "message": message}) + "\n")
    return referee, dropped


def replay_lines(lines: Iterable[str], out: TextIO, rules: str | None = None) -> int:
    """Judge JSON ``lines`` and write contract-3 lines to ``out``; returns the number of errors."""
    referee = Referee(rules=rules)
    errors = 0
    kept: list[tuple[int, dict[str, Any]]] = []  # (line number, observation) accepted and standing
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
        if isinstance(obj, dict) and obj.get("type") in OUTPUT_TYPES:
            index = _withdrawn(obj, kept)
            if index is not None:
                gone_line, gone = kept.pop(index)
                referee, dropped = _rebuilt(kept, rules, out)
                errors += dropped
                message = f"line {gone_line} withdrawn ({obj.get('message') or 'undone'}): judged again without it"
                out.write(_dump({"type": "info", "line": number, "message": message, "undone": gone}) + "\n")
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
        if isinstance(obj, dict):
            kept.append((number, obj))
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
