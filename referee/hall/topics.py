"""The MQTT topics of a hall (docs/contract.md, contract 6), and the names tables may take.

``PREFIX/NAME/events`` (every observation and verdict, QoS 1, in order), ``PREFIX/NAME/state`` (the
live state, retained), ``PREFIX/NAME/status`` (``online``/``offline``, retained; the offline one as
the table's last will), ``PREFIX/NAME/frame`` (a JPEG now and then, retained). ``PREFIX/NAME/resend``
goes the other way: a hub that finds a gap in a table's events asks it to send again from an id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DEFAULT_PREFIX", "KINDS", "TopicError", "Topics", "check_prefix", "check_table_name"]

DEFAULT_PREFIX = "uno"
#: What a table publishes, one topic each.
KINDS = ("events", "state", "status", "frame")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
_PREFIX = re.compile(r"^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$")


class TopicError(ValueError):
    """A table name or topic prefix MQTT cannot carry as one topic level."""


def check_table_name(name: str) -> str:
    """``name`` if it can name a table (letters, digits, ``_ . -``; 1-40; also a URL path part)."""
    if not _NAME.match(name):
        raise TopicError(f"bad table name {name!r}: use 1-40 letters, digits, '_', '.' or '-'")
    return name


def check_prefix(prefix: str) -> str:
    """``prefix`` if it is one or more plain topic levels (no wildcards, no empty level)."""
    if len(prefix) > 100 or not _PREFIX.match(prefix):
        raise TopicError(f"bad topic prefix {prefix!r}: use levels of letters, digits, '_', '.' or '-'")
    return prefix


@dataclass(frozen=True)
class Topics:
    """The topics under ``prefix``; :meth:`of` names a table's, :meth:`parse` reads one back."""

    prefix: str = DEFAULT_PREFIX

    def of(self, table: str, kind: str) -> str:
        return f"{self.prefix}/{table}/{kind}"

    def all_tables(self, kind: str) -> str:
        """The subscription for ``kind`` of every table."""
        return f"{self.prefix}/+/{kind}"

    def parse(self, topic: str) -> tuple[str, str] | None:
        """``(table, kind)`` of a topic under this prefix, or ``None`` for anything else."""
        head = self.prefix + "/"
        if not topic.startswith(head):
            return None
        rest = topic[len(head):].split("/")
        if len(rest) != 2 or not _NAME.match(rest[0]):
            return None
        return rest[0], rest[1]
