"""Cards and their notation (kow.cards)."""

from __future__ import annotations

import pytest

from kow.cards import (
    ALL_CARDS,
    FULL_DECK,
    SUIT_MASK,
    CardError,
    card,
    card_name,
    cards_in,
    mask_of,
    parse_card,
    parse_suit,
    rank_of,
    suit_name,
    suit_of,
)

TEN_OF_HEARTS = 2 * 13 + 8
QUEEN_OF_SPADES = 3 * 13 + 10


@pytest.mark.parametrize("text", ["Th", "10h", "10H", "th", "TH", "10♥", "T♡", " Th "])
def test_parse_ten_of_hearts(text: str) -> None:
    assert parse_card(text) == TEN_OF_HEARTS


@pytest.mark.parametrize("text", ["Qs", "Q♠", "qs", "QS", "q♠", "Q♤"])
def test_parse_queen_of_spades(text: str) -> None:
    assert parse_card(text) == QUEEN_OF_SPADES


@pytest.mark.parametrize(
    ("text", "name"),
    [("2c", "2c"), ("9d", "9d"), ("Jd", "Jd"), ("kC", "Kc"), ("A♦", "Ad"), ("a♣", "Ac")],
)
def test_parse_other_cards(text: str, name: str) -> None:
    assert card_name(parse_card(text)) == name


@pytest.mark.parametrize(
    "text", ["1h", "11h", "", " ", "Tx", "hh", "T", "h", "10", "0h", "1", "Thh", "AA", "♥T"]
)
def test_parse_rejects(text: str) -> None:
    with pytest.raises(CardError) as err:
        parse_card(text)
    assert repr(text) in str(err.value)


def test_card_error_is_value_error() -> None:
    assert issubclass(CardError, ValueError)


def test_every_card_round_trips() -> None:
    names = [card_name(c) for c in ALL_CARDS]
    assert len(set(names)) == 52
    assert [parse_card(n) for n in names] == list(ALL_CARDS)
    assert names[:13] == [r + "c" for r in "23456789TJQKA"]
    assert names[-1] == "As"


def test_card_rank_suit() -> None:
    assert card(8, 2) == TEN_OF_HEARTS
    assert (rank_of(TEN_OF_HEARTS), suit_of(TEN_OF_HEARTS)) == (8, 2)
    assert suit_name(suit_of(QUEEN_OF_SPADES)) == "s"
    for bad in [(13, 0), (-1, 0), (0, 4), (0, -1)]:
        with pytest.raises(CardError):
            card(*bad)


def test_higher_int_is_higher_card_within_suit() -> None:
    # Rules text, "Jeu de cartes": A K Q J 10 9 ... 2 within each suit.
    order = [parse_card(r + "d") for r in "2 3 4 5 6 7 8 9 10 J Q K A".split()]
    assert order == sorted(order)
    assert all(suit_of(c) == 1 for c in order)


@pytest.mark.parametrize(
    ("text", "suit"),
    [("c", 0), ("D", 1), ("h", 2), ("s", 3), ("Hearts", 2), ("heart", 2), ("♥", 2),
     ("♠", 3), ("clubs", 0), ("♢", 1)],
)
def test_parse_suit(text: str, suit: int) -> None:
    assert parse_suit(text) == suit


@pytest.mark.parametrize("text", ["", "x", "hh", "Th", "5"])
def test_parse_suit_rejects(text: str) -> None:
    with pytest.raises(CardError):
        parse_suit(text)


def test_masks() -> None:
    hand = [parse_card(t) for t in ("As", "2c", "Th")]
    m = mask_of(hand)
    assert m.bit_count() == 3
    assert cards_in(m) == tuple(sorted(hand))
    assert cards_in(FULL_DECK) == ALL_CARDS
    assert cards_in(SUIT_MASK[2]) == tuple(parse_card(r + "h") for r in "23456789TJQKA")
    assert cards_in(0) == ()
