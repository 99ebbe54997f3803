"""A match's game as :class:`~referee.session.MatchSession` keeps it: the referee replayed over the stored
observations, what it said (outputs and rounds), the state a view shows, and the checks on what a session
is given (an observation, a colour, a source, the seats' names).
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from referee.cards import Colour
from referee.contract import (
    AlertLine,
    Challenge,
    ColorNamed,
    Draw,
    Observation,
    OutputLine,
    Pass,
    Play,
    Reveal,
    Setup,
    Start,
    Uno,
    observation_json,
)
from referee.live_status import PipelineStatus
from referee.rules import ObservationError, Referee
from referee.rules.observations import checked
from referee.rules.referee import RefereeSnapshot
from referee.store import Store, StoredObservation

__all__ = ["MAX_SOURCE_LENGTH", "Game", "GameState", "LiveState", "PipelineStatus", "RecordedAlert", "RefereeFailure",
           "RoundSummary",
           "check_colour", "check_observation", "check_source", "default_names", "game_state", "judge", "rebuild",
           "replay", "seat_names"]

log = logging.getLogger(__name__)

MAX_SOURCE_LENGTH = 40


class RefereeFailure(ObservationError):
    """The referee itself failed on an observation (a bug, not bad input); nothing was recorded.

    A subclass of ObservationError so that a caller that handles rejected input (the pipeline's
    capture thread) keeps running; the web app answers it with a 500.
    """


class RoundSummary(TypedDict):
    """A round of the match as the record keeps it: its ``number`` (from 1), the ``seq`` of the setup that
    started it, and once the referee said so its ``winner``, ``points`` and the ``scores`` after it."""

    number: int
    setup_seq: int
    winner: int | None
    points: int | None
    scores: list[int] | None


@dataclass
class Game:
    """What replaying a match's observations gives: the referee and what it said."""

    referee: Referee
    observations: list[StoredObservation] = field(default_factory=list)
    outputs: list[tuple[int, OutputLine]] = field(default_factory=list)
    rounds: list[RoundSummary] = field(default_factory=list)
    match_winner: int | None = None

    def apply(self, stored: StoredObservation, outputs: Sequence[OutputLine]) -> None:
        """Account for an observation the referee has accepted and the lines it produced."""
        self.observations.append(stored)
        if stored.observation.get("type") == "setup":
            self.rounds.append(
                {"number": len(self.rounds) + 1, "setup_seq": stored.seq, "winner": None,
                 "points": None, "scores": None}
            )
        for out in outputs:
            line = out.copy()
            self.outputs.append((stored.seq, line))
            if line["type"] == "round_end" and self.rounds:
                self.rounds[-1]["winner"] = line.get("winner")
                self.rounds[-1]["points"] = line.get("points")
            elif line["type"] == "scores" and self.rounds:
                self.rounds[-1]["scores"] = line.get("scores")
            elif line["type"] == "match_end":
                self.match_winner = line.get("winner")

    @property
    def match_over(self) -> bool:
        return self.match_winner is not None or bool(self.referee.snapshot().get("match_over"))


#: The typed observations a session is handed (:data:`referee.contract.Observation`'s members).
_TYPED = (Setup, Start, Play, ColorNamed, Draw, Pass, Uno, Challenge, Reveal)


