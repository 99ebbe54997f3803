"""The face classifier: reads one card, from a square crop around its box, with onnxruntime.

The detector reads a whole pile at 320 px; this model reads the one card the tracker is about to believe,
at 96 px for the card alone (:func:`square_crop`), as it lies and turned half a turn,
the two softmax outputs averaged. Trained by ``referee train-classifier`` (:mod:`referee.train_classifier`).
"""

from __future__ import annotations

import ast
import functools
import logging
from collections.abc import Collection, Sequence
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import BLACK_VALUES
from referee.vision.detect import MODELS_DIR, DetectorError, onnx_session
from referee.vision.matcher import DeckMatcher
from referee.vision.teaching import TopCardLook

log = logging.getLogger(__name__)

DEFAULT_CLASSIFIER = MODELS_DIR / "classifier.onnx"

Image = npt.NDArray[np.uint8]

#: Side of a crop in pixels: the classifier's input.
CROP_SIDE = 96
#: A crop's side is the box's longer side times ``1 + 2 * CROP_PAD`` (the pipeline's choice; training
#: jitters it).
CROP_PAD = 0.15

def square_crop(image: Image, box: Sequence[float] | npt.NDArray[np.float32], *, pad: float = CROP_PAD,
                side: int = CROP_SIDE, shift: tuple[float, float] = (0.0, 0.0)) -> Image | None:
    """The square around ``box`` (xyxy; its longer side times ``1 + 2 * pad``, centre moved by ``shift``
    of that side), resized to ``side`` x ``side``; outside the image is grey 114. ``None`` for a box
    too small to read (under 8 px) or wholly outside the image."""
    x1, y1, x2, y2 = (float(v) for v in box)
    extent = max(x2 - x1, y2 - y1) * (1 + 2 * pad)
    if extent < 8:
        return None
    cx = (x1 + x2) / 2 + shift[0] * extent
    cy = (y1 + y2) / 2 + shift[1] * extent
    scale = side / extent
    # Only the pixels the square covers (and a margin for the blur) are touched.
    height, width = image.shape[:2]
    margin = extent / 2 + 4 / scale
    left, top = max(0, int(cx - margin)), max(0, int(cy - margin))
    right, bottom = min(width, int(cx + margin) + 1), min(height, int(cy + margin) + 1)
    if right <= left or bottom <= top:
        return None
    src = image[top:bottom, left:right]
    if scale < 0.5:  # shrinking a lot: blur first, or thin strokes (a 6's underline) alias away
        src = cv2.GaussianBlur(src, (0, 0), 0.3 / scale)
    cx, cy = cx - left, cy - top
    matrix = np.array([[scale, 0.0, side / 2 - cx * scale], [0.0, scale, side / 2 - cy * scale]], np.float64)
    out: Image = cv2.warpAffine(src, matrix, (side, side), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=(114, 114, 114))
    return out


