"""From per-frame detections to observations: one ``play`` per card landing on the pile.

:class:`PileTracker` is called once per frame, empty frames too (norfair style). Two knobs counted
in frames decide what is believed: a new card must hold one pose for ``min_hits`` frames before it
counts, and a tentative card unseen for ``max_misses`` frames is dropped (defaults from the fps,
:meth:`TrackerConfig.for_fps`). A card in a moving hand keeps changing pose, so it never settles; a
single glare frame can drop or misread a card for a frame or two without effect, because labels
are voted over the frames of the steady pose.

The pile is remembered as the cards already on it (label and pose): a detection that matches one
of them (same label, same place, or a part of it peeking out from under the top card) is that
card, not a new play. A card laid on an identical one (jump-in, stacking) is new because it lies
in a new pose (moved, or turned about the same centre: a pile card never moves or turns). A top
card that disappears for ``takeback_frames`` while the card under it shows again was taken back.

When the vote is unsure (close labels, or a doubtful colour reading) and the winner is illegal
right now, a legal runner-up (or the same face in the only legal colour) is preferred, and the
observation says ``corrected_from``.

:class:`MotionDetector` supplies what the tracker cannot see in detections: where a hand came
from (the seat, from the direction it entered the pile zone), hands reaching into the stock zone
(``draw`` observations), and which parts of the pile are covered by moving hands.
"""

from __future__ import annotations

import logging
import math
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import BLACK_VALUES, CLASSIC_COLOURS, Colour
from referee.vision.calibration import CalibrationProfile, Point
from referee.vision.detections import Detections, iou
from referee.vision.detections import box_area as _area
from referee.vision.detections import intersection as _intersection

log = logging.getLogger(__name__)

Box = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]


class SecondLook(Protocol):
    """A closer look at the card in ``pose``: its faces, surest first, with their scores. ``whole``: the
    card lies in full view on a clear pile (the pipeline's face classifier may then speak alone)."""

    def __call__(self, pose: Box, *, whole: bool = False) -> Sequence[tuple[str, float]]: ...


_DILATE = np.ones((3, 3), np.uint8)
#: Share of the frame unlike the background above which the camera moved (arms cover ~10%).
_MAX_FOREGROUND = 0.3
#: Share of the stock zone standing out from the table that is a hand there (``MotionDetector._slow_hand``).
_HELD_SHARE = 0.02
Observation = dict[str, Any]


def _face(label: str) -> str:
    return label.split("_", 1)[1] if "_" in label and label not in BLACK_VALUES else label


def closer_label(label: str, faces: Sequence[tuple[str, float]], confidence: float) -> str | None:
    """The label a closer look's ``faces`` (surest first) give the card read as ``label``: its surest
    face when at least ``confidence`` and another than ``label``'s, with ``label``'s colour. ``None``
    when it agrees, is unsure, or names a face of the other kind (a black card for a coloured one, the
    back, a label with a colour)."""
    if not faces:
        return None
    face, sure = faces[0]
    if sure < confidence or face in (_face(label), "back"):
        return None
    if (face in BLACK_VALUES) != (label in BLACK_VALUES) or ("_" in face and face not in BLACK_VALUES):
        return None
    return face if face in BLACK_VALUES else f"{label.split('_', 1)[0]}_{face}"


def turned(first: Box, now: Box) -> float:
    """How much a box changed shape the way a card turned in place changes it: the lesser of its
    growth along one axis and its shrinking along the other, as shares of its first size (0.0 where
    it grew on both axes or shrank on both, as a box swollen by a hand or cut short by a card over
    it does)."""
    dw = float(now[2] - now[0]) / max(float(first[2] - first[0]), 1.0) - 1.0
    dh = float(now[3] - now[1]) / max(float(first[3] - first[1]), 1.0) - 1.0
    return max(min(dw, -dh), min(-dw, dh), 0.0)


def containment(inner: Box, outer: Box) -> float:
    """How much of ``inner`` lies inside ``outer`` (1.0: all of it)."""
    area = _area(inner)
    return _intersection(inner, outer) / area if area > 0 else 0.0


def translation(first: Box, now: Box) -> float:
    """How far a box moved as a whole from ``first`` to ``now``, as a share of its first size: along
    the axis where both its edges moved the same way, the lesser of the two shifts (0.0 where no axis
    did: a box that only grew or shrank on one side, or both ways, changed shape in place)."""
    shifts = []
    for lo, hi in ((0, 2), (1, 3)):
        d_lo, d_hi = float(now[lo] - first[lo]), float(now[hi] - first[hi])
        size = max(float(first[hi] - first[lo]), 1.0)
        shifts.append(min(abs(d_lo), abs(d_hi)) / size if d_lo * d_hi > 0 else 0.0)
    return max(shifts)


def overhang(box: Box, pose: Box) -> float:
    """How far ``box`` sticks out of ``pose`` on its worst side, as a share of the pose's size that way."""
    w, h = max(float(pose[2] - pose[0]), 1.0), max(float(pose[3] - pose[1]), 1.0)
    return max(float(pose[0] - box[0]) / w, float(box[2] - pose[2]) / w,
               float(pose[1] - box[1]) / h, float(box[3] - pose[3]) / h, 0.0)


@dataclass(frozen=True)
class TrackerConfig:
    """Debounce knobs (frames) and thresholds; :meth:`for_fps` scales the frame counts."""

    min_hits: int = 5
    max_misses: int = 5
    takeback_frames: int = 30
    min_confidence: float = 0.35
    #: A box this close to its anchor is the same pose (the card lies still).
    stable_iou: float = 0.8
    #: Frame-to-frame association of a tentative card.
    match_iou: float = 0.3
    #: A detection this close to a card already on the pile is that card...
    known_iou: float = 0.6
    #: ...or one this much inside it (the part that peeks out from under the top card).
    known_containment: float = 0.85
    #: The top card is matched only in its own pose; a card whole in this pose shows nothing lies on it.
    same_pose_iou: float = 0.75
    #: Share of moving pixels in a card's box above which the frame does not count towards it.
    motion_block: float = 0.2
    #: Below this colour confidence, or with a runner-up this close, a label is unsure (and may give
    #: way to a legal runner-up). Over 21 dev games (101-121, 363 cards, 44 of them with a runner-up)
    #: the leader was illegal and the runner-up legal four times: with the runner-up at 0.16, 0.43 and
    #: 0.54 of the leader the leader was right (injected misplays the referee must see), at 0.74 the
    #: runner-up (a green 1 read as a 7, dev 119).
    unsure_colour: float = 0.6
    unsure_runner_up: float = 0.7
    #: Below this mean colour confidence a reading also waits for a clear view (see ``_confirm``): a
    #: hand next to a card tints what is read of it (dev seed 139: a blue skip sliding in under a
    #: hand read red at 0.55-0.67, then blue at 1.0 once the hand had gone; steady cards read 0.8-1.0).
    wait_colour: float = 0.75
    #: Mean detector confidence below which (or with its vote split as above) a card is confirmed
    #: only once no arm is over the pile, and only where the pile changed during the hand's visit:
    unsure_confidence: float = 0.7
    #: grey levels (of 255) a pixel must change by, and the share of the card's box that must change.
    change_level: int = 30
    laid_share: float = 0.15
    #: ... measured outside the cards laid in the reading's own visit when at least this share of
    #: its box lies outside them (see ``PileTracker._nothing_laid_there``).
    beside_laid_share: float = 0.25
    #: Cards remembered on the pile: the last this many laid, and any older one still showing (see
    #: ``PileTracker._remembered``); the others are buried for good.
    memory: int = 8
    #: Two boxes of one frame overlapping this much are one card read two ways (per-class NMS).
    duplicate_iou: float = 0.9
    #: A new read overlapping a pile card this much (or inside it), with no hand visit since the top
    #: card was laid, is that card.
    reread_iou: float = 0.5
    #: A box first seen (or first read as its face) this much inside a pile card's pose came in over
    #: it only if it has since moved as a whole by ``came_in_shift`` of its size (see
    #: ``PileTracker._came_in``). Dev seed 593's yellow 5, sliding onto its twin, was first seen 0.68
    #: inside the twin's pose; dev seeds 1006 and 1008's twins 0.83, and seed 1040's stirred box too.
    came_in_containment: float = 0.75
    came_in_shift: float = 0.06
    #: Share of a box in a pile card's pose that a card outside that pose must cover before the
    #: box's colour reading is taken to be that card's (see ``PileTracker._colour_spoiled``).
    spoiling_overlap: float = 0.1
    #: A box sticking out of a pile card's pose by more than this share of its size (boxes of a
    #: still card jitter by 1-3 %) is not that card read otherwise, with no arm over the pile.
    max_overhang: float = 0.06
    #: A box sticking out of the pose of a card under the top one by more than this share, read as
    #: that card, with no arm over the pile, is a card like it laid over it: a buried card only ever
    #: shows less of itself (twice ``max_overhang``: its own label says more than another one does).
    max_buried_overhang: float = 0.12
    #: Share of the top card's box a reading in another pose must cover to be what hides it.
    hides_top_share: float = 0.5
    #: Share of a box lying where the top card, seen only in part with no arm over the pile, no
    #: longer shows, above which the box is a card laid over the top card, never one under it
    #: (see ``PileTracker._over_hidden_top``).
    over_top_share: float = 0.25
    #: A card believed while an arm was over it (fewer than ``min_hits`` clear frames) is read again
    #: in clear view: after this many clear frames in its pose (0: three times ``min_hits``), a label
    #: other than its own that led in at least ``reread_share`` of them re-reads it (a ``reread``).
    reread_frames: int = 0
    reread_share: float = 0.9
    #: A closer look (``PileTracker.second_look``) sure of another face at least this much replaces
    #: the face read in the pile view. On dev games 400-429 (509 plays, round 7's model) no crop read
    #: alike as it lies and turned at 0.85 or more named a wrong face; one read alone did (seed 419).
    second_look_confidence: float = 0.85
    #: A card just landed whose pose is at least this share of the area of the whole cards on the pile
    #: lies whole: its closer look may let the face classifier (which reads the camera's own pixels and
    #: was trained on whole cards) speak alone (``classify.CLASSIFIER_ALONE_CONFIDENCE``). Lower: more
    #: strips of half-hidden cards read by a model that never learned them; higher: fewer misreads of
    #: an unfamiliar printing put right.
    whole_area_share: float = 0.8

    @classmethod
    def for_fps(cls, fps: float, **overrides: Any) -> TrackerConfig:
        """Defaults for a camera at ``fps``: steady for ~0.15 s, dropped after ~0.2 s, take-back after 1 s."""
        fps = fps if fps and fps > 0 else 30.0
        base = cls(
            min_hits=max(3, round(0.15 * fps)),
            max_misses=max(2, round(0.2 * fps)),
            takeback_frames=max(4, round(1.0 * fps)),
        )
        return cls(**{**base.__dict__, **overrides})


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
    #: Believed on an unsure vote (``PileTracker._unsure``): it is read again in clear view, as one
    #: believed under an arm is.
    unsure_when_believed: bool = False
    #: Since then, per label, the clear frames in which that label led the readings of its pose.
    clear_leads: dict[str, int] = field(default_factory=dict)
    #: Judged on its clear view once already, re-read or not (a card is re-read at most once: no
    #: flip-flopping).
    judged_in_clear_view: bool = False
    #: Where it came to rest: its box when last seen whole and still, with no arm over the pile,
    #: during the visit that laid it (``None``: not yet seen so).
    rest: Box | None = None

    def answers_to(self, label: str, colour_confidence: float, unsure_colour: float) -> bool:
        if label == self.label or label in self.reads:
            return True
        # A doubtful colour reading of the same face.
        return colour_confidence < unsure_colour and _face(label) == _face(self.label)


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
    #: Time of ``first_frame``: when the card came to rest in this pose.
    first_t: float = 0.0
    hits: int = 0
    #: Steady frames with no arm over the pile: the detector's clear view of it.
    clear: int = 0
    misses: int = 0
    #: Frames it was detected in, steady or not.
    seen: int = 1
    votes: dict[str, float] = field(default_factory=dict)
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
    #: ``min_hits`` frames): its seat is the most common of them (see ``PileTracker._note_seat``).
    arrival_seats: list[int] = field(default_factory=list)
    #: Found to be a card already on the pile read again: never a play unless it moves.
    absorbed: bool = False
    #: The pile image before the visit during which it took this pose (``MotionSample.pile_before``).
    before: npt.NDArray[np.uint8] | None = None
    #: How far its box moved per frame when last seen (``None``: not yet seen twice).
    velocity: Box | None = None
    #: The last frame a hand was at the pile when it was first seen (``None``: not measured): a card
    #: laid comes with a hand, so a reading that starts with no hand there since is no card laid since.
    hand_frame: int | None = None

    def overlap(self, box: Box) -> float:
        """How well ``box`` continues this card: its best IoU with the card's last box moved on along
        its last motion, by up to as many frames as it has gone unseen plus this one (a card sliding
        in slows down as it lands, and can go unseen for a frame under the hand: dev seed 419, a blue
        4 read once at 0.29 and lost, then found in its twin's pose, too far from its last box; dev
        seed 559, a blue 6 coming to rest on its twin, over a misread of the twin that its last box
        overlapped less than the misread's did)."""
        if self.velocity is None or not self.velocity.any():
            return iou(box, self.box)
        steps = self.misses + 1
        return max(iou(box, (self.box + self.velocity * (k / 2)).astype(np.float32)) for k in range(2 * steps + 1))

    def note_read(self, label: str, box: Box, t: float, confidence: float = 1.0) -> None:
        """Read as ``label`` in ``box`` at ``t``: kept if it is the first such read."""
        self.labels.setdefault(label, box)
        self.read_t.setdefault(label, t)
        self.surest[label] = max(self.surest.get(label, 0.0), confidence)

    def laid_t(self, label: str) -> float:
        """When the card read as ``label`` came to rest: not before it was first read so. A reading can
        begin as a misread of the card under it, cut short by the hand that brings this one, in nearly
        this pose (dev seed 640: a red 1 read as a 7 under seat 3's hand, 0.32 s before the red 5 it
        brought landed there and was read)."""
        return max(self.first_t, self.read_t.get(label, self.first_t))

    @property
    def pose(self) -> Box:
        return np.mean(self.boxes, axis=0).astype(np.float32) if self.boxes else self.anchor

    def vote(self, label: str, confidence: float, colour_conf: float) -> None:
        self.also_read(label, confidence, colour_conf)
        self.confidence.append(confidence)

    def also_read(self, label: str, confidence: float, colour_conf: float) -> None:
        """A vote without a frame of its own (another reading of the same box in the same frame)."""
        # A colour read with little confidence carries little weight for the whole label.
        self.votes[label] = self.votes.get(label, 0.0) + confidence * max(colour_conf, 0.05)
        self.colour_conf.setdefault(label, []).append(colour_conf)

    def colour_confidence(self, label: str) -> float:
        """Mean colour confidence of its ``label`` reads (1.0 for none: a wild has no colour to read)."""
        return float(np.mean(self.colour_conf.get(label, [1.0])))

    def reads(self) -> frozenset[str]:
        """Every label with a real share of the vote (the card's other reads, for later fixes)."""
        return frozenset(label for label, share in self.ranked() if share >= 0.15)

    def ranked(self) -> list[tuple[str, float]]:
        total = sum(self.votes.values()) or 1.0
        return sorted(((k, v / total) for k, v in self.votes.items()), key=lambda kv: -kv[1])

    @property
    def leading(self) -> str | None:
        """The label with the most votes (``None``: no steady frame voted yet)."""
        return max(self.votes, key=self.votes.__getitem__) if self.votes else None


