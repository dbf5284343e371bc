"""A tournament's games played: each seeded game with the bots rotated through the seats
(:func:`tournament_game`), the games in order in blocks on an executor
(:func:`game_results`), and a whole tournament (:func:`play_tournament`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Generator, Sequence

from ...engine.view import View
from ...events import Action, Deal, EventVisitor, RoundEnd, seat_name
from ...game import bots_rng, game_seed, play_game
from ...players import Entrant, Player, check_entrants
from ...rules import Rules
from ..executors import BlockError, Executor, TaskError, check_executor
from ._results import GameResult, Tally, Tournament

__all__ = ["game_results", "play_tournament", "tournament_game"]


class _Timed(Player):
    """Wrap a player, counting its decisions and the seconds it spends on them."""

    def __init__(self, inner: Player) -> None:
        super().__init__(inner.name)
        self.inner = inner
        self.kind = inner.kind
        self.decisions = 0
        self.seconds = 0.0

    def act(self, view: View) -> Action:
        start = time.perf_counter()
        action = self.inner.act(view)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action


class _RoundsReached(EventVisitor):
    """Follow a game's events for the round each seat reached (see :class:`GameResult`)."""

    def __init__(self, players: int) -> None:
        self.round = 0
        self.reached = [0] * players

    def on_deal(self, event: Deal) -> None:
        self.round = event.round

    def on_round_end(self, event: RoundEnd) -> None:
        for seat in event.eliminated:
            self.reached[seat] = self.round

    def result(self) -> list[int]:
        """Return the round each seat reached: the one it was knocked out in, or the last."""
        return [r or self.round for r in self.reached]


