"""What a phone as the camera costs the referee: added latency and server CPU of a 30 fps phone stream.

A server process runs the dashboard's app with a phone link and the capture that ``referee run
--source phone`` reads, with a stand-in for the pipeline that takes every frame the capture hands over
and does nothing with it: so what is measured is only what the phone path adds (receiving the
WebSocket messages, checking them, decoding the JPEG, handing it to the capture). A client on the same
machine (loopback) streams frames to it as ``/camera`` does: one binary WebSocket message a frame, 8
bytes of the time it was taken, then the JPEG.

- ``--client python`` (default): the demo footage's frames (1280x720, or ``--width``) encoded as JPEG at
  quality 80 (the page's ``toBlob`` quality) by this process at ``--fps``, each stamped before it is
  encoded, sent while the one before has left (as the page does).
- ``--client chromium``: the page itself in headless Chromium, its camera Chromium's fake device playing
  the demo footage as a Y4M at ``--fps`` (frames repeated to make the rate): the page's own capture,
  canvas encoding and WebSocket, stamped when the page takes the frame.

Latency is from the stamp to the moment the capture hands the decoded frame to the pipeline (one clock:
both ends run on this machine). Server CPU is the server process's CPU time over the streaming window
(after a warm-up) as a share of one core, less the same server's CPU while idle for as long.

    python benchmarks/bench_phone.py                       # one JSON line
    python benchmarks/bench_phone.py --client chromium     # through the page (loopback)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEMO = ROOT / "datasets" / "demo" / "demo.mp4"
TOKEN = "bench-token"


# The server process.
def serve(port: int, out: Path) -> None:
    """The app with a phone link, its capture and a do-nothing pipeline, until SIGINT/SIGTERM; then
    the latencies (ms) of every frame handed over go to ``out`` as JSON."""
    from referee.session import MatchSession
    from referee.store import Store
    from referee.vision.capture import SourceSpec
    from referee.vision.phone import PhoneLink, PhoneReader
    from referee.web.app import create_app, make_server

    session = MatchSession(Store(":memory:"), players=4)
    link = PhoneLink(on_status=lambda status: session.set_status(phone=status))
    sent_ms: dict[int, float] = {}

    def opener(spec: SourceSpec) -> PhoneReader:
        reader = link.open_reader(spec)
        read = reader.read

        def timed_read() -> tuple[bool, Any]:
            ok, image = read()
            if image is not None and reader.last is not None:
                sent_ms[id(image)] = reader.last.sent_ms
            return ok, image

        reader.read = timed_read  # type: ignore[method-assign]
        return reader

    capture = link.capture()
    capture._opener = opener  # the bench's own reader, to know each frame's stamp
    latencies: list[float] = []
    handed: list[float] = []

    def pipeline() -> None:
        while True:
            frame = capture.read(timeout=0.5)
            if frame is None:
                if capture.finished:
                    return
                continue
            now = time.time() * 1000
            stamp = sent_ms.pop(id(frame.image), None)
            if stamp is not None:
                latencies.append(now - stamp)
                handed.append(time.monotonic())

    capture.start()
    worker = threading.Thread(target=pipeline, daemon=True)
    worker.start()
    app = create_app(session, token=TOKEN, phone=link)
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn raises the signal again once it has shut down
        make_server(app, "127.0.0.1", port, log_level="error").run()
    link.close()
    capture.stop()
    worker.join(5)
    out.write_text(json.dumps({"latencies_ms": latencies, "handed": handed, "status": link.status()}))


# The clients.
async def python_client(port: int, frames: list[np.ndarray], fps: float, seconds: float,
                        quality: int) -> dict[str, Any]:
    import websockets

    from referee.vision.phone import frame_message

    sent = skipped = 0
    encode_ms: list[float] = []
    async with websockets.connect(f"ws://127.0.0.1:{port}/api/camera/stream", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": TOKEN, "width": frames[0].shape[1],
                                  "height": frames[0].shape[0], "fps": fps, "agent": "bench_phone.py"}))
        ready = json.loads(await ws.recv())
        assert ready["type"] == "ready", ready

        async def drain() -> None:
            async for _ in ws:  # the server's status messages
                pass

        drainer = asyncio.create_task(drain())
        start = time.monotonic()
        index = 0
        while (now := time.monotonic()) - start < seconds:
            due = start + index / fps
            if due > now:
                await asyncio.sleep(due - now)
            stamp = time.time() * 1000
            t0 = time.perf_counter()
            _, jpeg = cv2.imencode(".jpg", frames[index % len(frames)], [cv2.IMWRITE_JPEG_QUALITY, quality])
            encode_ms.append((time.perf_counter() - t0) * 1000)
            transport = ws.transport
            if transport is not None and transport.get_write_buffer_size() > 0:
                skipped += 1  # the one before has not left: the page skips a frame too
            else:
                await ws.send(frame_message(jpeg.tobytes(), stamp))
                sent += 1
            index += 1
        await ws.send(json.dumps({"type": "bye"}))
        drainer.cancel()
    return {"sent": sent, "skipped": skipped, "client_encode_ms_p50": round(statistics.median(encode_ms), 2)}


def http_client(port: int, frames: list[np.ndarray], fps: float, seconds: float, quality: int) -> dict[str, Any]:
    """The page's fallback where a browser refuses the WebSocket: one POST a frame, the next one taken
    only once the one before was answered."""
    import httpx

    from referee.vision.phone import frame_message

    headers = {"X-Admin-Token": TOKEN}
    sent = skipped = 0
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=10) as client:
        connection = client.post("/api/camera/connect", json={"fps": fps}).json()["connection"]
        start = time.monotonic()
        index = 0
        while (now := time.monotonic()) - start < seconds:
            due = start + index / fps
            if due > now:
                time.sleep(due - now)
            elif now - due > 1 / fps:
                skipped += 1  # the answer came after this frame's moment: the page would not have taken it
                index += 1
                continue
            stamp = time.time() * 1000
            _, jpeg = cv2.imencode(".jpg", frames[index % len(frames)], [cv2.IMWRITE_JPEG_QUALITY, quality])
            answer = client.post(f"/api/camera/frame?connection={connection}",
                                 content=frame_message(jpeg.tobytes(), stamp),
                                 headers={"Content-Type": "application/octet-stream"})
            answer.raise_for_status()
            sent += 1
            index += 1
        client.post(f"/api/camera/bye?connection={connection}")
    return {"sent": sent, "skipped": skipped}


def chromium_client(port: int, footage: Path, seconds: float) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    from tests.web.fake_camera import chromium_camera_args

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=[
            "--headless", "--no-sandbox", "--disable-gpu", *chromium_camera_args(footage)])
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{port}/camera#token={TOKEN}")
        page.wait_for_function("window.cameraPage && cameraPage.transport() === 'ws'", timeout=30_000)
        time.sleep(seconds)
        sent = int(page.evaluate("cameraPage.sent()"))
        page.close()
        browser.close()
    return {"sent": sent}


def demo_frames(width: int, count: int) -> list[np.ndarray]:
    capture = cv2.VideoCapture(str(DEMO))
    frames: list[np.ndarray] = []
    while len(frames) < count:
        ok, image = capture.read()
        if not ok:
            break
        if image.shape[1] != width:
            size = (width, round(image.shape[0] * width / image.shape[1]))
            image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        frames.append(image)
    capture.release()
    return frames


def cpu_seconds(pid: int) -> float:
    import psutil

    times = psutil.Process(pid).cpu_times()
    return float(times.user + times.system)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--client", choices=("python", "python-http", "chromium"), default="python",
                        help="python: WebSocket; python-http: one POST a frame (the page's fallback); "
                             "chromium: the page")
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--seconds", type=float, default=20.0, help="streaming time measured (after the warm-up)")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--quality", type=int, default=80)
    parser.add_argument("--serve-child", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_child is not None:
        serve(args.port, args.serve_child)
        return 0

    import httpx

    from tests.web.conftest import free_port

    port = free_port()
    out = Path(f"/tmp/bench_phone_{os.getpid()}.json")
    child = subprocess.Popen([sys.executable, __file__, "--serve-child", str(out), "--port", str(port)], cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        idle_start, idle_cpu = time.monotonic(), cpu_seconds(child.pid)
        time.sleep(min(args.seconds, 10.0))
        idle_share = (cpu_seconds(child.pid) - idle_cpu) / (time.monotonic() - idle_start)

        frames = demo_frames(args.width, 150)
        marks: dict[str, float] = {}

        def mark_window() -> None:
            time.sleep(args.warmup)
            marks["start"], marks["cpu_start"] = time.monotonic(), cpu_seconds(child.pid)
            time.sleep(args.seconds)
            marks["end"], marks["cpu_end"] = time.monotonic(), cpu_seconds(child.pid)

        window = threading.Thread(target=mark_window)
        window.start()
        total = args.warmup + args.seconds + 0.5
        if args.client == "python":
            client = asyncio.run(python_client(port, frames, args.fps, total, args.quality))
        elif args.client == "python-http":
            client = http_client(port, frames, args.fps, total, args.quality)
        else:
            from tests.web.fake_camera import write_y4m

            footage = Path(f"/tmp/bench_phone_{os.getpid()}.y4m")
            repeat = max(1, round(args.fps / 15))  # the demo is 15 fps: each frame shown `repeat` times
            write_y4m((f for f in frames[:75] for _ in range(repeat)), footage, round(args.fps))
            try:
                client = chromium_client(port, footage, total + 3.0)
            finally:
                footage.unlink(missing_ok=True)
        window.join()
    finally:
        child.send_signal(signal.SIGINT)
        child.wait(30)
    result = json.loads(out.read_text())
    out.unlink()
    handed = np.array(result["handed"])
    latencies = np.array(result["latencies_ms"])
    inside = (handed >= marks["start"]) & (handed <= marks["end"])
    window_s = marks["end"] - marks["start"]
    cpu_share = (marks["cpu_end"] - marks["cpu_start"]) / window_s
    print(json.dumps({
        "client": args.client,
        "fps_target": args.fps,
        "frame_size": [int(frames[0].shape[1]), int(frames[0].shape[0])],
        "jpeg_quality": args.quality,
        "frames_handed": int(inside.sum()),
        "fps_handed": round(float(inside.sum()) / window_s, 1),
        "latency_ms_p50": round(float(np.percentile(latencies[inside], 50)), 1),
        "latency_ms_p95": round(float(np.percentile(latencies[inside], 95)), 1),
        "latency_ms_max": round(float(latencies[inside].max()), 1),
        "server_cpu_percent": round(100 * (cpu_share - idle_share), 1),
        "server_idle_cpu_percent": round(100 * idle_share, 1),
        "link": {k: result["status"][k] for k in ("frames", "replaced", "refused", "undecodable")},
        **client,
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
    }))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
