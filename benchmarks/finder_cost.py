"""What the table finder costs a frame: the same rendered game through the pipeline three ways, with the
time each frame's ``Pipeline.step`` took, the finder's share of it (``TableFinder.observe``) and the camera
follower's share of that (``CameraFollower.update``).

    python benchmarks/finder_cost.py VIDEO [--model] [--seconds 20]

``VIDEO`` is a game rendered by :mod:`referee.synth.video` with its sidecars (``e2e_eval.py --work`` keeps
them). The three ways, one after the other on the same frames:

- ``fixed``: calibrated, no finder (the camera taken as fixed: ``e2e_eval.py --fixed-camera``);
- ``follow``: calibrated, a finder given the profile that only follows a knocked camera (``referee run
  --calibration``);
- ``find``: no calibration, the finder finding the table (``referee run`` with none).

The detector is the ground-truth double unless ``--model`` (the shipped ONNX model): the finder's cost
stands out without the model's. Prints one JSON line: for each way, ``frames``, ``step_ms_mean``,
``step_ms_p50``, ``step_ms_p95``, the same for ``finder_ms`` and ``follower_ms`` (wall-clock), ``cpu_ms_mean``
(this thread's CPU a frame: step, finder, follower; steadier than the wall-clock on a loaded machine) and,
for ``find``, the split at the frame the pile was found (``before_pile`` / ``after_pile``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from e2e_eval import DEFAULT_CLASSIFIER, DEFAULT_MODEL, run_game

from referee.pipeline import Pipeline

WAYS = {"fixed": (True, False), "follow": (True, True), "find": (False, True)}


def _timed(spent: list[float], call: Callable[..., Any], cpu: list[float] | None = None) -> Callable[..., Any]:
    """``call``, its wall-clock milliseconds appended to ``spent`` (and this thread's CPU ones to ``cpu``)."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            return call(*args, **kwargs)
        finally:
            spent.append((time.perf_counter() - t0) * 1000)
            if cpu is not None:
                cpu.append((time.thread_time() - c0) * 1000)
    return wrapper


def _stats(values: Sequence[float], prefix: str) -> dict[str, float]:
    if not values:
        return {}
    a = np.array(values)
    return {f"{prefix}_mean": round(float(a.mean()), 2), f"{prefix}_p50": round(float(np.percentile(a, 50)), 2),
            f"{prefix}_p95": round(float(np.percentile(a, 95)), 2)}


def measure(video: Path, way: str, *, model: bool, seconds: float) -> dict[str, Any]:
    """One way (:data:`WAYS`) over ``video``'s first ``seconds``: the times each frame."""
    calibrated, follow = WAYS[way]
    steps: list[float] = []
    observes: list[float] = []
    follows: list[float] = []
    cpu: dict[str, list[float]] = {"step": [], "finder": [], "follower": []}
    pile_frame: list[int] = []

    def listen(pipeline: Pipeline) -> None:
        step = pipeline.step

        def limited(frame: Any) -> Any:
            if frame.t > seconds:
                return []
            if pipeline.finder is not None and pipeline.finder.pile_found and not pile_frame:
                pile_frame.append(len(steps))
            return _timed(steps, step, cpu["step"])(frame)

        pipeline.step = limited  # type: ignore[method-assign]
        finder = pipeline.finder
        if finder is not None:
            observe = finder.observe

            def observed(*args: Any, **kwargs: Any) -> None:
                if finder._follow is not None and not getattr(finder._follow, "_timed", False):
                    finder._follow.update = _timed(follows, finder._follow.update, cpu["follower"])  # type: ignore[method-assign]
                    finder._follow._timed = True  # type: ignore[attr-defined]
                _timed(observes, observe, cpu["finder"])(*args, **kwargs)

            finder.observe = observed  # type: ignore[method-assign]

    def factory() -> Any:
        from referee.vision.detect import load_detector

        return load_detector(DEFAULT_MODEL, threads=1)

    classifier = None
    if model and DEFAULT_CLASSIFIER.is_file():
        from referee.vision.classify import FaceClassifier

        classifier = FaceClassifier(DEFAULT_CLASSIFIER, threads=1)
    run_game(video, factory, oracle=not model, on_pipeline=listen, classifier=classifier, calibrated=calibrated,
             follow=follow)
    out: dict[str, Any] = {"frames": len(steps), **_stats(steps, "step_ms"), **_stats(observes, "finder_ms"),
                           **_stats(follows, "follower_ms"),
                           "cpu_ms_mean": {k: round(float(np.mean(v)), 2) for k, v in cpu.items() if v}}
    if way == "find" and pile_frame:
        cut = pile_frame[0]
        out["pile_found_frame"] = cut
        for name, part in (("before_pile", slice(None, cut)), ("after_pile", slice(cut, None))):
            out[name] = {**_stats(steps[part], "step_ms"), **_stats(observes[part], "finder_ms"),
                         "cpu_ms_mean": {k: round(float(np.mean(v[part])), 2) for k in ("step", "finder")
                                         if (v := cpu[k])[part]}}
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("video", type=Path)
    parser.add_argument("--model", action="store_true", help="the shipped model, not the ground-truth double")
    parser.add_argument("--seconds", type=float, default=20.0, help="footage timed (from the start)")
    parser.add_argument("--ways", nargs="+", choices=sorted(WAYS), default=list(WAYS))
    args = parser.parse_args(argv)
    out = {"video": str(args.video), "detector": "model" if args.model else "oracle", "seconds": args.seconds,
           **{way: measure(args.video, way, model=args.model, seconds=args.seconds) for way in args.ways}}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
