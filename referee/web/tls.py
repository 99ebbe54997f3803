"""https for a phone on the same Wi-Fi: a self-signed certificate, made on first start and kept.

Browsers give the camera only to ``https`` pages (and ``localhost``), so ``/camera`` on a phone needs
the dashboard served over TLS. :func:`certificate_for` makes a certificate for this computer's
addresses the first time, keeps it (with its key) in :func:`default_folder`, and makes a new one only
when the addresses it must cover change or it is about to expire: the phone's one-time step (accepting
the certificate) then holds for every later run. :func:`phone_host` is the address a phone on the same
network reaches this computer by.
"""

from __future__ import annotations

import datetime
import ipaddress
import logging
import os
import socket
from collections.abc import Iterable
from pathlib import Path

__all__ = ["CertificateError", "certificate_for", "default_folder", "is_loopback", "phone_host"]

log = logging.getLogger(__name__)

CERT_NAME = "referee-cert.pem"
KEY_NAME = "referee-key.pem"
#: Days a certificate is valid (Apple's devices refuse a TLS certificate valid for more than 825).
VALID_DAYS = 800
#: A certificate this close to its end is made anew.
RENEW_DAYS = 30


class CertificateError(Exception):
    """The https certificate could not be made or read: the message says why and what to do."""


def default_folder() -> Path:
    """Where the certificate is kept: ``$XDG_CONFIG_HOME/uno-referee/tls`` (``~/.config/...``)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "uno-referee" / "tls"


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this computer only (``127.0.0.1``, ``::1``, ``localhost``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def phone_host(bind: str) -> str:
    """The address a phone on the same network uses for a server bound to ``bind``: the address itself,
    or for ``0.0.0.0``/``::`` this computer's address on its network (``127.0.0.1`` when it has none)."""
    if bind not in ("0.0.0.0", "::", ""):
        return bind
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: no packet is sent, a route is chosen
            address = str(probe.getsockname()[0])
        except OSError:
            address = ""
    if address and not address.startswith("0."):
        return address
    try:
        address = socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"
    return address


def certificate_for(hosts: Iterable[str], folder: Path | None = None) -> tuple[Path, Path]:
    """(certificate, key) files covering ``hosts`` (addresses or names) and this computer's local names;
    the kept pair when it covers them, else a new self-signed pair. :class:`CertificateError` when
    neither can be had."""
    folder = folder or default_folder()
    wanted = _names({"localhost", "127.0.0.1", socket.gethostname(), *hosts})
    cert_path, key_path = folder / CERT_NAME, folder / KEY_NAME
    try:
        from cryptography import x509
    except ImportError:  # a dependency; only a broken install lacks it
        raise CertificateError("https needs the `cryptography` package: pip install cryptography") from None
    if cert_path.is_file() and key_path.is_file():
        try:
            existing = x509.load_pem_x509_certificate(cert_path.read_bytes())
        except (OSError, ValueError) as exc:
            log.warning("the https certificate %s cannot be read (%s): making a new one", cert_path, exc)
        else:
            if _covers(existing, wanted):
                return cert_path, key_path
            log.warning("the https certificate %s does not cover %s (or ends soon): making a new one; a phone "
                        "that accepted the old one accepts this one once more", cert_path, ", ".join(sorted(wanted)))
    try:
        _write_pair(cert_path, key_path, wanted)
    except OSError as exc:
        raise CertificateError(f"cannot write the https certificate into {folder}: {exc.strerror or exc} "
                               "(set XDG_CONFIG_HOME to a folder you can write, or serve without https on "
                               "--host 127.0.0.1)") from None
    log.info("made a self-signed https certificate for %s in %s", ", ".join(sorted(wanted)), folder)
    return cert_path, key_path


def _names(hosts: Iterable[str]) -> set[str]:
    return {h.strip().lower() for h in hosts if h and h.strip() and h.strip() not in ("0.0.0.0", "::")}


def _covers(certificate: object, wanted: set[str]) -> bool:
    from cryptography import x509

    assert isinstance(certificate, x509.Certificate)
    try:
        names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return False
    covered = {str(n).lower() for n in names.get_values_for_type(x509.DNSName)}
    covered |= {str(a) for a in names.get_values_for_type(x509.IPAddress)}
    ends = certificate.not_valid_after_utc
    fresh = ends - datetime.datetime.now(datetime.UTC) > datetime.timedelta(days=RENEW_DAYS)
    return fresh and wanted <= covered


def _write_pair(cert_path: Path, key_path: Path, hosts: set[str]) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    alt: list[x509.GeneralName] = []
    for host in sorted(hosts):
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            alt.append(x509.DNSName(host))
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"UNO referee on {socket.gethostname()}"[:64])])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name).issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path.parent.mkdir(parents=True, exist_ok=True)
    key_bytes = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption())
    # The key readable by its owner only; written before the certificate that names it.
    descriptor = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(key_bytes)
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
