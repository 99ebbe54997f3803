"""Simulated UNO matches: an independent oracle for the referee.

The simulator deals a real deck, knows every hand, plays complete legal matches (several rounds up
to the target) and writes down only what is public at the table, as contract-2 observations. It can
also inject one misplay of a chosen alert kind and says which alerts the referee must raise; or play
one round with several misplays made one after another at set turns (:func:`simulate_scripted_round`,
for filmed games).

It is deliberately a second, separate implementation of the rules: it imports the card model and
nothing of the referee's logic, so a disagreement between the two is a bug in one of them.

Its players are *conservative*: where the rule sheets disagree they choose moves that are legal
under every reading (a Wild Draw Four only when nothing else in the hand could be played, a jump-in
only with an identical coloured number, a seven-zero card never when a one-card hand would change
owner), so a legal simulated game must never raise an alert under any preset.

What the table reports: every play (a wild's colour in the play, in a separate ``color`` line, or,
for legal games on request, never), every draw with its count (penalty draws too), a ``pass`` after
drawing without playing, ``uno`` right after the play that leaves one card, a challenge and the
challenged hand, and at a round's end the final +2/+4 draw and every other hand (``reveal``).
Seats are given (or, on request, ``null`` for in-turn actions).

How each injected misplay is made (then play goes on legally; a misplayed card stays on the pile and
takes effect, play goes on from the seat that played it, and its player draws the penalty):

* ``illegal_card``: the seat in turn plays a plain card matching neither colour nor face.
* ``out_of_turn``: another seat (not one that was just skipped) plays a plain card, not identical
  to the top card (that could be a legal jump-in).
* ``skipped_turn_played``: the seat skipped by a skip (or a 2-player reverse, or a +2/+4 it has
  drawn) plays; or the victim of a pending +2/+4 plays a card instead of drawing (it still owes
  them).
* ``missed_draw_penalty``: the victim of a +2/+4 draws nothing and the next seat plays; the cards
  are drawn late.
* ``missed_uno``: a seat plays its second-last card without calling and the next seat acts.
* ``illegal_wild_draw_four``: a seat holding the current colour plays a +4; the victim challenges
  and the hand is shown (``how="challenge"``), or nobody challenges and the bluffer later plays that
  colour without having drawn or swapped hands (``how="inference"``; if that never happens, the
  match counts as not injected).
* ``failed_challenge``: the victim of an honest +4 challenges.
* ``impossible_card``: a card the preset's deck does not hold (of the current colour, so that it
  would otherwise match) was in a hand instead of a real one and is played; the table removes it at
  the next reshuffle.

Misplays that need hand counts (UNO, missed draws, inference) wait for the first reported draw.

Pure: standard library only; all randomness comes from ``random.Random(seed)``.

The observations are typed (:mod:`referee.contract`); :meth:`SimulatedGame.log` writes them as the
observation log's JSON.

>>> game = simulate_game(7, "official", 3)
>>> type(game.observations[0]).__name__, game.log()[0]["type"], game.expected_alerts
('Setup', 'setup', [])
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.contract import ALERT_CODES, Observation, ObservationDict, observation_json
from referee.rules.sim_misplays import MISPLAYS
from referee.rules.sim_rules import SimRules
from referee.rules.sim_table import SimTable

__all__ = [
    "ALERT_CODES",
    "SIM_PRESETS",
    "SimRules",
    "SimulatedGame",
    "simulate_game",
    "simulate_games",
    "simulate_scripted_round",
]

#: Presets the simulator can play, with the deck each one uses.
SIM_PRESETS: tuple[str, ...] = ("official", "nl", "de", "lb", "breuken", "house")


@dataclass
class SimulatedGame:
    """One simulated match: what the table showed and what the referee must say about it."""

    seed: int
    preset: str
    players: int
    inject: str | None
    observations: list[Observation]
    #: ``(code, seat)`` for every alert the referee must raise, in order
    expected_alerts: list[tuple[str, int]]
    #: True when the requested misplay was actually made (a match can end before a chance arises)
    injected: bool
    final_scores: list[int]
    rounds: int
    winner: int | None
    #: how the misplay was made, e.g. ``"challenge"`` or ``"inference"`` for a bluffed +4
    how: str | None = None

    def log(self) -> list[ObservationDict]:
        """The observations as the observation log's JSON (contract 2), one object each."""
        return [observation_json(obs) for obs in self.observations]


