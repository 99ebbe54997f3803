"""What recording instant replays costs the live pipeline: ``referee bench`` without and with clips, interleaved.

    python benchmarks/bench_clips.py [--rounds 3] [--frames 300] [--model models/detector.onnx]

Each round runs the whole bench (:func:`referee.bench.run_bench`: as fast as it goes, then paced like a
live 30 fps camera) once with ``--clips-mb 0`` and once with the default cap, back to back on the same
machine, so a load that comes and goes (other jobs on a shared machine) weighs on both alike. Prints one
JSON line: per setting the median ``pipeline_fps``, ``latency_ms_p95``, ``realtime_dropped_frames`` and
process CPU seconds over the rounds, and every run's figures.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.bench import run_bench  # noqa: E402
from referee.cards import CLASSIC_COLOURS  # noqa: E402
from referee.clips import DEFAULT_CAP_BYTES  # noqa: E402
from referee.commands import open_detector  # noqa: E402

KEYS = ("pipeline_fps", "latency_ms_p50", "latency_ms_p95", "realtime_dropped_frames", "cpu_s", "clips_written")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--model", type=Path, default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    detector = open_detector(args.model, CLASSIC_COLOURS)
    settings = {"off": 0.0, "on": DEFAULT_CAP_BYTES / 2**20}
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in settings}
    for _ in range(args.rounds):
        for name, cap in settings.items():
            result = run_bench(detector, args.frames, clips_mb=cap)
            # Process CPU seconds of the throughput pass (cpu_percent is over its wall time).
            result["cpu_s"] = round(result["cpu_percent"] / 100 * result["frames"] / result["pipeline_fps"], 2)
            runs[name].append({k: result.get(k) for k in KEYS})
            print(name, json.dumps(runs[name][-1]), file=sys.stderr, flush=True)
    medians = {name: {k: statistics.median(r[k] for r in rs) for k in KEYS if rs[0][k] is not None}
               for name, rs in runs.items()}
    print(json.dumps({"rounds": args.rounds, "frames": args.frames, "median": medians, "runs": runs}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
