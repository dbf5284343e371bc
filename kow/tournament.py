"""Tournaments: bots against each other over many seeded games, with honest error bars.

A tournament of ``games`` games between ``bots`` (one kind per seat) plays each seed of
the run once per rotation of the bots through the seats: game ``i`` uses seed
``game_seed(seed, i // players)`` with the bots turned ``i % players`` seats clockwise,
so every bot plays every seat's cards of a seed (with ``games`` a multiple of the
number of players, every bot meets the same deals). Each game's result depends only on
the seed, the rules and the bots, never on how many processes run the games.

Games end in order: :func:`game_results` yields them as they come and a :class:`Tally`
adds them up, so a tournament stopped early (Ctrl-C) still has the results of games
``0..played-1``, the same as a whole tournament of that many games with the same seed.
:func:`play_tournament` does both at once. The library does no printing; ``kow
tournament`` shows the results.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

from ._pool import ordered_map
from .events import Action, Deal, EventVisitor, RoundEnd
from .game import bots_rng, game_seed, play_game
from .players import Player, make_bot
from .players.search import DEFAULT_ITERATIONS
from .rules import Rules
from .view import View

__all__ = [
    "GameResult",
    "KindResult",
    "Tally",
    "Tournament",
    "game_results",
    "play_tournament",
    "tournament_game",
    "wilson",
]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval ``(low, high)`` of a win rate ``wins / games``.

    ``z`` is the normal quantile (default: 95% two-sided). Returns ``(0.0, 1.0)`` for no
    games. Raises :class:`ValueError` when ``wins`` is outside ``0..games``.

    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if not 0 <= wins <= games:
        raise ValueError(f"wins must be 0 to {games}, not {wins}")
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


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


@dataclass(frozen=True)
class GameResult:
    """One game of a tournament, by bot (the index in the tournament's ``bots``).

    ``index``: the game's number from 0; ``seed``: its seed; ``seats[b]``: bot ``b``'s
    seat; ``winner``: the winning bot; ``rounds[b]``: the round bot ``b`` reached (the
    round it was knocked out in, or the last round played); ``decisions[b]`` and
    ``seconds[b]``: its decisions and the wall-clock seconds they took (the only values
    that vary between runs).
    """

    index: int
    seed: int
    seats: tuple[int, ...]
    winner: int
    rounds: tuple[int, ...]
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]


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
    index: int,
    search_iterations: int | None = None,
) -> GameResult:
    """Play game ``index`` of the tournament with run seed ``seed`` and return its result.

    See the module docstring for the seed and the rotation of ``bots`` (one kind per
    seat). Raises :class:`ValueError` for an unknown kind or a wrong count, and
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
    players = [
        _Timed(
            make_bot(
                bots[bot_at[s]],
                f"{bots[bot_at[s]]}-{s}",
                rng,
                search_iterations=search_iterations,
            )
        )
        for s in range(n)
    ]
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
    rules: Rules,
    bots: tuple[str, ...],
    seed: int,
    iterations: int | None,
    games: int,
    size: int,
    chunk: int,
) -> list[GameResult]:
    """Play chunk ``chunk`` (0-based): games ``chunk*size`` up to ``size`` more, below ``games``."""
    start = chunk * size
    return [
        tournament_game(rules, bots, seed, i, iterations)
        for i in range(start, min(games, start + size))
    ]


@dataclass(frozen=True)
class KindResult:
    """The results of one bot kind, over all the seats it held in every game.

    ``games``: seat-games played (a kind in two seats counts two per game); ``wins``;
    ``win_rate`` and its 95% Wilson interval ``low``..``high``; ``mean_round``: mean
    round reached; ``mean_decision_ms``: mean wall-clock milliseconds per decision
    (``decisions`` in all). With no seat-game played (a tournament stopped before its
    first game ended) the rates, the interval and the means are None, not 0: there is
    nothing to measure; likewise ``mean_decision_ms`` with no decision.
    """

    kind: str
    games: int
    wins: int
    win_rate: float | None
    low: float | None
    high: float | None
    mean_round: float | None
    decisions: int
    mean_decision_ms: float | None

    def to_dict(self) -> dict[str, Any]:
        """Return the result as a JSON-ready dict."""
        return {
            "kind": self.kind,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": None if self.low is None else [self.low, self.high],
            "mean_round": self.mean_round,
            "decisions": self.decisions,
            "mean_decision_ms": self.mean_decision_ms,
        }


