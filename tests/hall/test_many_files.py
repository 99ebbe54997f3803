"""A process with more than 1024 files open still connects: paho's loop waited with select(), which
cannot watch such a descriptor, and silently never connected (61 of 200 simulated tables; issue 49)."""

from __future__ import annotations

import os
import resource
import select
import socket
from collections.abc import Iterator

import pytest

from referee.hall.broker_url import BrokerUrl
from referee.hall.client import PollSelect
from tests.hall.conftest import play_some, publisher, table, wait_for

HIGH = 1100


@pytest.fixture
def many_files_open() -> Iterator[None]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < HIGH + 200:
        if hard != resource.RLIM_INFINITY and hard < HIGH + 200:
            pytest.skip(f"the open-files limit ({hard}) is too low to open {HIGH} files")
        resource.setrlimit(resource.RLIMIT_NOFILE, (HIGH + 200, hard))
    opened: list[int] = []
    try:
        while not opened or opened[-1] < HIGH:
            opened.append(os.open(os.devnull, os.O_RDONLY))
        yield
    finally:
        for fd in opened:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_table_connects_and_publishes_with_over_1024_files_open(many_files_open: None, url: BrokerUrl) -> None:
    probe = socket.socket()
    assert probe.fileno() >= 1024  # the client's own socket will be numbered above select()'s limit too
    probe.close()
    session = table()
    pub = publisher(session, url, "A")
    play_some(session, 2)
    wait_for(lambda: pub.acked_id == session.last_event_id, timeout=10, what="the broker to acknowledge")
    pub.stop()


def test_poll_select_answers_as_select_does() -> None:
    a, b = socket.socketpair()
    try:
        assert PollSelect.select([a], [a], [], 0) == select.select([a], [a], [], 0) == ([], [a], [])
        b.send(b"x")
        assert PollSelect.select([a, b], [], [], 1.0) == select.select([a, b], [], [], 1.0) == ([a], [], [])
        with pytest.raises(TypeError):
            PollSelect.select([None], [], [], 0)
    finally:
        a.close()
        b.close()
    with pytest.raises(ValueError):
        PollSelect.select([a], [], [], 0)  # closed: fileno() is -1, as select() refuses it
