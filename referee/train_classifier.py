"""``referee train-classifier``: the face classifier, a small CNN trained from scratch on card crops.

The detector finds cards and names their faces from a 320 px view of the whole pile, where a card is
60 px tall and a 6 differs from a 9 by a line a pixel or two thick. The classifier reads one card, the
one the tracker is about to believe, from a 96 px square crop around it (:func:`referee.vision.classify.square_crop`),
turned any way. It is trained here with torch on the crops of ``referee synth --crops`` and exported to
ONNX for onnxruntime, so the run time needs no torch (:mod:`referee.vision.classify`).

Augmentation happens on the batch: quarter turns (cards lie at any angle), a colour cast over the whole
crop (a webcam's white balance), shuffled colour channels and a grey share (faces are colour-blind: the
colour is read from pixels), brightness and contrast, and a share read at a lower resolution and blown
up again (a card 40-70 px long in a table photo or a webcam frame is read from a blurred 96 px crop).
It runs on the CPU, or on a GPU with ``--device cuda`` (the batch and its augmentation stay there).
"""

from __future__ import annotations

import argparse
import json
import logging
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import READER_FACES, folder_face
from referee.vision.classify import CROP_SIDE

log = logging.getLogger(__name__)

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"


def build_model(classes: int = len(READER_FACES), width: int = 32) -> Any:
    """A plain CNN: five stride-2 stages of conv-BN-SiLU pairs, global average pool, linear head
    (about 0.4 M parameters, 0.05 GFLOPs at 96 px)."""
    import torch.nn as nn

    def conv(cin: int, cout: int, stride: int) -> Any:
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.SiLU())

    w = width
    return nn.Sequential(
        conv(3, w // 2, 2), conv(w // 2, w, 1),
        conv(w, w, 2), conv(w, 2 * w, 1),
        conv(2 * w, 2 * w, 2), conv(2 * w, 3 * w, 1),
        conv(3 * w, 4 * w, 2), conv(4 * w, 4 * w, 1),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.1), nn.Linear(4 * w, classes),
    )


def load_split(root: Path, split: str) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """Every crop of ``root/split/<face>/*.jpg`` as one (N, side, side, 3) BGR array, and its class ids."""
    images: list[npt.NDArray[np.uint8]] = []
    labels: list[int] = []
    folder = root / split
    if not folder.is_dir():
        raise FileNotFoundError(f"no {split} crops in {root}: make them with `referee synth --crops --out {root}`")
    paths: list[tuple[Path, int]] = []
    for face_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        face = folder_face(face_dir.name)
        if face not in READER_FACES:
            raise ValueError(f"{face_dir}: {face_dir.name!r} is not a face class ({', '.join(READER_FACES)})")
        cid = READER_FACES.index(face)
        paths.extend((path, cid) for path in sorted(face_dir.glob("*.jpg")))
    with ThreadPoolExecutor(max_workers=8) as pool:  # cv2 decodes without the GIL
        decoded = pool.map(lambda item: cv2.imread(str(item[0])), paths)
        for (path, cid), image in zip(paths, decoded, strict=True):
            if image is None or image.shape != (CROP_SIDE, CROP_SIDE, 3):
                log.warning("skipped %s: unreadable or not %d px square", path, CROP_SIDE)
                continue
            images.append(image)
            labels.append(cid)
    if not images:
        raise ValueError(f"no crops under {folder}")
    return np.stack(images), np.asarray(labels, np.int64)


#: Share of a batch read at a lower resolution (``LOW_RES_SIDES`` px) and blown up again.
LOW_RES_SHARE = 0.3
LOW_RES_SIDES = (36, 72)
#: A whole-crop colour cast: each channel's gain drawn from 1 +- this.
CAST = 0.25


#: The camera's share (``--camera``, from round 5): a crop turned off the square and scaled (a card held
#: in a hand or lying askew: ``TILT_DEGREES``, ``TILT_SCALE``), out of focus (a Gaussian blur of
#: ``BLUR_SIGMA``), with sensor noise (``NOISE_STD``, per crop), each on its share of the batch, and a
#: stronger cast (``CAMERA_CAST``: a laptop webcam's white balance moves a channel by a third).
TILT_SHARE, TILT_DEGREES, TILT_SCALE = 0.5, 15.0, (0.9, 1.1)
BLUR_SHARE, BLUR_SIGMA = 0.25, (0.6, 1.6)
NOISE_SHARE, NOISE_STD = 0.3, 0.04
CAMERA_CAST = 0.4


