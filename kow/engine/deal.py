"""Where a game's cards come from, and who sits where in a round: shuffle, cut, deal.

A :class:`Deck` gives the engine its cards: :class:`ShuffledDeck` draws them from the
game's seeded generator; :class:`StackedDeck` hands out decks written in advance, for
tests and for replaying a log. :func:`deal_deck` writes the deck that deals given hands.
:func:`round_seats` says who deals, cuts and is dealt in.

Rules text, 'Mise en place et Distribution' 1-2: the deck is shuffled, the player to the
dealer's right cuts, and the dealer deals one card at a time clockwise from its left.
Seats are 0-based and clockwise; a seat's *left* is the next seat clockwise still in the
game, its *right* the previous one.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple, Protocol, cast

from ..cards import Card
from ..events import Seat, clockwise, seats_of

__all__ = [
    "Deck",
    "DeckRanOut",
    "RoundSeats",
    "ShuffledDeck",
    "StackedDeck",
    "deal_deck",
    "left_of",
    "round_seats",
]


class Deck(Protocol):
    """The source of a game's cards: a cut position and shuffled cards on demand."""

    def cut(self) -> int:
        """Return where the deck is cut: 1..51 cards lifted from the top."""
        ...

    def draw(self, count: int) -> Sequence[Card]:
        """Return the top ``count`` cards of a freshly shuffled deck (a deal or a tie cut)."""
        ...


class ShuffledDeck:
    """A deck shuffled by ``rng``, a seeded :class:`random.Random`: the game's chance.

    Each call draws from ``rng`` in a fixed way (one draw per cut; one per card drawn, by
    a partial Fisher-Yates shuffle), so the same seed gives the same cards everywhere.
    """

    __slots__ = ("_rng", "_random")

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._random = rng.random

    def __reduce__(self) -> tuple[type[ShuffledDeck], tuple[random.Random]]:
        """Copy and pickle the deck with its generator (compiled by mypyc, it needs this)."""
        return (ShuffledDeck, (self._rng,))

    def cut(self) -> int:
        """Return a cut position drawn uniformly from 1..51."""
        return 1 + int(self._random() * 51)

    def draw(self, count: int) -> list[Card]:
        """Shuffle a fresh deck and return its top ``count`` cards."""
        rnd = self._random
        deck: list[object] = list(_FRESH_DECK)  # objects: the compiled swap boxes no int
        shuffled = count if 0 <= count <= 52 else len(range(52)[:count])  # as the slice
        for i in range(shuffled):  # 52 - i: the cards not yet drawn
            j = i + int(rnd() * (52 - i))
            deck[i], deck[j] = deck[j], deck[i]
        return cast("list[Card]", deck[:count])


_FRESH_DECK: Final[tuple[object, ...]] = tuple(range(52))
"""The cards 0..51 in order, copied for each :meth:`ShuffledDeck.draw`."""


class DeckRanOut(ValueError):
    """Raised by a :class:`StackedDeck` asked for more decks or cuts than it was given."""


class StackedDeck:
    """Decks written in advance, handed out in turn: for tests and for replays.

    ``decks``: each draw's cards in the order drawn (a round's deal, made with
    :func:`deal_deck`, then each tie-cut pass); ``cuts``: each round's cut position, in
    order (26 for every round when not given).

    :meth:`draw` raises :class:`DeckRanOut` when the game draws more decks than given, and
    :class:`ValueError` for more cards than the next deck holds; :meth:`cut` raises
    :class:`DeckRanOut` when the cuts run out.
    """

    __slots__ = ("_decks", "_cuts")

    def __init__(self, decks: Iterable[Sequence[Card]], cuts: Iterable[int] | None = None) -> None:
        self._decks = list(decks)[::-1]  # the next one last, so that pop() takes it
        self._cuts = None if cuts is None else list(cuts)[::-1]

    def __reduce__(self) -> tuple[type[StackedDeck], tuple[list[Sequence[Card]], list[int] | None]]:
        """Copy and pickle the decks and cuts not yet used."""
        cuts = None if self._cuts is None else self._cuts[::-1]
        return (StackedDeck, (self._decks[::-1], cuts))

    def cut(self) -> int:
        """Return the next cut position given (26 when none were given)."""
        if self._cuts is None:
            return 26
        if not self._cuts:
            raise DeckRanOut("the stacked cut positions ran out")
        return self._cuts.pop()

    def draw(self, count: int) -> Sequence[Card]:
        """Return the first ``count`` cards of the next deck."""
        if not self._decks:
            raise DeckRanOut("the stacked decks ran out")
        deck = self._decks.pop()
        if len(deck) < count:
            raise ValueError(f"a stacked deck holds {len(deck)} cards, {count} are drawn")
        return deck[:count]


