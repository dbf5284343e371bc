"""What the commands of online play share: ``kow host``, ``kow join`` and ``kow serve``.

Their addresses, TLS contexts, the check of a table's log and of a person's name, the
options of the display and of TLS, the sitting at the table with the terminal client
(:class:`kow.cli.remote.RemoteSitting`), a table log read back, and the seat's secret
kept for the next join. The rules, the seats and the games are :mod:`kow.online`'s.
docs/online.md is the players' page.

``kow host`` and ``kow serve`` open their tables through one function each (``kow
host``'s table, the :class:`Server` of ``serve``), so that a table reopened from its
log (:func:`reopen_table`) can later be opened the same way.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from ._options import (
    Seconds,
    ascii_option,
    no_color_option,
)

if TYPE_CHECKING:  # kow.online, asyncio and ssl are imported on use: kow --help stays fast
    import ssl

    from ..online.addresses import Listen

__all__ = [
    "DOCS",
    "ask_name",
    "check_log",
    "join_refused",
    "check_name",
    "display_options",
    "keep_seat",
    "listen_error",
    "listen_type",
    "note",
    "reach",
    "reopen_table",
    "reopened_bots",
    "server_tls",
    "sit",
    "tls_for_client",
    "tls_options",
]

DOCS = "docs/online.md"
"""The players' page, named in messages."""


# ----------------------------------------------------------------------------- addresses


def listen_type(default_host: str) -> Callable[[click.Context, click.Parameter, str], Listen]:
    def callback(ctx: click.Context, param: click.Parameter, value: str) -> Listen:
        from ..online.addresses import parse_listen

        try:
            return parse_listen(value, default_host=default_host)
        except ValueError as err:
            raise click.BadParameter(str(err), ctx, param) from None

    return callback


# ----------------------------------------------------------------------------- TLS, the log


def server_tls(certfile: str | None, keyfile: str | None) -> ssl.SSLContext | None:
    """Return the server's TLS context from ``--certfile``/``--keyfile`` (None without).

    Raises :class:`click.BadParameter` naming a file that is missing or is no
    certificate or key.
    """
    import ssl

    if certfile is None:
        if keyfile is not None:
            raise click.BadParameter(
                "give --certfile too: the key's certificate", param_hint="'--keyfile'"
            )
        return None
    for option, path in (("--certfile", certfile), ("--keyfile", keyfile)):
        if path is not None and not os.path.isfile(path):
            raise click.BadParameter(f"{path!r} is not a file", param_hint=f"'{option}'")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(certfile, keyfile)
    except (ssl.SSLError, OSError) as err:
        option, said = _tls_files_refused(err, certfile, keyfile)
        raise click.BadParameter(said, param_hint=f"'{option}'") from None
    return context


def _tls_files_refused(err: BaseException, certfile: str, keyfile: str | None) -> tuple[str, str]:
    """Return the option to blame and what is wrong, in plain words, when ``certfile``
    and ``keyfile`` (None: the key is in ``certfile`` too) do not load as a server's
    certificate and private key, ``err`` what OpenSSL raised (its text, with its source
    file and line, is not shown)."""
    import ssl

    if getattr(err, "reason", None) == "KEY_VALUES_MISMATCH":
        where = f"in {keyfile!r}" if keyfile else "there"
        return "--keyfile" if keyfile else "--certfile", (
            f"{certfile!r} holds a certificate, but the private key {where} is not its key"
        )
    try:  # OpenSSL's error names neither file: is the certificate there?
        ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_verify_locations(certfile)
    except (ssl.SSLError, OSError, ValueError):
        return "--certfile", f"{certfile!r} holds no certificate (PEM)"
    if keyfile:
        return "--keyfile", f"{keyfile!r} holds no private key (PEM)"
    return "--certfile", (
        f"{certfile!r} holds a certificate but no private key (PEM): add the key to the file,"
        " or give it with --keyfile"
    )


def tls_for_client(cafile: str | None) -> ssl.SSLContext | None:
    """Return the client's TLS context trusting ``--cafile`` too (None: the system's)."""
    import ssl

    if cafile is None:
        return None
    if not os.path.isfile(cafile):
        raise click.BadParameter(f"{cafile!r} is not a file", param_hint="'--cafile'")
    try:
        return ssl.create_default_context(cafile=cafile)
    except (ssl.SSLError, OSError):  # OpenSSL's text names its own source line, not ours
        raise click.BadParameter(
            f"{cafile!r} holds no certificate (PEM)", param_hint="'--cafile'"
        ) from None


