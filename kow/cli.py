"""The command line: parse options, build rules and players, run the game loop, write output.

It holds no game logic. What only one command needs is imported inside that command, so
``kow --help`` stays fast.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from typing import Any

import click

from . import __version__
from ._io import (
    FALLBACK,
    Progress,
    Stopped,
    atomic_output,
    color_fits,
    fit_streams,
    progress_fits,
    quiet_broken_pipe,
    silence_stdout,
    stop_signals,
    write_out,
)
from ._options import (
    LEVELS,
    MAX_GAMES,
    MAX_JOBS,
    MAX_SEARCH_ITERATIONS,
    dealer_option,
    draw_seed,
    jobs_option,
    level_kinds,
    parse_bots,
    people,
    rule_options,
    search_iterations_option,
    seed_option,
)
from .rules import MAX_PLAYERS, MAX_SEED, Rules


class _Kow(click.Group):
    """The ``kow`` group: Ctrl-C exits 130, a failed write to stdout is one line, and a
    terminal that cannot show ♠ gets letters and escapes, never a traceback."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
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
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            ctx.exit(130)
        except Stopped as err:  # SIGTERM or SIGHUP: cleanups ran; leave without a word
            ctx.exit(err.code)
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
    kow simulate    seeded bot games as JSON logs
    kow tournament  measure bots against each other
    kow verify      check logs against the rules
    kow replay      tell a logged game trick by trick
    kow export      logged games as a CSV table of games, rounds, tricks or plays
    kow analyze     the search bot's values of each decision of logged games
    kow schema      the JSON Schema of the log format
    kow rules       the rules in force, each with its source

    The rules, with their sources: kow rules (takes play's rule options, --preset too).
    The log format: kow schema.
    """


# ----------------------------------------------------------------------------- simulate


@main.command()
@seed_option
@click.option(
    "--games", type=click.IntRange(1, MAX_GAMES), default=1, show_default=True,
    help="Number of games; more than one gives JSON Lines, one game per line (with --pretty,"
    " indented objects one after another: concatenated JSON, not JSON Lines).",
)  # fmt: skip
@click.option(
    "--first-game", type=click.IntRange(0, MAX_GAMES), default=0, show_default=True,
    metavar="K",
    help="Start at game K (from 0) of the run, so shards of one run can go to many machines.",
)  # fmt: skip
@click.option(
    "--bots", default="heuristic", show_default=True, metavar="KIND[,KIND...]",
    help="Bot kind for every seat, or one per seat: random, heuristic, search, ismcts.",
)  # fmt: skip
@dealer_option
@rule_options
@search_iterations_option
@click.option(
    "--output", "-o", default=None, metavar="FILE",
    help="Write the logs to FILE (replaced whole at the end) instead of stdout.",
)  # fmt: skip
@click.option(
    "--pretty", is_flag=True,
    help="Indent the JSON for reading. Several games are then concatenated JSON, not JSON"
    " Lines: verify, replay and jq read it (jq -c . makes it JSON Lines).",
)  # fmt: skip
@jobs_option
@click.option("--quiet", "-q", is_flag=True, help="Show no progress bar.")
def simulate(
    seed: int | None,
    games: int,
    first_game: int,
    bots: str,
    dealer: int | None,
    rules: Rules,
    search_iterations: int | None,
    output: str | None,
    pretty: bool,
    jobs: int | None,
    quiet: bool,
) -> None:
    """Play seeded bot games and print one JSON log per game.

    Each log records its game's own seed, which replays that game alone with the same
    options. The same seed and options always give the same bytes, whatever --jobs is;
    --first-game K with --games M gives games K..K+M-1 of the run, so shards concatenate
    to the whole run. A progress bar shows on stderr when it is a terminal (and the games
    do not go to that same screen).
    """
    from .batch import GameError, Run, WorkerError, auto_jobs, run_text
    from .players import game_seconds

    kinds = parse_bots(bots, rules.players)
    if seed is None:
        if first_game:
            raise click.BadParameter(
                "give --seed too, so that every shard plays the same run",
                param_hint="'--first-game'",
            )
        seed = draw_seed()
    options = () if search_iterations is None else (("search_iterations", search_iterations),)
    run = Run(seed, rules, tuple(kinds), dealer, pretty, options)
    show = not quiet and progress_fits(output)
    with atomic_output(output) as out, Progress(games, show, "Simulating") as progress:
        try:
            cost = game_seconds(kinds, rules.start_cards, search_iterations)
            texts = run_text(run, first_game, games, jobs or auto_jobs(games, cost))
            with contextlib.closing(texts):  # on an error, stop any workers at once
                for text, count in texts:
                    write_out(text, out, end="")  # a reader gone (| head) is seen: 141
                    progress.advance(count)
            out.flush()
        except (GameError, WorkerError) as err:
            raise click.ClickException(str(err)) from None
        except BrokenPipeError:
            quiet_broken_pipe()


# ----------------------------------------------------------------------------- play

BOT_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus")


@main.command()
@click.option(
    "--humans", type=click.IntRange(1, MAX_PLAYERS), default=1, show_default=True,
    help="People at this keyboard (hot seat); they take seats 0, 1, ...",
)  # fmt: skip
@click.option(
    "--name", "names", multiple=True, metavar="NAME",
    help="A human's name, once per human in seat order (default: You, or Player 1, 2...).",
)  # fmt: skip
@click.option(
    "--bots", default="heuristic", show_default=True, metavar="KIND[,KIND...]",
    help="Bot kind for the other seats, or one per bot seat: random, heuristic, search, ismcts.",
)  # fmt: skip
@click.option(
    "--level", type=click.Choice(list(LEVELS)), default=None,
    help="The bots' level, for every bot seat: easy = random (any legal card), medium ="
    " heuristic (the rules text's tips), hard = search (plays out deals it samples). Not"
    " with --bots. [default: medium, as --bots heuristic]",
)  # fmt: skip
@seed_option
@dealer_option
@rule_options
@search_iterations_option
@click.option(
    "--log", "log_path", default=None, metavar="FILE",
    help="Save the log of each game played to FILE (replaced; one JSON line a game, as"
    " simulate writes them), even if you quit.",
)  # fmt: skip
@click.option("--ascii", "ascii_only", is_flag=True, help="Show suits as letters c d h s.")
@click.option("--no-color", is_flag=True, help="No colour (also off when NO_COLOR is set).")
@click.option(
    "--delay", type=click.FloatRange(0, 10), default=None, metavar="SECONDS",
    help="Pause after each bot play [default: 0.6, or 0 when input is not a terminal].",
)  # fmt: skip
def play(
    humans: int,
    names: tuple[str, ...],
    bots: str,
    level: str | None,
    seed: int | None,
    dealer: int | None,
    rules: Rules,
    search_iterations: int | None,
    log_path: str | None,
    ascii_only: bool,
    no_color: bool,
    delay: float | None,
) -> None:
    """Play a game at this keyboard against bots, or with friends (hot seat).

    Type a card as 10h, Th, h10, 10 h, Q♠ or queen of spades, or by its number in your
    hand. Commands at every prompt: help, hand, table, last, hint (the search bot's
    suggestion), knock (on a dog's life), rules, quit. After a game, play again with a
    new seed and the same options, or first type a for the search bot's analysis of your
    decisions (as kow analyze gives it).
    """
    from .game import PlayerError
    from .rulebook import rule_lines
    from .screen import symbols_fit, wrap
    from .session import LogWriteError, Sitting, Terminal

    human_names = people(names, humans, rules.players)
    bot_seats = rules.players - humans
    kinds = level_kinds(level, bots, bot_seats)
    if seed is None:
        seed = draw_seed()
    if log_path == "-":
        raise click.BadParameter("give a file path; stdout shows the game", param_hint="'--log'")
    if delay is not None and delay != delay:  # NaN passes FloatRange
        raise click.BadParameter("nan is not a number of seconds", param_hint="'--delay'")
    interactive = sys.stdin.isatty()
    color = color_fits(sys.stdout, no_color=no_color)
    symbols = not ascii_only and symbols_fit(
        sys.stdout.encoding, os.environ if os.name == "posix" else None
    )
    taken = {n.casefold() for n in human_names}
    free_names = [n for n in BOT_NAMES if n.casefold() not in taken]
    terminal = Terminal(
        sys.stdin, sys.stdout, interactive=interactive, screen=sys.stdout.isatty(), color=color
    )
    sitting = Sitting(
        rules, human_names, kinds, free_names[:bot_seats], terminal,
        dealer=dealer, search_iterations=search_iterations, log_path=log_path,
        delay=(0.6 if interactive else 0.0) if delay is None else delay, symbols=symbols,
        rulebook=lambda: rule_lines(rules, min(terminal.width, 100)),
    )  # fmt: skip
    try:
        ending = sitting.play(seed, draw_seed)
    except PlayerError as err:
        raise click.ClickException(str(err)) from None
    except LogWriteError as err:
        raise click.ClickException(
            f"cannot write the log to {err.path!r}: {err.strerror}"
        ) from None
    if ending.code:
        with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
            terminal.write("")
        saved = f"; the game so far is saved in {log_path}" if log_path else ""
        message = f"Game abandoned ({ending.reason}){saved}. Seed {ending.seed}."
        with contextlib.suppress(OSError):
            width = terminal.width if sys.stderr.isatty() else None  # a log file: one line
            click.echo("\n".join(wrap(message, width)), err=True)
        sys.exit(ending.code)


# ----------------------------------------------------------------------------- verify


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as one JSON object.")
@click.option(
    "--against-seed", is_flag=True,
    help="Also check that each legal game is the one its seed gives: the cuts, hands,"
    " turned-up card and tie cuts, and every decision of its kow bots.",
)  # fmt: skip
@search_iterations_option
def verify(
    files: tuple[str, ...], as_json: bool, against_seed: bool, search_iterations: int | None
) -> None:
    """Check game logs against the rules: every deal, trick and knock-out.

    Each FILE (or - for stdin) may hold one game, JSON Lines, concatenated JSON objects
    (simulate --pretty) or JSON arrays of games, and may be gzip-compressed (.jsonl.gz);
    games count from 1 in each file. Prints one line per faulty game with the
    place of its first fault, then a summary. Exit 0 when every game is legal; 1 when any
    is not, or an input can't be read as JSON (its place is named); 2 when a FILE can't
    be opened, or - is given more than once; 141 when stdout closes first (| head).

    A legal game is one the rules allow; it need not be the game its seed gives (a log
    edited by hand can be legal). With --against-seed, each legal game is also played
    again from its seed, rules and first dealer: its cuts, hands, turned-up card and tie
    cuts must be the seed's, and, when every player is a person or a kow bot, each bot's
    decision must be the one that bot makes (people's decisions are taken from the log).
    The first difference is named; a game counts as legal only when there is none. Logs
    do not record --search-iterations: give the one search bots played with (default
    100). Logs of another kow version may differ for that reason alone.
    """
    import json

    from .log import LogReadError, iter_games
    from .verify import Verdict

    if search_iterations is not None and not against_seed:
        raise click.BadParameter(
            "it is used with --against-seed", param_hint="'--search-iterations'"
        )
    also: Any = None  # the check against each game's seed: it loads the engine and bots
    if against_seed:
        from .provenance import seed_check

        also = seed_check(search_iterations)

    if files.count("-") > 1:  # stdin can be read once: checked before reading anything
        raise click.BadParameter(
            f"'-' (stdin) is given {files.count('-')} times; it may be given once",
            param_hint="'FILE...'",
        )
    verdict = Verdict()
    missing = False
    try:
        for name in files:
            try:
                stream = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115
            except OSError as err:
                verdict.unreadable_input(name, f"cannot open: {err.strerror or err}")
                missing = True
                continue
            label = "stdin" if name == "-" else name
            count = 0
            faults: list[str] = []
            try:
                with stream:
                    for line, game in iter_games(stream):
                        count += 1
                        fault = verdict.check(game, file=label, game=count, line=line, also=also)
                        if fault is not None and not as_json:
                            faults.append(str(fault))
                            if len(faults) >= 100:  # shown as found, a few at a time
                                click.echo("\n".join(faults))
                                faults = []
            except LogReadError as err:  # every fault of reading: an OSError is a write's
                verdict.unreadable_input(label, str(err))
            if faults:
                click.echo("\n".join(faults))
        if as_json:
            write_out(json.dumps(verdict.to_dict(), indent=2))
        else:
            for unreadable in verdict.unreadable:
                click.echo(str(unreadable), err=True)
            click.echo(verdict.summary(len(files)))
        sys.stdout.flush()  # here, so that a reader gone (| head) is seen: 141, not 1
    except BrokenPipeError:  # the reader of stdout went away (| head): stop at once, 141
        quiet_broken_pipe()
    if missing:
        sys.exit(2)  # a FILE argument that can't be opened is a usage error
    if verdict.unreadable or verdict.faults:
        sys.exit(1)


# ----------------------------------------------------------------------------- replay


def table_names(players: list[dict[str, Any]]) -> list[str]:
    """Return the name a replay shows for each of a log's ``players`` (seat order).

    A bot logged under ``kow simulate``'s name for it, ``KIND-SEAT`` (``heuristic-0``),
    takes the first name of :data:`BOT_NAMES` that no other seat holds, as at ``kow play``'s
    table; every other player keeps the name logged. The log itself is not changed.

    >>> table_names([{"seat": 0, "name": "heuristic-0", "kind": "heuristic"},
    ...              {"seat": 1, "name": "Ada", "kind": "human"},
    ...              {"seat": 2, "name": "random-2", "kind": "random"}])
    ['Ben', 'Ada', 'Cleo']
    """
    from .screen import printable

    logged = [p["name"] for p in players]
    renamed = [p["kind"] != "human" and p["name"] == f"{p['kind']}-{p['seat']}" for p in players]
    kept = {name for name, new in zip(logged, renamed, strict=True) if not new}
    free = iter([n for n in BOT_NAMES if n not in kept])
    names = [next(free, name) if new else name for name, new in zip(logged, renamed, strict=True)]
    return [printable(name) for name in names]


@main.command()
@click.argument("file", metavar="FILE")
@click.option(
    "--game", "game_number", type=click.IntRange(min=1), default=1, show_default=True,
    metavar="N", help="Which game of a file of several (counting from 1).",
)  # fmt: skip
@click.option(
    "--round", "round_number", type=click.IntRange(min=1), default=None, metavar="R",
    help="Show only round R.",
)  # fmt: skip
@click.option("--ascii", "ascii_only", is_flag=True, help="Show suits as letters c d h s.")
@click.option(
    "--no-color", is_flag=True, help="No colour (also off when NO_COLOR is set or TERM is dumb)."
)
def replay(
    file: str, game_number: int, round_number: int | None, ascii_only: bool, no_color: bool
) -> None:
    """Tell a logged game trick by trick, as `kow play` shows it, with every hand.

    FILE (or - for stdin) may hold one game or many, in any form verify reads (JSON
    Lines, concatenated, an array; gzip-compressed or not); long output goes through a
    pager when stdout is a terminal. Bots that simulate named by kind and seat
    (heuristic-0) are shown with table names, as play gives them: "Ada (heuristic)".
    """
    import collections

    from .log import LogReadError, ReplayError, iter_games
    from .log import replay as replay_log
    from .rules import Rules
    from .screen import Screen, symbols_fit
    from .verify import verify_game

    try:
        stream = sys.stdin.buffer if file == "-" else open(file, "rb")  # noqa: SIM115
    except OSError as err:
        raise click.BadParameter(
            f"cannot open {file!r}: {err.strerror or err}", param_hint="'FILE'"
        ) from None
    label = "stdin" if file == "-" else file
    game: Any = None
    found = False
    count = 0
    try:
        with stream:
            for _, value in iter_games(stream):
                count += 1
                if count == game_number:
                    game = value
                    found = True
                    break
    except LogReadError as err:
        click.echo(f"Error: {label}: {err}", err=True)
        sys.exit(1)  # as kow verify: the input can't be read as JSON
    if count == 0:  # an empty input, or an empty array: nothing to replay
        raise click.ClickException(f"{label}: holds no game, so there is none to replay")
    if not found:
        raise click.BadParameter(
            f"{label} holds {count} game{'s' if count != 1 else ''}, so there is no game "
            f"{game_number}",
            param_hint="'--game'",
        )
    fault = verify_game(game)
    if fault is not None:
        raise click.ClickException(
            f"{label}: game {game_number} is not a legal game, so it can't be replayed: {fault}"
        )
    rounds = len(game["rounds"])
    if round_number is not None and round_number > rounds:
        raise click.BadParameter(
            f"game {game_number} has {rounds} round{'s' if rounds != 1 else ''}, "
            f"so there is no round {round_number}",
            param_hint="'--round'",
        )
    color = color_fits(sys.stdout, no_color=no_color)
    symbols = not ascii_only and symbols_fit(
        sys.stdout.encoding, os.environ if os.name == "posix" else None
    )
    try:
        # One state, advanced in place by each action: keep it once the replay ends.
        (state,) = collections.deque(replay_log(game), maxlen=1)
    except ReplayError as err:  # verify_game and the engine disagree: a fault of kow's
        raise click.ClickException(
            f"{label}: game {game_number} can't be replayed: {err}"
        ) from None
    names = table_names(game["players"])
    logged = game["players"]
    shown = {**game, "players": [{**p, "name": n} for p, n in zip(logged, names, strict=True)]}
    screen = Screen(names, Rules.from_dict(game["rules"]), symbols=symbols, color=color)
    title = f"Game {game_number} of {label}, seed {game['seed']}"
    lines = screen.narrate(shown, state.events, title, round_number)
    text = "\n".join(lines)
    if sys.stdout.isatty():
        os.environ.setdefault("LESS", "-R")  # let less show the colours, not their codes
        encoding = sys.stdout.encoding  # the pager's: it would write "?" for what it lacks
        text = text.encode(encoding, FALLBACK).decode(encoding)
        click.echo_via_pager(text + "\n", color=color)
    else:
        click.echo(text, color=color)


# ----------------------------------------------------------------------------- export

EXPORT_TABLES = ("games", "rounds", "tricks", "plays")
"""``kow export --table``'s choices: ``kow.tables.TABLES``, named here so that ``kow
--help`` imports no engine."""


def _export_games(files: tuple[str, ...]) -> Any:
    """Yield ``(label, index, line, game)`` for each game of ``files``, read in order.

    ``label`` names the input (``stdin`` for -); ``index`` counts its games from 1;
    ``line`` is where the game starts. Raises :class:`click.ClickException` for input
    that can't be opened or read (the place named); an input with no game (empty, or
    ``[]``) yields nothing, as jq reads it. Only the
    reading is guarded here: an error in writing a row is not raised inside this generator.
    """
    from .log import LogReadError, iter_games

    for name in files:
        label = "stdin" if name == "-" else name
        try:
            stream = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115
        except OSError as err:
            raise click.ClickException(f"{label}: cannot open: {err.strerror or err}") from None
        index = 0
        with stream:
            try:
                for line, game in iter_games(stream):
                    index += 1
                    yield label, index, line, game
            except LogReadError as err:
                raise click.ClickException(f"{label}: {err}") from None
            except OSError as err:
                raise click.ClickException(f"{label}: cannot read: {err.strerror or err}") from None


def _same_file(output: str, name: str) -> bool:
    """Return whether the path ``output`` names the file ``name`` (through any link)."""
    if os.path.realpath(output) == os.path.realpath(name):
        return True
    try:
        return os.path.samefile(output, name)
    except OSError:  # the output does not exist yet
        return False


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option(
    "--table", required=True, type=click.Choice(EXPORT_TABLES),
    help="One row per game, round, trick or play (docs/tables.md gives every column).",
)  # fmt: skip
@click.option(
    "--output", "-o", default=None, metavar="FILE",
    help="Write the table to FILE (replaced whole at the end) instead of stdout.",
)  # fmt: skip
def export(files: tuple[str, ...], table: str, output: str | None) -> None:
    """Write logged games as one CSV table: a row per game, round, trick or play.

    Each FILE (or - for stdin) may hold one game, JSON Lines, or concatenated JSON
    objects, read as kow verify reads them, in flat memory. Every row starts with the
    keys file, game (the game's place in its file, from 1) and seed; seats are 0-based,
    cards as in the log, booleans true or false, a missing value empty. Each game is
    checked against the rules first. Exit 1 at a game that is not legal or input that
    can't be read, naming its place: the rows of the games before it stay on stdout,
    and a file given to -o is left as it was. Exit 2 when a FILE can't be opened.
    """
    import csv

    from .log import ReplayError
    from .tables import COLUMNS, IllegalGameError, cells, rows
    from .verify import GameFault

    if files.count("-") > 1:  # stdin can be read once
        raise click.BadParameter(
            f"'-' (stdin) is given {files.count('-')} times; it may be given once",
            param_hint="'FILE...'",
        )
    for name in files:  # before a row is written; not opened, so a pipe is left unread
        if name != "-" and (os.path.isdir(name) or not os.access(name, os.R_OK)):
            why = "it is a folder" if os.path.isdir(name) else "no such file, or not readable"
            raise click.BadParameter(f"cannot open {name!r}: {why}", param_hint="'FILE...'")
        if output not in (None, "-") and _same_file(output, name):
            raise click.BadParameter(
                f"{output!r} is the input {name!r}: the table would replace the games it"
                " is read from; give another file",
                param_hint="'-o' / '--output'",
            )
    with atomic_output(output) as out:
        writer = csv.writer(out, lineterminator="\n")
        try:
            writer.writerow(COLUMNS[table])
            games = _export_games(files)
            with contextlib.closing(games):  # an input still open is closed on an error
                for label, index, line, game in games:
                    try:
                        found = rows(game, table, file=label, index=index)
                    except IllegalGameError as err:
                        seed = game.get("seed") if isinstance(game, dict) else None
                        if not isinstance(seed, int) or isinstance(seed, bool):
                            seed = None
                        place = GameFault(label, index, line, seed, err.fault)
                        raise click.ClickException(
                            f"{place}; the export stops at a game that is not legal"
                        ) from None
                    except ReplayError as err:  # verify_game and the engine disagree
                        raise click.ClickException(
                            f"{label}: game {index} can't be replayed (a fault of kow's): {err}"
                        ) from None
                    writer.writerows(map(cells, found))
            out.flush()
        except BrokenPipeError:  # the reader of stdout went away (| head): stop quietly
            quiet_broken_pipe()


# ----------------------------------------------------------------------------- analyze

ANALYSIS_ITERATIONS = 200
"""``kow analyze --iterations``'s default: :data:`kow.analysis.DEFAULT_ITERATIONS`, named
here so that ``kow --help`` imports no engine."""
SECONDS_PER_DEAL = 0.00026
"""About what one deal of one decision costs an analysis, in seconds (a 4-player game of
50 decisions at 200 deals each took 2.6 s in pure Python): the cost :func:`~kow.batch.auto_jobs`
weighs against starting processes."""


def _seats_of(text: str, game: dict[str, Any], label: str, index: int) -> frozenset[int]:
    """Return the seat that ``--seat`` names in ``game``: a seat number, or a player's
    name as logged or as ``replay`` and ``analyze`` show it (in any case).

    Raises :class:`click.BadParameter` for a seat the game does not have, or a name that
    matches no player or several.
    """
    players = game["players"]
    shown = table_names(players)
    listed = ", ".join(
        f"{p['seat']} {p['name']!r}" + (f" (shown as {name!r})" if name != p["name"] else "")
        for p, name in zip(players, shown, strict=True)
    )
    where = f"game {index} of {label}"
    if text.strip().lstrip("-").isdigit():
        seat = int(text)
        if not 0 <= seat < len(players):
            raise click.BadParameter(
                f"{where} has seats 0 to {len(players) - 1} (0-based), so there is no seat {seat}",
                param_hint="'--seat'",
            )
        return frozenset({seat})
    wanted = text.strip().casefold()
    found = {
        p["seat"]
        for p, name in zip(players, shown, strict=True)
        if wanted in (str(p["name"]).casefold(), name.casefold())
    }
    if len(found) != 1:
        what = "no player" if not found else f"{len(found)} players"
        raise click.BadParameter(
            f"{where} has {what} named {text!r}: give a seat number or one of {listed}",
            param_hint="'--seat'",
        )
    return frozenset(found)


@main.command()
@click.argument("file", metavar="FILE")
@click.option(
    "--game", "game_number", type=click.IntRange(min=1), default=None, metavar="K",
    help="Analyse only game K of the file (counting from 1) [default: every game].",
)  # fmt: skip
@click.option(
    "--seat", default=None, metavar="SEAT",
    help="Analyse only this player's decisions: a seat (0-based, clockwise) or a name in"
    " the log [default: every seat].",
)  # fmt: skip
@click.option(
    "--iterations", type=click.IntRange(2, MAX_SEARCH_ITERATIONS),
    default=ANALYSIS_ITERATIONS, show_default=True, metavar="N",
    help="Deals sampled per decision, 2 to 100000; more gives tighter intervals.",
)  # fmt: skip
@click.option(
    "--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True, metavar="INT",
    help="Seed of the analysis's deals (0 to 2^53-1): the same seed, the same output.",
)  # fmt: skip
@click.option(
    "--json", "as_json", is_flag=True,
    help="One JSON object per game, one per line (kow schema analysis gives its schema).",
)  # fmt: skip
@click.option(
    "--output", "-o", default=None, metavar="FILE",
    help="Write the analysis to FILE (replaced whole at the end) instead of stdout.",
)  # fmt: skip
@click.option(
    "--jobs", "-j", type=click.IntRange(min=1, max=MAX_JOBS), default=None,
    show_default="one per CPU, fewer for little work",
    help="Processes analysing decisions at once; the output does not depend on it.",
)  # fmt: skip
@click.option("--ascii", "ascii_only", is_flag=True, help="Show suits as letters c d h s.")
@click.option(
    "--no-color", is_flag=True, help="No colour (also off when NO_COLOR is set or TERM is dumb)."
)
@click.option("--quiet", "-q", is_flag=True, help="Show no progress bar.")
def analyze(
    file: str,
    game_number: int | None,
    seat: str | None,
    iterations: int,
    seed: int,
    as_json: bool,
    output: str | None,
    jobs: int | None,
    ascii_only: bool,
    no_color: bool,
    quiet: bool,
) -> None:
    """Annotate each decision of logged games with the search bot's values.

    For each trump choice, card and knock with more than one legal action, the search
    bot, given that seat's view only, plays every legal action out in the same sampled
    deals and estimates its chance of winning the game and of taking a trick this
    round, with 95% intervals. A choice worth clearly less than the best found is a
    blunder (??): its loss in win chance, deal by deal, has a 95% lower bound above 2
    points. Votes and forced actions are not analysed.

    FILE (or - for stdin) holds logs of kow play or kow simulate, in any form verify
    reads; it is read whole and each game checked before any analysis. Text for people,
    or --json for tools. Seeded: the same log, --seed and --iterations give the same
    output whatever --jobs is. A progress bar shows on stderr when it is a terminal.
    Exit 1 for input that can't be read or a game that is not legal (its place named),
    2 for a FILE that can't be opened or a --game or --seat the input does not have.
    """
    import json
    import shutil

    from .analysis import analyse_game, decisions, text_lines, to_dict
    from .batch import auto_jobs
    from .log import LogReadError, ReplayError, iter_games
    from .rules import Rules
    from .screen import Screen, symbols_fit, wrap
    from .verify import GameFault, verify_game

    if output not in (None, "-") and file != "-" and _same_file(output, file):
        raise click.BadParameter(
            f"{output!r} is the input {file!r}: the analysis would replace the games it is"
            " read from; give another file",
            param_hint="'-o' / '--output'",
        )
    try:
        stream = sys.stdin.buffer if file == "-" else open(file, "rb")  # noqa: SIM115
    except OSError as err:
        raise click.BadParameter(
            f"cannot open {file!r}: {err.strerror or err}", param_hint="'FILE'"
        ) from None
    label = "stdin" if file == "-" else file
    games: list[tuple[int, int, dict[str, Any]]] = []
    count = 0
    with stream:  # read whole, so that a fault anywhere is named before the long work
        try:
            for line, game in iter_games(stream):
                count += 1
                if game_number is None or count == game_number:
                    games.append((count, line, game))
                    if game_number is not None:
                        break
        except LogReadError as err:
            raise click.ClickException(f"{label}: {err}") from None
        except OSError as err:
            raise click.ClickException(f"{label}: cannot read: {err.strerror or err}") from None
    if count == 0:
        raise click.ClickException(f"{label}: holds no game, so there is none to analyse")
    if not games:
        raise click.BadParameter(
            f"{label} holds {count} game{'s' if count != 1 else ''}, so there is no game "
            f"{game_number}",
            param_hint="'--game'",
        )
    work: list[tuple[int, dict[str, Any], frozenset[int] | None]] = []
    total = 0
    for index, line, game in games:
        fault = verify_game(game)
        if fault is not None:
            logged = game.get("seed") if isinstance(game, dict) else None
            known = isinstance(logged, int) and not isinstance(logged, bool)
            place = GameFault(label, index, line, logged if known else None, fault)
            raise click.ClickException(f"{place}; a game that is not legal can't be analysed")
        seats = None if seat is None else _seats_of(seat, game, label, index)
        try:
            total += len(decisions(game, seats))
        except ReplayError as err:  # verify_game and the engine disagree: a fault of kow's
            raise click.ClickException(
                f"{label}: game {index} can't be replayed (a fault of kow's): {err}"
            ) from None
        work.append((index, game, seats))
    jobs = jobs or auto_jobs(total, iterations * SECONDS_PER_DEAL)
    to_stdout = output in (None, "-")
    screen_out = to_stdout and sys.stdout.isatty()
    color = to_stdout and color_fits(sys.stdout, no_color=no_color)
    encoding = sys.stdout.encoding if to_stdout else "utf-8"
    symbols = not ascii_only and symbols_fit(encoding, os.environ if os.name == "posix" else None)
    width = max(40, shutil.get_terminal_size((80, 24)).columns) if screen_out else None
    show = not quiet and sys.stderr.isatty()
    with atomic_output(output) as out, Progress(total, show, "Analysing") as progress:
        try:
            for number, (index, game, seats) in enumerate(work):
                result = analyse_game(
                    game, index=index, seed=seed, iterations=iterations, seats=seats,
                    jobs=jobs, on_decision=lambda: progress.advance(1),
                )  # fmt: skip
                if as_json:
                    text = json.dumps(to_dict(result, label), separators=(",", ":"))
                else:
                    names = table_names(game["players"])
                    screen = Screen(
                        names, Rules.from_dict(game["rules"]), symbols=symbols, color=color
                    )
                    title = f"Game {index} of {label}, seed {game['seed']}"
                    lines = [""] if number else []
                    for each in text_lines(result, screen, title):
                        lines += wrap(each, width)
                    text = "\n".join(lines)
                if screen_out:
                    progress.clear()  # the bar's line, on the same screen
                write_out(text, out)
            out.flush()
        except ReplayError as err:  # verify_game and the engine disagree: a fault of kow's
            raise click.ClickException(f"{label}: a game can't be replayed: {err}") from None
        except BrokenPipeError:
            quiet_broken_pipe()


# ----------------------------------------------------------------------------- schema


@main.command()
@click.argument("what", type=click.Choice(("log", "analysis")), default="log", required=False)
def schema(what: str) -> None:
    """Print a JSON Schema (draft 2020-12): of the log format, version 1 (the default), or
    of kow analyze --json's output (kow schema analysis)."""
    import json

    if what == "analysis":
        from .analysis import schema as chosen_schema
    else:
        from .log import schema as chosen_schema

    try:
        write_out(json.dumps(chosen_schema(), indent=2))
        sys.stdout.flush()  # a reader gone (| head) is seen here: 141
    except BrokenPipeError:
        quiet_broken_pipe()


# ----------------------------------------------------------------------------- rules


@main.command("rules")
@rule_options
@click.option(
    "--json", "as_json", is_flag=True,
    help="Print the settings and the rules as one JSON object: {rules, preset, rulebook}.",
)  # fmt: skip
def rules_command(rules: Rules, as_json: bool) -> None:
    """Print the rules in force with the options given, each with its source.

    Takes the rule options of play and simulate, so `kow rules --preset traditional`
    shows the rules that `kow play --preset traditional` plays. Sources: the rules text
    (sources 000/001/003), sources 002 and 004 (the traditional rules), or kow's choice
    where they are silent. Wrapped to the terminal's width (40 to 100 columns).
    """
    import json
    import shutil
    import unicodedata

    from .rulebook import rule_lines, rulebook
    from .rules import preset_of

    if as_json:
        book = [rule._asdict() for rule in rulebook(rules)]
        data = {"rules": rules.to_dict(), "preset": preset_of(rules), "rulebook": book}
        try:
            write_out(json.dumps(data, indent=2))  # ASCII: json escapes the accents
            sys.stdout.flush()  # a reader gone (| head) is seen here: 141
        except BrokenPipeError:
            quiet_broken_pipe()
        return
    width = min(shutil.get_terminal_size((80, 24)).columns, 100)
    text = "\n".join(rule_lines(rules, width))
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):  # e.g. ASCII: drop the accents, é becomes e
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    try:
        click.echo(text)
        sys.stdout.flush()
    except BrokenPipeError:
        quiet_broken_pipe()


# ----------------------------------------------------------------------------- tournament


def _figure(value: float | None, spec: str) -> str:
    """Return ``value`` formatted by ``spec``, or ``n/a`` for None (no game to measure)."""
    return "n/a" if value is None else format(value, spec)


@main.command()
@click.option(
    "--bots", default="search,heuristic,heuristic,heuristic", show_default=True,
    metavar="KIND[,KIND...]",
    help="Bot kind for every seat, or one per seat: random, heuristic, search, ismcts.",
)  # fmt: skip
@click.option(
    "--games", type=click.IntRange(1, MAX_GAMES), default=400, show_default=True,
    help="Games to play; a multiple of --players gives every bot every seat equally.",
)  # fmt: skip
@seed_option
@rule_options
@search_iterations_option
@jobs_option
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
def tournament(
    bots: str,
    games: int,
    seed: int | None,
    rules: Rules,
    search_iterations: int | None,
    jobs: int | None,
    as_json: bool,
) -> None:
    """Measure bots against each other over many seeded games.

    The bots rotate through the seats over the same seeds, so each bot plays each
    seat's cards. Prints, per bot kind: seat-games, wins, win rate with its 95% Wilson
    interval, mean round reached, and mean time per decision. Stopped early (Ctrl-C,
    SIGTERM, SIGHUP), it prints the results of the games finished, marked partial (the
    same as a whole tournament of that many games), and exits 130, 143 or 129.
    """
    import json

    from .batch import WorkerError, auto_jobs
    from .game import PlayerError
    from .players import game_seconds
    from .tournament import Tally, game_results

    kinds = parse_bots(bots, rules.players)
    jobs = jobs or auto_jobs(games, game_seconds(kinds, rules.start_cards, search_iterations))
    counted = f"{games} game{'s' if games != 1 else ''}"
    if games % rules.players and len(set(kinds)) > 1:
        click.echo(
            f"Note: {counted} is not a multiple of {rules.players} players, so the bots "
            "do not sit in every seat equally often.",
            err=True,
        )
    if seed is None:
        seed = draw_seed()
    tally = Tally(rules, kinds, seed, search_iterations, games, keep_games=False)
    stop: KeyboardInterrupt | Stopped | None = None
    with Progress(games, sys.stderr.isatty(), "Playing") as progress:
        try:
            results = game_results(rules, kinds, games, seed, jobs, search_iterations)
            with contextlib.closing(results):  # on a stop or an error, end the workers at once
                for done in results:
                    tally.add(done)
                    progress.advance(len(done))
        except (PlayerError, WorkerError) as err:
            raise click.ClickException(str(err)) from None
        except (KeyboardInterrupt, Stopped) as err:  # stop_signals ignores any more now
            stop = err
    result = tally.tournament()
    try:
        if as_json:
            write_out(json.dumps(result.to_dict(), indent=2))
        else:
            played = f"Partial: {result.played} of {counted} played" if result.partial else counted
            click.echo(f"{played}, seed {seed}, bots {','.join(kinds)}")
            click.echo(
                f"{'kind':<10} {'games':>6} {'wins':>6} {'win rate':>8}  {'95% interval':<15} "
                f"{'round':>5} {'ms/decision':>11}"
            )
            for r in result.results():
                interval = "n/a"
                if r.low is not None and r.high is not None:
                    interval = f"{r.low:>6.1%} - {r.high:<6.1%}"
                click.echo(
                    f"{r.kind:<10} {r.games:>6} {r.wins:>6} {_figure(r.win_rate, '.1%'):>8}  "
                    f"{interval:<15} {_figure(r.mean_round, '.2f'):>5} "
                    f"{_figure(r.mean_decision_ms, '.2f'):>11}"
                )
        sys.stdout.flush()  # a reader gone (| head) is seen here: 141
    except BrokenPipeError:
        quiet_broken_pipe()
    if stop is not None:
        said = "Interrupted" if isinstance(stop, KeyboardInterrupt) else f"Stopped by {stop.name}"
        whole = "partial" if result.partial else "whole"
        click.echo(f"{said} after {result.played} of {counted}: the results are {whole}.", err=True)
        click.get_current_context().exit(130 if isinstance(stop, KeyboardInterrupt) else stop.code)
