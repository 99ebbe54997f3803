"""Who sits where, found from the arms that lay the cards (part of :mod:`referee.vision.table_finder`).

Each play's arm comes into the view by its player's shoulder: the arms' far ends fall into one group per
seat, and once there are as many groups as players they go round clockwise in seat order, placed by the
dealer's start card (or the judged seats' vote). A player sitting by a corner of the view reaches the pile
over one edge and the stock over the other: two neighbouring groups judged the same seat, close round the
table, are that seat's one side. Points are camera pixels.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Callable, Sequence

import numpy as np

from referee.vision.calibration import Point

__all__ = ["DRAW_PLAIN", "PLAIN_SHARE", "SAME_SEAT", "SAME_SIDE", "SEAT_OUTLIERS", "SeatFinder", "along_edge",
           "angle"]

#: Largest share of plays whose arm points at another seat than their turn's, for the seats to be sure.
SEAT_OUTLIERS = 0.2
#: An arm within this share of an even spread's gap of a seat's arms (and of no other's) is that seat's.
PLAIN_SHARE = 0.3
#: A draw's arm goes to the nearest seat along the view's edge only when that is under this share of the next.
DRAW_PLAIN = 0.6
#: Arms whose far ends lie closer than this share of the frame's width + height come from one seat.
SAME_SEAT = 0.08
#: Two neighbouring groups of arms whose cards were judged the same seat (most of each), closer round the table
#: than this share of an even spread's gap, are that one seat's arms coming in at two places (a seat by a
#: corner of the view reaches the pile over one edge and the stock over the other). The players sit at least
#: 0.6 of a gap apart on the generated tables.
SAME_SIDE = 0.5


def angle(origin: Point, point: Point) -> float:
    return math.atan2(point[1] - origin[1], point[0] - origin[0])



def along_edge(a: Point, b: Point, size: tuple[int, int]) -> float:
    """How far apart two points are along the view's edge (each taken to its nearest edge point), pixels."""
    w, h = size

    def position(p: Point) -> float:
        x, y = min(max(p[0], 0.0), w), min(max(p[1], 0.0), h)
        d = {"top": y, "right": w - x, "bottom": h - y, "left": x}
        edge = min(d, key=lambda k: d[k])
        return {"top": x, "right": w + y, "bottom": w + h + (w - x), "left": 2 * w + h + (h - y)}[edge]

    perimeter = 2.0 * (w + h)
    gap = abs(position(a) - position(b)) % perimeter
    return min(gap, perimeter - gap)


