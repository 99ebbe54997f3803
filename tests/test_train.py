"""`referee train` wiring, with ultralytics replaced by a recorder (the real thing trains for hours)."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any, ClassVar

import pytest

from referee import train as train_mod
from referee import yolo_env


class RecordingYOLO:
    """Stands in for ``ultralytics.YOLO``: records what training was asked for, writes best.pt."""

    calls: ClassVar[list[tuple[str, dict[str, Any]]]] = []

    def __init__(self, model: str) -> None:
        self.model = model

    def train(self, **kwargs: Any) -> None:
        RecordingYOLO.calls.append((self.model, kwargs))
        weights = Path(kwargs["project"]) / kwargs["name"] / "weights"
        weights.mkdir(parents=True, exist_ok=True)
        (weights / "best.pt").write_bytes(b"weights")


@pytest.fixture
def recorder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> type[RecordingYOLO]:
    fake = types.ModuleType("ultralytics")
    fake.YOLO = RecordingYOLO  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ultralytics", fake)
    monkeypatch.setattr(yolo_env, "prepare", lambda: None)
    monkeypatch.setattr(yolo_env, "tune_threads", lambda: None)
    monkeypatch.setattr(train_mod, "RUNS_DIR", tmp_path / "runs")
    monkeypatch.setattr(train_mod, "MODELS_DIR", tmp_path / "models")
    monkeypatch.setattr(train_mod, "export_onnx", lambda weights, imgsz: weights.with_suffix(".onnx"))
    RecordingYOLO.calls = []
    return RecordingYOLO


@pytest.mark.parametrize(("model", "from_weights"), [("yolo11n.yaml", False), ("models/detector.pt", True)])
def test_a_yaml_trains_from_scratch_and_a_checkpoint_from_its_weights(
    recorder: type[RecordingYOLO], tmp_path: Path, model: str, from_weights: bool
) -> None:
    """ultralytics throws a checkpoint's weights away when told ``pretrained=False``: continuing from
    ``models/detector.pt`` must not silently start from scratch."""
    summary = train_mod.train(tmp_path / "data.yaml", model, epochs=3, imgsz=320, batch=16,
                              extra={"lr0": 0.004})
    (asked, kwargs), = recorder.calls
    assert asked == model
    assert kwargs["pretrained"] is from_weights
    assert kwargs["lr0"] == 0.004 and kwargs["fliplr"] == 0.0  # overrides on top of the card augmentations
    assert (tmp_path / "models" / "detector.pt").read_bytes() == b"weights"
    assert summary["onnx"].endswith("detector.onnx")


def test_every_default_can_be_overridden(recorder: type[RecordingYOLO], tmp_path: Path) -> None:
    """On a GPU machine: more loader workers and mixed precision, without a duplicate-keyword crash."""
    train_mod.train(tmp_path / "data.yaml", "models/detector.pt", epochs=1, imgsz=320, batch=128,
                    device="0", extra=train_mod.parse_overrides(["workers=16", "amp=true"]))
    (_, kwargs), = recorder.calls
    assert kwargs["workers"] == 16 and kwargs["amp"] is True and kwargs["device"] == "0"
    assert kwargs["plots"] is False  # the rest of the defaults stay
