"""The facts of one frame, gathered once at the start of the tracker's update and read by every rule."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from referee.vision.detections import Detections, iou
from referee.vision.tracking.boxes import Box
from referee.vision.tracking.config import TrackerConfig
from referee.vision.tracking.motion import MotionSample
from referee.vision.tracking.state import AlsoRead, Reading

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FrameFacts:
    """One frame as the rules see it: its readings, the hands over the pile, the pile image."""

    index: int
    t: float
    #: What moved (``None``: motion not measured: every box counts as still).
    motion: MotionSample | None
    #: The boxes worth reading, surest first, one per card, each with its other readings (see
    #: :func:`read_frame`).
    readings: list[Reading]
    #: Share of moving pixels in a box above which what is read there does not count (``TrackerConfig``).
    motion_block: float
    #: The hand visit to the pile going on or last seen (``MotionSample.pile_visit``; ``None``: not counted).
    visit: int | None
    #: The top-down pile image (grey, low resolution) as last sampled, and the size of the view it shrinks.
    pile_now: npt.NDArray[np.uint8] | None
    pile_size: tuple[int, int]
    #: The frame in which ``visit`` was first seen (``None``: not counted).
    visit_began: int | None = None

    @property
    def blocked(self) -> bool:
        """The whole view changed at once (a light, a glare, a bump): nothing seen in it counts."""
        return self.motion is not None and self.motion.global_change

    @property
    def arm_over_pile(self) -> bool:
        """An arm reaches over the pile: what lies there is seen in part, or through a shadow."""
        return self.motion is not None and self.motion.arm_over_pile

    def still(self, box: Box) -> bool:
        """Nothing moves over ``box`` this frame: what is read there counts."""
        return not self.blocked and (self.motion is None or self.motion.fraction_in(box) < self.motion_block)


def readable(detections: Detections, cfg: TrackerConfig, *, found: bool = True
             ) -> tuple[list[int], dict[int, list[int]]]:
    """Which boxes are worth reading, by index: surest first, above ``min_confidence``, no card backs, one
    per card; and, by the index of each, the boxes that read the same card another way. The detector's
    NMS keeps one box per class, so a box of another class in the same place (``duplicate_iou``) is the
    same card read another way.

    Then the cards found but not read: a box whose face is under ``min_confidence`` while its card-ness
    (:attr:`Detections.cardness`) passes ``found_confidence``, where no box above lies, is read too (last;
    the surest face first where boxes of several faces lie in one place), with its face's own low
    confidence: the card is unsure, so it waits for a clear view, and the tracker believes it only once a
    closer look names it. A printing the detector never learned is found long before it is read. Not with
    ``found`` false (an arm over the pile: what a hand half hides is found, not read, and only a clear view
    can name it)."""
    rows: list[int] = []
    also: dict[int, list[int]] = {}
    order = sorted(range(len(detections)), key=lambda i: -float(detections.confidence[i]))
    for i in order:
        if float(detections.confidence[i]) < cfg.min_confidence or detections.labels[i] == "back":
            continue
        # It joins the surer box's reading as a vote.
        same = next((r for r in rows if iou(detections.xyxy[i], detections.xyxy[r]) >= cfg.duplicate_iou), None)
        if same is not None:
            also.setdefault(same, []).append(i)
            continue
        rows.append(i)
    if not found:
        return rows, also
    # Where several boxes lie at one place, the surest face among them speaks for it (a yellow 4 read at
    # 0.29 under a card laid over it is not the yellow 5 read at 0.14 in the same place).
    cardness = detections.cardness
    taken = [i for i in order if float(detections.confidence[i]) >= cfg.min_confidence]
    for i in order:
        if (float(detections.confidence[i]) >= cfg.min_confidence or float(cardness[i]) < cfg.found_confidence
                or detections.labels[i] == "back"
                or any(iou(detections.xyxy[i], detections.xyxy[j]) >= cfg.duplicate_iou for j in taken)):
            continue
        taken.append(i)
        rows.append(i)
    return rows, also


def read_frame(detections: Detections, cfg: TrackerConfig, *, found: bool = True) -> list[Reading]:
    """The boxes worth reading (:func:`readable`, ``found``: with the cards found but not read) as readings,
    each with the other readings of its box."""
    if len(detections) and not detections.labels:
        log.warning("detections without labels ignored (frame of %d boxes)", len(detections))
        return []
    colour = detections.colour_confidence

    def colour_of(i: int) -> float:
        return float(colour[i]) if len(colour) else 1.0

    def other(j: int) -> AlsoRead:
        return AlsoRead(detections.labels[j], float(detections.confidence[j]), colour_of(j))

    rows, others = readable(detections, cfg, found=found)
    return [Reading(detections.xyxy[i].astype(np.float32), detections.labels[i], float(detections.confidence[i]),
                    colour_of(i), tuple(other(j) for j in others.get(i, ()))) for i in rows]
