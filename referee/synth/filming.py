"""Filming a planned game: every frame of a 1280x720 webcam looking down at the table, and what it shows.

The plan (:mod:`referee.synth.game_plan`) says where each hand and card is when; this module paints a
fixed table texture, the stock, the discard pile growing card by card, hands, lighting changes, camera
shake and sensor noise, and says for each frame which cards a perfect detector could report.

Rendering is incremental: the table, the stock and every settled card live in one cached canvas;
each frame copies it and paints only what moves (a card, a hand sprite rendered once per motion),
then applies the light gain, an integer camera shake and pre-drawn noise. Everything is drawn from
``numpy.random.default_rng(seed)`` streams, so a video is deterministic by seed.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.cards import Card, Colour
from referee.synth.game_plan import Motion, Plan, Quad, VideoConfig, layout, plan_game
from referee.synth.photo_faces import load_faces
from referee.synth.render import VIDEO_DESIGNS, Palette, random_palette, render_card
from referee.synth.scene import Camera, card_quad
from referee.synth.textures import _cloth, _wood, hand_layer, skin_tone  # tables only, no rooms

__all__ = ["VisibleCard", "render_frames", "webcam"]

Image = NDArray[np.uint8]
#: a card in a frame: its label, its corners in frame pixels, the share of it that is visible
VisibleCard = tuple[str, Quad, float]


def _smooth(x: float) -> float:
    x = min(1.0, max(0.0, x))
    return x * x * (3 - 2 * x)


@dataclass
class _Sprite:
    """A BGRA image anchored at a point (the hand's reach point), with its soft shadow."""

    bgr: Image
    alpha: NDArray[np.float32]
    shadow: NDArray[np.float32]  # darkening share, same size as alpha, drawn offset
    anchor: tuple[int, int]


def _blend(canvas: Image, bgr: Image, alpha: NDArray[np.float32], x: int, y: int) -> None:
    """Paint ``bgr`` with ``alpha`` (0..1) onto ``canvas`` with its top-left at (x, y), clipped."""
    h, w = alpha.shape
    ch, cw = canvas.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(cw, x + w), min(ch, y + h)
    if x1 <= x0 or y1 <= y0:
        return
    a = alpha[y0 - y : y1 - y, x0 - x : x1 - x]
    src = bgr[y0 - y : y1 - y, x0 - x : x1 - x]
    roi = canvas[y0:y1, x0:x1]
    roi[:] = cv2.blendLinear(src, roi, a, 1.0 - a)


def _darken(canvas: Image, share: NDArray[np.float32], x: int, y: int) -> None:
    """Darken ``canvas`` by ``share`` (0..1) placed with its top-left at (x, y)."""
    h, w = share.shape
    ch, cw = canvas.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(cw, x + w), min(ch, y + h)
    if x1 <= x0 or y1 <= y0:
        return
    s = share[y0 - y : y1 - y, x0 - x : x1 - x]
    roi = canvas[y0:y1, x0:x1]
    roi[:] = cv2.blendLinear(roi, np.zeros_like(roi), 1.0 - s, s)


def _inside(points: NDArray[np.float64], quad: Quad) -> NDArray[np.bool_]:
    """Which ``points`` (N, 2) lie inside the convex ``quad`` (either winding)."""
    signs = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        signs.append((b[0] - a[0]) * (points[:, 1] - a[1]) - (b[1] - a[1]) * (points[:, 0] - a[0]))
    s = np.stack(signs)
    inside: NDArray[np.bool_] = np.all(s >= 0, axis=0) | np.all(s <= 0, axis=0)
    return inside


_GRID = np.stack(np.meshgrid(np.linspace(0.08, 0.92, 6), np.linspace(0.08, 0.92, 6)), -1).reshape(-1, 2)


def _samples(quad: Quad) -> NDArray[np.float64]:
    """Points spread over a card's quad (bilinear in its corners)."""
    u, v = _GRID[:, :1], _GRID[:, 1:]
    pts: NDArray[np.float64] = ((1 - u) * (1 - v) * quad[0] + u * (1 - v) * quad[1] + u * v * quad[2]
                                + (1 - u) * v * quad[3])
    return pts


@dataclass(frozen=True)
class Bump:
    """The camera knocked once: from ``t`` it slides over ``ramp`` seconds to a view shifted by ``shift``
    pixels and turned ``turn`` degrees about the frame's centre, and stays there."""

    t: float
    ramp: float
    shift: tuple[float, float]
    turn: float
    centre: tuple[float, float]

    def matrix(self, t: float) -> NDArray[np.float64] | None:
        """The 2x3 warp of the view at ``t`` (``None`` before the bump)."""
        if t < self.t:
            return None
        f = _smooth((t - self.t) / self.ramp)
        m = cv2.getRotationMatrix2D(self.centre, self.turn * f, 1.0)
        m[:, 2] += (self.shift[0] * f, self.shift[1] * f)
        out: NDArray[np.float64] = np.array(m, np.float64)
        return out


def bump(config: VideoConfig, seed: int, duration: float) -> Bump | None:
    """The camera bump of game ``seed`` (``None`` unless :attr:`VideoConfig.bump`), drawn from the seed's own
    stream ``[seed, 8]``: some time in the middle half of the clip, 0.15-0.3 s long, 20-50 pixels in any
    direction and 1-3 degrees either way."""
    if not config.bump:
        return None
    rng = np.random.default_rng([seed, 8])
    t = float(rng.uniform(0.3, 0.6)) * duration
    ramp = float(rng.uniform(0.15, 0.3))
    a, d = float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(20, 50))
    turn = float(rng.uniform(1, 3)) * (1 if rng.random() < 0.5 else -1)
    return Bump(t, ramp, (d * math.cos(a), d * math.sin(a)), turn, (config.width / 2, config.height / 2))


