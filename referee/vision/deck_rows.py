"""Teaching a deck from a few photos of its cards laid out in rows, not one photo a card.

Photographing 54 cards one by one is the step people skip; laying the deck out in rows and taking a few
photos (six photos of nine cards) is not. From such photos the referee finds every card
(:func:`find_cards`, the detector's card-ness, whatever the face), proposes a label for each
(:func:`propose`: the face classifier's faces times the colour read from the card's pixels, then each
label given once across all the photos, surest first, since a layout shows each card of the deck once)
and marks the proposals it is sure of. The player corrects the few it got wrong (on /teach with a tap, or
in the proposals file of ``referee learn-deck PHOTOS --propose FILE``), and :func:`learn_rows` cuts each
card out, whole with a margin of table around it, into class-named folders and hands them to
:func:`referee.vision.deck.learn_deck`, exactly as photos taken one card at a time.

The proposals file has one JSON object a line, one line a card, in reading order (photos by name, each
photo's rows top to bottom, each row left to right): ``{"photo": "rows1.jpg", "card": 3, "label":
"red_7", "sure": true, "box": [x1, y1, x2, y2], "choices": [["red_7", 0.98], ["red_1", 0.01]]}``. Only
``label`` is for the player to change; a line whose label is ``"skip"`` (or empty) is left out.
"""

from __future__ import annotations

import json
import logging
import math
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import BLACK_VALUES, Card, CardError, Colour, DeckSpec
from referee.vision.classify import FaceClassifier
from referee.vision.colour import read_colour
from referee.vision.deck import IMAGE_SUFFIXES, DeckError, learn_deck

__all__ = ["SURE", "CardProposal", "find_cards", "learn_rows", "propose", "read_proposals", "write_proposals"]

log = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]

#: How sure a proposal must be (its label's share of the card's reading, and the label it would read on its
#: own) to be marked sure: the player need not look at it. Lower: fewer cards to check, more wrong ones
#: among those not checked.
SURE = 0.9
#: Two boxes overlapping by this share of the smaller one are one card found twice (tiles, a reflection).
SAME_CARD = 0.6
#: The table left around a card cut out for learning, as a share of its longer side: the card whole and
#: near the centre of its cut, as ``learn_deck`` wants a photo, with little of its neighbours.
MARGIN = 0.18
#: A label given where nothing fits this well is no guess worth showing as one.
FLOOR = 1e-6


@dataclass
class CardProposal:
    """One card found in a layout photo: where, the label proposed, how sure, and the next best labels."""

    photo: str
    card: int
    box: tuple[float, float, float, float]
    label: str
    sure: bool
    choices: list[tuple[str, float]] = field(default_factory=list)

    def line(self) -> dict[str, Any]:
        return {"photo": self.photo, "card": self.card, "label": self.label, "sure": self.sure,
                "box": [round(v, 1) for v in self.box], "choices": [[c, round(p, 4)] for c, p in self.choices]}


def _one_each(boxes: Floats, score: Floats) -> Floats:
    """The boxes left once a card found twice keeps only its surer box."""
    order = np.argsort(-score)
    kept: list[int] = []
    for i in order:
        x1, y1, x2, y2 = boxes[i]
        area = max((x2 - x1) * (y2 - y1), 1e-6)
        duplicate = False
        for j in kept:
            a1, b1, a2, b2 = boxes[j]
            inter = max(0.0, min(x2, a2) - max(x1, a1)) * max(0.0, min(y2, b2) - max(y1, b1))
            if inter / min(area, max((a2 - a1) * (b2 - b1), 1e-6)) > SAME_CARD:
                duplicate = True
                break
        if not duplicate:
            kept.append(int(i))
    return np.asarray(boxes[kept], np.float32).reshape(-1, 4)


