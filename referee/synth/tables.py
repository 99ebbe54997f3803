"""A webcam's view of a whole table with cards lying apart on it, each one small in the frame: the scene
``benchmarks/printings_eval.py`` reads held-out printings in, and the tests check that cards this small
are found (:mod:`referee.vision.tiles`)."""

from __future__ import annotations

import math

import numpy as np

from referee.cards import Card, Colour
from referee.synth.render import CardDesign, Palette
from referee.synth.scene import CardPlacement, camera_effects, card_quad, compose
from referee.synth.textures import background


def table_view(rng: np.random.Generator, cards: list[Card], design: CardDesign,
               palettes: dict[Colour | None, Palette], size: tuple[int, int] = (720, 1280)
               ) -> tuple[np.ndarray, list[tuple[str, tuple[float, float, float, float]]]]:
    """A webcam's view of a whole table (1280x720) with ``cards`` lying apart (up to 16, four to a row), all
    of one size, 70-110 px long (16-30 px at the detector's 320 px input): the image and each card's label
    with its box."""
    h, w = size
    base = background(rng, w)[:h].copy()
    items, boxes = [], []
    cols = 4
    length = float(rng.uniform(70, 110))
    for k, card in enumerate(cards):
        cell_w, cell_h = w / cols, h / math.ceil(len(cards) / cols)
        centre = ((k % cols + 0.5) * cell_w + rng.normal(0, cell_w * 0.08),
                  (k // cols + 0.5) * cell_h + rng.normal(0, cell_h * 0.08))
        quad = card_quad(centre, length * float(rng.uniform(0.95, 1.05)), float(rng.uniform(0, 360)))
        items.append(CardPlacement(card, quad, design, palette=palettes[card.colour]))
        x0, y0 = np.clip(quad.min(axis=0), 0, [w, h])
        x1, y1 = np.clip(quad.max(axis=0), 0, [w, h])
        boxes.append((card.label, (float(x0), float(y0), float(x1), float(y1))))
    image = compose(base, items, rng).image
    return camera_effects(image, rng, strength=0.7), boxes
