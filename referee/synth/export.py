"""``referee synth``: write a YOLO dataset of generated table scenes (layout in datasets/README.md).

Two label sets share one set of images: ``labels/`` holds the detector's colour-blind face classes
(``data.yaml``, names = ``FACE_CLASSES``), ``cards/labels/`` the full contract-1 card labels
(``data_cards.yaml``) so that ``referee eval`` can score face + colour. ``meta/`` keeps one JSON
sidecar per image with every box. Image ``i`` of a split is drawn from its own seed
``(seed, split, i)``, so any image can be regenerated alone and worker count does not matter.
"""

from __future__ import annotations

import json
import logging
import math
import os
import shutil
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.cards import BACK, CLASSIC_WITH_BLANKS, FACE_CLASSES, LUXEMBOURGISH
from referee.synth.pool import worker_context
from referee.synth.recipe import SPLITS, Recipe, SceneJob, image_rng
from referee.synth.scene import LabeledBox, random_scene

__all__ = [
    "CARD_NAMES",
    "generate_image",
    "write_dataset",
    "yolo_lines",
]

log = logging.getLogger(__name__)

#: Names of ``data_cards.yaml``: the classic deck with its blank cards, then the Luxembourgish
#: deck's extra colours, then the back. Cards printed in a made-up hue are not in this label set.
CARD_NAMES: tuple[str, ...] = tuple(
    dict.fromkeys(CLASSIC_WITH_BLANKS.labels() + LUXEMBOURGISH.labels() + (BACK,))
)


def yolo_lines(boxes: Sequence[LabeledBox], size: tuple[int, int], names: Sequence[str],
               *, full_label: bool = False) -> str:
    """YOLO label text (``class cx cy w h``, normalised) for ``boxes`` in an image ``(h, w)``.

    With ``full_label`` the class is the card's contract-1 label in ``names``; boxes whose label is
    unknown or not in ``names`` are left out.
    """
    h, w = size
    out = []
    for box in boxes:
        key = box.label if full_label else box.face
        if key is None or key not in names:
            continue
        x0, y0, x1, y1 = box.xyxy
        out.append(f"{names.index(key)} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} "
                   f"{(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}")
    return "\n".join(out) + ("\n" if out else "")


def generate_image(seed: int, split: str, index: int, size: int, recipe: Recipe
                   ) -> tuple[np.ndarray[Any, np.dtype[np.uint8]], list[LabeledBox], int]:
    """Image ``index`` of ``split``: (BGR image, boxes, JPEG quality)."""
    rng = image_rng(seed, split, index)
    params = recipe.scene if split == "train" else recipe.val_scene
    result = random_scene(rng, size, params)
    quality = int(rng.integers(recipe.jpeg_quality[0], recipe.jpeg_quality[1] + 1))
    return result.image, result.boxes, quality


def _write_one(job: SceneJob) -> list[str]:
    """Generate and write one image with its three label files; returns its face classes."""
    image, boxes, quality = generate_image(job.seed, job.split, job.index, job.size, job.recipe)
    stem = f"{job.split}_{job.index:06d}"
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError(f"JPEG encoding failed for {stem}")
    image_path = job.out / "images" / job.split / f"{stem}.jpg"
    image_path.write_bytes(data.tobytes())
    twin = job.out / "cards" / "images" / job.split / image_path.name
    try:  # a hard link: a path of its own (ultralytics maps images/ -> labels/ on it), no space
        os.link(image_path, twin)
    except OSError:
        shutil.copyfile(image_path, twin)
    shape = image.shape[:2]
    (job.out / "labels" / job.split / f"{stem}.txt").write_text(
        yolo_lines(boxes, shape, FACE_CLASSES))
    (job.out / "cards" / "labels" / job.split / f"{stem}.txt").write_text(
        yolo_lines(boxes, shape, CARD_NAMES, full_label=True))
    meta = {
        "image": f"images/{job.split}/{stem}.jpg", "width": shape[1], "height": shape[0],
        "seed": [job.seed, SPLITS.index(job.split), job.index],
        "boxes": [{"face": b.face, "label": b.label, "xyxy": [round(v, 1) for v in b.xyxy],
                   "visible": round(b.visible, 3)} for b in boxes],
    }
    (job.out / "meta" / job.split / f"{stem}.json").write_text(json.dumps(meta) + "\n")
    return [b.face for b in boxes]


