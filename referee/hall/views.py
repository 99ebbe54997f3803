"""What the hub shows of a table, folded from the events it recorded: the live state, the recent
alerts, the hall page's tile, and standings across tables. Pure data; no I/O.

A table's dashboard on the hub (``/t/NAME/``) gets the same ``/api/state`` a table serves: the state
of the newest recorded event, the alerts of its match (undone and corrected plays' alerts dropped,
as the dashboard does with live events), the pipeline status from the table's last retained state,
and ``event_id``: how far the hub's record of that table goes without a gap.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Iterable, Mapping
from typing import Any

from referee.session import SNAPSHOT_ALERTS
from referee.web.language import match_language

__all__ = ["ALERTS_KEPT", "TableView", "standings"]

#: Alerts of the current match kept per table in memory (the snapshot shows the newest 50).
ALERTS_KEPT = 500
_SNAPSHOT_ONLY = ("alerts", "status", "event_id", "table", "record", "sent_at")


class TableView:
    """One table as the hub knows it; updated by the receiver's thread, read by the web's."""

    def __init__(self, name: str, record: str | None = None, last_id: int = 0, status: str = "unknown") -> None:
        self.name = name
        self.record = record
        self.last_id = last_id
        self.status = status
        self.state: dict[str, Any] = {}
        self.alerts: list[dict[str, Any]] = []
        self.pipeline: dict[str, Any] = {}
        #: the newest event id the table says it has (from its retained state): above last_id, a gap
        self.known_last = 0
        self.gap_since: float | None = None
        self.resend_at = 0.0
        #: the hub's last id when it last asked for a resend (-1: not asking)
        self.resend_from = -1
        #: the newest ``sent_at`` of this record's messages (a record is left only for a newer one)
        self.sent_at = 0.0
        self.updated_at: float | None = None
        #: the language the table's setup chose for its pages (None: none chosen)
        self.lang: str | None = None

    def reset(self, record: str) -> None:
        """Follow a fresh record of this table (restarted without its old one)."""
        self.record = record
        self.last_id = 0
        self.known_last = 0
        self.state = {}
        self.alerts = []
        self.gap_since = None
        self.resend_from = -1
        self.sent_at = 0.0
        self.lang = None

    def apply(self, event: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Fold a recorded event in; returns the alerts it brought (each with its ``seq``)."""
        kind = event.get("kind")
        seq = event.get("seq")
        if kind == "match":
            self.alerts = []
        elif kind == "undo":
            self.alerts = [a for a in self.alerts if a.get("seq") != seq]
        elif kind == "correct":
            self.alerts = [a for a in self.alerts if a.get("seq") != event.get("undone_seq")]
        lang = match_language([obs]) if isinstance(obs := event.get("observation"), Mapping) else None
        self.lang = lang or self.lang
        new: list[dict[str, Any]] = []
        if kind != "undo":
            new = [dict(out, seq=seq) for out in event.get("outputs") or [] if out.get("type") == "alert"]
            self.alerts.extend(new)
            del self.alerts[:-ALERTS_KEPT]
        if isinstance(event.get("state"), dict):
            self.state = dict(event["state"])
        self.last_id = int(event["id"])
        self.updated_at = time.time()
        self._sent(event)
        return new

    def _sent(self, message: Mapping[str, Any]) -> None:
        sent_at = message.get("sent_at")
        if isinstance(sent_at, int | float) and not isinstance(sent_at, bool):
            self.sent_at = max(self.sent_at, float(sent_at))

    def adopt(self, snapshot: Mapping[str, Any]) -> None:
        """Take what a retained state message says: the pipeline status always; the state and the
        alerts too when it is exactly as far as the hub's record (then it is the table's own view)."""
        status = snapshot.get("status")
        if isinstance(status, dict):
            self.pipeline = dict(status)
        event_id = int(snapshot.get("event_id") or 0)
        self.known_last = max(self.known_last, event_id)
        self._sent(snapshot)
        if event_id == self.last_id and (event_id > 0 or not self.state):
            self.state = {k: copy.deepcopy(v) for k, v in snapshot.items() if k not in _SNAPSHOT_ONLY}
            alerts = snapshot.get("alerts")
            if isinstance(alerts, list):
                self.alerts = [dict(a) for a in alerts if isinstance(a, dict)]

    @property
    def has_gap(self) -> bool:
        return self.known_last > self.last_id

    def snapshot(self) -> dict[str, Any]:
        """``/api/state`` of a single table, from the hub's record."""
        state = copy.deepcopy(self.state)
        state["alerts"] = copy.deepcopy(self.alerts[-SNAPSHOT_ALERTS:])
        state["event_id"] = self.last_id
        state["status"] = dict(self.pipeline, hub={"table": self.name, "live": self.status == "online"})
        return state

    def tile(self) -> dict[str, Any]:
        """The hall page's tile: top card, turn, counts, scores, last alert, live or not."""
        state = self.state
        names = [str(n) for n in state.get("names") or []]
        turn = state.get("turn")
        last = self.alerts[-1] if self.alerts else None
        rounds = state.get("rounds") or []
        return {
            "table": self.name,
            "status": self.status,
            "live": self.status == "online",
            "event_id": self.last_id,
            "preset": state.get("preset"),
            "round": state.get("round"),
            "players": state.get("players"),
            "names": names,
            "turn": turn,
            "turn_name": _name(names, turn),
            "top_card": state.get("top_card"),
            "colour": state.get("colour"),
            "hand_counts": state.get("hand_counts") or [],
            "scores": state.get("scores") or [],
            "scoring": (state.get("options") or {}).get("scoring", "winner_takes"),
            "rounds_won": [sum(1 for r in rounds if isinstance(r, dict) and r.get("winner") == seat)
                           for seat in range(len(names))],
            "round_over": bool(state.get("round_over")),
            "match_over": bool(state.get("match_over")),
            "match_winner": state.get("match_winner"),
            "last_alert": None if last is None else _alert_line(last, names),
            "updated_at": self.updated_at,
        }

    def alert_lines(self, alerts: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """``alerts`` as the hall's feed shows them: with the table and the seat's name."""
        names = [str(n) for n in self.state.get("names") or []]
        return [dict(_alert_line(a, names), table=self.name) for a in alerts]


def _name(names: list[str], seat: object) -> str | None:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return None if not isinstance(seat, int) else f"Seat {seat + 1}"


def _alert_line(alert: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    return {"code": alert.get("code"), "seat": alert.get("seat"), "who": _name(names, alert.get("seat")),
            "penalty_cards": alert.get("penalty_cards"), "message": alert.get("message"),
            "unsure": alert.get("unsure"), "seq": alert.get("seq"), "card": alert.get("card"),
            "rule": alert.get("rule")}


#: Scoring modes whose points are penalties: the fewest lead (``own_points``: each player scores the cards
#: left in their own hand; ``elimination``: a player at the target is out).
PENALTY_SCORING = frozenset({"own_points", "elimination"})


def standings(tiles: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every seated player of every table, the leader first (then rounds won): the highest score where the
    round's winner scores, the lowest where points are penalties (:data:`PENALTY_SCORING`). A hall of
    tables scored both ways ranks each row by how good its score is at its own table's scoring."""
    rows = []
    for tile in tiles:
        scores = list(tile.get("scores") or [])
        won = list(tile.get("rounds_won") or [])
        penalty = tile.get("scoring") in PENALTY_SCORING
        for seat, name in enumerate(tile.get("names") or []):
            rows.append({"table": tile["table"], "seat": seat, "name": name,
                         "score": scores[seat] if seat < len(scores) and isinstance(scores[seat], int) else 0,
                         "rounds_won": won[seat] if seat < len(won) else 0, "penalty": penalty})
    rows.sort(key=lambda r: (r["score"] if r["penalty"] else -r["score"], -r["rounds_won"], r["table"], r["seat"]))
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    return rows
