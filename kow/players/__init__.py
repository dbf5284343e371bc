"""Players: the one interface, and the bot kinds by name."""

from __future__ import annotations

import random
from collections.abc import Callable

from .base import Player
from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .search import SearchBot

__all__ = ["BOT_KINDS", "HeuristicBot", "Player", "RandomBot", "SearchBot", "make_bot"]

BOT_KINDS: dict[str, Callable[[str, random.Random], Player]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
}
"""Bot constructors by kind: each takes ``(name, rng)``."""


def make_bot(
    kind: str, name: str, rng: random.Random, *, search_iterations: int | None = None
) -> Player:
    """Return a new bot of ``kind`` named ``name`` drawing chance from ``rng``.

    ``search_iterations`` sets a ``search`` bot's deals per decision (None: its
    default); other kinds ignore it. Raises :class:`ValueError` naming the kind and the
    known kinds when it is unknown, or for a bad setting.
    """
    try:
        factory = BOT_KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown bot kind {kind!r}: choose from {', '.join(BOT_KINDS)}") from None
    if kind == "search" and search_iterations is not None:
        return SearchBot(name, rng, iterations=search_iterations)
    return factory(name, rng)
