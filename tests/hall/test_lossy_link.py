"""Messages lost on purpose between the broker and the hub: an MQTT-aware proxy drops chosen events
on their way to the hub (and acknowledges them to the broker itself, as a link that lost them after
the broker let go would). The hub notices each gap, from the ids or from the table's state, asks the
table, and ends with every event, in order, each once (issue 49)."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from referee.hall.broker_url import BrokerUrl, parse_broker_url
from referee.hall.hub_store import HubStore
from referee.hall.mosquitto import Mosquitto
from referee.hall.receiver import HubReceiver
from tests.hall.conftest import play_some, publisher, same_events, table, wait_for


def _read_packet(sock: socket.socket) -> bytes | None:
    """One whole MQTT packet (fixed header included), or None at the end of the stream."""
    head = _read(sock, 1)
    if head is None:
        return None
    length, multiplier, raw = 0, 1, b""
    while True:
        byte = _read(sock, 1)
        if byte is None:
            return None
        raw += byte
        length += (byte[0] & 0x7F) * multiplier
        multiplier *= 128
        if not byte[0] & 0x80:
            break
    body = _read(sock, length) if length else b""
    return None if body is None else head + raw + body


def _read(sock: socket.socket, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        try:
            chunk = sock.recv(n - len(data))
        except OSError:
            return None
        if not chunk:
            return None
        data += chunk
    return data


class LossyProxy:
    """Forwards a client's MQTT connection to the broker, dropping each event ``drop`` picks once."""

    def __init__(self, broker_port: int, drop: Callable[[str, dict[str, object]], bool]) -> None:
        self.broker_port = broker_port
        self.drop = drop
        self.dropped: list[tuple[str, int]] = []
        self._done: set[tuple[str, int]] = set()
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._server.getsockname()[1])
        self._sockets: list[socket.socket] = [self._server]
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> BrokerUrl:
        return parse_broker_url(f"mqtt://127.0.0.1:{self.port}")

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.broker_port))
            self._sockets += [client, upstream]
            lock = threading.Lock()
            threading.Thread(target=self._pump, args=(client, upstream, lock, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, lock, True), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, upstream_lock: threading.Lock, to_hub: bool) -> None:
        while (packet := _read_packet(source)) is not None:
            try:
                if to_hub and packet[0] >> 4 == 3 and self._lose(packet, source, upstream_lock):
                    continue
                if to_hub:
                    sink.sendall(packet)
                else:
                    with upstream_lock:
                        sink.sendall(packet)
            except OSError:
                break
        for sock in (source, sink):
            sock.close()

    def _lose(self, packet: bytes, upstream: socket.socket, upstream_lock: threading.Lock) -> bool:
        qos = (packet[0] >> 1) & 3
        at = 1
        while packet[at] & 0x80:
            at += 1
        at += 1
        topic_len = int.from_bytes(packet[at:at + 2], "big")
        topic = packet[at + 2:at + 2 + topic_len].decode()
        at += 2 + topic_len
        packet_id = packet[at:at + 2] if qos else b""
        if not topic.endswith("/events"):
            return False
        event = json.loads(packet[at + len(packet_id):])
        key = (topic.split("/")[1], int(event["id"]))
        if key in self._done or not self.drop(key[0], event):
            return False
        self._done.add(key)
        self.dropped.append(key)
        if qos:  # acknowledged as if the hub had it: the broker lets go of it
            with upstream_lock:
                upstream.sendall(b"\x40\x02" + packet_id)
        return True

    def close(self) -> None:
        for sock in self._sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)  # wakes the threads blocked on them (close alone does not)
            sock.close()


@pytest.fixture
def proxy_factory(broker: Mosquitto) -> Iterator[Callable[..., LossyProxy]]:
    made: list[LossyProxy] = []

    def make(drop: Callable[[str, dict[str, object]], bool]) -> LossyProxy:
        made.append(LossyProxy(broker.port, drop))
        return made[-1]

    yield make
    for proxy in made:
        proxy.close()


def test_events_lost_between_broker_and_hub_are_asked_for_and_recovered(
        tmp_path: Path, url: BrokerUrl, proxy_factory: Callable[..., LossyProxy]) -> None:
    a, b = table(), table(players=2)
    play_some(a, 1)  # ids 1-3 (the start card is 2)
    last_a = a.last_event_id + 2 * 8
    lose = {("A", 4), ("A", 7), ("A", 8), ("A", 12), ("A", last_a - 1), ("A", last_a),  # mid-stream and the tail
            ("B", 2), ("B", 5)}
    proxy = proxy_factory(lambda name, event: (name, int(str(event["id"]))) in lose)
    hub = HubReceiver(HubStore(tmp_path / "hub.db"), proxy.url, gap_grace_s=0.3, resend_every_s=1.0).start()
    try:
        pubs = [publisher(a, url, "A"), publisher(b, url, "B")]
        play_some(a, 8)
        play_some(b, 5)
        assert a.last_event_id == last_a
        wait_for(lambda: same_events(hub.store, "A", a) and same_events(hub.store, "B", b), timeout=30,
                 what="every event, the lost ones asked for")
        assert sorted(proxy.dropped) == sorted(lose)  # every one of them was lost on the way once
        assert hub.resend_requests >= 2
        for pub in pubs:
            pub.stop()
    finally:
        hub.stop()
