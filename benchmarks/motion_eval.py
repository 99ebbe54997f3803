"""Hands alone: draws and seats from :class:`referee.vision.tracking.MotionDetector` on generated games, two
settings side by side on the same frames.

    python benchmarks/motion_eval.py --work out/e2e_held8 --first-seed 8000 --games 30 \\
        --set faint_chroma=0 --set faint_chroma=3

Reads the videos ``e2e_eval.py`` wrote (``game_N.mp4`` with its truth and calibration beside it) and runs
only the motion detector, a few seconds a game: no detector, no tracker, no referee. For each setting
(``--set NAME=VALUE``, a ``MotionDetector`` keyword; none: the defaults) it counts the truth's draws, those
matched by a draw seen within ``--window`` s after (0.5 s before allowed), the matched ones with the right
seat, the draws seen with no truth draw, and the truth's plays whose seat the motion gives, the most common
seat from 0.2 to 0.6 s after the card came to rest. A game where the settings differ is printed; then one
JSON line of totals per setting. What it cannot tell: how the tracker and the referee use these (a draw's
seat, say, only changes an alert through the referee): ``e2e_eval.py`` says that.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2

from referee.synth.video import sidecar
from referee.vision.calibration import CalibrationProfile
from referee.vision.tracking import MotionDetector

KEYS = ("draws", "draws_seen", "draw_seats_right", "draws_extra", "plays", "play_seats_right")


def _match_draws(truth: Sequence[dict[str, Any]], seen: Sequence[tuple[int | None, float]],
                 window: float) -> tuple[int, int, int]:
    """(matched, matched with the right seat, seen but unmatched): each truth draw takes the first
    unused draw seen from 0.5 s before it to ``window`` s after."""
    used: set[int] = set()
    matched = right = 0
    for draw in truth:
        k = next((k for k, (_, t) in enumerate(seen)
                  if k not in used and draw["t"] - 0.5 <= t <= draw["t"] + window), None)
        if k is not None:
            used.add(k)
            matched += 1
            right += seen[k][0] == draw["seat"]
    return matched, right, len(seen) - len(used)


def game(video: Path, settings: Sequence[dict[str, int]], window: float) -> list[dict[str, int]]:
    """One game through a motion detector per setting, on the same frames."""
    profile = CalibrationProfile.load(sidecar(video, "calibration"))
    truth = [json.loads(line) for line in sidecar(video, "truth").read_text(encoding="utf-8").splitlines()]
    plays = [line for line in truth if line["type"] == "play"]
    fps = float(json.loads(sidecar(video, "meta").read_text(encoding="utf-8"))["fps"])
    detectors = [MotionDetector(profile, fps=fps, **s) for s in settings]
    draws: list[list[tuple[int | None, float]]] = [[] for _ in settings]
    seats: list[dict[float, list[int | None]]] = [{} for _ in settings]
    capture = cv2.VideoCapture(str(video))
    index = 0
    while True:
        ok, image = capture.read()
        if not ok:
            break
        t, pile_view = index / fps, profile.warp_pile(image)
        for j, motion in enumerate(detectors):
            sample = motion.update(image, pile_view)
            draws[j].extend((seat, t) for seat in sample.draws)
            for play in plays:
                if play["t"] + 0.2 <= t <= play["t"] + 0.6:
                    seats[j].setdefault(play["t"], []).append(sample.seat)
        index += 1
    truth_draws = [line for line in truth if line["type"] == "draw"]
    out = []
    for j in range(len(settings)):
        matched, right, extra = _match_draws(truth_draws, draws[j], window)
        play_right = sum(Counter(seen).most_common(1)[0][0] == play["seat"]
                         for play in plays if (seen := seats[j].get(play["t"])))
        out.append(dict(zip(KEYS, (len(truth_draws), matched, right, extra, len(plays), play_right), strict=True)))
    return out


def _setting(text: str) -> dict[str, int]:
    name, sep, value = text.partition("=")
    if not sep or not name.isidentifier():
        raise argparse.ArgumentTypeError(f"{text!r}: want NAME=VALUE, a MotionDetector keyword")
    try:
        return {name: int(value)}
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: the value must be a whole number") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True, help="where e2e_eval.py wrote the videos")
    parser.add_argument("--first-seed", type=int, required=True)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--set", type=_setting, action="append", default=[], dest="settings", metavar="NAME=VALUE",
                        help="a setting to compare (repeatable; none: the defaults)")
    parser.add_argument("--window", type=float, default=2.0, help="seconds allowed from a truth draw to a draw seen")
    args = parser.parse_args(argv)
    settings: list[dict[str, int]] = args.settings or [{}]
    totals = [dict.fromkeys(KEYS, 0) for _ in settings]
    for seed in range(args.first_seed, args.first_seed + args.games):
        video = args.work / f"game_{seed}.mp4"
        if not video.is_file():
            print(f"{video}: no such video (run e2e_eval.py first)", file=sys.stderr)
            return 2
        results = game(video, settings, args.window)
        if any(r != results[0] for r in results):
            print(json.dumps({"seed": seed, "by_setting": results}), flush=True)
        for total, result in zip(totals, results, strict=True):
            for key in KEYS:
                total[key] += result[key]
    for setting, total in zip(settings, totals, strict=True):
        print(json.dumps({"setting": setting, **total}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
