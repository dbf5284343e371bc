"""Who deals, cuts and is dealt in, and where the cards come from (:mod:`kow.engine.deal`).

Rules text, 'Mise en place et Distribution' 1-2: the player to the dealer's right cuts,
and the dealer deals one card at a time clockwise from its left; seats knocked out are
skipped. Hand-crafted tables for :func:`~kow.engine.deal.round_seats`,
:func:`~kow.engine.deal.left_of` and :func:`~kow.engine.deal.deal_deck`; the stacked deck of tests
and replays; the shuffled deck, pinned for seed 1.
"""

from __future__ import annotations

import random

import pytest
from conftest import cards
from hypothesis import given
from hypothesis import strategies as st

from kow.cards import NAMES
from kow.engine import State
from kow.engine.deal import RoundSeats, ShuffledDeck, StackedDeck, deal_deck, left_of, round_seats
from kow.rules import Rules

T, F = True, False

# ----------------------------------------------------------------------------- seats


@pytest.mark.parametrize(
    ("dealer", "in_game", "expected"),
    [
        # Everyone in: the dealer's left (1) is dealt first and leads, its right (3) cuts.
        (0, [T, T, T, T], RoundSeats((0, 1, 2, 3), (), (1, 2, 3, 0), 1, 3)),
        # The dealer is the last seat: its left wraps round to seat 0.
        (3, [T, T, T, T], RoundSeats((0, 1, 2, 3), (), (0, 1, 2, 3), 0, 2)),
        # Seats 4 and 5 are out: the cutter, the dealer's right, skips them to seat 3.
        (0, [T, F, T, T, F, F], RoundSeats((0, 2, 3), (1, 4, 5), (2, 3, 0), 2, 3)),
        # Seats 4 and 0 are out: the deal starts past them at seat 1; seat 2 cuts.
        (3, [F, T, T, T, F], RoundSeats((1, 2, 3), (0, 4), (1, 2, 3), 1, 2)),
        # Two players left, far apart: each is the other's left and right.
        (1, [F, T, F, F, F, T, F], RoundSeats((1, 5), (0, 2, 3, 4, 6), (5, 1), 5, 5)),
        # Seat 6 deals, seat 0 out: seat 1 is its left, seat 5 its right.
        (6, [F, T, T, T, T, T, T],
         RoundSeats((1, 2, 3, 4, 5, 6), (0,), (1, 2, 3, 4, 5, 6), 1, 5)),
    ],
)  # fmt: skip
def test_round_seats(dealer: int, in_game: list[bool], expected: RoundSeats) -> None:
    seats = round_seats(dealer, in_game)
    assert seats == expected
    assert round_seats(dealer, in_game) == expected, "the cached answer is the same"
    assert seats.in_round == tuple(sorted(seats.in_round))
    assert seats.knocked_out == tuple(sorted(seats.knocked_out))


def test_round_seats_of_a_list_or_a_tuple() -> None:
    # The compiled build reads a list of bools directly and other sequences generically.
    expected = round_seats(3, [True, False, True, True])
    assert round_seats(3, (True, False, True, True)) == expected
    assert expected == RoundSeats((0, 2, 3), (1,), (0, 2, 3), 0, 2)


def test_round_seats_is_cached_by_dealer_and_seats() -> None:
    first = round_seats(2, [T, T, T])
    assert round_seats(2, (True, True, True)) is first
    assert round_seats(2, [T, F, T]) != first
    assert round_seats(2, [T, F, T]).deal_order == (0, 2)


@pytest.mark.parametrize(
    ("seat", "in_game", "left"),
    [
        (0, [T, T, T, T], 1),
        (3, [T, T, T, T], 0),  # wraps round
        (1, [T, T, F, T], 3),  # skips a seat out
        (2, [F, T, T, F], 1),  # wraps round and skips seats 3 and 0
        (4, [F, F, T, F, T], 2),
        (1, [F, T, F], 1),  # alone in the game: its own left
        (0, [F, T, T], 1),  # a seat out still has a left: the next seat in the game
    ],
)
def test_left_of(seat: int, in_game: list[bool], left: int) -> None:
    assert left_of(seat, in_game) == left


# ----------------------------------------------------------------------------- deal_deck


def test_deal_deck_deals_one_card_at_a_time_from_the_dealers_left() -> None:
    # Dealer 0: seats 1, 2, 3 then 0 get a card in turn; then the turned-up card.
    deck = deal_deck(0, [cards("Ah Kh"), cards("2c 3c"), cards("2d 3d"), cards("2s 3s")],
                     cards("9h")[0])  # fmt: skip
    assert deck == cards("2c 2d 2s Ah 3c 3d 3s Kh 9h")
    assert deal_deck(2, [cards("Ah"), cards("2c"), cards("2d")]) == cards("Ah 2c 2d")


def test_deal_deck_with_a_dogs_life_and_a_seat_not_dealt_in() -> None:
    # Dealer 0. Seat 2 is out (None); seat 1 is on a dog's life and gets one card, in the
    # first pass; later passes skip it.
    hands = [cards("Ah Kh Qh"), cards("2c"), None, cards("3d 4d 5d")]
    deck = deal_deck(0, hands, cards("9s")[0])
    assert deck == cards("2c 3d Ah 4d Kh 5d Qh 9s")


