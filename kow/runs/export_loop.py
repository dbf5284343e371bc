"""``kow export``'s loop: the CSV lines of each game of a log reader's records.

:func:`export_games` takes :func:`kow.log.read_logs`'s records and yields each game's
lines in each table asked for (:mod:`kow.runs.export` makes the rows and their text),
each game replayed once, here or in blocks on processes or Ray tasks
(:func:`kow.runs.blocks.in_blocks`), in order, with the same text and the same errors at
the same place either way.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Generator, Iterable, Sequence
from typing import Any, Literal, NamedTuple, TypeAlias

from ..engine import State
from ..log import GameRecord, InputEnd, ReplayError, replay_exact, replay_line
from ..log._reader import Prove, ProveLine
from ..verify import Fault, GameFault
from .blocks import in_blocks
from .executors import Executor, check_executor
from .export import COLUMNS, TABLES, IllegalGameError, tables_text

__all__ = ["ExportError", "ExportedGame", "Reads", "export_block", "export_games", "export_reads"]


class ExportError(ValueError):
    """Raised by :func:`export_games` at a game it cannot export, its place named: one that
    is not legal, or one the engine does not replay (a fault of kow's)."""


class ExportedGame(NamedTuple):
    """One game of :func:`export_games`: its ``record`` as read, and its ``text`` in each
    table asked for: the CSV lines of its rows (:func:`~kow.runs.export.tables_text`),
    each ended by ``\\n``."""

    record: GameRecord
    text: dict[str, str]


def export_games(
    records: Iterable[GameRecord | InputEnd],
    tables: Sequence[str],
    *,
    spreadsheet_safe: bool = False,
    jobs: int = 1,
    executor: Executor | None = None,
    proved: bool = False,
) -> Generator[ExportedGame | InputEnd, None, None]:
    """Yield the CSV lines of each game of ``records`` in each of ``tables``, and each
    input's end.

    ``records`` are :func:`kow.log.read_logs`'s; each game is replayed once and its rows
    written as CSV (:func:`~kow.runs.export.tables_text`, keyed by its input's label and
    its index there; ``spreadsheet_safe`` as :func:`~kow.runs.export.cells` takes it),
    and yielded as an :class:`ExportedGame`, in order. With ``jobs`` 1 and no
    ``executor`` each game is exported here before the next is read; else the games are
    exported in blocks on ``jobs`` processes or the ``executor``
    (:class:`kow.runs.executors.Processes`, :func:`~kow.runs.executors.on_ray`), the
    next ones read while they run (:func:`kow.runs.blocks.in_blocks`): the same games,
    the same text and the same errors, at the same place. ``jobs`` processes
    (:meth:`~kow.runs.executors.Processes.stream`) live for the run and are sent each
    game as its text where it has one (the record yielded then has ``game`` None: no
    parsed game is held here while its block runs). ``proved``: ``records`` were read
    with :func:`export_reads`'s ``prove`` and ``prove_line`` (:func:`kow.log.read_logs`),
    so a game exported here takes its record's ``proof`` as
    its replay, and one without a proof is not replayed that way again; the workers of
    ``jobs`` or an ``executor`` replay each game themselves. Raises
    :class:`~kow.log.InputError` at an input that could not be opened or read whole,
    :class:`ExportError` at a game that is not legal (``FILE: game N (seed S): fault;
    the export stops at a game that is not legal``) or that the engine does not replay,
    each after yielding every game before it; :class:`ValueError` for a table not in
    :data:`TABLES`, and what :func:`~kow.runs.executors.check_executor` raises.
    """
    for table in tables:
        if table not in COLUMNS:
            raise ValueError(f"no table {table!r}: the tables are {', '.join(TABLES)}")
    run = check_executor(executor, jobs)
    work = functools.partial(export_block, tables=tuple(tables), spreadsheet_safe=spreadsheet_safe)
    on = None if executor is None and jobs == 1 else run
    job = functools.partial(_job, proved=proved)
    for item, text in in_blocks(records, work, job=job, executor=on):
        if isinstance(item, InputEnd):
            yield _ended(item)
        elif isinstance(text, str):  # the first game that could not be exported
            raise ExportError(text)
        else:
            assert text is not None, "each game is exported, or the export stops"
            yield ExportedGame(item, text)


def _ended(end: InputEnd) -> InputEnd:
    """Return the end of an input read whole; raise the :class:`~kow.log.InputError` of one
    that could not be opened or read whole."""
    error = end.error()
    if error is not None:
        raise error
    return end


class Reads(NamedTuple):
    """How :func:`kow.log.read_logs` reads the records of :func:`export_games`: its
    ``prove`` and ``prove_line`` (each None: not given)."""

    prove: Prove | None
    prove_line: ProveLine | None


def export_reads(*, jobs: int = 1, executor: Executor | None = None) -> Reads:
    """Return how to read the records of :func:`export_games` (:func:`kow.log.read_logs`'s
    ``prove`` and ``prove_line``): with ``jobs`` 1 and no ``executor``, each game is
    replayed once, by the reader, and not measured there (a line of JSON Lines by
    :func:`~kow.log.replay_line`, without json reading it whole; any other game by
    :func:`~kow.log.replay_exact` once json has read it; give ``proved=True`` to
    :func:`export_games`); else neither (the workers replay)."""
    if executor is None and jobs == 1:
        return Reads(replay_exact, replay_line)
    return Reads(None, None)


_Job: TypeAlias = tuple[str, int, int, Any, str | None, str | None, State | None | Literal[False]]
"""One game to export as a block carries it: its input's label, its index there, its
line, the value read (None when its text is sent: the worker reads it), the fault of
reading it alone (or None), its compact text (:attr:`GameRecord.text`, or None), and
its replay by the reader (``replayed`` of :func:`~kow.runs.export.tables_text`: False
when it was not tried, always so when sent)."""


def _job(record: GameRecord, sent: bool, *, proved: bool = False) -> _Job:
    """Return the game of ``record`` as a block carries it (no exception object: it pickles);
    ``sent``: to another process, with the game's text alone when it has one (a string
    pickles at the speed of a copy, a parsed game at a fraction of json's) and without
    its replay; ``proved``: the reader tried to prove its text (:func:`export_reads`)."""
    fault = None if record.fault is None else str(record.fault)
    game = None if sent and record.text is not None else record.game
    replayed: State | None | Literal[False] = False
    if proved and not sent and record.text is not None and isinstance(record.game, dict):
        replayed = record.proof if isinstance(record.proof, State) else None
    return (record.label, record.index, record.line, game, fault, record.text, replayed)


def export_block(
    games: list[_Job], *, tables: tuple[str, ...], spreadsheet_safe: bool
) -> list[dict[str, str] | str]:
    """Return the CSV lines of each game of ``games`` in each of ``tables`` (a dict by
    table), up to the first that can't be exported, then the message of that game's
    :class:`ExportError` (a str), last: an executor's block of :func:`export_games`.
    A game sent as its text alone is proved from it by :func:`~kow.log.replay_line` where
    it can be (not parsed whole), else parsed and exported as any other."""
    done: list[dict[str, str] | str] = []
    for label, index, line, value, fault, text, replayed in games:
        game = value
        if value is None and text is not None:  # sent as its text: proved from it, or read
            proved = replay_line(text)
            if proved is None:
                game = json.loads(text)
            else:
                game, replayed = proved.game, proved.state
        try:
            if fault is not None:  # as kow verify reads it: refused as not legal
                raise IllegalGameError(Fault(None, None, None, message=fault))
            found = tables_text(game, tables, file=label, index=index, text=text,
                                replayed=replayed, spreadsheet_safe=spreadsheet_safe)  # fmt: skip
        except IllegalGameError as err:
            seed = game.get("seed") if isinstance(game, dict) else None
            if not isinstance(seed, int) or isinstance(seed, bool):
                seed = None
            place = GameFault(label, index, line, seed=seed, fault=err.fault)
            return [*done, f"{place}; the export stops at a game that is not legal"]
        except ReplayError as err:  # verify_game and the engine disagree
            return [*done, f"{label}: game {index} can't be replayed (a fault of kow's): {err}"]
        done.append(found)
    return done
