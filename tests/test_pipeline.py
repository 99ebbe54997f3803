"""The pipeline end to end on generated frames: capture -> warp -> detect -> track -> session -> log.

The detector here is a test double that finds flat-coloured rectangles (one colour per card label),
so these tests exercise the wiring, the tracker and the referee, not the model.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from referee.commands import demo, execute, run
from referee.contract import OutputLine
from referee.live_status import PipelineStatus
from referee.pipeline import LogWriter, Pipeline
from referee.rules.replay import replay_file
from referee.session import MatchSession
from referee.store import Store
from referee.vision.calibration import CalibrationProfile
from referee.vision.capture import Capture, Frame
from referee.vision.detections import Detections
from referee.vision.tracking import Draw, PileTracker, Play, Reread, Start, TakeBack, TrackerConfig

Image = npt.NDArray[np.uint8]
W, H = 320, 240
TABLE = (150, 150, 150)
HAND = (40, 60, 90)
COLOURS: dict[str, tuple[int, int, int]] = {"red_5": (0, 0, 255), "red_7": (20, 20, 200), "blue_5": (255, 0, 0)}


class ColourDetector:
    """Finds each card colour's visible pixels and reports their bounding box with that label."""

    face_names = ("5", "7")

    def __init__(self) -> None:
        self.calls = 0

    def detect(self, image: Image) -> Detections:
        self.calls += 1
        boxes, labels = [], []
        for label, colour in COLOURS.items():
            ys, xs = np.nonzero(np.all(image == colour, axis=2))
            if len(xs) >= 150:
                boxes.append((xs.min(), ys.min(), xs.max() + 1, ys.max() + 1))
                labels.append(label)
        if not boxes:
            return Detections.empty()
        n = len(boxes)
        return Detections(np.array(boxes, np.float32), np.full(n, 0.9, np.float32), np.zeros(n, np.int64),
                          tuple(labels), np.ones(n, np.float32))


def _frame(cards: list[tuple[str, tuple[int, int]]], hand: tuple[int, int, int, int] | None) -> Image:
    image = np.full((H, W, 3), TABLE, np.uint8)
    for label, (cx, cy) in cards:
        image[max(cy - 30, 0):max(cy + 30, 0), max(cx - 20, 0):max(cx + 20, 0)] = COLOURS[label]
    if hand is not None:
        x1, y1, x2, y2 = hand
        image[max(y1, 0):max(y2, 0), max(x1, 0):max(x2, 0)] = HAND
    return image


def _game() -> list[Image]:
    """Seat 0 (bottom) turns the start card; then seat 2 (top) plays out of turn; then a hand hovers."""
    frames = [_frame([], None) for _ in range(8)]
    laid: list[tuple[str, tuple[int, int]]] = []

    def lay(label: str, rest: tuple[int, int], side: str) -> None:
        for k in range(9):  # the hand carries the card in from its side
            f = k / 8
            if side == "bottom":
                pos = (rest[0], int(H + 40 + (rest[1] - H - 40) * f))
                hand = (pos[0] - 15, pos[1] + 30, pos[0] + 15, H)
            else:
                pos = (rest[0], int(-40 + (rest[1] + 40) * f))
                hand = (pos[0] - 15, 0, pos[0] + 15, pos[1] - 30)
            frames.append(_frame([*laid, (label, pos)], hand))
        laid.append((label, rest))
        for k in range(8):  # ... and goes back
            f = 1 - k / 7
            if side == "bottom":
                hand = (rest[0] - 15, int(rest[1] + 30 + (H - rest[1] - 30) * (1 - f)), rest[0] + 15, H)
            else:
                hand = (rest[0] - 15, 0, rest[0] + 15, int((rest[1] - 30) * f))
            frames.append(_frame(laid, hand))
        frames.extend(_frame(laid, None) for _ in range(12))

    lay("red_5", (150, 120), "bottom")
    lay("red_7", (175, 125), "top")
    # A hand hovers over the pile and leaves without playing.
    for k in range(10):
        frames.append(_frame(laid, (100, 0, 220, 60 + 10 * k)))
    frames.extend(_frame(laid, None) for _ in range(12))
    return frames


