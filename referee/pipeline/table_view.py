"""The camera's view of the table: the calibration in use, the pile view warped from each frame, the motion
zones, and calibration while running.

:class:`TableView` holds the profile the pipeline judges by, fitted to the camera's frame size (a given
one, or the whole frame until one is given or found), the :class:`~referee.vision.tracking.MotionDetector`
watching its zones, the white balance the pile view is corrected with, and the map from the pile view back
onto the camera frame (the classifier reads a card from the camera's own pixels, not the pile view capped at
640 px).

A new profile comes between frames, never within one: saved on the calibration page
(:class:`~referee.vision.recalibration.LiveProfile`, requested by the web thread and taken by the frame loop)
or found by the table finder (a table found, seats placed, a bumped camera followed). :meth:`TableView.switch`
applies it: when only the seats changed the motion detector is reseated and keeps what it learnt; otherwise
the pile view is warped anew, the motion detector starts over from what the old one learnt (moved with the
camera when it was bumped), and the cards the tracker knows on the pile are moved into the new view (not
for a bumped camera: the cards stayed put, and the view follows them). The view also notes where each
believed card came to rest, in camera pixels, for the calibration page's suggested pile zone.
"""

from __future__ import annotations

import logging

import numpy as np

from referee.vision.calibration import CalibrationProfile, Point, WhiteBalance
from referee.vision.camera_follower import BUMP_CHECKS
from referee.vision.recalibration import LiveProfile, view_mover
from referee.vision.tracking import MotionDetector, PileTracker

log = logging.getLogger(__name__)


class TableView:
    """The profile in use and what follows from it (see the module)."""

    def __init__(self, given: CalibrationProfile | None, players: int) -> None:
        #: The profile as given (or last switched to), not yet fitted to the frames; ``None``: the whole frame.
        self.given = given
        self.players = players
        #: The profile in use, fitted to the camera's frames; ``None`` before the first frame.
        self.profile: CalibrationProfile | None = None
        self.motion: MotionDetector | None = None
        self.white_balance = WhiteBalance(
            given.white_balance if given is not None else None,
            auto=given is None or given.white_balance is None,
        )
        #: The map from the pile view back onto the camera frame.
        self.view_to_image: np.ndarray | None = None
        #: A profile saved on the calibration page, taken between frames; where cards landed.
        self.live = LiveProfile()

    def fits(self, image: np.ndarray) -> bool:
        """The profile in use is fitted to frames of ``image``'s size."""
        return self.profile is not None and self.profile.image_size == image.shape[1::-1]

    def prepare(self, image: np.ndarray, fps: float) -> None:
        """Fit the profile to ``image``'s size; new motion zones counting frames at ``fps``."""
        h, w = image.shape[:2]
        base = self.given or CalibrationProfile.whole_frame(w, h, self.players)
        self.profile = base.fitted(w, h)
        self.motion = MotionDetector(self.profile, fps=fps)
        self.view_to_image = np.linalg.inv(self.profile.pile_homography())

    def warp(self, image: np.ndarray, cards: np.ndarray) -> np.ndarray:
        """The pile view of ``image``, white-balanced from the whites of ``cards`` (the last frame's boxes
        in the pile view: the table may be light wood)."""
        assert self.profile is not None
        return self.white_balance(self.profile.warp_pile(image), cards)

    def switch(self, profile: CalibrationProfile, image: np.ndarray, fps: float, tracker: PileTracker, *,
               camera: np.ndarray | None = None) -> bool:
        """Switch to ``profile`` between frames: a new pile view and motion zones; the tracker's pile
        cards moved into the new view, the white balance fixed to the profile's gains when it has some.
        ``camera``: the 2x3 move of a bumped camera the zones moved with, so the pile view shows the cards
        where it did (they stay put). Only the seats changed: the motion detector keeps what it learnt.
        True when the pile view is a new one (what was detected in the old one is stale)."""
        old = self.profile
        self.given = profile
        if profile.white_balance is not None and (old is None or profile.white_balance != old.white_balance):
            self.white_balance = WhiteBalance(profile.white_balance, auto=False)
        if (old is not None and self.motion is not None and old.image_size == profile.image_size
                and old.pile == profile.pile and old.stock == profile.stock):
            self.profile = profile
            self.motion.reseat(profile)
            log.info("seats applied: %s", [(round(x), round(y)) for x, y in profile.seats])
            return False
        motion = self.motion
        self.prepare(image, fps)
        assert self.profile is not None and self.motion is not None
        if motion is not None:
            self.motion.learnt_from(motion, camera, still=BUMP_CHECKS)
        if old is not None and old.image_size == self.profile.image_size and camera is None:
            tracker.remap(view_mover(old, self.profile))
        log.info("calibration applied: pile zone %s (%s)",
                 [(round(x), round(y)) for x, y in self.profile.pile], self.profile.method)
        return True

    def landed(self, xyxy: np.ndarray) -> list[Point] | None:
        """A card believed at ``xyxy`` (pile view) came to rest: its corners in camera pixels, noted for the
        calibration page; ``None`` before the first frame."""
        if self.profile is None:
            return None
        x1, y1, x2, y2 = (float(v) for v in xyxy[:4])
        corners = self.profile.pile_to_image(np.array([(x1, y1), (x2, y1), (x2, y2), (x1, y2)], np.float32))
        self.live.note_landed([(float(x), float(y)) for x, y in corners], self.profile.image_size)
        return [(float(x), float(y)) for x, y in corners]