def join_refused(err: Exception, cafile: str | None, whose: str = "host") -> str:
    """Return what a person is told when joining failed with the
    :class:`~kow.online.client.JoinError` ``err``: its message, and for a server whose
    certificate is not trusted, what to pass (``--cafile``; ``cafile``: the one given;
    ``whose``: what the other end is called, ``"host"`` or ``"server"``).

    >>> from kow.online.client import JoinError
    >>> join_refused(JoinError("untrusted", "the server at wss://h:1/ answered, but its"
    ...     " certificate is not trusted (self-signed certificate)"), None)
    "the server at wss://h:1/ answered, but its certificate is not trusted (self-signed \
certificate): pass the host's certificate with --cafile FILE (the PEM file of its \
--certfile)"
    """
    from ..screen import printable

    said = printable(str(err))
    if getattr(err, "code", None) != "untrusted":
        return said
    if cafile is None:
        return (
            f"{said}: pass the {whose}'s certificate with --cafile FILE (the PEM file of its"
            " --certfile)"
        )
    return f"{said}, even with --cafile {cafile!r}"


def check_log(path: str | None) -> None:
    """Refuse a ``--log`` FILE that the table cannot write (usage error, exit 2)."""
    if path is None:
        return
    if path == "-":
        raise click.BadParameter("give a file path; stdout shows the game", param_hint="'--log'")
    if path.endswith(".gz"):
        raise click.BadParameter(
            f"{path!r}: a table writes its log as plain JSON lines; give a name without .gz",
            param_hint="'--log'",
        )
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise click.BadParameter(f"{path!r} is a folder; give a file", param_hint="'--log'")
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK | os.X_OK):
        raise click.BadParameter(
            f"{path!r} cannot be written: its folder {folder!r} is missing or not writable",
            param_hint="'--log'",
        )
    if os.path.exists(path):  # the table's games are added after it: it must be text
        try:
            with open(path, encoding="utf-8") as stream:
                while stream.read(1 << 20):
                    pass
        except (OSError, UnicodeDecodeError) as err:
            why = "not UTF-8 text" if isinstance(err, UnicodeDecodeError) else err.strerror
            raise click.BadParameter(
                f"{path!r} holds something the table's games cannot be added to ({why});"
                " give another file",
                param_hint="'--log'",
            ) from None


def check_name(name: str) -> str:
    """Return ``name`` checked as ``kow play`` checks a person's (usage error, exit 2)."""
    from ._options import people

    return people((name,), 1, 2)[0]


def ask_name(name: str | None, option: str = "--name") -> str:
    """Return ``--name`` checked, or a name typed at a prompt when input is a terminal
    (asked again, with the reason, until it is one a player may have)."""
    if name is not None:
        return check_name(name)
    if not sys.stdin.isatty():
        raise click.UsageError(f"give your name with {option} (input is not a terminal)")
    # check_name's BadParameter is a UsageError: click.prompt says it and asks again.
    typed: str = click.prompt(
        "Your name", err=True, value_proc=lambda text: check_name(text.strip())
    )
    return typed


def listen_error(listen: Listen, err: BaseException) -> click.ClickException:
    """Return the error (exit 1) of a server that cannot listen on ``listen``."""
    import errno
    import socket

    where = f"{listen.host}:{listen.port}"
    if isinstance(err, OSError) and err.errno == errno.EADDRINUSE:
        why = (
            "the port is in use (another kow host or serve?); give another port,"
            " or 0 for any free one"
        )
    elif isinstance(err, socket.gaierror):
        why = f"{listen.host!r} is no address of this machine"
    elif isinstance(err, OSError) and err.errno == errno.EACCES:
        why = "permission denied (ports below 1024 need privileges)"
    elif isinstance(err, OSError) and err.errno == errno.EADDRNOTAVAIL:
        why = f"{listen.host!r} is no address of this machine"
    else:
        why = str(err)
    return click.ClickException(f"cannot listen on --listen {where}: {why}")


def reach(listen: Listen, port: int, tls: bool) -> list[str]:
    """Return the lines that say who can reach a server on ``listen`` (bound to ``port``)."""
    from ..online.addresses import everywhere, loopback

    if everywhere(listen.host):
        who = (
            f"every network interface of this machine, port {port}: anyone who can reach"
            " it can try to join"
        )
    elif loopback(listen.host):
        who = (
            f"{listen.host}:{port}, this machine only (give --listen 0.0.0.0:{port} to let"
            " your network in)"
        )
    else:
        who = f"{listen.host}:{port}: whoever can reach that address"
    lines = [f"Listening on {who}; joining needs the table's code."]
    if tls:
        lines.append("Encrypted (TLS, wss://) with the certificate of --certfile.")
    else:
        lines.append(
            "Unencrypted: fine at home on a network you trust; over the internet use an SSH"
            f" tunnel or TLS (--certfile/--keyfile), see {DOCS}."
        )
    return lines


# ----------------------------------------------------------------------------- options