@dataclass(frozen=True)
class MotionSample:
    """What moved in one frame: the pile zone's moving pixels (top-down), the hand's seat, draws."""

    #: Moving pixels over the top-down pile image, low resolution (``None``: not measured).
    pile_mask: Mask | None = None
    #: Size (w, h) of the top-down pile image the detections are in.
    pile_size: tuple[int, int] = (0, 0)
    #: Seat of the hand that last reached into the pile zone (``None``: unknown).
    seat: int | None = None
    #: A hand is over the pile zone now.
    hand_over_pile: bool = False
    #: The whole view changed at once (a light switched, a glare, the camera bumped).
    global_change: bool = False
    #: Seats whose hands just left the stock zone: one ``draw`` each.
    draws: tuple[int | None, ...] = ()
    #: Motion in the pile zone since the previous sample (a hand came by).
    disturbed: bool = True
    #: For each draw, how many frames ago its hand first came near the stock.
    draw_started: tuple[int, ...] = ()
    #: An arm reaches into the pile zone now (moving or holding still).
    arm_over_pile: bool = False
    #: How many hand visits have reached into the pile zone so far (``None``: not counted). A card
    #: is laid during a visit: a new read with no visit since the last card is that card again.
    pile_visit: int | None = None
    #: The top-down pile image, grey and low resolution: now, and as it lay just before the latest
    #: visit began (``None``: not kept). A card laid during that visit changed the pixels where it lies.
    pile_now: npt.NDArray[np.uint8] | None = None
    pile_before: npt.NDArray[np.uint8] | None = None

    def fraction_in(self, xyxy: Box) -> float:
        """Share of ``xyxy`` (top-down pile pixels) that moved."""
        if self.pile_mask is None:
            return 0.0
        area = low_res_area(xyxy, self.pile_size, self.pile_mask.shape)
        return float(self.pile_mask[area].mean()) if area is not None else 0.0


def low_res_area(xyxy: Box, size: tuple[int, int], shape: tuple[int, ...]) -> tuple[slice, slice] | None:
    """The pixels of an image of ``shape`` (rows, cols) under ``xyxy`` given in pixels of an image of
    ``size`` (width, height): the same view at a lower resolution. ``None`` when nothing is under it."""
    if size[0] <= 0 or size[1] <= 0:
        return None
    h, w = shape[:2]
    sx, sy = w / size[0], h / size[1]
    x1, y1 = max(int(xyxy[0] * sx), 0), max(int(xyxy[1] * sy), 0)
    x2, y2 = min(int(np.ceil(xyxy[2] * sx)), w), min(int(np.ceil(xyxy[3] * sy)), h)
    if x2 <= x1 or y2 <= y1:
        return None
    return slice(y1, y2), slice(x1, x2)


def _first_read_as(cand: Candidate, label: str) -> Box | None:
    """The box ``cand`` was first read in as ``label``'s face, in any colour: a colour read on the
    move under a hand says little (dev seed 419: a blue 4 sliding in read red until it lay on its twin)."""
    face = _face(label)
    return next((box for read, box in cand.labels.items() if read == label or _face(read) == face), None)


