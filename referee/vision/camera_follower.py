"""A camera bumped or turned mid-game, noticed: the table's features move as a whole (part of
:mod:`referee.vision.table_finder`). Corners tracked from a reference view (Lucas-Kanade there and back,
then a RANSAC similarity with no zoom) say by how much, once the view holds still again. Where those that
agree do not lie all over the view (a streaky table: corners on the grain slide along it), the whole picture
is aligned instead (ECC), and the move kept only when the view's tiles and its corners textured both ways
agree with it. A thumbnail compared frame to frame (phase correlation) notices a jolt at once; a view not
jolted is checked only now and then."""

from __future__ import annotations

import logging
import math
from typing import NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

log = logging.getLogger(__name__)

__all__ = ["AGREE", "ALIGN_WIDTH", "BUMP_CHECKS", "BUMP_PX", "BUMP_STEADY_PX", "CORNER_PX", "CORNER_SAME",
           "CORNER_SHAPE", "COVERED_CHECKS", "FOLLOW_WIDTH", "GLANCE_WIDTH", "MAX_ZOOM", "QUIET_CHECKS", "RENEW_FRAMES",
           "SPREAD", "TILES", "CameraFollower", "Tracked", "agreed_all_over", "shifted"]

#: A view moved by more than this (camera pixels at a corner) is a bump...
BUMP_PX = 8.0
#: ...once two checks this close to each other (pixels) agree that it holds still there.
BUMP_STEADY_PX = 3.0
#: Checks in a row that must see the view moved the same way (the camera holds still after the bump).
BUMP_CHECKS = 3
#: The most a bumped view may seem to grow or shrink (a share): more is no bump but a poor match.
MAX_ZOOM = 0.004
#: The points that agree on a move must lie this share of the view apart at least, each way (a hand moving
#: over the table is smaller; a plain table holds few points the tracking keeps, often only round the cards).
SPREAD = 0.3
#: Width of the grey images the camera's movement is measured on.
FOLLOW_WIDTH = 640
#: Width of the thumbnail each frame is compared with the last one's on (:meth:`CameraFollower._glance`).
GLANCE_WIDTH = 160
#: A view not jolted is checked once every this many of its turns (:attr:`every`): a knock jolts it.
QUIET_CHECKS = 5
#: Frames after which a still check, no hand over the table, renews the reference (the light, the cards laid).
RENEW_FRAMES = 150
#: Width of the whole-picture alignment, tried when the corners cannot tell (it starts at half this width).
ALIGN_WIDTH = 320
#: The alignment's check: the picture cut into this many tiles (across, down)...
TILES = (8, 6)
#: ...a tile agrees with a move when, the move undone, it correlates with the reference by this much more
#: than as it is (and disagrees the other way round); a tile with nothing on it does neither.
AGREE = 0.2
#: A point is a corner (textured both ways) when its weaker gradient direction holds at least this share of
#: its stronger one (the eigenvalues of its structure tensor); a point on a streak is not: tracked, it can
#: slide along the streak, so it says only how far the view moved across it.
CORNER_SHAPE = 0.25
#: Half the side of the patch a corner is compared on (grey-image pixels)...
CORNER_PX = 6
#: ...and the correlation at which it looks the same.
CORNER_SAME = 0.7
#: A reference corner that looked different at this many still checks in a row (a card laid on it since, not
#: an arm passing) is covered: it says nothing of a later move (:meth:`CameraFollower._corners_agree`).
COVERED_CHECKS = 2
#: When the alignment stops: iterations, or a step this small.
ALIGN_STOP = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 40, 1e-4)


class Tracked(NamedTuple):
    """What the corners tracked from the reference say: their move (grey-image pixels; ``None`` when too few
    are kept), and whether those that agree on it lie all over the view."""

    matrix: npt.NDArray[np.float64] | None = None
    all_over: bool = False


