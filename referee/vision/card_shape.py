"""A card's shape, and the card a detector's upright box holds whatever its angle.

Every printing of the deck is cut to one rectangle (56 x 87 mm: :data:`CARD_ASPECT`). A detector gives an
upright box; the card in it lies turned by some angle ``t``, and a card of long side ``a`` and short side
``b = CARD_ASPECT * a`` fills a box of ``|W| = a cos t + b sin t`` by ``|H| = a sin t + b cos t`` (lying long
side across). So the box gives the card's size and angle back, up to a mirror (:func:`card_in_box`).

Why it matters: a box's area is no measure of a card's size. The same card's box grows 2.1 times from lying
square to lying at 45 degrees, so "as big as the other cards" judged by area calls a square card among
turned ones partly hidden. Its long side (:func:`card_length`) does not change with the angle, and a box
narrower than a card can ever make (:func:`holds_whole_card`) shows a card cut off by something on it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["CARD_ASPECT", "WHOLE_SHAPE_SLACK", "card_in_box", "card_length", "holds_whole_card", "photo_subject"]

#: A card's short side over its long side.
CARD_ASPECT = 0.645
#: How much narrower than a square-lying card a box may be and still hold a whole card: a detector's box is
#: a few pixels off each side, and a card's shadow or a slanted view changes its shape a little.
WHOLE_SHAPE_SLACK = 0.9


def card_in_box(width: float, height: float) -> tuple[float, float]:
    """The long side and the angle (0 to pi/2 from lying long side across) of the card that fills a box of
    ``width`` x ``height`` whole: from ``W + H = (1 + r) a (cos t + sin t)`` and
    ``W - H = (1 - r) a (cos t - sin t)``. The long side is at most the box's diagonal (a box of a shape no
    whole card makes, see :func:`holds_whole_card`, gives no more than that)."""
    r = CARD_ASPECT
    u, v = (width + height) / (1 + r), (width - height) / (1 - r)
    a = min(math.sqrt((u * u + v * v) / 2.0), math.hypot(width, height))
    t = min(max(math.atan2(u - v, u + v), 0.0), math.pi / 2)
    return a, t


def card_length(xyxy: Sequence[float] | npt.NDArray[np.float32]) -> float:
    """The long side of the card the box ``xyxy`` would hold whole, whatever its angle: a size to compare
    cards by that does not change as a card turns (a box's area does, by up to 2.1 times)."""
    x1, y1, x2, y2 = (float(v) for v in xyxy[:4])
    return card_in_box(max(x2 - x1, 1e-6), max(y2 - y1, 1e-6))[0]


def holds_whole_card(xyxy: Sequence[float] | npt.NDArray[np.float32], length: float, share: float) -> bool:
    """Whether the box ``xyxy`` can hold a whole card at least ``share`` of ``length`` long: its sides no
    narrower than a card's (a whole card's box is between ``CARD_ASPECT`` and 1 wide for its length, at any
    angle; narrower is a card cut off) and :func:`card_length` at least ``share * length``."""
    x1, y1, x2, y2 = (float(v) for v in xyxy[:4])
    w, h = x2 - x1, y2 - y1
    if w <= 0 or h <= 0 or min(w, h) < WHOLE_SHAPE_SLACK * CARD_ASPECT * max(w, h):
        return False
    return card_length(xyxy) >= share * length


def photo_subject(boxes: npt.NDArray[np.float32], sureness: npt.NDArray[np.float32],
                  shape: Sequence[int]) -> int | None:
    """Which of the cards found in a photo of one card is the photo's own: sure and near the centre, as a
    player holds or frames the card they show (other cards may show at the edges, surer of their faces).
    ``sureness``: how sure each box is a card (0-1); the distance of its centre from the photo's, in
    widths and heights, is taken off it. ``None`` when nothing was found."""
    if len(boxes) == 0:
        return None
    h, w = shape[:2]
    centres = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2 / w, (boxes[:, 1] + boxes[:, 3]) / 2 / h], axis=1)
    off = np.linalg.norm(centres - 0.5, axis=1)
    return int(np.argmax(np.asarray(sureness, np.float64) - off))
