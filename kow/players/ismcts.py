"""The ``ismcts`` bot: information-set Monte Carlo tree search (SO-ISMCTS).

Single-observer ISMCTS as Cowling, Powley and Whitehouse describe it ("Information Set
Monte Carlo Tree Search", IEEE Transactions on Computational Intelligence and AI in
Games 4(2), 2012), whose demonstration game is Knock-Out Whist. One tree is grown over
the actions of every seat, from the searching seat's information set. Each iteration:

1. **Determinize**: deal the hidden cards once, in a way that agrees with the view
   (:class:`~kow.players.sampling.Sampler`: counts and voids; or, for the ``search`` bot,
   the deals that best explain the plays seen: :mod:`kow.players.inference`).
2. **Select**: from the root, while every action legal in this deal has a node, move to
   the child that maximises UCB1 with availability counts, ``mean + c * sqrt(ln(a) /
   n)``: ``mean`` the mean reward of the seat that chose it, ``n`` its visits, ``a`` how
   many times it was legal when its parent was visited (an action legal in only some
   deals is not penalised for the others).
3. **Expand**: add one action legal in this deal that has no node yet (drawn at random).
4. **Simulate**: play the round out through the engine's trick loop
   (:meth:`State.play_round <kow.engine.State.play_round>`) with a rollout policy:
   uniform play for the ``ismcts`` bot, the ``heuristic`` bot's rules for ``search``.
5. **Back-propagate**: each node on the path gains the reward of the seat that chose its
   action: that seat's estimated chance of winning the game after the round
   (:func:`~kow.players.value.round_value`).

The action chosen is the root's most visited child. Every move is made by the engine
(:meth:`State.apply <kow.engine.State.apply>`), from a state built from the view and
the guessed hands alone (:meth:`State.from_view <kow.engine.State.from_view>`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ..engine import State
from ..engine.view import Policy, TrickFacts, View, legal_actions_of
from ..events import Action, Phase
from .base import SearchingBot
from .sampling import Sampler
from .value import round_value

__all__ = [
    "EXPLORATION",
    "ISMCTS_ITERATIONS",
    "IsmctsBot",
    "Tree",
    "random_policy",
    "tree_search",
]

ISMCTS_ITERATIONS = 1200
"""Iterations per decision of the ``ismcts`` bot by default: about as many as Cowling et
al. give Knock-Out Whist."""
EXPLORATION = 0.7
"""UCB1's exploration constant ``c`` for rewards in 0..1 (Cowling et al. use 0.7)."""


def random_policy(rng: random.Random) -> Policy:
    """Return a rollout policy that plays uniformly among the legal cards and the knock.

    Draws once per decision from ``rng`` (a single legal card is played by the engine
    unasked in a playout, see ``ask_forced``).
    """
    rnd = rng.random

    def play(facts: TrickFacts) -> Action:
        legal = legal_actions_of(facts)
        return legal[int(rnd() * len(legal))]

    return play


class _Node:
    """A node of the tree: the action that led to it and what it earned.

    ``mover``: the seat that chose the action; ``visits``: iterations through it;
    ``available``: iterations in which its action was legal at its parent; ``total``:
    the sum of ``mover``'s rewards; ``children``: by action.
    """

    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.children: dict[Action, _Node] = {}


class Tree:
    """The outcome of a search: the root's children, by action.

    ``visits[a]``: iterations through action ``a`` at the root; ``mean[a]``: the searching
    seat's mean reward (0..1) after ``a``; ``iterations``: iterations run.
    """

    def __init__(self, root: _Node, iterations: int) -> None:
        self.visits = {a: c.visits for a, c in sorted(root.children.items())}
        self.mean = {
            a: (c.total / c.visits if c.visits else 0.0) for a, c in sorted(root.children.items())
        }
        self.iterations = iterations

    def best(self) -> Action:
        """Return the most visited action, ties to the better mean, then the lower action."""
        return max(self.visits, key=lambda a: (self.visits[a], self.mean[a], -a))


