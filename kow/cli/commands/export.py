"""``kow export``: write logged games as CSV tables, a row per game, round, trick or play.

The options and the outputs: the rows are :func:`kow.runs.export_loop.export_games`'s, over
the records of :func:`kow.log.read_logs`; this module writes them to stdout or to files
replaced whole, and says what a stop kept.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

import click

from ...stopping import Stopped, stop_code, stop_said, stops_held
from .._files import atomic_output, file_state, replaced_whole
from .._inputs import games_shown, input_bytes, one_stdin, open_error, same_file, say, unreadable
from .._options import (
    PATH,
    cluster_option,
    log_executor,
    log_jobs_option,
    quiet_option,
    refuse_jobs_with_cluster,
)
from .._pipes import reader_may_leave
from .._terminal import Progress, progress_fits

EXPORT_TABLES = ("games", "rounds", "tricks", "plays")
"""``kow export --table``'s choices: ``kow.runs.export.TABLES``, named here so that ``kow
--help`` imports no engine."""


_FILE_SUFFIXES = frozenset([".csv", ".tsv", ".txt", ".json", ".jsonl", ".gz", ".xlsx"])
"""The suffixes of a new ``-o`` that names a file, where several tables need a folder."""


def _export_folder(folder: str) -> bool:
    """Make the folder ``-o DIR`` of a several-table export if it does not exist; return
    whether it was made here (then it is removed again if the export ends early).

    Raises :class:`click.BadParameter` (exit 2) for a path that is a file, a new folder
    named as a file is (``out.csv``: :data:`_FILE_SUFFIXES`; ``out.csv/`` is a folder),
    or a folder that can't be made (its parent must exist).
    """
    hint = "'-o' / '--output'"
    if not folder.strip():
        raise click.BadParameter("give a folder path, not an empty string", param_hint=hint)
    if os.path.isdir(folder):
        return False
    if os.path.exists(folder):
        raise click.BadParameter(
            f"{folder!r} is a file: several tables go to a folder, one CSV file each",
            param_hint=hint,
        )
    stem, suffix = os.path.splitext(folder)
    if suffix.lower() in _FILE_SUFFIXES and stem.strip():
        raise click.BadParameter(
            f"{folder!r} is the name of a file: several tables go to a folder, one CSV "
            f"file each (give -o {stem!r}, or {folder + '/'!r} for a folder of that name)",
            param_hint=hint,
        )
    try:
        os.mkdir(folder)
    except OSError as err:
        raise click.BadParameter(
            f"cannot make the folder {folder!r}: {err.strerror or err}", param_hint=hint
        ) from None
    return True


@click.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...", type=PATH)
@click.option(
    "--table", "tables", multiple=True,
    type=click.Choice((*EXPORT_TABLES, "all")),
    help="Required: one row per game, round, trick or play (docs/tables.md gives every column)."
    " Give it more than once, or all, for several tables in one pass, to -o DIR.",
)  # fmt: skip
@click.option(
    "--output", "-o", default=None, metavar="FILE|DIR", type=PATH,
    help="Write the table to FILE (replaced whole at the end; gzip if FILE ends in .gz)"
    " instead of stdout. With several tables, DIR is a folder (made if it does not"
    " exist; its parent must; a new one named like a file, out.csv, is refused) and each"
    " table is written to DIR/TABLE.csv, replaced whole"
    " at the end.",
)  # fmt: skip
@click.option(
    "--spreadsheet-safe", is_flag=True,
    help="Prefix with ' each text cell that begins with = + - @, a tab or a carriage"
    " return, so that Excel or LibreOffice shows it instead of running it as a formula"
    " (a player's name can be one). Numbers are not changed.",
)  # fmt: skip
@log_jobs_option
@cluster_option
@quiet_option
def export(
    *,
    files: tuple[str, ...],
    tables: tuple[str, ...],
    output: str | None,
    spreadsheet_safe: bool,
    jobs: int | None,
    cluster: str | None,
    quiet: bool,
) -> None:
    """Write logged games as CSV tables: a row per game, round, trick or play.

    Each FILE (or - for stdin) may hold one game, JSON Lines, or concatenated JSON
    objects, read as kow verify reads them, in flat memory. Every row starts with the
    keys file, game (the game's place in its file, from 1) and seed (empty when the log's
    is null: dealt outside kow); seats are 0-based, cards as in the log, booleans true
    or false, a missing value empty. Each game is checked against the rules first, once
    whatever the number of tables: --table all -o DIR writes DIR/games.csv,
    DIR/rounds.csv, DIR/tricks.csv and DIR/plays.csv in one pass. Exit 1 at a game that
    is not legal or input that can't be read, naming its place: the rows of the games
    before it stay on stdout, and a file given to -o is left as it was (so are the
    tables of DIR). Exit 2 when a FILE can't be opened. Stopped (Ctrl-C, SIGTERM,
    SIGHUP), it says how many games it exported and what it kept, and exits 130, 143
    or 129. For a spreadsheet, give --spreadsheet-safe (the default keeps every value as
    logged, for pandas and DuckDB). With --jobs N (or --cluster), N processes (or Ray
    tasks) export the games, a few hundred at a time, and the tables are the same bytes.
    A progress bar shows on stderr when it is a
    terminal (the table not on the same screen) and every FILE is a file.
    """
    if not tables:  # required, said on one line (Click lists the choices one a line)
        raise click.UsageError(
            f"Missing option '--table': give {', '.join(EXPORT_TABLES)} or all (repeat"
            " --table for several tables)"
        )
    chosen = EXPORT_TABLES if "all" in tables else tuple(t for t in EXPORT_TABLES if t in tables)
    several = len(chosen) > 1
    if several and output in (None, "-"):
        raise click.BadParameter(
            f"{len(chosen)} tables go to a folder, one CSV file each: give -o DIR",
            param_hint="'-o' / '--output'",
        )
    one_stdin(files)
    refuse_jobs_with_cluster(jobs, cluster)
    folder = output if several else None
    paths: dict[str, str | None] = (
        {table: os.path.join(output, f"{table}.csv") for table in chosen}
        if several and output is not None
        else {chosen[0]: output}
    )
    for name in files:  # before a row is written; not opened, so a pipe is left unread
        why = None if name == "-" else unreadable(name)
        if why is not None:
            raise open_error(name, why, "'FILE...'")
        for path in paths.values():
            if path not in (None, "-") and same_file(path, name):
                what = "table" if folder is None else f"table {path!r}"
                raise click.BadParameter(
                    f"{path!r} is the input {name!r}: the {what} would replace the games it"
                    " is read from; give another " + ("file" if folder is None else "folder"),
                    param_hint="'-o' / '--output'",
                )
    made = folder is not None and _export_folder(folder)
    states = {table: None if path is None else file_state(path) for table, path in paths.items()}
    kept = not several and not replaced_whole(output)  # stdout, a device or a pipe
    show = not quiet and progress_fits(output)
    total = input_bytes(files) if show else None
    progress = Progress(total or 0, show and total is not None, "Exporting",
                        show_pos=False, item=games_shown)  # fmt: skip
    exported = [0]  # games whose rows are written whole
    try:
        with progress, log_executor(jobs, cluster) as executor:
            _export_rows(files, paths, exported, progress=progress,
                         spreadsheet_safe=spreadsheet_safe, executor=executor)  # fmt: skip
    except (KeyboardInterrupt, Stopped) as stop:  # stop_signals ignores any more now
        written = [t for t, path in paths.items() if path and file_state(path) != states[t]]
        _remove_if_empty(folder if made else None)
        note = _stopped_export(stop_said(stop), exported[0], paths=paths, written=written,
                               kept=kept, folder=folder, made=made and not written)  # fmt: skip
        with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
            click.echo(note, err=True)
        click.get_current_context().exit(stop_code(stop))
    except BaseException:
        _remove_if_empty(folder if made else None)
        raise


def _remove_if_empty(folder: str | None) -> None:
    """Remove the folder ``folder`` (None: none) that an export made, when it is empty: an
    export that ends early leaves the place as it was."""
    if folder is not None:
        with contextlib.suppress(OSError):  # not empty (another wrote there), or gone
            os.rmdir(folder)


def _export_rows(
    files: tuple[str, ...],
    paths: dict[str, str | None],
    exported: list[int],
    *,
    progress: Progress,
    spreadsheet_safe: bool,
    executor: Any,
) -> None:
    """Write the rows of the games of ``files`` in each table of ``paths`` (table to its
    output: a path, or None or ``-`` for stdout), each checked and replayed once
    (:func:`kow.runs.export_loop.export_games`, on ``executor``: None for this process,
    where the reader replays each game as it reads it, :func:`~kow.runs.export_loop.export_reads`);
    ``exported[0]`` counts the games whose rows
    are written whole, for a stop's message.

    Each output is written whole at the end (:func:`atomic_output`); stdout gets each
    game's rows whole (:func:`stops_held`). Raises :class:`click.ClickException` at a
    game that is not legal or input that can't be read.
    """
    from ...log import InputEnd, InputError, read_logs
    from ...runs.export import COLUMNS, csv_text
    from ...runs.export_loop import ExportError, export_games, export_reads

    with contextlib.ExitStack() as stack:
        outputs = {}
        for table, path in paths.items():
            out = stack.enter_context(atomic_output(path))
            stack.enter_context(reader_may_leave(out))
            outputs[table] = out
            out.write(csv_text([COLUMNS[table]]))
        reads = export_reads(executor=executor)  # here: the reader replays each game
        records = read_logs(files, prove=reads.prove, prove_line=reads.prove_line)
        games = stack.enter_context(
            contextlib.closing(
                export_games(records, tuple(paths), spreadsheet_safe=spreadsheet_safe,
                             executor=executor, proved=reads.prove is not None)
            )
        )  # fmt: skip
        read = 0
        try:
            for item in games:  # closed on an error
                if isinstance(item, InputEnd):
                    say(item.note, progress.clear)  # games that repeat others
                    continue
                say(item.record.note, progress.clear)  # a game that repeats another
                with stops_held():  # a stop ends the export between games, not in one
                    for table, text in item.text.items():
                        outputs[table].write(text)
                    exported[0] += 1
                now = item.record.read if progress.show else 0
                progress.advance(now - read, exported[0])
                read = now
        except (InputError, ExportError) as err:
            raise click.ClickException(str(err)) from None


def _stopped_export(
    said: str,
    exported: int,
    *,
    paths: dict[str, str | None],
    written: list[str],
    kept: bool,
    folder: str | None,
    made: bool = False,
) -> str:
    """Return what a stopped ``kow export`` says on stderr: how many games it
    ``exported``, and what became of each output of ``paths`` (table to path; None or
    ``-`` for stdout): ``kept`` when it is stdout, a device or a pipe, which keep the
    rows written; else left as it was, but for the tables ``written`` (stopped as their
    files were renamed into place). ``folder`` is -o DIR of several tables, ``made``
    when the export made it (and removed it again).

    >>> _stopped_export("Interrupted", 3, paths={"games": None}, written=[], kept=True,
    ...                 folder=None)
    'Interrupted after 3 games: their rows are written whole to stdout.'
    >>> _stopped_export("Stopped by SIGTERM", 1, paths={"plays": "p.csv"}, written=[],
    ...                 kept=False, folder=None)
    "Stopped by SIGTERM after 1 game: 'p.csv' was left as it was (not written)."
    >>> _stopped_export("Interrupted", 9, paths={"games": "t/games.csv", "plays":
    ...                 "t/plays.csv"}, written=[], kept=False, folder="t")
    "Interrupted after 9 games: the tables in 't' were left as they were (not written)."
    """
    counted = f"{said} after {games_shown(exported)}"
    if kept:
        (path,) = paths.values()
        where = "stdout" if path in (None, "-") else repr(path)
        return f"{counted}: their rows are written whole to {where}."
    left = [path for table, path in paths.items() if table not in written]
    done = [path for table, path in paths.items() if table in written]
    if not done:
        if folder is not None and made:
            return f"{counted}: no table was written, and {folder!r}, made for them, was removed."
        if folder is not None:
            return f"{counted}: the tables in {folder!r} were left as they were (not written)."
        return f"{counted}: {left[0]!r} was left as it was (not written)."
    named = ", ".join(repr(p) for p in done)
    if not left:
        return f"{counted}: {named} written whole."
    return (
        f"{counted}: {named} written whole; {', '.join(repr(p) for p in left)} left as they were."
    )
