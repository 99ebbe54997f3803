"""``referee bench``: throughput and latency of the full pipeline, beside a plain ultralytics loop.

The footage is made here, from a fixed seed, with the synthetic table compositor: cards slide in
from the four seats' sides in a hand, come to rest on the pile, the hand goes back; one card a
second at 30 fps, 1280x720, written as an MJPG video (what most webcams deliver) so the measured
pipeline decodes it like a camera stream. We know the frame each card comes to rest on.

Two passes over the same video:

1. as fast as it goes (every frame processed): ``pipeline_fps`` (capture, warp, detect, track,
   referee, overlay/JPEG for the stream), ``detector_ms_p50/p95``, ``cpu_percent`` (process CPU
   time over wall time; 200 = both cores busy) and ``rss_mb``;
2. paced in real time like a live 30 fps camera (the capture keeps only the newest frame):
   ``latency_ms_p50/p95``, from the moment a card's resting frame would arrive from the camera to
   the referee's verdict on it.

``baseline_ultralytics_fps``: ``YOLO(models/detector.pt).predict`` at its defaults on every frame
(``null`` when ultralytics or the .pt weights are missing).

The machine's load may change while the bench runs (other work on a shared machine), so the two are timed
A-B-A: the throughput pass, the baseline, the throughput pass again; ``pipeline_fps`` is both passes'
frames over both passes' time (``pipeline_fps_passes`` each), so a load that comes or goes meanwhile weighs
on both sides alike. ``pipeline_cpu_ms_per_frame`` and ``baseline_cpu_ms_per_frame`` are the process's CPU
time a frame, the figures to compare when the wall-clock rates swing with the load;
``pipeline_loop_cpu_ms_per_frame`` is the frame loop's own thread's share of it (the rest: the capture's
decoding, onnxruntime's other thread, the replays' writer), the one that bounds the rate on a loaded machine.
``pipeline_fps`` counts, after the last frame, the wait for the replays' writer to finish the clip it holds
(``clips_close_s``: at the lowest priority on a busy machine, from a tenth of a second to many seconds of a
ten-second pass); ``pipeline_loop_fps`` is the frames over the frame loop's own time, first frame to last:
the rate a live camera sees, the writer's work during the loop counted, its drain at the end not.

``referee bench --games N`` (or videos) scores the pipeline on generated games instead: :mod:`referee.bench.games`.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.bench.games import main_games, percentile
from referee.cards import CLASSIC_COLOURS, Card
from referee.clips import ClipRecorder, recorder_for
from referee.contract import Play, Start
from referee.pipeline import Pipeline
from referee.readers import CommandError, apply_deck, open_classifier, open_detector
from referee.vision.capture import Capture
from referee.vision.detections import Detector

log = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]
FPS = 30.0
PLAY_FRAMES = 30  # one card a second
SLIDE_FRAMES = 10
RETREAT_FRAMES = 8
#: Seat directions from the pile (seat 0 at the bottom, clockwise on screen).
SEAT_DIRECTIONS = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))


@dataclass(frozen=True)
class Landing:
    """Ground truth: a card that comes to rest on ``settle_frame``, played from ``seat``."""

    card: str
    seat: int
    settle_frame: int


def _ease(f: float) -> float:
    return 1 - (1 - f) ** 3


def make_clip(path: Path, frames: int, size: tuple[int, int] = (1280, 720), seed: int = 7) -> list[Landing]:
    """Write the bench video to ``path`` (MJPG); returns when each card comes to rest."""
    from referee.synth.render import random_palette
    from referee.synth.scene import CardPlacement, Overlay, card_quad, compose
    from referee.synth.textures import background, hand_layer, skin_tone

    rng = np.random.default_rng(seed)
    w, h = size
    side = max(w, h)
    base = background(rng, side)[:h, :w].copy()
    height = h * 0.3
    centre = (w / 2, h / 2)
    design = 0
    skins = [skin_tone(rng) for _ in SEAT_DIRECTIONS]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), FPS, (w, h))
    if not writer.isOpened():
        raise CommandError(f"cannot write the bench video {path}")
    landings: list[Landing] = []
    still = base
    colours = CLASSIC_COLOURS
    try:
        for frame_index in range(frames):
            k, phase = divmod(frame_index, PLAY_FRAMES)
            if phase == 0:
                seat = k % len(SEAT_DIRECTIONS)
                card = Card(colours[int(rng.integers(0, 4))], str(int(rng.integers(0, 10))))
                palette = random_palette(card, rng)
                rest = (centre[0] + rng.normal(0, height * 0.08), centre[1] + rng.normal(0, height * 0.08))
                angle = float(rng.uniform(-30, 30))
                dx, dy = SEAT_DIRECTIONS[seat]
                landing_settle = frame_index + SLIDE_FRAMES
                if landing_settle < frames:
                    landings.append(Landing(card.label, seat, landing_settle))
            if phase < SLIDE_FRAMES:
                f = _ease(phase / SLIDE_FRAMES)
                far = side * 0.7
                pos = (rest[0] + dx * far * (1 - f), rest[1] + dy * far * (1 - f))
                moving = CardPlacement(card, card_quad(pos, height, angle + 25 * (1 - f)), design, palette,
                                       shadow=0.3)
                hand = hand_layer(rng, side, (pos[0] + dx * height * 0.3, pos[1] + dy * height * 0.3), height * 0.8,
                                  angle=math.atan2(dy, dx), skin=skins[seat])[:h, :w]
                image = compose(still, [moving, Overlay(np.ascontiguousarray(hand))], rng).image
            else:
                if phase == SLIDE_FRAMES:
                    laid = CardPlacement(card, card_quad(rest, height, angle), design, palette)
                    still = compose(still, [laid], rng).image
                if phase < SLIDE_FRAMES + RETREAT_FRAMES:
                    f = (phase - SLIDE_FRAMES + 1) / RETREAT_FRAMES
                    back = height * 0.3 + side * 0.6 * f
                    target = (rest[0] + dx * back, rest[1] + dy * back)
                    hand = hand_layer(rng, side, target, height * 0.8, angle=math.atan2(dy, dx),
                                      skin=skins[seat])[:h, :w]
                    image = compose(still, [Overlay(np.ascontiguousarray(hand))], rng).image
                else:
                    image = still
            writer.write(image)
    finally:
        writer.release()
    return landings


def _session() -> Any:
    from referee.session import MatchSession
    from referee.store import Store

    return MatchSession(Store(":memory:"), players=len(SEAT_DIRECTIONS))


def _recording(session: Any, clips_mb: float | None) -> ClipRecorder | None:
    """The instant-replay recorder a run has (a temporary folder here), listening to ``session``;
    ``None`` when ``clips_mb`` is 0 (to measure the pipeline without it)."""
    clips = recorder_for(None, clips_mb)
    if clips is not None:
        session.add_listener(clips.on_event)
    return clips


def _classifier(detector: Detector, deck: Path | None) -> Any:
    """The pipeline's face classifier, reading with ``deck`` when one is given."""
    classifier = open_classifier(None, detector)
    apply_deck(deck, detector, classifier, CLASSIC_COLOURS)
    return classifier


