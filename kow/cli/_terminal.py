"""The terminal: encodings that cannot show ♠, when to use colour, the pager, and
progress bars.

Nothing here knows the game beyond the four suit symbols: :func:`fit_streams` lets
stdout and stderr write any text (a suit as its letter where the encoding lacks it),
:func:`suits_fit` and :func:`color_fits` say what the output can show, :func:`page` pages
long text, and :class:`Progress` is the commands' progress bar on stderr.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import shlex
import shutil
import sys
from collections.abc import Callable, Mapping
from typing import IO, Any

import click

__all__ = [
    "color_fits",
    "FALLBACK",
    "fit_streams",
    "page",
    "Progress",
    "progress_fits",
    "suits_fit",
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
