"""The reasons a tentative card about to be believed is no new card, as an ordered list of named rules.

Each rule says whether the card read as ``label`` is a card already on the pile read again (or a misread
of what lay there); the first that does vetoes it (:func:`veto`), and the tracker keeps it as a silent
reading. Some rules add the reading to the pile card's own (``reads``) or find that card again
(``missing``), so they run in order and stop at the first veto.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from referee.vision.detections import box_area, intersection, iou
from referee.vision.tracking.boxes import Box, changed_under, containment, in_pose, low_res_area, over_most_of
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.frame import FrameFacts
from referee.vision.tracking.known import remembered
from referee.vision.tracking.state import Candidate, PileCard, colour_of
from referee.vision.tracking.twins import came_in
from referee.vision.tracking.votes import unread, unsure, upside_down_tie
from referee.vision.tracking.waits import in_place_under_top, in_top_pose, part_of_top

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Judging:
    """What the vetoes see as one tentative card is judged."""

    cfg: TrackerConfig
    frame: FrameFacts
    #: The pile as believed so far (a veto may update a card on it).
    pile: Sequence[PileCard]
    #: The other tentative cards, ready with it or not.
    others: Sequence[Candidate]
    #: Whether the deck can still hold a card (``Referee.possible_now``; ``None``: not asked).
    possible_now: Callable[[str], bool] | None = None

    @property
    def top(self) -> PileCard | None:
        return self.pile[-1] if self.pile else None


def reread_of_top(ctx: Judging, cand: Candidate, label: str) -> bool:
    """Another label in the top card's own pose, settled within half a take-back time of the top
    card being believed: no hand can have laid a new card there that fast, so the detector changed
    its mind about the top card. Its readings join the top card's (no new play)."""
    cfg, top = ctx.cfg, ctx.top
    if top is None or iou(cand.pose, top.xyxy) < cfg.same_pose_iou:
        return False
    if cand.first_frame - top.frame_index >= cfg.takeback_frames // 2:
        return False
    top.reads = top.reads | cand.reads()
    log.info("%s read again as %s in its own pose: no new card", top.label, cand.leading)
    return True


