"""``kow host``: open a table for friends at their own terminals, and sit at it.

The options: the table is :mod:`kow.online`'s, served from a thread of its own
(:class:`kow.online.running.ServerThread`); what the online commands share is
:mod:`kow.cli.online`'s.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from ...rules import Rules
from .._options import (
    LEVELS,
    Seconds,
    bots_option,
    rule_options,
    search_iterations_option,
    seed_option,
)
from ..online import (
    ask_name,
    check_log,
    display_options,
    join_refused,
    keep_seat,
    listen_error,
    listen_type,
    note,
    reach,
    reopen_table,
    reopened_bots,
    server_tls,
    sit,
    tls_for_client,
    tls_options,
)

if TYPE_CHECKING:  # kow.online, asyncio and ssl are imported on use: kow --help stays fast
    import ssl

    from ...online.addresses import Listen
    from ...online.running import ServerThread


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
    callback=listen_type("0.0.0.0"),
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
@tls_options
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
@display_options
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
        reopened = reopen_table(resume_path, search_iterations=search_iterations)
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
        kind = reopened_bots(reopened.kinds)
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
    check_log(log_path)
    tls = server_tls(certfile, keyfile)
    client_tls = tls_for_client(cafile)
    name = ask_name(name)
    display = {"auto_forced": auto_forced, "ascii_only": ascii_only, "no_color": no_color,
               "delay": delay}  # fmt: skip
    if server is not None:
        code = _host_on(server, rules=rules, kind=kind, hints=hints, away=away, seed=seed,
                        name=name, tls=client_tls, cafile=cafile, display=display)  # fmt: skip
        sys.exit(code)
    from ...online.running import ServerThread
    from ...online.server import Server
    from ...online.table import TableSettings

    running = ServerThread(Server(), listen, tls)
    try:
        addresses = running.start()
    except (OSError, UnicodeError) as err:
        raise listen_error(listen, err) from None
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
        note(f"The table's games are kept in {log_path}.")
    sys.exit(code)


def _given(param: str) -> bool:
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return False
    source = ctx.get_parameter_source(param)
    return source is not None and source is not click.ParameterSource.DEFAULT


def _bot_kind(bots: str, level: str | None) -> str:
    """Return the one bot kind of a table's open seats, from ``--bots`` or ``--level``."""
    from .._options import level_kinds

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
    from ...online.protocol import ProtocolError

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

    from ...online.addresses import everywhere, joinable, loopback
    from ...online.client import Connection, JoinError

    scheme = "wss" if tls is not None else "ws"
    for line in reach(listen, port, tls is not None):
        note(line)
    found = joinable(listen.host, port)
    prefix = f"{scheme}://" if tls is not None else ""
    note(
        "Friends join with:"
        if found
        else "Friends join with (this machine's address on your network, as `ip addr` shows it):"
    )
    for address in found or [f"ADDRESS:{port}"]:
        note(f"  kow join {prefix}{address} {table.shown}")
    if tls is not None:
        note("  (with --cafile CERT.pem too when the certificate is self-signed)")
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
    return sit(connection, note=note, display=display, hosting=True, log_path=log_path,
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
    cafile: str | None = None,
    display: dict[str, Any],
) -> int:
    """Open a table on the ``kow serve`` server at ``address`` and sit at it; return the
    exit code. ``tls`` trusts ``cafile`` (``--cafile``) too, which a refusal names."""
    from ...log import rules_to_log
    from ...online.addresses import server_url
    from ...online.client import Connection, JoinError
    from ...online.protocol import PROTOCOL, check_code

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
        raise click.ClickException(join_refused(err, cafile, "server")) from None
    welcome = connection.welcome
    code = check_code(welcome["table"])
    keep_seat(url, code, welcome, name=name)
    shown = address if "://" in address else address.strip()
    note(f"Table opened on {url}. Friends join with:")
    note(f"  kow join {shown} {welcome['table']}")
    return sit(connection, note=note, display=display)
