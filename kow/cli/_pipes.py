"""Standard streams and pipes: a stream the shell closed, a reader of stdout that left
(``| head``, exit 141), output written a buffer at a time, stdout silenced on the way out.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, NoReturn

__all__ = [
    "BROKEN_PIPE",
    "closed_streams",
    "stdin_closed",
    "quiet_broken_pipe",
    "reader_may_leave",
    "silence_stdout",
    "write_out",
]


def closed_streams() -> bool:
    """Stand in for a standard stream the shell closed (``<&-``, ``>&-``, ``2>&-``).

    Python leaves such a stream None. A closed stdin reads as empty, and a closed stderr
    swallows messages (both become :data:`os.devnull`), so a command that needs neither
    still runs. Returns False when stdout is closed: a command has nowhere to put its
    output, and the caller should stop with exit 1 (saying so on stderr when it is open).
    Call once, before anything reads or writes them.
    """
    global _stdin_closed
    if sys.stdin is None:
        _stdin_closed = True
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (for the whole run)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    return sys.stdout is not None


_stdin_closed = False
"""Whether the shell closed stdin (``<&-``): :func:`closed_streams` found it None."""


def stdin_closed() -> bool:
    """Return whether the shell closed stdin (``<&-``), which then reads as empty: a
    command told to read ``-`` refuses it (:func:`kow.cli._inputs.one_stdin`)."""
    return _stdin_closed


BROKEN_PIPE = 141
"""The exit code of every command whose stdout closed (the reader of a pipe left, as
``| head -n 1`` does): 128 + SIGPIPE, what a shell reports for a tool such as ``cat`` or
``jq`` that SIGPIPE ended. Never 0, so that output cut short is never taken for success
(nor a verdict nobody read for one), and never 1, so that it is not taken for a fault of
an input."""


def quiet_broken_pipe() -> NoReturn:
    """Stop at once, without a word, after the reader of stdout went away (``| head``).

    Exits with :data:`BROKEN_PIPE`. Output still buffered for stdout is dropped (stdout
    points at /dev/null from here), so nothing fails again on the way out.
    """
    silence_stdout()
    sys.exit(BROKEN_PIPE)


@contextmanager
def reader_may_leave(stream: IO[str] | None = None) -> Iterator[None]:
    """Write a command's output in the block; flush ``stream`` (default stdout) at its end.

    The one statement of a command's output plumbing: the flush makes a reader gone
    (``| head``) seen here, and a :class:`BrokenPipeError` raised in the block or by the
    flush stops the command at once with :func:`quiet_broken_pipe` (exit
    :data:`BROKEN_PIPE`). Any other exception leaves the block unflushed, as raised.
    """
    try:
        yield
        (sys.stdout if stream is None else stream).flush()
    except BrokenPipeError:
        quiet_broken_pipe()


_PIECE = 8192
"""The most :func:`write_out` hands stdout at once: no more than its buffer."""


def write_out(text: str, stream: IO[str] | None = None, *, end: str = "\n") -> None:
    """Write ``text`` and ``end`` to ``stream`` (default stdout), then flush it.

    Written a buffer's worth at a time: one big write into a pipe whose reader leaves
    (``| head``) can be cut short by the kernel yet reported whole by Python, so that the
    :class:`BrokenPipeError` would come only at exit. Small writes and the flush raise it
    here, for the caller to turn into :func:`quiet_broken_pipe`.
    """
    out = sys.stdout if stream is None else stream
    text += end
    for start in range(0, len(text), _PIECE):
        out.write(text[start : start + _PIECE])
    out.flush()


def silence_stdout() -> None:
    """Point stdout at /dev/null, so that nothing more fails on the way out."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
