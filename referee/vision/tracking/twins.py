"""Identical cards (jump-in, stacking): a card like a pile card, laid on or near it, is a new card.

A pile card never moves, turns or grows once seen whole. So a box read as a pile card is a new card
where it was seen coming in from outside that card's pose (:func:`slid_in`), or where the top card's
box moved, turned or grew from where it came to rest after another hand came (:func:`moved_off`). A
box a passing hand swelled or cut short only changes shape in place; a card coming in translates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.vision.detections import iou
from referee.vision.tracking.boxes import Box, containment, in_pose, overhang, translation, turned
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.frame import FrameFacts
from referee.vision.tracking.pose import laying_hand
from referee.vision.tracking.state import Candidate, PileCard, Reading, face


def slid_in(
    cfg: TrackerConfig, continued: Mapping[Reading, Sequence[Candidate]], reading: Reading, card: PileCard
) -> bool:
    """``reading`` (its box read as its label) continues a tentative card (``continued``: those each reading
    of this frame continues) that came from outside ``card``'s pose and was first read as that
    face outside it: a pile card never moves, so it is a new card landing there (an identical card laid
    on its twin, or near an older one).

    Read as this face, or as the pile card's own (a twin sliding in may read as the pile card's other
    readings as it lands). The box lies where the card would be, moving as it moved: a still reading
    beside the pile card, whose own box was lost, only overlaps it. A card sliding in fast can overlap
    its last box less (:func:`on_its_way`), but not into the pile card's own pose: a box there is that
    card, unless the card coming in overlaps it along its motion."""
    box, label = reading.box, reading.label
    return any(
        (c.overlap(box) >= cfg.reread_iou
         or (iou(box, card.xyxy) < cfg.same_pose_iou and on_its_way(cfg, c, box)))
        and came_in(cfg, c, card.xyxy, box, label, card.label)
        for c in continued.get(reading, ())
    )


def on_its_way(cfg: TrackerConfig, cand: Candidate, box: Box) -> bool:
    """``box`` continues ``cand`` by moving on as a whole (``came_in_shift``) from its last box, and
    ``cand`` never lay still: seen once, or moving since. A card slid in fast overlaps its last box
    little; a still strip beside a pile card, lost and "continued" into it, lay still first."""
    moving = cand.velocity is None or cand.moves > 0
    return moving and translation(cand.box, box) >= cfg.came_in_shift


def came_in(cfg: TrackerConfig, cand: Candidate, pose: Box, now: Box, *labels: str) -> bool:
    """``cand``, now in ``now``, was first seen outside ``pose``, and first read as one of
    ``labels``' faces outside it: a card coming in over what lies there, not a part of it read
    otherwise.

    A first box mostly inside ``pose`` (``came_in_containment``) was outside only if the box has
    since moved as a whole (``came_in_shift``): a card sliding in translates, both edges of its
    box moving the same way, while the box of a card already there, swollen by a hand passing
    over it, only changes shape. Nor was a first box that holds the whole pose and has only changed
    shape since: the card there, boxed with the fingers beside it.
    """

    def outside(first: Box | None) -> bool:
        return first is not None and not in_pose(cfg, first, pose) and not swollen(first) and (
            containment(first, pose) < cfg.came_in_containment or translation(first, now) >= cfg.came_in_shift)

    def swollen(first: Box) -> bool:
        # The whole pose and more, and no move as a whole since: what lies there, boxed for a frame with
        # a hand beside it. A card coming in translates on its way.
        return containment(pose, first) >= cfg.known_containment and translation(first, now) < cfg.came_in_shift

    faces = {face(label) for label in labels}
    # A box that slid in, frame after frame, read unsure outside (as a card blurred by its motion
    # can be): that says nothing of which card it is, and a sliding box is a card. Read surely as
    # another face there, it is another card (or a hand's shape read as one).
    slid_in_unread = cand.moves >= 2 and not any(
        sure >= cfg.unsure_confidence and face(read) not in faces and outside(cand.labels[read])
        for read, sure in cand.surest.items())
    return outside(cand.origin) and (
        any(outside(cand.first_read_as(label)) for label in labels) or slid_in_unread)


def moved_off(cfg: TrackerConfig, frame: FrameFacts, box: Box, card: PileCard) -> bool:
    """``box``, read as the top ``card`` in its pose, has moved as a whole (``came_in_shift``) from
    where ``card`` came to rest, with another hand at the pile since the one that laid it
    (:func:`~referee.vision.tracking.pose.laying_hand`): a pile card
    never moves, so this is a card like it, laid nearly square on it. A box only swollen or cut short
    by a hand changes shape; it does not translate. Nor does it turn: with no arm over the pile, a box
    grown along one axis and shrunk along the other (:func:`~referee.vision.tracking.boxes.turned`) is
    a card like it laid on it at another angle, about the same centre. Nor does it grow: with no arm
    over the pile, a box sticking out of its whole pose by more than a still card's boxes jitter
    (``max_overhang``) is a card like it laid over it. Out of its pose and of its rest both: a hand
    beside it with no arm over the pile can cut the box it rests in, and a card settling as it is
    believed comes to rest outside the pose it was believed in."""
    if card.rest is None or card.visit is None or frame.visit is None or laying_hand(cfg, frame, card):
        return False
    shift = cfg.came_in_shift
    return translation(card.rest, box) >= shift or (not frame.arm_over_pile and (
        turned(card.rest, box) >= shift
        or min(overhang(box, card.rest), overhang(box, card.xyxy)) > cfg.max_overhang))