def throughput(detector: Detector, video: Path, deck: Path | None = None, clips_mb: float | None = None
               ) -> dict[str, Any]:
    """Pass 1: every frame, as fast as the pipeline goes (instant replays recorded as a run does,
    their writer's work counted in the CPU and the wall time). ``_wall_s`` and ``_cpu_s`` (the pass's
    seconds) let :func:`run_bench` pool two passes."""
    import psutil

    process = psutil.Process()
    classifier = _classifier(detector, deck)
    session = _session()
    clips = _recording(session, clips_mb)
    pipeline = Pipeline(detector, session, players=len(SEAT_DIRECTIONS), fps=FPS, timer=time.perf_counter,
                        classifier=classifier, replay=clips.ring if clips is not None else None)
    cpu0 = process.cpu_times()
    start = time.perf_counter()
    loop0 = time.thread_time()
    stats = pipeline.run(Capture(video, realtime=False))
    loop = time.thread_time() - loop0
    ended = time.perf_counter()
    if clips is not None:
        clips.close()
    wall = time.perf_counter() - start
    cpu1 = process.cpu_times()
    cpu = (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system)
    return {
        "frames": stats.frames,
        "pipeline_fps": round(stats.frames / wall, 1) if wall > 0 else None,
        "pipeline_loop_fps": round(stats.frames / (ended - start), 1) if ended > start else None,
        "detector_ms_p50": percentile(stats.detector_ms, 50),
        "detector_ms_p95": percentile(stats.detector_ms, 95),
        "frame_ms_p50": percentile(stats.frame_ms, 50),
        "cpu_percent": round(100 * cpu / wall, 1) if wall > 0 else None,
        "pipeline_cpu_ms_per_frame": round(1000 * cpu / stats.frames, 1) if stats.frames else None,
        "pipeline_loop_cpu_ms_per_frame": round(1000 * loop / stats.frames, 1) if stats.frames else None,
        "rss_mb": round(process.memory_info().rss / 2**20, 1),
        "observations": stats.observations,
        "classifier": str(classifier.path) if classifier is not None else None,
        # After the last frame: the writer finishing the clip it holds (at the lowest priority).
        "clips_close_s": round(wall - (ended - start), 2),
        "clips_written": clips.written if clips is not None else None,
        # Still queued when the footage ended: a run with no record (this one) does not write them.
        "clips_unwritten": clips.unwritten if clips is not None else None,
        "_detector_ms": stats.detector_ms,
        "_frame_ms": stats.frame_ms,
        "_wall_s": wall,
        "_loop_wall_s": ended - start,
        "_cpu_s": cpu,
        "_loop_s": loop,
    }


