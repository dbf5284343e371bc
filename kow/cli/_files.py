"""Output files written whole: a command's output goes to a temporary file, renamed into
place at its end (gzip when the name ends in .gz), and temporaries left by processes that
died are cleared.

:func:`atomic_output` is the one way a command writes a file it was given with ``-o``;
:func:`replaced_whole` and :func:`file_state` tell what a stop left.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Final

import click

from ..stopping import Stopped

__all__ = [
    "atomic_output",
    "clear_stale_temporaries",
    "file_state",
    "replaced_whole",
    "STALE_AFTER",
]


_TEMPORARY = re.compile(r"\.kow-(?P<pid>\d+)@(?P<host>.*)-[a-z0-9_]+\.tmp")
"""The name of kow's temporary output file: ``.kow-PID@HOST-RANDOM.tmp``, beside the output."""
STALE_AFTER = 3600.0
"""Seconds unwritten after which a temporary file kow cannot tell is dead is named (one
of another machine, of a process alive under a reused id, or of a kow before 0.6)."""


def _host() -> str:
    """Return this machine's name as it stands in a temporary file's name."""
    import socket

    return re.sub(r"[^A-Za-z0-9._-]", "_", socket.gethostname())[:64]


def _alive(pid: int) -> bool:
    """Return whether a process ``pid`` runs on this machine (True when it can't be told)."""
    if os.name != "posix":  # Windows' os.kill would end the process, not probe it
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, under another user
        return True
    return True


def clear_stale_temporaries(folder: str, now: float | None = None) -> list[str]:
    """Remove the temporary files a kow killed while writing (SIGKILL, power loss) left in
    ``folder``; name on stderr those it cannot tell are dead; return the paths removed.

    Only kow's own names are looked at (:data:`_TEMPORARY`, and ``.kow-*.tmp`` of older
    versions). One is removed when it was made on this machine by a process that is gone,
    so a run writing the same folder at the same time (its process alive), here or on
    another machine sharing the folder, keeps its file. Any other not written for
    :data:`STALE_AFTER` seconds is named, for a person to remove. ``now`` is the time
    (default: the clock's).
    """
    import time

    now = time.time() if now is None else now
    removed: list[str] = []
    host = _host()
    try:
        found = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in found:
        name = entry.name
        if not (name.startswith(".kow-") and name.endswith(".tmp")):
            continue
        mine = _TEMPORARY.fullmatch(name)
        if mine and mine["host"] == host and not _alive(int(mine["pid"])):
            with contextlib.suppress(FileNotFoundError, PermissionError):
                os.unlink(entry.path)
                removed.append(entry.path)
                click.echo(
                    f"kow: removed {entry.path!r}, left by a kow that was stopped while"
                    f" writing (process {mine['pid']})",
                    err=True,
                )
            continue
        with contextlib.suppress(OSError):
            if now - entry.stat(follow_symlinks=False).st_mtime > STALE_AFTER:
                click.echo(
                    f"kow: {entry.path!r} looks left by a kow that was stopped while writing;"
                    " remove it if no kow is writing there",
                    err=True,
                )
    return removed


@contextmanager
def _text_to(raw: IO[bytes], compressed: bool) -> Iterator[IO[str]]:
    """Yield a UTF-8 text stream over ``raw`` (line-buffered on a terminal, as ``open``
    does), gzip-compressed when ``compressed``: no name and a time of 0 in its header,
    and no data let out before the end however often the text is flushed, so that the
    same text gives the same bytes."""
    if not compressed:
        with io.TextIOWrapper(
            raw, encoding="utf-8", newline="\n", line_buffering=raw.isatty()
        ) as stream:
            yield stream
        return
    import gzip  # here, not at the top: kow --help stays fast

    class Packed(gzip.GzipFile):
        def flush(self, zlib_mode: int = 0) -> None:
            """Keep the compressed data until the stream is closed."""

    with (
        raw,
        Packed(filename="", mode="wb", fileobj=raw, mtime=0) as packed,
        io.TextIOWrapper(packed, encoding="utf-8", newline="\n") as text,
    ):
        yield text


def replaced_whole(path: str | None) -> bool:
    """Return whether :func:`atomic_output` writes ``path`` to a temporary file renamed
    over it at the end: a regular file, or none yet. A run stopped part way then leaves
    ``path`` as it was. False for stdout (None or ``-``) and for a device or a pipe,
    which are written as the run goes."""
    if path is None or path == "-":
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:  # none yet (or unreadable: atomic_output says why)
        return True


