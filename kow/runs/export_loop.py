"""``kow export``'s loop: the CSV lines of each game of a log reader's records.

:func:`export_games` takes :func:`kow.log.read_logs`'s records and yields each game's
lines in each table asked for (:mod:`kow.runs.export` makes the rows and their text),
each game checked and replayed once, here or in blocks on processes or Ray tasks, in
order, with the same text and the same errors at the same place either way.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, TypeAlias

from ..log import GameRecord, InputEnd, ReplayError
from ..verify import Fault, GameFault
from .executors import Executor, check_executor
from .export import COLUMNS, TABLES, IllegalGameError, csv_text, tables_rows

__all__ = ["BLOCK", "ExportError", "ExportedGame", "export_block", "export_games"]


class ExportError(ValueError):
    """Raised by :func:`export_games` at a game it cannot export, its place named: one that
    is not legal, or one the engine does not replay (a fault of kow's)."""


class ExportedGame(NamedTuple):
    """One game of :func:`export_games`: its ``record`` as read, and its ``text`` in each
    table asked for: the CSV lines of its rows (:func:`csv_text` of :func:`tables_rows`),
    each ended by ``\\n``."""

    record: GameRecord
    text: dict[str, str]


BLOCK = 25
"""The games of a block that an executor exports at once (:func:`export_games`): about
30 ms of work compiled, against about 0.01 ms of kow's pool or 1.75 ms of Ray per block."""


def export_games(
    records: Iterable[GameRecord | InputEnd],
    tables: Sequence[str],
    *,
    spreadsheet_safe: bool = False,
    jobs: int = 1,
    executor: Executor | None = None,
) -> Generator[ExportedGame | InputEnd, None, None]:
    """Yield the CSV lines of each game of ``records`` in each of ``tables``, and each
    input's end.

    ``records`` are :func:`kow.log.read_logs`'s; each game is verified and replayed once
    (:func:`tables_rows`, keyed by its input's label and its index there), its rows
    written as :func:`csv_text` writes them (``spreadsheet_safe`` as :func:`cells` takes
    it), and yielded as an :class:`ExportedGame`, in order. With ``jobs`` 1 and no
    ``executor`` each game is exported here before the next is read; else the games are
    exported in blocks of :data:`BLOCK` on ``jobs`` processes or the ``executor``
    (:class:`kow.runs.executors.Processes`, :func:`~kow.runs.executors.on_ray`), the
    next ones read while they run: the same games, the same text and the same errors, at
    the same place. ``jobs`` processes (:meth:`~kow.runs.executors.Processes.stream`)
    live for the run and are sent each game as its text where it has one (the record
    yielded then has ``game`` None: no parsed game is held here while its block runs);
    another executor gets windows of up to 8 blocks per worker. Raises
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
    if executor is None and jobs == 1:
        for item in records:
            if isinstance(item, InputEnd):
                yield _ended(item)
                continue
            text, error = work([_job(item)])
            if error is not None:
                raise ExportError(error)
            yield ExportedGame(item, text[0])
        return
    if hasattr(run, "stream"):  # workers that live for the run: fed as it is read
        yield from _streamed(records, work, run)
        return
    running: _Window | None = None  # started: its workers go on while the next is read
    try:
        for games, end in _windows(records, 8 * run.workers * BLOCK):
            if running is not None:
                yield from running.finish()
                running = None
            window = _Window(games, work, run).start()
            if end is None:
                running = window
                continue
            yield from window.finish()  # an input's end: what came before it first
            yield _ended(end)
        if running is not None:
            yield from running.finish()
    finally:
        if running is not None:
            running.close()


def _streamed(
    records: Iterable[GameRecord | InputEnd],
    work: Callable[[list[_Job]], tuple[list[dict[str, str]], str | None]],
    run: Any,
) -> Generator[ExportedGame | InputEnd, None, None]:
    """Yield what :func:`export_games` yields, the games exported in blocks of
    :data:`BLOCK` by ``run.stream`` (:meth:`kow.runs.executors.Processes.stream`), which
    reads the blocks as its workers need them and hands the results back in order.

    Each block is sent as the games' texts where they have one (the workers read them),
    with the records read since the block before kept here until its result comes back;
    a block ends at :data:`BLOCK` games or at an input's end."""
    held: deque[list[GameRecord | InputEnd]] = deque()

    def blocks() -> Iterator[list[_Job]]:
        items: list[GameRecord | InputEnd] = []
        jobs: list[_Job] = []
        for item in records:
            if isinstance(item, GameRecord):
                jobs.append(_job(item, sent=True))
                if item.text is not None:  # held without its game: parsed games held are
                    item = dataclasses.replace(item, game=None)  # the garbage collector's work
            items.append(item)
            if isinstance(item, GameRecord):
                if len(jobs) < BLOCK:
                    continue
            held.append(items)
            yield jobs
            items, jobs = [], []
        if items:
            held.append(items)
            yield jobs

    with contextlib.closing(run.stream(work, blocks())) as results:
        for texts, error in results:
            done = iter(texts)
            for item in held.popleft():
                if isinstance(item, InputEnd):
                    yield _ended(item)
                    continue
                text = next(done, None)
                if text is None:  # the block's first game that could not be exported
                    raise ExportError(error)
                yield ExportedGame(item, text)


def _ended(end: InputEnd) -> InputEnd:
    """Return the end of an input read whole; raise the :class:`~kow.log.InputError` of one
    that could not be opened or read whole."""
    error = end.error()
    if error is not None:
        raise error
    return end


_Job: TypeAlias = tuple[str, int, int, Any, str | None, str | None]
"""One game to export as a block carries it: its input's label, its index there, its
line, the value read (None when its text is sent: the worker reads it), the fault of
reading it alone (or None), and its compact text (:attr:`GameRecord.text`, or None)."""


def _job(record: GameRecord, *, sent: bool = False) -> _Job:
    """Return the game of ``record`` as a block carries it (no exception object: it pickles);
    ``sent``: to another process, with the game's text alone when it has one (a string
    pickles at the speed of a copy, a parsed game at a fraction of json's)."""
    fault = None if record.fault is None else str(record.fault)
    game = None if sent and record.text is not None else record.game
    return (record.label, record.index, record.line, game, fault, record.text)


def export_block(
    games: list[_Job], *, tables: tuple[str, ...], spreadsheet_safe: bool
) -> tuple[list[dict[str, str]], str | None]:
    """Return the CSV lines of each game of ``games`` in each of ``tables``, up to the first
    that can't be exported, and the message of the :class:`ExportError` of that game
    (None when all could be): an executor's block of :func:`export_games`."""
    done: list[dict[str, str]] = []
    for label, index, line, value, fault, text in games:
        game = json.loads(text) if value is None and text is not None else value
        try:
            if fault is not None:  # as kow verify reads it: refused as not legal
                raise IllegalGameError(Fault(None, None, None, message=fault))
            found = tables_rows(game, tables, file=label, index=index, text=text)
        except IllegalGameError as err:
            seed = game.get("seed") if isinstance(game, dict) else None
            if not isinstance(seed, int) or isinstance(seed, bool):
                seed = None
            place = GameFault(label, index, line, seed=seed, fault=err.fault)
            return done, f"{place}; the export stops at a game that is not legal"
        except ReplayError as err:  # verify_game and the engine disagree
            return done, f"{label}: game {index} can't be replayed (a fault of kow's): {err}"
        done.append(
            {
                table: csv_text(table_rows, spreadsheet_safe=spreadsheet_safe)
                for table, table_rows in found.items()
            }
        )
    return done, None


def _windows(records: Iterable[GameRecord | InputEnd], size: int) -> Iterator[
    tuple[list[GameRecord], InputEnd | None]
]:  # fmt: skip
    """Yield ``(games, end)``: up to ``size`` game records of ``records`` in turn, and the
    end of an input that follows them (else None)."""
    games: list[GameRecord] = []
    for item in records:
        if isinstance(item, InputEnd):
            yield games, item
            games = []
            continue
        games.append(item)
        if len(games) >= size:
            yield games, None
            games = []
    if games:
        yield games, None


class _Window:
    """The games of one window of :func:`export_games`: exported on ``run`` in blocks of
    :data:`BLOCK` once started (a window of one block, here), handed back in order."""

    def __init__(
        self,
        games: list[GameRecord],
        work: Callable[[list[_Job]], tuple[list[dict[str, str]], str | None]],
        run: Executor,
    ) -> None:
        self.games = games
        jobs = [_job(record, sent=True) for record in games]
        self.blocks = [jobs[at : at + BLOCK] for at in range(0, len(jobs), BLOCK)]
        self.work = work
        self.run = run
        self.results: Iterator[tuple[list[dict[str, str]], str | None]] | None = None
        self.first: tuple[list[dict[str, str]], str | None] | None = None

    def start(self) -> _Window:
        """Start the blocks, and wait for the first (the workers go on with the others)."""
        if len(self.blocks) < 2:  # here: the games as read, no text to read again
            jobs = [_job(record) for record in self.games]
            self.results = iter([self.work(jobs)] if jobs else [])
        else:
            self.results = self.run.map(self.work, self.blocks)
        self.first = next(self.results, None)
        return self

    def finish(self) -> Iterator[ExportedGame]:
        """Yield each game of the window exported; raise :class:`ExportError` at the first
        that can't be, after the games before it."""
        assert self.results is not None, "started first"
        games = iter(self.games)
        try:
            block = self.first
            while block is not None:
                texts, error = block
                for text in texts:
                    yield ExportedGame(next(games), text)
                if error is not None:
                    raise ExportError(error)
                block = next(self.results, None)
        finally:
            self.close()

    def close(self) -> None:
        """End the blocks still running (an error, a stop, or the reader leaving)."""
        close = getattr(self.results, "close", None)
        if close is not None:
            close()
