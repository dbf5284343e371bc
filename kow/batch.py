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

import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from . import game, log
from .game import PlayerError, bots_rng, game_seed
from .players import make_bot
from .rules import Rules

__all__ = ["GameError", "Run", "game_text", "ordered_map", "run_text"]

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
    end = first + count
    blocks = [(run, start, min(size, end - start)) for start in range(first, end, size)]
    jobs = min(jobs, len(blocks))  # no process without a block to play
    for block, text in zip(blocks, ordered_map(_block_text, blocks, jobs), strict=True):
        yield text, block[2]


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


def _block_text(args: tuple[Run, int, int]) -> str:
    return _games_text(*args)


def ordered_map(
    func: Callable[[T], R], items: Iterable[T], jobs: int, ahead: int = 2
) -> Iterator[R]:
    """Yield ``func(item)`` for each item in order, computed by ``jobs`` processes.

    ``func`` and the items must pickle (``func`` a module-level function). At most
    ``ahead * jobs`` items are in flight, so a slow reader keeps memory flat. An exception
    raised by ``func`` is raised here when its item's turn comes. Processes start by
    ``fork`` where the platform has it (fast, nothing to re-import), else ``spawn``.
    """
    methods = multiprocessing.get_all_start_methods()
    method = "fork" if "fork" in methods and sys.platform != "darwin" else "spawn"
    context = multiprocessing.get_context(method)
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker_signals)
    pending: deque[Future[R]] = deque()
    try:
        for item in items:
            pending.append(pool.submit(func, item))
            if len(pending) >= ahead * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    except BaseException:
        # Ctrl-C, an error, or the reader stopping early: end the workers now rather
        # than wait for the blocks they are playing.
        processes = dict(getattr(pool, "_processes", None) or {})  # before shutdown drops it
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes.values():
            process.terminate()
        raise
    pool.shutdown(wait=True)


def _worker_signals() -> None:
    """Leave Ctrl-C to the main process, which stops the run; SIGTERM kills a worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
