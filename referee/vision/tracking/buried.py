"""Buried cards showing again: a card under the top one, forgotten while an arm hid it, seen again.

While the top card lies whole, nothing was laid on it; a reading of a buried card in its own pose (or
of the part of it that reaches under the top card, where a card laid now would have hidden some of the
top one) is that card peeking out again, not a new card.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from referee.vision.detections import box_area, intersection, iou
from referee.vision.tracking.boxes import Box, containment, in_pose, over_most_of
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.frame import FrameFacts
from referee.vision.tracking.state import Candidate, PileCard, Reading
from referee.vision.tracking.twins import slid_in

log = logging.getLogger(__name__)


def buried_showing(
    cfg: TrackerConfig,
    frame: FrameFacts,
    recent: Sequence[PileCard],
    showing: Sequence[int],
    unknown: Sequence[Reading],
    continued: Mapping[Reading, Sequence[Candidate]],
) -> tuple[list[Reading], set[int]]:
    """Of the ``unknown`` readings of a frame in which the top card of ``recent`` (the pile remembered)
    lies whole, those still unknown, and the indices in ``recent`` of the buried cards (those not
    ``showing``) and cards under the top one seen again among them."""
    last = len(recent) - 1
    buried = [k for k in range(last) if k not in showing]
    seen: set[int] = set()
    still_unknown = []
    for row in unknown:
        # A buried card lies still: a box moving there is a card coming in. So may be one read as the
        # top card while a hand is at the pile (a twin sliding onto the top card, read as it passes
        # over a card below); it waits for a clear view all the same, when the strip of a buried card
        # is that card again. Read as its own label, though, a buried card is that card.
        maybe_in = frame.arm_over_pile and row.label == recent[last].label
        k = None if not frame.still(row.box) else next(
            (k for k in reversed(range(last))
             if (k in buried and _peeks_out(cfg, frame, recent, row, k)
                 and (not maybe_in or recent[k].label == row.label))
             or (not maybe_in and _top_face_in_its_pose(cfg, recent, continued, row, recent[k]))), None)
        if k is None:
            still_unknown.append(row)
        else:
            seen.add(k)
            log.debug("%s buried under the top card shows again in its pose", recent[k].label)
    return still_unknown, seen


def _reaches_under(cfg: TrackerConfig, box: Box, top_pose: Box) -> bool:
    """``box`` reaches under the top card (in ``top_pose``) by ``spoiling_overlap`` of itself."""
    return intersection(box, top_pose) >= cfg.spoiling_overlap * box_area(box)


def _peeks_out(cfg: TrackerConfig, frame: FrameFacts, recent: Sequence[PileCard], row: Reading, k: int) -> bool:
    """``row`` is the buried card ``recent[k]`` peeking out: it answers to it, in its pose, or in a part of
    it reaching under the top card."""
    box, card, last = row.box, recent[k], len(recent) - 1
    if any(containment(box, recent[j].xyxy) >= cfg.known_containment for j in range(k + 1, last + 1)):
        # Inside a card laid after it, which covers it there: a new card (a twin slid into a
        # buried card's pose, over a card laid since).
        return False
    under_top = _reaches_under(cfg, box, recent[last].xyxy)
    if frame.arm_over_pile and over_most_of(cfg, box, recent[last].xyxy):
        # Over most of the top card while a hand is at the pile: a card like the buried one being
        # laid on the top card, which still reads whole for a frame or two.
        return False
    # A box reaching under the top card reads the top card's colour too: its face decides.
    colour = 0.0 if under_top else row.colour_confidence
    return card.answers_to(row.label, colour, cfg.unsure_colour) and (
        iou(box, card.xyxy) >= cfg.same_pose_iou
        or (under_top and containment(box, card.xyxy) >= cfg.known_containment))


def _top_face_in_its_pose(
    cfg: TrackerConfig, recent: Sequence[PileCard], continued: Mapping[Reading, Sequence[Candidate]],
    row: Reading, card: PileCard,
) -> bool:
    """An unsure read of the top card's label in the exact pose of ``card``, a card under it, or inside
    that pose (the part of it that shows), reaching under the top card: that card, named after the face
    beside it. A card laid there would hide some of the top card, and would read sure once whole. Read
    sure, it is that card still if it lies square in its pose over half the top card's box, and did not
    slide in: a card laid there would have hidden half the top card, which reads whole. A card seen
    sliding in is one laid there, though the top card's box shrinks too little to tell."""
    box, top = row.box, recent[-1]
    if not (row.label == top.label and in_pose(cfg, box, card.xyxy) and _reaches_under(cfg, box, top.xyxy)):
        return False
    return row.confidence < cfg.unsure_confidence or (
        iou(box, card.xyxy) >= cfg.stable_iou
        and intersection(box, top.xyxy) >= cfg.hides_top_share * box_area(top.xyxy)
        and not slid_in(cfg, continued, row, card))
