"""Proof that a message comes from its table: a per-table key and an HMAC on each message.

MQTT 3.1.1 says nothing of who published a message: any client the broker lets in can publish on
``uno/A/events``. A hall that cannot trust every client proves each message instead. The organiser
keeps one secret, the hall key (``python -m referee.hall.proof new > hall.key``); each table's key is
derived from it and the table's name (``python -m referee.hall.proof key --hall-key hall.key A B ...``
prints ``NAME KEY`` lines), so the hub, holding only the hall key, knows every table's key and a table
knows only its own. A table given its key (``--table-key-file FILE`` or ``$REFEREE_TABLE_KEY``) signs
each event and state it publishes; a hub given the hall key (``referee hub --hall-key FILE``) drops,
and counts, any event or state not signed by its table's key, and signs its resend requests so a
table can tell them from a stranger's.

The signature is the last member of the message's JSON object: ``{...,"sig":"<64 hex>"}``, an HMAC-SHA256
under the table's key of the message's kind (``events``, ``state``, ``resend``), a newline, and the
object's exact bytes without that member. The message stays one JSON object (contract 6: consumers
ignore members they do not know), and the proof is checked on the bytes, before any JSON is parsed.
``status`` (``online``/``offline``) and ``frame`` (a JPEG) keep their contract-6 payloads and are not
signed: on an open broker they can be forged; the shipped broker configuration's per-table users and
ACL (``referee/hall/broker/``) stop that at the broker.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import os
import secrets
import sys
from pathlib import Path

__all__ = ["KEY_ENV", "ProofError", "check_key", "derive_table_key", "read_key_file", "sign", "strip_signature",
           "table_key_from", "unsign"]

#: Where a table may find its key instead of a file (kept out of the process list).
KEY_ENV = "REFEREE_TABLE_KEY"
_SIG_HEAD = b',"sig":"'
_SIG_LEN = 64  # hex digits of an HMAC-SHA256
_SUFFIX_LEN = len(_SIG_HEAD) + _SIG_LEN + 2  # ,"sig":"<hex>"}
_MIN_KEY = 16


class ProofError(ValueError):
    """A key that cannot be used (missing, too short, unreadable)."""


def check_key(text: str, what: str = "key") -> bytes:
    """The key bytes of ``text`` (surrounding blanks dropped); at least 16 characters."""
    key = text.strip()
    if len(key) < _MIN_KEY:
        raise ProofError(f"the {what} is too short (at least {_MIN_KEY} characters)")
    return key.encode()


def read_key_file(path: Path | str, what: str = "key", *, named: bool = False) -> bytes:
    """A key kept in a file: its first line; ``named``: or that line's last word when it is a ``NAME KEY``
    line, as ``python -m referee.hall.proof key`` prints a table's."""
    try:
        text = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ProofError(f"cannot read the {what} file {path}: {exc}") from None
    words = text[0].split() if text else []
    return check_key(words[-1] if named and len(words) == 2 else text[0] if text else "", what)


def derive_table_key(hall_key: bytes, table: str) -> bytes:
    """Table ``table``'s key under the hall key (64 hex digits, as the table is given it)."""
    return hmac.new(hall_key, b"uno-referee table key\n" + table.encode(), hashlib.sha256).hexdigest().encode()


def _mac(key: bytes, kind: str, body: bytes) -> bytes:
    return hmac.new(key, kind.encode() + b"\n" + body, hashlib.sha256).hexdigest().encode()


def sign(key: bytes, kind: str, body: bytes) -> bytes:
    """``body`` (a JSON object's bytes, with at least one member) with its signature as last member."""
    if len(body) < 3 or not body.endswith(b"}"):
        raise ValueError("only a non-empty JSON object is signed")
    return body[:-1] + _SIG_HEAD + _mac(key, kind, body) + b'"}'


def unsign(key: bytes, kind: str, data: bytes) -> bytes | None:
    """The object ``data`` signed as ``kind`` under ``key``, without its signature; ``None`` when it is
    not (no signature, a wrong one, or other bytes)."""
    if len(data) <= _SUFFIX_LEN or data[-_SUFFIX_LEN:-_SIG_LEN - 2] != _SIG_HEAD or not data.endswith(b'"}'):
        return None
    body = data[:-_SUFFIX_LEN] + b"}"
    return body if hmac.compare_digest(_mac(key, kind, body), data[-_SIG_LEN - 2:-2]) else None


def strip_signature(data: bytes) -> bytes:
    """``data`` without a trailing signature member, if it has one (a hub that proves nothing)."""
    if len(data) > _SUFFIX_LEN and data[-_SUFFIX_LEN:-_SIG_LEN - 2] == _SIG_HEAD and data.endswith(b'"}'):
        return data[:-_SUFFIX_LEN] + b"}"
    return data


def table_key_from(path: Path | str | None, env: dict[str, str] | None = None) -> bytes | None:
    """A table's key: the file ``path`` if given, else ``$REFEREE_TABLE_KEY``, else ``None``."""
    if path:
        return read_key_file(path, "table key", named=True)
    value = (env if env is not None else os.environ).get(KEY_ENV)
    return check_key(value, "table key ($" + KEY_ENV + ")") if value else None


def main(argv: list[str] | None = None) -> int:
    """``python -m referee.hall.proof new`` (a fresh hall key) | ``key --hall-key FILE NAME...``."""
    parser = argparse.ArgumentParser(prog="python -m referee.hall.proof",
                                     description="keys that prove a hall's messages come from their tables")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("new", help="print a fresh hall key (keep it in a file only the hub reads)")
    key = sub.add_parser("key", help="print each named table's key (NAME KEY): give each table its own")
    key.add_argument("--hall-key", required=True, type=Path, help="the hall key's file")
    key.add_argument("tables", nargs="+", metavar="NAME")
    args = parser.parse_args(argv)
    if args.command == "new":
        print(secrets.token_hex(32))
        return 0
    from referee.hall.topics import TopicError, check_table_name

    try:
        hall_key = read_key_file(args.hall_key, "hall key")
        names = [check_table_name(name) for name in args.tables]
    except (ProofError, TopicError) as exc:
        print(f"referee.hall.proof: {exc}", file=sys.stderr)
        return 2
    for name in names:
        print(name, derive_table_key(hall_key, name).decode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
