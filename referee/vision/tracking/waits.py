"""When a tentative card may be judged: the readings that wait for a clear view of the pile.

A hand half over a card makes misreads, and a card really laid is still there when the hand has gone.
So a reading that may be a misread (unsure, a part of the top card, read like it, a doubtful colour,
several labels, the strip of a card under the top one) is judged only once no arm is over the pile and
the detector has had a clear view of it for as long as a card must hold still.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from referee.vision.detections import box_area, iou
from referee.vision.tracking.boxes import containment, cut_short, over_most_of, translation
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.known import remembered
from referee.vision.tracking.state import Candidate, PileCard
from referee.vision.tracking.twins import came_in
from referee.vision.tracking.votes import colour_doubtful, unsure


def like_top(top: PileCard | None, cand: Candidate) -> bool:
    """``cand`` is read as the top card: an identical card laid, or the strip of a card under the top
    one read as it while a hand was at the pile."""
    return top is not None and cand.leading == top.label


def in_top_pose(cfg: TrackerConfig, top: PileCard | None, cand: Candidate) -> bool:
    """``cand`` lies in the top card's very pose (``stable_iou``): a card laid square on it, or the top
    card misread under a hand passing over it. Once the hand has gone, the reading tells."""
    return top is not None and not cand.identical and iou(cand.pose, top.xyxy) >= cfg.stable_iou


def voted_top_in_its_pose(cfg: TrackerConfig, top: PileCard | None, cand: Candidate) -> bool:
    """``cand`` lies in the top card's very pose and its votes name the top card, first or in a near tie
    with the first (:func:`top_in_the_vote`), though each frame's surest reading may have been another
    label: the top card misread as a hand passes near, or an identical card laid square on it. Either way
    it waits as long as an identical card does."""
    return top is not None and top_in_the_vote(cfg, top, cand) and in_top_pose(cfg, top, cand)


def top_in_the_vote(cfg: TrackerConfig, top: PileCard, cand: Candidate) -> bool:
    """``cand``'s votes name ``top``'s label first, or nearly as often as the first (``unsure_runner_up`` of
    its share): one box read two ways as surely, one of them the card that lay there (a 9 read as a 6 as
    surely as a 9, both ways up, as a hand comes near), says no more of a new card than the top card read
    alone."""
    ranked = cand.ranked()
    return bool(ranked) and any(
        s.label == top.label and s.share >= cfg.unsure_runner_up * ranked[0].share for s in ranked)


def part_of_top(cfg: TrackerConfig, top: PileCard | None, cand: Candidate) -> bool:
    """``cand`` lies inside the top card's pose and is smaller: what a hand over the top card leaves
    of it (a card laid there shows whole once the hand has gone). Not a card that came in from outside
    that pose, read as itself there (an askew card's box can hold a straight one's)."""
    return (top is not None and containment(cand.pose, top.xyxy) >= cfg.known_containment
            and box_area(cand.pose) < box_area(top.xyxy)
            and not (cand.leading is not None and came_in(cfg, cand, top.xyxy, cand.pose, cand.leading)))


def hidden_part_of_top(cfg: TrackerConfig, top: PileCard | None, cand: Candidate) -> bool:
    """``cand``, read like the top card in its place (``identical``), is a part of the top card
    (:func:`part_of_top`) cut short on one side (:func:`~referee.vision.tracking.boxes.cut_short`): the
    top card with something over that side (a hand hovering there with no arm counted over the pile), not a
    card like it laid on it, when it took that pose with no arm over the pile (every steady frame in it a
    clear one). A card laid on the pile lies over everything there and shows whole once no arm is over it,
    so such a reading waits until it is seen whole: then it is the top card's own box (and goes), or a card
    like it in a pose of its own. One seen in that pose under the arm that laid it, and still so once the
    arm has gone, is a card like it laid nearly square along three edges of the top one (its fourth
    edge inside the top card's pose, as an older card turned more leaves it)."""
    return (top is not None and cand.identical and cand.clear >= cand.hits
            and part_of_top(cfg, top, cand) and cut_short(cfg, cand.pose, top.xyxy))


def in_place_under_top(cfg: TrackerConfig, pile: Sequence[PileCard], cand: Candidate) -> PileCard | None:
    """The card under the top one that ``cand`` showed up in place inside (never moved in), over
    little of the top card (``hides_top_share``) or beside a top card that still reads whole, if any:
    the part of that card that shows beside the top one."""
    if len(pile) < 2:
        return None
    top, pose = pile[-1], cand.pose
    if not top.in_full_view and over_most_of(cfg, pose, top.xyxy):
        return None
    return next((c for c in reversed(remembered(cfg, pile)[:-1])
                 if containment(pose, c.xyxy) >= cfg.known_containment
                 and containment(cand.origin, c.xyxy) >= cfg.known_containment
                 and translation(cand.origin, pose) < cfg.came_in_shift), None)


def needs_clear_view(cfg: TrackerConfig, pile: Sequence[PileCard], cand: Candidate) -> bool:
    """Unsure, a part of the top card, read as the top card, a doubtful colour, or read as more than
    one label before the detector had a clear view of it, or showing up in place inside the pose of a
    card under the top one, however sure: the strip of that card, part of it hidden by a hand, reads
    as another card."""
    top = pile[-1] if pile else None
    return (unsure(cfg, cand) or part_of_top(cfg, top, cand) or colour_doubtful(cfg, cand)
            or (len(cand.reads()) > 1 and cand.clear < cfg.min_hits) or in_top_pose(cfg, top, cand)
            or like_top(top, cand) or in_place_under_top(cfg, pile, cand) is not None)


def came_with_a_hand(
    cfg: TrackerConfig, cand: Candidate, motion_frames: Collection[int] | None, first_frame: int | None
) -> bool:
    """Motion over the pile (``motion_frames``: the frames with some) around the moment the card took its
    pose; a misread on a still pile has none. Always true when motion is not measured, and for the pile
    as the camera found it (``first_frame``: the tracker's first)."""
    if motion_frames is None:
        return True
    slack = 2 * max(cfg.min_hits, cfg.max_misses)
    if first_frame is not None and cand.first_frame <= first_frame + slack:
        return True
    return any(cand.first_frame - slack <= f <= cand.first_frame + slack for f in motion_frames)
