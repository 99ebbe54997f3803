"""The face classifier: its crops, its training data, a real (tiny) training run and the ONNX it exports."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from referee.cards import FACE_CLASSES, READER_FACES, face_folder, folder_face
from referee.synth.crops import write_crops
from referee.vision.classify import (
    CROP_SIDE,
    FaceClassifier,
    load_classifier,
    second_look,
    square_crop,
    square_crop_through,
)
from referee.vision.detect import DEFAULT_MODEL, DetectorError


def test_square_crop_centres_the_box_and_pads_with_grey() -> None:
    image = np.zeros((200, 300, 3), np.uint8)
    image[50:150, 100:160] = 255  # a white card, 60 x 100
    crop = square_crop(image, [100, 50, 160, 150], pad=0.0)
    assert crop is not None and crop.shape == (CROP_SIDE, CROP_SIDE, 3)
    # The box's long side fills the crop; its short side is 60 % of it, centred.
    row = crop[CROP_SIDE // 2, :, 0]
    white = np.flatnonzero(row > 200)
    assert abs(white[0] - 0.2 * CROP_SIDE) <= 2 and abs(white[-1] - 0.8 * CROP_SIDE) <= 2
    edge = square_crop(image, [0, 0, 40, 40], pad=0.5)  # half of it lies outside the image
    assert edge is not None and tuple(edge[2, 2]) == (114, 114, 114)
    assert square_crop(image, [10, 10, 13, 14]) is None


def test_square_crop_shift_moves_the_window() -> None:
    image = np.zeros((200, 200, 3), np.uint8)
    image[90:110, 90:110] = 255
    centred = square_crop(image, [80, 80, 120, 120], pad=0.0)
    shifted = square_crop(image, [80, 80, 120, 120], pad=0.0, shift=(0.25, 0.0))
    assert centred is not None and shifted is not None

    def col(crop: npt.NDArray[np.uint8]) -> float:
        return float(np.flatnonzero(crop[CROP_SIDE // 2, :, 0] > 200).mean())

    assert col(shifted) < col(centred) - 0.2 * CROP_SIDE


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.jpg"))}


def test_write_crops_layout_counts_and_reproducible(tmp_path: Path) -> None:
    summary = write_crops(tmp_path / "a", train=8, val=3, seed=5, size=192, workers=1, progress=False)
    files = _files(tmp_path / "a")
    assert summary["crops"]["train"] + summary["crops"]["val"] == len(files) > 0
    assert {Path(f).parts[1] for f in files} <= {face_folder(f) for f in READER_FACES}
    saved = json.loads((tmp_path / "a" / "crops.json").read_text())
    assert saved["scenes"] == {"train": 8, "val": 3} and "recipe" in saved
    image = cv2.imread(str(tmp_path / "a" / next(iter(files))))
    assert image.shape == (CROP_SIDE, CROP_SIDE, 3)
    # The same seed gives the same crops whatever the worker count.
    write_crops(tmp_path / "b", train=8, val=3, seed=5, size=192, workers=2, progress=False)
    assert _files(tmp_path / "b") == files


def test_second_look_averages_the_two_readers() -> None:
    """Both closer readers must lean the same way for the average to pass ``SECOND_LOOK_CONFIDENCE``.

    The bar sits under the detector-alone 0.85 because of dev seed 724: a red 1 read as a 7 in the pile
    view was read as a 1 at 0.72 by both closer readers and, at 0.85, stayed a 7 (at 0.7, over the whole
    cards of dev hours 680-739 and 1000-1059, 14 of the pile view's 19 misreadings were put right and
    none spoiled; at 0.85, 11). It came down to 0.6 on dev hour 5000-5059, where seed 5002's blue 3, read
    as a 5 at 0.86 in the pile view, was read as a 3 at 0.63 by the detector's crop and 0.79 by the
    classifier; at 0.6 the pipeline named that play and one more, both right, and at 0.7 none (the figures
    and commands: ``models/MODEL_CARD.md``).
    """
    faces = second_look([("6", 0.9), ("9", 0.2)], [("9", 0.7), ("6", 0.25), ("8", 0.05)])
    assert [f for f, _ in faces] == ["6", "9", "8"]
    assert dict(faces)["6"] == pytest.approx(0.575) and dict(faces)["9"] == pytest.approx(0.45)
    # A face only the detector read scores half its reading; nothing read by either is left out.
    assert second_look([("skip", 0.8)], [("skip", 0.0), ("3", 0.0)]) == [("skip", 0.4)]


def test_missing_or_foreign_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DetectorError, match="no classifier"):
        FaceClassifier(tmp_path / "nope.onnx")
    with pytest.raises(DetectorError, match="not a face classifier"):
        FaceClassifier(DEFAULT_MODEL)  # the detector: names, but not a classifier
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not onnx")
    with pytest.raises(DetectorError, match="cannot load"):
        load_classifier(broken)


def test_training_exports_a_model_that_matches_torch(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from referee import train_classifier as tc

    write_crops(tmp_path / "crops", train=40, val=10, seed=1, size=192, workers=1, progress=False)
    out = tmp_path / "models" / "classifier.onnx"
    summary = tc.train(tmp_path / "crops", epochs=1, batch=16, out=out)
    assert out.is_file() and out.with_suffix(".pt").is_file()
    assert summary["train_crops"] > 0 and len(summary["history"]) == 1
    assert 0.0 <= summary["val"]["accuracy"] <= 1.0

    classifier = FaceClassifier(out)
    assert classifier.face_names == READER_FACES and classifier.side == CROP_SIDE and classifier.has_embedding
    crops, _ = tc.load_split(tmp_path / "crops", "val")
    probs = classifier.probabilities(list(crops[:4]))
    assert probs.shape == (4, len(READER_FACES)) and np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    _, embedding = classifier.outputs(list(crops[:4]))
    assert embedding is not None and embedding.shape == (4, 128)
    model = tc.build_model()
    model.load_state_dict(torch.load(out.with_suffix(".pt"), weights_only=True))
    model.eval()
    with torch.no_grad():
        expected = model(tc.to_input(torch.from_numpy(crops[:4]))).softmax(1).numpy()
    assert np.allclose(probs, expected, atol=1e-4)

    faces = classifier.read(crops[0], [10, 10, 86, 86])
    assert len(faces) == len(READER_FACES) and faces[0][1] >= faces[-1][1]
    assert sum(p for _, p in faces) == pytest.approx(1.0, abs=1e-4)


def test_weights_of_a_model_reading_fewer_faces_grow_its_head(tmp_path: Path) -> None:
    """Weights from before the fractions (17 faces) start a 62-face model: every weight kept, the new
    faces' rows fresh."""
    torch = pytest.importorskip("torch")
    from referee import train_classifier as tc

    old = tc.build_model(classes=len(FACE_CLASSES))
    torch.save(old.state_dict(), tmp_path / "old.pt")
    write_crops(tmp_path / "crops", train=10, val=4, seed=2, size=192, workers=1, progress=False)
    tc.train(tmp_path / "crops", epochs=1, batch=8, lr=1e-9, weights=tmp_path / "old.pt", out=tmp_path / "new.onnx")
    new = torch.load(tmp_path / "new.pt", weights_only=True)
    assert new["11.weight"].shape[0] == len(READER_FACES)
    assert torch.allclose(new["0.0.weight"], old.state_dict()["0.0.weight"], atol=1e-5)


