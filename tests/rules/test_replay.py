"""``referee replay``: contract-3 lines out, bad lines reported by number, the rest still judged."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.contract import OutputLine
from referee.rules.observations import ObservationError
from referee.rules.referee import Referee
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

    def flaky(self: Referee, obs: dict[str, object]) -> list[OutputLine]:
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


# Issue 34: whatever the bytes of a line, it is one bad line and the rest is still judged.
GOOD = [
    b'{"type":"setup","players":2,"dealer":0}',
    b'{"type":"start","card":"red_5"}',
]
ILLEGAL = b'{"type":"play","card":"blue_7","seat":1}'


def _strict_json(text: str) -> dict[str, object]:
    """One output line, parsed as strict JSON (no NaN or infinities)."""

    def refuse(name: str) -> object:
        raise ValueError(f"{name} printed")

    line = json.loads(text, parse_constant=refuse)
    assert isinstance(line, dict)
    return line


def _replay_bytes(tmp_path: Path, data: bytes) -> tuple[int, list[dict[str, object]]]:
    log = tmp_path / "log.jsonl"
    log.write_bytes(data)
    out = io.StringIO()
    status = replay_file(log, out)
    return status, [_strict_json(text) for text in out.getvalue().splitlines()]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (b'{"type":"play","card":"red_\xff7","seat":1}', "not UTF-8 text: byte 0xff at column 28"),
        (b"[" * 200_000 + b"]" * 200_000, "nested too deep"),
        (b'{"type":"draw","seat":1,"count":' + b"9" * 5000 + b"}", "digits"),
        (b'{"type":"draw","seat":1,"t":NaN}', "NaN"),
        (b'{"type":"draw","seat":1,"t":-Infinity}', "Infinity"),
        (b'{"type":"draw","seat":1,"t":1e999}', "out of range"),
        (b'{"type":"draw","seat":1,"t":1' + b"0" * 400 + b"}", "t out of range"),
    ],
    ids=["bad utf-8 byte", "nested 200000 deep", "5000 digits", "NaN", "-Infinity", "1e999", "huge int t"],
)
def test_a_line_of_any_bytes_is_one_bad_line(tmp_path: Path, bad: bytes, message: str) -> None:
    status, lines = _replay_bytes(tmp_path, b"\n".join([*GOOD, bad, ILLEGAL]) + b"\n")
    assert status == 1
    assert [(line["type"], line.get("line")) for line in lines] == [("error", 3), ("alert", None)]
    assert message in str(lines[0]["message"])
    assert lines[1]["code"] == "illegal_card"


def test_a_nan_time_is_never_printed_back(tmp_path: Path) -> None:
    status, lines = _replay_bytes(tmp_path, b"\n".join([*GOOD, b'{"type":"play","card":"blue_7","seat":1,"t":NaN}']))
    assert status == 1 and lines[0]["type"] == "error"
    # A parsed NaN handed to the referee directly (not from the file): refused too, on either path.
    for obs in ({"type": "play", "card": "blue_7", "seat": 1, "t": float("nan")},
                {"type": "draw", "seat": 1, "t": float("inf")},
                {"type": "pass", "seat": 1, "t": float("nan")}):
        ref = Referee()
        ref.observe({"type": "setup", "players": 2, "dealer": 0})
        ref.observe({"type": "start", "card": "red_5"})
        with pytest.raises(ObservationError, match="finite"):
            ref.observe(obs)


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    status, lines = _replay_bytes(tmp_path, b"\xef\xbb\xbf" + b"\r\n".join([*GOOD, ILLEGAL]) + b"\r\n")
    assert status == 0
    assert [line.get("code") for line in lines] == ["illegal_card"]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_a_utf16_log_is_judged(tmp_path: Path, encoding: str) -> None:
    text = "\r\n".join(line.decode() for line in [*GOOD, ILLEGAL]) + "\r\n"
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data  # with its byte-order mark, as Windows writes it
    status, lines = _replay_bytes(tmp_path, data)
    assert status == 0
    assert [line.get("code") for line in lines] == ["illegal_card"]


def test_a_bad_byte_on_standard_input_costs_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"\n".join([*GOOD, b'{"type":"pass","seat":\xc3}', ILLEGAL]) + b"\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    out = io.StringIO()
    assert replay_file("-", out) == 1
    lines = [_strict_json(text) for text in out.getvalue().splitlines()]
    assert [(line["type"], line.get("line")) for line in lines] == [("error", 3), ("alert", None)]


def test_a_lone_surrogate_is_printed_escaped(tmp_path: Path) -> None:
    # An observation carrying "\ud800" (valid JSON, not encodable text), withdrawn: the info line that
    # names it must still be writable as UTF-8.
    play = b'{"type":"play","card":"red_7","seat":1,"note":"\\ud800"}'
    undo = b'{"type":"info","undone":{"type":"play","card":"red_7","seat":1,"note":"\\ud800"}}'
    status, lines = _replay_bytes(tmp_path, b"\n".join([*GOOD, play, undo]))
    assert status == 0
    assert lines[-1]["type"] == "info" and lines[-1]["line"] == 4
    log = tmp_path / "log.jsonl"
    out = io.StringIO()
    replay_file(log, out)
    out.getvalue().encode("utf-8")  # no UnicodeEncodeError


@pytest.mark.parametrize(("bad", "message"), [
    (b'{"type":"play","card":"' + b"x" * 900_000 + b'","seat":1}', "unknown card label"),
    (b'{"type":"' + b"y" * 900_000 + b'"}', "unknown observation type"),
    (b'{"type":"play","card":"' + b"x" * 3_000_000 + b'","seat":1}', "line too long: 3000034 bytes"),
    (b"z" * 5_000_000 + b"\r", "line too long"),
], ids=["900 KB label", "900 KB type", "3 MB line", "5 MB line ended by CR"])
def test_a_huge_bad_line_is_never_echoed_whole(tmp_path: Path, bad: bytes, message: str) -> None:
    status, lines = _replay_bytes(tmp_path, b"\n".join([*GOOD, bad, ILLEGAL]) + b"\n")
    assert status == 1
    assert [(line["type"], line.get("line")) for line in lines] == [("error", 3), ("alert", None)]
    assert message in str(lines[0]["message"]) and len(json.dumps(lines[0])) < 500


def test_a_200_mb_line_costs_no_more_memory_than_a_short_one(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    with log.open("wb") as handle:
        handle.write(b"\n".join(GOOD) + b'\n{"type":"play","card":"')
        for _ in range(200):
            handle.write(b"x" * 1_000_000)
        handle.write(b'","seat":1}\n' + ILLEGAL + b"\n")
    # The peak as the kernel counts it for this program (VmHWM: ru_maxrss would count the forking parent's).
    probe = ("import io, re, sys; from referee.rules.replay import replay_file; out = io.StringIO(); "
             "status = replay_file(sys.argv[1], out); "
             "peak = re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1); "
             "print(status, int(peak) // 1024, len(out.getvalue()))")
    done = subprocess.run([sys.executable, "-c", probe, str(log)], capture_output=True, text=True, timeout=120)
    status, peak_mb, printed = (int(v) for v in done.stdout.split())
    assert status == 1 and printed < 1000, done.stdout
    assert peak_mb < 100, f"peak {peak_mb} MB"
