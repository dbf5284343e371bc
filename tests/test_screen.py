"""The text screen (kow.screen): hand-crafted events in, the exact lines out.

Covers every event kind and branch of :class:`~kow.screen.Screen` (deal, turned-up card,
tie cut, vote, each trump method, lead, play, knock, trick won, round end, game end for
each termination), the second person for a player named "You", suit symbols against
ASCII letters, colour codes only when asked, the hand with its legal cards marked, the
table, a trick's plays, names holding braces, and :meth:`~kow.screen.Screen.narrate` on
a whole logged game.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import (
    REASONS_DECKS,
    REASONS_ROUND_1,
    REASONS_RULES,
    ScriptedPlayer,
    apply_all,
    cards,
    deal,
    new_state,
)

from kow import log
from kow.cards import NO_SUIT, SUIT_OF, mask_of, parse_card
from kow.engine import State
from kow.engine.deal import StackedDeck
from kow.engine.trick import won_by
from kow.events import (
    CutCard,
    Deal,
    Event,
    GameEnd,
    Knock,
    Lead,
    Outcome,
    Phase,
    Play,
    RoundEnd,
    Termination,
    TieCut,
    TrickWon,
    TrumpMethod,
    TrumpSet,
    TurnedUp,
    Vote,
    WonBy,
)
from kow.game import play_game
from kow.rules import Rules
from kow.screen import GLUE, Screen, wrap

NAMES = ["You", "Ada", "Ben"]
RULES = Rules(players=3, start_cards=4)

RED = "\x1b[31m"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
RESET = "\x1b[0m"


def c(text: str) -> int:
    """Return the card written ``text``."""
    return parse_card(text)


def hands(*texts: str | None) -> tuple[tuple[int, ...] | None, ...]:
    """Return a Deal's ``hands`` from text by seat (None: not dealt in)."""
    return tuple(None if t is None else tuple(cards(t)) for t in texts)


class Written(Screen):
    """A screen whose lines read as the terminal shows them: :data:`GLUE` as a space."""

    def suit(self, s: int, long: bool = False) -> str:
        return super().suit(s, long).replace(GLUE, " ")

    def event(self, event: Event) -> list[str]:
        return [x.replace(GLUE, " ") for x in super().event(event)]

    def table(self, view: Any) -> list[str]:
        return [x.replace(GLUE, " ") for x in super().table(view)]

    def hand(self, view: Any) -> str:
        return super().hand(view).replace(GLUE, " ")

    def plays(self, trick: Any) -> str:
        return super().plays(trick).replace(GLUE, " ")


def screen(names: list[str] = NAMES, *, symbols: bool = True, color: bool = False) -> Screen:
    return Written(names, RULES, symbols=symbols, color=color)


def won(
    number: int,
    leader: int,
    winner: int,
    next_leader: int | None,
    card: str = "Ac",
    why: WonBy = WonBy.HIGHEST_OF_LED,
) -> TrickWon:
    """Return the end of a trick that ``winner`` won with ``card``, its suit led, by ``why``."""
    return TrickWon(
        number=number, leader=leader, winner=winner, next_leader=next_leader, card=c(card),
        led=SUIT_OF[c(card)], why=why,
    )  # fmt: skip


def shown(s: Screen, *events: Event) -> list[str]:
    """Return the lines that ``s`` shows for ``events``, in order."""
    lines: list[str] = []
    for event in events:
        lines += s.event(event)
    return lines


# Round 2 of a 3-player game: Ada (1) deals, You (0) cut, You play on a dog's life.
DEAL_2 = Deal(2, 3, 1, 0, 17, hands("Ac", "2c 3c 4d", "5c Kd 7h"), (0,))


# --------------------------------------------------------------------------- cards


@pytest.mark.parametrize(
    ("card", "pretty", "ascii"),
    [("Th", "10♥", "10h"), ("Ac", "A♣", "Ac"), ("2d", "2♦", "2d"), ("Qs", "Q♠", "Qs")],
)
def test_card_with_symbols_and_in_ascii(card: str, pretty: str, ascii: str) -> None:
    assert screen().card(c(card)) == pretty
    assert screen(symbols=False).card(c(card)) == ascii


def test_suits_lists_and_separators() -> None:
    pretty, plain = screen(), screen(symbols=False)
    assert [pretty.suit(s) for s in range(4)] == ["♣", "♦", "♥", "♠"]
    assert [plain.suit(s) for s in range(4)] == ["c", "d", "h", "s"]
    assert pretty.suit(2, long=True) == "♥ hearts"
    assert plain.suit(3, long=True) == "s spades"
    assert (pretty.trump_text(1), pretty.trump_text(None)) == ("♦ diamonds", "none")
    assert pretty.cards(cards("9h")) == "9♥"
    assert pretty.cards(cards("9h Kh")) == "9♥ and K♥"
    assert plain.cards(cards("9h Kh Th As")) == "9h, Kh, 10h and As"
    assert (pretty.between, plain.between) == (f"{GLUE}· ", ", ")  # never starts a line