def softmax(logits: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Row-wise softmax."""
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    probs: npt.NDArray[np.float32] = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
    return probs


def square_crop_through(image: Image, box: Sequence[float] | npt.NDArray[np.float32],
                        view_to_image: npt.NDArray[np.float64], *, pad: float = CROP_PAD, side: int = CROP_SIDE
                        ) -> Image | None:
    """:func:`square_crop` of a box given in another view of ``image`` (the top-down pile view), sampled
    from ``image`` itself through ``view_to_image`` (a 3x3 homography, view pixels -> image pixels).

    The pile view is capped at 640 px for the detector; a card in it may be a few dozen pixels tall
    where the camera frame holds two or three times more. Read through the homography, the crop has
    the geometry the classifier knows (square, top-down, around the box) and the camera's own detail."""
    x1, y1, x2, y2 = (float(v) for v in box)
    extent = max(x2 - x1, y2 - y1) * (1 + 2 * pad)
    if extent < 8:
        return None
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    step = extent / side
    # crop pixel (u, v) -> view pixel -> image pixel
    to_view = np.array([[step, 0.0, cx - extent / 2 + step / 2], [0.0, step, cy - extent / 2 + step / 2],
                        [0.0, 0.0, 1.0]], np.float64)
    matrix = np.asarray(view_to_image, np.float64) @ to_view
    corners = np.array([[0, 0, 1], [side, 0, 1], [side, side, 1], [0, side, 1]], np.float64) @ matrix.T
    corners = corners[:, :2] / corners[:, 2:3]
    height, width = image.shape[:2]
    left, top = (max(0, int(v) - 2) for v in corners.min(axis=0))
    right, bottom = (int(v) + 3 for v in corners.max(axis=0))
    right, bottom = min(width, right), min(height, bottom)
    if right <= left or bottom <= top:
        return None
    src = image[top:bottom, left:right]
    shown = max(right - left, bottom - top)
    if side / max(shown, 1) < 0.5:  # shrinking a lot: blur first, as square_crop does
        src = cv2.GaussianBlur(src, (0, 0), 0.3 * shown / side)
    shift = np.array([[1.0, 0.0, -left], [0.0, 1.0, -top], [0.0, 0.0, 1.0]])
    out: Image = cv2.warpPerspective(src, shift @ matrix, (side, side), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(114, 114, 114))
    return out


#: How many ways each card is read and the readings averaged: as it lies and turned by each quarter turn.
#: A card lands at any angle and a network is not quite the same at each, so its errors at one angle are
#: rarely its errors at the next: on real photos (``benchmarks/read_turns.py``) four turns read the second
#: printing's table cards 82 of 84 against 79 of 84 for the half turn alone (a 3 read as 8 twice, a 7 as 1
#: put right) and the shared single-card photos 539 of 540 both ways (the one left read less surely). Two
#: more crops of 96 x 96 a reading, and only cards the tracker looks at closer are read.
READ_TURNS = 4


#: How much the classifier's own head still counts where a learned deck's views read a card: the deck's faces
#: are scored by the views' probabilities times the head's to this power (a product of the two readers, the
#: head's flattened), so views unsure between two faces are settled by the head, and a head sure of a face the
#: views reject is outvoted (a head at 0.95 against 0.05 weighs 2.1 to 1). With the views alone, the shared
#: single-card photos read 0.9959 learned from the first photo of each label, under the generic 0.9979 (a blue
#: reverse whose views lay nearest a 4's, the head sure of the reverse); at 0.25 and at 0.5 alike, 0.9979, the
#: second printing's tables 1.0 leave one photo out (as with the views alone) and under blur 0.9762 (0.9524
#: with the views alone: a 9 read 0 twice), a slanted view 0.9762 either way (``benchmarks/learn_split.py``,
#: ``benchmarks/deck_split.py``, ``benchmarks/camera_casts.py --learned``). The smaller of the two keeps more of
#: the deck's own look, where the generic head is confidently wrong (a thin-ring 3 read 8).
HEAD_WEIGHT = 0.25


class FaceClassifier:
    """onnxruntime on ``models/classifier.onnx``: face probabilities for the card at a box."""

    def __init__(self, path: Path = DEFAULT_CLASSIFIER, *, threads: int | None = None) -> None:
        self.session = onnx_session(path, threads, "classifier", "`referee train-classifier`")
        meta = self.session.get_modelmeta().custom_metadata_map
        if "names" not in meta or meta.get("task") != "classify":
            raise DetectorError(f"{path} is not a face classifier (exported by `referee train-classifier`)")
        names = ast.literal_eval(meta["names"])
        self.face_names: tuple[str, ...] = tuple(names[i] for i in sorted(names))
        self.side = int(ast.literal_eval(meta.get("imgsz", "[96, 96]"))[0])
        self.input_name = self.session.get_inputs()[0].name
        #: Whether the model also gives the feature vector its head reads (``embedding``): a learned deck
        #: (:mod:`referee.vision.deck`) compares it with its own cards' views.
        self.has_embedding = [o.name for o in self.session.get_outputs()][1:2] == ["embedding"]
        #: A learned deck's views (:class:`referee.vision.matcher.DeckMatcher`), which name the faces it was
        #: shown: set by :meth:`referee.vision.deck.Deck.apply`.
        self.deck: DeckMatcher | None = None
        #: Views the game itself taught (:class:`referee.vision.teaching.GameTeacher`): they split the head's
        #: share among their faces as a learned deck's do, but never let the classifier speak alone.
        self.game: DeckMatcher | None = None
        self._merged: tuple[DeckMatcher | None, DeckMatcher | None, DeckMatcher | None] = (None, None, None)
        self.path = Path(path)

    def outputs(self, crops: Sequence[Image]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32] | None]:
        """The model's logits (N, classes) and, where it has them, its embeddings (N, dim)."""
        batch = np.stack([np.asarray(c, np.float32) for c in crops]).transpose(0, 3, 1, 2) / 255.0
        out = self.session.run(None, {self.input_name: np.ascontiguousarray(batch, np.float32)})
        return out[0], (out[1] if self.has_embedding else None)

    @property
    def taught(self) -> bool:
        """Whether a learned deck reads with this classifier: its reading of the deck's faces is then the
        deck's own, surer than the detector's generic one (the pipeline lets it speak alone)."""
        return self.deck is not None and bool(self.deck.faces)

    def probabilities(self, crops: Sequence[Image]) -> npt.NDArray[np.float32]:
        """Softmax over the faces for each ``side`` x ``side`` BGR crop, (N, classes): the model's own
        head; with a learned deck, the share the head gives the deck's faces is split among them as the
        deck's views say (:meth:`DeckMatcher.probabilities`) times the head's own split to the power
        :data:`HEAD_WEIGHT`, the other faces (the back, faces the deck was not shown) keeping the head's."""
        logits, embedding = self.outputs(crops)
        probs = softmax(logits)
        matcher = self.matcher()
        if matcher is None or embedding is None:
            return probs
        index = [self.face_names.index(f) for f in matcher.faces]
        shown = probs[:, index].sum(axis=1, keepdims=True)
        head = probs[:, index] / np.maximum(shown, 1e-12)
        both = matcher.probabilities(embedding) * np.power(np.maximum(head, 1e-6), HEAD_WEIGHT)
        probs[:, index] = shown * both / both.sum(axis=1, keepdims=True)
        return probs

    def matcher(self) -> DeckMatcher | None:
        """The views a reading compares with: the learned deck's and the game's together (``None``: none)."""
        deck = self.deck if self.deck is not None and self.deck.faces else None
        if self.game is None or not self.game.faces:
            return deck
        if deck is None:
            return self.game
        if self._merged[0] is not deck or self._merged[1] is not self.game:
            self._merged = (deck, self.game, deck.merged(self.game))
        return self._merged[2]

    def _crop(self, image: Image, box: Sequence[float] | npt.NDArray[np.float32], pad: float,
              view_to_image: npt.NDArray[np.float64] | None) -> Image | None:
        """The square crop the model reads around ``box``: in ``image``, or through ``view_to_image``."""
        if view_to_image is None:
            return square_crop(image, box, pad=pad, side=self.side)
        return square_crop_through(image, box, view_to_image, pad=pad, side=self.side)

    def look(self, image: Image, box: Sequence[float] | npt.NDArray[np.float32], *,
             view_to_image: npt.NDArray[np.float64] | None = None) -> TopCardLook | None:
        """The head's own probabilities and the embeddings of the card at ``box``, as it lies and turned half
        a turn (what :class:`referee.vision.teaching.GameTeacher` learns from); ``None`` where there is no crop
        or no embedding."""
        crop = self._crop(image, box, CROP_PAD, view_to_image)
        if crop is None or not self.has_embedding:
            return None
        logits, embedding = self.outputs([crop, np.ascontiguousarray(crop[::-1, ::-1])])
        if embedding is None:
            return None
        return TopCardLook(self.face_names, softmax(logits), np.asarray(embedding, np.float32))

    def read(self, image: Image, box: Sequence[float] | npt.NDArray[np.float32], *, pad: float = CROP_PAD,
             view_to_image: npt.NDArray[np.float64] | None = None, allowed: Collection[str] | None = None,
             turns: int = READ_TURNS, mirrored: bool = False) -> list[tuple[str, float]]:
        """The faces of the card at ``box`` (xyxy in ``image``, or in a view of it that ``view_to_image``
        maps onto it: :func:`square_crop_through`), surest first with their probabilities: the crop as
        it lies and turned by each quarter (``turns`` 4) or half a turn (2), averaged (:data:`READ_TURNS`);
        only the ``allowed`` faces (the deck's), their probabilities renormalised, when given; ``mirrored``: the
        crop flipped left to right first (:mod:`referee.vision.mirror`). ``[]`` for a box too small to read."""
        if turns not in (2, 4):
            raise ValueError(f"turns must be 2 or 4, not {turns}")
        crop = self._crop(image, box, pad, view_to_image)
        if crop is None:
            return []
        if mirrored:
            crop = np.ascontiguousarray(crop[:, ::-1])
        step = 4 // turns
        crops = [np.ascontiguousarray(np.rot90(crop, k)) for k in range(0, 4, step)]
        probs = self.probabilities(crops).mean(axis=0)
        if allowed is not None:
            probs = probs * np.array([face in allowed for face in self.face_names], np.float32)
            if probs.sum() <= 0:
                return []
            probs = probs / probs.sum()
        order = np.argsort(-probs)
        return [(self.face_names[int(i)], float(probs[i])) for i in order]


