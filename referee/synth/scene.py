"""The camera's view of a table: cards placed explicitly (for videos) or at random (for datasets).

:func:`compose` is the reusable core: a background, then items bottom to top (cards given by their
four corners in the image, and BGRA overlays such as hands), and it returns the image with a tight
box for every card that is visible enough. :func:`random_scene` draws the placements for a dataset.

Animating (a card sliding onto the pile, frame by frame) means calling :func:`compose` per frame
with the same background and moving quads; keep each card's look fixed across frames by passing
an explicit ``palette`` (:func:`referee.synth.render.random_palette` once per card) and ``wear`` /
``gloss`` of 0 (weathering draws from the generator), then :func:`camera_effects` with a generator
seeded the same way each frame for steady light:

>>> from referee.synth.render import random_palette
>>> rng = np.random.default_rng(0)
>>> card = Card.from_label("red_7")
>>> look = random_palette(card, rng)
>>> table = np.full((320, 320, 3), 120, np.uint8)
>>> frames = [compose(table, [CardPlacement(card, card_quad((60 + 20 * t, 160), 90, 10 * t),
...                                         palette=look)]) for t in range(3)]
>>> [f.boxes[0].label for f in frames]
['red_7', 'red_7', 'red_7']
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.cards import CLASSIC_COLOURS, FACE_CLASSES, FRACTION_VALUES, LB_COLOURS, Card, Colour
from referee.synth.render import CARD_H, CARD_W, DESIGNS, CardDesign, Palette, render_card, weather
from referee.synth.textures import background, clutter, hand_layer, skin_tone, thumb_layer

__all__ = [
    "Camera",
    "CardPlacement",
    "LabeledBox",
    "Overlay",
    "SceneParams",
    "SceneResult",
    "camera_effects",
    "card_quad",
    "compose",
    "random_card",
    "random_scene",
    "tilt_quad",
]

Image = NDArray[np.uint8]
Quad = NDArray[np.float64]  # (4, 2): the face's top-left, top-right, bottom-right, bottom-left
Rng = np.random.Generator


@dataclass(frozen=True)
class CardPlacement:
    """One card in the scene: where its corners land, how it is printed, and whether to label it."""

    card: Card
    quad: Quad
    design: int | CardDesign = 0  # an index into DESIGNS, or any design (a printing held out of training)
    palette: Palette | None = None  # None: a random printing of the card's colour
    hue_random: bool = False  # printed in an arbitrary hue: its full label is unknown
    wide: bool = False  # its colours drawn over every hue printers use (render.printing_colour)
    wear: float = 0.0
    gloss: float = 0.0
    shadow: float = 0.35  # darkness of its drop shadow (0: none)
    always_label: bool = False  # label even when mostly covered (the pile's top card)


@dataclass(frozen=True)
class Overlay:
    """A full-frame BGRA layer that covers what lies below (a hand, an object)."""

    bgra: Image
    shadow: float = 0.3


@dataclass(frozen=True)
class LabeledBox:
    """A visible card: its face class, its contract-1 label (``None`` if its hue is made up), box."""

    face: str
    label: str | None
    xyxy: tuple[float, float, float, float]
    visible: float  # share of the card's area that is visible

    @property
    def face_index(self) -> int:
        return FACE_CLASSES.index(self.face)


@dataclass
class SceneResult:
    image: Image
    boxes: list[LabeledBox] = field(default_factory=list)


def card_quad(center: tuple[float, float], height: float, angle: float = 0.0,
              skew: Sequence[float] | NDArray[np.float64] = (0.0,) * 8) -> Quad:
    """Corners of a card ``height`` px tall centred at ``center``, turned ``angle`` degrees
    (clockwise on screen), each corner moved by ``skew`` (8 values, shares of the height)."""
    w = height * CARD_W / CARD_H
    pts = np.array([[-w / 2, -height / 2], [w / 2, -height / 2], [w / 2, height / 2],
                    [-w / 2, height / 2]])
    t = math.radians(angle)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    pts = pts @ rot.T + np.asarray(center, np.float64)
    out: Quad = pts + np.asarray(skew, np.float64).reshape(4, 2) * height
    return out


def tilt_quad(quad: Quad, rx: float, ry: float, focal: float) -> Quad:
    """``quad`` seen after turning the card ``rx``/``ry`` degrees about its horizontal/vertical
    axes, by a pinhole camera ``focal`` pixels away (a card held at an angle to a phone)."""
    center = quad.mean(axis=0)
    pts = np.hstack([quad - center, np.zeros((4, 1))])
    a, b = math.radians(rx), math.radians(ry)
    rot_x = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    rot_y = np.array([[math.cos(b), 0, math.sin(b)], [0, 1, 0], [-math.sin(b), 0, math.cos(b)]])
    p = pts @ (rot_y @ rot_x).T
    depth = focal + p[:, 2:3]
    out: Quad = p[:, :2] * (focal / depth) + center
    return out


@dataclass(frozen=True)
class Camera:
    """A homography from table coordinates to the image (a webcam on a stand, or tilted)."""

    matrix: NDArray[np.float64]

    @classmethod
    def identity(cls) -> Camera:
        return cls(np.eye(3))

    @classmethod
    def tilted(cls, size: int, rng: Rng, strength: float) -> Camera:
        """Move each image corner inwards/outwards by up to ``strength`` of the size."""
        src = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
        dst = src + rng.uniform(-strength, strength, (4, 2)).astype(np.float32) * size
        return cls(cv2.getPerspectiveTransform(src, dst).astype(np.float64))

    def project(self, pts: Quad) -> Quad:
        p = np.hstack([pts, np.ones((len(pts), 1))]) @ self.matrix.T
        out: Quad = p[:, :2] / p[:, 2:3]
        return out


def _shadow(frame: Image, alpha: NDArray[np.float32], strength: float, offset: tuple[int, int],
            blur: float) -> None:
    """Darken ``frame`` under a blurred, shifted copy of ``alpha`` (blurred at low resolution)."""
    if strength <= 0:
        return
    h, w = alpha.shape
    f = min(1.0, 4.0 / blur)
    small = cv2.resize(alpha, (max(1, int(w * f)), max(1, int(h * f))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), max(0.5, blur * f))
    soft = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    soft = np.roll(soft, offset, axis=(0, 1))
    keep = 1.0 - strength * soft
    frame[:] = cv2.blendLinear(frame, np.zeros_like(frame), keep, 1.0 - keep)


def _warp_card(face: Image, quad: Quad, size: tuple[int, int]
               ) -> tuple[tuple[int, int, int, int], Image] | None:
    """The face warped onto ``quad``: its ROI (x0, y0, x1, y1) in the frame and the BGRA patch."""
    h, w = size
    x0 = max(0, math.floor(quad[:, 0].min()) - 1)
    y0 = max(0, math.floor(quad[:, 1].min()) - 1)
    x1 = min(w, math.ceil(quad[:, 0].max()) + 2)
    y1 = min(h, math.ceil(quad[:, 1].max()) + 2)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    fh, fw = face.shape[:2]
    corners = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(corners, (quad - [x0, y0]).astype(np.float32))
    scale = math.sqrt(abs(cv2.contourArea(quad.astype(np.float32))) / (fw * fh))
    src = face
    if scale < 0.5:  # pre-shrink so the warp does not alias (cards far from the camera)
        f = max(scale * 1.5, 0.05)
        src = cv2.resize(face, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        m = m @ np.diag([1 / f, 1 / f, 1.0])
    patch = cv2.warpPerspective(src, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    return (x0, y0, x1, y1), patch


def compose(base: Image, items: Sequence[CardPlacement | Overlay], rng: Rng | None = None,
            *, min_visible: float = 0.4) -> SceneResult:
    """Paint ``items`` bottom to top on a copy of ``base`` (BGR) and box every visible card.

    A card is boxed (tight box of its visible pixels) when at least ``min_visible`` of its area shows,
    or always when ``always_label`` is set.
    """
    rng = rng if rng is not None else np.random.default_rng()
    frame = base.copy()
    h, w = frame.shape[:2]
    owner = np.full((h, w), -1, np.int16)
    areas: dict[int, float] = {}
    rois: dict[int, tuple[int, int, int, int]] = {}
    for index, item in enumerate(items):
        if isinstance(item, Overlay):
            _paint_overlay(frame, owner, item)
            continue
        areas[index], roi = _paint_card(frame, owner, index, item, rng)
        if roi is not None:
            rois[index] = roi
    result = SceneResult(frame)
    for index, item in enumerate(items):
        if not isinstance(item, CardPlacement) or index not in rois:
            continue
        x0, y0, x1, y1 = rois[index]
        ys, xs = np.nonzero(owner[y0:y1, x0:x1] == index)
        xs, ys = xs + x0, ys + y0
        visible = len(xs) / max(areas[index], 1.0)
        if len(xs) == 0 or (visible < min_visible and not item.always_label):
            continue
        label = None if item.hue_random else item.card.label
        box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
        result.boxes.append(LabeledBox(item.card.face, label, box, min(1.0, visible)))
    return result


def _paint_overlay(frame: Image, owner: NDArray[np.int16], item: Overlay) -> None:
    """Paint a hand or other overlay with its shadow; what it covers is nobody's (``owner`` -1)."""
    h, w = frame.shape[:2]
    ys, xs = np.nonzero(item.bgra[::4, ::4, 3])
    if len(xs) == 0:
        return
    pad = int(h * 0.05) + 4
    x0, y0 = max(0, xs.min() * 4 - pad), max(0, ys.min() * 4 - pad)
    x1, y1 = min(w, xs.max() * 4 + 4 + pad), min(h, ys.max() * 4 + 4 + pad)
    sub = item.bgra[y0:y1, x0:x1]
    a = sub[..., 3].astype(np.float32) * (1.0 / 255.0)
    roi = frame[y0:y1, x0:x1]
    _shadow(roi, a, item.shadow, (int(h * 0.02), int(w * 0.015)), max(2.0, h * 0.02))
    roi[:] = cv2.blendLinear(np.ascontiguousarray(sub[..., :3]), roi, a, 1.0 - a)
    owner[y0:y1, x0:x1][a > 0.5] = -1


