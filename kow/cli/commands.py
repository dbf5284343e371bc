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

from .. import __version__
from ..rules import FIRST_GAME, GAMES, MAX_PLAYERS, Rules
from ..stopping import Stopped, stop_code, stop_said, stop_signals, stops_held
from ._io import (
    Progress,
    atomic_output,
    closed_streams,
    color_fits,
    file_state,
    fit_streams,
    page,
    progress_fits,
    quiet_broken_pipe,
    reader_may_leave,
    replaced_whole,
    silence_stdout,
    suits_fit,
    write_out,
)
from ._logs import analyze, export, replay, verify
from ._options import (
    ENTRANTS_HELP,
    LEVELS,
    PATH,
    Count,
    Seconds,
    ascii_option,
    bots_option,
    cluster_executor,
    cluster_option,
    dealer_option,
    draw_seed,
    jobs_option,
    json_option,
    level_kinds,
    no_color_option,
    output_option,
    parse_bots,
    parse_entrants,
    people,
    quiet_option,
    refuse_jobs_with_cluster,
    rule_options,
    search_iterations_option,
    seed_option,
)
from .online import host, join, serve


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


for _command in (verify, replay, export, analyze, host, join, serve):
    main.add_command(_command)


# ----------------------------------------------------------------------------- simulate


@main.command()
@seed_option
@click.option(
    "--games", type=Count.of(GAMES), default=1, show_default=True,
    help="Number of games; more than one gives JSON Lines, one game per line (with --pretty,"
    " indented objects one after another: concatenated JSON, not JSON Lines).",
)  # fmt: skip
@click.option(
    "--first-game", type=Count.of(FIRST_GAME), default=0, show_default=True,
    metavar="K",
    help="Start at game K (from 0) of the run, so shards of one run can go to many machines.",
)  # fmt: skip
@bots_option("heuristic")
@dealer_option
@rule_options
@search_iterations_option
@output_option("the logs")
@click.option(
    "--pretty", is_flag=True,
    help="Indent the JSON for reading. Several games are then concatenated JSON, not JSON"
    " Lines: verify, replay and jq read it (jq -c . makes it JSON Lines).",
)  # fmt: skip
@jobs_option
@cluster_option
@quiet_option
def simulate(
    *,
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
    cluster: str | None,
    quiet: bool,
) -> None:
    """Play seeded bot games and print one JSON log per game.

    Each log records its game's own seed, which replays that game alone with the same
    options. The same seed and options always give the same bytes, whatever --jobs or
    --cluster is;
    --first-game K with --games M gives games K..K+M-1 of the run, so shards concatenate
    to the whole run. A progress bar shows on stderr when it is a terminal (and the games
    do not go to that same screen). Stopped (Ctrl-C, SIGTERM, SIGHUP), it ends between
    two games, keeps every game finished (a file given to -o holds them whole; it is left
    as it was when none was), says on stderr how many, and the --first-game and --games
    that play the rest, and exits 130, 143 or 129.
    """
    from ..players import game_seconds
    from ..runs.batch import BlockError, GameError, Run, WorkerError, auto_jobs, run_text

    refuse_jobs_with_cluster(jobs, cluster)
    kinds = parse_bots(bots, rules.players)
    drawn = seed is None  # then the note of a stop gives it
    if seed is None:
        if first_game:
            raise click.BadParameter(
                "give --seed too, so that every shard plays the same run",
                param_hint="'--first-game'",
            )
        seed = draw_seed()
    options = () if search_iterations is None else (("search_iterations", search_iterations),)
    run = Run(seed, rules, tuple(kinds), dealer=dealer, pretty=pretty, bot_options=options)
    show = not quiet and progress_fits(output)
    kept = not replaced_whole(output)  # stdout, a device or a pipe keeps what it got
    before = None if kept or output is None else file_state(output)
    written = 0  # games whose logs are written whole
    try:
        with (
            atomic_output(output, keep_stopped=lambda: written > 0) as out,
            cluster_executor(cluster, jobs) as executor,
            Progress(games, show, "Simulating") as progress,
            reader_may_leave(out),
        ):
            try:
                cost = game_seconds(kinds, rules.start_cards, search_iterations)
                if executor is None:
                    jobs = jobs or auto_jobs(games, cost)
                texts = run_text(
                    run, first_game, games, jobs=jobs or 1, executor=executor,
                    seconds_per_game=cost,
                )  # fmt: skip
                with contextlib.closing(texts):  # on an error, stop any workers at once
                    for text, count in texts:
                        with stops_held():  # a stop ends the run between games, not in one
                            write_out(text, out, end="")  # a reader gone (| head): 141
                            written += count
                        progress.advance(count)
            except (GameError, WorkerError, BlockError) as err:
                raise click.ClickException(str(err)) from None
    except (KeyboardInterrupt, Stopped) as stop:  # stop_signals ignores any more now
        where = "stdout" if output in (None, "-") else repr(output)
        if not kept and output is not None and file_state(output) != before:
            kept = True  # the finished games were renamed into place (keep_stopped)
        note = _stopped_run(
            stop_said(stop), written, games=games, first_game=first_game, where=where,
            kept=kept, drawn_seed=seed if drawn else None,
        )  # fmt: skip
        with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
            click.echo(note, err=True)
        click.get_current_context().exit(stop_code(stop))


