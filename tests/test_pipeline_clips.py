"""Instant replays end to end: ``referee run`` on short generated footage keeps a clip of its alert beside
the record, the web app serves it, and recording leaves the frames judged as they were."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from referee.clips import ClipRecorder, ClipStore, clips_dir_for
from referee.commands import execute
from referee.pipeline import Pipeline
from referee.session import MatchSession
from referee.store import Store
from referee.vision.calibration import CalibrationProfile
from referee.vision.capture import Capture
from referee.web.app import create_app
from tests.test_pipeline import ColourDetector, H, W, _args, _game
from tests.web.conftest import TestClient


@pytest.fixture(scope="module")
def footage(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("frames")
    for i, image in enumerate(_game()):
        cv2.imwrite(str(folder / f"{i:04d}.png"), image)
    return folder


def test_an_alert_of_a_run_keeps_a_clip_beside_the_record(tmp_path: Path, footage: Path) -> None:
    db = tmp_path / "match.db"
    # The seats where this footage's hands come from (with none, the first plays' seats are the turn's,
    # unsure, and raise no alert): the whole frame's, spread around its edges.
    CalibrationProfile.whole_frame(W, H, 4).save(tmp_path / "table.json")
    args = _args(tmp_path, db=db, calibration=tmp_path / "table.json")
    assert execute(args, str(footage), realtime=False, detector=ColourDetector()) == 0
    with Store(db) as store:
        match_id = store.matches()[-1].id
        alerts = store.alerts(match_id)
        plays = [o.seq for o in store.observations(match_id) if o.observation["type"] in ("start", "play")]
    assert [a["code"] for _, a in alerts] == ["out_of_turn"]
    clips = ClipStore(clips_dir_for(db))  # type: ignore[arg-type]
    # Every card on the pile has its clip, the alert's among them.
    assert sorted(clips.clips(match_id)) == plays and alerts[0][0] in plays
    path = clips.find(match_id, alerts[0][0])
    assert path is not None and path.read_bytes()[:4] == b"\x1a\x45\xdf\xa3"
    video = cv2.VideoCapture(str(path))
    assert video.get(cv2.CAP_PROP_FRAME_COUNT) > 5
    video.release()

    # The dashboard's server, opened on the same record later, serves it.
    with Store(db) as store:
        session = MatchSession(store, match_id=match_id)
        with TestClient(create_app(session, token="t")) as client:
            response = client.get(f"/api/alerts/{alerts[0][0]}/clip")
            assert response.status_code == 200 and response.headers["content-type"] == "video/webm"
            assert response.content == path.read_bytes()


def test_recording_changes_nothing_the_pipeline_judges(tmp_path: Path, footage: Path) -> None:
    results = []
    for record in (False, True):
        session = MatchSession(Store(":memory:"), players=4)
        clips = ClipRecorder(ClipStore(tmp_path / str(record))) if record else None
        if clips is not None:
            session.add_listener(clips.on_event)
        stats = Pipeline(ColourDetector(), session, players=4, replay=clips.ring if clips else None).run(
            Capture(footage))
        if clips is not None:
            clips.close()
            assert clips.written == 2
        results.append((stats.frames, stats.detector_calls, session.export_log()))
    assert results[0] == results[1]
