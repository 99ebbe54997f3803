"""A card read again beyond the detector's pass over the pile view: off the deck's faces, and closer up.

The detector reads the whole pile view once a frame. Two things read further, with the models the pipeline
was given:

- **off the deck** (:meth:`Reading.read_off_deck`): a detection whose face the game's deck does not print (and
  every coloured card of a deck whose faces the detector has no classes for: the fractions deck) is read by
  the classifier among the deck's faces, the colour as read (:func:`~referee.vision.classify.needs_reading`), as
  sure as the classifier is of that face;
- **closer** (:meth:`Reading.look_closer`, the tracker's second look, :class:`~referee.vision.tracking.CloserLook`):
  a card about to be believed is read in a crop of the pile view around it by the detector (as it lies and
  turned), and by the classifier in the same crop sampled from the camera frame at its full resolution,
  through the map back from the pile view (:meth:`Reading.classifier_view`); :meth:`Reading.colour_at` reads the
  colour at the card as the detector reads colours, for naming a card of the other kind.

:class:`Reading` holds the frame being judged (its pile view and the camera frame it was warped from), set by
the frame loop before the tracker runs; the closer looks count in the run's stats (calls, and milliseconds
when timed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from referee.pipeline.status import PipelineStats
from referee.pipeline.table_view import TableView
from referee.vision.classify import (
    CLASSIFIER_ALONE_CONFIDENCE,
    FaceClassifier,
    face_of,
    needs_reading,
    read_on_deck,
    read_pad,
    second_look,
)
from referee.vision.detect import OnnxDetector, UltralyticsDetector, card_colour, look_closer
from referee.vision.detections import Detections, Detector
from referee.vision.tracking import TrackerConfig


class Reading:
    """The detector's and the classifier's further reads of the frame being judged (see the module)."""

    def __init__(self, detector: Detector, classifier: FaceClassifier | None, faces: frozenset[str] | None,
                 view: TableView, stats: PipelineStats, timer: Callable[[], float] | None, *,
                 read_bar: float = TrackerConfig.min_confidence) -> None:
        self.detector = detector
        #: The tracker's bar for a face read (``TrackerConfig.min_confidence``): a box under it is found, not read.
        self.read_bar = read_bar
        self.classifier = classifier
        self.faces = faces
        self.view = view
        self.stats = stats
        self.timer = timer
        #: This frame's pile view, and the camera frame it was warped from (``None`` before the first frame).
        self.pile_view: np.ndarray | None = None
        self.frame_image: np.ndarray | None = None
        #: The classifier's crop margin for this deck's cards (a fraction's numerals are small: the card fills it).
        self.pad = read_pad(faces, tuple(detector.face_names))

    def read_off_deck(self, detections: Detections) -> Detections:
        """Detections whose face the deck does not print (and every coloured card of a deck whose faces
        the detector has no classes for), read by the classifier among the deck's faces (the colour as
        read): :func:`~referee.vision.classify.needs_reading`. Unchanged without a deck or a classifier."""
        if self.faces is None or self.classifier is None or self.frame_image is None:
            return detections
        known = tuple(self.detector.face_names)
        off = [i for i, label in enumerate(detections.labels) if needs_reading(label, self.faces, known)]
        if not off:
            return detections
        labels = list(detections.labels)
        # The detector's confidence is of a face the card does not have: a card it read is as sure as the
        # classifier is of the face it names. A read spread over the deck's faces (a strip of a card left showing
        # under another, a card under a hand) falls under the tracker's bar for a read: the card is found (its
        # card-ness kept), not read, and names nothing until a clear view does. A box the detector only found
        # stays found: the classifier makes no read of it surer. Its sureness is of the face the card is named
        # now: where the read could not be given to it (a face the deck does not print, black, read as a coloured
        # face: no colour to give it), the classifier gave that face nothing, and the card is found, not read.
        confidence, found = detections.confidence.copy(), detections.cardness.copy()
        for i in off:
            faces = self.classifier.read(self.frame_image, detections.xyxy[i], view_to_image=self.view.view_to_image,
                                         allowed=self.faces, pad=self.pad)
            labels[i] = read_on_deck(labels[i], faces)
            if faces:
                named = dict(faces).get(face_of(labels[i]), 0.0)
                read = float(confidence[i]) >= self.read_bar
                confidence[i] = named if read else min(float(confidence[i]), named)
        return replace(detections, labels=tuple(labels), confidence=confidence, found=found)

    def colour_at(self, pose: np.ndarray) -> tuple[str, float] | None:
        """The colour of the card at ``pose`` in this frame's pile view, as the detector reads colours, and
        the share of its coloured pixels that voted for it."""
        if self.pile_view is None or not isinstance(self.detector, OnnxDetector | UltralyticsDetector):
            return None
        return card_colour(self.detector, self.pile_view, pose)

    def look_closer(self, pose: np.ndarray, *, whole: bool = False) -> list[tuple[str, float]]:
        """The tracker's second look: the faces read in a crop of this frame's pile view around ``pose`` by
        the detector, and by the classifier in the same crop sampled from the camera frame at its full
        resolution (``whole``: the card lies in full view, where the classifier alone may speak for it)."""
        if self.pile_view is None or not isinstance(self.detector, OnnxDetector | UltralyticsDetector):
            return []
        t0 = self.timer() if self.timer else 0.0
        faces = look_closer(self.detector, self.pile_view, pose)
        if self.faces is not None:
            faces = [(face, p) for face, p in faces if face in self.faces]
        self.stats.detector_calls += 2  # the crop as it lies and turned
        if self.classifier is not None:
            image, view_to_image = self.classifier_view()
            read = self.classifier.read(image, pose, view_to_image=view_to_image, allowed=self.faces, pad=self.pad)
            # A learned deck's reading is the deck's own look: sure, it speaks alone, whole card or not.
            faces = second_look(faces, read,
                                alone=CLASSIFIER_ALONE_CONFIDENCE if whole or self.classifier.taught else None)
        if self.timer:
            self.stats.detector_ms.append((self.timer() - t0) * 1000)
        return faces

    def classifier_view(self) -> tuple[np.ndarray, np.ndarray | None]:
        """Where the classifier reads a card of the pile view: the camera frame through the map back onto
        it (its full resolution), or the pile view itself when there is no such frame."""
        if self.frame_image is not None and self.view.view_to_image is not None:
            return self.frame_image, self.view.view_to_image
        assert self.pile_view is not None
        return self.pile_view, None
