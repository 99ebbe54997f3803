"""A table's message judged alone, before anything is written: no view, no record touched.

Too big, not JSON (a 100 000-deep nesting included), not the shape its topic carries, naming another table,
or (with a hall key, :mod:`~referee.hall.proof`) not signed by its table: :func:`judge` raises
:class:`Drop` saying why, and :class:`~referee.hall.receiver.HubReceiver` counts and drops it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee.hall.proof import strip_signature, unsign

__all__ = ["DROP_REASONS", "MAX_MESSAGE_BYTES", "Drop", "Message", "judge"]

#: The largest event or state message recorded (a table's are a few kB).
MAX_MESSAGE_BYTES = 1 << 20
#: Why a message is dropped (the keys of :attr:`HubReceiver.dropped`): ``unreadable`` (too big, not
#: JSON, not the shape its topic carries, another table's name), ``unproven`` (not signed by its
#: table, with a hall key; or a status or frame of a table not yet proven), ``stale_record`` (a
#: record the table has left, or a switch to another record not newer than the current one),
#: ``failed`` (could not be recorded: logged with its traceback).
DROP_REASONS = ("unreadable", "unproven", "stale_record", "failed")
_ID_LIMIT = 1 << 53
_STATUSES = frozenset({"online", "offline"})


@dataclass
class Message:
    """One event, state or status message of a table, as the broker handed it over."""

    table: str
    kind: str
    payload: bytes
    mid: int
    qos: int
    received_at: float


class Drop(Exception):
    """A message judged unfit: ``reason`` is one of :data:`DROP_REASONS`."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON carries")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is out of range")
    return value


def judge(message: Message, key_of: Callable[[str], bytes] | None) -> Any:
    """The message's content, checked; raises :class:`Drop` saying why it is unfit. ``key_of``: a table's
    key, when the hall proves messages (``None``: it trusts the broker)."""
    data = message.payload
    if message.kind == "status":
        text = data.strip().decode("ascii", "replace") if len(data) <= 20 else ""
        if text not in _STATUSES:
            raise Drop("unreadable", "a status is 'online' or 'offline'")
        return text
    if len(data) > MAX_MESSAGE_BYTES:
        raise Drop("unreadable", f"{len(data)} bytes, over {MAX_MESSAGE_BYTES}")
    if key_of is not None:
        body = unsign(key_of(message.table), message.kind, data)
        if body is None:
            raise Drop("unproven", "not signed by the table's key")
    else:
        body = strip_signature(data)
    try:
        value = json.loads(body, parse_constant=_no_constant, parse_float=_finite)
    except Exception as exc:  # RecursionError (deep nesting), ValueError, UnicodeDecodeError, ...
        raise Drop("unreadable", f"not JSON ({type(exc).__name__})") from None
    if not isinstance(value, dict):
        raise Drop("unreadable", "not a JSON object")
    record = value.get("record")
    if not isinstance(record, str) or not 0 < len(record) <= 64 or not record.isprintable():
        raise Drop("unreadable", "no record identity")
    if value.get("table", message.table) != message.table:
        raise Drop("unreadable", "names another table")
    sent_at = value.get("sent_at")
    if sent_at is not None and (isinstance(sent_at, bool) or not isinstance(sent_at, int | float)):
        raise Drop("unreadable", "sent_at is not a time")
    if message.kind == "events":
        event_id = value.get("id")
        if isinstance(event_id, bool) or not isinstance(event_id, int) or not 0 < event_id < _ID_LIMIT:
            raise Drop("unreadable", "no event id")
        if not isinstance(value.get("kind", ""), str):
            raise Drop("unreadable", "kind is not a word")
        value.pop("sig", None)
    else:
        event_id = value.get("event_id") or 0
        if isinstance(event_id, bool) or not isinstance(event_id, int) or not 0 <= event_id < _ID_LIMIT:
            raise Drop("unreadable", "event_id is not an id")
        value.pop("sig", None)
    return value
