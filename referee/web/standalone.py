"""``referee serve`` (also ``python -m referee.web``): the dashboard and the match record without a camera.

Useful to referee a game from the dashboard's controls alone (every card typed), and to run the web
side on its own (tests, load benchmark). The pipeline (``referee demo`` / ``referee run``) serves the
same app with the camera attached.
"""

from __future__ import annotations

import argparse
import logging
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from referee.hall.command import add_publish_options, publish_settings, start_publisher
from referee.rules import ObservationError
from referee.session import MatchSession
from referee.store import Store, StoreError
from referee.web.app import serve
from referee.web.ports import port_problem


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``referee serve``: the record, the address, a new match's game, publishing."""
    parser.add_argument("--db", type=Path, default=Path("referee.db"), help="SQLite match record")
    parser.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--token", default=None, help="admin token (default: random, printed)")
    parser.add_argument("--rules", default="official", help="preset for a new match")
    parser.add_argument("--players", type=int, default=4, help="seats for a new match")
    parser.add_argument("--dealer", type=int, default=0, help="dealer for a new match")
    parser.add_argument("--name", action="append", default=[], help="a seat's name (repeatable)")
    add_publish_options(parser)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m referee.web", description=__doc__.splitlines()[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return run(args, parser.prog)


def run(args: argparse.Namespace, prog: str) -> int:
    """Serve the match record at ``args.db`` until stopped; 2 with one line on stderr for a bad record,
    game, port or broker."""
    # A record that cannot be opened, a table the referee cannot seat or a port taken: one line, exit 2.
    problem = port_problem(args.host, args.port)
    try:
        hall = publish_settings(args)
    except ValueError as exc:
        problem = problem or str(exc)
    if problem is None:
        try:
            session = MatchSession(Store(args.db), rules=args.rules, players=args.players,
                                   dealer=args.dealer, names=args.name or None)
        except (sqlite3.Error, StoreError) as exc:  # a missing folder, a file that is not a database
            problem = f"cannot open the match record --db {args.db}: {exc}"
        except ObservationError as exc:
            problem = f"cannot start the match: {exc}"
    if problem is not None:
        print(f"{prog}: {problem}", file=sys.stderr)
        return 2
    publisher = start_publisher(hall, session)
    try:
        serve(session, host=args.host, port=args.port, token=args.token)
    finally:
        if publisher is not None:
            publisher.stop()
    session.store.close()
    return 0
