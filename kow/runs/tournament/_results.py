"""A tournament's results: each game's (:class:`GameResult`), the running totals
(:class:`Tally`, which a stop leaves whole), and the results by entrant and by seat
(:class:`Tournament`, :class:`KindResult`, :class:`SeatResult`) with their Wilson
intervals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass
from typing import Any, NamedTuple

from ...log import rules_to_log
from ...players import Entrant, check_entrants
from ...players.search import DEFAULT_ITERATIONS
from ...rules import Rules
from ..stats import wilson

__all__ = ["GameResult", "KindResult", "SeatResult", "Tally", "Totals", "Tournament"]


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
