"""`referee learn-deck` on table photos, leave one photo out: a card is never read with a deck learned from its photo.

    python benchmarks/deck_split.py ../shared/data/second-printing/tables/data.yaml ../shared/data/second-printing/deck

For each table photo of the YOLO dataset, a deck is learned (``learn_deck``, as ``referee learn-deck`` does)
from the crops of the deck folder (one class-named folder per label) that were cut from *other* photos: a
crop's file name starts with the photo it was cut from (``uno-test-03_5.jpg``). Where a label's only crop
comes from the photo being read, a labelled card of that label in another photo, cut out with a margin as
a player would photograph it, stands in; a label seen in no other photo is not learned (the generic
reading stays for it). The photo is then read as the pipeline reads it (``referee eval``'s
``card_accuracy``) without the deck (``generic``) and with it (``learned``). One JSON line last; progress on
stderr. The single-card photos' split is ``benchmarks/learn_split.py``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import cv2


def one_photo(folder: Path, path: Path, dataset: Any) -> Path:
    """A data.yaml in ``folder`` of the one photo ``path`` of ``dataset`` (linked, with its labels)."""
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    (folder / "images" / path.name).symlink_to(path.resolve())
    (folder / "labels" / f"{path.stem}.txt").symlink_to(dataset.label_file(path).resolve())
    (folder / "data.yaml").write_text("path: .\ntrain: images\nval: images\nnames:\n" + "".join(
        f"  {i}: {name}\n" for i, name in enumerate(dataset.names)))
    return folder / "data.yaml"


def labelled(dataset: Any, image_path: Path, shape: tuple[int, ...]) -> list[tuple[str, Any]]:
    """The labelled cards of one photo: (label, xyxy box)."""
    h, w = shape[:2]
    out = []
    for line in dataset.label_file(image_path).read_text().split("\n"):
        if line.strip():
            c, x, y, bw, bh = (float(v) for v in line.split())
            out.append((dataset.names[int(c)], ((x - bw / 2) * w, (y - bh / 2) * h, (x + bw / 2) * w,
                                                (y + bh / 2) * h)))
    return out


def cut(image: Any, box: Any, margin: float = 0.25) -> Any:
    """The card at ``box`` with a margin of ``margin`` of its longer side, as a player's photo of it."""
    x1, y1, x2, y2 = box
    pad = margin * max(x2 - x1, y2 - y1)
    h, w = image.shape[:2]
    return image[max(0, int(y1 - pad)):min(h, int(y2 + pad)), max(0, int(x1 - pad)):min(w, int(x2 + pad))]


def run(data: Path, deck_photos: Path, work: Path) -> dict[str, Any]:
    from referee.evaluation import evaluate
    from referee.vision.classify import load_classifier
    from referee.vision.deck import learn_deck, photo_folders
    from referee.vision.detect import load_detector
    from referee.vision.evaluate import load_yolo_dataset

    dataset = load_yolo_dataset(data)
    crops: dict[str, list[tuple[str, Path]]] = defaultdict(list)  # label -> (photo stem, crop)
    for label, paths in photo_folders(deck_photos).items():
        crops[label] = [(path.stem.rsplit("_", 1)[0], path) for path in paths]
    images = {path.stem: cv2.imread(str(path)) for path in dataset.images}
    cards = {stem: labelled(dataset, path, images[stem].shape) for stem, path in zip(images, dataset.images,
                                                                                     strict=True)}
    detector, classifier = load_detector(None, conf=0.25), load_classifier(None)
    if classifier is None:
        raise SystemExit("no face classifier at models/classifier.onnx")
    totals: dict[str, list[int]] = {"generic": [0, 0], "learned": [0, 0]}
    confusions: dict[str, Counter[str]] = {"generic": Counter(), "learned": Counter()}
    rows = []
    for path in dataset.images:
        stem = path.stem
        folder = work / stem
        if folder.exists():
            shutil.rmtree(folder)
        photos = folder / "photos"
        stand_ins = unlearned = 0
        for label in dataset.names:
            kept = [crop for source, crop in crops.get(label, []) if source != stem]
            (photos / label).mkdir(parents=True)
            for crop in kept:
                (photos / label / crop.name).symlink_to(crop.resolve())
            if kept:
                continue
            other = next(((s, box) for s in cards if s != stem for name, box in cards[s] if name == label), None)
            if other is None:
                unlearned += 1
                (photos / label).rmdir()
                continue
            cv2.imwrite(str(photos / label / f"{other[0]}_standin.jpg"), cut(images[other[0]], other[1]))
            stand_ins += 1
        summary = learn_deck(photos, folder / "deck", detector, classifier)
        one = one_photo(folder / "read", path, dataset)
        row: dict[str, Any] = {"photo": stem, "cards": len(cards[stem]), "stand_ins": stand_ins,
                               "labels_not_learned": unlearned, "learn_seconds": summary["seconds"]}
        for reader, deck in (("generic", None), ("learned", folder / "deck")):
            result = evaluate(one, deck=deck)
            right = round(result["card_accuracy"] * len(cards[stem]))
            totals[reader][0] += right
            totals[reader][1] += len(cards[stem])
            row[reader] = result["card_accuracy"]
            for truth, read in result["confusions"].items():
                for name, n in read.items():
                    confusions[reader][f"{truth}->{name}"] += n
        rows.append(row)
        print(json.dumps(row), file=sys.stderr)
    return {"data": str(data), "deck_photos": str(deck_photos), "cards": totals["generic"][1],
            **{reader: round(right / max(n, 1), 4) for reader, (right, n) in totals.items()},
            **{f"{reader}_confusions": dict(c.most_common(10)) for reader, c in confusions.items()},
            "photos": rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="a YOLO data.yaml of table photos, named by contract-1 labels")
    parser.add_argument("deck_photos", type=Path, help="class-named folders of crops, each named PHOTO_N.jpg")
    parser.add_argument("--work", type=Path, default=Path("out/deck_split"))
    args = parser.parse_args()
    print(json.dumps(run(args.data, args.deck_photos, args.work)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
