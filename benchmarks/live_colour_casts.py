"""The live pile view's colour reads under a colour cast, on rendered game videos, without the models.

Each frame of each video is put under the cast (``camera_casts.CASTS``, as ``e2e_eval.py --cast`` does), warped to
the pile view and white-balanced as the pipeline does it (:class:`~referee.vision.white_balance.WhiteBalance`
on the cards' boxes), and the colour of every card the ground truth shows at least half in view is read by
:class:`~referee.vision.colour.DeckColours` as the live pipeline reads it (learning from its sure reads). Counted
against the truth, for cards in whole view (at least 90 %) and in part (a hand or another card over them): right,
wrong, and right but weak (under 0.75 of the votes: too weak for a re-read). Fast (some 20 s a video and cast on
the 2-core CPU) and the same frames for every variant, so two versions of the colour code compare exactly; the
end-to-end figures stay ``e2e_eval.py``'s.

    python benchmarks/live_colour_casts.py out/e2e_ring/game_1600[0-2].mp4 --casts none cool strong-cool

The videos are those ``e2e_eval.py --work DIR`` renders (with their sidecars).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from referee.cards import CLASSIC_COLOURS, Card
from referee.synth.video import load_boxes, sidecar
from referee.vision.calibration import CalibrationProfile
from referee.vision.colour import DeckColours
from referee.vision.white_balance import WhiteBalance

sys.path.insert(0, str(Path(__file__).parent))
from camera_casts import CASTS, cast

#: Under this share of the votes a right read is weak: the tracker's re-read wants 0.75.
WEAK = 0.75


def read_game(video: Path, cast_name: str, step: int = 3) -> tuple[collections.Counter[str], collections.Counter[str]]:
    """Counts (``whole_right``, ``whole_wrong``, ``whole_weak``, ``part_right``, ``part_wrong``) of one video under
    ``cast_name`` ('' for none), every ``step``-th frame, and the wrong reads as ``truth->read`` counts."""
    profile = CalibrationProfile.load(sidecar(video, "calibration"))
    frames = load_boxes(video)
    homography = profile.pile_homography()
    tint = None
    if cast_name:
        ramp = np.arange(256, dtype=np.uint8).reshape(256, 1, 1).repeat(3, axis=2)
        tint = cast(ramp, CASTS[cast_name])
    balance = WhiteBalance(auto=True)
    deck = DeckColours(CLASSIC_COLOURS)
    last = np.zeros((0, 4), np.float32)
    counts: collections.Counter[str] = collections.Counter()
    wrong: collections.Counter[str] = collections.Counter()
    capture = cv2.VideoCapture(str(video))
    index = 0
    while True:
        ok, image = capture.read()
        if not ok:
            break
        if tint is not None:
            image = cv2.LUT(image, tint)
        view = balance(profile.warp_pile(image), last)
        h, w = view.shape[:2]
        seen = []
        for label, quad, visible in frames[index] if index < len(frames) else []:
            if visible < 0.5:
                continue
            pts = cv2.perspectiveTransform(quad.reshape(-1, 1, 2).astype(np.float64), homography).reshape(-1, 2)
            cx, cy = pts.mean(axis=0)
            if not (0 <= cx < w and 0 <= cy < h):
                continue
            x1, y1 = max(0.0, float(pts[:, 0].min())), max(0.0, float(pts[:, 1].min()))
            box = (x1, y1, min(float(w), float(pts[:, 0].max())), min(float(h), float(pts[:, 1].max())))
            seen.append((box, label, visible))
        last = np.asarray([b for b, _, _ in seen], np.float32).reshape(-1, 4)
        if index % step == 0:
            for box, label, visible in seen:
                card = Card.from_label(label)
                if card.colour is None:
                    continue
                colour, share = deck.read(view, box)
                where = "whole" if visible >= 0.9 else "part"
                if colour.value == card.colour.value:
                    counts[f"{where}_right"] += 1
                    if where == "whole" and share < WEAK:
                        counts["whole_weak"] += 1
                else:
                    counts[f"{where}_wrong"] += 1
                    wrong[f"{where} {label}->{colour.value}"] += 1
        index += 1
    capture.release()
    return counts, wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("videos", nargs="+", type=Path)
    parser.add_argument("--casts", nargs="+", default=["none", "cool", "strong-cool"],
                        help="names of camera_casts.CASTS, or none")
    parser.add_argument("--step", type=int, default=3, help="read every n-th frame")
    args = parser.parse_args()
    for name in args.casts:
        total: collections.Counter[str] = collections.Counter()
        wrongs: collections.Counter[str] = collections.Counter()
        for video in args.videos:
            counts, wrong = read_game(video, "" if name == "none" else name, args.step)
            if len(args.videos) > 1:
                print(json.dumps({"cast": name, "video": video.name, **dict(sorted(counts.items()))}))
            total.update(counts)
            wrongs.update(wrong)
        print(json.dumps({"cast": name, "videos": len(args.videos), **dict(sorted(total.items())),
                          "wrong": dict(wrongs.most_common(8))}))


if __name__ == "__main__":
    main()