def augment(batch: Any, generator: Any, *, camera: bool = False) -> Any:
    """Quarter turns, a low-resolution share, a colour cast, shuffled channels (a tenth grey),
    brightness and contrast, and with ``camera`` the camera's share (above); uint8 NHWC -> float NCHW on
    the batch's device. ``generator`` is a CPU torch generator: every draw is made on the CPU and moved
    (the noise from a device generator seeded by it), so a run is the same on any device."""
    import torch
    import torch.nn.functional as F

    device = batch.device
    x = batch.permute(0, 3, 1, 2).float() / 255.0
    n = x.shape[0]

    def draw(*shape: int, low: float = 0.0, high: float = 1.0) -> Any:
        return torch.empty(*shape).uniform_(low, high, generator=generator).to(device)

    if camera:
        x = _camera(x, generator, draw)

    turns = torch.randint(0, 4, (n,), generator=generator).to(device)
    for k in range(1, 4):
        idx = (turns == k).nonzero().flatten()
        if len(idx):
            x[idx] = torch.rot90(x[idx], k, dims=(2, 3))
    low = (torch.rand(n, generator=generator) < LOW_RES_SHARE).nonzero().flatten().to(device)
    if len(low):
        side = int(torch.randint(LOW_RES_SIDES[0], LOW_RES_SIDES[1] + 1, (1,), generator=generator))
        small = F.interpolate(x[low], size=(side, side), mode="area")
        x[low] = F.interpolate(small, size=x.shape[-2:], mode="bilinear", align_corners=False)
    cast = CAMERA_CAST if camera else CAST
    x = x * draw(n, 3, 1, 1, low=1 - cast, high=1 + cast)
    perm = torch.argsort(torch.rand(n, 3, generator=generator), dim=1).to(device)
    x = torch.gather(x, 1, perm[:, :, None, None].expand_as(x))
    grey = (torch.rand(n, generator=generator) < 0.1).to(device)
    if grey.any():
        x[grey] = x[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    contrast = draw(n, 1, 1, 1, low=0.6, high=1.4)
    bright = draw(n, 1, 1, 1, low=-0.15, high=0.15)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    return ((x - mean) * contrast + mean + bright).clamp(0, 1)


def _camera(x: Any, generator: Any, draw: Any) -> Any:
    """The camera's share of :func:`augment`: tilt and scale, blur, noise (see ``TILT_SHARE``)."""
    import math

    import torch
    import torch.nn.functional as F

    n, device = x.shape[0], x.device
    tilted = (torch.rand(n, generator=generator) < TILT_SHARE).to(device)
    angle = draw(n, low=-math.radians(TILT_DEGREES), high=math.radians(TILT_DEGREES)) * tilted
    scale = torch.where(tilted, draw(n, low=TILT_SCALE[0], high=TILT_SCALE[1]), torch.ones(n, device=device))
    cos, sin = torch.cos(angle) / scale, torch.sin(angle) / scale
    zero = torch.zeros(n, device=device)
    theta = torch.stack([torch.stack([cos, -sin, zero], 1), torch.stack([sin, cos, zero], 1)], 1)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="reflection", align_corners=False)
    blurred = (torch.rand(n, generator=generator) < BLUR_SHARE).nonzero().flatten().to(device)
    if len(blurred):
        sigma = float(torch.empty(1).uniform_(*BLUR_SIGMA, generator=generator))
        taps = torch.arange(-3, 4, dtype=torch.float32, device=device)
        kernel = torch.exp(-(taps ** 2) / (2 * sigma ** 2))
        kernel = (kernel / kernel.sum()).to(x.dtype)
        part = F.pad(x[blurred], (3, 3, 3, 3), mode="replicate")
        part = F.conv2d(part, kernel.view(1, 1, 1, 7).expand(3, 1, 1, 7), groups=3)
        x[blurred] = F.conv2d(part, kernel.view(1, 1, 7, 1).expand(3, 1, 7, 1), groups=3)
    noisy = (torch.rand(n, generator=generator) < NOISE_SHARE).to(device)
    std = draw(n, 1, 1, 1, high=NOISE_STD) * noisy.view(n, 1, 1, 1)
    noise_source = torch.Generator(device=device).manual_seed(int(torch.randint(0, 2**31, (1,), generator=generator)))
    noise = torch.randn(x.shape, generator=noise_source, device=device)
    return (x + noise * std).clamp(0, 1)


