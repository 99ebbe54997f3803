"""Tentative cards, frame by frame: each reading that is no pile card continues the tentative card it
overlaps most (along its motion) or starts a new one, and the steady frames vote.

A tentative card (:class:`~referee.vision.tracking.state.Candidate`) must hold one pose for ``min_hits``
frames before it is judged (:meth:`~referee.vision.tracking.tracker.PileTracker.update`); a card still
moving starts over from each new pose, and one unseen for ``max_misses`` frames is dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from referee.vision.detections import box_area, intersection, iou
from referee.vision.tracking.boxes import Box, translation
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.frame import FrameFacts
from referee.vision.tracking.known import Matched
from referee.vision.tracking.state import Candidate, Reading
from referee.vision.tracking.votes import read_surely

__all__ = ["associate", "drop_misreads"]


def drop_misreads(cfg: TrackerConfig, candidates: Sequence[Candidate], whole: Sequence[Box]) -> None:
    """A tentative card over a pile card that shows ``whole`` in this frame cannot lie on it: it was
    a misread of that card (or a box jumping between two readings of it)."""
    for cand in candidates:
        if any(iou(cand.box, box) >= 0.5 for box in whole):
            cand.misses = cfg.max_misses + 1  # dropped at the end of this update


def associate(
    cfg: TrackerConfig, candidates: list[Candidate], frame: FrameFacts, matched: Matched, hand_frame: int | None
) -> None:
    """Each reading that is no pile card continues the tentative card it overlaps most (along its
    motion), or starts a new one; the steady frames vote."""
    rows = matched.unknown
    like_top = set(matched.like_top)
    used_rows, used_cands = _continue_candidates(cfg, candidates, frame, rows, like_top)
    for i, row in enumerate(rows):
        if i not in used_rows:
            candidates.append(_new_candidate(frame, row, row in like_top, hand_frame))
    for j, cand in enumerate(candidates):
        if j not in used_cands and cand.first_frame != frame.index:
            cand.misses += 1
    _spoil_clear_views(cfg, candidates, frame)
    if frame.arm_over_pile:
        for cand in candidates:
            cand.clear_run = 0  # a clear view starts again once the arm has gone


def _continue_candidates(
    cfg: TrackerConfig, candidates: Sequence[Candidate], frame: FrameFacts, rows: Sequence[Reading],
    like_top: set[Reading],
) -> tuple[set[int], set[int]]:
    """The best-overlapping pairs of reading and tentative card, surest first: each reading continues
    one card at most, each card one reading. Returns the indices of the readings used and of the
    cards continued."""
    pairs = sorted(
        ((c.overlap(row.box), i, j) for i, row in enumerate(rows) for j, c in enumerate(candidates)),
        reverse=True,
    )
    used_rows: set[int] = set()
    used_cands: set[int] = set()
    for score, i, j in pairs:
        if score < cfg.match_iou:
            break
        if i in used_rows or j in used_cands:
            continue
        used_rows.add(i)
        cand = candidates[j]
        if rows[i].confidence < cfg.min_confidence and read_surely(cfg, cand):
            # Found, not read, where a card was read surely: no vote, and no sight of that card
            # (a misread under a passing hand is not kept alive by the box the hand leaves).
            continue
        used_cands.add(j)
        _continue(cfg, frame, cand, rows[i], rows[i] in like_top)
    return used_rows, used_cands


def _continue(cfg: TrackerConfig, frame: FrameFacts, cand: Candidate, row: Reading, like_top: bool) -> None:
    """``cand`` seen again as ``row`` (``like_top``: read like the top card, partly hidden in its place):
    it moves there, and a steady frame votes."""
    motion = frame.motion
    seat = motion.seat if motion is not None else None
    box = row.box
    if like_top:
        # Now read like the top card, partly hidden in its place: maybe an identical card
        # on it, maybe the top card under a hand. Time tells (see :meth:`PileTracker._confirm`).
        cand.identical = True
    cand.velocity = ((box - cand.box) / (cand.misses + 1)).astype(np.float32)
    cand.moves += translation(cand.box, box) >= cfg.came_in_shift
    cand.box = box
    cand.note_read(row.label, box, frame.t, row.confidence)
    cand.misses = 0
    cand.seen += 1
    if iou(box, cand.anchor) < cfg.stable_iou:
        # Still moving: start over from this pose.
        cand.start_over(box, frame.index, frame.t, visit=frame.visit, seat=seat, identical=like_top,
                        before=motion.pile_before if motion is not None else None)
    if cand.hits < cfg.min_hits and cand.visit == frame.visit:
        cand.note_seat(seat)
    if frame.still(box):
        cand.hits += 1
        cand.held = cand.held or (cand.moves == 0 and cand.hits >= cfg.min_hits)
        cand.clear += not frame.arm_over_pile
        cand.clear_run += not frame.arm_over_pile
        cand.count_frame(row)


def _new_candidate(frame: FrameFacts, row: Reading, like_top: bool, hand_frame: int | None) -> Candidate:
    """A tentative card starting with ``row``, a reading that continues none."""
    motion = frame.motion
    seat = motion.seat if motion is not None else None
    box = row.box
    cand = Candidate(anchor=box, box=box, first_frame=frame.index, seat=seat, first_t=frame.t,
                     identical=like_top, visit=frame.visit,
                     before=motion.pile_before if motion is not None else None, origin=box,
                     hand_frame=hand_frame)
    cand.note_read(row.label, box, frame.t, row.confidence)
    cand.note_seat(seat)
    if frame.still(box):
        cand.hits = 1
        cand.clear = cand.clear_run = int(not frame.arm_over_pile)
        cand.count_frame(row)
    return cand


def _spoil_clear_views(cfg: TrackerConfig, candidates: Sequence[Candidate], frame: FrameFacts) -> None:
    """A card still sliding in spoils the view of what it passes over, as a hand does: what shows
    there is what it leaves of the cards it covers, and a clear view of it starts once it has
    stopped (a card's uncovered side, read as another card, must not settle meanwhile)."""
    sliding = [c for c in candidates if c.first_frame == frame.index and c.seen > 1 and c.misses == 0]
    for cand in candidates:
        if any(other is not cand
               and intersection(cand.box, other.box) >= cfg.spoiling_overlap * box_area(cand.box)
               for other in sliding):
            cand.clear = cand.clear_run = 0
