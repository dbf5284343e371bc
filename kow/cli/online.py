"""The commands of online play: ``kow host``, ``kow join`` and ``kow serve``.

They read options, run a :class:`kow.online.server.Server` (in a thread of its own, with
its own event loop) and sit the person at the table with the terminal client
(:class:`kow.cli.remote.RemoteSitting`). The rules, the seats and the games are
:mod:`kow.online`'s. docs/online.md is the players' page.

``kow host`` and ``kow serve`` open their tables through one function each
(:func:`_open_hosted`, the :class:`Server` of ``serve``), so that a table reopened from
its log can later be opened the same way.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from ..rules import Rules
from ._options import (
    LEVELS,
    Count,
    Seconds,
    ascii_option,
    bots_option,
    no_color_option,
    rule_options,
    search_iterations_option,
    seed_option,
)

if TYPE_CHECKING:  # kow.online, asyncio and ssl are imported on use: kow --help stays fast
    import ssl

    from ..online.addresses import Listen
    from ..online.running import ServerThread

__all__ = ["host", "join", "serve"]

DOCS = "docs/online.md"
"""The players' page, named in messages."""


# ----------------------------------------------------------------------------- addresses


def _listen_type(default_host: str) -> Callable[[click.Context, click.Parameter, str], Listen]:
    def callback(ctx: click.Context, param: click.Parameter, value: str) -> Listen:
        from ..online.addresses import parse_listen

        try:
            return parse_listen(value, default_host=default_host)
        except ValueError as err:
            raise click.BadParameter(str(err), ctx, param) from None

    return callback


# ----------------------------------------------------------------------------- TLS, the log


def _tls(certfile: str | None, keyfile: str | None) -> ssl.SSLContext | None:
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
        what = f"{certfile!r}" + (f" and {keyfile!r}" if keyfile else "")
        raise click.BadParameter(
            f"{what} hold no certificate and matching private key (PEM): {err}",
            param_hint="'--certfile'",
        ) from None
    return context


def _client_tls(cafile: str | None) -> ssl.SSLContext | None:
    """Return the client's TLS context trusting ``--cafile`` too (None: the system's)."""
    import ssl

    if cafile is None:
        return None
    if not os.path.isfile(cafile):
        raise click.BadParameter(f"{cafile!r} is not a file", param_hint="'--cafile'")
    try:
        return ssl.create_default_context(cafile=cafile)
    except (ssl.SSLError, OSError) as err:
        raise click.BadParameter(
            f"{cafile!r} holds no certificate (PEM): {err}", param_hint="'--cafile'"
        ) from None


def _check_log(path: str | None) -> None:
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


def _check_name(name: str) -> str:
    """Return ``name`` checked as ``kow play`` checks a person's (usage error, exit 2)."""
    from ._options import people

    return people((name,), 1, 2)[0]


def _ask_name(name: str | None, option: str = "--name") -> str:
    """Return ``--name``, or the name typed at a prompt when input is a terminal."""
    if name is None:
        if not sys.stdin.isatty():
            raise click.UsageError(f"give your name with {option} (input is not a terminal)")
        name = click.prompt("Your name", err=True).strip()
    return _check_name(name)


def _listen_error(listen: Listen, err: BaseException) -> click.ClickException:
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


def _reach(listen: Listen, port: int, tls: bool) -> list[str]:
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


def _display_options(f: Any) -> Any:
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


def _tls_options(f: Any) -> Any:
    """Add ``--certfile`` and ``--keyfile`` (a server's TLS)."""
    f = click.option(
        "--keyfile", default=None, metavar="FILE",
        help="The certificate's private key (PEM), if --certfile does not hold it.",
    )(f)  # fmt: skip
    return click.option(
        "--certfile", default=None, metavar="FILE",
        help="Serve TLS (wss://) with this certificate (PEM); see docs/online.md.",
    )(f)  # fmt: skip