def load_classifier(path: Path | str | None = None) -> FaceClassifier | None:
    """The classifier at ``path`` (default ``models/classifier.onnx``), or ``None`` when the default is
    absent (the pipeline then runs on the detector alone). A named file that cannot load is an error."""
    if path is None:
        if not DEFAULT_CLASSIFIER.is_file():
            log.info("no face classifier at %s: the detector reads faces alone", DEFAULT_CLASSIFIER)
            return None
        return FaceClassifier(DEFAULT_CLASSIFIER)
    return FaceClassifier(Path(path))


#: The bar of the tracker's closer look (``SecondLook.confidence``) when it is :func:`second_look` (the detector's
#: crop and the classifier averaged; the detector alone has :data:`referee.vision.detect.DETECTOR_LOOK_CONFIDENCE`).
#: An average this sure of a face other than the pile view's replaces the pile view's reading. Both readers must
#: lean the same way to pass it, so it sits under the detector-alone bar: at that bar a misreading that both closer
#: readers put right, but only moderately surely, would stand. Lowering it puts more misreadings of whole cards
#: right; on half-hidden cards closer looks go wrong either way, which is why the tracker looks closer only at a
#: card about to be believed, with no arm over the pile. Chosen on whole cards of generated game footage read once
#: a second (``benchmarks/read_cards.py``): the figures and commands are in ``models/MODEL_CARD.md``, "How the
#: pipeline uses the two models".
SECOND_LOOK_CONFIDENCE = 0.6


