"""The one place that wires the camera to the referee: capture -> calibration warp -> detect ->
track -> ``session.submit``, plus the annotated frame and the health status for the dashboard.

The commands that run it (``referee run``, ``referee demo``) are in :mod:`referee.commands`. Every
observation and every referee output line (contracts 2 and 3) goes, in order, to the
:class:`LogWriter`'s streams; that includes what the dashboard submits, because the log follows the
session's events rather than only the pipeline's own submissions.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import IO, Any, Literal, Protocol

import cv2
import numpy as np

from referee.cards import CLASSIC_COLOURS, Colour
from referee.clips import FrameRing
from referee.contract import Line
from referee.rules import ObservationError
from referee.session import Event
from referee.vision.calibration import CalibrationProfile, Quad, WhiteBalance
from referee.vision.capture import Capture, Frame
from referee.vision.classify import (
    ACROSS_KINDS_CONFIDENCE,
    CLASSIFIER_ALONE_CONFIDENCE,
    SECOND_LOOK_CONFIDENCE,
    FaceClassifier,
    needs_reading,
    read_on_deck,
    second_look,
)
from referee.vision.colour import DeckColours
from referee.vision.detect import (
    DETECTOR_LOOK_CONFIDENCE,
    OnnxDetector,
    UltralyticsDetector,
    card_colour,
    look_closer,
)
from referee.vision.detections import Detections, Detector, FollowsFrames, ReadsColours
from referee.vision.keeping_up import KeepingUp
from referee.vision.overlay import annotate, encode_jpeg
from referee.vision.recalibration import LiveProfile, view_mover
from referee.vision.table_finder import TableFinder
from referee.vision.teaching import GameTeacher
from referee.vision.tracking import (
    CloserLook,
    Draw,
    MotionDetector,
    PileTracker,
    Play,
    Reread,
    Start,
    TakeBack,
    TrackerConfig,
    TrackerEvent,
    alternatives_of,
)

log = logging.getLogger(__name__)


class Session(Protocol):
    """What the pipeline needs of :class:`referee.session.MatchSession`."""

    def submit(self, obs: Mapping[str, Any], source: str = "camera") -> list[dict[str, Any]]: ...
    def snapshot(self) -> dict[str, Any]: ...
    def set_frame(self, jpeg: bytes) -> None: ...
    def set_status(self, **fields: Any) -> None: ...
    def export_log(self) -> list[dict[str, Any]]: ...
    def undo(self, seq: int | None = None) -> None: ...
    def last_play(self, *, start: bool = False) -> tuple[int, dict[str, Any]] | None: ...
    def correct(self, card: str, color: str | None = None, source: str = "operator") -> Any: ...
    def expected_seat(self) -> int | None: ...
    def expected_seat_if_last_were(self, card: str) -> int | None: ...
    def add_listener(self, listener: Callable[[Event], None]) -> Callable[[], None]: ...


def card_query(session: Session, query: Literal["legal_now", "possible_now"]) -> Callable[[str], bool] | None:
    """A card query of the session's live referee, by name: ``legal_now`` or ``possible_now`` (for
    the tracker's misread fixes; :meth:`MatchSession.legal_now` asks the referee of the moment, so
    the query follows an undo). ``None`` when the session answers no such question."""
    asked = getattr(session, query, None)
    return asked if callable(asked) else None


class LogWriter:
    """Contract-2/3 lines, in order, to any number of text streams (stdout, the ``--log`` file)."""

    def __init__(self, *streams: IO[str]) -> None:
        self.streams = [s for s in streams if s is not None]
        self._lock = threading.Lock()
        self.lines = 0

    def write(self, line: Mapping[str, Any]) -> None:
        text = json.dumps(dict(line), separators=(",", ":"), sort_keys=False)
        with self._lock:
            self.lines += 1
            for stream in self.streams:
                stream.write(text + "\n")
                stream.flush()

    def write_all(self, lines: Sequence[Mapping[str, Any]]) -> None:
        for line in lines:
            self.write(line)

    def on_event(self, event: Mapping[str, Any]) -> None:
        """A session event: its observation, then the referee's output lines."""
        kind = event.get("kind")
        obs = event.get("observation")
        if kind == "undo":
            self.write({"type": "info", "message": "observation undone", "undone": obs})
            return
        if kind == "correct":
            self.write({"type": "info", "message": "last play corrected", "undone_seq": event.get("undone_seq")})
        if isinstance(obs, Mapping):
            self.write(obs)
        for out in event.get("outputs") or ():
            self.write(out)