def check_observation(obs: object) -> dict[str, Any]:
    """A deep, JSON-clean copy of ``obs`` (a typed :data:`~referee.contract.Observation` as its contract-2
    JSON, :func:`~referee.contract.observation_json`: the record's form); raises ObservationError if it
    cannot be one."""
    if isinstance(obs, _TYPED):
        obs = observation_json(obs)
    if not isinstance(obs, Mapping):
        raise ObservationError(f"observation must be a JSON object, not {type(obs).__name__}")
    if not isinstance(obs.get("type"), str):
        raise ObservationError(f"observation without a 'type': {dict(obs)!r}")
    try:
        clean: dict[str, Any] = json.loads(json.dumps(dict(obs), allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise ObservationError(f"observation is not plain JSON ({exc}): {obs!r}") from None
    return clean


def replay(store: Store, match_id: int) -> Game:
    """Match ``match_id`` replayed from the store's active observations."""
    return rebuild(store.observations(match_id), f"match {match_id}")


def rebuild(observations: Sequence[StoredObservation], what: str) -> Game:
    """A fresh referee told ``observations``; one it refuses now is logged (as ``what``) and left out."""
    game = Game(Referee())
    for stored in observations:
        try:
            outputs = _marked(stored.observation, game.referee.observe(copy.deepcopy(stored.observation)))
        except Exception as exc:
            # Accepted when it was written; a referee that changed since may refuse it. The record
            # keeps it either way; the live state goes on without it (as `referee replay` does).
            log.error("%s: stored observation %d refused on replay: %s", what, stored.seq, exc)
            continue
        game.apply(stored, outputs)
    return game


def _marked(obs: Observation | Mapping[str, Any], outputs: list[OutputLine]) -> list[OutputLine]:
    """``outputs`` with the alerts marked ``unsure`` when ``obs`` was: the camera says why it is not sure
    of what it saw (``"falling behind: 9 fps processed of 30, verdicts may be wrong"``), so an alert it
    led to is shown as possibly wrong rather than as a confident one."""
    if isinstance(obs, Mapping):
        unsure = obs.get("unsure")
    else:
        notes = obs.camera if isinstance(obs, Start | Play | Draw) else None
        unsure = notes.unsure if notes is not None else None
    if not isinstance(unsure, str) or not unsure:
        return outputs
    return [{**o, "unsure": unsure} if o["type"] == "alert" else o for o in outputs]


def judge(referee: Referee, obs: Observation | Mapping[str, Any]) -> list[OutputLine]:
    """``referee.observe`` on ``obs``: a typed observation (the camera's) as it is, held to the parser
    (:func:`~referee.rules.observations.checked`: judged as its JSON would be), a mapping on a copy; a
    referee bug becomes :class:`RefereeFailure`."""
    try:
        if isinstance(obs, Mapping):
            return _marked(obs, referee.observe(copy.deepcopy(dict(obs))))
        return _marked(obs, referee.observe(checked(obs, referee.players or None)))
    except ObservationError:
        raise
    except Exception as exc:
        log.exception("the referee failed on %s", obs if isinstance(obs, Mapping) else observation_json(obs))
        raise RefereeFailure(f"internal referee error ({type(exc).__name__}: {exc}); "
                             "observation not recorded") from exc


class GameState(RefereeSnapshot):
    """The referee's snapshot with the match's id, the seats' names, its rounds so far, the newest
    observation's ``seq`` and what the pages show of the round (the seat of the last play, the match's
    language, the hand size dealt)."""

    match_id: int
    names: list[str]
    rounds: list[RoundSummary]
    seq: int
    last_play_seat: int | None
    lang: str | None
    hand_size: int


class RecordedAlert(AlertLine):
    """An alert as the pages list it: the line and the ``seq`` of the observation it was said on."""

    seq: int


class LiveState(GameState):
    """``/api/state``: the game's state with its recent alerts (each with its ``seq``), the newest event's
    id and the pipeline's status."""

    alerts: list[RecordedAlert]
    event_id: int
    status: PipelineStatus


def game_state(match_id: int, names: Sequence[str], game: Game) -> GameState:
    """The referee's snapshot with the match's id, names, rounds and what the pages show of the round."""
    return {
        **game.referee.snapshot(),
        "match_id": match_id,
        "names": list(names),
        "rounds": copy.deepcopy(game.rounds),
        "seq": game.observations[-1].seq if game.observations else 0,
        "last_play_seat": _last_play_seat(game),
        "lang": _language(game),
        "hand_size": _hand_size(game),
    }


def _hand_size(game: Game) -> int:
    """Cards dealt to each player this round: the latest setup's ``hand_size``, else its preset's."""
    for stored in reversed(game.observations):
        if stored.observation.get("type") == "setup":
            size = stored.observation.get("hand_size")
            if isinstance(size, int):
                return size
            break
    return int(game.referee.options.hand_size)


def _language(game: Game) -> str | None:
    """The language the match's latest setup chose for the people at the table (None: none chosen)."""
    for stored in reversed(game.observations):
        lang = stored.observation.get("lang") if stored.observation.get("type") == "setup" else None
        if isinstance(lang, str):
            return lang
    return None


def _last_play_seat(game: Game) -> int | None:
    for stored in reversed(game.observations):
        if stored.observation.get("type") == "play":
            seat = stored.observation.get("seat")
            return seat if isinstance(seat, int) else None
    return None


def default_names(players: int) -> list[str]:
    """``Player 1``, ``Player 2``, ...: the seats' names until someone gives them."""
    return [f"Player {i + 1}" for i in range(players)]


def seat_names(names: Sequence[str] | None, players: int) -> list[str]:
    """One name per seat: the given ones, trimmed to 40 characters, then defaults for the rest."""
    given = [str(n).strip()[:40] for n in (names or [])]
    return [given[i] if i < len(given) and given[i] else f"Player {i + 1}" for i in range(players)]


def check_colour(color: object, observation: Mapping[str, Any]) -> None:
    """Refuse a colour that is not one, or one given for a start card (whose ``start`` line has no
    ``color``: the referee would not read it, and the record would keep it unchecked)."""
    known = [c.value for c in Colour]
    if not isinstance(color, str) or color not in known:
        raise ObservationError(f"color: unknown colour {color!r} (known: {', '.join(known)})")
    if observation.get("type") == "start":
        raise ObservationError("a start card takes no colour: name it with a 'color' observation")


def check_source(source: str) -> str:
    """``source`` if it is a short non-empty string; raises ObservationError if not."""
    if not isinstance(source, str) or not source or len(source) > MAX_SOURCE_LENGTH:
        raise ObservationError(f"source must be a short non-empty string: {source!r}")
    return source
