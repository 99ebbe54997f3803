"""From per-frame detections to observations: one ``play`` per card landing on the pile.

:class:`PileTracker` (:mod:`.tracker`) turns each frame's detections into typed events (:mod:`.events`:
:class:`Start`, :class:`Play`, :class:`Draw`, :class:`TakeBack`, :class:`Reread`), debounced as
:class:`TrackerConfig` says (:mod:`.config`). The pile is remembered as the cards already on it, label and
pose (:mod:`.state`), which one :class:`Pile` owns (:mod:`.pile`): a reading that matches one of them is that
card seen again, not a play (:mod:`.known`, :mod:`.buried`, :mod:`.covered`, :mod:`.pose`); a card laid on an
identical one is new because it came in from outside or lies in a new pose (:mod:`.twins`). The other readings
continue tentative cards or start new ones (:mod:`.candidates`). A tentative card that may be a misread waits
for a clear view (:mod:`.waits`), and is judged against the reasons it may be no new card (:mod:`.vetoes`);
its face is read closer up (:mod:`.closer`), and an unsure vote gives way to what the rules allow
(:mod:`.votes`). A card believed under a hand is re-read in clear view (:mod:`.reread`); a top card lifted off
is taken back (:mod:`.takeback`).

:class:`MotionDetector` (:mod:`.motion`, with :mod:`.background` and :mod:`.arms`) supplies what the
tracker cannot see in detections: where a hand came from (the seat), hands reaching into the stock zone
(``draw`` events, :mod:`.draws`), and which parts of the pile are covered by moving hands.
"""

from referee.vision.detections import iou
from referee.vision.tracking.boxes import Box, Mask, containment, low_res_area, overhang, translation, turned
from referee.vision.tracking.closer import CloserLook, SecondLook, closer_label
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.events import (
    Draw,
    Observed,
    Play,
    Reread,
    Start,
    TakeBack,
    TrackerEvent,
    noted,
)
from referee.vision.tracking.motion import MotionDetector, MotionSample
from referee.vision.tracking.pile import Pile
from referee.vision.tracking.state import Candidate, PileCard, Reading
from referee.vision.tracking.tracker import PileTracker

__all__ = [
    "Box",
    "Candidate",
    "CloserLook",
    "Draw",
    "Mask",
    "MotionDetector",
    "MotionSample",
    "Observed",
    "Pile",
    "PileCard",
    "PileTracker",
    "Play",
    "Reading",
    "Reread",
    "SecondLook",
    "Start",
    "TakeBack",
    "TrackerConfig",
    "TrackerEvent",
    "closer_label",
    "containment",
    "iou",
    "low_res_area",
    "noted",
    "overhang",
    "translation",
    "turned",
]
