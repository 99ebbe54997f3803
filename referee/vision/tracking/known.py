"""Is this a card already on the pile? Each frame's readings are matched to the pile remembered.

A reading that matches a pile card (its label, or one it was read as, in its pose or in the part of it
that peeks out) is that card seen again, not a play. The top card is matched only in its own pose; a card
like it anywhere else on it is a candidate for an identical card laid there. What is left over goes on
to the tentative cards (:mod:`referee.vision.tracking.tracker`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from referee.vision.detections import iou
from referee.vision.tracking.boxes import Box, containment, in_pose, over_most_of, overhang
from referee.vision.tracking.buried import buried_showing
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.covered import colour_spoiled, over_hidden_top
from referee.vision.tracking.frame import FrameFacts
from referee.vision.tracking.pose import grow, laying_hand, shows_less_in_its_visit, shows_more_in_its_visit
from referee.vision.tracking.state import Candidate, PileCard, Reading
from referee.vision.tracking.twins import moved_off, slid_in

log = logging.getLogger(__name__)


@dataclass
class Matched:
    """What :func:`match_known` made of one frame's readings."""

    #: The readings that are no pile card seen again: maybe new cards.
    unknown: list[Reading] = field(default_factory=list)
    #: Poses of the pile cards seen whole this frame: a tentative card over one is a misread of it.
    whole: list[Box] = field(default_factory=list)
    #: Readings like the top card in another pose on it, with nothing else on it: an identical card
    #: laid there, or the top card partly hidden (time tells).
    like_top: list[Reading] = field(default_factory=list)


def remembered(cfg: TrackerConfig, pile: Sequence[PileCard]) -> list[PileCard]:
    """The pile cards a reading may be, oldest first: the last ``memory`` laid, and any older one
    still showing (seen within ``2 * max_misses`` still frames of its box). A card is forgotten
    once it is buried, not once it is ``memory`` deep: one that still peeks out from under the
    others is read again each frame, and a hand passing by can make its box swell. ``missing`` is
    kept only for the cards remembered, so a card once forgotten stays so."""
    cut = len(pile) - cfg.memory
    return [c for k, c in enumerate(pile) if k >= cut or c.missing <= 2 * cfg.max_misses]


def without_found_in_pile(cfg: TrackerConfig, pile: Sequence[PileCard], rows: Sequence[Reading]) -> list[Reading]:
    """``rows`` less the boxes found but not read (face under ``min_confidence``: read for their card-ness)
    that lie within a remembered pile card's pose (``known_containment``): what shows of that card, the
    strip a card laid on it left uncovered, which a box with no face read can tell nothing new of. Taken for
    a card, such a strip changes how the readings beside it are matched (a twin laid over its twin can be
    lost to it). The price: a card the detector cannot read, laid within a pile card's pose, waits until
    its face is read."""
    recent = remembered(cfg, pile)
    return [r for r in rows if r.confidence >= cfg.min_confidence
            or not any(containment(r.box, c.xyxy) >= cfg.known_containment for c in recent)]


def continuations(
    cfg: TrackerConfig, rows: Sequence[Reading], candidates: Sequence[Candidate]
) -> dict[Reading, list[Candidate]]:
    """The tentative cards each reading of this frame continues: each tentative card continues into its
    best-overlapping box (if any overlaps it ``match_iou``)."""
    continued: dict[Reading, list[Candidate]] = {}
    for c in candidates:
        scored = ((c.overlap(row.box), row) for row in rows)
        score, best = max(scored, key=lambda sr: sr[0], default=(0.0, None))
        if best is not None and score >= cfg.match_iou:
            continued.setdefault(best, []).append(c)
    return continued


def is_known(
    cfg: TrackerConfig, frame: FrameFacts, box: Box, label: str, colour_conf: float, card: PileCard, *,
    top: bool, hides_top: bool = False,
) -> bool:
    """``box`` read as ``label`` (its colour read ``colour_conf`` sure) is ``card``: it answers to the
    card and lies in its pose (the top card's own pose, for the top card)."""
    if not card.answers_to(label, colour_conf, cfg.unsure_colour):
        return False
    if label != card.label and not frame.arm_over_pile and overhang(box, card.xyxy) > cfg.max_overhang:
        # Its other reading, sticking out of its pose where no hand can make the box swell: a card
        # laid nearly square on it (a 1 on a 7 sometimes read as a 1).
        return False
    if (not top and label == card.label and not frame.arm_over_pile
            and overhang(box, card.xyxy) > cfg.max_buried_overhang):
        # Its own label, sticking out of the pose of a card that other cards have covered since:
        # a card like it, laid over it (one slid in too fast to be followed comes to rest so).
        return False
    if top:
        # The top card shows whole in its pose, or (a card landing on it) only a part of it. The
        # same card whole in a pose nearby is an identical card laid on it (jump-in, stacking).
        # Inside its pose, smaller or nearly whole, it is the top card as far as the pose goes;
        # :func:`match_known` then tells an identical card from the top one partly hidden.
        return in_pose(cfg, box, card.xyxy) or shows_more_in_its_visit(cfg, frame.visit, box, label, card)
    if hides_top:
        # A card under the top one shows where the top card lay only if the top card was taken
        # off it, and then it lies exactly in its own pose; anything less is a new card laid over
        # the top one (an identical card to one further down, say).
        return iou(box, card.xyxy) >= cfg.stable_iou
    return iou(box, card.xyxy) >= cfg.known_iou or containment(box, card.xyxy) >= cfg.known_containment