def _args(tmp_path: Path, **kw: object) -> argparse.Namespace:
    base: dict[str, object] = {
        "rules": "official", "players": 4, "dealer": 0, "option": [], "db": None, "model": None,
        "log": tmp_path / "out.jsonl", "no_serve": True, "calibration": None, "realtime": False,
        "host": "127.0.0.1", "port": 0, "token": None, "script": None,
        "found_calibration": tmp_path / "found.json",
    }
    base.update(kw)
    return argparse.Namespace(**base)


@pytest.fixture(scope="module")
def game_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("frames")
    for i, image in enumerate(_game()):
        cv2.imwrite(str(folder / f"{i:04d}.png"), image)
    return folder


def test_run_on_an_image_folder_logs_observations_and_verdicts_in_order(
    tmp_path: Path, game_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The seats where this footage's hands come from: the whole frame's, spread around its edges.
    CalibrationProfile.whole_frame(W, H, 4).save(tmp_path / "table.json")
    args = _args(tmp_path, calibration=tmp_path / "table.json")
    assert execute(args, str(game_folder), realtime=False, detector=ColourDetector()) == 0
    lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    summary = [(d["type"], d.get("code") or d.get("card"), d.get("seat")) for d in lines if d["type"] != "info"]
    assert summary == [
        ("setup", None, None),
        ("start", "red_5", None),
        ("play", "red_7", 2),
        ("alert", "out_of_turn", 2),
    ]
    # Standard output carries the same lines.
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert printed == lines


def test_with_no_calibration_a_seat_not_yet_found_raises_no_sure_verdict(tmp_path: Path, game_folder: Path) -> None:
    args = _args(tmp_path)
    assert execute(args, str(game_folder), realtime=False, detector=ColourDetector()) == 0
    lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    plays = [d for d in lines if d["type"] == "play"]
    assert [(d["card"], d["seat"]) for d in plays] == [("red_7", 1)]  # the turn's seat, until the seats are found
    assert "seats not found yet" in plays[0]["unsure"]
    assert not [d for d in lines if d["type"] == "alert" and not d.get("unsure")]


def test_pipeline_feeds_the_session_frames_and_status(game_folder: Path) -> None:
    session = MatchSession(Store(":memory:"), players=4)
    detector = ColourDetector()
    pipeline = Pipeline(detector, session, players=4)
    stats = pipeline.run(Capture(game_folder))
    assert stats.frames == len(list(game_folder.iterdir()))
    # The still stretches between the hands are not all sent to the detector.
    assert detector.calls == stats.detector_calls < stats.frames
    assert [o["type"] for o in session.export_log()] == ["setup", "start", "play"]
    index, jpeg = session.frame()
    assert index > 0 and jpeg is not None and jpeg[:2] == b"\xff\xd8"
    status = session.snapshot()["status"]
    assert status["camera"] == "ended" and status["frames"] == stats.frames and status["observations"] == 2


def test_a_still_pile_is_detected_only_now_and_then(tmp_path: Path) -> None:
    still = _frame([("red_5", (150, 120))], None)
    for i in range(60):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), still)
    detector = ColourDetector()
    pipeline = Pipeline(detector, MatchSession(Store(":memory:"), players=4), players=4, fps=30)
    stats = pipeline.run(Capture(tmp_path))
    # Until the first card is believed, then twice a second.
    believed = pipeline.tracker.config.min_hits
    assert stats.frames == 60
    assert believed <= detector.calls <= believed + 60 // pipeline.refresh_every + 1
    assert [c.label for c in pipeline.tracker.pile] == ["red_5"]