class SeatFinder:
    """Who sits where, from arms: each arm's far end (camera pixels, at the view's edge where the arm comes
    in), seen from the pile's centre, with the seat the referee judged its card for and whether it turned
    the start card.

    The arms' far ends fall into one group per seat (:data:`SAME_SEAT` apart at most). Once there are as
    many groups as players, apart from each other, they go round clockwise in seat order, so one number
    places them all: which group is whose. The dealer turned the start card: their group is the dealer's
    seat, and the others follow clockwise. Without the start card's arm, the seats the plays were judged for
    vote (an out-of-turn play among them, or the turn order thrown off by one, is outvoted)."""

    def __init__(self, players: int) -> None:
        self.players = players
        #: (origin, far end, seat judged, the start card)
        self.samples: deque[tuple[Point, Point, int, bool]] = deque(maxlen=24 * players)
        self.seats: tuple[Point, ...] | None = None
        self.why = "no play seen yet"
        self.reach = 160.0  # SAME_SEAT of the frame's width + height, set by the finder
        #: The view's size (set by the finder): where round the table an arm comes in is its angle from the
        #: view's middle, the view's width and height taken as one (the players sit round the table the
        #: camera frames, wherever the pile lies on it). ``None``: its angle from the pile.
        self.view: tuple[int, int] | None = None

    def around(self, origin: Point, point: Point) -> float:
        """Where round the table ``point`` lies (an angle, clockwise on screen): seen from the view's middle
        with its width and height made equal (an arm coming in at a corner is halfway between the sides),
        else from ``origin`` (the pile)."""
        if self.view is None:
            return angle(origin, point)
        w, h = self.view
        return math.atan2((point[1] - h / 2) / (h / 2), (point[0] - w / 2) / (w / 2))

    def add(self, origin: Point, root: Point, seat: int, *, start: bool = False) -> None:
        self.samples.append((origin, root, seat % self.players, start))

    def moved(self, move: Callable[[Point], Point]) -> None:
        """The camera moved: every sample (and the seats) with it."""
        self.samples = deque(((move(o), move(r), s, st) for o, r, s, st in self.samples), maxlen=self.samples.maxlen)
        if self.seats is not None:
            self.seats = tuple(move(p) for p in self.seats)

    def groups(self) -> list[list[int]]:
        """The samples' indices grouped by where their arms come in, clockwise round the table (:meth:`around`);
        neighbouring groups of one seat's arms joined (:data:`SAME_SIDE`)."""
        roots = [r for _, r, _, _ in self.samples]
        groups: list[list[int]] = []
        for i, r in enumerate(roots):
            home = next((g for g in groups
                         if math.hypot(*np.subtract(np.median([roots[j] for j in g], axis=0), r)) < self.reach), None)
            if home is None:
                groups.append([i])
            else:
                home.append(i)
        if not self.samples:
            return groups
        origin = self.samples[-1][0]
        return self._one_side_each(sorted(groups, key=lambda g: self._angle(origin, g)), origin)

    def _judged(self, g: Sequence[int], elsewhere: Callable[[int], bool] | None = None) -> int | None:
        """The seat most of group ``g``'s cards were judged for (``None``: a tie, or none); with ``elsewhere``,
        not counting a card judged for a seat whose side is plainly placed apart from ``g`` (:meth:`_elsewhere`)."""
        ranked = Counter(self.samples[j][2] for j in g
                         if elsewhere is None or not elsewhere(self.samples[j][2])).most_common(2)
        if not ranked:
            return None
        return ranked[0][0] if len(ranked) == 1 or ranked[0][1] > ranked[1][1] else None

    def _dealer(self, groups: list[list[int]]) -> tuple[list[int], int] | None:
        """The group holding the start card's arm (the last one seen) and the dealer's seat. With no start card's
        arm seen (the start card laid before the pile was found, say), the oldest play's group and the seat its
        card was judged for stand in: one side placed, the others even steps round from it, as from the dealer's
        (the first plays of a round come in turn). ``None``: no arm seen."""
        starts = [(g, self.samples[j][2]) for g in groups for j in g if self.samples[j][3]]
        if starts:
            return starts[-1]
        return next(((g, self.samples[0][2]) for g in groups if 0 in g), None)

    def _elsewhere(self, origin: Point, groups: list[list[int]], g: Sequence[int] | Point) -> Callable[[int], bool]:
        """Whether a seat's side is plainly placed apart from group ``g`` (or an arm coming in at a point ``g``):
        the dealer's (the start card's) or one an even step round from it (within :data:`PLAIN_SHARE`), further
        round the table from ``g`` than :data:`SAME_SIDE` of an even gap. One player's arms come in at one place
        (or two close together, by a corner): a card from ``g`` judged for that seat was laid out of turn, or judged
        by a turn order thrown off, and says nothing of who sits at ``g``. Counted, a first play out of turn from a
        side not placed yet named that side after the seat whose turn it was, and every later arm from there was
        given that seat too, so the seats were never found."""
        if (found := self._dealer(groups)) is None:
            return lambda seat: False
        dealer_group, dealer = found
        gap = 2 * math.pi / self.players
        placed: dict[int, Sequence[int]] = {dealer: dealer_group}
        for h in groups:
            steps = self._steps(origin, dealer_group, self._angle(origin, h))
            k = round(steps)
            if h is not dealer_group and abs(steps - k) < PLAIN_SHARE and 0 < k < self.players:
                placed.setdefault((dealer + k) % self.players, h)
        here = self.around(origin, g) if isinstance(g, tuple) else self._angle(origin, g)

        def apart(seat: int) -> bool:
            side = placed.get(seat)
            return side is not None and side is not g and abs(
                math.remainder(self._angle(origin, side) - here, 2 * math.pi)) >= SAME_SIDE * gap

        return apart

    def _one_side_each(self, groups: list[list[int]], origin: Point) -> list[list[int]]:
        """``groups`` (clockwise) with each two neighbours judged the same seat, closer round the table than
        :data:`SAME_SIDE` of an even gap, joined: one seat's arms coming in at two places. Two seats' arms judged
        alike (an out-of-turn play among the first) part again once a play of either is judged its own seat."""
        gap = 2 * math.pi / self.players
        joined = True
        while joined and len(groups) > 1:
            joined = False
            for k, a in enumerate(groups):
                b = groups[(k + 1) % len(groups)]
                seat = self._judged(a)
                if seat is None or seat != self._judged(b):
                    continue
                if abs(math.remainder(self._angle(origin, b) - self._angle(origin, a), 2 * math.pi)) < SAME_SIDE * gap:
                    groups = [g for g in groups if g is not b]
                    groups[groups.index(a)] = sorted(a + b)
                    groups.sort(key=lambda g: self._angle(origin, g))
                    joined = True
                    break
        return groups

    def _centre(self, g: Sequence[int]) -> Point:
        pts = np.array([self.samples[j][1] for j in g], np.float64)
        return float(np.median(pts[:, 0])), float(np.median(pts[:, 1]))

    def _angle(self, origin: Point, g: Sequence[int]) -> float:
        return self.around(origin, self._centre(g))

    def _steps(self, origin: Point, dealer_group: Sequence[int], angle: float) -> float:
        """How many even gaps clockwise round the table ``angle`` (:meth:`around`) lies from the dealer's side."""
        return ((angle - self._angle(origin, dealer_group)) % (2 * math.pi)) / (2 * math.pi / self.players)

    def _sides_placed(self, origin: Point, groups: list[list[int]], dealer_group: list[int], dealer: int
                      ) -> tuple[dict[int, float], int] | None:
        """The sides placed so far: each seat's steps round from the dealer's (0, the dealer's own) -> how many even
        gaps round from the dealer's side its side lies (:meth:`_steps`). Placed are the dealer's (the start
        card's), those an even step round from it (within :data:`PLAIN_SHARE`), and those whose cards were judged
        one seat (:meth:`_judged`, not counting cards judged for a seat placed plainly elsewhere); with the number of
        groups not placed. ``None``: two sides for one seat, or sides placed that do not go round clockwise."""
        n = self.players
        placed: dict[int, float] = {0: 0.0}
        unplaced = 0
        for g in groups:
            if g is dealer_group:
                continue
            at = self._steps(origin, dealer_group, self._angle(origin, g))
            k = round(at)
            if not (abs(at - k) < PLAIN_SHARE and 0 < k < n):
                judged = self._judged(g, self._elsewhere(origin, groups, g))
                if judged is None or (judged - dealer) % n == 0:
                    unplaced += 1
                    continue
                k = (judged - dealer) % n
            if k in placed:
                return None
            placed[k] = at
        if [placed[k] for k in sorted(placed)] != sorted(placed.values()):
            return None
        return placed, unplaced

    def _placed(self, groups: list[list[int]]) -> dict[int, int] | None:
        """Group index -> seat: the dealer's group from the start card, else the judged seats' vote."""
        n = self.players
        if (found := self._dealer(groups)) is not None:
            k, dealer = next(i for i, g in enumerate(groups) if g is found[0]), found[1]
            return {(k + i) % len(groups): (dealer + i) % n for i in range(len(groups))}
        if len(groups) != n:
            return None
        votes = [sum(self.samples[j][2] == (k + r) % n for k, g in enumerate(groups) for j in g) for r in range(n)]
        best = int(np.argmax(votes))
        return {k: (k + best) % n for k in range(n)}

    def plainly(self, origin: Point, root: Point) -> int | None:
        """Before the seats are sure: the seat of an arm coming in at ``root`` when plain: from the dealer's
        group, or from a group as many even steps round from the dealer's as its seat is (within
        :data:`PLAIN_SHARE` of a step), or from a group whose cards were judged one seat (most of them: a
        seat's arms come in at one place; that seat is as sure as those judgements were), or the last side
        left. ``None``: not plain (the referee's turn order stands)."""
        groups = self.groups()
        if (found := self._dealer(groups)) is None:
            return None
        dealer_group, dealer = found
        if math.hypot(*np.subtract(self._centre(dealer_group), root)) < self.reach:
            return dealer
        steps = self._steps(origin, dealer_group, self.around(origin, root))
        k = round(steps)
        if abs(steps - k) < PLAIN_SHARE and 0 < k < self.players:
            return (dealer + k) % self.players
        home = [g for g in groups if math.hypot(*np.subtract(self._centre(g), root)) < self.reach]
        if len(home) == 1 and (seat := self._judged(home[0], self._elsewhere(origin, groups, home[0]))) is not None:
            # One player's arms come in at one place: an arm from a side whose cards were given one seat
            # (the turn's, when no seat was plain) is that seat's, even when the turn has moved on.
            return seat
        return self._last_side(origin, root, groups, dealer_group, dealer)

    def instead_of(self, origin: Point, root: Point, seat: int) -> int | None:
        """Before the seats are sure, an arm at ``root`` that is not plainly any seat's (:meth:`plainly`), its card
        about to be given ``seat`` (the turn's): whether the sides placed so far leave ``seat`` room there. The
        sides placed are the dealer's (the start card's), those an even step round from it, and those whose cards
        were judged one seat (:meth:`_judged`); the seats go round clockwise. A seat whose side is placed sits there
        (its arms come in within :data:`SAME_SIDE` of an even gap of it); one not placed sits between the sides of
        the seats placed before and after it. When ``seat`` has no room at the arm, the card was laid out of turn:
        returns the seat with room there whose even step round from the dealer's side lies nearest the arm.
        ``None``: ``seat`` may be the arm's, or no seat has room (the sides placed disagree)."""
        groups = self.groups()
        if (found := self._dealer(groups)) is None:
            return None
        dealer_group, dealer = found
        n = self.players
        sides = self._sides_placed(origin, groups, dealer_group, dealer)
        if sides is None:
            return None  # two sides for one seat, or they do not go round clockwise: no order to go by
        placed, _ = sides
        here = self._steps(origin, dealer_group, self.around(origin, root))

        def room(k: int) -> bool:
            if k in placed:
                return abs(math.remainder(here - placed[k], n)) < SAME_SIDE
            before = max(at for j, at in placed.items() if j < k)
            after = min((at for j, at in placed.items() if j > k), default=float(n))
            return before < here < after

        if room((seat - dealer) % n):
            return None
        others = [k for k in range(n) if room(k)]
        if not others:
            return None
        return (dealer + min(others, key=lambda k: abs(math.remainder(here - k, n)))) % n

    def _last_side(self, origin: Point, root: Point, groups: list[list[int]], dealer_group: list[int],
                   dealer: int) -> int | None:
        """An arm from a side not seen yet when every other seat's side is placed (the dealer's, the others
        plainly or by the seat their cards were judged: one side, one seat): the one seat left, if the arm comes
        in between its neighbours' sides (the seats go round clockwise, and so must the sides placed), apart
        from each by :data:`SAME_SIDE` of an even gap. ``None`` otherwise."""
        n = self.players
        if len(groups) != n - 1 or any(math.hypot(*np.subtract(self._centre(g), root)) < self.reach for g in groups):
            return None
        # A side not an even step round is placed by its cards' seat (else a side a third of a step off is given
        # the turn's seat, and a later out-of-turn card from the last side with it); every side must be placed.
        sides = self._sides_placed(origin, groups, dealer_group, dealer)
        if sides is None or sides[1]:
            return None
        placed, _ = sides
        missing = [k for k in range(n) if k not in placed]
        if len(placed) != n - 1 or len(missing) != 1:
            return None
        k = missing[0]
        here = self._steps(origin, dealer_group, self.around(origin, root))
        before, after = placed.get((k - 1) % n, 0.0), placed.get((k + 1) % n, float(n))
        if (k + 1) % n == 0:
            after = float(n)
        # Apart from each neighbour by SAME_SIDE of a gap at least: an arm coming in next to a placed side is that
        # seat's at a corner of the view (an arm coming in a few degrees round from its plays' side, taken for the
        # last seat's, would solve the seats wrong).
        return (dealer + k) % n if before + SAME_SIDE < here < after - SAME_SIDE else None

    def solve(self) -> tuple[Point, ...] | None:
        """The seats' points when sure (else ``None``, and :attr:`why` says what is missing)."""
        n = self.players
        groups = self.groups()
        if len(groups) < n:
            self.why = f"arms seen from {len(groups)} of {n} sides"
            return None
        if len(groups) > n:
            self.why = f"arms seen from {len(groups)} sides for {n} players"
            return None
        placed = self._placed(groups)
        if placed is None:
            self.why = "the dealer's side not seen"
            return None
        agree = sum(self.samples[j][2] == placed[k] for k, g in enumerate(groups) for j in g)
        if agree < (1 - SEAT_OUTLIERS) * len(self.samples):
            self.why = f"only {agree} of {len(self.samples)} plays came from their turn's side"
            return None
        seats: list[Point] = [(0.0, 0.0)] * n
        for k, g in enumerate(groups):
            seats[placed[k]] = self._centre(g)
        self.seats = tuple(seats)
        self.why = ""
        return self.seats

    def placed_entries(self) -> dict[int, Point]:
        """Before the seats are sure: where the arms of each seat placed so far come in (see :meth:`plainly`)."""
        if not self.samples:
            return {}
        origin = self.samples[-1][0]
        out: dict[int, Point] = {}
        for g in self.groups():
            centre = self._centre(g)
            seat = self.plainly(origin, centre)
            if seat is not None and seat not in out:
                out[seat] = centre
        return out

    def nearest_seen(self, root: Point, origin: Point) -> int | None:
        """Before the seats are sure: the seat (placed by :meth:`plainly`'s rule) whose arms come in where
        ``root`` does; ``None`` when none does plainly."""
        groups = self.groups()
        if not groups or not self.samples:
            return None
        near = [g for g in groups if math.hypot(*np.subtract(self._centre(g), root)) < self.reach]
        if len(near) != 1:
            return None
        return self.plainly(self.samples[-1][0], self._centre(near[0]))
