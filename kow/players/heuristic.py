"""The ``heuristic`` bot: plain rules drawn from the strategy tips of the rules text.

Rules text, "Conseils et stratégies":

- one trick is enough to survive, so do not spend high cards on extra tricks;
- keep your best trump for the last trick you will take;
- as trump chooser, name the suit you are longest in;
- on a dog's life, play the single card on the trick where its chance is best, "often
  when an ace of a long suit has been led and you can trump it" (seed 000: "souvent
  lorsqu'un As d'une longue couleur a été joué et que vous pouvez le couper à l'atout").
"""

from __future__ import annotations

import random

from ..cards import Mask, Suit
from ..engine.view import View
from ..events import Action
from .base import Player, check_rng
from .policy import HeuristicPolicy, heuristic_card, heuristic_trump

__all__ = ["HeuristicBot"]


class HeuristicBot(Player):
    """Survive each round with as little as possible, saving sure winners for later.

    Objective: take at least one trick per round, then more where they come cheap. Play,
    for a player still needing a trick:

    1. holding the highest trump still out, keep it and play the cheapest other card: it
       takes a trick whenever it is finally played;
    2. else play the cheapest card sure to win this trick, if any;
    3. else, last to play, the cheapest card that wins; leading, a side-suit card that no
       unseen card beats, or the lowest card of the shortest side suit;
    4. else, on the round's last two tricks, the strongest card that wins for now, or
       otherwise the cheapest card.

    A player that has its trick goes on taking tricks where it is cheap to, since cards do
    not carry over to the next round and each extra trick is one an opponent needed (and
    the most tricks names the next trump): the cheapest sure winner; leading, the highest
    side card; last to play, the cheapest winner; else the strongest winner, or the
    cheapest card when none wins. On a dog's life it plays the card on the first trick it
    wins as the trick stands (trumping a led ace, say, with players still to come), or
    leading when no unseen card beats it, and knocks otherwise: waiting for a surer trick
    loses more dogs than it saves (see :func:`~kow.players.policy.heuristic_card`). Trump
    choice: the longest suit, ties to the higher ranks. Votes (when knocked out) are drawn
    from ``rng``, the generator of the game's bots (see :func:`kow.game.bots_rng`).

    The rules are stated once, over hand masks, in :mod:`kow.players.policy`, which the
    search bot also uses for its rollouts and its model of the other players.
    """

    kind = "heuristic"

    def __init__(self, name: str, rng: random.Random) -> None:
        super().__init__(name)
        self.rng = check_rng(rng)

    card_policy = HeuristicPolicy()
    """Its card decisions: :func:`kow.players.policy.heuristic_play`."""
    card_policy_draws = False

    def choose_trump(self, view: View) -> Suit:
        """Return the allowed suit with the most cards in hand, ties to the higher ranks."""
        return heuristic_trump(view.hand_mask, view.legal)

    def trump_policy(self, allowed: tuple[Suit, ...], hand: Mask) -> Suit:
        """Return the suit of ``allowed`` with the most cards in ``hand`` (a mask), ties
        to the higher sum of ranks, then to the first allowed."""
        return heuristic_trump(hand, allowed)

    def vote(self, view: View) -> Suit:
        """Return a suit drawn uniformly from the allowed ones."""
        return view.legal[int(self.rng.random() * len(view.legal))]

    def play(self, view: View) -> Action:
        """Return a card (or KNOCK) for ``view`` by the rules in the class docstring."""
        assert view.facts is not None, "play is asked only in the play phase"
        return heuristic_card(view.facts)
