"""The ``kow`` group and its commands, one module each; :data:`main` is the console script.

Each command module holds its options and its output, and calls the library for the
work: ``simulate``, ``play``, ``tournament``, ``rules``, ``schema``; the commands that read
logs, ``verify``, ``replay``, ``export``, ``analyze``; and the online ones, ``host``,
``join``, ``serve``. No command module imports another's names. What only one command
needs is imported inside that command, so ``kow --help`` stays fast; and a command's
module is imported only when that command is run or listed (:data:`COMMANDS`), so that
``kow simulate`` does not load what ``kow verify`` or ``kow analyze`` need.
"""

from __future__ import annotations

import errno
import importlib
import sys
from collections.abc import Iterator, MutableMapping
from typing import Any, Final, NamedTuple

import click

from ...stopping import Stopped, stop_code, stop_said, stop_signals
from ...version import __version__
from .._pipes import closed_streams, quiet_broken_pipe, silence_stdout
from .._terminal import fit_streams

__all__ = ["COMMANDS", "Listed", "main"]


class Listed(NamedTuple):
    """A command of ``kow`` as :data:`COMMANDS` lists it: its ``module`` in this package,
    the command's name there (``attribute``: each module keeps its own names), and the
    ``summary`` that ``kow --help`` gives (without importing the module)."""

    module: str
    attribute: str
    summary: str


COMMANDS: Final[dict[str, Listed]] = {
    "play": Listed("play", "play", "play in the terminal, against bots or with friends"),
    "host": Listed("host", "host", "open a table for friends at their own terminals"),
    "join": Listed("join", "join", "take a seat at a table of kow host or kow serve"),
    "serve": Listed("serve", "serve", "a server for many tables (a club, a research group)"),
    "simulate": Listed("simulate", "simulate", "seeded bot games as JSON logs"),
    "tournament": Listed("tournament", "tournament", "measure bots against each other"),
    "verify": Listed("verify", "verify", "check logs against the rules"),
    "replay": Listed("replay", "replay", "tell a logged game trick by trick"),
    "export": Listed("export", "export",
                     "logged games as CSV tables of games, rounds, tricks or plays"),
    "analyze": Listed("analyze", "analyze",
                     "the search bot's values of each decision of logged games"),
    "schema": Listed("schema", "schema",
                     "the JSON Schema of the log format (or of the online protocol)"),
    "rules": Listed("rules", "rules_command", "the rules in force, each with its source"),
}  # fmt: skip
"""Each command of ``kow``, by name, in the order ``kow --help`` lists them
(:class:`Listed`)."""


class _Commands(MutableMapping[str, click.Command]):
    """The ``kow`` group's commands (:data:`COMMANDS`), each module imported when its
    command is first asked for: listing the names (``kow --help``, Click's "did you
    mean") imports nothing, and ``kow simulate`` imports ``simulate`` alone."""

    def __init__(self) -> None:
        self._commands: dict[str, click.Command | None] = dict.fromkeys(COMMANDS)

    def __getitem__(self, name: str) -> click.Command:
        command = self._commands[name]  # KeyError: no such command
        if command is None:
            listed = COMMANDS[name]
            loaded = importlib.import_module(f"{__name__}.{listed.module}")
            command = self._commands[name] = getattr(loaded, listed.attribute)
        return command

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._commands[name] = command

    def __delitem__(self, name: str) -> None:
        del self._commands[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._commands)

    def __len__(self) -> int:
        return len(self._commands)


class _Kow(click.Group):
    """The ``kow`` group: Ctrl-C exits 130, a failed write to stdout is one line, and a
    terminal that cannot show ♠ gets letters and escapes, never a traceback. ``kow
    --help`` lists the commands in :data:`COMMANDS`' order, each with its summary there."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Return the commands' names: :data:`COMMANDS`' order, then any added later."""
        return list(self.commands)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Write the "Commands" section of ``kow --help``: each command with its summary
        in :data:`COMMANDS` (its module not imported), or its own short help."""
        rows = []
        for name in self.list_commands(ctx):
            known = COMMANDS.get(name)
            summary = known.summary if known else self.commands[name].get_short_help_str()
            rows.append((name, summary))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

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


@click.group(
    cls=_Kow, commands=_Commands(), context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(__version__, "-V", "--version", prog_name="kow")
def main() -> None:
    """Knock-Out Whist for the command line.

    The rules, with their sources: kow rules (takes play's rule options, --preset too).
    The log format: kow schema. A command's options: kow COMMAND --help.
    """
