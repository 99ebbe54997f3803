"""Cards too small for the detector's input, found again on tiles of the image (sliced inference, as SAHI does).

The detector looks at the whole image shrunk to its input (320 px). A camera that sees a whole table
leaves each card some 16-30 px long there, under the sizes it learned from, and it finds about half of
them and reads fewer. When the cards it finds are that small, it looks again at overlapping tiles of the
image, each shrunk less, so the cards in them come out near :data:`TARGET_CARD` px long. A tile's box that
touches the tile's inner edge is a card cut in two and is left to the tile beside it (the tiles overlap
by more than a card) or to the whole view; the same card found in two views is kept once, from the view
surer of its face.

On the whole-table views of four held-out printings (``benchmarks/printings_eval.py``) the cards read as
the pipeline reads go from 0.9146 (whole view only) to 0.998 at three times the zoom. Images whose cards
are already as large as the detector learned them (a pile seen from above, single-card photos) are looked
at once, as before.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from referee.vision.detections import Detections, iou

Image = npt.NDArray[np.uint8]

#: Cards whose long side is under this many pixels at the detector's input are looked at again on tiles.
#: ``referee bench``'s pile view shows its cards 54-62 px long there; the held-out table views 16-30 px.
SMALL_CARD = 40.0
#: How long (px, at the detector's input) the zoom aims to make the cards found: the whole-table views
#: read 0.979 at 1.5 times their zoom (cards ~36 px), 0.992 at 2 (~48 px), 0.998 at 3 (~72 px).
TARGET_CARD = 72.0
#: Card-ness that counts as a card when the size of the cards is judged, and a hint of one when nothing passes.
SIZE_FOUND, SIZE_HINT = 0.15, 0.05
#: Tiles overlap by this many cards' long sides, so a card up to that size lies whole in one of them.
OVERLAP_CARDS = 1.5
#: Boxes from two views overlapping this much are the same card.
SAME_CARD_IOU = 0.5
#: A tile's box within this many pixels of the tile's inner edge is a card cut by the tile.
EDGE_PX = 2.0


def long_sides(found: Detections) -> npt.NDArray[np.float32]:
    """Each box's long side (image pixels)."""
    wh = found.xyxy[:, 2:] - found.xyxy[:, :2]
    return np.asarray(wh.max(axis=1) if len(found) else np.zeros(0), np.float32)


@dataclass(frozen=True)
class Tiling:
    """Square tiles ``side`` px long (image pixels), neighbours overlapping by ``overlap`` px."""

    side: int
    overlap: int


def tiling_for(hints: Detections, image_shape: tuple[int, ...], input_size: int) -> Tiling | None:
    """How to look closer than the whole view (``None``: no need), from the boxes of one look at the whole
    image down to a card-ness of :data:`SIZE_HINT`. The cards' size is the median long side of the boxes
    whose card-ness passes :data:`SIZE_FOUND` (of them all where none does); the zoom brings it to
    :data:`TARGET_CARD` px at the detector's input, no further than the image's own pixels allow (a tile
    no smaller than the input)."""
    height, width = image_shape[:2]
    longest = max(height, width)
    cardness = hints.cardness
    sized = hints[cardness >= SIZE_FOUND] if (cardness >= SIZE_FOUND).any() else hints[cardness >= SIZE_HINT]
    if not len(sized):
        return None
    card = float(np.median(long_sides(sized)))
    at_input = card * input_size / longest
    if at_input >= SMALL_CARD:
        return None
    zoom = min(TARGET_CARD / max(at_input, 1.0), longest / input_size)
    if zoom <= 1.0:
        return None
    side = round(longest / zoom)
    return Tiling(side, min(side // 2, round(OVERLAP_CARDS * card)))


def tile_origins(length: int, side: int, overlap: int) -> list[int]:
    """Starts of tiles ``side`` long covering ``length``, neighbours overlapping by at least ``overlap``."""
    if side >= length:
        return [0]
    count = math.ceil((length - overlap) / max(1, side - overlap))
    return [round(i * (length - side) / (count - 1)) for i in range(count)] if count > 1 else [0]


def find_on_tiles(image: Image, whole: Detections, tiling: Tiling, find: Callable[[Image], Detections]) -> Detections:
    """``whole`` (the cards found in the whole view) with the cards ``find`` gives on each tile of ``image``,
    each card once. ``find`` returns boxes in the pixels of the tile it is given."""
    height, width = image.shape[:2]
    parts = [whole]
    for top in tile_origins(height, tiling.side, tiling.overlap):
        for left in tile_origins(width, tiling.side, tiling.overlap):
            tile = np.ascontiguousarray(image[top:top + tiling.side, left:left + tiling.side])
            found = find(tile)
            if len(found):
                inside = _whole_in_tile(found, tile.shape, left, top, image.shape)
                parts.append(found[inside].shifted(left, top))
    return _once_each(parts)


def _whole_in_tile(found: Detections, tile_shape: tuple[int, ...], left: int, top: int,
                   image_shape: tuple[int, ...]) -> npt.NDArray[np.bool_]:
    """Boxes clear of the tile's inner edges (an edge the image's own edge is not)."""
    th, tw = tile_shape[:2]
    height, width = image_shape[:2]
    x1, y1, x2, y2 = found.xyxy.T
    return np.asarray(((x1 > EDGE_PX) | (left == 0)) & ((y1 > EDGE_PX) | (top == 0))
                      & ((x2 < tw - EDGE_PX) | (left + tw >= width)) & ((y2 < th - EDGE_PX) | (top + th >= height)))


def _once_each(parts: list[Detections]) -> Detections:
    """Every view's boxes, each card once: surest face first, a box is dropped where a box already kept from
    *another* view overlaps it by :data:`SAME_CARD_IOU` (within one view the detector's own suppression
    stands, so two cards overlapping on a pile stay two)."""
    merged = Detections.merge(parts)
    views = np.repeat(np.arange(len(parts)), [len(p) for p in parts])
    kept: list[int] = []
    for i in np.argsort(-merged.confidence, kind="stable"):
        if not any(views[k] != views[i] and iou(merged.xyxy[k], merged.xyxy[i]) >= SAME_CARD_IOU for k in kept):
            kept.append(int(i))
    return merged[np.asarray(sorted(kept), np.int64)]