def test_no_colour_codes_unless_asked() -> None:
    s = screen()
    assert (s.card(c("Th")), s.suit(1, long=True)) == ("10♥", "♦ diamonds")
    assert (s.bold("x"), s.dim("x")) == ("x", "x")
    text = "\n".join(shown(s, DEAL_2, won(1, 1, 2, 2), GameEnd(Outcome(2, Termination.SWEEP, 2))))
    assert "\x1b" not in text


def test_colour_codes_when_asked() -> None:
    s = screen(color=True)
    # Red suits are red; clubs and spades keep the terminal's colour.
    assert s.card(c("Th")) == f"{RED}10♥{RESET}"
    assert s.card(c("2d")) == f"{RED}2♦{RESET}"
    assert s.card(c("As")) == "A♠"
    assert s.suit(2, long=True) == f"{RED}♥{RESET} hearts"
    assert s.suit(0, long=True) == "♣ clubs"
    assert (s.bold("x"), s.dim("x")) == (f"{BOLD}x{RESET}", f"{DIM}x{RESET}")
    assert s.event(DEAL_2)[1] == f"{BOLD}=== Round 2: 3 cards each ==={RESET}"
    assert s.event(won(1, 1, 2, 2, "As")) == [
        f"  {BOLD}Ben wins{RESET} trick 1 of 3 with A♠ (highest spade). "
        "Tricks: You 0 · Ada 0 · Ben 1"
    ]
    assert s.event(GameEnd(Outcome(2, Termination.SWEEP, 2))) == [
        "",
        f"{BOLD}*** Ben wins the game with a sweep of round 2. ***{RESET}",
    ]


# --------------------------------------------------------------------------- events


def test_deal_with_a_dogs_life() -> None:
    assert screen().event(DEAL_2) == [
        "",
        "=== Round 2: 3 cards each ===",
        "Ada deals; You cut the deck.",
        "You play this round on a dog's life, with 1 card.",
    ]
    s = screen()
    assert s.event(Deal(3, 2, 2, 1, 5, hands("3c", "2c 3h", "4d 5d"), (0, 1))) == [
        "",
        "=== Round 3: 2 cards each ===",
        "Ben deals; Ada cut the deck.",
        "You play this round on a dog's life, with 1 card.",
        "Ada plays this round on a dog's life, with 1 card.",
    ]
    assert (s.round, s.hand_size, s.tricks_won) == (3, 2, [0, 0, 0])


def test_deal_by_you_of_one_card() -> None:
    assert screen().event(Deal(4, 1, 0, 2, 30, hands("Ac", "2c", None), ())) == [
        "",
        "=== Round 4: 1 card each ===",
        "You deal; Ben cut the deck.",
    ]


def test_turned_up() -> None:
    assert screen().event(TurnedUp(c("Th"))) == ["Turned up: 10♥."]
    assert screen(symbols=False).event(TurnedUp(c("Th"))) == ["Turned up: 10h."]


def test_tie_cut_once_and_again() -> None:
    once = TieCut(((CutCard(1, c("9c")), CutCard(2, c("Jd"))),))
    assert screen().event(once) == ["Tie for most tricks last round; they cut: Ada 9♣, Ben J♦."]
    twice = TieCut(
        (
            (CutCard(2, c("9c")), CutCard(0, c("9d"))),
            (CutCard(2, c("4c")), CutCard(0, c("Td"))),
        )
    )
    assert screen().event(twice) == [
        "Tie for most tricks last round; they cut: Ben 9♣, You 9♦.",
        "Tied again: Ben 4♣, You 10♦.",
    ]


def test_vote() -> None:
    assert screen().event(Vote(1, 3)) == ["Ada votes ♠ spades (knocked out)."]
    assert screen(symbols=False).event(Vote(0, 1)) == ["You vote d diamonds (knocked out)."]


