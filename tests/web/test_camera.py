"""/camera: the page, the phone's WebSocket and its plain-request way in, bad input, the start lines."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect

from referee.session import MatchSession
from referee.vision.phone import PhoneLink, frame_message
from referee.web.app import create_app
from referee.web.camera import CLOSE_BAD_HELLO, CLOSE_BAD_TOKEN, CLOSE_NO_PHONE, phone_lines, serve_phone
from tests.vision.test_phone import jpeg
from tests.web.conftest import AUTH, TOKEN, TestClient

HELLO = json.dumps({"type": "hello", "token": TOKEN, "width": 64, "height": 48, "fps": 30, "agent": "test"})


@pytest.fixture
def phone() -> PhoneLink:
    return PhoneLink(wait_s=0.05)


@pytest.fixture
def camera(session: MatchSession, phone: PhoneLink) -> Iterator[TestClient]:
    with TestClient(create_app(session, token=TOKEN, phone=phone)) as test_client:
        yield test_client


def closed_with(ws: Any) -> int:
    """The close code the server ended ``ws`` with (after any messages it sent first)."""
    with pytest.raises(WebSocketDisconnect) as ended:
        while True:
            ws.receive_json()
    return int(ended.value.code)


def test_the_page_and_its_script_are_served(client: TestClient) -> None:
    page = client.get("/camera")
    assert page.status_code == 200 and "static/camera.js" in page.text
    assert client.get("/static/camera.js").status_code == 200
    # A run without a phone says so, on the page's status and to a phone that connects anyway.
    assert client.get("/api/camera").json()["link"] == "off"
    with client.websocket_connect("/api/camera/stream") as ws:
        ws.send_text(HELLO)
        assert ws.receive_json()["message"].startswith("this run takes no phone's camera")
        assert closed_with(ws) == CLOSE_NO_PHONE


@pytest.mark.parametrize(("first", "code", "words"), [
    (json.dumps({"type": "hello", "token": "wrong"}), CLOSE_BAD_TOKEN, "admin token required"),
    (json.dumps({"type": "hello"}), CLOSE_BAD_TOKEN, "admin token required"),
    ("{not json", CLOSE_BAD_HELLO, "not JSON"),
    (json.dumps([1, 2]), CLOSE_BAD_HELLO, "must be {"),
    ("x" * 5000, CLOSE_BAD_HELLO, "at most 4096"),
    (frame_message(jpeg(), 1.0), CLOSE_BAD_HELLO, "not a frame"),
])
def test_a_bad_hello_is_refused_in_plain_words(camera: TestClient, phone: PhoneLink, first: str | bytes,
                                                code: int, words: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, "referee.web.camera"), \
            camera.websocket_connect("/api/camera/stream") as ws:
        if isinstance(first, bytes):
            ws.send_bytes(first)
        else:
            ws.send_text(first)
        error = ws.receive_json()
        assert error["type"] == "error" and words in error["message"]
        assert closed_with(ws) == code
    assert len(caplog.records) == 1 and "connection refused" in caplog.records[0].getMessage()
    assert phone.status()["link"] == "waiting"


def test_frames_stream_in_and_bad_ones_leave_the_link_up(camera: TestClient, phone: PhoneLink,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    with camera.websocket_connect("/api/camera/stream") as ws:
        ws.send_text(HELLO)
        ready = ws.receive_json()
        assert ready["type"] == "ready" and ready["max_bytes"] == phone.max_frame_bytes
        ws.send_bytes(frame_message(jpeg(), 1000.0))
        reader = phone.open_reader()
        ok, image = reader.read()
        assert ok and image is not None and image.shape == (48, 64, 3)
        assert reader.fps == 30.0
        with caplog.at_level(logging.WARNING, "referee.vision.phone"):
            ws.send_bytes(b"GIF89a" + b"\x00" * 100)  # not a frame: told, logged once, the link stays
            assert ws.receive_json()["type"] == "refused"
            ws.send_text("{}")  # a message the server does not know: ignored
            ws.send_bytes(frame_message(jpeg(value=30), 2000.0))
            assert reader.read()[0] and reader.last is not None and reader.last.sent_ms == 2000.0
        assert [r.getMessage() for r in caplog.records] == [
            "phone testclient: frame refused: not a JPEG (a frame is an 8-byte time, then the JPEG's bytes)"]
        status = camera.get("/api/camera").json()
        assert status["link"] == "connected" and status["frames"] == 2 and status["refused"] == 1
        assert status["size"] == [64, 48]
    # The phone went away: the link says so and the capture waits; a new connection goes on.
    assert phone.status()["link"] == "disconnected"
    assert reader.read() == (False, None)
    with camera.websocket_connect("/api/camera/stream") as ws:
        ws.send_text(HELLO)
        assert ws.receive_json()["type"] == "ready"
        ws.send_bytes(frame_message(jpeg(), 3000.0))
        assert phone.open_reader().read()[0]
        ws.send_text(json.dumps({"type": "bye"}))
        assert closed_with(ws) == 1000
    assert phone.status()["connections"] == 2


def test_the_plain_request_way_in(camera: TestClient, phone: PhoneLink) -> None:
    assert camera.post("/api/camera/connect", json={}).status_code == 401
    ready = camera.post("/api/camera/connect", json={"width": 64, "height": 48, "fps": 15}, headers=AUTH).json()
    connection = ready["connection"]
    frame = frame_message(jpeg(), 1.0)
    headers = {**AUTH, "Content-Type": "application/octet-stream"}
    answer = camera.post(f"/api/camera/frame?connection={connection}", content=frame, headers=headers)
    assert answer.status_code == 200 and answer.json()["frames"] == 1
    assert phone.open_reader().read()[0]
    bad = camera.post(f"/api/camera/frame?connection={connection}", content=b"hello", headers=headers)
    assert bad.status_code == 400 and "frame refused" in bad.json()["detail"]
    too_big = camera.post(f"/api/camera/frame?connection={connection}", content=b"\x00" * (phone.max_frame_bytes + 1),
                          headers=headers)
    assert too_big.status_code == 413
    newer = camera.post("/api/camera/connect", json={}, headers=AUTH).json()["connection"]
    stale = camera.post(f"/api/camera/frame?connection={connection}", content=frame, headers=headers)
    assert stale.status_code == 409
    assert camera.post(f"/api/camera/bye?connection={newer}", headers=AUTH).status_code == 200
    assert phone.status()["link"] == "disconnected"
    assert camera.post("/api/camera/frame?connection=1", content=frame).status_code == 401


def test_the_start_lines_give_the_link_and_its_qr_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    phone = PhoneLink()
    statuses: list[dict[str, Any]] = []
    args = argparse.Namespace(host="127.0.0.1", port=8123, https=False)
    tls, lines = serve_phone(args, "tok en", phone, lambda **fields: statuses.append(fields))
    assert tls is None  # loopback without --https: plain http
    assert lines[0] == "phone camera: http://127.0.0.1:8123/camera#token=tok%20en"
    assert "https" in lines[1]  # says what a phone on the Wi-Fi needs
    qr = lines[2:-1]
    assert len(qr) > 10 and all(set(line) <= set("█▀▄ ") for line in qr)
    assert statuses[-1]["phone"]["link"] == "waiting" and statuses[-1]["phone"]["url"].endswith(":8123/camera")
    # On every address: https, with a certificate made once and kept.
    args = argparse.Namespace(host="0.0.0.0", port=8123, https=False)
    tls, lines = serve_phone(args, "t", PhoneLink(), lambda **fields: None)
    assert tls is not None and tls[0].is_file() and tls[1].is_file()
    assert tls[0].parent == tmp_path / "uno-referee" / "tls"
    assert lines[0].startswith("phone camera: https://")
    again, _ = serve_phone(args, "t", PhoneLink(), lambda **fields: None)
    assert again == tls and again[0].read_bytes() == tls[0].read_bytes()


def test_phone_lines_without_https_say_what_a_phone_needs() -> None:
    lines = phone_lines("http://127.0.0.1:8000/camera#token=x", https=False)
    assert "--https" in lines[1] and lines[-1] == "waiting for the phone..."


def test_a_phone_run_without_the_dashboard_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    assert main(["run", "--source", "phone", "--no-serve"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["referee run: --source phone needs the dashboard: the phone streams to its /camera page "
                   "(leave out --no-serve)"]


def test_a_certificate_that_cannot_be_made_is_one_plain_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocked))
    args = argparse.Namespace(host="0.0.0.0", port=8000, https=False)
    from referee.web.tls import CertificateError

    with pytest.raises(CertificateError, match=r"cannot write the https certificate into .*set XDG_CONFIG_HOME"):
        serve_phone(args, "t", PhoneLink(), lambda **fields: None)


def test_on_a_real_server_a_huge_message_closes_only_that_socket(session: MatchSession,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    """Past the server's WebSocket limit the socket is closed (1009) and said in one line; the server and the
    link go on, and the phone's next connection streams."""
    import asyncio

    import websockets

    from tests.web.conftest import live_server

    phone = PhoneLink(wait_s=0.05)

    async def stream(url: str, message: bytes) -> int | None:
        async with websockets.connect(url, max_size=None) as ws:
            await ws.send(HELLO)
            assert json.loads(await ws.recv())["type"] == "ready"
            await ws.send(message)
            with contextlib.suppress(websockets.ConnectionClosed):
                while True:
                    await asyncio.wait_for(ws.recv(), 5)
            return ws.close_code

    with caplog.at_level(logging.INFO, "referee.vision.phone"), live_server(session, phone=phone) as live:
        url = live.url.replace("http://", "ws://") + "/api/camera/stream"
        code = asyncio.run(stream(url, frame_message(b"\xff\xd8\xff" + b"\x00" * (2 * phone.max_frame_bytes), 1.0)))
        assert code == 1009
        assert phone.status()["link"] == "disconnected"
        assert "a message over the size limit" in caplog.text
        assert httpx.get(live.url + "/healthz").status_code == 200

        async def good() -> None:
            async with websockets.connect(url) as ws:
                await ws.send(HELLO)
                await ws.recv()
                await ws.send(frame_message(jpeg(), 1.0))
                await asyncio.sleep(0.2)

        asyncio.run(good())
        assert phone.status()["frames"] == 1 and phone.status()["connections"] == 2
