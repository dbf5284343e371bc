"""The ``heuristic`` bot: plain rules drawn from the strategy tips of the rules text.

Rules text, "Conseils et stratégies":

- one trick is enough to survive, so do not spend high cards on extra tricks;
- keep your best trump for the last trick you will take;
- as trump chooser, name the suit you are longest in;
- on a dog's life, play the single card on a trick it can win.
"""

from __future__ import annotations

import random

from ..cards import BIT, FULL_DECK, RANK_OF, SUIT_MASK, SUIT_OF
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

    def choose_trump(self, view: View) -> int:
        """Return the allowed suit with the most cards in hand, ties to the higher ranks."""
        hand = view.hand

        def length(suit: int) -> tuple[int, int]:
            mine = [c for c in hand if SUIT_OF[c] == suit]
            return (len(mine), sum(RANK_OF[c] for c in mine))

        return max(view.legal, key=length)

    def vote(self, view: View) -> int:
        """Return a suit drawn uniformly from the allowed ones."""
        return view.legal[int(self.rng.random() * len(view.legal))]

    def play(self, view: View) -> int:
        """Return a card (or KNOCK) for ``view`` by the rules in the class docstring."""
        legal = [a for a in view.legal if a != KNOCK]
        trump = -1 if view.trump is None else view.trump
        seat = view.seat
        seen = 0
        for c in view.hand:
            seen |= BIT[c]
        for _, plays, _ in view.tricks:
            for _, a in plays:
                if a != KNOCK:
                    seen |= BIT[a]
        for _, a in view.trick:
            if a != KNOCK:
                seen |= BIT[a]
        if view.turned_up is not None:
            seen |= BIT[view.turned_up]
        unseen = FULL_DECK ^ seen
        acted = {s for s, _ in view.trick}
        to_come = [
            s for s in view.in_round
            if s != seat and s not in acted and view.hand_counts[s] > 0
        ]  # fmt: skip
        best = -1
        for _, a in view.trick:
            if a != KNOCK and (best < 0 or _beats(a, best, trump)):
                best = a

        def strength(c: int) -> int:
            return RANK_OF[c] + (13 if SUIT_OF[c] == trump else 0)

        def wins_now(c: int) -> bool:
            return best < 0 or _beats(c, best, trump)

        def is_boss(c: int) -> bool:
            above = SUIT_MASK[SUIT_OF[c]] & ~((BIT[c] << 1) - 1)
            return not unseen & above

        def sure(c: int) -> bool:
            if not wins_now(c):
                return False
            if not to_come or (SUIT_OF[c] == trump and is_boss(c)):
                return True
            return is_boss(c) and (trump < 0 or not unseen & SUIT_MASK[trump])

        cheapest = min(legal, key=strength)
        if KNOCK in view.legal:  # a dog's life: one card
            card = legal[0]
            return card if sure(card) else KNOCK
        if view.tricks_won[seat] > 0:
            # Cards do not carry over to the next round, so once its trick is taken every
            # further trick is free: one an opponent needed, and a step to trump choice.
            sure_cards = [c for c in legal if sure(c)]
            if sure_cards:
                return min(sure_cards, key=strength)
            if best < 0:
                side = [c for c in legal if SUIT_OF[c] != trump]
                return max(side, key=strength) if side else cheapest
            winners = [c for c in legal if wins_now(c)]
            if not winners:
                return cheapest
            return min(winners, key=strength) if not to_come else max(winners, key=strength)
        boss_trumps = [c for c in view.hand if SUIT_OF[c] == trump and is_boss(c)]
        if boss_trumps:
            keep = max(boss_trumps)
            others = [c for c in legal if c != keep]
            return min(others, key=strength) if others else keep
        sure_cards = [c for c in legal if sure(c)]
        if sure_cards:
            return min(sure_cards, key=strength)
        if not to_come:
            winners = [c for c in legal if wins_now(c)]
            return min(winners, key=strength) if winners else cheapest
        if best < 0:  # leading
            side = [c for c in legal if SUIT_OF[c] != trump]
            bosses = [c for c in side if is_boss(c)]
            if bosses:
                return max(bosses, key=strength)
            if side:
                shortest = min(
                    {SUIT_OF[c] for c in side},
                    key=lambda s: (sum(1 for c in view.hand if SUIT_OF[c] == s), s),
                )
                return min((c for c in side if SUIT_OF[c] == shortest), key=strength)
            return cheapest
        tricks_left = view.hand_size - view.trick_number + 1
        winners = [c for c in legal if wins_now(c)]
        if winners and tricks_left <= 2:
            return max(winners, key=strength)
        if winners and view.led != trump and all(SUIT_OF[c] == trump for c in winners):
            return min(winners, key=strength)  # ruff with the lowest trump that wins
        return cheapest


def _beats(card: int, best: int, trump: int) -> bool:
    """Return whether ``card`` beats ``best``, the trick's winning card so far."""
    s = SUIT_OF[card]
    b = SUIT_OF[best]
    return (s == b and card > best) or (s == trump and b != trump)
