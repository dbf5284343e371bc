"""A table's log file: what the file held before the table opened, the table's finished
games, and the game in progress, written whole each time it is saved.

A :class:`~kow.online.table.Table` keeps one :class:`LogFile`. Its game's thread saves at
a round's end and at a trick's end at most every :data:`SAVE_EVERY` seconds
(:meth:`LogFile.due`), and at the game's end, the game in progress marked abandoned, so
that a server that dies leaves the game so far readable and ready to reopen
(:mod:`kow.online.reopen`). A log is never replaced: what the file held comes first, as
for ``kow play --log``.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Sequence

from .. import log
from ..events import Event, RoundEnd, TrickWon

__all__ = ["SAVE_EVERY", "LogFile", "write_whole"]

SAVE_EVERY = 1.0
"""The least time, in seconds, between two saves of a table's log at a trick's end (a
round's end and the game's end are always saved): writing the whole game at every trick
was a third of a busy server's work, and a crash then loses at most this much play."""


class LogFile:
    """The log file at ``path`` of one table (None: none kept, the games still counted).

    ``games``: the finished games' lines (JSON text and a newline), in order.
    """

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.games: list[str] = []
        self._held: str | None = None  # what the file held, read at the first save
        self._saved = 0.0

    def continue_from(self, games: Sequence[str]) -> None:
        """Take ``games``, the finished games of the file read back (a reopened table's),
        as the table's own: they stand first, in place of what the file held."""
        self.games = list(games)
        self._held = ""

    def due(self, event: Event) -> bool:
        """Return whether the game's log is to be saved after ``event``: a round's end, or
        a trick's end :data:`SAVE_EVERY` seconds or more after the last save (never
        without a file)."""
        if self.path is None:
            return False
        return isinstance(event, RoundEnd) or (
            isinstance(event, TrickWon) and time.monotonic() - self._saved >= SAVE_EVERY
        )

    def save(self, game: log.GameLog, *, final: bool) -> None:
        """Write the file: what it held before the table opened, the finished games and
        ``game``, whole, through a temporary file renamed over the old one. ``final``:
        ``game`` is kept among the finished ones (even when the write fails). Raises
        :class:`OSError` when the file cannot be written."""
        self._saved = time.monotonic()
        line = log.dumps(game) + "\n"
        if self._held is None:
            self._held = _held(self.path)
        text = self._held + "".join(self.games) + line
        if final:
            self.games.append(line)
        if self.path is None:
            return
        write_whole(self.path, text)


def write_whole(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole: to a temporary file beside it, then renamed over
    it, so that a reader (or a crash) never meets half a file. Raises :class:`OSError`."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix=".kow-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _held(path: str | None) -> str:
    """Return what the file at ``path`` holds (each line ending in a newline), kept first
    in a table's log: empty when there is none or it cannot be read as text."""
    if path is None:
        return ""
    try:
        with open(path, encoding="utf-8", newline="") as stream:
            text = stream.read()
    except (OSError, UnicodeDecodeError):
        return ""
    return text if not text or text.endswith("\n") else text + "\n"
