"""``referee run`` and ``referee demo`` (docs/contract.md, contract 5): :func:`run` and :func:`demo`.

What they share with ``eval`` and ``bench`` (the game's deck, the models, a learned deck,
:class:`CommandError`) is library code in :mod:`referee.readers`, re-exported here.

With the web server, the pipeline runs on its own thread and uvicorn in the main thread; with
``--no-serve`` the pipeline runs in the main thread and the command ends with the footage. Every
observation and every referee output line (contracts 2 and 3) goes, in order, to standard output and
to ``--log`` when given. Bad input is a :class:`CommandError`: one line, exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import secrets
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from referee.clips import ClipStore, recorder_for
from referee.contract import MAX_PLAYERS, Line
from referee.pipeline import LogWriter, Pipeline, PipelineStats, Session
from referee.readers import CommandError as CommandError
from referee.readers import apply_deck as apply_deck
from referee.readers import deck_faces as deck_faces
from referee.readers import deck_palette as deck_palette
from referee.readers import deck_spec
from referee.readers import open_classifier as open_classifier
from referee.readers import open_detector as open_detector
from referee.rules import ObservationError
from referee.vision.calibration import CalibrationError, CalibrationProfile
from referee.vision.capture import (
    DEFAULT_FPS,
    CameraState,
    Capture,
    SourceKind,
    SourceSpec,
    parse_source,
    probe_fps,
)
from referee.vision.detections import Detector

if TYPE_CHECKING:
    from referee.hall.publisher import TablePublisher
    from referee.vision.phone import PhoneLink
    from referee.vision.table_finder import TableFinder

log = logging.getLogger(__name__)

DEMO_FOOTAGE = Path("datasets/demo/demo.mp4")
#: Where the calibration page (/calibrate) saves when the run was given no ``--calibration`` file.
DEFAULT_CALIBRATION = Path("calibration/table.json")


#: Where a run with no ``--calibration`` saves the table it found from the footage.
FOUND_CALIBRATION = Path("calibration/found.json")


def _saver(path: Path) -> Callable[[CalibrationProfile], None]:
    """Saves each profile the table finder settles on at ``path`` (a failure is one log line, never fatal)."""

    def save(profile: CalibrationProfile) -> None:
        try:
            profile.save(path)
        except OSError as exc:
            log.warning("cannot save the table found to %s: %s", path, exc)
        else:
            log.info("table found saved to %s", path)

    return save


#: How often a run without the dashboard says how far it got (seconds).
PROGRESS_EVERY_S = 10.0


def parse_options(items: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise CommandError(f"--option expects NAME=VALUE, got {item!r}")
        options[name.strip()] = value.strip()
    return options


@contextmanager
def _log_file(path: Path | None) -> Iterator[IO[str] | None]:
    if path is None:
        yield None
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = path.open("w", encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write the log {path}: {exc}") from None
    with handle:
        yield handle


def _open_session(args: argparse.Namespace, options: Mapping[str, Any], hand_size: int | None = None) -> Session:
    from referee.session import MatchSession
    from referee.store import Store, StoreError

    try:
        store = Store(args.db if args.db is not None else ":memory:")
    except (sqlite3.Error, StoreError) as exc:  # a missing folder, a file that is not a database
        raise CommandError(f"cannot open the match record --db {args.db}: {exc}") from None
    try:
        session: Session = MatchSession(
            store, rules=args.rules, players=args.players, dealer=args.dealer, options=dict(options),
            hand_size=hand_size,
        )
    except (ObservationError, sqlite3.Error, StoreError) as exc:
        raise CommandError(f"cannot start the match: {exc}") from None
    return session


def _publisher(args: argparse.Namespace, session: Session) -> TablePublisher | None:
    """A started publisher of ``session`` when ``--publish`` was given (checked by the CLI into
    ``args.hall``, else here); a bad broker URL or table name is a :class:`CommandError`."""
    from referee.hall.command import publish_settings, start_publisher
    from referee.session import MatchSession

    try:
        settings = getattr(args, "hall", None) or publish_settings(args)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    if settings is None:
        return None
    assert isinstance(session, MatchSession)
    return start_publisher(settings, session)


def read_script(path: Path) -> list[Line]:
    """An operator log (JSON lines, contract 2); a bad line is an error naming it."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot read the script {path}: {exc}") from None
    lines: list[Line] = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except ValueError as exc:
            raise CommandError(f"{path}:{number}: not JSON ({exc})") from None
        if not isinstance(line, dict) or not isinstance(line.get("type"), str):
            raise CommandError(f"{path}:{number}: not an observation: {raw[:80]!r}")
        lines.append(line)
    return lines