@dataclass(frozen=True)
class Tournament:
    """A tournament's results: its settings, the totals of each bot, and maybe every game.

    ``played`` is the number of games (games ``0..played-1``); ``totals[b]`` sums bot
    ``b``'s (0-based, in the order of ``bots``) games, wins, rounds reached, decisions
    and seconds deciding over them; ``games`` holds each game's :class:`GameResult` in
    order, or nothing when the tournament was run with ``keep_games=False``;
    ``planned``: the games asked for (None: ``played``). A tournament stopped early
    has played fewer than planned: it is :attr:`partial`.
    """

    rules: Rules
    bots: tuple[str, ...]
    seed: int
    search_iterations: int | None
    played: int
    totals: tuple[tuple[int, int, int, int, float], ...]
    games: tuple[GameResult, ...] = ()
    planned: int | None = None

    @property
    def partial(self) -> bool:
        """Whether the tournament stopped before playing every game planned."""
        return self.planned is not None and self.played < self.planned

    def results(self) -> list[KindResult]:
        """Return one :class:`KindResult` per bot kind, in order of first appearance."""
        kinds = list(dict.fromkeys(self.bots))
        out = []
        for kind in kinds:
            games = wins = rounds = decisions = 0
            seconds = 0.0
            for b, k in enumerate(self.bots):
                if k == kind:
                    g, w, r, d, t = self.totals[b]
                    games += g
                    wins += w
                    rounds += r
                    decisions += d
                    seconds += t
            low, high = wilson(wins, games) if games else (None, None)
            out.append(
                KindResult(
                    kind=kind,
                    games=games,
                    wins=wins,
                    win_rate=wins / games if games else None,
                    low=low,
                    high=high,
                    mean_round=rounds / games if games else None,
                    decisions=decisions,
                    mean_decision_ms=1000 * seconds / decisions if decisions else None,
                )
            )
        return out

    def to_dict(self) -> dict[str, Any]:
        """Return the settings and the results by kind as a JSON-ready dict.

        ``games`` is the games played, ``games_planned`` those asked for, and
        ``partial`` whether the tournament stopped before the end.
        """
        return {
            "seed": self.seed,
            "games": self.played,
            "games_planned": self.played if self.planned is None else self.planned,
            "partial": self.partial,
            "bots": list(self.bots),
            "search_iterations": (
                DEFAULT_ITERATIONS if self.search_iterations is None else self.search_iterations
            ),
            "rules": self.rules.to_dict(),
            "results": [r.to_dict() for r in self.results()],
        }