def _paint_card(frame: Image, owner: NDArray[np.int16], index: int, item: CardPlacement,
                rng: Rng) -> tuple[float, tuple[int, int, int, int] | None]:
    """Paint card ``index`` (its face rendered, weathered and warped to its quad) with its shadow, marking the
    pixels it covers as its own; returns its area and the box it was painted in (``None``: out of view)."""
    h, w = frame.shape[:2]
    area = abs(float(cv2.contourArea(item.quad.astype(np.float32))))
    shown_height = math.sqrt(area * CARD_H / CARD_W)
    face = render_card(item.card, item.design, rng, item.palette, hue_random=item.hue_random, wide=item.wide,
                       height=shown_height)
    if item.wear > 0 or item.gloss > 0:
        face = weather(face, rng, wear=item.wear, gloss=item.gloss)
    warped = _warp_card(face, item.quad, (h, w))
    if warped is None:
        return area, None
    (x0, y0, x1, y1), patch = warped
    a = patch[..., 3].astype(np.float32) * (1.0 / 255.0)
    if item.shadow > 0:
        size = max(x1 - x0, y1 - y0)
        pad = max(2, size // 12)
        sx0, sy0, sx1, sy1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
        full = np.zeros((sy1 - sy0, sx1 - sx0), np.float32)
        full[y0 - sy0 : y1 - sy0, x0 - sx0 : x1 - sx0] = a
        roi = frame[sy0:sy1, sx0:sx1]
        _shadow(roi, full, item.shadow, (max(1, pad // 3), max(1, pad // 4)), max(1.0, pad / 2))

    roi = frame[y0:y1, x0:x1]
    roi[:] = cv2.blendLinear(np.ascontiguousarray(patch[..., :3]), roi, a, 1.0 - a)
    owner[y0:y1, x0:x1][a > 0.5] = index
    return area, (x0, y0, x1, y1)


def _light_field(h: int, w: int, rng: Rng, strength: float) -> NDArray[np.float32]:
    """Per-pixel gain (3 channels) of the light: colour, a lamp to one side, vignetting, glare.

    Light varies slowly, so it is computed on a coarse grid and scaled up.
    """
    gh, gw = 32, 32
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    yy, xx = (yy + 0.5) / gh, (xx + 0.5) / gw
    warm = rng.uniform(-0.18, 0.18) * strength
    gain = np.array([1 - warm, 1.0, 1 + warm], np.float32) * rng.uniform(0.6, 1.25)
    t = rng.uniform(0, 2 * math.pi)
    ramp = ((xx - 0.5) * math.cos(t) + (yy - 0.5) * math.sin(t)) * rng.uniform(0, 0.6)
    vignette = 1 - rng.uniform(0, 0.35) * (((xx - 0.5) ** 2 + (yy - 0.5) ** 2) * 2)
    field = ((1 + ramp) * vignette)[..., None] * gain
    if rng.random() < 0.3 * strength:  # glare: additive, expressed as extra gain on mid-grey
        cx, cy, r = rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.05, 0.3)
        glare = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)) * rng.uniform(0.2, 0.8)
        field = field + glare[..., None]
    out: NDArray[np.float32] = cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR)
    return out


