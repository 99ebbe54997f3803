"""Teach this deck (/teach): card photos uploaded per label, learn-deck in the background, the deck handed on."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from referee.cards import CLASSIC_COLOURS, Colour
from referee.commands import apply_deck
from referee.session import MatchSession
from referee.store import Store
from referee.vision.classify import FaceClassifier
from referee.vision.deck import load_deck
from referee.vision.detect import DEFAULT_MODEL, DetectorError
from referee.web.app import create_app
from referee.web.teach import DECK_PHOTO_PATH, DeckTeacher, deck_dir_for
from tests.vision.test_deck import _photo
from tests.web.conftest import AUTH, TOKEN, TestClient, live_server
from tests.web.test_hands import png, png_header

LABELS = ("red_7", "blue_skip", "wild")


def photo(label: str, seed: int = 0, suffix: str = ".jpg") -> bytes:
    """A generated photo of one card near the middle of a table (as a phone takes it)."""
    ok, data = cv2.imencode(suffix, _photo(label, seed))
    assert ok
    return bytes(data)


def blank_photo() -> bytes:
    """A photo of the table alone: no card in it."""
    ok, data = cv2.imencode(".jpg", np.full((300, 400, 3), 90, np.uint8))
    assert ok
    return bytes(data)


class FakeClassifier:
    """A face classifier double with an embedding (the shipped model may lack one): each crop's
    colours on a 4 x 4 grid, read by a fixed random head. Enough for learn_deck to keep views of."""

    face_names = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "draw2", "wild",
                  "wild_draw4", "blank", "back")
    has_embedding = True
    side = 96

    def __init__(self, path: Path) -> None:
        path.write_bytes(b"a model file, for the deck's fingerprint")
        self.path = path
        self.deck: Any = None
        self._weights = np.random.default_rng(0).normal(size=(len(self.face_names), 48)).astype(np.float32)

    def outputs(self, crops: list[npt.NDArray[np.uint8]]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        embedding: npt.NDArray[np.float32] = np.stack([cv2.resize(c, (4, 4), interpolation=cv2.INTER_AREA).reshape(-1)
                                                       for c in crops]).astype(np.float32) / 255.0
        return embedding @ self._weights.T, embedding

    def read(self, image: npt.NDArray[np.uint8], box: Any, **kwargs: Any) -> list[tuple[str, float]]:
        """Names no face (the photos are never taken for a mirrored camera's)."""
        return []


def fake_classifier(path: Path) -> FaceClassifier:
    """A :class:`FakeClassifier`, typed as the :class:`FaceClassifier` it stands in for where the app takes one
    (it has what teaching a deck and applying it use of one)."""
    return cast(FaceClassifier, FakeClassifier(path))


@dataclass
class Teach:
    client: TestClient
    teacher: DeckTeacher
    deck_dir: Path
    decks: list[Path]


def upload(client: TestClient, label: str, data: bytes, *, name: str = "card.jpg", kind: str = "image/jpeg",
           headers: dict[str, str] | None = None) -> Any:
    return client.post(DECK_PHOTO_PATH, params={"label": label}, headers=AUTH if headers is None else headers,
                       files={"image": (name, data, kind)})


def wait_learned(client: TestClient, timeout: float = 60.0) -> dict[str, Any]:
    """Poll /api/deck until it is no longer learning."""
    deadline = time.monotonic() + timeout
    while True:
        status: dict[str, Any] = client.get("/api/deck").json()
        if status["state"] != "learning":
            return status
        assert time.monotonic() < deadline, status
        time.sleep(0.05)


@pytest.fixture(scope="module")
def detector() -> Any:
    """The shipped detector (it finds the card in each photo), loaded once."""
    if not Path(DEFAULT_MODEL).is_file():
        pytest.skip("no shipped detector model")
    from referee.vision.detect import load_detector

    return load_detector(conf=0.25)


@contextmanager
def teaching(session: MatchSession, deck_dir: Path | None, **options: Any) -> Iterator[Teach]:
    """The app on ``session`` (``create_app`` options; ``on_deck`` records by default), for the block."""
    decks: list[Path] = []
    app = create_app(session, token=TOKEN, deck_dir=deck_dir, on_deck=options.pop("on_deck", decks.append),
                     **options)
    with TestClient(app) as client:
        teacher = app.state.deck_teacher
        yield Teach(client, teacher, teacher.deck_dir, decks)
        teacher.join(30)


@pytest.fixture
def teach(session: MatchSession, tmp_path: Path) -> Iterator[Teach]:
    """The app with a deck folder in ``tmp_path`` and an ``on_deck`` that records what it is given."""
    with teaching(session, tmp_path / "teach") as teach:
        yield teach


@pytest.fixture
def learner(teach: Teach, detector: Any, tmp_path: Path) -> Teach:
    """``teach`` learning with the shipped detector and a classifier double."""
    classifier = fake_classifier(tmp_path / "classifier.onnx")
    teach.teacher.models = lambda: (detector, classifier)
    return teach


# --- the page and its status -------------------------------------------------------------------------


def test_the_page_and_an_empty_status(teach: Teach) -> None:
    page = teach.client.get("/teach")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "Teach this deck" in page.text and "static/teach.js" in page.text
    assert page.headers["x-frame-options"] == "SAMEORIGIN"  # it holds the admin token, as the dashboard
    assert teach.client.get("/static/teach.js").status_code == 200
    assert teach.client.get("/static/teach.css").status_code == 200
    assert 'href="teach"' in teach.client.get("/").text
    status = teach.client.get("/api/deck").json()
    assert status["deck"] == "classic" and len(status["labels"]) == 54
    assert status["labels"][:2] == ["red_0", "red_1"] and status["labels"][-1] == "wild_draw4"
    assert status["state"] == "idle" and status["photos"] == {} and status["total_photos"] == 0
    assert status["summary"] is None and status["in_use"] is False and status["live"] is True


def test_the_labels_are_the_session_decks(tmp_path: Path) -> None:
    session = MatchSession(Store(":memory:"), rules="lb", players=3)
    with teaching(session, tmp_path / "teach", on_deck=None) as teach:
        status = teach.client.get("/api/deck").json()
        assert status["deck"] == "lb" and status["live"] is False
        assert {"orange_7", "violet_skip", "blank"} <= set(status["labels"]) and "red_7" not in status["labels"]


def test_controls_need_the_token(teach: Teach) -> None:
    for headers in ({}, {"X-Admin-Token": "wrong"}):
        assert upload(teach.client, "red_7", photo("red_7"), headers=headers).status_code == 401
        assert teach.client.delete(DECK_PHOTO_PATH, params={"label": "red_7"}, headers=headers).status_code == 401
        assert teach.client.post("/api/deck/learn", headers=headers).status_code == 401
    assert teach.client.get("/api/deck").json()["photos"] == {}
    assert not (teach.deck_dir / "photos").exists()


@pytest.mark.parametrize("label", ["purple_3", "red_11", "red", "wild_draw2", "back", "red_7/", "x" * 41])
def test_a_bad_label_is_422(teach: Teach, label: str) -> None:
    response = upload(teach.client, label, photo("red_7"))
    assert response.status_code == 422, response.text
    assert teach.client.delete(DECK_PHOTO_PATH, params={"label": label}, headers=AUTH).status_code == 422
    assert teach.client.get("/api/deck").json()["photos"] == {}


# --- photos ---------------------------------------------------------------------------------------------


def test_photos_are_counted_per_label_in_class_folders(teach: Teach) -> None:
    first = upload(teach.client, "RED_7", photo("red_7", 1))  # lower-cased first
    assert first.status_code == 200, first.text
    assert first.json() == {"label": "red_7", "count": 1, "new": True, "width": 320, "height": 420}
    assert upload(teach.client, "red_7", photo("red_7", 2, ".png"), name="b.png", kind="image/png").json()["count"] == 2
    again = upload(teach.client, "red_7", photo("red_7", 1)).json()  # the same photo is kept once
    assert again["count"] == 2 and again["new"] is False
    # A raw JPEG body, as the page sends it; a fraction by its label or its folder name.
    raw = teach.client.post(DECK_PHOTO_PATH, params={"label": "red_1/2"}, content=photo("red_1/2", 3),
                            headers={**AUTH, "Content-Type": "image/jpeg"})
    assert raw.status_code == 200 and raw.json()["label"] == "red_1/2"
    assert upload(teach.client, "red_1of2", photo("red_1/2", 4)).json() == {
        "label": "red_1/2", "count": 2, "new": True, "width": 320, "height": 420}
    status = teach.client.get("/api/deck").json()
    assert status["photos"] == {"red_7": 2, "red_1/2": 2} and status["total_photos"] == 4
    photos = teach.deck_dir / "photos"
    assert sorted(p.name for p in photos.iterdir()) == ["red_1of2", "red_7"]  # learn-deck's PHOTOS layout
    assert sorted(p.suffix for p in (photos / "red_7").iterdir()) == [".jpg", ".png"]

    forgotten = teach.client.delete(DECK_PHOTO_PATH, params={"label": "red_7"}, headers=AUTH)
    assert forgotten.status_code == 200 and forgotten.json() == {"label": "red_7", "count": 0, "removed": 2}
    assert teach.client.get("/api/deck").json()["photos"] == {"red_1/2": 2}
    assert teach.client.delete(DECK_PHOTO_PATH, params={"label": "red_7"}, headers=AUTH).json()["removed"] == 0


@pytest.mark.parametrize(("data", "kind", "status", "message"), [
    pytest.param(b"not an image at all", "image/jpeg", 400, "JPEG or PNG", id="text"),
    pytest.param(b"", "image/jpeg", 400, "JPEG or PNG", id="empty"),
    pytest.param(b"\xff\xd8\xff\xe0" + bytes(200), "image/jpeg", 400, "cannot decode", id="broken-jpeg"),
    pytest.param(b"BM" + bytes(200), "image/bmp", 400, "JPEG or PNG", id="bmp"),
    pytest.param(png_header(20000, 20000), "image/png", 413, "photo too large", id="400-megapixels"),
    pytest.param(png(65535, 16), "image/png", 413, "10000 pixels a side", id="65535x16"),
    pytest.param(png(10, 600), "image/png", 400, "too small", id="10-wide"),
])
def test_a_photo_that_cannot_be_read_is_refused(teach: Teach, data: bytes, kind: str, status: int,
                                                 message: str) -> None:
    response = upload(teach.client, "red_7", data, kind=kind)
    assert response.status_code == status, response.text
    assert message in response.json()["detail"]
    assert teach.client.get("/api/deck").json()["photos"] == {}


def test_an_oversized_photo_is_413(session: MatchSession, tmp_path: Path) -> None:
    with teaching(session, tmp_path / "teach", max_photo_bytes=20_000) as teach:
        big = photo("red_7") + bytes(200_000)
        assert upload(teach.client, "red_7", big).status_code == 413  # past the guard's limit
        raw = teach.client.post(DECK_PHOTO_PATH, params={"label": "red_7"}, content=photo("red_7") + bytes(21_000),
                                headers={**AUTH, "Content-Type": "image/jpeg"})
        assert raw.status_code == 413 and "too large" in raw.json()["detail"]
        assert teach.client.get("/api/deck").json()["photos"] == {}


# --- learning -------------------------------------------------------------------------------------------


def test_learning_needs_a_photo(teach: Teach) -> None:
    response = teach.client.post("/api/deck/learn", headers=AUTH)
    assert response.status_code == 422 and "no photos" in response.json()["detail"]
    assert teach.client.get("/api/deck").json()["state"] == "idle"


def test_learn_runs_to_ready_and_hands_the_deck_to_the_pipeline(learner: Teach) -> None:
    for seed, label in enumerate(LABELS):
        assert upload(learner.client, label, photo(label, seed)).status_code == 200
    started = learner.client.post("/api/deck/learn", params={"views": 16}, headers=AUTH)
    assert started.status_code == 202, started.text
    assert started.json()["state"] == "learning"
    status = wait_learned(learner.client)
    assert status["state"] == "ready", status["message"]
    assert "learned 3 labels" in status["message"] and "reads with it now" in status["message"]
    summary = status["summary"]
    assert summary["labels"] == sorted(LABELS) and summary["labels_learned"] == 3 and summary["photos"] == 3
    assert summary["views"] == 3 * 16 and summary["seconds"] >= 0 and summary["skipped"] == []
    # The stock colour reading reads these red and blue photos right: the deck keeps no palette of its own.
    assert summary["palette"] == {} and summary["stock_colours_misread"] == 0
    assert status["in_use"] is True and status["progress"] is None
    deck = learner.deck_dir / "deck"
    assert learner.decks == [deck] and (deck / "deck.json").is_file()
    assert status["deck_path"] == str(deck) and summary["deck"] == str(deck)
    assert set(load_deck(deck).labels) == set(LABELS)


def test_the_learned_deck_is_read_with_as_the_pipeline_does(session: MatchSession, detector: Any,
                                                            tmp_path: Path) -> None:
    """``_serve``'s ``on_deck``: apply_deck puts the deck's views on the classifier (its palette on the
    detector only where the stock colour reading misread its photos)."""
    classifier = fake_classifier(tmp_path / "classifier.onnx")
    palette: tuple[Colour, ...] = CLASSIC_COLOURS

    def on_deck(path: Path) -> None:
        apply_deck(path, detector, classifier, palette)

    with teaching(session, tmp_path / "teach", on_deck=on_deck) as teach:
        teach.teacher.models = lambda: (detector, classifier)
        for seed, label in enumerate(("red_3", "green_5", "blue_9", "yellow_draw2")):
            assert upload(teach.client, label, photo(label, seed)).status_code == 200
        assert teach.client.post("/api/deck/learn?views=16", headers=AUTH).status_code == 202
        status = wait_learned(teach.client)
        assert status["state"] == "ready" and status["in_use"] is True, status["message"]
        assert classifier.deck is not None and set(classifier.deck.faces) == {"3", "5", "9", "draw2"}
        kept = load_deck(teach.deck_dir / "deck").palette
        if kept is None:  # the stock colour reading read every photo right: it stays
            assert detector.deck is None
        else:
            assert detector.deck is kept or set(detector.deck.palette) == set(CLASSIC_COLOURS)
    detector.deck = None


def test_learning_twice_at_once_is_409_and_a_failure_is_an_error(teach: Teach) -> None:
    gate = threading.Event()

    def slow_models() -> Any:
        assert gate.wait(30)
        raise DetectorError("no detector model at models/detector.onnx")

    teach.teacher.models = slow_models
    assert upload(teach.client, "red_7", photo("red_7")).status_code == 200
    assert teach.client.post("/api/deck/learn", params={"views": 16}, headers=AUTH).status_code == 202
    assert teach.client.get("/api/deck").json()["state"] == "learning"
    again = teach.client.post("/api/deck/learn", params={"views": 16}, headers=AUTH)
    assert again.status_code == 409 and "already" in again.json()["detail"]
    gate.set()
    status = wait_learned(teach.client)
    assert status["state"] == "error" and status["message"] == "no detector model at models/detector.onnx"
    assert teach.decks == [] and status["in_use"] is False
    # Learning again is allowed after an error (the models are loaded again: the last try failed).
    teach.teacher.models = lambda: (_ for _ in ()).throw(DetectorError("still none"))
    assert teach.client.post("/api/deck/learn", headers=AUTH).status_code == 202
    assert wait_learned(teach.client)["message"] == "still none"


def test_no_card_in_any_photo_is_an_error(learner: Teach) -> None:
    assert upload(learner.client, "red_7", blank_photo()).status_code == 200
    assert learner.client.post("/api/deck/learn?views=16", headers=AUTH).status_code == 202
    status = wait_learned(learner.client)
    assert status["state"] == "error" and "no card found in any photo" in status["message"]
    assert "\n" not in status["message"] and learner.decks == []


def test_a_deck_the_pipeline_refuses_is_an_error(session: MatchSession, detector: Any, tmp_path: Path) -> None:
    def refuse(path: Path) -> None:
        apply_deck(path, detector, None, CLASSIC_COLOURS)  # no classifier in the pipeline

    classifier = fake_classifier(tmp_path / "classifier.onnx")
    with teaching(session, tmp_path / "teach", on_deck=refuse) as teach:
        teach.teacher.models = lambda: (detector, classifier)
        assert upload(teach.client, "red_7", photo("red_7")).status_code == 200
        assert teach.client.post("/api/deck/learn?views=16", headers=AUTH).status_code == 202
        status = wait_learned(teach.client)
        assert status["state"] == "error" and status["in_use"] is False
        assert "cannot read with it" in status["message"] and "face classifier" in status["message"]
        assert status["summary"]["labels_learned"] == 1  # learned and saved all the same


def test_without_a_pipeline_the_deck_is_saved_for_deck(session: MatchSession, detector: Any,
                                                       tmp_path: Path) -> None:
    classifier = fake_classifier(tmp_path / "classifier.onnx")
    with teaching(session, tmp_path / "teach", on_deck=None) as teach:
        teach.teacher.models = lambda: (detector, classifier)
        assert upload(teach.client, "wild", photo("wild")).status_code == 200
        assert teach.client.post("/api/deck/learn?views=16", headers=AUTH).status_code == 202
        status = wait_learned(teach.client)
        assert status["state"] == "ready" and status["live"] is False and status["in_use"] is False
        assert f"--deck {teach.deck_dir / 'deck'}" in status["message"]
    # A server started again on the same folder shows the deck learned before.
    with teaching(session, tmp_path / "teach", on_deck=None) as teach:
        status = teach.client.get("/api/deck").json()
        assert status["state"] == "idle" and status["summary"]["labels"] == ["wild"]
        assert "learned earlier" in status["message"] and status["photos"] == {"wild": 1}


def test_the_deck_folder_is_beside_the_record(tmp_path: Path) -> None:
    assert deck_dir_for(tmp_path / "match.db") == tmp_path / "match-deck"
    assert deck_dir_for(":memory:") is None and deck_dir_for(None) is None
    session = MatchSession(Store(tmp_path / "match.db"), players=3)
    with teaching(session, None) as teach:
        assert upload(teach.client, "red_7", photo("red_7")).status_code == 200
        assert teach.deck_dir == tmp_path / "match-deck"
        assert len(list((tmp_path / "match-deck" / "photos" / "red_7").iterdir())) == 1
    session.store.close()
    memory = MatchSession(Store(":memory:"), players=3)
    with teaching(memory, None) as teach:
        assert upload(teach.client, "red_7", photo("red_7")).status_code == 200
        assert teach.deck_dir.name.startswith("referee-deck-") and (teach.deck_dir / "photos" / "red_7").is_dir()
        shutil.rmtree(teach.deck_dir)


# --- a real browser -------------------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="needs Chromium at /usr/bin/chromium")
def test_a_photo_uploaded_on_the_page_is_counted(session: MatchSession, tmp_path: Path) -> None:
    from tests.web.test_browser import chromium

    card = tmp_path / "red_7.jpg"
    card.write_bytes(photo("red_7"))
    errors: list[str] = []
    with live_server(session, deck_dir=tmp_path / "teach") as live, chromium() as (browser, expect):
        page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(live.url + "/teach#token=" + TOKEN)
        expect(page.locator("#labels .tile")).to_have_count(54)
        expect(page.locator("#deck-name")).to_have_text("· classic UNO deck")
        expect(page.locator('.tile[data-label="yellow_reverse"] .tile-label')).to_have_text("Yellow Reverse")
        assert page.evaluate("location.hash") == ""  # the token left the address bar
        count = page.locator('[data-count="red_7"]')
        expect(count).to_have_text("0 photos")
        page.locator('input[type=file][data-label="red_7"]').set_input_files(str(card))
        expect(count).to_have_text("1 photo")
        expect(page.locator('.tile[data-label="red_7"]')).to_have_class("tile has")
        expect(page.locator("#result")).to_contain_text("Red 7: 1 photo added")
        expect(page.locator("#totals")).to_contain_text("1 photo · 1 of 54 cards photographed")
        # A phone's width: nothing wider than the screen.
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(tmp_path / "teach.png"), full_page=True)
    assert len(list((tmp_path / "teach" / "photos" / "red_7").iterdir())) == 1
    assert errors == []
