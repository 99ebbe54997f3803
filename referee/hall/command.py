"""The hall on the command line: ``--publish`` for a table's ``run``/``demo``/serve, and ``referee hub``.

A bad broker URL, table name or prefix is one line and exit 2, before anything starts. A broker that
does not answer is not an error for a table: it referees on and publishes when the broker returns
(:class:`~referee.hall.publisher.TablePublisher` says so once).
"""

from __future__ import annotations

import argparse
import logging
import re
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from referee.hall.broker_url import BrokerUrl, BrokerUrlError, parse_broker_url
from referee.hall.proof import KEY_ENV, ProofError, read_key_file, table_key_from
from referee.hall.topics import DEFAULT_PREFIX, TopicError, Topics, check_prefix, check_table_name

if TYPE_CHECKING:
    from referee.hall.publisher import TablePublisher
    from referee.session import MatchSession

__all__ = ["PublishSettings", "add_hub_options", "add_publish_options", "hub", "publish_settings",
           "start_publisher"]

log = logging.getLogger(__name__)


class PublishSettings:
    """What ``--publish``, ``--table``, ``--topic-prefix``, ``--frame-every`` and ``--table-key-file``
    (or ``$REFEREE_TABLE_KEY``) asked for, checked."""

    def __init__(self, url: BrokerUrl, table: str, prefix: str, frame_every_s: float,
                 key: bytes | None = None) -> None:
        self.url = url
        self.table = table
        self.topics = Topics(prefix)
        self.frame_every_s = frame_every_s
        self.key = key


def add_publish_options(p: argparse.ArgumentParser) -> None:
    """The publishing flags of a table's command."""
    p.add_argument("--publish", default=None, metavar="mqtt://HOST:PORT",
                   help="publish every observation and verdict, the live state and a frame now and then to this "
                        "MQTT broker (mqtt:// or mqtts://, user:password@ allowed; the password can also come from "
                        "$REFEREE_MQTT_PASSWORD)")
    p.add_argument("--table", default=None, help="this table's name at the hub (default: the host name)")
    p.add_argument("--topic-prefix", default=DEFAULT_PREFIX, help=f"MQTT topic prefix (default {DEFAULT_PREFIX})")
    p.add_argument("--frame-every", type=float, default=2.0, metavar="SECONDS",
                   help="publish a camera frame at most this often (default 2; 0: never)")
    p.add_argument("--table-key-file", default=None, type=Path, metavar="FILE",
                   help=f"sign every event and state with this table's key (from the hall's organiser: python -m "
                        f"referee.hall.proof key ...), so a hub run with --hall-key can tell them from forgeries; "
                        f"the key may also come from ${KEY_ENV}")


def _default_table() -> str:
    name = re.sub(r"[^A-Za-z0-9_.-]", "-", socket.gethostname())[:40].strip("-.") or "table"
    return name if name[0].isalnum() else "t" + name[:39]


def publish_settings(args: argparse.Namespace) -> PublishSettings | None:
    """The checked publishing settings of ``args`` (``None`` without ``--publish``); a bad one raises
    ``ValueError`` with the line to print (any password masked)."""
    url_text = getattr(args, "publish", None)
    if not url_text:
        return None
    try:
        url = parse_broker_url(url_text)
        table = check_table_name(getattr(args, "table", None) or _default_table())
        prefix = check_prefix(getattr(args, "topic_prefix", None) or DEFAULT_PREFIX)
        key = table_key_from(getattr(args, "table_key_file", None))
    except (BrokerUrlError, TopicError, ProofError) as exc:
        raise ValueError(str(exc)) from None
    frame_every = float(getattr(args, "frame_every", 2.0) or 0.0)
    if frame_every < 0:
        raise ValueError(f"--frame-every must be 0 or more, got {frame_every}")
    return PublishSettings(url, table, prefix, frame_every, key)


def start_publisher(settings: PublishSettings | None, session: MatchSession) -> TablePublisher | None:
    """A started :class:`TablePublisher` for ``session`` (``None`` without settings); call ``.stop()``.

    Imported here, not at the top: a table that does not publish never loads the MQTT client."""
    if settings is None:
        return None
    from referee.hall.publisher import TablePublisher

    return TablePublisher(session, settings.url, settings.table, topics=settings.topics,
                          frame_every_s=settings.frame_every_s, key=settings.key).start()


def add_hub_options(p: argparse.ArgumentParser) -> None:
    """The flags of ``referee hub``."""
    p.add_argument("--broker", required=True, metavar="mqtt://HOST:PORT",
                   help="the MQTT broker the tables publish to (mqtt:// or mqtts://, user:password@ allowed)")
    p.add_argument("--topic-prefix", default=DEFAULT_PREFIX, help=f"MQTT topic prefix (default {DEFAULT_PREFIX})")
    p.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", type=Path, default=Path("hub.db"), help="the hub's own SQLite record (default hub.db)")
    p.add_argument("--client-id", default="referee-hub",
                   help="the hub's MQTT session name: keep it across restarts (default referee-hub)")
    p.add_argument("--hall-key", default=None, type=Path, metavar="FILE",
                   help="prove every table's events and state: each must be signed with the table's key derived "
                        "from this hall key (python -m referee.hall.proof); unsigned or forged ones are dropped "
                        "and counted on /api/hall. Without it the hub trusts every client the broker lets publish")


def hub(args: argparse.Namespace) -> int:
    """``referee hub``: follow every table on the broker; serve the hall until interrupted."""
    from referee.hall.hub_store import HubStore
    from referee.hall.receiver import HubReceiver
    from referee.hall.web import create_hub_app
    from referee.web.app import make_server
    from referee.web.ports import port_problem

    try:
        url = parse_broker_url(args.broker)
        topics = Topics(check_prefix(args.topic_prefix))
        hall_key = read_key_file(args.hall_key, "hall key") if args.hall_key is not None else None
    except (BrokerUrlError, TopicError, ProofError) as exc:
        print(f"referee hub: {exc}", file=sys.stderr)
        return 2
    problem = port_problem(args.host, args.port)
    if problem is None:
        try:
            store = HubStore(args.db)
        except Exception as exc:  # sqlite3.Error, OSError: a missing folder, a file that is not a database
            problem = f"cannot open the hub's record --db {args.db}: {exc}"
    if problem is not None:
        print(f"referee hub: {problem}", file=sys.stderr)
        return 2
    receiver = HubReceiver(store, url, topics=topics, client_id=args.client_id, hall_key=hall_key)
    app = create_hub_app(receiver, close_store=True)
    server = make_server(app, args.host, args.port, log_level="warning")
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    log.info("hub: following %s/+/ on %s, record %s", topics.prefix, url, args.db)
    if hall_key is None:
        log.warning("hub: no --hall-key: every message on the broker is believed; let only each table publish on "
                    "its own topics (the broker's ACL, README 'Many tables') or give the hub a hall key")
    print(f"hub record: {Path(args.db).resolve()}", flush=True)
    print(f"hall: http://{shown}:{args.port}/", flush=True)
    try:
        server.run()
    finally:
        store.close()  # when run() returns (uvicorn re-raises SIGTERM; the app's shutdown closed it then)
    return 0