def in_its_rest(cfg: TrackerConfig, box: Box, card: PileCard) -> bool:
    """``box`` lies where ``card`` came to rest (``same_pose_iou`` over its rest): the card seen whole. A card
    boxed with the fingers that laid it shrinks to itself as they draw back, and comes to rest in a box
    that only just holds the pose it was believed in; a few pixels off that box, it is still the card
    lying there, not a card like it laid on it (which would come with another hand:
    :func:`~referee.vision.tracking.twins.moved_off` is asked first)."""
    return card.rest is not None and iou(box, card.rest) >= cfg.same_pose_iou


def top_read_otherwise(cfg: TrackerConfig, frame: FrameFacts, row: Reading, top: PileCard) -> bool:
    """``row`` lies in the top card's own pose, read unsure, and the same box's other reading
    answers to the top card: the top card read two ways (a hand reaching past it tints it), not a
    new card."""
    return (row.confidence < cfg.unsure_confidence and iou(row.box, top.xyxy) >= cfg.same_pose_iou
            and any(top.answers_to(other.label, other.colour_confidence, cfg.unsure_colour) for other in row.also))


def match_known(
    cfg: TrackerConfig, frame: FrameFacts, pile: Sequence[PileCard], candidates: Sequence[Candidate]
) -> Matched:
    """Mark the pile cards seen in ``frame``; returns the readings that are not pile cards."""
    looking = _Looking.at(cfg, frame, pile, candidates)
    recent, last = looking.recent, looking.last
    matched = Matched()
    seen: set[int] = set()
    full: set[int] = set()
    like_top: list[Reading] = []
    for row in frame.readings:
        match = looking.match(row)
        if match is None:
            matched.unknown.append(row)
        else:
            seen.add(match)
            looking.seen_again(row, match, full, matched.whole, like_top)
    if last in full and matched.unknown:
        # A card buried for a while showing again while the top card lies whole: nothing was laid
        # on the top card, so this is the buried card peeking out again, not a new card.
        matched.unknown, found = buried_showing(cfg, frame, recent, looking.showing, matched.unknown,
                                                looking.continued)
        seen |= found
    if like_top and last not in full:
        # The top card's label in another pose on it, and no other card on it: the top card
        # partly hidden, or an identical card laid square on it. Both, until time tells.
        top_box = recent[last].xyxy
        if not any(iou(row.box, top_box) > 0.05 for row in matched.unknown):
            matched.unknown.extend(like_top)
            matched.like_top = like_top
    for k, card in enumerate(recent):
        card.in_full_view = k in full
        if k in seen:
            card.missing = 0
        elif frame.still(card.xyxy):
            card.missing += 1  # in plain view and not seen
            if card.missing == 1:
                card.lost_in_visit = frame.visit
    return matched


