"""A learned deck: the reader taught one physical deck from a few photos of its cards (``referee learn-deck``).

Printings differ (a filled white oval or a thin ring, coloured or white numerals, a lime or a grass
green), and the generic reader, trained only on generated faces, reads an unfamiliar one less surely.
A user who photographs each card once can teach it their own deck:

- **Faces.** Each photo is kept as many views (:func:`views`: turned any way, shifted, small as a
  camera sees a card on the table, under warm and cool light, blurred and compressed), each as the face
  classifier's ``embedding``; a card is read as the face of its nearest views
  (:class:`referee.vision.matcher.DeckMatcher`). Nothing of the network changes, so it needs no torch,
  and the deck's own look decides: no generic head is averaged back in (it brings the generic
  confusions back: a thin-ring printing's 3 read as 8). Faces the deck was not shown keep the generic
  reading (:meth:`FaceClassifier.probabilities`).
- **Colours.** Each colour of the deck is remembered as the mean CIELAB chroma (a*, b*) of its cards'
  saturated pixels, after the same grey-world white balance the reading uses. A card's colour is the
  palette colour nearest its own chroma (:class:`DeckPalette`): a lime green and a lemon yellow are far
  apart in a*, however close their hues. The palette is kept only where the stock colour reading
  misreads the deck's own photos: on real table photos under mixed light, one photo per label made a
  palette that read a dim yellow as green, where the stock reading (white-balanced on every card in
  view) read every colour right.

A deck is a folder: ``deck.json`` (labels learned, photos per label, the palette, the classifier it was
learned on) and ``views.npz`` (the views' embeddings and faces, a few megabytes). ``--deck DECK`` on
``run``, ``demo``, ``serve``, ``eval`` and ``bench`` applies it (:func:`load_deck`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import BLACK_VALUES, Card, CardError, Colour, folder_label
from referee.vision.card_shape import photo_subject
from referee.vision.card_white import card_light
from referee.vision.classify import FaceClassifier, square_crop
from referee.vision.colour import fair_votes, read_colour
from referee.vision.matcher import DeckMatcher, unit_rows
from referee.vision.mirror import camera_mirrored, mirror_boxes, mirror_evidence, mirror_image, read_mirrored

log = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]
Bools = npt.NDArray[np.bool_]

DECK_FILE = "deck.json"
VIEWS_FILE = "views.npz"
#: The deck folder's format: 2 keeps views (1, a refitted head, is no longer read).
FORMAT = 2
#: How long a card's longer side is in the views learned from, in pixels: from a whole table seen by a
#: webcam (about 40) to a close-up (220), drawn on a log scale.
SHOWN_PX = (40.0, 220.0)
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


class DeckError(ValueError):
    """A deck folder or a photo folder that cannot be used; the message says why, in one line."""


# --- colour ----------------------------------------------------------------------------------------


def card_chroma(image: Image, xyxy: Sequence[float] | Floats) -> tuple[Floats, Floats, Bools] | None:
    """The CIELAB (a*, b*) of the saturated, well-lit pixels surely on the card at box ``xyxy``, their weights
    and which were clipped (``None``: too small or nothing coloured), balanced on the card's own whites first,
    as the stock reading does (:func:`referee.vision.card_white.card_light`): warm light or a webcam's cast moves
    little."""
    found = card_light(image, xyxy)
    if found is None:
        return None
    pixels = found.pixels.astype(np.float32)
    hsv = cv2.cvtColor(found.pixels.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    keep = (hsv[:, 1] >= 80) & (hsv[:, 2] >= 50)
    if keep.sum() < 10:
        return None
    lab = cv2.cvtColor(pixels[keep].astype(np.uint8)[None], cv2.COLOR_BGR2LAB)[0].astype(np.float32)
    ab = lab[:, 1:] - 128.0
    weight = np.hypot(ab[:, 0], ab[:, 1]).astype(np.float32)
    return ab.astype(np.float32), weight, found.clipped[keep]


class DeckPalette:
    """Reads a card's colour against one deck's own printing of each colour (CIELAB chroma).

    The same interface as :class:`referee.vision.colour.DeckColours` (the detector calls
    ``read(image, box, learn=...)``); it learns nothing at run time: the photos taught it.
    """

    def __init__(self, centres: dict[Colour, tuple[float, float]]) -> None:
        if not centres:
            raise DeckError("a deck palette needs at least one colour")
        self.palette = tuple(centres)
        self._centres = np.array([centres[c] for c in self.palette], np.float32)

    def read(self, image: Image, xyxy: Sequence[float] | Floats, *, learn: bool = True) -> tuple[Colour, float]:
        """The palette colour of the card in box ``xyxy`` and the share of its pixels' votes it won."""
        del learn  # a deck's palette is fixed by its photos
        pixels = card_chroma(image, xyxy)
        if pixels is None:
            return self.palette[0], 0.0
        ab, weight, clipped = pixels
        distance = np.linalg.norm(ab[:, None, :] - self._centres[None], axis=2)
        # A clipped pixel's chroma is bent as its hue is: it votes only where clearly one colour's.
        fair = fair_votes(distance.T, clipped)
        ab, weight, distance = ab[fair], weight[fair], distance[fair]
        nearest = distance.argmin(axis=1)
        # Pixels far from every colour (a hand, the table at the box's edge) count little.
        weight = weight * np.exp(-((distance.min(axis=1) / 25.0) ** 2))
        votes = np.bincount(nearest, weights=weight, minlength=len(self.palette))
        total = float(votes.sum())
        if total <= 0:
            return self.palette[0], 0.0
        best = int(votes.argmax())
        return self.palette[best], float(votes[best] / total)


