"""The ``referee`` command: arguments in, one call out (docs/contract.md, contract 5).

Each subcommand is a small function that imports what it needs, so ``referee replay`` never loads
OpenCV and ``referee --help`` starts instantly.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from referee.web.ports import port_problem

Handler = Callable[[argparse.Namespace], int]


def _cmd_replay(args: argparse.Namespace) -> int:
    from referee.rules.replay import replay_file

    return replay_file(args.log, sys.stdout, rules=args.rules)


def _cmd_demo(args: argparse.Namespace) -> int:
    from referee.commands import demo

    _game_flags(args)
    _serve_host(args)
    if (problem := _publish_problem(args)) or (not args.no_serve and (problem := port_problem(args.host, args.port))):
        print(f"referee demo: {problem}", file=sys.stderr)
        return 2
    return demo(args)


def _cmd_run(args: argparse.Namespace) -> int:
    from referee.commands import run

    _game_flags(args)
    _serve_host(args)
    if (problem := _publish_problem(args)) or (not args.no_serve and (problem := port_problem(args.host, args.port))):
        print(f"referee run: {problem}", file=sys.stderr)
        return 2
    return run(args)


def _serve_host(args: argparse.Namespace) -> None:
    """``--host`` when not given: every address for ``--source phone`` (the phone on the Wi-Fi must reach
    the dashboard), else this computer only."""
    if args.host is None:
        args.host = "0.0.0.0" if str(getattr(args, "source", "")).strip().lower() == "phone" else "127.0.0.1"


def _publish_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with ``--publish``/``--table``/``--topic-prefix``, checked before anything starts;
    the checked settings go to ``args.hall`` (``None``: not publishing)."""
    from referee.hall.command import publish_settings

    try:
        args.hall = publish_settings(args)
    except ValueError as exc:
        return str(exc)
    return None


def _cmd_hub(args: argparse.Namespace) -> int:
    from referee.hall.command import hub

    return hub(args)


def _cmd_serve(args: argparse.Namespace) -> int:
    from referee.web.standalone import run as serve_record

    return serve_record(args, "referee serve")


#: --rules, --players and --dealer of `run` and `demo` when not given
GAME_DEFAULTS = (("rules", "official"), ("players", 4), ("dealer", 0))


def _game_flags(args: argparse.Namespace) -> None:
    """Note in ``args.given`` which game flags the command line gave, then fill in the others' defaults:
    footage with its own setup (the demo's, a --script's) takes those from it and must fit the given ones."""
    args.given = frozenset(name for name, _ in GAME_DEFAULTS if getattr(args, name) is not None)
    for name, default in GAME_DEFAULTS:
        if getattr(args, name) is None:
            setattr(args, name, default)


def _cmd_eval(args: argparse.Namespace) -> int:
    from referee.evaluation import main as evaluate_main

    return evaluate_main(args)


def _cmd_bench(args: argparse.Namespace) -> int:
    from referee.bench import main as bench_main

    return bench_main(args)


def _cmd_synth(args: argparse.Namespace) -> int:
    from referee.synth.command import main as synth_main

    return synth_main(args)


def _cmd_train(args: argparse.Namespace) -> int:
    from referee.train import main as train_main

    return train_main(args)


def _cmd_train_classifier(args: argparse.Namespace) -> int:
    from referee.train_classifier import main as train_classifier_main

    return train_classifier_main(args)


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from referee.vision.calibration import main as calibrate_main

    return calibrate_main(args)


def _cmd_learn_deck(args: argparse.Namespace) -> int:
    from referee.vision.learn import main as learn_main

    if getattr(args, "propose", None) is not None:  # the deck the rows show: the preset's (rules know it)
        from referee.readers import CommandError, deck_spec

        try:
            args.layout_deck = deck_spec(args.rules, {})
        except CommandError as exc:
            print(f"referee learn-deck: {exc}", file=sys.stderr)
            return 2
    return learn_main(args)


