"""The ``random`` bot: uniform over the legal actions."""

from __future__ import annotations

import random

from ..cards import Mask, Suit
from ..engine.view import TrickFacts, View
from ..events import Action
from .base import Player, check_rng
from .policy import UniformPolicy, uniform_action, uniform_choice

__all__ = ["RandomBot"]


class RandomBot(Player):
    """Choose uniformly among the legal actions, knocks included.

    ``rng`` is the :class:`random.Random` it draws from: in games played by kow, the
    generator that the game's bots share, seeded from the game's seed (see
    :func:`kow.game.bots_rng`); never the global one. Each decision draws once, over the
    legal actions in sorted order (cards, then the knock).
    """

    kind = "random"

    def __init__(self, name: str, rng: random.Random) -> None:
        super().__init__(name)
        self.rng = check_rng(rng)
        self._random = rng.random
        policy = UniformPolicy(rng.random)
        if type(self).card_policy is RandomBot.card_policy:  # not a subclass's own
            # The engine's trick loop asks this for each card (kow simulate): compiled,
            # it costs less than a method.
            self.card_policy = policy  # type: ignore[method-assign]
        if type(self).trump_policy is RandomBot.trump_policy:  # the same, for trump
            self.trump_policy = policy.trump  # type: ignore[method-assign]

    def act(self, view: View) -> Action:
        """Return a legal action of ``view``, each with equal chance."""
        return uniform_choice(self._random, view.legal)

    def card_policy(self, facts: TrickFacts) -> Action:
        """Return a legal card or the knock of ``facts``, each with equal chance, as :meth:`act`
        (:func:`~kow.players.policy.uniform_action`)."""
        return uniform_action(self._random, facts)

    def trump_policy(self, allowed: tuple[Suit, ...], hand: Mask) -> Suit:
        """Return a suit of ``allowed``, each with equal chance, drawn as :meth:`act` does."""
        return uniform_choice(self._random, allowed)

    play = choose_trump = vote = act
