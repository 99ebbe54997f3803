"""What a card laid over part of a pile card does to its readings: it lends them its colour, and it hides
part of the top card, so a box over that part is the card laid there, not one under the top card."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from referee.vision.detections import box_area, intersection, iou
from referee.vision.tracking.boxes import Box, containment, in_pose
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.frame import FrameFacts
from referee.vision.tracking.state import PileCard, Reading, face


def colour_spoiled(
    cfg: TrackerConfig,
    rows: Sequence[Reading],
    card: PileCard,
    below: Sequence[PileCard],
    above: Sequence[PileCard],
    *,
    top: bool,
) -> set[Reading]:
    """The readings in ``card``'s pose that a box outside that pose overlaps: a card landing
    over it lends it its colour where it covers it (a blue skip half under a yellow one reads
    yellow), so there only its face is read, not its colour.

    Not a box in the pose of a card ``below`` it, read as that card's face: that card showing
    beside it, under it, lends it nothing. A card ``above`` it, read in its own pose, is that card,
    though it lie in a lower card's pose with that card's face."""
    pose_iou = cfg.same_pose_iou if top else cfg.known_iou

    def in_its_pose(box: Box) -> bool:
        return iou(box, card.xyxy) >= pose_iou or containment(box, card.xyxy) >= cfg.known_containment

    def shows_below(row: Reading) -> bool:
        if any(iou(row.box, c.xyxy) >= cfg.same_pose_iou for c in above):
            return False
        return any(face(row.label) == face(c.label) and in_pose(cfg, row.box, c.xyxy) for c in below)

    posed = [in_its_pose(row.box) for row in rows]
    return {
        row for i, row in enumerate(rows) if posed[i] and any(
            not posed[j] and intersection(row.box, other.box) >= cfg.spoiling_overlap * box_area(row.box)
            and not shows_below(other)
            for j, other in enumerate(rows) if j != i)
    }


def over_hidden_top(
    cfg: TrackerConfig, frame: FrameFacts, rows: Sequence[Reading], top: PileCard | None
) -> Callable[[Box], bool]:
    """Whether a box lies over the part of the top card that no longer shows: the top card is read
    this frame only in a part of its pose, with no arm over the pile to hide the rest, so what
    hides the rest is a card laid on it, and a box covering that part is that card, not one under
    the top card (whatever colour the top card's part seems to lend it)."""
    if top is None or frame.arm_over_pile:
        return lambda box: False
    if any(iou(row.box, top.xyxy) >= cfg.same_pose_iou for row in rows):
        return lambda box: False
    parts = [row.box for row in rows
             if top.answers_to(row.label, 0.0, cfg.unsure_colour)
             and containment(row.box, top.xyxy) >= cfg.known_containment]
    if len(parts) != 1:
        return lambda box: False
    part = parts[0]

    def over(box: Box) -> bool:
        hidden = intersection(box, top.xyxy) - intersection(box, part)
        return hidden >= cfg.over_top_share * box_area(box)

    return over
