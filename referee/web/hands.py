"""Hands from a photo: decode an uploaded image, run the card detector, propose each seat's cards.

At the end of a round the players lay their hands out on the table; the operator photographs one
hand and the dashboard proposes its cards. Nothing is submitted here: the operator checks (or
edits) the proposal and the dashboard posts the usual contract-2 ``reveal``.

A photo's size is read from its header before it is decoded: a few kilobytes of PNG can declare
20000 x 20000 pixels, gigabytes once decoded, so anything past :data:`MAX_PHOTO_PIXELS` or
:data:`MAX_PHOTO_SIDE` is refused (:class:`ImageTooLarge`) without decoding it. A photo under the cap
is still 150 MB once decoded, so photos are decoded (and read) :data:`DECODE_AT_ONCE` at a time in
the whole process (:func:`decoding`); the others wait their turn as compressed bytes.

The detector is loaded lazily, once per deck palette (the colour of a coloured card is read from
its pixels among the deck's colours), so the web app starts fast and a model that arrives later
is picked up without a restart.
"""

from __future__ import annotations

import io
import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from email.parser import BytesParser
from email.policy import HTTP
from pathlib import Path

import numpy as np
import numpy.typing as npt

from referee.cards import CLASSIC_COLOURS, Colour, find_deck
from referee.vision.detections import Detections, Detector

__all__ = ["DECODE_AT_ONCE", "MAX_PHOTO_PIXELS", "MAX_PHOTO_SIDE", "DetectorLoader", "DetectorUnavailable",
           "HandProposal", "HandReader", "ImageError", "ImageTooLarge", "decode_image", "decoding",
           "dedupe", "image_from_multipart", "image_size", "model_loader", "palette_for"]

log = logging.getLogger(__name__)

#: Builds a detector that reads colours among the given palette (the web app's injection point).
DetectorLoader = Callable[[tuple[Colour, ...]], Detector]


class ImageError(ValueError):
    """The upload is not an image we can read."""


class ImageTooLarge(ImageError):
    """The image declares more pixels than a hand photo needs (refused before decoding)."""


#: The most pixels a hand photo may have: a 50-megapixel phone camera's full resolution.
MAX_PHOTO_PIXELS = 50_000_000
#: The longest side a hand photo may have (pixels); a longer one is a panorama or a trap.
MAX_PHOTO_SIDE = 10_000
#: The shortest side a hand photo may have (pixels): below this no card can be read.
MIN_PHOTO_SIDE = 16
#: A photo larger than this is decoded at a half, quarter or eighth of its sides (JPEG decodes straight
#: to the smaller size): cards in a hand photo read as well at 12 megapixels, and a 50-megapixel photo
#: decoded whole held 150 MB of pixels (the server at about 480 MB), at a quarter 37 MB.
MAX_DECODED_PIXELS = 12_000_000
#: Photos decoded at once in the process: each may be 150 MB decoded (50 megapixels, 3 bytes each),
#: so six uploads at once must not mean six decoded images. Higher: more photos read in parallel on
#: more cores, for more memory.
DECODE_AT_ONCE = 1
# Memory is the process's, so the limit is too (every app in it, the hand reader and /teach alike).
_decode_slots = threading.BoundedSemaphore(DECODE_AT_ONCE)


@contextmanager
def decoding() -> Iterator[None]:
    """Hold one of the :data:`DECODE_AT_ONCE` decoding slots for the block's length (waiting for one);
    a decoded photo and everything made from it belong inside."""
    with _decode_slots:
        yield


class DetectorUnavailable(RuntimeError):
    """No detector model can be loaded (missing file, broken model, onnxruntime missing)."""


def model_loader(path: Path | str | None = None) -> DetectorLoader:
    """A loader for the shipped ONNX model (default ``models/detector.onnx``) or ``path``."""

    def load(palette: tuple[Colour, ...]) -> Detector:
        from referee.vision.detect import DetectorError, load_detector

        try:
            return load_detector(path, palette=palette)
        except DetectorError as exc:
            raise DetectorUnavailable(str(exc)) from None

    return load


def palette_for(options: object) -> tuple[Colour, ...]:
    """The colours of the deck named in a snapshot's ``options`` (classic when unknown)."""
    deck = options.get("deck") if isinstance(options, dict) else None
    if not isinstance(deck, str):
        return CLASSIC_COLOURS
    try:
        return tuple(find_deck(deck).colours) or CLASSIC_COLOURS
    except (KeyError, ValueError):
        return CLASSIC_COLOURS


def image_from_multipart(content_type: str, body: bytes) -> bytes:
    """The first file (or the field named ``image``/``file``) of a ``multipart/form-data`` body."""
    message = BytesParser(policy=HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body
    )
    if not message.is_multipart():
        raise ImageError("malformed multipart body: no boundary")
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if part.get_filename() or name in ("image", "file"):
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                return payload
    raise ImageError("the multipart body holds no file: send the photo as the field 'image'")


def image_size(data: bytes) -> tuple[int, int]:
    """``(width, height)`` as the image's header declares them, read without decoding a pixel;
    ImageError when no header can be read."""
    from PIL import Image, UnidentifiedImageError

    if not data:
        raise ImageError("empty upload: send a JPEG or PNG photo of the hand")
    try:
        with Image.open(io.BytesIO(data)) as image:  # reads the header only
            width, height = image.size
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        # Pillow's own alarm (past its MAX_IMAGE_PIXELS) comes before ours: too large either way.
        raise ImageTooLarge(_too_large(
            f"over {(Image.MAX_IMAGE_PIXELS or 0) // 1_000_000} megapixels")) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, ImportError):
        # (ImportError: once ultralytics is imported in the process, its patch of Image.open answers an
        # unreadable file by trying to import a HEIF plug-in that is not installed.)
        raise ImageError(f"cannot decode the upload ({len(data)} bytes) as an image: "
                         "send a JPEG or PNG photo") from None
    return int(width), int(height)