def _pooled(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """Two throughput passes as one: frames over time, CPU over time, percentiles over both passes' samples,
    clips summed (``frames``, ``observations`` and ``rss_mb`` the first pass's)."""
    frames = first["frames"] + second["frames"]
    wall = first["_wall_s"] + second["_wall_s"]
    cpu = first["_cpu_s"] + second["_cpu_s"]
    loop = first["_loop_s"] + second["_loop_s"]
    loop_wall = first["_loop_wall_s"] + second["_loop_wall_s"]
    detector_ms = [*first["_detector_ms"], *second["_detector_ms"]]
    frame_ms = [*first["_frame_ms"], *second["_frame_ms"]]
    pooled = {k: v for k, v in first.items() if not k.startswith("_")}
    pooled.update({
        "pipeline_fps": round(frames / wall, 1) if wall > 0 else None,
        "pipeline_fps_passes": [first["pipeline_fps"], second["pipeline_fps"]],
        "pipeline_loop_fps": round(frames / loop_wall, 1) if loop_wall > 0 else None,
        "detector_ms_p50": percentile(detector_ms, 50),
        "detector_ms_p95": percentile(detector_ms, 95),
        "frame_ms_p50": percentile(frame_ms, 50),
        "cpu_percent": round(100 * cpu / wall, 1) if wall > 0 else None,
        "pipeline_cpu_ms_per_frame": round(1000 * cpu / frames, 1) if frames else None,
        "pipeline_loop_cpu_ms_per_frame": round(1000 * loop / frames, 1) if frames else None,
    })
    for key in ("clips_written", "clips_unwritten"):
        if first[key] is not None:
            pooled[key] = first[key] + second[key]
    pooled["clips_close_s"] = round(first["clips_close_s"] + second["clips_close_s"], 2)
    return pooled


def latency(detector: Detector, video: Path, landings: Sequence[Landing], deck: Path | None = None,
            clips_mb: float | None = None) -> dict[str, Any]:
    """Pass 2: paced like a live camera; card at rest (as the camera would deliver it) -> verdict."""
    session = _session()
    clips = _recording(session, clips_mb)
    pipeline = Pipeline(detector, session, players=len(SEAT_DIRECTIONS), fps=FPS, timer=time.monotonic,
                        classifier=_classifier(detector, deck), replay=clips.ring if clips is not None else None)
    capture = Capture(video, realtime=True)
    stats = pipeline.run(capture)
    if clips is not None:
        clips.close()
    latencies: list[float] = []
    seats_right = 0
    cards = [(obs, _frame_index(obs), captured, verdict) for obs, captured, verdict in stats.verdicts
             if isinstance(obs, Start | Play)]
    # Pair each landing with the first card observed in its own time slot (from half a slide before
    # it settles until the next card's slot), so a missed or extra card cannot shift every later pair.
    slack = SLIDE_FRAMES // 2
    for i, landing in enumerate(landings):
        end = landings[i + 1].settle_frame - slack if i + 1 < len(landings) else math.inf
        match = next(
            ((obs, index, captured, verdict) for obs, index, captured, verdict in cards
             if landing.settle_frame - slack <= index < end),
            None,
        )
        if match is None:
            continue
        obs, index, captured, verdict = match
        # The capture clock's zero: a frame's arrival time minus its place in the video.
        t0 = captured - index / FPS
        latencies.append((verdict - (t0 + landing.settle_frame / FPS)) * 1000)
        seats_right += isinstance(obs, Start) or obs.seat == landing.seat
    return {
        "latency_ms_p50": percentile(latencies, 50),
        "latency_ms_p95": percentile(latencies, 95),
        "cards_landed": len(landings),
        "cards_seen": len(cards),
        "seats_right": seats_right,
        "realtime_dropped_frames": capture.status().dropped,
    }


def _frame_index(card: Start | Play) -> int:
    """The frame the pipeline believed ``card`` at (it notes the frame on every start and play it submits)."""
    if card.camera is None:
        raise ValueError(f"{card!r} has no camera notes")
    return card.camera.frame_index


def ultralytics_baseline(weights: Path, video: Path) -> dict[str, Any] | None:
    """A plain ``YOLO(weights).predict`` loop at its defaults over every frame (decoded beforehand, not
    timed): ``baseline_ultralytics_fps`` and ``baseline_cpu_ms_per_frame`` (the process's CPU time a frame);
    ``None`` without ultralytics or the weights."""
    try:
        from ultralytics import YOLO
    except ImportError:
        return None
    if not weights.is_file():
        log.warning("no %s: ultralytics baseline skipped", weights)
        return None
    model = YOLO(str(weights))
    frames = [f.image for f in Capture(video, realtime=False)]
    if not frames:
        return None
    model.predict(frames[0], verbose=False)  # warm-up (model fusing, first allocation)
    cpu = time.process_time()
    start = time.perf_counter()
    for image in frames:
        model.predict(image, verbose=False)
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {"baseline_ultralytics_fps": round(len(frames) / wall, 1),
            "baseline_cpu_ms_per_frame": round(1000 * cpu / len(frames), 1)}


def _baseline_apart(weights: Path, video: Path) -> dict[str, Any] | None:
    """:func:`ultralytics_baseline` in a process of its own: importing ultralytics turns OpenCV's threads off
    (``cv2.setNumThreads(0)``) and torch's to one in the process that imports it, which would slow every
    pass of the pipeline after it (and its memory would count in ``rss_mb``)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        result: dict[str, Any] | None = pool.submit(ultralytics_baseline, weights, video).result()
    return result


def run_bench(
    detector: Detector,
    frames: int,
    *,
    size: tuple[int, int] = (1280, 720),
    baseline_weights: Path | None = None,
    workdir: Path | None = None,
    deck: Path | None = None,
    clips_mb: float | None = None,
) -> dict[str, Any]:
    """Both passes (and the baseline) on a fresh clip; the JSON-able result. ``clips_mb``: the instant
    replays' cap, as ``referee run --clips-mb`` (0: none recorded)."""
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        video = Path(tmp) / "bench.avi"
        landings = make_clip(video, frames, size)
        result: dict[str, Any] = {"width": size[0], "height": size[1], "source_fps": FPS}
        # A-B-A: the pipeline, the baseline, the pipeline again (see the module's docstring).
        first = throughput(detector, video, deck, clips_mb)
        baseline = _baseline_apart(baseline_weights, video) if baseline_weights is not None else None
        result.update(_pooled(first, throughput(detector, video, deck, clips_mb)))
        result.update(baseline or {"baseline_ultralytics_fps": None, "baseline_cpu_ms_per_frame": None})
        result.update(latency(detector, video, landings, deck, clips_mb))
    order = ["frames", "pipeline_fps", "detector_ms_p50", "detector_ms_p95", "latency_ms_p50", "latency_ms_p95",
             "baseline_ultralytics_fps", "cpu_percent", "rss_mb"]
    return {**{k: result[k] for k in order}, **{k: v for k, v in result.items() if k not in order}}


def main(args: argparse.Namespace) -> int:
    """``referee bench``: one JSON line."""
    games = getattr(args, "games", 0) or getattr(args, "videos", None)
    try:
        detector = None if games and getattr(args, "oracle", False) else open_detector(args.model, CLASSIC_COLOURS)
    except CommandError as exc:
        print(f"referee bench: {exc}", file=sys.stderr)
        return 2
    if games:
        return main_games(args, detector)
    assert detector is not None
    if args.frames < PLAY_FRAMES:
        print(f"referee bench: --frames must be at least {PLAY_FRAMES}", file=sys.stderr)
        return 2
    weights = None
    if not args.no_baseline:
        model = Path(args.model) if args.model is not None else Path("models/detector.onnx")
        weights = model.with_suffix(".pt")
    try:
        result = run_bench(detector, args.frames, baseline_weights=weights, deck=getattr(args, "deck", None),
                           clips_mb=getattr(args, "clips_mb", None))
    except CommandError as exc:
        print(f"referee bench: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


