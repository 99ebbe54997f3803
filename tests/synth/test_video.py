"""The game-video generator: deterministic by seed, truth that the referee agrees with, files that open."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from dataclasses import replace
from io import StringIO
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

from referee.contract import Line
from referee.rules.replay import replay_lines
from referee.rules.simulate import ALERT_CODES
from referee.synth.filming import render_frames
from referee.synth.game_plan import OPERATOR_DELAY, VISIBLE, VideoConfig, plan_game, referee_outputs
from referee.synth.oracle import OracleDetector
from referee.synth.video import DEMO_CONFIG, DEMO_SEED, GameVideo, demo_footage, load_boxes, sidecar, write_video
from referee.vision.calibration import CalibrationProfile

SHORT = VideoConfig(seconds=2.0, fps=5.0)


def _read(path: Path) -> list[Line]:
    """A JSON-lines file's lines (their shapes as the file has them)."""
    return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines() if t.strip()]


@pytest.fixture(scope="module")
def small_video(tmp_path_factory: pytest.TempPathFactory) -> GameVideo:
    out = tmp_path_factory.mktemp("video") / "game.mp4"
    return write_video(out, 5, VideoConfig(seconds=12.0, fps=6.0))


def test_frames_are_deterministic_by_seed_and_sized_like_the_webcam() -> None:
    first = [img for img, _ in render_frames(3, SHORT)]
    again = [img for img, _ in render_frames(3, SHORT)]
    other = [img for img, _ in render_frames(4, SHORT)]
    assert len(first) == len(again) == round(SHORT.seconds * SHORT.fps)
    assert all(img.shape == (720, 1280, 3) and img.dtype == np.uint8 for img in first)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not np.array_equal(first[-1], other[-1])


def test_plans_are_deterministic_by_seed() -> None:
    config = VideoConfig(seconds=30.0)
    assert plan_game(8, config).truth == plan_game(8, config).truth
    assert plan_game(8, config).truth != plan_game(9, config).truth


@pytest.mark.parametrize("code", ALERT_CODES)
def test_a_whole_round_raises_exactly_the_simulated_misplays(code: str) -> None:
    # Colours told separately, draws split into one card per reach, the round laid on a clock:
    # the referee must still say exactly what the simulator's misplays call for.
    for seed in range(4):
        plan = plan_game(seed, replace(VideoConfig(), seconds=3600.0, misplays=(code,)))
        assert plan.complete
        alerts = [(x["code"], x["seat"]) for x in referee_outputs(plan.truth) if x["type"] == "alert"]
        assert alerts == plan.sim_alerts


def test_truth_and_operator_logs_are_consistent() -> None:
    plan = plan_game(2, VideoConfig(seconds=60.0))
    times = [float(x["t"]) for x in plan.truth]
    assert times == sorted(times)
    assert plan.truth[0]["type"] == "setup" and plan.operator[0] == plan.truth[0]
    assert [x for x in plan.truth if x["type"] not in VISIBLE] == plan.operator
    assert all("color" not in x for x in plan.truth if x["type"] == "play")
    assert all(x["count"] == 1 for x in plan.truth if x["type"] == "draw")
    last_visible = 0.0
    for line in plan.truth[1:]:
        if line["type"] in VISIBLE:
            last_visible = float(line["t"])
        else:
            assert float(line["t"]) >= last_visible + OPERATOR_DELAY - 1e-9
    assert max(times) <= 60.0
    plays = [m for m in plan.motions if m.kind == "play"]
    assert len(plays) == sum(1 for x in plan.truth if x["type"] in ("start", "play"))


def test_the_truth_log_replays_to_the_expected_outputs(small_video: GameVideo) -> None:
    out = StringIO()
    lines = sidecar(small_video.video, "truth").read_text(encoding="utf-8").splitlines()
    assert replay_lines(lines, out) == 0
    replayed = [json.loads(t) for t in out.getvalue().splitlines()]
    assert replayed == _read(sidecar(small_video.video, "expected"))


def test_the_video_opens_and_has_every_frame(small_video: GameVideo) -> None:
    capture = cv2.VideoCapture(str(small_video.video))
    assert capture.isOpened()
    assert int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) == small_video.frames == 72
    read = 0
    while True:
        ok, image = capture.read()
        if not ok:
            break
        assert image.shape == (720, 1280, 3)
        read += 1
    capture.release()
    assert read == small_video.frames
    meta = json.loads(sidecar(small_video.video, "meta").read_text(encoding="utf-8"))
    assert meta["frames"] == small_video.frames and meta["seed"] == 5
    assert meta["rendered_with"]["opencv"] == cv2.__version__  # the footage depends on it a little


