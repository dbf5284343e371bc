"""Cards, suits and their notation: the one place where cards are parsed and printed.

A card is a small int, ``suit * 13 + rank``, so that tables indexed by card replace
objects on the hot path:

- suit: 0..3 for clubs, diamonds, hearts, spades (letters ``c d h s``);
- rank: 0..12 for 2..A, ace high (rules text, "Jeu de cartes": A K Q J 10 ... 2).

Within one suit a higher int is a higher card. A hand is a bit mask with bit ``card``
set for each card held; suit ``s`` occupies bits ``13*s .. 13*s+12``.

The canonical notation is two characters, rank then suit: ``Th`` is the ten of hearts.
Input is lenient (``10h``, ``TH``, ``10♥``, ``q♠``); see :func:`parse_card`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

__all__ = [
    "ALL_CARDS",
    "Card",
    "CardError",
    "DECK_SIZE",
    "FULL_DECK",
    "Mask",
    "NO_CARD",
    "NO_SUIT",
    "RANKS",
    "SUITS",
    "SUIT_MASK",
    "SUIT_CARDS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "Suit",
    "card",
    "card_name",
    "cards_in",
    "mask_of",
    "parse_card",
    "parse_suit",
    "rank_of",
    "suit_name",
    "suit_cards",
    "suit_of",
]

Card: TypeAlias = int
"""A card, 0..51: ``suit * 13 + rank``."""
Suit: TypeAlias = int
"""A suit, 0..3 for clubs, diamonds, hearts, spades (``c d h s``)."""
Mask: TypeAlias = int
"""A set of cards as a 52-bit mask: bit ``card`` set for each card in it."""

NO_CARD: Card = -1
"""Where a card may be missing on the hot path (nothing played yet): -1, never a card."""
NO_SUIT: Suit = -1
"""Where a suit may be missing on the hot path (no trump, nothing led): -1, never a suit.

Tables indexed by suit have a last entry for it, so ``TABLE[NO_SUIT]`` needs no test.
"""

RANKS = "23456789TJQKA"
"""Rank letters, lowest first: index is the rank (0 = two, 12 = ace)."""
SUITS = "cdhs"
"""Suit letters: index is the suit (0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades)."""
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = "♣♦♥♠"
DECK_SIZE = 52

ALL_CARDS: tuple[Card, ...] = tuple(range(DECK_SIZE))
FULL_DECK: Mask = (1 << DECK_SIZE) - 1
"""The mask holding all 52 cards."""
SUIT_MASK: tuple[Mask, ...] = (*(0x1FFF << (13 * s) for s in range(4)), 0)
"""Mask of each suit's 13 cards, indexed by suit; ``SUIT_MASK[NO_SUIT]`` is empty."""

