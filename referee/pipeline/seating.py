"""Whose seat a camera observation is while the table finder places the players, and what it learns back.

With no calibration (or a camera that may be knocked) the pipeline runs a
:class:`~referee.vision.table_finder.TableFinder`, and a play's or draw's seat is the finder's to say. For
each tracker event, in this order (the finder keeps state across these calls, so the order is part of it):

1. :func:`seen_again`: a play that is the card laid just before a bump, seen again through the moved view,
   is not played twice.
2. :func:`seat`: while the seats are not found (:attr:`TableFinder.unsure`), or the camera moved as the card
   was laid (:meth:`TableFinder.moved_near`), the seat is a *guess*: a play goes to the seat its arm plainly
   comes from when one was found already (*plain*: sure, if every play before it was plain too), else to
   the seat whose turn it is; a draw to its hand's seat, else to the seat owing a penalty, else the seat in
   turn. Once the seats are found, a draw goes to the seat whose arms come in where its arm does, and a
   play from a seat the referee did not expect is *settling* while a guess made before may still throw the
   turn order off (:meth:`TableFinder.settling`). A guess or a settling seat marks the observation
   ``unsure``, so no verdict resting on it is raised as sure.
3. :func:`tell`: once the session judged it, the finder hears the referee's lines (penalties owed, draws
   paid) and, for a start card or a play whose seat is known well enough, which seat laid it: its arm shows
   where that seat sits.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace

from referee.contract import Observation, OutputLine
from referee.pipeline.session_protocol import Session
from referee.vision.table_finder import TableFinder
from referee.vision.tracking import Draw, Play, Start, TrackerEvent

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Seating:
    """One tracker event seated: the event with the seat it is given, and how sure that seat is."""

    event: TrackerEvent
    #: Why the seat is a guess (the ``unsure`` mark); ``None``: not a guess, or plain.
    guess: str | None = None
    #: Why a play from a seat just found is not sure yet; ``None``: sure.
    settling: str | None = None
    #: The play's arm came plainly from a seat already placed, as every play's before it did.
    plain: bool = False
    #: The seat the referee expected (asked once the finder runs; ``None`` without a finder).
    expected: int | None = None

    @property
    def doubt(self) -> str | None:
        """Why this seat is not sure (the guess, else the settling), or ``None``."""
        return self.guess if self.guess is not None else self.settling


def seen_again(finder: TableFinder, session: Session, event: TrackerEvent) -> bool:
    """``event`` is a play of the card laid just before the camera moved, seen again through the moved view
    (:meth:`TableFinder.seen_again`): it is not played twice (logged)."""
    if isinstance(event, Play) and finder.seen_again(event.card, event.t, session.last_play(start=True)):
        log.info("%s at %.1f s: the card laid just before the camera moved, seen again through the moved "
                 "view: not played twice", event.card, event.t)
        return True
    return False


def seat(finder: TableFinder, session: Session, event: TrackerEvent) -> Seating:
    """``event`` with the seat the finder gives it, and how sure that is (see the module's step 2)."""
    guess = finder.unsure if isinstance(event, Play | Draw) else None
    seats_unsure = guess is not None
    if guess is None and isinstance(event, Play | Draw):
        guess = finder.moved_near(event.t)
    expected = session.expected_seat()
    settling = None
    if guess is None and isinstance(event, Play) and event.seat is not None:
        # The seats just found, the turn order may still be one a guess before them threw off.
        settling = finder.settling(int(event.seat), expected)
    if guess is None and isinstance(event, Draw):
        # The seats found: a draw goes to the seat whose arms come in where its arm does.
        drawer = finder.draw_seat(event.t)
        event = event if drawer is None else replace(event, seat=drawer)
    plain = False
    # Where the players sit is not found yet: the seat whose turn it is, said to be a guess (a play whose arm
    # comes plainly from a seat already found is that seat's).
    if guess is not None and isinstance(event, Play):
        seen = finder.seat_seen(event.t)
        if seen is None:
            finder.guessed()
            if expected is not None:
                # The turn's seat sits plainly elsewhere: laid out of turn, by the seat its arm more likely is.
                seen = finder.not_seat(expected, event.t)
        elif seats_unsure and finder.plain_so_far:
            # Its arm plainly from a seat already placed, and so was every play's before it: the referee's
            # turn order rests on no guess, and neither does its verdict.
            plain = True
        event = replace(event, seat=expected if seen is None else seen)
    elif guess is not None and isinstance(event, Draw):
        # A draw: its hand's seat when plain, else the seat that owes it (as the referee would pick).
        seen = finder.draw_seat(event.t)
        if seen is None:
            seen = finder.owing()  # a penalty just named (a misplay's): its seat takes the cards
        event = replace(event, seat=expected if seen is None else seen)
    return Seating(event, None if plain else guess, settling, plain, expected)


def tell(finder: TableFinder, session: Session, seating: Seating, obs: Observation,
         outputs: Sequence[OutputLine]) -> None:
    """The finder hears what the session judged of ``seating``'s event (``obs``, the referee's ``outputs``),
    and where the card came from tells where its player sits: the start card the dealer's, a play its turn's
    (once the seats are found, only a play from the seat the referee expected)."""
    finder.judged(obs, outputs)
    event = seating.event
    if not isinstance(event, Start | Play):
        return
    laid_by = session.snapshot().get("dealer") if isinstance(event, Start) else event.seat
    if laid_by is not None and (seating.guess is not None or seating.plain or isinstance(event, Start)
                                or laid_by == seating.expected):
        finder.played(int(laid_by), event.t, start=isinstance(event, Start))
