"""The card detector: one interface, two backends.

- :class:`OnnxDetector` (default): onnxruntime on the exported model; no torch at run time.
- :class:`UltralyticsDetector`: ultralytics on a ``.pt`` (training checks, GPUs).

Both return :class:`~referee.vision.detections.Detections` in the input image's pixels, with
contract-1 labels: the model's face class plus the colour read from the card's pixels
(:mod:`referee.vision.colour`). Letterbox, decode and NMS follow ultralytics exactly, and a test
checks the two backends agree on the same frames.
"""

from __future__ import annotations

import ast
import logging
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import BLACK_VALUES, CLASSIC_COLOURS, Colour
from referee.vision.colour import ColourReader, read_colour
from referee.vision.detections import Detections, RawDetector, iou
from referee.vision.tiles import SIZE_HINT, find_on_tiles, tiling_for

log = logging.getLogger(__name__)

MODELS_DIR = Path(__file__).resolve().parent.parent.parent / "models"
DEFAULT_MODEL = MODELS_DIR / "detector.onnx"
#: Detections at least this sure of their box teach a :class:`DeckColours` its printing.
LEARN_CONFIDENCE = 0.6

Image = npt.NDArray[np.uint8]


class DetectorError(RuntimeError):
    """The model cannot be loaded or run."""


