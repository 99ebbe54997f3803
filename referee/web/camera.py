"""``/camera``: a phone's camera as the live source (``referee run --source phone``).

The page (``templates/camera.html``, ``static/camera.js``) shows the phone's rear camera and sends its
frames to the referee's :class:`~referee.vision.phone.PhoneLink`:

- over a WebSocket, ``/api/camera/stream``: the page says ``{"type": "hello", "token": ...}`` first (the
  admin token, which the printed link carries in its fragment), the server answers ``ready``, then
  every binary message is one frame (8-byte time, then the JPEG); about once a second the server sends
  a ``status`` (what it receives), which the page shows;
- or, where a browser refuses the WebSocket (iPhones refuse a self-signed certificate on WebSockets
  even where they accept it on the page), by plain requests: ``POST /api/camera/connect``, then one
  ``POST /api/camera/frame?connection=N`` per frame, each answered with the same status.

``GET /api/camera`` says where the link stands (the dashboard shows it from ``/api/state``'s
``status.phone`` too). Bad input is refused with a reason (and a log line now and then, from the
link); the connection stays, and a phone that goes away is waited for.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import logging
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.params import Depends
from fastapi.responses import HTMLResponse
from starlette.websockets import WebSocketDisconnect, WebSocketState

from referee.vision.phone import SUPERSEDED, PhoneLink
from referee.web.guard import token_matches

__all__ = ["CAMERA_FRAME_PATH", "NO_PHONE", "phone_lines", "register_camera", "serve_phone"]

log = logging.getLogger(__name__)

CAMERA_FRAME_PATH = "/api/camera/frame"
Connection = Annotated[int, Query(ge=1, lt=2**31, description="the number /api/camera/connect gave")]
#: Seconds a new WebSocket may take to say hello.
HELLO_TIMEOUT_S = 10.0
#: The longest text message (the hello and the like) read from a phone.
MAX_TEXT_CHARS = 4096
#: Seconds between two status messages to the phone.
STATUS_EVERY_S = 1.0
NO_PHONE = ("this run takes no phone's camera: start the referee with `referee run --source phone`, "
            "then open the link it prints")
BAD_TOKEN = ("admin token required: open the /camera link that `referee run --source phone` printed "
             "(its QR code carries the token), or type the token on this page")

# WebSocket close codes (4000-4999 are the application's own).
CLOSE_BAD_HELLO = 4400
CLOSE_BAD_TOKEN = 4401
CLOSE_NO_PHONE = 4404
CLOSE_HELLO_TIMEOUT = 4408
CLOSE_SUPERSEDED = 4409


def hello_problem(text: str | None, token: str) -> tuple[str, int] | dict[str, Any]:
    """The phone's first message checked: its details (size, frame rate, browser), or (reason, close
    code)."""
    if text is None:
        return "the first message must be the hello (JSON text), not a frame", CLOSE_BAD_HELLO
    if len(text) > MAX_TEXT_CHARS:
        return f"the hello is {len(text)} characters long: at most {MAX_TEXT_CHARS}", CLOSE_BAD_HELLO
    try:
        hello = json.loads(text)
    except ValueError:
        return "the hello is not JSON", CLOSE_BAD_HELLO
    if not isinstance(hello, dict) or hello.get("type") != "hello":
        return 'the first message must be {"type": "hello", "token": ...}', CLOSE_BAD_HELLO
    supplied = hello.get("token")
    if not isinstance(supplied, str) or not token_matches(supplied, token):
        return BAD_TOKEN, CLOSE_BAD_TOKEN
    return phone_info(hello)


def phone_info(hello: dict[str, Any]) -> dict[str, Any]:
    """What the phone says about its camera, kept only where it is a plain, sane value."""
    info: dict[str, Any] = {}
    for key, top in (("width", 16384), ("height", 16384), ("fps", 240)):
        value = hello.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) \
                and 0 < value <= top:
            info[key] = round(float(value), 2)
    agent = hello.get("agent")
    if isinstance(agent, str):
        info["agent"] = agent[:200]
    return info


def register_camera(
    app: FastAPI,
    *,
    phone: PhoneLink | None,
    token: str,
    admin: Sequence[Depends],
    page: Callable[[], HTMLResponse],
) -> None:
    """Add ``/camera``, its status and its two ways in to ``app`` (``phone``: the run's link, ``None``
    when the run takes no phone: the page then says how to start one)."""

    @app.get("/camera", response_class=HTMLResponse)
    def camera_page() -> HTMLResponse:
        return page()

    @app.get("/api/camera")
    def camera_status() -> dict[str, Any]:
        """Where the phone stands: ``link`` (waiting, connected, stalled, disconnected, off), the frame
        rate coming in, frames so far, and what to do when it is not streaming."""
        if phone is None:
            return {"link": "off", "message": NO_PHONE}
        return {**phone.status()}

    @app.websocket("/api/camera/stream")
    async def camera_stream(websocket: WebSocket) -> None:
        await _stream_phone(websocket, phone, token)

    _register_plain_requests(app, phone=phone, admin=admin)


def _register_plain_requests(app: FastAPI, *, phone: PhoneLink | None, admin: Sequence[Depends]) -> None:
    """The plain-request way in, where a network refuses the WebSocket: connect, frames, goodbye."""

    @app.post("/api/camera/connect", dependencies=list(admin))
    async def camera_connect(request: Request) -> dict[str, Any]:
        """The plain-request way in (where the WebSocket is refused): the phone's details in, its
        connection's number out."""
        if phone is None:
            raise HTTPException(status_code=404, detail=NO_PHONE)
        body = await request.body()
        try:
            hello = json.loads(body or b"{}")
        except ValueError:
            raise HTTPException(status_code=400, detail="send the phone's details as JSON") from None
        info = phone_info(hello) if isinstance(hello, dict) else {}
        client = request.client.host if request.client else "?"
        connection = phone.connect(client, info)
        return {"type": "ready", "connection": connection, "max_bytes": phone.max_frame_bytes,
                "transport": "http"}

    @app.post(CAMERA_FRAME_PATH, dependencies=list(admin))
    async def camera_frame(request: Request, connection: Connection) -> dict[str, Any]:
        """One frame (8-byte time, then the JPEG) from connection ``connection``; answered with the
        link's status. 409: another phone took over; 400: the frame was refused (the link goes on)."""
        if phone is None:
            raise HTTPException(status_code=404, detail=NO_PHONE)
        body = await request.body()
        problem = phone.offer(connection, body)
        if problem == SUPERSEDED:
            raise HTTPException(status_code=409, detail=SUPERSEDED)
        if problem is not None:
            raise HTTPException(status_code=400, detail=f"frame refused: {problem}")
        return {"type": "status", **phone.status()}

    @app.post("/api/camera/bye", dependencies=list(admin))
    def camera_bye(connection: Connection) -> dict[str, Any]:
        """The plain-request phone leaves (its page closed)."""
        if phone is not None:
            phone.disconnect(connection, "the page closed")
        return {"ok": True}