def file_state(path: str) -> tuple[int, int, int] | None:
    """Return what tells whether the file ``path`` was replaced or written since: its
    inode, size and time of change in ns (through any link); None when there is none.
    The same before and after a run: the run left ``path`` as it was."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_ino, found.st_size, found.st_mtime_ns)


_FILE_BUFFER: Final = 1 << 20
"""The buffer of a file :func:`atomic_output` writes (bytes): a log or a table of many
games is written a MiB a call, where the default 8 KiB cost ``kow export --table all``
about 4 % of its CPU in system time (its 10,000 games write 96 MB). One per output, so
memory stays flat in the number of games."""


@contextmanager
def atomic_output(
    path: str | None, option: str = "--output", *, keep_stopped: Callable[[], bool] | None = None
) -> Iterator[IO[str]]:
    """Yield a text stream for ``path``, or stdout for None or ``-``.

    A regular file (or a link to one) is written to a temporary file in the same folder
    and renamed over it only when the block ends without error, so an existing file is
    never left half-written; it keeps its permissions. ``keep_stopped``: when the block
    is left by a stop (Ctrl-C, :class:`Stopped`) and it returns True, what was written is
    renamed into place all the same (``kow simulate`` keeps its finished games: it writes
    whole games only, with stops held). Temporary files left there by a
    kow that was killed are removed first, or named (:func:`clear_stale_temporaries`).
    Anything else that exists there (a device such as /dev/null, a pipe) is written to
    directly. A path ending in ``.gz`` is written gzip-compressed (as kow's readers tell
    gzip by its first bytes; the same text gives the same bytes). Raises
    :class:`click.BadParameter`, naming ``option``, for an empty path, a folder, or a
    place that can't be written.
    """
    if path is None or path == "-":
        yield sys.stdout
        return
    hint = f"'{option}'"
    if not path.strip():
        raise click.BadParameter("give a file path, not an empty string", param_hint=hint)
    compressed = path.lower().endswith(".gz")
    if path.endswith(("/", os.sep)) and not os.path.isdir(path):
        raise click.BadParameter(
            f"{path!r} ends with {path[-1]!r}, so it names a folder; give a file path",
            param_hint=hint,
        )
    try:
        found: os.stat_result | None = os.stat(path)  # through any link
    except OSError:
        found = None
    if found is not None and stat.S_ISDIR(found.st_mode):
        raise click.BadParameter(f"{path!r} is a folder, not a file", param_hint=hint)
    if found is not None and not stat.S_ISREG(found.st_mode):
        # A device or a pipe (/dev/null, /dev/stdout, a shell's >(...)): opened by the
        # name given, since a pipe's resolved name ("pipe:[...]") cannot be opened.
        try:
            raw = open(path, "wb")  # noqa: SIM115
        except OSError as err:
            raise click.BadParameter(
                f"cannot write {path!r}: {err.strerror or err}", param_hint=hint
            ) from None
        with _text_to(raw, compressed) as stream:
            yield stream
        return

    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise click.BadParameter(f"{path!r} is a folder, not a file", param_hint=hint)
    folder, name = os.path.split(target)
    try:
        longest = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # no such folder, or no pathconf here
        longest = 255
    if len(os.fsencode(name)) > longest:
        raise click.BadParameter(
            f"the file name is {len(os.fsencode(name))} bytes; this folder allows {longest}",
            param_hint=hint,
        )
    try:
        mode = os.stat(target).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    clear_stale_temporaries(folder)
    prefix = f".kow-{os.getpid()}@{_host()}-"
    # Each name is chosen before its file exists, so that a signal landing at any point
    # from the creation on finds the file named in the cleanup below (with mkstemp, one
    # landing between the creation and the return of its name left the file behind).
    tmp = ""
    try:
        for _ in range(100):
            tmp = os.path.join(folder, f"{prefix}{os.urandom(6).hex()}.tmp")
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                break
            except FileExistsError:  # another's: never ours to remove
                tmp = ""
            except OSError as err:
                tmp = ""
                raise click.BadParameter(
                    f"cannot write {path!r}: {err.strerror or err}", param_hint=hint
                ) from None
        else:
            raise click.BadParameter(
                f"cannot write {path!r}: no free temporary name in its folder", param_hint=hint
            )
        try:
            with _text_to(os.fdopen(fd, "wb", buffering=_FILE_BUFFER), compressed) as stream:
                yield stream
        except (KeyboardInterrupt, Stopped):
            if keep_stopped is not None and keep_stopped():
                os.chmod(tmp, mode)
                os.replace(tmp, target)
                tmp = ""
            raise
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:  # an error, Ctrl-C, or a signal (see Stopped): no half file
        if tmp:
            with contextlib.suppress(FileNotFoundError):  # gone if the signal came after
                os.unlink(tmp)
        raise