def camera_effects(image: Image, rng: Rng, strength: float = 1.0) -> Image:
    """What a cheap webcam or phone does: light colour, uneven light, glare, blur, noise."""
    h, w = image.shape[:2]
    field = _light_field(h, w, rng, strength)
    contrast = rng.uniform(0.75, 1.2)
    img = image.astype(np.float32)
    img *= field * contrast  # light, then contrast about mid-grey, in place
    img += 128 * (1 - contrast)
    if rng.random() < 0.2 * strength:  # motion blur
        n = int(rng.integers(3, 10))
        kernel = np.zeros((n, n), np.float32)
        a = rng.uniform(0, math.pi)
        c = (n - 1) / 2
        cv2.line(kernel, (int(c - math.cos(a) * c), int(c - math.sin(a) * c)),
                 (int(c + math.cos(a) * c), int(c + math.sin(a) * c)), 1.0, 1)
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    if rng.random() < 0.35 * strength:  # defocus
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 2.0) * h / 640)
    sigma = rng.uniform(0, 8) * strength
    if sigma > 0.5:  # sensor noise, drawn at half size: demosaicing and JPEG make it grainy
        noise = np.empty((h // 2, w // 2, 3), np.float32)
        cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
        cv2.randn(noise, 0.0, float(sigma))
        img += cv2.resize(noise, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(img, 0, 255, out=img).astype(np.uint8)


@dataclass(frozen=True)
class SceneParams:
    """The recipe of :func:`random_scene` (see ``datasets/recipe.json``)."""

    single_card_share: float = 0.3  # close-ups of one card on a random background, like phone photos
    fill_frame_share: float = 0.35  # of those, a card held close enough to fill the frame, its corners cut
    lb_colour_share: float = 0.15  # orange/violet cards (Luxembourgish deck)
    random_hue_share: float = 0.12  # coloured cards printed in any hue (colour-blind detector)
    hand_share: float = 0.45
    clutter_share: float = 0.5
    #: Scenes whose deck prints its colours anywhere in their printers' range (lime to teal greens, ...).
    wide_colour_share: float = 0.0
    #: Coloured cards of the fractions deck (1/2, 3/4, ...): for the face classifier only, since the
    #: detector's classes have no fractions.
    fraction_share: float = 0.0
    max_pile: int = 8
    max_loose: int = 4
    tilt: float = 0.12  # camera tilt: corner displacement, share of the image side
    min_visible: float = 0.4


def random_card(rng: Rng, params: SceneParams, *, allow_back: bool = True) -> tuple[Card, bool]:
    """A card with a uniformly drawn face class, and whether its hue is made up."""
    faces = FACE_CLASSES if allow_back else FACE_CLASSES[:-1]
    face = faces[int(rng.integers(0, len(faces)))]
    if params.fraction_share > 0 and rng.random() < params.fraction_share:
        face = FRACTION_VALUES[int(rng.integers(0, len(FRACTION_VALUES)))]
    if face in ("wild", "wild_draw4", "blank", "back"):
        return Card(None, face), False
    palette: tuple[Colour, ...] = CLASSIC_COLOURS
    if rng.random() < params.lb_colour_share:
        palette = LB_COLOURS
    colour = palette[int(rng.integers(0, len(palette)))]
    return Card(colour, face), bool(rng.random() < params.random_hue_share)


def _wide(rng: Rng, params: SceneParams) -> bool:
    """Whether this scene's deck prints its colours over their whole range (no draw when never)."""
    return params.wide_colour_share > 0 and bool(rng.random() < params.wide_colour_share)


def _placement(rng: Rng, card: Card, hue_random: bool, quad: Quad, design: int,
               **kw: float | bool) -> CardPlacement:
    return CardPlacement(
        card=card, quad=quad, design=design, hue_random=hue_random,
        wear=float(rng.uniform(0, 1)) if rng.random() < 0.4 else 0.0,
        gloss=float(rng.uniform(0.1, 0.8)) if rng.random() < 0.3 else 0.0,
        **kw,  # type: ignore[arg-type]
    )


def _skew(rng: Rng, amount: float) -> NDArray[np.float64]:
    return rng.uniform(-amount, amount, 8)


def _single_scene(rng: Rng, size: int, params: SceneParams) -> list[CardPlacement | Overlay]:
    card, hue = random_card(rng, params)
    design = int(rng.integers(0, len(DESIGNS)))
    wide = _wide(rng, params)
    if rng.random() < params.fill_frame_share:
        height = size * rng.uniform(0.75, 1.2)
    else:
        height = size * math.exp(rng.uniform(math.log(0.2), math.log(0.92)))
    margin = min(height * 0.35, size * 0.42)
    center = (rng.uniform(margin, size - margin), rng.uniform(margin, size - margin))
    quad = card_quad(center, height, rng.uniform(0, 360), _skew(rng, 0.03))
    quad = tilt_quad(quad, rng.normal(0, 18), rng.normal(0, 18), size * rng.uniform(0.8, 2.0))
    items: list[CardPlacement | Overlay] = []
    if rng.random() < 0.2:  # another card partly in view
        other, other_hue = random_card(rng, params)
        c2 = (rng.uniform(0, size), rng.uniform(0, size))
        items.append(_placement(rng, other, other_hue,
                                card_quad(c2, height * rng.uniform(0.6, 1.1), rng.uniform(0, 360),
                                          _skew(rng, 0.06)), design, wide=wide))
    holding = rng.random() < params.hand_share
    angle = rng.uniform(0, 2 * math.pi)
    skin = skin_tone(rng)
    if holding:  # palm under the card, a thumb over its edge
        palm = height * rng.uniform(0.3, 0.45)
        hand = hand_layer(rng, size, center, -height * 0.2, angle, skin, palm_radius=palm)
        items.append(Overlay(hand, shadow=0.2))
    items.append(_placement(rng, card, hue, quad, design, always_label=True, wide=wide))
    if holding and rng.random() < 0.7:
        # The thumb comes from the same side as the palm, over the nearest edge of the card.
        toward = np.array([math.cos(angle), math.sin(angle)])
        edge = quad[np.argsort(quad @ toward)[-2:]].mean(axis=0)
        depth = rng.uniform(0.1, 0.3)
        tip = (float(edge[0] * (1 - depth) + center[0] * depth),
               float(edge[1] * (1 - depth) + center[1] * depth))
        thumb = thumb_layer(rng, size, tip, angle + rng.normal(0, 0.4), height * rng.uniform(0.1, 0.16),
                            skin)
        items.append(Overlay(thumb, shadow=0.15))
    return items


def _table_scene(rng: Rng, size: int, params: SceneParams, camera: Camera
                 ) -> list[CardPlacement | Overlay]:
    design = int(rng.integers(0, len(DESIGNS)))  # one deck per table
    wide = _wide(rng, params)
    height = size * rng.uniform(0.14, 0.4)
    items: list[CardPlacement | Overlay] = []

    def put(card: Card, hue: bool, center: tuple[float, float], angle: float, **kw: float | bool
            ) -> None:
        quad = camera.project(card_quad(center, height, angle, _skew(rng, 0.01)))
        items.append(_placement(rng, card, hue, quad, design, wide=wide, **kw))

    # Stock: a few backs stacked with small offsets, top one boxed by visibility.
    if rng.random() < 0.5:
        sc = (rng.uniform(0, size), rng.uniform(0, size))
        angle = rng.uniform(0, 360)
        for _ in range(int(rng.integers(1, 6))):
            sc = (sc[0] + rng.normal(0, 1.5), sc[1] + rng.normal(0, 1.5))
            put(Card(None, "back"), False, sc, angle + rng.normal(0, 3), shadow=0.25)
    # Loose cards around the table.
    for _ in range(int(rng.integers(0, params.max_loose + 1))):
        card, hue = random_card(rng, params)
        put(card, hue, (rng.uniform(0, size), rng.uniform(0, size)), rng.uniform(0, 360))
    # The discard pile: cards land near its centre at random angles; the top card is whole.
    pc = (size / 2 + rng.normal(0, size * 0.12), size / 2 + rng.normal(0, size * 0.12))
    for _ in range(int(rng.integers(0, params.max_pile + 1))):
        card, hue = random_card(rng, params, allow_back=False)
        off = rng.normal(0, height * 0.18, 2)
        put(card, hue, (pc[0] + off[0], pc[1] + off[1]), rng.uniform(0, 360))
    card, hue = random_card(rng, params, allow_back=rng.random() < 0.1)
    off = rng.normal(0, height * 0.1, 2)
    put(card, hue, (pc[0] + off[0], pc[1] + off[1]), rng.uniform(0, 360), always_label=True)
    for _ in range(int(rng.random() < params.hand_share) + int(rng.random() < 0.15)):
        target = (pc[0] + rng.normal(0, height * 0.8), pc[1] + rng.normal(0, height * 0.8))
        items.append(Overlay(hand_layer(rng, size, target, height * rng.uniform(0.3, 1.0))))
    return items


def random_scene(rng: Rng, size: int = 640, params: SceneParams | None = None) -> SceneResult:
    """A random labelled scene: a table with a pile seen by a webcam, or a close-up of one card."""
    params = params or SceneParams()
    base = background(rng, size)
    if rng.random() < params.clutter_share:
        clutter(base, rng, int(rng.integers(1, 5)))
        turn = cv2.getRotationMatrix2D((size / 2, size / 2), rng.uniform(0, 360), rng.uniform(1, 1.4))
        base = cv2.warpAffine(base, turn, (size, size), borderMode=cv2.BORDER_REFLECT)
    if rng.random() < params.single_card_share:
        items = _single_scene(rng, size, params)
        if rng.random() < 0.5:  # a card held up to a phone: the background is out of focus
            sigma = rng.uniform(1.0, 4.0) * size / 640
            base = cv2.GaussianBlur(base, (0, 0), sigma)
    else:
        camera = Camera.tilted(size, rng, params.tilt * rng.uniform(0, 1))
        base = cv2.warpPerspective(base, camera.matrix, (size, size), borderMode=cv2.BORDER_REFLECT)
        items = _table_scene(rng, size, params, camera)
    result = compose(base, items, rng, min_visible=params.min_visible)
    result.image = camera_effects(result.image, rng)
    return result
