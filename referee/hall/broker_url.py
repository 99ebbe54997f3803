"""Where the MQTT broker is: ``mqtt://[USER[:PASSWORD]@]HOST[:PORT]`` or ``mqtts://...`` (TLS).

The password never leaves this module in words: :class:`BrokerUrl` keeps it out of ``repr`` and
``str`` (both are the redacted URL, ``mqtt://user:***@host:1883``), and a URL that cannot be parsed
is reported by :class:`BrokerUrlError` with the password already masked. A password may also come
from the environment (:data:`PASSWORD_ENV`), so it need not appear in a process listing.

TLS (``mqtts://``) checks the broker's certificate against the system's authorities, or against
the file named by ``?ca=PATH``; ``?insecure=1`` skips the host-name check (a self-signed test broker).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = ["PASSWORD_ENV", "BrokerUrl", "BrokerUrlError", "parse_broker_url", "redact"]

#: Read when the URL names a user but no password.
PASSWORD_ENV = "REFEREE_MQTT_PASSWORD"
DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}
_QUERY_KEYS = {"ca", "insecure"}
_USERINFO = re.compile(r"(?<=://)([^:/@]*):[^@/]*@")


class BrokerUrlError(ValueError):
    """A broker URL that cannot be used; the message quotes it with any password masked."""


def redact(text: str) -> str:
    """``text`` with the password of any ``scheme://user:password@`` in it replaced by ``***``."""
    return _USERINFO.sub(lambda m: f"{m.group(1)}:***@", text)


@dataclass(frozen=True)
class BrokerUrl:
    """A parsed broker address; ``str()`` and ``repr()`` are the redacted URL."""

    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    ca_file: str | None = None
    insecure: bool = False

    @property
    def scheme(self) -> str:
        return "mqtts" if self.tls else "mqtt"

    @property
    def address(self) -> str:
        """``host:port`` (IPv6 hosts in brackets): names the broker without credentials."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def redacted(self) -> str:
        user = ""
        if self.username is not None:
            user = self.username + (":***" if self.password is not None else "") + "@"
        return f"{self.scheme}://{user}{self.address}"

    def __str__(self) -> str:
        return self.redacted()

    def __repr__(self) -> str:
        return f"BrokerUrl({self.redacted()!r})"


def parse_broker_url(text: str, env: Mapping[str, str] | None = None) -> BrokerUrl:
    """Parse ``mqtt://`` / ``mqtts://`` URLs; raises :class:`BrokerUrlError` saying what is wrong."""
    shown = redact(text.strip())
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as exc:  # a port that is not a number, or out of range
        raise BrokerUrlError(f"bad broker URL {shown!r}: {exc}") from None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise BrokerUrlError(f"bad broker URL {shown!r}: use mqtt://HOST:PORT or mqtts://HOST:PORT")
    if not parts.hostname:
        raise BrokerUrlError(f"bad broker URL {shown!r}: no host")
    if parts.path not in ("", "/") or parts.fragment:
        raise BrokerUrlError(f"bad broker URL {shown!r}: a broker URL has no path")
    query = parse_qs(parts.query, keep_blank_values=True)
    unknown = sorted(set(query) - _QUERY_KEYS)
    if unknown:
        raise BrokerUrlError(f"bad broker URL {shown!r}: unknown option {unknown[0]!r} (known: ca, insecure)")
    username = unquote(parts.username) if parts.username is not None else None
    password = unquote(parts.password) if parts.password is not None else None
    if username is not None and password is None:
        password = (env if env is not None else os.environ).get(PASSWORD_ENV) or None
    ca_file = query.get("ca", [None])[-1] or None
    insecure = query.get("insecure", ["0"])[-1].lower() in ("1", "true", "yes")
    if (ca_file or insecure) and scheme != "mqtts":
        raise BrokerUrlError(f"bad broker URL {shown!r}: ca= and insecure= are for mqtts:// only")
    return BrokerUrl(host=parts.hostname, port=port or DEFAULT_PORTS[scheme], tls=scheme == "mqtts",
                     username=username, password=password, ca_file=ca_file, insecure=insecure)
