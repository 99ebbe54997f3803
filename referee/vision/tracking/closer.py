"""The closer look: a card about to be believed, or re-read, is read again from a crop around it.

The pipeline supplies the look (:class:`SecondLook`: the detector on a crop of the pile view, and the face
classifier); the tracker asks it only with no arm over the pile, and takes its face only when it is sure
of another one than the pile view's (the look's own ``confidence``: how sure is sure enough depends on
who reads), keeping the colour the pile view read.

A face of the other kind (a black card for a coloured one, or the other way round) takes a surer look,
its ``across`` bar: a printing the detector never learned can have its wild draw four boxed as a yellow 5
while both closer readers name the wild draw four at 0.97 and more. The card's own pixels must agree:
a black card reads as no one colour (its four colours split the vote), a coloured card as one
(:data:`ONE_COLOUR`); a coloured card named for a black one takes the colour read there (``colour``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from referee.cards import BLACK_VALUES
from referee.vision.card_shape import card_length, holds_whole_card
from referee.vision.tracking.boxes import Box
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.state import PileCard, face

log = logging.getLogger(__name__)


#: The share of a card's coloured pixels that one colour must win for the card to read as coloured: a
#: closer look names a black card for a coloured one only under it, a coloured card for a black one only
#: at it or over it. On the whole-table views of four held-out printings (``benchmarks/printings_eval.py``,
#: read by :func:`referee.vision.colour.read_colour` in each card's box) the 15 black cards' largest share was
#: 0.29-0.51 and the 465 coloured cards' 0.73-1.0 (1 % under 0.78). A fractions card that both closer readers
#: take for a wild is still one colour, so it stays a coloured card.
ONE_COLOUR = 0.6

#: Where the card's own pixels settle its kind whatever its face: one colour's share of its coloured pixels at
#: least this is a coloured card, and a closer look naming a coloured face for a card boxed as a black one then
#: needs only the bar of a face of the same kind, not the ``across`` bar (two readers and the pixels agree).
#: Measured as :data:`ONE_COLOUR` was: black cards 0.29-0.51, coloured cards 0.73-1.0. A thin-ring printing's
#: red draw two boxed as a wild draw four read draw two at 0.87 by both closer readers, its pixels 0.999 red.
#: The other way (a black face for a card boxed as a coloured one) keeps the ``across`` bar: a coloured card
#: half hidden or in glare can split its vote too.
ONE_COLOURED = 0.9

#: A closer look's reading: each face it names with its probability, ``(face, probability)``, surest first.
Faces = Sequence[tuple[str, float]]


class SecondLook(Protocol):
    """A closer look at the card in ``pose``: its faces, surest first, with their scores. ``whole``: the
    card lies in full view on a clear pile (the pipeline's face classifier may then speak alone).
    ``confidence``: how sure of another face than the pile view's the look must be for its face to be
    taken (a property of the reader: two readers averaged are surer when right than one alone).
    ``across``: how sure of a face of the other kind (black for coloured, coloured for black) it must be,
    ``None`` for never; ``colour(pose)`` the colour it reads at the card and the share of the card's
    coloured pixels that voted for it (naming the other kind needs it)."""

    @property
    def confidence(self) -> float: ...

    @property
    def across(self) -> float | None: ...

    def __call__(self, pose: Box, *, whole: bool = False) -> Faces: ...

    def colour(self, pose: Box) -> tuple[str, float] | None: ...


@dataclass(frozen=True)
class CloserLook:
    """A :class:`SecondLook` made of a function that reads the faces, the bar its readings must pass, and
    (to name a card of the other kind) the surer bar and a function reading the colour at a pose."""

    read: Callable[..., Faces]
    confidence: float
    across: float | None = None
    read_colour: Callable[[Box], tuple[str, float] | None] | None = None

    def __call__(self, pose: Box, *, whole: bool = False) -> Faces:
        return self.read(pose, whole=whole)

    def colour(self, pose: Box) -> tuple[str, float] | None:
        return self.read_colour(pose) if self.read_colour is not None else None


def closer_label(label: str, faces: Faces, confidence: float, *,
                 across: float | None = None, colour: Callable[[], tuple[str, float] | None] | None = None
                 ) -> str | None:
    """The label a closer look's ``faces`` (surest first) give the card read as ``label``: its surest
    face when at least ``confidence`` and another than ``label``'s, with ``label``'s colour. A face of
    the other kind (a black card for a coloured one, or a coloured one for a black one) only when at
    least ``across`` (``None``: never) and when ``colour()`` (the colour read at the card, and its share
    of the vote) agrees: a black card's pixels split between colours (share under :data:`ONE_COLOUR`), a
    coloured card's are one colour, which it takes; a coloured face for a card whose pixels are nearly all one
    colour (:data:`ONE_COLOURED`) needs only ``confidence``. ``None`` when it agrees, is unsure, names the back or
    a label with a colour, or the other kind against the card's colour."""
    if not faces:
        return None
    surest, sure = faces[0]
    if (sure < confidence or label == "back" or surest in (face(label), "back")
            or ("_" in surest and surest not in BLACK_VALUES)):
        return None
    black = surest in BLACK_VALUES
    if black == (label in BLACK_VALUES):
        return surest if black else f"{label.split('_', 1)[0]}_{surest}"
    if across is None:
        return None
    read = colour() if colour is not None else None
    if read is None or (read[1] >= ONE_COLOUR) == black:
        return None
    if sure < (across if black or read[1] < ONE_COLOURED else confidence):
        return None
    return surest if black else f"{read[0]}_{surest}"


def look_closer(
    look: SecondLook | None, arm_over_pile: bool, pose: Box, label: str, *, whole: bool = False
) -> str | None:
    """The label a closer ``look`` at ``pose`` gives the card read as ``label``: its face when the look
    is sure of another one (``look.confidence``), with the colour read in the pile view (the
    same pixels); a face of the other kind when it passes ``look.across``, a coloured one with the
    colour the look reads there. ``None`` when it agrees, is unsure or cannot be taken (no ``look``, an
    arm over the pile).

    ``whole``: the top card in its pose on a clear pile, nothing being laid over it (the face
    classifier may then speak alone: see ``referee.vision.classify.CLASSIFIER_ALONE_CONFIDENCE``)."""
    if look is None or arm_over_pile:
        return None
    faces = look(pose, whole=whole)
    closer = closer_label(label, faces, look.confidence, across=look.across, colour=lambda: look.colour(pose))
    if closer is not None:
        _, sure = faces[0]
        log.info("%s read closer up as %s (%.2f)", label, closer, sure)
    return closer


def doubts(look: SecondLook | None, pose: Box, label: str, *, whole: bool = False) -> str | None:
    """The face a closer ``look`` at ``pose`` names, under an arm, for the card ready to be believed as
    ``label``: the label :func:`closer_label` would give it, or ``None`` when it agrees or is unsure. Under an
    arm the look may not name the card (fingers near it fool the look as they fool the pile view), but it
    may hold it back: a card it names otherwise waits for the clear view, where the look speaks
    (:func:`look_closer`). A printing the detector reads confidently wrong (a ring-printed 3 read 8) is
    otherwise said wrong first under the arm that laid it, its alerts raised and taken back. ``whole``: the
    card lies whole (:func:`lies_whole`), where the face classifier may speak alone: here it only holds a
    card back."""
    if look is None:
        return None
    return closer_label(label, look(pose, whole=whole), look.confidence, across=look.across,
                        colour=lambda: look.colour(pose))


def name_unread(
    look: SecondLook | None, arm_over_pile: bool, pose: Box, label: str, *, whole: bool = False
) -> str | None:
    """The label of a card found but never read surely (its votes under the tracker's ``min_confidence``:
    :func:`~referee.vision.tracking.frame.readable`): the closer look must be sure of a face there (its
    own ``confidence``), the pile view's or another (:func:`closer_label`), or it is no card to believe
    (``None``). A fractions deck's card the detector has no class for scatters its scores (a 3/9 read at
    0.07), and what it scattered them on must be read, not guessed: a face guessed from such scores is a
    play that nobody made."""
    if look is None or arm_over_pile:
        return None
    return named_surely(label, look(pose, whole=whole), look.confidence, across=look.across,
                        colour=lambda: look.colour(pose))


def named_surely(
    label: str, faces: Faces, confidence: float, *, across: float | None = None,
    colour: Callable[[], tuple[str, float] | None] | None = None,
) -> str | None:
    """The label ``faces`` (a closer look's, surest first) name for a card found but not read as ``label``:
    ``label`` itself when the surest face is its own, read at ``confidence`` or more, another when
    :func:`closer_label` takes it, ``None`` when the look is not that sure."""
    if not faces:
        return None
    surest, sure = faces[0]
    if sure < confidence:
        return None
    if surest == face(label):
        return label
    return closer_label(label, faces, confidence, across=across, colour=colour)


def lies_whole(cfg: TrackerConfig, pile: Sequence[PileCard], pose: Box) -> bool:
    """Whether a card just landed in ``pose`` lies whole: as big as the whole cards on the pile
    (card-shaped, and ``whole_length_share`` of their median long side whatever the angles; the first card,
    with none to compare, is whole)."""
    whole = [card_length(card.xyxy) for card in pile if card.in_full_view]
    return not whole or holds_whole_card(pose, float(np.median(whole)), cfg.whole_length_share)

