"""Hands from a photo: upload, detector (a double here), proposal, optional reveal, errors."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import httpx
import numpy as np
import numpy.typing as npt
import pytest

from referee.cards import CLASSIC_COLOURS, Card, Colour, find_deck
from referee.session import MatchSession
from referee.store import Store
from referee.vision.detections import Detections, Detector
from referee.web.app import create_app
from referee.web.hands import (
    MAX_PHOTO_SIDE,
    DetectorLoader,
    DetectorUnavailable,
    ImageTooLarge,
    decode_image,
    dedupe,
    image_size,
    model_loader,
)
from tests.web.conftest import AUTH, TestClient

Box = tuple[float, float, float, float]


class FakeDetector:
    """A detector double: fixed boxes, scaled to the image it is given (so it must be decoded)."""

    face_names = ("back",)

    def __init__(self, found: Sequence[tuple[str, float, Box]]) -> None:
        self.found = list(found)
        self.images: list[tuple[int, ...]] = []

    def detect(self, image: npt.NDArray[np.uint8]) -> Detections:
        self.images.append(image.shape)
        h, w = image.shape[:2]
        xyxy = np.array([[x1 * w, y1 * h, x2 * w, y2 * h] for _, _, (x1, y1, x2, y2) in self.found],
                        np.float32).reshape(-1, 4)
        return Detections(xyxy, np.array([c for _, c, _ in self.found], np.float32),
                          np.zeros(len(self.found), np.int64), tuple(lb for lb, _, _ in self.found),
                          np.full(len(self.found), 0.9, np.float32))


class Loader:
    """Counts loads and records the palettes asked for; fails ``failures`` times first."""

    def __init__(self, detector: Detector, failures: int = 0) -> None:
        self.detector = detector
        self.failures = failures
        self.palettes: list[tuple[Colour, ...]] = []

    def __call__(self, palette: tuple[Colour, ...]) -> Detector:
        self.palettes.append(palette)
        if self.failures:
            self.failures -= 1
            raise DetectorUnavailable("no detector model at models/detector.onnx")
        return self.detector


# A hand laid out right to left, with a face-down card and one card read twice (two classes).
HAND = [
    ("green_skip", 0.91, (0.70, 0.2, 0.85, 0.8)),
    ("wild", 0.88, (0.40, 0.2, 0.55, 0.8)),
    ("blue_7", 0.95, (0.05, 0.2, 0.20, 0.8)),
    ("blue_1", 0.40, (0.06, 0.21, 0.21, 0.79)),  # the same card as blue_7, less sure
    ("back", 0.90, (0.88, 0.2, 0.99, 0.8)),
]


def jpeg(width: int = 320, height: int = 200) -> bytes:
    image = np.full((height, width, 3), 90, np.uint8)
    cv2.rectangle(image, (20, 40), (60, 160), (0, 0, 255), -1)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return bytes(data)


def three_seats(**options: object) -> MatchSession:
    match = MatchSession(Store(":memory:"), players=3, options=options)
    match.submit({"type": "start", "card": "red_5"})
    return match


@dataclass
class Table:
    client: TestClient
    session: MatchSession
    detector: FakeDetector
    loader: Loader


@pytest.fixture(scope="module")
def shared_table() -> Iterator[Table]:
    """One app for the tests that change nothing (building an app costs about a second)."""
    detector = FakeDetector(HAND)
    loader = Loader(detector)
    match = three_seats()
    with TestClient(create_app(match, token=AUTH["X-Admin-Token"], hand_detector=loader)) as tc:
        yield Table(tc, match, detector, loader)


@pytest.fixture
def table(shared_table: Table) -> Table:
    shared_table.detector.found = list(HAND)
    shared_table.detector.images.clear()
    shared_table.loader.palettes.clear()
    return shared_table


@pytest.fixture
def detector() -> FakeDetector:
    return FakeDetector(HAND)


@pytest.fixture
def loader(detector: FakeDetector) -> Loader:
    return Loader(detector)


@pytest.fixture
def hands_client(session: MatchSession, loader: Loader) -> Iterator[TestClient]:
    with TestClient(create_app(session, token=AUTH["X-Admin-Token"], hand_detector=loader)) as tc:
        yield tc


def post_photo(client: TestClient, data: bytes, seat: int = 0, content_type: str = "image/jpeg",
               query: str = "") -> httpx.Response:
    response: httpx.Response = client.post(
        f"/api/hands/photo?seat={seat}{query}", content=data,
        headers={**AUTH, "Content-Type": content_type})
    return response


@pytest.mark.parametrize("headers", [{}, {"X-Admin-Token": "wrong"}])
def test_a_photo_needs_the_token(table: Table, headers: dict[str, str]) -> None:
    response = table.client.post("/api/hands/photo?seat=0", content=jpeg(),
                                 headers={**headers, "Content-Type": "image/jpeg"})
    assert response.status_code == 401
    assert "admin token required" in response.json()["detail"]
    assert table.loader.palettes == [] and table.detector.images == []


def test_the_detector_proposes_the_hand_without_submitting(
    hands_client: TestClient, session: MatchSession, detector: FakeDetector, loader: Loader
) -> None:
    before = session.export_log()
    response = hands_client.post("/api/hands/photo?seat=2", content=jpeg(320, 200),
                                 headers={**AUTH, "Content-Type": "image/jpeg"})
    assert response.status_code == 200, response.text
    body = response.json()
    # Left to right, the face-down card left out, the second reading of blue_7 dropped.
    assert body["cards"] == ["blue_7", "wild", "green_skip"]
    assert (body["seat"], body["backs"], body["duplicates"]) == (2, 1, 1)
    assert (body["width"], body["height"]) == (320, 200) and detector.images == [(200, 320, 3)]
    first = body["detections"][0]
    assert first["label"] == "blue_7" and first["confidence"] == pytest.approx(0.95, abs=1e-3)
    assert first["xyxy"] == pytest.approx([0.05 * 320, 0.2 * 200, 0.2 * 320, 0.8 * 200], abs=0.1)
    assert body["submitted"] is None
    assert session.export_log() == before
    assert loader.palettes == [CLASSIC_COLOURS]


def test_a_png_and_a_multipart_upload_read_the_same(table: Table) -> None:
    hands_client = table.client
    ok, png = cv2.imencode(".png", np.zeros((60, 80, 3), np.uint8))
    assert ok
    raw = post_photo(hands_client, bytes(png), content_type="image/png").json()
    form = hands_client.post("/api/hands/photo?seat=0", headers=AUTH,
                             files={"image": ("hand.png", bytes(png), "image/png")})
    assert form.status_code == 200, form.text
    assert form.json() == raw and raw["cards"] == ["blue_7", "wild", "green_skip"]
    assert (raw["width"], raw["height"]) == (80, 60)


def test_submit_records_a_reveal_that_the_referee_scores(detector: FakeDetector) -> None:
    match = three_seats(hand_size=1)
    match.submit({"type": "play", "card": "red_9", "seat": 1})  # seat 1 goes out
    with TestClient(create_app(match, token=AUTH["X-Admin-Token"],
                               hand_detector=Loader(detector))) as client:
        first = post_photo(client, jpeg(), seat=0, query="&submit=true").json()
        assert first["submitted"]["kind"] == "observation"
        detector.found = [("yellow_draw2", 0.8, (0.1, 0.1, 0.3, 0.9))]
        second = post_photo(client, jpeg(), seat=2, query="&submit=true").json()
    hands = first["cards"] + second["cards"]
    points = sum(Card.from_label(label).points() for label in hands)
    [round_end] = [o for o in second["submitted"]["outputs"] if o["type"] == "round_end"]
    assert (round_end["winner"], round_end["points"]) == (1, points)
    assert match.snapshot()["scores"][1] == points
    reveals = [s for s in match.store.observations(match.match_id)
               if s.observation["type"] == "reveal"]
    assert [(s.source, s.observation["seat"], s.observation["cards"]) for s in reveals] == [
        ("photo", 0, first["cards"]), ("photo", 2, ["yellow_draw2"])]


def test_submit_with_no_cards_found_records_nothing(hands_client: TestClient,
                                                    session: MatchSession,
                                                    detector: FakeDetector) -> None:
    detector.found = [("back", 0.9, (0.1, 0.1, 0.3, 0.9))]
    before = session.export_log()
    response = post_photo(hands_client, jpeg(), query="&submit=true")
    assert response.status_code == 422
    assert "no cards found" in response.json()["detail"]
    assert session.export_log() == before


@pytest.mark.parametrize(("data", "content_type", "status", "message"), [
    pytest.param(b"\xff\xd8\xff\xe0 not really a jpeg", "image/jpeg", 400, "cannot decode",
                 id="garbage"),
    pytest.param(jpeg()[:200], "image/jpeg", 400, "cannot decode", id="truncated"),
    pytest.param(b"", "image/png", 400, "empty upload", id="empty"),
    pytest.param(jpeg(), "application/json", 415, "image/jpeg", id="json"),
    pytest.param(jpeg(), "text/plain", 415, "image/jpeg", id="text"),
    pytest.param(b"--x\r\n\r\n--x--", "multipart/form-data; boundary=x", 400, "no file",
                 id="multipart-without-file"),
])
def test_bad_uploads_get_a_clear_4xx_and_nothing_changes(
    table: Table, data: bytes, content_type: str, status: int, message: str,
) -> None:
    before = table.session.export_log()
    response = post_photo(table.client, data, content_type=content_type, query="&submit=true")
    assert response.status_code == status
    assert message in response.json()["detail"]
    assert table.detector.images == [] and table.session.export_log() == before


@pytest.mark.parametrize("seat", ["3", "-1", "x"])
def test_a_seat_outside_the_table_is_refused(table: Table, seat: str) -> None:
    response = table.client.post(f"/api/hands/photo?seat={seat}", content=jpeg(),
                                 headers={**AUTH, "Content-Type": "image/jpeg"})
    assert response.status_code == 422
    assert "seat" in str(response.json()["detail"])


def test_an_oversized_photo_is_refused_with_413(session: MatchSession, loader: Loader) -> None:
    app = create_app(session, token=AUTH["X-Admin-Token"], hand_detector=loader,
                     max_photo_bytes=10_000)
    with TestClient(app) as client:
        big = jpeg(1200, 900) + bytes(10_000)
        response = post_photo(client, big)
        assert response.status_code == 413
        assert "too large" in response.json()["detail"]
        multi = client.post("/api/hands/photo?seat=0", headers=AUTH,
                            files={"image": ("h.jpg", big, "image/jpeg")})
        assert multi.status_code == 413
        chunked = client.post("/api/hands/photo?seat=0", content=iter([big[:6000], big[6000:]]),
                              headers={**AUTH, "Content-Type": "image/jpeg"})
        assert "content-length" not in chunked.request.headers
        assert chunked.status_code == 413
        assert post_photo(client, jpeg(64, 48)).status_code == 200
    assert loader.palettes == [CLASSIC_COLOURS]


def png_header(width: int, height: int) -> bytes:
    """A PNG's signature and header chunk alone: its size, and not one pixel."""
    ihdr = b"IHDR" + struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", 13) + ihdr + struct.pack(">I", zlib.crc32(ihdr))
    end = struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))
    return b"\x89PNG\r\n\x1a\n" + chunk + end


