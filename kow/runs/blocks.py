"""A log's games worked on in blocks by an executor's workers, handed back in order.

``kow verify`` and ``kow export`` read a log reader's records (:func:`kow.log.read_logs`:
a :class:`~kow.log.GameRecord` per game, an :class:`~kow.log.InputEnd` per input) and
work on each game; :func:`in_blocks` runs that work here, one game at a time, or in
blocks of :data:`BLOCK` games on an executor (:mod:`kow.runs.executors`: ``--jobs`` or
``--cluster``), the next games read while the workers run, and yields each record with
its result in the order read, so the output is the same whatever the executor.
:func:`judging` is ``kow verify``'s use of it (:meth:`kow.verify.Verdict.run`'s
``judging``); :func:`kow.runs.export_loop.export_games` is ``kow export``'s.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..log import GameRecord, InputEnd
from ..verify import Fault, Judged, judge_block

if TYPE_CHECKING:  # the executors import multiprocessing: not for a run of one process
    from .executors import Executor

__all__ = ["BLOCK", "in_blocks", "judging"]

_Job = TypeVar("_Job")
_Result = TypeVar("_Result")

BLOCK = 25
"""The games of a block that an executor works on at once: about 10 ms of ``verify``'s
work compiled, 30 ms of ``export``'s, against about 0.01 ms of kow's pool or 1.75 ms
of Ray per block."""

WINDOW = 8
"""The blocks per worker of an executor without ``stream`` (Ray tasks) read and started
at once: a window."""


def in_blocks(
    records: Iterable[GameRecord | InputEnd],
    work: Callable[[list[_Job]], list[_Result]],
    *,
    job: Callable[[GameRecord, bool], _Job | None],
    executor: Executor | None,
) -> Iterator[tuple[GameRecord | InputEnd, _Result | None]]:
    """Yield each of ``records`` with the result of ``work`` for it, in order.

    ``job(record, sent)`` gives what ``work`` takes of a game's record, or None for a
    record not worked on (its result is None, as an input's end's); ``sent`` says that it
    goes to another process: then the game's compact text (:attr:`GameRecord.text`)
    rather than its parsed game, where it has one (a string pickles at the speed of a
    copy, a parsed game at a fraction of json's). ``work(jobs)`` returns the results of a
    block's jobs in order (a module-level function, or a partial of one, so that it
    pickles); it may return fewer, stopping at a result that ends the run (the caller
    stops there: the records after it get None).

    With ``executor`` None each game is worked on here as it is read. An executor with
    ``stream`` (:meth:`kow.runs.executors.Processes.stream`: workers that live for the
    run) is fed blocks of :data:`BLOCK` games as they are read, a block ending at an
    input's end too; a record sent as its text is yielded without its parsed game
    (``game`` None: no parsed game is held here while its block runs; read it again
    from its text if it is needed). Another executor (Ray tasks) gets windows of up to
    :data:`WINDOW` blocks per worker by its ``map``, the next window read while one runs.
    Raises what ``records``, ``work`` or the executor raise, at their turn.
    """
    if executor is None:
        for item in records:
            made = None if isinstance(item, InputEnd) else job(item, False)
            yield item, None if made is None else work([made])[0]
        return
    if hasattr(executor, "stream"):  # workers that live for the run: fed as it is read
        yield from _streamed(records, work, job=job, executor=executor)
        return
    running: _Window[_Job, _Result] | None = None  # its workers go on while the next is read
    try:
        for games, end in _windows(records, WINDOW * executor.workers * BLOCK):
            if running is not None:
                yield from running.finish()
                running = None
            window = _Window(games, work, job=job, executor=executor).start()
            if end is None:
                running = window
                continue
            yield from window.finish()  # an input's end: what came before it first
            yield end, None
        if running is not None:
            yield from running.finish()
    finally:
        if running is not None:
            running.close()


def _streamed(
    records: Iterable[GameRecord | InputEnd],
    work: Callable[[list[_Job]], list[_Result]],
    *,
    job: Callable[[GameRecord, bool], _Job | None],
    executor: Any,
) -> Iterator[tuple[GameRecord | InputEnd, _Result | None]]:
    """Yield what :func:`in_blocks` yields, the games worked on in blocks by
    ``executor.stream``, which reads the blocks as its workers need them and hands the
    results back in order; each block's records are held here until its result comes."""
    held: deque[list[tuple[GameRecord | InputEnd, bool]]] = deque()

    def blocks() -> Iterator[list[_Job]]:
        items: list[tuple[GameRecord | InputEnd, bool]] = []
        jobs: list[_Job] = []
        for item in records:
            made = None if isinstance(item, InputEnd) else job(item, True)
            if made is not None:
                jobs.append(made)
                if isinstance(item, GameRecord) and item.text is not None:  # held without its
                    item = dataclasses.replace(item, game=None)  # game: the garbage collector's
            items.append((item, made is not None))
            if isinstance(item, GameRecord) and len(jobs) < BLOCK:
                continue
            held.append(items)
            yield jobs
            items, jobs = [], []
        if items:
            held.append(items)
            yield jobs

    with contextlib.closing(executor.stream(work, blocks())) as results:
        for found in results:
            each = iter(found)
            for item, sent in held.popleft():
                yield item, next(each, None) if sent else None