def test_the_oracle_sees_the_top_card_in_the_calibrated_pile_zone(small_video: GameVideo) -> None:
    profile = CalibrationProfile.load(sidecar(small_video.video, "calibration"))
    assert profile.players == 4 and profile.stock is not None and profile.image_size == (1280, 720)
    frames = load_boxes(small_video.video)
    assert len(frames) == small_video.frames
    plays = [x for x in _read(sidecar(small_video.video, "truth")) if x["type"] in ("start", "play")]
    assert plays
    oracle = OracleDetector(frames, profile)
    pile_view = np.zeros((*profile.pile_size[::-1], 3), np.uint8)
    oracle.frame_index = len(frames) - 1
    found = oracle.detect(pile_view)
    assert plays[-1]["card"] in found.labels
    assert "back" not in found.labels  # the stock lies outside the pile zone
    # The seats are where the module docstring says: seat 0 at the bottom, then clockwise.
    centre = profile.pile_centre
    assert profile.seats[0][1] > centre[1] and profile.seats[1][0] < centre[0]
    assert profile.seats[2][1] < centre[1] and profile.seats[3][0] > centre[0]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"misplays": ("bad_code",)}, "unknown misplay"),
        ({"players": 1}, "players"),
        ({"dealer": 5}, "dealer"),
        ({"seconds": 0.0}, "positive"),
        ({"hand_size": 0}, "hand_size"),
    ],
)
def test_bad_configuration_is_a_clear_error(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        replace(VideoConfig(), **changes)  # type: ignore[arg-type]


def test_the_bundled_demo_is_there_with_its_logs() -> None:
    video, operator, calibration = demo_footage()
    assert video.is_file() and video.stat().st_size < 5_000_000  # committed: kept small
    assert sidecar(video, "boxes").stat().st_size < 100_000
    ops = _read(operator)
    assert ops[0]["type"] == "setup" and ops[0]["hand_size"] == DEMO_CONFIG.hand_size
    CalibrationProfile.load(calibration)
    meta = json.loads(sidecar(video, "meta").read_text(encoding="utf-8"))
    assert meta["seed"] == DEMO_SEED and meta["config"]["seconds"] == DEMO_CONFIG.seconds
    # The whole round, short enough to watch: the injected misplays, then its end, scored.
    assert meta["complete_round"] and meta["seconds"] <= 75.0
    assert meta["frames"] == round(meta["seconds"] * DEMO_CONFIG.fps)
    assert [a[:2] for a in meta["expected_alerts"]] == meta["misplays_injected"]
    assert [a[0] for a in meta["expected_alerts"]] == list(DEMO_CONFIG.misplays)
    truth = _read(sidecar(video, "truth"))
    expected = _read(sidecar(video, "expected"))
    assert expected == referee_outputs(truth)  # the files agree with the referee as it is
    ends = [x for x in expected if x["type"] == "round_end" and x["points"] is not None]
    assert len(ends) == 1 and isinstance(ends[0]["points"], int) and ends[0]["points"] > 0
    scores = [x["scores"] for x in expected if x["type"] == "scores"]
    assert len(scores) == 1 and sum(scores[0]) == ends[0]["points"]
    # "Score the round": the operator log reveals every hand but the winner's, after its last card.
    reveals = [x for x in ops if x["type"] == "reveal"]
    assert {x["seat"] for x in reveals} == set(range(DEMO_CONFIG.players)) - {ends[0]["winner"]}
    last_card = max(float(x["t"]) for x in truth if x["type"] in ("start", "play"))
    assert all(float(x["t"]) > last_card for x in reveals) and ops[-len(reveals):] == reveals


@pytest.mark.slow
def test_referee_demo_judges_the_whole_round_as_filmed(tmp_path: Path) -> None:
    """``referee demo`` (the shipped model, every frame judged) reads the demo as its truth log has it:
    every card, seat, draw, pass and told line, both injected misplays, and the round's end, scored."""
    from referee.cli import main

    log = tmp_path / "demo.jsonl"
    assert main(["demo", "--no-serve", "--no-realtime", "--log", str(log)]) == 0
    seen = _read(log)
    video, _, _ = demo_footage()
    truth = _read(sidecar(video, "truth"))
    expected = _read(sidecar(video, "expected"))

    def observed(lines: list[dict[str, object]]) -> list[tuple[object, ...]]:
        told = ("start", "play", "draw", "pass", "uno", "color", "reveal")
        return [(x["type"], x.get("card"), x.get("seat"), x.get("count"), x.get("color"), x.get("cards"))
                for x in lines if x["type"] in told]

    assert seen[0]["type"] == "setup" and seen[0]["hand_size"] == DEMO_CONFIG.hand_size
    assert observed(seen) == observed(truth)
    outputs = ("alert", "round_end", "scores")
    assert [(x["type"], x.get("code"), x.get("seat"), x.get("points"), x.get("scores")) for x in seen
            if x["type"] in outputs] == \
        [(x["type"], x.get("code"), x.get("seat"), x.get("points"), x.get("scores")) for x in expected
         if x["type"] in outputs]


def test_hidden_draws_go_to_the_operator() -> None:
    plan = plan_game(2, VideoConfig(seconds=60.0, visible_draws=False))
    draws = [x for x in plan.truth if x["type"] == "draw"]
    assert draws and all(x in plan.operator for x in draws)
    assert not any(m.kind == "draw" for m in plan.motions)


def _benchmark(name: str) -> ModuleType:
    """A script of ``benchmarks/`` (not a package), imported as a module of that name."""
    if name not in sys.modules:
        benchmarks = Path(__file__).resolve().parents[2] / "benchmarks"
        spec = importlib.util.spec_from_file_location(name, benchmarks / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up while the script runs
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.mark.slow
def test_the_pipeline_with_the_oracle_detector_finds_every_play(tmp_path: Path) -> None:
    e2e = _benchmark("e2e_eval")
    video = write_video(tmp_path / "game.mp4", 7, VideoConfig(seconds=25.0, fps=15.0)).video
    result = e2e.run_game(video, None, oracle=True)
    metrics = e2e.score([result], 2.0)
    assert metrics["pipeline_errors"] == 0
    assert metrics["play_recall"] == 1.0 and metrics["play_precision"] == 1.0
    assert metrics["alert_recall"] == 1.0


@pytest.mark.slow
def test_games_judged_side_by_side_score_as_one_after_another(tmp_path: Path) -> None:
    """``--jobs 2`` renders and judges two games in two processes: the same figures as one by one."""
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "e2e_eval.py"

    def run(jobs: int) -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, str(script), "--oracle", "--games", "2", "--seconds", "8", "--first-seed", "21",
             "--work", str(tmp_path / f"jobs{jobs}"), "--jobs", str(jobs)],
            capture_output=True, text=True, check=True, timeout=300)
        figures: dict[str, object] = json.loads(done.stdout)
        return {k: v for k, v in figures.items() if k != "pipeline_fps"}

    one_by_one = run(1)
    assert one_by_one["games"] == 2 and one_by_one["pipeline_errors"] == 0 and one_by_one["plays"]
    assert run(2) == one_by_one