def _yaml(path: Path, root: Path | str | None, names: Sequence[str], comment: str) -> None:
    """A data.yaml; without ``root`` the dataset root is the yaml's folder (ultralytics' rule too)."""
    lines = [f"# {comment}"] + ([f"path: {root}"] if root is not None else [])
    lines += ["train: images/train", "val: images/val", f"nc: {len(names)}", "names:"]
    lines += [f"  {i}: {json.dumps(n)}" for i, n in enumerate(names)]
    path.write_text("\n".join(lines) + "\n")


def _prepare(out: Path) -> None:
    for split in SPLITS:
        for sub in ("images", "labels", "cards/images", "cards/labels", "meta"):
            d = out / sub / split
            if d.exists():  # a fresh split: stale files of a bigger earlier run would mix in
                shutil.rmtree(d)
            d.mkdir(parents=True)


def _jobs(out: Path, counts: dict[str, int], seed: int, size: int, recipe: Recipe) -> Iterator[SceneJob]:
    for split in SPLITS:
        for index in range(counts[split]):
            yield SceneJob(out, seed, split, index, size, recipe)


def write_dataset(out: Path, *, train: int, val: int, seed: int = 0, size: int = 640,
                  workers: int = 1, recipe: Recipe | None = None, progress: bool = True,
                  absolute_paths: bool = True) -> dict[str, Any]:
    """Generate a dataset into ``out``; returns a summary (counts, boxes per class).

    The yaml files name their root by absolute path (ultralytics then finds it from any working
    directory); with ``absolute_paths=False`` by a path relative to the yaml file (for a dataset
    that moves with the repository, read by ``referee eval``).
    """
    from tqdm import tqdm

    if train < 0 or val < 0 or size < 64:
        raise ValueError(f"need train, val >= 0 and size >= 64 (got {train}, {val}, {size})")
    recipe = recipe or Recipe()
    out.mkdir(parents=True, exist_ok=True)
    _prepare(out)
    counts = {"train": train, "val": val}
    total = train + val
    per_class: Counter[str] = Counter()
    jobs = _jobs(out, counts, seed, size, recipe)
    bar = tqdm(total=total, desc="synth", unit="img", disable=not progress)
    if workers <= 1:
        for job in jobs:
            per_class.update(_write_one(job))
            bar.update()
    else:
        with worker_context().Pool(workers) as pool:
            chunk = max(1, min(32, math.ceil(total / (workers * 8))))
            for faces in pool.imap_unordered(_write_one, jobs, chunksize=chunk):
                per_class.update(faces)
                bar.update()
    bar.close()
    root: Path | None = out.resolve() if absolute_paths else None
    cards_root: Path | str = (out / "cards").resolve() if absolute_paths else "cards"
    _yaml(out / "data.yaml", root, FACE_CLASSES,
          "generated by `referee synth`: detector classes = referee.cards.FACE_CLASSES")
    _yaml(out / "data_cards.yaml", cards_root, CARD_NAMES,
          "same images, full contract-1 card labels (cards printed in made-up hues unlabelled)")
    summary = {"out": str(out), "seed": seed, "imgsz": size, "train": train, "val": val,
               "boxes": sum(per_class.values()),
               "boxes_per_class": {name: per_class[name] for name in FACE_CLASSES}}
    (out / "recipe.json").write_text(json.dumps({**summary, "recipe": recipe.to_json()}, indent=1))
    return summary
