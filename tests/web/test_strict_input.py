"""Strict request fields: a seat is an integer, sizes stay in range, labels are read lower-case."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.session import MatchSession
from tests.web.conftest import AUTH, TestClient


@pytest.mark.parametrize("seat", ["1", 1.0, True, "one"])
def test_a_seat_must_be_an_integer(client: TestClient, session: MatchSession, seat: Any) -> None:
    before = session.export_log()
    for body in ({"type": "play", "card": "red_7", "seat": seat},
                 {"type": "draw", "seat": seat, "count": 1},
                 {"type": "uno", "seat": seat}):
        response = client.post("/api/observations", json=body, headers=AUTH)
        assert response.status_code == 422, body
        assert "seat" in json.dumps(response.json()["detail"])
    assert session.export_log() == before


@pytest.mark.parametrize(("path", "body"), [
    ("/api/observations", {"type": "draw", "seat": 1, "count": "2"}),
    ("/api/observations", {"type": "draw", "seat": 1, "count": 2.0}),
    ("/api/observations", {"type": "setup", "players": "3"}),
    ("/api/observations", {"type": "play", "card": "red_7", "seat": 1, "t": True}),
    ("/api/setup", {"mode": "round", "players": 3.0}),
    ("/api/setup", {"mode": "round", "players": 3, "dealer": False}),
])
def test_numbers_are_not_read_from_strings_floats_or_booleans(
    client: TestClient, session: MatchSession, path: str, body: dict[str, Any]
) -> None:
    before = session.export_log()
    assert client.post(path, json=body, headers=AUTH).status_code == 422
    assert session.export_log() == before and session.match_id == 1


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/api/setup", {"mode": "round", "players": 3, "hand_size": 10**9}, "hand_size"),
    ("/api/setup", {"mode": "round", "players": 3, "target": 10**21}, "target"),
    ("/api/setup", {"mode": "round", "players": 3, "options": {"hand_size": 10**9}}, "hand_size"),
    ("/api/setup", {"mode": "round", "players": 3, "options": {"hand_size": "1000000000"}},
     "hand_size"),
    ("/api/setup", {"mode": "match", "players": 3, "options": {"target": 10**21}}, "target"),
    ("/api/setup", {"mode": "round", "players": 3, "options": {"uno_penalty": 10**6}},
     "uno_penalty"),
    ("/api/observations", {"type": "setup", "players": 3, "options": {"target": 0}}, "target"),
    ("/api/observations", {"type": "setup", "players": 3, "options": {"hand_size": 31}},
     "hand_size"),
])
def test_sizes_and_targets_stay_in_range(
    client: TestClient, session: MatchSession, path: str, body: dict[str, Any], field: str
) -> None:
    before = session.export_log()
    response = client.post(path, json=body, headers=AUTH)
    assert response.status_code == 422
    assert field in json.dumps(response.json()["detail"])
    assert session.export_log() == before and session.match_id == 1


def test_sizes_and_targets_in_range_are_taken(client: TestClient) -> None:
    body = {"mode": "match", "players": 3, "hand_size": 30,
            "options": {"target": 100_000, "uno_penalty": 4}}
    assert client.post("/api/setup", json=body, headers=AUTH).status_code == 200
    state = client.get("/api/state").json()
    assert state["target"] == 100_000 and state["options"]["uno_penalty"] == 4


@pytest.mark.parametrize(("card", "stored"), [("RED_7", "red_7"), (" Red_Skip ", "red_skip"),
                                              ("WILD", "wild")])
def test_labels_are_lowered_before_they_are_checked(
    client: TestClient, session: MatchSession, card: str, stored: str
) -> None:
    response = client.post("/api/observations", json={"type": "play", "card": card, "seat": 1},
                           headers=AUTH)
    assert response.status_code == 200, response.text
    assert session.export_log()[-1]["card"] == stored
    reveal = {"type": "reveal", "seat": 0, "cards": ["BLUE_1", "Green_Draw2"]}
    assert client.post("/api/observations", json=reveal, headers=AUTH).status_code == 200
    assert session.export_log()[-1]["cards"] == ["blue_1", "green_draw2"]


@pytest.mark.parametrize("color", ["pink", "<script>", "RED!", ""])
def test_a_correction_names_a_real_colour(
    client: TestClient, session: MatchSession, color: str
) -> None:
    before = session.export_log()
    # Right after the start card: the case where the colour went unchecked into the record.
    response = client.post("/api/correct", json={"card": "red_6", "color": color}, headers=AUTH)
    assert response.status_code == 422
    assert "color" in json.dumps(response.json()["detail"])
    assert session.export_log() == before


def test_a_start_card_correction_takes_no_colour_but_a_wild_does(
    client: TestClient, session: MatchSession
) -> None:
    response = client.post("/api/correct", json={"card": "red_6", "color": "blue"}, headers=AUTH)
    assert response.status_code == 400 and "start card takes no colour" in response.json()["detail"]
    assert session.export_log()[-1] == {"type": "start", "card": "red_5"}
    client.post("/api/observations", json={"type": "play", "card": "red_2", "seat": 1},
                headers=AUTH)
    fixed = client.post("/api/correct", json={"card": "Wild", "color": "Blue"}, headers=AUTH)
    assert fixed.status_code == 200, fixed.text
    assert session.export_log()[-1] == {"type": "play", "card": "wild", "seat": 1, "color": "blue"}


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/api/names", b'{"names": ["a\\ud800", "Bob", "Cy"]}', "names"),
    ("/api/setup", b'{"mode": "round", "names": ["Ann", "\\udfff", "Cy"]}', "names"),
    ("/api/setup", b'{"mode": "round", "players": 3, "rules": "\\ud800"}', "rules"),
    ("/api/setup", b'{"mode": "round", "players": 3, "options": {"\\ud800x": "\\udc00"}}', "options"),
    ("/api/observations", b'{"type": "play", "card": "red_\\ud800", "seat": 1}', "card"),
    # The same lone surrogate as raw bytes (ED A0 80: UTF-8's shape for U+D800, which UTF-8 forbids).
    ("/api/observations", b'{"type": "play", "card": "red_\xed\xa0\x80", "seat": 1}', "card"),
    ("/api/observations", b'{"type": "play", "card": "red_7", "seat": 1, "t": "\xed\xa0\x80"}', "t"),
    ("/api/observations", b'{"type": "play", "card": "red_7", "seat": 1, "t": "\\ud800"}', "t"),
    ("/api/correct", b'{"card": "\\ud800"}', "card"),
])
def test_a_lone_surrogate_is_a_422_naming_the_field(
    client: TestClient, session: MatchSession, path: str, body: bytes, field: str
) -> None:
    before = session.export_log()
    response = client.post(path, content=body,
                           headers={**AUTH, "Content-Type": "application/json"})
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert field in json.dumps(detail)
    response.content.decode("utf-8")  # the answer itself is valid UTF-8
    assert session.export_log() == before and session.names == ["Ann", "Bob", "Cy"]