#: A card seen whole in a clear view (the top card, believed under the hand, judged once the pile is clear):
#: the classifier this sure of a face speaks for it alone, whatever the detector's crop says. On a whole card the
#: classifier reads better than the detector's crop, and averaged with an unsure crop read a sure classifier falls
#: under :data:`SECOND_LOOK_CONFIDENCE`, so the pile view's misreading would stand. On half-hidden cards the
#: classifier alone spoils many right readings, so it never speaks alone there. Chosen on both real photo sets as
#: the pipeline reads them (``referee eval``): the figures and commands are in ``models/MODEL_CARD.md``, "How the
#: pipeline uses the two models".
CLASSIFIER_ALONE_CONFIDENCE = 0.55


#: How sure the second look (both closer readers averaged, or the classifier alone on a whole card) must be
#: to name a card of the other kind than the pile view's: a black card for a coloured one or the other way
#: round. A printing the detector never learned has its black cards boxed as coloured ones and back: on the
#: table views of ``benchmarks/printings_eval.py`` (4 held-out printings, 480 cards) 7 cards were named so, each
#: read by both closer readers at 0.91-0.99 (a wild draw four boxed as a yellow 5: 0.99 and 0.97); the bar
#: sits above :data:`SECOND_LOOK_CONFIDENCE` because a wrong kind costs more than a wrong face (a wild
#: read as a coloured card makes a legal play look illegal).
ACROSS_KINDS_CONFIDENCE = 0.9


