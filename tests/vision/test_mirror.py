"""A view seen in a mirror (a webcam app's selfie view, a front camera) is read as the cards lie.

Read as they lie, mirrored photos of the shared single cards named 346 of 540 faces right and the second
printing's close-ups 26 of 54 (2 read 5, 7 read 1, 9 read 6, a draw two's cards and a reverse's arrows each
other's); its table photos, mirrored, read 0.44 as the pipeline names cards (``benchmarks/camera_casts.py --only
mirror``): a camera whose photos' cards read surer flipped is read flipped back.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cards import Card
from referee.synth.printing import Palette
from referee.synth.render import render_card
from referee.vision.classify import load_classifier
from referee.vision.detect import load_detector
from referee.vision.evaluate import evaluate_folders
from referee.vision.mirror import (
    ALONE,
    MARGIN,
    MirrorWatch,
    camera_mirrored,
    mirror_boxes,
    mirror_evidence,
    mirror_image,
    read_mirrored,
)

#: Faces no mirror leaves as they are, in the shipped models' printing.
ASYMMETRIC = ["red_2", "blue_7", "green_reverse", "yellow_draw2", "red_5", "blue_9"]
#: Those the classifier reads as another face mirrored (this printing's reverse reads a reverse either way: it
#: tells nothing, and needs nothing).
MISREAD_MIRRORED = ["red_2", "blue_7", "yellow_draw2", "red_5", "blue_9"]


def _photo(label: str, seed: int, palette: Palette | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A card of ``label`` lying a little turned on a wooden table, as a phone photographs it, and its box
    (``palette``: its inks; a random printing of its colour when ``None``)."""
    rng = np.random.default_rng(seed)
    face = render_card(Card.from_label(label), design=0, rng=rng, palette=palette)
    table = np.full((480, 640, 3), (60, 110, 160), np.uint8)
    h, w = face.shape[:2]
    scale = 300 / h
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(-12, 12)), scale)
    turn[:, 2] = np.array([320.0, 240.0]) - turn[:, :2] @ np.array([w / 2, h / 2])
    warped = cv2.warpAffine(face, turn, (640, 480))
    alpha = warped[..., 3:4].astype(np.float32) / 255.0
    photo = (warped[..., :3] * alpha + table * (1 - alpha)).astype(np.uint8)
    ys, xs = np.nonzero(warped[..., 3] > 128)
    return photo, np.array([[xs.min(), ys.min(), xs.max(), ys.max()]], np.float32)


@pytest.fixture(scope="module")
def models():  # type: ignore[no-untyped-def]
    detector, classifier = load_detector(), load_classifier()
    assert classifier is not None
    return detector, classifier


@pytest.mark.parametrize("label", MISREAD_MIRRORED)
def test_a_mirrored_card_reads_surer_flipped_back_and_a_card_as_it_lies_does_not(models, label: str) -> None:  # type: ignore[no-untyped-def]
    _, classifier = models
    photo, box = _photo(label, 3)
    assert mirror_evidence(classifier, photo, box) < MARGIN
    assert mirror_evidence(classifier, mirror_image(photo), mirror_boxes(box, photo.shape[1])) > MARGIN


@pytest.mark.parametrize("flip", [False, True])
def test_a_folder_of_mirrored_photos_is_read_as_its_cards_lie(models, tmp_path: Path, flip: bool) -> None:  # type: ignore[no-untyped-def]
    """``referee eval`` on one camera's photos: mirrored, every card reads as it would unmirrored; as they lie,
    nothing is flipped."""
    detector, classifier = models
    for label in ASYMMETRIC:
        photo, _ = _photo(label, 4)
        (tmp_path / label).mkdir()
        cv2.imwrite(str(tmp_path / label / "a.png"), mirror_image(photo) if flip else photo)
    result = evaluate_folders(detector, tmp_path, classifier=classifier)
    assert result["mirrored"] is flip
    assert result["top1_accuracy"] == 1.0, result["confusions"]


def test_one_photo_is_read_the_other_way_than_its_camera_only_when_it_alone_says_so_surely() -> None:
    assert camera_mirrored([0.4, 0.3, -0.2]) and not camera_mirrored([0.4, -0.3, -0.2]) and not camera_mirrored([])
    assert read_mirrored(0.0, camera=True) and not read_mirrored(-ALONE - 0.1, camera=True)
    assert not read_mirrored(0.9, camera=False) and read_mirrored(ALONE + 0.1, camera=False)


@pytest.mark.parametrize("label", MISREAD_MIRRORED)
def test_a_live_card_and_its_mirror_image_say_which_way_round_the_view_is(models, label: str) -> None:  # type: ignore[no-untyped-def]
    """The pipeline's look at a card it read (its crop through the pile view's map back onto the frame, here the
    identity): negative evidence as it lies, positive mirrored."""
    _, classifier = models
    photo, box = _photo(label, 5)
    as_is = mirror_evidence(classifier, photo, box[0], view_to_image=np.eye(3))
    mirrored = mirror_evidence(classifier, mirror_image(photo), mirror_boxes(box, photo.shape[1])[0],
                               view_to_image=np.eye(3))
    assert as_is is not None and mirrored is not None and as_is < 0 < mirrored


def test_the_watch_decides_once_the_cards_agree_and_then_stops() -> None:
    watch = MirrorWatch(sure=1.0)
    assert watch.verdict is None and not watch.add(0.6)  # one card: not sure yet
    assert watch.add(0.6) and watch.verdict is True  # the second makes it mirrored, said once
    assert not watch.add(-5.0) and watch.verdict is True and watch.cards == 2  # decided: no more looks
    calm = MirrorWatch(sure=1.0)
    assert not calm.add(-0.7) and not calm.add(-0.7) and calm.verdict is False


def test_mirror_boxes_flips_x_and_keeps_the_order() -> None:
    boxes = np.array([[10, 20, 50, 80], [100, 0, 190, 40]], np.float32)
    assert mirror_boxes(boxes, 200).tolist() == [[150, 20, 190, 80], [10, 0, 100, 40]]
    assert mirror_boxes(mirror_boxes(boxes, 200), 200).tolist() == boxes.tolist()