def _add_deck_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--deck", type=Path, default=None,
                   help="read with a deck learned by `referee learn-deck` (its faces and colours)")


def _add_teach_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--teach", action=argparse.BooleanOptionalAction, default=False,
                   help="the game teaches the reader: cards read surely that the rules accept become views of "
                        "the deck, so an unfamiliar printing's doubtful cards are compared with its own "
                        "(referee.vision.teaching; off by default)")


def _add_game_options(p: argparse.ArgumentParser) -> None:
    # Defaults (None: see _game_flags): footage with its own setup line (the demo's) gives its own.
    p.add_argument("--rules", default=None,
                   help="rule preset (official, nl, de, lb, breuken, house; default official)")
    p.add_argument("--players", type=int, default=None, help="number of seats (default 4)")
    p.add_argument("--dealer", type=int, default=None, help="dealer's seat (default 0)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="override a rule option, e.g. --option stack_draw2=true (repeatable)")


def _add_serve_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default=None,
                   help="bind address (default 127.0.0.1; with --source phone 0.0.0.0, so the phone reaches it)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--https", action="store_true",
                   help="serve https with a self-signed certificate made on first start (on by itself for "
                        "--source phone on an address other than localhost: a phone's browser needs it)")
    p.add_argument("--db", type=Path, default=None, help="SQLite file for the match record")
    p.add_argument("--token", default=None, help="admin token for the controls (default: random, printed)")
    p.add_argument("--model", type=Path, default=None, help="detector weights (.onnx or .pt)")
    p.add_argument("--classifier", type=Path, default=None,
                   help="face classifier for the closer look (default: models/classifier.onnx when present)")
    p.add_argument("--log", type=Path, default=None,
                   help="write every observation and referee output line here (JSON lines)")
    from referee.hall.command import add_publish_options

    add_publish_options(p)
    p.add_argument("--clips-mb", type=float, default=50.0, metavar="MB",
                   help="instant replays: each match's clips stay under this many MB, oldest dropped first "
                        "(default 50; 0: no clips)")
    _add_deck_option(p)


def _demo_options(p: argparse.ArgumentParser) -> None:
    _add_game_options(p)
    _add_serve_options(p)
    _add_teach_option(p)
    p.add_argument("--no-serve", action="store_true", help="no web server; end with the footage")
    p.add_argument("--realtime", action=argparse.BooleanOptionalAction, default=False,
                   help="drop the frames the pipeline has no time for, as a live camera does (default: the "
                        "footage plays at its own frame rate and every frame is judged, late on a busy machine)")


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--source", required=True,
                   help="camera index, video file, rtsp://.. URL, image folder, or `phone`: a phone streaming its "
                        "camera from the dashboard's /camera page (the start line prints its link and a QR code)")
    _add_game_options(p)
    _add_serve_options(p)
    _add_teach_option(p)
    p.add_argument("--mirror", action="store_true",
                   help="flip every frame left to right: a camera that mirrors its view (a selfie view, a flipped "
                        "capture; the referee warns when the cards read surer flipped)")
    p.add_argument("--calibration", type=Path, default=None,
                   help="calibration profile JSON (without one the table is found from the footage)")
    p.add_argument("--found-calibration", type=Path, default=None, metavar="FILE",
                   help="with no --calibration: where the table found from the footage is saved, for "
                        "--calibration next time (default calibration/found.json)")
    p.add_argument("--script", type=Path, default=None,
                   help="operator log (JSON lines) fed in at the footage's times: what the camera cannot see")
    p.add_argument("--no-serve", action="store_true", help="no web server; end with the footage")
    p.add_argument("--realtime", action=argparse.BooleanOptionalAction, default=None,
                   help="pace a file at its frame rate and drop the frames the pipeline has no time for, as a "
                        "live camera does (default: on for cameras and streams; a file is judged frame by frame)")


def _serve_options(p: argparse.ArgumentParser) -> None:
    from referee.web.standalone import add_arguments

    add_arguments(p)


