"""referee bench: the generated clip's ground truth, and one small run end to end (detector double)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from referee.bench import PLAY_FRAMES, SLIDE_FRAMES, main, make_clip, run_bench
from referee.vision.detections import Detections


class NoCards:
    """A detector that never sees a card: the pipeline's own cost without a model."""

    face_names = ("0",)

    def detect(self, image: npt.NDArray[np.uint8]) -> Detections:
        assert image.ndim == 3
        return Detections.empty()


def test_clip_ground_truth_matches_the_video(tmp_path: Path) -> None:
    video = tmp_path / "clip.avi"
    landings = make_clip(video, 2 * PLAY_FRAMES + 5, size=(320, 180))
    # The third card starts sliding at frame 60 but would rest after the clip's end.
    assert [(c.seat, c.settle_frame) for c in landings] == [(0, SLIDE_FRAMES), (1, PLAY_FRAMES + SLIDE_FRAMES)]
    cap = cv2.VideoCapture(str(video))
    frames = []
    while True:
        ok, image = cap.read()
        if not ok:
            break
        frames.append(image.astype(np.int16))
    cap.release()
    assert len(frames) == 2 * PLAY_FRAMES + 5 and frames[0].shape == (180, 320, 3)
    # The table is still once the hand has gone, and changes while a card slides in.
    quiet = PLAY_FRAMES - 3
    assert np.abs(frames[quiet] - frames[quiet + 1]).mean() < 2
    assert np.abs(frames[PLAY_FRAMES + 3] - frames[PLAY_FRAMES + 4]).mean() > 2


def test_bench_reports_every_contract_key(tmp_path: Path) -> None:
    result = run_bench(NoCards(), PLAY_FRAMES + 10, size=(320, 180), workdir=tmp_path)
    keys = ["frames", "pipeline_fps", "detector_ms_p50", "detector_ms_p95", "latency_ms_p50", "latency_ms_p95",
            "baseline_ultralytics_fps", "cpu_percent", "rss_mb"]
    assert list(result)[:len(keys)] == keys
    assert result["frames"] == PLAY_FRAMES + 10
    assert result["pipeline_fps"] > 0 and result["detector_ms_p50"] >= 0 and result["rss_mb"] > 0
    assert result["latency_ms_p50"] is None  # nothing seen, nothing judged
    assert result["baseline_ultralytics_fps"] is None
    # The frame loop's own thread's CPU, apart from the process's (whose clock ticks are too coarse to
    # compare on so short a run).
    assert result["pipeline_loop_cpu_ms_per_frame"] > 0
    # The frame loop alone is at least as fast as the pass with the replays' drain after it.
    assert result["pipeline_loop_fps"] >= result["pipeline_fps"] > 0 and result["clips_close_s"] >= 0
    json.dumps(result)


def test_bench_without_a_model_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(model=Path("no/such/detector.onnx"), frames=300, no_baseline=True)
    assert main(args) == 2
    assert "no detector model" in capsys.readouterr().err


def test_end_to_end_evaluation_on_a_generated_game(tmp_path: Path) -> None:
    from referee.bench.games import evaluate_games
    from referee.synth.video import VideoConfig, write_video

    config = VideoConfig(seconds=12, fps=10, width=640, height=360, card_height=60, misplays=("out_of_turn",),
                         first_misplay_after=1, light_changes_per_minute=0)
    video = write_video(tmp_path / "game.mp4", 21, config).video
    result = evaluate_games([video], None)  # the generator's ground-truth detector: the tracker's share
    assert result["games"] == 1 and result["plays"] >= 2
    assert result["play_recall"] == 1.0 and result["play_precision"] == 1.0 and result["false_plays"] == 0
    assert result["card_accuracy"] == 1.0 and result["seat_accuracy"] == 1.0
    json.dumps(result)
