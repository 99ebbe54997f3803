"""White balance: channel gains that make the cards' white borders read neutral, so colours read the same
under warm light (gray-world on bright, unsaturated pixels; :func:`~referee.vision.colour.view_white_gains`).

A calibration profile keeps the gains measured at calibration (:mod:`referee.vision.calibration`).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from referee.vision.colour import view_white_gains

__all__ = ["WhiteBalance", "apply_gains"]

Image = npt.NDArray[np.uint8]


class WhiteBalance:
    """Channel gains that make the cards' white borders neutral: fixed, or re-estimated (``auto``).

    In auto mode the gains follow the pile zone slowly (a moving average every ``every`` frames), so
    a hand or a single glare frame cannot swing them; given the cards' boxes (the last detections),
    from the cards' whites alone, and not at all while no card is seen, nor while the cards show no white
    (:func:`~referee.vision.colour.view_white_gains` finds none: dark cards on top, a hand over the pile, a cast
    too strong for a white to look white): such a frame tells nothing of the light, and counted as neutral it
    pulled the gains back towards none (under a strong cool cast half the updates, and greens read blue).
    """

    def __init__(
        self, gains: Sequence[float] | None = None, *, auto: bool = False, every: int = 15, rate: float = 0.2
    ) -> None:
        self.gains = np.asarray(gains if gains is not None else (1.0, 1.0, 1.0), np.float32)
        self.auto = auto
        self.every = max(1, every)
        self.rate = rate
        self._seen = 0

    @property
    def is_identity(self) -> bool:
        return bool(np.allclose(self.gains, 1.0, atol=0.02))

    def __call__(self, image: Image, cards: npt.NDArray[np.float32] | None = None) -> Image:
        if self.auto and self._seen % self.every == 0 and (cards is None or len(cards)):
            target = view_white_gains(image, cards)
            if target is not None:
                self.gains = ((1 - self.rate) * self.gains + self.rate * target).astype(np.float32)
        self._seen += 1
        if self.is_identity:
            return image
        return apply_gains(image, self.gains)


def apply_gains(image: Image, gains: npt.NDArray[np.float32] | Sequence[float]) -> Image:
    """Scale B, G, R by ``gains`` (a 256-entry lookup table per channel: cheap at 720p)."""
    lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * np.asarray(gains, np.float32), 0, 255)
    table = lut.astype(np.uint8).reshape(256, 1, 3)
    out: Image = cv2.LUT(image, table)
    return out