def test_face_folders_name_every_face_and_back() -> None:
    assert [folder_face(face_folder(f)) for f in READER_FACES] == list(READER_FACES)
    assert face_folder("3/4") == "3of4" and folder_face("wild_draw4") == "wild_draw4"


def test_a_crop_read_through_the_homography_is_the_crop_of_the_view() -> None:
    """The classifier reads the camera frame through the pile view's map: the same square as a crop of
    the (smaller) view, with the frame's detail."""
    rng = np.random.default_rng(0)
    frame = cv2.GaussianBlur((rng.random((720, 1280, 3)) * 255).astype(np.uint8), (0, 0), 3)
    view = cv2.resize(frame, (640, 360), interpolation=cv2.INTER_AREA)
    box = [100.0, 80.0, 160.0, 170.0]
    through = square_crop_through(frame, box, np.diag([2.0, 2.0, 1.0]))
    direct = square_crop(view, box)
    assert through is not None and direct is not None and through.shape == direct.shape
    assert np.abs(through.astype(int) - direct.astype(int)).mean() < 3
    # Fine detail survives: one-pixel stripes of the frame are lost in the view, kept through the map.
    grid = np.zeros((720, 1280, 3), np.uint8)
    grid[:, ::2] = 255
    small = cv2.resize(grid, (640, 360), interpolation=cv2.INTER_AREA)
    assert square_crop_through(grid, box, np.diag([2.0, 2.0, 1.0]), pad=0.0, side=360).std() > 40  # type: ignore[union-attr]
    assert square_crop(small, box, pad=0.0, side=360).std() < 5  # type: ignore[union-attr]