def tree_search(
    view: View,
    rng: random.Random,
    iterations: int,
    *,
    deals: Callable[[int], list[list[int]]] | None = None,
    rollout: Callable[[int], list[Policy]] | None = None,
    exploration: float = EXPLORATION,
) -> Tree:
    """Run ``iterations`` iterations of SO-ISMCTS from ``view`` (play or trump phase).

    ``deals(k)`` returns ``k`` determinizations (hands as masks by seat, the view's own
    hand at its seat); by default uniform deals that agree with the view's counts and
    voids (:class:`~kow.players.sampling.Sampler`), drawn from ``rng``. ``rollout(i)``
    returns the policies, one per seat, of iteration ``i``'s playout; by default uniform
    play (:func:`random_policy`). Rewards are :func:`~kow.players.value.round_value`
    of each seat. Uses only ``view`` and ``rng``.

    Raises :class:`ValueError` for ``iterations < 1`` or outside the play and trump phases.
    """
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations}")
    if view.phase is not Phase.PLAY and view.phase is not Phase.TRUMP:
        raise ValueError(f"no search in phase {view.phase.value!r}")
    players = view.rules.players
    rnd = rng.random
    if deals is None:
        sampler = Sampler(view)
        hands_list = [sampler.deal(rng) for _ in range(iterations)]
    else:
        hands_list = deals(iterations)
    if rollout is None:
        uniform = [random_policy(rng)] * players
        rollout = lambda _i: uniform  # noqa: E731
    root = _Node(-1)
    walk = _Walk(rnd, exploration)
    policies = [walk.policy] * players
    seats = range(players)
    for i, hands in enumerate(hands_list):
        state = State.from_view(view, hands)
        walk.start(root, rollout(i))
        if state.phase is Phase.TRUMP:  # the root is a trump choice: the walk's first step
            state.apply(walk.step(state.legal_actions(), state.turn))
        if state.phase is Phase.PLAY:
            state.play_round(policies)
        won = state.tricks_won
        rewards = [round_value(won, s, view) for s in seats]
        for node in walk.path:
            node.visits += 1
            node.total += rewards[node.mover]
    return Tree(root, len(hands_list))


class _Walk:
    """One iteration's way down the tree and out of it, asked for every seat's plays.

    Within the tree it selects (UCB1 with availability counts) until it adds a node;
    from there it plays the rollout policies. As the policy of every seat in the engine's
    trick loop, so each iteration is one :meth:`State.play_round
    <kow.engine.State.play_round>`: every card is played by the engine.
    """

    __slots__ = ("exploration", "in_tree", "node", "path", "rnd", "rollout")

    def __init__(self, rnd: Callable[[], float], exploration: float) -> None:
        self.rnd = rnd
        self.exploration = exploration
        self.node = _Node(-1)
        self.path: list[_Node] = []
        self.in_tree = True
        self.rollout: list[Policy] = []

    def start(self, root: _Node, rollout: list[Policy]) -> None:
        """Begin an iteration at ``root``, playing ``rollout`` once out of the tree."""
        self.node = root
        self.path = []
        self.in_tree = True
        self.rollout = rollout

    def step(self, legal: tuple[Action, ...], mover: int) -> Action:
        """Return ``mover``'s action among ``legal``, selecting or expanding in the tree."""
        children = self.node.children
        untried = []
        for a in legal:
            child = children.get(a)
            if child is None:
                untried.append(a)
            else:
                child.available += 1
        if untried:  # expand one, then leave the tree
            action = untried[int(self.rnd() * len(untried))]
            node = children[action] = _Node(mover)
            node.available = 1
            self.in_tree = False
        else:
            action = legal[0]
            if len(legal) > 1:
                best = -1.0
                c = self.exploration
                for a in legal:
                    child = children[a]
                    score = child.total / child.visits + c * math.sqrt(
                        math.log(child.available) / child.visits
                    )
                    if score > best:
                        best = score
                        action = a
            node = children[action]
        self.node = node
        self.path.append(node)
        return action

    def policy(self, facts: TrickFacts) -> Action:
        """The policy of every seat: a step in the tree, else the rollout's."""
        if self.in_tree:
            return self.step(legal_actions_of(facts), facts.seat)
        legal_mask = facts.legal
        if not facts.may_knock and not legal_mask & (legal_mask - 1):
            return legal_mask.bit_length() - 1  # a single legal card, as a playout plays it
        return self.rollout[facts.seat](facts)


class IsmctsBot(SearchingBot):
    """Choose by SO-ISMCTS with uniform deals and uniform playouts: the yardstick.

    The bot of Cowling, Powley and Whitehouse (2012), the yardstick of docs/bots.md
    (see :func:`tree_search`): ``iterations`` (default :data:`ISMCTS_ITERATIONS`)
    determinizations that agree with its view's counts and voids, UCB1 with availability
    counts, random playouts to the end of the round, rewards the seat's estimated chance
    of winning the game after the round. It knows nothing of how others play.

    Objective: as the ``search`` bot's (:func:`~kow.players.value.round_value`). Trump
    choices are searched like plays; votes (knocked out, nothing at stake) are a suit
    drawn from ``rng``. ``rng`` is its only source of chance (in kow's games, the one the
    game's bots share: :func:`kow.game.bots_rng`); the effort is set in iterations,
    never seconds. Raises :class:`ValueError` for ``iterations < 1``.
    """

    kind = "ismcts"

    def __init__(self, name: str, rng: random.Random, iterations: int = ISMCTS_ITERATIONS) -> None:
        super().__init__(name, rng, iterations)

    def search(self, view: View) -> Action:
        """Return the root action the tree search visited most (see :func:`tree_search`)."""
        return tree_search(view, self.rng, self.iterations).best()
