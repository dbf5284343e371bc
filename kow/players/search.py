"""The ``search`` bot: determinized Monte Carlo search over what it cannot see.

For each decision the bot deals the hidden cards many times in ways that agree with its
view (see :mod:`kow.players.sampling`), and in each deal plays every legal action out to
the end of the round with a quick rollout policy. It keeps the action whose outcomes score
best on average ("perfect-information Monte Carlo", as in Ginsberg's GIB for bridge; the
same deals serve every action, so their comparison is fair).

It works from its :class:`~kow.engine.View` alone: the engine state it searches is built
by :meth:`State.from_view <kow.engine.State.from_view>` from its own guesses.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..cards import BIT, FULL_DECK, RANK_OF, SUIT_MASK, SUIT_OF, cards_in
from ..engine import KNOCK, PLAY, State, View
from .base import Player
from .sampling import Sampler, seen_cards

__all__ = ["DEFAULT_ITERATIONS", "ActionEstimate", "SearchBot", "estimate", "round_value"]

DEFAULT_ITERATIONS = 100
"""Deals sampled per decision by default: at most about 0.5 s (a 7-card hand's first
lead, on a 2-core machine); most decisions take far less."""

WIN = 2.0
"""Score of a round that wins the game (a sweep, or the last trick of the 1-card round)."""
MOST = 0.5
"""Bonus for the most tricks of a round: the next trump choice (a tie shares it)."""
DOG = 0.25
"""Score of a round without a trick that earns a dog's life (a second chance, not a trick)."""


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


def round_value(tricks: Sequence[int], seat: int, view: View) -> float:
    """Return the score for ``seat`` of a round that ended with ``tricks`` won by seat.

    Surviving comes first: no trick scores 0 (or :data:`DOG` when a dog's life may be
    granted, an estimate since the view does not say who has used theirs). A trick
    scores 1 plus ``1 / k``, ``k`` being the players who took a trick, so knocking others
    out is worth a little, plus :data:`MOST` for the most tricks (the next trump choice
    and lead; shared on a tie); winning the game (a sweep under ``sweep_wins``, or the
    1-card round's trick) scores :data:`WIN`.
    """
    mine = tricks[seat]
    rules = view.rules
    if mine == 0:
        may_dog = rules.dogs_life != "off" and view.hand_size > 1 and seat not in view.dogs_life
        return DOG if may_dog else 0.0
    if mine == view.hand_size and rules.sweep_wins:
        return WIN
    survivors = sum(1 for s in view.in_round if tricks[s] > 0)
    if survivors == 1 and view.hand_size == 1:
        return WIN
    top = max(tricks)
    most = 0.0
    if mine == top and rules.trump == "winner-chooses":
        most = MOST / sum(1 for t in tricks if t == top)
    return 1.0 + 1.0 / survivors + most


def _cheapest(legal: int, trump: int) -> int:
    """Return the lowest-ranked card of ``legal`` outside trump (the lowest trump if none)."""
    side = legal & ~SUIT_MASK[trump] if trump >= 0 else legal
    if not side:
        side = legal
    best = -1
    for suit in range(4):
        m = side & SUIT_MASK[suit]
        if m:
            c = (m & -m).bit_length() - 1
            if best < 0 or RANK_OF[c] < RANK_OF[best]:
                best = c
    return best


def _highest(legal: int, trump: int) -> int:
    """Return the highest-ranked card of ``legal`` outside trump (the highest trump if none)."""
    side = legal & ~SUIT_MASK[trump] if trump >= 0 else legal
    if not side:
        side = legal
    best = -1
    for suit in range(4):
        m = side & SUIT_MASK[suit]
        if m:
            c = m.bit_length() - 1
            if best < 0 or RANK_OF[c] > RANK_OF[best]:
                best = c
    return best


def _winners(legal: int, best: int, trump: int) -> int:
    """Return the mask of ``legal`` cards that beat ``best``, the trick's winning card."""
    bs = SUIT_OF[best]
    above = SUIT_MASK[bs] & ~((BIT[best] << 1) - 1)
    if trump < 0 or bs == trump:
        return legal & above
    return legal & (above | SUIT_MASK[trump])


