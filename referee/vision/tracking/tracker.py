"""The pile tracker's loop: per frame, match the pile, associate, vote, confirm, emit.

:class:`PileTracker` is called once per frame, empty frames too (norfair style). Two knobs counted in
frames decide what is believed: a new card must hold one pose for ``min_hits`` frames before it counts,
and a tentative card unseen for ``max_misses`` frames is dropped (defaults from the fps,
:meth:`TrackerConfig.for_fps`). A card in a moving hand keeps changing pose, so it never settles; a
single glare frame can drop or misread a card for a frame or two without effect, because labels are
voted over the frames of the steady pose.

Each frame: the readings that are cards already on the pile are set aside (:mod:`.known`); the rest
continue tentative cards or start new ones (:mod:`.candidates`); a tentative card that has held still
long enough (and, if it may be a misread, had a clear view: :mod:`.waits`) is judged: no new card if a
veto says so (:mod:`.vetoes`), else a ``start`` or ``play``, its face read closer up first
(:mod:`.closer`). Then the top card may be re-read in clear view (:mod:`.reread`) or found taken back
(:mod:`.takeback`), and hands at the stock become draws (:mod:`.draws`).
"""

from __future__ import annotations

import logging
from collections import Counter, deque
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from referee.cards import CLASSIC_COLOURS, Colour
from referee.vision.detections import Detections, iou
from referee.vision.tracking.boxes import Box
from referee.vision.tracking.candidates import associate, drop_misreads
from referee.vision.tracking.closer import SecondLook, doubts, lies_whole, look_closer, name_unread
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.draws import Draws
from referee.vision.tracking.events import Play, Start, TrackerEvent
from referee.vision.tracking.frame import FrameFacts, read_frame
from referee.vision.tracking.known import match_known, without_found_in_pile
from referee.vision.tracking.motion import MotionSample
from referee.vision.tracking.pile import Pile
from referee.vision.tracking.reread import reread_in_clear_view
from referee.vision.tracking.square import handled, laid_square_on_top
from referee.vision.tracking.state import Candidate, PileCard
from referee.vision.tracking.takeback import check_take_back
from referee.vision.tracking.vetoes import Judging, below_read_closer, seen_through, top_read_closer, veto
from referee.vision.tracking.votes import Decision, decide, in_voted_colour, unread, unsure
from referee.vision.tracking.waits import (
    came_with_a_hand,
    hidden_part_of_top,
    needs_clear_view,
    voted_top_in_its_pose,
)

log = logging.getLogger(__name__)


