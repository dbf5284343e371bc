"""Cards and their notation (kow.cards)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conftest import python_prints
from hypothesis import given
from hypothesis import strategies as st

from kow.cards import (
    ALL_CARDS,
    CARD_FORMS,
    FULL_DECK,
    RANK_WORDS,
    SUIT_MASK,
    SUIT_NAMES,
    SUIT_SYMBOLS,
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
    "text",
    [
        "1h", "11h", "", " ", "Tx", "hh", "T", "h", "10", "0h", "1", "Thh", "AA", "1♥",
        # two ranks, two suits, or a part missing
        "10 10", "h s", "hearts spades", "ten queen", "10 of", "of hearts", "ten of",
        # a word touching a letter or another word: "queens" reads as plural queens too
        "queens", "tenh", "hten", "hearts10", "10hearts", "tenofhearts", "ten ofhearts",
        # "of" only between rank and suit, once
        "hearts of ten", "h of 10", "ten of of hearts", "ten hearts of",
        # no such rank or suit
        "one of hearts", "ten of stars", "jack queen hearts", "10 h h", "1 0h", "♥♥10",
    ],
)  # fmt: skip
def test_parse_rejects(text: str) -> None:
    with pytest.raises(CardError) as err:
        parse_card(text)
    assert str(err.value).startswith(f"{text!r} is not a card: write a rank and a suit")


@pytest.mark.parametrize(
    ("text", "meaning"),
    [("a heart", "any heart"), ("A Spades", "any spade"), ("a club", "any club"),
     ("a diamonds", "any diamond")],
)  # fmt: skip
def test_parse_refuses_a_before_a_suit_name(text: str, meaning: str) -> None:
    # "a heart" is any heart in English as well as the ace: refused rather than guessed.
    with pytest.raises(CardError) as err:
        parse_card(text)
    suit = meaning.removeprefix("any ")
    assert str(err.value) == (
        f"{text!r} could mean {meaning}: for the ace, write ace of {suit}s or A{suit[0]}"
    )


@pytest.mark.parametrize(
    ("text", "name"),
    [("a h", "Ah"), ("a♥", "Ah"), ("a of hearts", "Ah"), ("hearts a", "Ah"), ("ace heart", "Ah"),
     ("as", "As"), ("sa", "As")],
)  # fmt: skip
def test_parse_ace_with_a(text: str, name: str) -> None:
    assert card_name(parse_card(text)) == name


# Every way of writing a rank and a suit, and every way of putting them together. The
# short forms may touch (10h, h10, sq); a word stands apart; a symbol touches anything.
SHORT_RANKS = {r: [n, n.lower()] for r, n in enumerate("23456789TJQKA")}
SHORT_RANKS[8] += ["10"]
RANKS_ANY = {r: [*SHORT_RANKS[r], RANK_WORDS[r], RANK_WORDS[r].title()] for r in range(13)}
LETTERS = {s: ["cdhs"[s], "CDHS"[s]] for s in range(4)}
SYMBOLS = {s: [SUIT_SYMBOLS[s], "♧♢♡♤"[s], SUIT_SYMBOLS[s] + "\ufe0f"] for s in range(4)}
NAMES = {s: [SUIT_NAMES[s], SUIT_NAMES[s][:-1], SUIT_NAMES[s].upper()] for s in range(4)}
FORMS: dict[str, Callable[[int, int], list[str]]] = {
    "rank suit, touching": lambda r, s: [
        a + b for a in SHORT_RANKS[r] for b in LETTERS[s] + SYMBOLS[s]
    ] + [a + b for a in RANKS_ANY[r] for b in SYMBOLS[s]],
    "suit rank, touching": lambda r, s: [
        b + a for a in SHORT_RANKS[r] for b in LETTERS[s] + SYMBOLS[s]
    ] + [b + a for a in RANKS_ANY[r] for b in SYMBOLS[s]],
    "rank suit, spaced": lambda r, s: [
        f"{a} {b}"
        for a in RANKS_ANY[r]
        for b in LETTERS[s] + SYMBOLS[s] + NAMES[s]
        if not (a.lower() == "a" and b in NAMES[s])  # "a heart" is refused: see above
    ],
    "suit rank, spaced": lambda r, s: [
        f"{b}  {a}" for a in RANKS_ANY[r] for b in LETTERS[s] + SYMBOLS[s] + NAMES[s]
    ],
    "rank of suit": lambda r, s: [
        f"{a} OF {b}" for a in RANKS_ANY[r] for b in LETTERS[s] + SYMBOLS[s] + NAMES[s]
    ],
}  # fmt: skip


@pytest.mark.parametrize("form", FORMS)
def test_every_form_of_every_card(form: str) -> None:
    # 52 cards, every spelling of rank and suit: each parses to its card, so no two
    # forms collide (a string with two readings would be refused).
    count = 0
    for c in ALL_CARDS:
        for text in FORMS[form](rank_of(c), suit_of(c)):
            assert parse_card(text) == c, text
            count += 1
    assert count >= 52 * 6


@given(
    st.sampled_from(ALL_CARDS),
    st.sampled_from(sorted(FORMS)),
    st.data(),
    st.sampled_from(["", " ", "\t", "  \n"]),
)
def test_any_case_and_surrounding_space(c: int, form: str, data: st.DataObject, pad: str) -> None:
    text = data.draw(st.sampled_from(FORMS[form](rank_of(c), suit_of(c))))
    flips = data.draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    text = "".join(ch.swapcase() if flip else ch for ch, flip in zip(text, flips, strict=True))
    assert parse_card(pad + text + pad) == c


def test_card_forms_examples_parse() -> None:
    # The help's examples (the text after "rank then suit:" and "suit then rank:") are the
    # ten of hearts or the queen of spades; every line is short enough for help.
    examples = [e.strip() for line in CARD_FORMS[:2] for e in line.split(":", 1)[1].split(",")]
    assert len(examples) == 15
    assert {e: card_name(parse_card(e)) for e in examples} == {
        "Th": "Th", "10h": "Th", "10♥": "Th", "qs": "Qs", "10 h": "Th", "ten h": "Th",
        "ten hearts": "Th", "ten of hearts": "Th", "h10": "Th", "♥10": "Th", "sq": "Qs",
        "h 10": "Th", "s queen": "Qs", "spades q": "Qs", "hearts ten": "Th",
    }  # fmt: skip
    for bad in ("tenh", "queens"):
        assert bad in CARD_FORMS[-1]
        with pytest.raises(CardError):
            parse_card(bad)
    assert all(len(line) <= 76 for line in CARD_FORMS)


@pytest.mark.parametrize("command", ["help", "hand", "table", "hint", "knock", "quit", "last",
                                     "rules", "?", "yes", "no", "y", "n"])  # fmt: skip
def test_no_command_word_is_a_card(command: str) -> None:
    # play reads a card or a command from the same prompt.
    with pytest.raises(CardError):
        parse_card(command)


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
    [
        ("c", 0),
        ("D", 1),
        ("h", 2),
        ("s", 3),
        ("Hearts", 2),
        ("heart", 2),
        ("♥", 2),
        ("♠", 3),
        ("clubs", 0),
        ("♢", 1),
        (" ♥\ufe0f ", 2),
    ],
)
def test_parse_suit(text: str, suit: int) -> None:
    assert parse_suit(text) == suit


@pytest.mark.parametrize("text", ["", "x", "hh", "Th", "5", "♥♥", "h s"])
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


@pytest.mark.parametrize("suits", range(16))
def test_cards_in_any_suits_held(suits: int) -> None:
    # cards_in joins only the suits that hold cards: every set of suits held, each suit
    # with its lowest and highest card, lowest int first.
    cards = [13 * s + r for s in range(4) if suits >> s & 1 for r in (0, 5, 12)]
    assert cards_in(mask_of(cards)) == tuple(cards)


@given(st.integers(min_value=0, max_value=(1 << 52) - 1))
def test_cards_in_is_the_bits_set(mask: int) -> None:
    assert cards_in(mask) == tuple(c for c in range(52) if mask >> c & 1)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: card_name("Th"), TypeError, "'Th' is not a card: an int 0 to 51 (0 is 2c, 51 is "
         "As); parse_card('Th') reads a card's name"),
        (lambda: card_name(52), CardError, "52 is not a card: an int 0 to 51"),
        (lambda: card_name(-1), CardError, "-1 is not a card"),
        (lambda: card_name(2**70), CardError, "1180591620717411303424 is not a card"),
        (lambda: card_name(True), TypeError, "True is not a card"),
        (lambda: card_name(None), TypeError, "None is not a card"),
        (lambda: suit_of(7.0), TypeError, "7.0 is not a card"),
        (lambda: rank_of(60), CardError, "60 is not a card"),
        (lambda: suit_name(4), CardError, "4 is not a suit: an int 0 to 3 (c, d, h, s)"),
        (lambda: suit_name("h"), TypeError, "'h' is not a suit"),
        (lambda: parse_card(None), TypeError, "None is not a card's name: give a str"),
        (lambda: parse_card(10), TypeError, "10 is not a card's name"),
        (lambda: parse_suit(2), TypeError, "2 is not a suit's name: give a str"),
    ],
)
def test_card_functions_name_a_value_that_is_no_card(call: Any, error: type, message: str) -> None:
    # kow's own message in both builds (a compiled module would say "int object expected").
    with pytest.raises(error) as raised:
        call()
    assert type(raised.value) is error
    assert str(raised.value).startswith(message)


def test_card_functions_take_numpy_integers_as_their_int() -> None:
    numpy = pytest.importorskip("numpy")
    assert (card_name(numpy.int64(51)), suit_name(numpy.int8(2))) == ("As", "h")
    assert (suit_of(numpy.int32(13)), rank_of(numpy.uint8(12))) == (1, 12)


def test_the_suit_tables_are_built_on_first_use() -> None:
    # Importing kow.cards (kow simulate, kow --help) builds no table of 32,768 tuples;
    # listing a hand builds them, the same for every later call.
    code = (
        "import kow.cards as c, kow.engine\n"
        "print([len(t) for t in c._SUIT_CARDS])\n"
        "print(c.cards_in(c.mask_of([0, 51, 20])), [len(t) for t in c._SUIT_CARDS])\n"
        "print(c.suit_cards(c.mask_of([0, 51, 20]), 1))\n"
    )
    out = python_prints(code)
    assert out == ["[0, 0, 0, 0]", "(0, 20, 51) [8192, 8192, 8192, 8192]", "(20,)"]


def test_the_suit_tables_are_whole_for_a_thread_that_finds_them_filled() -> None:
    # kow serve plays games in threads: the tables are filled on first use, and a thread
    # that comes while another fills them must not read a table still empty (it did:
    # "IndexError: list index out of range", a game stopped). A slow fill (pure Python:
    # the compiled module calls its own function) leaves a second thread the time.
    code = """
import threading, time
import kow.cards as cards
make = cards._suit_table
def slow(suit):
    time.sleep(0.02)
    return make(suit)
cards._suit_table = slow
full = (1 << 52) - 1
said = []
def use(wait):
    time.sleep(wait)
    try:
        said.append((len(cards.cards_in(full)), len(cards.suit_cards(full, 3))))
    except IndexError as err:
        said.append(repr(err))
threads = [threading.Thread(target=use, args=(w,)) for w in (0, 0.03, 0.05)]
[t.start() for t in threads]
[t.join() for t in threads]
print(sorted(map(str, said)))
"""
    assert python_prints(code) == ["['(52, 13)', '(52, 13)', '(52, 13)']"]
