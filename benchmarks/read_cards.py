"""How well each reader names the faces of whole cards in generated game footage, side by side.

    python benchmarks/read_cards.py out/e2e_dev11 --every 15 [--seeds 680 739]

For every ``--every``-th frame of each game video in the folder (rendered by ``e2e_eval.py``), every card
the generator's truth shows at least ``--min-visible`` is boxed in the pile view (as the pipeline warps it),
and read four ways:

- ``pile_view``: the detector on the whole pile view, the detection overlapping the card best (IoU >= 0.5);
- ``closer``: the detector's closer look (:func:`referee.vision.detect.look_closer`: a crop, as it lies
  and turned, the lower confidence);
- ``classifier``: the face classifier on a square crop (:class:`referee.vision.classify.FaceClassifier`);
- ``combined``: the two closer looks together (:func:`referee.vision.classify.second_look`), as the
  pipeline now takes them.
- ``agreed``: ``combined``, only where the two closer readers' own surest faces agree (``[]`` otherwise).

The tracker believes the pile view and lets a closer look replace a face it is sure of (0.85 by default):
so besides each reader's accuracy, ``replace`` counts, for each closer reader at each ``--sure`` level, the
pile-view misreads it would put right (``fixed``) and the right readings it would spoil (``spoiled``).
One JSON line last.
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
import numpy as np

from referee.cards import Card
from referee.synth.oracle import OracleDetector
from referee.synth.video import load_boxes, sidecar
from referee.vision.calibration import CalibrationProfile
from referee.vision.classify import FaceClassifier, second_look
from referee.vision.detect import load_detector, look_closer
from referee.vision.detections import iou

READERS = ("pile_view", "closer", "classifier", "combined", "agreed")


def agreed_look(
    closer: Sequence[tuple[str, float]], classifier: Sequence[tuple[str, float]],
) -> list[tuple[str, float]]:
    """The combined look's surest face only where each reader's own surest face is that face (``[]``
    otherwise): both readers must lean the same way, whatever their average says."""
    combined = second_look(closer, classifier)
    if not closer or not classifier or not combined or closer[0][0] != classifier[0][0]:
        return []
    return combined[:1] if combined[0][0] == closer[0][0] else []


def read_game(video: Path, detector: Any, classifier: FaceClassifier, *, every: int, min_visible: float,
              sure: Sequence[float], tally: Counter[str], errors: Counter[str]) -> None:
    profile = CalibrationProfile.load(sidecar(video, "calibration"))
    truth = OracleDetector(load_boxes(video), profile, min_visible=min_visible)
    capture = cv2.VideoCapture(str(video))
    if not capture.isOpened():
        raise OSError(f"cannot open {video}")
    index = -1
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        index += 1
        if index % every:
            continue
        view = profile.warp_pile(frame)
        truth.frame_index = index
        cards = truth.detect(view)
        if not len(cards):
            continue
        detections = detector.detect(view)
        for box, label in zip(cards.xyxy, cards.labels, strict=True):
            face = Card.from_label(label).face
            overlaps = [iou(box, d) for d in detections.xyxy]
            best = int(np.argmax(overlaps)) if overlaps else -1
            pile = (detector.face_names[int(detections.class_id[best])]
                    if best >= 0 and overlaps[best] >= 0.5 else "none")
            looks = {"closer": look_closer(detector, view, box), "classifier": classifier.read(view, box)}
            looks["combined"] = second_look(looks["closer"], looks["classifier"])
            looks["agreed"] = agreed_look(looks["closer"], looks["classifier"])
            tally["cards"] += 1
            tally["pile_view"] += pile == face
            if pile != face:
                errors[f"pile_view {face}->{pile}"] += 1
            for name, faces in looks.items():
                top, conf = faces[0] if faces else ("none", 0.0)
                tally[name] += top == face
                if top != face:
                    errors[f"{name} {face}->{top}"] += 1
                for level in sure:
                    if conf >= level and top != pile:  # the tracker would take the closer look's face
                        tally[f"{name}_{level}_fixed" if top == face else f"{name}_{level}_spoiled"] += 1
    capture.release()


def game_videos(work: Path, seeds: Sequence[int] | None = None) -> list[Path]:
    """The ``game_N.mp4`` videos in ``work`` by seed, those from ``seeds[0]`` to ``seeds[1]`` when given."""
    videos = sorted(work.glob("game_*.mp4"), key=lambda p: int(p.stem.split("_")[1]))
    if seeds:
        videos = [v for v in videos if seeds[0] <= int(v.stem.split("_")[1]) <= seeds[1]]
    return videos


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("work", type=Path, help="folder of game_N.mp4 videos with their sidecars")
    parser.add_argument("--seeds", type=int, nargs=2, default=None, metavar=("FIRST", "LAST"))
    parser.add_argument("--every", type=int, default=15, help="read every N-th frame")
    parser.add_argument("--min-visible", type=float, default=0.95, help="cards at least this much in view")
    parser.add_argument("--sure", type=float, nargs="+", default=[0.85],
                        help="a closer look this sure replaces the pile view's face (several: each is counted)")
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--classifier", type=Path, default=None)
    args = parser.parse_args(argv)
    videos = game_videos(args.work, args.seeds)
    if not videos:
        print(json.dumps({"error": f"no game videos in {args.work}"}))
        return 2
    detector = load_detector(args.model)
    classifier = FaceClassifier(args.classifier) if args.classifier else FaceClassifier()
    tally: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    for video in videos:
        read_game(video, detector, classifier, every=args.every, min_visible=args.min_visible, sure=args.sure,
                  tally=tally, errors=errors)
    n = max(tally["cards"], 1)
    out = {"videos": len(videos), "cards": tally["cards"], "every": args.every, "min_visible": args.min_visible,
           "accuracy": {r: round(tally[r] / n, 4) for r in READERS},
           "replace": {str(level): {r: {"fixed": tally[f"{r}_{level}_fixed"], "spoiled": tally[f"{r}_{level}_spoiled"]}
                                    for r in READERS[1:]} for level in args.sure},
           "errors": dict(errors.most_common(25))}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