def png(width: int, height: int) -> bytes:
    ok, data = cv2.imencode(".png", np.zeros((height, width), np.uint8))
    assert ok
    return bytes(data)


@pytest.mark.parametrize(("data", "status", "message"), [
    pytest.param(png_header(20000, 20000), 413, "photo too large", id="400-megapixels"),
    pytest.param(png_header(9000, 9000), 413, "9000x9000 pixels", id="81-megapixels"),
    pytest.param(png_header(8000, 7000), 413, "at most 50 megapixels", id="56-megapixels"),
    pytest.param(png_header(65535, 65535), 413, "at most 50 megapixels", id="pillow-bomb"),
    pytest.param(png(33000, 16), 413, "33000x16", id="33000-wide"),
    pytest.param(png(65535, 16), 413, "10000 pixels a side", id="65535x16"),
    pytest.param(png(10, 600), 400, "too small", id="10-wide"),
])
def test_photos_past_the_pixel_limits_are_refused_before_decoding(
    table: Table, data: bytes, status: int, message: str
) -> None:
    before = table.session.export_log()
    for form in (False, True):
        if form:
            response = table.client.post("/api/hands/photo?seat=0&submit=true", headers=AUTH,
                                         files={"image": ("hand.png", data, "image/png")})
        else:
            response = post_photo(table.client, data, content_type="image/png",
                                  query="&submit=true")
        assert response.status_code == status
        assert message in response.json()["detail"]
    assert table.detector.images == [] and table.session.export_log() == before


