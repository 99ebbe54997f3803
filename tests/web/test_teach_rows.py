"""/teach from photos of the deck laid out in rows (real models on generated photos): the cards of a layout
photo are found and labelled, a tap sets a label, "use" cuts them into the deck's photo folders; in Chromium
the tiles show each card with its proposed label and a tap picks another."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from referee.session import MatchSession
from referee.vision.classify import DEFAULT_CLASSIFIER
from referee.web.app import create_app
from referee.web.teach import DECK_PHOTO_PATH
from tests.vision.test_deck import _photo
from tests.web.conftest import TOKEN, TestClient, live_server
from tests.web.test_browser import CHROMIUM, chromium

pytestmark = pytest.mark.skipif(not DEFAULT_CLASSIFIER.is_file(), reason="no shipped classifier")

AUTH = {"X-Admin-Token": TOKEN}
ROW = ["red_6", "blue_draw2", "wild"]


def layout_photo(labels: list[str] = ROW, seed: int = 30) -> bytes:
    """A row of cards on a table, as a phone photographs the deck laid out."""
    ok, data = cv2.imencode(".jpg", np.hstack([_photo(label, seed + i) for i, label in enumerate(labels)]))
    assert ok
    return bytes(data)


def post_layout(client: TestClient, data: bytes) -> Any:
    return client.post(DECK_PHOTO_PATH, params={"layout": "true"}, headers=AUTH,
                       files={"image": ("rows.jpg", data, "image/jpeg")})


def test_cards_in_rows_are_found_labelled_set_and_used(session: MatchSession, tmp_path: Path) -> None:
    with TestClient(create_app(session, token=TOKEN, deck_dir=tmp_path / "teach")) as client:
        got = post_layout(client, layout_photo())
        assert got.status_code == 200, got.text
        listing = got.json()
        assert len(listing["photos"]) == 1 and [c["card"] for c in listing["cards"]] == [1, 2, 3]
        assert len({c["label"] for c in listing["cards"]}) == 3
        assert client.get("/api/deck/rows").json() == listing
        photo = listing["photos"][0]
        image = client.get("/api/deck/rows/photo", params={"name": photo})
        assert image.status_code == 200 and image.headers["content-type"] == "image/jpeg"
        assert client.get("/api/deck/rows/photo", params={"name": "nope.jpg"}).status_code == 404

        # A tap: the player's label, kept when a photo added later makes the referee propose again.
        for card, label in enumerate(ROW, 1):
            put = client.put("/api/deck/rows/label", params={"photo": photo, "card": card, "label": label},
                             headers=AUTH)
            assert put.status_code == 200 and put.json()["label"] == label and put.json()["set"]
        assert client.put("/api/deck/rows/label", params={"photo": photo, "card": 1, "label": "orange_7"},
                          headers=AUTH).status_code == 422  # not a card of this game's deck
        assert client.put("/api/deck/rows/label", params={"photo": photo, "card": 9, "label": "red_7"},
                          headers=AUTH).status_code == 404
        assert client.put("/api/deck/rows/label", params={"photo": photo, "card": 1, "label": "red_7"}
                          ).status_code == 401  # a control: the admin token
        again = post_layout(client, layout_photo(["green_3", "yellow_reverse"], seed=50)).json()
        assert len(again["photos"]) == 2 and len(again["cards"]) == 5
        assert [c["label"] for c in again["cards"] if c["photo"] == photo] == ROW

        used = client.post("/api/deck/rows/use", headers=AUTH)
        assert used.status_code == 200 and used.json()["cards"] == 5
        counts = client.get("/api/deck").json()["photos"]
        assert {label: counts[label] for label in ROW} == dict.fromkeys(ROW, 1)
        assert client.post("/api/deck/rows/use", headers=AUTH).json()["cards"] == 5  # replaces, never doubles
        assert client.get("/api/deck").json()["photos"]["red_6"] == 1

        assert client.delete("/api/deck/rows/photos", headers=AUTH).json() == {"removed": 2}
        assert client.get("/api/deck/rows").json()["cards"] == []
        assert client.post("/api/deck/rows/use", headers=AUTH).status_code == 422
        assert client.post(DECK_PHOTO_PATH, headers=AUTH, content=b"x").status_code == 422  # no label, no layout


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_a_tap_on_a_card_of_the_rows_picks_its_label(session: MatchSession, tmp_path: Path) -> None:
    rows = tmp_path / "rows.jpg"
    rows.write_bytes(layout_photo())
    errors: list[str] = []
    with live_server(session, deck_dir=tmp_path / "teach") as live, chromium() as (browser, expect):
        page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(live.url + "/teach?lang=nl#token=" + TOKEN)
        expect(page.locator("#labels .tile")).to_have_count(54)
        expect(page.locator("#rows-actions")).to_be_hidden()  # nothing to learn from yet
        page.locator("#rows-input").set_input_files(str(rows))
        tiles = page.locator("#rows-cards .tile")
        expect(tiles).to_have_count(3)
        expect(page.locator("#rows-totals")).to_contain_text("3 kaarten gevonden in 1 foto")
        first = tiles.first
        first.locator(".tile-pick").click()
        first.locator("select").select_option("green_9")
        expect(tiles.first).to_have_attribute("data-label", "green_9")
        expect(tiles.first.locator(".tile-label")).to_have_text("Groen 9")
        expect(page.locator("#rows-actions")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert errors == []
