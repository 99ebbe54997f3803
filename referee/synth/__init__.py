"""Generated training data: card faces drawn by our own code, table scenes, YOLO export.

``render_card`` draws one face, ``compose`` paints explicit card placements (for videos) and boxes
the visible cards, ``random_scene`` draws a random labelled scene, ``export`` writes a dataset.
"""

from __future__ import annotations

from referee.synth.render import (
    CARD_H,
    CARD_W,
    DESIGNS,
    CardDesign,
    Palette,
    random_palette,
    render_card,
)
from referee.synth.scene import (
    Camera,
    CardPlacement,
    LabeledBox,
    Overlay,
    SceneParams,
    SceneResult,
    camera_effects,
    card_quad,
    compose,
    random_scene,
    tilt_quad,
)
from referee.synth.textures import background, clutter, hand_layer, skin_tone, thumb_layer

__all__ = [
    "CARD_H",
    "CARD_W",
    "DESIGNS",
    "Camera",
    "CardDesign",
    "CardPlacement",
    "LabeledBox",
    "Overlay",
    "Palette",
    "SceneParams",
    "SceneResult",
    "background",
    "camera_effects",
    "card_quad",
    "clutter",
    "compose",
    "hand_layer",
    "random_palette",
    "random_scene",
    "render_card",
    "skin_tone",
    "thumb_layer",
    "tilt_quad",
]