def test_the_size_comes_from_the_header_alone() -> None:
    assert image_size(png_header(9000, 5000)) == (9000, 5000)
    assert image_size(jpeg(320, 200)) == (320, 200)
    with pytest.raises(ImageTooLarge, match="pixels a side"):
        decode_image(png_header(MAX_PHOTO_SIDE + 1, 100))


def test_a_photo_at_the_limits_is_read(table: Table) -> None:
    response = post_photo(table.client, png(MAX_PHOTO_SIDE, 16), content_type="image/png")
    assert response.status_code == 200, response.text
    assert (response.json()["width"], response.json()["height"]) == (MAX_PHOTO_SIDE, 16)


def test_the_default_limit_is_8_mb(table: Table) -> None:
    response = post_photo(table.client, bytes(8 * 1024 * 1024 + 1))
    assert response.status_code == 413


def test_a_missing_model_is_a_503_and_is_retried(session: MatchSession, tmp_path: Path) -> None:
    app = create_app(session, token=AUTH["X-Admin-Token"],
                     hand_detector=model_loader(tmp_path / "detector.onnx"))
    with TestClient(app) as client:
        response = post_photo(client, jpeg())
        assert response.status_code == 503
        detail = response.json()["detail"]
        assert detail.startswith("no card detector available") and "detector.onnx" in detail
    flaky = Loader(FakeDetector(HAND), failures=1)
    with TestClient(create_app(session, token=AUTH["X-Admin-Token"], hand_detector=flaky)) as client:
        assert post_photo(client, jpeg()).status_code == 503
        for _ in range(2):
            assert post_photo(client, jpeg()).status_code == 200
    assert len(flaky.palettes) == 2  # one failed load, then loaded once and kept