class CameraFollower:
    """Notices the camera moved as a whole (a bump): features tracked from a reference view."""

    def __init__(self, image_size: tuple[int, int], every: int = 2) -> None:
        w, h = image_size
        self.scale = FOLLOW_WIDTH / w
        self.size = (FOLLOW_WIDTH, max(16, round(h * self.scale)))
        self.every = max(1, every)
        self._clahe = cv2.createCLAHE(clipLimit=3.0, tileGridSize=(8, 8))
        self._ref: npt.NDArray[np.uint8] | None = None
        self._ref_small: npt.NDArray[np.uint8] | None = None
        self._thumb: npt.NDArray[np.float32] | None = None
        self._window: npt.NDArray[np.float32] | None = None
        self._points: npt.NDArray[np.float32] | None = None
        self._corners: npt.NDArray[np.bool_] = np.zeros(0, bool)
        #: For each reference point, the still checks in a row it has looked different at (see :meth:`_covered`).
        self._unlike: npt.NDArray[np.int_] = np.zeros(0, int)
        self._last: npt.NDArray[np.float64] | None = None
        self._frames = 0
        self._since_ref = 0
        self._steady = 0
        self._moving_since: int | None = None
        #: The last frame the view was jolted in (:meth:`_glance`), and whether a check since has seen it moved, if
        #: not for sure (see :attr:`unsettled`).
        self._jolted: int | None = None
        self._seen_moved = False
        #: Whether the frame just seen was checked and the view measured where its reference is (see :attr:`in_place`).
        self._in_place = False
        #: Frames the view may be seen moving before it is taken as it is (a camera carried, not knocked).
        self.give_up = 90

    def _grey(self, image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        small = cv2.resize(image, self.size, interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        # A plain table has little to hold on to beside the cards' strong corners: its grain, drawn out
        # (local contrast), and the sensor's grain smoothed away.
        out: npt.NDArray[np.uint8] = self._clahe.apply(cv2.GaussianBlur(grey, (3, 3), 0))
        return out

    @staticmethod
    def _small(grey: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        h, w = grey.shape[:2]
        size = (ALIGN_WIDTH, max(8, round(h * ALIGN_WIDTH / w)))
        out: npt.NDArray[np.uint8] = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
        return out

    def reference(self, image: npt.NDArray[np.uint8]) -> None:
        """Measure movement from this view on."""
        grey = self._grey(image)
        points = cv2.goodFeaturesToTrack(grey, maxCorners=300, qualityLevel=0.001, minDistance=10, blockSize=7)
        self._ref = grey
        self._ref_small = self._small(grey)
        self._points = None if points is None or len(points) < 12 else points.astype(np.float32)
        self._corners = np.zeros(0, bool)
        if self._points is not None:
            eigen = cv2.cornerEigenValsAndVecs(grey, 7, 3)
            x, y = self._points.reshape(-1, 2).round().astype(int).T
            strong, weak = eigen[y, x, 0], eigen[y, x, 1]
            self._corners = weak >= CORNER_SHAPE * np.maximum(strong, 1e-9)
        self._unlike = np.zeros(len(self._corners), int)
        self._last = None
        self._since_ref = 0
        self._steady = 0
        self._moving_since = None
        self._seen_moved = False

    @property
    def moving(self) -> bool:
        """The view is seen moved from its reference and not yet still: what it shows now is not where
        the zones say."""
        return self._moving_since is not None

    @property
    def unsettled(self) -> bool:
        """The view is seen moving, or, jolted within the last quiet check's turns (:data:`QUIET_CHECKS`), the
        corners tracked since have said it moved by more than :data:`BUMP_PX`, if not for sure (those that agree not
        all over the view, the alignment refusing), and no check has measured it still where it was since: what it
        shows may not be where the zones say. A knocked view comes to rest in a few frames, but its move may be
        measured for sure only a while later (on a plain or streaky table few corners agree on it, and those only on
        some frames); meanwhile the cards it shows moved look like cards laid there."""
        if self.moving:
            return True
        return (self._seen_moved and self._jolted is not None
                and self._frames - self._jolted < self.every * QUIET_CHECKS)

    @property
    def in_place(self) -> bool:
        """The frame just seen was checked, in no jolt of its own, and the view measured where its reference is: a
        spell of :attr:`unsettled` that ends so ended with no move followed, the view where it was all along (a hand
        near the camera's view jolted the thumbnail and dragged the corners tracked a little way with it)."""
        return self._in_place

    def update(self, image: npt.NDArray[np.uint8], *, busy: bool = False) -> npt.NDArray[np.float64] | None:
        """A 2x3 similarity (camera pixels, reference -> now) once the view holds still moved by more than
        :data:`BUMP_PX`; ``None`` otherwise. ``busy``: a hand is over the table (the reference is not renewed)."""
        self._frames += 1
        self._in_place = False
        self._since_ref += 1
        if self._ref is None:
            self.reference(image)
            return None
        if self._glance(image):
            self._jolted = self._frames
        # While the view is seen moved, or for a quiet check's turns after a jolt, every frame is checked:
        # the frames of a knock itself are blurred by it and may measure nothing, and the view come to rest
        # jolts no more.
        jolted = self._jolted is not None and self._frames - self._jolted < self.every * QUIET_CHECKS
        if self._last is None and not jolted and self._frames % (self.every * QUIET_CHECKS):
            return None
        grey = self._grey(image)
        tracked = self._tracked(grey)
        if jolted and tracked.matrix is not None and self._moved_px(tracked.matrix) > BUMP_PX:
            self._seen_moved = True
        matrix = tracked.matrix if tracked.all_over else self._aligned(grey, tracked)
        if matrix is None:
            if self._held_still(tracked, jolted=jolted, busy=busy):
                self.reference(image)
            return None
        w, h = self.size
        corners = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64)
        if self._moved_px(matrix) <= BUMP_PX:
            self._last = None
            self._moving_since = None
            # Measured where the reference is, not in a jolted frame (blurred, the view mid-move): settled.
            self._in_place = self._jolted != self._frames
            self._seen_moved = self._seen_moved and not self._in_place
            self._covered(grey, matrix)
            if self._since_ref > RENEW_FRAMES and not busy:  # follow the light and the new cards, slowly
                self.reference(image)
            return None
        if self._moving_since is None:
            self._moving_since = self._frames
        elif self._frames - self._moving_since > self.give_up:
            log.warning("the view keeps moving: taken as it is now (the zones stay where they were)")
            self.reference(image)
            return None
        last, self._last = self._last, matrix
        drift = None if last is None else corners @ (matrix - last)[:, :2].T + (matrix - last)[:, 2]
        if drift is None or float(np.abs(drift).max()) / self.scale > BUMP_STEADY_PX:
            self._steady = 0
            return None  # still moving
        self._steady += 1
        if self._steady < BUMP_CHECKS - 1:
            return None
        # To camera pixels: scale down, move, scale up.
        s = self.scale
        full: npt.NDArray[np.float64] = np.array(matrix, np.float64)
        full[:, 2] /= s
        self.reference(image)
        return full

    def _held_still(self, tracked: Tracked, *, jolted: bool, busy: bool) -> bool:
        """A quiet check that measured nothing for sure, yet whose corners kept agree on a move of :data:`BUMP_PX` or
        less (not all over the view, and the alignment refused): the view held still, and an old reference is
        renewed as at any still check (:data:`RENEW_FRAMES`). On a plain or streaky table a reference taken before
        the pile was laid holds few corners beyond the stock's, too few for a later knock to be measured on them;
        the reference is only ever renewed at a still check, so without this it stayed the first frame's all game.
        Not within a jolt's checks (the knock's own frames), nor with the view seen moving or a hand over the table."""
        return (tracked.matrix is not None and not jolted and not busy and not self.moving
                and self._since_ref > RENEW_FRAMES and self._moved_px(tracked.matrix) <= BUMP_PX)

    def _glance(self, image: npt.NDArray[np.uint8]) -> bool:
        """The whole view shifted since the last frame by half :data:`BUMP_PX` or more (a thumbnail's phase
        correlation, cheap enough for every frame): a knock is checked on at once, before the cards the camera
        shows moved are taken for new ones, and a view not jolted is checked only every :data:`QUIET_CHECKS`
        turns. A hand moving over a still table shifts no whole view."""
        h, w = image.shape[:2]
        step = max(1, w // (2 * GLANCE_WIDTH))  # every few pixels, then averaged: a quarter of the cost
        size = (GLANCE_WIDTH, max(8, round(h * GLANCE_WIDTH / w)))
        small = cv2.resize(image[::step, ::step], size, interpolation=cv2.INTER_AREA)
        thumb = (cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small).astype(np.float32)
        last, self._thumb = self._thumb, thumb
        if last is None or last.shape != thumb.shape:
            return False
        if self._window is None or self._window.shape != thumb.shape:
            self._window = cv2.createHanningWindow(size, cv2.CV_32F)
        (dx, dy), _ = cv2.phaseCorrelate(last, thumb, self._window)
        return bool(math.hypot(dx, dy) * w / GLANCE_WIDTH >= BUMP_PX / 2)

    def _tracked(self, grey: npt.NDArray[np.uint8]) -> Tracked:
        """The move the reference's corners agree on (grey-image pixels); ``all_over`` when those that agree
        lie all over the view (not on one hand, nor only round the cards on a streaky table)."""
        if self._ref is None or self._points is None:
            return Tracked()
        moved, status, _ = cv2.calcOpticalFlowPyrLK(self._ref, grey, self._points, None, winSize=(21, 21), maxLevel=3)
        back, status_back, _ = cv2.calcOpticalFlowPyrLK(grey, self._ref, moved, None, winSize=(21, 21), maxLevel=3)
        # Kept: points tracked there and back to where they were (a point on grain the noise hides is not).
        ok = (status.ravel() == 1) & (status_back.ravel() == 1) & (
            np.linalg.norm((back - self._points).reshape(-1, 2), axis=1) < 1.0)
        found, to = self._points[ok].reshape(-1, 2), moved[ok].reshape(-1, 2)
        if ok.sum() < 3:
            return Tracked()

        matrix, inliers = cv2.estimateAffinePartial2D(found, to, method=cv2.RANSAC, ransacReprojThreshold=2.0)
        if matrix is None or inliers is None:
            return Tracked()
        matrix = np.asarray(matrix, np.float64)
        if abs(math.hypot(matrix[0, 0], matrix[1, 0]) - 1.0) > MAX_ZOOM:
            return Tracked()  # a knocked camera turns and shifts; it does not come nearer the table
        if ok.sum() < 12 or inliers.sum() < max(12, 0.5 * ok.sum()):
            return Tracked(matrix, False)
        # The table moves as a whole: what agrees must lie all over the view, not on one hand.
        kept = found[inliers.ravel() == 1]
        w, h = self.size
        spread = np.ptp(kept[:, 0]) >= SPREAD * w and np.ptp(kept[:, 1]) >= SPREAD * h
        return Tracked(matrix, bool(spread))

    def _aligned(self, grey: npt.NDArray[np.uint8], tracked: Tracked) -> npt.NDArray[np.float64] | None:
        """The move of the whole picture (grey-image pixels), for when the corners cannot tell: on a table
        streaked one way, the corners on its grain slide along the streaks (each says only how far the view
        moved across them), so few are kept and those lie round the cards. An intensity alignment (ECC, a
        turn and a shift) weighs every gradient in its own direction, the grain's across it and the cards'
        both ways. It is tried on a quarter-width picture first (cheap, and a still view ends there); a move
        larger than :data:`BUMP_PX` is measured again at :data:`ALIGN_WIDTH` and kept only when the picture
        agrees with it all over (:func:`agreed_all_over`) and the corners kept agree with it (a streak's
        direction is left to them): a hand or a card moving alone does not. It starts from the move the corners
        kept say (``tracked``), when they say one: there, most are on the cards; else from the whole picture's
        shift (:func:`shifted`)."""
        if self._ref_small is None:
            return None
        ref, now = self._ref_small, self._small(grey)
        ratio = ALIGN_WIDTH / FOLLOW_WIDTH
        if tracked.matrix is None:
            warp = shifted(ref, now)
        else:
            warp = tracked.matrix.astype(np.float32)
            warp[:, 2] *= ratio
        for f in (0.5, 1.0):
            a, b = (ref, now) if f == 1.0 else (cv2.resize(ref, None, fx=f, fy=f, interpolation=cv2.INTER_AREA),
                                                cv2.resize(now, None, fx=f, fy=f, interpolation=cv2.INTER_AREA))
            warp[:, 2] *= f
            try:
                _, warp = cv2.findTransformECC(a, b, warp, cv2.MOTION_EUCLIDEAN, ALIGN_STOP, None, 3)
            except cv2.error:
                return None  # no convergence: too little on the table to align
            warp[:, 2] /= f
            matrix: npt.NDArray[np.float64] = warp.astype(np.float64)
            matrix[:, 2] *= FOLLOW_WIDTH / ALIGN_WIDTH
            if self._moved_px(matrix) <= BUMP_PX:
                return matrix
        if not agreed_all_over(ref, now, warp.astype(np.float64)) or not self._corners_agree(grey, matrix):
            return None
        return self._refined(grey, matrix)

    def _refined(self, grey: npt.NDArray[np.uint8], matrix: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """``matrix`` aligned once more on the grey images themselves (twice the alignment's width): the zones
        are moved by it, and a pixel of the alignment is 4 camera pixels."""
        if self._ref is None:
            return matrix
        warp = matrix.astype(np.float32)
        try:
            _, warp = cv2.findTransformECC(self._ref, grey, warp, cv2.MOTION_EUCLIDEAN, ALIGN_STOP, None, 5)
        except cv2.error:
            return matrix
        refined: npt.NDArray[np.float64] = warp.astype(np.float64)
        if float(np.abs(refined - matrix).max()) > 2.0:
            return matrix  # wandered off: the checked move stands
        return refined

    def _same(self, grey: npt.NDArray[np.uint8], matrix: npt.NDArray[np.float64],
              which: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
        """Whether each of the reference's points picked by ``which`` looks the same where ``matrix`` puts it in
        ``grey`` (a patch of :data:`CORNER_PX` correlating by :data:`CORNER_SAME`)."""
        assert self._ref is not None and self._points is not None
        there = self._points.reshape(-1, 2)[which]
        here = there @ matrix[:, :2].T + matrix[:, 2]
        size = (2 * CORNER_PX + 1, 2 * CORNER_PX + 1)
        same = [_likeness(cv2.getRectSubPix(self._ref, size, (float(a), float(b))).astype(np.float32),
                          cv2.getRectSubPix(grey, size, (float(c), float(d))).astype(np.float32))
                for (a, b), (c, d) in zip(there, here, strict=True)]
        return np.array(same, np.float64).reshape(-1) > CORNER_SAME

    def _covered(self, grey: npt.NDArray[np.uint8], matrix: npt.NDArray[np.float64]) -> None:
        """A still check (the view where the reference was, give or take ``matrix``'s shake): each reference
        corner that looks different now counts one more check in a row, one that looks the same none. A card
        laid on a corner since the reference was taken keeps it different (:data:`COVERED_CHECKS`: covered); an
        arm passing over it does so for a moment."""
        if self._ref is None or self._points is None or self._corners.sum() == 0:
            return
        same = self._same(grey, matrix, self._corners)
        unlike = self._unlike[self._corners]
        self._unlike[self._corners] = np.where(same, 0, unlike + 1)

    def _corners_agree(self, grey: npt.NDArray[np.uint8], matrix: npt.NDArray[np.float64]) -> bool:
        """Most of the reference's corners (:data:`CORNER_SHAPE`: textured both ways, the cards' own) look the
        same where ``matrix`` puts them now: a streak matches itself wherever along it the view slid, a corner
        only in one place. Corners covered since the reference was taken (a card laid on them: :meth:`_covered`)
        are left out: on a streaky table an old reference's corners are mostly the cards', and once cards laid
        since hide them the true move would be refused at every check. True when the reference holds too few
        corners to say."""
        if self._ref is None or self._points is None:
            return True
        which = self._corners & (self._unlike < COVERED_CHECKS)
        if which.sum() < 3:
            return True
        return bool(np.mean(self._same(grey, matrix, which)) >= 0.5)

    def _moved_px(self, matrix: npt.NDArray[np.float64]) -> float:
        """How far ``matrix`` (grey-image pixels) moves the view's farthest corner, in camera pixels."""
        w, h = self.size
        corners = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64)
        return float(np.abs(corners @ matrix[:, :2].T + matrix[:, 2] - corners).max()) / self.scale


def shifted(ref: npt.NDArray[np.uint8], now: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """The shift of the whole picture ``ref`` -> ``now`` (phase correlation), as a 2x3 move to start the alignment
    from when no corners say one. A table whose grain repeats (planks, a weave) matches itself a repeat away:
    the alignment started from no move can slide there (a repeat up for a move down, refused, and the bump
    followed late). The cards and everything else move with the true shift, and the correlation's peak is there."""
    h, w = ref.shape[:2]
    (dx, dy), _ = cv2.phaseCorrelate(ref.astype(np.float32), now.astype(np.float32),
                                     cv2.createHanningWindow((w, h), cv2.CV_32F))
    warp = np.eye(2, 3, dtype=np.float32)
    warp[:, 2] = (dx, dy)
    return warp


def agreed_all_over(ref: npt.NDArray[np.uint8], now: npt.NDArray[np.uint8], matrix: npt.NDArray[np.float64]) -> bool:
    """The picture moved as a whole by ``matrix`` (``ref`` -> ``now``): of the :data:`TILES` with something on
    them, most match the reference better with the move undone than as they are (a correlation, blind to the
    light), and those lie all over the view (:data:`SPREAD` each way); a hand, or a card, moving alone agrees
    only where it is, and the still table round it disagrees."""
    h, w = ref.shape[:2]
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    back = cv2.warpAffine(now, matrix, (w, h), flags=flags)
    inside = cv2.warpAffine(np.full((h, w), 255, np.uint8), matrix, (w, h), flags=flags) == 255
    # Smoothed, so that the sensor's grain (which no move explains) does not hide what the move does.
    ref, now, back = (cv2.GaussianBlur(a, (5, 5), 0).astype(np.float32) for a in (ref, now, back))
    across, down = TILES
    agree: list[tuple[float, float]] = []
    disagree = 0
    for i in range(across):
        for j in range(down):
            cell = (slice(j * h // down, (j + 1) * h // down), slice(i * w // across, (i + 1) * w // across))
            keep = inside[cell]
            if keep.mean() < 0.8:
                continue  # mostly outside the moved view
            still, undone = _likeness(ref[cell][keep], now[cell][keep]), _likeness(ref[cell][keep], back[cell][keep])
            if undone > still + AGREE and undone > 0.5:
                agree.append(((i + 0.5) / across, (j + 0.5) / down))
            elif still > undone + AGREE and still > 0.5:
                disagree += 1
    if len(agree) < 3 or disagree * 2 > len(agree):
        return False
    spots = np.array(agree)
    return bool(np.ptp(spots[:, 0]) >= SPREAD and np.ptp(spots[:, 1]) >= SPREAD)


def _likeness(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> float:
    """Zero-mean normalised correlation of two sets of pixels (0 where either is flat)."""
    a, b = a - a.mean(), b - b.mean()
    norm = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum()) / norm if norm > 1e-6 else 0.0
