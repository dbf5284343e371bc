"""``kow simulate``: play seeded bot games and print one JSON log per game.

The options and the output: the games are :class:`kow.runs.batch.Run`'s; this module
writes them whole, shows the progress and says what a stop kept.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable
from typing import IO, cast

import click

from ...rules import Rules
from ...settings import FIRST_GAME, GAMES, SettingError, check_last_game
from ...stopping import Stopped, stop_code, stop_said, stops_held
from .._files import atomic_output, file_state, replaced_whole
from .._options import (
    Count,
    bots_option,
    cluster_executor,
    cluster_option,
    dealer_option,
    draw_seed,
    jobs_option,
    output_option,
    parse_bots,
    quiet_option,
    refuse_jobs_with_cluster,
    rule_options,
    search_iterations_option,
    seed_option,
)
from .._pipes import reader_may_leave
from .._terminal import Progress, progress_fits


@click.command()
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
    from ...players import game_seconds
    from ...runs.batch import BlockError, GameError, Run, WorkerError, auto_jobs, run_bytes

    refuse_jobs_with_cluster(jobs, cluster)
    try:
        check_last_game(first_game, games)
    except SettingError as err:
        raise click.BadParameter(str(err), param_hint="'--games'") from None
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
    replaced = replaced_whole(output)  # then the same -o again would replace what it kept
    kept = not replaced  # stdout, a device or a pipe keeps what it got
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
                texts = run_bytes(
                    run, first_game, games, jobs=jobs or 1, executor=executor,
                    seconds_per_game=cost, views=True,  # each written before the next
                )  # fmt: skip
                write = _binary_writer(out)
                with contextlib.closing(texts):  # on an error, stop any workers at once
                    for data, count in texts:
                        with stops_held():  # a stop ends the run between games, not in one
                            write(data)  # a reader gone (| head): 141
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
            kept=kept, replaced=replaced, drawn_seed=seed if drawn else None,
        )  # fmt: skip
        with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
            click.echo(note, err=True)
        click.get_current_context().exit(stop_code(stop))


_PIECE = 8192
"""The most :func:`_binary_writer`'s function hands the stream at once: its buffer's size."""


def _binary_writer(out: IO[str]) -> Callable[[bytes | memoryview], None]:
    """Return a function that writes UTF-8 bytes of logs to ``out``'s binary buffer.

    The workers' blocks go to the file as they came (issue 35's hand-over: not decoded,
    nor encoded again; a view of the memory a worker shares is written from there), and
    games are not flushed one by one: what is written is flushed when ``out`` is
    (:func:`reader_may_leave`) or closed, a stop included. A regular file gets each
    block in one write; anything else (a pipe, a terminal) a buffer's worth at a time, as
    :func:`~kow.cli._pipes.write_out` writes text, so that a reader that left (``|
    head``) is seen by a write, not only at exit. A stream without a binary buffer gets
    the text, decoded.
    """
    out.flush()  # nothing written yet; from here on only the binary layer is
    binary: IO[bytes] | None = getattr(out, "buffer", None)
    if binary is None:

        def write_text(data: bytes | memoryview) -> None:
            out.write(str(data, "utf-8"))

        return write_text
    if _regular_file(binary):
        return cast(Callable[[bytes | memoryview], None], binary.write)  # any bytes-like

    def write(data: bytes | memoryview) -> None:
        if len(data) <= _PIECE:
            binary.write(data)
            return
        with memoryview(data) as view:
            for start in range(0, len(view), _PIECE):
                binary.write(view[start : start + _PIECE])

    return write


def _regular_file(stream: IO[bytes]) -> bool:
    """Return whether ``stream`` writes to a regular file (gzip-compressed or not)."""
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):  # no file descriptor (io.BytesIO)
        return False


def _stopped_run(
    said: str,
    written: int,
    *,
    games: int,
    first_game: int,
    where: str,
    kept: bool,
    replaced: bool = False,
    drawn_seed: int | None = None,
) -> str:
    """Return what a stopped ``kow simulate`` says on stderr: how many of its ``games``
    (from ``first_game``) were ``written`` to ``where`` (stdout, or a file named), whether
    they were ``kept`` (False: a file left as it was), and the ``--first-game`` and
    ``--games`` that play the rest, so that the shards concatenate to the whole run; with
    the ``--seed`` too when the run's seed was drawn (``drawn_seed``), which the command
    did not give. ``replaced``: ``where`` is a file that -o replaces whole, so the same
    command again would replace the games kept: the rest goes to another file, to
    concatenate after it.

    >>> _stopped_run("Interrupted", 40, games=100, first_game=0, where="stdout", kept=True)
    'Interrupted after 40 of 100 games: games 0 to 39 of the run are written whole to stdout. \
To play the rest, run the same command with --first-game 40 --games 60: its output, after \
this one, makes the whole run.'
    >>> _stopped_run("Interrupted", 40, games=100, first_game=0, where="'g.jsonl'", kept=True,
    ...              replaced=True)
    "Interrupted after 40 of 100 games: games 0 to 39 of the run are written whole to \
'g.jsonl'. To play the rest, run the same command with --first-game 40 --games 60 and -o \
naming another file, not 'g.jsonl' (that would replace these games): 'g.jsonl' followed by \
the other file (cat them, in that order) makes the whole run."
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
    rest = f"{seed}--first-game {first_game + written} --games {games - written}"
    if replaced:  # -o FILE again would replace the games kept: the rest goes elsewhere
        return (
            f"{said} after {counted}: {done}. To play the rest, run the same command with"
            f" {rest} and -o naming another file, not {where} (that would replace these"
            f" games): {where} followed by the other file (cat them, in that order) makes"
            " the whole run."
        )
    return (
        f"{said} after {counted}: {done}. To play the rest, run the same command with"
        f" {rest}: its output, after this one, makes the whole run."
    )
