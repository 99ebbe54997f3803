"""Command-line mistakes end in one clear line on stderr and exit status 2, never a traceback (issue 34).

Each case runs ``referee.cli.main`` in-process; the pipeline's heavy parts (the detector, the demo
footage) are replaced by doubles where the case does not need them.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

import referee.commands as commands_module
from referee.cards import Colour
from referee.cli import main
from referee.vision.detections import Detections

SETUP_4 = {"type": "setup", "players": 4, "dealer": 0, "rules": "official", "hand_size": 7, "options": {}}


class NothingDetector:
    """Sees no card (the doubles' footage is an empty table)."""

    face_names = ("5",)

    def detect(self, image: npt.NDArray[np.uint8]) -> Detections:
        return Detections.empty()


def _one_line(capsys: pytest.CaptureFixture[str], *needles: str) -> str:
    """The one line on stderr (nothing else there), holding every needle."""
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """A folder of three frames of an empty table."""
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(3):
        cv2.imwrite(str(folder / f"{i}.png"), np.full((120, 160, 3), 140, np.uint8))
    return folder


@pytest.fixture
def fake_demo(tmp_path: Path, table: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``referee demo`` on a folder of empty-table frames whose operator script seats 4 players (dealer 0,
    official), as the bundled footage's does; the detector is a double."""
    script = tmp_path / "demo.operator.jsonl"
    script.write_text(json.dumps(SETUP_4) + "\n")

    def detector(model: Path | None, palette: tuple[Colour, ...]) -> NothingDetector:
        return NothingDetector()

    monkeypatch.setattr(commands_module, "open_detector", detector)
    monkeypatch.setattr(commands_module, "demo_footage", lambda: (table, script, None))
    yield script


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --players, --dealer, --rules -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--players", "1"], "--players must be 2..10, got 1"),
        (["--players", "11"], "--players must be 2..10, got 11"),
        (["--dealer", "9"], "--dealer must be a seat 0..3 of the 4 players, got 9"),
        (["--players", "3", "--dealer", "-1"], "--dealer must be a seat 0..2"),
        (["--rules", "klingon"], "unknown rule preset 'klingon'"),
    ],
)
def test_run_refuses_a_table_it_cannot_seat(
    table: Path, capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    assert main(["run", "--source", str(table), "--no-serve", *argv]) == 2
    _one_line(capsys, "referee run: ", needle)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--players", "1"], "--players 1 does not fit"),
        (["--dealer", "9"], "--dealer 9 does not fit"),
        (["--rules", "klingon"], "unknown rule preset 'klingon'"),
    ],
)
def test_demo_refuses_a_table_it_cannot_seat(
    fake_demo: Path, capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    assert main(["demo", "--no-serve", "--no-realtime", *argv]) == 2
    _one_line(capsys, "referee demo: ", needle)


def test_a_table_from_the_script_is_checked_too(
    tmp_path: Path, table: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(commands_module, "open_detector", lambda model, palette: NothingDetector())
    script = tmp_path / "operator.jsonl"
    script.write_text(json.dumps({**SETUP_4, "dealer": 7}) + "\n")
    assert main(["run", "--source", str(table), "--no-serve", "--script", str(script)]) == 2
    _one_line(capsys, "--dealer must be a seat 0..3 of the 4 players, got 7")


# The demo's own table against the flags given ---------------------------------------------------------
def test_demo_refuses_players_and_dealer_its_footage_does_not_have(
    fake_demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 34: `referee demo --rules de --players 3 --dealer 1` silently played official/4/0.
    assert main(["demo", "--rules", "de", "--players", "3", "--dealer", "1", "--no-serve"]) == 2
    _one_line(capsys, "referee demo: ", "demo.operator.jsonl", "seats 4 players", "--players 3 does not fit")
    assert main(["demo", "--dealer", "1", "--no-serve"]) == 2
    _one_line(capsys, "has seat 0 as dealer", "--dealer 1 does not fit")


def test_demo_honours_a_given_rule_preset(fake_demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--rules", "de", "--players", "4", "--dealer", "0", "--no-serve", "--no-realtime"]) == 0
    setup = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (setup["type"], setup["rules"], setup["players"], setup["dealer"]) == ("setup", "de", 4, 0)


def test_demo_without_game_flags_plays_its_own_setup(fake_demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--no-serve", "--no-realtime"]) == 0
    setup = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (setup["rules"], setup["players"], setup["dealer"]) == ("official", 4, 0)


def test_demo_deals_the_hand_size_of_its_own_setup(fake_demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The footage's setup deals short hands (the bundled demo's 4): the referee must count from them, or
    the winner's last card would leave three "in hand" and the round would never end and be scored."""
    fake_demo.write_text(json.dumps({**SETUP_4, "hand_size": 4}) + "\n")
    assert main(["demo", "--no-serve", "--no-realtime"]) == 0
    setup = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (setup["type"], setup["players"], setup["hand_size"]) == ("setup", 4, 4)
    fake_demo.write_text(json.dumps({**SETUP_4, "hand_size": 0}) + "\n")
    assert main(["demo", "--no-serve", "--no-realtime"]) == 2
    _one_line(capsys, "referee demo: cannot start the match: ", "hand_size")


def test_demo_refuses_a_preset_whose_deck_its_footage_does_not_show(
    fake_demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--rules", "lb", "--no-serve"]) == 2
    _one_line(capsys, "shows the classic deck", "--rules lb plays the lb deck")


# --source ----------------------------------------------------------------------------------------------
def test_a_camera_index_that_never_opens_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 34: `referee run --source 5` with no such camera retried forever, flooding stderr.
    monkeypatch.setattr(commands_module, "open_detector", lambda model, palette: NothingDetector())
    status: list[int] = []
    # In a thread of its own: the old behaviour (retry forever) must fail the test, not hang it.
    worker = threading.Thread(target=lambda: status.append(main(["run", "--source", "97", "--no-serve"])),
                              daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert status == [2]
    _one_line(capsys, "referee run: camera 97 did not open")


def test_a_folder_of_undecodable_images_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(commands_module, "open_detector", lambda model, palette: NothingDetector())
    folder = tmp_path / "bad"
    folder.mkdir()
    for i in range(3):
        (folder / f"{i}.jpg").write_bytes(b"not a jpeg")
    assert main(["run", "--source", str(folder), "--no-serve"]) == 2
    _one_line(capsys, "referee run: no frame of", "could be decoded (3 unreadable)")


# --port, --db ------------------------------------------------------------------------------------------
def test_a_port_in_use_is_one_line_and_no_url(table: Path, fake_demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        assert main(["run", "--source", str(table), "--port", port]) == 2
        assert capsys.readouterr().out == ""
        assert main(["demo", "--port", port]) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1
        assert f"referee demo: cannot serve the dashboard on 127.0.0.1:{port}" in err


def test_a_port_out_of_range_is_one_line(table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--source", str(table), "--port", "70000"]) == 2
    _one_line(capsys, "a port is 0..65535")


def test_run_with_a_db_in_a_missing_folder_is_one_line(
    tmp_path: Path, table: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(commands_module, "open_detector", lambda model, palette: NothingDetector())
    db = tmp_path / "no" / "such" / "match.db"
    assert main(["run", "--source", str(table), "--no-serve", "--db", str(db)]) == 2
    _one_line(capsys, "referee run: cannot open the match record --db")


@pytest.mark.parametrize("case", ["missing folder", "corrupt file", "a folder"])
def test_web_with_a_bad_db_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    from referee.web.__main__ import main as web_main

    db = tmp_path / "no" / "such" / "match.db"
    if case == "corrupt file":
        db = tmp_path / "match.db"
        db.write_bytes(b"this is no SQLite database " * 200)
    elif case == "a folder":
        db = tmp_path
    assert web_main(["--db", str(db), "--port", str(_free_port())]) == 2
    _one_line(capsys, "python -m referee.web: cannot open the match record --db")


@pytest.mark.parametrize(
    ("argv", "needle"),
    [(["--players", "1"], "players out of range"), (["--rules", "klingon"], "unknown rule preset")],
)
def test_web_with_a_table_it_cannot_seat_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    from referee.web.__main__ import main as web_main

    assert web_main(["--db", str(tmp_path / "m.db"), "--port", str(_free_port()), *argv]) == 2
    _one_line(capsys, "python -m referee.web: cannot start the match", needle)


def test_web_with_a_port_in_use_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from referee.web.__main__ import main as web_main

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert web_main(["--db", str(tmp_path / "m.db"), "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert f"python -m referee.web: cannot serve the dashboard on 127.0.0.1:{port}" in err


# replay ------------------------------------------------------------------------------------------------
def test_replay_of_a_bad_byte_judges_the_rest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "log.jsonl"
    log.write_bytes(
        b'\xef\xbb\xbf{"type":"setup","players":2,"dealer":0}\n{"type":"start","card":"red_5"}\n'
        b'{"type":"pass","seat":1,"t":NaN}\n\xff\xfe\n' + b"[" * 200_000 + b"]" * 200_000 + b"\n"
        b'{"type":"play","card":"blue_7","seat":1}\n'
    )
    assert main(["replay", str(log)]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    lines = [json.loads(text) for text in out.splitlines()]
    assert [(line["type"], line.get("line")) for line in lines] == [
        ("error", 3), ("error", 4), ("error", 5), ("alert", None)
    ]


@pytest.mark.parametrize(("argv", "needle"), [
    (["--db", "/no/such/folder/match.db"], "cannot open the match record --db /no/such/folder/match.db"),
    (["--players", "1"], "cannot start the match"),
    (["--port", "70000"], "a port is 0..65535"),
])
def test_serve_refuses_a_record_a_match_or_a_port_it_cannot_use(
    argv: list[str], needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``referee serve`` (the dashboard without a camera) says what is wrong in one line, exit 2."""
    argv = argv if "--db" in argv else [*argv, "--db", str(tmp_path / "match.db")]
    argv = argv if "--port" in argv else [*argv, "--port", str(_free_port())]  # not 8000: it may be taken
    assert main(["serve", *argv]) == 2
    assert _one_line(capsys, "referee serve: ", needle)


# --calibration ------------------------------------------------------------------------------------------
GOOD_PROFILE = {"version": 1, "image_size": [160, 120], "pile": [[40, 30], [120, 30], [120, 90], [40, 90]],
                "seats": [[80, 120], [0, 60], [80, 0], [160, 60]]}


@pytest.mark.parametrize(("content", "needle"), [
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"version": 1, "image_size": [160, 120], "pile": ' + b"[" * 5_000 + b"]" * 5_000 + b"}", "nested too deeply"),
    (json.dumps({**GOOD_PROFILE, "pile": [[0, 0], [1e308, 0], [1e308, 1e308], [0, 1e308]]}).encode(),
     "far outside the 160x120 frame"),
    (json.dumps({**GOOD_PROFILE, "seats": [[1e308, 1e308], [0, 60]]}).encode(), "far outside"),
    (json.dumps({**GOOD_PROFILE, "image_size": [10**400, 120]}).encode(), "image_size must be"),
    (json.dumps({**GOOD_PROFILE, "image_size": [1e308, 120]}).encode(), "image_size must be"),
    (json.dumps({**GOOD_PROFILE, "pile_size": [1e999, 1]}).replace("Infinity", "1e999").encode(), "malformed"),
    (b'{"pile": "' + b"x" * 2_000_000 + b'"}', "over 1000000 bytes"),
])
def test_an_unusable_calibration_file_is_one_line(
    tmp_path: Path, table: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    content: bytes, needle: str
) -> None:
    monkeypatch.setattr(commands_module, "open_detector", lambda model, palette: NothingDetector())
    profile = tmp_path / "table.json"
    profile.write_bytes(content)
    assert main(["run", "--source", str(table), "--no-serve", "--calibration", str(profile)]) == 2
    line = _one_line(capsys, "referee run: ", needle)
    assert len(line) < 400


# Misuse of run, eval, learn-deck: one line on stderr, exit 2 --------------------------------------------
@pytest.mark.parametrize("serve", [False, True])
def test_run_on_a_file_that_is_no_video_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], serve: bool
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("pile: red 7\nthen a blue 7\n")
    flags = ["--port", str(_free_port())] if serve else ["--no-serve"]
    status: list[int] = []
    # In a thread of its own: serving "footage ended" for good must fail the test, not hang it.
    worker = threading.Thread(target=lambda: status.append(main(["run", "--source", str(notes), *flags])),
                              daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert status == [2]
    _one_line(capsys, "referee run: --source ", "notes.txt: not a video")


def test_eval_on_an_empty_folder_is_one_line_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip().splitlines() == [f"referee eval: {tmp_path}: no class folders"]


@pytest.mark.parametrize("case", ["missing folder", "empty folder"])
def test_learn_deck_says_its_error_once(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    photos = tmp_path / "photos"
    if case == "empty folder":
        photos.mkdir()
    assert main(["learn-deck", str(photos), "--out", str(tmp_path / "deck")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("referee learn-deck: ") and str(photos) in lines[0], err