def _stopped_run(
    said: str,
    written: int,
    *,
    games: int,
    first_game: int,
    where: str,
    kept: bool,
    drawn_seed: int | None = None,
) -> str:
    """Return what a stopped ``kow simulate`` says on stderr: how many of its ``games``
    (from ``first_game``) were ``written`` to ``where`` (stdout, or a file named), whether
    they were ``kept`` (False: a file left as it was), and the ``--first-game`` and
    ``--games`` that play the rest, so that the shards concatenate to the whole run; with
    the ``--seed`` too when the run's seed was drawn (``drawn_seed``), which the command
    did not give.

    >>> _stopped_run("Interrupted", 40, games=100, first_game=0, where="stdout", kept=True)
    'Interrupted after 40 of 100 games: games 0 to 39 of the run are written whole to stdout. \
To play the rest, run the same command with --first-game 40 --games 60: its output, after \
this one, makes the whole run.'
    >>> _stopped_run("Stopped by SIGTERM", 40, games=100, first_game=0, where="'g.jsonl'",
    ...              kept=False)
    "Stopped by SIGTERM after 40 of 100 games: 'g.jsonl' was left as it was (not written). \
To play them, run the same command again (--first-game 0 --games 100)."
    """
    counted = f"{written} of {games} game{'s' if games != 1 else ''}"
    if written == games and kept:
        every = f"all {games} games" if games != 1 else "its one game"
        return f"{said} after {every}: they are written whole to {where}."
    seed = "" if drawn_seed is None else f"--seed {drawn_seed} "
    if not kept:
        return (
            f"{said} after {counted}: {where} was left as it was (not written). To play"
            f" them, run the same command again ({seed}--first-game {first_game} --games"
            f" {games})."
        )
    last = first_game + written - 1
    done = (
        "no game was written"
        if not written
        else f"game {last} of the run is written whole to {where}"
        if written == 1
        else f"games {first_game} to {last} of the run are written whole to {where}"
    )
    return (
        f"{said} after {counted}: {done}. To play the rest, run the same command with"
        f" {seed}--first-game {first_game + written} --games {games - written}: its output,"
        " after this one, makes the whole run."
    )


# ----------------------------------------------------------------------------- play