#: seconds a camera may take to open before the command goes on without knowing (it reports later)
CAMERA_OPEN_TIMEOUT = 20.0


def check_table(players: int, dealer: int) -> None:
    """``--players`` and ``--dealer`` the referee can seat; a :class:`CommandError` saying which is not."""
    if not 2 <= players <= MAX_PLAYERS:
        raise CommandError(f"--players must be 2..{MAX_PLAYERS}, got {players}")
    if not 0 <= dealer < players:
        raise CommandError(f"--dealer must be a seat 0..{players - 1} of the {players} players, got {dealer}")


def fit_setup(args: argparse.Namespace, setup: Mapping[str, Any], options: Mapping[str, Any],
              script: Path | None) -> None:
    """Refuse flags given on the command line (``args.given``, see ``referee.cli``) that the footage's
    own setup line (the first of its script: the demo's) contradicts, with a :class:`CommandError`.

    Players and dealer are what was filmed: judged as another table, every play would be out of turn,
    so ``--players``/``--dealer`` must agree with the setup. The rule preset is the referee's choice,
    so a given ``--rules`` wins (the caller keeps it), as long as its deck holds every card of the
    footage's deck (``lb`` and ``breuken`` print other cards than the classic deck the demo shows).
    """
    given = getattr(args, "given", None) or ()
    name = script.name if script is not None else "the script"
    for flag, filmed in (("players", setup.get("players")), ("dealer", setup.get("dealer") or 0)):
        if flag in given and filmed is not None and filmed != getattr(args, flag):
            what = f"seats {filmed} players" if flag == "players" else f"has seat {filmed} as dealer"
            raise CommandError(f"the footage's own setup ({name}) {what}: --{flag} {getattr(args, flag)} "
                               f"does not fit this footage; leave --{flag} out")
    filmed_rules = setup.get("rules")
    if "rules" not in given or not isinstance(filmed_rules, str) or filmed_rules == args.rules:
        return
    filmed_deck = deck_spec(filmed_rules, dict(setup.get("options") or {}))
    chosen_deck = deck_spec(args.rules, {**dict(setup.get("options") or {}), **options})
    if not set(filmed_deck.copies) <= set(chosen_deck.copies):
        raise CommandError(f"the footage ({name}) shows the {filmed_deck.name} deck of its rules {filmed_rules}; "
                           f"--rules {args.rules} plays the {chosen_deck.name} deck and cannot judge it")