def letterbox(image: Image, size: int, stride: int | None = None) -> tuple[Image, float, tuple[float, float]]:
    """Resize keeping aspect ratio and pad to ``size`` x ``size`` with grey 114, as ultralytics does;
    with ``stride``, pad only up to the next multiple of it on each side (ultralytics' ``predict``: a
    1280x720 frame goes in at 320x192, not 320x320, and the model spends no time on the bars).

    Returns the padded image, the scale and the (left, top) padding.
    """
    h, w = image.shape[:2]
    r = min(size / h, size / w)
    new_w, new_h = round(w * r), round(h * r)
    if stride:
        dw, dh = ((size - new_w) % stride) / 2, ((size - new_h) % stride) / 2
    else:
        dw, dh = (size - new_w) / 2, (size - new_h) / 2
    if (w, h) != (new_w, new_h):
        image = cv2.resize(image, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
    top, bottom = round(dh - 0.1), round(dh + 0.1)
    left, right = round(dw - 0.1), round(dw + 0.1)
    padded = cv2.copyMakeBorder(image, top, bottom, left, right, cv2.BORDER_CONSTANT, value=(114, 114, 114))
    return padded, r, (float(left), float(top))


def nms(boxes: npt.NDArray[np.float32], scores: npt.NDArray[np.float32], iou: float) -> npt.NDArray[np.int64]:
    """Greedy non-maximum suppression; indices of kept boxes, best first."""
    order = scores.argsort()[::-1]
    x1, y1, x2, y2 = boxes.T
    areas = (x2 - x1) * (y2 - y1)
    keep: list[int] = []
    while order.size:
        i = int(order[0])
        keep.append(i)
        rest = order[1:]
        xx1 = np.maximum(x1[i], x1[rest])
        yy1 = np.maximum(y1[i], y1[rest])
        xx2 = np.minimum(x2[i], x2[rest])
        yy2 = np.minimum(y2[i], y2[rest])
        inter = np.clip(xx2 - xx1, 0, None) * np.clip(yy2 - yy1, 0, None)
        overlap = inter / (areas[i] + areas[rest] - inter + 1e-9)
        order = rest[overlap <= iou]
    return np.asarray(keep, np.int64)


def decode(
    output: npt.NDArray[np.float32],
    *,
    conf: float,
    iou: float,
    max_det: int = 300,
    agnostic: bool = False,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """YOLOv8/11 head output ``(4 + classes, anchors)`` -> xyxy, confidence, class id (model pixels)."""
    scores = output[4:].T
    boxes, confidence, class_id, _ = _kept(output, scores.max(axis=1), conf=conf, iou=iou, max_det=max_det,
                                           agnostic=agnostic)
    return boxes, confidence, class_id


def decode_cards(
    output: npt.NDArray[np.float32],
    *,
    conf: float,
    iou: float,
    max_det: int = 300,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """:func:`decode`, finding cards by how sure the model is that *some* face is there: the boxes whose
    card-ness (1 - prod(1 - p) over the faces' scores: the chance at least one face fires) passes ``conf``,
    each with its surest face's own score as its ``confidence`` and its card-ness (the fourth array).

    A printing the model never learned is found but not read: it spreads its scores over a few faces (a
    6 at 0.15, a 9 at 0.12, an 8 at 0.1), so the surest face stays under the bar while the card-ness
    passes it. On the whole-table views of four held-out printings (``benchmarks/printings_eval.py``)
    the surest face passes 0.35 for 261 of 480 cards, the card-ness for 426, with no box off a card
    either way. Boxes are kept as :func:`decode` keeps them (class-aware NMS ranked by the face's
    score), so the boxes whose face passes ``conf`` are exactly :func:`decode`'s."""
    found = 1.0 - np.prod(1.0 - np.clip(output[4:].T, 0.0, 1.0), axis=1)
    return _kept(output, found, conf=conf, iou=iou, max_det=max_det)


def _kept(
    output: npt.NDArray[np.float32], score: npt.NDArray[np.float32], *, conf: float, iou: float, max_det: int,
    agnostic: bool = False,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """The anchors whose ``score`` passes ``conf``, after NMS ranked by their surest face's score:
    xyxy, that score, its class id, and their ``score``."""
    pred = output.T  # (anchors, 4 + nc)
    mask = score > conf
    pred, score = pred[mask], score[mask]
    if not len(pred):
        return (np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64),
                np.zeros(0, np.float32))
    scores = pred[:, 4:]
    class_id = scores.argmax(axis=1)
    confidence = scores[np.arange(len(pred)), class_id]
    cx, cy, w, h = pred[:, 0], pred[:, 1], pred[:, 2], pred[:, 3]
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1).astype(np.float32)
    # Class-aware NMS by offsetting each class into its own region, like ultralytics.
    offset = 0.0 if agnostic else 7680.0
    keep = nms(boxes + class_id[:, None].astype(np.float32) * offset, confidence, iou)[:max_det]
    return (boxes[keep], confidence[keep].astype(np.float32), class_id[keep].astype(np.int64),
            score[keep].astype(np.float32))


def label_detections(
    image: Image,
    xyxy: npt.NDArray[np.float32],
    confidence: npt.NDArray[np.float32],
    class_id: npt.NDArray[np.int64],
    face_names: Sequence[str],
    palette: Sequence[Colour],
    deck: ColourReader | None = None,
    found: npt.NDArray[np.float32] | None = None,
) -> Detections:
    """Attach contract-1 labels: the face, with the colour read from pixels for coloured faces
    (against ``deck``'s learned printing when given; boxes the model is sure of teach it). ``found``:
    each box's card-ness (:func:`decode_cards`), where the detector gives it."""
    labels: list[str] = []
    colour_conf = np.ones(len(xyxy), np.float32)
    for i, (box, cid) in enumerate(zip(xyxy, class_id, strict=True)):
        face = face_names[int(cid)]
        if face in BLACK_VALUES or face == "back" or "_" in face:
            labels.append(face)  # black card, the back, or a model that already names colours
            continue
        if deck is not None:
            colour, share = deck.read(image, box, learn=float(confidence[i]) >= LEARN_CONFIDENCE)
        else:
            colour, share = read_colour(image, box, palette)
        labels.append(f"{colour.value}_{face}")
        colour_conf[i] = share
    return Detections(xyxy, confidence, class_id, tuple(labels), colour_conf,
                      np.zeros(0, np.float32) if found is None else found)


def _scale_back(
    boxes: npt.NDArray[np.float32], r: float, pad: tuple[float, float], shape: tuple[int, ...]
) -> npt.NDArray[np.float32]:
    out = boxes.copy()
    out[:, [0, 2]] = (out[:, [0, 2]] - pad[0]) / r
    out[:, [1, 3]] = (out[:, [1, 3]] - pad[1]) / r
    out[:, [0, 2]] = out[:, [0, 2]].clip(0, shape[1])
    out[:, [1, 3]] = out[:, [1, 3]].clip(0, shape[0])
    return out


def onnx_session(path: Path, threads: int | None, what: str, how: str) -> Any:
    """An onnxruntime CPU session on ``path``; a missing or unloadable file is a :class:`DetectorError`
    naming ``what`` it should have been and ``how`` to make one."""
    import onnxruntime as ort

    if not Path(path).is_file():
        raise DetectorError(f"no {what} model at {path}: train one with {how}")
    options = ort.SessionOptions()
    if threads:
        options.intra_op_num_threads = threads
    # Its worker threads sleep between runs rather than spin: a spinning worker holds a core the capture's
    # decoding, the clip writer and the frame loop's own work need (on 2 cores, under load, a run cost
    # 13-17 ms of CPU spinning against 6-8 ms not, and took longer: ``referee bench``).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise DetectorError(f"cannot load {what} model {path}: {exc}") from exc


#: Card-ness (:func:`decode_cards`) down to which the pipeline finds cards. A printing the detector never
#: learned, or a card some 20 px tall at its input, spreads its scores thin: on the whole-table views of
#: four held-out printings (``benchmarks/printings_eval.py``, cards 16-30 px tall at 320 px) card-ness
#: finds 85 % of cards at 0.35, 93 % at 0.15, 95 % at 0.1. Each box found but not read costs a closer look
#: once it holds still, and is believed only if that look is sure (the tracker's ``found_confidence``).
FIND_CONFIDENCE = 0.15


class OnnxDetector:
    """onnxruntime backend for an ultralytics YOLO detection model exported to ONNX."""

    def __init__(
        self,
        path: Path = DEFAULT_MODEL,
        *,
        imgsz: int | None = None,
        conf: float = 0.25,
        iou: float = 0.7,
        palette: Sequence[Colour] = CLASSIC_COLOURS,
        threads: int | None = None,
    ) -> None:
        self.session = onnx_session(path, threads, "detector", "`referee train` or restore models/")
        meta = self.session.get_modelmeta().custom_metadata_map
        names = ast.literal_eval(meta["names"]) if "names" in meta else {}
        self._face_names = tuple(names[i] for i in sorted(names))
        model_size = ast.literal_eval(meta.get("imgsz", "[320, 320]"))
        self.imgsz = int(imgsz or model_size[0])
        self.input_name = self.session.get_inputs()[0].name
        fixed = self.session.get_inputs()[0].shape[2:]
        if all(isinstance(v, int) for v in fixed) and imgsz is not None and [imgsz, imgsz] != list(fixed):
            raise DetectorError(f"{path} takes {fixed[0]} px input only (exported at that size), not {imgsz}: "
                                f"leave out --imgsz or export the model at {imgsz}")
        #: The model's stride where it takes any input size (exported ``dynamic``); ``None``: one size only.
        any_size = not all(isinstance(v, int) for v in fixed)
        self.stride = int(ast.literal_eval(meta.get("stride", "32"))) if any_size else None
        #: Look at a whole view letterboxed only to the stride (where the model takes any size), as ultralytics'
        #: predict does: a 16:9 camera view costs the model 60 % of a square one. The pipeline turns it on for
        #: its frames; photos (``referee eval``, hands, teaching) and closer looks and tiles stay square, as
        #: their figures were measured.
        self.rect = False
        self.conf = conf
        self.iou = iou
        self.palette = tuple(palette)
        self.path = Path(path)
        #: Set to read colours against the deck's own printing, learned frame by frame (a camera on
        #: one deck: the pipeline does); ``None`` reads each image afresh (unrelated photos).
        self.deck: ColourReader | None = None
        #: Find cards too small at the model's input again on tiles of the image (``False``: the whole
        #: view only, as before tiles; ``referee eval --no-tiles`` compares the two).
        self.tiles = True

    @property
    def face_names(self) -> tuple[str, ...]:
        return self._face_names

    def preprocess(self, image: Image, *, rect: bool = False
                   ) -> tuple[npt.NDArray[np.float32], float, tuple[float, float]]:
        """The model's input for ``image``: letterboxed square, or (``rect``, where the model takes any size)
        only to the stride."""
        padded, r, pad = letterbox(image, self.imgsz, self.stride if rect else None)
        blob = cv2.dnn.blobFromImage(padded, 1 / 255.0, swapRB=True)
        return blob, r, pad

    def raw(self, image: Image) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.int64]]:
        """Boxes (image pixels), confidences and face class ids, before colour reading."""
        if image is None or image.ndim != 3 or image.shape[2] != 3 or image.size == 0:
            raise ValueError(f"expected a BGR image (H, W, 3), got {None if image is None else image.shape}")
        blob, r, pad = self.preprocess(image)
        (output,) = self.session.run(None, {self.input_name: blob})
        boxes, confidence, class_id = decode(output[0], conf=self.conf, iou=self.iou)
        return _scale_back(boxes, r, pad, image.shape), confidence, class_id

    def detect(self, image: Image) -> Detections:
        """The cards in ``image`` as the pipeline finds them: by card-ness down to :data:`FIND_CONFIDENCE`
        (``conf`` where lower), each labelled with its surest face. Those whose face passes the tracker's
        bar are read; the others are cards found, not read, for a closer look to name
        (:func:`~referee.vision.tracking.frame.readable`)."""
        return self.find_cards(image, min(self.conf, FIND_CONFIDENCE))

    def find_cards(self, image: Image, conf: float | None = None) -> Detections:
        """The cards in ``image`` found by card-ness (:func:`decode_cards`) above ``conf`` (default: the
        detector's ``conf``), labelled, each with its ``found``: a deck the model cannot read is still found
        (``learn-deck``'s photos). Cards too small at the model's input are found again on tiles of the image
        (:func:`~referee.vision.tiles.find_on_tiles`)."""
        if image is None or image.ndim != 3 or image.shape[2] != 3 or image.size == 0:
            raise ValueError(f"expected a BGR image (H, W, 3), got {None if image is None else image.shape}")
        bar = self.conf if conf is None else conf
        output, r, pad = self._look(image, rect=self.rect)
        whole = self._decoded(output, r, pad, image.shape, bar)
        tiling = None
        if self.tiles:
            # The boxes that size the cards go down to SIZE_HINT: the same decode when the bar is that low already.
            hints = whole if bar <= SIZE_HINT else self._decoded(output, r, pad, image.shape, SIZE_HINT)
            tiling = tiling_for(hints, image.shape, self.imgsz)
        if tiling is not None:
            whole = find_on_tiles(image, whole, tiling, lambda tile: self._decoded(*self._look(tile), tile.shape, bar))
        return label_detections(image, whole.xyxy, whole.confidence, whole.class_id, self._face_names,
                                self.palette, self.deck, whole.found)

    def _look(self, image: Image, *, rect: bool = False) -> tuple[npt.NDArray[np.float32], float, tuple[float, float]]:
        """The model's raw output for ``image`` shrunk to its input, with the letterbox's scale and padding
        (``rect``: padded only to the stride, where the model takes any size)."""
        blob, r, pad = self.preprocess(image, rect=rect)
        (output,) = self.session.run(None, {self.input_name: blob})
        return output[0], r, pad

    def _decoded(self, output: npt.NDArray[np.float32], r: float, pad: tuple[float, float],
                 shape: tuple[int, ...], conf: float) -> Detections:
        """The unlabelled boxes of ``output`` whose card-ness passes ``conf``, in the looked-at image's pixels."""
        boxes, confidence, class_id, found = decode_cards(output, conf=conf, iou=self.iou)
        return Detections(_scale_back(boxes, r, pad, shape), confidence, class_id, found=found)


