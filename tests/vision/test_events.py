"""The tracker's typed events and the dicts they stand for: same keys, same order, same values."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError, replace

import numpy as np
import pytest

from referee import contract
from referee.cards import Card
from referee.rules import parse_observation
from referee.vision.detections import Detections
from referee.vision.tracking import (
    Draw,
    PileTracker,
    Play,
    Reread,
    Start,
    TakeBack,
    TrackerConfig,
    TrackerEvent,
    noted,
)


def _line(event: TrackerEvent) -> str:
    """As the observation log writes it (``LogWriter``): key order counts."""
    return json.dumps(event.as_dict(), separators=(",", ":"), sort_keys=False)


def test_a_start_or_play_believed_carries_its_correction_alternatives_frame_and_confidence_in_order() -> None:
    assert _line(Start("red_5", 0.2, 8, confidence=0.9)) == (
        '{"type":"start","card":"red_5","t":0.2,"frame_index":8,"confidence":0.9}')
    play = Play("red_9", 1, 1.5, 50, corrected_from="red_6", reason="read closer up",
                alternatives=("red_6", "yellow_9"), confidence=0.812)
    assert _line(play) == (
        '{"type":"play","card":"red_9","seat":1,"t":1.5,"corrected_from":"red_6","reason":"read closer up",'
        '"alternatives":["red_6","yellow_9"],"frame_index":50,"confidence":0.812}')
    # No seat known: ``null``, as before; no alternatives: no key.
    assert _line(Play("wild", None, 2.0, 60, confidence=0.5)) == (
        '{"type":"play","card":"wild","seat":null,"t":2.0,"frame_index":60,"confidence":0.5}')


def test_a_play_inferred_from_a_take_back_gives_its_reason_after_the_frame() -> None:
    play = Play("blue_4", 2, 3.0, 90, reason="laid square on its twin's pose over the top card")
    assert _line(play) == (
        '{"type":"play","card":"blue_4","seat":2,"t":3.0,"frame_index":90,'
        '"reason":"laid square on its twin\'s pose over the top card"}')


def test_draws_take_backs_and_rereads() -> None:
    draw = Draw(3, 0.4, 11)
    assert _line(draw) == '{"type":"draw","seat":3,"count":1,"t":0.4,"frame_index":11}'
    # A draw believed later keeps when it was drawn.
    assert noted(draw, frame_index=20).as_dict() == {"type": "draw", "seat": 3, "count": 1, "t": 0.4,
                                                        "frame_index": 20}
    assert _line(TakeBack("red_9", None, 1.0, 30)) == (
        '{"type":"take_back","card":"red_9","seat":null,"t":1.0,"frame_index":30}')
    assert _line(Reread("red_9", "red_6", 2, 1.2, 36)) == (
        '{"type":"reread","card":"red_9","was":"red_6","seat":2,"t":1.2,"frame_index":36}')


def test_unsure_is_a_field_written_last() -> None:
    """The pipeline says why the camera is unsure as a field of the event; the log has it as the last key."""
    play = noted(Play("red_9", 1, 1.5, 50, alternatives=("red_6",), confidence=0.8), unsure="falling behind")
    assert _line(play) == (
        '{"type":"play","card":"red_9","seat":1,"t":1.5,"alternatives":["red_6"],"frame_index":50,'
        '"confidence":0.8,"unsure":"falling behind"}')
    assert _line(noted(Start("red_5", 0.2, 8), unsure="seats a guess")) == (
        '{"type":"start","card":"red_5","t":0.2,"frame_index":8,"unsure":"seats a guess"}')
    assert _line(noted(Draw(None, 0.4, 11), unsure="seats a guess")) == (
        '{"type":"draw","seat":null,"count":1,"t":0.4,"frame_index":11,"unsure":"seats a guess"}')


def test_the_notes_are_read_back_from_the_record() -> None:
    """What the log holds of an event parses back to its typed observation, notes and all (a later fix by
    seat reads the alternatives so)."""
    play = Play("red_9", 1, 1.5, 50, alternatives=("red_6", "yellow_9"))
    assert parse_observation(json.loads(_line(play))) == play.observation()
    assert play.observation().camera == contract.CameraNotes(50, alternatives=("red_6", "yellow_9"))


def test_events_are_frozen() -> None:
    with pytest.raises(FrozenInstanceError):
        Draw(0, 0.0, 0).seat = 1  # type: ignore[misc]


def test_the_tracker_emits_typed_events() -> None:
    tracker = PileTracker(TrackerConfig(fps=10, settle_s=0.4, drop_s=0.3, takeback_s=1.0))
    seen = Detections(np.array([(200, 150, 300, 300)], np.float32), np.array([0.9], np.float32),
                      np.zeros(1, np.int64), ("red_5",), np.array([0.95], np.float32))
    got: list[TrackerEvent] = []
    for i in range(8):
        got += tracker.update(seen if i >= 4 else Detections.empty(), i / 30, i)
    assert got == [Start("red_5", 4 / 30, 7, confidence=0.9)]


def test_an_observation_is_handed_on_typed_and_its_json_is_the_events_dict() -> None:
    """Start, play and draw give the typed contract value the session is handed (the camera's additions its
    notes); its JSON is the event's dict, key for key in order."""
    play = noted(Play("red_9", 1, 1.5, 50, corrected_from="red_6", reason="read closer up",
                      alternatives=("red_6",), confidence=0.8), unsure="falling behind")
    typed = play.observation()
    assert typed == contract.Play(Card.from_label("red_9"), 1, t=1.5, camera=contract.CameraNotes(
        50, "red_6", "read closer up", ("red_6",), 0.8, "falling behind"))
    for event in (play, Start("red_5", 0.2, 8, confidence=0.9), Draw(None, 0.4, 11, unsure="seats a guess")):
        assert json.dumps(contract.observation_json(event.observation())) == json.dumps(event.as_dict())
    assert Draw(2, 0.4, 11).observation() == contract.Draw(2, 1, 0.4, contract.CameraNotes(11))


def test_an_observed_event_holds_the_cameras_notes_as_one_value() -> None:
    """The notes given flat (as the tracker makes an event) are its ``camera``; a change of seat keeps them,
    and they may be given whole instead, but not both ways at once."""
    play = Play("red_9", 1, 1.5, 50, corrected_from="red_6", reason="read closer up", confidence=0.8)
    assert play.camera == contract.CameraNotes(50, "red_6", "read closer up", (), 0.8)
    assert replace(play, seat=2) == Play("red_9", 2, 1.5, camera=play.camera)
    assert replace(play, seat=2).as_dict() == {**play.as_dict(), "seat": 2}
    assert Draw(None, 0.4, 11, 2).camera == contract.CameraNotes(11) and Draw(None, 0.4, 11, 2).count == 2
    assert noted(play, unsure="seats a guess").camera.unsure == "seats a guess"
    assert noted(play) == play
    with pytest.raises(TypeError):
        Play("red_9", 1, 1.5)
    with pytest.raises(TypeError):
        Play("red_9", 1, 1.5, 50, camera=play.camera)
    with pytest.raises(TypeError):
        Start("red_5", 0.2, confidence=0.9, camera=contract.CameraNotes(8))