def deal_deck(
    dealer: Seat,
    hands: Sequence[Sequence[Card] | None],
    turned_up: Card | None = None,
) -> list[Card]:
    """Return the deck order that deals ``hands`` (indexed by seat; None: not dealt in).

    The deal goes one card at a time clockwise from the dealer's left (rules text, 'Mise
    en place' 2), skipping seats that are not dealt in; ``turned_up`` follows the last card
    dealt. Each hand lists its cards in the order dealt, as in the log.

    >>> deal_deck(0, [[1, 2], [3, 4]], 5)
    [3, 1, 4, 2, 5]
    """
    # Lists, each read once: compiled, a list's items are read without the protocol of
    # any sequence's (a log's replay deals every round here).
    listed: list[list[Card] | None] = [None if h is None else list(h) for h in hands]
    order = [s for s in clockwise(dealer, len(listed))[1:] + (dealer,) if listed[s] is not None]
    longest = 0
    for s in order:
        longest = max(longest, len(listed[s] or ()))
    deck: list[Card] = []
    for p in range(longest):
        for s in order:
            h = listed[s]
            if h is not None and len(h) > p:
                deck.append(h[p])
    if turned_up is not None:
        deck.append(turned_up)
    return deck


def left_of(seat: Seat, in_game: Sequence[bool]) -> Seat:
    """Return the player to the left of ``seat``: the next seat clockwise still in the game.

    ``in_game[s]`` says whether seat ``s`` is in the game. The deal passes to the dealer's
    left each round. A seat alone in the game is its own left. Raises :class:`ValueError`
    when no seat is in the game.

    >>> left_of(1, [True, True, False, True])
    3
    """
    players = len(in_game)
    for i in range(1, players + 1):
        s = (seat + i) % players
        if in_game[s]:
            return s
    raise ValueError(f"no seat is in the game: {list(in_game)}")


class RoundSeats(NamedTuple):
    """Who sits where in a round (see :func:`round_seats`)."""

    in_round: tuple[Seat, ...]
    """Seats in the game, ascending."""
    knocked_out: tuple[Seat, ...]
    """Seats out of the game, ascending."""
    deal_order: tuple[Seat, ...]
    """The seats dealt to, in the order of the deal: clockwise from the dealer's left."""
    left: Seat
    """The dealer's left, who leads round 1 and every round under ``lead="dealer-left"``."""
    cutter: Seat
    """The dealer's right, who cuts."""


def round_seats(dealer: Seat, in_game: Sequence[bool]) -> RoundSeats:
    """Return the seats of a round dealt by ``dealer``; ``in_game[s]``: seat ``s`` is in.

    Rules text, 'Mise en place' 1-2: the dealer's right cuts, and the deal goes clockwise
    from the dealer's left, each the next seat still in the game. Results are cached (at
    most 7 x 2^7 of them), since a game asks again every round.

    >>> round_seats(0, [True, True, False, True])
    RoundSeats(in_round=(0, 1, 3), knocked_out=(2,), deal_order=(1, 3, 0), left=1, cutter=3)
    """
    players = len(in_game)
    mask = 0  # a bit per seat in the game
    if isinstance(in_game, list):  # the engine's: a compiled loop reads its bools directly
        for s in range(players):
            seated: bool = in_game[s]
            if seated:
                mask |= 1 << s
    else:
        mask = seats_of(in_game)
    key = (mask << 6 | players << 3 | dealer) if 0 <= dealer < 8 and players < 8 else -1
    seats = _ROUND_SEATS.get(key)
    if seats is None:
        left = left_of(dealer, in_game)
        seats = RoundSeats(
            in_round=tuple([s for s in range(players) if in_game[s]]),
            knocked_out=tuple([s for s in range(players) if not in_game[s]]),
            deal_order=tuple([s for s in clockwise(left, players) if in_game[s]]),
            left=left,
            cutter=next(s for s in reversed(clockwise(dealer, players)) if in_game[s]),
        )
        if key >= 0:
            _ROUND_SEATS[key] = seats
    return seats


_ROUND_SEATS: Final[dict[int, RoundSeats]] = {}
"""The seats of each round asked so far, by the seats in the game, their number and the
dealer, as the bits of an int (see :func:`round_seats`)."""
