"""Cards, suits and their notation: the one place where cards are parsed and printed.

A card is a small int, ``suit * 13 + rank``, so that tables indexed by card replace
objects on the hot path:

- suit: 0..3 for clubs, diamonds, hearts, spades (letters ``c d h s``);
- rank: 0..12 for 2..A, ace high (rules text, "Jeu de cartes": A K Q J 10 ... 2).

Within one suit a higher int is a higher card. A hand is a bit mask with bit ``card``
set for each card held; suit ``s`` occupies bits ``13*s .. 13*s+12``.

The canonical notation is two characters, rank then suit: ``Th`` is the ten of hearts.
Input is lenient (``10h``, ``TH``, ``10♥``, ``h10``, ``ten of hearts``): see
:func:`parse_card` and :data:`CARD_FORMS`.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Final, TypeAlias

__all__ = [
    "ALL_CARDS",
    "CARD_FORMS",
    "Card",
    "CardError",
    "DECK_SIZE",
    "FULL_DECK",
    "Mask",
    "NO_CARD",
    "NO_SUIT",
    "RANKS",
    "RANK_WORDS",
    "SUITS",
    "SUIT_MASK",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "encodes_suits",
    "Suit",
    "card",
    "card_name",
    "cards_in",
    "check_card",
    "check_suit",
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

NO_CARD: Final[Card] = -1
"""Where a card may be missing on the hot path (nothing played yet): -1, never a card."""
NO_SUIT: Final[Suit] = -1
"""Where a suit may be missing on the hot path (no trump, nothing led): -1, never a suit.

Tables indexed by suit have a last element for it, so ``TABLE[NO_SUIT]`` needs no test.
"""

RANKS = "23456789TJQKA"
"""Rank letters, lowest first: index is the rank (0 = two, 12 = ace)."""
SUITS = "cdhs"
"""Suit letters: index is the suit (0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades)."""
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = "♣♦♥♠"
"""The suit symbols, indexed by suit."""
DECK_SIZE: Final = 52

ALL_CARDS: Final[tuple[Card, ...]] = tuple(range(DECK_SIZE))
FULL_DECK: Final[Mask] = (1 << DECK_SIZE) - 1
"""The mask holding all 52 cards."""
SUIT_MASK: Final[tuple[Mask, ...]] = (*(0x1FFF << (13 * s) for s in range(4)), 0)
"""Mask of each suit's 13 cards, indexed by suit; ``SUIT_MASK[NO_SUIT]`` is empty."""

