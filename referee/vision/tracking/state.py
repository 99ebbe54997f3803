"""What the tracker holds: the cards it believes are on the pile, and the tentative ones with their votes."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from referee.cards import BLACK_VALUES
from referee.vision.detections import iou
from referee.vision.tracking.boxes import Box


class Share(NamedTuple):
    """A label's share of a tentative card's vote (:meth:`Candidate.ranked`)."""

    label: str
    share: float


class AlsoRead(NamedTuple):
    """Another reading of a box in the same frame (the detector keeps one box per class, so a box of
    another class in the same place is the same card read another way)."""

    label: str
    confidence: float
    colour_confidence: float


@dataclass(frozen=True, eq=False, slots=True)
class Reading:
    """One box of a frame as the detector read it, with the other readings of the same box (``also``).
    Compared and hashed by identity: the rules of one frame key what they find of a reading by the
    reading itself, and two readings of a frame are two boxes, even where they agree."""

    box: Box
    label: str
    confidence: float
    colour_confidence: float
    also: tuple[AlsoRead, ...] = ()


def face(label: str) -> str:
    """The face of a label without its colour (``red_7`` -> ``7``); a black card's label is its face."""
    return label.split("_", 1)[1] if "_" in label and label not in BLACK_VALUES else label


def colour_of(label: str) -> str | None:
    """The colour of a label (``red_7`` -> ``red``); a black card's: ``None``."""
    return label.split("_", 1)[0] if "_" in label and label not in BLACK_VALUES else None


@dataclass(eq=False)  # identity: two cards with the same label and pose are still two cards
class PileCard:
    """A card the tracker believes is on the pile."""

    label: str
    xyxy: Box
    seat: int | None
    frame_index: int
    t: float
    missing: int = 0
    #: Seen in its whole pose this frame (nothing lies on it).
    in_full_view: bool = False
    #: Every label the detector gave it while it settled (a corrected misread keeps being misread).
    reads: frozenset[str] = frozenset()
    #: The hand visit to the pile during which it settled (``MotionSample.pile_visit``).
    visit: int | None = None
    #: The hand visit during which it last went from view (``None``: not yet, or visits not counted).
    lost_in_visit: int | None = None
    #: Frames of a clear view (no arm over the pile, nothing moving over it) it had when believed.
    clear_when_believed: int = 0
    #: Believed on an unsure vote (:func:`~referee.vision.tracking.votes.unsure`): it is read again in
    #: clear view, as one believed under an arm is.
    unsure_when_believed: bool = False
    #: Since then, per label, the clear frames in which that label led the readings of its pose.
    clear_leads: dict[str, int] = field(default_factory=dict)
    #: Judged on its clear view once already, re-read or not (a card is re-read at most once: no
    #: flip-flopping).
    judged_in_clear_view: bool = False
    #: Where it came to rest: its box when last seen whole and still, with no arm over the pile,
    #: while the hand that laid it was at the pile (:func:`~referee.vision.tracking.pose.laying_hand`;
    #: ``None``: not yet seen so).
    rest: Box | None = None
    #: Labels read in its own pose during the visit that laid it, after it was believed, by tentative cards
    #: that came to nothing: the detector reads this card two ways, before any other hand came.
    read_otherwise: frozenset[str] = frozenset()

    def answers_to(self, label: str, colour_confidence: float, unsure_colour: float) -> bool:
        """``label`` may be this card: its label, one it was read as while it settled, or its face read
        in a doubtful colour."""
        if label == self.label or label in self.reads:
            return True
        return colour_confidence < unsure_colour and face(label) == face(self.label)


