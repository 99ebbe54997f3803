"""Every knob of the pile tracker, with what raising or lowering it trades.

Times are in seconds: the debounce (norfair's ``initialization_delay`` and ``hit_counter_max``) is
a time a card must hold still, or may go unseen, and the tracker counts it in frames at ``fps``, the
rate frames are judged at (the pipeline sets it again when that rate changes, so a verdict does not
depend on how many frames a busy machine gets to judge). Shares are of a box's area or size, IoUs
compare two boxes, confidences are the detector's (0-1).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class TrackerConfig:
    """The debounce times (seconds) and thresholds; the frame counts the tracker uses are derived from
    the times at ``fps`` (:attr:`min_hits`, :attr:`max_misses`, :attr:`takeback_frames`,
    :attr:`reread_frames`), each with a floor of a few frames so that a slow rate still debounces."""

    #: Frames judged a second: the times below are counted in frames at this rate.
    fps: float = 30.0
    #: Time a new card must hold one pose before it is believed. Higher: fewer passing hands and glares
    #: believed, later plays; lower: quicker plays, more noise believed.
    settle_s: float = 0.15
    #: Time a tentative card may go unseen before it is dropped. Higher: a card hidden for a moment
    #: keeps its votes, and a misread lingers longer; lower: the reverse.
    drop_s: float = 0.2
    #: Time the top card must be gone, the card under it whole, before it counts as taken back. Higher:
    #: fewer false take-backs under a long hand visit; lower: a take-back undoes its play sooner.
    takeback_s: float = 1.0
    #: Detector confidence below which a box is ignored. Higher: fewer misreads, and more cards read too
    #: seldom to settle; lower: the reverse.
    min_confidence: float = 0.35
    #: Card-ness (the chance some face fires) at which a box whose face is under ``min_confidence`` is
    #: still a card found, read unsure and believed only once a closer look names it surely (a printing
    #: the detector cannot read, a card small in view). Higher: fewer such cards found; lower: more
    #: hands and strips found, each costing a closer look. The detector finds down to
    #: :data:`~referee.vision.detect.FIND_CONFIDENCE`.
    found_confidence: float = 0.15
    #: A box this close (IoU) to where a tentative card took its pose is the same pose: the card lies
    #: still. Higher: a card must lie stiller to settle; lower: a card still sliding may settle.
    stable_iou: float = 0.8
    #: IoU at which a box continues a tentative card from one frame to the next. Higher: fast cards lose
    #: their track (and votes); lower: one card's track may jump to a neighbour.
    match_iou: float = 0.3
    #: A detection this close (IoU) to a card already on the pile, below the top, is that card. Higher:
    #: more rereads of a pile card taken for new cards; lower: more cards laid near one taken for it.
    known_iou: float = 0.6
    #: ...or one this much inside its pose (the part that peeks out from under the cards above it).
    #: Higher: more strips taken for new cards; lower: more cards laid inside an older pose missed.
    known_containment: float = 0.85
    #: IoU at which a box lies in the top card's own pose (the top card is matched only there), and a
    #: card whole in it shows that nothing lies on it. Higher: more of the top card's boxes left to
    #: judge as new; lower: more cards laid nearly square on the top one taken for it.
    same_pose_iou: float = 0.75
    #: Share of moving pixels in a box above which the frame does not count towards what is read there.
    #: Higher: readings through a passing hand count; lower: cards under a stirring hand settle later.
    motion_block: float = 0.2
    #: Below this colour confidence a label is unsure: the vote may give way to a legal runner-up, and a
    #: pile card answers to its face in any colour. Higher: more rule-aided fixes, and injected misplays
    #: of another colour fixed away; lower: more misread colours kept.
    unsure_colour: float = 0.6
    #: A runner-up with at least this share of the leader's votes makes the vote a near tie (unsure).
    #: Higher: fewer fixes by a legal runner-up, more misreads kept; lower: more real misplays "fixed".
    unsure_runner_up: float = 0.7
    #: Below this mean colour confidence a reading also waits for a clear view (a hand beside a card
    #: tints it), and a clear-view reread needs a colour this sure. Higher: more waits, later plays;
    #: lower: more colours read through a hand's tint.
    wait_colour: float = 0.75
    #: Mean detector confidence below which (or with its vote a near tie) a card is unsure: confirmed
    #: only once no arm is over the pile, and only where the pile changed during the hand's visit.
    #: Higher: more real cards doubted (a card on a like card changes little); lower: more misreads played.
    unsure_confidence: float = 0.7
    #: Grey levels (of 255) a pixel must change by to count as changed by a hand's visit. Higher: pale
    #: cards on pale cards seem unchanged; lower: shadows and noise count as change.
    change_level: int = 30
    #: Share of an unsure card's box that must have changed in its visit for it to be a card laid.
    #: Higher: more real unsure cards dropped; lower: more misreads of what lay there played.
    laid_share: float = 0.15
    #: Where at least this share of the box lies outside the cards laid in its own visit, only that part
    #: is measured (the pixels under a card just laid changed for that card). Higher: such readings are
    #: measured whole more often (and pass); lower: a small rim outside decides.
    beside_laid_share: float = 0.25
    #: Cards remembered on the pile: the last this many laid, and any older one still showing; the others
    #: are buried for good. Higher: more old strips recognised, and more chances to mistake a new card for
    #: an old one; lower: the reverse.
    memory: int = 8
    #: Two boxes of one frame overlapping this much (IoU) are one card read two ways (per-class NMS).
    #: Higher: two readings of one card may become two cards; lower: two cards side by side may merge.
    duplicate_iou: float = 0.9
    #: A new reading overlapping a pile card this much (IoU, or inside it), with no hand visit since the
    #: top card was laid, is that card read again. Higher: fewer readings recognised as rereads; lower:
    #: more cards laid beside one in the same visit taken for it.
    reread_iou: float = 0.5
    #: A box first seen (or first read as its face) this much inside a pile card's pose came in over it
    #: only if it has since moved as a whole by ``came_in_shift`` of its size. Higher: fewer twins laid
    #: from nearby must prove their move; lower: more boxes swollen in place must.
    came_in_containment: float = 0.75
    #: How far (share of its size) a box must move as a whole to have moved at all: boxes of a still card
    #: jitter by 1-3 %. Higher: slow or short slides are missed; lower: jitter passes for a move.
    came_in_shift: float = 0.06
    #: Share of a box that a box in another pose must cover to spoil the view of it (lend it its colour,
    #: reach under it, slide over it). Higher: more readings taken at face value beside a card over them;
    #: lower: more readings doubted for a neighbour's edge.
    spoiling_overlap: float = 0.1
    #: A box sticking out of a pile card's pose by more than this share of its size (boxes of a still
    #: card jitter by 1-3 %) is not that card read otherwise, with no arm over the pile. Higher: more
    #: twins laid nearly square taken for the card; lower: jitter makes the same card a new one.
    max_overhang: float = 0.06
    #: The same for a card under the top one read as its own label: sticking out by more, with no arm over
    #: the pile, it is a card like it laid over it (a buried card only ever shows less of itself; twice
    #: ``max_overhang``, as its own label says more than another one does).
    max_buried_overhang: float = 0.12
    #: Share of the top card's box a reading in another pose must cover to be what hides it. Higher:
    #: fewer cards laid over the top one recognised so; lower: strips beside it taken for such cards.
    hides_top_share: float = 0.5
    #: Share of the top card's pose outside a reading inside it (a part of the top card) that a card being
    #: laid must cover for the reading to be what that card leaves showing of the top one. Higher: more such
    #: strips taken for cards; lower: a card laid inside the top one's pose beside another being laid dropped.
    covered_rest_share: float = 0.6
    #: Share of the top card's pose outside a reading inside it (a part of the top card) whose picture must have
    #: changed since before the hand visit, with no card read over it, for that rest to be hidden (by a hand held
    #: still beside the part, which the arms do not show) and the reading what the hand leaves of the top card.
    #: Fingers leave gaps. Higher: more such strips played; lower: a card laid inside the top one's pose beside a
    #: hand dropped. Measured on the real-card games (docs/tracker.md, ``top_beside_hidden_rest``): the strip of a top
    #: card beside a still hand 0.54-0.57, the other readings inside a top card's pose 0.0-0.14.
    hidden_rest_share: float = 0.4
    #: Share of a box found but never read that another tentative card read as the closer look's name for it must
    #: cover for the box to be that card seen through it. Higher: more second copies of a card just laid;
    #: lower: a card read only closer up, laid over its twin, dropped.
    seen_through_share: float = 0.5
    #: Share of a box lying where the top card, seen only in part with no arm over the pile, no longer
    #: shows, above which the box is a card laid over the top card, never one under it. Higher: fewer
    #: such cards told from older ones; lower: strips beside the top card taken for cards on it.
    over_top_share: float = 0.25
    #: A card believed under an arm (or on an unsure vote) is read again after this long in clear view
    #: in its pose (0: three times the settling). Higher: later but surer rereads; lower: quicker, noisier.
    reread_s: float = 0.0
    #: Share of those frames another label must lead in to reread the card. Higher: fewer rereads (and
    #: fewer false ones); lower: more misreads under a hand put right, more good reads flipped.
    reread_share: float = 0.9
    #: A card just landed whose pose is card-shaped and holds a card at least this share of the long side
    #: of the whole cards on the pile lies whole (:func:`referee.vision.card_shape.holds_whole_card`: the
    #: long side, not the box's area, which grows 2.1 times as a card turns to 45 degrees): its closer look
    #: may let the face classifier (which reads the camera's own pixels and was trained on whole cards)
    #: speak alone (``classify.CLASSIFIER_ALONE_CONFIDENCE``). Lower: more strips of half-hidden cards read
    #: by a model that never learned them; higher: fewer misreads of an unfamiliar printing put right.
    #: (0.8 of a card's area, as a length.)
    whole_length_share: float = 0.8**0.5

    @property
    def min_hits(self) -> int:
        """Steady frames a new card must hold one pose (``settle_s``; at least 3)."""
        return max(3, round(self.settle_s * self._rate))

    @property
    def max_misses(self) -> int:
        """Frames a tentative card may go unseen (``drop_s``; at least 2)."""
        return max(2, round(self.drop_s * self._rate))

    @property
    def takeback_frames(self) -> int:
        """Frames the top card must be gone before it counts as taken back (``takeback_s``; at least 4)."""
        return max(4, round(self.takeback_s * self._rate))

    @property
    def reread_frames(self) -> int:
        """Clear frames before a card believed under an arm is read again (``reread_s``, else three times
        :attr:`min_hits`)."""
        return max(1, round(self.reread_s * self._rate)) if self.reread_s > 0 else 3 * self.min_hits

    @property
    def _rate(self) -> float:
        return self.fps if self.fps > 0 else 30.0

    def at(self, fps: float) -> TrackerConfig:
        """The same times counted at ``fps`` frames judged a second."""
        return replace(self, fps=fps)

    @classmethod
    def for_fps(cls, fps: float, **overrides: Any) -> TrackerConfig:
        """The default times counted at ``fps`` (a camera's rate; 30 when unknown), with ``overrides``."""
        return cls(**{"fps": fps if fps and fps > 0 else 30.0, **overrides})
