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
    Progress,
    Stopped,
    atomic_output,
    progress_fits,
    quiet_broken_pipe,
    signals_ignored,
    silence_stdout,
    stop_signals,
)
from ._options import (
    MAX_GAMES,
    dealer_option,
    draw_seed,
    jobs_option,
    parse_bots,
    people,
    rule_options,
    search_iterations_option,
    seed_option,
)
from .rules import MAX_PLAYERS, Rules


class _Kow(click.Group):
    """The ``kow`` group: Ctrl-C exits 130, and a failed write to stdout is one line."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().main(*args, **kwargs)
        except OSError as err:  # writing --help or --version, before any command runs
            if err.errno == errno.EPIPE:
                quiet_broken_pipe()
            silence_stdout()
            click.echo(f"Error: cannot write the output: {err.strerror or err}", err=True)
            sys.exit(1)

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
    kow schema      the JSON Schema of the log format

    Rules, with their sources: docs/rules.md. Log format: docs/log-format.md.
    """


# ----------------------------------------------------------------------------- simulate


@main.command()
@seed_option
@click.option(
    "--games", type=click.IntRange(1, MAX_GAMES), default=1, show_default=True,
    help="Number of games; more than one gives JSON Lines, one game per line (with --pretty,"
    " indented objects one after another).",
)  # fmt: skip
@click.option(
    "--first-game", type=click.IntRange(0, MAX_GAMES), default=0, show_default=True,
    metavar="K",
    help="Start at game K (from 0) of the run, so shards of one run can go to many machines.",
)  # fmt: skip
@click.option(
    "--bots", default="heuristic", show_default=True, metavar="KIND[,KIND...]",
    help="Bot kind for every seat, or one per seat: random, heuristic, search.",
)  # fmt: skip
@dealer_option
@rule_options
@search_iterations_option
@click.option(
    "--output", "-o", default=None, metavar="FILE",
    help="Write the logs to FILE (replaced whole at the end) instead of stdout.",
)  # fmt: skip
@click.option("--pretty", is_flag=True, help="Indent the JSON for reading.")
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
            texts = run_text(run, first_game, games, jobs or auto_jobs(games))
            with contextlib.closing(texts):  # on an error, stop any workers at once
                for text, count in texts:
                    out.write(text)
                    progress.advance(count)
            out.flush()
        except (GameError, WorkerError) as err:
            raise click.ClickException(str(err)) from None
        except BrokenPipeError:
            quiet_broken_pipe()


# ----------------------------------------------------------------------------- play

