"""A game video's plan: a simulated UNO round laid out on the video's clock, with its logs (no pixels).

The rules simulator (:func:`referee.rules.simulate.simulate_scripted_round`) plays one round, seeded,
with misplays injected one after another; :func:`plan_game` turns its observations into motions (a hand
carrying a card in from its seat and letting it slide onto the pile, a hand reaching to the stock for
each card drawn, hands passing over the pile without playing) and gives every line of the truth and
operator logs its time on that clock (:mod:`referee.synth.video` says what each log holds). The plan is
filmed by :mod:`referee.synth.filming`.

Seat geometry (the same as :func:`referee.vision.calibration.default_seats`, so even an uncalibrated
whole-frame profile attributes seats right): seats ``0..N-1`` sit clockwise around the table, seat
``s`` in the direction ``pi/2 + 2*pi*s/N`` from the pile's centre (image coordinates, y down): seat 0
at the bottom edge (the camera's foot), then clockwise on screen; with four players 0 bottom, 1 left,
2 top, 3 right. A hand always enters the frame from its seat's side, along the line from its seat to
the point it reaches. The pile sits at the centre of the table; the stock at the upper right, outside
the motion zone around the pile.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from referee.contract import ALERT_CODES, Line, OutputLine
from referee.rules import Referee
from referee.rules.simulate import simulate_scripted_round

__all__ = [
    "OPERATOR_DELAY",
    "VISIBLE",
    "Geometry",
    "Motion",
    "Plan",
    "VideoConfig",
    "layout",
    "plan_game",
    "referee_outputs",
    "simulate_round",
]

Quad = NDArray[np.float64]

#: Seconds between a visible event and the operator line that follows it.
OPERATOR_DELAY = 0.6
#: Table layouts a video may be filmed with (:attr:`VideoConfig.layout`).
LAYOUTS = ("fixed", "anywhere")
#: Observation types the camera sees (when draws are filmed).
VISIBLE = frozenset({"start", "play", "draw"})


@dataclass(frozen=True)
class VideoConfig:
    """What a game video looks like; every random choice comes from the seed."""

    seconds: float = 60.0
    fps: float = 15.0
    width: int = 1280
    height: int = 720
    players: int = 4
    rules: str = "official"
    #: the dealer's seat (``None``: the simulator's draw)
    dealer: int | None = 0
    #: cards dealt to each player (``None``: the preset's, 7); fewer make a round short enough to film whole
    hand_size: int | None = None
    #: alert codes of misplays injected one after another (see :data:`ALERT_CODES`)
    misplays: tuple[str, ...] = ("out_of_turn", "illegal_card")
    #: turns before the first misplay may be made, and between misplays
    first_misplay_after: int = 3
    misplay_gap: int = 4
    #: a card's height in pixels on the table
    card_height: float = 120.0
    #: chance that a hand passes over the pile (without playing) before an action
    hover_share: float = 0.3
    #: draws are filmed (a hand reaching to the stock per card) rather than told by the operator
    visible_draws: bool = True
    noise: float = 3.0
    #: camera shake amplitude, pixels
    shake: float = 1.5
    light_changes_per_minute: float = 4.0
    #: webcam perspective: corners moved by up to this share of the frame
    tilt: float = 0.03
    #: a folder of faces cut out of photos (:mod:`referee.synth.photo_faces`): the cards are that deck's,
    #: one of its faces of each label drawn per game; labels it lacks (the backs) are drawn as printed.
    #: Empty: every card is one of the renderer's printings.
    faces: str = ""
    #: Where the table's things are: ``fixed`` (the pile in the middle, the stock at the upper right, seat 0
    #: at the bottom edge and the others evenly clockwise) or ``anywhere`` (drawn from the seed's own
    #: stream, :func:`layout`: the pile anywhere in view, the players turned to any side and a little
    #: uneven, the stock between two of them). ``fixed`` renders what it always did.
    layout: str = "fixed"
    #: The camera is bumped once mid-game (:func:`referee.synth.filming.bump`): the view shifts and turns
    #: a little and stays so. Off: no frame changes.
    bump: bool = False

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 10:
            raise ValueError(f"players must be 2..10, got {self.players}")
        if self.dealer is not None and not 0 <= self.dealer < self.players:
            raise ValueError(f"dealer must be a seat 0..{self.players - 1}, got {self.dealer}")
        if self.hand_size is not None and not 1 <= self.hand_size <= 30:
            raise ValueError(f"hand_size must be 1..30, got {self.hand_size}")
        if self.seconds <= 0 or self.fps <= 0:
            raise ValueError(f"seconds and fps must be positive, got {self.seconds}, {self.fps}")
        if self.width < 320 or self.height < 240:
            raise ValueError(f"frame too small: {self.width}x{self.height}")
        if self.faces and not Path(self.faces).is_dir():
            raise ValueError(f"faces folder {self.faces} does not exist "
                             "(cut one with python -m referee.synth.photo_faces)")
        if self.layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, got {self.layout!r}")
        unknown = [m for m in self.misplays if m not in ALERT_CODES]
        if unknown:
            raise ValueError(f"unknown misplay codes {unknown}; choose from {', '.join(ALERT_CODES)}")


# -- the game ------------------------------------------------------------------------------------
def simulate_round(seed: int, config: VideoConfig) -> tuple[list[Line], list[tuple[str, int]]]:
    """One simulated round: its observations and the ``(code, seat)`` alerts its misplays must raise."""
    game = simulate_scripted_round(seed, config.rules, config.players, config.misplays,
                                   first_after=config.first_misplay_after, gap=config.misplay_gap,
                                   dealer=config.dealer, hand_size=config.hand_size)
    return game.log(), list(game.expected_alerts)


def layout(config: VideoConfig, seed: int) -> Geometry:
    """The table of game ``seed`` (table pixels): :attr:`VideoConfig.layout` ``fixed`` as it always was;
    ``anywhere`` from the seed's own stream ``[seed, 7]`` (no other stream draws less or more): the
    players' seats turned by any angle, each a little off the even spread (up to a fifth of the gap, so
    they stay in order clockwise), the pile anywhere its zone stays in view, the stock between two
    neighbouring seats as the pile sees them, away from the pile and in view."""
    w, h, hh = config.width, config.height, config.card_height
    if config.layout == "fixed":
        return Geometry(w, h, config.players, hh)
    rng = np.random.default_rng([seed, 7])
    n = config.players
    turn = float(rng.uniform(0, 2 * math.pi))
    gap = 2 * math.pi / n
    angles = tuple(turn + gap * s + float(rng.uniform(-0.2, 0.2)) * gap for s in range(n))
    edge = 1.45 * hh + 0.4 * hh  # the pile zone and a little room stay in view
    pile = (float(rng.uniform(edge, w - edge)), float(rng.uniform(edge, h - edge)))
    # The stock: between two neighbouring seats (seen from the pile), 3-3.5 card heights away, in view.
    stock = pile
    for _ in range(64):
        s = int(rng.integers(0, n))
        seen = [math.atan2(h / 2 + (h / 2 - 20) * math.sin(a) - pile[1], w / 2 + (w / 2 - 20) * math.cos(a) - pile[0])
                for a in (angles[s], angles[(s + 1) % n])]
        mid = seen[0] + math.remainder(seen[1] - seen[0], 2 * math.pi) / 2
        far = float(rng.uniform(3.0, 3.5)) * hh
        x, y = pile[0] + far * math.cos(mid), pile[1] + far * math.sin(mid)
        if 1.2 * hh <= x <= w - 1.2 * hh and 1.2 * hh <= y <= h - 1.2 * hh:
            stock = (x, y)
            break
    else:  # no gap leaves room in view: the corner farthest from the pile
        m = 1.3 * hh
        corners = [(m, m), (w - m, m), (w - m, h - m), (m, h - m)]
        stock = max(corners, key=lambda c: math.hypot(c[0] - pile[0], c[1] - pile[1]))
    return Geometry(w, h, n, hh, pile_at=pile, stock_at=stock, seat_angles=angles)


# -- the plan: observations -> motions on a clock --------------------------------------------------
@dataclass(frozen=True)
class Geometry:
    """Where things are on the table (table pixels; the camera maps them to the image)."""

    width: int
    height: int
    players: int
    card_height: float
    #: Where the pile lies (``None``: the middle of the view).
    pile_at: tuple[float, float] | None = None
    #: Where the stock lies (``None``: the upper right).
    stock_at: tuple[float, float] | None = None
    #: Each seat's direction from the middle of the view (``None``: ``pi/2 + 2*pi*s/N``).
    seat_angles: tuple[float, ...] | None = None

    @property
    def pile_centre(self) -> tuple[float, float]:
        if self.pile_at is not None:
            return self.pile_at
        return self.width / 2, self.height / 2

    @property
    def pile_half(self) -> float:
        """Half the side of the square pile zone."""
        return 1.45 * self.card_height

    @property
    def stock_centre(self) -> tuple[float, float]:
        if self.stock_at is not None:
            return self.stock_at
        return self.width - 1.5 * self.card_height, 1.3 * self.card_height

    @property
    def stock_half(self) -> float:
        return 0.85 * self.card_height

    def seat_angle(self, seat: int) -> float:
        if self.seat_angles is not None:
            return self.seat_angles[seat]
        return math.pi / 2 + 2 * math.pi * seat / self.players

    def seat_point(self, seat: int) -> tuple[float, float]:
        """Seat ``seat`` on the table's edge (as :func:`default_seats` places it; with seats placed
        anywhere, on the view's edge in their direction from its middle)."""
        a = self.seat_angle(seat)
        cx, cy = self.pile_centre if self.seat_angles is None else (self.width / 2, self.height / 2)
        return cx + (self.width / 2 - 20) * math.cos(a), cy + (self.height / 2 - 20) * math.sin(a)

    def outside(self, target: tuple[float, float], seat: int) -> tuple[float, float]:
        """A point beyond the frame's edge on the line from ``target`` to ``seat``: hands start there."""
        sx, sy = self.seat_point(seat)
        dx, dy = sx - target[0], sy - target[1]
        norm = math.hypot(dx, dy) or 1.0
        dx, dy = dx / norm, dy / norm
        far = 2.2 * self.card_height
        steps = []
        for d, lo, hi, p in ((dx, 0.0, self.width, target[0]), (dy, 0.0, self.height, target[1])):
            if d > 1e-6:
                steps.append((hi - p) / d)
            elif d < -1e-6:
                steps.append((lo - p) / d)
        reach = min(steps) if steps else 0.0
        return target[0] + dx * (reach + far), target[1] + dy * (reach + far)

    @staticmethod
    def square(centre: tuple[float, float], half: float) -> Quad:
        cx, cy = centre
        return np.array([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half],
                         [cx - half, cy + half]], np.float64)


