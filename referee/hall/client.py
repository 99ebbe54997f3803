"""A paho-mqtt client set up from a :class:`BrokerUrl`: credentials, TLS, last will, reconnection.

Both ends of a hall use it: a table's publisher and the hub's receiver. The client connects in the
background (``connect_async`` + ``loop_start``) and reconnects by itself with a short back-off, so a
broker that is down when a table starts, or goes away later, costs the caller nothing but waiting.
:class:`ConnectionReport` says once that the broker cannot be reached, and once that it is back.

paho's network loop waits on its socket with ``select()``, which cannot watch a descriptor numbered
``FD_SETSIZE`` (1024) or above: paho then takes the connection for lost, closes it before it has sent
CONNECT, and tries again, for ever, saying nothing. A process with many files open (a hub with many
viewers, a machine simulating 200 tables: each record is three files) had its newest clients never
connect: 61 of 200 tables in ``bench_hall.py``, 30 % of the hall's events (issue 49). Importing this
module gives paho's loop a ``select()`` made of ``poll()``, which has no such limit (:class:`PollSelect`).
"""

from __future__ import annotations

import logging
import math
import select
import ssl
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as paho_client
from paho.mqtt.client import Client, MQTTv311
from paho.mqtt.enums import CallbackAPIVersion

from referee.hall.broker_url import BrokerUrl

__all__ = ["KEEPALIVE_S", "ConnectionReport", "PollSelect", "Will", "make_client"]

log = logging.getLogger(__name__)

#: Seconds between pings: a vanished peer is noticed (and a table's will published) within 1.5x this.
KEEPALIVE_S = 10
RECONNECT_MIN_S = 1
RECONNECT_MAX_S = 2


def _fd(item: Any) -> int:
    if item is None:
        raise TypeError("no socket")  # what select() raises, and what paho expects of a closed client
    fd = item if isinstance(item, int) else item.fileno()
    if fd < 0:
        raise ValueError("file descriptor cannot be a negative integer")
    return int(fd)


class PollSelect:
    """The part of the ``select`` module paho's loop uses, ``select()``, built on ``poll()``: the same
    answers for any descriptor number (``select.select`` refuses any at or above 1024)."""

    error = OSError

    @staticmethod
    def select(rlist: Sequence[Any], wlist: Sequence[Any], xlist: Sequence[Any],
               timeout: float | None = None) -> tuple[list[Any], list[Any], list[Any]]:
        poller = select.poll()
        masks: dict[int, int] = {}
        items: dict[int, tuple[list[Any], list[Any]]] = {}
        for group, mask, slot in ((rlist, select.POLLIN | select.POLLPRI, 0), (wlist, select.POLLOUT, 1)):
            for item in group:
                fd = _fd(item)
                masks[fd] = masks.get(fd, 0) | mask
                items.setdefault(fd, ([], []))[slot].append(item)
        for fd, mask in masks.items():
            poller.register(fd, mask)
        wait_ms = None if timeout is None else max(0, math.ceil(timeout * 1000))
        readable: list[Any] = []
        writable: list[Any] = []
        for fd, happened in poller.poll(wait_ms):
            reads, writes = items[fd]
            if happened & (select.POLLIN | select.POLLPRI | select.POLLHUP | select.POLLERR | select.POLLNVAL):
                readable.extend(reads)  # as select() does: a closed or failed socket reads (and fails there)
            if happened & (select.POLLOUT | select.POLLERR | select.POLLHUP):
                writable.extend(writes)
        return readable, writable, []


if hasattr(select, "poll"):  # everywhere but Windows, where select() has no such limit to lift
    setattr(paho_client, "select", PollSelect())  # noqa: B010 (paho names the module it calls select on)


@dataclass(frozen=True)
class Will:
    """The message the broker publishes for a client that disappears without saying goodbye."""

    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = True


def make_client(url: BrokerUrl, client_id: str, *, clean_session: bool = True, will: Will | None = None,
                manual_ack: bool = False, max_inflight: int = 64) -> Client:
    """A configured, not yet connected client (MQTT 3.1.1, paho's version-2 callbacks)."""
    client = Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean_session,
                    protocol=MQTTv311, manual_ack=manual_ack)
    if url.username is not None:
        client.username_pw_set(url.username, url.password)
    if url.tls:
        client.tls_set(ca_certs=url.ca_file, cert_reqs=ssl.CERT_REQUIRED)
        if url.insecure:
            client.tls_insecure_set(True)
    if will is not None:
        client.will_set(will.topic, will.payload, qos=will.qos, retain=will.retain)
    client.reconnect_delay_set(RECONNECT_MIN_S, RECONNECT_MAX_S)
    client.max_inflight_messages_set(max_inflight)
    client.max_queued_messages_set(0)  # no cap: what waits for the broker is bounded by the caller
    return client


class ConnectionReport:
    """Logs a broker's comings and goings without repeating itself on every retry."""

    def __init__(self, url: BrokerUrl, who: str, unreachable_hint: str) -> None:
        self._url = url
        self._who = who
        self._hint = unreachable_hint
        self._lock = threading.Lock()
        self._said_down = False
        self._ever_up = False

    def up(self) -> None:
        with self._lock:
            again, self._said_down = self._said_down or self._ever_up, False
            self._ever_up = True
        if again:
            log.info("%s: broker %s is back", self._who, self._url)
        else:
            log.info("%s: connected to broker %s", self._who, self._url)

    def down(self, reason: str) -> None:
        with self._lock:
            if self._said_down:
                return
            self._said_down = True
        log.warning("%s: broker %s unreachable (%s); %s", self._who, self._url, reason, self._hint)
