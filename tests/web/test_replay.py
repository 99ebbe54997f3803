"""The instant replays' API: an alert's and a play's clip, the play list, and the overlay's cue."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.clips import ClipStore
from referee.session import MatchSession
from referee.web.app import create_app
from tests.web.conftest import AUTH, TOKEN, TestClient

CLIP = b"\x1a\x45\xdf\xa3" + bytes(range(256)) * 40


@pytest.fixture
def clips(tmp_path: Path) -> ClipStore:
    return ClipStore(tmp_path / "clips")


@pytest.fixture
def replay_client(session: MatchSession, clips: ClipStore) -> Iterator[TestClient]:
    with TestClient(create_app(session, token=TOKEN, clips=clips)) as test_client:
        yield test_client


def put(clips: ClipStore, match_id: int, seq: int, data: bytes = CLIP) -> None:
    part = clips.part_path(match_id, seq)
    part.write_bytes(data)
    clips.put(match_id, seq, part)


def test_an_alert_s_clip_is_served_as_webm_with_byte_ranges(
    session: MatchSession, clips: ClipStore, replay_client: TestClient
) -> None:
    event = session.submit_event({"type": "play", "card": "blue_7", "seat": 1})  # illegal on red 5
    assert [o["code"] for o in event["outputs"] if o["type"] == "alert"] == ["illegal_card"]
    seq = event["seq"]
    # The id the dashboard's alert entries carry.
    assert [a["seq"] for a in replay_client.get("/api/state").json()["alerts"]] == [seq]

    missing = replay_client.get(f"/api/alerts/{seq}/clip")  # not written yet
    assert missing.status_code == 404
    assert missing.json() == {"detail": f"no clip for the alert at observation {seq} (match {session.match_id}): "
                                        "none recorded or kept"}
    put(clips, session.match_id, seq)
    response = replay_client.get(f"/api/alerts/{seq}/clip")
    assert response.status_code == 200 and response.content == CLIP
    assert response.headers["content-type"] == "video/webm"
    part = replay_client.get(f"/api/alerts/{seq}/clip", headers={"Range": "bytes=4-9"})
    assert part.status_code == 206 and part.content == CLIP[4:10]
    # The same clip as the play's, and by match.
    assert replay_client.get(f"/api/plays/{seq}/clip?match={session.match_id}").content == CLIP


def test_no_clip_is_a_404_saying_why(session: MatchSession, clips: ClipStore, replay_client: TestClient) -> None:
    start = session.store.observations(session.match_id)[-1].seq  # the start card: no alert
    put(clips, session.match_id, start)
    assert replay_client.get(f"/api/plays/{start}/clip").status_code == 200
    for path, detail in [
        (f"/api/alerts/{start}/clip", f"no alert at observation {start} in match {session.match_id}"),
        ("/api/alerts/999/clip", f"no alert at observation 999 in match {session.match_id}"),
        ("/api/plays/1/clip", f"no play 1 in match {session.match_id}"),  # the setup
        (f"/api/plays/{start}/clip?match=77", f"no play {start} in match 77"),
    ]:
        response = replay_client.get(path)
        assert response.status_code == 404 and response.json() == {"detail": detail}
    assert replay_client.get("/api/alerts/-1/clip").status_code == 422
    assert replay_client.get(f"/api/alerts/{2**63}/clip").status_code == 422


def test_an_in_memory_record_without_clips_says_so(session: MatchSession, client: TestClient) -> None:
    event = session.submit_event({"type": "play", "card": "blue_7", "seat": 1})
    response = client.get(f"/api/alerts/{event['seq']}/clip")
    assert response.status_code == 404 and "no clips are kept" in response.json()["detail"]
    assert client.get("/api/clips").json()["recording"] is False


def test_the_play_list_says_which_plays_have_a_clip(
    session: MatchSession, clips: ClipStore, replay_client: TestClient
) -> None:
    seq = session.submit_event({"type": "play", "card": "red_7", "seat": 1})["seq"]
    put(clips, session.match_id, seq)
    listing = replay_client.get("/api/clips").json()
    assert listing["match_id"] == session.match_id and listing["recording"] is True
    assert [(p["type"], p["card"], p["seat"]) for p in listing["plays"]] == [("start", "red_5", None),
                                                                            ("play", "red_7", 1)]
    assert [p["clip"] for p in listing["plays"]] == [None, f"api/plays/{seq}/clip?match={session.match_id}"]
    assert listing["clips"] == [seq] and listing["bytes"] == len(CLIP) and listing["cap_bytes"] == clips.cap_bytes


def test_a_clip_is_cued_for_the_overlay_by_the_operator(
    session: MatchSession, clips: ClipStore, replay_client: TestClient
) -> None:
    assert replay_client.get("/api/replay/now").json() == {"n": 0, "match_id": None, "seq": None, "url": None}
    assert replay_client.post("/api/replay").status_code == 401  # a control
    none = replay_client.post("/api/replay", headers=AUTH)
    assert none.status_code == 404 and none.json() == {"detail": "no clip yet in this match"}
    alert = session.submit_event({"type": "play", "card": "blue_7", "seat": 1})["seq"]
    put(clips, session.match_id, alert - 1)
    put(clips, session.match_id, alert)
    cued = replay_client.post("/api/replay", headers=AUTH).json()  # the newest
    assert cued == {"n": 1, "match_id": session.match_id, "seq": alert,
                    "url": f"api/alerts/{alert}/clip?match={session.match_id}"}
    assert replay_client.get("/api/replay/now").json() == cued
    older = replay_client.post(f"/api/replay?seq={alert - 1}", headers=AUTH).json()
    assert older["n"] == 2 and older["url"] == f"api/plays/{alert - 1}/clip?match={session.match_id}"
    assert replay_client.post("/api/replay?seq=999", headers=AUTH).status_code == 404