@dataclass
class Motion:
    """One hand visiting the table between ``t0`` and ``t1``, maybe carrying a card in or out."""

    kind: str  # play, draw, hover
    seat: int
    t0: float
    t_reach: float  # the hand arrives (a draw grabs its card; a play lets its card go)
    t_settle: float  # the card lies still on the pile (plays)
    t1: float
    start: tuple[float, float]  # hand anchor outside the frame
    reach: tuple[float, float]  # hand anchor at its furthest
    label: str | None = None  # the card carried in (play) or the back carried out (draw)
    release: tuple[float, float] = (0.0, 0.0)  # card centre when let go
    final: tuple[float, float] = (0.0, 0.0)  # card centre on the pile
    angle_held: float = 0.0
    angle_final: float = 0.0
    hand_seed: int = 0


@dataclass
class Plan:
    """A round laid out on the video's clock."""

    motions: list[Motion]
    truth: list[Line]
    operator: list[Line]
    duration: float
    #: (code, seat) of the alerts the simulator's misplays must raise, in the whole round
    sim_alerts: list[tuple[str, int]]
    #: the truth log covers the whole round (False: the clip ends before the round does)
    complete: bool


def plan_game(seed: int, config: VideoConfig) -> Plan:
    """Simulate a round and lay it out as motions, a truth log and an operator log (no pixels)."""
    obs, sim_alerts = simulate_round(seed, config)
    timeline = _Timeline(seed, config)
    complete = True
    for index, o in enumerate(obs):
        kind = o["type"]
        fields = {k: v for k, v in o.items() if k != "t"}
        if kind == "setup":
            if index:
                break  # one round per video
            timeline.tell(fields, 0.0)
            continue
        if kind == "start" and index + 1 < len(obs) and obs[index + 1]["type"] == "start":
            continue  # a Wild Draw Four turned first goes back into the stock unseen
        if kind in ("start", "play"):
            laid = timeline.lay_play(o, fields)
        elif kind == "draw" and config.visible_draws:
            laid = timeline.lay_draws(o)
        else:
            laid = timeline.tell_after(fields)
        if not laid:
            complete = False
            break
    end = max(timeline.clock, timeline.pending_op) + 1.5
    duration = config.seconds if not complete else min(config.seconds, end)
    return Plan(timeline.motions, timeline.truth, timeline.operator, duration, sim_alerts, complete)