def to_input(batch: Any) -> Any:
    """uint8 NHWC BGR -> float NCHW in [0, 1]: what the exported model takes."""
    return batch.permute(0, 3, 1, 2).float() / 255.0


def evaluate(model: Any, images: npt.NDArray[np.uint8], labels: npt.NDArray[np.int64], batch: int = 256,
             device: str = "cpu") -> dict[str, Any]:
    """Top-1 accuracy (as cut, and averaged over the crop and its half turn, as run time does), per class."""
    import torch

    model.eval()
    hits = hits_tta = 0
    per_class: dict[str, list[int]] = {face: [0, 0] for face in READER_FACES}
    confusions: dict[str, dict[str, int]] = {}
    with torch.no_grad():
        for start in range(0, len(images), batch):
            x = to_input(torch.from_numpy(images[start:start + batch]).to(device))
            y = torch.from_numpy(labels[start:start + batch]).to(device)
            p = model(x).softmax(1)
            p_tta = (p + model(torch.rot90(x, 2, dims=(2, 3))).softmax(1)) / 2
            hits += int((p.argmax(1) == y).sum())
            pred = p_tta.argmax(1)
            hits_tta += int((pred == y).sum())
            for t, q in zip(y.tolist(), pred.tolist(), strict=True):
                per_class[READER_FACES[t]][0] += int(t == q)
                per_class[READER_FACES[t]][1] += 1
                if t != q:
                    row = confusions.setdefault(READER_FACES[t], {})
                    row[READER_FACES[q]] = row.get(READER_FACES[q], 0) + 1
    model.train()
    return {"accuracy": round(hits / len(images), 4), "accuracy_half_turn_mean": round(hits_tta / len(images), 4),
            "per_class": {f: round(h / n, 4) for f, (h, n) in per_class.items() if n},
            "confusions": confusions}


def export_onnx(model: Any, path: Path) -> Path:
    """Export with a dynamic batch axis, the class names in the metadata (as ultralytics does). A second
    output, ``embedding``, is the pooled feature vector the head reads: what ``referee learn-deck``
    learns a deck's own cards on (:mod:`referee.vision.deck`)."""
    import onnx
    import torch

    class WithEmbedding(torch.nn.Module):  # type: ignore[misc]
        def __init__(self, net: Any) -> None:
            super().__init__()
            self.net = net

        def forward(self, x: Any) -> tuple[Any, Any]:
            features = self.net[:-2](x)  # up to the pooled, flattened features (dropout is off)
            return self.net[-1](features), features

    model.eval()
    model = WithEmbedding(model).eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, CROP_SIDE, CROP_SIDE)
    with warnings.catch_warnings():
        # The TorchScript exporter (as ultralytics uses): the torch.export one needs onnxscript, and a
        # plain CNN gains nothing from it.
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(model, (dummy,), str(path), input_names=["images"], output_names=["logits", "embedding"],
                          opset_version=17, dynamo=False,
                          dynamic_axes={"images": {0: "batch"}, "logits": {0: "batch"}, "embedding": {0: "batch"}})
    proto = onnx.load(str(path))
    names = {i: name for i, name in enumerate(READER_FACES[:model.net[-1].out_features])}
    for key, value in {"names": repr(names), "imgsz": repr([CROP_SIDE, CROP_SIDE]), "task": "classify",
                       "input": "BGR, 0-1, NCHW; a square crop around one card"}.items():
        entry = proto.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(proto, str(path))
    return path


