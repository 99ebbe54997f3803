"""End-to-end evaluation: generated game videos through the real pipeline, scored against their truth.

    python benchmarks/e2e_eval.py [--games 4] [--seconds 60] [--first-seed 2000] [--oracle] [--jobs 1]

Each game is a video from :mod:`referee.synth.video` (seeds ``--first-seed`` onwards). Seeds 15000+ are
kept for held-out sets, each run once at a final commit and never traced or tuned on while held out: 15000-15017
are dev games now (traced after their first run), 15018-15029 were held out and run once each, and a fresh set
takes the next seeds no run has used (docs/e2e-results.md's seeds table says which seeds were run, at which commit, and
which were traced since). 13000-13059 was held out in sessions 35-36, 14000+ are the games filmed with unseen
printings, 12000-12029 the photo-cut games. The demo is seed
185 (a dev seed; four players dealt 4 cards each; seed 11 before), the tests use single digits, and the
dev games the tracker is tuned on are 101-739, 1000-1059, 2000-2059, ..., 10000-10059 and 11000-11059
(each the held-out hour in its day, traced once the next one was made) and 1100-1159. Every frame goes through
:class:`referee.pipeline.Pipeline` (calibration warp, detector, pile tracker, motion/seat attribution,
``MatchSession.submit``) exactly as ``referee run`` does, and the video's operator log (wild colours, UNO
calls, passes, challenges, reveals) is submitted at its times as the dashboard would. What the session
received from the camera is then matched against the truth log, and the referee's alerts against the
expected ones.

``--jobs N`` renders and judges N games at a time, each in its own process with one onnxruntime
thread (the figures are the same; ``pipeline_fps`` stays a single process's).

The detector is ``models/detector.onnx`` (``--model``) when it exists; otherwise, or with
``--oracle``, a double that reads the generator's ground-truth boxes (``"detector": "oracle"`` in
the output): that run validates the tracker, seat attribution and the evaluation itself, not the
model.

Prints one JSON line:

| key | meaning |
|---|---|
| `play_recall`, `play_precision` | camera `start`/`play` lines matching a truth one (same card,
  observed at most `--window` s after it settled) |
| `play_recall_by_minute` | the same recall over the plays of each minute of footage (1, 2, ...): a reader the game
  teaches (`--teach`) should climb |
| `seat_accuracy` | matched plays whose seat is right (a `null` seat counts as wrong); `seat_unknown`:
  the share with `null` |
| `draw_recall`, `draw_precision`, `draw_seat_accuracy`, `draw_seat_unknown` | the same for `draw` lines from hands
  reaching to the stock (a draw whose hand the camera could not place has a `null` seat: the referee gives it to
  the player who owes it) |
| `alerts` | per alert code: `expected`, `raised`, `matched`, `precision`, `recall` (same code and
  seat, within the window) |
| `alert_precision`, `alert_recall` | over every code |
| `false_plays`, `false_plays_per_hour` | camera plays matching no truth play, and per hour of footage |
| `play_delay_s_p50`, `play_delay_s_p95` | video time from a card settling to its `play` observation |
| `footage_s`, `frames`, `pipeline_fps` | footage judged and how fast (single process, including decoding) |
| `rendered_with_opencv`, `opencv` | the OpenCV the footage was rendered with (from each game's `meta`; `unknown` for
  older footage) and the one this run read it with: the same seed renders a little differently under another
  OpenCV, enough to flip a reading the model is unsure of, so figures compare only on the same footage |
| `refused`, `pipeline_errors` | observations the session refused; frames on which the pipeline raised (logged) |
| `corrected`, `undone` | plays the pipeline re-read (`correct` events) and observations it undid (take-backs) |
| `closer_look` | plays named by the pipeline's closer look (`named`), how many of those were right
  (`right`), and how many were wrong where the pile view's own reading had been right (`spoiled`) |
| `first_said` | play and alert figures over every observation and alert as it first came, before those
  fixes: what the overlay showed at the moment (a misread fixed a second later still flashed its alert) |

Every other figure is over the match's final record: the observations still active at the end and
the referee's judgement of them (``MatchSession.outputs``), as the score board keeps them.

``--report FILE`` also writes every mismatch as a JSON line (seed, what, the truth or camera line):
missed and false plays and draws, missed and false alerts, plays and draws seen from the wrong
seat (``wrong_seat_play``, ``wrong_seat_draw``: the camera line, with the truth's seat as
``truth_seat``), and lines that were false when said and fixed later (``fixed_false_play``...);
the place to start when a figure drops.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from referee.rules.simulate import ALERT_CODES
from referee.synth.oracle import OracleDetector
from referee.synth.video import VideoConfig, load_boxes, sidecar, write_video
from referee.vision.calibration import CalibrationProfile
from referee.vision.capture import Frame
from referee.vision.detections import Detector

if TYPE_CHECKING:
    from referee.pipeline import Pipeline
    from referee.vision.classify import FaceClassifier

log = logging.getLogger("e2e_eval")

Line = dict[str, Any]
DEFAULT_MODEL = Path("models/detector.onnx")
DEFAULT_CLASSIFIER = Path("models/classifier.onnx")


@dataclass
class GameResult:
    """What the pipeline made of one video."""

    seed: int
    frames: int
    seconds: float
    elapsed: float
    truth: list[Line]
    expected: list[Line]
    #: (source, observation, outputs) for every observation as first said, in order (later fixes
    #: not applied: what the overlay showed the moment each came)
    events: list[tuple[str, Line, list[Line]]] = field(default_factory=list)
    #: (source, observation) for every observation still active at the end, in order: the match's
    #: record once take-backs (``undo``) and re-reads (``correct``) have been applied
    final: list[tuple[str, Line]] = field(default_factory=list)
    #: the referee's output lines over that record (after every replay)
    final_outputs: list[Line] = field(default_factory=list)
    #: plays re-read (``correct`` events) and observations undone (take-backs) by the pipeline
    corrected: int = 0
    undone: int = 0
    refused: int = 0
    #: frames on which the pipeline raised
    errors: int = 0
    #: what the pipeline found of the table (no calibration given: ``TableFinder.summary``), or ``None``
    table: dict[str, Any] | None = None


def _read_jsonl(path: Path) -> list[Line]:
    return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines() if t.strip()]


def judged(index: int, fps: float, rate: float | None) -> bool:
    """Whether frame ``index`` of footage at ``fps`` is among those judged at ``rate`` frames a second
    (``None``: all of them): the first frame of each 1/``rate`` s step, as a pipeline that can only judge
    ``rate`` frames a second takes them."""
    if rate is None or rate >= fps:
        return True
    return math.floor(index * rate / fps) != math.floor((index - 1) * rate / fps) or index == 0


def run_game(
    video: Path, detector_factory: Any, *, oracle: bool, on_pipeline: Callable[[Pipeline], None] | None = None,
    classifier: FaceClassifier | None = None, judge_fps: float | None = None, told_fps: float | None = None,
    teach: bool = False, calibrated: bool = True, follow: bool = True, cast: str = "",
) -> GameResult:
    """Feed the frames of ``video`` to the pipeline and the operator lines at their times.
    ``on_pipeline`` is shown the pipeline before the first frame (``trace_game.py`` listens in).
    ``judge_fps``: judge only as many frames a second (:func:`judged`), as a machine too busy for the rest;
    ``told_fps``: the frame rate the pipeline is told (default the footage's; give ``judge_fps`` for
    footage filmed at that rate rather than a busy machine). ``cast``: every frame seen under the light of that
    name of ``benchmarks/camera_casts.py`` (a webcam whose white balance failed). ``calibrated=False``: the
    calibration sidecar is not read; the pipeline finds the table itself (:mod:`referee.vision.table_finder`), as
    ``referee run`` without ``--calibration`` does; ``follow=False``: a calibrated run takes the camera as fixed
    (no finder follows a bump)."""
    from referee.commands import deck_faces, deck_palette
    from referee.pipeline import Pipeline
    from referee.session import MatchSession
    from referee.store import Store

    truth = _read_jsonl(sidecar(video, "truth"))
    operator = _read_jsonl(sidecar(video, "operator"))
    expected = _read_jsonl(sidecar(video, "expected"))
    meta = json.loads(sidecar(video, "meta").read_text(encoding="utf-8"))
    profile = CalibrationProfile.load(sidecar(video, "calibration"))  # the oracle's first view when not calibrated
    setup, operator = operator[0], operator[1:]
    if setup.get("type") != "setup":
        raise ValueError(f"{sidecar(video, 'operator')}: the first line must be the setup")
    session = MatchSession(Store(":memory:"), rules=setup.get("rules") or "official", players=setup["players"],
                           dealer=setup["dealer"], options=setup.get("options") or {},
                           hand_size=setup.get("hand_size"))
    detector: Detector
    oracle_detector: OracleDetector | None = None
    if oracle:
        oracle_detector = OracleDetector(load_boxes(video), profile)
        detector = oracle_detector
    else:
        detector = detector_factory()
    result = GameResult(int(meta["seed"]), 0, 0.0, 0.0, truth, expected)

    active: dict[int, tuple[str, Line]] = {}

    def listen(event: Mapping[str, Any]) -> None:
        obs, kind, seq = event.get("observation"), event.get("kind"), event.get("seq")
        if seq is None:
            return
        if kind == "undo":
            active.pop(int(seq), None)
            result.undone += 1
            return
        if kind not in ("observation", "correct") or not isinstance(obs, Mapping):
            return
        if kind == "correct":
            active.pop(int(event["undone_seq"]), None)
            result.corrected += 1
        else:
            result.events.append((str(event.get("source")), dict(obs), [dict(o) for o in event.get("outputs") or ()]))
        active[int(seq)] = (str(event.get("source")), dict(obs))

    session.add_listener(listen)
    fps = float(meta["fps"])
    rules = setup.get("rules") or "official"
    options = setup.get("options") or {}
    # The deck's colours and faces, as `referee run --rules` reads them.
    finder = None
    if not calibrated or follow:  # as `referee run`: a calibrated run's finder only follows a knocked camera
        from referee.vision.table_finder import TableFinder

        finder = TableFinder(int(setup["players"]), given=profile if calibrated else None, fps=told_fps or fps)
    pipeline = Pipeline(detector, session, profile=profile if calibrated else None, players=int(setup["players"]),
                        fps=told_fps or fps, classifier=None if oracle else classifier,
                        palette=deck_palette(rules, options), faces=deck_faces(rules, options), teach=teach,
                        finder=finder)
    if oracle_detector is not None and finder is not None:
        oracle_detector.follow = lambda: pipeline.profile

    if on_pipeline is not None:
        on_pipeline(pipeline)
    tint = _cast_table(cast) if cast else None
    capture = cv2.VideoCapture(str(video))
    if not capture.isOpened():
        raise OSError(f"cannot open {video}")
    started = time.perf_counter()
    pending = 0
    index = 0
    try:
        while True:
            ok, image = capture.read()
            if not ok or image is None:
                break
            if tint is not None:
                image = cv2.LUT(image, tint)
            t = round(index / fps, 4)
            while pending < len(operator) and float(operator[pending].get("t") or 0.0) <= t:
                session.submit(operator[pending], source="operator")
                pending += 1
            if not judged(index, fps, judge_fps):
                index += 1
                continue
            if oracle_detector is not None:
                oracle_detector.frame_index = index
            try:
                pipeline.step(Frame(image, index, t, time.monotonic()))
            except Exception:  # a pipeline bug is counted and reported; the game goes on
                if not result.errors:
                    log.exception("seed %s frame %d: the pipeline failed", meta["seed"], index)
                result.errors += 1
            index += 1
        for line in operator[pending:]:  # told after the last frame
            session.submit(line, source="operator")
    finally:
        capture.release()
    if pipeline.teacher is not None:
        log.info("seed %s: the game taught %s (%s)", meta["seed"], pipeline.teacher.faces_learned,
                 pipeline.teacher.counts)
    result.frames = index
    result.seconds = index / fps
    result.elapsed = time.perf_counter() - started
    result.refused = pipeline.stats.refused
    result.final = [active[seq] for seq in sorted(active)]
    result.final_outputs = session.outputs()
    if finder is not None:
        result.table = finder.summary()
    return result


def _cast_table(name: str) -> np.ndarray:
    """A lookup table (256 x 1 x 3) that puts a frame under the cast ``name`` of ``camera_casts.CASTS``."""
    from camera_casts import CASTS, cast

    ramp = np.repeat(np.arange(256, dtype=np.uint8)[:, None, None], 3, axis=2)
    return cast(ramp, CASTS[name])


def _in_window(truth: Line, seen: Line, window: float) -> bool:
    """``seen`` came within ``[t - 0.25, t + window]`` of the truth line's ``t``."""
    ta = float(truth.get("t") or 0.0)
    return ta - 0.25 <= float(seen.get("t") or 0.0) <= ta + window