SUIT_OF: tuple[Suit, ...] = tuple(c // 13 for c in ALL_CARDS)
RANK_OF: tuple[int, ...] = tuple(c % 13 for c in ALL_CARDS)
NAMES: tuple[str, ...] = tuple(RANKS[c % 13] + SUITS[c // 13] for c in ALL_CARDS)
"""Canonical two-character name of each card, indexed by card."""
BIT: tuple[Mask, ...] = tuple(1 << c for c in ALL_CARDS)
"""``1 << card``, indexed by card."""

_RANK_WORDS = {r.lower(): i for i, r in enumerate(RANKS)}
_RANK_WORDS["10"] = 8
_SUIT_WORDS: dict[str, int] = {}
for _s in range(4):
    for _w in (SUITS[_s], SUIT_NAMES[_s], SUIT_NAMES[_s][:-1], SUIT_SYMBOLS[_s]):
        _SUIT_WORDS[_w] = _s
_SUIT_WORDS.update({"♧": 0, "♢": 1, "♡": 2, "♤": 3})


class CardError(ValueError):
    """Raised for text that is not a card or a suit in any accepted notation."""


def card(rank: int, suit: Suit) -> Card:
    """Return the card of ``rank`` (0 = two .. 12 = ace) and ``suit`` (0..3, ``cdhs``).

    >>> card_name(card(12, 3))
    'As'

    Raises :class:`CardError` when either is out of range.
    """
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise CardError(f"no card with rank {rank} and suit {suit}")
    return suit * 13 + rank


def suit_of(c: Card) -> Suit:
    """Return the suit (0..3, ``cdhs``) of card ``c``.

    >>> suit_of(parse_card("Th"))
    2
    """
    return SUIT_OF[c]


def rank_of(c: Card) -> int:
    """Return the rank (0 = two .. 12 = ace) of card ``c``.

    >>> rank_of(parse_card("Ac"))
    12
    """
    return RANK_OF[c]


def card_name(c: Card) -> str:
    """Return the canonical two-character name of card ``c``: rank ``23456789TJQKA``, suit ``cdhs``.

    >>> card_name(parse_card("10♥"))
    'Th'
    """
    return NAMES[c]


def suit_name(s: Suit) -> str:
    """Return the one-letter name (``c d h s``) of suit ``s``.

    >>> suit_name(2)
    'h'
    """
    return SUITS[s]


def parse_card(text: str) -> Card:
    """Parse a card written any common way and return it.

    Accepted: rank ``2``-``9``, ``T``/``10``, ``J Q K A`` (any case), then a suit letter
    ``c d h s`` (any case) or symbol ``♣ ♦ ♥ ♠`` (or their outline forms).

    >>> [card_name(parse_card(t)) for t in ("Th", "10h", "10H", "th", "10♥", "Q♠", "qs")]
    ['Th', 'Th', 'Th', 'Th', 'Th', 'Qs', 'Qs']

    Raises :class:`CardError` naming the text when it is not a card.
    """
    t = text.strip()
    low = t.lower()
    if len(low) >= 2:
        rank = _RANK_WORDS.get(low[:-1])
        suit = _SUIT_WORDS.get(low[-1])
        if rank is not None and suit is not None:
            return suit * 13 + rank
    raise CardError(
        f"{text!r} is not a card: write rank then suit, such as Th, 10h, Q♠ "
        f"(ranks {' '.join(RANKS)}, suits {' '.join(SUITS)})"
    )


def parse_suit(text: str) -> Suit:
    """Parse a suit given as a letter, a name or a symbol and return it (0..3, ``cdhs``).

    >>> [parse_suit(t) for t in ("h", "Hearts", "♥", "heart", "S")]
    [2, 2, 2, 2, 3]

    Raises :class:`CardError` naming the text when it is not a suit.
    """
    s = _SUIT_WORDS.get(text.strip().lower())
    if s is None:
        raise CardError(f"{text!r} is not a suit: use c, d, h or s (or clubs, ♣, ...)")
    return s


def mask_of(cards: Iterable[Card]) -> Mask:
    """Return the hand mask holding ``cards``.

    >>> cards_in(mask_of([parse_card("Ah"), parse_card("2c")])) == (0, 38)
    True
    """
    m = 0
    for c in cards:
        m |= BIT[c]
    return m


def cards_in(mask: Mask) -> tuple[Card, ...]:
    """Return the cards of hand mask ``mask``, lowest int first (by suit ``cdhs``, then rank).

    >>> [card_name(c) for c in cards_in(mask_of([parse_card("As"), parse_card("3d")]))]
    ['3d', 'As']
    """
    return (
        _C0[mask & 0x1FFF]
        + _C1[mask >> 13 & 0x1FFF]
        + _C2[mask >> 26 & 0x1FFF]
        + _C3[mask >> 39 & 0x1FFF]
    )


def suit_cards(mask: Mask, suit: Suit) -> tuple[Card, ...]:
    """Return the cards of suit ``suit`` (0..3) in hand mask ``mask``, lowest first.

    >>> [card_name(c) for c in suit_cards(mask_of([parse_card("As"), parse_card("3d")]), 3)]
    ['As']
    """
    return SUIT_CARDS[suit][mask >> (13 * suit) & 0x1FFF]


def _suit_table(suit: Suit) -> list[tuple[Card, ...]]:
    """Return the cards of every 13-bit mask of ``suit``, indexed by mask (8192 entries)."""
    table: list[tuple[Card, ...]] = [()]
    for rank in range(13):
        card = (13 * suit + rank,)
        table += [cards + card for cards in table]  # masks with ``rank`` as their top bit
    return table


SUIT_CARDS: tuple[list[tuple[Card, ...]], ...] = tuple(_suit_table(s) for s in range(4))
"""Per suit, the cards of each 13-bit suit mask (bit ``r`` for rank ``r``), lowest first.

Filled at import (about 2 MB, a few ms) so that listing a hand is four list lookups.
"""
_C0, _C1, _C2, _C3 = SUIT_CARDS