def _windows(
    records: Iterable[GameRecord | InputEnd], size: int
) -> Iterator[tuple[list[GameRecord], InputEnd | None]]:
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


class _Window(Generic[_Job, _Result]):
    """The games of one window of :func:`in_blocks`: worked on by ``executor`` in blocks of
    :data:`BLOCK` once started (a window of one block, here), handed back in order."""

    def __init__(
        self,
        games: list[GameRecord],
        work: Callable[[list[_Job]], list[_Result]],
        *,
        job: Callable[[GameRecord, bool], _Job | None],
        executor: Executor,
    ) -> None:
        self.games = games
        self.job = job
        self.sent = [job(record, True) for record in games]
        jobs = [made for made in self.sent if made is not None]
        self.blocks = [jobs[at : at + BLOCK] for at in range(0, len(jobs), BLOCK)]
        self.work = work
        self.executor = executor
        self.results: Iterator[list[_Result]] | None = None
        self.first: list[_Result] | None = None

    def start(self) -> _Window[_Job, _Result]:
        """Start the blocks, and wait for the first (the workers go on with the others)."""
        if len(self.blocks) < 2:  # here: the games as read, no text to read again
            jobs = [made for made in (self.job(r, False) for r in self.games) if made is not None]
            self.results = iter([self.work(jobs)] if jobs else [])
        else:
            self.results = self.executor.map(self.work, self.blocks)
        self.first = next(self.results, None)
        return self

    def finish(self) -> Iterator[tuple[GameRecord | InputEnd, _Result | None]]:
        """Yield each game record of the window with its result, in order."""
        assert self.results is not None, "started first"
        results = self.results

        def each() -> Iterator[_Result]:
            if self.first is not None:
                yield from self.first
            for block in results:
                yield from block

        found = each()
        try:
            for record, made in zip(self.games, self.sent, strict=True):
                yield record, None if made is None else next(found, None)
        finally:
            self.close()

    def close(self) -> None:
        """End the blocks still running (an error, a stop, or the reader leaving)."""
        close = getattr(self.results, "close", None)
        if close is not None:
            close()


def judging(
    executor: Executor | None,
) -> Callable[
    [Iterable[Any], Callable[[Any], Fault | None] | None], Iterator[tuple[Any, Judged | None]]
]:
    """Return how :meth:`kow.verify.Verdict.run` judges its records on ``executor`` (its
    ``judging``; None: here, as :func:`kow.verify.judge_each` does): each game read
    whole by :func:`kow.verify.judge`, in blocks (:func:`kow.verify.judge_block`) by
    :func:`in_blocks`."""
    return functools.partial(_judged, executor=executor)


def _judged(
    records: Iterable[GameRecord | InputEnd],
    also: Callable[[Any], Fault | None] | None,
    *,
    executor: Executor | None,
) -> Iterator[tuple[GameRecord | InputEnd, Judged | None]]:
    """Yield each of ``records`` with what :func:`kow.verify.judge` found of it: None for
    an input's end and for a game read with a fault (not judged)."""
    work = functools.partial(judge_block, also=also)
    return in_blocks(records, work, job=_judge_job, executor=executor)


def _judge_job(record: GameRecord, sent: bool) -> tuple[object, str | None] | None:
    """Return what :func:`kow.verify.judge_block` takes of a game read whole, ``(log,
    text)`` (sent: the text alone where it has one), or None for one read with a fault."""
    if record.fault is not None:
        return None
    if sent and record.text is not None:
        return None, record.text
    return record.game, None