BOT_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus")
PIPED_PATIENCE = 20
"""Entries read for one decision from piped input before the game is left (a script
that repeats a refused entry would otherwise loop forever)."""
_QUIT_REASONS = {
    "quit": "you quit",
    "refused": f"{PIPED_PATIENCE} entries in a row were refused",
}


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
    help="Bot kind for the other seats, or one per bot seat: random, heuristic, search.",
)  # fmt: skip
@seed_option
@dealer_option
@rule_options
@search_iterations_option
@click.option(
    "--log", "log_path", default=None, metavar="FILE",
    help="Save this game's log to FILE (as simulate writes it), even if you quit.",
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

    Type a card as 10h, Th, Q♠ or qs, or by its number in your hand. Commands: help,
    hand, table, hint (the search bot's suggestion), knock (on a dog's life), quit.
    """
    import random
    import shutil
    import time

    from . import log
    from .events import Event, Knock, Phase, Play, RoundEnd, TrickWon
    from .game import PlayerError, bots_rng, drive, new_game
    from .players import Player, make_bot
    from .players.human import HotSeat, HumanPlayer, Quit
    from .screen import Screen, symbols_fit

    human_names = people(names, humans, rules.players)
    bot_seats = rules.players - humans
    kinds = parse_bots(bots, bot_seats)
    if seed is None:
        seed = draw_seed()
    if log_path == "-":
        raise click.BadParameter("give a file path; stdout shows the game", param_hint="'--log'")
    if delay is not None and delay != delay:  # NaN passes FloatRange
        raise click.BadParameter("nan is not a number of seconds", param_hint="'--delay'")
    log_file = contextlib.ExitStack()
    out = log_file.enter_context(atomic_output(log_path, "--log")) if log_path is not None else None
    interactive = sys.stdin.isatty()
    if delay is None:
        delay = 0.6 if interactive else 0.0
    color = not no_color and "NO_COLOR" not in os.environ and sys.stdout.isatty()
    symbols = not ascii_only and symbols_fit(
        sys.stdout.encoding, os.environ if os.name == "posix" else None
    )
    free_names = [n for n in BOT_NAMES if n not in human_names]
    all_names = human_names + [free_names[i] for i in range(bot_seats)]
    screen = Screen(all_names, rules, symbols=symbols, color=color)

    def write(text: str) -> None:
        click.echo(text, color=color)

    def read(prompt: str) -> str:
        line = input(prompt)
        if not interactive:
            click.echo(line)  # show piped entries, so the transcript reads as typed
        return line

    def clear() -> None:
        if sys.stdout.isatty():
            click.clear()
        else:
            click.echo("-" * 40)

    hot_seat = HotSeat(clear) if humans > 1 else None
    players: list[Player] = [
        HumanPlayer(
            n, screen, read, write, hot_seat,
            hint_rng=random.Random(f"kow-hint:{seed}:{i}"), hint_iterations=search_iterations,
            patience=None if interactive else PIPED_PATIENCE,
        )
        for i, n in enumerate(human_names)
    ]  # fmt: skip
    rng = bots_rng(seed)
    players += [
        make_bot(kind, all_names[humans + i], rng, search_iterations=search_iterations)
        for i, kind in enumerate(kinds)
    ]

    seats = ", ".join(
        f"{s} {p.name}" + ("" if p.kind == "human" else f" ({p.kind})")
        for s, p in enumerate(players)
    )
    width = min(shutil.get_terminal_size((80, 24)).columns, 100)
    opening = [
        screen.bold(f"Knock-Out Whist, seed {seed}"),
        click.wrap_text(f"Seats, clockwise: {seats}", width, subsequent_indent="  "),
        "Type help at any prompt for how to play; quit to leave.",
    ]
    humans_in = set(range(humans))

    def on_event(event: Event) -> None:
        for line in screen.event(event):
            write(line)
        if isinstance(event, RoundEnd) and humans_in & set(event.eliminated):
            humans_in.difference_update(event.eliminated)
            if not humans_in and state.phase is not Phase.OVER:
                who = "You are" if humans == 1 else "Every person is"
                write(f"{who} out of the game. The bots play on; quit with Ctrl-C.")
        if delay and (
            isinstance(event, TrickWon)
            or (isinstance(event, (Play, Knock)) and players[event.seat].kind != "human")
        ):
            time.sleep(delay)

    state = new_game(rules, seed, dealer)
    code = 0
    reason = ""
    with contextlib.ExitStack() as calm, log_file:  # calm ends after the log is saved
        try:
            for line in opening:
                write(line)
            drive(state, players, on_event)
        except Quit as err:
            code, reason = 1, _QUIT_REASONS.get(str(err), "end of input")
        except BrokenPipeError:  # the screen went away: keep the game so far
            silence_stdout()
            code, reason = 1, "the screen's output closed"
        except KeyboardInterrupt:
            code, reason = 130, "interrupted"
        except Stopped as err:
            code, reason = err.code, f"ended by {err.name}"
        except PlayerError as err:
            raise click.ClickException(str(err)) from None
        # A second signal (a closing terminal sends several) must not cut the save short.
        calm.enter_context(signals_ignored())
        if out is not None:
            game = log.build(seed, rules, players, state.events, abandoned=code != 0)
            out.write(log.dumps(game) + "\n")
    if code:
        with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
            write("")
        saved = f"; the game so far is saved in {log_path}" if log_path else ""
        with contextlib.suppress(OSError):
            click.echo(f"Game abandoned ({reason}){saved}. Seed {seed}.", err=True)
        sys.exit(code)
    write(f"Seed {seed}: play this deal again with --seed {seed}.")
    if log_path:
        write(f"Log saved to {log_path}.")


# ----------------------------------------------------------------------------- verify


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as one JSON object.")
def verify(files: tuple[str, ...], as_json: bool) -> None:
    """Check game logs against the rules: every deal, trick and knock-out.

    Each FILE (or - for stdin) may hold one game, JSON Lines, or concatenated JSON
    objects; games count from 1 in each file. Prints one line per faulty game with the
    place of its first fault, then a summary. Exit 0 when every game is legal; 1 when any
    is not, or an input can't be read as JSON (its place is named); 2 when a FILE can't
    be opened, or - is given more than once.
    """
    import json

    from .log import LogReadError, iter_games
    from .verify import Verdict

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
                        fault = verdict.check(game, file=label, game=count, line=line)
                        if fault is not None and not as_json:
                            faults.append(str(fault))
                            if len(faults) >= 100:  # shown as found, a few at a time
                                click.echo("\n".join(faults))
                                faults = []
            except LogReadError as err:
                verdict.unreadable_input(label, str(err))
            except BrokenPipeError:  # writing the faults found, not reading
                raise
            except OSError as err:
                verdict.unreadable_input(label, f"cannot read: {err.strerror or err}")
            if faults:
                click.echo("\n".join(faults))
            verdict.end_input(label, count)
        if as_json:
            click.echo(json.dumps(verdict.to_dict(), indent=2))
        else:
            for unreadable in verdict.unreadable:
                click.echo(str(unreadable), err=True)
            click.echo(verdict.summary(len(files)))
    except BrokenPipeError:  # the reader of stdout went away: the verdict still decides
        silence_stdout()
    if missing:
        sys.exit(2)  # a FILE argument that can't be opened is a usage error
    if verdict.unreadable or verdict.faults:
        sys.exit(1)


# ----------------------------------------------------------------------------- replay


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
@click.option("--no-color", is_flag=True, help="No colour (also off when NO_COLOR is set).")
def replay(
    file: str, game_number: int, round_number: int | None, ascii_only: bool, no_color: bool
) -> None:
    """Tell a logged game trick by trick, as `kow play` shows it, with every hand.

    FILE (or - for stdin) may hold one game or many; long output goes through a pager
    when stdout is a terminal.
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
    if count == 0:
        raise click.ClickException(f"{label} holds no game")
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
    color = not no_color and "NO_COLOR" not in os.environ and sys.stdout.isatty()
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
    names = [p["name"] for p in game["players"]]
    screen = Screen(names, Rules.from_dict(game["rules"]), symbols=symbols, color=color)
    title = f"Game {game_number} of {label}, seed {game['seed']}"
    lines = screen.narrate(game, state.events, title, round_number)
    text = "\n".join(lines)
    if sys.stdout.isatty():
        os.environ.setdefault("LESS", "-R")  # let less show the colours, not their codes
        click.echo_via_pager(text + "\n", color=color)
    else:
        click.echo(text, color=color)


# ----------------------------------------------------------------------------- schema


@main.command()
def schema() -> None:
    """Print the JSON Schema (draft 2020-12) of the log format, version 1."""
    import json

    from .log import schema as log_schema

    click.echo(json.dumps(log_schema(), indent=2))


# ----------------------------------------------------------------------------- tournament


@main.command()
@click.option(
    "--bots", default="search,heuristic,heuristic,heuristic", show_default=True,
    metavar="KIND[,KIND...]",
    help="Bot kind for every seat, or one per seat: random, heuristic, search.",
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
    interval, mean round reached, and mean time per decision.
    """
    import json

    from .batch import WorkerError, auto_jobs
    from .game import PlayerError
    from .tournament import play_tournament

    kinds = parse_bots(bots, rules.players)
    jobs = jobs or auto_jobs(games)
    if games % rules.players and len(set(kinds)) > 1:
        click.echo(
            f"Note: {games} games is not a multiple of {rules.players} players, so the bots "
            "do not sit in every seat equally often.",
            err=True,
        )
    if seed is None:
        seed = draw_seed()
    try:
        if sys.stderr.isatty():
            with click.progressbar(length=games, label="games", file=sys.stderr) as bar:
                result = play_tournament(
                    rules, kinds, games, seed, jobs, search_iterations, bar.update, False
                )
        else:
            result = play_tournament(
                rules, kinds, games, seed, jobs, search_iterations, None, False
            )
    except (PlayerError, WorkerError) as err:
        raise click.ClickException(str(err)) from None
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
        return
    click.echo(f"{games} games, seed {seed}, bots {','.join(kinds)}")
    click.echo(
        f"{'kind':<10} {'games':>6} {'wins':>6} {'win rate':>8}  {'95% interval':<15} "
        f"{'round':>5} {'ms/decision':>11}"
    )
    for r in result.results():
        click.echo(
            f"{r.kind:<10} {r.games:>6} {r.wins:>6} {r.win_rate:>8.1%}  "
            f"{r.low:>6.1%} - {r.high:<6.1%} {r.mean_round:>5.2f} {r.mean_decision_ms:>11.2f}"
        )