def simulate_game(
    seed: int,
    preset: str = "official",
    players: int = 4,
    inject: str | None = None,
    *,
    options: Mapping[str, Any] | None = None,
    max_rounds: int = 50,
    separate_colour: float = 0.2,
    unnamed_colour: float = 0.0,
    anonymous_seats: float = 0.0,
) -> SimulatedGame:
    """Play one match (rounds up to the target, at most ``max_rounds``) and record it.

    ``inject`` names an alert code: once, at a random point, a player makes that misplay; the game
    then goes on legally. ``expected_alerts`` lists ``(code, seat)`` the referee must raise.

    How the table reports a wild's colour: in a separate ``color`` line with probability
    ``separate_colour``, never with ``unnamed_colour`` (the referee must infer it), else in the
    play.
    ``anonymous_seats``: probability that an in-turn play, draw or pass comes with ``seat: null``.
    Both of those last two make some misplays unjudgeable, so they need ``inject=None``.
    """
    if inject is not None and (unnamed_colour or anonymous_seats):
        raise ValueError("unnamed_colour and anonymous_seats are for legal games (inject=None)")
    rules = SimRules.for_preset(preset, options)
    table = SimTable(
        seed,
        rules,
        players,
        inject,
        misplays=MISPLAYS,
        max_rounds=max_rounds,
        separate_colour=separate_colour,
        unnamed_colour=unnamed_colour,
        anonymous_seats=anonymous_seats,
    )
    return _played(table, seed, preset, players, inject)


def _played(table: SimTable, seed: int, preset: str, players: int, inject: str | None) -> SimulatedGame:
    """Play ``table``'s match out; what it came to."""
    table.play_match()
    return SimulatedGame(
        seed=seed,
        preset=preset,
        players=players,
        inject=inject,
        observations=table.obs,
        expected_alerts=table.expected,
        injected=table.injected,
        final_scores=list(table.scores),
        rounds=table.rounds,
        winner=table.winner,
        how=table.how if table.injected else None,
    )


def simulate_scripted_round(
    seed: int,
    preset: str = "official",
    players: int = 4,
    misplays: Sequence[str] = (),
    *,
    first_after: int = 3,
    gap: int = 4,
    dealer: int | None = None,
    hand_size: int | None = None,
) -> SimulatedGame:
    """Play one round with ``misplays`` (alert codes) made one after another, as a filmed game has them.

    The first misplay is made at its first chance once ``first_after`` turns have been played, each
    next one at its first chance at least ``gap`` turns after the one before; misplays that find no
    chance before the round ends are not made. ``dealer`` fixes the dealer (``None``: drawn). Wild
    colours are named in the play. ``expected_alerts`` lists the alerts of every misplay made;
    ``injected`` says whether any was. ``hand_size`` deals that many cards each (``None``: the
    preset's, 7 for every sheet); the ``setup`` line says so in its ``hand_size``, as a table that
    agreed on short hands would tell the referee (a short round fits a short video).
    """
    rules = SimRules.for_preset(preset)
    if hand_size is not None:
        if not 1 <= hand_size <= 30:
            raise ValueError(f"hand_size must be 1..30 (as a setup's), got {hand_size}")
        rules = replace(rules, hand_size=hand_size)
    table = SimTable(
        seed,
        rules,
        players,
        misplays[0] if misplays else None,
        misplays=MISPLAYS,
        max_rounds=1,
        separate_colour=0.0,
        then=misplays[1:],
        first_after=first_after,
        gap=gap,
        dealer=dealer,
    )
    return _played(table, seed, preset, players, misplays[0] if misplays else None)


def simulate_games(
    count: int, *, first_seed: int = 0, inject: str | None = None
) -> Iterator[SimulatedGame]:
    """``count`` matches over every preset and 2..6 players, seeds ``first_seed`` onwards."""
    for seed in range(first_seed, first_seed + count):
        preset = SIM_PRESETS[seed % len(SIM_PRESETS)]
        players = 2 + (seed // len(SIM_PRESETS)) % 5
        yield simulate_game(seed, preset, players, inject)