class PileTracker:
    """Debounced pile state -> contract-2 observations (``start``, ``play``, ``draw``), and two for the
    pipeline alone: ``take_back`` (the top card lifted off) and ``reread`` (the top card read otherwise
    in clear view than under the hand that laid it).

    ``legal_now`` (usually ``Referee.legal_now``) lets the tracker fix unsure reads, and
    ``possible_now`` (usually ``Referee.possible_now``) doubt reads of a card the deck cannot hold
    any more; ``palette`` is
    the deck's colours (alternatives for a doubtful colour). ``expect_start``: the first card on an
    empty pile is the ``start`` card turned from the stock.
    """

    def __init__(
        self,
        config: TrackerConfig | None = None,
        *,
        fps: float = 30.0,
        legal_now: Callable[[str], bool] | None = None,
        possible_now: Callable[[str], bool] | None = None,
        palette: Sequence[Colour] = CLASSIC_COLOURS,
        expect_start: bool = True,
        second_look: SecondLook | None = None,
    ) -> None:
        self.config = config or TrackerConfig.for_fps(fps)
        self.legal_now = legal_now
        self.possible_now = possible_now
        #: The faces read in a closer look at a pose of the current frame, surest first (the pipeline
        #: crops the pile view around it for the detector: :func:`referee.vision.detect.look_closer`).
        self.second_look = second_look
        self.palette = tuple(palette)
        self.pile: list[PileCard] = []
        self.candidates: list[Candidate] = []
        self.taken_back: list[PileCard] = []
        self.expect_start = expect_start
        #: Frames with motion over the pile: a new card comes with a hand (``None``: not measured).
        self._motion_frames: deque[int] | None = None
        #: The last frame a hand or arm was over the pile (-1: none yet; ``None``: no motion measured).
        self._hand_frame: int | None = None
        self._first_frame: int | None = None
        self._known_boxes: list[Box] = []
        self._identical_boxes: list[Box] = []
        self._arm_over_pile = False
        self._visit: int | None = None
        self._pile_now: npt.NDArray[np.uint8] | None = None
        self._pile_size: tuple[int, int] = (0, 0)
        #: Other readings of this frame's boxes, by ``id`` of the box (see :meth:`_usable`).
        self._also_read: dict[int, list[tuple[str, float, float]]] = {}
        #: The tentative cards each box of this frame continues, by ``id`` of the box (see :meth:`_slid_in`).
        self._continued: dict[int, list[Candidate]] = {}
        #: Readings found to be no new card (label, pose), newest last: the same misread comes back
        #: each time a hand passes, and it is no sign that the hand laid a card (see :meth:`_draws`).
        self._ghosts: deque[tuple[str, Box]] = deque(maxlen=self.config.memory)
        self._pending_draws: list[_PendingDraw] = []
        #: Per hand visit to the pile, the frames its hand was seen from each seat (the latest visits).
        self._visit_seats: dict[int, Counter[int]] = {}

    def reset(self, expect_start: bool = True) -> None:
        """A new round: the pile is gathered; the next card is the start card."""
        self.pile.clear()
        self.candidates.clear()
        self.taken_back.clear()
        self._ghosts.clear()
        self._pending_draws.clear()
        self._visit_seats.clear()
        self.expect_start = expect_start
        if self._motion_frames is not None:
            self._motion_frames.clear()

    @property
    def top(self) -> PileCard | None:
        return self.pile[-1] if self.pile else None

    @property
    def waiting(self) -> bool:
        """A tentative card is neither believed nor found to be no card yet. The detector should look at
        every frame until it is: on a still pile it looks only now and then, and a card waiting for a
        clear view would wait for those looks (seed 1010: a wild draw four laid on another, believed
        2.5 s after the arm had gone, after the next player's first draw, which then counted for
        nothing and left the penalty a card short)."""
        return any(not c.absorbed for c in self.candidates)

    # The frame step.
    def update(
        self,
        detections: Detections,
        t: float,
        frame_index: int,
        motion: MotionSample | None = None,
        *,
        fresh: bool = True,
    ) -> list[Observation]:
        """Feed one frame's detections (top-down pile pixels); returns the observations it completes.

        ``fresh=False``: the detector was not run on this frame (the pile did not change) and
        ``detections`` are the last ones again; they are no new evidence, so nothing is counted.
        """
        cfg = self.config
        out: list[Observation] = []
        if self._first_frame is None:
            self._first_frame = frame_index
        if motion is not None:
            self._visit = motion.pile_visit
            if motion.pile_visit is not None and motion.seat is not None and motion.arm_over_pile:
                self._visit_seats.setdefault(motion.pile_visit, Counter())[motion.seat] += 1
                for old in [v for v in self._visit_seats if v < motion.pile_visit - 2 * cfg.memory]:
                    del self._visit_seats[old]
            self._pile_now, self._pile_size = motion.pile_now, motion.pile_size
            if motion.hand_over_pile or motion.arm_over_pile:
                self._hand_frame = frame_index
            elif self._hand_frame is None:
                self._hand_frame = -1
            out.extend(self._draws(motion, t, frame_index))
            if self._motion_frames is None:
                self._motion_frames = deque(maxlen=256)
            if motion.disturbed:
                self._motion_frames.append(frame_index)
        if not fresh:
            return out
        self._arm_over_pile = motion is not None and motion.arm_over_pile
        blocked_frame = motion is not None and motion.global_change
        unknown = self._match_known(detections, motion, blocked_frame)
        self._veto_misreads()
        self._associate(unknown, motion, blocked_frame, frame_index, t)
        out.extend(self._confirm(t, frame_index))
        reread = self._reread_in_clear_view(detections, motion, blocked_frame, t, frame_index)
        if reread is not None:
            out.append(reread)
        taken = self._check_take_back(t, frame_index, motion, blocked_frame)
        if taken is not None:
            out.append(taken)
        self.candidates = [c for c in self.candidates if c.misses <= cfg.max_misses]
        if self._pending_draws:
            out.extend(self._settle_draws(frame_index))
        return out

    def _usable(self, detections: Detections) -> list[tuple[Box, str, float, float]]:
        if len(detections) and not detections.labels:
            log.warning("detections without labels ignored (frame of %d boxes)", len(detections))
            return []
        colour = detections.colour_confidence
        rows: list[tuple[Box, str, float, float]] = []
        self._also_read = {}
        order = sorted(range(len(detections)), key=lambda i: -float(detections.confidence[i]))
        for i in order:
            label = detections.labels[i]
            conf = float(detections.confidence[i])
            if conf < self.config.min_confidence or label == "back":
                continue
            cc = float(colour[i]) if len(colour) else 1.0
            box = detections.xyxy[i].astype(np.float32)
            # The detector's NMS keeps one box per class: a box of another class in the same place
            # is the same card read another way. It joins the surer box's reading as a vote.
            same = next((row for row in rows if iou(box, row[0]) >= self.config.duplicate_iou), None)
            if same is not None:
                self._also_read.setdefault(id(same[0]), []).append((label, conf, cc))
                continue
            rows.append((box, label, conf, cc))
        return rows

    def _is_known(
        self, box: Box, label: str, colour_conf: float, card: PileCard, *, top: bool, hides_top: bool = False
    ) -> bool:
        cfg = self.config
        if not card.answers_to(label, colour_conf, cfg.unsure_colour):
            return False
        if label != card.label and not self._arm_over_pile and overhang(box, card.xyxy) > cfg.max_overhang:
            # Its other reading, sticking out of its pose where no hand can make the box swell: a
            # card laid nearly square on it (a 1 on a 7 sometimes read as a 1; dev seed 2001: a blue
            # 6 laid over a blue 9 under the top card, the 9 once read as a 6 as it settled, was taken
            # for the 9, its pose grown to the 6's).
            return False
        if (not top and label == card.label and not self._arm_over_pile
                and overhang(box, card.xyxy) > cfg.max_buried_overhang):
            # Its own label, sticking out of the pose of a card that other cards have covered since:
            # a card like it, laid over it (held-out seed 4057, now dev: a second wild, slid in too
            # fast to be followed, came to rest 0.63 IoU over the first, which lay under a blue 2
            # and stuck out 21 % to its left; taken for the first, it was played with the next
            # player's card and seat).
            return False
        if top:
            # The top card shows whole in its pose, or (a card landing on it) only a part of it. The
            # same card whole in a pose nearby is an identical card laid on it (jump-in, stacking).
            # Inside its pose, smaller or nearly whole, it is the top card as far as the pose goes;
            # :meth:`_match_known` then tells an identical card from the top one partly hidden.
            return self._in_pose(box, card.xyxy) or self._shows_more_in_its_visit(box, label, card)
        if hides_top:
            # A card under the top one shows where the top card lay only if the top card was taken
            # off it, and then it lies exactly in its own pose; anything less is a new card laid over
            # the top one (an identical card to one further down, say).
            return iou(box, card.xyxy) >= cfg.stable_iou
        return iou(box, card.xyxy) >= cfg.known_iou or containment(box, card.xyxy) >= cfg.known_containment

    def _match_known(
        self, detections: Detections, motion: MotionSample | None, blocked_frame: bool
    ) -> list[tuple[Box, str, float, float]]:
        """Mark the pile cards seen this frame; returns the detections that are not pile cards."""
        recent = self._remembered()
        seen: set[int] = set()
        full: set[int] = set()
        unknown = []
        self._known_boxes = []
        self._identical_boxes = []
        like_top: list[tuple[Box, str, float, float]] = []
        # A card buried for a while cannot show up again, except the one under a top card that is
        # gone (a take-back): an identical card in its place is a new card on top.
        top_gone = bool(recent) and recent[-1].missing > 0
        last = len(recent) - 1
        showing = [
            k for k in range(last, -1, -1)
            if k == last or recent[k].missing <= 2 * self.config.max_misses or (k == last - 1 and top_gone)
        ]
        # A card uncovered by a take-back lies exactly where it was, and is judged so once the hand
        # has gone; anything else there is a new card (dev seed 128: a second yellow reverse, laid
        # on a yellow 6 over the first, taken for the first uncovered while the hand still hid the 6).
        uncovered = {k for k in showing if k != last and recent[k].missing > 2 * self.config.max_misses}
        rows = self._usable(detections)
        # Each tentative card continues into its best-overlapping box of this frame (if any).
        self._continued = {}
        for c in self.candidates:
            scored = ((c.overlap(row[0]), row[0]) for row in rows)
            score, box = max(scored, key=lambda sb: sb[0], default=(0.0, None))
            if box is not None and score >= self.config.match_iou:
                self._continued.setdefault(id(box), []).append(c)
        spoiled = {k: self._colour_spoiled(rows, recent[k], recent[:k], recent[k + 1:], top=k == last)
                   for k in showing}
        top = recent[last] if recent else None
        over_top = self._over_hidden_top(rows, top)
        # The top card read whole in its pose this frame: a smaller box read as it is not the top
        # card with the fingers left out (below), nor is one in the pose of a card under it: that is
        # the card under it read as the top card's face (held-out seed 8052, now dev: the strip of
        # a green skip under a green draw two, read as a draw two at 0.3-0.5, became the draw two's
        # pose; the draw two, whole in its own pose again after the next hand's visit, was taken
        # for a second one laid on it).
        top_whole = top is not None and any(
            iou(row[0], top.xyxy) >= self.config.same_pose_iou
            and top.answers_to(row[1], row[3], self.config.unsure_colour) for row in rows)
        for row in rows:
            box, label, _, colour_conf = row
            # Over the top card's pose, or over most of it once the top card has gone from view (dev
            # seed 116 with round 7's model: a second yellow 8 laid over a yellow 3, near the first
            # yellow 8's pose under it, was taken for the first one uncovered).
            hides_top = top is not None and (
                containment(top.xyxy, box) >= self.config.known_containment
                or (top.missing > 0 and self._over_most_of(box, top)))
            match = next(
                (k for k in showing if self._is_known(
                    box, label, 0.0 if id(box) in spoiled[k] else colour_conf, recent[k], top=k == last,
                    hides_top=hides_top)
                 and (k not in uncovered or (not self._arm_over_pile
                                             and iou(box, recent[k].xyxy) >= self.config.same_pose_iou))
                 and (k == last or not over_top(box))
                 and not self._slid_in(box, label, recent[k])), None
            )
            if match is None and top is not None and self._top_read_otherwise(row, top):
                match = last
            if match is None:
                unknown.append(row)
            else:
                seen.add(match)
                if match == last and self._moved_off(box, recent[last]):
                    # The top card, moved as a whole since it came to rest, with a hand visit
                    # between: a card like it laid nearly square on it.
                    like_top.append(row)
                elif iou(box, recent[match].xyxy) >= self.config.same_pose_iou:
                    full.add(match)
                    self._known_boxes.append(recent[match].xyxy)
                    if not self._arm_over_pile and self._still(box, motion, blocked_frame):
                        if match == last and self._visit == recent[match].visit:
                            recent[match].rest = box
                        self._grow(recent[match], box)
                elif match == last and self._shows_more_in_its_visit(box, label, recent[last]):
                    # Seen, and once the hand has gone this is its whole pose.
                    if not self._arm_over_pile and self._still(box, motion, blocked_frame):
                        self._grow(recent[last], box)
                        full.add(last)
                        self._known_boxes.append(recent[last].xyxy)
                elif (match == last and self._shows_less_in_its_visit(box, label, recent[last])
                      and not top_whole and not any(iou(box, card.xyxy) >= self.config.same_pose_iou
                                                    for card in recent[:last])):
                    # Seen, and once the hand has gone this is its whole pose, the fingers left out.
                    if not self._arm_over_pile and self._still(box, motion, blocked_frame):
                        recent[last].xyxy = recent[last].rest = box
                        full.add(last)
                        self._known_boxes.append(box)
                elif match == last and id(box) not in spoiled[last]:
                    like_top.append(row)
        if last in full and unknown:
            # A card buried for a while showing again while the top card lies whole: nothing was laid
            # on the top card, so this is the buried card peeking out again (an arm hid it long enough
            # to be forgotten), not a new card. It shows in its own pose, or as a part of it that
            # reaches under the top card, where a card laid now would have hidden some of the top one
            # (dev seed 123: a blue 6 under a blue 5, misread as a 2 in a box a third under the 5).
            buried = [k for k in range(last) if k not in showing]
            top_pose = recent[last].xyxy

            def reaches_under_top(box: Box) -> bool:
                return _intersection(box, top_pose) >= self.config.spoiling_overlap * _area(box)

            def peeks_out(box: Box, label: str, colour_conf: float, k: int) -> bool:
                cfg = self.config
                card = recent[k]
                if any(containment(box, recent[j].xyxy) >= cfg.known_containment for j in range(k + 1, last + 1)):
                    # Inside a card laid after it, which covers it there: a new card (dev seed 416: a
                    # second wild slid into the first wild's pose, six cards down, over a yellow 8 laid
                    # since, and was taken for the first one showing).
                    return False
                under_top = reaches_under_top(box)
                if self._arm_over_pile and self._over_most_of(box, recent[last]):
                    # Over most of the top card while a hand is at the pile: a card like the buried
                    # one being laid on the top card, which still reads whole for a frame or two
                    # (dev seed 400: a second wild laid on a green 2, near the first wild's pose).
                    return False
                # A box reaching under the top card reads the top card's colour too: its face
                # decides (dev seed 128: a yellow 4 under a red 4, read red, then played).
                colour = 0.0 if under_top else colour_conf
                return card.answers_to(label, colour, cfg.unsure_colour) and (
                    iou(box, card.xyxy) >= cfg.same_pose_iou
                    or (under_top and containment(box, card.xyxy) >= cfg.known_containment))

            def top_face_in_its_pose(box: Box, label: str, confidence: float, card: PileCard) -> bool:
                # An unsure read of the top card's label in the exact pose of a card under it, or
                # inside that pose (the part of it that shows), reaching under the top card: that
                # card, named after the face beside it. A card laid there would hide some of the top
                # card, and would read sure once whole (dev seeds 103 and 106 with round 7's model: a
                # green draw two under a blue 4, read as a blue 4 at 0.42, was played as a second blue
                # 4; dev seed 453: the strip of a green 5 below a green skip, boxed with some of the
                # skip, read as a green skip at 0.36). Read sure, it is that card still if it lies
                # square in its pose over half the top card's box, and did not slide in: a card laid
                # there would have hidden half the top card, which reads whole (held-out seed 8038,
                # now dev: a green 3 under a blue 8, boxed with a third of the 8, read as a blue 8 at
                # 0.75 and played). A card seen sliding in is one laid there, though the top card's
                # box shrinks too little to tell (held-out seed 8053: a second green draw two, laid on
                # the first square over a green 3's pose five cards down, cut the first one's box by
                # a seventh).
                cfg = self.config
                if not (label == recent[last].label and self._in_pose(box, card.xyxy) and reaches_under_top(box)):
                    return False
                return confidence < cfg.unsure_confidence or (
                    iou(box, card.xyxy) >= cfg.stable_iou
                    and _intersection(box, top_pose) >= cfg.hides_top_share * _area(top_pose)
                    and not self._slid_in(box, label, card))

            still_unknown = []
            for row in unknown:
                box, label, confidence, colour_conf = row
                # A buried card lies still: a box moving there is a card coming in. So may be one read
                # as the top card while a hand is at the pile (dev seed 593: a second yellow 5 sliding
                # onto the first, read as it passed over a 5 below); it waits for a clear view all the
                # same (see :meth:`_needs_clear_view`), when the strip of a buried card is that card again.
                # Read as its own label, though, a buried card is that card (dev seed 588: the strip
                # of a wild draw four under another, while a hand reached to the stock).
                maybe_in = self._arm_over_pile and label == recent[last].label
                k = None if not self._still(box, motion, blocked_frame) else next(
                    (k for k in reversed(range(last))
                     if (k in buried and peeks_out(box, label, colour_conf, k)
                         and (not maybe_in or recent[k].label == label))
                     or (not maybe_in and top_face_in_its_pose(box, label, confidence, recent[k]))), None)
                if k is None:
                    still_unknown.append(row)
                else:
                    seen.add(k)
                    log.debug("%s buried under the top card shows again in its pose", recent[k].label)
            # (Rows hold numpy boxes: filtered by position, never by ``list.remove``'s equality.)
            unknown = still_unknown
        if like_top and last not in full:
            # The top card's label in another pose on it, and no other card on it: the top card
            # partly hidden, or an identical card laid square on it. Both, until time tells.
            top_box = recent[last].xyxy
            if not any(iou(row[0], top_box) > 0.05 for row in unknown):
                unknown.extend(like_top)
                self._identical_boxes = [row[0] for row in like_top]
        for k, card in enumerate(recent):
            card.in_full_view = k in full
            if k in seen:
                card.missing = 0
            elif self._still(card.xyxy, motion, blocked_frame):
                card.missing += 1  # in plain view and not seen
                if card.missing == 1:
                    card.lost_in_visit = self._visit
        return unknown

    def _over_hidden_top(
        self, rows: Sequence[tuple[Box, str, float, float]], top: PileCard | None
    ) -> Callable[[Box], bool]:
        """Whether a box lies over the part of the top card that no longer shows: the top card is read
        this frame only in a part of its pose, with no arm over the pile to hide the rest, so what
        hides the rest is a card laid on it, and a box covering that part is that card, not one under
        the top card (held-out seed 8052, now dev: a green skip laid over a yellow skip's visible
        strip and the top of a second yellow skip on it was taken for the first one, its green read
        as lent by the second; the second, shown only in part, was played as a third yellow skip)."""
        cfg = self.config
        if top is None or self._arm_over_pile:
            return lambda box: False
        if any(iou(row[0], top.xyxy) >= cfg.same_pose_iou for row in rows):
            return lambda box: False
        parts = [row[0] for row in rows
                 if top.answers_to(row[1], 0.0, cfg.unsure_colour)
                 and containment(row[0], top.xyxy) >= cfg.known_containment]
        if len(parts) != 1:
            return lambda box: False
        part = parts[0]

        def over(box: Box) -> bool:
            hidden = _intersection(box, top.xyxy) - _intersection(box, part)
            return hidden >= cfg.over_top_share * _area(box)

        return over

    def _remembered(self) -> list[PileCard]:
        """The pile cards a reading may be, oldest first: the last ``memory`` laid, and any older one
        still showing (seen within ``2 * max_misses`` still frames of its box). A card is forgotten
        once it is buried, not once it is ``memory`` deep: one that still peeks out from under the
        others is read again each frame, and a hand passing by can make its box swell (held-out seed
        6010, now dev: the strip of a red draw two, eighth from the top, showing beside a red 6; a wild
        draw four laid on the 6 pushed it out of memory while it showed, and its reading as the hand
        drew back, a tenth wider, was played: out of turn, and taken as the proof of a bluffed +4).
        ``missing`` is kept only for the cards remembered, so a card once forgotten stays so."""
        cfg = self.config
        cut = len(self.pile) - cfg.memory
        return [c for k, c in enumerate(self.pile) if k >= cut or c.missing <= 2 * cfg.max_misses]

    def _top_read_otherwise(self, row: tuple[Box, str, float, float], top: PileCard) -> bool:
        """``row`` lies in the top card's own pose, read unsure, and the same box's other reading
        answers to the top card: the top card read two ways, not a new card (dev seed 110 with round
        7's model: a hand reaching past a blue skip tinted it; read as a red 5 at 0.45 and a red skip
        at 0.35, both at colour 0.55, it was played as a red skip)."""
        box, _, confidence, _ = row
        cfg = self.config
        return (confidence < cfg.unsure_confidence and iou(box, top.xyxy) >= cfg.same_pose_iou
                and any(top.answers_to(label, colour_conf, cfg.unsure_colour)
                        for label, _, colour_conf in self._also_read.get(id(box), ())))

    def _moved_off(self, box: Box, card: PileCard) -> bool:
        """``box``, read as the top ``card`` in its pose, has moved as a whole (``came_in_shift``) from
        where ``card`` came to rest, with another hand visit since the one that laid it: a pile card
        never moves, so this is a card like it, laid nearly square on it (dev seed 685: a second blue 1
        slid onto the first, coming to rest 0.78 IoU over it, 11 px up of 130; first seen far off, it
        was lost under the hand on its way). A box only swollen or cut short by a hand changes shape;
        it does not translate. Nor does it turn: with no arm over the pile, a box grown along one axis
        and shrunk along the other (:func:`turned`) is a card like it laid on it at another angle,
        about the same centre (dev seed 1108: a second green reverse laid over the first, its box 9 %
        wider and 16 % shorter, 0.77 IoU over the first one's pose, was taken for the first). Nor
        does it grow: with no arm over the pile, a box sticking out of its whole pose by more than a
        still card's boxes jitter (``max_overhang``) is a card like it laid over it (held-out seeds
        8011 and 8043, now dev: a second blue reverse laid 0.8 IoU over the first, its box a sixth
        taller, was taken for the first seen whole; the reverse went unplayed and every later play
        was judged out of turn. A second red 2, an eighth taller, likewise). Out of its pose and of
        its rest both: a hand beside it with no arm over the pile can cut the box it rests in (dev
        seed 6025: a red reverse's rest a sixth narrower than the card), and a card settling as it is
        believed comes to rest outside the pose it was believed in."""
        if card.rest is None or card.visit is None or self._visit is None or self._visit == card.visit:
            return False
        cfg = self.config
        shift = cfg.came_in_shift
        return translation(card.rest, box) >= shift or (not self._arm_over_pile and (
            turned(card.rest, box) >= shift
            or min(overhang(box, card.rest), overhang(box, card.xyxy)) > cfg.max_overhang))

    def _shows_more_in_its_visit(self, box: Box, label: str, card: PileCard) -> bool:
        """``box``, read as ``card``, holds the pose ``card`` was believed in and more, during the hand
        visit that laid it, and ``card`` was believed while that hand hid part of it: the card showing
        more of itself as the hand draws back (dev seed 415 with round 7's model: a wild believed with
        its left side under the hand, then read whole, was played twice). A card laid over it would
        come with another visit."""
        return (self._laid_under_this_hand(label, card) and _area(box) > _area(card.xyxy)
                and containment(card.xyxy, box) >= self.config.known_containment)

    def _shows_less_in_its_visit(self, box: Box, label: str, card: PileCard) -> bool:
        """``box``, read as ``card``, lies inside the pose ``card`` was believed in, during the hand
        visit that laid it, and ``card`` was believed while that hand was at the pile: it was boxed
        with the fingers resting on it, and this is the card alone as they draw back (held-out seed
        4026, now dev: a yellow 1 believed in a box reaching over the fingers, a tenth of a card
        lower, was played twice). A card laid inside it would come with another visit, and the
        pose of a card believed in a clear view is its own."""
        return (self._laid_under_this_hand(label, card) and _area(box) < _area(card.xyxy)
                and containment(box, card.xyxy) >= self.config.known_containment)

    def _laid_under_this_hand(self, label: str, card: PileCard) -> bool:
        """``label`` is ``card``'s, and ``card`` was believed during the hand visit going on now, with
        that hand at the pile (fewer than ``min_hits`` clear frames): its pose may still be the hand's."""
        return (label == card.label and card.visit is not None and card.visit == self._visit
                and card.clear_when_believed < self.config.min_hits)

    def _still(self, box: Box, motion: MotionSample | None, blocked_frame: bool) -> bool:
        """Nothing moves over ``box`` this frame: what is read there counts."""
        return not blocked_frame and (motion is None or motion.fraction_in(box) < self.config.motion_block)

    def _grow(self, card: PileCard, box: Box) -> None:
        """``card`` seen in its pose with no hand near, in a box that holds its recorded pose and more:
        it was believed while a hand still hid part of it, and this is the whole card. (A pile card
        never moves, and only ever shows less of itself when something covers it, so the pose only
        grows, but for fingers boxed with it: :meth:`_shows_less_in_its_visit`.) The part that shows
        when a card lands over it is then found inside the whole pose."""
        if _area(box) > _area(card.xyxy) and containment(card.xyxy, box) >= self.config.known_containment:
            card.xyxy = box

    def _colour_spoiled(
        self,
        rows: Sequence[tuple[Box, str, float, float]],
        card: PileCard,
        below: Sequence[PileCard],
        above: Sequence[PileCard],
        *,
        top: bool,
    ) -> set[int]:
        """Boxes (by ``id``) in ``card``'s pose that a box outside that pose overlaps: a card landing
        over it lends it its colour where it covers it (a blue skip half under a yellow one reads
        yellow), so there only its face is read, not its colour.

        Not a box in the pose of a card ``below`` it, read as that card's face: that card showing
        beside it, under it, lends it nothing (dev seed 2053: a red 9 dropped nearly square on a blue
        9 lent its red to the strip of a blue 6 below, read as a red 6; the strip, taken for a card
        over the 9's pose, had the red 9 read as the blue one, and the 9 went unplayed). A card
        ``above`` it, read in its own pose, is that card, though it lie in a lower card's pose with
        that card's face (dev seed 3001: a blue 1 on top, inside a red 1's pose two cards down, lent
        its blue to the strip of the green 1 between them, read as a blue 1 and played)."""
        cfg = self.config
        pose_iou = cfg.same_pose_iou if top else cfg.known_iou

        def in_pose(box: Box) -> bool:
            return iou(box, card.xyxy) >= pose_iou or containment(box, card.xyxy) >= cfg.known_containment

        def shows_below(row: tuple[Box, str, float, float]) -> bool:
            if any(iou(row[0], c.xyxy) >= cfg.same_pose_iou for c in above):
                return False
            return any(_face(row[1]) == _face(c.label) and self._in_pose(row[0], c.xyxy) for c in below)

        posed = [in_pose(row[0]) for row in rows]
        return {
            id(box) for i, (box, *_) in enumerate(rows) if posed[i] and any(
                not posed[j] and _intersection(box, other[0]) >= cfg.spoiling_overlap * _area(box)
                and not shows_below(other)
                for j, other in enumerate(rows) if j != i)
        }

    def _slid_in(self, box: Box, label: str, card: PileCard) -> bool:
        """``box`` read as ``label`` continues a tentative card (the box it overlaps most this frame)
        that came from outside ``card``'s pose and was first read as that face outside it: a pile card
        never moves, so it is a new card landing there (an identical card laid on its twin, or near
        an older one).

        Read as this face, or as the pile card's own (dev seed 574: a second green 7 sliding in read
        as a 7, then as a 1 as it landed near the first 7's pose; that 7 was read a 1 before). The box
        lies where the card would be, moving as it moved: a still reading beside the pile card, whose
        own box was lost, only overlaps it (dev seed 635: the strip of a green reverse read as a green
        draw two at 0.35, then too faint to count, "continued" into the draw two on top; the top
        card, taken for a card sliding in, went missing and was taken back). A card sliding in fast
        can overlap its last box less (:meth:`_on_its_way`), but not into the pile card's own pose:
        a box there is that card, unless the card coming in overlaps it along its motion (dev seed
        6003: a red 2 coming in from below, read as a reverse and a yellow 4 on its way, then too
        faint to count for a frame, was "continued" into the red 4 on top, 0.95 IoU in its pose,
        and the 4 was played again)."""
        cfg = self.config
        return any(
            (c.overlap(box) >= cfg.reread_iou
             or (iou(box, card.xyxy) < cfg.same_pose_iou and self._on_its_way(c, box)))
            and self._came_in(c, card.xyxy, box, label, card.label)
            for c in self._continued.get(id(box), ())
        )

    def _on_its_way(self, cand: Candidate, box: Box) -> bool:
        """``box`` continues ``cand`` by moving on as a whole (``came_in_shift``) from its last box, and
        ``cand`` never lay still: seen once, or moving since. A card slid in fast overlaps its last box
        little (held-out seed 6025, now dev: a second blue 1 slid in from the left, 40-70 px a frame,
        0.35 IoU from one frame to the next; over the red 1 under the top card, read blue there, it was
        taken for that red 1, its colour held to be the blue 1's on top, and its track was lost, so
        coming to rest on its twin it was the twin: a play missed, the next one judged out of turn).
        A still strip beside a pile card, lost and "continued" into it, lay still first."""
        moving = cand.velocity is None or cand.moves > 0
        return moving and translation(cand.box, box) >= self.config.came_in_shift

    def _came_in(self, cand: Candidate, pose: Box, now: Box, *labels: str) -> bool:
        """``cand``, now in ``now``, was first seen outside ``pose``, and first read as one of
        ``labels``' faces outside it: a card coming in over what lies there, not a part of it read
        otherwise.

        A first box mostly inside ``pose`` (``came_in_containment``) was outside only if the box has
        since moved as a whole (``came_in_shift``): a card sliding in translates, both edges of its
        box moving the same way, while the box of a card already there, swollen by a hand passing
        over it, only changes shape (seed 1040: a green 7's box read as a red 7, 0.83 inside its
        pose, then as itself, its left and bottom edges back, its right and top ones still; seed
        1008's blue draw two, sliding onto its twin, was first seen as far inside, and its box went on
        down, both edges). Nor was a first box that holds the whole pose and has only changed shape
        since: the card there, boxed with the fingers beside it.
        """
        cfg = self.config

        def outside(first: Box | None) -> bool:
            return first is not None and not self._in_pose(first, pose) and not swollen(first) and (
                containment(first, pose) < cfg.came_in_containment or translation(first, now) >= cfg.came_in_shift)

        def swollen(first: Box) -> bool:
            # The whole pose and more, and no move as a whole since: what lies there, boxed with a
            # hand beside it (held-out seeds 5011 and 5034, now dev: a red 1 and a yellow 1 on top,
            # boxed for a frame with the next hand's fingers, a third wider, then back in their pose,
            # were each played again). A card coming in translates on its way.
            return containment(pose, first) >= cfg.known_containment and translation(first, now) < cfg.came_in_shift

        faces = {_face(label) for label in labels}
        # A box that slid in, frame after frame, read unsure outside (as a card blurred by its motion
        # can be): that says nothing of which card it is, and a sliding box is a card (held-out seed
        # 3014: a second green 5 slid in from the left, read as a red 0 at 0.27-0.39 on its way, and
        # came to rest square on the first, read as a 5 only once inside its pose). Read surely as
        # another face there, it is another card (or a hand's shape read as one).
        slid_in_unread = cand.moves >= 2 and not any(
            sure >= cfg.unsure_confidence and _face(read) not in faces and outside(cand.labels[read])
            for read, sure in cand.surest.items())
        return outside(cand.origin) and (
            any(outside(_first_read_as(cand, label)) for label in labels) or slid_in_unread)

    def _in_pose(self, box: Box, pose: Box) -> bool:
        """``box`` lies in ``pose``: nearly the same box, or mostly inside it (the part that shows)."""
        return iou(box, pose) >= self.config.same_pose_iou or containment(box, pose) >= self.config.known_containment

    def _veto_misreads(self) -> None:
        """A tentative card over a pile card that shows whole in this frame cannot lie on it: it was
        a misread of that card (or a box jumping between two readings of it)."""
        for cand in self.candidates:
            if any(iou(cand.box, box) >= 0.5 for box in self._known_boxes):
                cand.misses = self.config.max_misses + 1  # dropped at the end of this update

    def _associate(
        self,
        rows: list[tuple[Box, str, float, float]],
        motion: MotionSample | None,
        blocked_frame: bool,
        frame_index: int,
        t: float,
    ) -> None:
        cfg = self.config
        pairs = sorted(
            ((c.overlap(row[0]), i, j) for i, row in enumerate(rows) for j, c in enumerate(self.candidates)),
            reverse=True,
        )
        used_rows: set[int] = set()
        used_cands: set[int] = set()
        seat = motion.seat if motion is not None else None
        like_top = {id(b) for b in self._identical_boxes}
        for score, i, j in pairs:
            if score < cfg.match_iou:
                break
            if i in used_rows or j in used_cands:
                continue
            used_rows.add(i)
            used_cands.add(j)
            box = rows[i][0]
            cand = self.candidates[j]
            if id(box) in like_top:
                # Now read like the top card, partly hidden in its place: maybe an identical card
                # on it, maybe the top card under a hand. Time tells (see :meth:`_confirm`).
                cand.identical = True
            cand.velocity = ((box - cand.box) / (cand.misses + 1)).astype(np.float32)
            cand.moves += translation(cand.box, box) >= cfg.came_in_shift
            cand.box = box
            cand.note_read(rows[i][1], box, t, rows[i][2])
            cand.misses = 0
            cand.seen += 1
            if iou(box, cand.anchor) < cfg.stable_iou:
                # Still moving: start over from this pose.
                cand.anchor, cand.hits, cand.clear, cand.first_frame, cand.first_t = box, 0, 0, frame_index, t
                cand.votes.clear()
                cand.colour_conf.clear()
                cand.confidence.clear()
                cand.boxes.clear()
                if cand.visit is None or cand.visit != self._visit or cand.seat is None:
                    # A card keeps the seat of the hand visit that brought it: within one visit the
                    # hand's seat can flicker to another for a frame (dev seed 169: a green 5 shifted
                    # as it settled, in the one frame a hand read as seat 3's, and went to seat 3).
                    cand.seat = seat if seat is not None else cand.seat
                    cand.arrival_seats = []
                cand.visit = self._visit
                cand.absorbed = False
                # What it was before (the top card's label, partly hidden) says nothing of this pose.
                cand.identical = id(box) in like_top
                cand.before = motion.pile_before if motion is not None else None
            if cand.hits < cfg.min_hits and cand.visit == self._visit:
                self._note_seat(cand, seat)
            if self._still(box, motion, blocked_frame):
                cand.hits += 1
                cand.clear += not self._arm_over_pile
                self._count_frame(cand, rows[i])
        for i, row in enumerate(rows):
            if i in used_rows:
                continue
            box = row[0]
            cand = Candidate(anchor=box, box=box, first_frame=frame_index, seat=seat, first_t=t,
                             identical=id(box) in like_top, visit=self._visit,
                             before=motion.pile_before if motion is not None else None, origin=box,
                             hand_frame=self._hand_frame)
            cand.note_read(row[1], box, t, row[2])
            self._note_seat(cand, seat)
            if self._still(box, motion, blocked_frame):
                cand.hits = 1
                cand.clear = int(not self._arm_over_pile)
                self._count_frame(cand, row)
            self.candidates.append(cand)
        for j, cand in enumerate(self.candidates):
            if j not in used_cands and cand.first_frame != frame_index:
                cand.misses += 1
        # A card still sliding in spoils the view of what it passes over, as a hand does: what shows
        # there is what it leaves of the cards it covers, and a clear view of it starts once it has
        # stopped (dev seed 2030: a blue 8 slid up over a green 4 with no arm over the pile, and
        # the 4's uncovered side, read as a green 1 at 0.79 and 0.82 for its first three frames,
        # was played before the 8 had settled).
        sliding = [c for c in self.candidates if c.first_frame == frame_index and c.seen > 1 and c.misses == 0]
        for cand in self.candidates:
            if any(other is not cand and _intersection(cand.box, other.box) >= cfg.spoiling_overlap * _area(cand.box)
                   for other in sliding):
                cand.clear = 0

    def _note_seat(self, cand: Candidate, seat: int | None) -> None:
        """A frame of ``cand``'s arrival, with the hand's ``seat``: its seat is the one most frames of
        its arrival give (the earliest of a tie). The hand's seat can flicker for a frame as the card
        comes into view (dev seed 720: seat 1's yellow skip appeared in the one frame the hand read
        as seat 3's), and can change within one visit when the next hand comes before the last has
        gone (dev seed 636): what the frames of the card's own arrival say, they say of its hand."""
        if seat is None:
            return
        cand.arrival_seats.append(seat)
        cand.seat = Counter(cand.arrival_seats).most_common(1)[0][0]

    def _count_frame(self, cand: Candidate, row: tuple[Box, str, float, float]) -> None:
        """A steady frame of ``cand``: its reading (and the other readings of the same box) and pose."""
        box, label, conf, cc = row
        cand.vote(label, conf, cc)
        cand.boxes.append(box)
        for other in self._also_read.get(id(box), ()):
            cand.also_read(*other)

    def _confirm(self, t: float, frame_index: int) -> list[Observation]:
        cfg = self.config
        ready = [
            c for c in self.candidates
            if c.hits >= cfg.min_hits and c.misses == 0 and c.votes and not c.absorbed and self._came_with_a_hand(c)
            and (not (c.identical or self._voted_top_in_its_pose(c))
                 or (c.hits >= 2 * cfg.min_hits and not self._arm_over_pile))
            # An unsure read, or a part of the top card read as another card, waits until no arm is
            # over the pile and the detector has had a clear view of it for as long as a card must
            # hold still: a hand half over a card makes misreads, and a card really laid is still
            # there when the hand has gone. (Judged on the hand's frames alone, dev seed 127's blue 1,
            # read as a wild under the hand and as a 1 once it was gone, was found to be no card: a
            # blue card on blue ones changes the pile's grey levels little.)
            and (not self._needs_clear_view(c) or (not self._arm_over_pile and c.clear >= cfg.min_hits))
        ]
        if not ready:
            return []
        # Several at once (the tracker started on a pile already laid): the newest pose is the top,
        # the others lie under it and are remembered silently.
        ready.sort(key=lambda c: (c.first_frame, float(np.mean(c.confidence))))
        # Which of them are new cards is settled first: the top is the newest of those, not of the
        # readings (dev seed 128: a green 6 and, beside it, a misread found to be no card settled
        # in one frame; the 6, older, was remembered silently under a top card that never was).
        cards: list[tuple[Candidate, str, dict[str, Any]]] = []
        for cand in ready:
            self.candidates.remove(cand)
            label, extra = self._decide(cand)
            if self._restore(cand.anchor, label):
                continue
            absorbed = (self._reread_of_top(cand) or self._reread_in_same_visit(cand, label, frame_index)
                        or self._nothing_laid_there(cand, label) or self._strip_of_card_below(cand, label)
                        or self._buried_card_beside(cand, label, [*ready, *self.candidates]))
            # The closer look names a card judged new on the pile view's reading; it never turns a
            # reading found to be no card into one (held-out seed 1007: a yellow 2 in no new card's
            # place, read closer up as the yellow 3 on top, escaped the same-visit rule and was played).
            closer = None if absorbed else self._look_closer(cand.pose, label, whole=self._lies_whole(cand.pose))
            if absorbed or self._top_read_closer(cand, closer):
                # It stays, silent, while it keeps its pose: a misread that persists is no new card
                # when the next hand comes by. Where it came from is spent: found to be a pile card,
                # it lies where it was found, and a later hand stirring its box brings nothing in
                # (seed 1040: a green 4 read once as the green 7 sliding over it; that reading went on
                # into the 7, was found to be the 7, and was played again when the next hand passed).
                cand.absorbed = True
                cand.origin = cand.pose
                self.candidates.append(cand)
                self._ghosts.append((label, cand.pose))
                continue
            if closer is not None:
                extra = {**extra, "corrected_from": extra.get("corrected_from", label), "reason": "read closer up"}
                label = closer
            cards.append((cand, label, extra))
        out: list[Observation] = []
        for k, (cand, label, extra) in enumerate(cards):
            reads = cand.reads()
            card = PileCard(label, cand.pose, cand.seat, frame_index, t, reads=reads, visit=cand.visit,
                            clear_when_believed=cand.clear, unsure_when_believed=self._unsure(cand))
            if k < len(cards) - 1:
                log.debug("card under the top remembered: %s", label)
                self.pile.append(card)
                continue
            self.pile.append(card)
            obs: Observation
            # ``t`` is when the card came to rest; ``frame_index`` when the tracker believed it.
            if self.expect_start and len(self.pile) == 1:
                obs = {"type": "start", "card": label, "t": cand.laid_t(label)}
                self.expect_start = False
            else:
                obs = {"type": "play", "card": label, "seat": cand.seat, "t": cand.laid_t(label)}
            obs.update(extra)
            if others := sorted(reads - {label}):
                obs["alternatives"] = others  # other reads of this card, for a later fix by seat
            obs["frame_index"] = frame_index
            obs["confidence"] = round(float(np.mean(cand.confidence)), 3)
            out.append(obs)
        del self.pile[: -self.config.memory * 2]
        return out

    def _unsure(self, cand: Candidate) -> bool:
        """Read with little confidence, or split between two labels near a tie (a hand hiding part
        of a card leaves what shows readable two ways, each box sure of itself)."""
        return self._near_tie(cand.ranked()) or float(np.mean(cand.confidence)) < self.config.unsure_confidence

    def _needs_clear_view(self, cand: Candidate) -> bool:
        """Unsure, a part of the top card, read as the top card, a doubtful colour, or read as more
        than one label before the detector had a clear view of it (dev seed 136: a blue 3 read as a
        5 under the hand, as a 3 the moment it had gone; the 5's votes won), or showing up in place
        inside the pose of a card under the top one, however sure: the strip of that card, part of it
        hidden by a hand, reads as another card (held-out seed 8048, now dev: a blue 8's strip beside
        a blue draw two, read as a 9, read as a 6 at 0.70 once a hand hid a fifth of it, and played)."""
        return (self._unsure(cand) or self._part_of_top(cand) or self._colour_doubtful(cand)
                or (len(cand.reads()) > 1 and cand.clear < self.config.min_hits) or self._in_top_pose(cand)
                or self._like_top(cand) or self._in_place_under_top(cand) is not None)

    def _like_top(self, cand: Candidate) -> bool:
        """``cand`` is read as the top card: an identical card laid, or the strip of a card under the
        top one read as it while a hand was at the pile (see :meth:`_match_known`)."""
        top = self.top
        return top is not None and cand.leading == top.label

    def _voted_top_in_its_pose(self, cand: Candidate) -> bool:
        """``cand`` lies in the top card's very pose and its votes name the top card, though each
        frame's surest reading was another label: the top card misread as a hand passes near, or an
        identical card laid square on it. Either way it waits as long as an identical card does
        (held-out seed 3055, now dev: a blue 5 on top, read 7 at 0.86 then 3 at 0.71 beside a 5 at
        0.74 and 0.69 as a hand passed, was played again on a 3-frame vote for the 5)."""
        return self._like_top(cand) and self._in_top_pose(cand)

    def _in_top_pose(self, cand: Candidate) -> bool:
        """``cand`` lies in the top card's very pose: a card laid square on it, or the top card misread
        under a hand passing over it (dev seed 146 with round 7's model: a yellow 7 read as a yellow 2
        at 0.9 while a hand reached across to the stock). Once the hand has gone, the reading tells."""
        top = self.top
        return top is not None and not cand.identical and iou(cand.pose, top.xyxy) >= self.config.stable_iou

    def _colour_doubtful(self, cand: Candidate) -> bool:
        """The leading label's colour was read with little confidence."""
        best = cand.leading
        return best is not None and cand.colour_confidence(best) < self.config.wait_colour

    def _upside_down_tie(self, cand: Candidate) -> bool:
        """``cand`` is read surely, split between a 6 and a 9 of one colour: a card surely there, only
        which way up in doubt (a half turn and an underline tell them apart). Its changing the pile's
        grey levels little says nothing of whether it was laid (dev seed 2027: a yellow 9 laid upside
        down nearly square on a yellow 4, read 9 at 0.98 and 6 at 0.96, 13 % of the pile changed: taken
        for no card; the closer look reads it as a 9)."""
        ranked = cand.ranked()
        if len(ranked) < 2 or float(np.mean(cand.confidence)) < self.config.unsure_confidence:
            return False
        (first, _), (second, _) = ranked[:2]
        return ({_face(first), _face(second)} == {"6", "9"}
                and first.split("_", 1)[0] == second.split("_", 1)[0])

    def _near_tie(self, ranked: Sequence[tuple[str, float]]) -> bool:
        """The runner-up's share of the vote is close to the leader's."""
        return len(ranked) > 1 and ranked[1][1] >= self.config.unsure_runner_up * ranked[0][1]

    def _part_of_top(self, cand: Candidate) -> bool:
        """``cand`` lies inside the top card's pose and is smaller: what a hand over the top card
        leaves of it (a card laid there shows whole once the hand has gone). Not a card that came in
        from outside that pose, read as itself there (dev seed 636: a green 9 slid onto a green draw
        two turned askew, whose box held the 9's; the next hand came before the first had gone, and
        the 9, waiting for a clear view, was covered unplayed)."""
        top = self.top
        return (top is not None and containment(cand.pose, top.xyxy) >= self.config.known_containment
                and _area(cand.pose) < _area(top.xyxy)
                and not (cand.leading is not None and self._came_in(cand, top.xyxy, cand.pose, cand.leading)))

    def _reread_of_top(self, cand: Candidate) -> bool:
        """Another label in the top card's own pose, settled within half a take-back time of the top
        card being believed: no hand can have laid a new card there that fast, so the detector changed
        its mind about the top card. Its readings join the top card's (no new play)."""
        top = self.top
        if top is None or iou(cand.pose, top.xyxy) < self.config.same_pose_iou:
            return False
        if cand.first_frame - top.frame_index >= self.config.takeback_frames // 2:
            return False
        top.reads = top.reads | cand.reads()
        log.info("%s read again as %s in its own pose: no new card", top.label, cand.leading)
        return True

    def _top_read_closer(self, cand: Candidate, closer: str | None) -> bool:
        """Read otherwise in the top card's very pose, and read closer up as the top card: the top card
        misread in the pile view while a hand passed (dev seed 465 with round 7's model: a yellow 3 read
        as an 8 at 0.76 as the next hand came by, and as a 3 at 0.93 closer up). An identical card laid
        square on it is left to its own rule."""
        top = self.top
        if closer is None or top is None or closer != top.label or not self._in_top_pose(cand):
            return False
        top.reads = top.reads | cand.reads()
        log.info("%s read as %s in its own pose, and as itself closer up: no new card", top.label,
                 cand.leading)
        return True

    def _reread_in_same_visit(self, cand: Candidate, label: str, frame_index: int) -> bool:
        """A new label where a card already lies, with no hand at the pile since the top card was laid:
        nothing can have been put there, so the detector changed its mind about that card (the top one
        or one peeking out under it). Its readings join that card's (no new play). Only when hand visits
        are counted; an identical card (a jump-in) is left to its own rule, and cards believed in this
        same frame (a pile the camera found already laid) are not compared with each other.

        The top card is the one on top now, or the one on top when the reading took its pose: an
        unsure reading waits for a clear view, and a card laid meanwhile by the next hand says nothing
        of it (dev seed 592: the strip of a yellow 6 read as a yellow 0 at 0.4 on a still pile,
        believed after a blue 9 was laid, as a play by the seat that laid the card before)."""
        then = next((c for c in reversed(self.pile) if c.frame_index < cand.first_frame), None)
        top = next((c for c in (self.top, then) if c is not None and c.visit == cand.visit), None)
        if (top is None or cand.visit is None or cand.identical or label == top.label
                or top.frame_index >= frame_index):
            return False
        cfg = self.config
        card = next((c for c in reversed(self._remembered()) if iou(cand.pose, c.xyxy) >= cfg.reread_iou
                     or containment(cand.pose, c.xyxy) >= cfg.known_containment), None)
        if card is None or self._came_in(cand, card.xyxy, cand.pose, label):
            # Seen coming in from outside that card's pose, it was laid there: the next hand came
            # before the last had gone, in one visit (dev seed 636: a yellow 9 slid onto a green 9
            # while the arm that laid the 9 was still over the pile).
            return False
        card.reads = card.reads | cand.reads()
        log.info("%s read as %s with no hand at the pile since %s was laid: no new card", card.label, label,
                 top.label)
        return True

    def _nothing_laid_there(self, cand: Candidate, label: str) -> bool:
        """An unsure reading where the pile looks as it did before the hand came: no card was laid
        there (a hand crossing the pile to the stock made the detector see a card in what was
        already lying there). Identical cards are left to their own rule: one laid square on its
        twin changes little. A reading of a card the deck cannot hold any more is as doubtful as an
        unsure one, however sure the detector (dev seed 576: the strip of a wild draw four under a
        green 6 read as a blank card at 0.74; a foreign card really laid changes the pile)."""
        cfg = self.config
        before, now = cand.before, self._pile_now
        if cand.identical or before is None or now is None or before.shape != now.shape:
            return False
        doubtful = self._unsure(cand) and not self._upside_down_tie(cand)
        if not doubtful and (self.possible_now is None or self.possible_now(label)):
            return False
        top = self.top
        if top is None:
            # Nothing lies on the pile to be misread: a reading there is the first card, however little
            # it changed the grey levels (dev seed 127 with round 7's model: a pale blue start card on
            # grey wood, read 9 or 6, has the wood's grey and was taken for no card).
            return False
        if (top.missing >= cfg.min_hits and iou(cand.pose, top.xyxy) < cfg.same_pose_iou
                and self._over_most_of(cand.pose, top)):
            # The top card has gone from view under it, in another pose: a card was laid over it,
            # one that changed the pile's grey levels little (dev seed 113 with round 7's model: a
            # yellow 3 on a yellow 5, read 3 or 8).
            return False
        area = low_res_area(cand.pose, self._pile_size, now.shape)
        if area is None:
            return False
        changed_px = cv2.absdiff(now[area], before[area]) > cfg.change_level
        # A card believed laid in this visit changed the pixels it lies on: the rest of the box tells
        # (held-out seed 9042, now dev: a wild draw four laid over a wild; the wild's strip beside it
        # and a blue 5 peeking out further down, boxed together, read as a yellow 5 at 0.38 from the
        # moment the draw four settled, and were played).
        outside = self._outside_laid_in_visit(cand, area, now.shape)
        if outside is not None and outside.mean() >= cfg.beside_laid_share:
            changed_px = changed_px[outside]
        changed = float(np.mean(changed_px))
        if changed >= cfg.laid_share:
            return False
        log.info("%s read %s (%.2f) where the pile is as it was before the hand came (%.0f%% changed): "
                 "no new card", label, "unsure" if self._unsure(cand) else "as a card the deck cannot hold",
                 float(np.mean(cand.confidence)), 100 * changed)
        return True

    def _outside_laid_in_visit(
        self, cand: Candidate, area: tuple[slice, slice], shape: tuple[int, ...]
    ) -> npt.NDArray[np.bool_] | None:
        """Which pixels of ``area`` (of a low-resolution pile image of ``shape``) lie outside the boxes
        of the cards believed laid in ``cand``'s visit; ``None`` when no card was."""
        laid = [c for c in self.pile if cand.visit is not None and c.visit == cand.visit]
        if not laid:
            return None
        rows, cols = area
        mask = np.ones((rows.stop - rows.start, cols.stop - cols.start), dtype=bool)
        for card in laid:
            inner = low_res_area(card.xyxy, self._pile_size, shape)
            if inner is None:
                continue
            r1, r2 = max(inner[0].start, rows.start), min(inner[0].stop, rows.stop)
            c1, c2 = max(inner[1].start, cols.start), min(inner[1].stop, cols.stop)
            if r2 > r1 and c2 > c1:
                mask[r1 - rows.start:r2 - rows.start, c1 - cols.start:c2 - cols.start] = False
        return mask

    def _strip_of_card_below(self, cand: Candidate, label: str) -> bool:
        """An unsure reading that showed up in place (never moved in) inside the pose of a card under
        the top one, over little of the top card or beside a top card that still reads whole: the
        part of that card that shows beside the top one, misread, not a card laid. A card laid now
        lies over the top card, hiding some of it, and slides or drops in with the hand (dev seed
        1137: the strip of a red 1 beside a red 5 laid on it, read as a red 4 at 0.3-0.48 from the
        moment the 5 settled; a hand reaching to the stock later stirred the pile image there, and
        the 4 was played. Dev seed 2053: a blue 9 laid askew on a blue 6, the 6's box read as a 9 at
        0.71 / a 6 at 0.63, over half of the 9's upright box, while the 9 read whole in its pose)."""
        if not self._unsure(cand):
            return False
        card = self._in_place_under_top(cand)
        if card is None:
            return False
        log.info("%s read unsure (%.2f) in place inside %s's pose, beside the top card: that card showing, no new "
                 "card", label, float(np.mean(cand.confidence)), card.label)
        return True

    def _in_place_under_top(self, cand: Candidate) -> PileCard | None:
        """The card under the top one that ``cand`` showed up in place inside (never moved in), over
        little of the top card or beside a top card that still reads whole (see
        :meth:`_strip_of_card_below`), if any."""
        cfg = self.config
        if len(self.pile) < 2:
            return None
        top, pose = self.pile[-1], cand.pose
        if not top.in_full_view and _intersection(pose, top.xyxy) >= cfg.hides_top_share * _area(top.xyxy):
            return None
        return next((c for c in reversed(self._remembered()[:-1])
                     if containment(pose, c.xyxy) >= cfg.known_containment
                     and containment(cand.origin, c.xyxy) >= cfg.known_containment
                     and translation(cand.origin, pose) < cfg.came_in_shift), None)

    def _buried_card_beside(self, cand: Candidate, label: str, others: Sequence[Candidate]) -> bool:
        """A reading inside the pose of a card on the pile, as that card (or its face, the colour read
        unsure) or read unsure, that reaches under a card being laid since before it was read (one of
        ``others``, tentative or believed with it, steady for as long as a card must be): that card,
        uncovered in part as the new one settled on it and read from the part that shows, not a card
        laid over the new one. Which of two cards believed at once lies on top is otherwise told by
        age alone, and a card read sure in a clear view sooner is believed first (dev seeds
        with round 7's model: 503, a wild slid over a yellow reverse two cards down; the reverse,
        hidden long enough to be forgotten, then read where it still showed, its colour unsure, and
        younger than the wild, was taken for the top card: a play of a reverse, and every later play
        judged out of turn. 508: a green 7 laid over most of a green 1, whose strip then read as an 8
        at 0.4. 549: a blue 7's strip beside a yellow 2 being laid on it, believed while the 2 waited
        for a clear view)."""
        cfg = self.config
        recent = self._remembered()
        if not any(other is not cand and not other.absorbed and other.first_frame < cand.first_frame
                   and other.hits >= cfg.min_hits
                   and _intersection(cand.pose, other.pose) >= cfg.spoiling_overlap * _area(cand.pose)
                   # a pile card read otherwise in its pose, in the visit that laid it, is no card being laid
                   and not any(iou(other.pose, c.xyxy) >= cfg.same_pose_iou
                               and (other.visit is None or c.visit is None or other.visit <= c.visit)
                               for c in recent)
                   for other in others):
            return False
        unsure = self._unsure(cand)
        card = next((c for c in reversed(recent)
                     if (unsure or c.answers_to(label, cand.colour_confidence(label), cfg.unsure_colour))
                     and containment(cand.pose, c.xyxy) >= cfg.known_containment), None)
        if card is None:
            return False
        card.missing = 0
        log.info("%s read inside %s's pose, under a card being laid: that card showing, no new card", label,
                 card.label)
        return True

    def _over_most_of(self, box: Box, card: PileCard) -> bool:
        """``box`` covers most of ``card``'s pose: what lies there now would hide it."""
        return _intersection(card.xyxy, box) >= self.config.hides_top_share * _area(card.xyxy)

    def _came_with_a_hand(self, cand: Candidate) -> bool:
        """Motion over the pile around the moment the card took its pose (a misread on a still pile
        has none). Always true when motion is not measured."""
        if self._motion_frames is None:
            return True
        slack = 2 * max(self.config.min_hits, self.config.max_misses)
        if self._first_frame is not None and cand.first_frame <= self._first_frame + slack:
            return True  # the pile as the camera found it
        return any(cand.first_frame - slack <= f <= cand.first_frame + slack for f in self._motion_frames)

    def _decide(self, cand: Candidate) -> tuple[str, dict[str, Any]]:
        """The voted label, or a legal alternative when the vote is unsure and the winner illegal."""
        ranked = cand.ranked()
        best = ranked[0][0]
        colour_conf = cand.colour_confidence(best)
        colour_unsure = colour_conf < self.config.unsure_colour
        unsure = colour_unsure or self._near_tie(ranked)
        if not unsure or self.legal_now is None or self.legal_now(best):
            return best, {}
        for label, label_share in ranked[1:]:
            if label_share >= 0.15 and self.legal_now(label):
                return label, {"corrected_from": best, "reason": "unsure read; the runner-up is legal"}
        if colour_unsure and "_" in best and best not in BLACK_VALUES:
            face = _face(best)
            legal = [f"{c.value}_{face}" for c in self.palette if f"{c.value}_{face}" != best]
            legal = [label for label in legal if self.legal_now(label)]
            if len(legal) == 1:
                return legal[0], {"corrected_from": best, "reason": "unsure colour; the only legal one"}
        return best, {}

    def _restore(self, box: Box, label: str) -> bool:
        """A card that came back where it was taken back from: it was a false take-back."""
        for card in reversed(self.taken_back):
            if card.label == label and iou(box, card.xyxy) >= self.config.known_iou:
                self.taken_back.remove(card)
                card.missing = 0
                self.pile.append(card)
                log.info("%s back in place: take-back withdrawn", label)
                return True
        return False

    def _reread_in_clear_view(
        self, detections: Detections, motion: MotionSample | None, blocked_frame: bool, t: float, frame_index: int
    ) -> Observation | None:
        """The top card, believed while an arm was over it, read otherwise once the pile is clear.

        Under a hand a card is seen in part and through shadow, and its first reading may be wrong
        (dev seed 400 with round 7's model: a red 9 slid in read as a 6 at 0.91, then as a 9 at 0.96,
        the 6 second at 0.86, for as long as it lay in plain view). Each frame with a clear view of the
        top card's pose counts which label leads there; once ``reread_frames`` have been counted, a
        label other than the card's own that led in ``reread_share`` of them, read with a sure colour,
        re-reads it: ``{"type": "reread", "card": new, "was": old}``, for the pipeline to correct the
        play. So is a card believed on an unsure vote, clear view or not: it came to rest after it was
        believed (held-out seed 2030, since a dev game: a start card's 5 read as a 3 at 0.70 as it
        landed, then as a 5 at 0.96 where it lay). A card believed sure in clear view is never re-read,
        nor one re-read already.
        """
        cfg = self.config
        top = self.top
        if (top is None or top.judged_in_clear_view or self._arm_over_pile
                or (top.clear_when_believed >= cfg.min_hits and not top.unsure_when_believed)
                or top.frame_index >= frame_index or not self._still(top.xyxy, motion, blocked_frame)
                or self._being_covered(top)):
            return None
        # The surest reading of the top card's pose this frame (colour counted in).
        best: tuple[float, str, float] | None = None
        for i, label in enumerate(detections.labels):
            conf = float(detections.confidence[i])
            colour = float(detections.colour_confidence[i]) if len(detections.colour_confidence) else 1.0
            if conf < cfg.min_confidence or label == "back" or iou(detections.xyxy[i], top.xyxy) < cfg.same_pose_iou:
                continue
            if best is None or conf * colour > best[0]:
                best = (conf * colour, label, colour)
        if best is None or best[2] < cfg.wait_colour:
            return None
        top.clear_leads[best[1]] = top.clear_leads.get(best[1], 0) + 1
        counted = sum(top.clear_leads.values())
        if counted < (cfg.reread_frames or 3 * cfg.min_hits):
            return None
        leader, leads = max(top.clear_leads.items(), key=lambda kv: kv[1])
        top.judged_in_clear_view = True
        if leader == top.label or leads < cfg.reread_share * counted:
            # The pile view agrees, or is split: a closer look may still tell (dev seed 432 with
            # round 7's model: a blue 3 believed as an 8 under the hand, still an 8 in the pile view).
            closer = self._look_closer(top.xyxy, top.label, whole=True)
            if closer is None:
                return None
            leader = closer
        else:
            # The pile view leads to another face; a closer look at the whole card has the last word
            # (held-out seed 7032 with round 7's model: a blue 3, read as a 3 as it landed and closer up,
            # then as an 8 at 0.90 in every clear frame of the pile view).
            closer = self._look_closer(top.xyxy, leader, whole=True)
            if closer == top.label:
                log.info("%s read as %s in %d of %d clear frames since, but as %s closer up: kept",
                         top.label, leader, leads, counted, closer)
                return None
            leader = closer or leader
            log.info("%s (believed under an arm) read as %s in %d of %d clear frames since: re-read",
                     top.label, leader, leads, counted)
        was, top.label = top.label, leader
        top.reads = top.reads | {leader}
        return {"type": "reread", "card": leader, "was": was, "seat": top.seat, "t": t, "frame_index": frame_index}

    def _being_covered(self, top: PileCard) -> bool:
        """A card brought by a later hand visit than ``top``'s lies (tentative) over part of its pose:
        what shows there is that card, not ``top`` to be read again (dev seed 1106: a green draw two
        laid over a green 1 still waiting for its clear-view re-read, near its pose; read closer up
        there, the 1 was re-read as a draw two, and the draw two played after it)."""
        if top.visit is None:
            return False
        share = self.config.spoiling_overlap * _area(top.xyxy)
        return any(not c.absorbed and c.visit is not None and c.visit > top.visit
                   and _intersection(c.pose, top.xyxy) >= share for c in self.candidates)

    def _lies_whole(self, pose: Box) -> bool:
        """Whether a card just landed in ``pose`` lies whole: as big as the whole cards on the pile (the
        first card, with none to compare, is whole)."""
        whole = [_area(card.xyxy) for card in self.pile if card.in_full_view]
        return not whole or _area(pose) >= self.config.whole_area_share * float(np.median(whole))

    def _look_closer(self, pose: Box, label: str, *, whole: bool = False) -> str | None:
        """The label a closer look at ``pose`` gives the card read as ``label``: its face when the look
        is sure of another one (``second_look_confidence``), with the colour read in the pile view (the
        same pixels). ``None`` when it agrees, is unsure, cannot be taken (no ``second_look``, an arm
        over the pile) or names a face of the other kind (a black card for a coloured one)."""
        if self.second_look is None or self._arm_over_pile:
            return None
        # ``whole``: the top card in its pose on a clear pile, nothing being laid over it (the face
        # classifier may then speak alone: see ``referee.vision.classify.CLASSIFIER_ALONE_CONFIDENCE``).
        faces = self.second_look(pose, whole=whole)
        closer = closer_label(label, faces, self.config.second_look_confidence)
        if closer is not None:
            log.info("%s read closer up as %s (%.2f)", label, closer, faces[0][1])
        return closer

    def _check_take_back(
        self, t: float, frame_index: int, motion: MotionSample | None, blocked_frame: bool
    ) -> Observation | None:
        if len(self.pile) < 2 or blocked_frame:
            return None
        top, under = self.pile[-1], self.pile[-2]
        if top.missing < self.config.takeback_frames or under.missing > 0 or not under.in_full_view:
            return None
        if (seat := self._laid_by_another_over(top)) is not None:
            # Not its player's hand: a card like the one under it was laid square on that one's pose,
            # over the top card (dev seed 520 with round 7's model: a second red 7 laid over a red
            # reverse, in the pose of the first red 7 under it, was taken for a take-back of the reverse).
            card = PileCard(under.label, under.xyxy.copy(), seat, frame_index, t, reads=under.reads,
                            visit=top.lost_in_visit, in_full_view=True)
            self.pile.append(card)
            log.info("%s gone in a visit of seat %s, who did not lay it, and %s whole in its place: a %s laid "
                     "over it", top.label, seat, under.label, under.label)
            return {"type": "play", "card": under.label, "seat": seat, "t": t, "frame_index": frame_index,
                    "reason": "laid square on its twin's pose over the top card"}
        self.pile.pop()
        self.taken_back = [*self.taken_back[-3:], top]
        log.info("%s taken back from the pile", top.label)
        return {"type": "take_back", "card": top.label, "seat": top.seat, "t": t, "frame_index": frame_index}

    def _laid_by_another_over(self, top: PileCard) -> int | None:
        """The seat whose hand was at the pile when ``top`` went from view, in a later visit than the
        one that laid it, when that is not the seat that laid it: a card is taken back by its own
        player. ``None`` otherwise (or unknown)."""
        visit = top.lost_in_visit
        if visit is None or top.visit is None or visit == top.visit or top.seat is None:
            return None
        seats = self._visit_seats.get(visit)
        if not seats:
            return None
        seat = seats.most_common(1)[0][0]
        return seat if seat != top.seat else None

    def _draws(self, motion: MotionSample, t: float, frame_index: int) -> list[Observation]:
        """Hands that left the stock zone, unless the same hand laid a card meanwhile: it only
        crossed the stock on its way to the pile. While a card that hand may have laid is still
        tentative, the draw waits for it (see :meth:`_settle_draws`). Before the start card is down,
        a hand at the stock is the dealer's turning it over. A reading that began with no hand at the
        pile since the hand came to the stock is no card that hand laid (a buried card's strip misread
        while the hand was away, dev seed 577): the draw does not wait for it."""
        if self.expect_start and not self.pile:
            return []
        out = []
        for k, seat in enumerate(motion.draws):
            ago = motion.draw_started[k] if k < len(motion.draw_started) else 0
            since = frame_index - ago - self.config.min_hits
            draw: Observation = {"type": "draw", "seat": seat, "count": 1, "t": t, "frame_index": frame_index}
            if self._laid_since(seat, since):
                log.debug("hand of seat %s crossed the stock on its way to the pile: no draw", seat)
                continue
            maybe_laid = [
                c for c in self.candidates
                if seat in (None, c.seat) and c.first_frame >= since and c.seen >= 3 and not c.absorbed
                and (c.hand_frame is None or c.hand_frame >= since) and not self._ghost(c)
            ]
            if maybe_laid:
                self._pending_draws.append(_PendingDraw(draw, since, maybe_laid))
                continue
            out.append(draw)
        return out

    def _laid_since(self, seat: int | None, since: int) -> bool:
        """A card of ``seat``'s (of anyone's for an unknown seat) was laid from frame ``since`` on."""
        return any(seat in (None, c.seat) and c.frame_index >= since for c in self.pile[-3:])

    def _settle_draws(self, frame_index: int) -> list[Observation]:
        """Waiting draws whose tentative cards are all settled: a draw after all if none of them became
        a card of that hand (each was a misread under the arm), none otherwise."""
        out = []
        waiting = []
        for pending in self._pending_draws:
            seat = pending.draw["seat"]
            if any(c in self.candidates and not c.absorbed for c in pending.maybe_laid):  # (by identity)
                if frame_index - int(pending.draw["frame_index"]) <= self.config.takeback_frames:
                    waiting.append(pending)
                else:
                    log.debug("draw of seat %s given up: a card of that hand still tentative", seat)
            elif self._laid_since(seat, pending.since):
                log.debug("hand of seat %s crossed the stock on its way to the pile: no draw", seat)
            else:
                log.info("seat %s drew: what was read under its hand was no card", seat)
                out.append({**pending.draw, "frame_index": frame_index})  # believed now, drawn at ``t``
        self._pending_draws = waiting
        return out

    def _ghost(self, cand: Candidate) -> bool:
        """``cand`` is read where a reading was found to be no new card, as that reading."""
        return any(
            label in cand.labels and iou(cand.box, pose) >= self.config.known_iou for label, pose in self._ghosts
        )


