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
:func:`~kow.players.policy.heuristic_card` for every seat's cards.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import NamedTuple

from ..cards import BIT
from ..engine import State
from ..engine.view import Policy, View
from ..events import KNOCK, Action, Phase
from .base import SearchingBot
from .inference import HEURISTIC, SEARCHER, Evidence, Weighed, likely_deals, weighed_deals
from .models import searcher_card
from .policy import heuristic_card
from .sampling import Sampler
from .value import mean, round_value

__all__ = [
    "DEFAULT_ITERATIONS",
    "METHOD",
    "ActionEstimate",
    "Method",
    "check_method",
    "Samples",
    "SearchBot",
    "estimate",
    "sample",
]

DEFAULT_ITERATIONS = 100
"""Deals sampled per decision by default. The slowest decision of round 1 (7 cards, 4
players) of 10 games took 0.047 s installed (compiled) and 0.111 s in pure Python, with
another run busy on both cores (``benchmarks/decision_time.py``): within the 0.25 s set
for it. Its strength against each kind: docs/bots.md."""


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


class Method(NamedTuple):
    """How the search reads the other seats and plays the round out (issue 21's variants).

    - ``inference``: ``"misses"``, the deals that the ``heuristic`` bot's rules explain
      best (:func:`~kow.players.inference.likely_deals`, kow 0.5.0), or ``"mixture"``,
      deals drawn by how likely a mixture of card models makes the plays seen
      (:func:`~kow.players.inference.weighed_deals`);
    - ``others``: in the playouts, every other seat follows ``"heuristic"``, the heuristic
      bot's rules, or with ``"models"`` the card model likeliest in that deal to have made
      its plays (the heuristic's rules or the ``searcher`` model's likeliest card; only
      with ``inference="mixture"``);
    - ``own``: the searching seat's own later turns in the playouts: ``"heuristic"`` or
      ``"searcher"`` (:func:`~kow.players.models.searcher_card`);
    - ``style``: with ``own="heuristic"``, the switches of the heuristic's rules it plays
      its own later turns with (:data:`~kow.players.policy.CASH`, ``GRAB``, ``SAVE``;
      0: none).
    """

    inference: str
    others: str
    own: str
    style: int = 0


METHOD = Method("misses", "heuristic", "heuristic")
"""The search bot's method, kow 0.5.0's: no variant of issue 21 measured stronger
(docs/bots.md, "Reading other players", gives each one's paired figures)."""

INFERENCES = ("misses", "mixture")
"""The values of :attr:`Method.inference`."""
OTHERS = ("heuristic", "models")
"""The values of :attr:`Method.others`."""
OWNS = ("heuristic", "searcher")
"""The values of :attr:`Method.own`."""


def check_method(method: object) -> Method:
    """Return ``method`` if it is a :class:`Method` of known values, else raise.

    Raises :class:`TypeError` when it is not a :class:`Method` (a plain tuple is not), and
    :class:`ValueError` naming the field and its allowed values when one is unknown,
    when ``others="models"`` comes without ``inference="mixture"`` (the models' choice
    is made deal by deal by the mixture), or when ``style`` is not 0 to 7 or comes with
    ``own="searcher"``.
    """
    if not isinstance(method, Method):
        raise TypeError(f"method must be a kow.players.search.Method, not {method!r}")
    for field, allowed in (("inference", INFERENCES), ("others", OTHERS), ("own", OWNS)):
        value = getattr(method, field)
        if value not in allowed:
            raise ValueError(f"Method {field} {value!r} is not one of {', '.join(allowed)}")
    if method.others == "models" and method.inference != "mixture":
        raise ValueError('Method others "models" needs inference "mixture"')
    style = method.style
    if isinstance(style, bool) or not isinstance(style, int) or not 0 <= style <= 7:
        raise ValueError(f"Method style {style!r} is not 0 to 7 (CASH | GRAB | SAVE)")
    if style and method.own != "heuristic":
        raise ValueError('Method style is for own "heuristic" only')
    return method


