"""A paho-mqtt client set up from a :class:`BrokerUrl`: credentials, TLS, last will, reconnection.

Both ends of a hall use it: a table's publisher and the hub's receiver. The client connects in the
background (``connect_async`` + ``loop_start``) and reconnects by itself with a short back-off, so a
broker that is down when a table starts, or goes away later, costs the caller nothing but waiting.
:class:`ConnectionReport` says once that the broker cannot be reached, and once that it is back.
"""

from __future__ import annotations

import logging
import ssl
import threading
from dataclasses import dataclass

from paho.mqtt.client import Client, MQTTv311
from paho.mqtt.enums import CallbackAPIVersion

from referee.hall.broker_url import BrokerUrl

__all__ = ["KEEPALIVE_S", "ConnectionReport", "Will", "make_client"]

log = logging.getLogger(__name__)

#: Seconds between pings: a vanished peer is noticed (and a table's will published) within 1.5x this.
KEEPALIVE_S = 10
RECONNECT_MIN_S = 1
RECONNECT_MAX_S = 2


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
