"""Memory of the served referee under hand photos: N 50-megapixel JPEGs posted at once (default 6), the
server's peak resident memory (VmHWM) beside its start.

    python benchmarks/photo_memory.py [N]

Photos are decoded one at a time (``referee.web.hands.decoding``) and, over 12 megapixels, straight to a
half, quarter or eighth of their sides (``referee.web.hands.MAX_DECODED_PIXELS``).
"""

from __future__ import annotations

import json
import sys
import tempfile
import threading
import time
from pathlib import Path

import cv2
import httpx
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.web.conftest import TOKEN, free_port
from tests.web.test_memory import high_water_mb, rss_watch
from tests.web.test_restart import server_process

WIDTH, HEIGHT = 8160, 6120  # a 50-megapixel phone camera


def photo() -> bytes:
    """A table with one card, as a 50-megapixel JPEG (about 0.8 MB)."""
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    image[:] = (40, 110, 60)
    cv2.rectangle(image, (3000, 2000), (3800, 3200), (255, 255, 255), -1)
    cv2.rectangle(image, (3050, 2050), (3750, 3150), (30, 30, 200), -1)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return jpeg.tobytes()


def main(n: int) -> dict[str, object]:
    data = photo()
    headers = {"X-Admin-Token": TOKEN, "Content-Type": "image/jpeg"}
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        with server_process(Path(tmp) / "m.db", port, 3, 0) as proc:
            url = f"http://127.0.0.1:{port}/api/hands/photo?seat=0"
            small = cv2.imencode(".jpg", np.full((600, 800, 3), 90, np.uint8))[1].tobytes()
            httpx.post(url, content=small, headers=headers, timeout=120)  # the detector loaded first
            start = high_water_mb(proc.pid)
            codes: list[int] = []

            def post() -> None:
                codes.append(httpx.post(url, content=data, headers=headers, timeout=600).status_code)

            t0 = time.monotonic()
            with rss_watch(proc.pid, 0.01):
                threads = [threading.Thread(target=post) for _ in range(n)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
            return {"photos": n, "photo_bytes": len(data), "codes": codes, "seconds": round(time.monotonic() - t0, 1),
                    "start_mb": round(start), "peak_mb": round(high_water_mb(proc.pid))}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 6)))
