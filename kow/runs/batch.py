"""Batches of games from one seeded run: the log text of games K..K+M-1, in one process or N.

A run is a seed plus the settings that decide its games (:class:`Run`). Game ``i`` of the
run (0-based) has seed ``game_seed(run.seed, i)`` and its bots draw from
``bots_rng(that seed)`` (see :mod:`kow.game`), so each game depends on its index
alone: games ``K..K+M-1`` are the same bytes whichever process plays them and whatever was
played before. That is what lets ``--jobs`` split a run over processes and
``--first-game`` split it over machines, with the pieces concatenating to the whole run.

The library does no printing; ``kow simulate`` writes what :func:`run_bytes` yields.
"""

from __future__ import annotations

import functools
import math
import os
import random
from collections.abc import Generator, Iterable, Iterator, Mapping
from dataclasses import KW_ONLY, dataclass
from typing import Any

from .. import game, log
from ..game import PlayerError, bots_rng, game_seed
from ..log import GameWriter
from ..players import check_kinds, make_bot, seat_bots
from ..rules import Rules, check_rules
from ..settings import (
    check_bool,
    check_first_game,
    check_games,
    check_int,
    check_jobs,
    check_last_game,
    check_seed,
)
from ._pool import WorkerError, start_seconds
from .executors import BlockError, Executor, Processes, TaskError, check_executor