@dataclass(eq=False)
class Candidate:
    """A detection not yet believed: it must hold its pose for ``min_hits`` frames."""

    anchor: Box
    box: Box
    first_frame: int
    seat: int | None
    #: Where it was first seen (kept while it moves: a card sliding in comes from outside the pile).
    origin: Box
    #: Every label it was read as since ``origin``, moving or not (its votes count only steady frames),
    #: with the box it was first read so in: a tentative card can pass from one card to another
    #: (a hand over both), and only where a label was first read tells whether that card came in.
    labels: dict[str, Box] = field(default_factory=dict)
    #: When each label in ``labels`` was first read.
    read_t: dict[str, float] = field(default_factory=dict)
    #: The surest confidence each label in ``labels`` was read with.
    surest: dict[str, float] = field(default_factory=dict)
    #: Frames in which its box moved as a whole (``came_in_shift``) from the last one: a card
    #: sliding in moves frame after frame; a box passing from one card to another jumps once.
    moves: int = 0
    #: It held one pose for ``min_hits`` steady frames before its box ever moved as a whole: what it was read as
    #: there was read still, so its colour was no blur of a card on the move (:meth:`first_read_as`).
    held: bool = False
    #: Time of ``first_frame``: when the card came to rest in this pose.
    first_t: float = 0.0
    hits: int = 0
    #: Steady frames with no arm over the pile: the detector's clear view of it.
    clear: int = 0
    #: Of those, the ones since an arm was last over the pile: what it showed before an arm came says
    #: nothing of what lies there once the arm has gone (a hand reaching past hides a part of the top card
    #: before it is seen over the pile, and still as it leaves).
    clear_run: int = 0
    misses: int = 0
    #: Frames it was detected in, steady or not.
    seen: int = 1
    votes: dict[str, float] = field(default_factory=dict)
    #: The same votes by face, each at its detector confidence alone (see :meth:`ranked`).
    face_votes: dict[str, float] = field(default_factory=dict)
    colour_conf: dict[str, list[float]] = field(default_factory=dict)
    confidence: list[float] = field(default_factory=list)
    #: Boxes of the steady frames: the card's pose is their mean.
    boxes: list[Box] = field(default_factory=list)
    #: Read like the top card, in another pose on it, with nothing else on it: an identical card
    #: laid square on the top one, or the top one partly hidden (it needs longer and no arm there).
    identical: bool = False
    #: The hand visit to the pile when it took this pose (``MotionSample.pile_visit``).
    visit: int | None = None
    #: The hand's seat in each frame of its arrival in that visit (seen, not yet steady for
    #: ``min_hits`` frames): its seat is the most common of them (see :meth:`note_seat`).
    arrival_seats: list[int] = field(default_factory=list)
    #: Found to be a card already on the pile read again: never a play unless it moves.
    absorbed: bool = False
    #: The veto it was absorbed by (``None``: none, or found so closer up).
    absorbed_by: str | None = None
    #: Ready under an arm, a closer look named another face: it waits for a clear view in this pose
    #: (:func:`~referee.vision.tracking.closer.doubts`).
    doubted: bool = False
    #: The pile image before the visit during which it took this pose (``MotionSample.pile_before``).
    before: npt.NDArray[np.uint8] | None = None
    #: How far its box moved per frame when last seen (``None``: not yet seen twice).
    velocity: Box | None = None
    #: The last frame a hand was at the pile when it was first seen (``None``: not measured): a card
    #: laid comes with a hand, so a reading that starts with no hand there since is no card laid since.
    hand_frame: int | None = None

    def overlap(self, box: Box) -> float:
        """How well ``box`` continues this card: its best IoU with the card's last box moved on along
        its last motion, by up to as many frames as it has gone unseen plus this one. A card sliding in
        slows down as it lands and can go unseen for a frame under the hand; and a card coming to rest
        on its twin must continue into its own box, not into a misread of the twin that its last box
        happened to overlap more."""
        if self.velocity is None or not self.velocity.any():
            return iou(box, self.box)
        steps = self.misses + 1
        return max(iou(box, (self.box + self.velocity * (k / 2)).astype(np.float32)) for k in range(2 * steps + 1))

    def note_read(self, label: str, box: Box, t: float, confidence: float = 1.0) -> None:
        """Read as ``label`` in ``box`` at ``t``: kept if it is the first such read."""
        self.labels.setdefault(label, box)
        self.read_t.setdefault(label, t)
        self.surest[label] = max(self.surest.get(label, 0.0), confidence)

    def start_over(
        self, box: Box, frame_index: int, t: float, *, visit: int | None, seat: int | None, identical: bool,
        before: npt.NDArray[np.uint8] | None,
    ) -> None:
        """Still moving: its reading starts over from the pose ``box``, seen in ``frame_index`` at ``t``
        during hand ``visit`` (the hand's ``seat``), ``identical`` (read like the top card there) and
        ``before`` (the pile image before that visit). It keeps the seat of the hand visit that brought
        it: within one visit the hand's seat can flicker to another for a frame."""
        self.anchor, self.hits, self.clear, self.first_frame, self.first_t = box, 0, 0, frame_index, t
        self.clear_run = 0
        self.clear_votes()
        self.boxes.clear()
        if self.visit is None or self.visit != visit or self.seat is None:
            self.seat = seat if seat is not None else self.seat
            self.arrival_seats = []
        self.visit = visit
        self.absorbed = False
        self.absorbed_by = None
        self.doubted = False
        # What it was before (the top card's label, partly hidden) says nothing of this pose.
        self.identical = identical
        self.before = before

    def note_seat(self, seat: int | None) -> None:
        """A frame of its arrival, with the hand's ``seat``: its seat is the one most frames of its
        arrival give (the earliest of a tie). The hand's seat can flicker for a frame as the card comes
        into view, and can change within one visit when the next hand comes before the last has gone:
        what the frames of the card's own arrival say, they say of its hand."""
        if seat is None:
            return
        self.arrival_seats.append(seat)
        self.seat = Counter(self.arrival_seats).most_common(1)[0][0]

    def laid_t(self, label: str) -> float:
        """When the card read as ``label`` came to rest: not before it was first read so. A reading can
        begin as a misread of the card under it, cut short by the hand that brings this one, in nearly
        this pose."""
        return max(self.first_t, self.read_t.get(label, self.first_t))

    @property
    def pose(self) -> Box:
        return np.mean(self.boxes, axis=0).astype(np.float32) if self.boxes else self.anchor

    def count_frame(self, reading: Reading) -> None:
        """A steady frame: its ``reading`` (and the other readings of the same box) and pose."""
        self.vote(reading.label, reading.confidence, reading.colour_confidence)
        self.boxes.append(reading.box)
        for other in reading.also:
            self.also_read(*other)

    def vote(self, label: str, confidence: float, colour_conf: float) -> None:
        self.also_read(label, confidence, colour_conf)
        self.confidence.append(confidence)

    def also_read(self, label: str, confidence: float, colour_conf: float) -> None:
        """A vote without a frame of its own (another reading of the same box in the same frame)."""
        # A colour read with little confidence carries little weight among the face's colours.
        self.votes[label] = self.votes.get(label, 0.0) + confidence * max(colour_conf, 0.05)
        self.face_votes[face(label)] = self.face_votes.get(face(label), 0.0) + confidence
        self.colour_conf.setdefault(label, []).append(colour_conf)

    def clear_votes(self) -> None:
        """Forget every vote (the card moved: its reading starts over)."""
        self.votes.clear()
        self.face_votes.clear()
        self.colour_conf.clear()
        self.confidence.clear()

    def colour_confidence(self, label: str) -> float:
        """Mean colour confidence of its ``label`` reads (1.0 for none: a wild has no colour to read)."""
        return float(np.mean(self.colour_conf.get(label, [1.0])))

    def reads(self) -> frozenset[str]:
        """Every label with a real share of the vote (the card's other reads, for later fixes)."""
        return frozenset(label for label, share in self.ranked() if share >= 0.15)

    def ranked(self) -> list[Share]:
        """Each label's share of the vote, largest first: its face's share of the detector's confidence,
        split among the face's colours by the colour's confidence too. The colour confidence weighs one
        colour of a face against another, never one face against another: a black card has no colour to
        doubt, and a deck whose red reads unsure must not lose its red reverse to a wild draw four read
        in the same box."""
        total = sum(self.face_votes.values()) or 1.0
        by_face: dict[str, float] = {}
        for label, weight in self.votes.items():
            by_face[face(label)] = by_face.get(face(label), 0.0) + weight
        shares = (Share(label, self.face_votes.get(face(label), 0.0) / total * weight / (by_face[face(label)] or 1.0))
                  for label, weight in self.votes.items())
        return sorted(shares, key=lambda s: -s.share)

    @property
    def leading(self) -> str | None:
        """The label with the largest share of the vote (``None``: no steady frame voted yet)."""
        ranked = self.ranked()
        return ranked[0].label if ranked else None

    def first_read_as(self, label: str) -> Box | None:
        """The box it was first read in as ``label``'s face, in any colour: a colour read on the move
        under a hand says little. Not once it has held still (``held``) before it moved: a box lying still,
        read as the face in another colour, is another card, or the strip of one a hand leaves, its colour
        spoiled by the hand (a top card's strip under an arm crossing the pile, continued into the top card
        showing whole again, is no second copy of it that slid in)."""
        if self.held:
            return self.labels.get(label)
        wanted = face(label)
        return next((box for read, box in self.labels.items() if read == label or face(read) == wanted), None)
