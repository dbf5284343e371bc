"""Deals of the hidden cards that agree with everything one seat has seen (determinization).

A search bot may not look at the other hands, so it guesses them: it deals the cards it
has not seen to the other seats, many times over, and plays each guess out. Every guess
honours what the seat's :class:`~kow.engine.View` shows:

- its own hand, and every card played this round (finished tricks and the current one);
- round 1's turned-up card, which is in nobody's hand;
- the number of cards each seat still holds (``view.hand_counts``), so a player on a
  dog's life holds its one card until it plays it, and a knocked-out seat holds none;
- voids: a player who did not follow the led suit holds no card of it.

The rest of the unseen cards stay in the undealt part of the deck, which takes any suit.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..cards import BIT, SUIT_MASK, SUIT_OF, Mask, Suit
from ..engine.view import View
from ..events import Knock, Play

__all__ = ["Sampler", "seen_cards", "voids"]

TRIES = 3
"""Plain deals tried before the careful one, when some seat has shown a void."""


def seen_cards(view: View) -> Mask:
    """Return the mask of cards ``view.seat`` knows are in no other hand.

    Those are its own hand and what the table has seen this round (``view.seen``: the
    cards played, round 1's turned-up card).
    """
    return view.seen | view.hand_mask


def voids(view: View) -> list[int]:
    """Return, per seat, a 4-bit mask of the suits that seat has shown it does not hold.

    A seat is void in the led suit of a trick (the trick's ``led``, or the view's ``led``
    for the current one) where it played a card of another suit (rules text,
    "Déroulement" 2: a player must follow suit when able). Voids last for the rest of the
    round.
    """
    out = [0] * view.rules.players
    for trick in view.tricks:
        _trick_voids(trick.plays, trick.led, out)
    if view.led is not None:
        _trick_voids(view.trick, view.led, out)
    return out


def _trick_voids(plays: tuple[Play | Knock, ...], led: Suit, out: list[int]) -> None:
    """Add to ``out`` the void in ``led`` of each seat of ``plays`` that played another suit."""
    for play in plays:
        if type(play) is Play and SUIT_OF[play.card] != led:
            out[play.seat] |= 1 << led


class Sampler:
    """Draw deals of the hidden cards that agree with one view, many times over.

    ``view.seat`` gets its own hand; every other seat gets ``view.hand_counts[seat]``
    cards drawn from the unseen ones, none of a suit it has shown void in. Without voids
    each deal is uniform over the consistent ones. With voids it first tries up to
    :data:`TRIES` plain deals and keeps the first that breaks no void (so uniform too);
    when all of them break one, the cards go one at a time,
    in random order, to a seat that may take them, weighted by the room it has left, and
    never to a seat whose choice would leave the rest impossible to deal (a check over
    the sets of suits that some seat is void in, by Hall's theorem), so a deal is always
    found.

    Raises :class:`ValueError` on construction when no deal agrees with the view (the
    view contradicts itself).
    """

    def __init__(self, view: View) -> None:
        n = view.rules.players
        me = view.seat
        seen = seen_cards(view)
        self.n = n
        self.pool = [c for c in range(52) if not BIT[c] & seen]
        need = [0 if s == me else view.hand_counts[s] for s in range(n)]
        void = voids(view)
        void[me] = 0
        for s in range(n):
            if not need[s]:
                void[s] = 0
        self.own = view.hand_mask
        self.me = me
        self._rng: random.Random | None = None
        self._rnd: Callable[[], float] = _never
        if sum(need) > len(self.pool):
            raise ValueError(f"{sum(need)} hidden cards to deal but only {len(self.pool)} unseen")
        # Seat n stands for the undealt part of the deck: it takes any suit.
        need.append(len(self.pool) - sum(need))
        void.append(0)
        self.need = need
        self.void = void
        self.void_mask = [
            sum(SUIT_MASK[x] for x in range(4) if void[s] >> x & 1) for s in range(n + 1)
        ]
        self.takers = [[s for s in range(n + 1) if not void[s] >> suit & 1] for suit in range(4)]
        # Only a set of suits that some seat is void in can break Hall's condition.
        checks = []
        for subset in range(1, 16):
            if any(v and subset & ~v == 0 for v in void):
                suits = tuple(x for x in range(4) if subset >> x & 1)
                room = tuple(s for s in range(n + 1) if subset & ~void[s])
                checks.append((suits, room))
        self.checks = checks
        # risky[x][s]: the checks that giving a card of suit x to seat s can break when
        # the deal could be completed before, those whose suits lack x and whose room
        # holds s: every other check's supply less room falls or stays.
        self.risky = [
            [[(suits, room) for suits, room in checks if x not in suits and s in room]
             for s in range(n + 1)]
            for x in range(4)
        ]  # fmt: skip
        left = [0, 0, 0, 0]
        for c in self.pool:
            left[SUIT_OF[c]] += 1
        if not _feasible(checks, left, need):
            raise ValueError("no deal of the unseen cards agrees with the view")

    def deal(self, rng: random.Random) -> list[int]:
        """Return one deal: hands (masks by seat), drawing chance from ``rng``."""
        n = self.n
        me = self.me
        pool = self.pool[:]
        if rng is not self._rng:  # the bound method made once per generator, not per deal
            self._rng = rng
            self._rnd = rng.random
        rnd = self._rnd
        _shuffle(pool, rnd)
        need = self.need
        checks = self.checks
        void_mask = self.void_mask
        # Deal the shuffled cards in order; with voids, keep the deal if it breaks none
        # (then it is uniform over the consistent deals, as without voids).
        for attempt in range(TRIES if checks else 1):
            if attempt:
                _shuffle(pool, rnd)
            hands = [0] * n
            broken = False
            k = 0
            for s in range(n):
                m = 0
                end = k + need[s]
                while k < end:  # 1 << card, not BIT[card]: compiled, a shift is cheaper
                    m |= 1 << pool[k]
                    k += 1
                if m & void_mask[s]:
                    broken = True
                    break
                hands[s] = m
            if not broken:
                hands[me] = self.own
                return hands
        return self._careful(pool, rnd)

    def _careful(self, pool: list[int], rnd: Callable[[], float]) -> list[int]:
        """Return a deal of the cards of ``pool`` (shuffled) that breaks no void.

        The cards go one at a time, in the order of ``pool``, to a seat that may take them
        (weighted by the room it has left, drawn with ``rnd``), never to a seat whose
        choice would leave the rest impossible to deal (:func:`_feasible`). The deal can
        be completed before each card (checked on construction, then kept), so only the
        checks that the card's seat can break are made again (``risky``).
        """
        n = self.n
        need = self.need[:]
        hands = [0] * n
        hands[self.me] = self.own
        left = [0, 0, 0, 0]
        for c in pool:
            suit = SUIT_OF[c]
            left[suit] = left[suit] + 1
        takers = self.takers
        risky = self.risky
        for c in pool:
            suit = SUIT_OF[c]
            left[suit] = left[suit] - 1
            # The options: the seats that take the suit and have room, less those tried
            # and refused (``refused``, a bit per seat), in the order of ``takers``.
            options = takers[suit]
            refused = 0
            while True:
                total = 0
                count = 0
                for s in options:
                    if need[s] and not refused >> s & 1:
                        total += need[s]
                        count += 1
                pick = int(rnd() * total)
                for s in options:
                    if need[s] and not refused >> s & 1:
                        pick -= need[s]
                        if pick < 0:
                            break
                need[s] = need[s] - 1
                if count == 1 or _feasible(risky[suit][s], left, need):
                    break
                need[s] = need[s] + 1
                refused |= 1 << s
            if s < n:
                hands[s] = hands[s] | 1 << c
        return hands


def _never() -> float:
    """Stand in for a generator's ``random`` until :meth:`Sampler.deal` is first given one."""
    raise AssertionError("no generator yet")


def _feasible(
    checks: list[tuple[tuple[int, ...], tuple[int, ...]]], left: list[int], need: list[int]
) -> bool:
    """Return whether ``left`` cards per suit can fill every ``need`` without a void.

    Total supply equals total need, so by Hall's theorem a deal exists exactly when each
    set of suits has no more cards left than the room of the seats that may take one of
    them: ``checks`` are those sets (the suits, the seats with room), as
    :class:`Sampler` makes them.
    """
    for suits, room in checks:
        supply = 0
        for x in suits:
            supply += left[x]
        for s in room:
            supply -= need[s]
        if supply > 0:
            return False
    return True


def _shuffle(cards: list[Any], rnd: Callable[[], float]) -> None:
    """Shuffle ``cards`` in place (Fisher-Yates) with ``rnd``, a generator's ``random``.

    The same draws and swaps as ``for i in range(len(cards) - 1, 0, -1)``. Its items are
    typed ``Any`` so that compiled code swaps them as they are, without unboxing each int
    and boxing it again (a search shuffles some 25,000 cards a decision).
    """
    i = len(cards) - 1
    while i > 0:
        j = int(rnd() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
        i -= 1
