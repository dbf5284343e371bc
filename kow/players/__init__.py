"""Players: the one interface, and the bot kinds by name."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .base import Player
from .heuristic import HeuristicBot
from .ismcts import ISMCTS_ITERATIONS, IsmctsBot
from .random_bot import RandomBot
from .search import DEFAULT_ITERATIONS, SearchBot

__all__ = [
    "BOT_KINDS",
    "HeuristicBot",
    "IsmctsBot",
    "Player",
    "RandomBot",
    "SearchBot",
    "game_seconds",
    "make_bot",
]

BOT_KINDS: dict[str, Callable[[str, random.Random], Player]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
    "ismcts": IsmctsBot,
}
"""Bot constructors by kind: each takes ``(name, rng)``."""


def make_bot(
    kind: str,
    name: str,
    rng: random.Random,
    *,
    search_iterations: int | None = None,
    ismcts_iterations: int | None = None,
) -> Player:
    """Return a new bot of ``kind`` named ``name`` drawing chance from ``rng``.

    ``search_iterations`` sets a ``search`` bot's deals per decision and
    ``ismcts_iterations`` an ``ismcts`` bot's iterations per decision (None: their
    defaults); other kinds ignore them. Raises :class:`ValueError` naming the kind and the
    known kinds when it is unknown, or for a bad setting.
    """
    try:
        factory = BOT_KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown bot kind {kind!r}: choose from {', '.join(BOT_KINDS)}") from None
    if kind == "search" and search_iterations is not None:
        return SearchBot(name, rng, iterations=search_iterations)
    if kind == "ismcts" and ismcts_iterations is not None:
        return IsmctsBot(name, rng, iterations=ismcts_iterations)
    return factory(name, rng)


SEAT_SECONDS = 1.5e-6
"""Seconds a seat of any bot kind costs a game, per square of the round-1 hand size."""
SEARCH_SECONDS = 4e-7
"""Seconds a ``search`` seat adds to a game, per deal sampled per decision, per player and
per fourth power of the round-1 hand size."""
ISMCTS_SECONDS = 6e-7
"""Seconds an ``ismcts`` seat adds to a game, per iteration per decision, per player and
per cube of the round-1 hand size (its playouts are the search's, without a loop over
the legal cards)."""


def game_seconds(
    kinds: Sequence[str], start_cards: int, search_iterations: int | None = None
) -> float:
    """Return a rough estimate of the seconds one game of these bots takes in one process.

    ``kinds``: one bot kind per seat; ``start_cards``: the hand size of round 1;
    ``search_iterations``: a ``search`` bot's deals per decision (None: its default).
    Every seat costs :data:`SEAT_SECONDS` times ``start_cards`` squared (about the cards
    it plays); an ``ismcts`` seat adds :data:`ISMCTS_SECONDS` times its iterations, the
    players and ``start_cards`` cubed; a ``search`` seat adds :data:`SEARCH_SECONDS`
    times its iterations, the players and ``start_cards`` to the fourth (its decisions,
    their legal cards, and the length of each playout). Fitted on a 2-core machine of
    2026 with 2 to 7 players and 3 to 20 cards, pure Python: within a factor of 2 of
    the measured time for every setting tried (4 ``heuristic`` bots with 7 cards: 0.3 ms
    a game; one ``search`` bot with them, at 100 iterations: 0.36 s; the ``ismcts``
    term from one such bot, at 1,200 iterations: about 1 s). Enough to tell a run worth
    several processes (see :func:`kow.batch.auto_jobs`), not to plan one.

    >>> round(game_seconds(["heuristic"] * 4, 7) * 1000, 2)
    0.29
    >>> round(game_seconds(["search", "heuristic", "heuristic", "heuristic"], 7), 2)
    0.38
    """
    players = len(kinds)
    iterations = DEFAULT_ITERATIONS if search_iterations is None else search_iterations
    searches = sum(kind == "search" for kind in kinds)
    trees = sum(kind == "ismcts" for kind in kinds)
    return (
        players * SEAT_SECONDS * start_cards**2
        + searches * SEARCH_SECONDS * iterations * players * start_cards**4
        + trees * ISMCTS_SECONDS * ISMCTS_ITERATIONS * players * start_cards**3
    )
