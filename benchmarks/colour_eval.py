"""How well colours are read on cards printed over each colour's whole range, side by side.

    python benchmarks/colour_eval.py --scenes 600 [--seed 7]

Generated scenes (``referee.synth.scene.random_scene``) whose decks print every colour anywhere in the
range printers use (green from teal to lime, yellow lemon to amber, red scarlet to crimson, blue cyan to
navy: ``wide_colour_share`` 1) under warm and cool light. Every coloured card at least ``--min-visible``
in view is read by:

- ``stock``: :func:`referee.vision.colour.read_colour` on the image as it is (each card balanced on its own
  whites, its pixels surely on the card);
- ``box_middle_raw``: the same on the box's middle half as the camera shows it, the reading before each card
  was balanced on its own whites (``whites=False``);
- ``white_balanced``: the same after the pipeline's white balance from the cards' whites
  (:func:`referee.vision.colour.white_balance_gains` over the true boxes);
- ``stock_hues_old``: as ``stock`` with the hue centres and nearest-centre vote of the code before
  the printers' ranges were taken into account (``HUE_CENTRES_BEFORE``, no widths), the obvious
  alternative.

Per colour and overall accuracy, one JSON line last. Generated, so a means, not the goal: real decks
and light are what count.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from typing import Any

import numpy as np

from referee.cards import Card
from referee.synth.scene import SceneParams, random_scene
from referee.vision import colour
from referee.vision.calibration import apply_gains


def run(scenes: int, seed: int, min_visible: float) -> dict[str, Any]:
    params = SceneParams(wide_colour_share=1.0, random_hue_share=0.0, lb_colour_share=0.0)
    hits: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    totals: dict[str, int] = defaultdict(int)
    for i in range(scenes):
        rng = np.random.default_rng([seed, i])
        scene = random_scene(rng, 384, params)
        boxes = [b for b in scene.boxes if b.label and b.visible >= min_visible]
        boxes = [b for b in boxes if Card.from_label(b.label).colour is not None]
        if not boxes:
            continue
        xyxy = np.array([b.xyxy for b in scene.boxes], np.float32)
        balanced = apply_gains(scene.image, colour.white_balance_gains(scene.image, xyxy))
        for box in boxes:
            truth = Card.from_label(str(box.label)).colour
            assert truth is not None
            totals[truth.value] += 1
            reads = {
                "stock": colour.read_colour(scene.image, box.xyxy)[0],
                "white_balanced": colour.read_colour(balanced, box.xyxy)[0],
                "box_middle_raw": colour.read_colour(scene.image, box.xyxy, whites=False)[0],
                "stock_hues_old": colour.read_colour(scene.image, box.xyxy, widths=False, whites=False)[0],
            }
            for name, read in reads.items():
                hits[name][truth.value] += read is truth
        if (i + 1) % 100 == 0:
            print(f"{i + 1}/{scenes} scenes", file=sys.stderr)
    cards = sum(totals.values())
    return {
        "scenes": scenes, "seed": seed, "cards": cards, "per_colour_cards": dict(totals),
        **{name: {"accuracy": round(sum(h.values()) / max(cards, 1), 4),
                  "per_colour": {c: round(h[c] / totals[c], 4) for c in sorted(totals)}}
           for name, h in hits.items()},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=600)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--min-visible", type=float, default=0.6)
    args = parser.parse_args()
    print(json.dumps(run(args.scenes, args.seed, args.min_visible)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
