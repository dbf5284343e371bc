"""The stop signals: Ctrl-C, SIGTERM and SIGHUP, and every way kow handles them.

A stop is one of :data:`STOP_SIGNALS`. The command line turns a stop into an exception
(:func:`stop_signals`: :class:`KeyboardInterrupt` for Ctrl-C, :class:`Stopped` for the
others), so that cleanups run on the way out, and ends with :func:`stop_code`. The rest
is for moments a stop must not cut:

- :func:`stops_held`: a block the command's stop ends at its end (a game written whole);
- :func:`signals_ignored`: a block no stop ends;
- :func:`stops_blocked` and :func:`stops_left_to_parent`: a worker process being started,
  and the worker's own handlers once it runs (:mod:`kow.runs._pool`);
- :func:`stops_deferred`, with :func:`stop_handlers` and :func:`restore_handlers`: a call
  into compiled code that swallows an exception a handler raises (Ray's core);
- :func:`stop_ends_after`: a call that may never return and never looks at signals.

Only the standard library: any layer of kow may import it. Handlers are the main
thread's (Python runs them there alone); elsewhere each function does nothing.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

__all__ = [
    "STOP_SIGNALS",
    "Stopped",
    "restore_handlers",
    "signals_ignored",
    "stop_code",
    "stop_ends_after",
    "stop_handlers",
    "stop_said",
    "stop_signals",
    "stops_blocked",
    "stops_deferred",
    "stops_held",
    "stops_left_to_parent",
]

STOP_SIGNALS: tuple[int, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that stop kow, those of them this platform has: Ctrl-C (SIGINT), SIGTERM
(``kill``) and SIGHUP (a closed terminal)."""


class Stopped(BaseException):
    """Raised in the main thread by SIGTERM or SIGHUP, so that cleanups run on the way out.

    ``code`` is the exit code a shell gives a process ended by the signal (128 + its
    number: 143 for SIGTERM, 129 for SIGHUP); ``name`` is the signal's name. A
    :class:`BaseException`, like :class:`KeyboardInterrupt`, so that no ``except
    Exception`` stops it.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.code = 128 + signum
        self.name = signal.Signals(signum).name


def stop_said(stop: KeyboardInterrupt | Stopped) -> str:
    """Return how a message names the stop: ``Interrupted`` (Ctrl-C) or ``Stopped by
    SIGTERM``."""
    return "Interrupted" if isinstance(stop, KeyboardInterrupt) else f"Stopped by {stop.name}"


def stop_code(stop: KeyboardInterrupt | Stopped) -> int:
    """Return the exit code of a command ended by ``stop``: 130 for Ctrl-C, else 128 +
    the signal's number (143 for SIGTERM, 129 for SIGHUP), as a shell gives."""
    return 130 if isinstance(stop, KeyboardInterrupt) else stop.code


# ----------------------------------------------------------------------------- a command's stop

_held: list[int] | None = None
"""In a block of :func:`stops_held`, the stop signals that landed in it; None outside."""


def _main_thread() -> bool:
    """Return whether this is the main thread, the one that runs Python's handlers."""
    return threading.current_thread() is threading.main_thread()


def _stop(signum: int, frame: object) -> None:
    """End the command on the first stop signal (at the end of a :func:`stops_held`
    block when one runs); ignore any that follow while it cleans up."""
    for number in STOP_SIGNALS:
        signal.signal(number, _ignore)
    if _held is not None:
        _held.append(signum)
        return
    _raise_stop(signum)


def _raise_stop(signum: int) -> NoReturn:
    """Raise what the stop signal ``signum`` raises: :class:`KeyboardInterrupt` for
    Ctrl-C, :class:`Stopped` for the others."""
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Stopped(signum)


def _ignore(signum: int, frame: object) -> None:
    """Let a signal pass. Not SIG_IGN: one already caught then would print a warning."""


@contextmanager
def stop_signals() -> Iterator[None]:
    """Turn Ctrl-C, SIGTERM and SIGHUP into exceptions while a command runs (main thread).

    Ctrl-C raises :class:`KeyboardInterrupt`, the others :class:`Stopped`, so worker
    processes are ended, temporary files removed and a game's log saved on the way out.
    Only the first counts: the rest are ignored from then on (a closing terminal sends
    several), so they cannot cut the cleanup short, nor, once the block is left, end the
    process before it exits with the first one's code. Signals that were ignored when kow
    started (``nohup``) stay ignored.
    """
    if not _main_thread():
        yield
        return
    previous = {}
    for number in STOP_SIGNALS:
        handler = signal.getsignal(number)
        if handler is not None:  # None: set outside Python, left alone
            previous[number] = handler
    for number, handler in previous.items():
        if handler is not signal.SIG_IGN:
            signal.signal(number, _stop)
    try:
        yield
    finally:
        stopped = any(signal.getsignal(number) is _ignore for number in previous)
        if stopped and hasattr(signal, "pthread_sigmask"):
            # The command is ending with the first signal's code: block the others until
            # the process exits (Python restores the default handlers as it shuts down,
            # and a signal still on its way would then kill kow with its own status).
            signal.pthread_sigmask(signal.SIG_BLOCK, set(previous))
        for number, handler in previous.items():
            signal.signal(number, handler)


