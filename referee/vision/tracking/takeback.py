"""Take-backs: the top card gone for ``takeback_frames`` while the card under it shows whole again.

A card taken back undoes its play. A card is taken back by its own player: gone in a later visit of
another seat's hand, with the card under it whole in its pose, it was covered by a card like that one
laid square over it (a play). A card that comes back where it was taken back from was never taken back.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping

from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.events import Play, TakeBack
from referee.vision.tracking.frame import FrameFacts
from referee.vision.tracking.pile import Pile
from referee.vision.tracking.state import PileCard

log = logging.getLogger(__name__)


def check_take_back(
    cfg: TrackerConfig, frame: FrameFacts, pile: Pile, visit_seats: Mapping[int, Counter[int]],
) -> Play | TakeBack | None:
    """The top card of ``pile`` taken back this frame (:meth:`Pile.take_back`), or covered by a card like
    the one under it (a play, laid on ``pile``); ``None`` when neither."""
    if len(pile) < 2 or frame.blocked:
        return None
    top, under = pile[-1], pile[-2]
    if top.missing < cfg.takeback_frames or under.missing > 0 or not under.in_full_view:
        return None
    if (seat := laid_by_another_over(visit_seats, top)) is not None:
        # Not its player's hand: a card like the one under it was laid square on that one's pose,
        # over the top card.
        card = PileCard(under.label, under.xyxy.copy(), seat, frame.index, frame.t, reads=under.reads,
                        visit=top.lost_in_visit, in_full_view=True)
        pile.lay(card)
        log.info("%s gone in a visit of seat %s, who did not lay it, and %s whole in its place: a %s laid "
                 "over it", top.label, seat, under.label, under.label)
        return Play(under.label, seat, frame.t, frame.index,
                    reason="laid square on its twin's pose over the top card")
    pile.take_back()
    log.info("%s taken back from the pile", top.label)
    return TakeBack(top.label, top.seat, frame.t, frame.index)


def laid_by_another_over(visit_seats: Mapping[int, Counter[int]], top: PileCard) -> int | None:
    """The seat whose hand was at the pile when ``top`` went from view (``visit_seats``: per hand visit,
    the frames its hand was seen from each seat), in a later visit than the one that laid it, when that
    is not the seat that laid it: a card is taken back by its own player. ``None`` otherwise (or unknown)."""
    visit = top.lost_in_visit
    if visit is None or top.visit is None or visit == top.visit or top.seat is None:
        return None
    seats = visit_seats.get(visit)
    if not seats:
        return None
    seat = seats.most_common(1)[0][0]
    return seat if seat != top.seat else None