def sample(
    view: View,
    rng: random.Random,
    iterations: int,
    *,
    method: Method = METHOD,
    priors: Sequence[tuple[float, float, float]] = (),
) -> Samples:
    """Return the outcome of each legal action of ``view`` in ``iterations`` sampled deals.

    Samples deals of the hidden cards from ``rng`` (in the play phase, those that best
    explain the plays seen: :func:`~kow.players.inference.likely_deals`) and plays each
    legal action out in every deal to the end of the round, every seat then playing as
    the ``heuristic`` bot would (judging only from what it could see in that deal), and
    scores the round by :func:`round_value`. ``method`` changes how the deals are drawn
    and the round played out (:class:`Method`); ``priors``, each seat's weights of the
    card models from earlier rounds (:class:`~kow.players.inference.Evidence`), count only
    with ``inference="mixture"``. Uses only ``view``, ``rng`` and ``priors``. For the
    play and trump phases. Raises :class:`ValueError` in the vote phase, for
    ``iterations < 1``, or for an unknown ``method`` (:func:`check_method`).
    """
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations}")
    check_method(method)
    if view.phase is not Phase.PLAY and view.phase is not Phase.TRUMP:
        raise ValueError(f"no search in phase {view.phase.value!r}")
    seat = view.seat
    legal = view.legal
    n = view.rules.players
    values: list[list[float]] = [[] for _ in legal]
    survived: list[list[bool]] = [[] for _ in legal]
    sampler = Sampler(view)
    playing = view.phase is Phase.PLAY
    plain = (HEURISTIC,) * n
    deals: list[Weighed]
    if not playing:
        deals = [Weighed(sampler.deal(rng), 1, plain) for _ in range(iterations)]
    elif method.inference == "mixture":
        deals = weighed_deals(view, sampler, rng, iterations=iterations, priors=priors)
    else:
        likely = likely_deals(view, sampler, rng, iterations=iterations)
        deals = [Weighed(hands, 1, plain) for hands in likely]
    own: Policy | None = None
    if method.own == "searcher":
        own = searcher_card
    policies: dict[tuple[int, tuple[int, ...]], list[Policy]] = {}
    for hands, times, models in deals:
        if method.others != "models":
            models = plain
        root = State.from_view(view, hands)
        for i, action in enumerate(legal):
            key = (i, models)
            chosen = policies.get(key)
            if chosen is None:
                base = _rollout_policy(action if playing else KNOCK)
                chosen = [searcher_card if m == SEARCHER else base for m in models]
                chosen[seat] = own or _rollout_policy(action if playing else KNOCK, method.style)
                policies[key] = chosen
            state = root.round_copy()
            if playing:
                state.play_round(chosen, first=action, ask_forced=False)
            else:  # name trump, then play the round
                state.apply(action)
                state.play_round(chosen, ask_forced=False)
            won = state.tricks_won
            value = round_value(won, seat, view)
            values[i].extend([value] * times)
            survived[i].extend([won[seat] > 0] * times)
    return Samples(legal, values, survived)


def estimate(
    view: View,
    rng: random.Random,
    iterations: int,
    *,
    method: Method = METHOD,
    priors: Sequence[tuple[float, float, float]] = (),
) -> list[ActionEstimate]:
    """Return an estimate for each legal action of ``view`` (play or trump phase).

    The means of :func:`sample`'s outcomes, one :class:`ActionEstimate` per action in the
    order of ``view.legal``. Uses only ``view`` and ``rng``. Raises :class:`ValueError`
    in the vote phase, or for ``iterations < 1``.
    """
    found = sample(view, rng, iterations, method=method, priors=priors)
    return [
        ActionEstimate(a, mean(found.values[i]), sum(found.survived[i]) / iterations, iterations)
        for i, a in enumerate(found.actions)
    ]


def _rollout_policy(tried: Action, style: int = 0) -> Policy:
    """Return the policy of every seat in a playout after the searching seat plays ``tried``.

    It is :func:`~kow.players.policy.heuristic_card`, forgetting the card ``tried``: the
    seats judge as if it were still unseen. kow 0.2.0's playouts did so, and keeping it
    keeps every seeded game of the search bot the same. A knock (or a trump choice,
    given as :data:`~kow.events.KNOCK`) has nothing to forget. ``style``: the switches of
    :func:`~kow.players.policy.heuristic_card` (0: none).
    """
    if style:
        return functools.partial(
            heuristic_card, forget=0 if tried == KNOCK else BIT[tried], style=style
        )
    if tried == KNOCK:
        return heuristic_card
    return functools.partial(heuristic_card, forget=BIT[tried])


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
    stay reproducible. ``method`` (default :data:`METHOD`) sets how it reads the other
    seats and plays its own later turns (:class:`Method`). Raises :class:`ValueError`
    for ``iterations < 1`` and, as :func:`check_method` does, for a method it does not
    know.
    """

    kind = "search"

    def __init__(
        self,
        name: str,
        rng: random.Random,
        iterations: int = DEFAULT_ITERATIONS,
        *,
        method: Method = METHOD,
    ) -> None:
        super().__init__(name, rng, iterations)
        self.method = check_method(method)
        self.evidence: Evidence | None = None
        """What earlier rounds said of each seat's card model (``inference="mixture"``)."""

    def act(self, view: View) -> Action:
        """Note ``view`` in :attr:`evidence`, then decide as every searching bot does."""
        if self.method.inference == "mixture":
            if self.evidence is None:
                self.evidence = Evidence(view.rules.players)
            self.evidence.see(view)
        return super().act(view)

    def search(self, view: View) -> int:
        """Return the action with the best estimated score (see :func:`estimate`)."""
        priors = () if self.evidence is None else self.evidence.priors()
        found = estimate(view, self.rng, self.iterations, method=self.method, priors=priors)
        return max(found, key=lambda e: e.value).action
