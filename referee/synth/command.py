"""``referee synth``: generated training data from one recipe, the detector's YOLO dataset
(:mod:`referee.synth.export`) or, with ``--crops``, the face classifier's crops (:mod:`referee.synth.crops`)."""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

from referee.synth.crops import write_crops
from referee.synth.export import write_dataset
from referee.synth.recipe import DEFAULT_RECIPE, load_recipe

__all__ = ["main"]

log = logging.getLogger(__name__)


def main(args: argparse.Namespace) -> int:
    """Entry point of ``referee synth``."""
    recipe_path: Path | None = getattr(args, "recipe", None)
    if recipe_path is None and DEFAULT_RECIPE.is_file():
        recipe_path = DEFAULT_RECIPE
    try:
        recipe = load_recipe(recipe_path)
        if getattr(args, "crops", False):
            crops = write_crops(args.out, train=args.train, val=args.val, seed=args.seed, size=args.imgsz,
                                workers=args.workers, recipe=recipe,
                                cut_share=getattr(args, "cut_share", 0.0))
            print(json.dumps({k: v for k, v in crops.items() if k != "per_class"}))
            return 0
        summary = write_dataset(args.out, train=args.train, val=args.val, seed=args.seed,
                                size=args.imgsz, workers=args.workers, recipe=recipe,
                                absolute_paths=not getattr(args, "relative_paths", False))
    except ValueError as exc:
        log.error("%s", exc)
        return 2
    log.info("recipe: %s", recipe_path or "built-in defaults")
    print(json.dumps({k: v for k, v in summary.items() if k != "boxes_per_class"}))
    return 0
