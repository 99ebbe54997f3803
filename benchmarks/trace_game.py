"""Frame-by-frame trace of the pile tracker on one generated game: where to look when a figure drops.

    python benchmarks/trace_game.py out/e2e_dev/game_118.mp4 --frames 760 790 [--oracle]

Runs the game through the pipeline exactly as ``e2e_eval.py`` does and prints, for every frame in
``--frames`` (both ends included), what the tracker was shown and what it made of it::

    --- f770 t=51.33 new 1 hand:1 arm:1 seat:2 draws:- visit:24
       det   yellow_5 0.87/0.85 [119 129 256 250]  yellow_9 0.86/0.85 [119 131 256 250]
       pile  yellow_4 [124 118 245 259] missing 20 | yellow_9 [120 114 253 244] missing 1
       cand  [119 129 256 250] hits 1 misses 0 seen 1 seat 2 yellow_5 0.50 yellow_9 0.50
       OUT   {"type": "play", ...}

With ``--stock``, each frame also shows the hand at the stock, where draws are seen (camera pixels)::

       stock ep f45 seat 2 roots 0 came_in 0 in_zone 5 moving 5 held 5 | standing out 124 of 1444 px

``ep``: the episode (a hand near the stock) and the frame it began; ``seat``: its seat so far, from the
arm's far end (``roots``: frames the arm was followed) or, with none, from where the hand came in
(``came_in``: seen outside the zone first); ``in_zone``, ``moving``, ``held``: frames it was in the zone,
moved near it, and stood out from the table in it. A draw needs ``in_zone`` >= 4 at 15 fps, and is
seatless without ``roots`` or ``came_in`` (:class:`referee.vision.tracking.MotionDetector`).

``det``: label, detector confidence / colour confidence and box (top-down pile pixels); ``new 0``:
the detector was not run (the pile was still). ``pile``: the last three cards believed, ``cand``:
the tentative ones with their votes (``identical``, ``absorbed`` when so). The game's truth and
operator logs lie beside the video (``game_N.truth.jsonl``). The tracker's own log lines (why a
reading was no new card) are printed too, at INFO.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from referee.pipeline import Pipeline
    from referee.vision.detections import Detections
    from referee.vision.tracking import MotionDetector, MotionSample, PileTracker, TrackerEvent

sys.path.insert(0, str(Path(__file__).resolve().parent))
import e2e_eval  # a sibling script, not a package


def _box(xyxy: npt.NDArray[np.floating[Any]] | Sequence[float]) -> str:
    return "[" + " ".join(f"{float(v):.0f}" for v in xyxy) + "]"


def frame_report(
    tracker: PileTracker, detections: Detections, t: float, frame_index: int, motion: MotionSample | None,
    fresh: bool, out: Sequence[TrackerEvent], pile: int = 3,
) -> list[str]:
    """The lines printed for one frame, read after the tracker's update."""
    head = f"--- f{frame_index} t={t:.2f} new {int(fresh)}"
    if motion is not None:
        draws = ",".join(str(s) for s in motion.draws) or "-"
        head += (f" hand:{int(motion.disturbed)} arm:{int(motion.arm_over_pile)} seat:{motion.seat}"
                 f" draws:{draws} visit:{motion.pile_visit}")
    colour = detections.colour_confidence if len(detections.colour_confidence) else np.ones(len(detections))
    lines = [head, "   det   " + "  ".join(
        f"{label} {float(conf):.2f}/{float(cc):.2f} {_box(box)}"
        for label, conf, cc, box in zip(detections.labels, detections.confidence, colour, detections.xyxy, strict=False)
    )]
    shown = tracker.pile[-pile:] if pile > 0 else []
    lines.append("   pile  " + " | ".join(f"{c.label} {_box(c.xyxy)} missing {c.missing}" for c in shown))
    for c in tracker.candidates:
        flags = " identical" * c.identical + " absorbed" * c.absorbed
        votes = " ".join(f"{label} {share:.2f}" for label, share in c.ranked()[:3])
        lines.append(f"   cand  {_box(c.box)} hits {c.hits} misses {c.misses} seen {c.seen} seat {c.seat}"
                     f"{flags} {votes}")
    lines.extend(f"   OUT   {json.dumps(o.as_dict())}" for o in out)
    return lines


def stock_report(motion: MotionDetector) -> str:
    """The stock line of one frame, read after the motion detector's update."""
    ep = motion.stock.ep if motion.stock is not None else None  # a trace reads the detector's own state
    zone = motion.stock_zone
    if zone is None:
        return "   stock (no stock zone)"
    out = int((motion.foreground & zone).sum())
    head = "   stock -" if ep is None else (
        f"   stock ep f{ep.start_frame - 1} seat {ep.seat} roots {len(ep.roots)} came_in {int(ep.came_in)}"
        f" in_zone {ep.in_zone} moving {ep.frames} held {ep.held}")
    return f"{head} | standing out {out} of {int(zone.sum())} px"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("video", type=Path, help="a game video written by e2e_eval.py (game_N.mp4)")
    parser.add_argument("--frames", type=int, nargs=2, metavar=("FIRST", "LAST"), required=True)
    parser.add_argument("--model", type=Path, default=e2e_eval.DEFAULT_MODEL)
    parser.add_argument("--oracle", action="store_true", help="use the ground-truth detector double")
    parser.add_argument("--classifier", type=Path, default=e2e_eval.DEFAULT_CLASSIFIER,
                        help="face classifier for the closer look ('none': the detector alone)")
    parser.add_argument("--pile", type=int, default=3, metavar="N", help="pile cards shown, from the top (default 3)")
    parser.add_argument("--stock", action="store_true", help="also show the hand at the stock (draws)")
    parser.add_argument("--no-calibration", action="store_true",
                        help="judge without the calibration sidecar, as e2e_eval.py --no-calibration does")
    parser.add_argument("--debug", action="store_true",
                        help="the tracker's debug lines too (which rule found a reading to be no new card)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s", stream=sys.stdout)
    if not args.video.is_file():
        parser.error(f"no video at {args.video} (e2e_eval.py --work DIR writes game_N.mp4 there)")
    first, last = args.frames

    def listen(pipeline: Pipeline) -> None:
        tracker = pipeline.tracker
        update = tracker.update

        def traced(detections: Detections, t: float, frame_index: int, motion: MotionSample | None = None, *,
                   fresh: bool = True) -> list[TrackerEvent]:
            track_log = logging.getLogger("referee.vision.tracking")
            shown = logging.DEBUG if args.debug else logging.INFO
            track_log.setLevel(shown if first <= frame_index <= last else logging.WARNING)
            out = update(detections, t, frame_index, motion, fresh=fresh)
            if first <= frame_index <= last:
                print("\n".join(frame_report(tracker, detections, t, frame_index, motion, fresh, out, args.pile)))
                if args.stock:
                    print(stock_report(pipeline.motion))
            return out

        setattr(tracker, "update", traced)  # noqa: B010  (this instance only)

    def factory() -> Any:
        from referee.vision.detect import load_detector

        return load_detector(args.model)

    classifier = None
    if not args.oracle and str(args.classifier) != "none" and args.classifier.is_file():
        from referee.vision.classify import FaceClassifier

        classifier = FaceClassifier(args.classifier)
    e2e_eval.run_game(args.video, factory, oracle=args.oracle, on_pipeline=listen, classifier=classifier,
                      calibrated=not args.no_calibration)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
