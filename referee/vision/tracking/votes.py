"""How sure a tentative card's vote is, and the label it settles on (the rules help an unsure one)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from referee.cards import BLACK_VALUES, Colour
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.state import Candidate, Share, colour_of, face


def near_tie(cfg: TrackerConfig, ranked: Sequence[Share]) -> bool:
    """The runner-up's share of the vote is close to the leader's (``unsure_runner_up``)."""
    return len(ranked) > 1 and ranked[1].share >= cfg.unsure_runner_up * ranked[0].share


def unsure(cfg: TrackerConfig, cand: Candidate) -> bool:
    """Read with little confidence, or split between two labels near a tie (a hand hiding part
    of a card leaves what shows readable two ways, each box sure of itself)."""
    return near_tie(cfg, cand.ranked()) or float(np.mean(cand.confidence)) < cfg.unsure_confidence


def unread(cfg: TrackerConfig, cand: Candidate) -> bool:
    """Found, never read surely: its steady frames' confidences average under ``min_confidence`` (boxes
    kept for their card-ness, :attr:`~referee.vision.detections.Detections.cardness`: a printing the
    detector finds but cannot read, or a strip of a card below). Only a closer look can name it."""
    return bool(cand.confidence) and float(np.mean(cand.confidence)) < cfg.min_confidence


def read_surely(cfg: TrackerConfig, cand: Candidate) -> bool:
    """Read at ``min_confidence`` or more at least once, as any label (``surest``)."""
    return max(cand.surest.values(), default=0.0) >= cfg.min_confidence


def colour_doubtful(cfg: TrackerConfig, cand: Candidate) -> bool:
    """The leading label's colour was read with little confidence (``wait_colour``)."""
    best = cand.leading
    return best is not None and cand.colour_confidence(best) < cfg.wait_colour


def upside_down_tie(cfg: TrackerConfig, cand: Candidate) -> bool:
    """``cand`` is read surely, split between a 6 and a 9 of one colour: a card surely there, only
    which way up in doubt (a half turn and an underline tell them apart). Its changing the pile's
    grey levels little says nothing of whether it was laid."""
    ranked = cand.ranked()
    if len(ranked) < 2 or float(np.mean(cand.confidence)) < cfg.unsure_confidence:
        return False
    first, second = ranked[0].label, ranked[1].label
    return ({face(first), face(second)} == {"6", "9"}
            and colour_of(first) == colour_of(second))


@dataclass(frozen=True, slots=True)
class Decision:
    """The label a tentative card settles on and, when a reading was put right, the label first voted
    (``corrected_from``) and why (``reason``)."""

    label: str
    corrected_from: str | None = None
    reason: str | None = None

    def corrected(self, label: str, reason: str) -> Decision:
        """``label`` instead, for ``reason``; what was first voted stays the first correction's."""
        first = self.label if self.corrected_from is None else self.corrected_from
        return Decision(label, first, reason)


def decide(
    cfg: TrackerConfig, cand: Candidate, legal_now: Callable[[str], bool] | None, palette: Sequence[Colour]
) -> Decision:
    """The voted label, or a legal alternative when the vote is unsure and the winner illegal: a
    runner-up with a real share of the vote, or the same face in the only legal colour of the deck's
    ``palette`` (then the decision says what was put right)."""
    ranked = cand.ranked()
    best = ranked[0].label
    voted = Decision(best)
    colour_conf = cand.colour_confidence(best)
    colour_unsure = colour_conf < cfg.unsure_colour
    doubt = colour_unsure or near_tie(cfg, ranked)
    if not doubt or legal_now is None or legal_now(best):
        return voted
    for label, label_share in ranked[1:]:
        if label_share >= 0.15 and legal_now(label):
            return voted.corrected(label, "unsure read; the runner-up is legal")
    if colour_unsure and "_" in best and best not in BLACK_VALUES:
        best_face = face(best)
        legal = [f"{c.value}_{best_face}" for c in palette if f"{c.value}_{best_face}" != best]
        legal = [label for label in legal if legal_now(label)]
        if len(legal) == 1:
            return voted.corrected(legal[0], "unsure colour; the only legal one")
    return voted


def in_voted_colour(cand: Candidate, label: str) -> str:
    """``label`` in the colour ``cand`` was read in with ``label``'s face, where it was so read (its largest
    vote among that face's colours). A closer look that puts a face right otherwise keeps the colour of the
    label it corrects, which can come from frames read under a hand (skin reads as a warm colour) while the
    card's clear frames read the face and its colour right. A black card, or a face never voted, stays."""
    if "_" not in label or label in BLACK_VALUES:
        return label
    wanted = face(label)
    same_face = {read: weight for read, weight in cand.votes.items()
                 if "_" in read and read not in BLACK_VALUES and face(read) == wanted}
    return max(same_face, key=lambda read: same_face[read]) if same_face else label
