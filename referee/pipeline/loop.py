"""The frame loop: one :class:`Pipeline` that takes each camera frame through its steps to the referee.

:meth:`Pipeline.step` is one frame, in this order (each step's mechanism is in its own module):

1. **calibration between frames**: a profile saved on the calibration page or found by the table finder is
   switched to before the frame is judged, never within it (:mod:`~referee.pipeline.table_view`);
2. **a new round**: a ``setup`` the dashboard submitted means the pile was gathered: the tracker starts over;
3. **the operator's script**: lines due by the frame's time (what the camera cannot see) go to the session;
4. **the pile view**: the frame warped to the pile zone and white-balanced; the motion detector watches the
   zones (hands at the pile, at the stock);
5. **detection**, gated on motion (:mod:`~referee.pipeline.frame_counts`), then read off the deck's faces
   where the detector cannot name them (:mod:`~referee.pipeline.reading`);
6. **the table finder** looks at the frame (the table, the seats, a bumped camera); while the camera moves
   the last readings stand and no draw is seen;
7. **tracking**: the pile tracker turns the frame's readings into events, each :meth:`Pipeline.submit`\\ ted;
8. **keeping time**: the frames judged a second measured, the frame counts set again when that rate moved;
9. **the stream**: every few frames the annotated frame to the dashboard (:mod:`~referee.pipeline.status`).

:meth:`Pipeline.submit` is one tracker event: a take-back or re-read corrects the record
(:mod:`~referee.pipeline.corrections`); a start, play or draw is seated by the table finder
(:mod:`~referee.pipeline.seating`), shown to the game's teacher, marked ``unsure`` when judged on too few
frames or a guessed seat, and handed to the session as its contract-2 dict. A refused one is logged, never
fatal. :meth:`Pipeline.run` loops :meth:`~Pipeline.step` over a :class:`~referee.vision.capture.Capture`.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from referee.cards import CLASSIC_COLOURS, CardError, Colour
from referee.clips import FrameRing
from referee.contract import OutputLine
from referee.pipeline import corrections, seating
from referee.pipeline.frame_counts import DetectionGate, needs_retiming
from referee.pipeline.reading import Reading
from referee.pipeline.session_protocol import Session, card_query
from referee.pipeline.status import PipelineStats, publish_frame
from referee.pipeline.table_view import TableView
from referee.rules import ObservationError
from referee.session import Event
from referee.session_game import PipelineStatus
from referee.vision.calibration import CalibrationProfile, Quad
from referee.vision.capture import Capture, Frame
from referee.vision.classify import ACROSS_KINDS_CONFIDENCE, SECOND_LOOK_CONFIDENCE, FaceClassifier
from referee.vision.colour import DeckColours
from referee.vision.detect import DETECTOR_LOOK_CONFIDENCE, OnnxDetector, UltralyticsDetector
from referee.vision.detections import Detections, Detector, FollowsFrames, ReadsColours
from referee.vision.keeping_up import KeepingUp
from referee.vision.mirror import MIRRORED_WARNING, MirrorWatch, mirror_evidence
from referee.vision.table_finder import TableFinder
from referee.vision.teaching import GameTeacher
from referee.vision.tracking import (
    CloserLook,
    Draw,
    MotionDetector,
    MotionSample,
    PileTracker,
    Play,
    Reread,
    Start,
    TakeBack,
    TrackerConfig,
    TrackerEvent,
    noted,
)

log = logging.getLogger(__name__)


class Pipeline:
    """One frame at a time: warp, detect, track, submit; overlay and status for the dashboard.

    ``timer`` (``time.perf_counter``) turns on per-stage timing for ``referee bench``; the pipeline
    itself never reads the clock (frames carry their time).
    """

    def __init__(
        self,
        detector: Detector,
        session: Session,
        *,
        profile: CalibrationProfile | None = None,
        players: int = 4,
        palette: Sequence[Colour] = CLASSIC_COLOURS,
        tracker_config: TrackerConfig | None = None,
        fps: float = 30.0,
        stream_fps: float = 10.0,
        stream_width: int = 960,
        timer: Callable[[], float] | None = None,
        script: Sequence[Mapping[str, Any]] = (),
        classifier: FaceClassifier | None = None,
        faces: frozenset[str] | None = None,
        replay: FrameRing | None = None,
        teach: bool = False,
        finder: TableFinder | None = None,
    ) -> None:
        self.detector = detector
        #: Finds the table from the footage (no calibration given) and follows a bumped camera
        #: (:mod:`referee.vision.table_finder`); ``None``: the profile as given (or the whole frame).
        self.finder = finder
        #: Where each stream frame's JPEG also goes, for the instant replays (:mod:`referee.clips`).
        self.replay = replay
        #: The faces the game's deck prints (``None``: any). A card the detector names otherwise (every
        #: card of the fractions deck: the detector has no fraction classes) is read by the classifier
        #: among these faces, and closer looks only name these.
        self.faces = faces
        #: Reads the card about to be believed once more, alone in a crop (beside the detector's closer look).
        self.classifier = classifier
        #: The game teaches the reader (``teach``): cards read surely and accepted become views of the deck.
        self.teacher = GameTeacher() if teach and classifier is not None and classifier.has_embedding else None
        #: Whether the camera mirrors its view, from the cards read (:mod:`referee.vision.mirror`).
        self.mirror_watch = MirrorWatch()
        _fit_detector(detector, palette)
        self.session = session
        self.players = players
        self.palette = tuple(palette)
        self.fps = fps
        self.timer = timer
        self.stream_width = stream_width
        self.stats = PipelineStats()
        #: The profile in use, the pile view, the motion zones and calibration while running.
        self.view = TableView(profile, players)
        self.reading = Reading(detector, classifier, faces, self.view, self.stats, timer,
                               read_bar=(tracker_config or TrackerConfig()).min_confidence)
        self.tracker = self._tracker(tracker_config, fps)
        self._new_round = threading.Event()
        self._count_frames(fps, stream_fps)
        self._last_detections = Detections.empty()
        self._frame_t = 0.0
        #: Operator lines (what the camera cannot see) to submit when the footage reaches their ``t``.
        self.script = deque(sorted((dict(x) for x in script), key=lambda x: float(x.get("t") or 0.0)))

    def _count_frames(self, fps: float, stream_fps: float) -> None:
        """What counts frames at the source's rate ``fps``: the stream's and the status's pace, the rate frames
        are judged at, and the detection gate."""
        self._stream_every = max(1, round(fps / max(stream_fps, 0.1)))
        self._status_every = max(1, round(fps))
        self._frame_times: deque[float] = deque(maxlen=max(2, round(fps * 2)))
        #: How many of the source's frames are judged: a live source that outruns the machine loses
        #: frames, and what is judged meanwhile is said to be unsure (see keeping_up).
        self.keeping_up = KeepingUp(fps)
        #: The rate the frame counts (the gate's, the tracker's and the hands') stand for: the source's,
        #: until the frames judged a second are measured to be fewer or more (:meth:`_timed`).
        self.timed_fps = fps
        self.gate = DetectionGate(self.tracker.config, fps)

    def _tracker(self, config: TrackerConfig | None, fps: float) -> PileTracker:
        """The pile tracker, asking the session's referee about cards, with a second look when the detector
        can read a crop."""
        detector, classifier = self.detector, self.classifier
        # The tracker's times are counted in frames at the source's rate until the rate frames are
        # judged at is measured (:meth:`_timed`).
        return PileTracker(
            (config or TrackerConfig()).at(fps),
            legal_now=card_query(self.session, "legal_now"),
            possible_now=card_query(self.session, "possible_now"),
            palette=self.palette,
            expect_start=self.session.snapshot().get("top_card") is None,
            # A card about to be believed is read again closer up, by a model that can read a crop
            # (not a double replaying the footage's truth).
            # Two closer readers averaged (with the classifier) need a lower bar than the detector alone,
            # and only they may name a card of the other kind (black for coloured, or back).
            second_look=CloserLook(
                self.reading.look_closer,
                SECOND_LOOK_CONFIDENCE if classifier is not None else DETECTOR_LOOK_CONFIDENCE,
                across=ACROSS_KINDS_CONFIDENCE if classifier is not None else None,
                read_colour=self.reading.colour_at,
            ) if isinstance(detector, OnnxDetector | UltralyticsDetector) else None,
        )

    # What the view holds, read where the pipeline's users always read it.
    @property
    def profile(self) -> CalibrationProfile | None:
        """The profile in use, fitted to the camera's frames; ``None`` before the first frame."""
        return self.view.profile

    @property
    def motion(self) -> MotionDetector | None:
        return self.view.motion

    @property
    def refresh_every(self) -> int:
        """Detect at least every so many frames (:class:`~referee.pipeline.frame_counts.DetectionGate`)."""
        return self.gate.refresh_every

    def _timed(self, rate: float) -> None:
        """Make every count of frames (a card's settling, a hand's visit, a draw at the stock, the
        detection gate) stand for the same time at ``rate`` frames judged a second: a machine that
        judges every second frame of a 30 fps camera waits 5 of them for a card to settle, not 10."""
        self.timed_fps = rate
        self.tracker.config = self.tracker.config.at(rate)
        if self.view.motion is not None:
            self.view.motion.timed(rate)
        self.gate.timed(self.tracker.config, rate)

    def on_event(self, event: Event) -> None:
        """Session listener: a new ``setup`` (from the dashboard) means the pile was gathered."""
        obs = event.get("observation")
        if event.get("kind") == "observation" and isinstance(obs, Mapping) and obs.get("type") == "setup":
            self._new_round.set()

    # Calibration while running (the calibration page, :mod:`referee.web.calibrate`).
    def set_profile(self, profile: CalibrationProfile) -> None:
        """Use ``profile`` from the next frame on (thread-safe: the web thread calls it while frames run).
        Between frames the pile view is warped anew and the cards known on the pile are moved into it."""
        self.view.live.request(profile)

    def current_profile(self) -> CalibrationProfile | None:
        """The profile in use, fitted to the camera's frames (a requested one once taken); ``None``
        before the first frame."""
        return self.view.live.pending() or self.view.profile

    def camera_frame(self) -> np.ndarray | None:
        """The last camera frame as it came (no overlay): what the calibration page clicks on."""
        return self.reading.frame_image

    def landed_cards(self, image_size: tuple[int, int]) -> list[Quad]:
        """Where the cards believed so far came to rest (camera pixels of ``image_size`` frames)."""
        return self.view.live.landed(image_size)

    def _recalibrate(self, profile: CalibrationProfile, image: np.ndarray, *, camera: np.ndarray | None = None) -> None:
        """Switch to ``profile`` between frames (:meth:`TableView.switch`); a new pile view is looked at at once."""
        if self.view.switch(profile, image, self.timed_fps, self.tracker, camera=camera):
            self._last_detections = Detections.empty()
            self.gate.look_now()

    def step(self, frame: Frame) -> list[OutputLine]:
        """Process one frame; returns the referee's output lines it caused (the steps: see the module)."""
        self._calibrate(frame)
        if self._new_round.is_set():
            self._new_round.clear()
            self.tracker.reset(expect_start=True)
        timer = self.timer
        t0 = timer() if timer else 0.0
        outputs = self.play_script(until=frame.t)
        pile_view, motion = self._look(frame)
        detections, fresh = self._detect(frame, pile_view, motion)
        if self.finder is not None:
            detections, fresh, motion = self._follow_table(self.finder, frame, detections, fresh, motion)
        for event in self.tracker.update(detections, frame.t, frame.frame_index, motion, fresh=fresh):
            if isinstance(event, Start | Play):
                self._note_landed()
            outputs.extend(self.submit(event, frame))
        if self.finder is not None and (left := self.finder.cut_short()) is not None:
            # A hand at the stock as the camera was knocked drew: the motion detector's draw was lost with the view.
            outputs.extend(self.submit(Draw(None, left, frame.frame_index), frame))
        self._last_detections = detections
        self._keep_time(frame)
        if self.stats.frames % self._stream_every == 0:
            publish_frame(self.session, frame, detections, profile=self.profile, status=self.status(),
                          width=self.stream_width, replay=self.replay)
        if timer:
            self.stats.frame_ms.append((timer() - t0) * 1000)
        return outputs

    def _calibrate(self, frame: Frame) -> None:
        """Step 1: a profile requested or found is switched to; the view fitted to the frame's size."""
        if (recalibrated := self.view.live.take()) is not None:
            self._recalibrate(recalibrated, frame.image)
        elif self.finder is not None and (found := self.finder.take()) is not None:
            self._recalibrate(found.profile, frame.image, camera=found.camera)
        self._frame_t = frame.t
        if not self.view.fits(frame.image):
            self.view.prepare(frame.image, self.timed_fps)

    def _look(self, frame: Frame) -> tuple[np.ndarray, MotionSample]:
        """Step 4: the pile view, white from the cards' whites where the last frame found cards (the table
        may be light wood), and what moved."""
        assert self.view.motion is not None
        pile_view = self.view.warp(frame.image, self._last_detections.xyxy)
        self.reading.pile_view = pile_view
        self.reading.frame_image = frame.image
        return pile_view, self.view.motion.update(frame.image, pile_view)

    def _detect(self, frame: Frame, pile_view: np.ndarray, motion: MotionSample) -> tuple[Detections, bool]:
        """Step 5: the frame's detections and whether they are fresh: the detector's, when the gate lets it
        run or the tracker waits to settle a card; else the last frame's."""
        if not (self.gate.due(motion.disturbed or motion.global_change) or self.tracker.waiting):
            return self._last_detections, False
        if isinstance(self.detector, FollowsFrames):
            # A detector that replays the footage's ground truth needs to know which frame this is.
            self.detector.frame_index = frame.frame_index
        t1 = self.timer() if self.timer else 0.0
        detections = self.reading.read_off_deck(self.detector.detect(pile_view))
        self.stats.detector_calls += 1
        self.gate.detected()
        if self.timer:
            self.stats.detector_ms.append((self.timer() - t1) * 1000)
        return detections, True

    def _follow_table(self, finder: TableFinder, frame: Frame, detections: Detections, fresh: bool,
                      motion: MotionSample) -> tuple[Detections, bool, MotionSample]:
        """Step 6: the table finder sees the frame. The camera knocked: the pile view shows the cards
        elsewhere until the zones follow it; the last readings stand meanwhile, and a hand seen at the stock
        is the view moving. So they stand in the frame the move is followed in: its pile view was cut before
        the zones moved."""
        assert self.view.profile is not None and self.view.motion is not None
        finder.observe(frame.image, frame.t, self.view.profile, detections if fresh else Detections.empty(),
                       self.view.motion.foreground, busy=motion.arm_over_pile)
        # Its stock episode held until the view is followed; draws heard through a moving view dropped, unless the
        # view is found where it was: then the stock's frames are given back.
        motion = self.view.motion.heard(motion, finder.camera_moving, in_place=finder.found_in_place)
        if finder.camera_moving:
            return self._last_detections, False, motion
        if finder.followed_now:
            return self._last_detections, False, motion
        return detections, fresh, motion

    def _note_landed(self) -> None:
        """The card just believed (the tracker's top card) came to rest: its corners in camera pixels."""
        top = self.tracker.top
        if top is None or (corners := self.view.landed(top.xyxy)) is None:
            return
        if self.finder is not None:
            self.finder.landed(corners, self._frame_t)

    def _keep_time(self, frame: Frame) -> None:
        """Step 8: the frame counted; the frame counts set again when the rate frames are judged at moved."""
        self.stats.frames += 1
        self._frame_times.append(frame.captured_at)
        change = self.keeping_up.update(frame.t)
        if change is not None:
            (log.warning if self.keeping_up.behind else log.info)("%s (footage at %.1f s)", change, frame.t)
        rate = self.keeping_up.rate
        if rate is not None and needs_retiming(rate, self.timed_fps):
            log.info("judging %.0f frames a second: frame counts now stand for the same times at that rate", rate)
            self._timed(round(rate))

    def play_script(self, until: float | None = None) -> list[OutputLine]:
        """Submit the operator lines due by ``until`` (all of them with ``None``)."""
        outputs: list[OutputLine] = []
        while self.script and (until is None or float(self.script[0].get("t") or 0.0) <= until):
            line = self.script.popleft()
            try:
                outputs.extend(self.session.submit(line, source="operator"))
            except ObservationError as exc:
                self.stats.refused += 1
                log.warning("operator line refused: %s (%s)", exc, line)
        return outputs

    def submit(self, event: TrackerEvent, frame: Frame) -> list[OutputLine]:
        """Act on one tracker event: a take-back or re-read here, an observation (start, play, draw) handed
        to the session as its typed contract-2 value; a refused one is logged, never fatal."""
        finder = self.finder
        if finder is not None and seating.seen_again(finder, self.session, event):
            return []
        seated = seating.seat(finder, self.session, event) if finder is not None else seating.Seating(event)
        event = seated.event
        match event:
            case TakeBack():
                return corrections.take_back(self.session, event)
            case Reread():
                return corrections.reread(self.session, event)
            case Play(seat=seat) if seat is not None:
                corrections.reread_by_seat(self.session, int(seat))
        teaching = self.teacher is not None and isinstance(event, Start | Play)
        if isinstance(event, Start | Play) and self.teacher is not None:
            self._teach(event)
        if isinstance(event, Start | Play) and self.mirror_watch.verdict is None:
            self._watch_mirror(event)
        unsure = self.keeping_up.warning
        if (doubt := seated.doubt) is not None:
            unsure = doubt if unsure is None else f"{unsure}; {doubt}"
        if unsure is not None:  # judged on too few frames, or on a guessed seat: the referee's verdicts say so
            event = noted(event, unsure=unsure)
        try:
            obs = event.observation()  # typed: the session records it as JSON
            outputs = self.session.submit(obs, source="camera")
        except (CardError, ObservationError) as exc:  # no card's label, or refused by the referee
            self.stats.refused += 1
            log.warning("observation refused: %s (%s)", exc, _shown(event))
            return []
        self.stats.observations += 1
        if finder is not None:
            seating.tell(finder, self.session, seated, obs, outputs)
        if teaching and self.teacher is not None:
            self.teacher.judged([str(o.get("code")) for o in outputs if o.get("type") == "alert"])
        if self.timer:
            self.stats.verdicts.append((obs, frame.captured_at, self.timer()))
        return outputs

    def _teach(self, event: Start | Play) -> None:
        """Before ``event`` is judged: the last candidate view is learned if its play still stands (the game
        went on), and the card of ``event``, the tracker's top card, is looked at as the next candidate
        (:class:`~referee.vision.teaching.GameTeacher`)."""
        assert self.teacher is not None and self.classifier is not None
        found = self.session.last_play(start=True)
        newest = (found[1].card.label, float(found[1].t or 0.0)) if found is not None else None
        if (matcher := self.teacher.confirm(newest)) is not None:
            self.classifier.game = matcher
            log.debug("the game taught the reader: %s", self.teacher.faces_learned)
        top = self.tracker.top
        look = None
        if top is not None and top.label == event.card and self.reading.pile_view is not None:
            image, view_to_image = self.reading.classifier_view()
            look = self.classifier.look(image, top.xyxy, view_to_image=view_to_image)
        self.teacher.consider(event.card, round(event.t, 3), look, corrected=event.camera.corrected_from is not None,
                              unsure=self.keeping_up.warning is not None)

    def _watch_mirror(self, event: Start | Play) -> None:
        """The card of ``event`` (the tracker's top card) read both ways round: a camera whose cards read surer
        flipped is said to be mirrored, once (:class:`~referee.vision.mirror.MirrorWatch`)."""
        top = self.tracker.top
        if self.classifier is None or top is None or top.label != event.card or self.reading.pile_view is None:
            return
        image, view_to_image = self.reading.classifier_view()
        evidence = mirror_evidence(self.classifier, image, top.xyxy, view_to_image=view_to_image,
                                   pad=self.reading.pad)
        if self.mirror_watch.add(evidence):
            log.warning("%s", MIRRORED_WARNING)

    def status(self) -> PipelineStatus:
        """The frame loop's part of the pipeline's status (the session's ``status``; the capture's is its own)."""
        times = self._frame_times
        fps = (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 and times[-1] > times[0] else None
        status: PipelineStatus = {
            "fps": None if fps is None else round(fps, 1),
            "warning": "; ".join(w for w in (self.keeping_up.warning,
                                             MIRRORED_WARNING if self.mirror_watch.verdict else None) if w) or None,
            "frames": self.stats.frames,
            "detections": len(self._last_detections),
            "observations": self.stats.observations,
            "refused": self.stats.refused,
            "pile": [c.label for c in self.tracker.pile[-3:]],
        }
        if self.finder is not None:
            status["table"] = self.finder.unsure or "found"
        return status

    def _status_with(self, capture: Capture) -> PipelineStatus:
        """The pipeline's whole status: the capture's, then the frame loop's."""
        return {**capture.status().as_dict(), **self.status()}

    def run(self, capture: Capture, stop: threading.Event | None = None, *, progress_every: float | None = None
            ) -> PipelineStats:
        """Process frames until the capture ends (or ``stop`` is set); status goes to the session.
        ``progress_every``: log how far it got every so many seconds (by the frames' capture times)."""
        stop = stop or threading.Event()
        capture.start()
        last_report: float | None = None
        try:
            while not stop.is_set():
                frame = capture.read(timeout=0.5)
                if frame is None:
                    if capture.finished:
                        break
                    self.session.set_status(**capture.status().as_dict())
                    continue
                self.step(frame)
                if progress_every is not None:
                    if last_report is None:
                        last_report = frame.captured_at
                    elif frame.captured_at - last_report >= progress_every:
                        log.info("%d frames judged (footage at %.1f s), %d observations", self.stats.frames,
                                 frame.t, self.stats.observations)
                        last_report = frame.captured_at
                if self.stats.frames % self._status_every == 0:
                    self.session.set_status(**self._status_with(capture))
            if not stop.is_set():
                self.play_script()  # the end of the footage: what the operator says after it
        finally:
            capture.stop()
            if self.replay is not None:  # a clip waiting for frames after the footage's end takes what there is
                self.replay.end()
            self.session.set_status(**self._status_with(capture))
        return self.stats


def _shown(event: Start | Play | Draw) -> object:
    """``event`` as a log line shows it: its observation's JSON, or the event itself when its card is no
    card's label."""
    try:
        return event.as_dict()
    except CardError:
        return event


def _fit_detector(detector: Detector, palette: Sequence[Colour]) -> None:
    """The detector set for this camera: colours read against the deck's own printing (learned as it
    plays), and a wide view (the whole frame, until the table is found) fed only as wide as it is."""
    if isinstance(detector, ReadsColours) and detector.deck is None:
        detector.deck = DeckColours(palette)
    if isinstance(detector, OnnxDetector):
        detector.rect = True
