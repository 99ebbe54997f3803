"""The HTTP API through FastAPI's TestClient: pages, state, controls, token, validation, export."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from referee.rules.replay import replay_lines
from referee.session import MatchSession
from referee.web.app import create_app
from tests.web.conftest import AUTH, TOKEN, TestClient

CONTROLS: list[tuple[str, str, Any]] = [
    ("POST", "/api/observations", {"type": "uno", "seat": 0}),
    ("POST", "/api/undo", None),
    ("POST", "/api/correct", {"card": "red_7"}),
    ("POST", "/api/setup", {"mode": "round", "players": 3}),
    ("POST", "/api/names", {"names": ["A", "B", "C"]}),
    ("GET", "/api/log", None),
]


def test_pages_and_views_are_open(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<img id="live" src="stream.mjpg"' in page.text and 'id="alerts"' in page.text
    overlay = client.get("/overlay")
    assert overlay.status_code == 200 and "static/overlay.js" in overlay.text
    for asset in ("app.css", "overlay.css", "common.js", "dashboard.js", "overlay.js",
                  "placeholder.jpg"):
        response = client.get(f"/static/{asset}")
        assert response.status_code == 200 and response.content, asset
    assert client.get("/static/placeholder.jpg").content[:2] == b"\xff\xd8"
    health = client.get("/healthz").json()
    assert health["ok"] is True and health["match_id"] == 1
    meta = client.get("/api/meta").json()
    assert "official" in meta["presets"] and "wild_draw4" in meta["labels"]


@pytest.mark.parametrize("path", ["/static/../store.py", "/static/..%2F..%2Fstore.py",
                                  "/static/%2e%2e/app.py", "/static/app.py", "/static/",
                                  "/templates/dashboard.html"])
def test_no_request_path_reaches_the_file_system(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_state_is_the_referee_snapshot_with_names(client: TestClient) -> None:
    state = client.get("/api/state").json()
    assert state["top_card"] == "red_5" and state["colour"] == "red" and state["turn"] == 1
    assert state["names"] == ["Ann", "Bob", "Cy"] and state["players"] == 3
    assert state["event_id"] == 2 and state["alerts"] == [] and state["status"] == {}


@pytest.mark.parametrize(("method", "path", "body"), CONTROLS)
@pytest.mark.parametrize("headers", [{}, {"X-Admin-Token": "wrong"},
                                     {"Authorization": "Bearer wrong"},
                                     {"Authorization": TOKEN}])
def test_every_control_needs_the_token(
    client: TestClient, session: MatchSession, method: str, path: str, body: Any,
    headers: dict[str, str],
) -> None:
    before = session.last_event_id
    response = client.request(method, path, json=body, headers=headers)
    assert response.status_code == 401
    assert "admin token required" in response.json()["detail"]
    assert response.headers["www-authenticate"] == "Bearer"
    assert session.last_event_id == before


def test_bearer_and_header_tokens_both_work(client: TestClient) -> None:
    for headers in (AUTH, {"Authorization": f"Bearer {TOKEN}"}):
        response = client.post("/api/observations", json={"type": "uno", "seat": 1},
                               headers=headers)
        assert response.status_code == 200, response.text


def test_a_play_that_breaks_a_rule_comes_back_as_an_alert(client: TestClient) -> None:
    response = client.post("/api/observations", json={"type": "play", "card": "blue_7", "seat": 1},
                           headers=AUTH)
    assert response.status_code == 200
    event = response.json()
    assert event["kind"] == "observation" and event["seq"] == 3 and event["id"] == 3
    [alert] = event["outputs"]
    assert (alert["code"], alert["seat"], alert["penalty_cards"]) == ("illegal_card", 1, 2)
    state = client.get("/api/state").json()
    assert [a["code"] for a in state["alerts"]] == ["illegal_card"]
    assert state["alerts"][0]["seq"] == 3 and state["top_card"] == "blue_7"


@pytest.mark.parametrize(("body", "where"), [
    ({"type": "play", "card": "red_7", "seat": 1, "extra": 1}, "extra"),
    ({"type": "play", "card": "red_7", "seat": "one"}, "seat"),
    ({"type": "play", "card": "red 7!", "seat": 1}, "card"),
    ({"type": "play", "seat": 1}, "card"),
    ({"type": "dance", "seat": 1}, "type"),
    ({"type": "draw", "seat": 1, "count": 0}, "count"),
    ({"type": "setup", "players": 1}, "players"),
    ({"type": "reveal", "seat": 1, "cards": "red_7"}, "cards"),
    ([1, 2], ""),
])
def test_malformed_observations_get_a_clear_422_and_nothing_is_recorded(
    client: TestClient, session: MatchSession, body: Any, where: str
) -> None:
    before = session.export_log()
    response = client.post("/api/observations", json=body, headers=AUTH)
    assert response.status_code == 422
    assert where in json.dumps(response.json()["detail"])
    assert session.export_log() == before


@pytest.mark.parametrize(("body", "message"), [
    ({"type": "play", "card": "purple_7", "seat": 1}, "unknown colour"),
    ({"type": "play", "card": "red_7", "seat": 5}, "seat out of range"),
    ({"type": "color", "color": "pink", "seat": 1}, "unknown colour"),
])
def test_the_referee_refuses_bad_input_with_a_400(
    client: TestClient, session: MatchSession, body: dict[str, Any], message: str
) -> None:
    before = session.snapshot()
    response = client.post("/api/observations", json=body, headers=AUTH)
    assert response.status_code == 400
    assert response.json()["detail"].startswith("observation rejected:")
    assert message in response.json()["detail"]
    assert session.snapshot() == before


def test_source_query_is_validated(client: TestClient, session: MatchSession) -> None:
    ok = client.post("/api/observations?source=hotkey", json={"type": "uno", "seat": 1},
                     headers=AUTH)
    assert ok.status_code == 200
    assert session.store.observations(session.match_id)[-1].source == "hotkey"
    bad = client.post("/api/observations?source=../etc", json={"type": "uno", "seat": 1},
                      headers=AUTH)
    assert bad.status_code == 422


def test_undo_and_correct(client: TestClient) -> None:
    client.post("/api/observations", json={"type": "play", "card": "blue_7", "seat": 1},
                headers=AUTH)
    corrected = client.post("/api/correct", json={"card": "red_7"}, headers=AUTH)
    assert corrected.status_code == 200 and corrected.json()["outputs"] == []
    state = client.get("/api/state").json()
    assert state["top_card"] == "red_7" and state["alerts"] == []
    assert client.post("/api/undo", headers=AUTH).status_code == 200
    assert client.get("/api/state").json()["top_card"] == "red_5"
    assert client.post("/api/undo", headers=AUTH).status_code == 200
    nothing = client.post("/api/undo", headers=AUTH)
    assert nothing.status_code == 409 and "nothing to undo" in nothing.json()["detail"]
    not_a_play = client.post("/api/correct", json={"card": "red_7"}, headers=AUTH)
    assert not_a_play.status_code == 400 and "not a play" in not_a_play.json()["detail"]


def test_setup_starts_a_match_or_a_round(client: TestClient, session: MatchSession) -> None:
    body = {"mode": "match", "names": ["W", "X", "Y", "Z"], "dealer": 2, "rules": "nl",
            "target": 250, "options": {"stack_draw2": True}}
    assert client.post("/api/setup", json=body, headers=AUTH).status_code == 200
    state = client.get("/api/state").json()
    assert state["match_id"] == 2 and state["names"] == ["W", "X", "Y", "Z"]
    assert (state["preset"], state["dealer"], state["target"]) == ("nl", 2, 250)
    assert state["options"]["stack_draw2"] is True
    assert session.store.match(1).finished
    nxt = client.post("/api/setup", json={"mode": "round", "players": 4, "dealer": 3},
                      headers=AUTH)
    assert nxt.status_code == 200
    state = client.get("/api/state").json()
    assert state["match_id"] == 2 and len(state["rounds"]) == 2 and state["dealer"] == 3


@pytest.mark.parametrize(("body", "status", "message"), [
    ({"names": ["A", "B"], "players": 3}, 422, "2 names for 3 players"),
    ({"players": 3, "dealer": 3}, 422, "dealer seat 3 out of range"),
    ({"players": 3, "rules": "klingon"}, 400, "klingon"),
    ({"players": 3, "surprise": True}, 422, "surprise"),
    ({"mode": "tournament", "players": 3}, 422, "mode"),
])
def test_bad_setups_are_refused_and_the_match_goes_on(
    client: TestClient, session: MatchSession, body: dict[str, Any], status: int, message: str
) -> None:
    response = client.post("/api/setup", json=body, headers=AUTH)
    assert response.status_code == status
    assert message in json.dumps(response.json()["detail"])
    assert session.match_id == 1 and not session.store.match(1).finished


def test_names(client: TestClient) -> None:
    assert client.post("/api/names", json={"names": ["Xi", "Yo", "Zed"]},
                       headers=AUTH).status_code == 200
    assert client.get("/api/state").json()["names"] == ["Xi", "Yo", "Zed"]
    assert client.post("/api/names", json={"names": []}, headers=AUTH).status_code == 422


def test_exported_log_replays_to_the_same_verdicts(client: TestClient) -> None:
    plays = [
        {"type": "play", "card": "red_9", "seat": 1},
        {"type": "play", "card": "blue_9", "seat": 2},
        {"type": "play", "card": "green_2", "seat": 0},  # illegal: blue 9 on top
        {"type": "play", "card": "wild", "seat": 2},  # out of turn
        {"type": "color", "color": "yellow", "seat": 2},
        {"type": "draw", "seat": 0, "count": 2},
    ]
    outputs: list[dict[str, Any]] = []
    for obs in plays:
        response = client.post("/api/observations", json=obs, headers=AUTH)
        assert response.status_code == 200, response.text
        outputs.extend(response.json()["outputs"])
    assert {o["code"] for o in outputs if o["type"] == "alert"} >= {"illegal_card", "out_of_turn"}
    exported = client.get("/api/log", headers=AUTH)
    assert exported.headers["content-type"] == "application/x-ndjson"
    assert "match-1.jsonl" in exported.headers["content-disposition"]
    lines = exported.text.splitlines()
    assert [json.loads(line) for line in lines[2:]] == plays
    out = io.StringIO()
    assert replay_lines(lines, out) == 0
    assert [json.loads(line) for line in out.getvalue().splitlines()] == outputs


def test_a_random_token_is_made_when_none_is_given(session: MatchSession) -> None:
    app = create_app(session)
    token = app.state.token
    assert isinstance(token, str) and len(token) >= 16
    with TestClient(app) as test_client:
        assert test_client.post("/api/undo").status_code == 401
        assert test_client.post("/api/undo", headers={"X-Admin-Token": token}).status_code == 200


def test_only_the_dashboard_refuses_foreign_frames(client: TestClient) -> None:
    dashboard = client.get("/")
    assert dashboard.headers["content-security-policy"] == "frame-ancestors 'self'"
    assert dashboard.headers["x-frame-options"] == "SAMEORIGIN"
    overlay = client.get("/overlay")  # OBS and other pages embed it
    assert overlay.status_code == 200
    assert "content-security-policy" not in overlay.headers
    assert "x-frame-options" not in overlay.headers