def display_options(f: Any) -> Any:
    """Add the display options of ``kow play`` a sitting at a remote table takes."""
    options = [
        click.option(
            "--auto-forced", is_flag=True,
            help="Forced moves (a single legal card) play themselves; auto at a prompt toggles it.",
        ),
        ascii_option,
        no_color_option,
        click.option(
            "--delay", type=Seconds(0, 10), default=None, metavar="SECONDS",
            help="Pause after each other seat's play and each trick [default: 0.6, or 0 when"
            " input is not a terminal].",
        ),
    ]  # fmt: skip
    for option in reversed(options):
        f = option(f)
    return f


def tls_options(f: Any) -> Any:
    """Add ``--certfile`` and ``--keyfile`` (a server's TLS)."""
    f = click.option(
        "--keyfile", default=None, metavar="FILE",
        help="The certificate's private key (PEM), if --certfile does not hold it.",
    )(f)  # fmt: skip
    return click.option(
        "--certfile", default=None, metavar="FILE",
        help="Serve TLS (wss://) with this certificate (PEM); see docs/online.md.",
    )(f)  # fmt: skip


def sit(
    connection: Any,
    *,
    note: Callable[[str], None],
    display: dict[str, Any],
    hosting: bool = False,
    log_path: str | None = None,
    hint_iterations: int | None = None,
) -> int:
    """Sit the person at the table of ``connection`` until they leave; return the exit
    code (the reason said on stderr)."""
    from ..screen import wrap
    from ._terminal import color_fits, suits_fit
    from .remote import RemoteSitting
    from .session import Terminal

    interactive = sys.stdin.isatty()
    terminal = Terminal(
        sys.stdin, sys.stdout, interactive=interactive, screen=sys.stdout.isatty(),
        color=color_fits(sys.stdout, no_color=display["no_color"]),
    )  # fmt: skip
    delay = display["delay"]
    sitting = RemoteSitting(
        connection, terminal, note=note,
        delay=(0.6 if interactive else 0.0) if delay is None else delay,
        symbols=suits_fit(sys.stdout.encoding, ascii_only=display["ascii_only"]),
        auto_forced=display["auto_forced"], hint_iterations=hint_iterations,
        hosting=hosting, log_path=log_path,
    )  # fmt: skip
    parting = sitting.run()
    if parting.code > 1:  # Ctrl-C or a signal, maybe at a prompt: the message on a line of its own
        with contextlib.suppress(OSError):
            terminal.write("")
    if parting.code or parting.reason:
        with contextlib.suppress(OSError):
            width = terminal.width if sys.stderr.isatty() else None
            left = "Left the table" if parting.code in (0, 1) else "Stopped"
            then = ""
            if hosting and parting.code not in (0,):
                then = " The table is closed for everyone."
            elif parting.code > 1 and connection.welcome.get("seat") is not None:
                then = " Your seat waits: run the same kow join line to take it back."
            for line in wrap(f"{left} ({parting.reason}).{then}", width):
                click.echo(line, err=True)
    return parting.code


def note(line: str) -> None:
    """Write ``line`` to stderr, broken at spaces to its terminal's width when stderr is a
    terminal (:func:`kow.screen.wrap`: a join command's line is short, and never broken
    inside its address or code); whole when it is a file or a pipe."""
    if not sys.stderr.isatty():
        click.echo(line, err=True)
        return
    from ..screen import MIN_WIDTH, wrap

    try:  # stderr's own terminal: stdout may be a file
        width = max(MIN_WIDTH, os.get_terminal_size(sys.stderr.fileno()).columns)
    except (OSError, ValueError):
        width = 80
    for part in wrap(line, width):
        click.echo(part, err=True)


def reopen_table(path: str, *, search_iterations: int | None) -> Any:
    """Return the table log at ``path`` read back (:func:`kow.online.reopen.reopen`), or
    exit 1 saying why it cannot be reopened."""
    from ..online.reopen import ReopenError, reopen

    try:
        return reopen(path, search_iterations=search_iterations)
    except ReopenError as err:
        raise click.ClickException(str(err)) from None


def reopened_bots(kinds: Any) -> str:
    """Return the ``--bots`` of a table reopened with the bot kinds ``kinds`` of its log."""
    from ..online.reopen import bot_kind

    return bot_kind(kinds)


def keep_seat(url: str, code: str, welcome: dict[str, Any], *, name: str | None) -> None:
    """Keep the seat's secret in the user's seats file, so that the same join line
    retakes it; say so when it cannot be kept."""
    from .seats import SeatBook, seats_file

    if welcome.get("secret") is None:
        return
    book = SeatBook(seats_file())
    try:
        book.put(
            SeatBook.key(url, code),
            {"seat": welcome.get("seat"), "secret": welcome["secret"], "name": name},
        )
    except OSError as err:
        note(
            f"Note: cannot keep this seat in {book.path} ({err.strerror or err}): if this"
            " terminal closes, the seat cannot be taken back."
        )
