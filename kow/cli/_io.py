"""The command line's plumbing: output files written whole, progress, broken pipes,
terminals that cannot show every character, and when to use colour.

Nothing here knows the game beyond the four suit symbols: :mod:`kow.cli` uses it around
every command.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import re
import shlex
import shutil
import stat
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import IO, Any, NoReturn

import click

from ..stopping import Stopped

__all__ = [
    "BROKEN_PIPE",
    "FALLBACK",
    "Progress",
    "closed_streams",
    "STALE_AFTER",
    "atomic_output",
    "file_state",
    "replaced_whole",
    "clear_stale_temporaries",
    "color_fits",
    "fit_streams",
    "page",
    "progress_fits",
    "quiet_broken_pipe",
    "reader_may_leave",
    "write_out",
    "suits_fit",
    "silence_stdout",
]


FALLBACK = "kow-fallback"
"""The codec error handler that :func:`fit_streams` gives a stream that cannot show ♠.

It writes a suit symbol (``♣ ♦ ♥ ♠`` or the outline ``♧ ♢ ♡ ♤``) as its letter
``c d h s``, and any other character the encoding lacks as a JSON escape: ``\\u5f20``,
and a surrogate pair such as ``\\ud83d\\ude00`` beyond U+FFFF. Within a JSON string
such an escape is the same character, so JSON stays valid and means the same (kow's
JSON is all ASCII anyway); in prose it reads as backslashreplace would.
"""
_LETTERS: dict[str, str] = {}
"""Each suit symbol (solid and outline) to its letter, made by the first :func:`_fallback`:
kow.cards builds its tables as it is imported, which ``kow --help`` need not pay for."""
_ASCII = "kow_ascii"
"""ASCII under another name: Click takes a stream named ``ascii`` for a misconfigured
locale and writes UTF-8 around it, which would bypass :data:`FALLBACK`."""


def _fallback(err: UnicodeError) -> tuple[str, int]:
    """Return what to write for the characters ``err`` could not encode: see :data:`FALLBACK`."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    if not _LETTERS:
        from ..cards import SUIT_SYMBOLS, SUITS

        _LETTERS.update(zip(SUIT_SYMBOLS + "♧♢♡♤", SUITS * 2, strict=True))
    out = []
    for char in err.object[err.start : err.end]:
        code = ord(char)
        if char in _LETTERS:
            out.append(_LETTERS[char])
        elif code > 0xFFFF:
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out), err.end


def _find_ascii(name: str) -> codecs.CodecInfo | None:
    """Return the ASCII codec under the name :data:`_ASCII` (a codec search function)."""
    if name != _ASCII:
        return None
    ascii_codec = codecs.lookup("ascii")
    return codecs.CodecInfo(
        ascii_codec.encode,
        ascii_codec.decode,
        ascii_codec.streamreader,
        ascii_codec.streamwriter,
        ascii_codec.incrementalencoder,
        ascii_codec.incrementaldecoder,
        name=_ASCII,
    )


codecs.register_error(FALLBACK, _fallback)
codecs.register(_find_ascii)


def _shows_suits(encoding: str) -> bool:
    """Return whether ``encoding`` encodes the four suit symbols (True for one Python
    does not know: a stream in it is left alone).

    A UTF encoding encodes every character, so it is answered without importing
    :mod:`kow.cards`, which builds its tables as it loads: every command fits its streams,
    ``kow --help`` included, and most streams are UTF-8.
    """
    try:
        if codecs.lookup(encoding).name in _UTF:
            return True
        from ..cards import encodes_suits

        return encodes_suits(encoding)
    except LookupError:
        return True


