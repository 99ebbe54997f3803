"""The pile's top as the camera saw it laid (part of :mod:`referee.vision.table_finder`): a card seen again as
the view of the pile changes (a bump followed, the pile zone found or moved on the table) is not played again.

While the camera moves, or as the pile view changes, the tracker sees the cards on the pile through another
view and may take one it knew for a new card. A card laid is laid by a hand: the card last laid, or one under
it, believed again about such a change with no hand at the pile since the last was laid, is that card seen
again (:meth:`PileTop.seen_again`)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from referee.contract import Play, Start
from referee.vision.table_arms import PileVisits

__all__ = ["BUMP_UNSURE_S", "LAID_ARM_S", "PileTop"]

#: Seconds either side of a bump followed in which a play's or draw's seat is not sure.
BUMP_UNSURE_S = 1.5
#: Seconds after a card came to rest within which the hand that laid it is still over the pile.
LAID_ARM_S = 1.0


class PileTop:
    """The cards the camera saw laid last (the pile's top), and the footage times the pile view changed on the
    table (found, moved): what :meth:`seen_again` goes by."""

    def __init__(self) -> None:
        self.laid: deque[str] = deque(maxlen=3)  # the cards the camera saw laid last (the pile's top), newest last
        self.switched: list[float] = []  # footage times the pile view changed on the table (found, moved)

    def seen_again(self, card: str, t: float, last: tuple[int, Play | Start] | None, bumps: Iterable[float],
                   visits: PileVisits) -> bool:
        """A play of ``card`` come to rest at ``t`` is the card last laid (``last``: the session's newest play,
        ``(seq, observation)``), or one of the two laid before it (the card under the top one,
        seen through the moved view), seen again: ``t`` within :data:`BUMP_UNSURE_S` of a bump followed (the pile
        view showed the cards elsewhere while the camera moved, and the tracker may take one for a new card
        before or once the view is followed) or of the pile view's change on the table (the start card
        seen again as the pile zone is found), and no arm came over the pile between the last card's laying
        hand leaving (:data:`LAID_ARM_S`) and ``t``: a second card of the same face had its hand there (an arm
        reaching to the stock for a draw lays none: about a draw judged, :data:`~referee.vision.table_arms.DRAW_ARM_S`,
        or one whose hand went on past the pile to the stock, :class:`~referee.vision.table_arms.PileVisits`)."""
        if last is None or (last[1].card.label != card and card not in self.laid):
            return False
        laid = float(last[1].t or 0.0)
        if laid >= t or not any(abs(t - b) <= BUMP_UNSURE_S for b in [*bumps, *self.switched]):
            return False
        return not visits.hand_between(laid + LAID_ARM_S, t)