class PileTracker:
    """Debounced pile state -> typed events (:mod:`referee.vision.tracking.events`): the contract-2
    observations :class:`Start`, :class:`Play` and :class:`Draw`, and two for the pipeline alone:
    :class:`TakeBack` (the top card lifted off) and :class:`Reread` (the top card read otherwise in
    clear view than under the hand that laid it).

    ``legal_now`` (usually ``Referee.legal_now``) lets the tracker fix unsure reads, and
    ``possible_now`` (usually ``Referee.possible_now``) doubt reads of a card the deck cannot hold
    any more; ``palette`` is the deck's colours (alternatives for a doubtful colour). ``expect_start``:
    the first card on an empty pile is the ``start`` card turned from the stock. ``second_look``: the
    faces read in a closer look at a pose of the current frame, surest first (the pipeline crops the
    pile view around it: :func:`referee.vision.detect.look_closer`).
    """

    def __init__(
        self,
        config: TrackerConfig | None = None,
        *,
        fps: float = 30.0,
        legal_now: Callable[[str], bool] | None = None,
        possible_now: Callable[[str], bool] | None = None,
        palette: Sequence[Colour] = CLASSIC_COLOURS,
        expect_start: bool = True,
        second_look: SecondLook | None = None,
    ) -> None:
        self.config = config or TrackerConfig(fps=fps)
        self.legal_now = legal_now
        self.possible_now = possible_now
        self.second_look = second_look
        self.palette = tuple(palette)
        #: What is believed on the pile (and taken back off it).
        self.pile = Pile()
        self.candidates: list[Candidate] = []
        self.expect_start = expect_start
        #: Frames with motion over the pile: a new card comes with a hand (``None``: not measured).
        self._motion_frames: deque[int] | None = None
        #: The last frame a hand or arm was over the pile (-1: none yet; ``None``: no motion measured).
        self._hand_frame: int | None = None
        self._first_frame: int | None = None
        #: The latest hand visit to the pile, and the pile image, as the last motion sample gave them.
        self._visit: int | None = None
        #: The frame in which that visit was first seen.
        self._visit_began: int | None = None
        self._pile_now: npt.NDArray[np.uint8] | None = None
        self._pile_size: tuple[int, int] = (0, 0)
        self._draws = Draws(self.config.memory)
        #: Per hand visit to the pile, the frames its hand was seen from each seat (the latest visits).
        self._visit_seats: dict[int, Counter[int]] = {}
        #: The latest hand visit looked at for a card laid square on the top card (:mod:`.square`).
        self._square_checked: int | None = None
        #: The frame the round's start card was believed at (``None``: not seen since the pile was gathered).
        self._start_frame: int | None = None

    def reset(self, expect_start: bool = True) -> None:
        """A new round: the pile is gathered; the next card is the start card."""
        self.pile.clear()
        self.candidates.clear()
        self._draws.clear()
        self._visit_seats.clear()
        self.expect_start = expect_start
        self._start_frame = None
        if self._motion_frames is not None:
            self._motion_frames.clear()

    def remap(self, move: Callable[[Box], Box | None]) -> None:
        """The pile view changed (a new calibration applied live): the cards known to be on the pile
        are moved into the new view by ``move`` (``None``: out of it now, forgotten), so a card already
        there is not taken for a new one. Tentative cards start again in the new view; the hand visits
        are counted afresh by the new view's motion, so no card keeps the visit that laid it. The top card is
        judged again in the new view (:mod:`.reread`): read in the old one, the whole frame before the table was
        found, it may have been a few dozen pixels long."""
        self.pile.remap(move)
        if (top := self.pile.top) is not None:
            top.clear_when_believed, top.judged_in_clear_view, top.clear_leads = 0, False, {}
        self.candidates.clear()
        self._draws.clear()
        self._visit_seats.clear()
        self._visit = self._visit_began = None

    @property
    def top(self) -> PileCard | None:
        """The card believed on top of the pile."""
        return self.pile.top

    @property
    def waiting(self) -> bool:
        """A tentative card is neither believed nor found to be no card yet. The detector should look at
        every frame until it is: on a still pile it looks only now and then, and a card waiting for a
        clear view would wait for those looks (and be believed too late: after the next hand's draw,
        say, which it must come before)."""
        return any(not c.absorbed for c in self.candidates)

    def update(
        self,
        detections: Detections,
        t: float,
        frame_index: int,
        motion: MotionSample | None = None,
        *,
        fresh: bool = True,
    ) -> list[TrackerEvent]:
        """Feed one frame's detections (top-down pile pixels); returns the events it completes.

        ``fresh=False``: the detector was not run on this frame (the pile did not change) and
        ``detections`` are the last ones again; they are no new evidence, so nothing is counted.

        The steps: (1) the hands (``motion``): their visit to the pile and its seat, draws at the stock;
        (2) the frame's readings; (3) those that are cards already on the pile, seen again
        (:func:`match_known`); (4) the rest continue tentative cards or start new ones; (5) the tentative
        cards ready are judged: a ``start`` or ``play``, or no new card; (6) the pile looked at again: the
        top card re-read in clear view, a card laid square on it, the top card taken back; (7) lost
        tentative cards forgotten, draws that waited for the pile settled.
        """
        cfg = self.config
        out: list[TrackerEvent] = []
        if self._first_frame is None:
            self._first_frame = frame_index
        if motion is not None:
            self._note_motion(motion, t, frame_index, out)
        if not fresh:
            return out
        frame = self._read(detections, t, frame_index, motion)
        matched = match_known(cfg, frame, self.pile, self.candidates)
        drop_misreads(cfg, self.candidates, matched.whole)
        associate(cfg, self.candidates, frame, matched, self._hand_frame)
        out.extend(self._confirm(frame))
        out.extend(self._look_again(frame, detections))
        self._forget_lost(frame)
        if self._draws.pending:
            out.extend(self._draws.settle(cfg, frame_index, self.pile, self.candidates))
        return out

    def _forget_lost(self, frame: FrameFacts) -> None:
        """Tentative cards unseen too long are forgotten. One that lay in the top card's own pose during the
        visit that laid it read that card otherwise: the top card remembers the label (``read_otherwise``),
        so that the same label there later is no evidence of a card laid square on it."""
        cfg, top = self.config, self.top
        for cand in self.candidates:
            if (cand.misses > cfg.max_misses and top is not None and cand.visit is not None
                    and cand.visit == top.visit and cand.first_frame > top.frame_index
                    and (label := cand.leading) is not None and label != top.label
                    and iou(cand.pose, top.xyxy) >= cfg.same_pose_iou):
                top.read_otherwise = top.read_otherwise | {label}
        self.candidates = [c for c in self.candidates if c.misses <= cfg.max_misses]

    def _read(self, detections: Detections, t: float, frame_index: int, motion: MotionSample | None) -> FrameFacts:
        """The frame as the rules see it: its readings (less what only shows of a pile card) and hands."""
        cfg = self.config
        # Under an arm, a box found but not read is most often what the hand half hides (the top card
        # turned into a tentative card that seems to slide in as the hand uncovers it): it waits for a
        # clear view, the only view in which a closer look may name it.
        readings = read_frame(detections, cfg, found=motion is None or not motion.arm_over_pile)
        readings = without_found_in_pile(cfg, self.pile, readings)
        return FrameFacts(index=frame_index, t=t, motion=motion, readings=readings, motion_block=cfg.motion_block,
                          visit=self._visit, pile_now=self._pile_now, pile_size=self._pile_size,
                          visit_began=self._visit_began)

    def _look_again(self, frame: FrameFacts, detections: Detections) -> list[TrackerEvent]:
        """The pile once the new cards are believed: the top card re-read in clear view (:mod:`.reread`), a
        card laid square on it (:mod:`.square`), the top card taken back (:mod:`.takeback`)."""
        found: list[TrackerEvent | None] = [
            reread_in_clear_view(self.config, frame, detections, self.pile, self.candidates, self.second_look),
        ]
        found.append(self._laid_square(frame))
        found.append(check_take_back(self.config, frame, self.pile, self._visit_seats))
        return [event for event in found if event is not None]

    def _note_motion(self, motion: MotionSample, t: float, frame_index: int, out: list[TrackerEvent]) -> None:
        """What ``motion`` says of the hands: the visit and its seats, the pile image, the draws (into ``out``)."""
        cfg = self.config
        if motion.pile_visit != self._visit:
            self._visit_began = frame_index
        self._visit = motion.pile_visit
        if motion.pile_visit is not None and motion.seat is not None and motion.arm_over_pile:
            self._visit_seats.setdefault(motion.pile_visit, Counter())[motion.seat] += 1
            for old in [v for v in self._visit_seats if v < motion.pile_visit - 2 * cfg.memory]:
                del self._visit_seats[old]
        self._pile_now, self._pile_size = motion.pile_now, motion.pile_size
        if motion.hand_over_pile or motion.arm_over_pile:
            self._hand_frame = frame_index
        elif self._hand_frame is None:
            self._hand_frame = -1
        out.extend(self._draws.seen(cfg, motion, t, frame_index, self.pile, self.candidates,
                                    expect_start=self.expect_start, start_frame=self._start_frame))
        if self._motion_frames is None:
            self._motion_frames = deque(maxlen=256)
        if motion.disturbed:
            self._motion_frames.append(frame_index)

    def _laid_square(self, frame: FrameFacts) -> Play | None:
        """Once a hand visit has ended and the pile lain clear for ``min_hits`` frames: a card that visit
        laid square on the top card, which the detector took for the top card (:mod:`.square`)."""
        hand = self._hand_frame
        top = self.pile.top
        if (hand is None or hand < 0 or self._visit is None or self._square_checked == self._visit
                or frame.index - hand <= self.config.min_hits or top is None):
            return None
        if any(handled(c, self._visit, top, self.config) for c in self.candidates):
            return None  # the usual path judges it first: asked again once it has
        self._square_checked = self._visit
        return laid_square_on_top(self.config, frame, self.pile, self.candidates, self.second_look, hand + 1,
                                  self._visit_seats.get(self._visit))

    def _confirm(self, frame: FrameFacts) -> list[Start | Play]:
        """The tentative cards ready to be judged: each is a new card (a ``start`` or ``play``, the top
        one last) or, vetoed, a silent reading of one already there."""
        ready = self._ready(frame)
        if not ready:
            return []
        # Several at once (the tracker started on a pile already laid): the newest pose is the top,
        # the others lie under it and are remembered silently.
        ready.sort(key=lambda c: (c.first_frame, float(np.mean(c.confidence))))
        # Which of them are new cards is settled first: the top is the newest of those, not of the
        # readings (a misread found to be no card, settled in the same frame as a real card beside
        # it, must not make that card a card under the top).
        cards: list[tuple[Candidate, Decision]] = []
        for cand in ready:
            self.candidates.remove(cand)
            judged = self._judge(frame, cand, ready)
            if judged is not None:
                cards.append((cand, judged))
        out: list[Start | Play] = []
        for k, (cand, decision) in enumerate(cards):
            event = self._believe(frame, cand, decision, top=k == len(cards) - 1)
            if event is not None:
                out.append(event)
        self.pile.keep_last(self.config.memory * 2)
        return out

    def _ready(self, frame: FrameFacts) -> list[Candidate]:
        """The tentative cards that have held still long enough, with the view they need, to be judged."""
        cfg = self.config
        ready = [
            c for c in self.candidates
            if c.hits >= cfg.min_hits and c.misses == 0 and c.votes and not c.absorbed
            and came_with_a_hand(cfg, c, self._motion_frames, self._first_frame)
            and (not (c.identical or voted_top_in_its_pose(cfg, self.top, c))
                 or (c.hits >= 2 * cfg.min_hits and not frame.arm_over_pile
                     and not hidden_part_of_top(cfg, self.top, c)))
            # A card laid on the pile shows whole once no arm is over it: one read like the top card
            # and cut short on one side inside its pose is the top card partly hidden, and waits.
            # An unsure read, or a part of the top card read as another card, waits until no arm is
            # over the pile and the detector has had a clear view of it for as long as a card must
            # hold still since an arm was last over it: a hand half over a card makes misreads, and a
            # card really laid is still there when the hand has gone (judged on the hand's frames
            # alone, a card on ones of its colour, which changes the pile's grey levels little, would
            # be taken for no card).
            and (not (c.doubted or needs_clear_view(cfg, self.pile, c))
                 or (not frame.arm_over_pile and c.clear_run >= cfg.min_hits))
        ]
        if frame.arm_over_pile:
            # Under an arm the closer look cannot name a card, only hold it back for the clear view.
            ready = [c for c in ready if not self._doubted(c)]
        return ready

    def _doubted(self, cand: Candidate) -> bool:
        """``cand``, ready under an arm, looked at closer up all the same: a card read surely as another face
        there waits for a clear view (:func:`~referee.vision.tracking.closer.doubts`)."""
        if unread(self.config, cand):
            return False  # found, not read: named only in a clear view anyway
        label = decide(self.config, cand, self.legal_now, self.palette).label
        named = doubts(self.second_look, cand.pose, label, whole=lies_whole(self.config, self.pile, cand.pose))
        if named is not None:
            log.info("%s read closer up under an arm as %s: it waits for a clear view", label, named)
            cand.doubted = True
        return cand.doubted

    def _believe(self, frame: FrameFacts, cand: Candidate, decision: Decision, *, top: bool) -> Start | Play | None:
        """``cand`` believed as ``decision`` names it: laid on the pile. The top one of the cards believed in
        a frame is a ``start`` (the round's first card) or a ``play``; one under it is remembered silently."""
        cfg = self.config
        label = decision.label
        reads = cand.reads()
        self.pile.lay(PileCard(label, cand.pose, cand.seat, frame.index, frame.t, reads=reads, visit=cand.visit,
                               clear_when_believed=cand.clear, unsure_when_believed=unsure(cfg, cand)))
        if not top:
            log.debug("card under the top remembered: %s", label)
            return None
        # ``t`` is when the card came to rest; ``frame_index`` when the tracker believed it.
        laid_t = cand.laid_t(label)
        others = tuple(sorted(reads - {label}))  # other reads of this card, for a later fix by seat
        confidence = round(float(np.mean(cand.confidence)), 3)
        if self.expect_start and len(self.pile) == 1:
            self.expect_start = False
            self._start_frame = frame.index
            return Start(label, laid_t, frame.index, corrected_from=decision.corrected_from, reason=decision.reason,
                         alternatives=others, confidence=confidence)
        return Play(label, cand.seat, laid_t, frame.index, corrected_from=decision.corrected_from,
                    reason=decision.reason, alternatives=others, confidence=confidence)

    def _judge(
        self, frame: FrameFacts, cand: Candidate, ready: Sequence[Candidate]
    ) -> Decision | None:
        """``cand``, ready and taken off the tentative cards: its label and what was put right, or
        ``None`` for no new card (a taken-back card come back, or a veto: then it stays, absorbed)."""
        cfg = self.config
        decision = decide(cfg, cand, self.legal_now, self.palette)
        label = decision.label
        if self.pile.restore(cand.anchor, label, cfg.known_iou):
            return None
        vetoed = veto(Judging(cfg, frame, self.pile, [*ready, *self.candidates], self.possible_now), cand, label)
        # The closer look names a card judged new on the pile view's reading; it never turns a
        # reading found to be no card into one.
        whole = lies_whole(cfg, self.pile, cand.pose)
        closer: str | None = None
        if vetoed is None and unread(cfg, cand):
            # Found, never read surely: the closer look names it, or it is no card.
            named = name_unread(self.second_look, frame.arm_over_pile, cand.pose, label, whole=whole)
            if named is None:
                vetoed = "found but not read, nor closer up"
            elif seen_through(cfg, cand, named, [*ready, *self.candidates]):
                vetoed = f"found but not read, and named closer up as the {named} it overlaps"
            elif named != label:
                closer = named
        elif vetoed is None:
            closer = look_closer(self.second_look, frame.arm_over_pile, cand.pose, label, whole=whole)
        if (vetoed is not None or top_read_closer(cfg, self.top, cand, closer)
                or below_read_closer(cfg, self.pile, cand, closer)):
            # It stays, silent, while it keeps its pose: a misread that persists is no new card
            # when the next hand comes by. Where it came from is spent: found to be a pile card,
            # it lies where it was found, and a later hand stirring its box brings nothing in.
            log.debug("%s is no new card: %s", label, vetoed or "read closer up as the pile card it lies in")
            cand.absorbed, cand.absorbed_by = True, vetoed
            cand.origin = cand.pose
            self.candidates.append(cand)
            self._draws.no_card(label, cand.pose)
            return None
        if closer is not None:
            return decision.corrected(in_voted_colour(cand, closer), "read closer up")
        return decision
