"""The rules of one trick, stated once: who plays, what may be played, what beats what.

The engine (:mod:`kow.engine`) alone applies them: it plays each card, ends each trick and
picks the next leader. Bots read them here to judge a trick without playing it (which
cards would win it, which they may play), so that no bot states a rule of its own.

Cards are ints and sets of cards are masks (see :mod:`kow.cards`); seats are 0-based and
clockwise.

>>> from kow.cards import mask_of, parse_card, parse_suit
>>> beats(parse_card("2h"), parse_card("As"), parse_suit("h"))  # a trump beats a side suit
True
>>> beats(parse_card("Ac"), parse_card("2d"), parse_suit("h"))  # a discard never wins
False
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, cast

from ..cards import ALL_CARDS, BIT, NO_SUIT, SUIT_MASK, SUIT_OF, Card, Mask, Suit, mask_of
from ..events import CLOCKWISE, Seat, WonBy, seats_of

_CLOCKWISE: Final = CLOCKWISE
""":data:`~kow.events.CLOCKWISE` as a C static of the compiled build."""

__all__ = [
    "BEATEN_BY",
    "beats",
    "knock_allowed",
    "legal_cards",
    "trick_order",
    "won_by",
]


def beats(card: Card, winning: Card, trump: Suit) -> bool:
    """Return whether ``card`` takes the trick from ``winning``, the card winning it so far.

    ``trump`` is a suit, or :data:`~kow.cards.NO_SUIT` for none. Rules text, 'Déroulement
    du jeu' 3: the highest trump wins the trick, else the highest card of the led suit. So
    a card beats the winning card when it is a higher card of the same suit, or a trump
    played on a card that is not one. Any other card (a discard) cannot win.
    """
    suit = SUIT_OF[card]
    other = SUIT_OF[winning]
    return (suit == other and card > winning) or (suit == trump and other != trump)


BEATEN_BY: Final[tuple[tuple[Mask, ...], ...]] = tuple(
    tuple(mask_of(c for c in ALL_CARDS if beats(c, winning, trump)) for winning in ALL_CARDS)
    for trump in (0, 1, 2, 3, NO_SUIT)
)
"""``BEATEN_BY[trump][winning]``: the mask of the cards that beat ``winning`` (see
:func:`beats`, from which it is built); ``trump`` may be :data:`~kow.cards.NO_SUIT`."""


def won_by(card: Card, led: Suit, trump: Suit, cards: Mask) -> WonBy:
    """Return why ``card`` won the trick whose cards are the mask ``cards`` (card included).

    ``led``: the trick's led suit; ``trump``: the trump suit, or
    :data:`~kow.cards.NO_SUIT` for none. ``card`` must be the card :func:`beats` makes the
    winner (the engine's trick loop calls this as a trick ends). Rules text, 'Déroulement
    du jeu' 3: a winning card of another suit than the led one is a trump; a trump led
    that nobody else follows wins as the only card of the led suit.

    >>> from kow.cards import mask_of, parse_card, parse_suit
    >>> def why(card, cards, led="s", trump="h"):
    ...     cards = mask_of(parse_card(c) for c in cards.split())
    ...     return won_by(parse_card(card), parse_suit(led), parse_suit(trump), cards).name
    >>> why("3h", "As 2h 3h"), why("2h", "As 2h Ks")  # spades led, hearts trump
    ('HIGHEST_TRUMP', 'ONLY_TRUMP')
    >>> why("Ks", "Ks 2s 3c"), why("Ks", "Ks 3c"), why("5h", "5h 2c 3d", led="h"), why("Ks", "Ks")
    ('HIGHEST_OF_LED', 'ONLY_OF_LED', 'ONLY_OF_LED', 'ONLY_CARD')
    """
    if cards & _FELLOWS[card]:  # another card of its suit was played: it is the highest
        return _HIGHEST_TRUMP if SUIT_OF[card] == trump else _HIGHEST_OF_LED
    if cards == BIT[card]:
        return _ONLY_CARD
    return _ONLY_OF_LED if SUIT_OF[card] == led else _ONLY_TRUMP


_FELLOWS: Final[tuple[Mask, ...]] = tuple(SUIT_MASK[SUIT_OF[c]] & ~BIT[c] for c in ALL_CARDS)
"""``_FELLOWS[card]``: the mask of the other cards of ``card``'s suit."""
# WonBy's members as plain names: the trick loop calls won_by at every trick's end.
_HIGHEST_TRUMP: Final = WonBy.HIGHEST_TRUMP
_HIGHEST_OF_LED: Final = WonBy.HIGHEST_OF_LED
_ONLY_CARD: Final = WonBy.ONLY_CARD
_ONLY_OF_LED: Final = WonBy.ONLY_OF_LED
_ONLY_TRUMP: Final = WonBy.ONLY_TRUMP


def legal_cards(hand: Mask, led: Suit) -> Mask:
    """Return the cards of ``hand`` that may be played to a trick whose led suit is ``led``.

    Rules text, 'Déroulement du jeu' 2: a player must follow suit when able, and may
    play any card otherwise (and when leading: ``led`` is :data:`~kow.cards.NO_SUIT`).

    >>> from kow.cards import cards_in, card_name, mask_of, parse_card
    >>> hand = mask_of(parse_card(c) for c in ("2c", "Kh", "9h"))
    >>> [card_name(c) for c in cards_in(legal_cards(hand, 2))]
    ['9h', 'Kh']
    >>> [card_name(c) for c in cards_in(legal_cards(hand, 1))]
    ['2c', '9h', 'Kh']
    """
    return hand & SUIT_MASK[led] or hand


def knock_allowed(trick_number: int, hand_size: int) -> bool:
    """Return whether a player on a dog's life may knock on trick ``trick_number`` (from 1).

    Seed 002: a player on a dog's life may knock, passing the trick and keeping its one
    card, on any trick of the round but the last, where it must play the card (the
    last-trick rule is ours: seed 002 implies it, since the card must be played).

    >>> knock_allowed(2, 3), knock_allowed(3, 3)
    (True, False)
    """
    return trick_number < hand_size


def trick_order(leader: Seat, hands: Sequence[Mask]) -> tuple[Seat, ...]:
    """Return the seats that play a trick led by ``leader``, in the order they play.

    ``hands[seat]`` is each seat's hand (a mask, 0 for none). Every seat that still holds
    a card plays, clockwise from the leader (rules text, 'Déroulement du jeu' 2-3); a
    knocked-out seat, or one whose dog's-life card is played, holds none and is skipped.

    >>> trick_order(2, [1, 0, 4, 8])
    (2, 3, 0)
    """
    players = len(hands)
    holding = 0  # a bit per seat holding a card
    if isinstance(hands, list):  # the engine's: a compiled loop tests its ints directly
        held = cast("list[object]", hands)  # objects: a test of 0, not an unboxed mask
        for s in range(players):
            if held[s]:
                holding |= 1 << s
    else:
        holding = seats_of(hands)
    if players < 8 and 0 <= leader < players:
        return _ORDERS[(players << 3 | leader) << 7 | holding]
    return tuple([s for s in _CLOCKWISE[players][leader] if holding >> s & 1])


_ORDERS: Final[tuple[tuple[Seat, ...], ...]] = tuple(
    tuple([s for s in _CLOCKWISE[n][leader] if holding >> s & 1])
    if n < len(_CLOCKWISE) and leader < n and holding < 1 << n
    else ()
    for n in range(8)
    for leader in range(8)
    for holding in range(1 << 7)
)
"""``_ORDERS[(players << 3 | leader) << 7 | holding]``: :func:`trick_order`'s answer, with a
bit of ``holding`` per seat holding a card, for every table of up to 7 seats (one flat
tuple of 8,192: a single look-up)."""
