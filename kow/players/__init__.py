"""Players: the one interface, and the bot kinds by name."""

from __future__ import annotations

import random
from collections.abc import Callable

from .base import Player
from .heuristic import HeuristicBot
from .random_bot import RandomBot

__all__ = ["BOT_KINDS", "HeuristicBot", "Player", "RandomBot", "make_bot"]

BOT_KINDS: dict[str, Callable[[str, random.Random], Player]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}
"""Bot constructors by kind: each takes ``(name, rng)``."""


def make_bot(kind: str, name: str, rng: random.Random) -> Player:
    """Return a new bot of ``kind`` named ``name`` drawing chance from ``rng``.

    Raises :class:`ValueError` naming the kind and the known kinds when it is unknown.
    """
    try:
        factory = BOT_KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown bot kind {kind!r}: choose from {', '.join(BOT_KINDS)}") from None
    return factory(name, rng)