class _Timeline:
    """A round being laid out on the video's clock: the motions so far, the truth and operator logs, when
    the next motion may start (``clock``) and the next operator line (``pending_op``)."""

    def __init__(self, seed: int, config: VideoConfig) -> None:
        self.config = config
        self.rng = np.random.default_rng([seed, 1])
        self.geo = layout(config, seed)
        self.h = config.card_height
        self.limit = config.seconds - 1.0  # the last motion ends a second before the clip does
        self.motions: list[Motion] = []
        self.truth: list[Line] = []
        self.operator: list[Line] = []
        self.clock = 0.8
        self.last_visible = 0.0
        self.pending_op = 0.0  # earliest time for the next operator line

    # What the round says, laid out; each returns False when the clip ends first.
    def lay_play(self, o: Line, fields: Line) -> bool:
        """A card laid on the pile (the start card too), after a hand hovering now and then; the colour named
        for a wild told by the operator."""
        config, rng = self.config, self.rng
        seat = o.get("seat")
        if seat is None:
            seat = config.dealer if config.dealer is not None else 0
        if config.hover_share and rng.random() < config.hover_share and not self.schedule(self.hover()):
            return False
        motion = self.play(int(seat), str(o["card"]))
        if not self.schedule(motion):
            return False
        colour = fields.pop("color", None)
        self.truth.append({**fields, "t": round(motion.t_settle, 3)})
        self.last_visible = motion.t_settle
        self.pending_op = motion.t_settle + OPERATOR_DELAY
        if colour is not None:
            self.tell({"type": "color", "color": colour, "seat": seat}, self.pending_op)
            self.pending_op += 0.3
        return True

    def lay_draws(self, o: Line) -> bool:
        """A draw filmed: one reach to the stock per card."""
        for _ in range(int(o["count"])):
            motion = self.draw(int(o["seat"]))
            if not self.schedule(motion):
                return False
            self.truth.append({"type": "draw", "seat": o["seat"], "count": 1, "t": round(motion.t_reach, 3)})
            self.last_visible = motion.t_reach
            self.pending_op = motion.t1 + OPERATOR_DELAY
        return True

    def tell_after(self, fields: Line) -> bool:
        """A line told by the operator, after what it follows is visible."""
        t = max(self.pending_op, self.last_visible + OPERATOR_DELAY, self.clock)
        if t > self.limit:
            return False
        self.tell(fields, t)
        self.pending_op = t + 0.3
        return True

    def tell(self, line: Line, t: float) -> None:
        """``line`` at ``t`` in both logs; the next motion starts after it."""
        line = {**line, "t": round(t, 3)}
        self.truth.append(line)
        self.operator.append(line)
        self.clock = max(self.clock, t + 0.1)

    def schedule(self, motion: Motion) -> bool:
        """Add ``motion`` if it ends in time; the next one starts a moment after it."""
        if motion.t1 > self.limit:
            return False
        self.motions.append(motion)
        self.clock = motion.t1 + self.rng.uniform(0.15, 0.5)
        return True

    # The motions, starting at the clock.
    def hover(self) -> Motion:
        """A hand hovering over the pile and going back, laying nothing."""
        rng, geo, h = self.rng, self.geo, self.h
        seat = int(rng.integers(0, self.config.players))
        cx, cy = geo.pile_centre
        target = (cx + rng.normal(0, 0.35 * h), cy + rng.normal(0, 0.35 * h))
        start = geo.outside(target, seat)
        t0 = self.clock
        t_reach = t0 + rng.uniform(0.45, 0.7)
        return Motion("hover", seat, t0, t_reach, t_reach, t_reach + rng.uniform(0.5, 0.8), start, target,
                      hand_seed=int(rng.integers(0, 2**31)))

    def play(self, seat: int, label: str) -> Motion:
        """Seat ``seat``'s hand sliding card ``label`` onto the pile."""
        rng, geo, h = self.rng, self.geo, self.h
        cx, cy = geo.pile_centre
        final = (cx + rng.normal(0, 0.1 * h), cy + rng.normal(0, 0.1 * h))
        start = geo.outside(final, seat)
        dx, dy = start[0] - final[0], start[1] - final[1]
        norm = math.hypot(dx, dy)
        ux, uy = dx / norm, dy / norm
        slide = rng.uniform(0.35, 0.6) * h
        release = (final[0] + ux * slide, final[1] + uy * slide)
        reach = (release[0] + ux * 0.15 * h, release[1] + uy * 0.15 * h)
        held = math.degrees(math.atan2(uy, ux)) + 90 + rng.normal(0, 8)
        t0 = self.clock
        t_reach = t0 + rng.uniform(0.55, 0.8)
        t_settle = t_reach + rng.uniform(0.2, 0.3)
        t1 = t_settle + rng.uniform(0.45, 0.7)
        return Motion("play", seat, t0, t_reach, t_settle, t1, start, reach, label, release, final,
                      held, held + rng.uniform(-50, 50), int(rng.integers(0, 2**31)))

    def draw(self, seat: int) -> Motion:
        """Seat ``seat``'s hand taking one card from the stock."""
        rng, geo, h = self.rng, self.geo, self.h
        sx, sy = geo.stock_centre
        target = (sx + rng.normal(0, 0.1 * h), sy + rng.normal(0, 0.1 * h))
        start = geo.outside(target, seat)
        t0 = self.clock
        t_reach = t0 + rng.uniform(0.4, 0.6)
        t1 = t_reach + rng.uniform(0.15, 0.25) + rng.uniform(0.4, 0.6)
        return Motion("draw", seat, t0, t_reach, t_reach, t1, start, target, "back",
                      angle_held=math.degrees(geo.seat_angle(seat)) + 90,
                      hand_seed=int(rng.integers(0, 2**31)))


def referee_outputs(log_lines: Sequence[Line]) -> list[OutputLine]:
    """The referee's contract-3 lines over ``log_lines`` (each carries its cause's ``t``)."""
    referee = Referee()
    out: list[OutputLine] = []
    for line in log_lines:
        out.extend(referee.observe(dict(line)))
    return out
