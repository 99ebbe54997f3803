"""One deck under one camera prints each colour a few hue units wide: read in those spreads once known.

An overexposed webcam turns the shared photos' blue (hue 99) cyan: its blue cards lie at 88-90, past the stock
boundary with green (91 lies between the stock green, 68, and blue, 106, in units of each colour's spread over all
printings: lime to teal for green). Their greens lie at 71-83 all the same. Learned from the folder's sure reads,
green is a few units wide at 75 and blue a few at 97, and the boundary between them falls in the gap the camera
left (``benchmarks/camera_casts.py --only bright-webcam``: 9 blues read green before).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from referee.cards import Colour
from referee.synth.printing import Palette, hsv_to_bgr
from referee.vision.colour import HUE_WIDTHS, MIN_SPREAD, DeckColours, read_colour
from referee.vision.detect import load_detector
from referee.vision.evaluate import evaluate_folders

from .test_colour_ranges import BOX, _card
from .test_mirror import _photo as photo_on_table


def _taught(deck: DeckColours, hues: dict[float, int]) -> DeckColours:
    for hue, times in hues.items():
        for _ in range(times):
            deck.read(_card(hue), BOX)
    deck.learning = False
    return deck


#: What a camera showing the deck's blue cyan showed of each colour: hue -> cards.
CAMERA = {176.0: 4, 178.0: 4, 26.0: 4, 29.0: 4, 73.0: 4, 77.0: 4, 96.0: 4, 100.0: 4}


def test_a_blue_the_camera_turned_cyan_reads_blue_in_the_spreads_its_deck_showed() -> None:
    assert read_colour(_card(89.0), BOX)[0] is Colour.GREEN  # the stock spreads: every printing's green
    assert DeckColours(photos=True).read(_card(89.0), BOX, learn=False)[0] is Colour.GREEN
    deck = _taught(DeckColours(spreads=True, photos=True), CAMERA)
    assert deck.read(_card(89.0), BOX)[0] is Colour.BLUE
    assert deck.read(_card(82.0), BOX)[0] is Colour.GREEN  # the deck's own greens stay green
    assert deck.read(_card(40.0), BOX)[0] is Colour.YELLOW  # in this deck a lime would be nearer yellow
    assert deck.read(_card(32.0), BOX)[0] is Colour.YELLOW


def test_without_spreads_the_same_teaching_leaves_the_cyan_blue_green() -> None:
    """The centres alone move at most half way to the stock boundary: not enough."""
    deck = _taught(DeckColours(photos=True), CAMERA)
    assert deck.read(_card(89.0), BOX)[0] is Colour.GREEN


def test_a_spread_narrows_only_once_both_its_neighbours_showed_their_own_printing() -> None:
    """Greens alone say nothing of where blue begins: a folder of green cards keeps every spread."""
    deck = _taught(DeckColours(spreads=True, photos=True), {73.0: 6, 77.0: 6})
    assert deck.read_widths == [HUE_WIDTHS[c] for c in deck.palette]
    assert deck.read(_card(89.0), BOX)[0] is Colour.GREEN
    # Blue known, yellow not: green still keeps its stock spread (yellow is its other neighbour).
    deck = _taught(DeckColours(spreads=True, photos=True), {73.0: 6, 77.0: 6, 96.0: 6, 100.0: 6})
    assert deck.read_widths[deck.palette.index(Colour.GREEN)] == HUE_WIDTHS[Colour.GREEN]


def test_a_spread_is_never_under_its_floor_nor_over_its_stock_spread() -> None:
    deck = _taught(DeckColours(spreads=True, photos=True), {176.0: 5, 27.0: 5, 75.0: 5, 99.0: 5})
    assert deck.read_widths == [MIN_SPREAD] * 4  # every card of a colour at one hue
    wide = _taught(DeckColours(spreads=True, photos=True), {176.0: 5, 20.0: 5, 32.0: 5, 55.0: 5, 85.0: 5, 99.0: 5})
    green = wide.palette.index(Colour.GREEN)
    assert MIN_SPREAD < wide.read_widths[green] <= HUE_WIDTHS[Colour.GREEN]


def test_no_colour_can_take_a_card_printed_at_its_neighbours_learned_centre() -> None:
    """However narrow the spreads, the boundary lies between the two learned centres."""
    deck = _taught(DeckColours(spreads=True, photos=True), CAMERA)
    for i, colour in enumerate(deck.palette):
        assert deck.read(_card(deck.centres[i]), BOX)[0] is colour


def test_the_live_reader_learns_no_spreads_unless_asked() -> None:
    deck = _taught(DeckColours(), CAMERA)
    assert deck.read_widths == [HUE_WIDTHS[c] for c in deck.palette]


def _photo(label: str, hue: float, seed: int) -> np.ndarray:
    """A card of ``label`` printed (or shown by the camera) at ``hue``, a little turned on a wooden table."""
    return photo_on_table(label, seed, Palette(body=hsv_to_bgr(hue, 220, 215)))[0]


def test_a_folder_of_one_cameras_photos_is_read_in_the_colours_it_showed(tmp_path: Path) -> None:
    """``referee eval`` on a folder whose camera shows its blues at 89-97 and its greens at 70-74: alone, the blue
    at 89 reads green (a teal green among all printings); read with the folder's other photos, every card reads
    its own colour."""
    hues = {"red": (178.0, 2.0, 176.0, 179.0), "yellow": (25.0, 28.0, 26.0, 27.0),
            "green": (70.0, 74.0, 72.0, 73.0), "blue": (97.0, 95.0, 93.0, 89.0)}
    for colour, shown in hues.items():
        for face, hue in zip(("2", "5", "7", "4"), shown, strict=True):
            (tmp_path / f"{colour}_{face}").mkdir()
            cv2.imwrite(str(tmp_path / f"{colour}_{face}" / "a.png"), _photo(f"{colour}_{face}", hue, int(face)))
    detector = load_detector()
    blue = cv2.imread(str(tmp_path / "blue_4" / "a.png"))
    assert blue is not None and detector.detect(blue).labels[0] == "green_4"  # alone
    result = evaluate_folders(detector, tmp_path)
    assert result["top1_accuracy"] == 1.0, result["confusions"]
    assert detector.deck is None  # the folder's colours are its own: the next folder starts afresh


def test_a_colour_no_photo_reads_as_itself_is_not_found_by_the_others() -> None:
    """The limit: every blue shown at 89 reads green surely, teaching green, so blue is never known and no
    boundary moves towards it; the folder's blues stay green (two clusters of green are not guessed apart)."""
    deck = _taught(DeckColours(spreads=True, photos=True), {178.0: 4, 26.0: 4, 72.0: 4, 89.0: 4})
    assert deck.reads[deck.palette.index(Colour.BLUE)] == 0
    assert deck.read(_card(89.0), BOX)[0] is Colour.GREEN


def test_a_narrow_colour_keeps_the_hues_past_its_centre_on_its_far_side() -> None:
    """Counted in units of each colour's spread alone, a yellow seen 3 units wide at 29 lost a card at 23 to a
    green seen 20 wide at 60 (7 / 3 against 37 / 20): the second printing's yellow close-ups read green so under
    an overexposed view. A hue is named by the two centres either side of it: red and yellow here."""
    deck = _taught(DeckColours(spreads=True, photos=True),
                   {176.0: 4, 29.0: 4, 42.0: 2, 52.0: 2, 62.0: 2, 72.0: 2, 80.0: 2, 100.0: 4})
    widths = dict(zip(deck.palette, deck.read_widths, strict=True))
    assert widths[Colour.YELLOW] == MIN_SPREAD < 15.0 < widths[Colour.GREEN]
    assert deck.read(_card(23.0), BOX)[0] is Colour.YELLOW
