"""Calibration by clicking (/calibrate): the raw frame, the clicks checked, saved atomically and applied live."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from referee.session import MatchSession
from referee.vision.calibration import CalibrationProfile, Quad
from referee.vision.recalibration import suggest_pile_zone
from referee.web.app import create_app
from referee.web.calibrate import CALIBRATION_PATH, calibration_file_for
from tests.web.conftest import AUTH, TestClient

W, H = 320, 240
PILE = [[80.0, 40.0], [240.0, 50.0], [250.0, 200.0], [70.0, 190.0]]  # clockwise from top-left
STOCK = [[10.0, 10.0], [60.0, 10.0], [60.0, 50.0], [10.0, 50.0]]
SEATS = [[160.0, 235.0], [5.0, 120.0], [315.0, 120.0]]  # Player 1 at the bottom, then clockwise


class FakeTable:
    """A live pipeline double: a grey camera frame, the profile in use, the profiles it was given."""

    players = 3

    def __init__(self, width: int = W, height: int = H) -> None:
        self.image: npt.NDArray[np.uint8] | None = np.full((height, width, 3), 120, np.uint8)
        self.profile: CalibrationProfile | None = CalibrationProfile.whole_frame(width, height, self.players)
        self.given: list[CalibrationProfile] = []
        self.landed: list[Quad] = []

    def set_profile(self, profile: CalibrationProfile) -> None:
        self.given.append(profile)
        self.profile = profile

    def current_profile(self) -> CalibrationProfile | None:
        return self.profile

    def camera_frame(self) -> npt.NDArray[np.uint8] | None:
        return self.image

    def landed_cards(self, image_size: tuple[int, int]) -> list[Quad]:
        return list(self.landed)


@pytest.fixture
def table() -> FakeTable:
    return FakeTable()


@pytest.fixture
def calibration_file(tmp_path: Path) -> Path:
    return tmp_path / "calibration" / "table.json"


@pytest.fixture
def cal(session: MatchSession, table: FakeTable, calibration_file: Path) -> Iterator[TestClient]:
    with TestClient(create_app(session, token="test-token-123", table=table,
                               calibration_file=calibration_file)) as test_client:
        yield test_client


def body(**changes: Any) -> dict[str, Any]:
    return {"image_size": [W, H], "pile": PILE, "stock": STOCK, "seats": SEATS, **changes}


def test_the_page_and_its_state_show_the_frame_as_it_comes(cal: TestClient, calibration_file: Path) -> None:
    page = cal.get("/calibrate")
    assert page.status_code == 200 and 'src="static/calibrate.js"' in page.text
    assert cal.get("/static/calibrate.js").status_code == 200
    assert cal.get("/static/calibrate.css").status_code == 200
    state = cal.get("/api/calibration").json()
    assert state["live"] is True and state["frame"] == {"width": W, "height": H} and state["players"] == 3
    assert state["profile"]["whole_frame"] is True and state["profile"]["method"] == "whole_frame"
    assert state["file"] == str(calibration_file) and state["saved"] is False
    assert state["suggested_pile"] is None and state["landed"] == 0
    frame = cal.get("/api/calibration/frame.jpg")
    assert frame.status_code == 200 and frame.headers["content-type"] == "image/jpeg"
    image = cv2.imdecode(np.frombuffer(frame.content, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (H, W, 3)  # the camera's own pixels: the page's clicks are in these


def test_saving_needs_the_admin_token(cal: TestClient, table: FakeTable, calibration_file: Path) -> None:
    assert cal.put(CALIBRATION_PATH, json=body()).status_code == 401
    assert cal.put(CALIBRATION_PATH, json=body(), headers={"X-Admin-Token": "wrong"}).status_code == 401
    assert not calibration_file.exists() and table.given == []


def test_clicks_are_saved_to_the_file_and_applied_live(cal: TestClient, table: FakeTable,
                                                       calibration_file: Path) -> None:
    shuffled = [PILE[2], PILE[0], PILE[3], PILE[1]]  # corners in any order
    response = cal.put(CALIBRATION_PATH, json=body(pile=shuffled), headers=AUTH)
    assert response.status_code == 200, response.text
    out = response.json()
    assert out["file"] == str(calibration_file) and out["applied"] is True and out["warnings"] == []
    assert out["command"] == f"referee run --calibration {calibration_file}"
    saved = CalibrationProfile.load(calibration_file)
    assert [list(p) for p in saved.pile] == PILE  # clockwise from top-left, as a profile keeps them
    assert saved.stock is not None and [list(p) for p in saved.stock] == STOCK
    assert [list(p) for p in saved.seats] == SEATS
    assert saved.image_size == (W, H) and saved.method == "clicked"
    assert table.given == [saved]  # handed to the pipeline as saved
    state = cal.get("/api/calibration").json()
    assert state["saved"] is True and state["profile"]["pile"] == PILE and state["profile"]["method"] == "clicked"
    # No partial file is left beside it.
    assert sorted(p.name for p in calibration_file.parent.iterdir()) == ["table.json"]


def test_without_seats_they_are_spread_and_without_stock_there_is_none(cal: TestClient, table: FakeTable,
                                                                       calibration_file: Path) -> None:
    response = cal.put(CALIBRATION_PATH, json={"image_size": [W, H], "pile": PILE}, headers=AUTH)
    assert response.status_code == 200, response.text
    saved = CalibrationProfile.load(calibration_file)
    assert saved.stock is None and saved.players == 3


def test_the_white_balance_in_use_is_kept(cal: TestClient, table: FakeTable, calibration_file: Path) -> None:
    assert table.profile is not None
    table.profile = CalibrationProfile(table.profile.image_size, table.profile.pile, table.profile.seats,
                                       white_balance=(1.1, 1.0, 0.9), method="aruco")
    assert cal.put(CALIBRATION_PATH, json=body(), headers=AUTH).status_code == 200
    assert CalibrationProfile.load(calibration_file).white_balance == (1.1, 1.0, 0.9)


@pytest.mark.parametrize(("change", "says"), [
    ({"pile": [[80.0, 40.0], [240.0, 50.0], [250.0, 200.0], [70.0, 290.0]]},
     "pile corner 4 (70, 290) lies outside the 320x240 frame"),
    ({"pile": [[80.0, 40.0], [240.0, 40.0], [160.0, 60.0], [160.0, 200.0]]}, "do not make a convex quadrilateral"),
    ({"pile": [[100.0, 100.0], [110.0, 100.0], [110.0, 110.0], [100.0, 115.0]]}, "has a side of"),
    ({"pile": [[100.0, 100.0], [130.0, 100.0], [130.0, 120.0], [100.0, 120.0]]}, "covers 0.8% of the frame: too small"),
    ({"pile": [[100.0, 100.0], [100.0, 100.0], [100.0, 100.0], [100.0, 100.0]]}, "lie on one spot or one line"),
    ({"stock": [[300.0, 200.0], [330.0, 200.0], [330.0, 230.0], [300.0, 230.0]]}, "stock corner 2"),
    ({"seats": SEATS[:2]}, "click where each of the 3 players sits (2 clicked)"),
    ({"seats": [SEATS[0], SEATS[0], SEATS[2]]}, "Player 1 and Player 2 sit at the same spot"),
    ({"seats": [SEATS[0], SEATS[1], [400.0, 10.0]]}, "Player 3's seat (400, 10) lies outside"),
    ({"image_size": [640, 480]}, "the clicks are in a 640x480 frame, the camera gives 320x240: reload the page"),
])
def test_bad_clicks_are_a_422_saying_what_to_fix(cal: TestClient, table: FakeTable, calibration_file: Path,
                                                  change: dict[str, Any], says: str) -> None:
    response = cal.put(CALIBRATION_PATH, json=body(**change), headers=AUTH)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and says in detail, detail
    assert not calibration_file.exists() and table.given == []


@pytest.mark.parametrize("bad", [
    {"pile": PILE[:3]},                               # three corners
    {"pile": [[1, 2, 3], *PILE[1:]]},                 # a point of three numbers
    {"pile": [["80", 40.0], *PILE[1:]]},              # a string is no number
    {"image_size": [W, H, 3]},
    {"stock": [[0.0, 0.0]]},
    {"seats": [[1.0, 1.0]] * 11},                     # more seats than any table has
    {"corners": PILE},                                # an unknown field
])
def test_malformed_bodies_are_refused_by_the_strict_model(cal: TestClient, calibration_file: Path,
                                                          bad: dict[str, Any]) -> None:
    response = cal.put(CALIBRATION_PATH, json=body(**bad), headers=AUTH)
    assert response.status_code == 422, response.text
    assert not calibration_file.exists()


def test_non_finite_numbers_are_refused(cal: TestClient, calibration_file: Path) -> None:
    raw = json.dumps(body()).replace("80.0", "NaN", 1)
    response = cal.put(CALIBRATION_PATH, content=raw, headers={**AUTH, "Content-Type": "application/json"})
    assert response.status_code == 422 and not calibration_file.exists()


def test_seats_clicked_the_wrong_way_round_are_saved_with_a_warning(cal: TestClient) -> None:
    response = cal.put(CALIBRATION_PATH, json=body(seats=[SEATS[0], SEATS[2], SEATS[1]]), headers=AUTH)
    assert response.status_code == 200
    assert "do not go clockwise" in response.json()["warnings"][0]


def test_a_save_replaces_the_file_whole_or_not_at_all(cal: TestClient, table: FakeTable, calibration_file: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    assert cal.put(CALIBRATION_PATH, json=body(), headers=AUTH).status_code == 200
    before = calibration_file.read_bytes()

    def failing(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing)
    response = cal.put(CALIBRATION_PATH, json=body(stock=None), headers=AUTH)
    assert response.status_code == 503
    assert "No space left on device" in response.json()["detail"]
    assert calibration_file.read_bytes() == before  # the old profile, whole
    assert sorted(p.name for p in calibration_file.parent.iterdir()) == ["table.json"]  # no partial file
    assert len(table.given) == 1  # what was not saved is not applied either


def test_a_suggested_pile_zone_from_where_cards_landed(cal: TestClient, table: FakeTable) -> None:
    table.landed = [((100.0, 80.0), (140.0, 80.0), (140.0, 140.0), (100.0, 140.0)),
                    ((150.0, 90.0), (190.0, 90.0), (190.0, 150.0), (150.0, 150.0))]
    state = cal.get("/api/calibration").json()
    assert state["landed"] == 2 and state["suggested_pile"] is None  # two cards tell little of the spread
    table.landed.append(((120.0, 100.0), (160.0, 100.0), (160.0, 160.0), (120.0, 160.0)))
    state = cal.get("/api/calibration").json()
    suggested = state["suggested_pile"]
    assert state["landed"] == 3 and suggested is not None
    xs, ys = [p[0] for p in suggested], [p[1] for p in suggested]
    # Around every landed card, with room (0.75 of a 60 px card each side), inside the frame.
    assert min(xs) == pytest.approx(55, abs=1) and max(xs) == pytest.approx(235, abs=1)
    assert min(ys) == pytest.approx(35, abs=1) and max(ys) == pytest.approx(205, abs=1)
    # Adopted as it is, it saves.
    assert cal.put(CALIBRATION_PATH, json=body(pile=suggested), headers=AUTH).status_code == 200


def test_a_suggestion_near_the_edge_stays_inside_the_frame() -> None:
    landed: list[Quad] = [((5.0, 5.0), (45.0, 5.0), (45.0, 65.0), (5.0, 65.0))] * 3
    quad = suggest_pile_zone(landed, (W, H))
    assert quad is not None
    assert all(0 <= x <= W and 0 <= y <= H for x, y in quad)
    assert quad[0] == (0.0, 0.0)


def test_without_a_pipeline_the_page_saves_the_file_for_the_next_run(session: MatchSession, tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    with TestClient(create_app(session, token="test-token-123", calibration_file=path)) as client:
        state = client.get("/api/calibration").json()
        assert state["live"] is False and state["frame"] is None and state["profile"] is None
        assert client.get("/api/calibration/frame.jpg").status_code == 404
        response = client.put(CALIBRATION_PATH, json=body(), headers=AUTH)
        assert response.status_code == 200 and response.json()["applied"] is False
        assert client.get("/api/calibration").json()["profile"]["pile"] == PILE  # read back from the file
    assert CalibrationProfile.load(path).method == "clicked"


def test_the_file_defaults_to_beside_the_record(tmp_path: Path) -> None:
    assert calibration_file_for(tmp_path / "referee.db") == tmp_path / "referee-calibration.json"
    assert calibration_file_for(":memory:") is None and calibration_file_for(None) is None


def test_a_run_saves_to_its_calibration_file_else_to_calibration_table_json(tmp_path: Path) -> None:
    from argparse import Namespace

    from referee.commands import DEFAULT_CALIBRATION, calibration_file

    assert Path("calibration/table.json") == DEFAULT_CALIBRATION
    assert calibration_file(Namespace(calibration=None)) == DEFAULT_CALIBRATION
    assert calibration_file(Namespace(calibration=tmp_path / "t.json")) == tmp_path / "t.json"
    # The demo loads its own rendered profile and saves clicks beside the others, not over it.
    demo = Namespace(calibration=tmp_path / "demo.calibration.json", calibration_out=DEFAULT_CALIBRATION)
    assert calibration_file(demo) == DEFAULT_CALIBRATION
