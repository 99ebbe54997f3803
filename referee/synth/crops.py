"""``referee synth --crops``: square crops of single cards cut from generated scenes, for the face classifier.

The classifier (:mod:`referee.vision.classify`) reads the card the tracker is about to believe, from a
square crop of the pile view around the card's box. Its training data is cut the
same way from :func:`~referee.synth.scene.random_scene` scenes: every box at least ``min_visible`` in
view (the top of a pile, loose cards, close-ups), the crop's side and centre jittered around what the
pipeline takes, so a box a few pixels off reads the same. Layout: ``OUT/{train,val}/{face}/{stem}.jpg``
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

from referee.cards import READER_FACES, face_folder
from referee.synth.pool import worker_context
from referee.synth.recipe import SPLITS, Recipe, SceneJob, image_rng
from referee.synth.scene import random_scene
from referee.vision.classify import CROP_SIDE, square_crop

__all__ = ["write_crops"]


@dataclass(frozen=True)
class _Job(SceneJob):
    min_visible: float


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
        ok, data = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise RuntimeError(f"JPEG encoding failed for scene {job.index} box {k}")
        (job.out / job.split / face_folder(box.face) / f"{job.index:07d}_{k:02d}.jpg").write_bytes(data.tobytes())
        faces.append(box.face)
    return faces


def write_crops(out: Path, *, train: int, val: int, seed: int = 0, size: int = 384, workers: int = 1,
                recipe: Recipe | None = None, min_visible: float = 0.85, progress: bool = True
                ) -> dict[str, Any]:
    """Cut crops from ``train`` + ``val`` generated scenes of ``size`` px into ``out``; returns a summary."""
    from tqdm import tqdm

    if train < 0 or val < 0 or size < 64:
        raise ValueError(f"need train, val >= 0 and size >= 64 (got {train}, {val}, {size})")
    recipe = recipe or Recipe()
    for split in SPLITS:
        if (out / split).exists():
            shutil.rmtree(out / split)
        for face in READER_FACES:
            (out / split / face_folder(face)).mkdir(parents=True)
    counts = {"train": train, "val": val}
    jobs = [_Job(out, seed, split, i, size, recipe, min_visible) for split in SPLITS for i in range(counts[split])]
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
               "scenes": counts, "crops": {s: sum(c.values()) for s, c in per_split.items()},
               "per_class": {s: {f: c[f] for f in READER_FACES} for s, c in per_split.items()}}
    (out / "crops.json").write_text(json.dumps({**summary, "recipe": recipe.to_json()}, indent=1) + "\n")
    return summary