async def _stream_phone(websocket: WebSocket, phone: PhoneLink | None, token: str) -> None:
    """The WebSocket way in: the phone's hello checked (``token``), then its frames into ``phone`` until the
    socket closes, another phone takes over or the page says goodbye."""
    await websocket.accept()
    client = websocket.client.host if websocket.client else "?"
    try:
        first = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT_S)
    except TimeoutError:
        await _refuse(websocket, client, "no hello within 10 s", CLOSE_HELLO_TIMEOUT)
        return
    if first["type"] == "websocket.disconnect":
        return
    checked = hello_problem(first.get("text"), token)
    if isinstance(checked, tuple):
        await _refuse(websocket, client, *checked)
        return
    if phone is None:
        await _refuse(websocket, client, NO_PHONE, CLOSE_NO_PHONE)
        return
    connection = phone.connect(client, checked)
    reason = "closed"
    try:
        await websocket.send_json({"type": "ready", "connection": connection, "max_bytes": phone.max_frame_bytes})
        reason = await _receive_frames(websocket, phone, connection)
    except WebSocketDisconnect as exc:
        reason = _closed_reason(exc.code)
    except (RuntimeError, OSError) as exc:  # the socket broke under a send
        reason = f"connection lost: {exc}"
    finally:
        phone.disconnect(connection, reason)
        if reason == SUPERSEDED:
            await _close(websocket, CLOSE_SUPERSEDED, SUPERSEDED)
        else:
            await _close(websocket, 1000, reason)  # a no-op where the phone closed it


