"""A card named as the pipeline would settle it, outside the pipeline, so ``referee eval`` scores what a game
would see: the detector's label, the closer look and the face classifier together, with a learned deck's faces
when one is given (:func:`pipeline_label`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from referee.cards import BLACK_VALUES
from referee.vision.card_shape import photo_subject
from referee.vision.classify import (
    ACROSS_KINDS_CONFIDENCE,
    CLASSIFIER_ALONE_CONFIDENCE,
    SECOND_LOOK_CONFIDENCE,
    FaceClassifier,
    needs_reading,
    read_on_deck,
    read_pad,
    second_look,
)
from referee.vision.detect import OnnxDetector, UltralyticsDetector, card_colour, look_closer
from referee.vision.mirror import mirror_evidence, mirror_image
from referee.vision.tracking import TrackerConfig, closer_label
from referee.vision.tracking.closer import named_surely

__all__ = ["READING", "photo_reads", "pipeline_label", "relabel", "settled_name"]

#: Which boxes the tracker reads (:func:`~referee.vision.tracking.frame.readable`): the card accuracy counts
#: only those, as the pipeline sees no other.
READING = TrackerConfig()


def pipeline_label(detector: OnnxDetector | UltralyticsDetector, classifier: FaceClassifier | None,
                   image: npt.NDArray[np.uint8], box: npt.NDArray[np.float32], label: str, *,
                   whole: bool = False, faces: frozenset[str] | None = None,
                   read: Sequence[tuple[str, float]] | None = None, found_only: bool = False) -> str:
    """The label the pipeline settles on for the card the detector read as ``label`` at ``box``: its
    closer look (:func:`~referee.vision.detect.look_closer` averaged with the classifier,
    :func:`~referee.vision.classify.second_look`) replaces the face when sure of another
    (:func:`~referee.vision.tracking.closer_label` at
    :data:`~referee.vision.classify.SECOND_LOOK_CONFIDENCE`, a card of the other kind at
    :data:`~referee.vision.classify.ACROSS_KINDS_CONFIDENCE` with the colour read at its box); a card
    lying ``whole`` (as a card just laid on the pile, and the card of a photo), or any card once a learned deck
    reads with the classifier (:attr:`~referee.vision.classify.FaceClassifier.taught`), lets the classifier speak
    alone at :data:`~referee.vision.classify.CLASSIFIER_ALONE_CONFIDENCE`. With the deck's ``faces``, a face it
    does not print is read by the classifier among them first, and closer looks name only them (as
    :class:`referee.pipeline.Pipeline` does). ``read``: the classifier's faces for the card (among
    ``faces``) when the caller has them already. Without a classifier, the detector's. A card the detector
    found but did not read (``found_only``: its face under the tracker's bar, kept for its card-ness) is
    named only by a closer look sure of a face, as the tracker names it
    (:func:`~referee.vision.tracking.closer.name_unread`), else ``none``."""
    if classifier is None:
        return "none" if found_only else label
    if read is None:
        read = classifier.read(image, box, allowed=faces, pad=read_pad(faces, tuple(detector.face_names)))
    if faces is not None and needs_reading(label, faces, tuple(detector.face_names)):
        label = read_on_deck(label, read)
    both = second_look(_closer_look(detector, image, box, faces), read,
                       alone=CLASSIFIER_ALONE_CONFIDENCE if whole or classifier.taught else None)
    name = named_surely if found_only else closer_label
    named = name(label, both, SECOND_LOOK_CONFIDENCE, across=ACROSS_KINDS_CONFIDENCE,
                 colour=lambda: card_colour(detector, image, box))
    return named or ("none" if found_only else label)


def settled_name(detector: OnnxDetector | UltralyticsDetector, classifier: FaceClassifier | None,
           image: npt.NDArray[np.uint8], box: npt.NDArray[np.float32], name: str, mode: str, *,
           read: Sequence[tuple[str, float]], whole: bool = False, found_only: bool = False,
           faces: frozenset[str] | None = None) -> str:
    """The prediction ``name`` as the pipeline would settle it (a faces dataset: its face); ``read``: the
    classifier's faces for the box; ``found_only``: found by card-ness, its face under the bar; ``faces``:
    the deck's faces, the only ones a closer look names (``None``: any)."""
    if mode == "label":
        return pipeline_label(detector, classifier, image, box, name, whole=whole, read=read, found_only=found_only,
                              faces=faces)
    return relabel(_closer_faces(detector, classifier, image, box, read, faces), name, mode)


def _closer_faces(detector: OnnxDetector | UltralyticsDetector, classifier: FaceClassifier | None,
                  image: npt.NDArray[np.uint8], box: npt.NDArray[np.float32], read: Sequence[tuple[str, float]],
                  faces: frozenset[str] | None = None) -> list[tuple[str, float]]:
    """The closer look's surest face when it is sure enough to replace the detector's (a faces dataset)."""
    if classifier is None:
        return []
    both = second_look(_closer_look(detector, image, box, faces), read)
    return both[:1] if both and both[0][1] >= SECOND_LOOK_CONFIDENCE else []


def _closer_look(detector: OnnxDetector | UltralyticsDetector, image: npt.NDArray[np.uint8],
                 box: npt.NDArray[np.float32], faces: frozenset[str] | None) -> list[tuple[str, float]]:
    """The detector's closer look at ``box``, naming only the deck's ``faces`` (``None``: any)."""
    closer = look_closer(detector, image, box)
    return closer if faces is None else [(face, p) for face, p in closer if face in faces]


def relabel(faces: Sequence[tuple[str, float]], name: str, mode: str) -> str:
    """``name`` (a prediction's face, or colour + face) with its face replaced by the surest of ``faces``;
    the colour stays (``name`` itself when ``faces`` is empty)."""
    if not faces:
        return name
    face = faces[0][0]
    if mode != "label" or face in BLACK_VALUES or face == "back":
        return face
    colour = name.split("_", 1)[0]
    return face if colour in BLACK_VALUES or colour == "back" else f"{colour}_{face}"


def photo_mirror_evidence(detector: OnnxDetector | UltralyticsDetector, classifier: FaceClassifier | None,
                          image: npt.NDArray[np.uint8], faces: frozenset[str] | None = None) -> float:
    """How much surer the card the photo shows reads mirrored than as it lies
    (:func:`~referee.vision.mirror.mirror_evidence`; 0 without a classifier or a card)."""
    if classifier is None:
        return 0.0
    det = detector.detect(image)
    cards = [i for i, label in enumerate(det.labels) if label != "back"]
    subject = photo_subject(det.xyxy[cards], det.confidence[cards], image.shape) if cards else None
    if subject is None:
        return 0.0
    box = det.xyxy[cards[subject]][None]
    return mirror_evidence(classifier, image, box, pad=read_pad(faces, tuple(detector.face_names)), allowed=faces)


def photo_reads(detector: OnnxDetector | UltralyticsDetector, classifier: FaceClassifier | None,
                image: npt.NDArray[np.uint8], faces: frozenset[str] | None = None, *,
                mirrored: bool = False) -> dict[str, str]:
    """The label of the card the photo shows (:func:`~referee.vision.card_shape.photo_subject`: sure and near
    the centre, as ``referee learn-deck`` takes it): as the pipeline names it, as the detector does, and (with
    a classifier) with its face read by the classifier alone; ``mirrored``: the photo is read flipped back (a
    selfie view, :func:`photo_mirror_evidence`)."""
    if mirrored:
        image = mirror_image(image)
    det = detector.detect(image)
    cards = [i for i, label in enumerate(det.labels) if label != "back"]
    if not cards:
        return {"pipeline": "none", "detector": "none", **({"classifier": "none"} if classifier else {})}
    subject = photo_subject(det.xyxy[cards], det.confidence[cards], image.shape)
    assert subject is not None
    best = cards[subject]
    label = det.labels[best]
    pad = read_pad(faces, tuple(detector.face_names))
    classified = classifier.read(image, det.xyxy[best], allowed=faces, pad=pad) if classifier is not None else []
    reads = {"pipeline": pipeline_label(detector, classifier, image, det.xyxy[best], label, whole=True, faces=faces,
                                        read=classified,
                                        found_only=bool(det.confidence[best] < READING.min_confidence)),
             "detector": label}
    if classifier is not None:
        reads["classifier"] = relabel(classified, label, "label")
    return reads