class Tally:
    """The running totals of a tournament, as its games end in order.

    Made with the tournament's settings (see :class:`Tournament`; ``planned``: the games
    asked for); :meth:`add` counts games and :meth:`tournament` gives the results so
    far, at any time. Each :meth:`add` replaces the totals by one assignment, so an
    exception raised from a signal handler (Ctrl-C) anywhere in it leaves them counting
    every game of the calls before, and of this one either all or none: always games
    ``0..played-1`` when the games are added in order.
    """

    def __init__(
        self,
        rules: Rules,
        bots: Sequence[str],
        seed: int,
        search_iterations: int | None,
        planned: int | None = None,
        keep_games: bool = True,
    ) -> None:
        self.rules = rules
        self.bots = tuple(bots)
        self.seed = seed
        self.search_iterations = search_iterations
        self.planned = planned
        self.keep_games = keep_games
        self._games: list[GameResult] = []
        self._counted: tuple[int, tuple[tuple[int, int, int, int, float], ...]] = (
            0,
            tuple((0, 0, 0, 0, 0.0) for _ in self.bots),
        )

    @property
    def played(self) -> int:
        """The games counted so far."""
        return self._counted[0]

    def add(self, done: Sequence[GameResult]) -> None:
        """Count the games ``done``: the next ones in order after those counted."""
        played, totals = self._counted
        new = [list(total) for total in totals]
        for game in done:
            for b, total in enumerate(new):
                total[0] += 1
                total[1] += game.winner == b
                total[2] += game.rounds[b]
                total[3] += game.decisions[b]
                total[4] += game.seconds[b]
        if self.keep_games:
            del self._games[played:]  # any left by an add cut short
            self._games.extend(done)
        self._counted = (
            played + len(done),
            tuple((int(g), int(w), int(r), int(d), float(t)) for g, w, r, d, t in new),
        )  # the one assignment that counts them

    def tournament(self) -> Tournament:
        """Return the results of the games counted so far."""
        played, totals = self._counted
        return Tournament(
            self.rules,
            self.bots,
            self.seed,
            self.search_iterations,
            played,
            totals,
            tuple(self._games[:played]),
            self.planned,
        )


def game_results(
    rules: Rules,
    bots: Sequence[str],
    games: int,
    seed: int,
    jobs: int = 1,
    search_iterations: int | None = None,
) -> Generator[list[GameResult], None, None]:
    """Return an iterator over the results of games ``0..games-1`` in order, a few at a time.

    ``jobs`` processes play the games (1: this process); the results are the same for
    any ``jobs``. Close the iterator (or let an exception pass through it) to stop: the
    worker processes are killed at once (see :func:`kow._pool.ordered_map`). Raises
    :class:`ValueError` for a wrong number of bots, an unknown kind, or ``games`` or
    ``jobs`` below 1; the iterator raises :class:`kow.game.PlayerError` for a bot that
    breaks the rules, and :class:`kow._pool.WorkerError` for a worker that died.
    """
    bots = tuple(bots)
    if len(bots) != rules.players:
        raise ValueError(f"{len(bots)} bots given for {rules.players} seats")
    if games < 1 or jobs < 1:
        raise ValueError("games and jobs must be at least 1")
    for kind in dict.fromkeys(bots):
        make_bot(kind, "check", bots_rng(0))  # raises ValueError for an unknown kind
    size = max(1, min(rules.players, games // (jobs * 8) or 1))
    chunks = range(-(-games // size))  # made as needed, not listed up front
    play = functools.partial(_play_chunk, rules, bots, seed, search_iterations, games, size)
    return ordered_map(play, chunks, min(jobs, len(chunks)))


def play_tournament(
    rules: Rules,
    bots: Sequence[str],
    games: int,
    seed: int,
    jobs: int = 1,
    search_iterations: int | None = None,
    on_progress: Callable[[int], None] | None = None,
    keep_games: bool = True,
) -> Tournament:
    """Play ``games`` games between ``bots`` (one kind per seat) and return the tournament.

    ``jobs`` processes play the games (1: this process); the results are the same for
    any ``jobs``. ``search_iterations`` is passed to every ``search`` bot (None: its
    default). ``on_progress(k)`` is called as each batch of ``k`` games ends. With
    ``keep_games=False`` only the totals are kept, so memory stays flat in ``games``
    (each kept :class:`GameResult` takes about 1 KB). Raises what :func:`game_results`
    raises. To keep the results so far when it is stopped, use :func:`game_results`
    and a :class:`Tally` as ``kow tournament`` does.
    """
    tally = Tally(rules, bots, seed, search_iterations, games, keep_games)
    results = game_results(rules, bots, games, seed, jobs, search_iterations)
    for done in results:
        tally.add(done)
        if on_progress is not None:
            on_progress(len(done))
    return tally.tournament()