SUIT_OF: Final[tuple[Suit, ...]] = tuple(c // 13 for c in ALL_CARDS)
RANK_OF: Final[tuple[int, ...]] = tuple(c % 13 for c in ALL_CARDS)
NAMES: Final[tuple[str, ...]] = tuple(RANKS[c % 13] + SUITS[c // 13] for c in ALL_CARDS)
"""Canonical two-character name of each card, indexed by card."""
BIT: Final[tuple[Mask, ...]] = tuple(1 << c for c in ALL_CARDS)
"""``1 << card``, indexed by card."""

_RANK_SHORT = {r.lower(): i for i, r in enumerate(RANKS)}
_RANK_SHORT["10"] = 8
RANK_WORDS = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)  # fmt: skip
"""Rank names, lowest first: index is the rank (0 = two, 12 = ace)."""
_LONGEST_SHORT = max(map(len, _RANK_SHORT)) + 1
"""The longest card written as one word: a short rank and a suit letter (``10h``)."""
_RANKS_ANY = {**_RANK_SHORT, **{w: i for i, w in enumerate(RANK_WORDS)}}
_SYMBOLS = "♣♦♥♠♧♢♡♤"
"""The suit symbols, filled then outline: index modulo 4 is the suit."""
_SUIT_SHORT = {letter: i for i, letter in enumerate(SUITS)}
_SUIT_SHORT.update({symbol: i % 4 for i, symbol in enumerate(_SYMBOLS)})
_SUIT_WORDS = {**_SUIT_SHORT, **{n: i for i, n in enumerate(SUIT_NAMES)}}
_SUIT_WORDS.update({n[:-1]: i for i, n in enumerate(SUIT_NAMES)})  # club, heart, ...
_SPACED_SYMBOLS = str.maketrans({s: f" {s} " for s in _SYMBOLS} | {"\ufe0f": "", "\ufe0e": ""})
"""Stand each suit symbol apart (``10♥`` reads as ``10 ♥``) and drop the variation
selectors that emoji keyboards add after a symbol (``♥️``)."""

CARD_FORMS: tuple[str, ...] = (
    "rank then suit: Th, 10h, 10♥, qs, 10 h, ten h, ten hearts, ten of hearts",
    "suit then rank: h10, ♥10, sq, h 10, s queen, spades q, hearts ten",
    "ranks: 2 to 10 (or T), J, Q, K, A, or two to ten, jack, queen, king, ace",
    "suits: c d h s, ♣ ♦ ♥ ♠, or clubs, diamonds, hearts, spades; any case",
    "a word stands apart: ten h and queen s, not tenh or queens",
)
"""Every way :func:`parse_card` reads a card, one line each, with examples (for ``help``)."""


class CardError(ValueError):
    """Raised for text that is not a card or a suit in any accepted notation."""


def encodes_suits(encoding: str) -> bool:
    """Return whether the text encoding ``encoding`` encodes the suit symbols ♣ ♦ ♥ ♠.

    The one test of "can this stream show ♠" that :func:`kow.screen.symbols_fit` and the
    command line's streams make. Raises :class:`LookupError` for an encoding Python does
    not know, which each caller reads its own way.

    >>> encodes_suits("utf-8"), encodes_suits("cp1252"), encodes_suits("ascii")
    (True, False, False)
    """
    try:
        SUIT_SYMBOLS.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


def card(rank: int, suit: Suit) -> Card:
    """Return the card of ``rank`` (0 = two .. 12 = ace) and ``suit`` (0..3, ``cdhs``).

    >>> card_name(card(12, 3))
    'As'

    Raises :class:`CardError` when either is out of range.
    """
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise CardError(f"no card with rank {rank} and suit {suit}")
    return suit * 13 + rank


def check_card(c: object) -> Card:
    """Return ``c`` as a card (an int 0 to 51, ``2c`` 0 to ``As`` 51), or raise naming it.

    A numpy integer counts as its int, a bool does not. Raises :class:`TypeError` for a
    value that is not an integer and :class:`CardError` for one out of range, each naming
    the value (the same in the compiled and the pure build).

    >>> check_card(51)
    51
    >>> check_card(52)
    Traceback (most recent call last):
    ...
    kow.cards.CardError: 52 is not a card: an int 0 to 51 (0 is 2c, 51 is As)
    """
    if type(c) is int and 0 <= c < DECK_SIZE:
        return c
    if isinstance(c, bool):
        raise TypeError(f"{c!r} is not a card: an int 0 to 51 (0 is 2c, 51 is As)")
    try:
        index = operator.index(c)  # type: ignore[arg-type]  # any __index__, or TypeError
    except TypeError:
        hint = f"; parse_card({c!r}) reads a card's name" if isinstance(c, str) else ""
        raise TypeError(f"{c!r} is not a card: an int 0 to 51 (0 is 2c, 51 is As){hint}") from None
    if not 0 <= index < DECK_SIZE:
        raise CardError(f"{c!r} is not a card: an int 0 to 51 (0 is 2c, 51 is As)")
    return index


def check_suit(s: object) -> Suit:
    """Return ``s`` as a suit (an int 0 to 3, ``cdhs``), or raise naming it, as
    :func:`check_card` does for a card.

    >>> check_suit(4)
    Traceback (most recent call last):
    ...
    kow.cards.CardError: 4 is not a suit: an int 0 to 3 (c, d, h, s)
    """
    if type(s) is int and 0 <= s < 4:
        return s
    message = f"{s!r} is not a suit: an int 0 to 3 (c, d, h, s)"
    if isinstance(s, bool):
        raise TypeError(message)
    try:
        index = operator.index(s)  # type: ignore[arg-type]  # any __index__, or TypeError
    except TypeError:
        raise TypeError(message) from None
    if not 0 <= index < 4:
        raise CardError(message)
    return index


def suit_of(c: object) -> Suit:
    """Return the suit (0..3, ``cdhs``) of card ``c`` (checked: :func:`check_card`).

    >>> suit_of(parse_card("Th"))
    2
    """
    return SUIT_OF[check_card(c)]


def rank_of(c: object) -> int:
    """Return the rank (0 = two .. 12 = ace) of card ``c`` (checked: :func:`check_card`).

    >>> rank_of(parse_card("Ac"))
    12
    """
    return RANK_OF[check_card(c)]


def card_name(c: object) -> str:
    """Return the canonical two-character name of card ``c``: rank ``23456789TJQKA``, suit ``cdhs``.

    Raises :class:`TypeError` or :class:`CardError` naming a value that is not a card
    (:func:`check_card`).

    >>> card_name(parse_card("10♥"))
    'Th'
    """
    return NAMES[check_card(c)]


def suit_name(s: object) -> str:
    """Return the one-letter name (``c d h s``) of suit ``s`` (checked: :func:`check_suit`).

    >>> suit_name(2)
    'h'
    """
    return SUITS[check_suit(s)]


def parse_card(text: object) -> Card:
    """Parse a card written any common way and return it.

    Rank and suit, in either order (see :data:`CARD_FORMS`): a rank is ``2``-``10``,
    ``T J Q K A`` or a word (``two`` .. ``ten``, ``jack``, ``queen``, ``king``, ``ace``);
    a suit is a letter ``c d h s``, a symbol ``♣ ♦ ♥ ♠`` (or its outline form) or a name
    (``hearts``, ``heart``). Letters, digits and symbols may touch (``10h``, ``h10``,
    ``♥10``, ``sq``); a word stands apart (``ten h``, ``hearts 10``), and rank first may
    put ``of`` between (``ten of hearts``). Any case; spaces around are ignored.

    >>> [card_name(parse_card(t)) for t in ("Th", "10h", "10♥", "h10", "♥ 10", "ten of hearts")]
    ['Th', 'Th', 'Th', 'Th', 'Th', 'Th']
    >>> [card_name(parse_card(t)) for t in ("qs", "Q♠", "sq", "q s", "queen spades", "S Queen")]
    ['Qs', 'Qs', 'Qs', 'Qs', 'Qs', 'Qs']

    Suit letters and rank letters share no letter, so no entry reads as two cards. ``a``
    before a suit's name is refused: ``a heart`` reads as any heart as well as the ace.
    Raises :class:`CardError` naming the text when it is not a card, and
    :class:`TypeError` when it is not a str.
    """
    if not isinstance(text, str):
        raise TypeError(f"{text!r} is not a card's name: give a str, such as 'Th' or '10h'")
    low = text.strip().lower()
    if len(low) in (2, 3):  # the common case first: 10h, Th, Q♠
        rank = _RANK_SHORT.get(low[:-1])
        suit = _SUIT_SHORT.get(low[-1])
        if rank is not None and suit is not None:
            return suit * 13 + rank
    words = low.translate(_SPACED_SYMBOLS).split()
    if len(words) == 2 and words[0] == "a" and len(words[1]) > 1 and words[1] in _SUIT_WORDS:
        suit = _SUIT_WORDS[words[1]]
        raise CardError(
            f"{text!r} could mean any {SUIT_NAMES[suit][:-1]}: for the ace, write "
            f"ace of {SUIT_NAMES[suit]} or A{SUITS[suit]}"
        )
    found = _read_card(words)
    if found is None:
        raise CardError(
            f"{text!r} is not a card: write a rank and a suit, such as Th, 10h, h10, Q♠, "
            f"10 h or queen of spades (ranks {' '.join(RANKS)}, suits {' '.join(SUITS)})"
        )
    return found


def _read_card(words: list[str]) -> Card | None:
    """Return the card that ``words`` (lowercased, symbols standing apart) name, or None.

    One word: a short rank and a short suit touching, in either order (``10h``, ``sq``);
    None if it could be cut two ways (none can today: the letters differ). Two words: a
    rank and a suit, in either order. Three words: rank, ``of``, suit.
    """
    if len(words) == 1:
        word = words[0]
        readings = set()
        if len(word) > _LONGEST_SHORT:  # no cut of it can be a card: a long entry costs
            return None  # no more than its reading (each cut copies the word)
        for cut in range(1, len(word)):
            head, tail = word[:cut], word[cut:]
            if head in _RANK_SHORT and tail in _SUIT_SHORT:
                readings.add(_SUIT_SHORT[tail] * 13 + _RANK_SHORT[head])
            if head in _SUIT_SHORT and tail in _RANK_SHORT:
                readings.add(_SUIT_SHORT[head] * 13 + _RANK_SHORT[tail])
        return readings.pop() if len(readings) == 1 else None
    if len(words) == 3 and words[1] == "of":
        rank, suit = _RANKS_ANY.get(words[0]), _SUIT_WORDS.get(words[2])
    elif len(words) == 2 and words[0] in _RANKS_ANY:
        rank, suit = _RANKS_ANY[words[0]], _SUIT_WORDS.get(words[1])
    elif len(words) == 2:
        rank, suit = _RANKS_ANY.get(words[1]), _SUIT_WORDS.get(words[0])
    else:
        return None
    return None if rank is None or suit is None else suit * 13 + rank


def parse_suit(text: object) -> Suit:
    """Parse a suit given as a letter, a name or a symbol and return it (0..3, ``cdhs``).

    >>> [parse_suit(t) for t in ("h", "Hearts", "♥", "heart", "S")]
    [2, 2, 2, 2, 3]

    Raises :class:`CardError` naming the text when it is not a suit.
    """
    if not isinstance(text, str):
        raise TypeError(f"{text!r} is not a suit's name: give a str, such as 'h' or 'hearts'")
    s = _SUIT_WORDS.get(text.strip().lower().translate(_SPACED_SYMBOLS).strip())
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
    if not _C0:
        _fill_suit_cards()
    cards = _C0[mask & 0x1FFF]
    suit = 1
    mask >>= 13
    while mask:  # the suits above clubs, joined only when they hold cards
        held = mask & 0x1FFF
        if held:
            cards = cards + _SUIT_CARDS[suit][held] if len(cards) else _SUIT_CARDS[suit][held]
        mask >>= 13
        suit += 1
    return cards


def suit_cards(mask: Mask, suit: Suit) -> tuple[Card, ...]:
    """Return the cards of suit ``suit`` (0..3) in hand mask ``mask``, lowest first.

    >>> [card_name(c) for c in suit_cards(mask_of([parse_card("As"), parse_card("3d")]), 3)]
    ['As']
    """
    if not _C0:
        _fill_suit_cards()
    return _SUIT_CARDS[suit][mask >> (13 * suit) & 0x1FFF]


def _suit_table(suit: Suit) -> list[tuple[Card, ...]]:
    """Return the cards of every 13-bit mask of ``suit``, indexed by mask (8192 masks)."""
    table: list[tuple[Card, ...]] = [()]
    for rank in range(13):
        card = (13 * suit + rank,)
        table += [cards + card for cards in table]  # masks with ``rank`` as their top bit
    return table


def _fill_suit_cards() -> None:
    """Fill :data:`_SUIT_CARDS`, each suit's table (:func:`_suit_table`), in place.

    Clubs' table (``_C0``, which says whether the tables are filled) is filled last, each
    table in one step: a thread that finds it filled finds them all filled (threads play
    games at once in ``kow serve``); two threads that both find it empty fill the same
    tables twice.
    """
    tables = [_suit_table(suit) for suit in range(4)]
    for suit in (3, 2, 1, 0):
        _SUIT_CARDS[suit][:] = tables[suit]


_SUIT_CARDS: Final[tuple[list[tuple[Card, ...]], ...]] = ([], [], [], [])
"""Per suit, the cards of each 13-bit suit mask (bit ``r`` for rank ``r``), lowest first.

Filled on first use (by :func:`cards_in` or :func:`suit_cards`: docs/performance.md,
"Design choices", gives its size and cost), so that listing a hand is a list lookup a suit
held and a process that never lists one (``kow simulate``, ``kow --help``) does not build it.
"""
_C0: Final = _SUIT_CARDS[0]
