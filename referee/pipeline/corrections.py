"""The camera correcting the record it made: a card taken back, a card re-read, a play the next seat explains.

The tracker says what it believed; sometimes it learns better later. Each correction here is one session
operation on the newest play, and only while it is still the newest (what came after it was judged
knowing it; the operator can still correct an older one from the dashboard):

- :func:`take_back`: the top card was lifted off the pile (a ghost read seen to vanish, a card taken back):
  its play is undone, even when draws or operator lines came after it.
- :func:`reread`: the top card, believed under a hand or on an unsure vote, read otherwise in clear view:
  its play (or the start card) is corrected, so it is judged again and the misread's alerts withdrawn.
- :func:`reread_by_seat`: the seat that plays next is evidence about the last card. A misread reverse or
  skip sends the referee's turn the wrong way; when exactly one of the last play's other reads
  (``alternatives``) explains the seat that plays now, the play is corrected to it.

A correction the session refuses is logged and left; none of them is ever fatal to the frame loop.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from referee.contract import OutputLine, Play
from referee.pipeline.session_protocol import Session
from referee.rules import ObservationError
from referee.vision.tracking import Reread, TakeBack

log = logging.getLogger(__name__)


def reread_by_seat(session: Session, seat: int) -> None:
    """The seat that plays next is evidence about the last card: a misread reverse or skip
    sends the referee's turn the wrong way, and every later play would be out of turn. When
    ``seat`` is not the one expected, but would be had the last play been exactly one of its
    other reads, that play is corrected first (one ``correct`` event, logged)."""
    if session.expected_seat() in (None, seat) or (found := session.last_play()) is None:
        return
    last = found[1]
    alternatives = last.camera.alternatives if last.camera is not None else ()
    if not alternatives or (isinstance(last, Play) and last.seat == seat):
        return
    # A what-if answers None unless the newest play is also the last observation.
    fits = [label for label in alternatives if session.expected_seat_if_last_were(label) == seat]
    if len(fits) != 1:
        return
    try:
        session.correct(fits[0], source="camera")
    except ObservationError as exc:
        log.warning("re-read of %s as %s refused: %s", last.card.label, fits[0], exc)
        return
    log.info("%s re-read as %s: Player %d plays next, which only that read explains",
             last.card.label, fits[0], seat + 1)  # people count players from 1


def reread(session: Session, reread: Reread) -> list[OutputLine]:
    """The top card, believed under a hand or on an unsure vote, read otherwise in clear view: its
    play (or the start card) is corrected (one ``correct`` event: judged again, the misread's alerts
    withdrawn), while it is still the last observation. Once anything came after it the record is
    left as it is; the operator can still correct it."""
    found = session.last_play(start=True)
    if found is None or found[1].card.label != reread.was:
        log.info("%s re-read as %s, but it is not the newest play: left as is", reread.was, reread.card)
        return []
    try:
        event = session.correct(reread.card, source="camera")
    except ObservationError as exc:
        log.info("re-read of %s as %s not applied: %s", reread.was, reread.card, exc)
        return []
    log.info("%s re-read as %s in clear view: its play corrected", reread.was, reread.card)
    outputs = event.get("outputs") if isinstance(event, Mapping) else None
    return [o.copy() for o in outputs or ()]


def take_back(session: Session, taken: TakeBack) -> list[OutputLine]:
    """A card taken back off the pile (the top card, so the newest play): its play is undone,
    even when draws or operator lines came after it (a ghost read seen to vanish later)."""
    found = session.last_play()
    if found is None or found[1].card.label != taken.card:
        log.info("%s taken back, but it is not the newest play: left as is", taken.card)
        return []
    try:
        session.undo(found[0])
    except ValueError as exc:
        log.warning("take-back of %s not undone: %s", taken.card, exc)
        return []
    log.info("%s taken back: its play is undone, and anything after it judged again "
             "(alerts stay in the record)", taken.card)
    return []
