"""The facts of a preset the simulator (:mod:`referee.rules.simulate`) plays by: option values read
from the preset table, never the referee's logic."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card, DeckSpec, find_deck

__all__ = ["SimRules"]


@dataclass(frozen=True)
class SimRules:
    """The facts of a preset the simulator plays by: option values, never the referee's logic."""

    preset: str
    deck: DeckSpec
    hand_size: int = 7
    target: int = 500
    scoring: str = "winner_takes"
    stack_draw2: bool = False
    stack_draw4: bool = False
    #: a +2 of the named colour on a +4, a +4 on a +2
    stack_mixed: bool = False
    #: the victim of a +2/+4 may send it back with a reverse of the current colour
    reverse_deflects_draw: bool = False
    jump_in: bool = False
    seven_zero: bool = False
    two_player_reverse_skip: bool = True
    #: who acts first after a reverse start card: "dealer" or "right_of_dealer"
    reverse_start: str = "dealer"
    uno_penalty: int = 2
    misplay_penalty: int = 2
    challenge_guilty_penalty: int = 4
    challenge_failed_penalty: int = 2
    #: a guilty Wild Draw Four goes back to its player's hand
    challenge_takeback: bool = False
    #: ... who must then play a card again
    challenge_guilty_replays: bool = False
    fraction_points: int = 1
    #: the ``setup.options`` this simulation announces
    options: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def for_preset(cls, preset: str, options: Mapping[str, Any] | None = None) -> SimRules:
        """The simulator's rules for ``preset`` with ``options`` (contract-4 names) applied.

        The option *values* come from the preset table (data the referee's docs cite per sheet), so
        both sides agree on what was chosen; what the options *mean* is implemented here again.
        """
        from referee.rules.presets import find_preset

        opts = dict(options or {})
        facts = find_preset(preset).with_overrides(opts)
        unsupported = [
            name
            for name in ("teams", "draw_until_playable")
            if getattr(facts, name)
        ]
        if facts.scoring == "elimination":
            unsupported.append("scoring=elimination")
        if unsupported:
            raise ValueError(f"simulator does not play {', '.join(unsupported)}")
        return cls(
            preset=facts.preset,
            deck=find_deck(facts.deck),
            hand_size=facts.hand_size,
            target=facts.target,
            scoring=facts.scoring,
            stack_draw2=facts.stack_draw2,
            stack_draw4=facts.stack_draw4,
            stack_mixed=facts.stack_mixed,
            reverse_deflects_draw=facts.reverse_deflects_draw,
            jump_in=facts.jump_in,
            seven_zero=facts.seven_zero,
            two_player_reverse_skip=facts.two_player_reverse_skip,
            reverse_start=facts.reverse_start,
            uno_penalty=facts.uno_penalty,
            misplay_penalty=facts.misplay_penalty,
            challenge_guilty_penalty=facts.challenge_guilty_penalty,
            challenge_failed_penalty=facts.challenge_failed_penalty,
            challenge_takeback=facts.challenge_takeback,
            challenge_guilty_replays=facts.challenge_guilty_replays,
            fraction_points=facts.fraction_points,
            options=opts,
        )

    def points(self, card: Card) -> int:
        """What ``card`` left in a hand scores."""
        return self.fraction_points if card.is_fraction else card.points()