@pytest.mark.parametrize(
    ("suit", "method", "chosen_by", "line"),
    [
        (2, "turned-up", None, "Trump: ♥ hearts (the turned-up card)."),
        (0, "chosen", 1, "Ada chooses trump, for the most tricks last round: ♣ clubs."),
        (3, "chosen", 0, "You choose trump, for the most tricks last round: ♠ spades."),
        (1, "fixed", None, "Trump stays ♦ diamonds (fixed trump)."),
        (2, "vote", None, "Trump: ♥ hearts, by the knocked-out players' vote."),
        (
            3,
            "vote",
            2,
            "Trump: ♠ spades, by the knocked-out players' vote, the tie settled by Ben.",
        ),
        (None, "none", None, "No trump in this final round."),
    ],
)
def test_trump_set(suit: int | None, method: TrumpMethod, chosen_by: int | None, line: str) -> None:
    s = screen()
    assert s.event(TrumpSet(suit, method, chosen_by)) == [line]
    assert s.trump == suit


def test_lead_play_and_knock() -> None:
    s = screen()
    assert s.event(Lead(1)) == ["Ada leads."]
    assert s.event(Lead(0)) == ["You lead."]
    assert s.event(Play(1, c("Th"))) == ["  Ada plays 10♥"]
    assert s.event(Play(0, c("2c"))) == ["  You play 2♣"]
    assert s.event(Knock(2)) == ["  Ben knocks (keeping the dog's-life card)"]
    assert s.event(Knock(0)) == ["  You knock (keeping the dog's-life card)"]


def test_trick_won_counts_the_seats_dealt_in() -> None:
    # You (seat 0) are out; Ada and Ben play 2 cards. No "leads" line: the winner leads.
    s = screen()
    s.event(Deal(3, 2, 1, 2, 9, hands(None, "2c 3c", "4c 5c"), ()))
    assert s.event(won(1, 2, 2, 2, "5c")) == [
        "  Ben wins trick 1 of 2 with 5♣ (highest club). Tricks: Ada 0 · Ben 1"
    ]
    assert s.event(won(2, 2, 1, None, "3c")) == [
        "  Ada wins trick 2 of 2 with 3♣ (highest club). Tricks: Ada 1 · Ben 1"
    ]
    # The next deal starts the counts again.
    s.event(Deal(4, 1, 2, 1, 9, hands(None, "2c", "4c"), ()))
    assert s.event(won(1, 1, 1, None, "2c")) == [
        "  Ada wins trick 1 of 1 with 2♣ (highest club). Tricks: Ada 1 · Ben 0"
    ]


def test_trick_won_on_a_dogs_life_names_the_next_leader() -> None:
    # You win trick 1 with your one card, so Ada, on your left, leads trick 2 (seed 002).
    s = screen(symbols=False)
    s.event(DEAL_2)
    assert s.event(won(1, 1, 0, 1, "2h", WonBy.ONLY_TRUMP)) == [
        "  You win trick 1 of 3 with 2h (trump). Tricks: You 1, Ada 0, Ben 0",
        "  Ada leads, on the dog's-life winner's left.",
    ]
    assert s.event(won(2, 1, 2, 2, "Kd", WonBy.ONLY_OF_LED)) == [
        "  Ben wins trick 2 of 3 with Kd (nobody else played diamonds). Tricks: You 1, Ada 0, Ben 1"
    ]


def test_round_end_with_no_change() -> None:
    s = screen()
    s.event(DEAL_2)
    assert s.event(RoundEnd((1, 1, 1), (), (), ())) == [
        "Round 2 over. Tricks: You 1 · Ada 1 · Ben 1"
    ]


def test_round_end_revived_granted_and_knocked_out() -> None:
    s = screen(["Ann", "Bo", "Cy", "Di"])
    s.event(Deal(3, 3, 1, 0, 8, hands("2c", "3c 4c 5c", None, "6c 7c 8c"), (0,)))
    event = RoundEnd((1, 0, None, 2), eliminated=(1,), dogs_life_granted=(), revived=(0,))
    assert s.event(event) == [
        "Round 3 over. Tricks: Ann 1 · Bo 0 · Di 2",
        "Ann is back in the game.",
        "Bo is knocked out.",
    ]
    event = RoundEnd((0, 3, 0, 0), eliminated=(), dogs_life_granted=(0, 2, 3), revived=())
    assert s.event(event) == [
        "Round 3 over. Tricks: Ann 0 · Bo 3 · Cy 0 · Di 0",
        "Ann, Cy and Di get a dog's life: one card next round.",
    ]
    event = RoundEnd((0, 3, 0, 0), eliminated=(0, 2), dogs_life_granted=(3,), revived=())
    assert s.event(event)[1:] == [
        "Di gets a dog's life: one card next round.",
        "Ann and Cy are knocked out.",
    ]