def test_augment_keeps_shape_and_range() -> None:
    torch = pytest.importorskip("torch")
    from referee.train_classifier import augment

    batch = torch.randint(0, 256, (8, CROP_SIDE, CROP_SIDE, 3), dtype=torch.uint8)
    x = augment(batch, torch.Generator().manual_seed(0))
    assert x.shape == (8, 3, CROP_SIDE, CROP_SIDE) and float(x.min()) >= 0.0 and float(x.max()) <= 1.0


def test_camera_augment_tilts_blurs_and_adds_noise_around_the_card_in_the_middle() -> None:
    torch = pytest.importorskip("torch")
    from referee.train_classifier import augment

    face = torch.zeros((64, CROP_SIDE, CROP_SIDE, 3), dtype=torch.uint8)
    face[:, 28:68, 36:60] = 255  # a card upright in the middle of its crop, sharp-edged
    plain = augment(face, torch.Generator().manual_seed(1))
    camera = augment(face, torch.Generator().manual_seed(1), camera=True)
    assert camera.shape == plain.shape and float(camera.min()) >= 0.0 and float(camera.max()) <= 1.0
    for x in (plain, camera):  # the card stays in the middle, brighter than the crop's corners
        grey = x.mean(dim=1)
        assert bool((grey[:, 44:52, 44:52].mean(dim=(1, 2)) > grey[:, :8, :8].mean(dim=(1, 2)) + 0.2).all())

    def off_square(x: object) -> int:  # crops whose card is no longer 40 x 24 px along the rows
        count = 0
        for grey in x.mean(dim=1):  # type: ignore[attr-defined]
            rows, cols = (grey > (grey.min() + grey.max()) / 2).nonzero(as_tuple=True)
            size = sorted((int(rows.max() - rows.min()) + 1, int(cols.max() - cols.min()) + 1))
            count += abs(size[0] - 24) > 2 or abs(size[1] - 40) > 2
        return count

    def rough(x: object) -> int:  # crops with pixel-to-pixel noise in a flat region
        grey = x.mean(dim=1)  # type: ignore[attr-defined]
        corner = grey[:, 2:14, 2:14]
        return int(((corner[:, 1:, :] - corner[:, :-1, :]).abs().mean(dim=(1, 2)) > 0.005).sum())

    assert off_square(plain) == 0 < off_square(camera) and rough(plain) == 0 < rough(camera)


