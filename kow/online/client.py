"""The connection a client keeps to a kow server: messages in, actions out, and rejoining.

:class:`Connection` is for programs and for the terminal client of ``kow join``: it sends
the ``hello``, reads the ``welcome`` (or the error that refused it), then hands every
message the server sends to :meth:`Connection.receive`, in order, from a reader thread,
so a person can type while the table goes on. When the connection drops it can
:meth:`~Connection.rejoin` with the seat's secret. No Click here, and nothing of the
screen: the command line shows what it receives.
"""

from __future__ import annotations

import contextlib
import json
import queue
import ssl
import threading
from collections.abc import Mapping
from typing import Any

from .addresses import server_url
from .protocol import PROTOCOL, check_code, dumps

__all__ = ["Connection", "JoinError", "server_url"]


class JoinError(Exception):
    """Raised when a server cannot be reached or refuses to seat us; ``code`` is the
    protocol's error code (``"unreachable"`` when no server answered, ``"untrusted"``
    when one answered with a TLS certificate this client does not trust), the message
    says why, for a person."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Connection:
    """One connection to a kow server, seated at a table or watching it.

    Made by :meth:`join` (or :meth:`open`); ``welcome`` holds the server's welcome
    (``seat``, ``secret``, ``host``, ``rules``...). :meth:`receive` returns the messages
    that follow, in order, as dicts; ``None`` once the connection has ended
    (``ended`` then says why).
    """

    def __init__(
        self, websocket: Any, welcome: dict[str, Any], *, url: str, tls: ssl.SSLContext | None
    ) -> None:
        self.websocket = websocket
        self.welcome = welcome
        self.url = url
        self.tls = tls
        self.ended: str | None = None
        self._messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, name="kow-connection", daemon=True)
        self._reader.start()

    @classmethod
    def join(
        cls,
        address: str,
        code: str,
        *,
        name: str | None = None,
        kind: str = "human",
        secret: str | None = None,
        watch: bool = False,
        tls: ssl.SSLContext | None = None,
        timeout: float = 10.0,
    ) -> Connection:
        """Connect to the server at ``address`` and take a seat at table ``code`` as
        ``name`` (or retake the seat of ``secret``; or ``watch``).

        Raises :class:`ValueError` for an address or code that is not one, and
        :class:`JoinError` when no server answers or the server refuses (a wrong code, a
        full table, a name taken...), its message the server's.
        """
        hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL, "table": check_code(code)}
        if name is not None:
            hello["name"] = name
        if kind != "human":
            hello["kind"] = kind
        if secret is not None:
            hello["secret"] = secret
        if watch:
            hello["watch"] = True
        return cls._connect(server_url(address), hello, tls=tls, timeout=timeout)

    @classmethod
    def open(
        cls, address: str, hello: Mapping[str, Any], *, tls: ssl.SSLContext | None = None,
        timeout: float = 10.0,
    ) -> Connection:  # fmt: skip
        """Connect to the ``kow serve`` server at ``address`` and open a table with the
        ``open`` message ``hello`` (see docs/online.md). Raises as :meth:`join` does."""
        return cls._connect(server_url(address), dict(hello), tls=tls, timeout=timeout)

    @classmethod
    def _connect(
        cls, url: str, hello: dict[str, Any], *, tls: ssl.SSLContext | None, timeout: float
    ) -> Connection:
        from websockets.exceptions import WebSocketException
        from websockets.sync.client import connect

        if url.startswith("wss://") and tls is None:
            tls = ssl.create_default_context()
        try:
            websocket = contextlib.ExitStack().enter_context(connect(
                url, ssl=tls if url.startswith("wss://") else None, open_timeout=timeout,
                proxy=None, max_size=1 << 22, compression=None, user_agent_header=None,
            ))  # fmt: skip
        except ssl.SSLCertVerificationError as err:  # a server answered: we do not trust it
            raise JoinError(
                "untrusted",
                f"the server at {url} answered, but its certificate is not trusted"
                f" ({_unverified(err)})",
            ) from None
        except (OSError, WebSocketException, TimeoutError) as err:
            raise JoinError("unreachable", f"no kow server answers at {url}: {_why(err)}") from None
        try:
            websocket.send(dumps(hello))
            first = json.loads(websocket.recv(timeout=timeout + 35))  # a refusal may wait 30 s
        except (OSError, WebSocketException, TimeoutError, ValueError) as err:
            websocket.close()
            raise JoinError(
                "unreachable", f"the server at {url} did not answer: {_why(err)}"
            ) from None
        if not isinstance(first, dict) or first.get("type") != "welcome":
            websocket.close()
            if isinstance(first, dict) and first.get("type") == "error":
                raise JoinError(str(first.get("code")), str(first.get("message")))
            raise JoinError("bad-message", f"the server at {url} does not speak kow's protocol")
        return cls(websocket, first, url=url, tls=tls)

    def rejoin(self, timeout: float = 10.0) -> Connection:
        """Return a new connection to the same seat (its secret), after this one dropped.

        Raises :class:`JoinError` as :meth:`join` does.
        """
        w = self.welcome
        hello = {"type": "hello", "protocol": PROTOCOL, "table": w["table"], "secret": w["secret"]}
        return self._connect(self.url, hello, tls=self.tls, timeout=timeout)

    def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            for text in self.websocket:
                try:
                    message = json.loads(text)
                except ValueError:
                    continue
                if isinstance(message, dict):
                    self._messages.put(message)
        except ConnectionClosed as err:
            self.ended = (
                err.rcvd.reason
                if err.rcvd is not None and err.rcvd.reason
                else "the connection closed"
            )
        except Exception as err:  # noqa: BLE001 - whatever ends the connection is told
            self.ended = _why(err)
        else:
            self.ended = "the server closed the connection"
        self._messages.put(None)

    def receive(self, timeout: float | None = None) -> dict[str, Any] | None:
        """Return the next message from the server, or None once the connection ended.

        Raises :class:`queue.Empty` when ``timeout`` seconds pass with none.
        """
        message = self._messages.get(timeout=timeout)
        if message is None:
            self._messages.put(None)  # every later call sees the end too
        return message

    def send(self, message: Mapping[str, Any]) -> None:
        """Send ``message``; a connection that has ended drops it (:meth:`receive` tells)."""
        from websockets.exceptions import WebSocketException

        try:
            self.websocket.send(dumps(message))
        except (OSError, WebSocketException):
            pass

    def act(self, turn: int, action: str) -> None:
        """Answer turn ``turn`` with ``action`` (``"Ah"``, ``"knock"``, a suit letter)."""
        self.send({"type": "action", "turn": turn, "action": action})

    def close(self) -> None:
        """Close the connection (the seat is away; rejoin with :meth:`rejoin`)."""
        from websockets.exceptions import WebSocketException

        try:
            self.websocket.close()
        except (OSError, WebSocketException):
            pass


def _unverified(err: ssl.SSLCertVerificationError) -> str:
    """Return why a server's certificate was not trusted, in OpenSSL's plain words.

    >>> _unverified(ssl.SSLCertVerificationError(1, "[SSL: CERTIFICATE_VERIFY_FAILED]"
    ...     " certificate verify failed: self-signed certificate (_ssl.c:1006)"))
    'certificate verify failed: self-signed certificate'
    """
    said = getattr(err, "verify_message", None)
    if isinstance(said, str) and said:  # "Hostname mismatch, certificate is not valid..."
        return said[:1].lower() + said[1:].rstrip(".")
    text = str(err.args[1] if len(err.args) > 1 else err)
    text = text.split("] ", 1)[-1]  # without "[SSL: CERTIFICATE_VERIFY_FAILED]"
    return text.split(" (_ssl.c:", 1)[0].rstrip(".")


def _why(err: BaseException) -> str:
    text = str(err) or type(err).__name__
    return text if len(text) <= 120 else text[:117] + "..."