@pytest.mark.parametrize(
    ("winner", "termination", "rounds", "line"),
    [
        (1, Termination.FINAL_TRICK, 7,
         "*** Ada wins the game by taking the only trick of the last round (round 7). ***"),
        (2, Termination.SWEEP, 3, "*** Ben wins the game with a sweep of round 3. ***"),
        (1, Termination.LAST_STANDING, 4,
         "*** Ada wins the game as the last one left, after round 4. ***"),
        (0, Termination.FINAL_TRICK, 7,
         "*** You win the game by taking the only trick of the last round (round 7). ***"),
        (0, Termination.SWEEP, 1, "*** You win the game with a sweep of round 1. ***"),
        (0, Termination.LAST_STANDING, 2,
         "*** You win the game as the last one left, after round 2. ***"),
    ],
)  # fmt: skip
def test_game_end(winner: int, termination: Termination, rounds: int, line: str) -> None:
    assert screen().event(GameEnd(Outcome(winner, termination, rounds))) == ["", line]


def test_names_with_braces_come_out_literally() -> None:
    s = screen(["{x}", "{0}", "{}"], symbols=False)
    lines = shown(
        s,
        Deal(1, 2, 0, 2, 26, hands("2c 3c", "4c 5c", "6c 7c"), ()),
        TrumpSet(0, "chosen", 1),
        Play(1, c("Ac")),
        won(1, 1, 1, 1, "Ac", WonBy.ONLY_CARD),
        RoundEnd((0, 2, 0), (0, 2), (), ()),
        GameEnd(Outcome(1, Termination.SWEEP, 1)),
    )
    assert lines == [
        "",
        "=== Round 1: 2 cards each ===",
        "{x} deals; {} cut the deck.",
        "{0} chooses trump, for the most tricks last round: c clubs.",
        "  {0} plays Ac",
        "  {0} wins trick 1 of 2 with Ac (the only card). Tricks: {x} 0, {0} 1, {} 0",
        "Round 1 over. Tricks: {x} 0, {0} 2, {} 0",
        "{x} and {} are knocked out.",
        "",
        "*** {0} wins the game with a sweep of round 1. ***",
    ]
    assert s.plays([Play(0, c("2c")), Knock(2)]) == "{x} 2c, {} knocks"


def test_event_returns_only_its_own_lines() -> None:
    s = screen()
    first = s.event(Lead(1))
    assert s.event(TurnedUp(c("2h"))) == ["Turned up: 2♥."]
    assert first == ["Ada leads."]


# --------------------------------------------------------------------------- hands and table
#
# The dog's-life game of test_engine: three players, 4 cards. After round 1 You (seat 0)
# play round 2 on a dog's life with 2h; Ada names hearts and leads.

DOG_RULES = Rules(players=3, start_cards=4, dogs_life="once-per-game")
DOG_DECKS = [
    deal(0, ["2h 3h 4h 5h", "Ac Kc Qc 2d", "4c 5c 6c Ad"], "2s"),
    deal(1, ["2h", "2c 3c 4d", "5c Kd 7h"]),
]
DOG_ROUND_1 = "Ac 4c 2h Kc 5c 3h Qc 6c 4h 2d Ad 5h"


# The full game of test_engine, with names of different lengths. Four players, 3 cards,
# first dealer Ann. Ann and Bo take no trick in round 1; Ben chooses hearts in round 2;
# Ben and Dmitri tie and cut twice; Dmitri chooses diamonds and takes the last trick.

FULL_RULES = Rules(players=4, start_cards=3)
FULL_NAMES = ["Ann", "Bo", "Ben", "Dmitri"]
FULL_DECKS = [
    deal(0, ["7c 8d 9s", "3c 4c 5d", "Ac Kd As", "Qc 3h 4s"], "2h"),
    deal(2, [None, None, "Kh Qh", "Ah 2s"]),
    deal(3, [None, None, "Ac", "2d"]),
    cards("9c 9d"),
    cards("4c Jd"),
]
FULL_SCRIPTS = ["7c 8d 9s", "3c 5d 4c", "Ac Kd As h Kh Qh Ac", "Qc 3h 4s Ah 2s d 2d"]


def followed(state: State, names: list[str] = NAMES, **options: Any) -> Screen:
    """Return a screen for ``state``'s rules that has followed all its events."""
    s = Written(names, state.rules, **options)
    for event in state.events:
        s.event(event)
    return s


def test_hand_marks_the_legal_cards_in_play() -> None:
    state = apply_all(new_state(DOG_RULES, 0, DOG_DECKS), DOG_ROUND_1 + " h 2c")
    assert (state.phase, state.turn) == (Phase.PLAY, 2)
    # Ben must follow clubs: only 5c is marked. Sorted by suit, then rank.
    assert screen().hand(state.view()) == "*1 5♣   2 K♦   3 7♥"
    assert screen(symbols=False).hand(state.view()) == "*1 5c   2 Kd   3 7h"
    # Leading, every card is legal.
    state = apply_all(new_state(DOG_RULES, 0, DOG_DECKS), DOG_ROUND_1 + " h")
    assert screen().hand(state.view()) == "*1 2♣  *2 3♣  *3 4♦"


