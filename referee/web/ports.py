"""Whether a server can listen on an address: checked by every command that serves pages (``run``,
``demo``, ``serve``, ``hub``) before it prints an address, so the address it prints is one that works."""

from __future__ import annotations

__all__ = ["port_problem"]


def port_problem(host: str, port: int) -> str | None:
    """Why the dashboard could not listen on ``host:port`` (taken, no such address), else ``None``.

    Checked before anything is printed, so the URL and admin token a command prints are ones that
    work (the server binds the same way: SO_REUSEADDR, so only a live listener is in the way).
    """
    import socket

    where = f"{host}:{port}"
    if not 0 <= port <= 65535:
        return f"cannot serve the dashboard on {where}: a port is 0..65535"
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
    except (OSError, UnicodeError) as exc:  # socket.gaierror included; UnicodeError: a host name IDNA refuses
        reason = getattr(exc, "strerror", None) or str(exc)
        return f"cannot serve the dashboard on {where}: {reason} (another server on that port? try --port)"
    return None