# --- faces -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deck:
    """A learned deck (see the module's docstring)."""

    path: Path
    labels: tuple[str, ...]  # the contract-1 labels it was taught
    matcher: DeckMatcher  # its views
    palette: DeckPalette | None
    summary: dict[str, Any]

    def apply(self, classifier: FaceClassifier) -> FaceClassifier:
        """``classifier`` reading with this deck's views (it must be the model the deck was learned on)."""
        learned_on = self.summary.get("classifier_id")
        if not classifier.has_embedding or (learned_on and classifier_id(classifier.path) != learned_on):
            raise DeckError(f"{self.path} was learned on another face classifier ({self.summary.get('classifier')}); "
                            "learn it again with `referee learn-deck`")
        classifier.deck = self.matcher
        return classifier


def classifier_id(path: Path) -> str:
    """A short fingerprint of a model file: a deck is only valid for the classifier it was learned on."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def load_deck(path: Path | str) -> Deck:
    """The deck in folder ``path`` (:class:`DeckError` with one line when it is not one)."""
    folder = Path(path)
    try:
        meta = json.loads((folder / DECK_FILE).read_text())
        if not isinstance(meta, dict):
            raise ValueError("deck.json is not an object")
        if meta.get("format") != FORMAT:
            raise DeckError(f"{folder} was learned by an older referee: learn it again with `referee learn-deck`")
        with np.load(folder / VIEWS_FILE) as views_file:
            embeddings = views_file["embeddings"].astype(np.float32)
            view_face = views_file["face"].astype(np.int64)
        matcher = DeckMatcher(tuple(str(f) for f in meta["faces"]), view_face, unit_rows(embeddings))
        labels = tuple(str(x) for x in meta["labels"])
        centres = {Colour(c): (float(v[0]), float(v[1])) for c, v in meta.get("palette", {}).items()}
    except FileNotFoundError as exc:
        raise DeckError(f"{folder} is not a learned deck (no {Path(str(exc.filename)).name}): "
                        "make one with `referee learn-deck PHOTOS --out DECK`") from None
    except DeckError:
        raise
    except (OSError, ValueError, KeyError, TypeError, json.JSONDecodeError) as exc:
        raise DeckError(f"{folder}: not a readable deck ({exc.__class__.__name__}: {exc})") from None
    return Deck(folder, labels, matcher, DeckPalette(centres) if centres else None, meta)


# --- learning ----------------------------------------------------------------------------------------


def photo_folders(root: Path) -> dict[str, list[Path]]:
    """``root``'s class-named folders (contract-1 labels) and their photos, sorted by name."""
    if not root.is_dir():
        raise DeckError(f"no such folder of photos: {root}")
    out: dict[str, list[Path]] = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        try:
            card = Card.from_label(folder_label(folder.name))
        except CardError:
            raise DeckError(f"{root}: folder {folder.name!r} is not a card label (contract 1; red_1of2 for red_1/2)"
                            ) from None
        photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if photos:
            out[card.label] = photos
    if not out:
        raise DeckError(f"{root}: no class-named folders with photos (e.g. {root}/red_7/photo.jpg)")
    return out


def palette_of(folders: dict[str, list[Path]]) -> tuple[Colour, ...]:
    """The colours a deck's labels name (its palette, as the stock colour reading takes it)."""
    colours = {Card.from_label(label).colour for label in folders}
    return tuple(sorted((c for c in colours if c is not None), key=lambda c: c.value))


def card_box(boxes: Floats, confidence: Floats, shape: tuple[int, ...]) -> Floats | None:
    """Of the cards found in a photo, the one to learn: sure and near the centre (others may show at
    the edges). ``None`` when nothing was found."""
    best = photo_subject(boxes, confidence, shape)
    if best is None:
        return None
    box: Floats = np.asarray(boxes[best], np.float32)
    return box