def test_a_still_pile_is_detected_every_frame_while_the_tracker_waits_to_settle_a_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card waiting for a clear view after an arm faded out without moving would otherwise wait for
    the looks a still pile gets now and then (seed 1010)."""
    still = _frame([("red_5", (150, 120))], None)
    for i in range(60):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), still)
    monkeypatch.setattr(PileTracker, "waiting", property(lambda self: True))
    detector = ColourDetector()
    stats = Pipeline(detector, MatchSession(Store(":memory:"), players=4), players=4, fps=30).run(Capture(tmp_path))
    assert stats.frames == detector.calls == 60


def test_operator_script_lines_arrive_at_their_time(tmp_path: Path, game_folder: Path) -> None:
    script = tmp_path / "operator.jsonl"
    script.write_text(
        '{"type":"setup","players":3,"dealer":2,"rules":"official"}\n'
        '{"type":"uno","seat":0,"t":0.1}\n'
        '{"type":"pass","seat":0,"t":99}\n'
    )
    args = _args(tmp_path, script=script)
    assert execute(args, str(game_folder), realtime=False, detector=ColourDetector()) == 0
    lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    kinds = [(d["type"], d.get("card")) for d in lines if d["type"] in ("setup", "uno", "start", "play", "pass")]
    assert kinds == [("setup", None), ("uno", None), ("start", "red_5"), ("play", "red_7"), ("pass", None)]
    assert lines[0]["players"] == 3 and lines[0]["dealer"] == 2


def test_a_bad_script_line_is_named(tmp_path: Path, game_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "operator.jsonl"
    script.write_text('{"type":"uno","seat":0}\n{oops\n')
    assert run(_args(tmp_path, source=str(game_folder), script=script)) == 2
    assert "operator.jsonl:2" in capsys.readouterr().err


def test_a_new_round_from_the_dashboard_resets_the_pile(game_folder: Path) -> None:
    session = MatchSession(Store(":memory:"), players=4)
    pipeline = Pipeline(ColourDetector(), session, players=4)
    session.add_listener(pipeline.on_event)
    frames = list(Capture(game_folder))
    for frame in frames[:40]:
        pipeline.step(frame)
    assert pipeline.tracker.pile
    session.submit({"type": "setup", "players": 4, "dealer": 1}, source="operator")
    pipeline.step(frames[40])
    assert not pipeline.tracker.pile and pipeline.tracker.expect_start


def test_log_writer_follows_session_events(tmp_path: Path) -> None:
    session = MatchSession(Store(":memory:"), players=3)
    path = tmp_path / "log.jsonl"
    with path.open("w") as handle:
        writer = LogWriter(handle)
        session.add_listener(writer.on_event)
        session.submit({"type": "start", "card": "red_3"}, source="operator")
        session.submit({"type": "play", "card": "blue_9", "seat": 1}, source="camera")
        session.undo()
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [line["type"] for line in lines] == ["start", "play", "alert", "info"]
    assert lines[2]["code"] == "illegal_card" and lines[3]["undone"]["card"] == "blue_9"


def test_a_run_log_with_a_correction_and_an_undo_replays_as_the_session_judged_it(tmp_path: Path) -> None:
    """``referee run --log`` writes the referee's lines and each fix (a misread corrected, a ghost
    undone) between the observations; ``referee replay`` on that log applies the fixes, so what it
    judges afterwards is what the session judged, and no line of the log is an error."""
    session = MatchSession(Store(":memory:"), players=3)
    path = tmp_path / "log.jsonl"
    with path.open("w") as handle:
        writer = LogWriter(handle)
        writer.write_all(session.export_log())  # the setup, as `referee run` writes it
        session.add_listener(writer.on_event)
        session.submit({"type": "start", "card": "red_3"}, source="camera")
        session.submit({"type": "play", "card": "blue_9", "seat": 1}, source="camera")  # misread: illegal
        session.correct("red_9", source="camera")
        session.submit({"type": "play", "card": "green_9", "seat": 2}, source="camera")
        session.undo()  # the green 9 was a ghost
        session.submit({"type": "play", "card": "red_7", "seat": 2}, source="camera")
        session.submit({"type": "play", "card": "blue_7", "seat": 0}, source="camera")
    out = io.StringIO()
    assert replay_file(path, out) == 0
    replayed = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(line["type"], line.get("code"), line.get("seat")) for line in replayed] == [
        ("alert", "illegal_card", 1), ("info", None, None), ("info", None, None)]  # said then, withdrawn twice
    assert [line["undone"]["card"] for line in replayed[1:]] == ["blue_9", "green_9"]
    assert session.outputs() == []  # the session's record: the red 9, the red 7 and the blue 7 are legal


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"model": Path("no/such/model.onnx")}, "no detector model"),
        ({"classifier": Path("no/such/classifier.onnx")}, "no classifier model"),
        ({"classifier": Path(__file__).resolve().parents[1] / "models" / "detector.onnx"}, "not a face classifier"),
        ({"rules": "chess"}, "unknown rule preset"),
        ({"option": ["stack_draw2"]}, "NAME=VALUE"),
        ({"option": ["flying=yes"]}, "unknown rule option"),
        ({"calibration": Path("no/such/table.json")}, "no calibration profile"),
    ],
)
def test_bad_input_is_a_clear_error(
    tmp_path: Path, game_folder: Path, capsys: pytest.CaptureFixture[str], kw: dict[str, object], message: str
) -> None:
    args = _args(tmp_path, source=str(game_folder), **kw)
    assert run(args) == 2
    assert message in capsys.readouterr().err


def test_a_missing_source_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(_args(tmp_path, source=str(tmp_path / "nope.mp4"))) == 2
    assert "no such camera, file, folder or stream" in capsys.readouterr().err


def test_demo_without_a_model_says_so_before_rendering_anything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import referee.commands as commands_module

    def no_rendering() -> None:
        raise AssertionError("rendered the demo footage for a pipeline without a model")

    monkeypatch.setattr(commands_module, "demo_footage", no_rendering)
    assert demo(_args(tmp_path, model=tmp_path / "none.onnx")) == 2
    assert "no detector model" in capsys.readouterr().err


# The tracker's events as the tests below hand them to the pipeline, all at the first frame.
def _start(card: str) -> Start:
    return Start(card, t=0.0, frame_index=0)


def _play(card: str, seat: int, *alternatives: str) -> Play:
    return Play(card, seat, t=0.0, frame_index=0, alternatives=alternatives)


def _draw(seat: int) -> Draw:
    return Draw(seat, t=0.0, frame_index=0)


def _take_back(card: str, seat: int) -> TakeBack:
    return TakeBack(card, seat, t=0.0, frame_index=0)


def _reread(card: str, was: str, seat: int) -> Reread:
    return Reread(card, was, seat, t=0.0, frame_index=0)


def test_a_card_taken_back_undoes_its_play() -> None:
    session = MatchSession(Store(":memory:"), players=4)
    pipeline = Pipeline(ColourDetector(), session, players=4)
    frame = Frame(np.zeros((H, W, 3), np.uint8), 0, 0.0)
    pipeline.submit(_start("red_5"), frame)
    outputs = pipeline.submit(_play("blue_9", 1), frame)
    assert [o["code"] for o in outputs if o["type"] == "alert"] == ["illegal_card"]
    pipeline.submit(_take_back("blue_9", 1), frame)
    assert [o["type"] for o in session.export_log()] == ["setup", "start"]
    assert session.snapshot()["top_card"] == "red_5"
    # A take-back of a card that is not the newest play changes nothing.
    pipeline.submit(_take_back("green_1", 1), frame)
    assert [o["type"] for o in session.export_log()] == ["setup", "start"]


def test_a_ghost_taken_back_after_a_draw_is_undone_and_the_rest_judged_again() -> None:
    """A misread seen to vanish only after the next player drew: its play goes, the draw stays."""
    session = MatchSession(Store(":memory:"), players=4)
    pipeline = Pipeline(ColourDetector(), session, players=4)
    frame = Frame(np.zeros((H, W, 3), np.uint8), 0, 0.0)
    pipeline.submit(_start("red_5"), frame)
    pipeline.submit(_play("red_draw2", 1), frame)
    pipeline.submit(_draw(1), frame)  # what seat 1 really did
    pipeline.submit(_take_back("red_draw2", 1), frame)
    assert [(o["type"], o.get("card")) for o in session.export_log()] == [
        ("setup", None), ("start", "red_5"), ("draw", None)]
    assert session.snapshot()["top_card"] == "red_5"
    # With the ghost gone, seat 1 is still the one to play: no out-of-turn, no owed +2.
    outputs = pipeline.submit(_play("red_7", 1), frame)
    assert _alerts(outputs) == []


def test_the_card_queries_follow_the_live_referee_after_an_undo() -> None:
    from referee.pipeline import card_query

    session = MatchSession(Store(":memory:"), players=4)
    check = card_query(session, "legal_now")
    assert check is not None
    session.submit({"type": "start", "card": "red_5"}, source="operator")
    assert check("red_9") and not check("blue_9")
    session.submit({"type": "play", "card": "blue_5", "seat": 1}, source="camera")
    assert check("blue_9")
    session.undo()
    assert check("red_9") and not check("blue_9")
    possible = card_query(session, "possible_now")
    assert possible is not None and possible("blue_9") and not possible("red_1/2")


def _alerts(outputs: list[OutputLine]) -> list[str]:
    return [o["code"] for o in outputs if o["type"] == "alert"]


def test_the_next_seat_fixes_an_unsure_read_that_turned_play_the_wrong_way() -> None:
    """A reverse read as a 5 (the 5 was the runner-up) would make every later play out of turn: the
    seat that plays next is explained only by the reverse, so the last play is corrected first."""
    session = MatchSession(Store(":memory:"), players=4)  # dealer 0: seat 1 starts, clockwise
    pipeline = Pipeline(ColourDetector(), session, players=4)
    frame = Frame(np.zeros((H, W, 3), np.uint8), 0, 0.0)
    pipeline.submit(_start("red_7"), frame)
    pipeline.submit(_play("red_5", 1, "red_reverse"), frame)
    outputs = pipeline.submit(_play("red_3", 0), frame)
    assert _alerts(outputs) == []
    assert [o.get("card") for o in session.export_log()[-2:]] == ["red_reverse", "red_3"]
    assert _alerts(pipeline.submit(_play("red_4", 3), frame)) == []


def test_a_read_with_no_alternative_or_one_that_explains_nothing_stays() -> None:
    session = MatchSession(Store(":memory:"), players=4)
    pipeline = Pipeline(ColourDetector(), session, players=4)
    frame = Frame(np.zeros((H, W, 3), np.uint8), 0, 0.0)
    pipeline.submit(_start("red_7"), frame)
    pipeline.submit(_play("red_5", 1, "red_6"), frame)
    # Seat 3 is out of turn, and a 6 instead of the 5 would not have made it seat 3's turn.
    assert _alerts(pipeline.submit(_play("red_3", 3), frame)) == ["out_of_turn"]
    assert [o.get("card") for o in session.export_log()[-2:]] == ["red_5", "red_3"]
    # Without alternatives a genuine out-of-turn play stays one.
    pipeline.submit(_play("red_1", 0), frame)
    assert _alerts(pipeline.submit(_play("red_2", 2), frame)) == ["out_of_turn"]


def test_a_card_read_otherwise_in_clear_view_corrects_its_play() -> None:
    """A red 9 laid on a yellow 6 read as a red 6 under the hand (legal: the same face), then as a 9
    in clear view: the play is corrected and judged again, so the illegal card is caught after all
    (dev seed 400). Once something came after the play, a re-read leaves the record as it is."""
    session = MatchSession(Store(":memory:"), players=4)
    pipeline = Pipeline(ColourDetector(), session, players=4)
    frame = Frame(np.zeros((H, W, 3), np.uint8), 0, 0.0)
    pipeline.submit(_start("yellow_6"), frame)
    assert _alerts(pipeline.submit(_play("red_6", 1), frame)) == []
    outputs = pipeline.submit(_reread("red_9", "red_6", 1), frame)
    assert _alerts(outputs) == ["illegal_card"]
    assert [o.get("card") for o in session.export_log()[-2:]] == ["yellow_6", "red_9"]
    pipeline.submit(_play("red_2", 2), frame)
    pipeline.submit(_draw(3), frame)
    assert pipeline.submit(_reread("red_7", "red_2", 2), frame) == []
    assert [o.get("card") for o in session.export_log()[-3:]] == ["red_9", "red_2", None]
    # A re-read of a card that is not the newest play changes nothing either.
    assert pipeline.submit(_reread("red_1", "red_9", 1), frame) == []


def test_a_start_card_read_otherwise_in_clear_view_is_corrected() -> None:
    """A blue 5 start card read as a 3 as it landed, then as a 5 where it lay (dev seed 2030): the start
    card is corrected while nothing came after it, so the next play is judged on the 5."""
    session = MatchSession(Store(":memory:"), players=4)
    pipeline = Pipeline(ColourDetector(), session, players=4)
    frame = Frame(np.zeros((H, W, 3), np.uint8), 0, 0.0)
    pipeline.submit(_start("blue_3"), frame)
    pipeline.submit(_reread("blue_5", "blue_3", 0), frame)
    assert session.snapshot()["top_card"] == "blue_5"
    assert _alerts(pipeline.submit(_play("red_5", 1), frame)) == []


def test_the_pipeline_gives_a_colour_reading_detector_the_decks_printing_to_learn() -> None:
    from referee.cards import LB_COLOURS
    from referee.vision.colour import DeckColours

    class PixelReader(ColourDetector):
        deck: DeckColours | None = None

    detector = PixelReader()
    Pipeline(detector, MatchSession(Store(":memory:"), players=4), players=4, palette=LB_COLOURS)
    assert isinstance(detector.deck, DeckColours) and detector.deck.palette == LB_COLOURS
    assert not hasattr(ColourDetector(), "deck")  # a detector that reads no colour is left alone


def test_a_long_run_says_how_far_it_got(game_folder: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A run without the dashboard logs its progress now and then (here: every frame after the first)."""
    import logging

    pipeline = Pipeline(ColourDetector(), MatchSession(Store(":memory:"), players=4), players=4)
    with caplog.at_level(logging.INFO, logger="referee.pipeline"):
        stats = pipeline.run(Capture(game_folder), progress_every=0.0)
    said = [r.getMessage() for r in caplog.records if "frames judged" in r.getMessage()]
    assert len(said) == stats.frames - 1 and said[-1].startswith(f"{stats.frames} frames judged")


