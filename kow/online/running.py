"""A :class:`~kow.online.server.Server` listening in a thread of its own, on its own event
loop, so that the main thread keeps the keyboard and the signals (``kow host``, ``kow
serve``, the tests and the benchmark)."""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import threading
from collections.abc import Callable
from typing import Any

from .addresses import Listen
from .server import Server

__all__ = ["ServerThread"]


class ServerThread:
    """A :class:`~kow.online.server.Server` listening in a thread of its own, on its own
    event loop, so that the main thread keeps the keyboard (and the signals)."""

    def __init__(self, server: Server, listen: Listen, tls: ssl.SSLContext | None = None) -> None:
        self.server = server
        self.listen = listen
        self.tls = tls
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task[None] | None = None
        self.addresses: list[tuple[str, int]] = []
        self.error: BaseException | None = None
        self._ready = threading.Event()
        self.thread = threading.Thread(target=self._main, name="kow-server", daemon=True)

    def start(self) -> list[tuple[str, int]]:
        """Start listening; return the addresses listened on. Raises :class:`OSError`
        when the address cannot be listened on."""
        self.thread.start()
        self._ready.wait()
        if self.error is not None:
            raise self.error
        return self.addresses

    def _main(self) -> None:
        loop = asyncio.new_event_loop()
        self.loop = loop
        try:
            self.task = loop.create_task(
                self.server.serve(
                    self.listen.host, self.listen.port, tls=self.tls, ready=self._listening
                )
            )
            loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass
        except BaseException as err:  # noqa: BLE001 - handed to the main thread
            self.error = err
        finally:
            self._ready.set()
            with contextlib.suppress(Exception):
                pending = asyncio.all_tasks(loop)
                for task in pending:
                    task.cancel()
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.close()

    def _listening(self, addresses: list[tuple[str, int]]) -> None:
        self.addresses = addresses
        self._ready.set()

    def call(self, work: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Run ``work()`` on the server's loop and return what it returns (or raise what
        it raises)."""
        assert self.loop is not None

        async def run() -> Any:
            return work()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)

    def stop(self, reason: str, timeout: float = 10.0) -> None:
        """Close every table (each connection told ``reason``, a game in progress saved
        in its log, marked abandoned), stop listening, and wait for the games' threads to
        save their logs."""
        loop = self.loop
        if loop is None or loop.is_closed():  # not thread.is_alive(): see kow serve's wait
            return
        tables = list(self.server.tables.values())

        async def close() -> None:
            writers = []
            for table in tables:
                peers = table.peers()
                table.close(reason)
                writers += [w for p in peers if (w := getattr(p, "writer", None)) is not None]
            if writers:  # the "closed" message reaches each client before the socket shuts
                await asyncio.wait(writers, timeout=3)

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(close(), loop).result(timeout)
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._cancel)
        self.thread.join(timeout)
        for table in tables:
            if table.thread is not None:
                table.thread.join(timeout)

    def _cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