def test_hand_in_colour_bolds_the_legal_cards_and_dims_the_rest() -> None:
    state = apply_all(new_state(DOG_RULES, 0, DOG_DECKS), DOG_ROUND_1 + " h 2c")
    assert screen(color=True).hand(state.view()) == (
        f"{BOLD}*1 5♣{RESET}  {DIM} 2 {RED}K♦{RESET}{RESET}  {DIM} 3 {RED}7♥{RESET}{RESET}"
    )


def test_hand_unmarked_outside_play_or_out_of_turn() -> None:
    state = apply_all(new_state(DOG_RULES, 0, DOG_DECKS), DOG_ROUND_1)
    assert (state.phase, state.turn) == (Phase.TRUMP, 1)
    assert screen().hand(state.view()) == " 1 2♣   2 3♣   3 4♦"
    apply_all(state, "h")
    # Ada leads; Ben's view has no legal cards, so nothing is marked, even in colour.
    assert screen(color=True).hand(state.view(2)) == f" 1 5♣   2 {RED}K♦{RESET}   3 {RED}7♥{RESET}"


def test_table_with_a_dogs_life_and_a_trick_under_way() -> None:
    state = apply_all(new_state(DOG_RULES, 0, DOG_DECKS), DOG_ROUND_1 + " h 2c 5c")
    assert state.turn == 0
    assert followed(state).table(state.view()) == [
        "Round 2 of at most 4, 3 cards each. Trump: ♥ hearts.",
        "Tricks this round: You 0 · Ada 0 · Ben 0",
        "On a dog's life: You",
        "Trick 1 of 3: Ada 2♣, Ben 5♣.",
    ]


def test_table_before_trump_and_with_no_trump() -> None:
    state = apply_all(new_state(DOG_RULES, 0, DOG_DECKS), DOG_ROUND_1)
    s = followed(state, symbols=False)
    assert s.table(state.view()) == [
        "Round 2 of at most 4, 3 cards each. Trump: to be chosen.",
        "Tricks this round: You 0, Ada 0, Ben 0",
        "On a dog's life: You",
    ]
    apply_all(state, "h")
    assert s.table(state.view()._replace(trump=None))[0] == (
        "Round 2 of at most 4, 3 cards each. Trump: none."
    )


def test_table_after_knock_outs_counts_tricks_won() -> None:
    state = new_state(FULL_RULES, 0, FULL_DECKS)
    apply_all(state, "3c Ac Qc 7c Kd 3h 8d 5d 4s 9s 4c As  h Kh Ah")
    s = followed(state, FULL_NAMES)
    assert s.table(state.view()) == [
        "Round 2 of at most 3, 2 cards each. Trump: ♥ hearts.",
        "Tricks this round: Ben 0 · Dmitri 1",
        "Knocked out: Ann, Bo",
        "Trick 2 of 2: Dmitri leads.",
    ]
    apply_all(state, "2s Qh d")  # round 3: one card each, after two tie cuts
    assert followed(state, FULL_NAMES).table(state.view())[:2] == [
        "Round 3 of at most 3, 1 card each. Trump: ♦ diamonds.",
        "Tricks this round: Ben 0 · Dmitri 0",
    ]


def test_plays() -> None:
    trick: list[Play | Knock] = [Play(1, c("Ks")), Knock(2), Play(0, c("Ts"))]
    assert screen().plays(trick) == "Ada K♠, Ben knocks, You 10♠"
    assert screen(symbols=False).plays(trick) == "Ada Ks, Ben knocks, You 10s"
    assert screen().plays([]) == ""


# --------------------------------------------------------------------------- narrate


@pytest.fixture(scope="module")
def logged() -> tuple[Any, list[Event]]:
    """Return the full game's log, and its events as kow.log.replay gives them."""
    players = [ScriptedPlayer(n, s) for n, s in zip(FULL_NAMES, FULL_SCRIPTS, strict=True)]
    state = play_game(FULL_RULES, players, 11, dealer=0, deck=StackedDeck(FULL_DECKS))
    game = log.loads(log.dumps(log.build(11, FULL_RULES, players, events=state.events)))
    *_, last = log.replay(game)
    assert last.events == state.events
    return game, list(last.events)


