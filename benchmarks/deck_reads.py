"""How the face classifier names the whole cards of generated games among their deck's faces, at several crop margins.

    python benchmarks/deck_reads.py out/e2e_breuken --rules breuken --pads 0.15 0.05 [--every 3] [--seeds 300 309]

For every ``--every``-th frame of each game video in the folder (rendered by ``e2e_eval.py``), every card the
generator's truth shows at least ``--min-visible`` and whose face the detector has no class for (on the fractions
deck: every fraction) is boxed in the pile view (the truth's quad through the pile homography, as the pipeline
warps it) and read by the classifier as the pipeline reads a card of a deck beyond the detector
(:meth:`referee.pipeline.reading.Reading.read_off_deck`): sampled from the camera frame through the map back from
the pile view, among the deck's faces, at each margin of ``--pads`` (:data:`referee.vision.classify.CROP_PAD`,
:data:`referee.vision.classify.FRACTIONS_PAD`). Per margin: the reads right, the cards (a game's card over its
frames) read wrong more often than right, and the confusions. One JSON line last.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from referee.cards import FACE_CLASSES, Card
from referee.commands import deck_faces
from referee.synth.video import load_boxes, sidecar
from referee.vision.calibration import CalibrationProfile
from referee.vision.classify import FaceClassifier

sys.path.insert(0, str(Path(__file__).resolve().parent))
from read_cards import game_videos


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("work", type=Path, help="folder of game_N.mp4 videos with their sidecars")
    parser.add_argument("--rules", default="breuken", help="the preset whose deck the games use")
    parser.add_argument("--pads", type=float, nargs="+", default=[0.15, 0.05], help="crop margins to compare")
    parser.add_argument("--seeds", type=int, nargs=2, default=None, metavar=("FIRST", "LAST"))
    parser.add_argument("--every", type=int, default=3, help="read every N-th frame")
    parser.add_argument("--min-visible", type=float, default=0.999, help="cards at least this much in view")
    parser.add_argument("--classifier", type=Path, default=None)
    args = parser.parse_args(argv)
    videos = game_videos(args.work, args.seeds)
    if not videos:
        print(json.dumps({"error": f"no game videos in {args.work}"}))
        return 2
    faces = deck_faces(args.rules, {})
    classifier = FaceClassifier(args.classifier) if args.classifier else FaceClassifier()
    reads = 0
    right: Counter[float] = Counter()
    errors: dict[float, Counter[str]] = {pad: Counter() for pad in args.pads}
    cards: dict[tuple[float, str, str], list[bool]] = defaultdict(list)
    for video in videos:
        capture = cv2.VideoCapture(str(video))
        if not capture.isOpened():
            raise OSError(f"cannot open {video}")
        boxes = load_boxes(video)
        profile = None
        index = -1
        while True:
            ok, frame = capture.read()
            if not ok:
                break
            index += 1
            if index % args.every or index >= len(boxes):
                continue
            if profile is None:
                profile = CalibrationProfile.load(sidecar(video, "calibration")).fitted(frame.shape[1], frame.shape[0])
                to_view = profile.pile_homography()
                view_to_image = np.linalg.inv(to_view).astype(np.float64)
                width, height = profile.pile_size
            for label, quad, visible in boxes[index]:
                face = Card.from_label(label).face if label != "back" else "back"
                if visible < args.min_visible or face in FACE_CLASSES or face not in faces:
                    continue
                corners = cv2.perspectiveTransform(quad.reshape(1, 4, 2).astype(np.float64), to_view)[0]
                (x1, y1), (x2, y2) = corners.min(axis=0), corners.max(axis=0)
                if x1 < 0 or y1 < 0 or x2 > width or y2 > height:
                    continue
                reads += 1
                for pad in args.pads:
                    read = classifier.read(frame, (x1, y1, x2, y2), view_to_image=view_to_image, allowed=faces, pad=pad)
                    top = read[0][0] if read else "none"
                    right[pad] += top == face
                    cards[(pad, video.stem, label)].append(top == face)
                    if top != face:
                        errors[pad][f"{face}->{top}"] += 1
        capture.release()
    def mostly_wrong(pad: float) -> list[str]:
        return sorted(f"{game} {label}" for (p, game, label), ok in cards.items() if p == pad and np.mean(ok) < 0.5)

    out = {"videos": len(videos), "reads": reads, "every": args.every, "min_visible": args.min_visible,
           "by_pad": {str(pad): {"accuracy": round(right[pad] / max(reads, 1), 4), "wrong": reads - right[pad],
                                 "cards_mostly_wrong": mostly_wrong(pad), "errors": dict(errors[pad].most_common(10))}
                      for pad in args.pads}}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