class UltralyticsDetector:
    """ultralytics backend (``.pt`` weights; CPU or GPU). Needs ``pip install -e .[train]``."""

    def __init__(
        self,
        path: Path,
        *,
        imgsz: int | None = None,
        conf: float = 0.25,
        iou: float = 0.7,
        palette: Sequence[Colour] = CLASSIC_COLOURS,
        device: str | None = None,
    ) -> None:
        from referee import yolo_env

        yolo_env.prepare()
        from ultralytics import YOLO

        self.model = YOLO(str(path))
        names = self.model.names
        self._face_names = tuple(names[i] for i in sorted(names))
        self.imgsz = int(imgsz or self.model.overrides.get("imgsz", 320) or 320)
        self.conf = conf
        self.iou = iou
        self.palette = tuple(palette)
        self.device = device
        self.path = Path(path)
        #: Set to read colours against the deck's own printing, learned frame by frame (a camera on
        #: one deck: the pipeline does); ``None`` reads each image afresh (unrelated photos).
        self.deck: ColourReader | None = None

    @property
    def face_names(self) -> tuple[str, ...]:
        return self._face_names

    def raw(self, image: Image) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.int64]]:
        result = self.model.predict(
            image, imgsz=self.imgsz, conf=self.conf, iou=self.iou, device=self.device, verbose=False
        )[0]
        boxes = result.boxes
        return (
            boxes.xyxy.cpu().numpy().astype(np.float32),
            boxes.conf.cpu().numpy().astype(np.float32),
            boxes.cls.cpu().numpy().astype(np.int64),
        )

    def detect(self, image: Image) -> Detections:
        boxes, confidence, class_id = self.raw(image)
        return label_detections(image, boxes, confidence, class_id, self._face_names, self.palette, self.deck)

    def find_cards(self, image: Image) -> Detections:
        """:meth:`detect` (ultralytics gives no per-face scores to find cards by card-ness)."""
        return self.detect(image)