@pytest.fixture(scope="module")
def trace_video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six seconds of a game at 10 fps, for the traces (rendered once)."""
    return write_video(tmp_path_factory.mktemp("trace") / "game.mp4", 7, VideoConfig(seconds=6.0, fps=10.0)).video


def test_the_trace_shows_each_frame_and_the_start_card(trace_video: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = _benchmark("trace_game")
    assert trace.main([str(trace_video), "--frames", "0", "59", "--oracle"]) == 0
    printed = capsys.readouterr().out
    assert printed.count("--- f") == 60
    assert '"type": "start"' in printed and "   pile  " in printed


def test_the_trace_shows_the_hand_at_the_stock_on_asking(
    trace_video: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    trace = _benchmark("trace_game")
    assert trace.main([str(trace_video), "--frames", "0", "59", "--oracle", "--stock"]) == 0
    stock = [line for line in capsys.readouterr().out.splitlines() if line.startswith("   stock ")]
    assert len(stock) == 60 and all("standing out" in line for line in stock)
    assert any(line.startswith("   stock ep f") for line in stock)  # a hand came by the stock in these 6 s


def test_motion_alone_counts_draws_and_seats_for_each_setting(
    trace_video: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    motion = _benchmark("motion_eval")
    truth = [json.loads(line) for line in sidecar(trace_video, "truth").read_text(encoding="utf-8").splitlines()]
    same, other = motion.game(trace_video, [{}, {"faint_chroma": 0}], 2.0)
    assert same["draws"] == other["draws"] == sum(line["type"] == "draw" for line in truth)
    assert same["plays"] == other["plays"] == sum(line["type"] == "play" for line in truth)
    assert 0 <= same["draw_seats_right"] <= same["draws_seen"] <= same["draws"]
    assert motion.main(["--work", str(tmp_path), "--first-seed", "7"]) == 2  # no video there
    assert "no such video" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        motion.main(["--work", str(tmp_path), "--first-seed", "7", "--set", "faint_chroma"])


def test_the_report_names_plays_and_draws_seen_from_the_wrong_seat() -> None:
    e2e = _benchmark("e2e_eval")
    truth = [{"type": "start", "card": "red_5", "t": 1.0},
             {"type": "play", "card": "red_8", "seat": 1, "t": 3.0},
             {"type": "draw", "seat": 1, "count": 1, "t": 5.0},
             {"type": "play", "card": "red_2", "seat": 2, "t": 7.0}]
    seen = [{"type": "start", "card": "red_5", "t": 1.1},
            {"type": "play", "card": "red_8", "seat": 1, "t": 3.2},
            {"type": "draw", "seat": 2, "count": 1, "t": 5.4},
            {"type": "play", "card": "red_2", "seat": None, "t": 7.2}]
    result = e2e.GameResult(seed=9, frames=120, seconds=8.0, elapsed=1.0, truth=truth, expected=[],
                            events=[("camera", o, []) for o in seen], final=[("camera", o) for o in seen])
    report = e2e.mismatches(result, 2.0)
    assert [(m["what"], m["line"]["t"], m["truth_seat"]) for m in report] == [
        ("wrong_seat_draw", 5.4, 1), ("wrong_seat_play", 7.2, 2)]
    metrics = e2e.score([result], 2.0)
    assert metrics["draw_seat_accuracy"] == 0.0 and metrics["seat_accuracy"] == 0.5


def test_a_play_fixed_later_is_scored_as_the_record_keeps_it_and_as_first_said() -> None:
    e2e = _benchmark("e2e_eval")
    truth = [{"type": "start", "card": "red_5", "t": 1.0}, {"type": "play", "card": "red_9", "seat": 1, "t": 3.0}]
    expected: list[dict[str, object]] = []
    misread = {"type": "play", "card": "red_6", "seat": 1, "t": 3.1}
    alert = {"type": "alert", "code": "illegal_card", "seat": 1, "t": 3.1}
    fixed = dict(misread, card="red_9")
    result = e2e.GameResult(
        seed=9, frames=120, seconds=8.0, elapsed=1.0, truth=truth, expected=expected,
        events=[("camera", truth[0], []), ("camera", misread, [alert])],
        final=[("camera", truth[0]), ("camera", fixed)], final_outputs=[], corrected=1)
    metrics = e2e.score([result], 2.0)
    assert metrics["play_precision"] == 1.0 and metrics["false_plays"] == 0 and metrics["corrected"] == 1
    assert metrics["alert_precision"] is None  # nothing raised in the final record
    assert metrics["first_said"]["false_plays"] == 1 and metrics["first_said"]["alert_precision"] == 0.0
    assert [m["what"] for m in e2e.mismatches(result, 2.0)] == ["fixed_false_play", "fixed_false_alert"]


def test_plays_named_by_the_closer_look_are_tallied_right_and_spoiled() -> None:
    e2e = _benchmark("e2e_eval")
    truth = [{"type": "start", "card": "red_5", "t": 1.0},
             {"type": "play", "card": "red_3", "seat": 1, "t": 3.0},
             {"type": "play", "card": "red_1", "seat": 2, "t": 5.0}]
    closer = {"reason": "read closer up"}
    seen = [{"type": "start", "card": "red_5", "t": 1.1},
            {"type": "play", "card": "red_3", "seat": 1, "t": 3.1, "corrected_from": "red_8", **closer},
            {"type": "play", "card": "red_7", "seat": 2, "t": 5.1, "corrected_from": "red_1", **closer}]
    result = e2e.GameResult(seed=9, frames=120, seconds=8.0, elapsed=1.0, truth=truth, expected=[],
                            events=[("camera", o, []) for o in seen], final=[("camera", o) for o in seen])
    assert e2e.score([result], 2.0)["closer_look"] == {"named": 2, "right": 1, "spoiled": 1}


def test_a_busy_machine_judges_the_first_frame_of_each_step() -> None:
    e2e = _benchmark("e2e_eval")
    assert [i for i in range(9) if e2e.judged(i, 15.0, 10.0)] == [0, 2, 3, 5, 6, 8]
    assert sum(e2e.judged(i, 15.0, 7.5) for i in range(150)) == 75
    assert all(e2e.judged(i, 15.0, None) and e2e.judged(i, 15.0, 30.0) for i in range(30))


def test_false_alerts_are_counted_apart_when_they_were_said_to_be_unsure() -> None:
    e2e = _benchmark("e2e_eval")
    truth = [{"type": "start", "card": "red_5", "t": 1.0}, {"type": "play", "card": "red_9", "seat": 1, "t": 3.0}]
    unsure = {"type": "alert", "code": "out_of_turn", "seat": 1, "t": 3.1, "unsure": "falling behind"}
    sure = {"type": "alert", "code": "illegal_card", "seat": 1, "t": 3.1}
    result = e2e.GameResult(seed=9, frames=120, seconds=8.0, elapsed=1.0, truth=truth, expected=[],
                            events=[("camera", o, []) for o in truth], final=[("camera", o) for o in truth],
                            final_outputs=[unsure, sure])
    metrics = e2e.score([result], 2.0)
    assert (metrics["false_alerts"], metrics["false_confident_alerts"], metrics["unsure_alerts"]) == (2, 1, 1)
