"""The online server: WebSocket connections, tables, and the bounds of what a client may do.

:class:`Server` listens on one address (``kow host`` and ``kow serve``). Each connection
speaks the protocol of :mod:`kow.online.protocol`: its first message, within
:attr:`Limits.hello_seconds`, is a ``hello`` (take a seat at a table by its code,
retake one by its secret, or watch) or, where the server lets clients open tables
(``kow serve``), an ``open``. After that, one connection acts for one seat.

A server trusts no client (docs/protocol.md, "Security: what the server trusts"):

- every message is read by :func:`~.protocol.read_client`, which checks each field and
  bounds it; a frame over :data:`~.protocol.MAX_MESSAGE` bytes closes the connection;
- each connection may send :attr:`Limits.rate` messages a second (bursts of twice that;
  an answer to the turn awaited of it does not count, so a quick bot is never refused);
  a faulty message is answered with an ``error`` naming the fault, and a connection with
  :attr:`Limits.faults` faults is closed (its seat waits, as for a dropped player);
- an address may hold :attr:`Limits.per_address` connections at once, the server
  :attr:`Limits.tables` tables;
- a wrong table code or seat secret is answered only after a wait that doubles with each
  failure from the same address (up to 30 s), and ends the connection;
- a client that sends nothing for :attr:`Limits.idle_seconds`, or answers no ping, is
  closed (WebSocket pings every 20 s);
- any fault in a connection's handling ends that connection only, never the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .protocol import (
    MAX_MESSAGE,
    Act,
    Hello,
    Leave,
    Open,
    ProtocolError,
    Start,
    dumps,
    read_client,
)
from .table import Table, TableSettings, new_code

__all__ = ["Limits", "Server"]


class Limits(NamedTuple):
    """The bounds a server holds every client to (see the module's docstring).

    ``rate``: messages a second per connection; ``faults``: faulty messages before a
    connection is closed; ``per_address``: connections at once from one address;
    ``connections``: connections at once in all;
    ``tables``: tables at once; ``hello_seconds``: time to send the first message;
    ``idle_seconds``: time a seated connection may send nothing (meanwhile WebSocket
    pings, every 20 s, check that it is alive); ``queue``: messages waiting to be sent to
    one connection before it is taken to be stuck and closed; ``penalty``: seconds waited
    before answering the first wrong code or secret from an address (doubled at each
    one after, up to 30 s).
    """

    rate: float = 20.0
    faults: int = 20
    per_address: int = 16
    connections: int = 2000
    tables: int = 100
    hello_seconds: float = 10.0
    idle_seconds: float = 3600.0
    queue: int = 2000
    penalty: float = 0.5


_MAX_PENALTY = 30.0
"""The longest wait, in seconds, before a wrong code or secret is answered."""
_FORGET_FAILURES = 600.0
"""Seconds after which an address's failed attempts are forgotten."""


class _Peer:
    """A connection as the table sees it (:class:`~.table.Peer`): messages are queued and
    written in order by one task, so that a slow reader holds up only itself."""

    def __init__(self, websocket: Any, address: str, limit: int) -> None:
        self.websocket = websocket
        self.address = address
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.limit = limit
        self.closing = False
        self._reason = ""
        self._code = 1000
        self.writer = asyncio.ensure_future(self._write())

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue ``message``; a connection with :attr:`limit` messages unsent is closed."""
        if self.closing:
            return
        if self.queue.qsize() >= self.limit:
            self.close("too many messages wait unread: the connection is stuck")
            return
        self.queue.put_nowait(message if isinstance(message, str) else dumps(message))

    def close(self, reason: str, *, normal: bool = False) -> None:
        """Send what is queued, then close the connection with ``reason`` (WebSocket close
        code 1008, a policy's; 1000 when ``normal``: the client asked for it)."""
        if self.closing:
            return
        self.closing = True
        self.queue.put_nowait(None)
        self._reason = reason[:120]
        self._code = 1000 if normal or not reason else 1008

    async def _write(self) -> None:
        websocket = self.websocket
        with contextlib.suppress(Exception):
            while True:
                text = await self.queue.get()
                if text is None:
                    await websocket.close(self._code, self._reason)
                    return
                await websocket.send(text)


@dataclass(eq=False, kw_only=True)
class Server:
    """A kow server: tables by code, connections, and their limits.

    ``open_tables``: clients may open tables (``kow serve``); else tables are opened by
    the program that runs the server (``kow host``: :meth:`open_table`). ``log_folder``:
    where each table's games are written (one file per table, named by the time it
    opened and its number; None: no logs). ``say`` is given each line for the server's
    operator (connections refused, tables opened and closed).
    """

    limits: Limits = Limits()
    open_tables: bool = False
    log_folder: str | None = None
    say: Callable[[str], None] = lambda line: None
    tables: dict[str, Table] = field(default_factory=dict, init=False)
    connections: dict[str, int] = field(default_factory=dict, init=False)
    failures: dict[str, tuple[int, float]] = field(default_factory=dict, init=False)
    opened: int = field(default=0, init=False)
    numbers: dict[str, int] = field(default_factory=dict, init=False)
    server: Any = field(default=None, init=False)

    def open_table(
        self, settings: TableSettings, *, keep: bool = False, code: str | None = None
    ) -> Table:
        """Open a table with ``settings`` and return it. ``keep``: the table stays open
        when its last player leaves (``kow host``'s). Call on the server's loop.

        Raises :class:`~.protocol.ProtocolError` (``too-many-tables``) when the server
        holds :attr:`Limits.tables` tables.
        """
        if len(self.tables) >= self.limits.tables:
            raise ProtocolError(
                "too-many-tables", f"this server holds {self.limits.tables} tables, its most"
            )
        self.opened += 1
        if settings.log_path is None and self.log_folder is not None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = os.path.join(self.log_folder, f"table-{stamp}-{self.opened}.jsonl")
            settings = settings._replace(log_path=path)
        code = code or new_code()
        table = Table(
            code,
            settings,
            loop=asyncio.get_running_loop(),
            on_empty=None if keep else self._empty,
        )
        self.tables[code] = table
        self.numbers[code] = self.opened  # the number the server's lines name it by
        self.say(f"Table {self.opened} opened ({settings.rules.players} seats).")
        return table

    def _empty(self, table: Table) -> None:
        if self.tables.pop(table.code, None) is not None:
            number = self.numbers.pop(table.code, None)
            table.close("the table closed: nobody is left at it")
            self.say(f"Table {number} closed: nobody is left at it.")

    async def serve(
        self, host: str, port: int, *, tls: ssl.SSLContext | None = None,
        ready: Callable[[list[tuple[str, int]]], None] | None = None,
    ) -> None:  # fmt: skip
        """Listen on ``host``:``port`` (port 0: any free one) until cancelled; ``tls``
        makes it ``wss://``. ``ready`` is called with the addresses listened on.

        Raises :class:`OSError` when the address cannot be listened on.
        """
        from websockets.asyncio.server import serve

        quiet = logging.getLogger("kow.online.websockets")
        quiet.addHandler(logging.NullHandler())
        quiet.propagate = False
        async with serve(
            self._connection,
            host,
            port,
            ssl=tls,
            max_size=MAX_MESSAGE,
            max_queue=4,
            open_timeout=self.limits.hello_seconds,
            ping_interval=20,
            ping_timeout=20,
            close_timeout=5,
            compression=None,
            logger=quiet,
            server_header=None,
        ) as server:
            self.server = server
            if ready is not None:
                ready([sock.getsockname()[:2] for sock in server.sockets])
            try:
                await asyncio.Future()
            finally:
                await self.close_tables("the server stopped")

    async def close_tables(self, reason: str) -> None:
        """Close every table, saying ``reason``, and wait (up to 10 s) until each game
        in progress has written its log."""
        tables = list(self.tables.values())
        self.tables.clear()
        self.numbers.clear()
        for table in tables:
            table.close(reason)
        threads = [t.thread for t in tables if t.thread is not None]
        deadline = time.monotonic() + 10
        for thread in threads:
            await asyncio.to_thread(thread.join, max(0.0, deadline - time.monotonic()))

    # ------------------------------------------------------------------ connections

    async def _connection(self, websocket: Any) -> None:
        """Handle one connection from its opening to its end; nothing it sends can end
        more than itself."""
        address = str(websocket.remote_address[0]) if websocket.remote_address else "?"
        count = self.connections.get(address, 0)
        if sum(self.connections.values()) >= self.limits.connections:
            await _refuse(
                websocket, "too-many-connections",
                f"this server holds {self.limits.connections} connections, its most",
            )  # fmt: skip
            return
        if count >= self.limits.per_address:
            await _refuse(
                websocket, "too-many-connections",
                f"{count} connections from {address} already;"
                f" a server takes {self.limits.per_address}",
            )  # fmt: skip
            return
        self.connections[address] = count + 1
        peer = _Peer(websocket, address, self.limits.queue)
        table: Table | None = None
        try:
            table, seat = await self._hello(websocket, peer)
            if table is not None:
                await self._messages(websocket, peer, table, seat=seat)
        except Exception:  # noqa: BLE001 - one connection's fault ends it alone
            peer.close("the server could not handle this connection")
        finally:
            self.connections[address] -= 1
            if not self.connections[address]:
                del self.connections[address]
            if table is not None:
                table.gone(peer)
            peer.close("")
            with contextlib.suppress(Exception):
                await asyncio.wait_for(peer.writer, 5)

    async def _hello(self, websocket: Any, peer: _Peer) -> tuple[Table | None, int | None]:
        """Read the first message and seat (or refuse) the connection: return its table
        and seat (None, None when refused)."""
        try:
            text = await asyncio.wait_for(websocket.recv(), self.limits.hello_seconds)
        except asyncio.TimeoutError:
            await _refuse(
                websocket, "too-slow",
                f"no hello within {self.limits.hello_seconds:g} seconds",
            )  # fmt: skip
            return None, None
        except Exception:  # noqa: BLE001 - closed, or a frame too big
            return None, None
        try:
            message = read_client(text)
            if isinstance(message, Open):
                return self._open(message, peer)
            if not isinstance(message, Hello):
                raise ProtocolError(
                    "bad-message",
                    "the first message is a hello (or an open), not a"
                    f" {type(message).__name__.lower()}",
                )
            return await self._join(message, peer)
        except ProtocolError as err:
            peer.send({"type": "error", "code": err.code, "message": str(err)})
            peer.close(str(err))
            return None, None

    def _open(self, message: Open, peer: _Peer) -> tuple[Table, int]:
        if not self.open_tables:
            raise ProtocolError("not-allowed", "this server's tables are opened by its host")
        settings = TableSettings(
            message.rules, message.bots, message.hints, message.away, message.seed
        )
        table = self.open_table(settings)
        seat, secret = table.sit(message.name, message.kind, peer, host=True)
        peer.send(table.welcome(seat, secret))
        table.tell_seats()
        return table, seat

    async def _join(self, message: Hello, peer: _Peer) -> tuple[Table | None, int | None]:
        table = self.tables.get(message.table)
        address = peer.address
        if table is None:
            await self._penalty(address)
            raise ProtocolError("bad-code", "no table has that code: check the join line")
        if message.watch:
            table.watch(peer)
            peer.send(table.welcome(None, None))
            peer.send(table.seats_message())
            table.catch_up(peer, None)
            return table, None
        if message.secret is not None:
            try:
                seat = table.retake(message.secret, peer)
            except ProtocolError:
                await self._penalty(address)
                raise
            secret = message.secret
        else:
            assert message.name is not None  # read_client: a name unless watching or retaking
            try:
                seat, secret = table.claim(message.name, peer)
            except ProtocolError:
                seat, secret = table.sit(message.name, message.kind, peer)
        self.failures.pop(address, None)
        peer.send(table.welcome(seat, secret))
        table.tell_seats()
        table.catch_up(peer, seat)
        return table, seat

    async def _penalty(self, address: str) -> None:
        """Wait before answering a wrong code or secret from ``address``:
        :attr:`Limits.penalty` seconds, doubled with each failure (up to 30 s); failures
        are forgotten after ten minutes."""
        now = time.monotonic()
        count, since = self.failures.get(address, (0, now))
        if now - since > _FORGET_FAILURES:
            count = 0
        self.failures[address] = (count + 1, now)
        await asyncio.sleep(min(_MAX_PENALTY, self.limits.penalty * 2**count))

    async def _messages(
        self, websocket: Any, peer: _Peer, table: Table, *, seat: int | None
    ) -> None:
        """Read the seated (or watching) connection's messages until it ends."""
        limits = self.limits
        allowance, stamp = 2 * limits.rate, time.monotonic()
        faults = 0
        while not peer.closing:
            try:
                text = await asyncio.wait_for(websocket.recv(), limits.idle_seconds)
            except asyncio.TimeoutError:
                peer.close(f"nothing received for {limits.idle_seconds:g} seconds")
                return
            except Exception:  # noqa: BLE001 - the connection closed (or sent too much)
                return
            now = time.monotonic()
            allowance = min(2 * limits.rate, allowance + (now - stamp) * limits.rate)
            stamp = now
            try:
                if allowance < 1:
                    raise ProtocolError("too-fast", f"more than {limits.rate:g} messages a second")
                allowance -= 1
                message = read_client(text)
                if isinstance(message, Act):
                    if seat is None:
                        raise ProtocolError("not-your-turn", "a spectator takes no turns")
                    table.answer(seat, message.turn, message.action)
                    allowance += 1  # the answer awaited: a quick bot is not flooding
                elif isinstance(message, Start):
                    if seat != 0:
                        raise ProtocolError("not-allowed", "only the host (seat 0) starts a game")
                    table.start()
                elif isinstance(message, Leave):
                    table.gone(peer, left=True)
                    peer.close("you left the table", normal=True)
                    return
                else:
                    raise ProtocolError(
                        "bad-message", "already at this table: send no hello or open again"
                    )
            except ProtocolError as err:
                faults += 1
                peer.send({"type": "error", "code": err.code, "message": str(err)})
                if faults >= limits.faults:
                    peer.close(f"{faults} faulty messages")
                    return


async def _refuse(websocket: Any, code: str, message: str) -> None:
    """Tell a connection why it is refused, and close it."""
    with contextlib.suppress(Exception):
        await websocket.send(dumps({"type": "error", "code": code, "message": message}))
        await websocket.close(1008, message[:120])