def execute(
    args: argparse.Namespace,
    source: str,
    *,
    realtime: bool | None,
    paced: bool = False,
    out: IO[str] | None = None,
    detector: Detector | None = None,
) -> int:
    """The body of ``referee run`` and ``referee demo`` (``detector``: use this one, not the model;
    ``realtime`` and ``paced``: see :class:`Capture`)."""
    spec = _source_spec(args, source)
    options: dict[str, Any] = dict(parse_options(getattr(args, "option", []) or []))
    script, options, hand_size = _game_from_script(args, options)
    check_table(args.players, args.dealer)
    palette = deck_palette(args.rules, options)
    profile = _calibration_profile(args)
    finder = table_finder(args, profile, probe_fps(spec) or DEFAULT_FPS)
    detector = detector or open_detector(getattr(args, "model", None), palette)
    classifier = open_classifier(getattr(args, "classifier", None), detector)
    apply_deck(getattr(args, "deck", None), detector, classifier, palette)
    capture, phone = _open_capture(spec, realtime=realtime, paced=paced, mirror=bool(getattr(args, "mirror", False)))
    with _log_file(args.log) as log_handle:
        session = _open_session(args, options, hand_size)
        writer = LogWriter(out or sys.stdout, *([log_handle] if log_handle else []))
        initial = session.export_log()  # the setup (and anything resumed from --db)
        if args.no_serve:
            writer.write_all(initial)
        # Instant replays: a clip around every play and alert, beside the record (referee.clips).
        clips = recorder_for(getattr(args, "db", None), getattr(args, "clips_mb", None))
        pipeline = Pipeline(detector, session, profile=profile, players=args.players, palette=palette,
                            faces=deck_faces(args.rules, options),
                            fps=probe_fps(spec) or DEFAULT_FPS, script=script, classifier=classifier,
                            replay=clips.ring if clips is not None else None,
                            teach=bool(getattr(args, "teach", False)), finder=finder)
        remove_writer = session.add_listener(writer.on_event)
        remove_pipeline = session.add_listener(pipeline.on_event)
        remove_clips = session.add_listener(clips.on_event) if clips is not None else (lambda: None)
        publisher = _publisher(args, session)  # --publish: the record to a hall's broker (referee.hall)
        try:
            if args.no_serve:
                stats = pipeline.run(capture, progress_every=PROGRESS_EVERY_S)
            else:
                stats = _serve(args, session, pipeline, capture, lambda: writer.write_all(initial),
                               clips=clips.store if clips is not None else None, phone=phone)
        finally:
            if publisher is not None:
                publisher.stop()  # sends what is left first, for a little while
            remove_writer()
            remove_pipeline()
            remove_clips()
            if clips is not None:
                clips.close()
    return _outcome(source, capture, stats)


def _source_spec(args: argparse.Namespace, source: str) -> SourceSpec:
    """``--source`` parsed and checked: a file that is no video, or a phone with no dashboard, is an error."""
    try:
        spec = parse_source(source)
    except FileNotFoundError as exc:
        raise CommandError(str(exc)) from None
    if spec.kind is SourceKind.PHONE and args.no_serve:
        raise CommandError("--source phone needs the dashboard: the phone streams to its /camera page "
                           "(leave out --no-serve)")
    if spec.kind is SourceKind.FILE and not _reads_as_video(str(spec.target)):
        raise CommandError(f"--source {source}: not a video (no frame of it can be read)")
    return spec


def _game_from_script(args: argparse.Namespace, options: dict[str, Any]
                      ) -> tuple[list[Line], dict[str, Any], int | None]:
    """The operator script (``--script``), the game's options and the hand size it deals. The script's own
    setup decides the game (the demo's table has its own players and dealer); flags given on the command
    line must fit it, and a given --rules wins (see fit_setup). ``args`` takes the setup's game."""
    script_path = getattr(args, "script", None)
    script = read_script(script_path) if script_path is not None else []
    hand_size: int | None = None
    if script and script[0].get("type") == "setup":
        setup = script.pop(0)
        fit_setup(args, setup, options, script_path)
        if "rules" not in getattr(args, "given", ()):
            args.rules = setup.get("rules") or args.rules
        args.players = int(setup.get("players") or args.players)
        args.dealer = int(setup.get("dealer") or 0)
        options = {**dict(setup.get("options") or {}), **options}
        # Cards dealt as the footage's table agreed (the demo deals fewer): the referee counts hands
        # from it, so the round ends, and is scored, when the winner's last card lands. A bad value is
        # refused with the setup (ObservationError -> CommandError in _open_session).
        hand_size = setup.get("hand_size")
    return script, options, hand_size


def _calibration_profile(args: argparse.Namespace) -> CalibrationProfile | None:
    """``--calibration`` loaded (``None``: none given); one of another number of seats spreads them evenly."""
    calibration = getattr(args, "calibration", None)
    if calibration is None:
        return None
    try:
        profile = CalibrationProfile.load(calibration)
    except CalibrationError as exc:
        raise CommandError(str(exc)) from None
    if profile.players != args.players:
        log.warning("calibration has %d seats, the game %d players: seats spread evenly instead",
                    profile.players, args.players)
        profile = CalibrationProfile.from_corners(profile.pile, *profile.image_size, players=args.players,
                                                  stock=profile.stock)
    return profile


