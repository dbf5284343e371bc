"""The rules of one trick (:mod:`kow.engine.trick`): what beats what, what may be played, who plays.

Each case is hand-crafted, with the rule it checks (docs/rules.md section 10, from the
rules text, 'Déroulement du jeu' 2-3; section 15 and seed 002 for the dog's life):
play goes clockwise from the leader, each player must follow suit when able and may play
any card otherwise, and the highest trump wins, else the highest card of the led suit.
"""

from __future__ import annotations

import pytest
from conftest import cards

from kow.cards import ALL_CARDS, NO_SUIT, RANKS, SUITS, mask_of, parse_card, parse_suit
from kow.engine.trick import BEATEN_BY, beats, knock_allowed, legal_cards, trick_order


def card(text: str) -> int:
    return parse_card(text)


def hand(text: str) -> int:
    """Return the mask of the cards of ``text`` (space-separated)."""
    return mask_of(cards(text))


def names(mask: int) -> set[str]:
    """Return the card names of ``mask``, for readable comparisons."""
    return {RANKS[c % 13] + SUITS[c // 13] for c in ALL_CARDS if mask >> c & 1}


# ----------------------------------------------------------------------------- beats


@pytest.mark.parametrize(
    ("played", "winning", "trump", "wins"),
    [
        # 'Déroulement du jeu' 3: with no trump played, the highest card of the led suit.
        ("Kc", "Qc", "h", True),
        ("3c", "2c", "h", True),
        ("Qc", "Kc", "h", False),
        ("Tc", "9c", None, True),  # no trump at all (the final round's variant)
        ("9c", "Tc", None, False),
        # The highest trump wins: any trump beats a card that is not a trump...
        ("2h", "Ac", "h", True),
        ("2h", "As", "h", True),
        # ... and a higher trump beats a lower one, a lower one does not.
        ("3h", "2h", "h", True),
        ("Kh", "Ah", "h", False),
        ("2h", "3h", "h", False),
        # A discard (neither the winning suit nor trump) never wins, however high.
        ("Ad", "2c", "h", False),
        ("Ac", "2h", "h", False),  # a side card on a trump
        ("As", "2c", None, False),  # no trump: another suit is a discard too
        # With trump spades, hearts are a side suit like any other.
        ("2s", "Ah", "s", True),
        ("Ah", "2s", "s", False),
    ],
)
def test_beats(played: str, winning: str, trump: str | None, wins: bool) -> None:
    suit = NO_SUIT if trump is None else parse_suit(trump)
    assert beats(card(played), card(winning), suit) is wins


def test_a_card_does_not_beat_itself() -> None:
    for trump in (0, 1, 2, 3, NO_SUIT):
        assert not any(beats(c, c, trump) for c in ALL_CARDS)


def reference_beats(played: int, winning: int, trump: int) -> bool:
    """The rule as written, with ranks and suits as words: a second statement of it."""
    p_rank, p_suit = RANKS[played % 13], SUITS[played // 13]
    w_rank, w_suit = RANKS[winning % 13], SUITS[winning // 13]
    trump_letter = SUITS[trump] if trump >= 0 else None
    if p_suit == w_suit:
        return RANKS.index(p_rank) > RANKS.index(w_rank)
    return p_suit == trump_letter  # a trump on a non-trump wins; any other card is a discard


@pytest.mark.parametrize("trump", [0, 1, 2, 3, NO_SUIT])
def test_beaten_by_agrees_with_beats_for_every_pair(trump: int) -> None:
    table = BEATEN_BY[trump]
    assert len(table) == 52
    for winning in ALL_CARDS:
        for played in ALL_CARDS:
            expected = reference_beats(played, winning, trump)
            assert beats(played, winning, trump) is expected, (played, winning, trump)
            assert bool(table[winning] >> played & 1) is expected, (played, winning, trump)


@pytest.mark.parametrize("trump", [0, 1, 2, 3, NO_SUIT])
def test_how_many_cards_beat_each_card(trump: int) -> None:
    # A card of rank r (0 = two) is beaten by the 12 - r higher cards of its suit, and,
    # when it is not a trump, by the 13 trumps as well.
    for winning in ALL_CARDS:
        rank, suit = winning % 13, winning // 13
        count = 12 - rank + (13 if trump not in (NO_SUIT, suit) else 0)
        assert BEATEN_BY[trump][winning].bit_count() == count, (winning, trump)
    # NO_SUIT (-1) indexes the table's last entry, the one for no trump.
    assert len(BEATEN_BY) == 5 and BEATEN_BY[NO_SUIT] is BEATEN_BY[4]


def test_beaten_by_examples() -> None:
    hearts = parse_suit("h")
    assert names(BEATEN_BY[hearts][card("Qc")]) == {"Kc", "Ac"} | {r + "h" for r in RANKS}
    assert names(BEATEN_BY[hearts][card("Jh")]) == {"Qh", "Kh", "Ah"}
    assert BEATEN_BY[hearts][card("Ah")] == 0, "the ace of trumps cannot be beaten"
    assert names(BEATEN_BY[NO_SUIT][card("Qc")]) == {"Kc", "Ac"}


# ----------------------------------------------------------------------------- legal_cards

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3


@pytest.mark.parametrize(
    ("held", "led", "legal"),
    [
        # 'Déroulement du jeu' 2: a player who holds the led suit must play one of it.
        ("2c Kh 9h", HEARTS, "Kh 9h"),
        ("2c Kh 9h As", CLUBS, "2c"),
        ("2c Kh 9h As", SPADES, "As"),
        # Even when trump could be played instead (trump is not a reason not to follow).
        ("2c 3c Ah", CLUBS, "2c 3c"),
        # Void in the led suit: any card, a trump or a discard.
        ("2c Kh 9h", DIAMONDS, "2c Kh 9h"),
        ("Ah", CLUBS, "Ah"),
        # Leading (nothing led yet): any card.
        ("2c Kh 9h As", NO_SUIT, "2c Kh 9h As"),
        # A dog's-life player's one card: playable whatever is led.
        ("7d", SPADES, "7d"),
        ("7d", DIAMONDS, "7d"),
    ],
)
def test_legal_cards(held: str, led: int, legal: str) -> None:
    assert legal_cards(hand(held), led) == hand(legal)


def test_legal_cards_of_no_hand_is_none() -> None:
    assert legal_cards(0, CLUBS) == 0
    assert legal_cards(0, NO_SUIT) == 0


# ----------------------------------------------------------------------------- knocks


@pytest.mark.parametrize("hand_size", range(1, 9))
def test_knock_allowed_on_every_trick_but_the_last(hand_size: int) -> None:
    # Seed 002: a dog's life may knock to keep its card; the card must be played on the
    # round's last trick (our rule), so in the 1-card round it can never knock.
    allowed = [knock_allowed(t, hand_size) for t in range(1, hand_size + 1)]
    assert allowed == [True] * (hand_size - 1) + [False]


# ----------------------------------------------------------------------------- trick_order


@pytest.mark.parametrize(
    ("leader", "held", "order"),
    [
        # 'Déroulement du jeu' 2: clockwise from the leader, every seat holding cards.
        (0, ["2c", "3c", "4c", "5c"], (0, 1, 2, 3)),
        (2, ["2c", "3c", "4c", "5c"], (2, 3, 0, 1)),
        (3, ["2c", "3c", "4c", "5c"], (3, 0, 1, 2)),
        # A knocked-out seat (no hand) is skipped.
        (2, ["2c", "", "4c", "5c"], (2, 3, 0)),
        (0, ["2c 3c", "", "", "5c 6c", "", "7c 8c"], (0, 3, 5)),
        # A dog's-life seat that has played its one card holds none: skipped too.
        (1, ["2c 3c", "4c 5c", "", "", "6c 7c"], (1, 4, 0)),
        (4, ["", "Ah", "2c", "3c", "4c"], (4, 1, 2, 3)),
        # Two players left.
        (1, ["As", "Ks"], (1, 0)),
    ],
)
def test_trick_order(leader: int, held: list[str], order: tuple[int, ...]) -> None:
    assert trick_order(leader, [hand(h) if h else 0 for h in held]) == order


def test_a_dogs_life_seat_drops_out_of_the_order_once_its_card_is_played() -> None:
    # Four seats; seat 1 is on a dog's life with Ah. While it holds the card it plays
    # (or knocks) in turn; after it played the card, the next trick passes it by.
    hands = [hand("2c 3c"), hand("Ah"), hand("4c 5c"), hand("6c 7c")]
    assert trick_order(0, hands) == (0, 1, 2, 3)
    hands[1] = 0
    assert trick_order(0, hands) == (0, 2, 3)
    # The player to its left leads when its card won (seed 002): seat 2, then 3, 0.
    assert trick_order(2, hands) == (2, 3, 0)


def test_trick_order_of_every_table_from_a_list_or_a_tuple() -> None:
    # The compiled build reads a list of ints directly and any other sequence
    # generically, then a table of orders: the same orders either way, for every table.
    for players in range(2, 8):
        for holding in range(1 << players):
            hands = [(1 << s) if holding >> s & 1 else 0 for s in range(players)]
            for leader in range(players):
                order = tuple(s for s in range(leader, leader + players) if hands[s % players])
                order = tuple(s % players for s in order)
                assert trick_order(leader, hands) == order
                assert trick_order(leader, tuple(hands)) == order