@main.command()
@click.option(
    "--humans", type=Count(1, MAX_PLAYERS, "a number of people"), default=1, show_default=True,
    help="People at this keyboard (hot seat); they take seats 0, 1, ...",
)  # fmt: skip
@click.option(
    "--name", "names", multiple=True, metavar="NAME",
    help="A human's name, once per human in seat order (default: You, or Player 1, 2...).",
)  # fmt: skip
@bots_option(
    "heuristic",
    "Bot kind for the other seats, or one per bot seat: random, heuristic, search, ismcts.",
)
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
    "--log", "log_path", default=None, metavar="FILE", type=PATH,
    help="Save the log of each game played to FILE, after the games it held (one JSON"
    " line a game, as simulate writes them; gzip if FILE ends in .gz), even if you quit.",
)  # fmt: skip
@click.option(
    "--resume", default=None, metavar="FILE", type=PATH,
    help="Continue the abandoned game that --log kept at the end of FILE, with its seats,"
    " bots, rules and seed; it is written back to FILE, after the games before it (or to"
    " --log FILE).",
)  # fmt: skip
@click.option(
    "--auto-forced",
    is_flag=True,
    help="Forced moves (a single legal card) play themselves; auto at a prompt toggles it.",
)
@ascii_option
@no_color_option
@click.option(
    "--delay", type=Seconds(0, 10), default=None, metavar="SECONDS",
    help="Pause after each bot play [default: 0.6, or 0 when input is not a terminal].",
)  # fmt: skip
def play(
    *,
    humans: int,
    names: tuple[str, ...],
    bots: str,
    level: str | None,
    seed: int | None,
    dealer: int | None,
    rules: Rules,
    search_iterations: int | None,
    log_path: str | None,
    resume: str | None,
    auto_forced: bool,
    ascii_only: bool,
    no_color: bool,
    delay: float | None,
) -> None:
    """Play a game at this keyboard against bots, or with friends (hot seat).

    Type a card as 10h, Th, h10, 10 h, Q♠ or queen of spades, or by its number in your
    hand. Commands at every prompt: help, hand, table, last, played (this round's cards
    and known voids), hint (the search bot's suggestion), auto (forced moves play
    themselves), knock (on a dog's life), rules, quit. After a game, the running score
    of the sitting; play again with a new seed and the same options, or first type a for
    the search bot's analysis of your decisions (as kow analyze gives it). --resume FILE
    continues a game left before its end (docs/play.md).
    """
    from ..events import BOT_NAMES
    from ..game import PlayerError
    from ..rulebook import rule_lines
    from ..screen import wrap
    from .session import LogWriteError, Sitting, Terminal

    if log_path == "-":
        raise click.BadParameter("give a file path; stdout shows the game", param_hint="'--log'")
    resumed = None
    kept = ""  # a log is never replaced: what its file held is kept before the new games
    if resume is not None:
        from ._resume import resume_game

        resumed = resume_game(resume, search_iterations=search_iterations, log_path=log_path)
        rules, seed = resumed.rules, resumed.seed
        search_iterations = resumed.search_iterations  # the log's own, when it records them
        if log_path is None or _same_path(log_path, resume):
            kept = resumed.kept  # the sitting's games before the abandoned one
        log_path = resumed.log_path
        human_names, kinds = list(resumed.humans), list(resumed.kinds)
        humans = len(human_names)
    else:
        human_names = people(names, humans, rules.players)
        kinds = level_kinds(level, bots, rules.players - humans)
    if (
        log_path is not None
        and not kept
        and os.path.isfile(log_path)
        and not (resume is not None and _same_path(log_path, resume))
    ):
        from ._resume import kept_text

        kept = kept_text(log_path)
    bot_seats = rules.players - humans
    if seed is None:
        seed = draw_seed()
    interactive = sys.stdin.isatty()
    color = color_fits(sys.stdout, no_color=no_color)
    symbols = suits_fit(sys.stdout.encoding, ascii_only=ascii_only)
    taken = {n.casefold() for n in human_names}
    free_names = [n for n in BOT_NAMES if n.casefold() not in taken]
    if resumed is not None:
        free_names = list(resumed.bot_names)
    terminal = Terminal(
        sys.stdin, sys.stdout, interactive=interactive, screen=sys.stdout.isatty(), color=color
    )
    sitting = Sitting(
        rules, human_names, kinds, bot_names=free_names[:bot_seats], terminal=terminal,
        dealer=dealer, search_iterations=search_iterations, log_path=log_path,
        delay=(0.6 if interactive else 0.0) if delay is None else delay, symbols=symbols,
        rulebook=lambda: rule_lines(rules, min(terminal.width, 100)), auto_forced=auto_forced,
        kept=kept,
    )  # fmt: skip
    try:
        ending = sitting.play(seed, draw_seed, resume=None if resumed is None else resumed.resume)
    except PlayerError as err:
        raise click.ClickException(str(err)) from None
    except LogWriteError as err:
        raise click.ClickException(
            f"cannot write the log to {err.path!r}: {err.strerror}"
        ) from None
    if ending.code:
        with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
            terminal.write("")
        if ending.finished:  # left at "Play again?": the game itself was played out
            saved = f"; the games are saved in {log_path}" if log_path else ""
            message = f"Stopped after the game ({ending.reason}){saved}. Seed {ending.seed}."
        else:
            saved = f"; the game so far is saved in {log_path}" if log_path else ""
            message = f"Game abandoned ({ending.reason}){saved}. Seed {ending.seed}."
        with contextlib.suppress(OSError):
            width = terminal.width if sys.stderr.isatty() else None  # a log file: one line
            click.echo("\n".join(wrap(message, width)), err=True)
        sys.exit(ending.code)