def top_still_settling(ctx: Judging, cand: Candidate, label: str) -> bool:
    """The top card's own label, from the seat that laid it in the same hand visit, over its pose
    (``reread_iou``), first seen within half a take-back time of it being believed: the top card, believed
    on its way in (its box steady a moment, half hidden under the hand), coming to rest further on. No
    hand lays two cards of one face that fast; a card like it laid by the next hand comes with that
    hand. The top card's pose is the one it came to rest in."""
    cfg, top = ctx.cfg, ctx.top
    if (top is None or label != top.label or cand.visit is None or cand.visit != top.visit
            or cand.seat is None or cand.seat != top.seat or iou(cand.pose, top.xyxy) < cfg.reread_iou
            or cand.first_frame - top.frame_index >= cfg.takeback_frames // 2):
        return False
    top.xyxy = top.rest = cand.pose
    log.info("%s seen again further on in the visit that laid it: come to rest there, no new card", label)
    return True


def reread_in_same_visit(ctx: Judging, cand: Candidate, label: str) -> bool:
    """A new label where a card already lies, with no hand at the pile since the top card was laid:
    nothing can have been put there, so the detector changed its mind about that card (the top one
    or one peeking out under it). Its readings join that card's (no new play). Only when hand visits
    are counted; an identical card (a jump-in) is left to its own rule, and cards believed in this
    same frame (a pile the camera found already laid) are not compared with each other.

    The top card is the one on top now, or the one on top when the reading took its pose: an
    unsure reading waits for a clear view, and a card laid meanwhile by the next hand says nothing
    of it. Seen coming in from outside that card's pose, it was laid there: the next hand came
    before the last had gone, in one visit."""
    cfg, pile = ctx.cfg, ctx.pile
    then = next((c for c in reversed(pile) if c.frame_index < cand.first_frame), None)
    top = next((c for c in (ctx.top, then) if c is not None and c.visit == cand.visit), None)
    if (top is None or cand.visit is None or cand.identical or label == top.label
            or top.frame_index >= ctx.frame.index):
        return False
    card = next((c for c in reversed(remembered(cfg, pile)) if iou(cand.pose, c.xyxy) >= cfg.reread_iou
                 or containment(cand.pose, c.xyxy) >= cfg.known_containment), None)
    if card is None or came_in(cfg, cand, card.xyxy, cand.pose, label):
        return False
    card.reads = card.reads | cand.reads()
    log.info("%s read as %s with no hand at the pile since %s was laid: no new card", card.label, label,
             top.label)
    return True


def nothing_laid_there(ctx: Judging, cand: Candidate, label: str) -> bool:
    """An unsure reading where the pile looks as it did before the hand came: no card was laid
    there (a hand crossing the pile to the stock made the detector see a card in what was
    already lying there). Identical cards are left to their own rule: one laid square on its
    twin changes little. A reading of a card the deck cannot hold any more is as doubtful as an
    unsure one, however sure the detector: a foreign card really laid changes the pile."""
    cfg, frame = ctx.cfg, ctx.frame
    before, now = cand.before, frame.pile_now
    if cand.identical or before is None or now is None or before.shape != now.shape:
        return False
    doubtful = unsure(cfg, cand) and not upside_down_tie(cfg, cand)
    possible = ctx.possible_now is None or ctx.possible_now(label)
    if not doubtful and possible:
        return False
    top = ctx.top
    if top is None:
        # Nothing lies on the pile to be misread: a reading there is the first card, however little it
        # changed the grey levels (a pale start card on grey wood).
        return False
    impossible_top = label == top.label and not possible
    if (top.missing >= cfg.min_hits and iou(cand.pose, top.xyxy) < cfg.same_pose_iou
            and over_most_of(cfg, cand.pose, top.xyxy) and not impossible_top):
        # The top card has gone from view under it, in another pose: a card was laid over it, one
        # that changed the pile's grey levels little (a card on one of its colour). Not when it reads as
        # the top card itself and the deck holds no other copy: then no such card can have been laid.
        return False
    if (possible and label not in top.reads | top.read_otherwise | {top.label}
            and cand.surest.get(label, 0.0) >= cfg.unsure_confidence
            and cand.clear >= cfg.min_hits and top.missing >= cand.clear
            and iou(cand.pose, top.xyxy) >= cfg.same_pose_iou):
        # In clear view, the top card's own pose reads as another card, steadily, never as the top card, and
        # surely at times: a card laid square on it, unsure only while the hand was over it. One of the top
        # card's colour and layout changes only its symbols, too little of the pile's picture to tell. A misread
        # of the top card under a passing hand reads as the top card again once the hand has gone; a card the
        # detector read two ways in the visit that laid it can settle on the other way with no card laid, so a
        # face the top card was read as is no evidence (as for a card laid square and read closer up, .square).
        return False
    under = changed_under(before, now, cand.pose, frame.pile_size, cfg.change_level)
    if under is None:
        return False
    area, changed_px = under
    # A card believed laid in this visit changed the pixels it lies on: the rest of the box tells
    # (strips of older cards beside a card just laid, boxed together, read as a card).
    outside = outside_laid_in_visit(ctx.pile, frame.pile_size, cand, area, now.shape)
    if outside is not None and outside.mean() >= cfg.beside_laid_share:
        changed_px = changed_px[outside]
    changed = float(np.mean(changed_px))
    if changed >= cfg.laid_share:
        return False
    log.info("%s read %s (%.2f) where the pile is as it was before the hand came (%.0f%% changed): "
             "no new card", label, "unsure" if unsure(cfg, cand) else "as a card the deck cannot hold",
             float(np.mean(cand.confidence)), 100 * changed)
    return True


def outside_laid_in_visit(
    pile: Sequence[PileCard], pile_size: tuple[int, int], cand: Candidate, area: tuple[slice, slice],
    shape: tuple[int, ...],
) -> npt.NDArray[np.bool_] | None:
    """Which pixels of ``area`` (of a low-resolution pile image of ``shape``) lie outside the boxes
    of the cards believed laid in ``cand``'s visit; ``None`` when no card was."""
    laid = [c.xyxy for c in pile if cand.visit is not None and c.visit == cand.visit]
    return outside(laid, area, pile_size, shape) if laid else None


def outside(boxes: Sequence[Box], area: tuple[slice, slice], pile_size: tuple[int, int], shape: tuple[int, ...]
            ) -> npt.NDArray[np.bool_]:
    """Which pixels of ``area`` (of a low-resolution pile image of ``shape``) lie outside every one of ``boxes``
    (pixels of the pile view, of ``pile_size``)."""
    rows, cols = area
    mask = np.ones((rows.stop - rows.start, cols.stop - cols.start), dtype=bool)
    for box in boxes:
        inner = low_res_area(box, pile_size, shape)
        if inner is None:
            continue
        r1, r2 = max(inner[0].start, rows.start), min(inner[0].stop, rows.stop)
        c1, c2 = max(inner[1].start, cols.start), min(inner[1].stop, cols.stop)
        if r2 > r1 and c2 > c1:
            mask[r1 - rows.start:r2 - rows.start, c1 - cols.start:c2 - cols.start] = False
    return mask


def strip_of_card_below(ctx: Judging, cand: Candidate, label: str) -> bool:
    """An unsure reading, one of the top card's own label in the hand visit that laid it, or one read as the card
    below too, that showed up in place (never moved in) inside the pose of a card under the top one, over little
    of the top card or beside a top card that still reads whole: the part of that card that shows beside the top
    one, misread, not a card laid. A card laid now lies over the top card, hiding some of it, and slides or
    drops in with the hand. The strip left showing beside a card just laid is read as that card as often
    as not, however surely (the detector names the pair by the face it sees whole): a second card of the
    same face, in the same hand's visit, in place inside the card below, is that echo. And a strip read as the card
    it is part of for a real share of its vote (:meth:`~.state.Candidate.reads`), however surely as another face
    (a ring-printed 3 read as 8, half hidden), is that card."""
    top = ctx.top
    card = in_place_under_top(ctx.cfg, ctx.pile, cand)
    if card is None:
        return False
    echo = (top is not None and label == top.label and cand.visit is not None and cand.visit == top.visit)
    itself = label != card.label and card.label in cand.reads()
    doubtful = unsure(ctx.cfg, cand)
    if not (echo or itself or doubtful):
        return False
    how = ("as the top card" if echo else f"unsure ({float(np.mean(cand.confidence)):.2f})" if doubtful
           else f"also as {card.label}")
    log.info("%s read %s in place inside %s's pose, beside the top card: that card showing, no new card",
             label, how, card.label)
    return True


def buried_card_beside(ctx: Judging, cand: Candidate, label: str) -> bool:
    """A reading inside the pose of a card on the pile, as that card (or its face, the colour read
    unsure) or read unsure, that reaches under a card being laid since before it was read (one of
    ``others``, tentative or believed with it, steady for as long as a card must be): that card,
    uncovered in part as the new one settled on it and read from the part that shows, not a card
    laid over the new one. Which of two cards believed at once lies on top is otherwise told by
    age alone, and a card read sure in a clear view sooner is believed first. A box found but never
    read (:func:`~referee.vision.tracking.votes.unread`) is no card being laid: most often it is the
    strip of a card below that the new one left showing."""
    cfg = ctx.cfg
    recent = remembered(cfg, ctx.pile)
    if not any(other is not cand and not other.absorbed and other.first_frame < cand.first_frame
               and other.hits >= cfg.min_hits and not unread(cfg, other)
               and intersection(cand.pose, other.pose) >= cfg.spoiling_overlap * box_area(cand.pose)
               # a pile card read otherwise in its pose, in the visit that laid it, is no card being laid
               and not any(iou(other.pose, c.xyxy) >= cfg.same_pose_iou
                           and (other.visit is None or c.visit is None or other.visit <= c.visit)
                           for c in recent)
               for other in ctx.others):
        return False
    doubt = unsure(cfg, cand)
    card = next((c for c in reversed(recent)
                 if (doubt or c.answers_to(label, cand.colour_confidence(label), cfg.unsure_colour))
                 and containment(cand.pose, c.xyxy) >= cfg.known_containment), None)
    if card is None:
        return False
    card.missing = 0
    log.info("%s read inside %s's pose, under a card being laid: that card showing, no new card", label,
             card.label)
    return True


def top_beside_card_being_laid(ctx: Judging, cand: Candidate, label: str) -> bool:
    """A reading inside the top card's pose and smaller (:func:`part_of_top`), in the top card's colour or
    unsure, where the rest of that pose (``covered_rest_share`` of it) lies under another card being laid: a
    tentative card steady for as long as a card must be, found and read, reaching out of the top card's pose.
    What the new card leaves showing of the top one, read as another face of its colour (the upper half of
    a 4 reads as a 1), not a card laid: a card laid now lies over the top card whole, and whichever of the two
    boxes the detector found first (the top card's strip is often boxed on its own as the hand brings the new
    one in, before the new one is), the top card's rest lies under the new card, never the other way round."""
    cfg, top = ctx.cfg, ctx.top
    if top is None or not part_of_top(cfg, top, cand):
        return False
    if colour_of(label) != colour_of(top.label) and not unsure(cfg, cand):
        return False
    rest = box_area(top.xyxy) - intersection(cand.pose, top.xyxy)
    if rest <= 0:
        return False
    shown = _overlap(cand.pose, top.xyxy)
    laid = next((other for other in ctx.others
                 if other is not cand and not other.absorbed and other.hits >= cfg.min_hits and not unread(cfg, other)
                 and containment(other.pose, top.xyxy) < cfg.known_containment
                 and (intersection(other.pose, top.xyxy) - (0.0 if shown is None else intersection(other.pose, shown)))
                 >= cfg.covered_rest_share * rest), None)
    if laid is None:
        return False
    log.info("%s read inside %s's pose, the rest of it under a card being laid: that card showing, no new card",
             label, top.label)
    return True


def top_beside_hidden_rest(ctx: Judging, cand: Candidate, label: str) -> bool:
    """A reading inside the top card's pose and smaller (:func:`part_of_top`), in the top card's colour or unsure,
    where the rest of that pose is hidden: ``hidden_rest_share`` of its picture changed since before the hand visit.
    What a hand held still over the top card leaves showing of it (no arm is seen over the pile when a hand keeps
    still at its edge, so the view looks clear), not a card laid: a card laid now inside the top one's pose shows
    whole once the hand has gone, and is judged in that pose then. (A card being laid over the rest, read, is
    :func:`top_beside_card_being_laid`'s.)"""
    cfg, frame, top = ctx.cfg, ctx.frame, ctx.top
    before, now = cand.before, frame.pile_now
    if (top is None or before is None or now is None or before.shape != now.shape
            or not part_of_top(cfg, top, cand)):
        return False
    if colour_of(label) != colour_of(top.label) and not unsure(cfg, cand):
        return False
    under = changed_under(before, now, top.xyxy, frame.pile_size, cfg.change_level)
    if under is None:
        return False
    area, changed = under
    rest = outside([cand.pose], area, frame.pile_size, now.shape)
    hidden = float(changed[rest].mean()) if rest.any() else 0.0
    if hidden < cfg.hidden_rest_share:
        return False
    log.info("%s read inside %s's pose, the rest of it hidden (%.0f%% changed): that card showing, no new card",
             label, top.label, 100 * hidden)
    return True


def _overlap(a: Box, b: Box) -> Box | None:
    """The box two xyxy boxes share (``None``: they share none)."""
    x1, y1, x2, y2 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return np.array([x1, y1, x2, y2], np.float32) if x2 > x1 and y2 > y1 else None


def copy_the_deck_cannot_hold(ctx: Judging, cand: Candidate, label: str) -> bool:
    """Read as the top card, a twin laid on it, where the deck holds no other copy (``possible_now``: every copy
    has been seen on the pile): the top card seen again, in a box the tracker did not place it in (found under
    a hand by the pile's picture changing, say, and placed in the pose of the card it covered), not a second
    copy laid. Only the top card's own label: a card read as one further down is more often another card
    misread, which the closer look or a re-read puts right once it is said (a 3 read as an 8 already played).
    Only in the top card's pose (:func:`~referee.vision.tracking.boxes.in_pose`): a box reaching well out of
    it is a card laid over the top one, and one the deck cannot hold is that card misread (a ring-printing blue
    draw two read as the blue 4 under it, the last of its two copies): the closer look names it."""
    top = ctx.top
    if top is None or label != top.label or ctx.possible_now is None or not in_pose(ctx.cfg, cand.pose, top.xyxy):
        return False
    return not ctx.possible_now(label)


def seen_through(cfg: TrackerConfig, cand: Candidate, named: str, others: Sequence[Candidate]) -> bool:
    """A card found but never read (:func:`~referee.vision.tracking.votes.unread`) that the closer look names
    ``named``, the label another tentative card reads as, read surely, covering most of its box
    (``seen_through_share``): the closer look read that card through the box, not a second card of its face.
    One hand lays one card; the box is most often the strip of a card below boxed with the new card's edge, and
    believed with it, the newer of the two, it would go on top of the card really laid (and, gone from view, be
    taken back with it)."""
    return any(other is not cand and not other.absorbed and other.leading == named and not unread(cfg, other)
               and intersection(cand.pose, other.pose) >= cfg.seen_through_share * box_area(cand.pose)
               for other in others)


Veto = Callable[[Judging, Candidate, str], bool]

#: :func:`copy_the_deck_cannot_hold`'s name: a card it finds to be no new card was found only to be no copy the
#: deck still holds, so what lies in the top card's pose is misread, and a card laid square on the top card
#: (:mod:`.square`) may be what it is.
DECK_COPY = "a twin of the top card the deck cannot hold"

#: The vetoes in the order they are tried.
VETOES: tuple[tuple[str, Veto], ...] = (
    ("read again in the top card's pose", reread_of_top),
    ("the top card coming to rest", top_still_settling),
    ("read again with no hand since", reread_in_same_visit),
    ("nothing laid there", nothing_laid_there),
    ("strip of a card below the top one", strip_of_card_below),
    ("buried card under a card being laid", buried_card_beside),
    ("the top card beside a card being laid over it", top_beside_card_being_laid),
    ("the top card beside a hand over it", top_beside_hidden_rest),
    (DECK_COPY, copy_the_deck_cannot_hold),
)


def veto(ctx: Judging, cand: Candidate, label: str) -> str | None:
    """The name of the first rule by which ``cand``, read as ``label``, is no new card (``None``: it may be)."""
    return next((name for name, rule in VETOES if rule(ctx, cand, label)), None)


def top_read_closer(cfg: TrackerConfig, top: PileCard | None, cand: Candidate, closer: str | None) -> bool:
    """Read otherwise in the top card's very pose, or inside it and smaller (:func:`part_of_top`: what a hand
    over the top card leaves of it), and read ``closer`` up as the top card: the top card misread in the pile
    view while a hand passed, not a new card (its readings join the top card's). An identical card laid
    square on it is left to its own rule. Asked after the closer look, once the vetoes found nothing."""
    if (closer is None or top is None or closer != top.label
            or not (in_top_pose(cfg, top, cand) or part_of_top(cfg, top, cand))):
        return False
    top.reads = top.reads | cand.reads()
    log.info("%s read as %s in its own pose, and as itself closer up: no new card", top.label,
             cand.leading)
    return True


def below_read_closer(cfg: TrackerConfig, pile: Sequence[PileCard], cand: Candidate, closer: str | None) -> bool:
    """Shown up in place inside the pose of a card under the top one (:func:`in_place_under_top`: the part of that
    card that shows beside the top one), read otherwise in the pile view and ``closer`` up as that card: that card's
    strip misread, not a card laid (a card laid now lies over the top card, and does not show up inside an older
    one's pose reading as it). Its readings join that card's. Asked after the closer look, once the vetoes found
    nothing, as :func:`top_read_closer` is for the top card."""
    if closer is None:
        return False
    card = in_place_under_top(cfg, pile, cand)
    if card is None or closer != card.label:
        return False
    card.reads = card.reads | cand.reads()
    log.info("%s read in place inside %s's pose, and as that card closer up: its strip showing, no new card",
             cand.leading, card.label)
    return True