def _sit(
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
    from ._io import color_fits, suits_fit
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


def _note(line: str) -> None:
    click.echo(line, err=True)


# ----------------------------------------------------------------------------- host


@click.command()
@click.option(
    "--name", default=None, metavar="NAME",
    help="Your name at the table (asked when not given and input is a terminal).",
)  # fmt: skip
@bots_option(
    "heuristic", "Bot kind for the seats nobody takes: random, heuristic, search, ismcts.", "KIND"
)
@click.option(
    "--level", type=click.Choice(list(LEVELS)), default=None,
    help="The bots' level: easy = random, medium = heuristic, hard = search. Not with --bots.",
)  # fmt: skip
@seed_option
@rule_options
@search_iterations_option
@click.option(
    "--listen", default="0.0.0.0:7412", show_default=True, metavar="HOST:PORT",
    callback=_listen_type("0.0.0.0"),
    help="Where the table listens: 0.0.0.0 is every interface of this machine (your network),"
    " 127.0.0.1 this machine only; port 0 takes any free port.",
)  # fmt: skip
@click.option(
    "--log", "log_path", default=None, metavar="FILE",
    help="Keep the table's games in FILE (one JSON log a line, as kow play writes them;"
    " replaced whole as each trick ends, the game in progress marked abandoned).",
)  # fmt: skip
@click.option(
    "--hints/--no-hints",
    default=True,
    show_default=True,
    help="Whether the people at the table may ask for the search bot's hint.",
)
@click.option(
    "--away", type=Seconds(0, 3600), default=60, show_default=True, metavar="SECONDS",
    help="How long a player whose connection dropped is waited for before a bot plays"
    " their turns (until they are back).",
)  # fmt: skip
@_tls_options
@click.option(
    "--server", default=None, metavar="ADDRESS",
    help="Open the table on the kow serve server at ADDRESS (HOST:PORT, ws:// or wss://)"
    " instead of hosting it here.",
)  # fmt: skip
@click.option(
    "--cafile", default=None, metavar="FILE",
    help="With --server wss://...: trust this certificate (PEM) too, e.g. a self-signed one.",
)  # fmt: skip
@click.option(
    "--resume", "resume_path", default=None, metavar="LOG",
    help="Reopen the table whose log is LOG, its server stopped mid-game: the same rules,"
    " seats, bots and game, going on where it stopped (type start); its players join again"
    " with their names. The games are written on to LOG (or to --log FILE).",
)  # fmt: skip
@_display_options
def host(
    *,
    name: str | None,
    bots: str,
    level: str | None,
    seed: int | None,
    rules: Rules,
    search_iterations: int | None,
    listen: Listen,
    log_path: str | None,
    hints: bool,
    away: float,
    certfile: str | None,
    keyfile: str | None,
    server: str | None,
    cafile: str | None,
    resume_path: str | None,
    auto_forced: bool,
    ascii_only: bool,
    no_color: bool,
    delay: float | None,
) -> None:
    """Open a table for friends to join over the network, and sit at it (seat 0).

    Prints the line friends paste to join (kow join ADDRESS CODE). At the lobby prompt,
    type start when everyone is in: bots take the open seats. The game is kow play's:
    same rules, screen and commands. After each game, start plays the next one, with the
    running score. docs/online.md says how to play over the internet.
    """
    kind = _bot_kind(bots, level)
    reopened = None
    if resume_path is not None:
        reopened = _reopen(resume_path, search_iterations=search_iterations)
        given = [option for option in _KEPT if _given(option.lstrip("-").replace("-", "_"))]
        if given or server is not None:
            raise click.UsageError(
                f"{(given or ['--server'])[0]} is not given with --resume: the reopened table"
                " keeps its own rules, seats, bots and seed, and lives here"
            )
        if name is not None and name != reopened.names[0]:
            raise click.BadParameter(
                f"{name!r} is not the host's name in {resume_path!r}: the host was"
                f" {reopened.names[0]!r} (leave --name out)",
                param_hint="'--name'",
            )
        name = reopened.names[0]
        rules, log_path = reopened.rules, log_path or resume_path
        kind = _reopened_bots(reopened.kinds)
    if server is not None:
        given = [
            option for option, value in (
                ("--listen", _given("listen")), ("--log", log_path), ("--certfile", certfile),
                ("--keyfile", keyfile), ("--search-deals", search_iterations),
            ) if value
        ]  # fmt: skip
        if given:
            raise click.UsageError(
                f"{given[0]} is the server's, not given with --server: the table lives there"
            )
    elif cafile is not None:
        raise click.BadParameter("only with --server wss://...", param_hint="'--cafile'")
    _check_log(log_path)
    tls = _tls(certfile, keyfile)
    client_tls = _client_tls(cafile)
    name = _ask_name(name)
    display = {"auto_forced": auto_forced, "ascii_only": ascii_only, "no_color": no_color,
               "delay": delay}  # fmt: skip
    if server is not None:
        code = _host_on(server, rules=rules, kind=kind, hints=hints, away=away, seed=seed,
                        name=name, tls=client_tls, display=display)  # fmt: skip
        sys.exit(code)
    from ..online.running import ServerThread
    from ..online.server import Server
    from ..online.table import TableSettings

    running = ServerThread(Server(), listen, tls)
    try:
        addresses = running.start()
    except (OSError, UnicodeError) as err:
        raise _listen_error(listen, err) from None
    try:
        port = addresses[0][1] if addresses else listen.port
        settings = TableSettings(
            rules, bots=kind, hints=hints, away=away, seed=seed,
            search_iterations=search_iterations, log_path=log_path,
        )  # fmt: skip
        table, secret = _open_hosted(running, settings, name=name, reopened=reopened)
        code = _hosting(
            running, table, secret=secret, listen=listen, port=port, tls=tls, display=display,
            log_path=log_path, hint_iterations=search_iterations,
        )  # fmt: skip
    finally:
        running.stop("the host closed the table")
    if log_path:
        _note(f"The table's games are kept in {log_path}.")
    sys.exit(code)


def _given(param: str) -> bool:
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return False
    source = ctx.get_parameter_source(param)
    return source is not None and source is not click.ParameterSource.DEFAULT


def _bot_kind(bots: str, level: str | None) -> str:
    """Return the one bot kind of a table's open seats, from ``--bots`` or ``--level``."""
    from ._options import level_kinds

    if "," in bots:
        raise click.BadParameter(
            f"{bots!r}: give one kind for every open seat (who sits where is known only at start)",
            param_hint="'--bots'",
        )
    return level_kinds(level, bots, 1)[0]


def _open_hosted(
    running: ServerThread, settings: Any, *, name: str, reopened: Any = None
) -> tuple[Any, str]:
    """Open the hosted table with ``settings`` on the running server and reserve seat 0
    for the host, ``name``; return the table and the seat's secret. ``reopened``: the
    table's log read back (:func:`kow.online.reopen.reopen`), its game to go on with."""
    from ..online.protocol import ProtocolError

    def work() -> tuple[Any, str]:
        table = running.server.open_table(settings, keep=True)
        if reopened is None:
            _, secret = table.sit(name, "human", None, host=True)
            return table, secret
        table.resume_from(reopened)
        seat, secret = table.claim(name, None)
        if seat != 0:
            raise ProtocolError("not-allowed", f"seat 0 of the log is not {name!r}'s")
        return table, secret

    try:
        result: tuple[Any, str] = running.call(work)
    except ProtocolError as err:
        raise click.ClickException(f"cannot reopen the table: {err}") from None
    return result


_KEPT = (
    "--seed", "--bots", "--level", "--preset", "--players", "--start-cards", "--dogs-life",
    "--fixed-trump", "--final-round-trump", "--lead", "--eliminated-vote", "--sweep-wins",
)  # fmt: skip
"""The options a reopened table takes from its log, refused with ``--resume``."""


def _reopen(path: str, *, search_iterations: int | None) -> Any:
    """Return the table log at ``path`` read back (:func:`kow.online.reopen.reopen`), or
    exit 1 saying why it cannot be reopened."""
    from ..online.reopen import ReopenError, reopen

    try:
        return reopen(path, search_iterations=search_iterations)
    except ReopenError as err:
        raise click.ClickException(str(err)) from None


def _reopened_bots(kinds: Any) -> str:
    from ..online.reopen import bot_kind

    return bot_kind(kinds)


def _hosting(
    running: ServerThread,
    table: Any,
    *,
    secret: str,
    listen: Listen,
    port: int,
    tls: ssl.SSLContext | None,
    display: dict[str, Any],
    log_path: str | None,
    hint_iterations: int | None,
) -> int:
    """Say where the table is and how to join it, connect the host's own terminal over
    loopback with seat 0's secret, and sit the host there; return the exit code."""
    import ssl

    from ..online.addresses import everywhere, joinable, loopback
    from ..online.client import Connection, JoinError

    scheme = "wss" if tls is not None else "ws"
    for line in _reach(listen, port, tls is not None):
        _note(line)
    found = joinable(listen.host, port)
    prefix = f"{scheme}://" if tls is not None else ""
    _note(
        "Friends join with:"
        if found
        else "Friends join with (this machine's address on your network, as `ip addr` shows it):"
    )
    for address in found or [f"ADDRESS:{port}"]:
        _note(f"  kow join {prefix}{address} {table.shown}")
    if tls is not None:
        _note("  (with --cafile CERT.pem too when the certificate is self-signed)")
    if everywhere(listen.host) or loopback(listen.host):
        local = "[::1]" if listen.host == "::" or listen.host == "::1" else "127.0.0.1"
    else:
        local = f"[{listen.host}]" if ":" in listen.host else listen.host
    client_tls = None
    if tls is not None:  # our own connection, to our own server: no name to check
        client_tls = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        client_tls.check_hostname = False
        client_tls.verify_mode = ssl.CERT_NONE
    try:
        connection = Connection.join(
            f"{scheme}://{local}:{port}", table.code, secret=secret, tls=client_tls
        )
    except JoinError as err:
        raise click.ClickException(
            f"the host's terminal cannot reach its own table: {err}"
        ) from None
    return _sit(connection, note=_note, display=display, hosting=True, log_path=log_path,
                hint_iterations=hint_iterations)  # fmt: skip


def _host_on(
    address: str,
    *,
    rules: Rules,
    kind: str,
    hints: bool,
    away: float,
    seed: int | None,
    name: str,
    tls: ssl.SSLContext | None,
    display: dict[str, Any],
) -> int:
    """Open a table on the ``kow serve`` server at ``address`` and sit at it; return the
    exit code."""
    from ..log import rules_to_log
    from ..online.addresses import server_url
    from ..online.client import Connection, JoinError
    from ..online.protocol import PROTOCOL, check_code

    try:
        url = server_url(address)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="'--server'") from None
    message: dict[str, Any] = {
        "type": "open", "protocol": PROTOCOL, "rules": rules_to_log(rules), "bots": kind,
        "hints": hints, "away": away, "name": name,
    }  # fmt: skip
    if seed is not None:
        message["seed"] = seed
    try:
        connection = Connection.open(url, message, tls=tls)
    except JoinError as err:
        raise click.ClickException(str(err)) from None
    welcome = connection.welcome
    code = check_code(welcome["table"])
    _keep_seat(url, code, welcome, name=name)
    shown = address if "://" in address else address.strip()
    _note(f"Table opened on {url}. Friends join with:")
    _note(f"  kow join {shown} {welcome['table']}")
    return _sit(connection, note=_note, display=display)


