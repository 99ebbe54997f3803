"""The game teaches the reader: cards read surely and accepted by the rules become views of the deck.

A deck nobody photographed is read by the generic classifier, trained on generated printings. Within a
game it meets the same printing again and again: a 3 it read surely in a clear view is the best evidence
of what this deck's next 3 looks like, and a matcher of such views (:class:`~referee.vision.matcher.DeckMatcher`,
as `referee learn-deck` keeps the photos' views) reads the printing's own look where the generic head
hesitates between two faces (3 and 8 when a black outline closes the 3).

An adaptation that can learn a misread is worse than none: after one wrong view it reads every later card
of that face wrong, and surely. So a card is learned only when every guard holds:

1. **Sure, twice**: the classifier's own head (not the views) names the played face at
   :data:`SURE` or more on the card's crop as it lies *and* turned half a turn, and the tracker's vote was
   not put right on the way (no ``corrected_from``) nor marked unsure.
2. **Accepted by the rules**: the referee raised no alert on the play (an illegal or impossible card is
   first evidence of a misread).
3. **Not taken back**: the view waits until the next play; it is learned only if the play is still the
   record's newest then (not corrected, re-read or undone meanwhile).
4. **Consistent**: a view the views learned so far would read as another face (by :data:`MARGIN`; for a
   face not learned yet, nearer to another face's views than :data:`NEW_FACE`) is refused: the game's
   evidence disagrees with itself.
5. **Bounded**: at most :data:`PER_FACE` views per face, the newest kept; faces are colour-blind, so
   the red 3 teaches the blue one.

The views change only how the head's share of the faces they show is split among them
(:meth:`~referee.vision.classify.FaceClassifier.probabilities`); a face not yet shown keeps the head's own
reading, and the classifier never speaks alone on their account (that stays a photographed deck's right).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from referee.cards import Card, CardError
from referee.vision.matcher import DeckMatcher, unit_rows

__all__ = ["MARGIN", "NEW_FACE", "PER_FACE", "SURE", "GameTeacher", "TopCardLook"]

log = logging.getLogger(__name__)

#: How sure the head must be of the played face, on the crop and on its half turn alike.
SURE = 0.9
#: A new view is refused when the views learned so far rate another face this much nearer (cosine).
MARGIN = 0.05
#: A face not learned yet has no views to be nearest to: its view is refused only when another face's views
#: lie nearer than this (cosine). Over the thin-ring printing's 52 photographed faces, two cards of the same
#: face in other colours lay at 0.93 (median; 5th percentile 0.76), two of different faces at 0.10 (median;
#: at most 0.59).
NEW_FACE = 0.6
#: Views kept per face (the crop and its half turn are two): the newest.
PER_FACE = 8

Floats = npt.NDArray[np.float32]


@dataclass(frozen=True)
class TopCardLook:
    """The classifier's look at a card just played: its head's probabilities for the crop as it lies and
    turned half a turn (2, classes), and the two crops' embeddings (2, dim)."""

    face_names: tuple[str, ...]
    head: Floats
    embeddings: Floats


def face_of(label: str) -> str | None:
    """The colour-blind face of a contract-1 label (``red_3`` -> ``3``), ``None`` if it is not one."""
    try:
        return Card.from_label(label).value
    except CardError:
        return None


@dataclass
class _Pending:
    face: str
    card: str
    t: float
    embeddings: Floats


@dataclass
class GameTeacher:
    """Views of the deck learned from the game itself, under the guards of the module docstring."""

    sure: float = SURE
    margin: float = MARGIN
    new_face: float = NEW_FACE
    per_face: int = PER_FACE
    _views: dict[str, deque[Floats]] = field(default_factory=dict)
    _pending: _Pending | None = None
    #: What happened to each candidate: learned, or the guard that refused it.
    counts: dict[str, int] = field(default_factory=dict)

    def _count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def consider(self, card: str, t: float, look: TopCardLook | None, *, corrected: bool, unsure: bool) -> None:
        """A play of ``card`` at ``t`` is about to be judged; ``look`` is the classifier's look at it. A
        candidate that passes guard 1 waits for :meth:`judged`."""
        self._pending = None
        face = face_of(card)
        if look is None or face is None or face not in look.face_names:
            self._count("unreadable")
            return
        if corrected or unsure:
            self._count("not_sure")
            return
        index = look.face_names.index(face)
        if float(look.head[:, index].min()) < self.sure:
            self._count("not_sure")
            return
        self._pending = _Pending(face, card, t, unit_rows(look.embeddings))

    def judged(self, alerts: Sequence[str]) -> None:
        """The referee's verdict on the candidate's play: any alert drops it (guard 2)."""
        if self._pending is not None and alerts:
            self._count("alerted")
            self._pending = None

    def confirm(self, newest_play: tuple[str, float] | None) -> DeckMatcher | None:
        """The game went on: the candidate is learned if its play is still the newest, as ``(card, t)``
        (guard 3), and consistent with the views so far (guard 4). Returns the new matcher when it changed."""
        pending, self._pending = self._pending, None
        if pending is None:
            return None
        if newest_play is None or newest_play[0] != pending.card or abs(newest_play[1] - pending.t) > 0.01:
            self._count("taken_back")
            return None
        matcher = self.matcher()
        if matcher is not None and matcher.faces:
            scores = matcher.scores(pending.embeddings).mean(axis=0)
            best = int(np.argmax(scores))
            own = matcher.faces.index(pending.face) if pending.face in matcher.faces else None
            own_score = float(scores[own]) if own is not None else self.new_face
            if matcher.faces[best] != pending.face and float(scores[best]) > own_score + self.margin:
                self._count("inconsistent")
                log.info("a sure %s was not learned: the game's views of %s are nearer", pending.card,
                         matcher.faces[best])
                return None
        views = self._views.setdefault(pending.face, deque(maxlen=self.per_face))
        views.extend(pending.embeddings)
        self._count("learned")
        return self.matcher()

    def matcher(self) -> DeckMatcher | None:
        """The views learned so far as a matcher (``None`` before the first)."""
        faces = [face for face, views in self._views.items() for _ in views]
        if not faces:
            return None
        return DeckMatcher.enrol(faces, np.stack([v for views in self._views.values() for v in views]))

    @property
    def faces_learned(self) -> dict[str, int]:
        """Views kept per face."""
        return {face: len(views) for face, views in sorted(self._views.items())}