def _judge_frames(keep_every: int, pipeline: Pipeline | None = None
                  ) -> tuple[list[OutputLine], PipelineStatus]:
    """The game filmed at 30 fps, every ``keep_every``-th frame judged (as on a machine too busy for
    the rest); the referee's outputs and the last status."""
    pipeline = pipeline or Pipeline(ColourDetector(), MatchSession(Store(":memory:"), players=4), players=4,
                                    fps=30.0)
    outputs: list[OutputLine] = []
    for index, image in enumerate(_game()):
        if index % keep_every == 0:
            outputs.extend(pipeline.step(Frame(image, index, index / 30.0, index / 30.0)))
    return outputs, pipeline.status()


def test_frame_counts_stand_for_the_same_times_at_the_rate_frames_are_judged() -> None:
    pipeline = Pipeline(ColourDetector(), MatchSession(Store(":memory:"), players=4), players=4, fps=30.0)
    assert pipeline.tracker.config.min_hits == TrackerConfig.for_fps(30.0).min_hits
    _judge_frames(3, pipeline)
    assert pipeline.timed_fps == 10
    assert pipeline.tracker.config.min_hits == TrackerConfig.for_fps(10.0).min_hits
    assert pipeline.motion is not None and pipeline.motion.quiet_frames == 3 and pipeline.refresh_every == 5
    # A config given by the caller keeps its times, counted at the rate frames are judged at.
    given = TrackerConfig(settle_s=0.7)
    fixed = Pipeline(ColourDetector(), MatchSession(Store(":memory:"), players=4), players=4, fps=30.0,
                     tracker_config=given)
    assert fixed.tracker.config.min_hits == 21
    _judge_frames(3, fixed)
    assert fixed.tracker.config.settle_s == 0.7 and fixed.timed_fps == 10 and fixed.tracker.config.min_hits == 7


def test_verdicts_judged_while_falling_behind_are_marked_unsure(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="referee.pipeline"):
        outputs, status = _judge_frames(keep_every=2)
    assert _alerts(outputs) == ["out_of_turn"]
    alert = next(o for o in outputs if o["type"] == "alert")
    assert alert["unsure"] == "falling behind: 15 fps processed of 30, verdicts may be wrong"
    assert status["warning"] == alert["unsure"]
    assert any("falling behind" in r.getMessage() for r in caplog.records)


def test_verdicts_on_every_frame_are_confident() -> None:
    outputs, status = _judge_frames(keep_every=1)
    assert _alerts(outputs) == ["out_of_turn"]
    assert all("unsure" not in o for o in outputs)
    assert status["warning"] is None
