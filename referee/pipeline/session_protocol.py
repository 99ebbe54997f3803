"""What the pipeline needs of the match session, and the session's card queries the tracker asks.

The pipeline talks to :class:`referee.session.MatchSession` only through :class:`Session`, so a test
can hand it a double and the session layer stays below it. :func:`card_query` finds the referee's
questions about a card (is it legal now, could it be in play at all) by name, for the tracker's misread
fixes; a session that does not answer one gives ``None`` and the tracker goes without it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, Protocol

from referee.session import Event


class Session(Protocol):
    """What the pipeline needs of :class:`referee.session.MatchSession`."""

    def submit(self, obs: Mapping[str, Any], source: str = "camera") -> list[dict[str, Any]]: ...
    def snapshot(self) -> dict[str, Any]: ...
    def set_frame(self, jpeg: bytes) -> None: ...
    def set_status(self, **fields: Any) -> None: ...
    def export_log(self) -> list[dict[str, Any]]: ...
    def undo(self, seq: int | None = None) -> None: ...
    def last_play(self, *, start: bool = False) -> tuple[int, dict[str, Any]] | None: ...
    def correct(self, card: str, color: str | None = None, source: str = "operator") -> Any: ...
    def expected_seat(self) -> int | None: ...
    def expected_seat_if_last_were(self, card: str) -> int | None: ...
    def add_listener(self, listener: Callable[[Event], None]) -> Callable[[], None]: ...


def card_query(session: Session, query: Literal["legal_now", "possible_now"]) -> Callable[[str], bool] | None:
    """A card query of the session's live referee, by name: ``legal_now`` or ``possible_now`` (for
    the tracker's misread fixes; :meth:`MatchSession.legal_now` asks the referee of the moment, so
    the query follows an undo). ``None`` when the session answers no such question."""
    asked = getattr(session, query, None)
    return asked if callable(asked) else None
