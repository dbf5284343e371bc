"""Addresses of online play: where a server listens, where a client connects, and which of
this machine's addresses friends can reach.

No connection is opened here: this machine's addresses are what its own name resolves to.
"""

from __future__ import annotations

import contextlib
from typing import NamedTuple
from urllib.parse import urlsplit

from .protocol import DEFAULT_PORT

__all__ = [
    "Listen",
    "everywhere",
    "joinable",
    "lan_addresses",
    "loopback",
    "parse_listen",
    "server_url",
]


class Listen(NamedTuple):
    """Where a server listens: ``host`` (an address or a name; ``0.0.0.0`` or ``::``:
    every interface) and ``port`` (0: any free one)."""

    host: str
    port: int


def parse_listen(text: str, *, default_host: str) -> Listen:
    """Return the ``--listen`` value ``text``: ``HOST:PORT``, ``[IPv6]:PORT``, ``HOST``
    (the default port) or ``:PORT`` (``default_host``).

    >>> parse_listen("127.0.0.1:0", default_host="0.0.0.0")
    Listen(host='127.0.0.1', port=0)
    >>> parse_listen("[::1]:80", default_host="0.0.0.0"), parse_listen(":9", default_host="h")
    (Listen(host='::1', port=80), Listen(host='h', port=9))

    Raises :class:`ValueError` naming a value that is none of these, or a port out of 0
    to 65535.
    """
    value = text.strip()
    host, port_text = value, ""
    if value.startswith("["):
        end = value.find("]")
        if end < 0 or value[end + 1 : end + 2] not in ("", ":"):
            raise ValueError(f"{text!r} is not HOST:PORT (an IPv6 address is written [::1]:7412)")
        host, port_text = value[1:end], value[end + 2 :]
    elif value.count(":") == 1:
        host, port_text = value.split(":")
    elif value.count(":") > 1:
        raise ValueError(f"{text!r} is not HOST:PORT (an IPv6 address is written [::1]:7412)")
    host = host or default_host
    if not host or any(c.isspace() or c in "/[]@" for c in host):
        raise ValueError(f"{text!r} is not HOST:PORT, such as 0.0.0.0:{DEFAULT_PORT}")
    if not port_text:
        if value.endswith(":"):
            raise ValueError(f"{text!r} has no port after ':': give a port, 0 to 65535")
        return Listen(host, DEFAULT_PORT)
    if not port_text.isdigit() or not port_text.isascii() or int(port_text) > 65535:
        raise ValueError(f"{port_text!r} in {text!r} is not a port: allowed 0 to 65535")
    return Listen(host, int(port_text))


def everywhere(host: str) -> bool:
    """Return whether a server on ``host`` listens on every interface (``0.0.0.0``, ``::``)."""
    return host in ("0.0.0.0", "::", "")


def loopback(host: str) -> bool:
    """Return whether ``host`` is this machine only (``localhost``, 127.0.0.0/8, ``::1``)."""
    import ipaddress

    if host == "localhost":
        return True
    with contextlib.suppress(ValueError):
        return ipaddress.ip_address(host).is_loopback
    return False


def lan_addresses(*, ipv6: bool = False) -> list[str]:
    """Return this machine's addresses on its networks, as its own name resolves
    (:func:`socket.getaddrinfo` of :func:`socket.gethostname`; no connection is opened):
    IPv4 first, loopback and link-local left out. Empty when the name resolves to none
    (many machines map their name to 127.0.1.1)."""
    import ipaddress
    import socket

    try:
        infos = socket.getaddrinfo(socket.gethostname(), None)
    except (OSError, UnicodeError):
        return []
    found: list[str] = []
    for family, *_, sockaddr in infos:
        if family not in (socket.AF_INET, socket.AF_INET6):
            continue
        try:
            address = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])
        except ValueError:
            continue
        if address.is_loopback or address.is_link_local or address.is_unspecified:
            continue
        if address.version == 6 and not ipv6:
            continue
        text = str(address) if address.version == 4 else f"[{address}]"
        if text not in found:
            found.append(text)
    return sorted(found, key=lambda a: a.startswith("["))


def joinable(host: str, port: int) -> list[str]:
    """Return the addresses friends give to ``kow join`` for a server on ``host``:``port``."""
    if everywhere(host):
        found = lan_addresses(ipv6=host == "::")
        return [f"{a}:{port}" for a in found]
    shown = f"[{host}]" if ":" in host else host
    return [f"{shown}:{port}"]


def server_url(address: str) -> str:
    """Return the WebSocket URL of ``address``: ``HOST:PORT``, ``HOST`` (the default
    port), ``[IPv6]:PORT``, or a ``ws://`` or ``wss://`` URL.

    >>> server_url("192.0.2.7:7412"), server_url("wss://example.org"), server_url("[::1]:80")
    ('ws://192.0.2.7:7412/', 'wss://example.org:7412/', 'ws://[::1]:80/')

    Raises :class:`ValueError` naming an address that is none of these, or its port when
    that is not one of 1 to 65535:

    >>> server_url("127.0.0.1:99999")
    Traceback (most recent call last):
    ValueError: '99999' in '127.0.0.1:99999' is not a port: allowed 1 to 65535
    """
    text = address.strip()
    if "://" not in text:
        text = "ws://" + text
    wrong = f"{address!r} is not an address: give HOST:PORT, as the join line has it"
    try:
        parts = urlsplit(text)
    except ValueError:
        raise ValueError(wrong) from None
    port_text = _port_text(parts.netloc)
    if port_text and not (
        port_text.isascii() and port_text.isdigit() and 0 < int(port_text) <= 65535
    ):
        raise ValueError(f"{port_text!r} in {address!r} is not a port: allowed 1 to 65535")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(wrong) from None
    if parts.scheme not in ("ws", "wss") or not parts.hostname or parts.path not in ("", "/"):
        raise ValueError(wrong)
    host = parts.hostname
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}:{port if port is not None else DEFAULT_PORT}/"


def _port_text(netloc: str) -> str | None:
    """Return the port written in the URL's ``netloc`` (``""`` after a bare ``:``), or
    None when it has none, or when it is no ``HOST:PORT`` nor ``[IPv6]:PORT``.

    >>> _port_text("h:80"), _port_text("[::1]:x"), _port_text("h"), _port_text("::1:80")
    ('80', 'x', None, None)
    """
    place = netloc.rpartition("@")[2]
    if place.startswith("["):
        host, _, rest = place.partition("]")
        return rest[1:] if rest.startswith(":") else None
    host, colon, port = place.rpartition(":")
    return port if colon and ":" not in host else None
