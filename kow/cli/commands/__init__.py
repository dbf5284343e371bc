"""The ``kow`` group and its commands, one module each; :data:`main` is the console script.

Each command module holds its options and its output, and calls the library for the
work: ``simulate``, ``play``, ``tournament``, ``rules``, ``schema``; the commands that read
logs, ``verify``, ``replay``, ``export``, ``analyze``; and the online ones, ``host``,
``join``, ``serve``. No command module imports another's names. What only one command
needs is imported inside that command, so ``kow --help`` stays fast.
"""

from __future__ import annotations

import errno
import sys
from typing import Any

import click

from ...stopping import Stopped, stop_code, stop_said, stop_signals
from ...version import __version__
from .._pipes import closed_streams, quiet_broken_pipe, silence_stdout
from .._terminal import fit_streams
from . import (
    analyze,
    export,
    host,
    join,
    play,
    replay,
    rules,
    schema,
    serve,
    simulate,
    tournament,
    verify,
)

__all__ = ["main"]


class _Kow(click.Group):
    """The ``kow`` group: Ctrl-C exits 130, a failed write to stdout is one line, and a
    terminal that cannot show ♠ gets letters and escapes, never a traceback."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        if not closed_streams():
            print("Error: stdout is closed, so there is nowhere to write", file=sys.stderr)
            sys.exit(1)
        fit_streams()  # before anything is written: --help and errors included
        try:
            return super().main(*args, **kwargs)
        except OSError as err:  # writing --help or --version, before any command runs
            if err.errno == errno.EPIPE:
                quiet_broken_pipe()
            silence_stdout()
            click.echo(f"Error: cannot write the output: {err.strerror or err}", err=True)
            sys.exit(1)

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except OSError as err:  # writing --help or --version: Click would exit 1 on EPIPE
            if err.errno == errno.EPIPE:
                quiet_broken_pipe()
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            with stop_signals():
                return super().invoke(ctx)
        except KeyboardInterrupt as err:
            click.echo(f"{stop_said(err)}.", err=True)
            ctx.exit(stop_code(err))
        except Stopped as err:  # SIGTERM or SIGHUP: cleanups ran; leave without a word
            ctx.exit(stop_code(err))
        except OSError as err:
            if err.errno == errno.EPIPE:
                quiet_broken_pipe()
            silence_stdout()
            raise click.ClickException(f"cannot write the output: {err.strerror or err}") from None


@click.group(cls=_Kow, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="kow")
def main() -> None:
    """Knock-Out Whist for the command line.

    \b
    kow play        play in the terminal, against bots or with friends
    kow host        open a table for friends at their own terminals; kow join takes a seat
    kow serve       a server for many tables (a club, a research group)
    kow simulate    seeded bot games as JSON logs
    kow tournament  measure bots against each other
    kow verify      check logs against the rules
    kow replay      tell a logged game trick by trick
    kow export      logged games as CSV tables of games, rounds, tricks or plays
    kow analyze     the search bot's values of each decision of logged games
    kow schema      the JSON Schema of the log format (or of the online protocol)
    kow rules       the rules in force, each with its source

    The rules, with their sources: kow rules (takes play's rule options, --preset too).
    The log format: kow schema.
    """


for _command in (
    simulate.simulate,
    play.play,
    tournament.tournament,
    rules.rules_command,
    schema.schema,
    verify.verify,
    replay.replay,
    export.export,
    analyze.analyze,
    host.host,
    join.join,
    serve.serve,
):  # fmt: skip: the commands of each module, its own (the modules keep their names)
    main.add_command(_command)