NARRATION = """\
Game 1 of full.json, seed 11
Seats, clockwise: 0 Ann (human), 1 Bo (human), 2 Ben (human), 3 Dmitri (human)

=== Round 1: 3 cards each ===
Ann deals; Dmitri cut the deck.
  Ann     7c  8d  9s
  Bo      3c  4c  5d
  Ben     Ac  Kd  As
  Dmitri  Qc  3h  4s
Turned up: 2h.
Trump: h hearts (the turned-up card).
Bo leads.
  Bo plays 3c
  Ben plays Ac
  Dmitri plays Qc
  Ann plays 7c
  Ben wins trick 1 of 3 with Ac (highest club). Tricks: Ann 0, Bo 0, Ben 1, Dmitri 0
  Ben plays Kd
  Dmitri plays 3h
  Ann plays 8d
  Bo plays 5d
  Dmitri wins trick 2 of 3 with 3h (trump). Tricks: Ann 0, Bo 0, Ben 1, Dmitri 1
  Dmitri plays 4s
  Ann plays 9s
  Bo plays 4c
  Ben plays As
  Ben wins trick 3 of 3 with As (highest spade). Tricks: Ann 0, Bo 0, Ben 2, Dmitri 1
Round 1 over. Tricks: Ann 0, Bo 0, Ben 2, Dmitri 1
Ann and Bo are knocked out.

=== Round 2: 2 cards each ===
Ben deals; Dmitri cut the deck.
  Ben     Qh  Kh
  Dmitri  Ah  2s
Ben chooses trump, for the most tricks last round: h hearts.
Ben leads.
  Ben plays Kh
  Dmitri plays Ah
  Dmitri wins trick 1 of 2 with Ah (highest trump). Tricks: Ben 0, Dmitri 1
  Dmitri plays 2s
  Ben plays Qh
  Ben wins trick 2 of 2 with Qh (trump). Tricks: Ben 1, Dmitri 1
Round 2 over. Tricks: Ben 1, Dmitri 1

=== Round 3: 1 card each ===
Dmitri deals; Ben cut the deck.
  Ben     Ac
  Dmitri  2d
Tie for most tricks last round; they cut: Ben 9c, Dmitri 9d.
Tied again: Ben 4c, Dmitri Jd.
Dmitri chooses trump, for the most tricks last round: d diamonds.
Dmitri leads.
  Dmitri plays 2d
  Ben plays Ac
  Dmitri wins trick 1 of 1 with 2d (nobody else played diamonds). Tricks: Ben 0, Dmitri 1
Round 3 over. Tricks: Ben 0, Dmitri 1
Ben is knocked out.

*** Dmitri wins the game by taking the only trick of the last round (round 3). ***"""


def test_narrate_a_whole_game(logged: tuple[dict[str, Any], list[Event]]) -> None:
    game, events = logged
    s = Screen(FULL_NAMES, FULL_RULES, symbols=False)
    lines = s.narrate(game, events, "Game 1 of full.json, seed 11")  # type: ignore[arg-type]
    assert lines == NARRATION.split("\n")


def test_narrate_wraps_to_a_width_as_play_does(logged: tuple[dict[str, Any], list[Event]]) -> None:
    game, events = logged
    wrapped = Screen(FULL_NAMES, FULL_RULES, symbols=False).narrate(game, events, "T", width=24)  # type: ignore[arg-type]
    assert max(map(len, wrapped)) <= 24
    assert (
        " ".join(wrapped).split() == NARRATION.replace("Game 1 of full.json, seed 11", "T").split()
    )
    assert wrapped[1:4] == ["Seats, clockwise:", "  0 Ann (human),", "  1 Bo (human),"]
    assert "  Dmitri  Qc  3h  4s" in wrapped  # a hand stays on its line when it fits


def test_narrate_one_round(logged: tuple[dict[str, Any], list[Event]]) -> None:
    game, events = logged
    s = Screen(FULL_NAMES, FULL_RULES)
    assert s.narrate(game, events, "Round 2", round=2) == [  # type: ignore[arg-type]
        "Round 2",
        "Seats, clockwise: 0 Ann (human), 1 Bo (human), 2 Ben (human), "
        "3 Dmitri (human)",
        "",
        "=== Round 2: 2 cards each ===",
        "Ben deals; Dmitri cut the deck.",
        "  Ben     Q♥  K♥",
        "  Dmitri  A♥  2♠",
        "Ben chooses trump, for the most tricks last round: ♥ hearts.",
        "Ben leads.",
        "  Ben plays K♥",
        "  Dmitri plays A♥",
        "  Dmitri wins trick 1 of 2 with A♥ (highest trump). Tricks: Ben 0 · Dmitri 1",
        "  Dmitri plays 2♠",
        "  Ben plays Q♥",
        "  Ben wins trick 2 of 2 with Q♥ (trump). Tricks: Ben 1 · Dmitri 1",
        "Round 2 over. Tricks: Ben 1 · Dmitri 1",
    ]
    # The last round ends with the game's end.
    assert s.narrate(game, events, "Round 3", round=3)[-2:] == [  # type: ignore[arg-type]
        "",
        "*** Dmitri wins the game by taking the only trick of the last round (round 3). ***",
    ]


