"""The ``heuristic`` bot's decisions as pure functions of hand masks, for search.

:class:`~kow.players.heuristic.HeuristicBot` decides from a :class:`~kow.engine.View`.
A search replays thousands of decisions per move inside determinized deals, where
building a view for each would cost more than the decision itself, so this module states
the same rules over hand masks (see :mod:`kow.cards`): :func:`heuristic_card` plays,
:func:`heuristic_trump` names trump. :func:`heuristic_play` runs them on a view, and a
test checks that it agrees with the bot on every decision of many games.

The search bot uses them twice: as the rollout policy of every seat (each seat judging
only from the cards it could have seen in that deal), and as the opponent model when it
weighs its sampled deals by how well they explain the plays seen so far.
"""

from __future__ import annotations

from ..cards import BIT, FULL_DECK, SUIT_MASK, SUIT_OF
from ..engine import KNOCK, View

__all__ = ["heuristic_card", "heuristic_play", "heuristic_trump", "lowest", "strongest"]

_TRUMPS = (*SUIT_MASK, 0)
"""``_TRUMPS[trump]``: the mask of the trump suit (0 for no trump, index -1)."""
_ABOVE = tuple(SUIT_MASK[SUIT_OF[c]] & ~((BIT[c] << 1) - 1) for c in range(52))
"""``_ABOVE[card]``: the cards of its suit above it."""
_BEATEN_BY = tuple(
    tuple(_ABOVE[b] | (SUIT_MASK[t] if t >= 0 and SUIT_OF[b] != t else 0) for b in range(52))
    for t in (0, 1, 2, 3, -1)
)
"""``_BEATEN_BY[trump][best]``: the cards that beat ``best`` (rules text, "Déroulement" 3)."""


def lowest(cards: int, trump: int) -> int:
    """Return the weakest card of the mask ``cards`` (not empty) under ``trump`` (-1: none).

    Strength is the rank, plus 13 for a trump; a tie goes to the lower suit (the card
    that comes first in a view's sorted ``legal``), as in the heuristic bot.
    """
    side = cards & ~_TRUMPS[trump]
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


def strongest(cards: int, trump: int) -> int:
    """Return the strongest card of the mask ``cards`` (not empty) under ``trump`` (-1: none).

    The highest trump, else the highest rank, a tie going to the lower suit.
    """
    trumps = cards & _TRUMPS[trump]
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


def _bosses(cards: int, unseen: int) -> int:
    """Return the cards of ``cards`` that no card of ``unseen`` beats in their own suit."""
    out = 0
    m = cards
    while m:
        low = m & -m
        if not unseen & _ABOVE[low.bit_length() - 1]:
            out |= low
        m ^= low
    return out


def heuristic_card(
    hand: int,
    legal: int,
    unseen: int,
    best: int,
    led: int,
    trump: int,
    to_come: bool,
    has_trick: bool,
    tricks_left: int,
    knock: bool,
) -> int:
    """Return the heuristic bot's card (or :data:`~kow.engine.KNOCK`) for one decision.

    Masks: ``hand``, the seat's cards; ``legal``, those it may play (following suit);
    ``unseen``, the cards it has not seen (not in its hand, not played this round, not
    the turned-up card). ``best``: the card winning the trick so far (-1 when none,
    leading); ``led``: the led suit (-1 when none); ``trump``: suit 0..3 or -1;
    ``to_come``: whether a seat acts after it in this trick; ``has_trick``: whether it
    took a trick this round; ``tricks_left``: the tricks still to play, this one
    included; ``knock``: whether it may knock (a dog's life, ``hand`` then holds one
    card). The rules are those of
    :class:`~kow.players.heuristic.HeuristicBot`.
    """
    trumps = _TRUMPS[trump]
    if knock:  # a dog's life: one card, played when sure to win
        card = hand.bit_length() - 1
        if best >= 0 and not BIT[card] & _BEATEN_BY[trump][best]:
            return KNOCK
        if not to_come:
            return card
        if not unseen & _ABOVE[card] and (BIT[card] & trumps or not unseen & trumps):
            return card
        return KNOCK
    winners = legal if best < 0 else legal & _BEATEN_BY[trump][best]
    # Sure to win: wins now, and nobody is to come, or it is a boss and a trump, or a
    # boss with no trump left unseen.
    if not winners or not to_come:
        sure = winners
    elif unseen & trumps:
        sure = _bosses(winners & trumps, unseen)
    else:
        sure = _bosses(winners, unseen)
    if has_trick:
        if sure:
            return lowest(sure, trump)
        if best < 0:
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
    if best < 0:  # leading
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
                n = (hand & SUIT_MASK[suit]).bit_count()
                if n < length:
                    length = n
                    shortest = suit
        return lowest(side & SUIT_MASK[shortest], trump)
    if winners and tricks_left <= 2:
        return strongest(winners, trump)
    if winners and led != trump and not winners & ~trumps:
        return lowest(winners, trump)  # ruff with the lowest trump that wins
    return lowest(legal, trump)


def heuristic_trump(hand: int, allowed: tuple[int, ...]) -> int:
    """Return the heuristic bot's trump: the allowed suit with most cards in ``hand``.

    ``hand`` is a mask; ``allowed`` the suits it may name, sorted. Ties go to the higher
    sum of ranks, then to the first allowed suit.
    """
    best = allowed[0]
    key = -1
    for suit in allowed:
        m = hand >> (13 * suit) & 0x1FFF
        k = m.bit_count() * 100  # then the sum of the ranks (0..12), at most 78
        while m:
            low = m & -m
            k += low.bit_length() - 1
            m ^= low
        if k > key:
            key = k
            best = suit
    return best


def heuristic_play(view: View) -> int:
    """Return the heuristic bot's card (or KNOCK) for ``view`` (phase ``"play"``).

    The same decision as :meth:`HeuristicBot.play <kow.players.heuristic.HeuristicBot.play>`,
    through :func:`heuristic_card`.
    """
    hand = 0
    for c in view.hand:
        hand |= BIT[c]
    legal = 0
    for a in view.legal:
        if a != KNOCK:
            legal |= BIT[a]
    seen = hand
    for _, plays, _ in view.tricks:
        for _, a in plays:
            if a != KNOCK:
                seen |= BIT[a]
    trump = -1 if view.trump is None else view.trump
    best = -1
    acted = set()
    for s, a in view.trick:
        acted.add(s)
        if a != KNOCK:
            seen |= BIT[a]
            if best < 0 or BIT[a] & _BEATEN_BY[trump][best]:
                best = a
    if view.turned_up is not None:
        seen |= BIT[view.turned_up]
    to_come = any(
        s != view.seat and view.hand_counts[s] > 0 and s not in acted for s in view.in_round
    )
    return heuristic_card(
        hand,
        legal,
        FULL_DECK ^ seen,
        best,
        -1 if view.led is None else view.led,
        trump,
        to_come,
        view.tricks_won[view.seat] > 0,
        view.hand_size - view.trick_number + 1,
        view.legal[-1] == KNOCK,
    )