# ----------------------------------------------------------------------------- schema


@main.command()
@click.argument(
    "what", type=click.Choice(("log", "analysis", "protocol")), default="log", required=False
)
def schema(what: str) -> None:
    """Print a JSON Schema (draft 2020-12): of the log format, version 1 (the default), of
    kow analyze --json's output (kow schema analysis), or of the online protocol's
    messages, version 1 (kow schema protocol)."""
    import json

    if what == "analysis":
        from ..runs.analysis import schema as chosen_schema
    elif what == "protocol":
        from ..online.protocol import schema as chosen_schema
    else:
        from ..log import schema as chosen_schema

    with reader_may_leave():
        write_out(json.dumps(chosen_schema(), indent=2))


# ----------------------------------------------------------------------------- rules


@main.command("rules")
@rule_options
@json_option("Print the settings and the rules as one JSON object: {rules, preset, rulebook}.")
def rules_command(rules: Rules, as_json: bool) -> None:
    """Print the rules in force with the options given, each with its source.

    Takes the rule options of play and simulate, so `kow rules --preset traditional`
    shows the rules that `kow play --preset traditional` plays. Sources: the rules text
    (sources 000/001/003), sources 002 and 004 (the traditional rules), or kow's choice
    where they are silent. Wrapped to the terminal's width (40 to 100 columns), in a
    pager on a terminal.
    """
    import json
    import shutil
    import unicodedata

    from ..rulebook import rule_lines, rulebook
    from ..rules import preset_of

    if as_json:
        book = [rule._asdict() for rule in rulebook(rules)]
        data = {"rules": rules.to_dict(), "preset": preset_of(rules), "rulebook": book}
        with reader_may_leave():
            write_out(json.dumps(data, indent=2))  # ASCII: json escapes the accents
        return
    width = min(shutil.get_terminal_size((80, 24)).columns, 100)
    text = "\n".join(rule_lines(rules, width))
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):  # e.g. ASCII: drop the accents, é becomes e
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    if sys.stdout.isatty():  # a person reads it: a pager, as kow replay has; piped: whole
        page(text + "\n")
        return
    with reader_may_leave():
        click.echo(text)


def _same_path(one: str, other: str) -> bool:
    """Return whether the paths ``one`` and ``other`` name the same file."""
    return os.path.realpath(one) == os.path.realpath(other)


# ----------------------------------------------------------------------------- tournament


