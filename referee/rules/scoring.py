"""A round's end and its scoring, and the match's end (``round_end``, ``scores``, ``eliminated``,
``match_end`` lines)."""

from __future__ import annotations

from typing import TypeVar

from referee.cards import Card
from referee.contract import MatchEndLine, OutputLine, RoundEndLine
from referee.rules.state import MatchState, RoundState

__all__ = ["end_round", "missing_reveals", "score"]

#: A line that names a winner, and with team play the winner's partner.
_Won = TypeVar("_Won", RoundEndLine, MatchEndLine)


def _with_team(line: _Won, match: MatchState, winner: int) -> _Won:
    mate = match.partner(winner)
    if mate is not None:
        line["team"] = sorted((winner, mate))
    return line


def end_round(state: RoundState, winner: int, out: list[OutputLine]) -> None:
    """``winner`` emptied their hand: the round ends, and is scored once the hands needed are shown."""
    state.round_over = True
    state.round_winner = winner
    state.uno_watch = None
    state.wd4_watch.clear()
    line: RoundEndLine = {"type": "round_end", "winner": winner, "points": None, "round": state.match.round}
    out.append(_with_team(line, state.match, winner))
    if not missing_reveals(state):
        score(state, out)


def _scoring_seats(state: RoundState) -> list[int]:
    winner = state.round_winner
    mate = state.match.partner(winner) if winner is not None else None
    return [s for s in range(state.players) if s != winner and s != mate and s not in state.eliminated]


def missing_reveals(state: RoundState) -> list[int]:
    """The scoring seats whose hands must still be shown before the round is scored.

    A seat known to hold no card need not show it; without reported draws, though, a count of 0
    is only the deal less the cards played (every draw unseen), so such a seat must show its hand
    too: scoring it as empty would give the round 0 points and ignore the reveal that follows.
    """
    known = state.match.counts_known
    counts = state.counts
    return [s for s in _scoring_seats(state) if s not in state.reveals and not (known and counts[s] == 0)]


def _hand_points(state: RoundState, cards: tuple[Card, ...]) -> int:
    fraction_points = state.match.options.fraction_points
    total = 0
    for card in cards:
        total += fraction_points if card.is_fraction else card.points()
    return total


def score(state: RoundState, out: list[OutputLine]) -> None:
    """Score the round from the hands shown: ``round_end`` with the points, ``scores``, and the
    match's end when a seat reached the target."""
    state.scored = True
    winner = state.round_winner
    assert winner is not None
    match = state.match
    own = {s: _hand_points(state, state.reveals.get(s, ())) for s in _scoring_seats(state)}
    points = sum(own.values())
    mate = match.partner(winner)
    if match.options.scoring == "winner_takes":
        match.scores[winner] += points
        if mate is not None:
            match.scores[mate] += points
    else:
        for s, p in own.items():
            match.scores[s] += p
    line: RoundEndLine = {"type": "round_end", "winner": winner, "points": points, "round": match.round}
    out.append(_with_team(line, match, winner))
    out.append({"type": "scores", "scores": list(match.scores), "round": match.round})
    _check_match_end(match, state.round_winner, out)


def _lowest(match: MatchState) -> int:
    return min(range(match.players), key=lambda s: (match.scores[s], s))


def _eliminate(match: MatchState, out: list[OutputLine]) -> int | None:
    """``scoring=elimination``: seats at the target are out; the last seat left wins."""
    for s in range(match.players):
        if s not in match.eliminated and match.scores[s] >= match.options.target:
            match.eliminated.add(s)
            out.append({"type": "eliminated", "seat": s, "score": match.scores[s]})
    left = [s for s in range(match.players) if s not in match.eliminated]
    if len(left) == 1:
        return left[0]
    if not left:
        return _lowest(match)
    return None


def _match_winner(match: MatchState, round_winner: int | None, out: list[OutputLine]) -> int | None:
    scoring = match.options.scoring
    target = match.options.target
    if scoring == "winner_takes":
        best = max(match.scores)
        if best < target:
            return None
        winner = round_winner if round_winner is not None else 0
        return winner if match.scores[winner] >= best else match.scores.index(best)
    if scoring == "own_points":
        return _lowest(match) if max(match.scores) >= target else None
    return _eliminate(match, out)


def _check_match_end(match: MatchState, round_winner: int | None, out: list[OutputLine]) -> None:
    winner = _match_winner(match, round_winner, out)
    if winner is not None:
        match.match_over = True
        match.match_winner = winner
        line: MatchEndLine = {"type": "match_end", "winner": winner, "scores": list(match.scores)}
        out.append(_with_team(line, match, winner))
