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
import os
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from . import game, log
from ._pool import WorkerError, ordered_map, start_seconds
from .game import PlayerError, bots_rng, game_seed
from .log._writer import game_text
from .players import make_bot
from .rules import Rules

__all__ = ["GameError", "Run", "WorkerError", "auto_jobs", "run_text"]


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


def _games_text(run: Run, first: int, count: int) -> str:
    """Return the text of games ``first .. first+count-1`` of ``run``, one after another."""
    rules = run.rules
    dealer = run.dealer
    pretty = run.pretty
    options = dict(run.bot_options)
    play_game = game.play_game  # looked up here, so that tests can stand in for it
    seats = [(kind, f"{kind}-{seat}") for seat, kind in enumerate(run.kinds)]
    texts = []
    for index in range(first, first + count):
        seed = game_seed(run.seed, index)
        rng = bots_rng(seed)
        players = [make_bot(kind, name, rng, **options) for kind, name in seats]
        try:
            state = play_game(rules, players, seed, dealer)
        except PlayerError as err:
            raise GameError(index, seed, str(err)) from None
        if pretty:
            texts.append(log.dumps(log.build(seed, rules, players, state.events), pretty=True))
        else:
            texts.append(game_text(seed, rules, players, state.events))
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


def auto_jobs(games: int, seconds_per_game: float) -> int:
    """Return the processes to use for ``games`` games when the user does not say.

    ``seconds_per_game``: an estimate of one game's cost in one process (see
    :func:`kow.players.game_seconds`). One process per CPU that this process may run on,
    but no more than games, and only as many as each get at least
    :func:`~kow._pool.start_seconds` of work (0.03 s where processes fork): a process
    costs about that much to start, so 100 games of ``heuristic`` bots stay in one, while
    20 games of a ``search`` bot (8 s) take every CPU.
    """
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    worth = games * seconds_per_game / start_seconds()
    return max(1, min(cpus, games, int(worth)))


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
