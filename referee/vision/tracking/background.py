"""Hands seen in low-resolution frames: frame-to-frame change, and what stands out from the table.

Frames are shrunk by area averaging; a hand is what moved since the last frame (brightness only), or what
differs from a background of the table that follows the light, in brightness or in hue. Both compare each
pixel with its neighbourhood's extremes, so a camera shaking by a pixel is no hand.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from referee.vision.tracking.boxes import Mask

DILATE = np.ones((3, 3), np.uint8)
#: Share of the frame unlike the background above which the camera moved (arms cover ~10%).
_MAX_FOREGROUND = 0.3


def shrink(image: npt.NDArray[np.uint8], size: tuple[int, int]) -> npt.NDArray[np.uint8]:
    """``image`` at ``size`` (w, h), area-averaged and lightly blurred."""
    # Area averaging, not linear sampling: linear sampling aliases a card's thin white border
    # (caught in one frame, missed in the next as the camera shakes by a pixel), which reads as
    # a hand at the stock. Halving first takes OpenCV's fast 2x2 path (a few times cheaper than
    # averaging a 720p frame in one step; `referee bench` fps is unchanged). The light blur keeps
    # what is left of a thin line's flicker under the threshold while an arm's broad edges pass.
    w, h = size
    while image.shape[1] >= 2 * w and image.shape[0] >= 2 * h:
        image = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2), interpolation=cv2.INTER_AREA)
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    out: npt.NDArray[np.uint8] = cv2.GaussianBlur(small, (3, 3), 0)
    return out


def grey(small: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """A colour image in grey levels (a grey one as it is)."""
    out: npt.NDArray[np.uint8] = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    return out


def moving(gray: npt.NDArray[np.uint8], prev: npt.NDArray[np.uint8] | None, threshold: int) -> Mask:
    """Frame-to-frame change in brightness (colour would make a shaking camera's coloured edges
    flicker)."""
    if prev is None or prev.shape != gray.shape:
        return np.zeros(gray.shape[:2], bool)
    # Against the brightest and darkest neighbour: a camera shaking by up to a (low-resolution)
    # pixel moves high-contrast edges (a black deck on light wood) but is no hand.
    brighter = cv2.subtract(gray, cv2.dilate(prev, DILATE))
    darker = cv2.subtract(cv2.erode(prev, DILATE), gray)
    out: Mask = (brighter > threshold) | (darker > threshold)
    return out


class TableBackground:
    """The table without hands: a running average of still pixels, which arms stand out from whole."""

    def __init__(self) -> None:
        self.image: npt.NDArray[np.float32] | None = None
        #: The last frame's hue difference from the background (Lab a* or b*; ``None``: not measured).
        self.hue: npt.NDArray[np.uint8] | None = None

    def subtract(self, small: npt.NDArray[np.uint8], threshold: int, chroma_threshold: int) -> Mask:
        """Pixels whose colour differs from the background's (in colour: a dark arm on a dark cloth
        has the cloth's brightness), in any channel by ``threshold`` or in Lab's a* or b* by
        ``chroma_threshold`` (0: off); the background learns still pixels quickly and anything that
        stays (a card put down, a resting hand) slowly."""
        frame = small.astype(np.float32)
        shape = frame.shape[:2]
        self.hue = None
        if self.image is None or self.image.shape != frame.shape:
            self.image = frame
            return np.zeros(shape, bool)
        # The background follows the light (a lamp switched on, a cloud): per-channel gains from the
        # medians (of every 7th pixel), which hands and cards covering part of the frame do not move.
        channels = frame.reshape(-1, frame.shape[-1]) if frame.ndim == 3 else frame.reshape(-1, 1)
        before = self.image.reshape(channels.shape)
        gains = (np.median(channels[::7], axis=0) + 1.0) / (np.median(before[::7], axis=0) + 1.0)
        self.image *= gains.reshape((-1,) if frame.ndim == 3 else ()).astype(np.float32)
        # Against the neighbourhood's extremes, as in :func:`moving`: a shaking camera is no arm.
        diff = cv2.max(cv2.subtract(frame, cv2.dilate(self.image, DILATE)),
                       cv2.subtract(cv2.erode(self.image, DILATE), frame))
        if diff.ndim == 3:
            diff = cv2.max(cv2.max(diff[..., 0], diff[..., 1]), diff[..., 2])
        foreground: Mask = diff > threshold
        if frame.ndim == 3 and chroma_threshold:
            # An arm the brightness of the table (a brown arm on dark wood: every channel within
            # the threshold) still differs in hue: the table's chroma is even where its grain is not.
            # Lab's a* and b* against their neighbourhood's extremes, in saturating 8-bit arithmetic.
            now = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
            bg = cv2.cvtColor(cv2.convertScaleAbs(self.image), cv2.COLOR_BGR2LAB)
            chroma = cv2.max(cv2.subtract(now, cv2.dilate(bg, DILATE)), cv2.subtract(cv2.erode(bg, DILATE), now))
            self.hue = cv2.max(chroma[..., 1], chroma[..., 2])
            foreground |= self.hue > chroma_threshold
        if np.count_nonzero(foreground) > _MAX_FOREGROUND * foreground.size:
            # Far more than a few arms: the camera moved. Learn the new view fast.
            cv2.accumulateWeighted(frame, self.image, 0.5)
            self.hue = None
            return np.zeros(shape, bool)
        # Pixels beside the foreground learn slowly too: an arm's blurred edge, learned fast, would
        # otherwise creep inwards through the neighbourhood extremes until the arm is background.
        still = (cv2.dilate(foreground.astype(np.uint8), DILATE) == 0).astype(np.uint8)
        cv2.accumulateWeighted(frame, self.image, 0.05, mask=still)
        cv2.accumulateWeighted(frame, self.image, 0.005, mask=1 - still)
        return foreground
