"""The bots' card decisions as pure functions of masks: the ``heuristic`` bot's policy,
and the ``random`` bot's draw (:func:`uniform_action`).

:func:`heuristic_card` plays a card from a :class:`~kow.engine.view.TrickFacts` (a
:data:`~kow.engine.view.Policy`) and :func:`heuristic_trump` names trump from a hand mask (see
:mod:`kow.cards`). :class:`~kow.players.heuristic.HeuristicBot` decides through them,
from a view's facts in ``kow play`` and from the engine's trick loop in ``kow simulate``.

The search bot uses them twice: as the rollout policy of every seat (each seat judging
only from the cards it could have seen in that deal), and as the opponent model when it
weighs its sampled deals by how well they explain the plays seen so far.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from ..cards import BIT, FULL_DECK, SUIT_MASK, SUIT_OF, Card, Mask, Suit
from ..engine.trick import BEATEN_BY
from ..engine.view import CardPolicy, TrickFacts
from ..events import KNOCK, Action, Seat

__all__ = [
    "HeuristicPolicy",
    "UniformPolicy",
    "heuristic_card",
    "heuristic_play",
    "heuristic_trump",
    "lowest",
    "strongest",
    "uniform_action",
    "uniform_choice",
    "uniform_play",
]

_ABOVE: Final = tuple(SUIT_MASK[SUIT_OF[c]] & ~((BIT[c] << 1) - 1) for c in range(52))
"""``_ABOVE[card]``: the cards of its suit above it (``Final``: compiled, a C static, not
a look-up in the module's dict at every use)."""


def lowest(cards: Mask, trump: Suit) -> Card:
    """Return the weakest card of the mask ``cards`` (not empty) under ``trump`` (-1: none).

    Strength is the rank, plus 13 for a trump; a tie goes to the lower suit (the card
    that comes first in a view's sorted ``legal``), as in the heuristic bot.
    """
    side = cards & ~SUIT_MASK[trump]
    if not side:
        return (cards & -cards).bit_length() - 1
    best = -1
    rank = 13
    for suit in range(4):
        m = side >> (13 * suit) & 0x1FFF
        if m:
            r = (m & -m).bit_length() - 1
            if r < rank:
                rank = r
                best = 13 * suit + r
    return best


def strongest(cards: Mask, trump: Suit) -> Card:
    """Return the strongest card of the mask ``cards`` (not empty) under ``trump`` (-1: none).

    The highest trump, else the highest rank, a tie going to the lower suit.
    """
    trumps = cards & SUIT_MASK[trump]
    if trumps:
        return trumps.bit_length() - 1
    best = -1
    rank = -1
    for suit in range(4):
        m = cards >> (13 * suit) & 0x1FFF
        if m:
            r = m.bit_length() - 1
            if r > rank:
                rank = r
                best = 13 * suit + r
    return best


def _bosses(cards: Mask, unseen: Mask) -> Mask:
    """Return the cards of ``cards`` that no card of ``unseen`` beats in their own suit.

    Suit by suit: those of rank at least the highest unseen card's (none above them), a
    few shifts a suit rather than a look-up a card.

    >>> _bosses(0b1010, 0b0100), _bosses(0b1010, 0), _bosses(1 << 13, 0b1)
    (8, 10, 8192)
    """
    out = 0
    shift = 0
    while shift < 52:  # not over a tuple: compiled, a loop over ints
        mine = cards >> shift & 0x1FFF
        if mine:
            top = (unseen >> shift & 0x1FFF).bit_length() - 1  # the highest unseen rank
            if top > 0:
                mine = mine >> top << top
            out |= mine << shift
        shift += 13
    return out


def heuristic_card(facts: TrickFacts, forget: Mask = 0) -> Action:
    """Return the heuristic bot's card (or :data:`~kow.events.KNOCK`) for one decision.

    The rules of :func:`heuristic_play`, given ``facts`` (a
    :class:`~kow.engine.view.TrickFacts`) and ``forget`` (see there).
    """
    return heuristic_play(
        hand=facts.hand, legal=facts.legal, may_knock=facts.may_knock, seen=facts.seen,
        winning=facts.winning, led=facts.led, trump=facts.trump, to_come=facts.to_come,
        won=facts.won, tricks_left=facts.tricks_left, forget=forget,
    )  # fmt: skip


def heuristic_play(
    *, hand: Mask, legal: Mask, may_knock: bool, seen: Mask, winning: Card, led: Suit,
    trump: Suit, to_come: bool, won: int, tricks_left: int, forget: Mask,
) -> Action:  # fmt: skip
    """Return the heuristic bot's card (or :data:`~kow.events.KNOCK`) for one decision.

    The arguments are the fields of a :class:`~kow.engine.view.TrickFacts` of the same
    names; it judges from them alone (see :class:`~kow.engine.view.TrickFacts`): the cards it has
    not seen are those not in its hand, not played this round and not turned up, and
    those of ``forget`` (a mask of seen cards it judges as if unseen: the search bot's
    playouts forget the card the searching seat tried, as kow 0.2.0's did). The rules are
    those of :class:`~kow.players.heuristic.HeuristicBot`. A single legal card is played
    at once.

    On a dog's life (``facts.may_knock``: one card, and a trick that is not the round's
    last) it follows the tip of the rules text (seed 000, 'Conseils et stratégies'; the
    same in seeds 001 and 003): "jouez votre unique carte sur un pli où vous avez la
    meilleure chance : souvent lorsqu'un As d'une longue couleur a été joué et que vous
    pouvez le couper à l'atout" (play your one card on a trick where your chance is best:
    often when an ace of a long suit has been led and you can trump it). It plays the card
    whenever it wins the trick as it stands (a trump over a led side suit, the ruffed ace
    of the tip, or the highest card of the led suit so far), sure to win or not; leading,
    only when no unseen card can beat it; otherwise it knocks.

    Waiting for a surer trick does not pay: the card is the same on every trick, the
    other players keep their strongest cards (a boss trump) for late in the round, their
    voids in side suits only grow, so a later trick is no likelier to leave the card
    winning; and on the last trick the card must be played against every card still
    held. docs/bots.md ("heuristic") gives the dogs' survival under this rule and the
    others tried.
    """
    if not may_knock and not legal & (legal - 1):
        return legal.bit_length() - 1
    unseen = FULL_DECK ^ (seen | hand) | forget
    trumps = SUIT_MASK[trump]
    if may_knock:  # a dog's life: one card, played on a trick it wins as it stands
        card = hand.bit_length() - 1
        if winning >= 0:
            return card if BIT[card] & BEATEN_BY[trump][winning] else KNOCK
        if not to_come:
            return card
        if not unseen & _ABOVE[card] and (BIT[card] & trumps or not unseen & trumps):
            return card  # leading, a sure winner
        return KNOCK
    winners = legal if winning < 0 else legal & BEATEN_BY[trump][winning]
    # Sure to win: wins now, and nobody is to come, or it is a boss and a trump, or a
    # boss with no trump left unseen.
    if not winners or not to_come:
        sure = winners
    elif unseen & trumps:
        sure = _bosses(winners & trumps, unseen)
    else:
        sure = _bosses(winners, unseen)
    if won:
        if sure:
            return lowest(sure, trump)
        if winning < 0:
            side = legal & ~trumps
            return strongest(side, trump) if side else lowest(legal, trump)
        if not winners:
            return lowest(legal, trump)
        if not to_come:
            return lowest(winners, trump)
        return strongest(winners, trump)
    mine = hand & trumps
    if mine:
        # Some trump in hand is a boss exactly when the highest one is: keep that one.
        top = mine.bit_length() - 1
        if not unseen & _ABOVE[top]:
            others = legal & ~BIT[top]
            return lowest(others, trump) if others else top
    if sure:
        return lowest(sure, trump)
    if not to_come:
        return lowest(winners, trump) if winners else lowest(legal, trump)
    if winning < 0:  # leading
        side = legal & ~trumps
        if not side:
            return lowest(legal, trump)
        bosses = _bosses(side, unseen)
        if bosses:
            return strongest(bosses, trump)
        shortest = -1  # the side suit with fewest cards in hand, ties to the lower suit
        length = 99
        for suit in range(4):
            if side & SUIT_MASK[suit]:
                n = _count(hand & SUIT_MASK[suit])
                if n < length:
                    length = n
                    shortest = suit
        return lowest(side & SUIT_MASK[shortest], trump)
    if winners and tricks_left <= 2:
        return strongest(winners, trump)
    if winners and led != trump and not winners & ~trumps:
        return lowest(winners, trump)  # ruff with the lowest trump that wins
    return lowest(legal, trump)


def _count(cards: Mask) -> int:
    """Return how many cards the mask ``cards`` holds (``int.bit_count``).

    Counted one by one: compiled, a dozen instructions a card, where ``bit_count`` is a
    method call of about 150 (mypyc has no primitive for it).

    >>> _count(0b1011)
    3
    """
    count = 0
    while cards:
        cards &= cards - 1
        count += 1
    return count


def heuristic_trump(hand: Mask, allowed: tuple[Suit, ...]) -> Suit:
    """Return the heuristic bot's trump: the allowed suit with most cards in ``hand``.

    ``hand`` is a mask; ``allowed`` the suits it may name, sorted. Ties go to the higher
    sum of ranks, then to the first allowed suit.
    """
    best = allowed[0]
    key = -1
    for suit in allowed:
        m = hand >> (13 * suit) & 0x1FFF
        k = _count(m) * 100  # then the sum of the ranks (0..12), at most 78
        while m:
            low = m & -m
            k += low.bit_length() - 1
            m ^= low
        if k > key:
            key = k
            best = suit
    return best


def uniform_action(draw: Callable[[], float], facts: TrickFacts) -> Action:
    """Return one of the legal actions of ``facts``, each with equal chance: the ``random`` bot.

    ``draw`` returns a float in [0, 1) (``random.Random.random`` of the bot's generator);
    it is called once, and the action is ``legal[int(draw() * len(legal))]`` over
    :func:`~kow.engine.view.legal_actions_of` (cards lowest first, then the knock): see
    :func:`uniform_play`.
    """
    return uniform_play(draw, facts.legal, facts.may_knock)


def uniform_choice(draw: Callable[[], float], actions: Sequence[Action]) -> Action:
    """Return one of ``actions`` (sorted, not empty; a tuple or a list), each with equal
    chance: the ``random`` bot's decision from a list of legal actions.

    ``draw`` is called once; the action is the one at ``int(draw() * len(actions))``.
    """
    return actions[int(draw() * len(actions))]


def uniform_play(draw: Callable[[], float], legal: Mask, may_knock: bool) -> Action:
    """Return one of the cards of the mask ``legal`` or the knock (when ``may_knock``),
    each with equal chance: the ``random`` bot's rule.

    ``draw`` is called once; the action is the one at ``int(draw() * count)`` in the
    order of :func:`~kow.engine.view.legal_actions_of` (cards lowest first, then the
    knock), ``count`` being how many there are: the same draw picks the same action.
    """
    count = _count(legal)
    index = int(draw() * (count + 1 if may_knock else count))
    if index == count:
        return KNOCK
    while index:  # drop the lowest cards until the one drawn is the lowest
        legal &= legal - 1
        index -= 1
    return (legal & -legal).bit_length() - 1


class _FactsPolicy(CardPolicy):
    """A :class:`~kow.engine.view.CardPolicy` that is also called with a
    :class:`~kow.engine.view.TrickFacts` (a :data:`~kow.engine.view.Policy`)."""

    def __call__(self, facts: TrickFacts) -> Action:
        """Return :meth:`decide` of ``facts``' fields."""
        return self.decide(
            seat=facts.seat, hand=facts.hand, legal=facts.legal, may_knock=facts.may_knock,
            seen=facts.seen, winning=facts.winning, led=facts.led, trump=facts.trump,
            to_come=facts.to_come, won=facts.won, tricks_left=facts.tricks_left,
        )  # fmt: skip


class HeuristicPolicy(_FactsPolicy):
    """The ``heuristic`` bot's card decisions, as a :class:`~kow.engine.view.CardPolicy`:
    :func:`heuristic_play`, forgetting the cards of the mask ``forget`` (see there)."""

    def __init__(self, forget: Mask = 0) -> None:
        self.forget = forget

    def decide(
        self, *, seat: Seat, hand: Mask, legal: Mask, may_knock: bool, seen: Mask,
        winning: Card, led: Suit, trump: Suit, to_come: bool, won: int, tricks_left: int,
    ) -> Action:  # fmt: skip
        """Return :func:`heuristic_play` of the facts."""
        return heuristic_play(
            hand=hand, legal=legal, may_knock=may_knock, seen=seen, winning=winning, led=led,
            trump=trump, to_come=to_come, won=won, tricks_left=tricks_left, forget=self.forget,
        )  # fmt: skip


class UniformPolicy(_FactsPolicy):
    """The ``random`` bot's card decisions, as a :class:`~kow.engine.view.CardPolicy`:
    :func:`uniform_play` with ``draw`` (``random.Random.random`` of the bot's generator)."""

    def __init__(self, draw: Callable[[], float]) -> None:
        self.draw = draw

    def decide(
        self, *, seat: Seat, hand: Mask, legal: Mask, may_knock: bool, seen: Mask,
        winning: Card, led: Suit, trump: Suit, to_come: bool, won: int, tricks_left: int,
    ) -> Action:  # fmt: skip
        """Return :func:`uniform_play` of the facts."""
        return uniform_play(self.draw, legal, may_knock)

    def trump(self, allowed: Sequence[Suit], hand: Mask) -> Suit:
        """Return a suit of ``allowed`` (sorted), each with equal chance: the ``random``
        bot's trump (a :data:`~kow.players.base.TrumpPolicy`), drawn once, as
        :func:`uniform_choice` draws. Compiled, a call from Python costs a fraction of a
        Python method's."""
        return uniform_choice(self.draw, allowed)