def test_narrate_bolds_the_title_in_colour(logged: tuple[dict[str, Any], list[Event]]) -> None:
    game, events = logged
    lines = Screen(FULL_NAMES, FULL_RULES, color=True).narrate(game, events, "Title", round=1)  # type: ignore[arg-type]
    assert lines[0] == f"{BOLD}Title{RESET}"
    assert lines[3] == f"{BOLD}=== Round 1: 3 cards each ==={RESET}"


def test_narrate_an_abandoned_game(logged: tuple[dict[str, Any], list[Event]]) -> None:
    game, events = logged
    cut = events.index(Lead(1)) + 1  # abandoned before Bo's first card
    lines = Screen(FULL_NAMES, FULL_RULES, symbols=False).narrate(
        {**game, "abandoned": True}, events[:cut], "Abandoned"  # type: ignore[typeddict-item]
    )
    assert lines[-4:] == [
        "Turned up: 2h.",
        "Trump: h hearts (the turned-up card).",
        "Bo leads.",
        "The game was abandoned here.",
    ]


# --------------------------------------------------------------------------- trick results


@pytest.mark.parametrize(
    ("trump", "plays", "winner", "why"),
    [
        # Others follow the led suit: the highest card of it wins.
        ("s", "You 9h, Ada Kh, Ben 2h", "Ada", "with K♥ (highest heart)"),
        # One trump on another led suit.
        ("s", "You 9h, Ada Kh, Ben 2s", "Ben", "with 2♠ (trump)"),
        # Two trumps: the higher.
        ("s", "You 9h, Ada 3s, Ben 2s", "Ada", "with 3♠ (highest trump)"),
        # Trump led, and followed.
        ("h", "You 9h, Ada Kh, Ben 2h", "Ada", "with K♥ (highest trump)"),
        # Nobody else follows or trumps: the led card wins, however low.
        ("s", "You 2h, Ada Kd, Ben Ac", "You", "with 2♥ (nobody else played hearts)"),
        # A trump led that nobody else follows: the same, not "(trump)", which is kept
        # for the only trump on another led suit.
        ("h", "You 2h, Ada Kd, Ben Ac", "You", "with 2♥ (nobody else played hearts)"),
        # No trump this round.
        (None, "You 2h, Ada Kd, Ben 3h", "Ben", "with 3♥ (highest heart)"),
        # On a dog's life the others knock: the one card played wins.
        ("s", "Ada knocks, Ben 4c, You knocks", "Ben", "with 4♣ (the only card)"),
    ],
)
def test_a_trick_result_names_the_winning_card_and_why(
    trump: str | None, plays: str, winner: str, why: str
) -> None:
    # The trick's end says how it was won as the engine does (kow.engine.trick.won_by); the
    # screen words it. test_engine's hand-crafted tricks check the engine's reasons.
    s = screen()
    s.event(Deal(2, 3, 1, 0, 9, hands("2c 3c 4c", "5c 6c 7c", "8c 9c Tc"), ()))
    s.event(TrumpSet(None if trump is None else "cdhs".index(trump), "chosen", 1))
    seat = {n: i for i, n in enumerate(NAMES)}
    trick: list[Play | Knock] = []
    for play in plays.split(", "):
        name, what = play.split(" ")
        trick.append(Knock(seat[name]) if what == "knocks" else Play(seat[name], c(what)))
    played = [p for p in trick if isinstance(p, Play)]
    card = next(p.card for p in played if p.seat == seat[winner])
    led = SUIT_OF[played[0].card]
    reason = won_by(card, led, NO_SUIT if trump is None else "cdhs".index(trump),
                    cards=mask_of(p.card for p in played))  # fmt: skip
    end = TrickWon(
        number=1, leader=trick[0].seat, winner=seat[winner], next_leader=seat[winner], card=card,
        led=led, why=reason,
    )  # fmt: skip
    lines = shown(s, *trick, end)
    verb = "win" if winner == "You" else "wins"
    assert lines[-1].startswith(f"  {winner} {verb} trick 1 of 3 {why}. Tricks: ")