def _open_capture(spec: SourceSpec, *, realtime: bool | None, paced: bool,
                  mirror: bool = False) -> tuple[Capture, PhoneLink | None]:
    """The frames' source (``mirror``: each frame flipped left to right), and the phone's link when the phone
    is the camera; a camera index that opens nothing is an error said at once, rather than a wait forever."""
    if spec.kind is SourceKind.PHONE:
        from referee.vision.phone import PhoneLink

        phone = PhoneLink()
        return phone.capture(mirror=mirror), phone
    capture = Capture(spec, realtime=realtime, paced=paced, mirror=mirror)
    if spec.kind is SourceKind.CAMERA and not capture.wait_open(timeout=CAMERA_OPEN_TIMEOUT):
        raise CommandError(capture.status().message)
    return capture, None


def _outcome(source: str, capture: Capture, stats: PipelineStats) -> int:
    """The exit status: 1 for a source that failed, an error for footage of which no frame was decoded."""
    log.info("%d frames, %d observations (%d refused)", stats.frames, stats.observations, stats.refused)
    status = capture.status()
    if status.state.value == "failed":
        print(f"referee: source failed: {status.message}", file=sys.stderr)
        return 1
    if status.state is CameraState.ENDED and stats.frames == 0:
        raise CommandError(f"no frame of {source} could be decoded ({status.corrupt} unreadable): nothing was judged")
    return 0


def _reads_as_video(path: str) -> bool:
    """Whether OpenCV reads a frame of the file at ``path`` (a text file, say, it does not)."""
    import cv2

    capture = cv2.VideoCapture(path)
    try:
        return bool(capture.isOpened() and capture.read()[0])
    finally:
        capture.release()


def table_finder(args: argparse.Namespace, profile: CalibrationProfile | None, fps: float) -> TableFinder:
    """What looks at the table as the game goes: with no calibration, the finder (the pile, the stock and
    the seats found from the footage, saved at ``--found-calibration``); with one, a finder given it, which
    only follows a knocked camera, moving the profile with it (the file is left as it is)."""
    from referee.vision.table_finder import TableFinder

    if profile is not None:
        return TableFinder(args.players, given=profile, fps=fps)
    found = Path(getattr(args, "found_calibration", None) or FOUND_CALIBRATION)
    log.warning("no calibration: the table is found from the footage (the pile where the first card lands, "
                "the stock, the seats from the players' arms and the turns); until the seats are found a play "
                "goes to the seat whose turn it is and its verdicts are marked unsure. What is found is saved "
                "to %s: next time --calibration %s (markers and /calibrate clicks stay overrides)", found, found)
    return TableFinder(args.players, fps=fps, on_found=_saver(found))


def calibration_file(args: argparse.Namespace) -> Path:
    """Where the calibration page saves: the run's ``--calibration`` file (so the next run with the same
    flag uses what was clicked), else :data:`DEFAULT_CALIBRATION` (the demo: there, not over its own)."""
    return Path(getattr(args, "calibration_out", None) or getattr(args, "calibration", None) or DEFAULT_CALIBRATION)


def server_lines(host: str, port: int, token: str, scheme: str = "http") -> list[str]:
    """What a run with the dashboard prints first: the dashboard's URL and admin token, the one-click
    link that hands the token to the browser (``#token=``: the fragment never reaches the server or
    its logs, and the page moves it into the browser's storage at once), and the overlay's URL for an
    OBS browser source."""
    from urllib.parse import quote

    base = f"{scheme}://{host}:{port}/"
    return [
        f"dashboard: {base}  (admin token: {token})",
        f"controls, one click: {base}#token={quote(token, safe='')}",
        f"overlay (OBS browser source, 720p to 4K): {base}overlay",
    ]