def test_unknown_face_folder_is_an_error(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from referee.train_classifier import load_split

    (tmp_path / "train" / "cats").mkdir(parents=True)
    with pytest.raises(ValueError, match="cats"):
        load_split(tmp_path, "train")
    with pytest.raises(FileNotFoundError, match="synth --crops"):
        load_split(tmp_path, "val")


@pytest.mark.skipif(not (Path(__file__).resolve().parents[2] / "models" / "classifier.onnx").is_file(),
                    reason="no models/classifier.onnx")
def test_shipped_classifier_reads_generated_cards() -> None:
    """The shipped model, through the run-time path (crop, both turns, softmax), reads whole cards of
    scenes it never saw (seed 999, not a training seed)."""
    from referee.synth.scene import SceneParams, random_scene

    classifier = load_classifier()
    assert classifier is not None
    params = SceneParams(random_hue_share=0.0, hand_share=0.0)
    right = total = 0
    for i in range(40):
        scene = random_scene(np.random.default_rng([999, i]), 384, params)
        for box in scene.boxes:
            if box.visible < 0.95:
                continue
            total += 1
            right += classifier.read(scene.image, box.xyxy)[0][0] == box.face
    assert total >= 40 and right / total >= 0.95, (right, total)


@pytest.mark.skipif(not (Path(__file__).resolve().parents[2] / "models" / "classifier.onnx").is_file(),
                    reason="no models/classifier.onnx")
def test_a_card_is_read_at_each_quarter_turn_and_the_readings_averaged() -> None:
    """The model is not quite the same at every angle: each reading averages the crop as it lies and turned
    by each quarter turn (READ_TURNS; ``turns=2``: the half turn alone, the reading before)."""
    from referee.synth.scene import SceneParams, random_scene
    from referee.vision.classify import CROP_PAD, READ_TURNS, softmax, square_crop

    classifier = load_classifier()
    assert classifier is not None and READ_TURNS == 4
    scene = random_scene(np.random.default_rng([999, 3]), 384, SceneParams(random_hue_share=0.0, hand_share=0.0))
    box = max(scene.boxes, key=lambda b: b.visible).xyxy
    crop = square_crop(scene.image, box, pad=CROP_PAD, side=classifier.side)
    assert crop is not None
    for turns in (4, 2):
        views = [np.ascontiguousarray(np.rot90(crop, k)) for k in range(0, 4, 4 // turns)]
        expected = softmax(classifier.outputs(views)[0]).mean(axis=0)
        read = dict(classifier.read(scene.image, box, turns=turns))
        assert [read[f] for f in classifier.face_names] == pytest.approx(expected.tolist(), abs=1e-5)
    with pytest.raises(ValueError, match="turns"):
        classifier.read(scene.image, box, turns=3)


@pytest.mark.skipif(not (Path(__file__).resolve().parents[2] / "models" / "classifier.onnx").is_file(),
                    reason="no models/classifier.onnx")
def test_pipeline_closer_look_averages_detector_and_classifier() -> None:
    from referee.pipeline import Pipeline
    from referee.session import MatchSession
    from referee.store import Store
    from referee.synth.scene import SceneParams, random_scene
    from referee.vision.classify import SECOND_LOOK_CONFIDENCE
    from referee.vision.detect import DETECTOR_LOOK_CONFIDENCE, OnnxDetector, look_closer

    detector = OnnxDetector()
    classifier = load_classifier()
    session = MatchSession(Store(":memory:"), players=4)
    with_classifier = Pipeline(detector, session, players=4, classifier=classifier)
    alone = Pipeline(detector, session, players=4)
    assert with_classifier.tracker.second_look is not None and alone.tracker.second_look is not None
    assert with_classifier.tracker.second_look.confidence == SECOND_LOOK_CONFIDENCE
    assert alone.tracker.second_look.confidence == DETECTOR_LOOK_CONFIDENCE == 0.85
    scene = random_scene(np.random.default_rng([999, 3]), 384, SceneParams(single_card_share=0.0, hand_share=0.0))
    top = next(b for b in scene.boxes if b.visible >= 0.95)
    with_classifier.reading.pile_view = alone.reading.pile_view = scene.image
    both = with_classifier.reading.look_closer(np.asarray(top.xyxy, np.float32))
    assert classifier is not None and both == second_look(
        look_closer(detector, scene.image, top.xyxy), classifier.read(scene.image, top.xyxy))
    assert both[0][0] == top.face
    assert alone.reading.look_closer(np.asarray(top.xyxy, np.float32)) == look_closer(detector, scene.image, top.xyxy)


def test_which_cards_the_classifier_must_name() -> None:
    from referee.commands import deck_faces
    from referee.vision.classify import needs_reading, read_on_deck

    classic, fractions = deck_faces("official", {}), deck_faces("breuken", {})
    assert not needs_reading("red_7", classic, FACE_CLASSES)
    assert needs_reading("blank", classic, FACE_CLASSES)  # the classic deck prints no blank card
    # The detector has no fraction classes: on that deck it names every coloured card's face wrongly,
    # even a face the deck prints (a 3/4 read as a reverse); black cards it reads well.
    assert needs_reading("red_reverse", fractions, FACE_CLASSES) and needs_reading("red_7", fractions, FACE_CLASSES)
    assert not needs_reading("wild_draw4", fractions, FACE_CLASSES)
    assert read_on_deck("red_reverse", [("3/4", 0.9)]) == "red_3/4"
    assert read_on_deck("blank", [("7", 0.9)]) == "blank"  # a coloured face, no colour to give it
    assert read_on_deck("red_7", [("back", 0.9)]) == "red_7"