def face_of(label: str) -> str:
    """``red_1/2`` -> ``1/2``; ``wild_draw4``, ``back`` -> themselves."""
    return label if label in BLACK_VALUES or label == "back" or "_" not in label else label.split("_", 1)[1]


def needs_reading(label: str, faces: frozenset[str], detector_faces: tuple[str, ...]) -> bool:
    """Whether the classifier must name the face of a card the detector read as ``label`` on a deck
    printing ``faces``: a face the deck does not print, or any coloured card of a deck whose faces the
    detector has no classes for (the fractions: it reads a 3/4 as a 3, a 4 or a reverse)."""
    face = face_of(label)
    if face not in faces:
        return True
    return face not in BLACK_VALUES and face != "back" and _beyond(faces, detector_faces)


@functools.lru_cache(maxsize=16)
def _beyond(faces: frozenset[str], detector_faces: tuple[str, ...]) -> bool:
    """Whether a deck prints faces the detector has no classes for (asked per detection: kept)."""
    return not faces <= set(detector_faces) | {"back"}


#: The margin of the crop (:data:`CROP_PAD`'s kind) for the cards of a deck whose faces the detector has no classes
#: for (the fractions): the least the classifier was trained with (its crops' margins are drawn from 5-30 %), so
#: the card fills the crop and the small numerals of a fraction keep as many of the camera's pixels as a 96 px
#: crop can give them (a card some 120 px long in the camera frame is shrunk about half at :data:`CROP_PAD`). At
#: the wider margin the digits a fraction shares with its look-alikes decide it (a 6/9 read 8/9, an 8/9 6/8, a
#: 9/10 8/10). Chosen on the truth's whole cards of generated fractions games: the figures and command are in
#: ``models/MODEL_CARD.md``, "How the pipeline uses the two models".
FRACTIONS_PAD = 0.05


def read_pad(faces: frozenset[str] | None, detector_faces: tuple[str, ...]) -> float:
    """The crop's margin for the cards of a deck printing ``faces``: :data:`FRACTIONS_PAD` where the detector has
    no classes for some of them, else :data:`CROP_PAD` (also without a deck)."""
    return FRACTIONS_PAD if faces is not None and _beyond(faces, detector_faces) else CROP_PAD


def read_on_deck(label: str, faces: Sequence[tuple[str, float]]) -> str:
    """The label of a card the detector read as ``label`` (a face its deck does not print), given the
    classifier's ``faces`` among the deck's faces: the surest one, with the colour read for ``label``;
    ``label`` itself where nothing was read, the back was, or a coloured face with no colour to give it."""
    if not faces or faces[0][0] == "back":
        return label
    face = faces[0][0]
    if face in BLACK_VALUES:
        return face
    if label in BLACK_VALUES or label == "back" or "_" not in label:
        return label
    return f"{label.split('_', 1)[0]}_{face}"


def second_look(detector_faces: Sequence[tuple[str, float]], classifier_faces: Sequence[tuple[str, float]],
                *, alone: float | None = None) -> list[tuple[str, float]]:
    """One closer look from two readers: each face scored by the mean of the detector's closer look
    (:func:`referee.vision.detect.look_closer`, 0 where it read nothing) and the classifier's
    probability; surest first, faces scoring 0 left out. With ``alone`` (a card in full view), a face the
    classifier gives at least that probability scores that probability, if higher."""
    looked = dict(detector_faces)
    scores = {face: (looked.get(face, 0.0) + p) / 2 for face, p in classifier_faces}
    if alone is not None:
        scores.update({face: p for face, p in classifier_faces if p >= alone and p > scores[face]})
    for face, score in looked.items():
        scores.setdefault(face, score / 2)
    return sorted(((f, s) for f, s in scores.items() if s > 0), key=lambda kv: -kv[1])
