"""Batches of games from one seeded run: the log text of games K..K+M-1, in one process or N.

A run is a seed plus the settings that decide its games (:class:`Run`). Game ``i`` of the
run (0-based) has seed ``game_seed(run.seed, i)`` and its bots draw from
``bots_rng(that seed)`` (see :mod:`kow.game`), so each game depends on its index
alone: games ``K..K+M-1`` are the same bytes whichever process plays them and whatever was
played before. That is what lets ``--jobs`` split a run over processes and
``--first-game`` split it over machines, with the pieces concatenating to the whole run.

The library does no printing; ``kow simulate`` writes what :func:`run_text` yields.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import pickle
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from . import game, log
from .game import PlayerError, bots_rng, game_seed
from .players import make_bot
from .rules import Rules

__all__ = ["GameError", "Run", "WorkerError", "game_text", "ordered_map", "run_text"]

T = TypeVar("T")
R = TypeVar("R")


class GameError(RuntimeError):
    """Raised when a bot breaks the rules in game ``index`` (0-based) of a run.

    ``index``, ``seed`` (the game's own) and ``reason`` (the :class:`~kow.game.PlayerError`
    message) hold the facts; it crosses process boundaries intact.
    """

    def __init__(self, index: int, seed: int, reason: str) -> None:
        super().__init__(index, seed, reason)
        self.index = index
        self.seed = seed
        self.reason = reason

    def __str__(self) -> str:
        return f"game {self.index} (seed {self.seed}): {self.reason}"


class WorkerError(RuntimeError):
    """Raised when a worker process of a parallel run dies (killed, out of memory)."""


@dataclass(frozen=True)
class Run:
    """The settings of a run of bot games: everything that decides their bytes.

    ``seed``: the run's seed (0..2^53-1); ``rules``; ``kinds``: one bot kind per seat
    (see :data:`kow.players.BOT_KINDS`), each named ``KIND-SEAT`` in the log; ``dealer``:
    the first dealer of every game, drawn from each game's seed when None; ``pretty``:
    indented JSON instead of one line per game; ``bot_options``: keyword arguments of
    :func:`~kow.players.make_bot`, as ``(name, value)`` pairs.
    """

    seed: int
    rules: Rules
    kinds: tuple[str, ...]
    dealer: int | None = None
    pretty: bool = False
    bot_options: tuple[tuple[str, Any], ...] = ()


def game_text(run: Run, index: int) -> str:
    """Return the log of game ``index`` (0-based) of ``run`` as JSON text and a newline.

    Raises :class:`GameError` when a bot returns an illegal action.
    """
    return _games_text(run, index, 1)


def _games_text(run: Run, first: int, count: int) -> str:
    """Return the text of games ``first .. first+count-1`` of ``run``, one after another."""
    rules = run.rules
    dealer = run.dealer
    pretty = run.pretty
    options = dict(run.bot_options)
    run_game = game.run_game  # looked up here, so that tests can stand in for it
    seats = [(kind, f"{kind}-{seat}") for seat, kind in enumerate(run.kinds)]
    texts = []
    for index in range(first, first + count):
        seed = game_seed(run.seed, index)
        rng = bots_rng(seed)
        players = [make_bot(kind, name, rng, **options) for kind, name in seats]
        try:
            state = run_game(rules, players, seed, dealer)
        except PlayerError as err:
            raise GameError(index, seed, str(err)) from None
        if pretty:
            texts.append(log.dumps(log.build(seed, rules, players, state.events), pretty=True))
        else:
            texts.append(log.text(seed, rules, players, state.events))
        texts.append("\n")
    return "".join(texts)


def run_text(
    run: Run, first: int, count: int, jobs: int = 1
) -> Generator[tuple[str, int], None, None]:
    """Yield the text of games ``first .. first+count-1`` of ``run`` in order, as it is made.

    Each item is ``(text, games)``: the logs of the next ``games`` games, each followed by
    a newline. With ``jobs == 1`` every game is yielded as it ends; with more, ``jobs``
    processes play blocks of games and the blocks come back in order, so the
    concatenated text is the same bytes for any ``jobs``. Memory stays flat: only a few
    blocks per process are in flight. Raises :class:`GameError` for a bot that breaks
    the rules (the first such game in order).
    """
    if jobs <= 1 or count <= 1:
        for index in range(first, first + count):
            yield _games_text(run, index, 1), 1
        return
    size = _block_size(count, jobs)
    blocks = range(-(-count // size))  # made as needed: flat in memory for any count
    jobs = min(jobs, len(blocks))  # no process without a block to play
    texts = ordered_map(functools.partial(_block_text, run, first, count, size), blocks, jobs)
    for block, text in zip(blocks, texts, strict=True):
        yield text, min(size, count - block * size)


def auto_jobs(games: int) -> int:
    """Return the processes to use for ``games`` games when the user does not say.

    One per CPU that this process may run on, but at most one per 100 games: starting a
    process costs about as much as playing 100 games, so a short run stays in one.
    """
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, games // 100))


def _block_size(count: int, jobs: int) -> int:
    """Return games per block: enough to make the hand-over cheap, small to keep memory low.

    About 8 blocks per process, so the processes finish close together, and at most 200
    games (about 1 MB of text) per block.
    """
    return max(1, min(200, -(-count // (jobs * 8))))


def _block_text(run: Run, first: int, count: int, size: int, block: int) -> str:
    """Return the text of block ``block`` (0-based) of games ``first..first+count-1``."""
    start = block * size
    return _games_text(run, first + start, min(size, count - start))


def ordered_map(
    func: Callable[[T], R], items: Iterable[T], jobs: int, ahead: int = 2
) -> Iterator[R]:
    """Yield ``func(item)`` for each item in order, computed by ``jobs`` processes.

    Worker ``w`` (0-based) computes items ``w, w + jobs, w + 2*jobs, ...`` and sends each
    result down a pipe of its own; this process reads them back in order. ``func`` and
    the items must pickle (``func`` a module-level function or a partial of one). A
    :class:`~collections.abc.Sequence` of items is not copied (a ``range`` of a billion
    blocks costs nothing); other iterables are read into a list first. At most ``ahead``
    results per worker wait here, plus one in its pipe, so a slow reader keeps memory
    flat. An exception raised by ``func`` is raised here when its item's turn comes; so
    is a :class:`WorkerError` naming the exit code of a worker that died (killed, out of
    memory), at the turn of the first item it did not send.

    The pool is kow's own, not :mod:`concurrent.futures`: this process runs no threads
    and shares no queues, so an exception from a signal handler (Ctrl-C, or SIGTERM once
    the caller turns it into one), an error, or the reader stopping early (closing this
    generator) ends the pool at once: the workers are killed and reaped before the
    exception goes on. Workers ignore Ctrl-C and SIGHUP (sent to the whole terminal's
    process group, they are this process's to handle) and end with this process if it
    is killed outright. Processes start by ``fork`` where the platform has it (fast,
    nothing to re-import), else ``spawn``.
    """
    todo = items if isinstance(items, Sequence) else list(items)
    jobs = max(1, min(jobs, len(todo)))
    if jobs == 1:
        yield from map(func, todo)
        return
    methods = multiprocessing.get_all_start_methods()
    fork = "fork" in methods and sys.platform != "darwin"
    context = multiprocessing.get_context("fork") if fork else multiprocessing.get_context("spawn")
    for stream in (sys.stdout, sys.stderr):  # a forked child must not write them again
        if stream is not None:
            stream.flush()
    readers: list[Connection] = []
    workers: list[BaseProcess] = []
    try:
        for worker in range(jobs):
            reader, writer = context.Pipe(duplex=False)
            # A forked child inherits the read ends made so far; it closes them, so
            # that only this process holds them and a worker sees its parent go.
            inherited = (*readers, reader) if fork else ()
            process = context.Process(
                target=_work,
                args=(func, todo[worker::jobs], writer, inherited),
                name=f"kow-worker-{worker}",
                daemon=True,
            )
            readers.append(reader)
            workers.append(process)  # before it starts: a signal held below lands after
            with _signals_held():  # the worker sets its own handlers before taking any
                process.start()
            writer.close()  # the worker holds the write end; EOF here means it died
        waiting: list[deque[tuple[bool, Any]]] = [deque() for _ in range(jobs)]
        to_come = [len(todo[worker::jobs]) for worker in range(jobs)]  # results not yet read
        for index in range(len(todo)):
            worker = index % jobs
            while not waiting[worker]:
                ready = wait(
                    [readers[w] for w in range(jobs) if to_come[w] and len(waiting[w]) < ahead]
                )
                for w, reader in enumerate(readers):
                    if reader not in ready:
                        continue
                    try:
                        ok, value = reader.recv()
                    except EOFError:  # it died: raised at its next item's turn, as an error
                        workers[w].join()
                        code = workers[w].exitcode
                        ok = False
                        value = WorkerError(
                            f"worker process {w} ended unexpectedly (exit code {code})"
                        )
                    waiting[w].append((ok, value))
                    to_come[w] = to_come[w] - 1 if ok else 0  # after an error: nothing
            ok, value = waiting[worker].popleft()
            if not ok:
                raise value
            yield value
    finally:
        started = [each for each in workers if each.pid is not None]
        for each in started:
            if each.is_alive():
                each.kill()
        for each in started:
            each.join()
        for reader in readers:
            reader.close()


def _end_with(parent: BaseProcess) -> None:
    """Wait (in a worker's thread) until the main process is gone, then end the worker."""
    parent.join()
    os._exit(1)


def _work(
    func: Callable[[T], R],
    items: Sequence[T],
    writer: Connection,
    inherited: tuple[Connection, ...],
) -> None:
    """Run in a worker: send ``(True, func(item))`` for each item, or ``(False, error)``.

    Ctrl-C and SIGHUP are left to the main process, which stops the run and kills its
    workers; SIGTERM ends the worker. A worker also ends as soon as the main process is
    gone (killed outright), and quietly when a result cannot be sent.
    """
    for signum in _STOP_SIGNALS:
        signal.signal(signum, signal.SIG_DFL if signum == signal.SIGTERM else signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    for connection in inherited:
        connection.close()
    parent = multiprocessing.parent_process()
    if parent is not None:  # end with the main process, even mid-item, if it is killed
        threading.Thread(target=_end_with, args=(parent,), daemon=True).start()
    try:
        for item in items:
            try:
                result: tuple[bool, Any] = (True, func(item))
            except Exception as err:  # noqa: BLE001 - raised again in the parent
                writer.send((False, _portable(err)))
                return
            writer.send(result)
    except BaseException:  # the parent went away: nothing to report to
        os._exit(1)
    finally:
        writer.close()


_STOP_SIGNALS = {
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
}


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP back while a worker starts (where the platform can).

    A worker is born with them blocked and unblocks them once it has set its own
    handlers, so a signal in that moment never runs the main process's handler in the
    worker; here a held signal arrives as soon as the block ends.
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _portable(err: Exception) -> Exception:
    """Return ``err`` if it survives pickling, else a RuntimeError with its text."""
    try:
        pickle.loads(pickle.dumps(err))
    except Exception:  # noqa: BLE001 - any pickling failure
        return RuntimeError(f"{type(err).__name__}: {err}")
    return err