def test_the_engine_deals_the_deck_that_deal_deck_writes() -> None:
    # Round 1 of a 3-player game, dealer 2: deal_deck writes the deck, and the engine,
    # drawing from it, deals back the same hands in the same order and turns up 9s.
    hands = [cards("Ah Kh"), cards("2c 3c"), cards("2d 3d")]
    deck = deal_deck(2, hands, cards("9s")[0])
    assert deck == cards("Ah 2c 2d Kh 3c 3d 9s")
    rules = Rules(players=3, start_cards=2)
    state = State(rules, random.Random(0), 2, deck=StackedDeck([deck], [7]))
    deal = state.events[0]
    assert deal.hands == tuple(tuple(h) for h in hands)  # type: ignore[union-attr]
    assert (deal.cut_by, deal.cut_position) == (1, 7)  # type: ignore[union-attr]
    assert state.turned_up == cards("9s")[0]


# ----------------------------------------------------------------------------- StackedDeck


def test_stacked_deck_hands_out_decks_and_cuts_in_order() -> None:
    deck = StackedDeck([cards("Ah Kh Qh"), cards("2c 3c")], [5, 40])
    assert deck.cut() == 5
    assert list(deck.draw(2)) == cards("Ah Kh"), "the first cards of the first deck"
    assert deck.cut() == 40
    assert list(deck.draw(2)) == cards("2c 3c")
    with pytest.raises(ValueError, match="^the stacked decks ran out$"):
        deck.draw(1)
    with pytest.raises(ValueError, match="^the stacked cut positions ran out$"):
        deck.cut()


def test_stacked_deck_without_cuts_cuts_at_26() -> None:
    deck = StackedDeck([cards("Ah")])
    assert [deck.cut(), deck.cut()] == [26, 26]


def test_stacked_deck_refuses_a_deck_too_short() -> None:
    deck = StackedDeck([cards("Ah Kh"), cards("2c")])
    with pytest.raises(ValueError, match="^a stacked deck holds 2 cards, 3 are drawn$"):
        deck.draw(3)
    assert list(deck.draw(1)) == cards("2c"), "the short deck was used up all the same"


def test_stacked_deck_copies_what_is_left() -> None:
    import copy

    deck = StackedDeck([cards("Ah"), cards("2c"), cards("3d")], [1, 2, 3])
    deck.cut()
    deck.draw(1)
    twin = copy.deepcopy(deck)
    assert (twin.cut(), list(twin.draw(1))) == (2, cards("2c"))
    assert (deck.cut(), list(deck.draw(1))) == (2, cards("2c")), "the copy took nothing"


# ----------------------------------------------------------------------------- ShuffledDeck


def test_shuffled_deck_of_seed_1_is_pinned() -> None:
    # Computed once: any change to the draws of the shuffle changes every seeded game.
    deck = ShuffledDeck(random.Random(1))
    assert deck.cut() == 7
    assert " ".join(NAMES[c] for c in deck.draw(29)) == (
        "7s 2s 3d 3h Ad Jh 5s Kc Jc 2c 4h 8c Ac 6h 4s Qd Ks Js 8d 7d Kh 5d 9h 5h 7c 6c 7h 9d 3c"
    )
    assert deck.cut() == 12
    assert " ".join(NAMES[c] for c in deck.draw(5)) == "Ac 2c Kd 6d 7c"


def test_the_first_deal_of_seed_1_is_pinned() -> None:
    # The engine draws the first dealer (seat 0), then the cut, then the deck; the deal
    # goes 1, 2, 3, 0 and the 29th card is turned up.
    state = State(Rules(), random.Random(1))
    deal = state.events[0]
    assert (deal.dealer, deal.cut_by, deal.cut_position) == (0, 3, 44)  # type: ignore[union-attr]
    assert [" ".join(NAMES[c] for c in hand or ()) for hand in deal.hands] == [  # type: ignore[union-attr]
        "Ad Tc Kc Qs Qh 6c 2c",
        "2s Jh 7s 5h Js Ks Kd",
        "3d 5s 3h 4s 7d 8h 6h",
        "2h Qc 7c Jd 6d 4h Kh",
    ]
    assert state.turned_up is not None and NAMES[state.turned_up] == "9h"
    # The same cards come from a ShuffledDeck on the generator past the dealer's draw.
    rng = random.Random(1)
    assert int(rng.random() * 4) == 0
    deck = ShuffledDeck(rng)
    assert deck.cut() == 44
    drawn = list(deck.draw(29))
    assert [tuple(drawn[i:28:4]) for i in range(4)] == [deal.hands[s] for s in (1, 2, 3, 0)]  # type: ignore[union-attr]
    assert drawn[28] == state.turned_up


@given(seed=st.integers(0, 2**53 - 1), count=st.integers(1, 52))
def test_shuffled_deck_draws_distinct_cards(seed: int, count: int) -> None:
    deck = ShuffledDeck(random.Random(seed))
    cut = deck.cut()
    drawn = list(deck.draw(count))
    assert 1 <= cut <= 51
    assert len(drawn) == count == len(set(drawn))
    assert all(0 <= c < 52 for c in drawn)
    # The same seed gives the same cut and cards.
    again = ShuffledDeck(random.Random(seed))
    assert (again.cut(), list(again.draw(count))) == (cut, drawn)


def test_a_whole_shuffled_deck_is_the_52_cards() -> None:
    deck = ShuffledDeck(random.Random(9))
    assert sorted(deck.draw(52)) == list(range(52))
    assert deck.draw(52) != deck.draw(52), "each draw shuffles a fresh deck"


def test_every_cut_position_comes_up() -> None:
    deck = ShuffledDeck(random.Random(3))
    assert {deck.cut() for _ in range(3000)} == set(range(1, 52))