#: How sure of another face than the pile view's the detector's closer look (:func:`look_closer`) must
#: be, read alone, for its face to be taken (the tracker's :class:`~referee.vision.tracking.SecondLook`
#: bar). Higher: fewer misreads put right; lower: more right faces replaced. With the face classifier
#: beside it the pipeline uses :data:`referee.vision.classify.SECOND_LOOK_CONFIDENCE` (two readers
#: averaged).
DETECTOR_LOOK_CONFIDENCE = 0.85


def card_colour(detector: OnnxDetector | UltralyticsDetector, image: Image,
                box: Sequence[float] | npt.NDArray[np.float32]) -> tuple[str, float]:
    """The colour of the card at ``box`` as a label spells it (``red``), read as :func:`label_detections`
    reads it (against the deck's learned printing when the detector has one; nothing learned from it),
    and the share of the card's coloured pixels that voted for it."""
    if detector.deck is not None:
        colour, share = detector.deck.read(image, box, learn=False)
    else:
        colour, share = read_colour(image, box, detector.palette)
    return colour.value, share


def look_closer(
    detector: RawDetector,
    image: Image,
    box: Sequence[float] | npt.NDArray[np.float32],
    *,
    pad: float = 0.3,
    min_iou: float = 0.5,
) -> list[tuple[str, float]]:
    """The faces read for the card at ``box`` in a crop around it (``pad`` of its size on each side),
    which the detector's letterbox enlarges: read as it lies and turned half a turn, each face scored
    by the lower of its two confidences (a face one of the reads misses scores 0). Surest first, faces
    scoring 0 left out (``[]``: nothing read there in both).

    A card read small, on a pile seen whole, can read better two times bigger, the size of the close-ups
    the model also learned from: a digit's telling strokes (a 3's open mouths, an 8's closed loops) are
    a pixel or two wide in the pile view. One read alone can be wrong where the other is right (a 1
    read as a 7 as it lies, as a 1 turned), so both must agree.
    """
    x1, y1, x2, y2 = (float(v) for v in box)
    w, h = x2 - x1, y2 - y1
    height, width = image.shape[:2]
    left, top = max(0, int(x1 - pad * w)), max(0, int(y1 - pad * h))
    right, bottom = min(width, math.ceil(x2 + pad * w)), min(height, math.ceil(y2 + pad * h))
    if w <= 1 or h <= 1 or right - left < 8 or bottom - top < 8:
        return []
    crop = np.ascontiguousarray(image[top:bottom, left:right])
    target = np.array([x1 - left, y1 - top, x2 - left, y2 - top], np.float32)
    cw, ch = right - left, bottom - top
    turned_target = np.array([cw - target[2], ch - target[3], cw - target[0], ch - target[1]], np.float32)
    reads = [_faces_at(detector, crop, target, min_iou),
             _faces_at(detector, np.ascontiguousarray(cv2.rotate(crop, cv2.ROTATE_180)), turned_target, min_iou)]
    scores = {face: min(read.get(face, 0.0) for read in reads) for face in reads[0]}
    return sorted(((face, score) for face, score in scores.items() if score > 0), key=lambda kv: -kv[1])