def reading_order(boxes: Floats) -> Floats:
    """``boxes`` in rows, top to bottom, each row left to right (a row: centres within half a card's
    height of each other)."""
    if len(boxes) == 0:
        return boxes
    cy = (boxes[:, 1] + boxes[:, 3]) / 2
    height = float(np.median(boxes[:, 3] - boxes[:, 1]))
    rows: list[list[int]] = []
    for i in np.argsort(cy):
        if rows and abs(cy[i] - np.mean([cy[j] for j in rows[-1]])) <= height / 2:
            rows[-1].append(int(i))
        else:
            rows.append([int(i)])
    order = [i for row in rows for i in sorted(row, key=lambda k: float(boxes[k, 0] + boxes[k, 2]))]
    return np.asarray(boxes[order], np.float32)


def find_cards(image: Image, detector: Any) -> Floats:
    """The box (xyxy) of every card a layout photo shows, in reading order: found by card-ness whatever
    the face (a deck the model never learned is found, not read), backs left out, each card once."""
    found = detector.find_cards(image)
    keep = np.array([label != "back" for label in found.labels], bool)
    if not keep.any():
        return np.zeros((0, 4), np.float32)
    return reading_order(_one_each(np.asarray(found.xyxy[keep], np.float32), np.asarray(found.cardness[keep])))


def label_scores(image: Image, box: Floats, classifier: FaceClassifier, labels: Sequence[str],
                 palette: Sequence[Colour]) -> dict[str, float]:
    """How likely the card at ``box`` is each of ``labels``: its face as the classifier reads it (among the
    deck's faces) times its colour as its pixels show it (a black card has none); shares summing to 1."""
    cards = {label: Card.from_label(label) for label in labels}
    faces = dict(classifier.read(image, box, allowed={card.value for card in cards.values()}))
    colour, share = read_colour(image, box, palette)
    others = max(len(palette) - 1, 1)
    scores: dict[str, float] = {}
    for label, card in cards.items():
        if card.colour is None or card.value in BLACK_VALUES:
            shade = 1.0
        else:
            shade = share if card.colour == colour else (1.0 - share) / others
        scores[label] = faces.get(card.value, 0.0) * max(shade, 0.02)
    total = sum(scores.values())
    return {k: v / total for k, v in scores.items()} if total > 0 else {k: 1 / len(labels) for k in labels}


def _assign(scores: list[dict[str, float]], copies: Mapping[str, int]) -> list[str]:
    """One label a card, no label more often than the deck holds it (surest pairs first, greedily)."""
    pairs = sorted(((p, i, label) for i, found in enumerate(scores) for label, p in found.items()), reverse=True)
    left = dict(copies)
    given: dict[int, str] = {}
    for _, i, label in pairs:
        if i not in given and left.get(label, 0) > 0:
            given[i] = label
            left[label] -= 1
    return [given.get(i, max(found, key=lambda k: found[k])) for i, found in enumerate(scores)]


