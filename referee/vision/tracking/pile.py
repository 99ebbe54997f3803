"""What the tracker believes lies on the pile: one :class:`Pile` owns it.

The pile is a sequence of :class:`~referee.vision.tracking.state.PileCard`, oldest first and the top card
last, which every rule reads; only the tracker's steps change it, through the pile's own verbs: a card laid
(:meth:`Pile.lay`), the top card taken back (:meth:`Pile.take_back`) and a card put back where it was
taken from (:meth:`Pile.restore`), the pile gathered for a new round (:meth:`Pile.clear`) or moved into a
new view (:meth:`Pile.remap`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from typing import overload

from referee.vision.detections import iou
from referee.vision.tracking.boxes import Box
from referee.vision.tracking.state import PileCard

log = logging.getLogger(__name__)

#: Cards taken back that are kept, newest last: one that comes back where it was taken from was never
#: taken back.
TAKEN_BACK_KEPT = 4


class Pile(Sequence[PileCard]):
    """The cards believed on the pile, oldest first (the top card last), and the last few taken back off it."""

    def __init__(self) -> None:
        self._cards: list[PileCard] = []
        #: The cards taken back off the pile, newest last (at most :data:`TAKEN_BACK_KEPT`).
        self.taken_back: list[PileCard] = []

    @overload
    def __getitem__(self, index: int) -> PileCard: ...
    @overload
    def __getitem__(self, index: slice) -> list[PileCard]: ...
    def __getitem__(self, index: int | slice) -> PileCard | list[PileCard]:
        return self._cards[index]

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[PileCard]:
        return iter(self._cards)

    def __reversed__(self) -> Iterator[PileCard]:
        return reversed(self._cards)

    def __repr__(self) -> str:
        return f"Pile({[c.label for c in self._cards]!r}, taken_back={[c.label for c in self.taken_back]!r})"

    @property
    def top(self) -> PileCard | None:
        """The card on top (``None``: an empty pile)."""
        return self._cards[-1] if self._cards else None

    def lay(self, card: PileCard) -> None:
        """``card`` laid on top."""
        self._cards.append(card)

    def keep_last(self, count: int) -> None:
        """Forget all but the ``count`` cards laid last (the rest lie buried for good)."""
        del self._cards[:-count]

    def take_back(self) -> PileCard:
        """The top card taken back off the pile (kept among :attr:`taken_back`); returns it."""
        top = self._cards.pop()
        del self.taken_back[:-(TAKEN_BACK_KEPT - 1)]
        self.taken_back.append(top)
        return top

    def restore(self, box: Box, label: str, known_iou: float) -> bool:
        """A card read as ``label`` in ``box`` where a card of that label was taken back from (``known_iou``):
        the take-back was false, and the card is back on top. Whether it was."""
        for card in reversed(self.taken_back):
            if card.label == label and iou(box, card.xyxy) >= known_iou:
                self.taken_back.remove(card)
                card.missing = 0
                self._cards.append(card)
                log.info("%s back in place: take-back withdrawn", label)
                return True
        return False

    def clear(self) -> None:
        """The pile gathered (a new round): nothing on it, nothing taken back."""
        self._cards.clear()
        self.taken_back.clear()

    def remap(self, move: Callable[[Box], Box | None]) -> None:
        """Every card moved into a new view by ``move`` (``None``: out of it now, forgotten); the hand visits
        that laid them and lost them are forgotten too (the new view counts visits afresh)."""
        for cards in (self._cards, self.taken_back):
            kept = []
            for card in cards:
                box = move(card.xyxy)
                if box is None:
                    continue
                card.xyxy = box
                card.rest = None if card.rest is None else move(card.rest)
                card.visit = card.lost_in_visit = None
                kept.append(card)
            cards[:] = kept
