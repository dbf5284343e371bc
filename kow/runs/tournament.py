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
from dataclasses import KW_ONLY, dataclass
from typing import Any

from ..engine.view import View
from ..events import Action, Deal, EventVisitor, RoundEnd
from ..game import bots_rng, game_seed, play_game
from ..players import Player, make_bot, seat_bots
from ..players.search import DEFAULT_ITERATIONS
from ..rules import Rules
from ._pool import ordered_map
from .stats import wilson

__all__ = [
    "GameResult",
    "KindResult",
    "Tally",
    "Tournament",
    "game_results",
    "play_tournament",
    "table_lines",
    "tournament_game",
]


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
    _: KW_ONLY
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
    *,
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
    kinds = [bots[bot_at[s]] for s in range(n)]
    players = [_Timed(bot) for bot in seat_bots(kinds, rng, search_iterations=search_iterations)]
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


@dataclass(frozen=True)
class KindResult:
    """The results of one bot kind, over all the seats it held in every game.

    ``seats``: the seats it holds in each game; ``games``: the games played;
    ``wins``: the games it won (a seat of that kind won them); ``win_rate``: the wins per
    seat, ``wins / seat_games`` (a fair share is one over the number of players), and its
    95% Wilson interval ``low``..``high``; ``mean_round``: mean round reached by its
    seats; ``mean_decision_ms``: mean wall-clock milliseconds per decision
    (``decisions`` in all). With no game played (a tournament stopped before its first
    game ended) the rates, the interval and the means are None, not 0: there is nothing
    to measure; likewise ``mean_decision_ms`` with no decision.
    """

    kind: str
    seats: int
    games: int
    _: KW_ONLY
    wins: int
    win_rate: float | None
    low: float | None
    high: float | None
    mean_round: float | None
    decisions: int
    mean_decision_ms: float | None

    @property
    def seat_games(self) -> int:
        """The seats it held over all the games: ``games * seats``, the win rate's base."""
        return self.games * self.seats

    def to_dict(self) -> dict[str, Any]:
        """Return the result as a JSON-ready dict."""
        return {
            "kind": self.kind,
            "seats": self.seats,
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
    _: KW_ONLY
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
            seat_games = wins = rounds = decisions = 0
            seconds = 0.0
            for b, k in enumerate(self.bots):
                if k == kind:
                    g, w, r, d, t = self.totals[b]
                    seat_games += g
                    wins += w
                    rounds += r
                    decisions += d
                    seconds += t
            low, high = wilson(wins, seat_games) if seat_games else (None, None)
            out.append(
                KindResult(
                    kind=kind,
                    seats=self.bots.count(kind),
                    games=self.played,
                    wins=wins,
                    win_rate=wins / seat_games if seat_games else None,
                    low=low,
                    high=high,
                    mean_round=rounds / seat_games if seat_games else None,
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


def table_lines(tournament: Tournament) -> list[str]:
    """Return the results of ``tournament`` as a table for people, a line per bot kind.

    The columns: kind, seats (held in each game), games, wins, win rate (per seat) and
    its 95% interval, mean round reached, milliseconds per decision (three significant
    digits: a cheap bot's are a few thousandths). A last line says how a win rate is
    counted and what a fair share is. ``n/a`` where there is nothing to measure.
    """
    lines = [
        f"{'kind':<10} {'seats':>5} {'games':>6} {'wins':>6} {'win rate':>8}  "
        f"{'95% interval':<15} {'round':>5} {'ms/decision':>11}"
    ]
    for r in tournament.results():
        interval = "n/a"
        if r.low is not None and r.high is not None:
            interval = f"{r.low:>6.1%} - {r.high:<6.1%}"
        ms = "n/a" if r.mean_decision_ms is None else _significant(r.mean_decision_ms)
        lines.append(
            f"{r.kind:<10} {r.seats:>5} {r.games:>6} {r.wins:>6} {_figure(r.win_rate, '.1%'):>8}  "
            f"{interval:<15} {_figure(r.mean_round, '.2f'):>5} {ms:>11}"
        )
    players = tournament.rules.players
    lines.append(
        f"Win rate: wins per seat held, wins / (games x seats); a fair share is 1/{players}"
        f" = {1 / players:.1%}."
    )
    return lines


def _figure(value: float | None, spec: str) -> str:
    """Return ``value`` formatted by ``spec``, or ``n/a`` for None (no game to measure)."""
    return "n/a" if value is None else format(value, spec)


def _significant(value: float, digits: int = 3) -> str:
    """Return ``value`` (not negative) with ``digits`` significant digits, at least, and
    no exponent.

    >>> _significant(0.000461961), _significant(0.0183), _significant(5.2), _significant(1523.4)
    ('0.000462', '0.0183', '5.20', '1523')
    >>> _significant(0.0)
    '0'
    """
    if value <= 0:
        return "0"
    places = max(0, digits - 1 - math.floor(math.log10(value)))
    return f"{value:.{places}f}"


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
        *,
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
            search_iterations=self.search_iterations,
            played=played,
            totals=totals,
            games=tuple(self._games[:played]),
            planned=self.planned,
        )


def game_results(
    rules: Rules,
    bots: Sequence[str],
    games: int,
    *,
    seed: int,
    jobs: int = 1,
    search_iterations: int | None = None,
) -> Generator[list[GameResult], None, None]:
    """Return an iterator over the results of games ``0..games-1`` in order, a few at a time.

    ``jobs`` processes play the games (1: this process); the results are the same for
    any ``jobs``. Close the iterator (or let an exception pass through it) to stop: the
    worker processes are killed at once (see :func:`kow.runs._pool.ordered_map`). Raises
    :class:`ValueError` for a wrong number of bots, an unknown kind, or ``games`` or
    ``jobs`` below 1; the iterator raises :class:`kow.game.PlayerError` for a bot that
    breaks the rules, and :class:`kow.runs._pool.WorkerError` for a worker that died.
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
    play = functools.partial(
        _play_chunk, rules=rules, bots=bots, seed=seed, iterations=search_iterations, games=games,
        size=size,
    )  # fmt: skip
    return ordered_map(play, chunks, min(jobs, len(chunks)))


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
    tally = Tally(
        rules, bots, seed=seed, search_iterations=search_iterations, planned=games,
        keep_games=keep_games,
    )  # fmt: skip
    results = game_results(
        rules, bots, games, seed=seed, jobs=jobs, search_iterations=search_iterations
    )
    for done in results:
        tally.add(done)
        if on_progress is not None:
            on_progress(len(done))
    return tally.tournament()