async def _receive_frames(websocket: WebSocket, phone: PhoneLink, connection: int) -> str:
    """Frames from the socket into the link until it closes; returns why it ended."""
    loop = asyncio.get_running_loop()
    status_due = loop.time() + STATUS_EVERY_S
    refused_due = 0.0
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return _closed_reason(int(message.get("code") or 1000))
        data = message.get("bytes")
        now = loop.time()
        if data is not None:
            problem = phone.offer(connection, data)
            if problem == SUPERSEDED:
                return SUPERSEDED
            if problem is not None and now >= refused_due:  # tell the page, but not once per frame
                refused_due = now + STATUS_EVERY_S
                await websocket.send_json({"type": "refused", "message": problem})
        else:
            text = message.get("text") or ""
            if _is_bye(text):
                return "the page closed"
            # Anything else a page may say is ignored (a newer page's message); it never ends the link.
        if now >= status_due:
            status_due = now + STATUS_EVERY_S
            await websocket.send_json({"type": "status", **phone.status()})


def _closed_reason(code: int) -> str:
    """Why a phone's socket closed, in words where the code says more than a number."""
    if code == 1009:
        return "closed (1009: a message over the size limit)"
    if code == 1006:
        return "connection lost (1006)"
    return f"closed ({code})"


def _is_bye(text: str) -> bool:
    if len(text) > MAX_TEXT_CHARS:
        return False
    with contextlib.suppress(ValueError):
        message = json.loads(text)
        return isinstance(message, dict) and message.get("type") == "bye"
    return False


async def _refuse(websocket: WebSocket, client: str, reason: str, code: int) -> None:
    """Tell the page why, in one message and the close reason, and log it in one line."""
    log.warning("phone %s: connection refused: %s", client, reason)
    with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
        await websocket.send_json({"type": "error", "message": reason, "code": code})
    await _close(websocket, code, reason)


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    if WebSocketState.DISCONNECTED in (websocket.client_state, websocket.application_state):
        return
    with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
        await websocket.close(code=code, reason=reason[:120])


def serve_phone(args: argparse.Namespace, token: str, phone: PhoneLink | None,
                set_status: Callable[..., None]) -> tuple[tuple[Path, Path] | None, list[str]]:
    """How ``referee run``/``demo`` serve: the (certificate, key) for https, or ``None`` for http, and the
    lines to print for the phone (its link with the token, and the link as a QR code).

    https with ``--https``, and for ``--source phone`` on an address other phones can reach (a phone's
    browser gives the camera only to https pages); a :class:`~referee.web.tls.CertificateError` when
    the certificate cannot be had. The link's status goes to ``set_status`` (the session's: ``phone``).
    """
    from urllib.parse import quote

    from referee.web.tls import certificate_for, is_loopback, phone_host

    https = bool(getattr(args, "https", False)) or (phone is not None and not is_loopback(args.host))
    host = phone_host(args.host)
    tls = certificate_for([host, args.host]) if https else None
    if phone is None:
        return tls, []
    scheme = "https" if tls else "http"
    shown = f"[{host}]" if ":" in host else host
    phone.url = f"{scheme}://{shown}:{args.port}/camera"
    phone.on_status = lambda status: set_status(phone=status)
    phone.report()
    return tls, phone_lines(f"{phone.url}#token={quote(token, safe='')}", https=tls is not None)


def phone_lines(link: str, *, https: bool) -> list[str]:
    """The phone's link and a QR code of it (Unicode blocks, two rows of modules a line)."""
    import segno

    first = ("first time: the browser warns about the certificate; accept it once (README: Start with a phone)"
             if https else "a phone's browser gives the camera only to https pages: start with --https "
             "(or on --host 0.0.0.0) for a phone on your Wi-Fi")
    out = io.StringIO()
    segno.make(link, error="l", micro=False).terminal(out=out, compact=True, border=2)
    return [f"phone camera: {link}", f"  scan this with the phone's camera app; {first}",
            *out.getvalue().rstrip("\n").splitlines(),
            "waiting for the phone..."]