def _faces_at(
    detector: RawDetector, image: Image, target: npt.NDArray[np.float32], min_iou: float
) -> dict[str, float]:
    """Each face read in a box overlapping ``target``, with its best confidence."""
    boxes, confidence, class_id = detector.raw(image)
    faces: dict[str, float] = {}
    for b, conf, cid in zip(boxes, confidence, class_id, strict=True):
        if iou(b, target) >= min_iou:
            face = detector.face_names[int(cid)]
            faces[face] = max(faces.get(face, 0.0), float(conf))
    return faces


def load_detector(
    path: Path | str | None = None,
    *,
    imgsz: int | None = None,
    conf: float = 0.25,
    palette: Sequence[Colour] = CLASSIC_COLOURS,
    threads: int | None = None,
) -> OnnxDetector | UltralyticsDetector:
    """The detector for ``path`` (default ``models/detector.onnx``): ONNX or ultralytics by suffix;
    ``threads`` caps onnxruntime's intra-op threads (``None``: its default, every core).

    Anything that stops the model from loading (no file, a corrupt file, a backend package that is not
    installed) is a :class:`DetectorError`, so callers handle one exception.
    """
    model_path = Path(path) if path is not None else DEFAULT_MODEL
    try:
        if model_path.suffix == ".pt":
            return UltralyticsDetector(model_path, imgsz=imgsz, conf=conf, palette=palette)
        return OnnxDetector(model_path, imgsz=imgsz, conf=conf, palette=palette, threads=threads)
    except ImportError as exc:
        raise DetectorError(f"the detector backend for {model_path} is not installed: {exc}") from None
    except OSError as exc:
        raise DetectorError(f"cannot read detector model {model_path}: {exc}") from None