def photo_card(image: Image, detector: Any) -> Floats | None:
    """The box of the card a photo shows (:func:`card_box` among the cards ``detector`` finds, by how sure
    it is that a card lies there, whatever its face: a deck it never learned is found, not read; backs
    left out); ``None`` when it finds none."""
    found = detector.find_cards(image)
    keep = np.array([label != "back" for label in found.labels], bool)
    return card_box(found.xyxy[keep], found.cardness[keep], image.shape)


def mirrored_photos(paths: Sequence[Path], detector: Any, classifier: FaceClassifier) -> set[Path]:
    """The photos to read flipped back: one camera took them, mirroring all or none
    (:func:`referee.vision.mirror.camera_mirrored` over their cards; one photo the other way only where it alone
    says so surely)."""
    evidence: dict[Path, float] = {}
    for path in paths:
        image = cv2.imread(str(path))
        box = photo_card(image, detector) if image is not None else None
        if image is not None and box is not None:
            evidence[path] = mirror_evidence(classifier, image, box[None])
    camera = camera_mirrored(list(evidence.values()))
    if camera:
        log.info("the photos look mirrored (a selfie view): their cards are learned flipped back")
    return {path for path, e in evidence.items() if read_mirrored(e, camera)}


def views(image: Image, box: Floats, rng: np.random.Generator, count: int, side: int) -> list[Image]:
    """``count`` crops of the card at ``box`` as the pipeline may see it: turned any way, its box a few
    pixels off, as small as a card on a table seen by a webcam, under warmer or cooler light, blurred,
    noisy and JPEG-compressed."""
    x1, y1, x2, y2 = (float(v) for v in box)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    bw, bh = x2 - x1, y2 - y1
    out: list[Image] = []
    for _ in range(count):
        angle = float(rng.uniform(0, 360))
        shown = float(math.exp(rng.uniform(math.log(SHOWN_PX[0]), math.log(SHOWN_PX[1]))))
        scale = shown / max(bw, bh)
        matrix = cv2.getRotationMatrix2D((cx, cy), angle, scale)
        matrix[:, 2] += np.array([side * 2 - cx, side * 2 - cy])
        canvas = cv2.warpAffine(image, matrix, (side * 4, side * 4), flags=cv2.INTER_AREA if scale < 1 else
                                cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT101)
        corners = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]], np.float64) @ matrix.T
        turned = np.array([*corners.min(axis=0), *corners.max(axis=0)], np.float32)
        pad = float(rng.uniform(0.05, 0.3))
        shift = (float(rng.normal(0, 0.03)), float(rng.normal(0, 0.03)))
        crop = square_crop(canvas, turned, pad=pad, shift=shift, side=side)
        if crop is None:
            continue
        out.append(_light(crop, rng))
    return out


def _light(crop: Image, rng: np.random.Generator) -> Image:
    """Warm or cool light, brightness and contrast, blur, noise, JPEG."""
    img = crop.astype(np.float32)
    warm = rng.normal(0, 0.12)
    img *= np.array([1 - warm, 1.0, 1 + warm], np.float32) * rng.uniform(0.7, 1.25)
    contrast = rng.uniform(0.75, 1.2)
    img = (img - 128) * contrast + 128
    if rng.random() < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.2))
    img += rng.normal(0, rng.uniform(0, 6), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 96))])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
    return decoded if decoded is not None else out


def learn_deck(photos: Path, out: Path, detector: Any, classifier: FaceClassifier, *, views_per_label: int = 160,
               seed: int = 0, progress: Callable[[Iterable[Any]], Iterable[Any]] | None = None) -> dict[str, Any]:
    """Teach ``classifier`` the deck photographed in ``photos`` (class-named folders) and write the deck
    folder ``out``; returns its summary. ``detector`` finds the card in each photo (its ``raw``)."""
    started = time.perf_counter()
    folders = photo_folders(photos)
    if not classifier.has_embedding:
        raise DeckError(f"{classifier.path} has no embedding output: export it again with `referee train-classifier`")
    shown = _Shown()
    items = list(folders.items())
    colours = palette_of(folders)
    rng = np.random.default_rng(seed)
    mirrored = mirrored_photos([p for _, paths in items for p in paths], detector, classifier)
    for label, paths in (progress(items) if progress else items):
        shown.add_label(label, paths, mirrored, detector, classifier, colours, rng, views_per_label)
    for line in shown.skipped:
        log.warning("skipped %s", line)
    if not shown.crops:
        raise DeckError(f"{photos}: no card found in any photo")
    embeddings, generic_right = _embed(classifier, shown.crops, shown.targets)
    faces = [classifier.face_names[t] for t in shown.targets]
    matcher = DeckMatcher.enrol(faces, embeddings)
    misread = sum(read is not colour for colour, read in shown.stock_reads)
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / VIEWS_FILE, embeddings=matcher.view_embeddings.astype(np.float16),
                        face=matcher.view_face)
    summary = {
        "format": FORMAT,
        "deck": str(out),
        "labels": sorted(shown.used),
        "labels_learned": len(shown.used),
        "photos": sum(shown.used.values()),
        "photos_per_label": shown.used,
        "skipped": shown.skipped,
        "views": len(shown.crops),
        "faces": list(matcher.faces),
        "palette": _deck_palette(shown.chroma) if misread else {},
        "stock_colours_misread": misread,
        "classifier": str(classifier.path),
        "classifier_id": classifier_id(classifier.path),
        "views_read_right_generic": round(generic_right / len(shown.crops), 4),
        "views_read_right_learned": round(_held_back(faces, embeddings), 4),
        "seconds": round(time.perf_counter() - started, 1),
    }
    (out / DECK_FILE).write_text(json.dumps(summary, indent=1) + "\n")
    return summary


