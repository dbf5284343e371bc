"""The ``search`` bot: determinized Monte Carlo search over what it cannot see.

For each decision the bot deals the hidden cards many times in ways that agree with its
view (see :mod:`kow.players.sampling`), keeping the deals that best explain what the
other players did this round (see :mod:`kow.players.inference`), and in each deal plays
every legal action out to the end of the round, every seat then playing as the
``heuristic`` bot would (see :mod:`kow.players.policy`). It keeps the action whose
outcomes score best on average ("perfect-information Monte Carlo", as in Ginsberg's GIB
for bridge; the same deals serve every action, so their comparison is fair). A round's
outcome is scored as the chance of winning the game that it leaves (:func:`round_value`).

It works from its :class:`~kow.engine.view.View` alone, through the engine's public API: the
state it searches is built by :meth:`State.from_view <kow.engine.State.from_view>` from
its own guesses, and each playout is the engine's one trick loop,
:meth:`State.play_round <kow.engine.State.play_round>`, asking
:func:`~kow.players.policy.heuristic_play` for every seat's cards.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..cards import BIT
from ..engine import State
from ..engine.view import Policy, View
from ..events import KNOCK, Action, Phase
from .base import SearchingBot
from .inference import likely_deals
from .policy import HeuristicPolicy
from .sampling import Sampler
from .value import mean, round_value

__all__ = [
    "DEFAULT_ITERATIONS",
    "ActionEstimate",
    "Samples",
    "SearchBot",
    "estimate",
    "sample",
]

DEFAULT_ITERATIONS = 100
"""Deals sampled per decision by default: enough to keep the slowest decision of round 1
within the time set for it. docs/bots.md gives its time per decision and its strength
against each kind."""


class ActionEstimate(NamedTuple):
    """What the search found for one action over its sampled deals.

    ``action``: a card, :data:`~kow.engine.KNOCK` or a suit; ``value``: mean score of the
    round (see :func:`round_value`); ``survival``: share of deals (0..1) in which the
    bot took at least one trick this round; ``deals``: deals played out.
    """

    action: int
    value: float
    survival: float
    deals: int


class Samples(NamedTuple):
    """What each legal action scored in each sampled deal: the search's raw outcomes.

    ``actions``: the legal actions of the view, sorted as in ``view.legal``;
    ``values[i][d]``: the score (0..1, see :func:`round_value`) of ``actions[i]`` in deal
    ``d``; ``survived[i][d]``: whether the seat took a trick this round there. Every
    action is played out in the same deals, so two actions can be compared deal by deal
    (a paired comparison, whose error is much smaller than either mean's).
    """

    actions: tuple[Action, ...]
    values: list[list[float]]
    survived: list[list[bool]]


def sample(view: View, rng: random.Random, iterations: int) -> Samples:
    """Return the outcome of each legal action of ``view`` in ``iterations`` sampled deals.

    Samples deals of the hidden cards from ``rng`` (in the play phase, those that best
    explain the plays seen: :func:`~kow.players.inference.likely_deals`) and plays each
    legal action out in every deal to the end of the round, every seat then playing as
    the ``heuristic`` bot would (judging only from what it could see in that deal), and
    scores the round by :func:`round_value`. Uses only ``view`` and ``rng``. For the play
    and trump phases. Raises :class:`ValueError` in the vote phase, or for
    ``iterations < 1``.
    """
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations}")
    if view.phase is not Phase.PLAY and view.phase is not Phase.TRUMP:
        raise ValueError(f"no search in phase {view.phase.value!r}")
    seat = view.seat
    legal = view.legal
    n = view.rules.players
    values: list[list[float]] = [[] for _ in legal]
    survived: list[list[bool]] = [[] for _ in legal]
    sampler = Sampler(view)
    playing = view.phase is Phase.PLAY
    if playing:
        deals = likely_deals(view, sampler, rng, iterations=iterations)
    else:
        deals = [sampler.deal(rng) for _ in range(iterations)]
    chosen = [[_rollout_policy(action if playing else KNOCK)] * n for action in legal]
    last = len(legal) - 1
    # A round's score depends on its tricks alone (the view is the same): each count of
    # tricks is scored once. Every decision ends its playouts in a few dozen of them.
    scores: dict[tuple[int, ...], float] = {}
    for hands in deals:
        root = State.from_view(view, hands)
        for i, action in enumerate(legal):
            state = root if i == last else root.round_copy()  # the last action plays root
            if playing:
                state.play_round(chosen[i], first=action, ask_forced=False)
            else:  # name trump, then play the round
                state.apply(action)
                state.play_round(chosen[i], ask_forced=False)
            won = state.tricks_won
            tricks = tuple(won)
            score = scores.get(tricks)
            if score is None:
                score = scores[tricks] = round_value(won, seat, view)
            values[i].append(score)
            survived[i].append(won[seat] > 0)
    return Samples(legal, values, survived)


def estimate(view: View, rng: random.Random, iterations: int) -> list[ActionEstimate]:
    """Return an estimate for each legal action of ``view`` (play or trump phase).

    The means of :func:`sample`'s outcomes, one :class:`ActionEstimate` per action in the
    order of ``view.legal``. Uses only ``view`` and ``rng``. Raises :class:`ValueError`
    in the vote phase, or for ``iterations < 1``.
    """
    found = sample(view, rng, iterations)
    return [
        ActionEstimate(a, mean(found.values[i]), sum(found.survived[i]) / iterations, iterations)
        for i, a in enumerate(found.actions)
    ]


def _rollout_policy(tried: Action) -> Policy:
    """Return the policy of every seat in a playout after the searching seat plays ``tried``.

    It is :func:`~kow.players.policy.heuristic_play`, forgetting the card ``tried``: the
    seats judge as if it were still unseen. kow 0.2.0's playouts did so, and keeping it
    keeps every seeded game of the search bot the same. A knock (or a trump choice,
    given as :data:`~kow.events.KNOCK`) has nothing to forget.
    """
    return HeuristicPolicy(0 if tried == KNOCK else BIT[tried])


class SearchBot(SearchingBot):
    """Choose by determinized Monte Carlo search, from its own view only.

    Objective: win the game, surviving each round first. A round's outcome scores the
    estimated chance of winning the game it leaves (see :func:`round_value`): 0 without
    a trick (knocked out), 1 for a win outright (a sweep, the 1-card round's trick, the
    last one left), and between them a share that grows as others are knocked out and
    with the most tricks (naming the next trump and leading). The search looks no
    further than the end of the round in play; the rest of the game is that estimate.

    - Play (knocks included): the action with the best mean score over ``iterations``
      deals (see :func:`estimate`): deals of the hidden cards that agree with the view
      and best explain the other seats' plays under the ``heuristic`` bot's rules, each
      played out with every seat following those rules. A single legal action is
      played at once.
    - Trump choice: each allowed suit is tried the same way, from the first trick.
    - Votes (knocked out, so nothing at stake): a suit drawn uniformly from ``rng``.

    ``rng`` is the generator it draws from (in kow's games, the one the game's bots share:
    see :func:`kow.game.bots_rng`), its only source of chance; ``iterations`` (at least 1,
    default :data:`DEFAULT_ITERATIONS`) sets the effort, never the clock, so seeded games
    stay reproducible. Raises :class:`ValueError` for ``iterations < 1``.
    """

    kind = "search"

    def __init__(self, name: str, rng: random.Random, iterations: int = DEFAULT_ITERATIONS) -> None:
        super().__init__(name, rng, iterations)

    def search(self, view: View) -> int:
        """Return the action with the best estimated score (see :func:`estimate`)."""
        found = estimate(view, self.rng, self.iterations)
        return max(found, key=lambda e: e.value).action
