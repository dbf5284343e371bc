"""``kow join``: take a seat at a table that ``kow host`` or ``kow serve`` opened.

The options: the connection is :class:`kow.online.client.Connection`'s, the sitting at
the terminal :class:`kow.cli.remote.RemoteSitting`'s.
"""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING

import click

from ..online import (
    ask_name,
    check_name,
    display_options,
    join_refused,
    keep_seat,
    note,
    sit,
    tls_for_client,
)

if TYPE_CHECKING:  # kow.online, asyncio and ssl are imported on use: kow --help stays fast
    pass


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
@display_options
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
    from ...online.addresses import server_url
    from ...online.client import Connection, JoinError
    from ...online.protocol import ProtocolError, check_code
    from ..seats import SeatBook, seats_file

    try:
        url = server_url(address)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="'ADDRESS'") from None
    try:
        plain = check_code(code)
    except ProtocolError as err:
        raise click.BadParameter(str(err), param_hint="'CODE'") from None
    tls = tls_for_client(cafile)
    if name is not None:
        name = check_name(name)
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
                note("Taking your seat back.")
            except JoinError as err:
                if err.code != "bad-secret":
                    raise
                with contextlib.suppress(OSError):
                    book.forget(key)
                note("The seat kept for you at this table is gone; taking a new one.")
        if connection is None:
            if not watch:
                name = ask_name(name)
            connection = Connection.join(url, plain, name=name, watch=watch, tls=tls)
    except JoinError as err:
        raise click.ClickException(join_refused(err, cafile)) from None
    if not watch:
        keep_seat(url, plain, connection.welcome, name=name or (saved or {}).get("name"))
    display = {"auto_forced": auto_forced, "ascii_only": ascii_only, "no_color": no_color,
               "delay": delay}  # fmt: skip
    sys.exit(sit(connection, note=note, display=display))
