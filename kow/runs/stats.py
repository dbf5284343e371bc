"""Statistics of runs: the interval of a win rate, and the normal quantile they use.

Tournaments (:mod:`kow.runs.tournament`) and analysis (:mod:`kow.runs.analysis`) both
report intervals; they read them here, so analysis does not import tournaments.
"""

from __future__ import annotations

import math

from ..settings import MAX_GAMES, check_int

__all__ = ["Z95", "wilson"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval ``(low, high)`` of a win rate ``wins / games``.

    ``z`` is the normal quantile (default: 95% two-sided). Returns ``(0.0, 1.0)`` for no
    games. The interval of no win starts at exactly 0.0, and that of every game won ends
    at exactly 1.0 (as the formula does, without the float rounding of ``centre -
    half``); its bounds are within ``[0, 1]``. Raises :class:`ValueError` when ``wins``
    is outside ``0..games`` or either is not an int (a numpy integer counts as its int;
    a bool does not).

    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    >>> wilson(0, 0)
    (0.0, 1.0)
    >>> wilson(0, 6)[0], wilson(6, 6)[1]
    (0.0, 1.0)
    """
    games = check_int("games", games, lo=0, hi=MAX_GAMES, what="a number of games")
    wins = check_int("wins", wins, lo=0, hi=games, what="a number of wins")
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    low = 0.0 if wins == 0 else max(0.0, centre - half)  # centre == half when p == 0
    high = 1.0 if wins == games else min(1.0, centre + half)  # 1 - centre == half at p == 1
    return (low, high)
