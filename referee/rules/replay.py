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

The log is UTF-8 (a leading byte-order mark is accepted), or UTF-16 when it starts with a UTF-16
byte-order mark (what a Windows shell's redirection writes). A line that is not text in that encoding,
not JSON, nested too deep, holding a number Python will not read (thousands of digits) or a number
JSON has no place for (``NaN``, ``Infinity``, ``1e999``: they could not be printed back as JSON) is
one bad line like any other. So is a line over :data:`MAX_LINE_BYTES` (no observation comes near):
it is passed over unread, and no message echoes more than :data:`MAX_ECHO` characters of its input.

Exit status: 0 when every line was accepted, 1 when at least one line was rejected (the judgement of
the other lines is complete either way).
"""

from __future__ import annotations

import codecs
import json
import logging
import math
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from referee.rules.observations import ObservationError
from referee.rules.referee import Referee

__all__ = ["replay_file", "replay_lines"]

log = logging.getLogger(__name__)

#: The longest line judged (bytes): a reveal of 120 cards is about 2 KB. Longer lines are bad lines,
#: skipped without being held in memory whole.
MAX_LINE_BYTES = 1_000_000
#: The most characters of an error's message printed (it may quote the bad input).
MAX_ECHO = 300


def _echo(text: str) -> str:
    """``text`` cut to :data:`MAX_ECHO` characters, saying how long it was."""
    if len(text) <= MAX_ECHO:
        return text
    return f"{text[:MAX_ECHO]}... ({len(text)} characters in all)"


class _Overlong:
    """Stands for a line past :data:`MAX_LINE_BYTES` (read past, never kept)."""

    def __init__(self, size: int) -> None:
        self.size = size


def _dump(line: Mapping[str, Any]) -> str:
    text = json.dumps(line, separators=(",", ":"), ensure_ascii=False)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate read from a "\ud800" escape: keep it escaped
            text = json.dumps(line, separators=(",", ":"))
    return text


class NonFiniteNumber(ValueError):
    """A number contract JSON cannot carry: NaN, an infinity, or one past a float's range."""


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NonFiniteNumber(f"number out of range: {text[:40]}")
    return value


def _no_constant(name: str) -> float:
    raise NonFiniteNumber(f"{name} is not a JSON number")


#: JSON as the contract has it: no NaN or infinities (they could not be printed back as JSON). The web
#: app's guard reads request bodies with it too.
FINITE_JSON = json.JSONDecoder(parse_float=_finite_float, parse_constant=_no_constant)


class _BadLine(ValueError):
    """A line that is not one JSON value; the message says why."""


def _parse(text: str) -> Any:
    """The JSON value of one line, or :class:`_BadLine`."""
    try:
        return FINITE_JSON.decode(text)
    except json.JSONDecodeError as exc:
        raise _BadLine(f"malformed JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise _BadLine("malformed JSON: nested too deep") from None
    except ValueError as exc:  # NaN, Infinity, 1e999; an integer of thousands of digits
        if "digits" in str(exc):  # Python's int_max_str_digits guard; its message speaks to programmers
            raise _BadLine(f"malformed JSON: a number of more than {sys.get_int_max_str_digits()} digits") from None
        raise _BadLine(f"malformed JSON: {exc}") from None


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
            message = _echo(f"rejected once judged again without the withdrawn line: {exc}")
            out.write(_dump({"type": "error", "line": number, "message": message}) + "\n")
    return referee, dropped


def replay_lines(lines: Iterable[str | bytes | _Overlong], out: TextIO, rules: str | None = None) -> int:
    """Judge JSON ``lines`` and write contract-3 lines to ``out``; returns the number of errors.

    ``lines`` are text, or UTF-8 bytes (a line that does not decode is a bad line); a byte-order
    mark at the start of the first line is passed over.
    """
    referee = Referee(rules=rules)
    errors = 0
    kept: list[tuple[int, dict[str, Any]]] = []  # (line number, observation) accepted and standing
    for number, raw in enumerate(lines, start=1):
        try:
            text = _text(raw, number)
            if not text:
                continue
            obj = _parse(text)
        except _BadLine as exc:
            errors += 1
            out.write(_dump({"type": "error", "line": number, "message": _echo(str(exc))}) + "\n")
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
            out.write(_dump({"type": "error", "line": number, "message": _echo(str(exc))}) + "\n")
            continue
        except Exception as exc:  # a referee bug must not lose the rest of the log
            log.exception("referee failed on line %d: %s", number, _echo(text))
            errors += 1
            message = _echo(f"internal referee error ({type(exc).__name__}: {exc}); line skipped")
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
        stdin = getattr(sys.stdin, "buffer", None)  # bytes: a line that is not UTF-8 is one bad line
        errors = replay_lines(_lines(stdin) if stdin is not None else sys.stdin, out, rules)
    else:
        try:
            with open(path, "rb") as handle:
                errors = replay_lines(_lines(handle), out, rules)
        except OSError as exc:
            message = f"cannot read {path}: {exc.strerror or exc}"
            out.write(_dump({"type": "error", "line": 0, "message": message}) + "\n")
            return 2
    if errors:
        log.warning("%d line(s) of %s rejected", errors, path)
    return 1 if errors else 0


def _text(raw: str | bytes | _Overlong, number: int) -> str:
    """One line as text, stripped (a UTF-8 byte-order mark passed over on line 1), or :class:`_BadLine`."""
    size = raw.size if isinstance(raw, _Overlong) else len(raw)
    if size > MAX_LINE_BYTES:
        raise _BadLine(f"line too long: {size} bytes, at most {MAX_LINE_BYTES} (skipped unread)")
    assert not isinstance(raw, _Overlong)
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            byte = raw[exc.start]
            raise _BadLine(f"not UTF-8 text: byte 0x{byte:02x} at column {exc.start + 1}") from None
    if number == 1 and raw.startswith("\ufeff"):
        raw = raw[1:]
    return raw.strip()


def _lines(stream: BinaryIO) -> Iterator[str | bytes | _Overlong]:
    """The lines of a log read as bytes: UTF-8 lines as they come (each decoded on its own, so one bad
    byte costs one line; one past :data:`MAX_LINE_BYTES` read past in pieces), or, after a UTF-16
    byte-order mark, the whole log decoded as UTF-16 (what cannot be decoded becomes U+FFFD, which no
    observation accepts)."""
    first = _bounded_line(stream)
    if isinstance(first, bytes) and first[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        text = (first + stream.read()).decode("utf-16", errors="replace")
        return iter(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    return _utf8_lines(first, stream)


def _bounded_line(stream: BinaryIO) -> bytes | _Overlong:
    """The next line of ``stream`` (with its end), or :class:`_Overlong` for one past the limit, whose
    bytes are read in pieces and let go."""
    line = stream.readline(MAX_LINE_BYTES + 2)  # room for the line's own CR LF
    if len(line) <= MAX_LINE_BYTES or line.endswith(b"\n"):
        return line
    size = len(line)
    while not line.endswith(b"\n"):
        line = stream.readline(1 << 20)
        if not line:
            break
        size += len(line)
    return _Overlong(size - len(line) + len(line.rstrip(b"\r\n")))  # the line's own bytes, without its end


def _utf8_lines(first: bytes | _Overlong, stream: BinaryIO) -> Iterator[bytes | _Overlong]:
    """``first`` and the lines of ``stream``, split where text mode would (``\\n``, ``\\r\\n``, a lone ``\\r``)."""
    chunk = first
    while chunk:
        yield from _split(chunk)
        chunk = _bounded_line(stream)


def _split(chunk: bytes | _Overlong) -> Iterator[bytes | _Overlong]:
    """One line read without its end; a lone ``\\r`` inside splits it further."""
    if isinstance(chunk, _Overlong):
        yield chunk
        return
    if chunk.endswith(b"\r\n"):
        chunk = chunk[:-2]
    elif chunk.endswith(b"\n"):
        chunk = chunk[:-1]
    if b"\r" in chunk:
        yield from chunk.split(b"\r")
    else:
        yield chunk