class stops_held:  # noqa: N801 (named as the function it is used as, like contextlib.suppress)
    """Let a stop signal that lands in the block (Ctrl-C, SIGTERM, SIGHUP, made
    exceptions by :func:`stop_signals`) end the command at the block's end, not within.

    So what the block writes is written whole: a game's log, a game's rows, never a part
    of one. A write that waits in the block (a pipe whose reader is slow) is not cut
    short: it goes on when the reader reads, and fails at once when it leaves. An
    exception raised in the block goes out as raised. Main thread only; a block within
    another is the outer block's part.

    A class, not a ``@contextmanager``: entered once a game, by ``kow simulate`` among
    others, where the generator's machinery cost about ten times this (issue 35).
    """

    __slots__ = ("_holds",)

    def __enter__(self) -> None:
        global _held
        self._holds = _held is None and _main_thread()  # False: an outer block holds
        if self._holds:
            _held = []

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        global _held
        if not self._holds:
            return
        held, _held = _held, None
        if held and kind is None:
            _raise_stop(held[0])


@contextmanager
def signals_ignored() -> Iterator[None]:
    """Ignore Ctrl-C, SIGTERM and SIGHUP in the block (main thread only), then restore them."""
    if not _main_thread():
        yield
        return
    previous = [(number, signal.signal(number, _ignore)) for number in STOP_SIGNALS]
    try:
        yield
    finally:
        restore_handlers(previous)


# ----------------------------------------------------------------------------- worker processes


@contextmanager
def stops_blocked() -> Iterator[None]:
    """Block Ctrl-C, SIGTERM and SIGHUP in the block (where the platform can): one that
    lands in it arrives as soon as the block ends.

    A process started in the block is born with them blocked, so a stop in that moment
    never runs the parent's handler in the child; the child unblocks them once it has
    set its own (:func:`stops_left_to_parent`).
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def stops_left_to_parent() -> None:
    """Set a worker process's handlers: Ctrl-C and SIGHUP ignored (sent to the whole
    terminal's process group, they are the parent's to handle), SIGTERM ends it; then
    unblock the three (blocked by :func:`stops_blocked` when the worker started)."""
    for number in STOP_SIGNALS:
        signal.signal(number, signal.SIG_DFL if number == signal.SIGTERM else signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


# ----------------------------------------------------------------------------- compiled code


def stop_handlers() -> list[tuple[int, Any]]:
    """Return the handlers of Ctrl-C, SIGTERM and SIGHUP now, as ``(signal, handler)``
    pairs (none outside the main thread; a handler set outside Python is None)."""
    if not _main_thread():
        return []
    return [(number, signal.getsignal(number)) for number in STOP_SIGNALS]


def restore_handlers(handlers: list[tuple[int, Any]]) -> None:
    """Set the handlers :func:`stop_handlers` returned again (those set in Python)."""
    for number, handler in handlers:
        if handler is not None:
            signal.signal(number, handler)


@contextmanager
def stops_deferred(handlers: list[tuple[int, Any]]) -> Iterator[None]:
    """Note the stop signals that land in the block, then set ``handlers`` (from
    :func:`stop_handlers`) again and send the first one that landed to them.

    For a call into compiled code that checks for signals while it waits and loses an
    exception a handler raises there (Ray's core): in the block the handlers only note
    the signal. Signals that ``handlers`` ignore stay ignored.
    """
    landed: list[int] = []
    for number, handler in handlers:
        if handler is not None and handler is not signal.SIG_IGN:
            signal.signal(number, lambda signum, frame: landed.append(signum))
    try:
        yield
    finally:
        restore_handlers(handlers)
        if landed:
            signal.raise_signal(landed[0])


@contextmanager
def stop_ends_after(seconds: float, why: str) -> Iterator[None]:
    """End the process with status 128 + the signal's number if a Ctrl-C, SIGTERM or
    SIGHUP lands in the block and the block has not ended ``seconds`` later.

    For a call that may never return in compiled code that never looks at signals, so
    that no Python handler runs. The signal is seen through :func:`signal.set_wakeup_fd`
    by a thread of this block's own, which then waits, writes ``kow: stopped (NAME);
    WHY`` to stderr, and ends the process with :func:`os._exit` (a temporary output file
    is left, to be cleared by the next kow that writes there). Outside the main thread
    (or the main interpreter) the block does nothing.
    """
    if not _main_thread():
        yield
        return
    read, write = os.pipe()
    os.set_blocking(write, False)
    try:
        previous = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    except ValueError:  # not the main interpreter
        os.close(read)
        os.close(write)
        yield
        return
    ended = threading.Event()

    def watch() -> None:
        while True:
            data = os.read(read, 1)
            if not data or ended.is_set():
                return
            if data[0] in STOP_SIGNALS:
                break
        if ended.wait(seconds):
            return
        sys.stderr.write(f"kow: stopped ({signal.Signals(data[0]).name}); {why}\n")
        sys.stderr.flush()
        os._exit(128 + data[0])

    watcher = threading.Thread(target=watch, name="kow-stop-watch", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        ended.set()
        signal.set_wakeup_fd(previous)
        try:
            os.write(write, b"\0")  # no signal: the watcher sees the block ended
        except OSError:
            pass  # full: the watcher has bytes to read, and then sees it ended
        os.close(write)
        watcher.join()
        os.close(read)