def _serve(
    args: argparse.Namespace,
    session: Session,
    pipeline: Pipeline,
    capture: Capture,
    after_url: Callable[[], object] = lambda: None,
    clips: ClipStore | None = None,
    phone: PhoneLink | None = None,
) -> PipelineStats:
    """Dashboard in this thread, pipeline in another; prints the URL, then the live log (``clips``:
    where the instant replays are recorded; ``phone``: the link a phone streams to from ``/camera``)."""
    from referee.web.app import create_app, make_server
    from referee.web.hands import model_loader
    from referee.web.teach import deck_dir_for

    token = args.token or secrets.token_urlsafe(12)
    # Hands photographed at the round's end are read by the same model as the pile; a deck taught on
    # /teach is saved beside the record and read with at once (as --deck would).
    app = create_app(session, token=token, hand_detector=model_loader(args.model),  # type: ignore[arg-type]
                     on_deck=lambda path: apply_deck(path, pipeline.detector, pipeline.classifier, pipeline.palette),
                     deck_dir=deck_dir_for(getattr(args, "db", None)), clips=clips,
                     table=pipeline, calibration_file=calibration_file(args), phone=phone)
    from referee.web.camera import serve_phone
    from referee.web.tls import CertificateError

    try:  # https, and the phone's link with its QR code, when wanted
        tls, phone_lines = serve_phone(args, token, phone, session.set_status)
    except CertificateError as exc:
        raise CommandError(f"cannot serve https: {exc}") from None
    if phone is not None:  # the phone's frame rate is known once it streams: keeping up is measured against it
        phone.on_rate = lambda fps: setattr(pipeline.keeping_up, "source_fps", fps)
    server = make_server(app, args.host, args.port, log_level="warning", tls=tls)
    stop = threading.Event()

    def work() -> None:
        try:
            pipeline.run(capture, stop)
            log.info("footage ended; the dashboard stays up (Ctrl-C to quit)")
        except Exception:
            log.exception("pipeline stopped")

    worker = threading.Thread(target=work, name="pipeline", daemon=True)
    host = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print("\n".join(server_lines(host, args.port, token, "https" if tls else "http") + phone_lines), flush=True)
    after_url()
    worker.start()
    try:
        server.run()
    finally:
        stop.set()
        if phone is not None:
            phone.close()
        # The frame in hand, then the capture's reader (Capture.stop): a thread still in native code when the
        # process exits aborts it, so it is waited for, not left behind after a few seconds.
        worker.join(timeout=60)
        if worker.is_alive():
            log.error("the pipeline has not stopped after 60 s: the process may abort at exit")
    return pipeline.stats


def run(args: argparse.Namespace) -> int:
    """``referee run --source ...``."""
    try:
        return execute(args, args.source, realtime=args.realtime)
    except CommandError as exc:
        print(f"referee run: {exc}", file=sys.stderr)
        return 2


def demo_footage() -> tuple[Path, Path | None, Path | None]:
    """The demo video, its operator script and calibration (rendered from a fixed seed on first use)."""
    try:
        video = importlib.import_module("referee.synth.video")
    except ImportError:
        raise CommandError(
            "no game-video generator (referee.synth.video) to make the demo footage; "
            "run the pipeline on your own footage with `referee run --source FILE`"
        ) from None
    demo_dir = Path(getattr(video, "DEMO_VIDEO", DEMO_FOOTAGE))
    if not demo_dir.is_file():
        print(f"rendering the demo footage into {demo_dir} (first run only, about a minute)...",
              file=sys.stderr, flush=True)
    try:
        footage, operator, calibration = video.demo_footage()
    except (OSError, ValueError) as exc:
        raise CommandError(f"cannot make the demo footage: {exc}") from None
    return (Path(footage), Path(operator) if operator else None, Path(calibration) if calibration else None)


def demo(args: argparse.Namespace) -> int:
    """``referee demo``: the pipeline on the demo footage (plus the dashboard unless --no-serve)."""
    try:
        # The model first: no point rendering the footage for a pipeline that cannot start.
        detector = open_detector(getattr(args, "model", None), deck_palette(args.rules, {}))
        footage, operator, calibration = demo_footage()
        args.calibration = calibration if calibration is not None and calibration.is_file() else None
        args.calibration_out = DEFAULT_CALIBRATION  # the demo's own profile stays as rendered
        args.script = operator if operator is not None and operator.is_file() else None
        # Played at its own pace, every frame judged (late on a busy machine) unless --realtime.
        return execute(args, str(footage), realtime=args.realtime, paced=True, detector=detector)
    except CommandError as exc:
        print(f"referee demo: {exc}", file=sys.stderr)
        return 2
