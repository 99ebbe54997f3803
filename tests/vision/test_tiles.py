"""Cards too small for the detector's input are found again on tiles of the image."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from referee.cards import CLASSIC, Card, Colour
from referee.vision import tiles
from referee.vision.detect import DEFAULT_MODEL, OnnxDetector
from referee.vision.detections import Detections
from referee.vision.evaluate import box_iou
from referee.vision.tiles import Tiling, find_on_tiles, tile_origins, tiling_for

needs_model = pytest.mark.skipif(not DEFAULT_MODEL.exists(), reason="no models/detector.onnx yet")


def boxes(*rows: tuple[float, float, float, float, float], face: int = 0) -> Detections:
    """Detections from (x1, y1, x2, y2, card-ness) rows, each face as sure as its card-ness."""
    xyxy = np.array([r[:4] for r in rows], np.float32).reshape(-1, 4)
    sure = np.array([r[4] for r in rows], np.float32)
    return Detections(xyxy, sure, np.full(len(rows), face, np.int64), found=sure)


@pytest.mark.parametrize(("length", "side", "overlap", "expected"), [
    (1280, 427, 100, [0, 284, 569, 853]),
    (720, 427, 100, [0, 293]),
    (300, 427, 100, [0]),  # one tile covers it
    (427, 427, 100, [0]),
])
def test_tile_origins_cover_the_length_with_overlap(length: int, side: int, overlap: int, expected: list[int]) -> None:
    starts = tile_origins(length, side, overlap)
    assert starts == expected
    assert starts[0] == 0 and starts[-1] + min(side, length) >= length
    assert all(a + side - b >= overlap for a, b in itertools.pairwise(starts))


def test_no_tiles_when_cards_are_as_large_as_the_detector_learned_them() -> None:
    # A pile seen from above: cards ~116 px long in a 640 px view are 58 px at the 320 px input.
    assert tiling_for(boxes((100, 100, 180, 216, 0.9)), (360, 640), 320) is None
    assert tiling_for(Detections.empty(), (720, 1280), 320) is None  # nothing to size


def test_small_cards_are_looked_at_on_tiles_that_bring_them_near_the_target_size() -> None:
    # Cards 96 px long in a 1280 px frame: 24 px at the input, under SMALL_CARD.
    found = boxes((10, 10, 70, 106, 0.6), (300, 300, 360, 396, 0.5), (600, 50, 696, 110, 0.08))
    tiling = tiling_for(found, (720, 1280), 320)
    assert tiling is not None
    zoom = 1280 / tiling.side
    assert 96 * 320 / 1280 * zoom == pytest.approx(tiles.TARGET_CARD, rel=0.01)
    assert tiling.overlap == round(tiles.OVERLAP_CARDS * 96)


def test_boxes_found_only_faintly_still_tell_the_cards_size() -> None:
    # Nothing passes SIZE_FOUND, but hints do: a table whose printing the detector hardly knows.
    found = boxes((10, 10, 70, 106, 0.07), (300, 300, 360, 396, 0.06), (0, 0, 900, 700, 0.01))
    assert tiling_for(found, (720, 1280), 320) is not None


def test_zoom_stops_at_the_images_own_pixels() -> None:
    # A 480 px image with 20 px cards: a tile may not be smaller than the 320 px input.
    tiling = tiling_for(boxes((10, 10, 20, 30, 0.9)), (360, 480), 320)
    assert tiling is not None and tiling.side == 320


def test_each_card_is_kept_once_and_cards_cut_by_a_tile_are_left_out() -> None:
    image = np.zeros((400, 800, 3), np.uint8)
    cards = {(100, 100, 140, 160): 0.9, (380, 200, 420, 260): 0.8, (700, 300, 740, 360): 0.7}

    def find(view: np.ndarray, left: int = 0) -> Detections:
        # A "detector" on one view: each card whose box lies within the view, as a tile cuts it.
        width = view.shape[1]
        rows = []
        for (x1, y1, x2, y2), sure in cards.items():
            a, b = max(x1 - left, 0), min(x2 - left, width)
            if b > a:
                rows.append((a, y1, b, y2, sure))
        return boxes(*rows, face=1)

    whole = boxes((99, 101, 141, 159, 0.3))  # the whole view found one card, unsure of its face
    calls: list[int] = []

    def tile_find(tile: np.ndarray) -> Detections:
        left = [0, 400][len(calls)]
        calls.append(left)
        return find(tile, left)

    merged = find_on_tiles(image, whole, Tiling(400, 0), tile_find)
    assert calls == [0, 400]
    # The card across the seam is cut in both tiles and left out (with no overlap no tile holds it whole);
    # the card both the whole view and a tile found is kept once, from the tile, surer of its face.
    assert sorted(merged.xyxy.tolist()) == [[100, 100, 140, 160], [700, 300, 740, 360]]


def test_a_card_across_the_seam_is_kept_whole_from_the_overlapping_tile() -> None:
    image = np.zeros((100, 500, 3), np.uint8)
    card = (230, 20, 270, 80)
    origins = tile_origins(500, 300, 60)

    def tile_find(tile: np.ndarray) -> Detections:
        left = origins[tile_find.count]  # type: ignore[attr-defined]
        tile_find.count += 1  # type: ignore[attr-defined]
        a, b = max(card[0] - left, 0), min(card[2] - left, tile.shape[1])
        return boxes((a, card[1], b, card[3], 0.9)) if b > a else Detections.empty()

    tile_find.count = 0  # type: ignore[attr-defined]
    merged = find_on_tiles(image, Detections.empty(), Tiling(300, 60), tile_find)
    assert merged.xyxy.tolist() == [list(map(float, card))]


def test_two_cards_overlapping_in_one_view_stay_two() -> None:
    image = np.zeros((100, 300, 3), np.uint8)
    pile = boxes((100, 20, 140, 80, 0.9), (104, 22, 144, 82, 0.7))  # a card laid over another, a little aside
    merged = find_on_tiles(image, Detections.empty(), Tiling(300, 0), lambda tile: pile)
    assert len(merged) == 2


@needs_model
def test_a_whole_table_of_small_cards_is_read_better_on_tiles() -> None:
    """A 1280x720 webcam view of twelve cards 70-110 px long (16-30 px at the detector's input), of a printing
    drawn outside the training pool: the detector reads more of them on tiles than in the whole view."""
    from referee.synth.render import CardDesign, Palette, printing_colour, random_palette
    from referee.synth.tables import table_view

    rng = np.random.default_rng(20261126)
    design = CardDesign(kind="ring", font=3, shear=0.1, ring=0.03, shadow=5)
    base = random_palette(Card(Colour.RED, "1"), rng, wide=True)
    palettes: dict[Colour | None, Palette] = {None: Palette(**{**base.__dict__, "body": (22, 20, 20)})}
    for colour in (Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE):
        palettes[colour] = Palette(**{**base.__dict__, "body": printing_colour(colour, rng, wide=True)})
    labels = sorted({c.label for c in CLASSIC.cards()})
    detector = OnnxDetector()
    views = []
    for _ in range(2):
        chosen = [Card.from_label(labels[int(i)]) for i in rng.choice(len(labels), 12, replace=False)]
        views.append(table_view(rng, chosen, design, palettes))

    def read(found: Detections, truth: list[tuple[str, tuple[float, float, float, float]]]) -> int:
        right = 0
        for label, box in truth:
            overlap = box_iou(found.xyxy, np.array([box], np.float32))[:, 0]
            right += bool(len(overlap) and overlap.max() > 0.5 and found.labels[int(overlap.argmax())] == label)
        return right

    on_tiles = sum(read(detector.detect(image), truth) for image, truth in views)
    detector.tiles = False
    whole_only = sum(read(detector.detect(image), truth) for image, truth in views)
    assert on_tiles >= 16 and on_tiles >= whole_only + 6, (on_tiles, whole_only)


def test_merge_and_shift_keep_every_row_in_order() -> None:
    a = Detections(np.array([[0, 0, 10, 10]], np.float32), np.array([0.9], np.float32), np.array([1]),
                   ("red_1",), np.array([0.8], np.float32), np.array([0.95], np.float32))
    b = a.shifted(100, 50)
    assert b.xyxy.tolist() == [[100, 50, 110, 60]] and b.labels == a.labels
    merged = Detections.merge([a, Detections.empty(), b])
    assert merged.xyxy.tolist() == [[0, 0, 10, 10], [100, 50, 110, 60]]
    assert merged.labels == ("red_1", "red_1") and merged.found.tolist() == pytest.approx([0.95, 0.95])
    assert len(Detections.merge([])) == 0
    # Rows without labels or card-ness (a detector that gives none) merge without them.
    bare = Detections(np.array([[5, 5, 9, 9]], np.float32), np.array([0.5], np.float32), np.array([2]))
    assert Detections.merge([a, bare]).labels == () and len(Detections.merge([a, bare]).found) == 0
