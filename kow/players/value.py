"""What a round's outcome is worth: a seat's estimated chance of winning the game after it.

The score of the search bots' playouts (:mod:`kow.players.search`,
:mod:`kow.players.ismcts`) and of ``kow analyze``: surviving first, then a share of the
game that grows as others are knocked out and with naming the next trump.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..engine.view import View

__all__ = ["CHOOSER", "DOG", "chooser_win", "mean", "round_value"]

CHOOSER: dict[tuple[int, int], float] = {
    (2, 1): 0.88, (2, 2): 0.71, (2, 3): 0.67, (2, 4): 0.61, (2, 5): 0.57, (2, 6): 0.53,
    (3, 2): 0.58, (3, 3): 0.53, (3, 4): 0.49, (3, 5): 0.44, (3, 6): 0.41,
    (4, 2): 0.45, (4, 3): 0.42, (4, 4): 0.41, (4, 5): 0.38, (4, 6): 0.35,
    (5, 4): 0.36, (5, 5): 0.31, (5, 6): 0.30,
    (6, 5): 0.29, (6, 6): 0.26,
    (7, 6): 0.23,
}  # fmt: skip
"""``CHOOSER[k, h]``: the chance that the player who names trump and leads a round of
``h`` cards among ``k`` players goes on to win the game; each other player has
``(1 - CHOOSER[k, h]) / (k - 1)``. Measured over 15,000 games of ``heuristic`` bots for
each player count (default rules, 7 cards); rare cells smoothed by hand."""
DOG = 0.3
"""Share of an even chance of winning the game credited to a round without a trick
that may earn a dog's life (one card next round: a slim second chance)."""

_CELLS = {
    k: (min(h for kk, h in CHOOSER if kk == k), max(h for kk, h in CHOOSER if kk == k))
    for k in range(2, 8)
}
"""``_CELLS[k]``: the fewest and most cards of :data:`CHOOSER`'s cells for ``k`` players."""


def chooser_win(k: int, h: int) -> float:
    """Return :data:`CHOOSER` for ``k`` players (2..7) and ``h`` cards, nearest cell if absent."""
    k = min(max(k, 2), 7)
    low, high = _CELLS[k]
    return CHOOSER[k, min(max(h, low), high)]


def round_value(tricks: Sequence[int], seat: int, view: View) -> float:
    """Return ``seat``'s estimated chance (0..1) of winning the game after a round.

    ``tricks``: tricks won by seat in the round of ``view``. The rules' facts come from the
    view; the shares are the bots' estimates, tuned by measuring (docs/bots.md).

    - Winning the game outright scores 1: the 1-card round's trick, a sweep under
      ``sweep_wins`` (rules text, 'Déroulement du jeu' 6), or being the only one with a
      trick when nobody is granted a dog's life.
    - A round without a trick scores 0, or :data:`DOG` ``/ (k + 1)`` for ``k`` seats with
      a trick when it grants ``seat`` a dog's life: ``seat`` is in ``view.dogs_life_open``
      (the engine's own statement of the rule, seed 002) and nobody swept.
    - Otherwise the ``k`` seats with a trick share what the dog's lives granted leave, and
      the one with the most tricks, who names the next trump and leads, is worth
      :data:`CHOOSER` of it (a tie for the most shares it, as the tie cut would).
    """
    mine = tricks[seat]
    rules = view.rules
    hand_size = view.hand_size
    in_round = view.in_round
    survivors = sum(1 for s in in_round if tricks[s] > 0)
    swept = rules.sweep_wins and survivors == 1 and hand_size in tricks
    if mine == 0:
        if swept or seat not in view.dogs_life_open:
            return 0.0
        return DOG / (survivors + 1)
    if hand_size == 1 or swept:
        return 1.0
    dogs = sum(1 for s in view.dogs_life_open if tricks[s] == 0)
    share = 1.0 - dogs * DOG / (survivors + 1) if dogs else 1.0
    if survivors == 1:
        return share
    even = share / survivors
    edge = 0.0
    if rules.trump == "winner-chooses":
        edge += 0.5
    if rules.lead == "most-tricks":
        edge += 0.5
    if not edge:
        return even
    top = max(tricks)
    chooser = even + edge * (share * chooser_win(survivors, hand_size - 1) - even)
    other = (share - chooser) / (survivors - 1)
    if mine < top:
        return other
    tied = sum(1 for t in tricks if t == top)
    return (chooser + (tied - 1) * other) / tied


def mean(values: Sequence[float]) -> float:
    """Return the mean of ``values`` (not empty), their sum exactly rounded.

    The sum is :func:`math.fsum`'s, the float nearest the exact sum, the same on every
    Python version and build; the built-in :func:`sum` adds floats with compensation from
    Python 3.12 on and plainly before, so means that should tie or nearly tie came out in
    a different order by version, and a seeded search chose differently. Every
    mean that a seeded choice or ``kow analyze`` compares goes through here. Raises
    :class:`ZeroDivisionError` for no values.

    >>> mean([0.1] * 10)  # sum([0.1] * 10) / 10 is 0.09999999999999999 before 3.12
    0.1
    """
    return math.fsum(values) / len(values)