def layout_photos(root: Path) -> list[Path]:
    """The photos in ``root`` (not in its sub-folders), by name."""
    if not root.is_dir():
        raise DeckError(f"no such folder of photos: {root}")
    photos = sorted(p for p in root.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
    if not photos:
        raise DeckError(f"{root}: no photos (.jpg or .png) of cards laid out in rows")
    return photos


def propose(photos: Iterable[Path], detector: Any, classifier: FaceClassifier, deck: DeckSpec,
            *, once: bool = True) -> list[CardProposal]:
    """Every card in ``photos`` with the label proposed for it. ``once``: the layout shows each card of
    ``deck`` once, so a label goes to one card only (the card surest of it); else as often as the deck
    holds it."""
    labels = list(deck.labels())
    palette = tuple(deck.colours)
    found: list[tuple[str, Floats]] = []
    scores: list[dict[str, float]] = []
    for path in photos:
        image = cv2.imread(str(path))
        if image is None:
            raise DeckError(f"{path}: not an image that can be read")
        for box in find_cards(image, detector):
            found.append((path.name, box))
            scores.append(label_scores(image, box, classifier, labels, palette))
    copies = {label: 1 if once else deck.count(Card.from_label(label)) for label in labels}
    # More cards than labels: some are the deck's second copies, each label given as often as needed.
    if once and len(found) > len(labels):
        copies = {label: math.ceil(len(found) / len(labels)) for label in labels}
    given = _assign(scores, copies)
    out: list[CardProposal] = []
    count: dict[str, int] = {}
    for (photo, box), label, score in zip(found, given, scores, strict=True):
        best = sorted(score.items(), key=lambda kv: -kv[1])[:3]
        sure = best[0][0] == label and score[label] >= SURE
        count[photo] = count.get(photo, 0) + 1
        out.append(CardProposal(photo, count[photo], (float(box[0]), float(box[1]), float(box[2]), float(box[3])),
                                label, sure, [(k, v) for k, v in best if v >= FLOOR]))
    return out


def write_proposals(proposals: Iterable[CardProposal], path: Path) -> None:
    """The proposals file: one card a line (the player corrects ``label`` where it is wrong)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(p.line()) + "\n" for p in proposals))


def read_proposals(path: Path) -> list[CardProposal]:
    """The (corrected) proposals file; a card labelled ``skip`` or nothing is left out; a label that is no
    card is :class:`DeckError` naming its line."""
    if not path.is_file():
        raise DeckError(f"no such proposals file: {path}")
    out: list[CardProposal] = []
    for number, text in enumerate(path.read_text().splitlines(), 1):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
            label = str(line.get("label") or "skip").strip()
            box = tuple(float(v) for v in line["box"])
            photo = str(line["photo"])
        except (ValueError, KeyError, TypeError) as exc:
            raise DeckError(f"{path}:{number}: not a proposal line ({exc})") from None
        if label == "skip":
            continue
        try:
            label = Card.from_label(label).label
        except CardError:
            raise DeckError(f"{path}:{number}: {label!r} is not a card label (e.g. red_7, blue_skip, wild)") from None
        if len(box) != 4 or Path(photo).name != photo:
            raise DeckError(f"{path}:{number}: a box is four numbers, a photo a file name in the photos' folder")
        out.append(CardProposal(photo, int(line.get("card") or 0), (box[0], box[1], box[2], box[3]), label,
                                bool(line.get("sure"))))
    if not out:
        raise DeckError(f"{path}: no card left to learn")
    return out


def cut_out(image: Image, box: Sequence[float], margin: float = MARGIN) -> Image:
    """The card at ``box`` with ``margin`` of its longer side of table around it (inside the photo)."""
    x1, y1, x2, y2 = (float(v) for v in box)
    pad = max(x2 - x1, y2 - y1) * margin
    h, w = image.shape[:2]
    a, b = max(0, int(x1 - pad)), max(0, int(y1 - pad))
    c, d = min(w, math.ceil(x2 + pad)), min(h, math.ceil(y2 + pad))
    return np.ascontiguousarray(image[b:d, a:c])


def learn_rows(photos: Path, proposals: Sequence[CardProposal], out: Path, detector: Any, classifier: FaceClassifier,
               **options: Any) -> dict[str, Any]:
    """Learn the deck from layout photos and their (corrected) proposals: each card cut out into a folder
    named by its label, then :func:`~referee.vision.deck.learn_deck` as for one photo a card. ``options``
    go to ``learn_deck`` (``views_per_label``, ``seed``, ``progress``); the summary gains ``cards``."""
    images: dict[str, Image] = {}
    with tempfile.TemporaryDirectory(prefix="referee-rows-") as scratch:
        root = Path(scratch)
        for n, proposal in enumerate(proposals):
            if proposal.photo not in images:
                image = cv2.imread(str(photos / proposal.photo))
                if image is None:
                    raise DeckError(f"{photos / proposal.photo}: not an image that can be read")
                images[proposal.photo] = image
            folder = root / proposal.label.replace("/", "of")
            folder.mkdir(exist_ok=True)
            cv2.imwrite(str(folder / f"{n:04d}.png"), cut_out(images[proposal.photo], proposal.box))
        summary = learn_deck(root, out, detector, classifier, **options)
    summary["cards"] = len(proposals)
    return summary