@dataclass(frozen=True)
class _Looking:
    """The pile remembered as one frame looks at it: the cards a reading may be and what the frame's
    readings tell of them, gathered once (:meth:`at`) for every reading's match."""

    cfg: TrackerConfig
    frame: FrameFacts
    #: The pile cards a reading may be, oldest first (:func:`remembered`); the top card is the last.
    recent: list[PileCard]
    #: The indices in ``recent`` of the cards that may show, the top card first.
    showing: list[int]
    #: Cards under a top card taken back: uncovered, they show only exactly in their pose.
    uncovered: set[int]
    #: The tentative cards each reading continues (:func:`continuations`).
    continued: dict[Reading, list[Candidate]]
    #: Per card showing, the readings whose colour a card over it spoils (:func:`colour_spoiled`).
    spoiled: dict[int, set[Reading]]
    #: Whether a box lies over the part of the top card that no longer shows (:func:`over_hidden_top`).
    over_top: Callable[[Box], bool]
    #: The top card read whole in its pose this frame.
    top_whole: bool

    @classmethod
    def at(cls, cfg: TrackerConfig, frame: FrameFacts, pile: Sequence[PileCard],
           candidates: Sequence[Candidate]) -> _Looking:
        recent = remembered(cfg, pile)
        # A card buried for a while cannot show up again, except the one under a top card that is
        # gone (a take-back): an identical card in its place is a new card on top.
        top_gone = bool(recent) and recent[-1].missing > 0
        last = len(recent) - 1
        showing = [
            k for k in range(last, -1, -1)
            if k == last or recent[k].missing <= 2 * cfg.max_misses or (k == last - 1 and top_gone)
        ]
        # A card uncovered by a take-back lies exactly where it was, and is judged so once the hand
        # has gone; anything else there is a new card (a twin laid on the card over it, say, while the
        # hand still hides that card).
        uncovered = {k for k in showing if k != last and recent[k].missing > 2 * cfg.max_misses}
        rows = frame.readings
        spoiled = {k: colour_spoiled(cfg, rows, recent[k], recent[:k], recent[k + 1:], top=k == last)
                   for k in showing}
        top = recent[last] if recent else None
        # The top card read whole in its pose this frame: a smaller box read as it is not the top
        # card with the fingers left out (see :meth:`seen_again`), nor is one in the pose of a card
        # under it: that is the card under it read as the top card's face.
        top_whole = top is not None and any(
            iou(row.box, top.xyxy) >= cfg.same_pose_iou
            and top.answers_to(row.label, row.colour_confidence, cfg.unsure_colour) for row in rows)
        return cls(cfg, frame, recent, showing, uncovered, continuations(cfg, rows, candidates), spoiled,
                   over_hidden_top(cfg, frame, rows, top), top_whole)

    @property
    def last(self) -> int:
        """The top card's index in ``recent`` (-1: nothing remembered)."""
        return len(self.recent) - 1

    def match(self, row: Reading) -> int | None:
        """The index in ``recent`` of the pile card ``row`` is, seen again (``None``: none)."""
        cfg, frame, recent, last = self.cfg, self.frame, self.recent, self.last
        box, label, colour_conf = row.box, row.label, row.colour_confidence
        top = recent[last] if recent else None
        # Over the top card's pose, or over most of it once the top card has gone from view (a twin
        # of a card further down, laid over the top card near its twin's pose).
        hides_top = top is not None and (
            containment(top.xyxy, box) >= cfg.known_containment
            or (top.missing > 0 and over_most_of(cfg, box, top.xyxy)))
        match = next(
            (k for k in self.showing if is_known(
                cfg, frame, box, label, 0.0 if row in self.spoiled[k] else colour_conf, recent[k], top=k == last,
                hides_top=hides_top)
             and (k not in self.uncovered or (not frame.arm_over_pile
                                              and iou(box, recent[k].xyxy) >= cfg.same_pose_iou))
             and (k == last or not self.over_top(box))
             and not slid_in(cfg, self.continued, row, recent[k])), None
        )
        if match is None and top is not None and top_read_otherwise(cfg, frame, row, top):
            match = last
        return match

    def seen_again(self, row: Reading, match: int, full: set[int], whole: list[Box],
                   like_top: list[Reading]) -> None:
        """``row`` is ``recent[match]`` seen again: in its whole pose (into ``full``, its pose into
        ``whole``; a still view of it may grow its pose), or, for the top card, maybe a card like it laid
        on it (into ``like_top``)."""
        cfg, frame, recent, last = self.cfg, self.frame, self.recent, self.last
        box, label = row.box, row.label
        if match == last and moved_off(cfg, frame, box, recent[last]):
            # The top card, moved as a whole since it came to rest, with a hand visit
            # between: a card like it laid nearly square on it.
            like_top.append(row)
        elif iou(box, recent[match].xyxy) >= cfg.same_pose_iou or in_its_rest(cfg, box, recent[match]):
            full.add(match)
            whole.append(recent[match].xyxy)
            if not frame.arm_over_pile and frame.still(box):
                if match == last and laying_hand(cfg, frame, recent[match]):
                    recent[match].rest = box
                grow(cfg, recent[match], box)
        elif match == last and shows_more_in_its_visit(cfg, frame.visit, box, label, recent[last]):
            # Seen, and once the hand has gone this is its whole pose.
            if not frame.arm_over_pile and frame.still(box):
                grow(cfg, recent[last], box)
                full.add(last)
                whole.append(recent[last].xyxy)
        elif (match == last and shows_less_in_its_visit(cfg, frame.visit, box, label, recent[last])
              and not self.top_whole and not any(iou(box, card.xyxy) >= cfg.same_pose_iou
                                                 for card in recent[:last])):
            # Seen, and once the hand has gone this is its whole pose, the fingers left out.
            if not frame.arm_over_pile and frame.still(box):
                recent[last].xyxy = recent[last].rest = box
                full.add(last)
                whole.append(box)
        elif match == last and row not in self.spoiled[last]:
            like_top.append(row)