def _hub_options(p: argparse.ArgumentParser) -> None:
    from referee.hall.command import add_hub_options

    add_hub_options(p)


def _replay_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", type=Path, help="observation log, JSON lines ('-' for standard input)")
    p.add_argument("--rules", default=None, help="preset to assume when the log's setup names none")


def _eval_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("data", type=Path)
    p.add_argument("--model", type=Path, default=None, help="weights (.onnx default, .pt via ultralytics)")
    p.add_argument("--imgsz", type=int, default=None, help="inference size (default: the model's)")
    p.add_argument("--conf", type=float, default=0.001, help="confidence threshold for mAP")
    p.add_argument("--limit", type=int, default=None, help="evaluate at most this many images")
    p.add_argument("--classifier", type=Path, default=None,
                   help="face classifier for photo folders (default: models/classifier.onnx when present)")
    _add_deck_option(p)
    p.add_argument("--rules", default=None,
                   help="photo folders: the preset whose deck they show (default: told by the folder names)")
    p.add_argument("--no-tiles", dest="tiles", action="store_false",
                   help="find cards in the whole view only, not again on tiles where they are small (to compare)")


def _learn_deck_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("photos", type=Path, help="folder of class-named folders (red_7/, wild/, ...) of photos; "
                   "with --propose or --proposals, a folder of photos of the deck laid out in rows")
    p.add_argument("--out", type=Path, default=None, help="the deck folder to write (needed but with --propose)")
    p.add_argument("--propose", type=Path, default=None, metavar="FILE",
                   help="photos of cards in rows: find every card and write the label proposed for each to FILE "
                        "(one card a line: correct the wrong labels, then --proposals FILE); learns nothing")
    p.add_argument("--proposals", type=Path, default=None, metavar="FILE",
                   help="photos of cards in rows: learn from FILE (written by --propose, corrected)")
    p.add_argument("--rules", default="official",
                   help="with --propose: the preset whose deck the photos show (default official)")
    p.add_argument("--model", type=Path, default=None, help="detector that finds the card in each photo")
    p.add_argument("--classifier", type=Path, default=None,
                   help="face classifier to learn on (default: models/classifier.onnx)")
    p.add_argument("--views", type=int, default=160, help="generated views per label (default 160)")
    p.add_argument("--seed", type=int, default=0)


def _bench_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--frames", type=int, default=300)
    p.add_argument("--model", type=Path, default=None)
    p.add_argument("--no-baseline", action="store_true", help="skip the ultralytics baseline")
    p.add_argument("--clips-mb", type=float, default=50.0, metavar="MB",
                   help="record instant replays as a run does, capped at this many MB (0: none, to compare)")
    _add_deck_option(p)
    p.add_argument("--games", type=int, default=0,
                   help="instead: end-to-end evaluation on this many generated games (plays, seats, draws, alerts)")
    p.add_argument("--videos", type=Path, nargs="*", default=[],
                   help="instead: end-to-end evaluation on these generated game videos (with their sidecars)")
    p.add_argument("--seconds", type=float, default=45.0, help="length of each generated game")
    p.add_argument("--oracle", action="store_true",
                   help="evaluate with the generator's ground-truth detector (tracker and wiring only)")
    p.add_argument("--noise", action="store_true",
                   help="add detector faults (lost, jittered, misread and ghost boxes) to the evaluation")


def _synth_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, default=Path("datasets/generated"))
    p.add_argument("--train", type=int, default=2000, help="training images")
    p.add_argument("--val", type=int, default=300, help="validation images")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--imgsz", type=int, default=640, help="image side in pixels")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--recipe", type=Path, default=None,
                   help="scene recipe JSON (default: datasets/recipe.json when present)")
    p.add_argument("--relative-paths", action="store_true",
                   help="yaml roots relative to the yaml file (for a dataset kept in the repository)")
    p.add_argument("--crops", action="store_true",
                   help="instead: square crops of single cards (OUT/{train,val}/FACE/*.jpg) for the face classifier;"
                        " --train/--val count scenes, --imgsz is the scene size")
    p.add_argument("--cut-share", type=float, default=0.0,
                   help="with --crops: this share of the cards also cut a second time by a frame edge across them"
                        " (a card held up to a camera)")


