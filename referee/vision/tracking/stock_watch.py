"""Hands at the stock and the draws they make (part of :class:`~referee.vision.tracking.motion.MotionDetector`).

A visit to the stock is an episode of the motion detector's (a hand near the zone); it draws once its hand has left
the stock, having stood there as a hand that takes a card does. An arm crossing the stock on its way to the pile
draws nothing. The camera knocked during a visit: the visit is held until the view holds still again or is followed
(carried over, moved with the camera), and the frames the view already held still in are watched again. The stock is
watched meanwhile as though the view held still too: a view found where it was once the camera is no longer taken for
moving never moved, and that watch stands.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from referee.vision.tracking.arms import blob_passed_on, blob_touching, comes_in_at, farthest
from referee.vision.tracking.boxes import Mask

if TYPE_CHECKING:
    from referee.vision.tracking.motion import Episode, MotionDetector

#: Share of the stock zone standing out from the table that is a hand there (:meth:`StockWatch._slow_hand`).
HELD_SHARE = 0.02
#: Frames a stock visit's arm must be seen reaching on to the pile for the visit to be no draw.
PASSED_FRAMES = 2

#: Draws of a frame: the seats that drew, and how many frames ago each draw's hand first came near the stock.
Draws = tuple[tuple[int | None, ...], tuple[int, ...]]


class StockWatch:
    """The stock zone's visits, watched in the frames of the motion detector ``motion`` (its frame count, its
    foreground, whether the camera moves, its episodes' steps)."""

    def __init__(self, motion: MotionDetector, zone: Mask, near: Mask) -> None:
        self.motion = motion
        self.zone, self.near = zone, near
        self.ep: Episode | None = None
        self._held_run = 0
        #: Draws judged in frames watched again (see :meth:`watch_again`), said with the next frame's.
        self._late: Draws = ((), ())
        #: The frame the last visit to the stock that drew, or whose arm went on to the pile, ended in.
        self._judged_at = 0
        self._area = int(zone.sum())
        #: While the camera is taken for moving: the stock watched as though the view held still (see
        #: :meth:`given_back`), and the draws judged so (their seats, and the frames their hands came near the stock).
        self._unsure: StockWatch | None = None
        self._unsure_draws: Draws = ((), ())

    def knocked(self) -> None:
        """The camera began to move this frame: the visit going on is held as it was (see
        :attr:`MotionDetector.camera_moving`), and watched on unheld besides, for a view found where it was
        (:meth:`given_back`)."""
        if self.ep is not None:
            self.ep.knocked = True
            if self.ep.zone_frame == self.motion._frame:
                self.ep.knocked_in_zone = self.motion._frame
        self._unsure, self._unsure_draws = self._unheld(), ((), ())

    def _unheld(self) -> StockWatch:
        """A copy of this watch whose visit is watched on as though the camera held still."""
        watch = StockWatch(self.motion, self.zone, self.near)
        watch.ep = None if self.ep is None else replace(deepcopy(self.ep), knocked=False, knocked_in_zone=None)
        watch._held_run, watch._judged_at = self._held_run, self._judged_at
        return watch

    def given_back(self) -> Draws:
        """The camera taken for moving since :meth:`knocked` is found where it was (no move followed): it never
        moved, and what the stock showed meanwhile was hands, not the view moving. The watch kept as though the view
        held still stands for this one (its visit, unheld), and the draws it judged are said now: their seats, and
        how many frames ago each draw's hand came."""
        watch, self._unsure = self._unsure, None
        (seats, came), self._unsure_draws = self._unsure_draws, ((), ())
        if watch is None:
            return (), ()
        self.ep, self._held_run, self._judged_at = watch.ep, watch._held_run, watch._judged_at
        return seats, tuple(self.motion._frame - f for f in came)

    def unsure_dropped(self) -> None:
        """The camera is no longer taken for moving, and not found where it was (followed, or taken as it is): the
        watch kept as though the view held still is dropped."""
        self._unsure, self._unsure_draws = None, ((), ())

    def carried_over(self, other: StockWatch, camera: npt.NDArray[np.float64]) -> None:
        """A hand at ``other``'s stock as the camera was knocked: its visit goes on here, moved with ``camera``."""
        if other.ep is not None and other.ep.knocked:
            self.ep = other.ep.moved(camera)

    def seen(self, moved: Mask) -> Draws:
        """This frame's draws (with those judged in frames watched again): none while a visit the knock caught is
        held (the camera moving)."""
        held = self.motion._moving and self.ep is not None and self.ep.knocked
        draws, draw_started = ((), ()) if held else self.step(moved)
        if self.motion._moving and self._unsure is not None:
            seats, started = self._unsure.step(moved)
            frame = self.motion._frame
            self._unsure_draws = (self._unsure_draws[0] + seats,
                                  self._unsure_draws[1] + tuple(frame - s for s in started))
        if self._late[0]:
            frame = self.motion._frame
            draws, draw_started = self._late[0] + draws, tuple(frame - f for f in self._late[1]) + draw_started
            self._late = ((), ())
        return draws, draw_started

    def watch_again(self, frames: list[npt.NDArray[np.uint8]], last: int) -> None:
        """``frames`` (low resolution, the last one frame ``last``), in which the view already held still where it is
        now followed, watched at the stock: a hand that came to the stock as the camera was knocked and left before
        the view was followed dwelt there in them, unwatched (the camera taken for moving till then). A draw judged
        in them is said with the next frame's."""
        motion = self.motion
        for k, small in enumerate(frames):
            motion._frame = last - len(frames) + 1 + k
            draws, started = self.step(motion._watch(small))
            self._late = (self._late[0] + draws, self._late[1] + tuple(motion._frame - s for s in started))
        motion._frame = last

    def step(self, moved: Mask) -> Draws:
        """The stock zone's episode this frame: the seats that drew (one at most), and how many frames
        ago each draw's hand first came near the stock."""
        motion, frame = self.motion, self.motion._frame
        # A draw ends when the hand leaves the stock itself, so it reaches the referee before
        # whatever the operator says next.
        held = int((motion.foreground & self.zone).sum()) >= max(3, HELD_SHARE * self._area)
        self._held_run = self._held_run + 1 if held else 0
        self.ep, ended = motion._step(
            self.ep, moved, self.near, self.zone, motion.stock_quiet_frames, end_on_zone=True, reach=True
        )
        if self.ep is not None:
            ep = self.ep
            # A visit takes the run of standing-out frames it began in as its own, unless that run began before a
            # visit judged (a draw, or an arm gone on to the pile) ended: what still stands out is what that one left.
            own_run = self._held_run <= frame - self._judged_at
            ep.held = (self._held_run if own_run else int(held)) if ep.start_frame == frame else ep.held + held
            self._through_the_knock(ep)
            blob = blob_touching(motion.foreground, self.zone)
            ep.comes_in_at = (None if blob is None else comes_in_at(blob)) or ep.comes_in_at
            ep.passed += blob_passed_on(blob, self.zone, motion.pile_zone, ep.comes_in_at)
        if ended is not None and ended.passed >= PASSED_FRAMES:
            # A hand that crossed the stock on its way to the pile (or back from it) drew nothing, whatever
            # seat its arm seems to point at from the stock: a hand that draws stops at the stock.
            self._judged_at = frame
            return (), ()
        if ended is not None and ended.touched and (self._dwelt(ended) or self._slow_hand(ended)):
            # A hand seen neither coming nor by its arm (an arm the colour of the table, in the
            # stock by the first frame it moved) has no seat: the referee gives the draw to the
            # player who owes it, which a guess from the hand's first pixels often is not.
            self._judged_at = frame
            return (self._draw_seat(ended),), (frame - ended.start_frame,)
        return (), ()

    def _dwelt(self, ep: Episode) -> bool:
        """``ep``, just ended, dwelt at the stock as a hand that draws does."""
        motion = self.motion
        return (
            ep.in_zone >= motion.min_draw_in_zone
            # A hand that moved little there (it held still on the deck) is seen by its arm.
            and (ep.frames >= motion.min_draw_frames or len(ep.roots) >= 2)
            # And it stood in the stock: an arm that only clipped the zone's edge on its way
            # to the pile drew nothing (a hand that draws stands there several frames).
            and ep.held >= 1
        )

    def _through_the_knock(self, ep: Episode) -> None:
        """The first frame ``ep`` is watched again once the camera no longer moves: a hand in the zone as the camera
        began to move and in it again now was there all the while (a hand that draws dwells there; a knock's frames
        are not watched, and the knock can take most of its visit): those frames count as in the zone."""
        if ep.knocked_in_zone is None or self.motion._moving:
            return
        frame = self.motion._frame
        if ep.zone_frame == frame:
            gap = frame - ep.knocked_in_zone - 1
            ep.in_zone += gap
            ep.held += gap
        ep.knocked_in_zone = None

    def _slow_hand(self, ep: Episode) -> bool:
        """``ep``, just ended, was a hand that came into the stock too slowly for the differencing: seen
        coming from outside, it stood out from the table in the zone as long as a hand takes to draw
        and no longer, and has gone (a hand come down beside the stock, its arm short of the zone's
        corners, can stand out there for frames before it is seen to move). Anything that stays (a
        thing left on the stock, learnt into the table only slowly) keeps standing out: no hand, and
        no bar to draws seen the usual way."""
        motion = self.motion
        return ep.came_in and motion.min_draw_in_zone <= ep.held <= motion.max_held_frames and self._held_run == 0

    def _draw_seat(self, ep: Episode) -> int | None:
        """The seat of a hand that drew: from its arm, or the way it came in; else from its arm seen
        only in a fainter hue than arms must show to count as hands (an olive arm across striped
        grey-brown wood differs from it by 3-5 in Lab's a* and b*); else none."""
        if ep.roots or ep.came_in:
            return ep.seat
        if ep.faint_roots:
            zones = self.motion._zones
            rx, ry = farthest(ep.faint_roots, zones.centre(self.zone))
            return zones.seat_of_arm((float(rx), float(ry)), self.zone)
        return None