def train(data: Path, *, epochs: int, batch: int = 128, lr: float = 3e-3, weights: Path | None = None,
          out: Path = MODELS_DIR / "classifier.onnx", seed: int = 0, threads: int = 2,
          device: str = "cpu", camera: bool = False) -> dict[str, Any]:
    """Train (from scratch, or from ``weights``: a state dict saved here; with ``camera`` the camera's
    share of augmentation too), keep the best epoch by validation accuracy, save it beside ``out`` as
    ``.pt`` and export ``out``; return a summary."""
    import torch

    torch.set_num_threads(threads)
    torch.backends.cudnn.benchmark = device.startswith("cuda")
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    started = time.time()
    x_train, y_train = load_split(data, "train")
    x_val, y_val = load_split(data, "val")
    log.info("crops: %d train, %d val (loaded in %.0f s)", len(x_train), len(x_val), time.time() - started)
    if len(x_train) < batch:
        raise ValueError(f"{len(x_train)} training crops in {data}: fewer than one batch of {batch}")
    model = build_model()
    if weights is not None:
        _load_weights(model, weights)
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    steps = epochs * (len(x_train) // batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr, total_steps=max(steps, 1),
                                                   pct_start=0.1 if weights is None else 0.02)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    images = torch.from_numpy(x_train).to(device)
    targets = torch.from_numpy(y_train).to(device)
    history: list[dict[str, Any]] = []
    best: tuple[float, dict[str, Any]] | None = None
    pt_path = out.with_suffix(".pt")
    for epoch in range(1, epochs + 1):
        loss_mean = _one_epoch(model, images, targets, batch, generator, camera, (optimizer, schedule, loss_fn))
        metrics = evaluate(model, x_val, y_val, device=device)
        row = {"epoch": epoch, "seconds": round(time.time() - started), "loss": loss_mean,
               "val_accuracy": metrics["accuracy"], "val_accuracy_half_turn_mean": metrics["accuracy_half_turn_mean"]}
        history.append(row)
        log.info("%s", json.dumps(row))
        if best is None or metrics["accuracy_half_turn_mean"] >= best[0]:
            state = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
            best = (metrics["accuracy_half_turn_mean"], state)
            pt_path.parent.mkdir(parents=True, exist_ok=True)
            torch.save(best[1], pt_path)
    assert best is not None
    model.load_state_dict(best[1])
    final = evaluate(model, x_val, y_val, device=device)
    export_onnx(model.cpu(), out)
    return {"data": str(data), "onnx": str(out), "weights": str(pt_path), "epochs": epochs, "batch": batch,
            "lr": lr, "device": device, "camera": camera, "train_crops": len(x_train), "val_crops": len(x_val),
            "seconds": round(time.time() - started), "history": history, "val": final}


def _one_epoch(model: Any, images: Any, targets: Any, batch: int, generator: Any, camera: bool,
               step_with: tuple[Any, Any, Any]) -> float:
    """One pass over ``images`` in a shuffled order, a batch at a time, augmented; the mean loss."""
    import torch

    optimizer, schedule, loss_fn = step_with
    order = torch.randperm(len(images), generator=generator)
    total = 0.0
    steps = len(images) // batch
    for step in range(steps):
        idx = order[step * batch:(step + 1) * batch].to(images.device)
        loss = loss_fn(model(augment(images[idx], generator, camera=camera)), targets[idx])
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        schedule.step()
        total += loss.item()
    return round(total / steps, 4)


def _load_weights(model: Any, weights: Path) -> None:
    """Start ``model`` from the state dict saved at ``weights``. Weights of a model that read fewer faces
    (before the fractions): the new faces' rows of the head start fresh, every other weight as trained."""
    import torch

    state = torch.load(weights, map_location="cpu", weights_only=True)
    head = model[-1]
    if state["11.weight"].shape[0] < head.out_features:
        old = state["11.weight"].shape[0]
        for key in ("11.weight", "11.bias"):
            grown = head.weight.detach().clone() if key.endswith("weight") else head.bias.detach().clone()
            grown[:old] = state[key]
            state[key] = grown
    model.load_state_dict(state)


def main(args: argparse.Namespace) -> int:
    """Entry point of ``referee train-classifier``."""
    try:
        summary = train(args.data, epochs=args.epochs, batch=args.batch, lr=args.lr, weights=args.weights,
                        out=args.out, seed=args.seed, device=args.device,
                        camera=getattr(args, "camera", False))
    except (FileNotFoundError, ValueError) as exc:
        log.error("%s", exc)
        return 2
    if args.log is not None:
        args.log.write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k not in ("history",)}))
    return 0
