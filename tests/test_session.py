"""The match session: judge, record, then broadcast; resume, undo, correct, export and replay."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from referee.contract import Observation, OutputLine
from referee.rules import ObservationError, Referee
from referee.rules.replay import replay_file
from referee.rules.simulate import simulate_game
from referee.session import Event, MatchSession
from referee.store import Store
from tests.rules.helpers import alert


def _direct_outputs(observations: list[dict[str, Any]]) -> list[OutputLine]:
    referee = Referee()
    return [line for obs in observations for line in referee.observe(obs)]


@pytest.fixture(scope="module")
def game() -> list[dict[str, Any]]:
    """A whole simulated match (several rounds) with one injected misplay."""
    simulated = simulate_game(5, "official", 3, inject="illegal_card")
    assert simulated.expected_alerts, "the simulated match must hold an alert to judge"
    return simulated.log()


def test_a_whole_match_is_judged_recorded_and_replays_to_the_same_verdicts(
    game: list[dict[str, Any]], tmp_path: Path
) -> None:
    store = Store(tmp_path / "match.db", synchronous="OFF")
    setup, *rest = game
    session = MatchSession(store, rules=setup["rules"], players=setup["players"],
                           dealer=setup["dealer"], options=setup["options"])
    # The session wrote its own setup; the match's own setup line starts the (same) first round.
    outputs = [line for obs in rest for line in session.submit(obs)]
    expected = _direct_outputs(game)
    assert outputs == expected
    assert any(line["type"] == "alert" for line in outputs)
    assert any(line["type"] == "match_end" for line in outputs)
    assert store.match(session.match_id).finished

    log_path = tmp_path / "export.jsonl"
    log_path.write_text("".join(json.dumps(o) + "\n" for o in session.export_log()))
    out = io.StringIO()
    assert replay_file(log_path, out) == 0
    replayed = [json.loads(line) for line in out.getvalue().splitlines()]
    setup_outputs = _direct_outputs([session.export_log()[0]])
    assert replayed == setup_outputs + outputs

    snapshot = session.snapshot()
    rounds = snapshot["rounds"]
    assert len(rounds) == sum(1 for o in game if o["type"] == "setup")
    scored = [r for r in rounds if r["scores"] is not None]
    assert scored and scored[-1]["scores"] == snapshot["scores"]
    assert store.rounds(session.match_id) == rounds


def test_the_cli_replays_an_exported_log(tmp_path: Path) -> None:
    session = MatchSession(Store(":memory:"), players=3)
    session.submit({"type": "start", "card": "red_5"})
    alerts = session.submit({"type": "play", "card": "blue_7", "seat": 1, "t": 1.5})
    log_path = tmp_path / "match.jsonl"
    log_path.write_text("".join(json.dumps(o) + "\n" for o in session.export_log()))
    done = subprocess.run([sys.executable, "-m", "referee.cli", "replay", str(log_path)],
                          capture_output=True, text=True, timeout=60, check=True)
    assert [json.loads(line) for line in done.stdout.splitlines()] == alerts
    assert alert(alerts[0])["code"] == "illegal_card"


def test_restart_resumes_the_same_match_with_nothing_lost(
    game: list[dict[str, Any]], tmp_path: Path
) -> None:
    path = tmp_path / "resume.db"
    setup = game[0]
    first = MatchSession(Store(path), rules=setup["rules"], players=setup["players"],
                         dealer=setup["dealer"])
    before_outputs = [line for obs in game[1:60] for line in first.submit(obs)]
    before = first.snapshot()
    last_event = first.last_event_id
    first.store.close()

    again = MatchSession(Store(path), players=9, rules="lb")  # arguments only for a new match
    after = again.snapshot()
    assert again.match_id == first.match_id
    for key in ("turn", "top_card", "colour", "hand_counts", "scores", "alerts", "rounds", "seq",
                "event_id", "preset", "players"):
        assert after[key] == before[key], key
    assert [e["id"] for e in again.events_since(0)] == list(range(1, last_event + 1))
    # play goes on exactly as if nothing had happened
    after_outputs = [line for obs in game[60:200] for line in again.submit(obs)]
    assert before_outputs + after_outputs == _direct_outputs(game[:200])


def test_a_rejected_observation_changes_and_records_nothing() -> None:
    store = Store(":memory:")
    session = MatchSession(store, players=3)
    session.submit({"type": "start", "card": "red_5"})
    seen: list[Event] = []
    session.add_listener(seen.append)
    before = session.snapshot()
    for bad in ({"type": "play", "card": "purple_7", "seat": 1}, {"type": "play", "seat": 1},
                {"type": "play", "card": "red_7", "seat": 7}, {"type": "dance"}, {"card": "red_7"},
                ["not", "an", "object"], {"type": "play", "card": "red_7", "t": float("nan")}):
        with pytest.raises(ObservationError):
            session.submit(bad)  # type: ignore[arg-type]
    assert session.snapshot() == before
    assert seen == []
    assert len(store.observations(session.match_id)) == 2
    with pytest.raises(ObservationError, match="source"):
        session.submit({"type": "uno", "seat": 0}, source="")


def test_a_match_dealt_short_hands_ends_when_the_last_of_them_is_played() -> None:
    """``hand_size`` reaches the setup (the demo's table deals 2 here): the referee counts from it, so the
    winner's last card ends the round; without it the setup leaves it out (the preset's 7)."""
    assert "hand_size" not in MatchSession(Store(":memory:"), players=2).export_log()[0]
    session = MatchSession(Store(":memory:"), players=2, hand_size=2)
    assert session.export_log()[0]["hand_size"] == 2
    session.submit({"type": "start", "card": "red_5"})
    session.submit({"type": "play", "card": "red_7", "seat": 1})
    session.submit({"type": "uno", "seat": 1})
    session.submit({"type": "draw", "seat": 0, "count": 1})  # draws seen: the hand counts are known
    session.submit({"type": "pass", "seat": 0})
    outputs = session.submit({"type": "play", "card": "red_9", "seat": 1})
    assert [(o["winner"], o["points"]) for o in outputs if o["type"] == "round_end"] == [(1, None)]
    outputs = session.submit({"type": "reveal", "seat": 0, "cards": ["blue_4", "green_2", "yellow_1"]})
    assert [o["points"] for o in outputs if o["type"] == "round_end"] == [7]


def test_events_are_recorded_before_they_are_broadcast_with_increasing_ids() -> None:
    store = Store(":memory:")
    session = MatchSession(store, players=3)
    found: list[bool] = []

    def listener(event: Event) -> None:
        found.append(any(e["id"] == event["id"] for e in store.events_since(event["id"] - 1)))
        found.append(any(o.seq == event["seq"] for o in store.observations(session.match_id)))

    session.add_listener(listener)
    session.submit({"type": "start", "card": "red_5"})
    session.submit({"type": "play", "card": "red_7", "seat": 1})
    assert found == [True] * 4
    events = session.events_since(1)
    assert [e["id"] for e in events] == [2, 3]
    assert events[1]["observation"] == {"type": "play", "card": "red_7", "seat": 1}
    assert events[1]["state"]["top_card"] == "red_7"


def test_undo_drops_the_last_observation_and_its_alerts() -> None:
    store = Store(":memory:")
    session = MatchSession(store, players=3)
    session.submit({"type": "start", "card": "red_5"})
    assert alert(session.submit({"type": "play", "card": "blue_7", "seat": 1})[0])["code"] == "illegal_card"
    assert len(session.snapshot()["alerts"]) == 1
    session.undo()
    state = session.snapshot()
    assert state["alerts"] == [] and state["top_card"] == "red_5" and state["turn"] == 1
    assert store.alerts(session.match_id) == []
    assert [o.undone for o in store.observations(session.match_id, include_undone=True)] == [
        False, False, True]
    assert session.events_since(0)[-1]["kind"] == "undo"
    session.undo()
    with pytest.raises(ValueError, match="nothing to undo"):
        session.undo()


def test_undo_of_an_earlier_observation_replays_the_ones_after_it() -> None:
    store = Store(":memory:")
    session = MatchSession(store, players=3)
    session.submit({"type": "start", "card": "red_5"})
    session.submit({"type": "play", "card": "blue_7", "seat": 1})  # illegal, then seat 2 draws
    session.submit({"type": "draw", "seat": 2, "count": 1})
    found = session.last_play()
    assert found is not None and found[1].card.label == "blue_7"
    seq = found[0]
    session.undo(seq)
    assert [o["type"] for o in session.export_log()] == ["setup", "start", "draw"]
    assert session.snapshot()["top_card"] == "red_5" and session.snapshot()["alerts"] == []
    assert [o.undone for o in store.observations(session.match_id, include_undone=True)] == [
        False, False, True, False]
    assert session.last_play() is None
    with pytest.raises(ValueError, match="no observation"):
        session.undo(seq)  # already undone
    with pytest.raises(ValueError, match="no observation"):
        session.undo(store.observations(session.match_id)[0].seq)  # the setup stays


def test_correct_replaces_a_misread_card_in_one_event() -> None:
    session = MatchSession(Store(":memory:"), players=3)
    session.submit({"type": "start", "card": "red_5"})
    session.submit({"type": "play", "card": "blue_7", "seat": 1})
    event = session.correct("red_7")
    assert event["kind"] == "correct" and event["outputs"] == []
    assert session.snapshot()["alerts"] == [] and session.snapshot()["top_card"] == "red_7"
    assert session.export_log()[-1] == {"type": "play", "card": "red_7", "seat": 1}
    with pytest.raises(ObservationError):
        session.correct("not_a_card")
    assert session.snapshot()["top_card"] == "red_7"
    session.submit({"type": "uno", "seat": 2})
    with pytest.raises(ObservationError, match="not a play"):
        session.correct("red_8")


def test_correct_replaces_a_misread_start_card_while_nothing_came_after_it() -> None:
    session = MatchSession(Store(":memory:"), players=3)
    session.submit({"type": "start", "card": "blue_3"})
    assert session.last_play() is None and session.last_play(start=True) is not None
    event = session.correct("blue_5")
    assert event["kind"] == "correct" and session.snapshot()["top_card"] == "blue_5"
    assert session.export_log()[-1] == {"type": "start", "card": "blue_5"}
    session.submit({"type": "play", "card": "blue_7", "seat": 1})
    assert session.last_play(start=True) == session.last_play()
    assert session.correct("blue_8")["kind"] == "correct"
    assert [o["card"] for o in session.export_log()[-2:]] == ["blue_5", "blue_8"]


def test_new_match_closes_the_old_one_and_names_are_kept(tmp_path: Path) -> None:
    store = Store(tmp_path / "two.db")
    session = MatchSession(store, players=3, names=["Ann", "Bob"])
    assert session.names == ["Ann", "Bob", "Player 3"]
    old = session.match_id
    with pytest.raises(ObservationError):
        session.new_match({"type": "setup", "players": 1})
    assert session.match_id == old and not store.match(old).finished
    new = session.new_match({"type": "setup", "players": 4, "rules": "nl", "dealer": 3},
                            names=["A", "B", "C", "D"])
    assert store.match(old).finished and new != old
    assert session.snapshot()["preset"] == "nl" and session.names == ["A", "B", "C", "D"]
    session.set_names(["W", "X", "Y", "Z"])
    assert MatchSession(Store(tmp_path / "two.db")).names == ["W", "X", "Y", "Z"]


def test_submits_from_many_threads_are_serialised() -> None:
    session = MatchSession(Store(":memory:"), players=4)
    session.submit({"type": "start", "card": "red_5"})
    ids: list[int] = []
    session.add_listener(lambda e: ids.append(e["id"]))  # called under the session's lock

    def caller(seat: int) -> None:
        for _ in range(20):
            session.submit_event({"type": "uno", "seat": seat}, source=f"t{seat}")

    threads = [threading.Thread(target=caller, args=(s,)) for s in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert ids == list(range(3, 83))
    assert len(session.export_log()) == 82


def test_frames_and_status_are_kept_for_the_web_side() -> None:
    session = MatchSession(Store(":memory:"), players=2)
    assert session.frame() == (0, None)
    session.set_frame(b"\xff\xd8jpeg")
    session.set_status(fps=29.5, camera="ok")
    session.set_status(detections=3)
    assert session.frame() == (1, b"\xff\xd8jpeg")
    assert session.snapshot()["status"] == {"fps": 29.5, "camera": "ok", "detections": 3}


@pytest.mark.parametrize("color", ["pink", "<script>", "", "RED"])
def test_correct_refuses_a_colour_that_is_none(color: str) -> None:
    session = MatchSession(Store(":memory:"), players=3)
    session.submit({"type": "start", "card": "red_5"})
    session.submit({"type": "play", "card": "blue_7", "seat": 1})
    before = session.store.observations(session.match_id, include_undone=True)
    with pytest.raises(ObservationError, match="unknown colour"):
        session.correct("wild", color)
    assert session.store.observations(session.match_id, include_undone=True) == before


def test_correct_gives_a_start_card_no_colour() -> None:
    session = MatchSession(Store(":memory:"), players=3)
    session.submit({"type": "start", "card": "red_5"})
    for color, message in (("pink", "unknown colour"), ("blue", "start card takes no colour")):
        with pytest.raises(ObservationError, match=message):
            session.correct("wild", color)
    assert session.export_log()[-1] == {"type": "start", "card": "red_5"}
    session.submit({"type": "play", "card": "red_2", "seat": 1})
    session.correct("wild", "blue")
    assert session.export_log()[-1] == {"type": "play", "card": "wild", "seat": 1, "color": "blue"}


def test_last_published_id_follows_the_events_from_memory(tmp_path: Path) -> None:
    session = MatchSession(Store(tmp_path / "m.db"), players=3)
    session.submit({"type": "start", "card": "red_5"})
    session.undo()
    assert session.last_published_id == session.last_event_id == 3
    session.store.close()  # no record needed to answer
    assert session.last_published_id == 3
    assert MatchSession(Store(tmp_path / "m.db")).last_published_id == 3


def test_an_alert_from_an_observation_the_camera_was_unsure_of_says_so_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "unsure.db"
    first = MatchSession(Store(path), rules="official", players=4, dealer=0)
    first.submit({"type": "start", "card": "red_5"})
    why = "falling behind: 9 fps processed of 30, verdicts may be wrong"
    outputs = first.submit({"type": "play", "card": "red_7", "seat": 2, "unsure": why})
    assert [(o["code"], o.get("unsure")) for o in outputs if o["type"] == "alert"] == [("out_of_turn", why)]
    sure = first.submit({"type": "play", "card": "blue_7", "seat": 0})
    assert [o.get("unsure") for o in sure if o["type"] == "alert"] == [None]
    alerts_before = first.snapshot()["alerts"]
    first.store.close()
    again = MatchSession(Store(path))
    assert again.snapshot()["alerts"] == alerts_before
    assert alerts_before[0]["unsure"] == why and "unsure" not in alerts_before[-1]


def test_a_typed_observation_is_recorded_as_its_json() -> None:
    """The camera hands the session typed observations (with its notes); the record holds the JSON the same
    observation as a dict would have given, key for key, and the referee says the same."""
    from referee import contract
    from referee.cards import Card

    notes = contract.CameraNotes(40, alternatives=("red_1",), confidence=0.9, unsure="seats a guess")
    typed, plain = MatchSession(Store(":memory:"), players=4), MatchSession(Store(":memory:"), players=4)
    for session in (typed, plain):
        session.submit({"type": "start", "card": "red_5"}, source="operator")
    play = contract.Play(Card.from_label("red_7"), 2, t=1.5, camera=notes)
    line = contract.observation_json(play)
    assert typed.submit(play) == plain.submit(line)
    assert json.dumps(typed.export_log()) == json.dumps(plain.export_log())
    assert typed.export_log()[-1]["frame_index"] == 40


def test_the_referee_judges_a_typed_observation_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """A typed observation reaches the referee typed (held to the parser, not parsed from its JSON); a
    mapping reaches it as the JSON it is. A seat off the table is refused either way, nothing recorded."""
    from referee import contract
    from referee.cards import Card

    seen: list[type] = []
    observe = Referee.observe

    def observing(self: Referee, obs: dict[str, Any] | Observation) -> list[OutputLine]:
        seen.append(type(obs))
        return observe(self, obs)

    monkeypatch.setattr(Referee, "observe", observing)
    session = MatchSession(Store(":memory:"), players=4)
    session.submit(contract.Start(Card.from_label("red_5"), 0.5, contract.CameraNotes(3)))
    session.submit({"type": "play", "card": "red_7", "seat": 1}, source="operator")
    assert seen[-2:] == [contract.Start, dict]
    with pytest.raises(ObservationError, match="seat out of range"):
        session.submit(contract.Play(Card.from_label("red_8"), 4, t=1.0, camera=contract.CameraNotes(9)))
    assert [o["type"] for o in session.export_log()] == ["setup", "start", "play"]


def test_the_last_play_is_read_back_typed_with_the_cameras_notes() -> None:
    from referee import contract
    from referee.cards import Card

    session = MatchSession(Store(":memory:"), players=4)
    start = contract.Start(Card.from_label("red_5"), 0.5, contract.CameraNotes(3, confidence=0.9))
    session.submit(start)
    assert session.last_play() is None and session.last_play(start=True) == (2, start)
    play = contract.Play(Card.from_label("red_7"), 1, t=1.5, camera=contract.CameraNotes(
        40, alternatives=("red_1",), confidence=0.8, unsure="seats a guess"))
    session.submit(play)
    session.submit({"type": "draw", "seat": 2}, source="operator")
    assert session.last_play() == session.last_play(start=True) == (3, play)
