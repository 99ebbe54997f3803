"""Reading a card by comparing it with the cards of its own deck: enrolled views, nearest first.

A generic reader learned from generated faces carries the confusions of the printings it learned from
(a white numeral outlined in black and shadowed: its 3 closes into an 8), and a head refitted over its
features from a few photos inherits them: the features of a new printing's 3 and 8 lie closer to each
other than to the generic head's idea of either. A learned deck is therefore compared with, not fitted:
each card the user photographed is kept as many views (:func:`referee.vision.deck.views`: turned, small
as a camera sees it, under other light), each as the classifier's ``embedding`` (the pooled features its
head reads), and a card on the table is read as the face of its nearest views by cosine similarity,
nearest neighbours as classic recognisers do.

Per face the best view counts; the similarities become probabilities over the enrolled faces by a
softmax at :data:`TEMPERATURE`. Faces the deck was not shown are not scored here: the classifier keeps
its own reading for them (:meth:`referee.vision.classify.FaceClassifier.probabilities`).

Measured with honest splits (``benchmarks/deck_split.py``: a card is never read with a deck enrolled from
its own photo), faces at the labelled box: the thin-ring printing's 84 table cards, leave one photo out,
1.000 (the classifier's head 0.964, 3 read as 8); the single-card photos' other 486 with the first photo
of each label enrolled, 0.9815 (the head 0.9774). A comparison of the card's rectified middle by
normalised correlation (as the notes in ``docs/reading.md`` describe) read 0.964 and 0.712 and did not
help averaged in: hand-held photos are seen in perspective, and the box's turn is a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float32]

#: How sharply similarities become probabilities. Over both split sets the right face's best view was
#: 0.13-0.19 (median) nearer than the next face's, the misread cards' at most 0.05: at 0.04 a margin of
#: 0.05 gives about 0.75, short of the bar at which the classifier speaks alone (0.85), and 0.1 about 0.92.
TEMPERATURE = 0.04


def unit_rows(vectors: Floats) -> Floats:
    """Rows scaled to unit length (cosine similarity is then a dot product)."""
    norm = np.linalg.norm(vectors, axis=-1, keepdims=True)
    out: Floats = (vectors / np.maximum(norm, 1e-6)).astype(np.float32)
    return out


@dataclass(frozen=True)
class DeckMatcher:
    """A deck's enrolled views: for each, its face and its classifier embedding (unit length)."""

    faces: tuple[str, ...]  # the enrolled faces, in the order of the scores
    view_face: npt.NDArray[np.int64]  # (views,) index into ``faces``
    view_embeddings: Floats  # (views, dim), unit rows

    def __post_init__(self) -> None:
        if self.view_embeddings.ndim != 2 or len(self.view_face) != len(self.view_embeddings):
            raise ValueError("one face per enrolled view")
        if len(self.view_face) and (self.view_face.min() < 0 or self.view_face.max() >= len(self.faces)):
            raise ValueError("a view's face is not among the enrolled faces")

    @staticmethod
    def enrol(faces: list[str], embeddings: Floats) -> DeckMatcher:
        """A matcher of the views ``embeddings`` (N, dim), the ``faces`` (N) they show."""
        names = tuple(sorted(set(faces)))
        return DeckMatcher(names, np.array([names.index(f) for f in faces], np.int64),
                           unit_rows(np.asarray(embeddings, np.float32)))

    def merged(self, other: DeckMatcher) -> DeckMatcher:
        """One matcher of both matchers' views."""
        faces = [self.faces[i] for i in self.view_face] + [other.faces[i] for i in other.view_face]
        return DeckMatcher.enrol(faces, np.concatenate([self.view_embeddings, other.view_embeddings]))

    def scores(self, embedding: Floats) -> Floats:
        """Each enrolled face's best view's cosine similarity to each row of ``embedding``: (N, faces)."""
        rows = unit_rows(np.atleast_2d(np.asarray(embedding, np.float32)))
        out = np.full((len(rows), len(self.faces)), -1.0, np.float32)
        if not len(self.view_face):
            return out
        similarity = rows @ self.view_embeddings.T
        for index in range(len(self.faces)):
            out[:, index] = similarity[:, self.view_face == index].max(axis=1)
        return out

    def probabilities(self, embedding: Floats) -> Floats:
        """:meth:`scores` as probabilities over :attr:`faces` (softmax at :data:`TEMPERATURE`)."""
        scores = self.scores(embedding).astype(np.float64) / TEMPERATURE
        e = np.exp(scores - scores.max(axis=1, keepdims=True))
        out: Floats = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
        return out
