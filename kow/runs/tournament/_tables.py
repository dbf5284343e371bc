"""A tournament's results shown: the tables of ``kow tournament`` for people (by entrant,
by seat) and the rows of its CSV.
"""

from __future__ import annotations

import math
from typing import Any

from ._results import Tournament

__all__ = ["CSV_COLUMNS", "csv_rows", "seat_table_lines", "table_lines"]


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