def _keep_seat(url: str, code: str, welcome: dict[str, Any], *, name: str | None) -> None:
    """Keep the seat's secret in the user's seats file, so that the same join line
    retakes it; say so when it cannot be kept."""
    from .remote import SeatBook, seats_file

    if welcome.get("secret") is None:
        return
    book = SeatBook(seats_file())
    try:
        book.put(
            SeatBook.key(url, code),
            {"seat": welcome.get("seat"), "secret": welcome["secret"], "name": name},
        )
    except OSError as err:
        _note(
            f"Note: cannot keep this seat in {book.path} ({err.strerror or err}): if this"
            " terminal closes, the seat cannot be taken back."
        )


# ----------------------------------------------------------------------------- join


@click.command()
@click.argument("address", metavar="ADDRESS")
@click.argument("code", metavar="CODE")
@click.option(
    "--name", default=None, metavar="NAME",
    help="Your name at the table (asked when not given and input is a terminal).",
)  # fmt: skip
@click.option("--watch", is_flag=True, help="Watch the table: no seat, only what is public.")
@click.option(
    "--cafile", default=None, metavar="FILE",
    help="For wss://: trust this certificate (PEM) too, e.g. the host's self-signed one.",
)  # fmt: skip
@_display_options
def join(
    *,
    address: str,
    code: str,
    name: str | None,
    watch: bool,
    cafile: str | None,
    auto_forced: bool,
    ascii_only: bool,
    no_color: bool,
    delay: float | None,
) -> None:
    """Take a seat at the table CODE of the kow server at ADDRESS (as the host's join
    line gives them: HOST:PORT, ws://... or wss://...).

    Run the same line again to take your seat back after your connection dropped or the
    terminal closed: your seat's secret is kept for you (in ~/.local/state/kow/seats.json).
    """
    from ..online.addresses import server_url
    from ..online.client import Connection, JoinError
    from ..online.protocol import ProtocolError, check_code
    from .remote import SeatBook, seats_file

    try:
        url = server_url(address)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="'ADDRESS'") from None
    try:
        plain = check_code(code)
    except ProtocolError as err:
        raise click.BadParameter(str(err), param_hint="'CODE'") from None
    tls = _client_tls(cafile)
    if name is not None:
        name = _check_name(name)
    book = SeatBook(seats_file())
    key = SeatBook.key(url, plain)
    saved = None if watch else book.get(key)
    if saved is not None and name is not None and saved.get("name") not in (None, name):
        saved = None  # another name at the same table (a second terminal): a seat of its own
    connection = None
    try:
        if saved is not None:
            try:
                connection = Connection.join(url, plain, secret=saved["secret"], tls=tls)
                _note("Taking your seat back.")
            except JoinError as err:
                if err.code != "bad-secret":
                    raise
                with contextlib.suppress(OSError):
                    book.forget(key)
                _note("The seat kept for you at this table is gone; taking a new one.")
        if connection is None:
            if not watch:
                name = _ask_name(name)
            connection = Connection.join(url, plain, name=name, watch=watch, tls=tls)
    except JoinError as err:
        from ..screen import printable

        raise click.ClickException(printable(str(err))) from None
    if not watch:
        _keep_seat(url, plain, connection.welcome, name=name or (saved or {}).get("name"))
    display = {"auto_forced": auto_forced, "ascii_only": ascii_only, "no_color": no_color,
               "delay": delay}  # fmt: skip
    sys.exit(_sit(connection, note=_note, display=display))