def test_the_detector_reads_colours_of_the_deck_in_play(detector: FakeDetector) -> None:
    loader = Loader(detector)
    match = MatchSession(Store(":memory:"), rules="lb", players=3)
    with TestClient(create_app(match, token=AUTH["X-Admin-Token"], hand_detector=loader)) as client:
        assert post_photo(client, jpeg()).status_code == 200
    assert loader.palettes == [find_deck("lb").colours]


def _boxes(rows: Sequence[tuple[str, float, Box]]) -> Detections:
    return FakeDetector(rows).detect(np.zeros((1, 1, 3), np.uint8))


@pytest.mark.parametrize(("rows", "kept"), [
    ([], []),
    ([("red_1", 0.9, (0.0, 0.0, 0.2, 0.5))], ["red_1"]),
    # Side by side, touching: two cards.
    ([("red_1", 0.9, (0.2, 0.0, 0.4, 0.5)), ("red_2", 0.8, (0.0, 0.0, 0.2, 0.5))],
     ["red_2", "red_1"]),
    # Fanned, half overlapping: still two cards.
    ([("red_1", 0.9, (0.0, 0.0, 0.2, 0.5)), ("red_2", 0.8, (0.1, 0.0, 0.3, 0.5))],
     ["red_1", "red_2"]),
    # The same card read as two classes: the surer reading stays.
    ([("red_1", 0.6, (0.0, 0.0, 0.2, 0.5)), ("red_7", 0.9, (0.01, 0.0, 0.21, 0.5))], ["red_7"]),
    # A box inside another (a corner index read as a card): dropped.
    ([("wild", 0.9, (0.0, 0.0, 0.2, 0.5)), ("red_7", 0.5, (0.0, 0.0, 0.05, 0.1))], ["wild"]),
])
def test_dedupe_keeps_one_box_per_card_left_to_right(
    rows: list[tuple[str, float, Box]], kept: list[str]
) -> None:
    assert list(dedupe(_boxes(rows)).labels) == kept


