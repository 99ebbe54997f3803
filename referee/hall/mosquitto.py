"""A private Mosquitto broker on a loopback port, for the tests and the hall benchmark.

It runs Debian's ``mosquitto`` binary with a generated configuration in a folder of its own, and can
be killed (``SIGKILL``: a crash, nothing saved) and started again on the same port, as the tests and
the benchmark do to show that nothing is lost when the broker blinks. A hall in production runs the
system's broker instead (README: "Many tables").
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

__all__ = ["MOSQUITTO_PATHS", "Mosquitto", "find_mosquitto"]

MOSQUITTO_PATHS = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")


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
    Mosquitto's own default is 1000, low for a hall of many tables.
    """

    def __init__(self, folder: Path, port: int | None = None, *, max_queued: int = 100_000,
                 password_file: Path | None = None) -> None:
        binary = find_mosquitto()
        if binary is None:
            raise FileNotFoundError("no mosquitto binary (apt-get install mosquitto)")
        self.binary = binary
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or _free_port()
        self.config = self.folder / "mosquitto.conf"
        lines = [f"listener {self.port} 127.0.0.1", "persistence false", f"max_queued_messages {max_queued}",
                 "max_inflight_messages 100", f"log_dest file {self.folder / 'mosquitto.log'}"]
        if os.geteuid() == 0:
            # Started as root, mosquitto becomes the 'mosquitto' user, who cannot read a private temp folder.
            lines.append("user root")
        if password_file is not None:
            lines += ["allow_anonymous false", f"password_file {password_file}"]
        else:
            lines += ["allow_anonymous true"]
        self.config.write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.process: subprocess.Popen[bytes] | None = None

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
