"""Inference: which sampled deals explain what the other players did this round.

A deal of the hidden cards that agrees with a view (see :mod:`kow.players.sampling`)
may still be unlikely: an opponent who ducked while needing a trick probably held no
sure winner. This module replays each decision that the other seats made this round
(their cards, knocks, and the trump choice) under a guessed deal, and asks the opponent
model, the ``heuristic`` bot's rules (:mod:`kow.players.policy`), what it would have done
there. Each decision it would have made differently is a *miss*; a search keeps the
deals with the fewest misses.

Each replayed decision uses only what that seat could see at the time: its hand then
(its guessed hand now plus the cards it has played since), the cards played before it
this round, and the turned-up card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Final, NamedTuple

from ..cards import BIT, NO_CARD, NO_SUIT, SUIT_OF, Mask, Suit
from ..engine.trick import BEATEN_BY, knock_allowed, legal_cards
from ..engine.view import TrickFacts, View
from ..events import KNOCK, Action, Knock, Seat
from .policy import heuristic_play, heuristic_trump
from .sampling import Sampler

__all__ = [
    "CANDIDATES",
    "REPAIRS",
    "ObservedPlay",
    "Model",
    "observed_plays",
    "likely_deals",
    "misses",
    "trump_chooser",
]


class ObservedPlay(NamedTuple):
    """One card or knock another seat played this round, with what it knew then.

    ``facts``: the :class:`~kow.engine.view.TrickFacts` of that decision as the table saw it;
    its ``hand`` and ``legal`` are 0, since only that seat saw its hand (fill them in for
    a guessed hand with :meth:`TrickFacts.with_hand <kow.engine.view.TrickFacts.with_hand>`).
    ``action``: the card or :data:`~kow.events.KNOCK` played; ``later``: the mask of the
    cards the seat played from this decision on, so its hand then was its hand now plus
    ``later``.
    """

    facts: TrickFacts
    action: Action
    later: Mask


def observed_plays(view: View) -> list[ObservedPlay]:
    """Return the decisions of the seats other than ``view.seat`` this round, in order.

    Covers the finished tricks and the current one (in which ``view.seat`` still acts,
    so everyone before it had someone to come).
    """
    n = view.rules.players
    trump = NO_SUIT if view.trump is None else view.trump
    beaten_by = BEATEN_BY[trump]
    seen = 0 if view.turned_up is None else BIT[view.turned_up]
    won = [0] * n
    found: list[tuple[TrickFacts, Action]] = []
    # Each trick's plays, led suit (the engine's: a view's current trick has none before
    # its first card) and winner (-1: the current trick).
    tricks = [(trick.plays, trick.led, trick.winner) for trick in view.tricks]
    tricks.append((view.trick, NO_SUIT if view.led is None else view.led, -1))
    for number, (plays, trick_led, winner) in enumerate(tricks, start=1):
        winning = NO_CARD
        led = NO_SUIT  # until the trick's first card
        tricks_left = view.hand_size - number + 1
        for i, play in enumerate(plays):
            seat = play.seat
            if seat != view.seat:
                to_come = winner < 0 or i < len(plays) - 1
                may_knock = seat in view.dogs_life and knock_allowed(number, view.hand_size)
                facts = TrickFacts(
                    seat=seat, hand=0, legal=0, may_knock=may_knock, seen=seen,
                    winning=winning, led=led, trump=trump, to_come=to_come, won=won[seat],
                    tricks_left=tricks_left,
                )  # fmt: skip
                found.append((facts, play.action))
            if isinstance(play, Knock):
                continue
            card = play.card
            seen |= BIT[card]
            led = trick_led
            if winning < 0 or BIT[card] & beaten_by[winning]:
                winning = card
        if winner >= 0:
            won[winner] += 1
    later = [0] * n
    out = []
    for facts, action in reversed(found):
        if action != KNOCK:
            later[facts.seat] |= BIT[action]
        out.append(ObservedPlay(facts, action, later[facts.seat]))
    out.reverse()
    return out


def trump_chooser(view: View) -> Seat:
    """Return the seat that named this round's trump from the four suits, or -1.

    -1 when trump was turned up, fixed, voted, tied after a vote, or named by
    ``view.seat`` itself. Also -1 when the chooser won a tie cut for the most tricks under
    ``lead="dealer-left"``: kow 0.2.0's search bot could not tell who named trump then,
    and this keeps its seeded games the same. Rules text, 'Mise en place' 5: the player
    with the most tricks last round names trump.
    """
    chooser = view.trump_chosen_by
    if view.trump_method != "chosen" or chooser is None or chooser == view.seat:
        return -1
    previous = view.previous_tricks_won
    if view.rules.lead == "dealer-left" and previous is not None:
        top = max(previous)
        if previous.count(top) > 1:
            return -1
    return chooser


def misses(
    hands: Sequence[Mask],
    found: Sequence[ObservedPlay],
    trump: Suit,
    *,
    chooser: Seat = -1,
    played: Sequence[Mask] = (),
    limit: int = 1 << 30,
) -> int:
    """Return how many of the decisions ``found`` the opponent model would not have made.

    ``hands``: a guessed deal (masks by seat, as now); ``trump``: suit or NO_SUIT;
    ``chooser``: the seat that named trump (see :func:`trump_chooser`, -1 for none), whose
    hand at the round's start is ``hands[chooser] | played[chooser]``, ``played`` being
    the mask of cards each seat has played this round. Stops counting at ``limit``.
    """
    count = 0
    if chooser >= 0 and heuristic_trump(hands[chooser] | played[chooser], (0, 1, 2, 3)) != trump:
        count += 1
    for d in found:
        if count >= limit:
            break
        count += _Replayed(d).missed(hands[d.facts.seat])
    return count


class _Replayed:
    """One decision of an :class:`ObservedPlay`, ready to replay under guessed hands.

    Its facts are kept as plain fields: compiled, a field is read as it is, where a
    :class:`~kow.engine.view.TrickFacts` field is a tuple item to unbox (a search replays
    some hundred thousand decisions a move).
    """

    def __init__(self, d: ObservedPlay) -> None:
        facts = d.facts
        self.may_knock = facts.may_knock
        self.seen = facts.seen
        self.winning = facts.winning
        self.led = facts.led
        self.trump = facts.trump
        self.to_come = facts.to_come
        self.won = facts.won
        self.tricks_left = facts.tricks_left
        self.action = d.action
        self.later = d.later

    def missed(self, now: Mask) -> bool:
        """Return whether the opponent model, holding ``now`` (a mask) today, decides
        otherwise."""
        hand = now | self.later
        legal = legal_cards(hand, self.led)
        may_knock = self.may_knock
        if not may_knock and not legal & (legal - 1):
            return False  # a single legal card says nothing
        # heuristic_card(facts.with_hand(hand)), with no facts made: a search asks this
        # many thousand times.
        then = heuristic_play(
            hand=hand, legal=legal, may_knock=may_knock, seen=self.seen, winning=self.winning,
            led=self.led, trump=self.trump, to_come=self.to_come, won=self.won,
            tricks_left=self.tricks_left, forget=0,
        )  # fmt: skip
        return then != self.action


_SUITS: Final = (0, 1, 2, 3)
"""The four suits, any of which the trump chooser may name."""

CANDIDATES = 4
"""Deals drawn per deal wanted, at most, in search of deals that explain every play."""
REPAIRS = 24
"""Card swaps tried, at most, to make one drawn deal explain the plays it misses."""


class Model:
    """The decisions seen in one view, ready to count a deal's misses seat by seat.

    A seat's decisions depend on its own hand alone, so a deal's misses are the sum over
    seats of :meth:`seat_misses`, and swapping cards between two seats changes only
    theirs. Built from ``view``; see :func:`observed_plays` and :func:`trump_chooser`.
    """

    def __init__(self, view: View) -> None:
        n = view.rules.players
        found = observed_plays(view)
        self.trump = -1 if view.trump is None else view.trump
        self.chooser = trump_chooser(view)
        self.by_seat: list[list[_Replayed]] = [[] for _ in range(n)]
        self.played = [0] * n
        for d in found:
            self.played[d.facts.seat] |= d.later
        for d in found:
            self.by_seat[d.facts.seat].append(_Replayed(d))
        self.seats = tuple(s for s in range(n) if self.by_seat[s] or s == self.chooser)
        """Seats with something to explain."""
        self._known: dict[int, int] = {}

    def seat_misses(self, seat: int, hand: int) -> int:
        """Return the misses of ``seat`` holding ``hand`` (a mask, now).

        Remembers its answers: late in a round the same few hands come up again and again.
        """
        key = hand | seat << 52
        known = self._known.get(key)
        if known is not None:
            return known
        # Counted in an int, not an ``int | None`` nor by adding bools: compiled, C additions.
        count = 0
        if seat == self.chooser:
            if heuristic_trump(hand | self.played[seat], _SUITS) != self.trump:
                count = 1
        for d in self.by_seat[seat]:
            if d.missed(hand):
                count += 1
        self._known[key] = count
        return count


def likely_deals(
    view: View, sampler: Sampler, rng: random.Random, *, iterations: int
) -> list[list[int]]:
    """Return ``iterations`` deals from ``sampler`` that best explain the plays seen.

    Draws deals from ``rng`` until ``iterations`` of them explain every decision the
    other seats made this round as the ``heuristic`` bot would have made it (see
    :func:`misses`), or until ``CANDIDATES * iterations`` are drawn. Then it repairs the
    deals that miss, fewest misses first: up to :data:`REPAIRS` times, it swaps a card of
    a seat that misses with a hidden card elsewhere (never breaking a void) and keeps
    the swap unless it adds misses. Deals that explain everything come first, then the
    others by misses, each in the order drawn. Uses only ``view`` and ``rng``.
    """
    model = Model(view)
    seats = model.seats
    if not seats:
        return [sampler.deal(rng) for _ in range(iterations)]
    perfect: list[list[int]] = []
    rest: list[tuple[int, int, list[int]]] = []
    for i in range(iterations * CANDIDATES):
        hands = sampler.deal(rng)
        total = 0
        for s in seats:
            total += model.seat_misses(s, hands[s])  # called, not aliased: a native call
        if not total:
            perfect.append(hands)
            if len(perfect) == iterations:
                return perfect
        else:
            rest.append((total, i, hands))
    rest.sort(key=itemgetter(0))  # stable: the same order as by (misses, draw number)
    repaired: list[tuple[int, int, list[int]]] = []
    for total, i, hands in rest[: iterations - len(perfect)]:
        per = [0] * len(hands)  # the seats' misses again (remembered by the model)
        for s in seats:
            per[s] = model.seat_misses(s, hands[s])
        total = _repair(hands, per, total, sampler=sampler, model=model, rng=rng)
        if total:
            repaired.append((total, i, hands))
        else:
            perfect.append(hands)
    repaired.sort(key=_misses_first)
    return perfect + [hands for _, _, hands in repaired]


def _misses_first(drawn: tuple[int, int, list[int]]) -> tuple[int, int]:
    """Return the order of a deal kept aside: ``(misses, draw number)``, fewest first."""
    return drawn[0], drawn[1]


def _proposed_swap(
    hands: list[int], s: int, *, sampler: Sampler, draw: Callable[[], float]
) -> tuple[int, int] | None:
    """Draw one of seat ``s``'s cards and one hidden card, for a swap between them.

    Returns the mask of the two cards and the seat holding the hidden one (``len(hands)``
    when it is undealt), or None when ``s`` holds no card, already holds the hidden card,
    or the swap would give a seat a card of a suit it is void in. Draws the seat's card,
    then the hidden card, with ``draw`` (a generator's ``random``): the seat's card is
    ``cards_in(hand)[int(draw() * count)]``, found among the mask's bits without making
    that tuple.
    """
    hand = hands[s]
    if not hand:
        return None  # it has played all its cards: nothing to swap
    count = 0
    m = hand
    while m:
        m &= m - 1
        count += 1
    index = int(draw() * count)
    m = hand
    while index:  # drop the lowest cards until the one drawn is the lowest
        m &= m - 1
        index -= 1
    low = m & -m
    pool = sampler.pool
    size: int = len(pool)
    b = pool[int(draw() * size)]
    high = 1 << b
    if hand & high:
        return None
    n = len(hands)
    t = n  # the undealt part of the deck
    for u in range(n):
        if hands[u] & high:
            t = u
            break
    void = sampler.void
    if void[s] >> SUIT_OF[b] & 1 or void[t] >> SUIT_OF[low.bit_length() - 1] & 1:
        return None
    return low | high, t


def _repair(
    hands: list[int],
    per: list[int],
    total: int,
    *,
    sampler: Sampler,
    model: Model,
    rng: random.Random,
) -> int:
    """Swap hidden cards in ``hands`` (changed in place) to lower ``total`` misses.

    ``per``: misses by seat (changed in place). Returns the misses left.
    """
    n = len(hands)
    draw = rng.random
    for _ in range(REPAIRS):
        if not total:
            break
        missing = [s for s in model.seats if per[s]]
        size: int = len(missing)
        s = missing[int(draw() * size)]
        proposed = _proposed_swap(hands, s, sampler=sampler, draw=draw)
        if proposed is None:
            continue
        swap, t = proposed
        new_s = model.seat_misses(s, hands[s] ^ swap)
        new_t = 0
        if t < n:
            new_t = model.seat_misses(t, hands[t] ^ swap)
        if new_s + new_t > per[s] + (per[t] if t < n else 0):
            continue
        hands[s] = hands[s] ^ swap  # not ^=: compiled, an item's ^= is a Python operation
        if t < n:
            hands[t] = hands[t] ^ swap
            total += new_s + new_t - per[s] - per[t]
            per[t] = new_t
        else:
            total += new_s - per[s]
        per[s] = new_s
    return total
