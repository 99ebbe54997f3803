from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cards import FACE_CLASSES
from referee.evaluation import folder_rules
from referee.vision import evaluate as ev
from referee.vision.detections import Detections


class TableDetector:
    """A detector double answering from a table keyed by image height (each test image is unique)."""

    def __init__(self, answers: dict[int, list[tuple[str, float, list[float]]]]) -> None:
        self.answers = answers
        self.imgsz = 320
        self.face_names = FACE_CLASSES

    def detect(self, image: np.ndarray) -> Detections:
        rows = self.answers.get(image.shape[0], [])
        if not rows:
            return Detections.empty()
        labels = tuple(r[0] for r in rows)
        faces = [label.split("_", 1)[1] if "_" in label and label != "wild_draw4" else label for label in labels]
        return Detections(
            np.array([r[2] for r in rows], np.float32),
            np.array([r[1] for r in rows], np.float32),
            np.array([FACE_CLASSES.index(f) for f in faces], np.int64),
            labels,
            np.ones(len(rows), np.float32),
        )

    def raw(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A closer look at a crop reads nothing (crops have no row in the table)."""
        return np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64)


def _dataset(tmp_path: Path, names: list[str], images: dict[int, list[tuple[int, list[float]]]]) -> Path:
    (tmp_path / "images/val").mkdir(parents=True)
    (tmp_path / "labels/val").mkdir(parents=True)
    for height, boxes in images.items():
        cv2.imwrite(str(tmp_path / f"images/val/{height}.png"), np.zeros((height, 200, 3), np.uint8))
        lines = []
        for cls, (x1, y1, x2, y2) in boxes:
            lines.append(f"{cls} {(x1 + x2) / 400} {(y1 + y2) / (2 * height)} {(x2 - x1) / 200} {(y2 - y1) / height}")
        (tmp_path / f"labels/val/{height}.txt").write_text("\n".join(lines))
    yaml = tmp_path / "data.yaml"
    names_yaml = "".join(f"  - {n}\n" for n in names)
    yaml.write_text(f"path: {tmp_path}\ntrain: images/val\nval: images/val\nnames:\n{names_yaml}")
    return yaml


def test_perfect_detector_scores_one(tmp_path: Path) -> None:
    yaml = _dataset(tmp_path, ["red_7", "blue_skip"], {100: [(0, [10, 10, 50, 80])], 101: [(1, [20, 20, 90, 90])]})
    det = TableDetector({100: [("red_7", 0.9, [10, 10, 50, 80])], 101: [("blue_skip", 0.8, [20, 20, 90, 90])]})
    result = ev.evaluate_yolo(det, yaml)  # type: ignore[arg-type]
    assert result["map50"] == pytest.approx(1.0, abs=0.01)
    assert result["map50_95"] == pytest.approx(1.0, abs=0.01)
    assert result["card_accuracy"] == 1.0 and result["precision"] == 1.0 and result["recall"] == 1.0
    assert result["images"] == 2 and result["mode"] == "label"


def test_wrong_colour_and_unlabelled_classes(tmp_path: Path) -> None:
    yaml = _dataset(tmp_path, ["red_7", "blue_skip"], {100: [(0, [10, 10, 50, 80])], 101: [(1, [20, 20, 90, 90])]})
    det = TableDetector({
        100: [("green_7", 0.9, [10, 10, 50, 80]), ("back", 0.9, [100, 10, 150, 80])],  # back ignored
        101: [("blue_skip", 0.8, [20, 20, 90, 90])],
    })
    result = ev.evaluate_yolo(det, yaml)  # type: ignore[arg-type]
    assert result["per_class"]["red_7"] == 0.0
    assert result["per_class"]["blue_skip"] == pytest.approx(1.0, abs=0.01)
    assert result["card_accuracy"] == 0.5
    assert result["precision"] == 1.0  # green_7 is not a class of this dataset: ignored
    assert result["recall"] == 0.5


def test_loose_box_counts_at_50_not_at_95(tmp_path: Path) -> None:
    yaml = _dataset(tmp_path, ["7"], {100: [(0, [10, 10, 50, 80])]})
    det = TableDetector({100: [("red_7", 0.9, [12, 14, 52, 84])]})
    result = ev.evaluate_yolo(det, yaml)  # type: ignore[arg-type]
    assert result["mode"] == "face"
    assert result["map50"] == pytest.approx(1.0, abs=0.01)
    assert result["map50_95"] < 0.9


def test_unknown_class_name_is_an_error(tmp_path: Path) -> None:
    yaml = _dataset(tmp_path, ["red_7", "purple_3"], {100: []})
    with pytest.raises(ev.EvalError, match="purple_3"):
        ev.evaluate_yolo(TableDetector({}), yaml)  # type: ignore[arg-type]


def test_folders_top1_and_unreadable_file(tmp_path: Path) -> None:
    for label, height in [("red_7", 100), ("wild", 101)]:
        (tmp_path / label).mkdir()
        cv2.imwrite(str(tmp_path / label / "a.png"), np.zeros((height, 50, 3), np.uint8))
    (tmp_path / "wild" / "broken.jpg").write_bytes(b"not a jpeg")
    det = TableDetector({100: [("red_7", 0.5, [0, 0, 10, 10]), ("red_1", 0.4, [0, 0, 9, 9])],
                         101: [("wild_draw4", 0.9, [0, 0, 10, 10])]})
    result = ev.evaluate_folders(det, tmp_path)  # type: ignore[arg-type]
    assert result["top1_accuracy"] == 0.5 and result["top1_accuracy_detector"] == 0.5
    assert result["images"] == 2 and result["skipped"] == 1
    assert result["confusions"] == {"wild": {"wild_draw4": 1}}


def test_folder_not_a_label(tmp_path: Path) -> None:
    (tmp_path / "cats").mkdir()
    with pytest.raises(ev.EvalError, match="cats"):
        ev.evaluate_folders(TableDetector({}), tmp_path)  # type: ignore[arg-type]


def test_cli_reports_missing_dataset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    assert main(["eval", str(tmp_path / "nope")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "referee eval: no such dataset" in err


@pytest.mark.parametrize("path_line", ["", "path: .\n"])
def test_yaml_paths_relative_to_the_yaml(tmp_path: Path, path_line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "ds"
    (root / "images/val").mkdir(parents=True)
    cv2.imwrite(str(root / "images/val/a.png"), np.zeros((10, 10, 3), np.uint8))
    (root / "data.yaml").write_text(f"{path_line}val: images/val\nnames: ['7']\n")
    monkeypatch.chdir(tmp_path)
    dataset = ev.load_yolo_dataset(Path("ds/data.yaml"))
    assert [p.name for p in dataset.images] == ["a.png"]


def test_card_accuracy_by_visible_share_from_synth_sidecars(tmp_path: Path) -> None:
    yaml = _dataset(tmp_path, ["7", "skip"], {100: [(0, [10, 10, 50, 80]), (1, [100, 10, 160, 90])]})
    (tmp_path / "meta/val").mkdir(parents=True)
    (tmp_path / "meta/val/100.json").write_text(json.dumps({"boxes": [
        {"face": "skip", "xyxy": [100, 10, 160, 90], "visible": 0.45},  # sidecar order need not match
        {"face": "7", "xyxy": [10, 10, 50, 80], "visible": 1.0},
    ]}))
    det = TableDetector({100: [("red_7", 0.9, [10, 10, 50, 80]), ("red_8", 0.9, [100, 10, 160, 90])]})
    result = ev.evaluate_yolo(det, yaml)  # type: ignore[arg-type]
    assert result["card_accuracy"] == 0.5
    assert result["card_accuracy_by_visible"] == {
        "0.0-0.5": {"cards": 1, "accuracy": 0.0, "accuracy_detector": 0.0},
        "0.9-1.0": {"cards": 1, "accuracy": 1.0, "accuracy_detector": 1.0},
    }


def test_no_visible_breakdown_without_sidecars_or_with_a_broken_one(tmp_path: Path) -> None:
    yaml = _dataset(tmp_path, ["7"], {100: [(0, [10, 10, 50, 80])]})
    det = TableDetector({100: [("red_7", 0.9, [10, 10, 50, 80])]})
    assert "card_accuracy_by_visible" not in ev.evaluate_yolo(det, yaml)  # type: ignore[arg-type]
    (tmp_path / "meta/val").mkdir(parents=True)
    (tmp_path / "meta/val/100.json").write_text("{not json")
    result = ev.evaluate_yolo(det, yaml)  # type: ignore[arg-type]
    assert "card_accuracy_by_visible" not in result and result["card_accuracy"] == 1.0


class WidthClassifier:
    """A face classifier double: reads the face from a table keyed by the box's width."""

    path = Path("double.onnx")
    taught = False

    def __init__(self, faces: dict[int, str], sure: float = 0.9) -> None:
        self.faces = faces
        self.sure = sure

    def read(self, image: np.ndarray, box: np.ndarray, *, allowed: object = None, pad: float = 0.15,
             view_to_image: object = None, mirrored: bool = False) -> list[tuple[str, float]]:
        face = self.faces.get(round(float(box[2] - box[0])))
        return [(face, self.sure)] if face else []


def test_classifier_rereads_the_matched_box_keeping_the_detectors_colour(tmp_path: Path) -> None:
    yaml = _dataset(tmp_path, ["red_7", "blue_skip", "red_1"],
                    {100: [(0, [10, 10, 50, 72])], 101: [(1, [20, 20, 90, 90])]})
    det = TableDetector({100: [("red_1", 0.9, [10, 10, 50, 72])], 101: [("blue_skip", 0.8, [20, 20, 90, 90])]})
    # The classifier reads the 40 px box as a 7 (right: red_7) and the 70 px one as a reverse (wrong).
    result = ev.evaluate_yolo(det, yaml, classifier=WidthClassifier({40: "7", 70: "reverse"}))  # type: ignore[arg-type]
    assert result["card_accuracy"] == 0.5 and result["card_accuracy_classifier"] == 0.5
    assert result["classifier"] == "double.onnx"
    no_reads = ev.evaluate_yolo(det, yaml, classifier=WidthClassifier({}))  # type: ignore[arg-type]
    assert no_reads["card_accuracy_classifier"] == 0.5  # nothing read: the detector's name stands


def test_folders_with_classifier(tmp_path: Path) -> None:
    for label, height in [("red_7", 100), ("wild", 101), ("blue_9", 102)]:
        (tmp_path / label).mkdir()
        cv2.imwrite(str(tmp_path / label / "a.png"), np.zeros((height, 50, 3), np.uint8))
    det = TableDetector({100: [("red_1", 0.5, [0, 0, 10, 10])], 101: [("wild_draw4", 0.9, [0, 0, 20, 10])]})
    result = ev.evaluate_folders(det, tmp_path, classifier=WidthClassifier({10: "7", 20: "wild"}))  # type: ignore[arg-type]
    assert result["top1_accuracy_classifier"] == pytest.approx(2 / 3, abs=1e-3)
    assert result["confusions_classifier"] == {"blue_9": {"none": 1}}
    # As the pipeline names a card lying whole (a photo's): the classifier at 0.9 speaks alone (at
    # CLASSIFIER_ALONE_CONFIDENCE or more), so its faces replace the detector's; the detector alone read none right.
    assert result["top1_accuracy"] == pytest.approx(2 / 3, abs=1e-3)
    assert result["top1_accuracy_detector"] == 0.0
    unsure = ev.evaluate_folders(det, tmp_path, classifier=WidthClassifier({10: "7", 20: "wild"}, sure=0.5))  # type: ignore[arg-type]
    assert unsure["top1_accuracy"] == 0.0  # averaged with a closer look that read nothing: too unsure


def test_fraction_folders_read_on_the_fractions_deck(tmp_path: Path) -> None:
    """``red_1of2`` names the ``red_1/2`` folder (no slash in a file name); the detector has no fraction
    classes, so the card it reads as a 7 (a face the fractions deck does not print) is read by the
    classifier among the deck's faces, as the pipeline does."""
    from referee.commands import deck_faces

    (tmp_path / "red_1of2").mkdir()
    cv2.imwrite(str(tmp_path / "red_1of2" / "a.png"), np.zeros((100, 50, 3), np.uint8))
    assert folder_rules(tmp_path) == "breuken"
    det = TableDetector({100: [("red_7", 0.8, [0, 0, 10, 10])]})
    result = ev.evaluate_folders(det, tmp_path, classifier=WidthClassifier({10: "1/2"}),  # type: ignore[arg-type]
                                 faces=deck_faces("breuken", {}))
    assert result["top1_accuracy"] == 1.0 and result["top1_accuracy_detector"] == 0.0
    assert result["per_class"] == {"red_1/2": 1.0}


def test_a_photo_is_read_as_the_card_it_shows_not_the_surest_at_its_edge(tmp_path: Path) -> None:
    """A photo of one card with a corner of another at its edge (a crop cut from a table photo, a card held
    over others): the card near the centre is the photo's, as ``referee learn-deck`` takes it, even when the
    detector is surer of the face at the edge."""
    (tmp_path / "red_7").mkdir()
    cv2.imwrite(str(tmp_path / "red_7" / "a.png"), np.zeros((100, 100, 3), np.uint8))
    det = TableDetector({100: [("blue_2", 0.95, [80, 0, 100, 20]), ("red_7", 0.7, [30, 20, 70, 80])]})
    result = ev.evaluate_folders(det, tmp_path)  # type: ignore[arg-type]
    assert result["top1_accuracy"] == 1.0 and result["top1_accuracy_detector"] == 1.0


class SplitClassifier:
    """A face classifier double that splits its reading between a fraction and the face printed beside it,
    renormalised among the ``allowed`` faces as :meth:`FaceClassifier.read` does."""

    path = Path("double.onnx")
    taught = False

    def read(self, image: np.ndarray, box: np.ndarray, *, allowed: frozenset[str] | None = None,
             pad: float = 0.15, view_to_image: object = None, mirrored: bool = False
             ) -> list[tuple[str, float]]:
        faces = [("8/9", 0.45), ("8", 0.4), ("3", 0.15)]
        kept = [(f, p) for f, p in faces if allowed is None or f in allowed]
        total = sum(p for _, p in kept)
        return [(f, p / total) for f, p in kept]


def test_table_cards_are_named_among_the_faces_of_the_deck_their_labels_show(tmp_path: Path) -> None:
    """A classic table's card the detector read as a 3 and the classifier as 8/9 or 8: among any face nothing
    is sure enough to name it, among the classic deck's faces (as a game reads it) the 8 is."""
    from referee.evaluation import labels_rules, one_deck
    from referee.readers import deck_faces

    yaml = _dataset(tmp_path, ["red_8", "red_3"], {100: [(0, [10, 10, 50, 72])]})
    det = TableDetector({100: [("red_3", 0.9, [10, 10, 50, 72])]})
    anyface = ev.evaluate_yolo(det, yaml, classifier=SplitClassifier())  # type: ignore[arg-type]
    classic = ev.evaluate_yolo(det, yaml, classifier=SplitClassifier(),  # type: ignore[arg-type]
                               faces=deck_faces("official", {}))
    assert anyface["card_accuracy"] == 0.0 and anyface["card_accuracy_classifier"] == 0.0
    assert classic["card_accuracy"] == 1.0 and classic["card_accuracy_classifier"] == 1.0
    assert labels_rules(["red_8", "wild"]) == "official" and labels_rules(["red_1/2"]) == "breuken"
    assert one_deck(["red_1/2", "red_reverse", "wild"]) and not one_deck(["7", "1/2"])


def test_eval_reads_a_fraction_card_with_the_margin_the_pipeline_reads_it_with(tmp_path: Path) -> None:
    """``referee eval`` crops a card as a game does: the fractions deck's with the least margin (its numerals are
    small), the classic deck's with the usual one."""
    from referee.readers import deck_faces
    from referee.vision.classify import CROP_PAD, FRACTIONS_PAD

    pads: list[float] = []

    class PadClassifier(WidthClassifier):
        def read(self, image: np.ndarray, box: np.ndarray, *, allowed: object = None, pad: float = CROP_PAD,
                 view_to_image: object = None, mirrored: bool = False) -> list[tuple[str, float]]:
            pads.append(pad)
            return super().read(image, box, allowed=allowed)

    (tmp_path / "red_1of2").mkdir()
    cv2.imwrite(str(tmp_path / "red_1of2" / "a.png"), np.zeros((100, 50, 3), np.uint8))
    det = TableDetector({100: [("red_7", 0.8, [0, 0, 10, 10])]})
    ev.evaluate_folders(det, tmp_path, classifier=PadClassifier({10: "1/2"}),  # type: ignore[arg-type]
                        faces=deck_faces("breuken", {}))
    assert pads and set(pads) == {FRACTIONS_PAD}
    pads.clear()
    ev.evaluate_folders(det, tmp_path, classifier=PadClassifier({10: "1/2"}),  # type: ignore[arg-type]
                        faces=deck_faces("official", {}))
    assert pads and set(pads) == {CROP_PAD}


def test_an_input_size_the_model_cannot_take_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A model exported for 320 px only (the shipped one takes any size since issue 48; this is it with its
    input fixed, as a static export has it): --imgsz 640 is a one-line error, not a traceback."""
    onnx = pytest.importorskip("onnx")
    from referee.cli import main
    from referee.vision.detect import DEFAULT_MODEL

    if not DEFAULT_MODEL.is_file():
        pytest.skip("no shipped detector model")
    model = onnx.load(str(DEFAULT_MODEL))
    for dim, size in zip(model.graph.input[0].type.tensor_type.shape.dim, (1, 3, 320, 320), strict=True):
        dim.dim_value = size
    static = tmp_path / "static.onnx"
    onnx.save(model, str(static))
    (tmp_path / "data" / "red_7").mkdir(parents=True)
    cv2.imwrite(str(tmp_path / "data" / "red_7" / "a.png"), np.zeros((64, 64, 3), np.uint8))
    assert main(["eval", str(tmp_path / "data"), "--model", str(static), "--imgsz", "640"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "320 px input only" in err
