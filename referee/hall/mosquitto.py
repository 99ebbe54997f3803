"""A private Mosquitto broker on a loopback port, for the tests and the hall benchmark.

It runs Debian's ``mosquitto`` binary with a generated configuration in a folder of its own, and can
be killed (``SIGKILL``: a crash, nothing saved since its last autosave) and started again on the same
port, as the tests and the benchmark do to show that nothing is lost when the broker blinks. With
``hall=True`` it runs the configuration a tournament should run (:data:`HALL_CONF`, shipped beside this
module: persistence, queues, inflight, packet size, per-table users and their ACL), with only the
listener, the folders and the users put in place. A hall in production runs the system's broker with
that file (README: "Many tables").
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

__all__ = ["HALL_ACL", "HALL_CONF", "MOSQUITTO_PATHS", "Mosquitto", "find_mosquitto", "hall_settings"]

MOSQUITTO_PATHS = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")
#: The broker configuration a hall should run, and its ACL (each table writes only its own topics).
HALL_CONF = Path(__file__).resolve().parent / "broker" / "hall.conf"
HALL_ACL = Path(__file__).resolve().parent / "broker" / "hall.acl"
#: Settings of :data:`HALL_CONF` a private broker replaces with its own (port, folders, users).
_PLACED = frozenset({"listener", "password_file", "acl_file", "persistence_location", "log_dest", "allow_anonymous",
                     "user", "pid_file", "port"})


def hall_settings() -> list[str]:
    """The setting lines of :data:`HALL_CONF` that do not name a place (port, folder, file)."""
    lines = []
    for line in HALL_CONF.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#") and line.split()[0] not in _PLACED:
            lines.append(line)
    return lines


def find_mosquitto() -> str | None:
    """The broker's binary, if installed."""
    found = shutil.which("mosquitto")
    if found:
        return found
    return next((p for p in MOSQUITTO_PATHS if Path(p).is_file()), None)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Mosquitto:
    """A broker on ``127.0.0.1:port`` run from ``folder`` (its configuration and log live there).

    ``max_queued`` caps what the broker keeps for one offline persistent client (a stopped hub);
    Mosquitto's own default is 1000, low for a hall of many tables. ``hall``: run :data:`HALL_CONF`'s
    settings instead (``max_queued`` then comes from it), with ``users`` (name -> password; a table's
    user is its name, the hub's ``hub``) under :data:`HALL_ACL` plus ``extra_acl`` lines.
    """

    def __init__(self, folder: Path, port: int | None = None, *, max_queued: int = 100_000,
                 password_file: Path | None = None, hall: bool = False, users: dict[str, str] | None = None,
                 extra_acl: str = "") -> None:
        binary = find_mosquitto()
        if binary is None:
            raise FileNotFoundError("no mosquitto binary (apt-get install mosquitto)")
        self.binary = binary
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or _free_port()
        self.config = self.folder / "mosquitto.conf"
        if hall:
            lines = [f"listener {self.port} 127.0.0.1", *hall_settings(), f"persistence_location {self.folder}/",
                     f"log_dest file {self.folder / 'mosquitto.log'}"]
        else:
            lines = [f"listener {self.port} 127.0.0.1", "persistence false", f"max_queued_messages {max_queued}",
                     "max_inflight_messages 100", f"log_dest file {self.folder / 'mosquitto.log'}"]
        if os.geteuid() == 0:
            # Started as root, mosquitto becomes the 'mosquitto' user, who cannot read a private temp folder.
            lines.append("user root")
        if users:
            password_file = self._password_file(users)
            acl = self.folder / "hall.acl"
            acl.write_text(HALL_ACL.read_text(encoding="utf-8") + "\n" + extra_acl + "\n", encoding="utf-8")
            acl.chmod(0o600)
            lines.append(f"acl_file {acl}")
        if password_file is not None:
            lines += ["allow_anonymous false", f"password_file {password_file}"]
        else:
            lines += ["allow_anonymous true"]
        self.config.write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.process: subprocess.Popen[bytes] | None = None

    def _password_file(self, users: dict[str, str]) -> Path:
        """Mosquitto's password file for ``users``: written in clear, then hashed in place by
        ``mosquitto_passwd -U`` (one call for any number of users)."""
        passwd = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
        path = self.folder / "hall.passwd"
        path.write_text("".join(f"{name}:{password}\n" for name, password in users.items()), encoding="utf-8")
        path.chmod(0o600)
        subprocess.run([passwd, "-U", str(path)], check=True, capture_output=True, timeout=120)
        return path

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def start(self, timeout: float = 10.0) -> Mosquitto:
        """Start it and wait until it accepts connections."""
        self.process = subprocess.Popen([self.binary, "-c", str(self.config)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited at start (see {self.folder / 'mosquitto.log'})")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on port {self.port} within {timeout} s")

    def kill(self) -> None:
        """Kill it at once (a crash: what it held in memory is gone)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        """Stop it politely."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def restart(self, down_s: float = 0.0) -> None:
        """Kill it, stay down ``down_s`` seconds, start it again on the same port."""
        self.kill()
        time.sleep(down_s)
        self.start()

    def __enter__(self) -> Mosquitto:
        return self.start() if self.process is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()
