"""One match being refereed: the Referee, its record in the store, and the events sent to viewers.

The pipeline's capture thread and the web server's handlers share one :class:`MatchSession`. Every
change goes the same way, under one lock: check it with the referee, write it to the store in one
transaction, then tell the listeners (the web app's event hub) with an event whose id increases
monotonically and survives restarts (it is the store's row id), so a viewer that reconnects with
``Last-Event-ID`` misses nothing.

Listeners are called with the lock held and must not block: the web app's listener only hands the
event to its event loop, whose per-client queues are bounded (a client that falls behind is
disconnected and resumes from the store).

Readers take no lock: every committed change publishes a :class:`_View` (the state, recent alerts,
the log) that :meth:`MatchSession.snapshot` and the other views read as it stands, so a view answers
at once even while a write waits for the record (locked by another process, say). A write may carry
``also``, a function called inside its transaction with the event just written: what it writes
(the web app's answer to an ``Idempotency-Key`` request) is committed with the change or not at all.
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict, Unpack

from referee.contract import Observation, ObservationDict, OutputLine, Play, Start
from referee.rules import ObservationError, Referee, parse_observation
from referee.session_game import (
    Game,
    GameState,
    LiveState,
    PipelineStatus,
    RecordedAlert,
    RefereeFailure,
    check_colour,
    check_observation,
    check_source,
    default_names,
    game_state,
    judge,
    rebuild,
    replay,
    seat_names,
)
from referee.store import Store, StoredObservation, Transaction

__all__ = ["AlsoInTransaction", "Event", "Listener", "MatchSession", "RefereeFailure"]

log = logging.getLogger(__name__)


class Event(TypedDict):
    """One change of the match as the record keeps it and viewers are sent it (``/api/events``, MQTT): its
    ``kind`` (``match``, ``observation``, ``correct``, ``undo``, ``names``), the observation and the referee's
    lines it is about, and the ``state`` after it. ``id`` is the store's row id, set once it is written."""

    kind: str
    match_id: int
    seq: NotRequired[int]
    source: NotRequired[str]
    observation: NotRequired[ObservationDict]
    outputs: NotRequired[list[OutputLine]]
    undone_seq: NotRequired[int]
    state: GameState
    id: NotRequired[int]


Listener = Callable[[Event], None]
#: Called inside a write's transaction with the event it recorded (its ``id`` set), before commit.
AlsoInTransaction = Callable[[Transaction, Event], None]

#: Alerts kept in the snapshot (the dashboard's feed on load; older ones are in the store).
SNAPSHOT_ALERTS = 50


@dataclass(frozen=True)
class _View:
    """The match as of the last committed change: what readers see, without the session's lock."""

    state: GameState
    alerts: tuple[RecordedAlert, ...]
    observations: tuple[StoredObservation, ...]
    outputs: tuple[OutputLine, ...]
    names: tuple[str, ...]