@dataclass
class PipelineStats:
    """What one run did (the bench and the status line read it)."""

    frames: int = 0
    detector_calls: int = 0
    observations: int = 0
    refused: int = 0
    detector_ms: list[float] = field(default_factory=list)
    frame_ms: list[float] = field(default_factory=list)
    #: (observation, frame captured_at, verdict time) for each observation submitted.
    verdicts: list[tuple[Line, float, float]] = field(default_factory=list)


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
        if isinstance(detector, ReadsColours) and detector.deck is None:
            # One camera, one deck: colours are read against its own printing, learned as it plays.
            detector.deck = DeckColours(palette)
        if isinstance(detector, OnnxDetector):
            # A wide view (the whole frame, until the table is found) goes in only as wide as it is.
            detector.rect = True
        self.session = session
        self.profile_given = profile
        self.players = players
        self.palette = tuple(palette)
        self.fps = fps
        self.timer = timer
        self.stream_width = stream_width
        self.stats = PipelineStats()
        self.profile: CalibrationProfile | None = None
        self.motion: MotionDetector | None = None
        self.white_balance = WhiteBalance(
            profile.white_balance if profile is not None else None,
            auto=profile is None or profile.white_balance is None,
        )
        state = session.snapshot()
        # The tracker's times are counted in frames at the source's rate until the rate frames are
        # judged at is measured (:meth:`_timed`).
        tracker_config = (tracker_config or TrackerConfig()).at(fps)
        self.tracker = PileTracker(
            tracker_config,
            legal_now=card_query(session, "legal_now"),
            possible_now=card_query(session, "possible_now"),
            palette=self.palette,
            expect_start=state.get("top_card") is None,
            # A card about to be believed is read again closer up, by a model that can read a crop
            # (not a double replaying the footage's truth).
            # Two closer readers averaged (with the classifier) need a lower bar than the detector alone,
            # and only they may name a card of the other kind (black for coloured, or back).
            second_look=CloserLook(
                self._look_closer, SECOND_LOOK_CONFIDENCE if classifier is not None else DETECTOR_LOOK_CONFIDENCE,
                across=ACROSS_KINDS_CONFIDENCE if classifier is not None else None, read_colour=self._colour_at,
            ) if isinstance(detector, OnnxDetector | UltralyticsDetector) else None,
        )
        self._pile_view: np.ndarray | None = None
        #: The camera frame the pile view was warped from, and the map back onto it: the classifier reads
        #: a card from the camera's own pixels, not from the pile view capped at 640 px.
        self._frame_image: np.ndarray | None = None
        self._view_to_image: np.ndarray | None = None
        self._new_round = threading.Event()
        #: A profile saved on the calibration page, taken between frames; where cards landed (:meth:`set_profile`).
        self.live_profile = LiveProfile()
        self._stream_every = max(1, round(fps / max(stream_fps, 0.1)))
        self._status_every = max(1, round(fps))
        self._frame_times: deque[float] = deque(maxlen=max(2, round(fps * 2)))
        #: How many of the source's frames are judged: a live source that outruns the machine loses
        #: frames, and what is judged meanwhile is said to be unsure (see keeping_up).
        self.keeping_up = KeepingUp(fps)
        self._last_detections = Detections.empty()
        #: The rate the frame counts below (and the tracker's and the hands') stand for: the source's,
        #: until the frames judged a second are measured to be fewer or more (:meth:`_timed`).
        self.timed_fps = fps
        self._set_counts(fps)
        self._since_motion = 10**9
        self._since_detect = 10**9
        self._frame_t = 0.0
        #: Operator lines (what the camera cannot see) to submit when the footage reaches their ``t``.
        self.script = deque(sorted((dict(x) for x in script), key=lambda x: float(x.get("t") or 0.0)))

    def _set_counts(self, fps: float) -> None:
        cfg = self.tracker.config
        #: Detect on every frame while things move, until a card has had time to settle, and while
        #: the tracker waits to settle a tentative card; at least every ``refresh_every`` frames. In
        #: between the pile view has not changed, so the last detections stand (frigate's
        #: motion-gated detection).
        self.settle_frames = cfg.min_hits + cfg.max_misses + 2
        self.refresh_every = max(1, round(fps / 2))

    def _timed(self, rate: float) -> None:
        """Make every count of frames (a card's settling, a hand's visit, a draw at the stock, the
        detection gate) stand for the same time at ``rate`` frames judged a second: a machine that
        judges every second frame of a 30 fps camera waits 5 of them for a card to settle, not 10."""
        self.timed_fps = rate
        self.tracker.config = self.tracker.config.at(rate)
        if self.motion is not None:
            self.motion.timed(rate)
        self._set_counts(rate)

    def on_event(self, event: Mapping[str, Any]) -> None:
        """Session listener: a new ``setup`` (from the dashboard) means the pile was gathered."""
        obs = event.get("observation")
        if event.get("kind") == "observation" and isinstance(obs, Mapping) and obs.get("type") == "setup":
            self._new_round.set()

    def _prepare(self, image: np.ndarray) -> None:
        h, w = image.shape[:2]
        base = self.profile_given or CalibrationProfile.whole_frame(w, h, self.players)
        self.profile = base.fitted(w, h)
        self.motion = MotionDetector(self.profile, fps=self.timed_fps)
        self._view_to_image = np.linalg.inv(self.profile.pile_homography())

    # Calibration while running (the calibration page, :mod:`referee.web.calibrate`).
    def set_profile(self, profile: CalibrationProfile) -> None:
        """Use ``profile`` from the next frame on (thread-safe: the web thread calls it while frames run).
        Between frames the pile view is warped anew and the cards known on the pile are moved into it."""
        self.live_profile.request(profile)

    def current_profile(self) -> CalibrationProfile | None:
        """The profile in use, fitted to the camera's frames (a requested one once taken); ``None``
        before the first frame."""
        return self.live_profile.pending() or self.profile

    def camera_frame(self) -> np.ndarray | None:
        """The last camera frame as it came (no overlay): what the calibration page clicks on."""
        return self._frame_image

    def landed_cards(self, image_size: tuple[int, int]) -> list[Quad]:
        """Where the cards believed so far came to rest (camera pixels of ``image_size`` frames)."""
        return self.live_profile.landed(image_size)

    def _recalibrate(self, profile: CalibrationProfile, image: np.ndarray, *, camera: np.ndarray | None = None) -> None:
        """Switch to ``profile`` between frames: a new pile view and motion zones; the tracker's pile
        cards moved into the new view, the white balance fixed to the profile's gains when it has some.
        ``camera``: the 2x3 move of a bumped camera the zones moved with, so the pile view shows the cards
        where it did (they stay put). Only the seats changed: the motion detector keeps what it learnt."""
        old = self.profile
        self.profile_given = profile
        if profile.white_balance is not None and (old is None or profile.white_balance != old.white_balance):
            self.white_balance = WhiteBalance(profile.white_balance, auto=False)
        if (old is not None and self.motion is not None and old.image_size == profile.image_size
                and old.pile == profile.pile and old.stock == profile.stock):
            self.profile = profile
            self.motion.reseat(profile)
            log.info("seats applied: %s", [(round(x), round(y)) for x, y in profile.seats])
            return
        motion = self.motion
        self._prepare(image)
        assert self.profile is not None and self.motion is not None
        if motion is not None:
            self.motion.learnt_from(motion, camera)
        if old is not None and old.image_size == self.profile.image_size and camera is None:
            self.tracker.remap(view_mover(old, self.profile))
        self._last_detections = Detections.empty()
        self._since_detect = 10**9  # look at the new view at once
        log.info("calibration applied: pile zone %s (%s)",
                 [(round(x), round(y)) for x, y in self.profile.pile], self.profile.method)

    def _note_landed(self) -> None:
        """The card just believed (the tracker's top card) came to rest: its corners in camera pixels."""
        top = self.tracker.top
        if top is None or self.profile is None:
            return
        x1, y1, x2, y2 = (float(v) for v in top.xyxy[:4])
        corners = self.profile.pile_to_image(np.array([(x1, y1), (x2, y1), (x2, y2), (x1, y2)], np.float32))
        self.live_profile.note_landed([(float(x), float(y)) for x, y in corners], self.profile.image_size)
        if self.finder is not None:
            self.finder.landed([(float(x), float(y)) for x, y in corners], self._frame_t)

    def step(self, frame: Frame) -> list[Line]:
        """Process one frame; returns the referee's output lines it caused."""
        if (recalibrated := self.live_profile.take()) is not None:
            self._recalibrate(recalibrated, frame.image)
        elif self.finder is not None and (found := self.finder.take()) is not None:
            self._recalibrate(found.profile, frame.image, camera=found.camera)
        self._frame_t = frame.t
        if self.profile is None or self.profile.image_size != frame.image.shape[1::-1]:
            self._prepare(frame.image)
        assert self.profile is not None and self.motion is not None
        if self._new_round.is_set():
            self._new_round.clear()
            self.tracker.reset(expect_start=True)
        timer = self.timer
        t0 = timer() if timer else 0.0
        outputs = self.play_script(until=frame.t)
        # White from the cards' whites where the last frame found cards (the table may be light wood).
        pile_view = self.white_balance(self.profile.warp_pile(frame.image), self._last_detections.xyxy)
        self._pile_view = pile_view
        self._frame_image = frame.image
        motion = self.motion.update(frame.image, pile_view)
        self._since_motion = 0 if motion.disturbed or motion.global_change else self._since_motion + 1
        self._since_detect += 1
        fresh = (
            self._since_motion <= self.settle_frames
            or self._since_detect >= self.refresh_every
            or self.tracker.waiting
        )
        if fresh:
            if isinstance(self.detector, FollowsFrames):
                # A detector that replays the footage's ground truth needs to know which frame this is.
                self.detector.frame_index = frame.frame_index
            t1 = timer() if timer else 0.0
            detections = self._read_off_deck(self.detector.detect(pile_view))
            self.stats.detector_calls += 1
            self._since_detect = 0
            if timer:
                self.stats.detector_ms.append((timer() - t1) * 1000)
        else:
            detections = self._last_detections
        if self.finder is not None:
            self.finder.observe(frame.image, frame.t, self.profile, detections if fresh else Detections.empty(),
                                self.motion.foreground, busy=motion.arm_over_pile)
            if self.finder.camera_moving:
                # The camera is knocked: the pile view shows the cards elsewhere until the zones follow it.
                # The last readings stand meanwhile, and a hand seen at the stock is the view moving.
                detections, fresh = self._last_detections, False
                motion = replace(motion, draws=(), draw_started=())
        for event in self.tracker.update(detections, frame.t, frame.frame_index, motion, fresh=fresh):
            if isinstance(event, Start | Play):
                self._note_landed()
            outputs.extend(self.submit(event, frame))
        self._last_detections = detections
        self.stats.frames += 1
        self._frame_times.append(frame.captured_at)
        change = self.keeping_up.update(frame.t)
        if change is not None:
            (log.warning if self.keeping_up.behind else log.info)("%s (footage at %.1f s)", change, frame.t)
        rate = self.keeping_up.rate
        if rate is not None and abs(rate - self.timed_fps) > RETIME_SHARE * self.timed_fps:
            log.info("judging %.0f frames a second: frame counts now stand for the same times at that rate", rate)
            self._timed(round(rate))
        if self.stats.frames % self._stream_every == 0:
            self._publish_frame(frame, detections)
        if timer:
            self.stats.frame_ms.append((timer() - t0) * 1000)
        return outputs

    def _read_off_deck(self, detections: Detections) -> Detections:
        """Detections whose face the deck does not print (and every coloured card of a deck whose faces
        the detector has no classes for), read by the classifier among the deck's faces (the colour as
        read): :func:`~referee.vision.classify.needs_reading`. Unchanged without a deck or a classifier."""
        if self.faces is None or self.classifier is None or self._frame_image is None:
            return detections
        known = tuple(self.detector.face_names)
        off = [i for i, label in enumerate(detections.labels) if needs_reading(label, self.faces, known)]
        if not off:
            return detections
        labels = list(detections.labels)
        for i in off:
            labels[i] = read_on_deck(labels[i], self.classifier.read(
                self._frame_image, detections.xyxy[i], view_to_image=self._view_to_image, allowed=self.faces))
        return replace(detections, labels=tuple(labels))

    def _colour_at(self, pose: np.ndarray) -> tuple[str, float] | None:
        """The colour of the card at ``pose`` in this frame's pile view, as the detector reads colours, and
        the share of its coloured pixels that voted for it."""
        if self._pile_view is None or not isinstance(self.detector, OnnxDetector | UltralyticsDetector):
            return None
        return card_colour(self.detector, self._pile_view, pose)

    def _look_closer(self, pose: np.ndarray, *, whole: bool = False) -> list[tuple[str, float]]:
        """The tracker's second look: the faces read in a crop of this frame's pile view around ``pose`` by
        the detector, and by the classifier in the same crop sampled from the camera frame at its full
        resolution (``whole``: the card lies in full view, where the classifier alone may speak for it)."""
        if self._pile_view is None or not isinstance(self.detector, OnnxDetector | UltralyticsDetector):
            return []
        t0 = self.timer() if self.timer else 0.0
        faces = look_closer(self.detector, self._pile_view, pose)
        if self.faces is not None:
            faces = [(face, p) for face, p in faces if face in self.faces]
        self.stats.detector_calls += 2  # the crop as it lies and turned
        if self.classifier is not None:
            image, view_to_image = self._classifier_view()
            read = self.classifier.read(image, pose, view_to_image=view_to_image, allowed=self.faces)
            # A learned deck's reading is the deck's own look: sure, it speaks alone, whole card or not.
            faces = second_look(faces, read,
                                alone=CLASSIFIER_ALONE_CONFIDENCE if whole or self.classifier.taught else None)
        if self.timer:
            self.stats.detector_ms.append((self.timer() - t0) * 1000)
        return faces

    def play_script(self, until: float | None = None) -> list[Line]:
        """Submit the operator lines due by ``until`` (all of them with ``None``)."""
        outputs: list[Line] = []
        while self.script and (until is None or float(self.script[0].get("t") or 0.0) <= until):
            line = self.script.popleft()
            try:
                outputs.extend(self.session.submit(line, source="operator"))
            except ObservationError as exc:
                self.stats.refused += 1
                log.warning("operator line refused: %s (%s)", exc, line)
        return outputs

    def submit(self, event: TrackerEvent, frame: Frame) -> list[Line]:
        """Act on one tracker event: a take-back or re-read here, an observation (start, play, draw) handed
        to the session as its contract-2 dict; a refused one is logged, never fatal."""
        if (isinstance(event, Play) and self.finder is not None
                and self.finder.seen_again(event.card, event.t, self.session.last_play(start=True))):
            log.info("%s at %.1f s: the card laid just before the camera moved, seen again through the moved "
                     "view: not played twice", event.card, event.t)
            return []
        guess = self.finder.unsure if self.finder is not None and isinstance(event, Play | Draw) else None
        seats_unsure = guess is not None
        if guess is None and self.finder is not None and isinstance(event, Play | Draw):
            guess = self.finder.moved_near(event.t)
        expected = self.session.expected_seat() if self.finder is not None else None
        if (self.finder is not None and guess is None and isinstance(event, Play) and event.seat is not None
                and (settling := self.finder.settling(int(event.seat), expected)) is not None):
            # The seats just found, the turn order may still be one a guess before them threw off.
            unsure_only = settling
        else:
            unsure_only = None
        if self.finder is not None and guess is None and isinstance(event, Draw):
            # The seats found: a draw goes to the seat whose arms come in where its arm does.
            drawer = self.finder.draw_seat(event.t)
            event = event if drawer is None else replace(event, seat=drawer)
        plain = False
        if guess is not None and isinstance(event, Play | Draw):
            # Where the players sit is not found yet: the seat whose turn it is, said to be a guess (a play
            # whose arm comes plainly from a seat already found is that seat's).
            if isinstance(event, Play):
                seat = self.finder.seat_seen(event.t) if self.finder is not None else None
                if seat is None and self.finder is not None:
                    self.finder.guessed()
                elif seats_unsure and self.finder is not None and self.finder.plain_so_far:
                    # Its arm plainly from a seat already placed, and so was every play's before it: the
                    # referee's turn order rests on no guess, and neither does its verdict.
                    plain = True
                event = replace(event, seat=expected if seat is None else seat)
            else:  # a draw: its hand's seat when plain, else the seat that owes it (as the referee would pick)
                seat = self.finder.draw_seat(event.t) if self.finder is not None else None
                if seat is None and self.finder is not None:
                    seat = self.finder.owing()  # a penalty just named (a misplay's): its seat takes the cards
                event = replace(event, seat=expected if seat is None else seat)
        if plain:
            guess = None
        match event:
            case TakeBack():
                return self._take_back(event)
            case Reread():
                return self._reread(event)
            case Play(seat=seat) if seat is not None:
                self._reread_by_seat(int(seat))
        teaching = self.teacher is not None and isinstance(event, Start | Play)
        if isinstance(event, Start | Play) and self.teacher is not None:
            self._teach(event)
        unsure = self.keeping_up.warning
        if guess is not None:
            unsure = guess if unsure is None else f"{unsure}; {guess}"
        elif unsure_only is not None:
            unsure = unsure_only if unsure is None else f"{unsure}; {unsure_only}"
        if unsure is not None:  # judged on too few frames: the referee's verdicts on it say so
            event = replace(event, unsure=unsure)
        obs = event.as_dict()  # the record's JSON
        try:
            outputs = self.session.submit(obs, source="camera")
        except ObservationError as exc:
            self.stats.refused += 1
            log.warning("observation refused: %s (%s)", exc, obs)
            return []
        self.stats.observations += 1
        if self.finder is not None:
            self.finder.judged(obs, outputs)
        if self.finder is not None and isinstance(event, Start | Play):
            # Where the card came from tells where its player sits: the start card the dealer's, a play its
            # turn's (once the seats are found, only a play from the seat the referee expected).
            seat = self.session.snapshot().get("dealer") if isinstance(event, Start) else event.seat
            if seat is not None and (guess is not None or plain or isinstance(event, Start) or seat == expected):
                self.finder.played(int(seat), event.t, start=isinstance(event, Start))
        if teaching and self.teacher is not None:
            self.teacher.judged([str(o.get("code")) for o in outputs if o.get("type") == "alert"])
        if self.timer:
            self.stats.verdicts.append((obs, frame.captured_at, self.timer()))
        return outputs

    def _classifier_view(self) -> tuple[np.ndarray, np.ndarray | None]:
        """Where the classifier reads a card of the pile view: the camera frame through the map back onto
        it (its full resolution), or the pile view itself when there is no such frame."""
        if self._frame_image is not None and self._view_to_image is not None:
            return self._frame_image, self._view_to_image
        assert self._pile_view is not None
        return self._pile_view, None

    def _teach(self, event: Start | Play) -> None:
        """Before ``event`` is judged: the last candidate view is learned if its play still stands (the game
        went on), and the card of ``event``, the tracker's top card, is looked at as the next candidate
        (:class:`~referee.vision.teaching.GameTeacher`)."""
        assert self.teacher is not None and self.classifier is not None
        found = self.session.last_play(start=True)
        newest = (str(found[1].get("card")), float(found[1].get("t") or 0.0)) if found is not None else None
        if (matcher := self.teacher.confirm(newest)) is not None:
            self.classifier.game = matcher
            log.debug("the game taught the reader: %s", self.teacher.faces_learned)
        top = self.tracker.top
        look = None
        if top is not None and top.label == event.card and self._pile_view is not None:
            image, view_to_image = self._classifier_view()
            look = self.classifier.look(image, top.xyxy, view_to_image=view_to_image)
        self.teacher.consider(event.card, round(event.t, 3), look, corrected=event.corrected_from is not None,
                              unsure=self.keeping_up.warning is not None)

    def _reread_by_seat(self, seat: int) -> None:
        """The seat that plays next is evidence about the last card: a misread reverse or skip
        sends the referee's turn the wrong way, and every later play would be out of turn. When
        ``seat`` is not the one expected, but would be had the last play been exactly one of its
        other reads, that play is corrected first (one ``correct`` event, logged)."""
        if self.session.expected_seat() in (None, seat) or (found := self.session.last_play()) is None:
            return
        last = found[1]
        alternatives = alternatives_of(last)
        if not alternatives or last.get("seat") == seat:
            return
        # A what-if answers None unless the newest play is also the last observation.
        fits = [label for label in alternatives if self.session.expected_seat_if_last_were(label) == seat]
        if len(fits) != 1:
            return
        try:
            self.session.correct(fits[0], source="camera")
        except ObservationError as exc:
            log.warning("re-read of %s as %s refused: %s", last.get("card"), fits[0], exc)
            return
        log.info("%s re-read as %s: Player %d plays next, which only that read explains",
                 last.get("card"), fits[0], seat + 1)  # people count players from 1

    def _reread(self, reread: Reread) -> list[Line]:
        """The top card, believed under a hand or on an unsure vote, read otherwise in clear view: its
        play (or the start card) is corrected (one ``correct`` event: judged again, the misread's alerts
        withdrawn), while it is still the last observation. Once anything came after it the record is
        left as it is; the operator can still correct it."""
        found = self.session.last_play(start=True)
        if found is None or found[1].get("card") != reread.was:
            log.info("%s re-read as %s, but it is not the newest play: left as is", reread.was, reread.card)
            return []
        try:
            event = self.session.correct(reread.card, source="camera")
        except ObservationError as exc:
            log.info("re-read of %s as %s not applied: %s", reread.was, reread.card, exc)
            return []
        log.info("%s re-read as %s in clear view: its play corrected", reread.was, reread.card)
        outputs = event.get("outputs") if isinstance(event, Mapping) else None
        return [dict(o) for o in outputs or ()]

    def _take_back(self, taken: TakeBack) -> list[Line]:
        """A card taken back off the pile (the top card, so the newest play): its play is undone,
        even when draws or operator lines came after it (a ghost read seen to vanish later)."""
        found = self.session.last_play()
        if found is None or found[1].get("card") != taken.card:
            log.info("%s taken back, but it is not the newest play: left as is", taken.card)
            return []
        try:
            self.session.undo(found[0])
        except ValueError as exc:
            log.warning("take-back of %s not undone: %s", taken.card, exc)
            return []
        log.info("%s taken back: its play is undone, and anything after it judged again "
                 "(alerts stay in the record)", taken.card)
        return []

    def _publish_frame(self, frame: Frame, detections: Detections) -> None:
        state = self.session.snapshot()
        status = self.status()
        image = frame.image
        h, w = image.shape[:2]
        if w > self.stream_width:  # the stream need not be full size; encoding is the costly part
            image = cv2.resize(image, (self.stream_width, round(h * self.stream_width / w)),
                               interpolation=cv2.INTER_LINEAR)
        image = annotate(image, profile=self.profile, detections=detections, state=state, status=status)
        jpeg = encode_jpeg(image)
        self.session.set_frame(jpeg)
        if self.replay is not None:  # the same bytes: a replay costs the frame loop no encoding
            self.replay.add(frame.t, jpeg)

    def status(self) -> dict[str, Any]:
        times = self._frame_times
        fps = (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 and times[-1] > times[0] else None
        return {
            "fps": None if fps is None else round(fps, 1),
            "warning": self.keeping_up.warning,
            "frames": self.stats.frames,
            "detections": len(self._last_detections),
            "observations": self.stats.observations,
            "refused": self.stats.refused,
            "pile": [c.label for c in self.tracker.pile[-3:]],
            **({"table": self.finder.unsure or "found"} if self.finder is not None else {}),
        }

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
                    self.session.set_status(**{**capture.status().as_dict(), **self.status()})
            if not stop.is_set():
                self.play_script()  # the end of the footage: what the operator says after it
        finally:
            capture.stop()
            if self.replay is not None:  # a clip waiting for frames after the footage's end takes what there is
                self.replay.end()
            self.session.set_status(**{**capture.status().as_dict(), **self.status()})
        return self.stats


#: The frames judged a second must differ by this share from the rate the frame counts stand for
#: before they are set again (a margin, so the counts do not follow every stutter).
RETIME_SHARE = 0.2