def test_a_trump_led_that_nobody_follows_is_not_called_trump() -> None:
    # The engine plays the hand-crafted tricks and says how each was won; the screen words
    # it. Trick 4: Ada leads 3h, hearts being trump, and nobody else has a heart.
    state = apply_all(new_state(REASONS_RULES, 2, REASONS_DECKS), REASONS_ROUND_1)
    lines = [x for x in shown(screen(symbols=False), *state.events) if " trick " in x]
    assert lines == [
        "  Ada wins trick 1 of 4 with Kc (highest club). Tricks: You 0, Ada 1, Ben 0",
        "  Ben wins trick 2 of 4 with 5h (trump). Tricks: You 0, Ada 1, Ben 1",
        "  Ada wins trick 3 of 4 with Qh (highest trump). Tricks: You 0, Ada 2, Ben 1",
        "  Ada wins trick 4 of 4 with 3h (nobody else played hearts). Tricks: You 0, Ada 3, Ben 1",
    ]


def test_they_agrees_the_verb_and_puts_you_in_the_second_person() -> None:
    s = screen(["You", "Ada", "Ben"])
    assert s.they([1], "is", "are") == "Ada is"
    assert s.they([0], "is", "are") == "You are"
    assert s.they([1, 0], "gets", "get") == "Ada and you get"
    assert s.they([0, 1, 2], "is", "are") == "You, Ada and Ben are"


def test_summary_has_one_line_a_round() -> None:
    # The full game: round 1 turned up, round 2 and 3 chosen (round 3 after tie cuts).
    state = new_state(FULL_RULES, 0, FULL_DECKS)
    apply_all(state, "3c Ac Qc 7c Kd 3h 8d 5d 4s 9s 4c As  h Kh Ah 2s Qh d 2d Ac")
    s = followed(state, FULL_NAMES, symbols=False)
    assert state.phase is Phase.OVER
    assert [x.replace(GLUE, " ") for x in s.summary()] == [
        "The game, round by round:",
        "  1. 3 cards, trump h (turned up). Tricks: Ann 0, Bo 0, Ben 2, Dmitri 1. Out: Ann, Bo.",
        "  2. 2 cards, trump h (named by Ben). Tricks: Ben 1, Dmitri 1.",
        "  3. 1 card, trump d (named by Dmitri). Tricks: Ben 0, Dmitri 1. Out: Ben.",
    ]


def test_summary_says_named_by_you_for_the_person_at_the_keyboard() -> None:
    state = new_state(FULL_RULES, 0, FULL_DECKS)
    apply_all(state, "3c Ac Qc 7c Kd 3h 8d 5d 4s 9s 4c As  h Kh Ah 2s Qh d 2d Ac")
    s = followed(state, ["Ann", "Bo", "You", "Dmitri"], symbols=False)
    assert s.summary()[2].replace(GLUE, " ") == (
        "  2. 2 cards, trump h (named by you). Tricks: You 1, Dmitri 1."
    )


# --------------------------------------------------------------------------- wrapping


def test_wrap_breaks_between_words_never_inside_glued_ones() -> None:
    line = f"  You{GLUE}1 · Ada{GLUE}0 · Bartholomew{GLUE}3 · Cleo{GLUE}2"
    assert wrap(line, 20) == ["  You 1 · Ada 0 ·", "    Bartholomew 3 ·", "    Cleo 2"]
    assert wrap(line, None) == [line.replace(GLUE, " ")]
    # A word wider than the width stands alone, whole.
    assert wrap("ab Supercalifragilistic cd", 10) == ["ab", "  Supercalifragilistic", "  cd"]


def test_wrap_measures_what_shows_not_the_escapes_and_wide_characters_as_two() -> None:
    bold = f"{BOLD}Ada wins{RESET} trick 1"
    assert wrap(bold, 16) == [bold]  # 16 columns shown, though 24 characters
    assert wrap("张伟 plays 10♥", 12) == ["张伟 plays", "  10♥"]


def test_a_hand_wraps_between_cards_only() -> None:
    from kow.game import new_game

    view = new_game(Rules(players=2), 0).view()
    hand = Screen(["You", "Ada"], Rules(players=2)).hand(view)
    for width in range(12, 60):
        for line in wrap("Your hand (trump ♠):  " + hand, width):
            for item in line.split("  "):
                item = item.strip()
                if item and item[0] in "*0123456789":
                    number, card = item.lstrip("*").split(" ")
                    assert number.isdigit() and card[-1] in "♣♦♥♠", (width, line)


def test_a_screen_takes_no_state_in_init_and_color_by_keyword() -> None:
    import inspect

    params = inspect.signature(Screen).parameters
    assert list(params) == ["names", "rules", "symbols", "color"]
    assert params["color"].kind is inspect.Parameter.KEYWORD_ONLY
