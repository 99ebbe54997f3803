"""The face classifier on real photos, each card read turned by every quarter turn against the half turn alone.

    python benchmarks/read_turns.py ../shared/data/real-single-cards ../shared/data/second-printing/tables/data.yaml

Each card of each dataset (a folder of class-named folders: the most confident detection's box; a YOLO
``data.yaml``: every labelled box) is read by the classifier alone among the deck's faces
(:meth:`referee.vision.classify.FaceClassifier.read`) with ``turns`` 2 (the crop and its half turn, the
reading before) and 4 (:data:`referee.vision.classify.READ_TURNS`). One JSON line per dataset: the share
read right each way, each misreading with how sure it was, and the milliseconds a reading took each way
(p50 and p95, the two taken in turn on the same cards in the same run). Progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}


def cards(data: Path) -> list[tuple[Path, str, Any]]:
    """(photo, face, box) of every card of ``data``; a folder's boxes found by the detector."""
    from referee.cards import Card, folder_label
    from referee.vision.detect import load_detector
    from referee.vision.evaluate import load_yolo_dataset

    out: list[tuple[Path, str, Any]] = []
    if data.is_file():
        dataset = load_yolo_dataset(data)
        for path in dataset.images:
            h, w = cv2.imread(str(path)).shape[:2]
            for line in dataset.label_file(path).read_text().split("\n"):
                if line.strip():
                    c, x, y, bw, bh = (float(v) for v in line.split())
                    box = ((x - bw / 2) * w, (y - bh / 2) * h, (x + bw / 2) * w, (y + bh / 2) * h)
                    out.append((path, Card.from_label(dataset.names[int(c)]).value, box))
        return out
    detector = load_detector(None, conf=0.25)
    for folder in sorted(p for p in data.iterdir() if p.is_dir()):
        for path in sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES):
            image = cv2.imread(str(path))
            if image is None:
                continue
            det = detector.detect(image)
            found = [i for i, label in enumerate(det.labels) if label != "back"]
            if found:
                best = max(found, key=lambda i: det.confidence[i])
                out.append((path, Card.from_label(folder_label(folder.name)).value, det.xyxy[best]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="+", type=Path)
    parser.add_argument("--classifier", type=Path)
    args = parser.parse_args(argv)
    from referee.readers import deck_faces
    from referee.vision.classify import load_classifier

    classifier = load_classifier(args.classifier)
    if classifier is None:
        print("read_turns: no face classifier", file=sys.stderr)
        return 2
    faces = deck_faces("official", {})
    for data in args.data:
        found = cards(data)
        right = {2: 0, 4: 0}
        wrong: dict[int, list[tuple[str, str, float]]] = {2: [], 4: []}
        took: dict[int, list[float]] = {2: [], 4: []}
        image_path, image = None, np.zeros((1, 1, 3), np.uint8)
        for n, (path, face, box) in enumerate(found):
            if n % 100 == 0:
                print(f"{data}: {n}/{len(found)}", file=sys.stderr)
            if path != image_path:
                image_path, image = path, cv2.imread(str(path))
            for turns in (2, 4):
                start = time.perf_counter()
                read = classifier.read(image, box, allowed=faces, turns=turns)
                took[turns].append(1000 * (time.perf_counter() - start))
                if read and read[0][0] == face:
                    right[turns] += 1
                elif read:
                    wrong[turns].append((face, read[0][0], round(read[0][1], 2)))
        print(json.dumps({"data": str(data), "cards": len(found),
                          **{f"turns_{t}": round(right[t] / max(len(found), 1), 4) for t in (2, 4)},
                          **{f"misread_turns_{t}": wrong[t] for t in (2, 4)},
                          **{f"ms_turns_{t}": [round(float(np.percentile(took[t], q)), 2) for q in (50, 95)]
                             for t in (2, 4)}}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
