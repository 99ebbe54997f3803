"""The process pool the generators render in."""

from __future__ import annotations

import multiprocessing
import os
from multiprocessing.context import BaseContext

__all__ = ["worker_context"]


def worker_context() -> BaseContext:
    """How the generators' worker processes start: from a fresh interpreter (``forkserver``; ``spawn`` on
    Windows), never as a fork of the caller. A fork copies the caller's locks as they are at that moment, and
    a caller with threads running (a web server's loop, a video decoder, a numerical library's pool) can have
    one held mid-call: the child then waits for it forever (a whole test run hung so)."""
    return multiprocessing.get_context("spawn" if os.name == "nt" else "forkserver")