class MatchSession:
    """The live match: thread-safe submit/undo/snapshot over a Referee and a :class:`Store`.

    With ``match_id=None`` it resumes the newest unfinished match in the store, or starts a new
    one from ``rules``/``players``/``dealer``/``options`` and ``hand_size`` (writing its setup
    observation; ``hand_size`` ``None`` leaves it out: the preset's, 7).
    """

    def __init__(
        self,
        store: Store,
        rules: str = "official",
        players: int = 4,
        dealer: int = 0,
        options: Mapping[str, Any] | None = None,
        match_id: int | None = None,
        names: Sequence[str] | None = None,
        hand_size: int | None = None,
    ) -> None:
        self.store = store
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._status: PipelineStatus = {}
        self._frame: bytes | None = None
        self._frame_index = 0
        self._frame_cond = threading.Condition()
        self._status_lock = threading.Lock()
        self._published_id = store.last_event_id()
        with self._lock:
            if match_id is None:
                match_id = store.latest_open_match()
            if match_id is None:
                setup: dict[str, Any] = {
                    "type": "setup", "players": players, "dealer": dealer, "rules": rules,
                    "options": dict(options or {}),
                }
                if hand_size is not None:
                    setup["hand_size"] = hand_size
                self._match_id, self._names, self._game = self._create_match(setup, names, "session")
                log.info("match %d started (%s, %d players)", self._match_id, rules, players)
            else:
                row = store.match(match_id)
                self._match_id = match_id
                self._names = list(row.names) or default_names(row.players)
                self._game = replay(store, match_id)
                log.info("match %d resumed: %d observations replayed", match_id,
                         len(self._game.observations))
            self._view = self._viewed()

    # Listeners (the web app's event hub).
    def add_listener(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(event)`` for every new event (it must not block); returns a remover."""
        with self._lock:
            self._listeners.append(listener)

        def remove() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return remove

    def _publish(self, event: Event) -> None:
        self._published_id = max(self._published_id, int(event["id"]))
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                log.exception("event listener failed; event %s is in the store", event.get("id"))

    # Matches and rounds.
    @property
    def match_id(self) -> int:
        return self._match_id

    @property
    def names(self) -> list[str]:
        return list(self._view.names)

    def _create_match(
        self,
        setup: dict[str, Any],
        names: Sequence[str] | None,
        source: str,
        close: tuple[int, int | None] | None = None,
        also: AlsoInTransaction | None = None,
    ) -> tuple[int, list[str], Game]:
        setup = check_observation(setup)
        if setup.get("type") != "setup":
            raise ObservationError(f"a match starts with a setup observation, not {setup!r}")
        game = Game(Referee())
        outputs = judge(game.referee, setup)
        players = int(game.referee.snapshot().get("players") or setup.get("players") or 0)
        clean_names = seat_names(names, players)
        with self.store.transaction() as tx:
            if close is not None:
                tx.set_finished(close[0], True, close[1])
            match_id = tx.create_match(str(setup.get("rules") or "official"), players, clean_names)
            seq = tx.add_observation(match_id, setup, source)
            tx.add_outputs(match_id, seq, outputs)
            game.apply(StoredObservation(seq, setup.get("t"), source, setup), outputs)
            tx.set_rounds(match_id, game.rounds)
            event = _event("match", match_id, clean_names, game,
                           (seq, source, setup, [o.copy() for o in outputs]))
            event["id"] = tx.add_event(match_id, "match", event)
            if also is not None:
                also(tx, event)
        self._publish(event)
        return match_id, clean_names, game

    def new_match(
        self, setup: Mapping[str, Any], names: Sequence[str] | None = None, source: str = "operator",
        *, also: AlsoInTransaction | None = None,
    ) -> int:
        """Close the current match and start another from a setup observation; returns its id."""
        with self._lock:
            self._match_id, self._names, self._game = self._create_match(
                dict(setup), names, check_source(source),
                close=(self._match_id, self._game.match_winner), also=also,
            )
            self._view = self._viewed()
            log.info("match %d started by %s", self._match_id, source)
            return self._match_id

    def set_names(self, names: Sequence[str], *, also: AlsoInTransaction | None = None) -> None:
        """Name the seats (clockwise from seat 0)."""
        with self._lock:
            clean = seat_names(names, self._players())
            with self.store.transaction() as tx:
                tx.set_names(self._match_id, clean)
                event = _event("names", self._match_id, clean, self._game)
                event["id"] = tx.add_event(self._match_id, "names", event)
                if also is not None:
                    also(tx, event)
            self._names = clean
            self._view = self._viewed()
            self._publish(event)

    def _players(self) -> int:
        return int(self._game.referee.snapshot().get("players") or len(self._names))

    # Observations.
    def submit(self, obs: Observation | Mapping[str, Any], source: str = "camera") -> list[OutputLine]:
        """Judge ``obs``, record it and its outputs, broadcast; returns the referee's output lines. A typed
        observation (the camera's, say) is judged as it is and recorded as its contract-2 JSON; a mapping (a
        log's line, a web request) is judged and recorded as the JSON it is.

        Raises :class:`referee.rules.ObservationError` on bad input; then nothing is recorded.
        """
        return [o.copy() for o in self.submit_event(obs, source)["outputs"]]

    def submit_event(self, obs: Observation | Mapping[str, Any], source: str = "camera", *,
                     also: AlsoInTransaction | None = None) -> Event:
        """:meth:`submit`, returning the whole event (``id``, ``seq``, ``outputs``, ``state``);
        ``also`` writes more in the same transaction (see the module's docstring)."""
        clean = check_observation(obs)  # the record's JSON
        source = check_source(source)
        with self._lock:
            try:
                outputs = judge(self._game.referee, clean if isinstance(obs, Mapping) else obs)
            except RefereeFailure:
                # A referee bug: its state may be half-changed, so rebuild it from the record.
                self._game = replay(self.store, self._match_id)
                raise
            try:
                return self._record(clean, source, outputs, kind="observation", also=also)
            except BaseException:
                # The referee moved on but the record did not: put the referee back.
                self._game = replay(self.store, self._match_id)
                raise

    def _record(
        self,
        clean: dict[str, Any],
        source: str,
        outputs: Sequence[OutputLine],
        *,
        kind: str,
        undone_seq: int | None = None,
        also: AlsoInTransaction | None = None,
    ) -> Event:
        game = self._game
        players_before = len(self._names)
        names = self._names
        with self.store.transaction() as tx:
            if undone_seq is not None:
                tx.mark_undone(self._match_id, undone_seq)
            seq = tx.add_observation(self._match_id, clean, source)
            tx.add_outputs(self._match_id, seq, outputs)
            game.apply(StoredObservation(seq, clean.get("t"), source, clean), outputs)
            if clean.get("type") == "setup":
                players = self._players()
                if players != players_before:
                    names = seat_names(names, players)
                    tx.set_names(self._match_id, names)
            tx.set_rounds(self._match_id, game.rounds)
            if game.match_over:
                tx.set_finished(self._match_id, True, game.match_winner)
            event = _event(kind, self._match_id, names, game, (seq, source, clean, [o.copy() for o in outputs]),
                           undone_seq)
            event["id"] = tx.add_event(self._match_id, kind, event)
            if also is not None:
                also(tx, event)
        self._names = names
        self._view = self._viewed(event["state"])
        self._publish(event)
        return event

    def undo(self, seq: int | None = None, *, also: AlsoInTransaction | None = None) -> None:
        """Drop the last observation, or the active one numbered ``seq`` (a card found to be a ghost
        after a draw was seen), and rebuild by replay; it stays in the record, marked undone."""
        with self._lock:
            active = self._game.observations
            if len(active) <= 1:
                raise ValueError("nothing to undo: only the match's setup is left")
            index = len(active) - 1 if seq is None else next(
                (i for i, o in enumerate(active) if o.seq == seq), None)
            if index is None or index == 0:
                raise ValueError(f"no observation {seq} to undo (the match's setup stays)")
            dropped = active[index]
            game = self._rebuilt([*active[:index], *active[index + 1:]])
            with self.store.transaction() as tx:
                tx.mark_undone(self._match_id, dropped.seq)
                tx.set_rounds(self._match_id, game.rounds)
                tx.set_finished(self._match_id, game.match_over, game.match_winner)
                event = _event("undo", self._match_id, self._names, game,
                               (dropped.seq, dropped.source, dropped.observation, []))
                event["id"] = tx.add_event(self._match_id, "undo", event)
                if also is not None:
                    also(tx, event)
            self._game = game
            self._view = self._viewed(event["state"])
            self._publish(event)
            log.info("match %d: observation %d undone", self._match_id, dropped.seq)

    def last_play(self, *, start: bool = False) -> tuple[int, Play | Start] | None:
        """``(seq, observation)`` of the newest active ``play`` (with ``start``, or the round's
        ``start`` card when no play came after it), or ``None``. The observation is typed, read from the
        record (the camera's notes with it)."""
        kinds = ("play", "start") if start else ("play",)
        with self._lock:
            for stored in reversed(self._game.observations):
                if stored.observation.get("type") in kinds:
                    found = parse_observation(stored.observation)  # accepted when recorded: it parses
                    assert isinstance(found, Play | Start)
                    return stored.seq, found
            return None

    def correct(self, card: str, color: str | None = None, source: str = "operator", *,
                also: AlsoInTransaction | None = None) -> Event:
        """Replace the last play's card (a misread), or the start card's while nothing came after it,
        and judge it again; returns the event. ``color`` (the colour named for a wild) must be a
        colour; a start card takes none (contract 2: the colour is named by a ``color`` line)."""
        with self._lock:
            active = self._game.observations
            if not active or active[-1].observation.get("type") not in ("play", "start"):
                raise ObservationError("the last observation is not a play: nothing to correct")
            last = active[-1]
            if color is not None:
                check_colour(color, last.observation)
            fixed = dict(last.observation, card=card)
            if color is not None:
                fixed["color"] = color
            fixed = check_observation(fixed)
            game = self._rebuilt(active[:-1])
            outputs = judge(game.referee, fixed)
            previous, self._game = self._game, game
            try:
                return self._record(fixed, check_source(source), outputs, kind="correct",
                                    undone_seq=last.seq, also=also)
            except BaseException:
                self._game = previous
                raise

    # The tracker's questions about the live referee (``pipeline.card_query``), asked every frame: no
    # lock, they read the one referee there is (undo and correct replace it whole).
    def legal_now(self, card: str) -> bool:
        """Would the expected seat's playing ``card`` be legal now (:meth:`Referee.legal_now`)?"""
        return self._game.referee.legal_now(card)

    def possible_now(self, card: str) -> bool:
        """Could ``card`` land on the pile now (:meth:`Referee.possible_now`)?"""
        return self._game.referee.possible_now(card)

    def expected_seat(self) -> int | None:
        """The seat the referee expects to act next (``None`` outside a round)."""
        with self._lock:
            return self._game.referee.expected_seat

    def expected_seat_if_last_were(self, card: str) -> int | None:
        """The seat the referee would expect next had the last play been ``card`` (a what-if for a
        suspected misread; nothing changes). ``None`` when the last observation is not a play or
        ``card`` would not be accepted."""
        with self._lock:
            active = self._game.observations
            if not active or active[-1].observation.get("type") != "play":
                return None
            game = self._rebuilt(active[:-1])
            try:
                game.referee.observe(dict(active[-1].observation, card=card))
            except ObservationError:  # a label the referee refuses is simply no explanation
                return None
            return game.referee.expected_seat

    def _rebuilt(self, observations: Sequence[StoredObservation]) -> Game:
        return rebuild(observations, f"match {self._match_id}")

    # Views.
    def _viewed(self, state: GameState | None = None) -> _View:
        """The view of the match as it stands (call with the lock held, after a commit); ``state``:
        the one just computed for the change's event."""
        game = self._game
        alerts: list[RecordedAlert] = [{**out, "seq": seq} for seq, out in game.outputs if out["type"] == "alert"]
        return _View(
            state=copy.deepcopy(state) if state is not None else game_state(self._match_id, self._names, game),
            alerts=tuple(alerts[-SNAPSHOT_ALERTS:]),
            observations=tuple(game.observations),
            outputs=tuple(out for _, out in game.outputs),
            names=tuple(self._names),
        )

    def snapshot(self) -> LiveState:
        """Referee.snapshot() plus names, rounds, recent alerts, last event id and pipeline status,
        as of the last committed change (no lock: it never waits for a write)."""
        view = self._view
        state = copy.deepcopy(view.state)
        alerts = [a.copy() for a in view.alerts]
        event_id = self._published_id
        with self._status_lock:
            status = self._status.copy()
        return {**state, "alerts": alerts, "event_id": event_id, "status": status}

    def events_since(self, event_id: int) -> list[dict[str, Any]]:
        """Every event after ``event_id`` as the store holds it (JSON, the shape of :class:`Event`), oldest
        first."""
        return self.store.events_since(event_id)

    @property
    def last_event_id(self) -> int:
        return self.store.last_event_id()

    @property
    def last_published_id(self) -> int:
        """The newest event id this session has recorded and published, read from memory: no lock
        and no record, so a health check answers at once even while a write waits on the file."""
        return self._published_id

    def export_log(self) -> list[ObservationDict]:
        """The match's observation log (contract 2, undone lines left out): ``referee replay`` input."""
        return [copy.deepcopy(s.observation) for s in self._view.observations]

    def outputs(self) -> list[OutputLine]:
        """Every referee output line of the match so far, in order."""
        return [out.copy() for out in self._view.outputs]

    # The pipeline's side.
    def set_frame(self, jpeg: bytes) -> None:
        """The latest annotated camera frame (JPEG bytes) for ``/stream.mjpg``."""
        with self._frame_cond:
            self._frame = bytes(jpeg)
            self._frame_index += 1
            self._frame_cond.notify_all()

    def frame(self) -> tuple[int, bytes | None]:
        """``(frame_index, jpeg)``; the index grows with every :meth:`set_frame`."""
        with self._frame_cond:
            return self._frame_index, self._frame

    def set_status(self, **fields: Unpack[PipelineStatus]) -> None:
        """Pipeline health (fps, camera state, detections...), shown in ``/api/state``."""
        with self._status_lock:
            self._status.update(fields)


def _event(
    kind: str, match_id: int, names: Sequence[str], game: Game,
    about: tuple[int, str, ObservationDict, list[OutputLine]] | None = None, undone_seq: int | None = None,
) -> Event:
    """The event of a change (its ``id`` not yet set): ``about`` is the observation it is about, as
    ``(seq, source, observation, outputs)``; ``undone_seq`` the one a correction replaced. The keys in the
    order the record has always written them."""
    state = game_state(match_id, names, game)
    if about is None:
        return {"kind": kind, "match_id": match_id, "state": state}
    seq, source, observation, outputs = about
    if undone_seq is None:
        return {"kind": kind, "match_id": match_id, "seq": seq, "source": source, "observation": observation,
                "outputs": outputs, "state": state}
    return {"kind": kind, "match_id": match_id, "seq": seq, "source": source, "observation": observation,
            "outputs": outputs, "undone_seq": undone_seq, "state": state}