def test_model_loader_builds_the_onnx_detector_lazily() -> None:
    load: DetectorLoader = model_loader(Path("/nonexistent/detector.onnx"))
    with pytest.raises(DetectorUnavailable, match="no detector model at"):
        load(CLASSIC_COLOURS)


def test_photos_sent_at_once_are_decoded_one_at_a_time(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Six photos at once (hands and /teach's deck photos) never hold more than DECODE_AT_ONCE
    decoded images: each may be 150 MB."""
    import threading
    import time
    import weakref

    import referee.web.hands as hands_module
    import referee.web.teach as teach_module
    from tests.web.conftest import live_server

    lock = threading.Lock()
    alive = [0, 0]  # decoded images alive now, the most at once

    def counted_decode(data: bytes) -> npt.NDArray[np.uint8]:
        image = decode_image(data)
        with lock:
            alive[0] += 1
            alive[1] = max(alive[1], alive[0])

        def freed() -> None:
            with lock:
                alive[0] -= 1

        weakref.finalize(image, freed)
        time.sleep(0.1)  # long enough for the other requests to arrive meanwhile
        return image

    monkeypatch.setattr(hands_module, "decode_image", counted_decode)
    monkeypatch.setattr(teach_module, "decode_image", counted_decode)
    photo = jpeg(640, 400)
    answers: list[int] = []
    with live_server(three_seats(), hand_detector=Loader(FakeDetector(HAND)),
                     deck_dir=tmp_path / "deck") as live:
        def send(path: str) -> None:
            answers.append(httpx.post(live.url + path, content=photo, timeout=30,
                                      headers={**AUTH, "Content-Type": "image/jpeg"}).status_code)

        paths = ["/api/hands/photo?seat=0", "/api/deck/photos?label=red_1"] * 3
        senders = [threading.Thread(target=send, args=(path,)) for path in paths]
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join(30)
    assert answers == [200] * 6
    assert alive[1] <= hands_module.DECODE_AT_ONCE <= 2, alive


def test_a_photo_over_the_decoding_bar_is_decoded_at_a_fraction_of_its_sides(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Memory: a 50-megapixel photo decoded whole is 150 MB of pixels; over MAX_DECODED_PIXELS the JPEG is
    decoded straight to a half, quarter or eighth of its sides."""
    import referee.web.hands as hands_module

    photo = np.zeros((1200, 1600, 3), np.uint8)
    cv2.rectangle(photo, (400, 300), (800, 900), (255, 255, 255), -1)
    ok, jpeg = cv2.imencode(".jpg", photo)
    assert ok
    assert hands_module.decode_image(jpeg.tobytes()).shape[:2] == (1200, 1600)  # under the bar: whole
    monkeypatch.setattr(hands_module, "MAX_DECODED_PIXELS", 600_000)  # 1.92 MP: a half of each side will do
    assert hands_module.decode_image(jpeg.tobytes()).shape[:2] == (600, 800)
    monkeypatch.setattr(hands_module, "MAX_DECODED_PIXELS", 200_000)  # over 4x the bar: a quarter
    small = hands_module.decode_image(jpeg.tobytes())
    assert small.shape[:2] == (300, 400)
    assert small[150, 150].mean() > 200 and small[20, 20].mean() < 50  # the same picture, smaller