def webcam(config: VideoConfig, seed: int) -> Camera:
    """The webcam of game ``seed``: table pixels -> image pixels, a slight perspective."""
    rng = np.random.default_rng([seed, 3])
    w, h = config.width, config.height
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = src + (rng.uniform(-config.tilt, config.tilt, (4, 2)) * (w, h)).astype(np.float32)
    return Camera(cv2.getPerspectiveTransform(src, dst).astype(np.float64))


class _Renderer:
    """Frames of one planned round (see the module docstring for what is cached)."""

    MARGIN = 4  # canvas pixels around the frame, room for the shake

    def __init__(self, plan: Plan, config: VideoConfig, seed: int) -> None:
        self.plan = plan
        self.config = config
        self.rng = np.random.default_rng([seed, 2])
        rng = self.rng
        w, h, m = config.width, config.height, self.MARGIN
        self.geo = layout(config, seed)
        self.camera = webcam(config, seed)
        side = max(w, h) + 2 * m
        maker = _wood if rng.random() < 0.6 else _cloth
        table = np.clip(maker(rng, side), 0, 255).astype(np.uint8)[: h + 2 * m, : w + 2 * m]
        shift = np.array([[1, 0, m], [0, 1, m], [0, 0, 1]], np.float64)
        self.static: Image = cv2.warpPerspective(table, shift @ self.camera.matrix @ np.linalg.inv(shift),
                                                 (w + 2 * m, h + 2 * m), borderMode=cv2.BORDER_REFLECT)
        self.design = int(rng.integers(0, VIDEO_DESIGNS))
        self.palettes: dict[Colour | None, Palette] = {}
        self.faces: dict[str, Image] = {}
        self.pile: list[tuple[str, Quad]] = []  # settled cards, image pixels, bottom to top
        self.stock_quad = self._table_quad(self.geo.stock_centre, rng.uniform(-10, 10))
        for _ in range(4):
            jitter = rng.normal(0, 1.5, 2)
            quad = self._table_quad((self.geo.stock_centre[0] + jitter[0], self.geo.stock_centre[1] + jitter[1]),
                                    rng.normal(0, 3))
            self._paint_card(self.static, "back", quad)
            self.stock_quad = quad
        self.hands: dict[int, _Sprite] = {}
        self.skin = [skin_tone(rng) for _ in range(config.players)]
        # Light: (time, gains) key points, linear in between.
        self.light: list[tuple[float, NDArray[np.float64]]] = [(0.0, np.ones(3))]
        t = 0.0
        rate = config.light_changes_per_minute / 60.0
        while rate > 0:
            t = max(t + float(rng.exponential(1 / rate)), self.light[-1][0] + 0.1)
            if t >= plan.duration:
                break
            ramp = float(rng.uniform(0.5, 1.5))
            level = float(rng.uniform(0.8, 1.12))
            warm = float(rng.uniform(-0.07, 0.07))
            self.light.append((t, self.light[-1][1]))
            self.light.append((t + ramp, np.array([level * (1 - warm), level, level * (1 + warm)])))
        self.noise: list[tuple[Image, Image]] = []
        if config.noise > 0:
            for _ in range(6):
                n = rng.normal(0, config.noise, (h, w, 3))
                self.noise.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
        self.shake_phase = rng.uniform(0, 2 * math.pi, 4)
        self.bump = bump(config, seed, plan.duration)

    # Cards.
    def _table_quad(self, centre: tuple[float, float], angle: float) -> Quad:
        return self.camera.project(card_quad(centre, self.config.card_height, angle))

    def _face(self, label: str) -> Image:
        face = self.faces.get(label)
        if face is None and self.config.faces:
            cut = load_faces(self.config.faces).get(label)
            if cut:
                chosen = cut[int(self.rng.integers(0, len(cut)))]
                height = min(chosen.shape[0], round(self.config.card_height * 2))
                face = cv2.resize(chosen, (round(height * chosen.shape[1] / chosen.shape[0]), height),
                                  interpolation=cv2.INTER_AREA)
                self.faces[label] = face
        if face is None:
            card = Card.from_label(label)
            palette = self.palettes.get(card.colour)
            if palette is None:
                palette = random_palette(card, self.rng)
                self.palettes[card.colour] = palette
            face = render_card(card, self.design, self.rng, palette, height=self.config.card_height)
            self.faces[label] = face
        return face

    def _paint_card(self, canvas: Image, label: str, quad: Quad) -> None:
        """Warp the card's face onto ``quad`` (image pixels) of ``canvas``, with a hard drop shadow."""
        m = self.MARGIN
        q = quad + m
        face = self._face(label)
        ch, cw = canvas.shape[:2]
        x0, y0 = max(0, math.floor(q[:, 0].min()) - 1), max(0, math.floor(q[:, 1].min()) - 1)
        x1, y1 = min(cw, math.ceil(q[:, 0].max()) + 6), min(ch, math.ceil(q[:, 1].max()) + 6)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return
        fh, fw = face.shape[:2]
        corners = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        matrix = cv2.getPerspectiveTransform(corners, (q - [x0, y0]).astype(np.float32))
        patch = cv2.warpPerspective(face, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        alpha = patch[..., 3].astype(np.float32) * (1.0 / 255.0)
        off = max(2, round(self.config.card_height / 40))
        _darken(canvas, alpha * 0.3, x0 + off, y0 + off)
        _blend(canvas, np.ascontiguousarray(patch[..., :3]), alpha, x0, y0)

    # Hands.
    def _hand(self, motion: Motion) -> _Sprite:
        sprite = self.hands.get(motion.hand_seed)
        if sprite is not None:
            return sprite
        rng = np.random.default_rng(motion.hand_seed)
        h = self.config.card_height
        side = int(2 * max(self.config.width, self.config.height) + 4 * h)
        side -= side % 4
        angle = math.atan2(motion.start[1] - motion.reach[1], motion.start[0] - motion.reach[0])
        layer = hand_layer(rng, side, (side / 2, side / 2), 0.0, angle, self.skin[motion.seat],
                           palm_radius=0.42 * h)
        x, y, bw, bh = cv2.boundingRect(layer[..., 3])
        crop = layer[y : y + bh, x : x + bw]
        alpha = crop[..., 3].astype(np.float32) * (1.0 / 255.0)
        small = cv2.resize(alpha, (max(1, bw // 4), max(1, bh // 4)), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), max(1.0, h * 0.06))
        shadow = cv2.resize(small, (bw, bh), interpolation=cv2.INTER_LINEAR) * 0.3
        sprite = _Sprite(np.ascontiguousarray(crop[..., :3]), alpha, shadow, (side // 2 - x, side // 2 - y))
        self.hands = {motion.hand_seed: sprite}  # one motion at a time: keep one sprite
        return sprite

    @staticmethod
    def _hand_at(motion: Motion, t: float) -> tuple[float, float]:
        if t <= motion.t_reach:
            f = _smooth((t - motion.t0) / max(motion.t_reach - motion.t0, 1e-6))
        elif motion.kind == "play" and t <= motion.t_settle:
            f = 1.0
        else:
            back_from = motion.t_settle + 0.1 if motion.kind == "play" else motion.t_reach + 0.15
            f = 1.0 - _smooth((t - back_from) / max(motion.t1 - back_from, 1e-6))
        return (motion.start[0] + (motion.reach[0] - motion.start[0]) * f,
                motion.start[1] + (motion.reach[1] - motion.start[1]) * f)

    def _moving_card(self, motion: Motion, t: float, hand: tuple[float, float]) -> tuple[str, Quad] | None:
        """The card a motion carries at ``t`` (image pixels), if it is off the pile and stock."""
        h = self.config.card_height
        if motion.kind == "play" and t < motion.t_settle:
            assert motion.label is not None
            if t <= motion.t_reach:
                dx, dy = motion.reach[0] - motion.release[0], motion.reach[1] - motion.release[1]
                centre = (hand[0] - dx, hand[1] - dy)
                angle = motion.angle_held
            else:
                f = 1 - (1 - (t - motion.t_reach) / max(motion.t_settle - motion.t_reach, 1e-6)) ** 2
                centre = (motion.release[0] + (motion.final[0] - motion.release[0]) * f,
                          motion.release[1] + (motion.final[1] - motion.release[1]) * f)
                angle = motion.angle_held + (motion.angle_final - motion.angle_held) * f
            return motion.label, self._table_quad(centre, angle)
        if motion.kind == "draw" and t > motion.t_reach + 0.1:
            ux, uy = motion.start[0] - motion.reach[0], motion.start[1] - motion.reach[1]
            norm = math.hypot(ux, uy) or 1.0
            centre = (hand[0] - ux / norm * 0.1 * h, hand[1] - uy / norm * 0.1 * h)
            return "back", self._table_quad(centre, motion.angle_held)
        return None

    # Camera.
    def _gains(self, t: float) -> NDArray[np.float64]:
        keys = self.light
        for (ta, ga), (tb, gb) in itertools.pairwise(keys):
            if ta <= t < tb:
                return ga + (gb - ga) * ((t - ta) / max(tb - ta, 1e-6))
        return keys[-1][1] if t >= keys[-1][0] else keys[0][1]

    def _shake(self, t: float) -> tuple[int, int]:
        s, p = self.config.shake, self.shake_phase
        dx = s * (0.7 * math.sin(2.3 * t + p[0]) + 0.3 * math.sin(11.0 * t + p[1]))
        dy = s * (0.7 * math.sin(1.9 * t + p[2]) + 0.3 * math.sin(13.0 * t + p[3]))
        m = self.MARGIN
        return int(max(-m, min(m, round(dx)))), int(max(-m, min(m, round(dy))))

    def frames(self) -> Iterator[tuple[Image, list[VisibleCard]]]:
        """Every frame and its visible cards: (label, corners in frame pixels, visible share)."""
        cfg = self.config
        m = self.MARGIN
        count = round(self.plan.duration * cfg.fps)
        motions = sorted(self.plan.motions, key=lambda mo: mo.t0)
        next_motion = 0
        active: list[Motion] = []
        settled: set[int] = set()
        for index in range(count):
            t = index / cfg.fps
            while next_motion < len(motions) and motions[next_motion].t0 <= t:
                active.append(motions[next_motion])
                next_motion += 1
            for motion in [mo for mo in active if mo.kind == "play" and mo.t_settle <= t and id(mo) not in settled]:
                # The card lies still now: into the static canvas for good.
                assert motion.label is not None
                quad = self._table_quad(motion.final, motion.angle_final)
                self._paint_card(self.static, motion.label, quad)
                self.pile.append((motion.label, quad))
                settled.add(id(motion))
            active = [mo for mo in active if mo.t1 > t]
            canvas = self.static.copy() if active else self.static
            cards: list[tuple[str, Quad]] = [("back", self.stock_quad), *self.pile[-3:]]
            hand_cover: list[tuple[_Sprite, int, int]] = []
            for motion in active:
                hand = self._hand_at(motion, t)
                moving = self._moving_card(motion, t, hand)
                if moving is not None:
                    self._paint_card(canvas, *moving)
                    cards.append(moving)
                sprite = self._hand(motion)
                x, y = round(hand[0]) - sprite.anchor[0] + m, round(hand[1]) - sprite.anchor[1] + m
                off = round(cfg.card_height * 0.12)
                _darken(canvas, sprite.shadow, x + off, y + off)
                _blend(canvas, sprite.bgr, sprite.alpha, x, y)
                hand_cover.append((sprite, x - m, y - m))
            dx, dy = self._shake(t)
            view = canvas[m + dy : m + dy + cfg.height, m + dx : m + dx + cfg.width]
            gains = self._gains(t)
            moved = self.bump.matrix(t) if self.bump is not None else None
            if moved is not None:  # the camera knocked: the whole view shifts and turns (edges mirrored)
                view = cv2.warpAffine(view, moved, (cfg.width, cfg.height), flags=cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REFLECT)
            image = cv2.multiply(view, (float(gains[0]), float(gains[1]), float(gains[2]), 0.0))
            if self.noise:
                pos, neg = self.noise[int(self.rng.integers(0, len(self.noise)))]
                cv2.add(image, pos, dst=image)
                cv2.subtract(image, neg, dst=image)
            visible = self._visible(cards, hand_cover, (dx, dy))
            if moved is not None:
                visible = [(label, quad @ moved[:, :2].T + moved[:, 2], share) for label, quad, share in visible]
            yield image, visible

    def _visible(self, cards: list[tuple[str, Quad]], hands: list[tuple[_Sprite, int, int]],
                 shift: tuple[int, int]) -> list[VisibleCard]:
        out = []
        for i, (label, quad) in enumerate(cards):
            pts = _samples(quad)
            covered = np.zeros(len(pts), bool)
            for _, above in cards[i + 1 :]:
                covered |= _inside(pts, above)
            for sprite, x, y in hands:
                px, py = np.round(pts[:, 0]).astype(int) - x, np.round(pts[:, 1]).astype(int) - y
                ok = (px >= 0) & (py >= 0) & (px < sprite.alpha.shape[1]) & (py < sprite.alpha.shape[0])
                hit = np.zeros(len(pts), bool)
                hit[ok] = sprite.alpha[py[ok], px[ok]] > 0.5
                covered |= hit
            out.append((label, quad - shift, float(1.0 - covered.mean())))
        return out


def render_frames(seed: int, config: VideoConfig, plan: Plan | None = None
                  ) -> Iterator[tuple[Image, list[VisibleCard]]]:
    """The frames of game ``seed`` with their visible cards (see :class:`_Renderer`)."""
    plan = plan or plan_game(seed, config)
    return _Renderer(plan, config, seed).frames()
