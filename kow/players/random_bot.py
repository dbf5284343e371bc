"""The ``random`` bot: uniform over the legal actions."""

from __future__ import annotations

import random

from ..engine import View
from .base import Player

__all__ = ["RandomBot"]


class RandomBot(Player):
    """Choose uniformly among the legal actions, knocks included.

    ``rng`` is the :class:`random.Random` it draws from: in games played by kow, the
    generator that the game's bots share, seeded from the game's seed (see
    :func:`kow.game.bots_rng`); never the global one.
    """

    kind = "random"

    def __init__(self, name: str, rng: random.Random) -> None:
        super().__init__(name)
        self.rng = rng

    def act(self, view: View) -> int:
        """Return a legal action of ``view``, each with equal chance."""
        legal = view.legal
        return legal[int(self.rng.random() * len(legal))]

    def play_fast(
        self,
        legal: tuple[int, ...],
        hand: int,
        seen: int,
        best: int,
        led: int,
        to_come: bool,
        won: int,
        tricks_left: int,
        trump: int,
    ) -> int:
        """Return an action of ``legal``, each with equal chance (see ``Player.play_fast``)."""
        return legal[int(self.rng.random() * len(legal))]

    def choose_trump_fast(self, allowed: tuple[int, ...], hand: int) -> int:
        """Return a suit of ``allowed``, each with equal chance, drawn as :meth:`act` does."""
        return allowed[int(self.rng.random() * len(allowed))]

    play = choose_trump = vote = act
