"""Tournaments: bots against each other over many seeded games, with honest error bars.

A tournament of ``games`` games between ``bots`` (one entrant per seat: a bot kind at
its settings, written ``search:iterations=1000`` or just ``heuristic``, see
:class:`kow.players.Entrant`) plays each seed of
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
from typing import Any, NamedTuple

from ..engine.view import View
from ..events import Action, Deal, EventVisitor, RoundEnd, seat_name
from ..game import bots_rng, game_seed, play_game
from ..log import rules_to_log
from ..players import Entrant, Player, check_entrants
from ..players.search import DEFAULT_ITERATIONS
from ..rules import Rules
from .executors import BlockError, Executor, TaskError, check_executor
from .stats import wilson

__all__ = [
    "CSV_COLUMNS",
    "GameResult",
    "KindResult",
    "SeatResult",
    "Tally",
    "Tournament",
    "csv_rows",
    "game_results",
    "play_tournament",
    "seat_table_lines",
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

    See the module docstring for the seed and the rotation of ``bots`` (one entrant per
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


class Totals(NamedTuple):
    """One bot's (or one bot's at one seat) running totals over the games counted."""

    games: int
    wins: int
    rounds: int
    """The rounds reached, summed."""
    decisions: int
    seconds: float
    """The wall-clock seconds its decisions took, summed."""


def _settings(entrant: str, search_iterations: int | None) -> tuple[tuple[str, int], ...]:
    """Return the settings the bots of ``entrant`` play with, defaults included."""
    iterations = Entrant.from_text(entrant).iterations(search_iterations)
    return () if iterations is None else (("iterations", iterations),)


@dataclass(frozen=True)
class KindResult:
    """The results of one entrant, over all the seats it held in every game.

    ``entrant``: its text (``search:iterations=1000``; a kind alone when it gives no
    setting), ``kind`` its bot kind and ``settings`` the ``(name, value)`` settings its
    bots played with, defaults included (``iterations`` for ``search`` and ``ismcts``);
    ``seats``: the seats it holds in each game; ``games``: the games played;
    ``wins``: the games it won (a seat of that entrant won them); ``win_rate``: the wins
    per seat, ``wins / seat_games`` (a fair share is one over the number of players),
    and its 95% Wilson interval ``low``..``high``; ``mean_round``: mean round reached by
    its seats; ``mean_decision_ms``: mean wall-clock milliseconds per decision
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
    entrant: str = ""
    settings: tuple[tuple[str, int], ...] = ()

    @property
    def seat_games(self) -> int:
        """The seats it held over all the games: ``games * seats``, the win rate's base."""
        return self.games * self.seats

    def to_dict(self) -> dict[str, Any]:
        """Return the result as a JSON-ready dict."""
        return {
            "entrant": self.entrant or self.kind,
            "kind": self.kind,
            "settings": dict(self.settings),
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
class SeatResult:
    """The results of one entrant from one seat (``kow tournament --by-seat``).

    ``seat``: 0-based, clockwise (the first dealer is drawn from each game's seed, so a
    seat is not a place relative to the dealer); ``seat_games``: the times the entrant
    held that seat (the win rate's base); ``wins``: the games it won from there;
    ``win_rate`` and its 95% Wilson interval ``low``..``high``, ``mean_round``,
    ``decisions`` and ``mean_decision_ms`` as in :class:`KindResult`, None where no game
    was played from the seat.
    """

    entrant: str
    seat: int
    seat_games: int
    _: KW_ONLY
    wins: int
    win_rate: float | None
    low: float | None
    high: float | None
    mean_round: float | None
    decisions: int
    mean_decision_ms: float | None

    def to_dict(self) -> dict[str, Any]:
        """Return the result as a JSON-ready dict (without the entrant: it is listed under
        its entrant's result)."""
        return {
            "seat": self.seat,
            "seat_games": self.seat_games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": None if self.low is None else [self.low, self.high],
            "mean_round": self.mean_round,
            "decisions": self.decisions,
            "mean_decision_ms": self.mean_decision_ms,
        }


def _summed(totals: Sequence[Totals]) -> Totals:
    """Return the sum of running totals, field by field."""
    return Totals(
        games=sum(t.games for t in totals),
        wins=sum(t.wins for t in totals),
        rounds=sum(t.rounds for t in totals),
        decisions=sum(t.decisions for t in totals),
        seconds=sum((t.seconds for t in totals), 0.0),
    )


@dataclass(frozen=True)
class Tournament:
    """A tournament's results: its settings, the totals of each bot, and maybe every game.

    ``bots``: the entrants' texts in seat order of the first game (``search:iterations=100``
    or a kind alone); ``played`` is the number of games (games ``0..played-1``);
    ``totals[b]`` sums bot ``b``'s (0-based, in the order of ``bots``) games, wins,
    rounds reached, decisions and seconds deciding over them, and ``seat_totals[b][s]``
    the same over the games it played from seat ``s`` (empty: not kept); ``games`` holds
    each game's :class:`GameResult` in order, or nothing when the tournament was run with
    ``keep_games=False``; ``planned``: the games asked for (None: ``played``). A
    tournament stopped early has played fewer than planned: it is :attr:`partial`.
    """

    rules: Rules
    bots: tuple[str, ...]
    seed: int
    _: KW_ONLY
    search_iterations: int | None
    played: int
    totals: tuple[Totals, ...]
    games: tuple[GameResult, ...] = ()
    planned: int | None = None
    seat_totals: tuple[tuple[Totals, ...], ...] = ()

    @property
    def partial(self) -> bool:
        """Whether the tournament stopped before playing every game planned."""
        return self.planned is not None and self.played < self.planned

    def entrants(self) -> list[str]:
        """Return the entrants, each once, in order of first appearance in ``bots``."""
        return list(dict.fromkeys(self.bots))

    def results(self) -> list[KindResult]:
        """Return one :class:`KindResult` per entrant, in order of first appearance.

        Bots of the same entrant (the same kind at the same settings) are counted together.
        """
        out = []
        for entrant in self.entrants():
            mine = [self.totals[b] for b, e in enumerate(self.bots) if e == entrant]
            summed = _summed(mine)
            seat_games, wins = summed.games, summed.wins
            rounds, decisions, seconds = summed.rounds, summed.decisions, summed.seconds
            low, high = wilson(wins, seat_games) if seat_games else (None, None)
            out.append(
                KindResult(
                    kind=Entrant.from_text(entrant).kind,
                    seats=self.bots.count(entrant),
                    games=self.played,
                    wins=wins,
                    win_rate=wins / seat_games if seat_games else None,
                    low=low,
                    high=high,
                    mean_round=rounds / seat_games if seat_games else None,
                    decisions=decisions,
                    mean_decision_ms=1000 * seconds / decisions if decisions else None,
                    entrant=entrant,
                    settings=_settings(entrant, self.search_iterations),
                )
            )
        return out

    def seat_results(self) -> list[SeatResult]:
        """Return one :class:`SeatResult` per entrant and seat: by entrant in order of
        first appearance, then by seat. Empty when the seat totals were not kept."""
        out: list[SeatResult] = []
        if not self.seat_totals:
            return out
        for entrant in self.entrants():
            bots = [b for b, e in enumerate(self.bots) if e == entrant]
            for seat in range(len(self.bots)):
                summed = _summed([self.seat_totals[b][seat] for b in bots])
                seat_games, wins = summed.games, summed.wins
                rounds, decisions, seconds = summed.rounds, summed.decisions, summed.seconds
                low, high = wilson(wins, seat_games) if seat_games else (None, None)
                out.append(
                    SeatResult(
                        entrant,
                        seat,
                        seat_games,
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

    def to_dict(self, *, by_seat: bool = False) -> dict[str, Any]:
        """Return the settings and the results by entrant as a JSON-ready dict.

        ``games`` is the games played, ``games_planned`` those asked for, and
        ``partial`` whether the tournament stopped before the end; ``search_iterations``
        the deals of a ``search`` entrant that gives none, or None when no entrant is one.
        With ``by_seat``, each result has ``by_seat``: its results from each seat
        (:meth:`SeatResult.to_dict`).
        """
        results = [r.to_dict() for r in self.results()]
        if by_seat:
            seats = self.seat_results()
            for result in results:
                result["by_seat"] = [s.to_dict() for s in seats if s.entrant == result["entrant"]]
        return {
            "seed": self.seed,
            "games": self.played,
            "games_planned": self.played if self.planned is None else self.planned,
            "partial": self.partial,
            "bots": list(self.bots),
            "search_iterations": (  # null when no entrant plays at it
                (DEFAULT_ITERATIONS if self.search_iterations is None else self.search_iterations)
                if any(Entrant.from_text(b) == Entrant("search") for b in self.bots)
                else None
            ),
            "rules": rules_to_log(self.rules),
            "results": results,
        }


CSV_COLUMNS = (
    "entrant", "kind", "iterations", "seat", "seats", "games", "seat_games", "wins",
    "win_rate", "ci95_low", "ci95_high", "mean_round", "decisions", "mean_decision_ms",
    "games_planned", "partial",
)  # fmt: skip
"""The columns of ``kow tournament --csv``, in order: one row per entrant (``seat``
empty), then with ``--by-seat`` one per entrant and seat. ``iterations``: the deals or
iterations per decision of a ``search`` or ``ismcts`` entrant, empty for the other kinds;
``seats`` and ``games`` are the entrant's in every row, ``seat_games`` the base of the win
rate (``games * seats`` in an entrant's row, the times it held the seat in a seat's);
``games_planned`` and ``partial`` (``true`` or ``false``) say in every row whether the
tournament stopped before its end, so that a saved CSV says it too."""


def csv_rows(tournament: Tournament, *, by_seat: bool = False) -> list[list[Any]]:
    """Return the rows of ``tournament`` for ``kow tournament --csv``, the header first.

    The cells are in the order of :data:`CSV_COLUMNS`; None is an empty cell. One row
    per entrant, then with ``by_seat`` one per entrant and seat (:class:`SeatResult`).
    """
    rows: list[list[Any]] = [list(CSV_COLUMNS)]
    results = tournament.results()
    planned = tournament.played if tournament.planned is None else tournament.planned
    run = [planned, "true" if tournament.partial else "false"]
    for r in results:
        rows.append([
            r.entrant, r.kind, dict(r.settings).get("iterations"), None, r.seats, r.games,
            r.seat_games, r.wins, r.win_rate, r.low, r.high, r.mean_round, r.decisions,
            r.mean_decision_ms, *run,
        ])  # fmt: skip
    if by_seat:
        of = {r.entrant: r for r in results}
        for s in tournament.seat_results():
            r = of[s.entrant]
            rows.append([
                r.entrant, r.kind, dict(r.settings).get("iterations"), s.seat, r.seats, r.games,
                s.seat_games, s.wins, s.win_rate, s.low, s.high, s.mean_round, s.decisions,
                s.mean_decision_ms, *run,
            ])  # fmt: skip
    return rows


def table_lines(tournament: Tournament) -> list[str]:
    """Return the results of ``tournament`` as a table for people, a line per entrant.

    The columns: entrant (its kind and settings), seats (held in each game), games, wins,
    win rate (per seat) and its 95% interval, mean round reached, milliseconds per
    decision (three significant digits: a cheap bot's are a few thousandths). A last line
    says how a win rate is counted and what a fair share is. ``n/a`` where there is
    nothing to measure.
    """
    width = max([10, *map(len, tournament.bots)])
    lines = [
        f"{'entrant':<{width}} {'seats':>5} {'games':>6} {'wins':>6} {'win rate':>8}  "
        f"{'95% interval':<15} {'round':>5} {'ms/decision':>11}"
    ]
    for r in tournament.results():
        lines.append(
            f"{r.entrant:<{width}} {r.seats:>5} {r.games:>6} {r.wins:>6} "
            f"{_figure(r.win_rate, '.1%'):>8}  {_interval(r.low, r.high):<15} "
            f"{_figure(r.mean_round, '.2f'):>5} {_ms(r.mean_decision_ms):>11}"
        )
    players = tournament.rules.players
    lines.append(
        f"Win rate: wins per seat held, wins / (games x seats); a fair share is 1/{players}"
        f" = {1 / players:.1%}."
    )
    return lines


def seat_table_lines(tournament: Tournament) -> list[str]:
    """Return the results of each entrant from each seat as a table for people
    (``kow tournament --by-seat``): a title, then a line per entrant and seat.

    The columns: entrant, seat (0-based, clockwise), the games it played from that seat,
    its wins from there, the win rate and its 95% interval, mean round reached,
    milliseconds per decision.
    """
    width = max([10, *map(len, tournament.bots)])
    lines = [
        "By seat (0-based, clockwise; the first dealer is drawn from each game's seed):",
        f"{'entrant':<{width}} {'seat':>5} {'games':>6} {'wins':>6} {'win rate':>8}  "
        f"{'95% interval':<15} {'round':>5} {'ms/decision':>11}",
    ]
    for s in tournament.seat_results():
        lines.append(
            f"{s.entrant:<{width}} {s.seat:>5} {s.seat_games:>6} {s.wins:>6} "
            f"{_figure(s.win_rate, '.1%'):>8}  {_interval(s.low, s.high):<15} "
            f"{_figure(s.mean_round, '.2f'):>5} {_ms(s.mean_decision_ms):>11}"
        )
    return lines


def _interval(low: float | None, high: float | None) -> str:
    """Return a 95% interval as the tables show it, or ``n/a``."""
    if low is None or high is None:
        return "n/a"
    return f"{low:>6.1%} - {high:<6.1%}"


def _ms(value: float | None) -> str:
    """Return milliseconds per decision as the tables show them, or ``n/a``."""
    return "n/a" if value is None else _significant(value)


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
    ``0..played-1`` when the games are added in order. It keeps each bot's totals by
    seat too (``n * n`` of them), for :meth:`Tournament.seat_results`.
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
        self.bots = tuple(check_entrants(bots, len(bots)) if bots else ())
        self.seed = seed
        self.search_iterations = search_iterations
        self.planned = planned
        self.keep_games = keep_games
        self._games: list[GameResult] = []
        zero = Totals(games=0, wins=0, rounds=0, decisions=0, seconds=0.0)
        n = len(self.bots)
        self._counted: tuple[int, tuple[Totals, ...], tuple[tuple[Totals, ...], ...]] = (
            0,
            tuple(zero for _ in self.bots),
            tuple(tuple(zero for _ in range(n)) for _ in range(n)),
        )

    @property
    def played(self) -> int:
        """The games counted so far."""
        return self._counted[0]

    def add(self, done: Sequence[GameResult]) -> None:
        """Count the games ``done``: the next ones in order after those counted."""
        played, totals, seat_totals = self._counted
        new = [list(total) for total in totals]
        by_seat = [[list(total) for total in seats] for seats in seat_totals]
        for game in done:
            for b, total in enumerate(new):
                at = by_seat[b][game.seats[b]]
                for counts in (total, at):  # lists in the order of Totals._fields
                    counts[_GAMES] += 1
                    counts[_WINS] += game.winner == b
                    counts[_ROUNDS] += game.rounds[b]
                    counts[_DECISIONS] += game.decisions[b]
                    counts[_SECONDS] += game.seconds[b]
        if self.keep_games:
            del self._games[played:]  # any left by an add cut short
            self._games.extend(done)
        self._counted = (
            played + len(done),
            tuple(_totals(total) for total in new),
            tuple(tuple(_totals(total) for total in seats) for seats in by_seat),
        )  # the one assignment that counts them

    def tournament(self) -> Tournament:
        """Return the results of the games counted so far."""
        played, totals, seat_totals = self._counted
        return Tournament(
            self.rules,
            self.bots,
            self.seed,
            search_iterations=self.search_iterations,
            played=played,
            totals=totals,
            games=tuple(self._games[:played]),
            planned=self.planned,
            seat_totals=seat_totals,
        )


_GAMES, _WINS, _ROUNDS, _DECISIONS, _SECONDS = range(5)
"""Where each of :class:`Totals`'s fields sits in the lists :meth:`Tally.add` counts in."""
assert Totals._fields == ("games", "wins", "rounds", "decisions", "seconds")


def _totals(counts: list[Any]) -> Totals:
    """Return a bot's running totals, from a list of them (see :data:`_GAMES`), typed."""
    return Totals(
        games=int(counts[_GAMES]),
        wins=int(counts[_WINS]),
        rounds=int(counts[_ROUNDS]),
        decisions=int(counts[_DECISIONS]),
        seconds=float(counts[_SECONDS]),
    )


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
