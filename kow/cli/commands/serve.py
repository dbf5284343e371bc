"""``kow serve``: a server for many tables (a club, a research group).

The options: the server is :class:`kow.online.server.Server`, run in a thread of its own;
what the online commands share is :mod:`kow.cli.online`'s.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

import click

from .._options import (
    Count,
)
from ..online import (
    listen_error,
    listen_type,
    note,
    reach,
    reopen_table,
    reopened_bots,
    server_tls,
    tls_options,
)

if TYPE_CHECKING:  # kow.online, asyncio and ssl are imported on use: kow --help stays fast
    from ...online.addresses import Listen
    from ...online.running import ServerThread


@click.command()
@click.option(
    "--listen", default="127.0.0.1:7412", show_default=True, metavar="HOST:PORT",
    callback=listen_type("127.0.0.1"),
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
@tls_options
@click.option(
    "--resume", "resume_paths", multiple=True, metavar="LOG",
    help="Reopen the table whose log is LOG (again for more), its server stopped"
    " mid-game: its game goes on where it stopped, written on to LOG; its players join"
    " again with their names and the new code printed.",
)  # fmt: skip
@click.option(
    "--quiet", "-q", is_flag=True,
    help="Say nothing of tables opened and closed (where it listens is still said).",
)  # fmt: skip
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
    from ...online.addresses import joinable
    from ...online.running import ServerThread
    from ...online.server import Limits, Server

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
    tls = server_tls(certfile, keyfile)
    reopened = [(path, reopen_table(path, search_iterations=None)) for path in resume_paths]
    say = (lambda line: None) if quiet else note
    server = Server(
        limits=Limits(tables=max_tables, per_address=per_address), open_tables=True,
        log_folder=log_dir, say=say,
    )  # fmt: skip
    running = ServerThread(server, listen, tls)
    try:
        addresses = running.start()
    except (OSError, UnicodeError) as err:
        raise listen_error(listen, err) from None
    port = addresses[0][1] if addresses else listen.port
    for line in reach(listen, port, tls is not None):
        note(line)  # even with --quiet: where the server listens (the port, when 0 asked it)
    scheme = "wss://" if tls is not None else ""
    shown = [f"{scheme}{a}" for a in joinable(listen.host, port)] or [f"{scheme}ADDRESS:{port}"]
    note(f"Open a table with: kow host --server {shown[0]}")
    for path, again in reopened:
        code = _serve_reopened(running, path, again)
        people = [
            n for n, k in zip(again.names, again.kinds, strict=True) if k in ("human", "agent")
        ]
        note(f"Table of {path} reopened; its players ({', '.join(people)}) join with:")
        note(f"  kow join {shown[0]} {code}")
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
    from ...online.table import TableSettings

    settings = TableSettings(reopened.rules, bots=reopened_bots(reopened.kinds), log_path=path)

    def work() -> str:
        table = running.server.open_table(settings, keep=False)
        table.resume_from(reopened)
        return str(table.shown)

    result: str = running.call(work)
    return result
