"""The record: schema, WAL, transactions, undone lines, reopening the same file."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from referee.store import Store, StoredReply, StoreError, StoreUnavailable


def _fill(store: Store) -> int:
    with store.transaction() as tx:
        match_id = tx.create_match("official", 3, ["Ann", "Bob", "Cy"])
        seq = tx.add_observation(match_id, {"type": "setup", "players": 3}, "session")
        tx.set_rounds(match_id, [{"number": 1, "setup_seq": seq}])
        tx.add_event(match_id, "match", {"seq": seq})
    with store.transaction() as tx:
        seq = tx.add_observation(match_id, {"type": "play", "card": "blue_7", "seat": 1, "t": 2.5},
                                 "camera")
        alert = {"type": "alert", "code": "illegal_card", "seat": 1, "penalty_cards": 2,
                 "message": "blue_7 on red_5"}
        tx.add_outputs(match_id, seq, [alert, {"type": "info", "message": "x"}])
        tx.add_event(match_id, "observation", {"seq": seq, "outputs": [alert]})
    return match_id


def test_file_store_uses_wal_and_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "record.db"
    with Store(path) as store:
        assert store.journal_mode == "wal"
        match_id = _fill(store)
    with Store(path) as again:
        assert again.latest_open_match() == match_id
        row = again.match(match_id)
        assert (row.rules, row.players, row.names, row.finished) == (
            "official", 3, ("Ann", "Bob", "Cy"), False)
        observations = again.observations(match_id)
        assert [o.seq for o in observations] == [1, 2]
        assert observations[1].t == 2.5 and observations[1].source == "camera"
        assert observations[1].observation == {"type": "play", "card": "blue_7", "seat": 1, "t": 2.5}
        assert [code for _, code in [(s, a["code"]) for s, a in again.alerts(match_id)]] == [
            "illegal_card"]
        assert [e["id"] for e in again.events_since(0)] == [1, 2]
        assert again.events_since(1)[0]["kind"] == "observation"
        assert again.rounds(match_id)[0]["setup_seq"] == 1


def test_a_failed_transaction_writes_nothing() -> None:
    store = Store(":memory:")
    match_id = _fill(store)
    with pytest.raises(RuntimeError), store.transaction() as tx:
        tx.add_observation(match_id, {"type": "uno", "seat": 0}, "operator")
        tx.add_event(match_id, "observation", {})
        raise RuntimeError("disk on fire")
    assert len(store.observations(match_id)) == 2
    assert store.last_event_id() == 2


def test_undone_observations_stay_in_the_record_but_leave_the_log() -> None:
    store = Store(":memory:")
    match_id = _fill(store)
    with store.transaction() as tx:
        tx.mark_undone(match_id, 2)
    assert [o.seq for o in store.observations(match_id)] == [1]
    assert [o.undone for o in store.observations(match_id, include_undone=True)] == [False, True]
    assert store.alerts(match_id) == []
    assert len(store.outputs(match_id, include_undone=True)) == 2
    with store.transaction() as tx:
        # seq numbers are never reused, so a line in the record names one observation for good
        assert tx.add_observation(match_id, {"type": "uno", "seat": 0}, "operator") == 3
    with pytest.raises(StoreError, match="no active observation 2"), store.transaction() as tx:
        tx.mark_undone(match_id, 2)


def test_finished_matches_are_not_resumed_and_unknown_ones_are_errors() -> None:
    store = Store(":memory:")
    match_id = _fill(store)
    with store.transaction() as tx:
        tx.set_finished(match_id, True, 2)
    assert store.latest_open_match() is None
    assert store.match(match_id).winner == 2
    with pytest.raises(StoreError, match="no match 99"):
        store.match(99)


def test_nan_is_refused_rather_than_written() -> None:
    store = Store(":memory:")
    match_id = _fill(store)
    with pytest.raises(ValueError), store.transaction() as tx:
        tx.add_observation(match_id, {"type": "play", "t": float("nan")}, "camera")
    assert len(store.observations(match_id)) == 2


def test_writes_from_many_threads_get_distinct_event_ids(tmp_path: Path) -> None:
    store = Store(tmp_path / "threads.db", synchronous="NORMAL")
    match_id = _fill(store)

    def writer(k: int) -> None:
        for i in range(25):
            with store.transaction() as tx:
                seq = tx.add_observation(match_id, {"type": "uno", "seat": k, "i": i}, f"w{k}")
                tx.add_event(match_id, "observation", {"seq": seq})

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    events = store.events_since(0)
    assert [e["id"] for e in events] == list(range(1, 103))
    assert sorted(e["seq"] for e in events[2:]) == list(range(3, 103))


def test_a_lock_held_elsewhere_makes_writes_unavailable_not_reads(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    store = Store(path, busy_timeout_s=0.1)
    match_id = _fill(store)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreUnavailable, match=r"cannot be written now \(database is locked"), \
                store.transaction() as tx:
            tx.add_observation(match_id, {"type": "uno", "seat": 0}, "operator")
        assert len(store.observations(match_id)) == 2  # reading goes on
    finally:
        other.execute("ROLLBACK")
        other.close()
    with store.transaction() as tx:  # and writing again once the lock is gone
        assert tx.add_observation(match_id, {"type": "uno", "seat": 0}, "operator") == 3


@pytest.mark.parametrize(("error", "unavailable"), [
    (sqlite3.OperationalError("database or disk is full"), True),
    (sqlite3.OperationalError("attempt to write a readonly database"), True),
    (sqlite3.DatabaseError("database disk image is malformed"), True),
    (sqlite3.IntegrityError("UNIQUE constraint failed"), False),  # a bug: stays what it is
])
def test_errors_of_the_file_become_store_unavailable(error: sqlite3.Error, unavailable: bool) -> None:
    store = Store(":memory:")
    match_id = _fill(store)
    expected: type[Exception] = StoreUnavailable if unavailable else type(error)
    with pytest.raises(expected) as caught, store.transaction() as tx:
        tx.add_observation(match_id, {"type": "uno", "seat": 0}, "operator")
        raise error
    assert isinstance(caught.value, StoreError) == unavailable
    assert len(store.observations(match_id)) == 2


def test_checkpoint_leaves_everything_in_the_database_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "record.db"
    store = Store(path)
    match_id = _fill(store)
    assert (tmp_path / "record.db-wal").stat().st_size > 0
    assert store.checkpoint()
    copy = tmp_path / "copy" / "record.db"
    copy.parent.mkdir()
    shutil.copyfile(path, copy)  # the file alone, no -wal beside it
    with Store(copy) as alone:
        assert [o.seq for o in alone.observations(match_id)] == [1, 2]
    store.close()


def test_replies_are_kept_once_under_their_key(tmp_path: Path) -> None:
    path = tmp_path / "replies.db"
    with Store(path) as store:
        assert store.reply("k1") is None
        first = StoredReply("f1", 200, "application/json", b'{"id":3}')
        store.save_reply("k1", first)
        store.save_reply("k1", StoredReply("f2", 200, "application/json", b'{"id":4}'))
        assert store.reply("k1") == first
    with Store(path) as again:  # kept across a restart
        assert again.reply("k1") == first and again.reply("k2") is None
