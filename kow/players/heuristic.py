"""The ``heuristic`` bot: plain rules drawn from the strategy tips of the rules text.

Rules text, "Conseils et stratégies":

- one trick is enough to survive, so do not spend high cards on extra tricks;
- keep your best trump for the last trick you will take;
- as trump chooser, name the suit you are longest in;
- on a dog's life, play the single card on a trick it can win.
"""

from __future__ import annotations

import random

from ..cards import BIT, FULL_DECK, SUIT_MASK, SUIT_OF
from ..engine import KNOCK, View
from .base import Player

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
    cheapest card when none wins. On a dog's life it plays the card
    when it is sure to win, or wins as the last to play, and knocks otherwise. Trump choice:
    the longest suit, ties to the higher ranks. Votes (when knocked out) are drawn from
    ``rng``, this bot's own generator derived from the game seed and its seat.
    """

    kind = "heuristic"

    def __init__(self, name: str, rng: random.Random) -> None:
        super().__init__(name)
        self.rng = rng
        self._seen: tuple[tuple[object, ...], int] = ((), 0)

    def choose_trump(self, view: View) -> int:
        """Return the allowed suit with the most cards in hand, ties to the higher ranks."""
        return self.choose_trump_fast(view.legal, sum(map(_BIT_OF, view.hand)))

    def choose_trump_fast(self, allowed: tuple[int, ...], hand: int) -> int:
        """Return the suit of ``allowed`` with the most cards in ``hand`` (a mask), ties
        to the higher sum of ranks, then to the first allowed."""
        chosen = -1
        most = (-1, -1)
        for suit in allowed:
            held = hand >> (13 * suit) & 0x1FFF
            count = held.bit_count()
            ranks = 0
            while held:
                low = held & -held
                ranks += low.bit_length() - 1  # the rank: 0 for a two .. 12 for an ace
                held ^= low
            key = (count, ranks)
            if key > most:
                chosen = suit
                most = key
        return chosen

    def vote(self, view: View) -> int:
        """Return a suit drawn uniformly from the allowed ones."""
        return view.legal[int(self.rng.random() * len(view.legal))]

    def play(self, view: View) -> int:
        """Return a card (or KNOCK) for ``view`` by the rules in the class docstring.

        Reads from the view the few facts that :meth:`play_fast` decides on.
        """
        trump = view.trump
        if trump is None:
            trump = -1
        seen = self._seen_in(view.tricks)
        bit = _BIT
        best = -1  # the card winning the trick so far
        acted = []
        beaten_by = _BEATEN_BY[trump]
        for s, a in view.trick:
            acted.append(s)
            if a != KNOCK:
                seen |= bit[a]
                if best < 0 or bit[a] & beaten_by[best]:
                    best = a
        if view.turned_up is not None:
            seen |= bit[view.turned_up]
        counts = view.hand_counts
        seat = view.seat
        to_come = False  # whether a player acts after this one in the trick
        for s in view.in_round:
            if s != seat and counts[s] > 0 and s not in acted:
                to_come = True
                break
        return self.play_fast(
            view.legal,
            sum(map(_BIT_OF, view.hand)),  # distinct bits: the sum is the union
            seen,
            best,
            -1 if view.led is None else view.led,
            to_come,
            view.tricks_won[seat],
            view.hand_size - view.trick_number + 1,
            trump,
        )

    def play_fast(
        self,
        legal: tuple[int, ...],
        mine: int,
        seen: int,
        best: int,
        led: int,
        to_come: bool,
        won: int,
        tricks_left: int,
        trump: int,
    ) -> int:
        """Return a card (or KNOCK) by the rules in the class docstring, from these facts.

        See :meth:`Player.play_fast <kow.players.base.Player.play_fast>` for the
        arguments. Sets of cards are hand masks (see :mod:`kow.cards`), so that each rule
        is a few bit operations. A card's strength is its rank, above every other suit
        when it is a trump; ties in strength go to the lower suit.
        """
        bit = _BIT
        unseen = FULL_DECK ^ (seen | mine)
        beaten_by = _BEATEN_BY[trump]
        trumps = _TRUMPS[trump]
        above = _ABOVE
        if legal[-1] == KNOCK:  # a dog's life: one card, played when sure to win
            card = legal[0]
            if best >= 0 and not bit[card] & beaten_by[best]:
                return KNOCK
            if not to_come:
                return card
            if not unseen & above[card] and (bit[card] & trumps or not unseen & trumps):
                return card
            return KNOCK
        # The legal cards: those of the led suit when it holds any (follow suit), else all.
        legal_mask = mine & SUIT_MASK[led] if led >= 0 and mine & SUIT_MASK[led] else mine
        winners = legal_mask if best < 0 else legal_mask & beaten_by[best]
        # Sure to win: wins now, and nobody is to come, or it is a boss (no unseen card of
        # its suit above it) and a trump, or a boss with no trump left unseen.
        if not winners or not to_come:
            sure = winners
        else:
            sure = 0
            no_trump_out = not unseen & trumps
            m = winners
            while m:
                low = m & -m
                if not unseen & above[low.bit_length() - 1] and (low & trumps or no_trump_out):
                    sure |= low
                m ^= low
        if won > 0:
            if sure:
                return _cheapest(sure, trumps)
            if best < 0:
                side = legal_mask & ~trumps
                return _strongest(side, trumps) if side else _cheapest(legal_mask, trumps)
            if not winners:
                return _cheapest(legal_mask, trumps)
            if not to_come:
                return _cheapest(winners, trumps)
            return _strongest(winners, trumps)
        if mine & trumps:
            # Some trump in hand is a boss exactly when the highest one is: keep that one.
            top = (mine & trumps).bit_length() - 1
            if not unseen & above[top]:
                others = legal_mask & ~bit[top]
                return _cheapest(others, trumps) if others else top
        if sure:
            return _cheapest(sure, trumps)
        if not to_come:
            return _cheapest(winners, trumps) if winners else _cheapest(legal_mask, trumps)
        if best < 0:  # leading
            side = legal_mask & ~trumps
            if not side:
                return _cheapest(legal_mask, trumps)
            bosses = 0
            m = side
            while m:
                low = m & -m
                if not unseen & above[low.bit_length() - 1]:
                    bosses |= low
                m ^= low
            if bosses:
                return _strongest(bosses, trumps)
            shortest = -1  # the side suit with fewest cards in hand, ties to the lower suit
            length = 99
            for suit in _SUITS:
                if side & SUIT_MASK[suit]:
                    n = (mine & SUIT_MASK[suit]).bit_count()
                    if n < length:
                        length = n
                        shortest = suit
            return _cheapest(side & SUIT_MASK[shortest], trumps)
        if winners and tricks_left <= 2:
            return _strongest(winners, trumps)
        if winners and led != trump and not winners & ~trumps:
            return _cheapest(winners, trumps)  # ruff with the lowest trump that wins
        return _cheapest(legal_mask, trumps)

    def _seen_in(self, tricks: tuple[tuple[int, tuple[tuple[int, int], ...], int], ...]) -> int:
        """Return the mask of the cards played in ``tricks`` (a view's finished tricks).

        Remembers the last answer: a later view of the same round only adds its new
        tricks. The earlier tricks are compared (a cheap check when they are the same
        objects), so any view may come, from any game.
        """
        done, seen = self._seen
        k = len(done)
        if not (k and tricks[:k] == done):
            k = seen = 0
        bit = _BIT
        for _, plays, _ in tricks[k:]:
            for _, a in plays:
                seen |= bit[a]
        self._seen = (tricks, seen)
        return seen


def _cheapest(cards: int, trumps: int) -> int:
    """Return the weakest card of the mask ``cards``: the lowest-ranked card outside the
    trump suit (mask ``trumps``), ties to the lower suit; else the lowest trump.

    The same card as ``min(cards_in(cards), key=strength)``, by bit operations.
    """
    side = cards & ~trumps
    if not side:
        return (cards & -cards).bit_length() - 1
    ranks = (side | side >> 13 | side >> 26 | side >> 39) & 0x1FFF
    rank = (ranks & -ranks).bit_length() - 1
    for base in _SUIT_BASES:
        if side >> (base + rank) & 1:
            return base + rank
    raise AssertionError("no card")  # pragma: no cover


def _strongest(cards: int, trumps: int) -> int:
    """Return the strongest card of the mask ``cards``: the highest trump (mask
    ``trumps``), else the highest rank, ties to the lower suit.

    The same card as ``max(cards_in(cards), key=strength)``, by bit operations.
    """
    if cards & trumps:
        return (cards & trumps).bit_length() - 1
    ranks = (cards | cards >> 13 | cards >> 26 | cards >> 39) & 0x1FFF
    rank = ranks.bit_length() - 1
    for base in _SUIT_BASES:
        if cards >> (base + rank) & 1:
            return base + rank
    raise AssertionError("no card")  # pragma: no cover


_SUIT_BASES = (0, 13, 26, 39)
_SUITS = (0, 1, 2, 3)
_BIT = BIT + (0,)
"""``1 << card`` by card, and 0 for KNOCK: a knock shows no card."""
_BIT_OF = _BIT.__getitem__

_TRUMPS = (*SUIT_MASK, 0)
"""``_TRUMPS[trump]``: the mask of the trump suit (0 for no trump, index -1)."""
_ABOVE = tuple(SUIT_MASK[SUIT_OF[c]] & ~((BIT[c] << 1) - 1) for c in range(52))
"""``_ABOVE[card]``: the cards of its suit above it."""
_BEATEN_BY = tuple(
    tuple(_ABOVE[b] | (SUIT_MASK[t] if t >= 0 and SUIT_OF[b] != t else 0) for b in range(52))
    for t in (0, 1, 2, 3, -1)
)
"""``_BEATEN_BY[trump][best]``: the cards that beat ``best`` (rules text, "Déroulement" 3)."""