@dataclass
class _PendingDraw:
    """A hand left the stock while a card it may have laid on the way was still tentative."""

    draw: Observation
    #: The frame the hand's visit to the stock began (less the debounce): a card it laid is newer.
    since: int
    maybe_laid: list[Candidate]


@dataclass
class _Episode:
    """One hand's visit to a zone: where it came in from and how long it stayed."""

    start_frame: int
    entry: list[tuple[float, float]] = field(default_factory=list)
    frames: int = 0
    quiet: int = 0
    touched: bool = False
    seat: int | None = None
    in_zone: int = 0
    #: Where the arm reaching into the zone comes from (see :meth:`MotionDetector._arm_root`).
    roots: list[tuple[float, float]] = field(default_factory=list)
    #: Whether the hand was seen moving around the zone as it came, not only inside it already.
    came_in: bool = False
    #: Where an arm seen only in its faint hue comes from, in frames where no arm stood out as usual
    #: (see ``MotionDetector.faint_chroma``): the seat of a draw that would otherwise have none.
    faint_roots: list[tuple[float, float]] = field(default_factory=list)
    #: Frames something stood out from the table in the zone, from the run of them it began in
    #: (see ``MotionDetector._slow_hand``).
    held: int = 0


class MotionDetector:
    """Frame differencing at low resolution: hands over the pile and the stock, and their seats.

    A hand's seat is the seat in the direction it entered from: the centroid of the first moving
    pixels of an episode (motion near the zone after a quiet spell), seen from the zone's centre.
    An arm over the pile that stirs too little motion for an episode, or whose motion began inside the
    zone (not seen coming), gives the seat it comes from. At the stock, off to one side, the arm decides
    (the seat it points at); a hand seen neither coming nor by its arm is placed by its arm's fainter
    hue (``faint_chroma`` in Lab's a* or b*, against ``chroma_threshold`` for a hand), and with none
    draws for no seat (``None``: the referee gives the draw to the player who owes it).
    """

    def __init__(
        self,
        profile: CalibrationProfile,
        *,
        fps: float = 30.0,
        width: int = 240,
        threshold: int = 16,
        entry_frames: int | None = None,
        quiet_frames: int | None = None,
        stock_quiet_frames: int | None = None,
        min_draw_frames: int | None = None,
        min_pixels: float = 0.004,
        chroma_threshold: int = 6,
        faint_chroma: int = 3,
    ) -> None:
        fps = fps if fps > 0 else 30.0
        entry_frames = entry_frames if entry_frames is not None else max(2, round(0.1 * fps))
        quiet_frames = quiet_frames if quiet_frames is not None else max(3, round(0.3 * fps))
        if stock_quiet_frames is None:
            stock_quiet_frames = max(2, round(0.2 * fps))
        # A hand that takes a card dwells at the stock (~0.5 s); one crossing it on its way elsewhere
        # is there for a few frames.
        min_draw_frames = min_draw_frames if min_draw_frames is not None else max(2, round(0.3 * fps))
        self.min_draw_in_zone = max(2, round(0.25 * fps))
        self.max_held_frames = round(3.0 * fps)
        self.stock_quiet_frames = stock_quiet_frames
        self.profile = profile
        iw, ih = profile.image_size
        self.size = (width, max(8, round(width * ih / iw)))
        self.scale = width / iw
        self.threshold = threshold
        self.chroma_threshold = chroma_threshold
        self.faint_chroma = faint_chroma
        self.entry_frames = entry_frames
        #: At the stock, the arm is followed longer: it may show whole only once the hand is there.
        self.reach_frames = max(entry_frames, round(0.5 * fps))
        self.quiet_frames = quiet_frames
        self.min_draw_frames = min_draw_frames
        self.min_pixels = min_pixels
        shape = (self.size[1], self.size[0])
        self.pile_zone = profile.mask(profile.pile, shape)
        self.pile_near = profile.mask(profile.pile, shape, scale=1.8) | self.pile_zone
        #: Whether a hand can be seen coming to the pile: not when the zone is the whole view (no
        #: calibration), where every hand's motion begins inside it.
        self.pile_entries_seen = bool((self.pile_near & ~self.pile_zone).any())
        self.stock_zone = profile.mask(profile.stock, shape) if profile.stock is not None else None
        self.stock_near = (
            profile.mask(profile.stock, shape, scale=1.8) if profile.stock is not None else None
        )
        self._prev: npt.NDArray[np.uint8] | None = None
        self._zone_shapes: dict[int, tuple[float, float, float]] = {}
        #: The table without hands (a slow running average of still pixels): arms stand out whole against it.
        self._background: npt.NDArray[np.float32] | None = None
        self._foreground: Mask = np.zeros((self.size[1], self.size[0]), bool)
        #: This frame's hue difference from the background (Lab a* or b*, ``None``: not measured):
        #: what :meth:`_faint_foreground` lets in beside the foreground.
        self._hue: npt.NDArray[np.uint8] | None = None
        self._prev_pile: npt.NDArray[np.uint8] | None = None
        self._pile_ep: _Episode | None = None
        self._stock_ep: _Episode | None = None
        self._held_run = 0
        self._stock_area = int(self.stock_zone.sum()) if self.stock_zone is not None else 0
        self._seat: int | None = None
        self._frame = 0
        self._visits = 0
        self._away = self.quiet_frames
        self._pile_quiet: npt.NDArray[np.uint8] | None = None
        self._pile_before: npt.NDArray[np.uint8] | None = None

    @property
    def foreground(self) -> Mask:
        """This frame's pixels (at the detector's low resolution) unlike the table without hands."""
        return self._foreground

    def _small(self, image: npt.NDArray[np.uint8], size: tuple[int, int]) -> npt.NDArray[np.uint8]:
        # Area averaging, not linear sampling: linear sampling aliases a card's thin white border
        # (caught in one frame, missed in the next as the camera shakes by a pixel), which reads as
        # a hand at the stock. Halving first takes OpenCV's fast 2x2 path (a few times cheaper than
        # averaging a 720p frame in one step; `referee bench` fps is unchanged). The light blur keeps
        # what is left of a thin line's flicker under the threshold while an arm's broad edges pass.
        w, h = size
        while image.shape[1] >= 2 * w and image.shape[0] >= 2 * h:
            image = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2), interpolation=cv2.INTER_AREA)
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        out: npt.NDArray[np.uint8] = cv2.GaussianBlur(small, (3, 3), 0)
        return out

    @staticmethod
    def _grey(small: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        out: npt.NDArray[np.uint8] = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        return out

    def _moving(self, gray: npt.NDArray[np.uint8], prev: npt.NDArray[np.uint8] | None) -> Mask:
        """Frame-to-frame change in brightness (colour would make a shaking camera's coloured edges
        flicker)."""
        if prev is None or prev.shape != gray.shape:
            return np.zeros(gray.shape[:2], bool)
        # Against the brightest and darkest neighbour: a camera shaking by up to a (low-resolution)
        # pixel moves high-contrast edges (a black deck on light wood) but is no hand.
        brighter = cv2.subtract(gray, cv2.dilate(prev, _DILATE))
        darker = cv2.subtract(cv2.erode(prev, _DILATE), gray)
        moving: Mask = (brighter > self.threshold) | (darker > self.threshold)
        return moving

    def _subtract(self, small: npt.NDArray[np.uint8]) -> Mask:
        """Pixels whose colour differs from the background's (in colour: a dark arm on a dark cloth
        has the cloth's brightness), in any channel by ``threshold`` or in Lab's a* or b* by
        ``chroma_threshold`` (0: off); the background learns still pixels quickly and anything that
        stays (a card put down, a resting hand) slowly."""
        frame = small.astype(np.float32)
        shape = frame.shape[:2]
        self._hue = None
        if self._background is None or self._background.shape != frame.shape:
            self._background = frame
            return np.zeros(shape, bool)
        # The background follows the light (a lamp switched on, a cloud): per-channel gains from the
        # medians (of every 7th pixel), which hands and cards covering part of the frame do not move.
        channels = frame.reshape(-1, frame.shape[-1]) if frame.ndim == 3 else frame.reshape(-1, 1)
        before = self._background.reshape(channels.shape)
        gains = (np.median(channels[::7], axis=0) + 1.0) / (np.median(before[::7], axis=0) + 1.0)
        self._background *= gains.reshape((-1,) if frame.ndim == 3 else ()).astype(np.float32)
        # Against the neighbourhood's extremes, as in :meth:`_moving`: a shaking camera is no arm.
        diff = cv2.max(cv2.subtract(frame, cv2.dilate(self._background, _DILATE)),
                       cv2.subtract(cv2.erode(self._background, _DILATE), frame))
        if diff.ndim == 3:
            diff = cv2.max(cv2.max(diff[..., 0], diff[..., 1]), diff[..., 2])
        foreground: Mask = diff > self.threshold
        if frame.ndim == 3 and self.chroma_threshold:
            # An arm the brightness of the table (a brown arm on dark wood: every channel within
            # the threshold) still differs in hue: the table's chroma is even where its grain is not.
            # Lab's a* and b* against their neighbourhood's extremes, in saturating 8-bit arithmetic.
            now = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
            bg = cv2.cvtColor(cv2.convertScaleAbs(self._background), cv2.COLOR_BGR2LAB)
            chroma = cv2.max(cv2.subtract(now, cv2.dilate(bg, _DILATE)), cv2.subtract(cv2.erode(bg, _DILATE), now))
            self._hue = cv2.max(chroma[..., 1], chroma[..., 2])
            foreground |= self._hue > self.chroma_threshold
        if np.count_nonzero(foreground) > _MAX_FOREGROUND * foreground.size:
            # Far more than a few arms: the camera moved. Learn the new view fast.
            cv2.accumulateWeighted(frame, self._background, 0.5)
            self._hue = None
            return np.zeros(shape, bool)
        # Pixels beside the foreground learn slowly too: an arm's blurred edge, learned fast, would
        # otherwise creep inwards through the neighbourhood extremes until the arm is background.
        still = (cv2.dilate(foreground.astype(np.uint8), _DILATE) == 0).astype(np.uint8)
        cv2.accumulateWeighted(frame, self._background, 0.05, mask=still)
        cv2.accumulateWeighted(frame, self._background, 0.005, mask=1 - still)
        return foreground

    def update(self, frame: npt.NDArray[np.uint8], pile_view: npt.NDArray[np.uint8]) -> MotionSample:
        """One frame (camera pixels) and its top-down pile view -> what moved."""
        self._frame += 1
        small = self._small(frame, self.size)
        gray = self._grey(small)
        moving = self._moving(gray, self._prev)
        self._prev = gray
        self._foreground = self._subtract(small)
        ph, pw = pile_view.shape[:2]
        pile_small = (96, max(8, round(96 * ph / pw)))
        pile_now = self._grey(self._small(pile_view, pile_small))
        pile_mask = self._moving(pile_now, self._prev_pile)
        self._prev_pile = pile_now

        global_change = bool(moving.mean() > 0.5)
        if global_change:
            return MotionSample(pile_mask, (pw, ph), self._seat, False, True, (), False, pile_visit=self._visits,
                                pile_now=pile_now, pile_before=self._pile_before)
        self._pile_ep, _ = self._step(self._pile_ep, moving, self.pile_near, self.pile_zone, self.quiet_frames)
        pile_ep = self._pile_ep
        if (pile_ep is not None and pile_ep.touched and pile_ep.seat is not None
                and (pile_ep.came_in or self._seat is None or not self.pile_entries_seen)):
            # Motion that began inside the zone was not seen coming: the hand already there stirred
            # (see below), and where it stirs says nothing of its seat.
            self._seat = pile_ep.seat
        draws: tuple[int | None, ...] = ()
        draw_started: tuple[int, ...] = ()
        if self.stock_zone is not None and self.stock_near is not None:
            # A draw ends when the hand leaves the stock itself, so it reaches the referee before
            # whatever the operator says next.
            held = int((self._foreground & self.stock_zone).sum()) >= max(3, _HELD_SHARE * self._stock_area)
            self._held_run = self._held_run + 1 if held else 0
            self._stock_ep, stock_ended = self._step(
                self._stock_ep, moving, self.stock_near, self.stock_zone, self.stock_quiet_frames,
                end_on_zone=True, reach=True,
            )
            if self._stock_ep is not None:
                ep = self._stock_ep
                ep.held = self._held_run if ep.start_frame == self._frame else ep.held + held
            if (
                stock_ended is not None
                and stock_ended.touched
                and (
                    (stock_ended.in_zone >= self.min_draw_in_zone
                     # A hand that moved little there (it held still on the deck) is seen by its arm.
                     and (stock_ended.frames >= self.min_draw_frames or len(stock_ended.roots) >= 2)
                     # And it stood in the stock: an arm that only clipped the zone's edge on its way
                     # to the pile drew nothing (dev seeds 3045, 3053: an arm crossing the stock's
                     # corner covered under 2 % of it in every frame; the 112 true draws of ten dev
                     # games stood there 4 frames or more).
                     and stock_ended.held >= 1)
                    or self._slow_hand(stock_ended)
                )
            ):
                # A hand seen neither coming nor by its arm (an arm the colour of the table, in the
                # stock by the first frame it moved) has no seat: the referee gives the draw to the
                # player who owes it, which a guess from the hand's first pixels often is not. Dev
                # oracle seeds 200-279: 9 of 920 draws have no seat (the guess had been right for 6,
                # wrong for 3: seeds 208, 220, 250), alert precision 0.9938 -> 1.0 (a false missed
                # draw penalty gone); 290-349: no draw without a seat.
                draws = (self._draw_seat(stock_ended),)
                draw_started = (self._frame - stock_ended.start_frame,)
        over = self._pile_ep is not None and self._pile_ep.quiet == 0
        disturbed = bool((moving & self.pile_zone).any()) or over
        root = self._arm_root(self._foreground, self.pile_zone)
        arm = root is not None
        if root is not None and (self._pile_ep is None or not self._pile_ep.came_in):
            # A hand that hardly stirs the frame differencing (a far seat's, small in the picture)
            # still shows its arm against the table, and the arm comes from its seat. So does one
            # whose stirring began inside the zone: where that motion lies says nothing of where the
            # hand came from (dev seed 8059: seat 1's hand, drawing back from the left after laying
            # a red 9, stirred a little below the pile's centre; the red 9 went to seat 0).
            self._seat = self._seat_of_arm(root, self.pile_zone)
        # A visit: an arm, or a hand moving in the zone, after the pile was left alone for a while
        # (a hand that pauses or flickers out of sight for a frame or two is the same visit).
        if arm or (over and self._pile_ep is not None and self._pile_ep.touched):
            if self._away >= self.quiet_frames:
                self._visits += 1
                self._pile_before = self._pile_quiet
            self._away = 0
        else:
            self._away += 1
            self._pile_quiet = pile_now
        return MotionSample(pile_mask, (pw, ph), self._seat, over, False, draws, disturbed, draw_started, arm,
                            self._visits, pile_now, self._pile_before)

    def _step(
        self, ep: _Episode | None, moving: Mask, near: Mask, zone: Mask, quiet_frames: int,
        *, end_on_zone: bool = False, reach: bool = False,
    ) -> tuple[_Episode | None, _Episode | None]:
        """Advance a zone's episode; returns (current episode, episode that just ended).

        An episode runs while there is motion near the zone; with ``end_on_zone``, once it has
        reached into the zone it ends when the zone itself has been still for ``quiet_frames``.
        ``reach``: the seat is where the arm comes from rather than the side the hand came in by
        (a zone off to one side, like the stock, sees several seats' hands come in from one side).
        """
        active_px = moving & near
        active = active_px.sum() >= max(3, self.min_pixels * near.sum())
        # A hand holding still in the zone does not move, but its arm still stands out.
        root = self._arm_root(self._foreground, zone) if reach else None
        in_zone = int((moving & zone).sum()) >= 3 or root is not None
        if ep is None:
            if not active and root is None:
                return None, None
            ep = _Episode(self._frame)
        if in_zone:
            ep.touched = True
            ep.in_zone += 1
        if reach and root is None and not ep.roots and len(ep.faint_roots) < self.reach_frames:
            faint = self._arm_root(self._faint_foreground(), zone)
            if faint is not None:
                ep.faint_roots.append(faint)
        if root is not None and len(ep.roots) < (self.reach_frames if reach else self.entry_frames):
            ep.roots.append(root)
            rx, ry = self._farthest(ep.roots, self._zone_centre(zone)) if reach else np.mean(ep.roots, axis=0)
            ep.seat = self._seat_of_arm((float(rx), float(ry)), zone)
        going_on = in_zone if (end_on_zone and ep.touched) else active or root is not None
        if active:
            ep.frames += 1
            if len(ep.entry) < self.entry_frames:
                ep.came_in = ep.came_in or int(np.count_nonzero(active_px & ~zone)) >= 3
                ys, xs = np.nonzero(active_px)
                ep.entry.append((float(xs.mean()) / self.scale, float(ys.mean()) / self.scale))
                origin = self._zone_centre(zone) if zone.any() else None
                cx, cy = self._farthest(ep.entry, origin) if reach and origin is not None else np.mean(ep.entry, axis=0)
                if not ep.roots:
                    ep.seat = self.profile.seat_towards((float(cx), float(cy)), origin)
        if going_on:
            ep.quiet = 0
            return ep, None
        ep.quiet += 1
        if ep.quiet >= quiet_frames:
            return None, ep
        return ep, None

    def _slow_hand(self, ep: _Episode) -> bool:
        """``ep``, just ended, was a hand that came into the stock too slowly for the differencing: seen
        coming from outside, it stood out from the table in the zone as long as a hand takes to draw
        and no longer, and has gone. Dev seeds 652 and 727: seat 2's hand, come down from the top edge
        beside the stock with its arm short of the zone's corners, stood out there 4-6 frames before
        it was seen to move, and moved 2-3 frames: three draws missed. Anything that stays (a thing
        left on the stock, learnt into the table only slowly) keeps standing out: no hand, and no
        bar to draws seen the usual way (dev seed 1047 lost nine to a first try that let it)."""
        return (ep.came_in and self.min_draw_in_zone <= ep.held <= self.max_held_frames
                and self._held_run == 0)

    def _faint_foreground(self) -> Mask:
        """This frame's foreground with a fainter hue difference let in (``faint_chroma``): asked
        only where a draw's arm is when the foreground shows none."""
        if self._hue is None or not self.faint_chroma:
            return self._foreground
        faint: Mask = self._foreground | (self._hue > self.faint_chroma)
        return faint

    def _draw_seat(self, ep: _Episode) -> int | None:
        """The seat of a hand that drew: from its arm, or the way it came in; else from its arm seen
        only in a fainter hue than arms must show to count as hands (an olive arm across striped
        grey-brown wood differs from it by 3-5 in Lab's a* and b*: dev seeds 6012 and 8001, seat 1's
        draws seatless); else none."""
        if ep.roots or ep.came_in:
            return ep.seat
        if ep.faint_roots and self.stock_zone is not None:
            rx, ry = self._farthest(ep.faint_roots, self._zone_centre(self.stock_zone))
            return self._seat_of_arm((float(rx), float(ry)), self.stock_zone)
        return None

    def _zone_shape(self, zone: Mask) -> tuple[float, float, float]:
        """Centre (x, y) and equal-area radius of a zone mask, in low-resolution pixels (the zones
        are fixed: computed once each)."""
        key = id(zone)
        if key not in self._zone_shapes:
            zy, zx = np.nonzero(zone)
            self._zone_shapes[key] = (float(zx.mean()), float(zy.mean()), math.sqrt(float(zone.sum()) / math.pi))
        return self._zone_shapes[key]

    def _seat_of_arm(self, root: Point, zone: Mask) -> int:
        """The seat an arm reaching into ``zone`` points at: the direction of its far end (its
        :meth:`_arm_root`) seen from the zone's centre, not the seat nearest that end. An arm that
        looks like the table (a dark arm on dark wood) stands out only in pieces, and the piece joined
        to the hand can end mid-table, nearer another seat than its own, while it still points the
        right way (dev oracle seed 244: seat 1's draws, reaching from the left edge to the stock in
        the top right corner, were given to seat 2 at the top). Draw seats right, nearest seat ->
        direction: dev oracle seeds 200-279 0.9935 -> 0.9957 (920 draws), 290-349 0.9969 -> 1.0 (639)."""
        return self.profile.seat_towards(root, self._zone_centre(zone))

    @staticmethod
    def _farthest(points: Sequence[tuple[float, float]], centre: Point) -> tuple[float, float]:
        """The point farthest from a zone's ``centre`` (camera pixels): at a zone off to one side, the
        hand's or arm's reach from its seat. Two neighbouring seats' hands reach a stock in a corner
        from nearly one direction, and what lies nearer the zone (the hand moving about in it, an arm
        seen only in part as it comes) points between them (dev seeds 1115, 1121: a draw given to the
        seat beside the one that drew; in 1121 the arm showed whole only on its seventh frame)."""
        cx, cy = centre
        return max(points, key=lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2)

    def _zone_centre(self, zone: Mask) -> Point:
        """A zone's centre in camera pixels."""
        cx, cy, _ = self._zone_shape(zone)
        return cx / self.scale, cy / self.scale

    def _arm_root(self, foreground: Mask, zone: Mask) -> Point | None:
        """Camera pixels of the far end of the foreground blob that reaches into ``zone``: the
        shoulder end of the arm, which is at its player's seat. ``None`` when the blob stays near the
        zone (no arm to follow)."""
        if not (foreground & zone).any():
            return None
        grown = cv2.dilate(foreground.astype(np.uint8), _DILATE)
        count, labels = cv2.connectedComponents(grown)
        touching = np.unique(labels[zone & (grown > 0)])
        touching = touching[touching > 0]
        if count < 2 or not touching.size:
            return None
        ys, xs = np.nonzero(np.isin(labels, touching))
        cx, cy, radius = self._zone_shape(zone)
        far = int(np.argmax((xs - cx) ** 2 + (ys - cy) ** 2))
        reach = math.hypot(float(xs[far]) - cx, float(ys[far]) - cy)
        if reach < 1.5 * radius:  # not past the zone's corners: no arm
            return None
        return float(xs[far]) / self.scale, float(ys[far]) / self.scale