__all__ = ["BlockError", "GameError", "Run", "WorkerError", "auto_jobs", "run_bytes", "run_text"]


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

    Each value is checked as ``kow simulate`` checks its option, with the same message
    (one statement of each check, shared by both): the seed is an int 0 to 2^53-1
    (:func:`kow.settings.check_seed`; a numpy integer counts as its int, a bool or a float is
    refused), ``kinds`` is one kind for every seat or one per seat
    (:func:`kow.players.check_kinds`; kept as one per seat), the dealer a seat,
    ``pretty`` a bool, and each bot option a keyword of ``make_bot`` with a value it
    takes. Raises :class:`~kow.settings.SettingError` (a :class:`ValueError`) or
    :class:`ValueError` naming the value, :class:`TypeError` for rules that are not a
    :class:`Rules`, kinds given as one string or as no sequence, and bot options that are
    not ``(name, value)`` pairs. A checked ``Run`` holds plain ints, so the pure and the
    compiled builds write the same bytes.
    """

    seed: int
    rules: Rules
    kinds: tuple[str, ...]
    _: KW_ONLY
    dealer: int | None = None
    pretty: bool = False
    bot_options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        check_rules(self.rules)
        set_ = functools.partial(object.__setattr__, self)
        set_("seed", check_seed(self.seed))
        set_("kinds", tuple(check_kinds(self.kinds, self.rules.players)))
        if self.dealer is not None:
            set_("dealer", self.rules.check_seat(self.dealer, "dealer"))
        set_("pretty", check_bool("pretty", self.pretty))
        options = _bot_options(self.bot_options)
        set_("bot_options", options)
        make_bot(self.kinds[0], "check", bots_rng(0), **dict(options))  # checks the options


def _bot_options(options: object) -> tuple[tuple[str, Any], ...]:
    """Return ``options`` as a tuple of ``(name, value)`` pairs, each name a string.

    Raises :class:`TypeError` naming ``options`` when they are not such pairs (a dict
    included: give ``tuple(options.items())``); :func:`~kow.players.make_bot` then checks
    the names and values.
    """
    if not isinstance(options, (str, bytes, Mapping)) and isinstance(options, Iterable):
        pairs = tuple(options)
        if all(
            isinstance(pair, (tuple, list)) and len(pair) == 2 and isinstance(pair[0], str)
            for pair in pairs
        ):
            return tuple((name, value) for name, value in pairs)
    raise TypeError(
        f"bot_options must be (name, value) pairs, e.g. (('search_iterations', 200),), "
        f"not {options!r}"
    )


def _games_text(run: Run, first: int, count: int) -> str:
    """Return the text of games ``first .. first+count-1`` of ``run``, one after another."""
    return "".join(_game_texts(run, first, count))


def _game_texts(run: Run, first: int, count: int) -> Iterator[str]:
    """Yield the text of each of games ``first .. first+count-1`` of ``run``, with its newline.

    The bots and the two generators (the deal's, the bots') are made once and reseeded
    for each game, which gives the draws of new ones (see :func:`kow.game.bots_rng`): the
    built-in bots keep nothing from one game to the next but their generator.
    """
    rules = run.rules
    dealer = run.dealer
    pretty = run.pretty
    deal_rng = random.Random()
    rng = random.Random()
    players = seat_bots(run.kinds, rng, **dict(run.bot_options))
    writer: GameWriter | None = None  # made after the first game, as game_text checks then
    play_game = game.play_game  # looked up here, so that tests can stand in for it
    for index in range(first, first + count):
        seed = game_seed(run.seed, index)
        bots_rng(seed, rng)
        try:
            state = play_game(rules, players, seed, dealer=dealer, rng=deal_rng)
        except PlayerError as err:
            raise GameError(index, seed, str(err)) from None
        if pretty:
            built = log.build(seed, rules, players, events=state.events)
            yield log.dumps(built, pretty=True) + "\n"
        else:
            if writer is None:
                writer = GameWriter(rules, players)
            yield writer.text(seed, state.events) + "\n"


def run_text(
    run: Run,
    first: int,
    count: int,
    *,
    jobs: int = 1,
    executor: Executor | None = None,
    seconds_per_game: float = 0.0,
) -> Generator[tuple[str, int], None, None]:
    """Yield the text of games ``first .. first+count-1`` of ``run`` in order, as it is made.

    Each item is ``(text, games)``: the logs of the next ``games`` games, each followed by
    a newline. With ``jobs == 1`` every game is yielded as it ends; with more, ``jobs``
    processes play blocks of games and the blocks come back in order, so the
    concatenated text is the same bytes for any ``jobs``. Memory stays flat: only a few
    blocks per process are in flight. ``executor`` plays the blocks elsewhere instead, on
    a Ray cluster say (:func:`kow.runs.executors.on_ray`), with the same bytes; give it
    or ``jobs``, not both. Raises :class:`GameError` for a bot that breaks the rules (the
    first such game in order), :class:`WorkerError` for a process of ``jobs`` that died,
    and :class:`BlockError` for a block whose Ray task failed.

    ``seconds_per_game`` (an estimate of one game's cost in one process, as
    :func:`kow.players.game_seconds` gives it; 0: cheap) sizes the blocks: costly games
    go in blocks of a few seconds of work (:data:`BLOCK_SECONDS`), so that progress is
    seen and a stop loses little; the bytes do not depend on it.

    ``first`` is 0 to :data:`~kow.settings.MAX_GAMES`, ``count`` 1 to ``MAX_GAMES`` and
    ``jobs`` 1 to :data:`~kow.settings.MAX_JOBS`, the games within the run
    (:func:`~kow.settings.check_last_game`), checked (when called, before any game) as
    ``kow simulate`` checks ``--first-game``, ``--games`` and ``--jobs``: a
    :class:`~kow.settings.SettingError` names the value. A ``seconds_per_game`` that is not
    a number of seconds, 0 or more, raises :class:`ValueError`.
    """
    return _run_text(
        run,
        _checked(first, count, jobs, executor=executor, seconds=seconds_per_game),
        encoded=False,
    )


def run_bytes(
    run: Run,
    first: int,
    count: int,
    *,
    jobs: int = 1,
    executor: Executor | None = None,
    seconds_per_game: float = 0.0,
    views: bool = False,
) -> Generator[tuple[bytes | memoryview, int], None, None]:
    """Yield what :func:`run_text` yields, each text UTF-8 encoded: ``(data, games)``.

    The same arguments, checks and errors. The processes of ``jobs`` (or the
    ``executor``'s tasks) encode their blocks and hand the bytes over as they are, so the
    receiving process neither decodes nor encodes them again: ``kow simulate`` writes them
    straight to its binary output (issue 35's hand-over).

    ``views``: the blocks of ``jobs`` processes may come as :class:`memoryview` objects of
    memory they share with this process, each valid only until the next item is asked
    for (then released; ``bytes(data)`` keeps a copy): the bytes are not copied through a
    pipe nor into a new object here, for a caller that writes each block before it asks
    for the next (``kow simulate``; :func:`kow.runs._pool.ordered_map`'s ``views``).
    Without it every ``data`` is :class:`bytes`.
    """
    return _run_text(
        run,
        _checked(first, count, jobs, executor=executor, seconds=seconds_per_game),
        encoded=True,
        views=views,
    )


def _checked(
    first: int, count: int, jobs: int, *, executor: Executor | None, seconds: float
) -> tuple[int, int, Executor, float]:
    """Return ``(first, count, executor, seconds)`` checked as :func:`run_text` says."""
    first = check_first_game(first)
    count = check_games(count)
    check_last_game(first, count)
    jobs = check_jobs(jobs)
    _check_seconds(seconds)
    return first, count, check_executor(executor, jobs), seconds


def _check_seconds(seconds: object) -> None:
    """Raise :class:`ValueError` unless ``seconds`` is a number of seconds, 0 or more."""
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, (int, float))
        or not 0 <= seconds < math.inf
    ):
        raise ValueError(
            f"seconds_per_game must be a number of seconds, 0 or more, not {seconds!r}"
        )


def _run_text(
    run: Run, checked: tuple[int, int, Executor, float], *, encoded: bool, views: bool = False
) -> Generator[tuple[Any, int], None, None]:
    """Yield what :func:`run_text` yields (``encoded``: :func:`run_bytes`, with its
    ``views``), its arguments ``(first, count, executor, seconds)`` checked
    (:func:`_checked`)."""
    first, count, executor, seconds = checked
    if executor == Processes(1) or (count <= 1 and isinstance(executor, Processes)):
        for text in _game_texts(run, first, count):
            yield (text.encode() if encoded else text), 1
        return
    size = _block_size(count, executor.workers, seconds)
    blocks = range(-(-count // size))  # made as needed: flat in memory for any count
    block_text = functools.partial(
        _block_text, run=run, first=first, count=count, size=size, encoded=encoded
    )
    if views and isinstance(executor, Processes):
        texts = executor.map(block_text, blocks, views=True)
    else:
        texts = executor.map(block_text, blocks)
    try:
        for block, data in zip(blocks, texts, strict=True):
            yield data, min(size, count - block * size)
    except TaskError as err:
        start = first + err.item * size
        games = range(start, min(start + size, first + count))
        raise BlockError(games, game_seed(run.seed, start), str(err)) from None
    finally:
        texts.close()


def auto_jobs(games: int, seconds_per_game: float) -> int:
    """Return the processes to use for ``games`` games when the user does not say.

    ``seconds_per_game``: an estimate of one game's cost in one process (see
    :func:`kow.players.game_seconds`). One process per CPU that this process may run on,
    but no more than games, and only as many as each get at least
    :func:`~kow.runs._pool.start_seconds` of work (0.03 s where processes fork): a process
    costs about that much to start, so 100 games of ``heuristic`` bots stay in one, while
    20 games of a ``search`` bot (8 s) take every CPU.

    ``games`` may be any count of like pieces of work (``kow analyze`` passes decisions),
    0 included. Raises :class:`~kow.settings.SettingError` when it is not an int 0 or more
    and :class:`ValueError` for a cost that is not a number of seconds, 0 or more.
    """
    games = check_int("games", games, lo=0, hi=None, what="a number of games")
    _check_seconds(seconds_per_game)
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    worth = games * seconds_per_game / start_seconds()
    return max(1, min(cpus, games, int(worth)))


BLOCK_SECONDS = 2.0
"""The most work in one block of costly games, in seconds of one process (estimated): a
block is written whole or not at all, so a stop keeps the blocks done and progress moves
a block at a time."""


def _block_size(count: int, jobs: int, seconds_per_game: float = 0.0) -> int:
    """Return games per block: enough to make the hand-over cheap, small to keep memory low.

    About 8 blocks per process, so the processes finish close together, at most 200
    games (about 1 MB of text) per block, and at most :data:`BLOCK_SECONDS` of estimated
    work (``seconds_per_game`` a game), but never below one game.

    >>> _block_size(3200, 2), _block_size(3200, 2, seconds_per_game=1.5)
    (200, 1)
    """
    size = min(200, -(-count // (jobs * 8)))
    if seconds_per_game > 0:
        size = min(size, int(BLOCK_SECONDS / seconds_per_game))
    return max(1, size)


def _block_text(
    block: int, *, run: Run, first: int, count: int, size: int, encoded: bool = False
) -> str | bytes:
    """Return the text of block ``block`` (0-based) of games ``first..first+count-1``
    (``encoded``: UTF-8 encoded, as the worker hands it over)."""
    start = block * size
    text = _games_text(run, first + start, min(size, count - start))
    return text.encode() if encoded else text