def _too_large(size: str) -> str:
    return (f"photo too large: {size}; at most {MAX_PHOTO_PIXELS // 1_000_000} megapixels and "
            f"{MAX_PHOTO_SIDE} pixels a side")


def check_size(width: int, height: int) -> None:
    """Refuse a photo too large to decode safely (ImageTooLarge) or too small to hold a card."""
    if width * height > MAX_PHOTO_PIXELS or max(width, height) > MAX_PHOTO_SIDE:
        raise ImageTooLarge(_too_large(f"{width}x{height} pixels"))
    if min(width, height) < MIN_PHOTO_SIDE:
        raise ImageError(f"photo too small: {width}x{height} pixels; at least {MIN_PHOTO_SIDE} "
                         "pixels a side")


def decode_image(data: bytes) -> npt.NDArray[np.uint8]:
    """A BGR image from JPEG/PNG/... bytes, decoded in memory once its header has passed
    :func:`check_size` (at a half, quarter or eighth of its sides when over :data:`MAX_DECODED_PIXELS`);
    ImageError if it is not one, ImageTooLarge if it is too large."""
    import cv2

    width, height = image_size(data)
    check_size(width, height)
    flag = cv2.IMREAD_COLOR
    for factor, reduced in ((2, cv2.IMREAD_REDUCED_COLOR_2), (4, cv2.IMREAD_REDUCED_COLOR_4),
                            (8, cv2.IMREAD_REDUCED_COLOR_8)):
        if width * height <= MAX_DECODED_PIXELS * (factor // 2) ** 2:
            break
        flag = reduced
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    except cv2.error:
        image = None
    if image is None or image.ndim != 3 or image.size == 0:
        raise ImageError(f"cannot decode the upload ({len(data)} bytes) as an image: "
                         "send a JPEG or PNG photo")
    return np.ascontiguousarray(image, dtype=np.uint8)


def dedupe(detections: Detections, *, iou: float = 0.5, inside: float = 0.85) -> Detections:
    """Keep one box per card: the detector's NMS is per class, so one card read as two classes
    leaves two boxes. A box is dropped when it overlaps a more confident one by ``iou`` or lies
    ``inside`` (share of the smaller box) within it. The rest come back left to right."""
    if len(detections) == 0:
        return detections
    boxes = detections.xyxy.astype(np.float64)
    areas = np.clip(boxes[:, 2] - boxes[:, 0], 0, None) * np.clip(boxes[:, 3] - boxes[:, 1], 0, None)
    keep: list[int] = []
    for i in np.argsort(-detections.confidence, kind="stable"):
        duplicate = False
        for j in keep:
            w = min(boxes[i, 2], boxes[j, 2]) - max(boxes[i, 0], boxes[j, 0])
            h = min(boxes[i, 3], boxes[j, 3]) - max(boxes[i, 1], boxes[j, 1])
            inter = max(w, 0.0) * max(h, 0.0)
            union = areas[i] + areas[j] - inter
            smaller = min(areas[i], areas[j])
            if (union > 0 and inter / union > iou) or (smaller > 0 and inter / smaller > inside):
                duplicate = True
                break
        if not duplicate:
            keep.append(int(i))
    kept = detections[keep]
    order = np.lexsort((kept.center[:, 1], kept.center[:, 0]))
    return kept[order.astype(np.int64)]


@dataclass(frozen=True)
class HandProposal:
    """The cards proposed for one hand: ``detections`` are the kept boxes, left to right."""

    detections: Detections
    width: int
    height: int
    backs: int  # face-down cards seen (not scored)
    duplicates: int  # boxes dropped as a second reading of a card already kept

    @property
    def cards(self) -> list[str]:
        return list(self.detections.labels)


class HandReader:
    """Reads hands from photos with a detector loaded on first use (once per palette)."""

    def __init__(self, loader: DetectorLoader) -> None:
        self._loader = loader
        self._detectors: dict[tuple[Colour, ...], Detector] = {}
        self._lock = threading.Lock()

    def detector(self, palette: Sequence[Colour]) -> Detector:
        """The detector for ``palette``; DetectorUnavailable (not cached) when it cannot load."""
        key = tuple(palette)
        with self._lock:
            found = self._detectors.get(key)
            if found is None:
                found = self._loader(key)
                log.info("hand detector loaded for %s", "/".join(c.value for c in key))
                self._detectors[key] = found
            return found

    def read(self, data: bytes, palette: Sequence[Colour]) -> HandProposal:
        """Decode ``data`` and propose the hand's cards (faces only, one per card); the decoded photo
        lives in one of the process's :func:`decoding` slots."""
        detector = self.detector(palette)
        with decoding():
            image = decode_image(data)
            found = detector.detect(image)
            height, width = image.shape[:2]
            del image
        if len(found) and not found.labels:
            raise DetectorUnavailable("the detector gives no card labels (contract 1)")
        is_face = np.array([label != "back" for label in found.labels], dtype=np.bool_)
        faces = found[is_face]
        kept = dedupe(faces)
        return HandProposal(kept, int(width), int(height), backs=int((~is_face).sum()),
                            duplicates=len(faces) - len(kept))