@main.command()
@bots_option("search,heuristic,heuristic,heuristic", ENTRANTS_HELP, "ENTRANT[,ENTRANT...]")
@click.option(
    "--games", type=Count.of(GAMES), default=400, show_default=True,
    help="Games to play; a multiple of --players gives every bot every seat equally.",
)  # fmt: skip
@seed_option
@rule_options
@search_iterations_option
@jobs_option
@cluster_option
@click.option(
    "--by-seat", is_flag=True,
    help="Also give each entrant's results from each seat (0-based, clockwise).",
)  # fmt: skip
@json_option("Print the results as one JSON object.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the results as CSV, a row per entrant.")
def tournament(
    *,
    bots: str,
    games: int,
    seed: int | None,
    rules: Rules,
    search_iterations: int | None,
    jobs: int | None,
    cluster: str | None,
    by_seat: bool,
    as_json: bool,
    as_csv: bool,
) -> None:
    """Measure bots against each other over many seeded games.

    The bots rotate through the seats over the same seeds, so each bot plays each
    seat's cards. An entrant is a bot kind at its settings (search:iterations=1000), so
    one kind at two settings is two entrants. Prints, per entrant: the seats it holds in
    each game, the games, its wins, its win rate per seat (wins / (games x seats)) with
    its 95% Wilson interval, mean round reached, and mean time per decision; --by-seat
    adds the same from each seat. The results are the same whatever --jobs or --cluster
    is (but for the time per decision). Stopped early (Ctrl-C, SIGTERM, SIGHUP), it
    prints the results of the games finished, marked partial (the same as a whole
    tournament of that many games), and exits 130, 143 or 129.
    """
    import json

    from ..game import PlayerError
    from ..players import game_seconds
    from ..runs.batch import BlockError, WorkerError, auto_jobs
    from ..runs.tournament import Tally, csv_rows, game_results, seat_table_lines, table_lines

    if as_json and as_csv:
        raise click.UsageError("give --json or --csv, not both: each is the whole output")
    refuse_jobs_with_cluster(jobs, cluster)
    kinds = parse_entrants(bots, rules.players)
    counted = f"{games} game{'s' if games != 1 else ''}"
    if games % rules.players and len(set(kinds)) > 1:
        click.echo(
            f"Note: {counted} is not a multiple of {rules.players} players, so the bots "
            "do not sit in every seat equally often.",
            err=True,
        )
    if seed is None:
        seed = draw_seed()
    tally = Tally(
        rules, kinds, seed=seed, search_iterations=search_iterations, planned=games,
        keep_games=False,
    )  # fmt: skip
    stop: KeyboardInterrupt | Stopped | None = None
    try:
        with (
            cluster_executor(cluster, jobs) as executor,
            Progress(games, sys.stderr.isatty(), "Playing") as progress,
        ):
            if executor is None:
                cost = game_seconds(kinds, rules.start_cards, search_iterations)
                jobs = jobs or auto_jobs(games, cost)
            results = game_results(
                rules, kinds, games, seed=seed, jobs=jobs or 1,
                search_iterations=search_iterations, executor=executor,
            )  # fmt: skip
            with contextlib.closing(results):  # on a stop or an error, end the workers at once
                for done in results:
                    tally.add(done)
                    progress.advance(len(done))
    except (PlayerError, WorkerError, BlockError) as err:
        raise click.ClickException(str(err)) from None
    except (KeyboardInterrupt, Stopped) as err:  # stop_signals ignores any more now
        stop = err
    result = tally.tournament()
    with reader_may_leave():
        if as_json:
            write_out(json.dumps(result.to_dict(by_seat=by_seat), indent=2))
        elif as_csv:
            import csv
            import io

            text = io.StringIO()
            csv.writer(text, lineterminator="\n").writerows(csv_rows(result, by_seat=by_seat))
            write_out(text.getvalue(), end="")
        else:
            played = f"Partial: {result.played} of {counted} played" if result.partial else counted
            click.echo(f"{played}, seed {seed}, bots {','.join(kinds)}")
            click.echo("\n".join(table_lines(result)))
            if by_seat:
                click.echo("\n".join(["", *seat_table_lines(result)]))
    if stop is not None:
        said = "Interrupted" if isinstance(stop, KeyboardInterrupt) else f"Stopped by {stop.name}"
        whole = "partial" if result.partial else "whole"
        click.echo(f"{said} after {result.played} of {counted}: the results are {whole}.", err=True)
        click.get_current_context().exit(130 if isinstance(stop, KeyboardInterrupt) else stop.code)