# ----------------------------------------------------------------------------- serve


@click.command()
@click.option(
    "--listen", default="127.0.0.1:7412", show_default=True, metavar="HOST:PORT",
    callback=_listen_type("127.0.0.1"),
    help="Where the server listens. The default lets in this machine only: put it behind a"
    " TLS proxy, or give --certfile, or set 0.0.0.0:PORT to open it to the network.",
)  # fmt: skip
@click.option(
    "--log", "log_dir", default=None, metavar="DIR",
    help="Keep each table's games in a file of its own in DIR (created if missing).",
)  # fmt: skip
@click.option(
    "--max-tables", type=Count(1, 10000, "a number of tables"), default=100, show_default=True,
    help="Tables open at once, at most.",
)  # fmt: skip
@click.option(
    "--per-address", type=Count(1, 10000, "a number of connections"), default=16,
    show_default=True, help="Connections at once from one address, at most.",
)  # fmt: skip
@_tls_options
@click.option(
    "--resume", "resume_paths", multiple=True, metavar="LOG",
    help="Reopen the table whose log is LOG (again for more), its server stopped"
    " mid-game: its game goes on where it stopped, written on to LOG; its players join"
    " again with their names and the new code printed.",
)  # fmt: skip
@click.option("--quiet", "-q", is_flag=True, help="Say nothing of tables opened and closed.")
def serve(
    *,
    listen: Listen,
    log_dir: str | None,
    max_tables: int,
    per_address: int,
    certfile: str | None,
    keyfile: str | None,
    resume_paths: tuple[str, ...],
    quiet: bool,
) -> None:
    """Run a kow server for many tables (a club, a research group), until Ctrl-C or SIGTERM.

    Each table is opened by a client (kow host --server ADDRESS) with its rules, and
    joined by its code (kow join ADDRESS CODE). Stopping closes the tables; their logs
    keep the games, a game in progress marked abandoned.
    """
    from ..online.addresses import joinable
    from ..online.running import ServerThread
    from ..online.server import Limits, Server

    if log_dir is not None:
        if log_dir == "-" or os.path.isfile(log_dir):
            raise click.BadParameter(f"{log_dir!r} is not a folder", param_hint="'--log'")
        try:
            os.makedirs(log_dir, exist_ok=True)
        except OSError as err:
            raise click.BadParameter(
                f"cannot make the folder {log_dir!r}: {err.strerror or err}", param_hint="'--log'"
            ) from None
        if not os.access(log_dir, os.W_OK | os.X_OK):
            raise click.BadParameter(f"{log_dir!r} is not writable", param_hint="'--log'")
    tls = _tls(certfile, keyfile)
    reopened = [(path, _reopen(path, search_iterations=None)) for path in resume_paths]
    say = (lambda line: None) if quiet else _note
    server = Server(
        limits=Limits(tables=max_tables, per_address=per_address), open_tables=True,
        log_folder=log_dir, say=say,
    )  # fmt: skip
    running = ServerThread(server, listen, tls)
    try:
        addresses = running.start()
    except (OSError, UnicodeError) as err:
        raise _listen_error(listen, err) from None
    port = addresses[0][1] if addresses else listen.port
    for line in _reach(listen, port, tls is not None):
        say(line)
    scheme = "wss://" if tls is not None else ""
    shown = [f"{scheme}{a}" for a in joinable(listen.host, port)] or [f"{scheme}ADDRESS:{port}"]
    say(f"Open a table with: kow host --server {shown[0]}")
    for path, again in reopened:
        code = _serve_reopened(running, path, again)
        people = [
            n for n, k in zip(again.names, again.kinds, strict=True) if k in ("human", "agent")
        ]
        _note(f"Table of {path} reopened; its players ({', '.join(people)}) join with:")
        _note(f"  kow join {shown[0]} {code}")
    if log_dir is not None:
        say(f"Each table's games are kept in {log_dir}.")
    try:
        while running.thread.is_alive():
            # Not thread.join(0.5): a signal's exception raised inside join() marks a
            # running thread as stopped (CPython, before 3.13), and stop() then skips it.
            time.sleep(0.25)
        raise click.ClickException(f"the server stopped: {running.error}")
    finally:
        count = len(server.tables)
        running.stop("the server stopped")
        say(f"Stopped; {count} table{'s' if count != 1 else ''} closed.")


def _serve_reopened(running: ServerThread, path: str, reopened: Any) -> str:
    """Open the table of the log at ``path`` again on ``kow serve``'s server, its game set
    to go on (:meth:`~kow.online.table.Table.resume_from`); return its code as shown."""
    from ..online.table import TableSettings

    settings = TableSettings(reopened.rules, bots=_reopened_bots(reopened.kinds), log_path=path)

    def work() -> str:
        table = running.server.open_table(settings, keep=False)
        table.resume_from(reopened)
        return str(table.shown)

    result: str = running.call(work)
    return result
