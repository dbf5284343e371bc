"""A kow server on the loopback address, and remote players, for the online tests.

Everything here talks to 127.0.0.1 only, and every wait is bounded.
"""

from __future__ import annotations

import contextlib
import queue
import random
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from kow.online.addresses import Listen
from kow.online.client import Connection
from kow.online.running import ServerThread
from kow.online.server import Limits, Server
from kow.online.table import Table, TableSettings

HOST = "127.0.0.1"
WAIT = 30.0
"""The longest any test waits for one message."""


@dataclass
class Running:
    """A server running in a thread of its own (:class:`ServerThread`), and its port."""

    thread: ServerThread
    port: int

    @property
    def server(self) -> Server:
        return self.thread.server

    @property
    def address(self) -> str:
        return f"{HOST}:{self.port}"

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn()`` on the server's loop and return what it returns."""
        return self.thread.call(fn, WAIT)

    def open(self, settings: TableSettings) -> Table:
        """Open a table (kept open when empty) on the server's loop."""
        return self.call(lambda: self.server.open_table(settings, keep=True))  # type: ignore[no-any-return]


@contextlib.contextmanager
def running_server(limits: Limits | None = None, *, open_tables: bool = False) -> Iterator[Running]:
    """Run a :class:`Server` on 127.0.0.1 (a free port) in a thread until the block ends."""
    thread = ServerThread(
        Server(limits=limits or Limits(), open_tables=open_tables), Listen(HOST, 0)
    )
    addresses = thread.start()
    try:
        yield Running(thread, addresses[0][1])
    finally:
        thread.stop("the test is over", WAIT)


@dataclass
class Agent:
    """A remote player in a thread: answers each turn with ``choose(view)`` (a legal
    action's text; default the first), keeps every message it received (``frames``),
    and stops after the game over (or ``games`` of them)."""

    connection: Connection
    choose: Callable[[dict[str, Any]], str] = lambda view: view["legal"][0]
    games: int = 1
    frames: list[dict[str, Any]] = field(default_factory=list)
    turns: int = 0
    stop_after: int | None = None
    """Close the connection (as if dropped) after this many turns."""
    thread: threading.Thread | None = None

    def start(self) -> Agent:
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
        return self

    def run(self) -> None:
        over = 0
        while True:
            try:
                message = self.connection.receive(timeout=WAIT)
            except queue.Empty:
                return
            if message is None:
                return
            self.frames.append(message)
            if message["type"] == "turn":
                if self.stop_after is not None and self.turns >= self.stop_after:
                    self.connection.close()
                    return
                self.turns += 1
                self.connection.act(message["turn"], self.choose(message["view"]))
            elif message["type"] == "game_over":
                over += 1
                if over >= self.games:
                    return

    def join(self) -> None:
        assert self.thread is not None
        self.thread.join(WAIT * 4)
        assert not self.thread.is_alive(), "the agent did not finish"


def random_choice(seed: int) -> Callable[[dict[str, Any]], str]:
    """Return a chooser of a legal action drawn from a generator seeded with ``seed``."""
    rng = random.Random(seed)
    return lambda view: rng.choice(view["legal"])
