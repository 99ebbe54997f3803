"""``referee synth --crops``: square crops of single cards cut from generated scenes, for the face classifier.

The classifier (:mod:`referee.vision.classify`) reads the card the tracker is about to believe, from a
square crop of the pile view around the card's box. Its training data is cut the
same way from :func:`~referee.synth.scene.random_scene` scenes: every box at least ``min_visible`` in
view (the top of a pile, loose cards, close-ups), the crop's side and centre jittered around what the
pipeline takes, so a box a few pixels off reads the same. With ``cut_share``, that share of the cards is also
cut a second time as a card held up to a camera is seen: the frame's edge across it (one or two sides, a
random 55-90 % of the card left in view, the rest grey as :func:`~referee.vision.classify.square_crop` pads
outside an image), the crop around what is left in view. Layout: ``OUT/{train,val}/{face}/{stem}.jpg``
(one folder per face the classifier reads, :data:`referee.cards.READER_FACES`, named by
:func:`referee.cards.face_folder`), plus ``OUT/crops.json`` (counts,
seed, recipe). Crop ``k`` of scene ``i`` of a split comes from the scene's own seed
(:func:`referee.synth.recipe.image_rng`), so the worker count does not change the data.
"""

from __future__ import annotations

import json
import math
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.cards import READER_FACES, face_folder
from referee.synth.pool import worker_context
from referee.synth.recipe import SPLITS, Recipe, SceneJob, image_rng
from referee.synth.scene import random_scene
from referee.vision.classify import CROP_SIDE, Image, square_crop

__all__ = ["CUT_KEPT", "cut_by_frame", "write_crops"]


@dataclass(frozen=True)
class _Job(SceneJob):
    min_visible: float
    cut_share: float = 0.0


#: How much of a card a frame edge across it leaves in view (the share of its box's area).
CUT_KEPT = (0.55, 0.9)


def cut_by_frame(image: Image, xyxy: tuple[float, float, float, float], rng: np.random.Generator
                 ) -> tuple[Image, tuple[float, float, float, float]]:
    """``image`` with a frame edge drawn across the card at ``xyxy``: one of its sides (drawn at random;
    three cards in ten two sides) cut so that a share in :data:`CUT_KEPT` of the box is left, everything
    past the edge grey 114 as outside a camera's frame. Returns the image and the box of what is left."""
    x1, y1, x2, y2 = xyxy
    kept = float(rng.uniform(*CUT_KEPT))
    sides = rng.choice(4, size=1 if rng.random() < 0.7 else 2, replace=False)
    # Two sides share the cut (each keeps the square root); a left and a right edge together are two frames.
    each = kept ** (1.0 / len(sides))
    out = image.copy()
    box = [x1, y1, x2, y2]
    for side in sides:
        if side == 0:    # the frame's left edge
            box[0] = x2 - (x2 - x1) * each
            out[:, : round(box[0])] = 114
        elif side == 1:  # right
            box[2] = x1 + (x2 - x1) * each
            out[:, round(box[2]):] = 114
        elif side == 2:  # top
            box[1] = y2 - (y2 - y1) * each
            out[: round(box[1])] = 114
        else:            # bottom
            box[3] = y1 + (y2 - y1) * each
            out[round(box[3]):] = 114
    return out, (box[0], box[1], box[2], box[3])


def _write_one(job: _Job) -> list[str]:
    """Cut and write the crops of one scene; returns their faces."""
    rng = image_rng(job.seed, job.split, job.index)
    params = job.recipe.scene if job.split == "train" else job.recipe.val_scene
    scene = random_scene(rng, job.size, params)
    faces: list[str] = []
    for k, box in enumerate(scene.boxes):
        if box.face not in READER_FACES or box.visible < job.min_visible:
            continue
        pad = float(rng.uniform(0.05, 0.3))
        shift = (float(rng.normal(0, 0.03)), float(rng.normal(0, 0.03)))
        crop = square_crop(scene.image, box.xyxy, pad=pad, shift=shift)
        if crop is None:
            continue
        quality = int(rng.integers(job.recipe.jpeg_quality[0], job.recipe.jpeg_quality[1] + 1))
        stem = job.out / job.split / face_folder(box.face) / f"{job.index:07d}_{k:02d}"
        _write_jpeg(crop, stem.with_suffix(".jpg"), quality)
        faces.append(box.face)
        if job.cut_share and rng.random() < job.cut_share:
            cut, visible = cut_by_frame(scene.image, box.xyxy, rng)
            crop = square_crop(cut, visible, pad=float(rng.uniform(0.05, 0.3)))
            if crop is not None:
                _write_jpeg(crop, stem.with_name(stem.name + "c.jpg"), quality)
                faces.append(box.face)
    return faces


def _write_jpeg(crop: Image, path: Path, quality: int) -> None:
    ok, data = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError(f"JPEG encoding failed for {path}")
    path.write_bytes(data.tobytes())


def write_crops(out: Path, *, train: int, val: int, seed: int = 0, size: int = 384, workers: int = 1,
                recipe: Recipe | None = None, min_visible: float = 0.85, cut_share: float = 0.0,
                progress: bool = True) -> dict[str, Any]:
    """Cut crops from ``train`` + ``val`` generated scenes of ``size`` px into ``out``; returns a summary."""
    from tqdm import tqdm

    if train < 0 or val < 0 or size < 64:
        raise ValueError(f"need train, val >= 0 and size >= 64 (got {train}, {val}, {size})")
    if not 0.0 <= cut_share <= 1.0:
        raise ValueError(f"need 0 <= cut_share <= 1 (got {cut_share})")
    recipe = recipe or Recipe()
    for split in SPLITS:
        if (out / split).exists():
            shutil.rmtree(out / split)
        for face in READER_FACES:
            (out / split / face_folder(face)).mkdir(parents=True)
    counts = {"train": train, "val": val}
    jobs = [_Job(out, seed, split, i, size, recipe, min_visible, cut_share)
            for split in SPLITS for i in range(counts[split])]
    per_split: dict[str, Counter[str]] = {split: Counter() for split in SPLITS}
    bar = tqdm(total=len(jobs), desc="crops", unit="scene", disable=not progress)
    if workers <= 1:
        results = map(_write_one, jobs)
        for job, faces in zip(jobs, results, strict=True):
            per_split[job.split].update(faces)
            bar.update()
    else:
        with worker_context().Pool(workers) as pool:
            chunk = max(1, min(32, math.ceil(len(jobs) / (workers * 8))))
            for job, faces in zip(jobs, pool.imap(_write_one, jobs, chunksize=chunk), strict=True):
                per_split[job.split].update(faces)
                bar.update()
    bar.close()
    summary = {"out": str(out), "seed": seed, "scene_size": size, "side": CROP_SIDE, "min_visible": min_visible,
               "cut_share": cut_share,
               "scenes": counts, "crops": {s: sum(c.values()) for s, c in per_split.items()},
               "per_class": {s: {f: c[f] for f in READER_FACES} for s, c in per_split.items()}}
    (out / "crops.json").write_text(json.dumps({**summary, "recipe": recipe.to_json()}, indent=1) + "\n")
    return summary
