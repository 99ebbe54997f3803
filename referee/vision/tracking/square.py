"""A card laid square on the top card: seen as a change of the pile's picture, named by a closer look.

A card laid exactly over the top card takes its pose. Where the detector reads it surely, the new label
in that pose is a tentative card as any other; where it reads it weakly, most often as the card it covers
(the closer it looks, the more the outline says "the top card"), its box is the top card's box seen again
(:mod:`referee.vision.tracking.known`) and nothing new ever starts there: the play is lost, and the turn
order with it. A printing the detector never learned is read weakly all the time.

So once a hand visit after the top card's has ended and the pile has lain clear for as long as a card
must hold still, with no tentative card from that visit (the usual path has it), the pile's picture in the
top card's pose is compared with the picture before the visit: where as much of it changed as a card laid
there changes (``laid_share``), a closer look at the whole card (:func:`~.closer.look_closer`) says what
lies there. A face surely other than the top card's, and not one the top card was ever read as, is a card
laid square on it. Once a visit; an identical card laid square (a jump-in) changes too little and is left to
its own rule.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence

import numpy as np

from referee.cards import BLACK_VALUES
from referee.vision.detections import iou
from referee.vision.tracking.boxes import Box, changed_under
from referee.vision.tracking.closer import ONE_COLOUR, SecondLook, look_closer
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.events import Play
from referee.vision.tracking.frame import FrameFacts
from referee.vision.tracking.pile import Pile
from referee.vision.tracking.state import Candidate, PileCard, face
from referee.vision.tracking.vetoes import DECK_COPY

log = logging.getLogger(__name__)


def changed_share(frame: FrameFacts, box: np.ndarray, change_level: int) -> float | None:
    """The share of the pile's picture under ``box`` that changed since before the latest hand visit
    (``None``: no pictures to compare)."""
    before = frame.motion.pile_before if frame.motion is not None else None
    now = frame.pile_now
    if before is None or now is None or before.shape != now.shape:
        return None
    under = changed_under(before, now, box, frame.pile_size, change_level)
    return None if under is None else float(np.mean(under[1]))


def handled(cand: Candidate, visit: int, top: PileCard, cfg: TrackerConfig) -> bool:
    """A tentative card the usual path is judging (still seen) or found to be no card (absorbed), of hand
    visit ``visit`` or lying over the ``top`` card whatever visit it began in (a second hand can come before
    the first has gone); one that has gone unseen is fading, never to be judged. One found to be no new card only
    because the deck holds no other copy of the top card (:data:`~.vetoes.DECK_COPY`) is misread, not judged: what
    lies there is this rule's to name."""
    if cand.absorbed and cand.absorbed_by == DECK_COPY:
        return False
    if cand.visit == visit and cand.absorbed:
        return True
    return cand.misses == 0 and (cand.visit == visit or iou(cand.box, top.xyxy) >= cfg.match_iou)


def in_colour_shown(look: SecondLook, pose: Box, label: str) -> str:
    """``label``, a closer look's face in the colour of the card it was read against (the top card's), in
    the colour the pile view shows at ``pose`` now, where it is one colour (:data:`~.closer.ONE_COLOUR`):
    the card laid square on the top card is read there, and it need not share the top card's colour (a red
    2/7 laid square on a yellow one was played yellow). A black card's label has no colour to change."""
    if "_" not in label or label in BLACK_VALUES:
        return label
    read = look.colour(pose)
    if read is None or read[1] < ONE_COLOUR:
        return label
    return f"{read[0]}_{face(label)}"


def laid_square_on_top(
    cfg: TrackerConfig,
    frame: FrameFacts,
    pile: Pile,
    candidates: Sequence[Candidate],
    look: SecondLook | None,
    clear_since: int | None,
    seats: Counter[int] | None,
) -> Play | None:
    """The card laid square on the top card of ``pile`` in the hand visit that just ended (laid on
    ``pile``), or ``None``. Call it once a visit, once the pile has been clear (no hand or arm over it)
    since frame ``clear_since`` for ``min_hits`` frames and none of ``candidates`` is :func:`handled` (the usual
    path judges those first); ``seats``: the frames that visit's hand was seen from each seat."""
    top = pile.top
    if (look is None or top is None or top.visit is None or frame.visit is None or frame.visit <= top.visit
            or clear_since is None or frame.index - clear_since < cfg.min_hits or frame.arm_over_pile
            or not frame.still(top.xyxy)):
        return None
    changed = changed_share(frame, top.xyxy, cfg.change_level)
    if changed is None or changed < cfg.laid_share:
        return None
    closer = look_closer(look, False, top.xyxy, top.label, whole=True)
    if closer is not None:
        closer = in_colour_shown(look, top.xyxy, closer)
    if closer is None or closer in top.reads | {top.label}:
        return None
    seat = seats.most_common(1)[0][0] if seats else None
    t = frame.t - (frame.index - clear_since) / cfg.fps
    # The pile view reads it as the card it covers (the rule's premise), and may read on so: that is its reading
    # too, not the covered card showing again as if it had been taken off. The tentative card that this visit
    # began there and lost to the top card (a card read surely as it slid in, or read as the top card where the
    # deck holds no other copy) gives the card's own pose and its readings; it is done with, so that the card is
    # not played twice.
    pose, reads = top.xyxy.copy(), {closer, top.label}
    for cand in candidates:
        if (cand.visit == frame.visit and (not cand.absorbed or cand.absorbed_by == DECK_COPY)
                and iou(cand.pose, top.xyxy) >= cfg.match_iou):
            pose = cand.pose.copy()
            reads |= cand.reads()
            cand.misses = cfg.max_misses + 1  # dropped at the end of this update
    log.info("%s laid square on %s (%.0f%% of its picture changed, read closer up)", closer, top.label,
             100 * changed)
    pile.lay(PileCard(closer, pose, seat, frame.index, t, reads=frozenset(reads),
                         visit=frame.visit, clear_when_believed=cfg.min_hits))
    return Play(closer, seat, t, frame.index, reason="laid square on the top card, read closer up")
