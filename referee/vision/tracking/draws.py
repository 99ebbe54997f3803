"""Draws: hands that left the stock, unless the same hand laid a card on its way.

A hand that crossed the stock on its way to the pile drew nothing. While a card that hand may have laid
is still tentative, its draw waits (a :class:`PendingDraw`): a draw after all if none of those cards
became one of that hand's, none otherwise.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from referee.vision.detections import iou
from referee.vision.tracking.boxes import Box
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.events import Draw, noted
from referee.vision.tracking.motion import MotionSample
from referee.vision.tracking.state import Candidate, PileCard

log = logging.getLogger(__name__)


@dataclass
class PendingDraw:
    """A hand left the stock while a card it may have laid on the way was still tentative."""

    draw: Draw
    #: The frame the hand's visit to the stock began (less the debounce): a card it laid is newer.
    since: int
    maybe_laid: list[Candidate]


def laid_since(pile: Sequence[PileCard], seat: int | None, since: int) -> bool:
    """A card of ``seat``'s (of anyone's for an unknown seat) was laid from frame ``since`` on."""
    return any(seat in (None, c.seat) and c.frame_index >= since for c in pile[-3:])


class Ghost(NamedTuple):
    """A reading found to be no new card: its label and pose."""

    label: str
    pose: Box


class Draws:
    """The draws seen at the stock, and those waiting for the tentative cards of their hand."""

    def __init__(self, memory: int) -> None:
        self.pending: list[PendingDraw] = []
        #: Readings found to be no new card, the last ``memory`` of them, newest last: the same misread
        #: comes back each time a hand passes, and it is no sign that the hand laid a card.
        self.ghosts: deque[Ghost] = deque(maxlen=memory)

    def clear(self) -> None:
        self.pending.clear()
        self.ghosts.clear()

    def no_card(self, label: str, pose: Box) -> None:
        """A reading as ``label`` in ``pose`` was found to be no new card."""
        self.ghosts.append(Ghost(label, pose))

    def ghost(self, cfg: TrackerConfig, cand: Candidate) -> bool:
        """``cand`` is read where a reading was found to be no new card (``known_iou``), as that reading."""
        return any(g.label in cand.labels and iou(cand.box, g.pose) >= cfg.known_iou for g in self.ghosts)

    def seen(
        self, cfg: TrackerConfig, motion: MotionSample, t: float, frame_index: int, pile: Sequence[PileCard],
        candidates: Sequence[Candidate], *, expect_start: bool, start_frame: int | None = None,
    ) -> list[Draw]:
        """The draws of hands that left the stock this frame, less those that laid a card on the way
        and those waiting for a card they may have laid. Before the start card is down, a hand at the
        stock is the dealer's turning it over, and so is one that came to the stock before the start card was
        believed (at ``start_frame``) while it is the only card on the pile (the dealer's arm drawing back
        across the stock, its visit seen from its middle when the stock zone came into use as the start card
        was found). A reading that began with no hand at the pile since the hand came to the stock is no card
        that hand laid (a buried card's strip misread while the hand was away): the draw does not wait for it."""
        if expect_start and not pile:
            return []
        out: list[Draw] = []
        for k, seat in enumerate(motion.draws):
            ago = motion.draw_started[k] if k < len(motion.draw_started) else 0
            since = frame_index - ago - cfg.min_hits
            if start_frame is not None and len(pile) == 1 and since <= start_frame:
                log.debug("hand of seat %s at the stock since before the start card was believed: the dealer's", seat)
                continue
            draw = Draw(seat, t, frame_index)
            if laid_since(pile, seat, since):
                log.debug("hand of seat %s crossed the stock on its way to the pile: no draw", seat)
                continue
            maybe_laid = [
                c for c in candidates
                if seat in (None, c.seat) and c.first_frame >= since and c.seen >= 3 and not c.absorbed
                and (c.hand_frame is None or c.hand_frame >= since) and not self.ghost(cfg, c)
            ]
            if maybe_laid:
                self.pending.append(PendingDraw(draw, since, maybe_laid))
                continue
            out.append(draw)
        return out

    def settle(
        self, cfg: TrackerConfig, frame_index: int, pile: Sequence[PileCard], candidates: Sequence[Candidate]
    ) -> list[Draw]:
        """Waiting draws whose tentative cards are all settled: a draw after all if none of them became
        a card of that hand (each was a misread under the arm), none otherwise. A draw whose cards are
        still tentative after ``takeback_frames`` is given up."""
        out: list[Draw] = []
        waiting = []
        for pending in self.pending:
            seat = pending.draw.seat
            if any(c in candidates and not c.absorbed for c in pending.maybe_laid):  # (by identity)
                if frame_index - pending.draw.camera.frame_index <= cfg.takeback_frames:
                    waiting.append(pending)
                else:
                    log.debug("draw of seat %s given up: a card of that hand still tentative", seat)
            elif laid_since(pile, seat, pending.since):
                log.debug("hand of seat %s crossed the stock on its way to the pile: no draw", seat)
            else:
                log.info("seat %s drew: what was read under its hand was no card", seat)
                out.append(noted(pending.draw, frame_index=frame_index))  # believed now, drawn at ``t``
        self.pending = waiting
        return out