_UTF = ("utf-8", "utf-16", "utf-32", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")
"""The normalized names of the UTF codecs (``codecs.lookup(name).name``)."""


def suits_fit(encoding: str | None, *, ascii_only: bool = False) -> bool:
    """Return whether a command shows suits as ♣ ♦ ♥ ♠ on a stream in ``encoding``.

    Never with ``--ascii`` (``ascii_only``); else where :func:`kow.screen.symbols_fit`
    says the terminal can, reading the locale on POSIX. The one answer ``kow play``,
    ``replay`` and ``analyze`` give; where it is False they write ``c d h s``.
    """
    from ..screen import symbols_fit

    return not ascii_only and symbols_fit(encoding, os.environ if os.name == "posix" else None)


def closed_streams() -> bool:
    """Stand in for a standard stream the shell closed (``<&-``, ``>&-``, ``2>&-``).

    Python leaves such a stream None. A closed stdin reads as empty, and a closed stderr
    swallows messages (both become :data:`os.devnull`), so a command that needs neither
    still runs. Returns False when stdout is closed: a command has nowhere to put its
    output, and the caller should stop with exit 1 (saying so on stderr when it is open).
    Call once, before anything reads or writes them.
    """
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (for the whole run)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    return sys.stdout is not None


def fit_streams() -> None:
    """Let stdout and stderr write any text, even where their encoding cannot show ♠.

    Call once, before a command writes anything. A stream whose encoding cannot encode
    the suit symbols (cp1252, latin-1, ascii: what a redirect on Windows or
    ``PYTHONIOENCODING`` gives) keeps its encoding and writes through :data:`FALLBACK`:
    ``Q♠`` as ``Qs``, a name it cannot show escaped, never a ``UnicodeEncodeError``.
    stdin, in any encoding, reads what it cannot decode (as U+FFFD in an encoding that
    cannot show the suits; as Python's C and C.UTF-8 locales read it, a lone surrogate
    per byte, in UTF-8), so a byte of another encoding (a script saved in Latin-1, piped
    to ``kow play`` under a UTF-8 locale) is an entry refused like any other, never a
    ``UnicodeDecodeError``. Streams that can
    show the suits (UTF-8), or that are not text files (None, a test's stand-in), are
    otherwise left alone.
    """
    streams = [(sys.stdout, FALLBACK), (sys.stderr, FALLBACK), (sys.stdin, "replace")]
    for stream, errors in streams:
        encoding = getattr(stream, "encoding", None)
        if not isinstance(stream, io.TextIOWrapper) or not encoding:
            continue
        if _shows_suits(encoding):
            if stream is sys.stdin and stream.errors == "strict":  # as under C.UTF-8
                with contextlib.suppress(OSError, ValueError):
                    stream.reconfigure(errors="surrogateescape")
            continue
        if codecs.lookup(encoding).name == "ascii" and stream is not sys.stdin:
            encoding = _ASCII
        with contextlib.suppress(OSError, ValueError):
            stream.reconfigure(encoding=encoding, errors=errors)


def color_fits(
    stream: IO[str], *, no_color: bool = False, environ: Mapping[str, str] | None = None
) -> bool:
    """Return whether to write colour and bold escapes to ``stream``.

    Only to a terminal (``stream.isatty()``), and never when ``no_color`` (a
    ``--no-color`` option) is set, when ``NO_COLOR`` is set and not empty
    (https://no-color.org), or when ``TERM`` is ``dumb``. ``environ`` is the
    environment (default ``os.environ``).

    >>> import io
    >>> color_fits(io.StringIO(), environ={})
    False
    """
    env = os.environ if environ is None else environ
    if no_color or env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def page(text: str, *, color: bool | None = None) -> None:
    """Show ``text`` through the pager, as :func:`click.echo_via_pager` does (``$PAGER``,
    else ``less`` or ``more``; ``LESS=-R`` unless ``LESS`` is set), colour kept when
    ``color``.

    A ``$PAGER`` that runs and fails (exits with a status above 0: ``PAGER=false``, an
    option the pager refuses) may have shown nothing, so the text is written to stdout
    without it and stderr says which pager failed. A pager left early by its reader exits
    0 and is no failure. Raises nothing of the pager's.
    """
    os.environ.setdefault("LESS", "-R")  # let less show the colours, not their codes
    command = os.environ.get("PAGER", "").strip()
    try:
        argv = shlex.split(command)
    except ValueError:  # unbalanced quotes: click takes the pager its own way
        argv = []
    if not argv or shutil.which(argv[0]) is None:  # click falls back to plain output
        click.echo_via_pager(text, color=color)
        return
    import subprocess

    shown = text if color else click.unstyle(text)
    try:
        pager = subprocess.Popen(argv, stdin=subprocess.PIPE, text=True, errors="replace")
    except OSError as err:
        status = f"it cannot run: {err.strerror or err}"
    else:
        assert pager.stdin is not None
        with contextlib.suppress(BrokenPipeError):  # the pager left without reading it all
            pager.stdin.write(shown)
        with contextlib.suppress(BrokenPipeError):
            pager.stdin.close()
        while True:  # less takes Ctrl-C for its own: wait for it to end
            try:
                code = pager.wait()
                break
            except KeyboardInterrupt:
                pass
        if code <= 0:
            return
        status = f"exit status {code}"
    click.echo(shown, nl=False)
    click.echo(f"Warning: the pager {command!r} failed ({status}); shown without it.", err=True)


def progress_fits(output: str | None) -> bool:
    """Return whether a progress bar may show: stderr is a terminal that the output
    (``output``: a path, or None or ``-`` for stdout) is not also written to."""
    to_screen = output in (None, "-") and sys.stdout.isatty()
    return sys.stderr.isatty() and not to_screen


class Progress:
    """A progress bar on stderr for ``total`` steps, shown once a run has taken a second.

    ``show`` False (no terminal on stderr, or ``--quiet``) shows nothing. Use as a context
    manager and call :meth:`advance` as steps are done; the bar is redrawn at most ten
    times a second, so advancing costs next to nothing. ``show_pos`` False hides the
    count of steps (bytes of input, say), and ``item`` turns the count last given to
    :meth:`advance` into the text shown after the bar (``lambda n: f"{n} games"``).
    """

    def __init__(
        self,
        total: int,
        show: bool,
        label: str,
        *,
        show_pos: bool = True,
        item: Callable[[int], str] | None = None,
    ) -> None:
        import time

        self.total = total
        self.show = show
        self.label = label
        self.show_pos = show_pos  # False: the steps are not the unit shown (bytes read)
        self.item = item  # what is shown after the bar, given the count last passed
        self.shown: int | None = None
        self.clock = time.monotonic
        self.start = self.clock()
        self.next_draw = self.start + 1.0
        self.done = 0
        self.drawn = 0
        self.bar: Any = None

    def __enter__(self) -> Progress:
        return self

    def advance(self, steps: int, shown: int | None = None) -> None:
        """Count ``steps`` more steps done; ``shown`` is the count ``item`` shows."""
        self.done += steps
        if shown is not None:
            self.shown = shown
        if not self.show or self.clock() < self.next_draw:
            return
        self.next_draw = self.clock() + 0.1
        if self.bar is None:
            item = self.item
            self.bar = click.progressbar(
                length=self.total, label=self.label, file=sys.stderr, show_pos=self.show_pos,
                item_show_func=None if item is None else lambda n: None if n is None else item(n),
            ).__enter__()  # fmt: skip
        self.bar.update(self.done - self.drawn, self.shown)
        self.drawn = self.done

    def clear(self) -> None:
        """Erase the bar from its line, if it is shown, so that output written to the same
        terminal starts on a clean line; the bar is drawn again at a later :meth:`advance`."""
        if self.bar is not None:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            if exc[0] is None:
                self.bar.update(self.done - self.drawn, self.shown)
            self.bar.__exit__(*exc)


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
            with _text_to(os.fdopen(fd, "wb"), compressed) as stream:
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
