"""Hands over the pile and at the stock, and their seats: what the tracker cannot see in detections."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from referee.vision.calibration import CalibrationProfile
from referee.vision.tracking.arms import ARM_PAST, Zones, farthest
from referee.vision.tracking.background import TableBackground, grey, moving, shrink
from referee.vision.tracking.boxes import Box, Mask, low_res_area
from referee.vision.tracking.stock_watch import StockWatch

#: The most frames kept to be watched again in a followed view (``MotionDetector.learnt_from``'s ``still``).
_KEPT = 8


@dataclass(frozen=True)
class MotionSample:
    """What moved in one frame: the pile zone's moving pixels (top-down), the hand's seat, draws."""

    #: Moving pixels over the top-down pile image, low resolution (``None``: not measured).
    pile_mask: Mask | None = None
    #: Size (w, h) of the top-down pile image the detections are in.
    pile_size: tuple[int, int] = (0, 0)
    #: Seat of the hand that last reached into the pile zone (``None``: unknown).
    seat: int | None = None
    #: A hand is over the pile zone now.
    hand_over_pile: bool = False
    #: The whole view changed at once (a light switched, a glare, the camera bumped).
    global_change: bool = False
    #: Seats whose hands just left the stock zone: one ``draw`` each.
    draws: tuple[int | None, ...] = ()
    #: Motion in the pile zone since the previous sample (a hand came by).
    disturbed: bool = True
    #: For each draw, how many frames ago its hand first came near the stock.
    draw_started: tuple[int, ...] = ()
    #: An arm reaches into the pile zone now (moving or holding still).
    arm_over_pile: bool = False
    #: How many hand visits have reached into the pile zone so far (``None``: not counted). A card
    #: is laid during a visit: a new read with no visit since the last card is that card again.
    pile_visit: int | None = None
    #: The top-down pile image, grey and low resolution: now, and as it lay just before the latest
    #: visit began (``None``: not kept). A card laid during that visit changed the pixels where it lies.
    pile_now: npt.NDArray[np.uint8] | None = None
    pile_before: npt.NDArray[np.uint8] | None = None

    def fraction_in(self, xyxy: Box) -> float:
        """Share of ``xyxy`` (top-down pile pixels) that moved."""
        if self.pile_mask is None:
            return 0.0
        area = low_res_area(xyxy, self.pile_size, self.pile_mask.shape)
        return float(self.pile_mask[area].mean()) if area is not None else 0.0


@dataclass
class Episode:
    """One hand's visit to a zone: where it came in from and how long it stayed."""

    start_frame: int
    entry: list[tuple[float, float]] = field(default_factory=list)
    frames: int = 0
    quiet: int = 0
    touched: bool = False
    seat: int | None = None
    in_zone: int = 0
    #: Where the arm reaching into the zone comes from (see :meth:`Zones.arm_root`).
    roots: list[tuple[float, float]] = field(default_factory=list)
    #: Whether the hand was seen moving around the zone as it came, not only inside it already.
    came_in: bool = False
    #: Where an arm seen only in its faint hue comes from, in frames where no arm stood out as usual
    #: (see ``MotionDetector.faint_chroma``): the seat of a draw that would otherwise have none.
    faint_roots: list[tuple[float, float]] = field(default_factory=list)
    #: Frames something stood out from the table in the zone, from the run of them it began in
    #: (see ``StockWatch._slow_hand``).
    held: int = 0
    #: Frames the arm over the stock reached on past it, its hand at the pile (see ``passed_on``), and where that arm
    #: came into the view when last seen to (low-resolution pixels; ``None``: not seen).
    passed: int = 0
    comes_in_at: tuple[float, float] | None = None
    #: The camera was knocked during this visit (see ``MotionDetector.camera_moving``).
    knocked: bool = False
    #: The detector's last frame the hand was in the zone, and the frame the camera began to move in when the hand
    #: was in the zone then (``None``: it was not, or the view has been seen still since; see
    #: ``StockWatch._through_the_knock``).
    zone_frame: int = -1
    knocked_in_zone: int | None = None

    def moved(self, camera: npt.NDArray[np.float64]) -> Episode:
        """This episode seen by a camera moved by the 2x3 similarity ``camera`` (camera pixels): where the hand
        came in and its arm came from move with it; where that arm came into the view is seen again."""
        m = np.asarray(camera, np.float64)

        def move(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
            return [(float(m[0, 0] * x + m[0, 1] * y + m[0, 2]), float(m[1, 0] * x + m[1, 1] * y + m[1, 2]))
                    for x, y in points]

        return replace(self, entry=move(self.entry), roots=move(self.roots), faint_roots=move(self.faint_roots),
                       comes_in_at=None)


class MotionDetector:
    """Frame differencing at low resolution: hands over the pile and the stock, and their seats.

    A hand's seat is the seat in the direction it entered from: the centroid of the first moving
    pixels of an episode (motion near the zone after a quiet spell), seen from the zone's centre.
    An arm over the pile that stirs too little motion for an episode, or whose motion began inside the
    zone (not seen coming), gives the seat it comes from. At the stock, off to one side, the arm decides
    (the seat it points at); a hand seen neither coming nor by its arm is placed by its arm's fainter
    hue (``faint_chroma`` in Lab's a* or b*, against ``chroma_threshold`` for a hand), and with none
    draws for no seat (``None``: the referee gives the draw to the player who owes it).
    """

    def __init__(
        self,
        profile: CalibrationProfile,
        *,
        fps: float = 30.0,
        width: int = 240,
        threshold: int = 16,
        entry_frames: int | None = None,
        quiet_frames: int | None = None,
        stock_quiet_frames: int | None = None,
        min_draw_frames: int | None = None,
        min_pixels: float = 0.004,
        chroma_threshold: int = 6,
        faint_chroma: int = 3,
    ) -> None:
        #: Counts given by the caller stay fixed; the others follow the processed rate (:meth:`timed`).
        self._given = {"entry_frames": entry_frames, "quiet_frames": quiet_frames,
                       "stock_quiet_frames": stock_quiet_frames, "min_draw_frames": min_draw_frames}
        self.timed(fps)
        self.profile = profile
        iw, ih = profile.image_size
        self.size = (width, max(8, round(width * ih / iw)))
        self.scale = width / iw
        self.threshold, self.chroma_threshold, self.faint_chroma = threshold, chroma_threshold, faint_chroma
        self.min_pixels = min_pixels
        shape = (self.size[1], self.size[0])
        self.pile_zone = profile.mask(profile.pile, shape)
        self.pile_near = profile.mask(profile.pile, shape, scale=1.8) | self.pile_zone
        #: Whether a hand can be seen coming to the pile: not when the zone is the whole view (no
        #: calibration), where every hand's motion begins inside it.
        self.pile_entries_seen = bool((self.pile_near & ~self.pile_zone).any())
        self.stock_zone = profile.mask(profile.stock, shape) if profile.stock is not None else None
        self.stock_near = profile.mask(profile.stock, shape, scale=1.8) if profile.stock is not None else None
        self._zones = Zones(profile, self.scale)
        #: Whether an arm can reach into the pile zone and past its corners within the view: not when the
        #: zone is (nearly) the whole view, where :meth:`Zones.arm_root` finds none whatever the foreground.
        self._pile_arms = self._reaches_past(self.pile_zone)
        self._prev: npt.NDArray[np.uint8] | None = None
        #: The table without hands (a slow running average of still pixels): arms stand out whole against it.
        self._background = TableBackground()
        self._foreground: Mask = np.zeros((self.size[1], self.size[0]), bool)
        self._prev_pile: npt.NDArray[np.uint8] | None = None
        self._pile_ep: Episode | None = None
        #: The hands at the stock and their draws (``None``: no stock zone).
        self.stock = StockWatch(self, self.stock_zone, self.stock_near) \
            if self.stock_zone is not None and self.stock_near is not None else None
        #: The last frames seen (low resolution), watched again at the stock in a followed view.
        self._kept: deque[npt.NDArray[np.uint8]] = deque(maxlen=_KEPT)
        self._seat: int | None = None
        self._frame = self._visits = 0
        self._away = self.quiet_frames
        self._pile_quiet: npt.NDArray[np.uint8] | None = None
        self._pile_before: npt.NDArray[np.uint8] | None = None
        self._moving = False
        #: The view's outermost pixels (low resolution).
        self._edge: Mask = np.ones(shape, bool)
        self._edge[1:-1, 1:-1] = False

    @property
    def camera_moving(self) -> bool:
        """The camera is moving (knocked, not yet followed; the pipeline says so after each frame): what the stock
        zone shows is the view moving, not hands. A visit to the stock going on as the camera began to move is
        held as it was until the view holds still again, or is followed (:meth:`learnt_from` carries it over,
        moved with the camera). One that begins while the view moves is watched as usual: the camera may be
        taken for moving a while after the knock, with hands coming to the stock meanwhile. The stock is watched
        all the while besides as though the view held still, for when it is found never to have moved
        (:meth:`heard`)."""
        return self._moving

    @camera_moving.setter
    def camera_moving(self, moving: bool) -> None:
        if self.stock is not None and moving != self._moving:
            if moving:
                self.stock.knocked()
            else:
                self.stock.unsure_dropped()
        self._moving = moving

    def heard(self, sample: MotionSample, moving: bool, *, in_place: bool = False) -> MotionSample:
        """``sample`` (this frame's) as the pipeline hears it, once the table finder has said whether the camera is
        ``moving`` (:attr:`camera_moving` set so): while it moves, what the stock zone shows is the view moving, and
        draws are dropped. Not those that ended in the frame the move was first seen: a visit ends once the stock
        zone has held still a few frames (``stock_quiet_frames``, this one the last), so it was seen whole before.
        ``in_place``: this frame found the view where it was. The camera taken for moving till then never moved (a
        hand jolted the view, and the corners tracked seemed to move with it, but no move was followed): the stock's
        frames meanwhile showed hands, not the view moving, and are given back (:meth:`StockWatch.given_back`); the
        draws they hold are said with this frame's, in place of those judged as though the view moved."""
        began = moving and not self._moving
        if in_place and self._moving and not moving and self.stock is not None:
            seats, started = self.stock.given_back()
            self.camera_moving = False
            return replace(sample, draws=seats, draw_started=started)
        self.camera_moving = moving
        if moving and not began:
            return replace(sample, draws=(), draw_started=())
        return sample

    def _reaches_past(self, zone: Mask) -> bool:
        """Some pixel of the view lies 1.5 zone radii or more from ``zone``'s centre (low-resolution pixels),
        as the far end of an arm must (:meth:`Zones.arm_root`)."""
        if not zone.any():
            return False
        cx, cy, radius = self._zones.shape(zone)
        w, h = self.size
        corners = np.array([(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)], np.float64)
        return bool((np.hypot(corners[:, 0] - cx, corners[:, 1] - cy) >= ARM_PAST * radius).any())

    def reseat(self, profile: CalibrationProfile) -> None:
        """The same zones with other seats (found while the game runs): what was learnt of the table stays."""
        self.profile = profile
        self._zones = Zones(profile, self.scale)

    def learnt_from(self, other: MotionDetector, camera: npt.NDArray[np.float64] | None = None, still: int = 0) -> None:
        """Keep what ``other`` (the same camera's detector for other zones) learnt of the table: its picture
        of the table without hands and its last frame. A fresh one would learn the hands in view now into
        the table, and see their ghosts as arms for seconds. ``camera``: the camera moved by this 2x3
        similarity (camera pixels) since: the picture moves with it, and so does a hand's visit to the stock
        going on (the camera knocked as it drew). ``still``: how many of the last frames ``other`` saw the view
        already held still where it is followed in (a camera follower takes a view for still once a few frames in
        a row agree on its move): watched again at the stock, in the moved zones (:meth:`StockWatch.watch_again`)."""
        if other.size != self.size:
            return
        self._background = other._background
        self._prev = other._prev
        if camera is not None and self._background.image is not None:
            small = np.array(camera, np.float64)
            small[:, 2] *= self.scale
            self._background.image = cv2.warpAffine(self._background.image, small, self.size,
                                                    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            self._prev = None
        if camera is not None:
            # The zones moved with the camera: the pile view shows what it did, so what was seen of it (the
            # pile before the latest visit, the visits counted, the last hand's seat) still holds.
            self._prev_pile, self._pile_quiet = other._prev_pile, other._pile_quiet
            self._pile_before = other._pile_before
            self._visits, self._away, self._seat = other._visits, other._away, other._seat
            # A hand at the stock as the camera was knocked: its visit goes on in the followed view (it drew
            # once it has left), counted in the same frames.
            self._frame = other._frame
            if self.stock is not None and other.stock is not None:
                self.stock.carried_over(other.stock, camera)
            if still and self.stock is not None:
                self.stock.watch_again(list(other._kept)[-still:], other._frame)

    def timed(self, fps: float) -> None:
        """Set the frame counts for ``fps`` frames judged a second, so each stands for the same time at
        any processed rate (the pipeline calls it again when that rate changes)."""
        fps = fps if fps > 0 else 30.0
        def given(name: str, default: int) -> int:
            value = self._given[name]
            return default if value is None else value

        self.fps = fps
        self.entry_frames = given("entry_frames", max(2, round(0.1 * fps)))
        self.quiet_frames = given("quiet_frames", max(3, round(0.3 * fps)))
        self.stock_quiet_frames = given("stock_quiet_frames", max(2, round(0.2 * fps)))
        # A hand that takes a card dwells at the stock (~0.5 s); one crossing it on its way elsewhere
        # is there for a few frames.
        self.min_draw_frames = given("min_draw_frames", max(2, round(0.3 * fps)))
        self.min_draw_in_zone = max(2, round(0.25 * fps))
        self.max_held_frames = round(3.0 * fps)
        #: At the stock, the arm is followed longer: it may show whole only once the hand is there.
        self.reach_frames = max(self.entry_frames, round(0.5 * fps))

    @property
    def foreground(self) -> Mask:
        """This frame's pixels (at the detector's low resolution) unlike the table without hands."""
        return self._foreground

    def update(self, frame: npt.NDArray[np.uint8], pile_view: npt.NDArray[np.uint8]) -> MotionSample:
        """One frame (camera pixels) and its top-down pile view -> what moved."""
        self._frame += 1
        moved = self._watch(shrink(frame, self.size))
        ph, pw = pile_view.shape[:2]
        pile_small = (96, max(8, round(96 * ph / pw)))
        pile_now = grey(shrink(pile_view, pile_small))
        pile_mask = moving(pile_now, self._prev_pile, self.threshold)
        self._prev_pile = pile_now

        global_change = bool(moved.mean() > 0.5)
        if global_change:
            return MotionSample(pile_mask, (pw, ph), self._seat, False, True, (), False, pile_visit=self._visits,
                                pile_now=pile_now, pile_before=self._pile_before)
        self._pile_ep, _ = self._step(self._pile_ep, moved, self.pile_near, self.pile_zone, self.quiet_frames)
        pile_ep = self._pile_ep
        if (pile_ep is not None and pile_ep.touched and pile_ep.seat is not None
                and (pile_ep.came_in or self._seat is None or not self.pile_entries_seen)):
            # Motion that began inside the zone was not seen coming: the hand already there stirred
            # (see below), and where it stirs says nothing of its seat.
            self._seat = pile_ep.seat
        draws, draw_started = self.stock.seen(moved) if self.stock is not None else ((), ())
        over = self._pile_ep is not None and self._pile_ep.quiet == 0
        disturbed = bool((moved & self.pile_zone).any()) or over
        root = self._zones.arm_root(self._foreground, self.pile_zone) if self._pile_arms else None
        arm = root is not None
        if root is not None and (self._pile_ep is None or not self._pile_ep.came_in):
            # A hand that hardly stirs the frame differencing (a far seat's, small in the picture)
            # still shows its arm against the table, and the arm comes from its seat. So does one
            # whose stirring began inside the zone: where that motion lies says nothing of where the
            # hand came from (a hand drawing back after laying a card stirs near the pile's centre).
            self._seat = self._zones.seat_of_arm(root, self.pile_zone)
        # A visit: an arm, or a hand moving in the zone, after the pile was left alone for a while
        # (a hand that pauses or flickers out of sight for a frame or two is the same visit).
        if arm or (over and self._pile_ep is not None and self._pile_ep.touched):
            if self._away >= self.quiet_frames:
                self._visits += 1
                self._pile_before = self._pile_quiet
            self._away = 0
        else:
            self._away += 1
            self._pile_quiet = pile_now
        return MotionSample(pile_mask, (pw, ph), self._seat, over, False, draws, disturbed, draw_started, arm,
                            self._visits, pile_now, self._pile_before)

    def _watch(self, small: npt.NDArray[np.uint8]) -> Mask:
        """One frame at low resolution seen: the pixels moved since the last; what stands out from the table."""
        gray = grey(small)
        moved = moving(gray, self._prev, self.threshold)
        self._prev = gray
        self._foreground = self._background.subtract(small, self.threshold, self.chroma_threshold)
        self._kept.append(small)
        return moved

    def _step(
        self, ep: Episode | None, moved: Mask, near: Mask, zone: Mask, quiet_frames: int,
        *, end_on_zone: bool = False, reach: bool = False,
    ) -> tuple[Episode | None, Episode | None]:
        """Advance a zone's episode; returns (current episode, episode that just ended).

        An episode runs while there is motion near the zone; with ``end_on_zone``, once it has
        reached into the zone it ends when the zone itself has been still for ``quiet_frames``.
        ``reach``: the seat is where the arm comes from rather than the side the hand came in by
        (a zone off to one side, like the stock, sees several seats' hands come in from one side).
        """
        active_px = moved & near
        active = active_px.sum() >= max(3, self.min_pixels * near.sum())
        # A hand holding still in the zone does not move, but its arm still stands out.
        root = self._zones.arm_root(self._foreground, zone) if reach else None
        in_zone = int((moved & zone).sum()) >= 3 or root is not None
        if ep is None:
            if not active and root is None:
                return None, None
            ep = Episode(self._frame)
        if in_zone:
            ep.touched = True
            ep.in_zone += 1
            ep.zone_frame = self._frame
        if reach and root is None and not ep.roots and len(ep.faint_roots) < self.reach_frames:
            faint = self._zones.arm_root(self._faint_foreground(), zone)
            if faint is not None:
                ep.faint_roots.append(faint)
        if root is not None and len(ep.roots) < (self.reach_frames if reach else self.entry_frames):
            ep.roots.append(root)
            rx, ry = farthest(ep.roots, self._zones.centre(zone)) if reach else np.mean(ep.roots, axis=0)
            ep.seat = self._zones.seat_of_arm((float(rx), float(ry)), zone)
        going_on = in_zone if (end_on_zone and ep.touched) else active or root is not None
        if active:
            ep.frames += 1
            if len(ep.entry) < self.entry_frames:
                # Seen coming: motion around the zone, or at the view's edge within it (a zone that reaches the
                # edge has nothing around it there: a hand from that side comes in from outside the view).
                ep.came_in = ep.came_in or int(np.count_nonzero(active_px & ~zone)) >= 3 \
                    or int(np.count_nonzero(active_px & self._edge)) >= 3
                ys, xs = np.nonzero(active_px)
                ep.entry.append((float(xs.mean()) / self.scale, float(ys.mean()) / self.scale))
                origin = self._zones.centre(zone) if zone.any() else None
                cx, cy = farthest(ep.entry, origin) if reach and origin is not None else np.mean(ep.entry, axis=0)
                if not ep.roots:
                    ep.seat = self.profile.seat_towards((float(cx), float(cy)), origin)
        if going_on:
            ep.quiet = 0
            return ep, None
        ep.quiet += 1
        if ep.quiet >= quiet_frames:
            return None, ep
        return ep, None

    def _faint_foreground(self) -> Mask:
        """This frame's foreground with a fainter hue difference let in (``faint_chroma``): asked
        only where a draw's arm is when the foreground shows none."""
        hue = self._background.hue
        if hue is None or not self.faint_chroma:
            return self._foreground
        faint: Mask = self._foreground | (hue > self.faint_chroma)
        return faint