def _match(truth: Sequence[Line], seen: Sequence[Line], window: float, same: Any) -> list[tuple[int, int]]:
    """Greedy in-order matching: each truth line to the first unused seen line that ``same`` accepts
    within ``[t - 0.25, t + window]``."""
    used: set[int] = set()
    pairs = []
    for i, a in enumerate(truth):
        for j, b in enumerate(seen):
            if j in used:
                continue
            if _in_window(a, b, window) and same(a, b):
                used.add(j)
                pairs.append((i, j))
                break
    return pairs


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 4) if b else None


def _streams(r: GameResult, first_said: bool = False) -> dict[str, tuple[list[Line], list[Line], Any]]:
    """Per kind: (truth lines, what was seen, when a seen line matches a truth one). What was seen is
    the match's final record, or with ``first_said`` every observation and alert as it first came."""
    if first_said:
        camera = [o for src, o, _ in r.events if src == "camera"]
        alerts = [o for _, _, outs in r.events for o in outs if o.get("type") == "alert"]
    else:
        camera = [o for src, o in r.final if src == "camera"]
        alerts = [o for o in r.final_outputs if o.get("type") == "alert"]
    return {
        "play": ([o for o in r.truth if o["type"] in ("start", "play")],
                 [o for o in camera if o["type"] in ("start", "play")],
                 lambda a, b: a["card"] == b["card"] and a["type"] == b["type"]),
        "draw": ([o for o in r.truth if o["type"] == "draw"], [o for o in camera if o["type"] == "draw"],
                 lambda a, b: True),
        "alert": ([o for o in r.expected if o["type"] == "alert"],
                  alerts,
                  lambda a, b: a["code"] == b["code"] and a["seat"] == b["seat"]),
    }