def tournament_game(
    rules: Rules,
    bots: Sequence[str],
    seed: int,
    *,
    index: int,
    search_iterations: int | None = None,
) -> GameResult:
    """Play game ``index`` of the tournament with run seed ``seed`` and return its result.

    See :mod:`kow.runs.tournament` for the seed and the rotation of ``bots`` (one entrant per
    seat, as text: ``"search:iterations=100"``; ``search_iterations``: the deals of a
    ``search`` entrant that gives none). Raises :class:`ValueError` for an unknown kind,
    a bad setting or a wrong count, and
    :class:`kow.game.PlayerError` when a bot plays an illegal action.
    """
    n = rules.players
    if len(bots) != n:
        raise ValueError(f"{len(bots)} bots given for {n} seats")
    gseed = game_seed(seed, index // n)
    shift = index % n
    seat_of = tuple((b + shift) % n for b in range(n))
    bot_at = [0] * n
    for b, s in enumerate(seat_of):
        bot_at[s] = b
    rng = bots_rng(gseed)
    entrants = [Entrant.from_text(bots[bot_at[s]]) for s in range(n)]
    players = [
        _Timed(e.bot(seat_name(e.kind, s), rng, search_iterations=search_iterations))
        for s, e in enumerate(entrants)
    ]  # in seat order, as kow.players.seat_bots seats them
    state = play_game(rules, players, gseed)
    rounds = _RoundsReached(n)
    rounds.visit(state.events)
    reached = rounds.result()
    assert state.outcome is not None
    return GameResult(
        index=index,
        seed=gseed,
        seats=seat_of,
        winner=bot_at[state.outcome.winner],
        rounds=tuple(reached[seat_of[b]] for b in range(n)),
        decisions=tuple(players[seat_of[b]].decisions for b in range(n)),
        seconds=tuple(players[seat_of[b]].seconds for b in range(n)),
    )


def _play_chunk(
    chunk: int,
    *,
    rules: Rules,
    bots: tuple[str, ...],
    seed: int,
    iterations: int | None,
    games: int,
    size: int,
) -> list[GameResult]:
    """Play chunk ``chunk`` (0-based): games ``chunk*size`` up to ``size`` more, below ``games``."""
    start = chunk * size
    return [
        tournament_game(rules, bots, seed, index=i, search_iterations=iterations)
        for i in range(start, min(games, start + size))
    ]


def game_results(
    rules: Rules,
    bots: Sequence[str],
    games: int,
    *,
    seed: int,
    jobs: int = 1,
    search_iterations: int | None = None,
    executor: Executor | None = None,
) -> Generator[list[GameResult], None, None]:
    """Return an iterator over the results of games ``0..games-1`` in order, a few at a time.

    ``jobs`` processes play the games (1: this process); the results are the same for
    any ``jobs``. ``executor`` plays them elsewhere instead, on a Ray cluster say
    (:func:`kow.runs.executors.on_ray`), with the same results; give it or ``jobs``, not
    both. Close the iterator (or let an exception pass through it) to stop: the worker
    processes are killed at once (see :func:`kow.runs._pool.ordered_map`), the Ray tasks
    cancelled. Raises :class:`ValueError` for a wrong number of bots, an unknown kind or
    a bad setting (:meth:`kow.players.Entrant.from_text`), ``games`` or ``jobs`` below 1,
    or both ``jobs`` and ``executor``; the iterator raises :class:`kow.game.PlayerError`
    for a bot that breaks the rules, :class:`kow.runs._pool.WorkerError` for a worker
    that died, and :class:`kow.runs.executors.BlockError` for games whose Ray task failed.
    """
    bots = tuple(bots)
    if len(bots) != rules.players:
        raise ValueError(f"{len(bots)} bots given for {rules.players} seats")
    if games < 1 or jobs < 1:
        raise ValueError("games and jobs must be at least 1")
    bots = tuple(check_entrants(bots, len(bots)))  # raises ValueError for a bad entrant
    mapper = check_executor(executor, jobs)
    size = max(1, min(rules.players, games // (mapper.workers * 8) or 1))
    chunks = range(-(-games // size))  # made as needed, not listed up front
    play = functools.partial(
        _play_chunk, rules=rules, bots=bots, seed=seed, iterations=search_iterations, games=games,
        size=size,
    )  # fmt: skip
    return _chunks_played(
        mapper.map(play, chunks), seed=seed, games=games, size=size, players=rules.players
    )


def _chunks_played(
    results: Generator[list[GameResult], None, None],
    *,
    seed: int,
    games: int,
    size: int,
    players: int,
) -> Generator[list[GameResult], None, None]:
    """Yield ``results``, the games of chunks of ``size``; a chunk whose Ray task failed is
    raised as a :class:`~kow.runs.executors.BlockError` naming its games and the first
    one's seed (game ``i``'s deal is ``game_seed(seed, i // players)``)."""
    try:
        yield from results
    except TaskError as err:
        start = err.item * size
        chunk = range(start, min(start + size, games))
        raise BlockError(chunk, game_seed(seed, start // players), str(err)) from None
    finally:
        results.close()


def play_tournament(
    rules: Rules,
    bots: Sequence[str],
    games: int,
    *,
    seed: int,
    jobs: int = 1,
    search_iterations: int | None = None,
    on_progress: Callable[[int], None] | None = None,
    keep_games: bool = True,
    executor: Executor | None = None,
) -> Tournament:
    """Play ``games`` games between ``bots`` (one entrant per seat: ``"heuristic"``,
    ``"search:iterations=1000"``) and return the tournament.

    ``jobs`` processes play the games (1: this process), or ``executor`` (see
    :func:`game_results`); the results are the same for any. ``search_iterations`` is
    passed to every ``search`` entrant that gives no ``iterations`` of its own (None: its
    default). ``on_progress(k)`` is called as each batch of ``k`` games ends. With
    ``keep_games=False`` only the totals are kept, so memory stays flat in ``games``
    (each kept :class:`GameResult` takes about 1 KB).
    Raises what :func:`game_results` raises. To keep the results so far when it is
    stopped, use :func:`game_results` and a :class:`Tally` as ``kow tournament`` does.
    """
    tally = Tally(
        rules, bots, seed=seed, search_iterations=search_iterations, planned=games,
        keep_games=keep_games,
    )  # fmt: skip
    results = game_results(
        rules, bots, games, seed=seed, jobs=jobs, search_iterations=search_iterations,
        executor=executor,
    )  # fmt: skip
    for done in results:
        tally.add(done)
        if on_progress is not None:
            on_progress(len(done))
    return tally.tournament()