@dataclass
class _Shown:
    """What the photos of a deck show, label by label: the views to enrol and their faces' indices, each
    colour's chroma, the stock colour reading of each coloured card, the photos used and skipped."""

    crops: list[Image] = field(default_factory=list)
    targets: list[int] = field(default_factory=list)
    chroma: dict[Colour, list[Floats]] = field(default_factory=lambda: defaultdict(list))
    stock_reads: list[tuple[Colour, Colour]] = field(default_factory=list)
    used: dict[str, int] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)

    def add_label(self, label: str, paths: Sequence[Path], mirrored: set[Path], detector: Any,
                  classifier: FaceClassifier, colours: Sequence[Colour], rng: np.random.Generator,
                  views_per_label: int) -> None:
        """The photos of one label: ``views_per_label`` views in all, shared among them (those ``mirrored``
        flipped back)."""
        card = Card.from_label(label)
        if card.value not in classifier.face_names:
            raise DeckError(f"{label}: the face classifier does not read {card.value!r} faces")
        face = classifier.face_names.index(card.value)
        per_photo = max(8, math.ceil(views_per_label / len(paths)))
        for path in paths:
            image = cv2.imread(str(path))
            if image is None:
                self.skipped.append(f"{path} (unreadable)")
                continue
            box = photo_card(image, detector)
            if box is None:
                self.skipped.append(f"{path} (no card found)")
                continue
            if path in mirrored:  # a selfie view: learn the card as it lies
                image, box = mirror_image(image), mirror_boxes(box[None], image.shape[1])[0]
            if card.colour is not None and card.value not in BLACK_VALUES:
                found = card_chroma(image, box)
                if found is not None:
                    ab, weight, _ = found
                    self.chroma[card.colour].append(np.average(ab, axis=0, weights=weight + 1e-6).astype(np.float32))
                self.stock_reads.append((card.colour, read_colour(image, box, colours)[0]))
            for crop in views(image, box, rng, per_photo, classifier.side):
                self.crops.append(crop)
                self.targets.append(face)
            self.used[label] = self.used.get(label, 0) + 1


def _embed(classifier: FaceClassifier, crops: Sequence[Image], targets: Sequence[int]) -> tuple[Floats, int]:
    """Every view's embedding, and how many views the generic head reads right."""
    embeddings, generic_right = [], 0
    for start in range(0, len(crops), 256):
        logits, embedding = classifier.outputs(list(crops[start:start + 256]))
        assert embedding is not None
        embeddings.append(embedding)
        generic_right += int((logits.argmax(axis=1) == np.asarray(targets[start:start + 256])).sum())
    return np.vstack(embeddings), generic_right


def _held_back(faces: Sequence[str], embeddings: Floats) -> float:
    """Half the views read by a matcher of the other half: how well the views of one photo stand for each other."""
    half = DeckMatcher.enrol(list(faces[0::2]), embeddings[0::2])
    read = [half.faces[i] for i in half.probabilities(embeddings[1::2]).argmax(axis=1)]
    return float(np.mean([r == f for r, f in zip(read, faces[1::2], strict=True)])) if read else 0.0


def _deck_palette(chroma: dict[Colour, list[Floats]]) -> dict[str, list[float]]:
    """Each colour's median chroma over its cards. Kept only where the stock colour reading misreads the deck's
    own photos (a lime green read yellow): where it reads them all, the stock reading, white-balanced on every
    card of the view, is the surer one (on real table photos a palette of one photo per label read a dim yellow
    green)."""
    return {c.value: [round(float(v), 2) for v in np.median(np.stack(found), axis=0)] for c, found in chroma.items()}