def _count_closer_looks(
    counts: dict[str, int], truth: Sequence[Line], seen: Sequence[Line], pairs: Sequence[tuple[int, int]], window: float
) -> None:
    """Plays whose face the closer look named (``"reason": "read closer up"``): ``named``; of those,
    ``right`` matched a truth play, and ``spoiled`` did not although the pile view's reading
    (``corrected_from``) was a truth card then unmatched, within the window."""
    matched_truth = {i for i, _ in pairs}
    matched_seen = {j for _, j in pairs}
    for j, line in enumerate(seen):
        if line.get("reason") != "read closer up":
            continue
        counts["named"] += 1
        if j in matched_seen:
            counts["right"] += 1
            continue
        counts["spoiled"] += any(
            i not in matched_truth and a.get("card") == line.get("corrected_from") and _in_window(a, line, window)
            for i, a in enumerate(truth))


def score(results: Sequence[GameResult], window: float, first_said: bool = False) -> dict[str, Any]:
    """The metrics over every game (see the module docstring): over the match's final record, and
    (``first_said``, or the ``first_said`` key) over every observation and alert as it first came."""
    plays_truth = plays_seen = plays_matched = seats_right = seats_unknown = seat_judged = 0
    draws_truth = draws_seen = draws_matched = draw_seats_right = draw_seats_unknown = 0
    unsure_alerts = false_alerts = false_confident = 0
    delays: list[float] = []
    closer = {"named": 0, "right": 0, "spoiled": 0}
    per_code = {code: {"expected": 0, "raised": 0, "matched": 0} for code in ALERT_CODES}
    by_minute: dict[int, list[int]] = {}  # minute of the game -> [plays, matched]
    for r in results:
        streams = _streams(r, first_said)
        t_plays, c_plays, same = streams["play"]
        pairs = _match(t_plays, c_plays, window, same)
        plays_truth += len(t_plays)
        plays_seen += len(c_plays)
        plays_matched += len(pairs)
        matched_truth = {i for i, _ in pairs}
        for i, play in enumerate(t_plays):
            bucket = by_minute.setdefault(int(float(play["t"]) // 60), [0, 0])
            bucket[0] += 1
            bucket[1] += i in matched_truth
        _count_closer_looks(closer, t_plays, c_plays, pairs, window)
        for i, j in pairs:
            delays.append(float(c_plays[j]["t"]) - float(t_plays[i]["t"]))
            if t_plays[i]["type"] != "play":
                continue
            seat_judged += 1
            seat = c_plays[j].get("seat")
            seats_unknown += seat is None
            seats_right += seat == t_plays[i]["seat"]
        t_draws, c_draws, same = streams["draw"]
        dpairs = _match(t_draws, c_draws, window, same)
        draws_truth += len(t_draws)
        draws_seen += len(c_draws)
        draws_matched += len(dpairs)
        draw_seats_right += sum(c_draws[j].get("seat") == t_draws[i]["seat"] for i, j in dpairs)
        draw_seats_unknown += sum(c_draws[j].get("seat") is None for _, j in dpairs)
        e_alerts, raised, same = streams["alert"]
        apairs = _match(e_alerts, raised, window, same)
        for a in e_alerts:
            per_code.setdefault(a["code"], {"expected": 0, "raised": 0, "matched": 0})["expected"] += 1
        for b in raised:
            per_code.setdefault(b["code"], {"expected": 0, "raised": 0, "matched": 0})["raised"] += 1
        for i, _ in apairs:
            per_code[e_alerts[i]["code"]]["matched"] += 1
        paired = {j for _, j in apairs}
        unsure_alerts += sum(bool(b.get("unsure")) for b in raised)
        false_alerts += len(raised) - len(paired)
        false_confident += sum(j not in paired and not b.get("unsure") for j, b in enumerate(raised))
    alerts = {
        code: {**c, "precision": _ratio(c["matched"], c["raised"]), "recall": _ratio(c["matched"], c["expected"])}
        for code, c in per_code.items()
        if c["expected"] or c["raised"]
    }
    footage = sum(r.seconds for r in results)
    frames = sum(r.frames for r in results)
    elapsed = sum(r.elapsed for r in results)
    false_plays = plays_seen - plays_matched
    total_expected = sum(c["expected"] for c in per_code.values())
    total_raised = sum(c["raised"] for c in per_code.values())
    total_matched = sum(c["matched"] for c in per_code.values())
    out = {
        "games": len(results),
        "footage_s": round(footage, 1),
        "frames": frames,
        "plays": plays_truth,
        "play_recall": _ratio(plays_matched, plays_truth),
        "play_precision": _ratio(plays_matched, plays_seen),
        # the reading over the game: plays matched in each minute of footage (a reader that learns climbs)
        "play_recall_by_minute": {str(m + 1): _ratio(k, n) for m, (n, k) in sorted(by_minute.items())},
        "seat_accuracy": _ratio(seats_right, seat_judged),
        "seat_unknown": _ratio(seats_unknown, seat_judged),
        "draws": draws_truth,
        "draw_recall": _ratio(draws_matched, draws_truth),
        "draw_precision": _ratio(draws_matched, draws_seen),
        "draw_seat_accuracy": _ratio(draw_seats_right, draws_matched),
        "draw_seat_unknown": _ratio(draw_seats_unknown, draws_matched),
        "alert_precision": _ratio(total_matched, total_raised),
        "alert_recall": _ratio(total_matched, total_expected),
        # raised while the pipeline fell behind (marked "unsure"), and the false ones said with confidence
        "unsure_alerts": unsure_alerts,
        "false_alerts": false_alerts,
        "false_confident_alerts": false_confident,
        "alerts": alerts,
        "false_plays": false_plays,
        "false_plays_per_hour": round(false_plays / (footage / 3600), 2) if footage else None,
        "play_delay_s_p50": round(float(np.percentile(delays, 50)), 3) if delays else None,
        "play_delay_s_p95": round(float(np.percentile(delays, 95)), 3) if delays else None,
        "refused": sum(r.refused for r in results),
        "pipeline_errors": sum(r.errors for r in results),
        "pipeline_fps": round(frames / elapsed, 1) if elapsed else None,
        "corrected": sum(r.corrected for r in results),
        "undone": sum(r.undone for r in results),
        "closer_look": closer,
    }
    if not first_said:
        said = score(results, window, first_said=True)
        out["first_said"] = {k: said[k] for k in (
            "play_recall", "play_precision", "false_plays", "seat_accuracy", "alert_recall", "alert_precision")}
    return out


def mismatches(result: GameResult, window: float) -> list[Line]:
    """Every truth line the camera missed and every camera line or alert that matches no truth."""
    out: list[Line] = []
    for kind, (truth, seen, same) in _streams(result).items():
        pairs = _match(truth, seen, window, same)
        hit_t, hit_s = {i for i, _ in pairs}, {j for _, j in pairs}
        out.extend({"seed": result.seed, "what": f"missed_{kind}", "line": t}
                   for i, t in enumerate(truth) if i not in hit_t)
        out.extend({"seed": result.seed, "what": f"false_{kind}", "line": s}
                   for j, s in enumerate(seen) if j not in hit_s)
        if kind != "alert":
            out.extend({"seed": result.seed, "what": f"wrong_seat_{kind}", "line": seen[j],
                        "truth_seat": truth[i]["seat"]}
                       for i, j in pairs
                       if truth[i].get("seat") is not None and seen[j].get("seat") != truth[i]["seat"])
    # What was said at first and fixed later (a play re-read in clear view, a ghost taken back).
    final_false = [m["line"] for m in out if m["what"].startswith("false_")]
    for kind, (truth, seen, same) in _streams(result, first_said=True).items():
        hit_s = {j for _, j in _match(truth, seen, window, same)}
        out.extend({"seed": result.seed, "what": f"fixed_false_{kind}", "line": s}
                   for j, s in enumerate(seen) if j not in hit_s and s not in final_false)
    out.sort(key=lambda m: float(m["line"].get("t") or 0.0))
    return out


@dataclass(frozen=True)
class _Job:
    """Render (if needed) and judge one game: picklable, so ``--jobs`` can run it in a worker."""

    work: Path
    config: VideoConfig
    model: Path
    oracle: bool
    classifier: Path | None
    threads: int | None
    judge_fps: float | None = None
    told_fps: float | None = None
    teach: bool = False
    calibrated: bool = True
    follow: bool = True
    cast: str = ""

    def __call__(self, seed: int) -> tuple[GameResult, str]:
        video = self.work / f"game_{seed}.mp4"
        meta_path = sidecar(video, "meta")
        meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
        made = meta.get("config", {})
        if not (video.is_file() and made.get("seconds") == self.config.seconds
                and made.get("faces", "") == self.config.faces
                and made.get("layout", "fixed") == self.config.layout and made.get("bump", False) == self.config.bump):
            write_video(video, seed, self.config)
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        opencv = str(meta.get("rendered_with", {}).get("opencv", "unknown"))

        def factory() -> Detector:
            from referee.vision.detect import load_detector

            return load_detector(self.model, threads=self.threads)

        classifier = None
        if self.classifier is not None:
            from referee.vision.classify import FaceClassifier

            classifier = FaceClassifier(self.classifier, threads=self.threads)
        return run_game(video, factory, oracle=self.oracle, classifier=classifier, judge_fps=self.judge_fps,
                        told_fps=self.told_fps, teach=self.teach, calibrated=self.calibrated,
                        follow=self.follow, cast=self.cast), opencv


def _collect(result: GameResult, opencv: str, results: list[GameResult], rendered_with: set[str],
             args: argparse.Namespace) -> None:
    results.append(result)
    rendered_with.add(opencv)
    if args.verbose:
        game = score([result], args.window)
        log.info("seed %d: %s%s", result.seed, json.dumps({k: game[k] for k in (
            "play_recall", "play_precision", "seat_accuracy", "draw_recall", "draw_seat_accuracy",
            "draw_seat_unknown", "alert_recall", "alert_precision", "false_plays")}),
                 "" if result.table is None else f" table {json.dumps(result.table)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60.0, help="footage per game")
    parser.add_argument("--fps", type=float, default=15.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="official",
                        help="the game's preset, and so its deck: official (classic), lb (orange, violet, blanks), "
                             "breuken (fractions)")
    parser.add_argument("--first-seed", type=int, default=2000)
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--oracle", action="store_true", help="use the ground-truth detector double")
    parser.add_argument("--classifier", type=Path, default=DEFAULT_CLASSIFIER,
                        help="face classifier for the closer look ('none': the detector alone)")
    parser.add_argument("--faces", default="", help="film the cards of this folder of faces cut out of photos "
                        "(python -m referee.synth.photo_faces) instead of the renderer's printings")
    parser.add_argument("--work", type=Path, default=Path("out/e2e"), help="where the videos are written")
    parser.add_argument("--window", type=float, default=2.0, help="seconds allowed from truth to observation")
    parser.add_argument("--judge-fps", type=float, default=None,
                        help="judge only this many frames a second, as a machine too busy for the rest (the "
                             "pipeline is told the footage's rate, so it knows it is falling behind)")
    parser.add_argument("--camera-fps", action="store_true",
                        help="with --judge-fps: the footage as a camera at that rate films it (the pipeline is "
                             "told that rate)")
    parser.add_argument("--teach", action=argparse.BooleanOptionalAction, default=False,
                        help="the game teaches the reader (referee.vision.teaching): sure, accepted cards become views")
    parser.add_argument("--layout", default="fixed", choices=("fixed", "anywhere"),
                        help="fixed: the pile in the middle, seat 0 at the bottom (every hour so far); anywhere: the "
                             "players on any side, the pile anywhere in view (drawn from each seed)")
    parser.add_argument("--bump", action="store_true", help="the camera is knocked once in every game")
    parser.add_argument("--tilt", type=float, default=VideoConfig.tilt,
                        help="the camera's perspective: each corner of the view moved by up to this share of its "
                             "size (a webcam looking down: 0.03, every hour so far; a phone held low: 0.15)")
    parser.add_argument("--no-calibration", dest="calibrated", action="store_false",
                        help="judge without the calibration sidecar: the pipeline finds the table itself")
    parser.add_argument("--fixed-camera", dest="follow", action="store_false",
                        help="a calibrated run takes the camera as fixed: no finder follows a bump")
    parser.add_argument("--cast", default="", help="every frame under this light of benchmarks/camera_casts.py "
                        "(warm, green, cool, strong-warm, strong-cool): a webcam whose white balance failed")
    parser.add_argument("--report", type=Path, help="write every mismatch here as JSON lines")
    parser.add_argument("--jobs", type=int, default=1, help="games rendered and judged at a time (processes)")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per game on stderr")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    oracle = args.oracle or not args.model.is_file()
    if not args.oracle and oracle:
        log.warning("no model at %s: using the ground-truth detector double (an oracle run)", args.model)

    classifier_path = None
    if not oracle and str(args.classifier) != "none":
        if args.classifier.is_file():
            classifier_path = args.classifier
        else:
            log.warning("no classifier at %s: the detector reads faces alone", args.classifier)
    job = _Job(args.work, replace(VideoConfig(), seconds=args.seconds, fps=args.fps, players=args.players,
                                       rules=args.rules, faces=args.faces, layout=args.layout, bump=args.bump,
                                       tilt=args.tilt),
               args.model, oracle, classifier_path, 1 if args.jobs > 1 else None, args.judge_fps,
               args.judge_fps if args.camera_fps else None, args.teach, args.calibrated, args.follow, args.cast)
    seeds = range(args.first_seed, args.first_seed + args.games)
    results: list[GameResult] = []
    rendered_with: set[str] = set()
    if args.jobs > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # Forked workers inherit the parent's OpenMP/onnxruntime state badly: start each afresh.
        with ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
            done = pool.map(job, seeds)
            for result, opencv in done:
                _collect(result, opencv, results, rendered_with, args)
    else:
        for seed in seeds:
            _collect(*job(seed), results, rendered_with, args)
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        with args.report.open("w", encoding="utf-8") as f:
            for r in results:
                f.writelines(json.dumps(m) + "\n" for m in mismatches(r, args.window))
    out = {"detector": "oracle" if oracle else str(args.model), "oracle": oracle, "calibrated": args.calibrated,
           "follow": args.follow, "cast": args.cast, "layout": args.layout, "bump": args.bump, "tilt": args.tilt,
           "classifier": str(classifier_path) if classifier_path is not None else None, "teach": args.teach,
           "seeds": [args.first_seed, args.first_seed + args.games - 1],
           # the footage's OpenCV (the same seed renders a little differently under another) and this run's
           "rendered_with_opencv": sorted(rendered_with), "opencv": cv2.__version__, **score(results, args.window)}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