_ABOVE = tuple(SUIT_MASK[SUIT_OF[c]] & ~((BIT[c] << 1) - 1) for c in range(52))
"""``_ABOVE[card]``: the mask of the higher cards of its suit."""


def rollout(state: State, rnd: Callable[[], float], gone: int = 0, noise: float = 0.1) -> list[int]:
    """Play ``state`` (a search copy) to the end of the round; return tricks won by seat.

    Every seat follows one quick policy, close to the ``heuristic`` bot's, with chance
    ``noise`` of any legal card instead. Each seat judges only from what it could see:
    a card is "boss" when no card the seat has not seen beats it in its suit, ``gone``
    being the mask of cards everyone has seen (played this round, the turned-up card).

    - Needing a trick: keep a boss trump and play the cheapest other card; else the
      cheapest sure winner (a boss trump, a boss when no trump is unseen, any winner
      when last); leading, the cheapest side card; on the last two tricks, the
      strongest winner; ruff with the cheapest winning trump; else the cheapest card.
    - With a trick: the cheapest sure winner; leading, the highest side card; else the
      strongest winner, or the cheapest card.
    - On a dog's life: play the card when it wins the trick so far (always when last,
      half the time otherwise), else knock.
    """
    hands = state.hands
    won = state.tricks_won
    dogs = state.dogs
    trump = state.trump
    tmask = SUIT_MASK[trump] if trump >= 0 else 0
    # The policy only picks legal actions, so skip apply's check: a third of the time.
    apply = state._play
    unknown = FULL_DECK & ~gone
    hand_size = state.hand_size
    while state.phase == PLAY:
        seat = state.turn
        hand = hands[seat]
        led = state.led
        legal = hand
        if led >= 0 and hand & SUIT_MASK[led]:
            legal = hand & SUIT_MASK[led]
        best = state.best
        last = state.pos == len(state.actors) - 1
        if dogs[seat]:
            card = hand.bit_length() - 1
            if state.trick_number < hand_size:
                wins = best >= 0 and bool(_winners(BIT[card], best, trump))
                if not (wins and (last or rnd() < 0.5)):
                    apply(KNOCK)
                    continue
        elif rnd() < noise:
            cards = cards_in(legal)
            card = cards[int(rnd() * len(cards))]
        else:
            others = unknown & ~hand
            w = legal if best < 0 else _winners(legal, best, trump)
            # Sure winners: winning now, and no card to come can beat them.
            if last:
                sure = w
            else:
                sure = 0
                m = w
                while m:
                    low = m & -m
                    c = low.bit_length() - 1
                    if not others & _ABOVE[c] and (
                        low & tmask or not (others & tmask) or not tmask
                    ):
                        sure |= low
                    m ^= low
            if not won[seat]:
                top = (hand & tmask).bit_length() - 1
                if top >= 0 and not others & _ABOVE[top] and legal & ~BIT[top]:
                    card = _cheapest(legal & ~BIT[top], trump)
                elif sure:
                    card = _cheapest(sure, trump)
                elif best < 0:
                    side = legal & ~tmask
                    card = _cheapest(side or legal, trump)
                elif w and hand_size - state.trick_number < 2:
                    card = _strongest(w, trump)
                elif w and led != trump and not w & ~tmask:
                    card = (w & -w).bit_length() - 1
                else:
                    card = _cheapest(legal, trump)
            elif sure:
                card = _cheapest(sure, trump)
            elif best < 0:
                card = _highest(legal, trump)
            elif w:
                card = _strongest(w, trump)
            else:
                card = _cheapest(legal, trump)
        apply(card)
        unknown &= ~BIT[card]
    return won


def _strongest(cards: int, trump: int) -> int:
    """Return the strongest card of ``cards``: the highest trump, else the highest rank."""
    if trump >= 0 and cards & SUIT_MASK[trump]:
        return (cards & SUIT_MASK[trump]).bit_length() - 1
    return _highest(cards, trump)


