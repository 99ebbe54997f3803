"""``referee bench``'s footage made from other seeds: is every card laid found, and nothing more?

    python benchmarks/bench_seeds.py 1 2 3 4 5 6 7 8 9 10 11 12

Each seed writes a 300-frame clip as ``referee bench`` does (``make_clip``: ten cards slid onto a pile
from four seats, each laid over the last at a small offset) and runs the pipeline over every frame. A card
counts as found when a start or play of its label comes within its own time slot. One line per seed, one
JSON line last (``right`` of ``cards``, and ``extra`` plays). ``referee bench`` itself films seed 7.
"""

from __future__ import annotations

import argparse
import json
import logging
import tempfile
import time
from pathlib import Path

from referee.bench import FPS, SEAT_DIRECTIONS, SLIDE_FRAMES, _classifier, _session, make_clip
from referee.pipeline import Pipeline
from referee.vision.capture import Capture
from referee.vision.detect import load_detector


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", type=int, nargs="+")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    detector = load_detector(None)
    total = right = extra = 0
    for seed in args.seeds:
        with tempfile.TemporaryDirectory() as tmp:
            video = Path(tmp) / "bench.avi"
            landings = make_clip(video, 300, seed=seed)
            pipeline = Pipeline(detector, _session(), players=len(SEAT_DIRECTIONS), fps=FPS,
                                classifier=_classifier(detector, None), timer=time.perf_counter)
            stats = pipeline.run(Capture(video, realtime=False))
        seen = [obs for obs, _, _ in stats.verdicts if obs.get("type") in ("start", "play")]
        found = sum(1 for landing in landings if any(
            obs["card"] == landing.card
            and landing.settle_frame - SLIDE_FRAMES // 2 <= int(obs["frame_index"]) < landing.settle_frame + 30
            for obs in seen))
        total, right, extra = total + len(landings), right + found, extra + max(0, len(seen) - found)
        print(f"seed {seed}: {found} of {len(landings)} cards, read {[obs['card'] for obs in seen]}", flush=True)
    print(json.dumps({"right": right, "cards": total, "extra": extra}))


if __name__ == "__main__":
    main()
