"""Re-reading the top card in clear view: a card believed under a hand may have been misread.

Under a hand a card is seen in part and through shadow, and its first reading may be wrong. A card
believed with an arm over it (fewer than ``min_hits`` clear frames), or on an unsure vote, is watched
once the pile is clear: each clear frame counts which label leads in its pose, and once ``reread_frames``
have been counted, a label other than its own that led in ``reread_share`` of them, read with a sure
colour (its own face in another colour: not unsure, the colour read under the arm being what is in question),
re-reads it (a ``reread`` event: the pipeline corrects the play). A closer look at the whole card
has the last word. A card believed sure in clear view is never re-read, nor one re-read already.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from referee.vision.detections import Detections, box_area, intersection, iou
from referee.vision.tracking.closer import SecondLook, look_closer
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.events import Reread
from referee.vision.tracking.frame import FrameFacts
from referee.vision.tracking.state import Candidate, PileCard, face

log = logging.getLogger(__name__)


def reread_in_clear_view(
    cfg: TrackerConfig,
    frame: FrameFacts,
    detections: Detections,
    pile: Sequence[PileCard],
    candidates: Sequence[Candidate],
    look: SecondLook | None,
) -> Reread | None:
    """The top card of ``pile``, believed while an arm was over it or on an unsure vote, read otherwise
    in ``detections`` now that the pile is clear: a :class:`Reread` (``card`` new, ``was`` old), for
    the pipeline to correct the play. A card believed on an unsure vote is watched, clear view or not:
    it came to rest after it was believed."""
    top = pile[-1] if pile else None
    if (top is None or top.judged_in_clear_view or frame.arm_over_pile
            or (top.clear_when_believed >= cfg.min_hits and not top.unsure_when_believed)
            or top.frame_index >= frame.index or not frame.still(top.xyxy)
            or being_covered(cfg, top, candidates)):
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
    if best is None or best[2] < _colour_wanted(cfg, top.label, best[1]):
        return None
    top.clear_leads[best[1]] = top.clear_leads.get(best[1], 0) + 1
    counted = sum(top.clear_leads.values())
    if counted < cfg.reread_frames:
        return None
    leader, leads = max(top.clear_leads.items(), key=lambda kv: kv[1])
    top.judged_in_clear_view = True
    if leader == top.label or leads < cfg.reread_share * counted:
        # The pile view agrees, or is split: a closer look may still tell (a card misread under the
        # hand can go on being misread in the pile view).
        closer = look_closer(look, frame.arm_over_pile, top.xyxy, top.label, whole=True)
        if closer is None:
            return None
        leader = closer
    else:
        # The pile view leads to another face; a closer look at the whole card has the last word (the
        # pile view can go on misreading a card it first read right).
        closer = look_closer(look, frame.arm_over_pile, top.xyxy, leader, whole=True)
        if closer == top.label:
            log.info("%s read as %s in %d of %d clear frames since, but as %s closer up: kept",
                     top.label, leader, leads, counted, closer)
            return None
        leader = closer or leader
        log.info("%s (believed under an arm) read as %s in %d of %d clear frames since: re-read",
                 top.label, leader, leads, counted)
    was, top.label = top.label, leader
    top.reads = top.reads | {leader}
    return Reread(leader, was, top.seat, frame.t, frame.index)


def _colour_wanted(cfg: TrackerConfig, believed: str, read: str) -> float:
    """How sure of its colour a clear frame's reading must be to count: ``wait_colour``; for the believed card's
    own face in another colour, ``unsure_colour``. What is in question then is the colour read under the arm (a
    hand resting on a pale card lends it the skin's warm colour), and a clear view that reads another colour
    less surely than a sure belief is still better evidence of it than the view through the hand."""
    if read != believed and face(read) == face(believed):
        return cfg.unsure_colour
    return cfg.wait_colour


def being_covered(cfg: TrackerConfig, top: PileCard, candidates: Sequence[Candidate]) -> bool:
    """A card brought by a later hand visit than ``top``'s lies (tentative) over part of its pose
    (``spoiling_overlap``): what shows there is that card, not ``top`` to be read again."""
    if top.visit is None:
        return False
    share = cfg.spoiling_overlap * box_area(top.xyxy)
    return any(not c.absorbed and c.visit is not None and c.visit > top.visit
               and intersection(c.pose, top.xyxy) >= share for c in candidates)
