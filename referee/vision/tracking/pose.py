"""The top card's own pose: boxed with the hand that laid it, it settles into the card alone.

A card believed while the hand that laid it hid part of it shows more of itself as that hand draws back;
one boxed with the fingers resting on it shrinks to itself as they go. Neither is a second card, as long
as it happens in the visit that laid it: a card laid over it would come with another visit. A hand that
rests on its card, still, until the pile has lain still long enough to end its visit, draws back in the
next one: that is still the hand that laid it (:func:`laying_hand`).
"""

from __future__ import annotations

from referee.vision.detections import box_area
from referee.vision.tracking.boxes import Box, containment
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.frame import FrameFacts
from referee.vision.tracking.state import PileCard


def laying_hand(cfg: TrackerConfig, frame: FrameFacts, card: PileCard) -> bool:
    """The hand at the pile in ``frame`` is the one that laid ``card``: the visit that laid it, or the next
    one when it began within half a take-back time of ``card`` being believed, from ``card``'s seat. A hand
    that rested on the card it laid, still, ends its visit by the count (the pile lay still), and its
    drawing back begins the next; no other hand can have laid a card there that fast, and a hand coming
    from another seat is another player's."""
    if card.visit is None or frame.visit is None:
        return False
    if frame.visit == card.visit:
        return True
    return (frame.visit == card.visit + 1 and frame.visit_began is not None
            and frame.visit_began - card.frame_index <= cfg.takeback_frames // 2
            and card.seat is not None and frame.motion is not None and frame.motion.seat == card.seat)


def laid_under_this_hand(cfg: TrackerConfig, visit: int | None, label: str, card: PileCard) -> bool:
    """``label`` is ``card``'s, and ``card`` was believed during the hand visit going on now (``visit``),
    with that hand at the pile (fewer than ``min_hits`` clear frames): its pose may still be the hand's."""
    return (label == card.label and card.visit is not None and card.visit == visit
            and card.clear_when_believed < cfg.min_hits)


def shows_more_in_its_visit(cfg: TrackerConfig, visit: int | None, box: Box, label: str, card: PileCard) -> bool:
    """``box``, read as ``card``, holds the pose ``card`` was believed in and more, during the hand
    visit that laid it, and ``card`` was believed while that hand hid part of it: the card showing
    more of itself as the hand draws back (not a second card laid on it)."""
    return (laid_under_this_hand(cfg, visit, label, card) and box_area(box) > box_area(card.xyxy)
            and containment(card.xyxy, box) >= cfg.known_containment)


def shows_less_in_its_visit(cfg: TrackerConfig, visit: int | None, box: Box, label: str, card: PileCard) -> bool:
    """``box``, read as ``card``, lies inside the pose ``card`` was believed in, during the hand
    visit that laid it, and ``card`` was believed while that hand was at the pile: it was boxed
    with the fingers resting on it, and this is the card alone as they draw back. A card laid inside
    it would come with another visit, and the pose of a card believed in a clear view is its own."""
    return (laid_under_this_hand(cfg, visit, label, card) and box_area(box) < box_area(card.xyxy)
            and containment(box, card.xyxy) >= cfg.known_containment)


def grow(cfg: TrackerConfig, card: PileCard, box: Box) -> None:
    """``card`` seen in its pose with no hand near, in a box that holds its recorded pose and more:
    it was believed while a hand still hid part of it, and this is the whole card. (A pile card
    never moves, and only ever shows less of itself when something covers it, so the pose only
    grows, but for fingers boxed with it: :func:`shows_less_in_its_visit`.) The part that shows
    when a card lands over it is then found inside the whole pose."""
    if box_area(box) > box_area(card.xyxy) and containment(card.xyxy, box) >= cfg.known_containment:
        card.xyxy = box