def _first_leader(view: View) -> int:
    """Return who leads the first trick once trump is named in ``view``'s round.

    Rules text, "Déroulement" 1: the player who took most tricks last round, who is also
    the one naming trump; under ``lead="dealer-left"``, the dealer's left.
    """
    if view.rules.lead == "dealer-left" or view.round == 1:
        n = view.rules.players
        for step in range(1, n + 1):
            s = (view.dealer + step) % n
            if s in view.in_round:
                return s
    return view.seat


def estimate(view: View, rng: random.Random, iterations: int) -> list[ActionEstimate]:
    """Return an estimate for each legal action of ``view`` (play or trump phase).

    Samples ``iterations`` deals of the hidden cards from ``rng`` and plays each legal
    action out in every deal with :func:`rollout`, scoring by :func:`round_value`. Uses
    only ``view`` and ``rng``. Raises :class:`ValueError` in the vote phase, or for
    ``iterations < 1``.
    """
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations}")
    seat = view.seat
    legal = view.legal
    value = [0.0] * len(legal)
    survived = [0] * len(legal)
    rnd = rng.random
    sampler = Sampler(view)
    gone = seen_cards(view) & ~sampler.own
    if view.phase == PLAY:
        for _ in range(iterations):
            root = State.from_view(view, sampler.deal(rng))
            for i, action in enumerate(legal):
                state = root.copy()
                state.apply(action)
                won = rollout(state, rnd, gone)
                value[i] += round_value(won, seat, view)
                survived[i] += won[seat] > 0
    elif view.phase == "trump":
        leader = _first_leader(view)
        for _ in range(iterations):
            hands = sampler.deal(rng)
            for i, suit in enumerate(legal):
                state = State.from_view(view, hands, trump=suit, leader=leader)
                won = rollout(state, rnd, gone)
                value[i] += round_value(won, seat, view)
                survived[i] += won[seat] > 0
    else:
        raise ValueError(f"no search in phase {view.phase!r}")
    return [
        ActionEstimate(a, value[i] / iterations, survived[i] / iterations, iterations)
        for i, a in enumerate(legal)
    ]


class SearchBot(Player):
    """Choose by determinized Monte Carlo search, from its own view only.

    Objective: first, take at least one trick this round (surviving it); then win the
    game, which here means knocking others out, winning by a sweep, or taking the last
    trick of the 1-card round (see :func:`round_value`). The search looks no further than
    the end of the round in play.

    - Play (knocks included): the action with the best mean score over ``iterations``
      sampled deals (see :func:`estimate`). A single legal action is played at once.
    - Trump choice: each allowed suit is tried the same way, from the first trick.
    - Votes (knocked out, so nothing at stake): a suit drawn uniformly from ``rng``.

    ``rng`` is this bot's own generator (see :func:`kow.game.bot_rng`); ``iterations``
    (at least 1, default :data:`DEFAULT_ITERATIONS`) sets the effort, never the clock,
    so seeded games stay reproducible. Raises :class:`ValueError` for ``iterations < 1``.
    """

    kind = "search"

    def __init__(self, name: str, rng: random.Random, iterations: int = DEFAULT_ITERATIONS) -> None:
        super().__init__(name)
        if not isinstance(iterations, int) or isinstance(iterations, bool) or iterations < 1:
            raise ValueError(f"iterations must be an int of at least 1, not {iterations!r}")
        self.rng = rng
        self.iterations = iterations

    def _best(self, view: View) -> int:
        if len(view.legal) == 1:
            return view.legal[0]
        found = estimate(view, self.rng, self.iterations)
        return max(found, key=lambda e: e.value).action

    def play(self, view: View) -> int:
        """Return the card (or KNOCK) with the best estimated score."""
        return self._best(view)

    def choose_trump(self, view: View) -> int:
        """Return the allowed suit with the best estimated score for this round."""
        return self._best(view)

    def vote(self, view: View) -> int:
        """Return a suit drawn uniformly from the allowed ones."""
        return view.legal[int(self.rng.random() * len(view.legal))]
