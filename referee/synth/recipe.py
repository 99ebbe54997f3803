"""What every generated scene of a dataset shares: the recipe, the splits, and each scene's own seed.

Both writers of generated training data draw their scenes the same way: :mod:`referee.synth.export`
(the detector's YOLO dataset) and :mod:`referee.synth.crops` (the face classifier's crops). Scene ``i``
of a split is drawn from its own seed ``(seed, split, i)``, so any scene can be regenerated alone and
the worker count does not change the data.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

from referee.synth.scene import SceneParams

__all__ = [
    "DEFAULT_RECIPE",
    "SPLITS",
    "Recipe",
    "SceneJob",
    "image_rng",
    "load_recipe",
]

#: The splits of a dataset, in the order a scene's seed numbers them.
SPLITS = ("train", "val")

#: The recipe ``referee synth`` reads when none is named (from the working directory).
DEFAULT_RECIPE = Path("datasets/recipe.json")


@dataclass(frozen=True)
class Recipe:
    """Everything that shapes a dataset besides its size and seed."""

    scene: SceneParams = field(default_factory=SceneParams)
    val_scene: SceneParams = field(default_factory=lambda: SceneParams(random_hue_share=0.0))
    jpeg_quality: tuple[int, int] = (40, 95)

    def to_json(self) -> dict[str, Any]:
        return {"scene": asdict(self.scene), "val_scene": asdict(self.val_scene),
                "jpeg_quality": list(self.jpeg_quality)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Recipe:
        known = {f.name for f in fields(SceneParams)}

        def scene(obj: dict[str, Any], where: str) -> SceneParams:
            unknown = set(obj) - known
            if unknown:
                raise ValueError(f"recipe {where}: unknown scene parameters {sorted(unknown)}")
            return SceneParams(**obj)

        extra = set(data) - {"scene", "val_scene", "jpeg_quality", "comment"}
        if extra:
            raise ValueError(f"recipe: unknown keys {sorted(extra)}")
        train = scene(data.get("scene", {}), "scene")
        val = scene(data["val_scene"], "val_scene") if "val_scene" in data else replace(
            train, random_hue_share=0.0)
        lo, hi = data.get("jpeg_quality", (40, 95))
        return cls(scene=train, val_scene=val, jpeg_quality=(int(lo), int(hi)))


def load_recipe(path: Path | None) -> Recipe:
    """The recipe at ``path``; the built-in defaults when ``path`` is ``None``."""
    if path is None:
        return Recipe()
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"cannot read recipe {path}: {exc}") from exc
    return Recipe.from_json(data)


def image_rng(seed: int, split: str, index: int) -> np.random.Generator:
    """The generator of image ``index`` of ``split``: independent of workers and order."""
    return np.random.default_rng([seed, SPLITS.index(split), index])


@dataclass(frozen=True)
class SceneJob:
    """One scene of a split to generate (a worker's unit of work)."""

    out: Path
    seed: int
    split: str
    index: int
    size: int
    recipe: Recipe
