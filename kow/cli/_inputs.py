"""What the commands that read logs share: their inputs' sizes, names and notes.

``kow verify``, ``replay``, ``export`` and ``analyze`` read their inputs with
:func:`kow.log.read_logs`; this module turns what the reader says of an input into a
message on stderr or a Click error, and sizes the inputs for a progress bar.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable

import click

from ._pipes import stdin_closed

__all__ = ["games_shown", "input_bytes", "one_stdin", "open_error", "same_file", "say", "title"]


def input_bytes(files: tuple[str, ...]) -> int | None:
    """Return the size in bytes of the inputs ``files``, for a progress bar: None when one
    is stdin, a pipe or a device (its size is not known before it is read), or can't be
    opened (the command says so its way). A gzip file counts its compressed bytes."""
    total = 0
    for name in files:
        try:
            found = os.stat(name) if name != "-" else None
        except OSError:
            return None
        if found is None or not stat.S_ISREG(found.st_mode):
            return None
        total += found.st_size
    return total


def games_shown(count: int) -> str:
    """Return what a progress bar of the commands that read logs shows after the bar.

    >>> games_shown(1), games_shown(1200)
    ('1 game', '1200 games')
    """
    return f"{count} game{'s' if count != 1 else ''}"


def same_file(output: str, name: str) -> bool:
    """Return whether the path ``output`` names the file ``name`` (through any link)."""
    if os.path.realpath(output) == os.path.realpath(name):
        return True
    try:
        return os.path.samefile(output, name)
    except OSError:  # the output does not exist yet
        return False


def one_stdin(files: tuple[str, ...], hint: str = "'FILE...'") -> None:
    """Refuse ``-`` (stdin) given more than once among ``files`` (it can be read once),
    or at all when the shell closed stdin (``<&-``: nothing to read, not an empty input).

    Raises :class:`click.BadParameter` (exit 2), before anything is read.
    """
    if files.count("-") > 1:
        raise click.BadParameter(
            f"'-' (stdin) is given {files.count('-')} times; it may be given once",
            param_hint=hint,
        )
    if "-" in files and stdin_closed():
        raise click.BadParameter(
            "cannot read '-': stdin is closed (<&-); give a file, or pipe the logs in",
            param_hint=hint,
        )


def open_error(file: str, why: str, hint: str = "'FILE'") -> click.BadParameter:
    """Return the error of an input ``file`` of a command that can't be opened (``why``:
    the system's words): a usage error (exit 2) naming the file (``hint``: the
    argument's name in the message)."""
    return click.BadParameter(f"cannot open {file!r}: {why}", param_hint=hint)


def unreadable(file: str) -> str | None:
    """Return why the input ``file`` can't be opened for reading, in the system's words
    (``No such file or directory``, ``Is a directory``, ``Permission denied``), or None
    when it can: found without opening it, so that a named pipe is left unread."""
    try:
        if stat.S_ISDIR(os.stat(file).st_mode):
            return os.strerror(errno.EISDIR)
    except OSError as err:
        return err.strerror or str(err)
    return None if os.access(file, os.R_OK) else os.strerror(errno.EACCES)


def say(note: str | None, clear: Callable[[], None] | None = None) -> None:
    """Say ``note`` (None: nothing) on stderr, after ``clear()`` (a progress bar's)."""
    if note is not None:
        if clear is not None:
            clear()
        click.echo(note, err=True)


def title(index: int, label: str, seed: int | None) -> str:
    """Return the first line of a replay or an analysis: the game's place and its seed.

    >>> title(2, "g.jsonl", 7), title(1, "os.json", None)
    ('Game 2 of g.jsonl, seed 7', 'Game 1 of os.json, no seed (dealt outside kow)')
    """
    shown = "no seed (dealt outside kow)" if seed is None else f"seed {seed}"
    return f"Game {index} of {label}, {shown}"
