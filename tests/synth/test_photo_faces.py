"""Faces cut out of photos: a card is found along its outline, flattened upright, and filmed in games."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cards import ACTION_VALUES, CLASSIC_COLOURS, NUMBER_VALUES, Card
from referee.synth.photo_faces import Outline, card_outline, cut_face, load_faces
from referee.synth.render import CARD_H, CARD_W, render_card
from referee.synth.scene import card_quad
from referee.synth.textures import _wood
from referee.synth.video import VideoConfig, render_frames
from referee.vision.detections import Detections


def _photo(quads: list[np.ndarray], labels: list[str], seed: int = 1) -> np.ndarray:
    """A phone photo of cards on a wooden table: each label's face warped onto its quad."""
    rng = np.random.default_rng(seed)
    photo = np.clip(_wood(rng, 480), 0, 255).astype(np.uint8)[:400, :480].copy()
    for quad, label in zip(quads, labels, strict=True):
        face = render_card(Card.from_label(label), 0, rng)
        corners = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
        matrix = cv2.getPerspectiveTransform(corners, quad.astype(np.float32))
        warped = cv2.warpPerspective(face, matrix, (480, 400))
        alpha = warped[..., 3:].astype(np.float32) / 255
        photo = (warped[..., :3] * alpha + photo * (1 - alpha)).astype(np.uint8)
    return photo


def _box(quad: np.ndarray) -> list[float]:
    return [*quad.min(axis=0), *quad.max(axis=0)]


def test_a_card_on_a_table_is_cut_along_its_corners() -> None:
    quad = card_quad((240, 200), 260, 25.0)
    outline = card_outline(_photo([quad], ["blue_7"]), _box(quad))
    assert outline is not None
    # Every true corner has a found corner within a few pixels (the rounded corners cost a little).
    gaps = np.linalg.norm(quad[:, None, :] - outline.corners[None, :, :], axis=2).min(axis=1)
    assert gaps.max() < 0.06 * 260, gaps
    assert 1.4 < outline.aspect < 1.7
    # The first side is a short one: the face comes out upright, not on its side.
    first, second = (np.linalg.norm(outline.corners[k + 1] - outline.corners[k]) for k in (0, 1))
    assert first < second


def test_the_cut_face_is_the_card_upright() -> None:
    quad = card_quad((240, 200), 260, 100.0)
    photo = _photo([quad], ["red_5"])
    outline = card_outline(photo, _box(quad))
    assert outline is not None
    face = cut_face(photo, outline)
    assert face.shape == (CARD_H, CARD_W, 4)
    assert face[0, 0, 3] == 0 and face[CARD_H // 2, CARD_W // 2, 3] == 255  # rounded corners, solid middle
    # Mostly the card's red (and its white oval), not the table's brown.
    hsv = cv2.cvtColor(face[..., :3], cv2.COLOR_BGR2HSV)
    red = ((hsv[..., 0] < 8) | (hsv[..., 0] > 170)) & (hsv[..., 1] > 120)
    assert red.mean() > 0.3


def test_two_cards_merged_in_one_box_are_not_taken_for_one() -> None:
    first = card_quad((190, 200), 240, 10.0)
    second = card_quad((300, 210), 240, 60.0)
    both = np.vstack([first, second])
    assert card_outline(_photo([first, second], ["green_3", "yellow_8"]), _box(both)) is None


def test_a_box_too_small_to_cut_is_refused() -> None:
    assert card_outline(np.zeros((100, 100, 3), np.uint8), [10, 10, 14, 30]) is None


def test_an_outline_scores_a_card_shape_best() -> None:
    corners = np.zeros((4, 2), np.float32)
    assert Outline(corners, 1.04, CARD_H / CARD_W).score == pytest.approx(0.0)
    assert Outline(corners, 1.1, 1.3).score > Outline(corners, 1.05, 1.5).score


def _faces_folder(root: Path, colour: tuple[int, int, int]) -> Path:
    """Every face of the classic deck, all of one colour no printing uses."""
    face = np.zeros((CARD_H, CARD_W, 4), np.uint8)
    face[..., :3] = colour
    face[..., 3] = 255
    labels = [Card(c, v).label for c in CLASSIC_COLOURS for v in NUMBER_VALUES + ACTION_VALUES]
    for label in [*labels, "wild", "wild_draw4"]:
        (root / label).mkdir(parents=True)
        cv2.imwrite(str(root / label / "photo.png"), face)
    return root


def test_games_are_filmed_with_the_faces_given(tmp_path: Path) -> None:
    magenta = (255, 0, 255)
    faces = _faces_folder(tmp_path / "faces", magenta)
    config = VideoConfig(seconds=4.0, fps=2.0, faces=str(faces))
    filmed = list(render_frames(7, config))
    plain = [img for img, _ in render_frames(7, VideoConfig(seconds=4.0, fps=2.0))]

    def magenta_share(img: np.ndarray) -> float:
        b, g, r = (img[..., k].astype(int) for k in range(3))
        return float(((b > 160) & (r > 160) & (g < 90)).mean())

    last, cards = filmed[-1]
    assert any(label != "back" for label, _, _ in cards)  # the start card lies on the pile
    # A settled card is a twentieth of a percent of the frame at least; the stock's backs stay drawn.
    assert magenta_share(last) > 0.005
    assert max(magenta_share(img) for img in plain) == 0.0
    assert len(filmed) == len(plain)


def test_a_faces_folder_that_is_not_there_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        VideoConfig(faces=str(tmp_path / "nowhere"))


def test_a_faces_folder_of_something_else_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "holiday").mkdir()
    with pytest.raises(ValueError, match="not a card label"):
        load_faces(str(tmp_path))
    empty = tmp_path / "empty"
    (empty / "red_7").mkdir(parents=True)
    with pytest.raises(ValueError, match="no LABEL"):
        load_faces(str(empty))


def test_cards_are_cut_from_every_photo_folder(tmp_path: Path) -> None:
    from referee.synth.photo_faces import cut_faces

    class Finder:
        """A detector double that boxes the photo's one card where it was drawn."""

        face_names = ("red", "back")

        def find_cards(self, image: np.ndarray) -> Detections:
            return Detections(np.array([_box(QUAD)], np.float32), np.array([0.9], np.float32), np.array([0]),
                              ("red_1",), np.ones(1, np.float32))

    photos = tmp_path / "photos"
    for label in ("red_1", "wild"):
        (photos / label).mkdir(parents=True)
        cv2.imwrite(str(photos / label / "a.jpg"), _photo([QUAD], [label]))
    (photos / "wild" / "b.jpg").write_bytes(b"not a jpeg")
    summary = cut_faces(photos, tmp_path / "faces", Finder())
    assert summary["labels"] == 2 and summary["missing"] == []
    assert any("unreadable" in r for r in summary["rejected"])
    assert set(load_faces(str(tmp_path / "faces"))) == {"red_1", "wild"}
    assert (tmp_path / "faces" / "faces.json").is_file()


QUAD = card_quad((240, 200), 250, -math.degrees(0.4))