def _train_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", type=Path, default=Path("datasets/generated/data.yaml"))
    p.add_argument("--model", default="yolo11n.yaml", help="model yaml (from scratch) or a .pt to resume/fine-tune")
    p.add_argument("--epochs", type=int, default=50)
    p.add_argument("--imgsz", type=int, default=320)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--device", default="cpu")
    p.add_argument("--resume", action="store_true", help="resume the interrupted run")
    p.add_argument("--name", default="detector")
    p.add_argument("--export-only", action="store_true", help="only export --model to ONNX into models/")
    p.add_argument("--hours", type=float, default=None,
                   help="train for this long instead of --epochs (the schedule anneals within it)")
    p.add_argument("--cache", action="store_true", help="cache decoded images in RAM")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="overrides",
                   help="any other ultralytics training argument, e.g. --set warmup_epochs=1 (repeatable)")


def _train_classifier_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", type=Path, default=Path("datasets/crops"))
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (one cycle)")
    p.add_argument("--weights", type=Path, default=None, help="start from these weights (a classifier .pt)")
    p.add_argument("--out", type=Path, default=Path("models/classifier.onnx"), help="ONNX file; the .pt goes beside it")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--device", default="cpu", help="torch device to train on: cpu, cuda, cuda:1, ...")
    p.add_argument("--camera", action="store_true",
                   help="augment with the camera's share too: tilt, blur, sensor noise, a stronger cast")
    p.add_argument("--log", type=Path, default=None, help="write the summary with every epoch's figures here (JSON)")


def _calibrate_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--source", default=None, help="camera index, video or image to calibrate from")
    p.add_argument("--corners", default=None, metavar="x1,y1,x2,y2,x3,y3,x4,y4",
                   help="pile zone corners by hand (clockwise from top-left)")
    p.add_argument("--out", type=Path, default=Path("calibration/table.json"))
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--marker-sheet", type=Path, default=None, help="write the printable ArUco sheet here and exit")


#: Every subcommand: its name, what runs it, its one-line help, and what adds its options.
COMMANDS: tuple[tuple[str, Handler, str, Callable[[argparse.ArgumentParser], None]], ...] = (
    ("demo", _cmd_demo, "run the pipeline on the bundled demo footage and serve the dashboard", _demo_options),
    ("run", _cmd_run, "run the pipeline on a camera, file, stream or image folder", _run_options),
    ("serve", _cmd_serve, "the dashboard and the match record without a camera (every card typed)", _serve_options),
    ("hub", _cmd_hub, "one page and API for every table publishing to an MQTT broker (many tables)", _hub_options),
    ("replay", _cmd_replay, "run the referee alone over an observation log (contract 2 -> 3)", _replay_options),
    ("eval", _cmd_eval, "detector quality on a YOLO data.yaml or a folder of class-named folders", _eval_options),
    ("learn-deck", _cmd_learn_deck,
     "teach the reader one physical deck from photos of its cards (class-named folders)", _learn_deck_options),
    ("bench", _cmd_bench, "throughput and latency of the full pipeline beside plain ultralytics", _bench_options),
    ("synth", _cmd_synth, "generate a YOLO dataset of table scenes", _synth_options),
    ("train", _cmd_train, "train the detector (ultralytics) and export ONNX into models/", _train_options),
    ("train-classifier", _cmd_train_classifier,
     "train the face classifier (torch, from scratch) on `referee synth --crops` and export ONNX",
     _train_classifier_options),
    ("calibrate", _cmd_calibrate, "calibrate the table and pile zone into calibration/", _calibrate_options),
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee", description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, handler, help_text, add_options in COMMANDS:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(handler=handler)
        add_options(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    handler: Handler = args.handler
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
