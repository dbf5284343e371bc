"""The engine (kow.engine): deal, trump, lead, tricks, knock-out, tie cuts, checks, views.

Each test plays a hand-crafted deal (see ``conftest.py``) and states the right outcome.
Rule settings each get their own tests in ``test_rules.py``; the dog's life is here.
"""

from __future__ import annotations

import copy
import pickle
import random
import re
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
    documented_order,
    log_of,
    new_state,
    play_stacked,
    plays,
)

from kow.cards import BIT, card_name, cards_in, parse_card, parse_suit
from kow.engine import IllegalActionError, State, action_name
from kow.engine import view as view_module
from kow.engine._state import FIELDS as STATE_FIELDS
from kow.engine.deal import StackedDeck, deal_deck
from kow.engine.view import TrickFacts, View
from kow.events import KNOCK, CutCard, Deal, Phase, Play, TieCut, TrickWon, WonBy
from kow.game import bots_rng, play_game
from kow.players import RandomBot
from kow.rules import Rules

# --------------------------------------------------------------------------- a full game
#
# Four players, 3 cards, first dealer seat 0, so the deal goes 1, 2, 3, 0.
# Round 1, hearts turned up. Seats 0 and 1 take no trick and are knocked out.
# Round 2 (2 cards): dealer 2 (seat 1 is out), cut by 3 (seats 1 and 0 are out);
#   seat 2 took most tricks, chooses hearts and leads. Seats 2 and 3 take one each.
# Round 3 (1 card): dealer 3; seats 2 and 3 tie, cut 9c/9d (tied rank), then 4c/Jd:
#   seat 3 chooses diamonds, leads, and wins the game.

FULL_RULES = Rules(players=4, start_cards=3)
FULL_DECKS = [
    deal(0, ["7c 8d 9s", "3c 4c 5d", "Ac Kd As", "Qc 3h 4s"], "2h"),
    deal(2, [None, None, "Kh Qh", "Ah 2s"]),
    deal(3, [None, None, "Ac", "2d"]),
    cards("9c 9d"),
    cards("4c Jd"),
]
FULL_SCRIPTS = ["7c 8d 9s", "3c 5d 4c", "Ac Kd As h Kh Qh Ac", "Qc 3h 4s Ah 2s d 2d"]


@pytest.fixture(scope="module")
def full() -> dict[str, Any]:
    return play_stacked(FULL_RULES, 0, FULL_DECKS, FULL_SCRIPTS)  # type: ignore[no-any-return]


def test_deal_deck_order() -> None:
    # One card at a time clockwise from the dealer's left, then the turned-up card.
    assert FULL_DECKS[0] == cards("3c Ac Qc 7c 4c Kd 3h 8d 5d As 4s 9s 2h")
    assert deal_deck(1, [[1], None, [2]], 3) == [2, 1, 3]


def test_round_1_deal(full: dict[str, Any]) -> None:
    r1 = full["rounds"][0]
    assert (r1["number"], r1["hand_size"], r1["dealer"]) == (1, 3, 0)
    assert r1["hands"] == [
        ["7c", "8d", "9s"],
        ["3c", "4c", "5d"],
        ["Ac", "Kd", "As"],
        ["Qc", "3h", "4s"],
    ]


def test_cut_by_dealers_right(full: dict[str, Any]) -> None:
    r1 = full["rounds"][0]
    assert r1["cut"]["by"] == 3
    assert 1 <= r1["cut"]["position"] <= 51


def test_round_1_trump_is_turned_up(full: dict[str, Any]) -> None:
    r1 = full["rounds"][0]
    assert (r1["turned_up"], r1["trump"], r1["trump_method"]) == ("2h", "h", "turned-up")
    assert r1["trump_chosen_by"] is None
    assert r1["tie_cut"] is None


def test_round_1_dealers_left_leads(full: dict[str, Any]) -> None:
    r1 = full["rounds"][0]
    assert r1["leader"] == 1
    assert r1["tricks"][0]["leader"] == 1


def test_tricks(full: dict[str, Any]) -> None:
    t1, t2, t3 = full["rounds"][0]["tricks"]
    # Trick 1: no trump played, the highest club (led suit) wins.
    assert plays(t1) == [(1, "3c"), (2, "Ac"), (3, "Qc"), (0, "7c")]
    assert t1["winner"] == 2
    # Trick 2: the trick winner leads; seat 3, void in diamonds, trumps with 3h.
    assert t2["leader"] == 2
    assert plays(t2) == [(2, "Kd"), (3, "3h"), (0, "8d"), (1, "5d")]
    assert t2["winner"] == 3
    # Trick 3: a discard (4c) does not win; As beats 9s.
    assert t3["leader"] == 3
    assert t3["winner"] == 2
    assert [t["number"] for t in (t1, t2, t3)] == [1, 2, 3]


def test_no_trick_knocks_out(full: dict[str, Any]) -> None:
    r1 = full["rounds"][0]
    assert r1["tricks_won"] == [0, 0, 2, 1]
    assert r1["eliminated"] == [0, 1]
    assert r1["dogs_life_granted"] == []
    r2 = full["rounds"][1]
    assert r2["hands"][0] is None and r2["hands"][1] is None


def test_dealer_and_cut_skip_knocked_out(full: dict[str, Any]) -> None:
    r2, r3 = full["rounds"][1:]
    assert (r2["dealer"], r2["cut"]["by"]) == (2, 3)
    assert (r3["dealer"], r3["cut"]["by"]) == (3, 2)
    # Deal from the dealer's left: seat 3 gets the first card, seat 2 the second.
    assert FULL_DECKS[1] == cards("Ah Kh 2s Qh")
    assert (r2["hands"][2], r2["hands"][3]) == (["Kh", "Qh"], ["Ah", "2s"])


def test_one_fewer_card_each_round(full: dict[str, Any]) -> None:
    assert [r["hand_size"] for r in full["rounds"]] == [3, 2, 1]
    for r in full["rounds"]:
        assert all(len(h) == r["hand_size"] for h in r["hands"] if h is not None)
        assert len(r["tricks"]) == r["hand_size"]


def test_most_tricks_chooses_trump_and_leads(full: dict[str, Any]) -> None:
    r2 = full["rounds"][1]
    assert (r2["trump"], r2["trump_method"], r2["trump_chosen_by"]) == ("h", "chosen", 2)
    assert r2["turned_up"] is None
    assert r2["leader"] == 2
    assert r2["tie_cut"] is None
    # Hearts is trump: Qh on 2s takes trick 2.
    assert [t["winner"] for t in r2["tricks"]] == [3, 2]
    assert r2["tricks_won"] == [None, None, 1, 1]
    assert r2["eliminated"] == []


def test_tie_cut_again_on_tied_rank(full: dict[str, Any]) -> None:
    r3 = full["rounds"][2]
    # Tied seats cut clockwise from the dealer's (3's) left: seat 2, then seat 3.
    assert r3["tie_cut"] == [
        [{"seat": 2, "card": "9c"}, {"seat": 3, "card": "9d"}],
        [{"seat": 2, "card": "4c"}, {"seat": 3, "card": "Jd"}],
    ]
    assert (r3["trump"], r3["trump_method"], r3["trump_chosen_by"]) == ("d", "chosen", 3)
    assert r3["leader"] == 3


def test_final_round_trick_wins_the_game(full: dict[str, Any]) -> None:
    r3 = full["rounds"][2]
    assert plays(r3["tricks"][0]) == [(3, "2d"), (2, "Ac")]
    assert r3["tricks_won"] == [None, None, 0, 1]
    assert r3["eliminated"] == [2]
    assert full["result"] == {"winner": 3, "rounds_played": 3, "termination": "final-trick"}


# Three players, 3 cards, dealer 0, spades turned up: each takes one trick in round 1.
TIE3_DECKS = [
    deal(0, ["4c 4d Ah", "Ac 2d 2h", "3c Ad 3h"], "2s"),
    deal(1, ["Qd 3c", "Kc 5h", "Kd 2c"]),
    cards("Kc 5d Kh"),
    cards("3c 7s"),
]
TIE3_PLAYS = "Ac 3c 4c  2d Ad 4d  3h Ah 2h"


def test_tie_cut_three_way_then_two() -> None:
    # Round 1: each of the three seats takes one trick. Round 2's dealer is seat 1, so the
    # tied seats cut in the order 2, 0, 1. Seats 2 and 1 both cut a king; only they cut
    # again, and seat 1's 7s beats seat 2's 3c.
    state = new_state(Rules(players=3, start_cards=3), 0, TIE3_DECKS)
    apply_all(state, TIE3_PLAYS)
    assert state.phase == Phase.TRUMP
    assert state.turn == 1
    assert state.legal_actions() == (0, 1, 2, 3)
    # The chooser has seen its new hand.
    view = state.view()
    assert (view.phase, view.round, view.hand) == (Phase.TRUMP, 2, tuple(sorted(cards("Kc 5h"))))
    r2 = log_of(state)["rounds"][1]
    assert r2["tie_cut"] == [
        [{"seat": 2, "card": "Kc"}, {"seat": 0, "card": "5d"}, {"seat": 1, "card": "Kh"}],
        [{"seat": 2, "card": "3c"}, {"seat": 1, "card": "7s"}],
    ]
    # The engine's own record: CutCard values (shared from a table made once), by seat.
    (tie_cut,) = [e for e in state.events if isinstance(e, TieCut)]
    assert [[(type(c), c.seat, card_name(c.card)) for c in cut] for cut in tie_cut.passes] == [
        [(CutCard, 2, "Kc"), (CutCard, 0, "5d"), (CutCard, 1, "Kh")],
        [(CutCard, 2, "3c"), (CutCard, 1, "7s")],
    ]
    # The same cut settles the lead: no further draw (the stacked decks are used up).
    apply_all(state, "c")
    assert (state.phase, state.turn) == (Phase.PLAY, 1)
    r2 = log_of(state)["rounds"][1]
    assert (r2["trump"], r2["trump_chosen_by"], r2["leader"]) == ("c", 1, 1)


# --------------------------------------------------------------------------- checks


def test_legal_actions_follow_suit() -> None:
    state = new_state(FULL_RULES, 0, FULL_DECKS)
    assert state.turn == 1
    assert state.legal_actions() == tuple(sorted(cards("3c 4c 5d")))
    apply_all(state, "3c")
    assert state.legal_actions() == tuple(cards("Ac"))  # seat 2 holds one club
    apply_all(state, "Ac Qc 7c Kd")
    assert state.turn == 3
    # Seat 3 is void in diamonds: any card, trump or discard.
    assert state.legal_actions() == tuple(sorted(cards("3h 4s")))


def test_illegal_actions_say_why_and_change_nothing() -> None:
    state = new_state(FULL_RULES, 0, FULL_DECKS)
    before = (len(state.events), state.turn, list(state.hands))
    with pytest.raises(IllegalActionError, match=r"^seat 1 does not hold Ah$"):
        state.apply(parse_card("Ah"))
    with pytest.raises(IllegalActionError, match=r"seat 1 is not on a dog's life"):
        state.apply(KNOCK)
    for bad in (-1, 53, "3c", None, 3.0):
        with pytest.raises(IllegalActionError, match="seat 1"):
            state.apply(bad)
    assert (len(state.events), state.turn, list(state.hands)) == before
    apply_all(state, "3c")
    with pytest.raises(IllegalActionError) as err:
        state.apply(parse_card("As"))
    assert str(err.value) == "seat 2 must follow suit c: it holds Ac, not As"
    assert state.turn == 2 and state.trick == (Play(1, parse_card("3c")),)


def test_illegal_trump_choice() -> None:
    state = new_state(Rules(players=3, start_cards=3), 0, TIE3_DECKS)
    apply_all(state, TIE3_PLAYS)
    assert state.phase == Phase.TRUMP
    for bad in (4, -1, KNOCK, "h", None):
        with pytest.raises(IllegalActionError, match=r"^seat 1 must name a suit \(c, d, h, s\)"):
            state.apply(bad)
    assert state.phase == Phase.TRUMP


def test_no_action_after_game_over(full: dict[str, Any]) -> None:
    state = new_state(FULL_RULES, 0, FULL_DECKS)
    apply_all(state, "3c Ac Qc 7c Kd 3h 8d 5d 4s 9s 4c As h Kh Ah 2s Qh d 2d Ac")
    assert state.phase == Phase.OVER and state.winner == 3 and state.turn == -1
    assert state.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(parse_card("2d"))
    assert log_of(state) == full


def test_dealer_checked_and_drawn() -> None:
    rules = Rules(players=3, start_cards=2)
    for bad in (-1, 3, "0"):
        with pytest.raises(ValueError, match="dealer"):
            State(rules, random.Random(1), dealer=bad)
    dealers = {State(rules, random.Random(seed)).dealer for seed in range(40)}
    assert dealers == {0, 1, 2}
    assert State(rules, random.Random(5)).events == State(rules, random.Random(5)).events


def test_stacked_deck_runs_out() -> None:
    deck = StackedDeck([[1, 2, 3]], cuts=[7])
    assert list(deck.draw(2)) == [1, 2]
    assert deck.cut() == 7
    with pytest.raises(ValueError, match="ran out"):
        deck.draw(1)
    with pytest.raises(ValueError, match="cut positions ran out"):
        deck.cut()
    with pytest.raises(ValueError, match="holds 1 cards, 2 are drawn"):
        StackedDeck([[1]]).draw(2)


def test_action_name() -> None:
    assert action_name(parse_card("Th")) == "Th"
    assert action_name(KNOCK) == "knock"
    assert action_name(2, Phase.TRUMP) == "h"
    assert action_name(7, Phase.TRUMP) == "7"


# --------------------------------------------------------------------------- dog's life
#
# Three players, 4 cards, once-per-game. Round 1 (dealer 0, spades): seat 0 takes no
# trick and gets a dog's life; seat 1 takes 3, seat 2 takes 1.

DOG_ROUND_1 = deal(0, ["2h 3h 4h 5h", "Ac Kc Qc 2d", "4c 5c 6c Ad"], "2s")
DOG_RULES = Rules(players=3, start_cards=4, dogs_life="once-per-game")


def test_a_trick_says_how_it_was_won() -> None:
    # Rules text, 'Déroulement du jeu' 3, one hand-crafted trick per way to win (conftest:
    # REASONS_DECKS), hearts trump. The engine's trick loop decides it; the view's
    # finished tricks say the same.
    state = new_state(REASONS_RULES, 2, REASONS_DECKS)
    moves = REASONS_ROUND_1.split()
    apply_all(state, moves[:-1])
    ends = [(e.winner, e.card, e.led, e.why) for e in state.events if isinstance(e, TrickWon)]
    c, s = parse_card, parse_suit
    expected = [
        (1, c("Kc"), s("c"), WonBy.HIGHEST_OF_LED),  # clubs followed, nobody trumped
        (2, c("5h"), s("d"), WonBy.ONLY_TRUMP),  # the only trump on diamonds
        (1, c("Qh"), s("s"), WonBy.HIGHEST_TRUMP),  # the higher of two trumps on spades
    ]
    assert ends == expected
    view = state.view(0)
    assert [(t.winner, t.card, t.led, t.why) for t in view.tricks] == expected
    assert view.tricks[1].plays == (Play(1, c("4d")), Play(2, c("5h")), Play(0, c("6d")))
    apply_all(state, moves[-1:])
    # A trump led that nobody else can follow is the only card of the led suit, not a trump
    # played on another suit.
    last = [e for e in state.events if isinstance(e, TrickWon)][-1]
    assert last == TrickWon(
        number=4, leader=1, winner=1, next_leader=None, card=c("3h"), led=s("h"),
        why=WonBy.ONLY_OF_LED,
    )  # fmt: skip


def test_a_trick_where_the_others_knock_is_won_by_the_only_card() -> None:
    # Two players, no sweep win: seat 0 takes nothing in round 1 and plays round 2 on a
    # dog's life; seat 1 chooses spades and leads 9s, seat 0 knocks. Trick 2: seat 1's Ts
    # is the only spade (seat 0 must play its 5d).
    rules = Rules(players=2, start_cards=3, dogs_life="once-per-game", sweep_wins=False)
    decks = [deal(1, ["2c 3c 4c", "Ac Kc Qc"], "2h"), deal(0, ["5d", "9s Ts"])]
    state = apply_all(new_state(rules, 1, decks), "2c Ac Kc 3c Qc 4c  s 9s knock Ts 5d")
    ends = [e for e in state.events if isinstance(e, TrickWon)][3:]
    c = parse_card
    assert ends == [
        TrickWon(
            number=1,
            leader=1,
            winner=1,
            next_leader=1,
            card=c("9s"),
            led=parse_suit("s"),
            why=WonBy.ONLY_CARD,
        ),
        TrickWon(
            number=2,
            leader=1,
            winner=1,
            next_leader=None,
            card=c("Ts"),
            led=parse_suit("s"),
            why=WonBy.ONLY_OF_LED,
        ),
    ]
    assert state.phase is Phase.OVER


def test_dogs_life_knock_win_and_left_leads() -> None:
    # Round 2 (dealer 1; seat 1 chooses hearts and leads): seat 0 knocks on trick 1, trumps
    # trick 2 with its one card, and the player to its left (seat 1), not trick 2's leader
    # (seat 2), leads trick 3. Seat 1 takes nothing: the one dog's life is used, so it is
    # out. Round 3: seat 0 has a full hand again and sweeps.
    decks = [
        DOG_ROUND_1,
        deal(1, ["2h", "2c 3c 4d", "5c Kd Ah"]),
        deal(2, ["Ac Ad", None, "Kc 3d"]),
    ]
    log = play_stacked(DOG_RULES, 0, decks, [
        "2h 3h 4h 5h  knock 2h  Ac Ad",
        "Ac Kc Qc 2d  h 2c 4d 3c",
        "4c 5c 6c Ad  5c Kd Ah  c Kc 3d",
    ])  # fmt: skip
    r1, r2, r3 = log["rounds"]
    assert r1["tricks_won"] == [0, 3, 1]
    assert (r1["eliminated"], r1["dogs_life_granted"]) == ([], [0])
    assert r2["dogs_life"] == [0]
    assert r2["hands"] == [["2h"], ["2c", "3c", "4d"], ["5c", "Kd", "Ah"]]
    t1, t2, t3 = r2["tricks"]
    assert plays(t1) == [(1, "2c"), (2, "5c"), (0, "knock")]
    assert t1["winner"] == 2
    assert plays(t2) == [(2, "Kd"), (0, "2h"), (1, "4d")]
    assert t2["winner"] == 0
    assert t3["leader"] == 1
    assert plays(t3) == [(1, "3c"), (2, "Ah")]
    assert r2["tricks_won"] == [1, 0, 2]
    assert (r2["revived"], r2["eliminated"], r2["dogs_life_granted"]) == ([0], [1], [])
    assert r3["dogs_life"] == []
    assert r3["hands"] == [["Ac", "Ad"], None, ["Kc", "3d"]]
    assert log["result"] == {"winner": 0, "rounds_played": 3, "termination": "sweep"}


def test_view_fields_are_in_the_documented_order_and_hold_their_facts() -> None:
    # State.view builds a view by position: each field must hold its own fact. Round 3
    # of test_dogs_life_knock_win_and_left_leads' game: seat 0 had its dog's life in round
    # 2 and is back, seat 1 is out, seat 2 names trump.
    assert View._fields == VIEW_FIELDS
    decks = [
        DOG_ROUND_1,
        deal(1, ["2h", "2c 3c 4d", "5c Kd Ah"]),
        deal(2, ["Ac Ad", None, "Kc 3d"]),
    ]
    state = new_state(DOG_RULES, 0, decks)
    apply_all(state, "Ac 4c 2h Kc 5c 3h Qc 6c 4h 2d Ad 5h  h 2c 5c knock Kd 2h 4d 3c Ah")
    view = state.view()
    assert (view.seat, view.phase, view.legal) == (2, Phase.TRUMP, (0, 1, 2, 3))
    assert (view.round, view.hand_size, view.dealer, view.trick_number) == (3, 2, 2, 0)
    assert (view.in_round, view.dogs_life, view.dogs_life_used) == ((0, 2), (), (0,))
    assert view.dogs_life_open == ()  # the game's one dog's life is used
    assert (view.knocked_out, view.previous_tricks_won) == ((1,), (1, 0, 2))
    assert (view.hand_counts, view.tricks_won) == ((2, 0, 2), (0, 0, 0))
    assert view.hand == tuple(cards("Kc 3d"))
    assert state.view(0).dogs_life_used == (0,)  # every seat sees it


def test_dogs_life_card_must_be_played_on_last_trick_and_loses() -> None:
    decks = [
        DOG_ROUND_1,
        deal(1, ["2d", "2c Kc 4d", "5c Kd 6c"]),
        deal(2, [None, "2s 3s", "4s 5s"]),
    ]
    state = new_state(DOG_RULES, 0, decks)
    apply_all(state, "Ac 4c 2h Kc 5c 3h Qc 6c 4h 2d Ad 5h")
    apply_all(state, "h 2c 5c")
    assert state.turn == 0
    assert state.legal_actions() == (parse_card("2d"), KNOCK)
    apply_all(state, "knock Kd")
    assert state.turn == 0
    assert state.legal_actions() == (parse_card("2d"), KNOCK)  # trick 2 of 3
    apply_all(state, "knock 4d 6c")
    assert (state.trick_number, state.turn) == (3, 0)
    assert state.legal_actions() == (parse_card("2d"),)
    with pytest.raises(IllegalActionError, match="^seat 0 must play its dog's-life card"):
        state.apply(KNOCK)
    apply_all(state, "2d Kc")
    r2 = log_of(state)["rounds"][1]
    assert [t["winner"] for t in r2["tricks"]] == [2, 2, 1]
    assert r2["tricks_won"] == [0, 1, 2]
    assert (r2["eliminated"], r2["revived"], r2["dogs_life_granted"]) == ([0], [], [])
    assert state.phase == Phase.TRUMP and state.turn == 2  # round 3: seats 1 and 2 play on


def test_dogs_life_knock_at_the_lead() -> None:
    # lead="dealer-left". Round 1 (dealer 1): seat 0 takes no trick. Round 2: the dealer
    # is 2, so seat 0, on a dog's life, leads; it knocks, and seat 1's 7d sets the led suit.
    rules = Rules(players=3, start_cards=4, dogs_life="once-per-game", lead="dealer-left")
    decks = [
        deal(1, ["2h 3h 4h 5h", "4c 5c 6c Ad", "Ac Kc Qc 2d"], "2s"),
        deal(2, ["Ac", "7d 8c 9c", "2d 3d Ks"]),
    ]
    state = new_state(rules, 1, decks)
    apply_all(state, "Ac 2h 4c Kc 3h 5c Qc 4h 6c 2d 5h Ad")
    assert log_of(state)["rounds"][0]["dogs_life_granted"] == [0]
    apply_all(state, "h")  # seat 2 took most tricks and chooses
    assert (state.turn, state.leader) == (0, 0)
    apply_all(state, "knock 7d")
    view = state.view()
    assert (view.seat, view.led) == (2, 1)
    assert view.legal == tuple(sorted(cards("2d 3d")))
    apply_all(state, "3d")
    t1 = log_of(state)["rounds"][1]["tricks"][0]
    assert (t1["leader"], plays(t1), t1["winner"]) == (0, [(0, "knock"), (1, "7d"), (2, "3d")], 1)
    assert state.turn == 1  # the trick's winner leads


def test_dogs_life_once_per_game_all_at_once_and_left_skips_empty_hands() -> None:
    # Four players. Round 1: seats 2 and 3 both take nothing; both get a dog's life.
    # Round 2: seat 3 plays its card on trick 1 and loses; seat 2 trumps trick 2, and the
    # lead passes to its left skipping seat 3, which holds no card. Seat 0 takes nothing
    # and is out: the game's dog's life is used.
    rules = Rules(players=4, start_cards=4, dogs_life="once-per-game")
    decks = [
        deal(0, ["2d 3d 4d 3s", "Ac Kc Qc Jc", "2h 3h 4h 5h", "6h 7h 8h 9h"], "2s"),
        deal(1, ["5d 6d 7d", "8d 9d Td", "Ah", "2c"]),
        deal(2, [None, "2s 3s", "4s 5s", None]),
    ]
    state = new_state(rules, 0, decks)
    apply_all(state, "Ac 2h 6h 2d  Kc 3h 7h 3d  Qc 4h 8h 4d  Jc 5h 9h 3s")
    apply_all(state, "h 8d knock 2c 5d  9d Ah 6d  7d Td")
    log = log_of(state)
    r1, r2, r3 = log["rounds"]
    assert r1["tricks_won"] == [1, 3, 0, 0]
    assert r1["dogs_life_granted"] == [2, 3]
    assert r2["dogs_life"] == [2, 3]
    assert [len(h) for h in r2["hands"]] == [3, 3, 1, 1]
    t1, t2, t3 = r2["tricks"]
    assert plays(t1) == [(1, "8d"), (2, "knock"), (3, "2c"), (0, "5d")]
    assert plays(t2) == [(1, "9d"), (2, "Ah"), (0, "6d")]
    assert t2["winner"] == 2
    assert t3["leader"] == 0
    assert r2["tricks_won"] == [0, 2, 1, 0]
    assert (r2["eliminated"], r2["revived"], r2["dogs_life_granted"]) == ([0, 3], [2], [])
    # Round 3: seat 2, revived, has a full hand; seat 1 (two tricks) chooses trump.
    assert (r3["dealer"], r3["dogs_life"]) == (2, [])
    assert r3["hands"] == [None, ["2s", "3s"], ["4s", "5s"], None]
    assert (state.phase, state.turn) == (Phase.TRUMP, 1)


def test_dogs_life_once_per_player() -> None:
    # As in test_dogs_life_knock_win_and_left_leads, but once per player: seat 1, taking
    # nothing in round 2, gets its own dog's life (under once-per-game it was out). Round 3:
    # seat 1's ace wins, seat 2 (its left) leads; seat 0 takes nothing and, having had its
    # dog's life, is out. Round 4: seats 1 and 2 tie, seat 2 wins the cut, seat 1 wins.
    rules = Rules(players=3, start_cards=4, dogs_life="once-per-player")
    decks = [
        DOG_ROUND_1,
        deal(1, ["2h", "2c 3c 4d", "5c Kd Ah"]),
        deal(2, ["2d 3d", "Ac", "Kc Qc"]),
        deal(1, [None, "As", "2s"]),
        cards("Ah Kh"),
    ]
    log = play_stacked(rules, 0, decks, [
        "2h 3h 4h 5h  knock 2h  2d 3d",
        "Ac Kc Qc 2d  h 2c 4d 3c  Ac  As",
        "4c 5c 6c Ad  5c Kd Ah  c Kc Qc  s 2s",
    ])  # fmt: skip
    r1, r2, r3, r4 = log["rounds"]
    assert r1["dogs_life_granted"] == [0]
    assert (r2["revived"], r2["eliminated"], r2["dogs_life_granted"]) == ([0], [], [1])
    assert r3["dogs_life"] == [1]
    assert r3["hands"] == [["2d", "3d"], ["Ac"], ["Kc", "Qc"]]
    t1, t2 = r3["tricks"]
    assert plays(t1) == [(2, "Kc"), (0, "2d"), (1, "Ac")]
    assert (t1["winner"], t2["leader"]) == (1, 2)
    assert r3["tricks_won"] == [0, 1, 1]
    assert (r3["revived"], r3["eliminated"], r3["dogs_life_granted"]) == ([1], [0], [])
    assert (r4["dealer"], r4["dogs_life"], r4["leader"]) == (1, [], 2)
    assert r4["tie_cut"] == [[{"seat": 2, "card": "Ah"}, {"seat": 1, "card": "Kh"}]]
    assert log["result"] == {"winner": 1, "rounds_played": 4, "termination": "final-trick"}


def _round_facts(rules: Rules, decks: list[list[int]], scripts: list[str]) -> dict[int, Any]:
    """Play a stacked game (dealer 0) and return, by round, the views' dog's-life facts."""
    players = [ScriptedPlayer(f"p{s}", script) for s, script in enumerate(scripts)]
    play_game(rules, players, 0, dealer=0, deck=StackedDeck(decks))
    facts = {v.round: (v.dogs_life, v.dogs_life_used, v.dogs_life_open) for p in players
             for v in p.views}  # fmt: skip
    assert len({(v.round, v.dogs_life_open) for p in players for v in p.views}) == len(facts)
    return facts


def test_view_says_who_has_used_a_dogs_life_and_who_may_get_one() -> None:
    # The games of test_dogs_life_once_per_player and test_dogs_life_knock_win_and_left_leads.
    # Values: (on a dog's life, used one, would get one with no trick), constant in a round.
    per_player = _round_facts(
        Rules(players=3, start_cards=4, dogs_life="once-per-player"),
        [DOG_ROUND_1, deal(1, ["2h", "2c 3c 4d", "5c Kd Ah"]), deal(2, ["2d 3d", "Ac", "Kc Qc"]),
         deal(1, [None, "As", "2s"]), cards("Ah Kh")],
        ["2h 3h 4h 5h  knock 2h  2d 3d", "Ac Kc Qc 2d  h 2c 4d 3c  Ac  As",
         "4c 5c 6c Ad  5c Kd Ah  c Kc Qc  s 2s"],
    )  # fmt: skip
    assert per_player == {
        1: ((), (), (0, 1, 2)),
        2: ((0,), (0,), (1, 2)),  # not twice in a row; seat 0 has had its own
        3: ((1,), (0, 1), (2,)),
        4: ((), (0, 1), ()),  # never in the 1-card round
    }
    per_game = _round_facts(
        DOG_RULES,
        [DOG_ROUND_1, deal(1, ["2h", "2c 3c 4d", "5c Kd Ah"]), deal(2, ["Ac Ad", None, "Kc 3d"])],
        ["2h 3h 4h 5h  knock 2h  Ac Ad", "Ac Kc Qc 2d  h 2c 4d 3c",
         "4c 5c 6c Ad  5c Kd Ah  c Kc 3d"],
    )  # fmt: skip
    assert per_game == {1: ((), (), (0, 1, 2)), 2: ((0,), (0,), ()), 3: ((), (0,), ())}


@pytest.mark.parametrize("sweep_wins", [False, True])
@pytest.mark.parametrize("dogs_life", ["once-per-game", "once-per-player"])
def test_no_dogs_life_in_final_round(dogs_life: str, sweep_wins: bool) -> None:
    # Round 1 (2 cards): seat 0 takes nothing and gets a dog's life. Round 2 has one card
    # each: seat 0 cannot knock, plays 4h and wins (revived, and the winner); seats 1 and
    # 2, who never had a dog's life, are out. With sweep_wins off only the dog's-life rule
    # decides; with it on, the one trick is also a sweep: the same outcome.
    rules = Rules(players=3, start_cards=2, dogs_life=dogs_life, sweep_wins=sweep_wins)  # type: ignore[arg-type]
    decks = [
        deal(0, ["2c 2d", "Ac Kd", "Qc Ad"], "2s"),
        deal(1, ["4h", "Kc", "3c"]),
        cards("5h 9h"),
    ]
    state = new_state(rules, 0, decks)
    apply_all(state, "Ac Qc 2c  Kd Ad 2d  h Kc 3c")
    assert state.turn == 0
    assert state.legal_actions() == (parse_card("4h"),)
    with pytest.raises(IllegalActionError):
        state.apply(KNOCK)
    apply_all(state, "4h")
    r1, r2 = log_of(state)["rounds"]
    assert r1["dogs_life_granted"] == [0]
    assert r2["dogs_life"] == [0]
    assert r2["tie_cut"] == [[{"seat": 2, "card": "5h"}, {"seat": 1, "card": "9h"}]]
    assert r2["tricks_won"] == [1, 0, 0]
    assert (r2["eliminated"], r2["dogs_life_granted"], r2["revived"]) == ([1, 2], [], [0])
    assert (state.phase, state.winner) == (Phase.OVER, 0)


@pytest.mark.parametrize("dogs_life", ["once-per-game", "once-per-player"])
def test_no_dogs_life_in_one_card_game(dogs_life: str) -> None:
    rules = Rules(players=3, start_cards=1, dogs_life=dogs_life, sweep_wins=False)  # type: ignore[arg-type]
    state = new_state(rules, 0, [deal(0, ["2h", "Ac", "Kc"], "2s")])
    apply_all(state, "Ac Kc 2h")
    r1 = log_of(state)["rounds"][0]
    assert (r1["eliminated"], r1["dogs_life_granted"]) == ([0, 2], [])
    assert (state.phase, state.winner) == (Phase.OVER, 1)


# --------------------------------------------------------------------------- views


def _visible(state: State, seat: int) -> set[int]:
    """Return the cards ``seat`` may see: its hand, the turned-up card, cards played."""
    seen = {c for c in range(52) if state.hands[seat] & BIT[c]}
    if state.turned_up is not None:
        seen.add(state.turned_up)
    seen.update(ev.card for ev in state.events if isinstance(ev, Play))
    return seen


def _walk(value: object, path: str) -> list[tuple[str, object]]:
    """Return every leaf under ``value`` (a view) as ``(path, leaf)``, e.g. ``v.hand[0]``."""
    if isinstance(value, (View, TrickFacts, Rules)):
        names = tuple(value.__dataclass_fields__) if isinstance(value, Rules) else value._fields
        return [leaf for f in names for leaf in _walk(getattr(value, f), f"{path}.{f}")]
    if isinstance(value, tuple):
        return [leaf for i, x in enumerate(value) for leaf in _walk(x, f"{path}[{i}]")]
    if isinstance(value, (Phase, WonBy)):
        return [(path, value.value)]
    assert value is None or isinstance(value, (int, str)), f"{path}: {value!r}"
    return [(path, value)]


# Where a view holds cards: its hand, its legal plays, and what the table has seen; and
# where it holds sets of cards as masks.
CARD_PATH = re.compile(
    r"v\.(hand\[\d+\]|turned_up|trick\[\d+\]\[1\]|tricks\[\d+\]\[2\]\[\d+\]\[1\]|tricks\[\d+\]\[4\]"
    r"|winning_card|facts\.winning)"
)
MASK_PATH = re.compile(r"v\.(hand_mask|seen|facts\.hand|facts\.legal|facts\.seen)")
VIEW_FIELDS = (
    "seat", "phase", "legal", "facts", "rules", "round", "hand_size", "dealer", "leader",
    "trump", "trump_method", "trump_chosen_by", "turned_up", "in_round", "dogs_life",
    "dogs_life_used", "dogs_life_open", "knocked_out", "previous_tricks_won", "tricks_won",
    "tricks", "trick_number", "tricks_left", "trick_order", "hand_counts", "votes", "hand",
    "hand_mask", "seen", "trick", "led", "winning_card", "winning_seat",
)  # fmt: skip
"""View's fields in the documented order (State.view builds views by position)."""
TRICK_FACTS_FIELDS = (
    "seat", "hand", "legal", "may_knock", "seen", "winning", "led", "trump", "to_come", "won",
    "tricks_left",
)  # fmt: skip
"""TrickFacts' fields in the documented order (the trick loop builds them by position)."""


@pytest.mark.parametrize(
    ("name", "record", "fields"),
    [("new_trick_facts", TrickFacts, TRICK_FACTS_FIELDS), ("new_view", View, VIEW_FIELDS)],
)
def test_fast_constructors_take_the_fields_in_the_documented_order(
    name: str, record: Any, fields: tuple[str, ...]
) -> None:
    # The engine builds these records from a tuple, by position: a field added or moved
    # in the class must be moved in the constructor's docstring, here, and in its callers.
    new = getattr(view_module, name)
    assert record._fields == fields == documented_order(view_module, name)
    values = tuple(range(100, 100 + len(fields)))  # each field a value of its own
    built = new(values)
    assert type(built) is record
    assert built == record(**dict(zip(fields, values, strict=True)))
    assert [getattr(built, f) for f in fields] == list(values)


def _view_cards(view: View) -> list[int]:
    """Return every card a view holds, found by walking all its attributes."""
    out: list[Any] = []
    for path, leaf in _walk(view, "v"):
        is_card = CARD_PATH.fullmatch(path) or (
            view.phase == Phase.PLAY and re.fullmatch(r"v\.legal\[\d+\]", path)
        )
        if MASK_PATH.fullmatch(path):
            assert isinstance(leaf, int)
            out += cards_in(leaf)
        elif is_card and leaf is not None and leaf != -1:
            assert isinstance(leaf, int)
            out.append(leaf)
        elif isinstance(leaf, int):
            # Seats, counts, suits, numbers: never a hand mask.
            assert -1 <= leaf <= 25, f"{path}: {leaf}"
    return out


def _check_view(state: State, seat: int) -> None:
    view = state.view(seat)
    assert not hasattr(view, "__dict__")
    assert View._fields == VIEW_FIELDS
    assert set(view.hand) == {c for c in range(52) if state.hands[seat] & BIT[c]}
    visible = _visible(state, seat) | {KNOCK}
    for c in _view_cards(view):
        assert c in visible, f"seat {seat} sees {action_name(c)}"


def _hide_others(state: State, seat: int, rng: random.Random) -> State:
    """Return a copy of ``state`` with the other seats' unseen cards dealt anew among them."""
    other = copy.deepcopy(state)
    seats = [s for s in range(state.players) if s != seat]
    pool = [c for s in seats for c in range(52) if state.hands[s] & BIT[c]]
    rng.shuffle(pool)
    k = 0
    for s in seats:
        count = state.hands[s].bit_count()
        other.hands[s] = sum(BIT[c] for c in pool[k : k + count])
        k += count
    return other


VIEW_RULES = [
    Rules(players=4, start_cards=5),
    Rules(players=3, start_cards=6, dogs_life="once-per-player", sweep_wins=False),
    Rules(players=5, start_cards=4, dogs_life="once-per-game", eliminated_vote=True),
    Rules(players=2, start_cards=7, final_round_trump=False, trump="fixed"),
]


@pytest.mark.parametrize("rules", VIEW_RULES, ids=range(len(VIEW_RULES)))
def test_view_holds_no_other_players_cards(rules: Rules) -> None:
    # At every decision of seeded games, every seat's view holds only its own hand and
    # cards the table has seen, and is the same whatever the other seats hold.
    rng = random.Random(99)
    decisions = 0
    for seed in range(3):
        state = State(rules, random.Random(seed))
        rng = bots_rng(seed)
        bots = [RandomBot(f"r{s}", rng) for s in range(rules.players)]
        while state.phase != Phase.OVER:
            for seat in range(rules.players):
                _check_view(state, seat)
                assert _hide_others(state, seat, rng).view(seat) == state.view(seat)
            state.apply(bots[state.turn].act(state.view()))
            decisions += 1
    assert decisions > 50


def test_view_of_hand_crafted_deal() -> None:
    state = new_state(FULL_RULES, 0, FULL_DECKS)
    apply_all(state, "3c Ac")
    view = state.view()
    assert view.seat == 3
    assert view.hand == tuple(sorted(cards("Qc 3h 4s")))
    assert view.trick == ((1, parse_card("3c")), (2, parse_card("Ac")))
    assert (view.turned_up, view.trump, view.led) == (parse_card("2h"), 2, 0)
    assert view.hand_counts == (3, 2, 2, 3)
    assert view.legal == (parse_card("Qc"),)
    # A seat not to act sees its own hand and no legal actions.
    other = state.view(0)
    assert other.hand == tuple(sorted(cards("7c 8d 9s")))
    assert other.legal == ()
    seen = set(_view_cards(view))
    assert seen == set(cards("Qc 3h 4s 3c Ac 2h"))
    assert not seen & set(cards("7c 8d 9s 4c 5d Kd As"))


# --------------------------------------------------------------------------- search copies

SEARCH_RULES = [
    Rules(players=4),
    Rules(players=3, dogs_life="once-per-player", sweep_wins=False),
    Rules(players=5, dogs_life="once-per-game", sweep_wins=False, eliminated_vote=True),
    Rules(players=7, final_round_trump=False, lead="dealer-left"),
    Rules(players=2, start_cards=12, dogs_life="once-per-player", sweep_wins=False),
]


def _play_states(rules: Rules, seeds: range) -> list[State]:
    """Return the states of seeded random games at every card decision, each a copy."""
    states = []
    for seed in seeds:
        state = State(rules, random.Random(seed))
        rng = bots_rng(seed)
        bots = [RandomBot(f"r{s}", rng) for s in range(rules.players)]
        while state.phase != Phase.OVER:
            if state.phase == Phase.PLAY:
                states.append(state.round_copy())
            state.apply(bots[state.turn].act(state.view()))
    return states


def _uniform(rnd: Any) -> Any:
    """Return a policy choosing uniformly among the legal actions (cards, then the knock)."""

    def policy(facts: TrickFacts) -> int:
        actions = cards_in(facts.legal) + ((KNOCK,) if facts.may_knock else ())
        return actions[int(rnd() * len(actions))]

    return policy


def _play_out_by_apply(state: State, rnd: Any) -> list[int]:
    """Play out the round through legal_actions and apply, drawing as _uniform does."""
    while state.phase == Phase.PLAY:
        legal = state.legal_actions()
        state.apply(legal[int(rnd() * len(legal))])
    return state.tricks_won


def test_copy_sets_every_slot_and_shares_no_changing_list() -> None:
    state = _play_states(SEARCH_RULES[1], range(1))[5]
    other = state.round_copy()
    for name in STATE_FIELDS:
        assert hasattr(other, name), name
        if name not in ("events", "recording", "_first_play", "_trick_start", "_view_parts",
                        "_tricks_kept"):
            assert getattr(other, name) == getattr(state, name), name
        if isinstance(getattr(state, name), list):
            assert getattr(other, name) is not getattr(state, name), name
    assert (other.events, other.trick, other.tricks, other.recording) == ([], (), (), False)
    # Playing the copy's round out leaves the game as it was.
    before = state.view()
    other.play_round([_uniform(random.Random(1).random)] * state.players)
    assert other.phase == Phase.ROUND_OVER and state.view() == before


def test_a_round_copy_ends_with_its_round_and_says_so_not_that_the_game_is_over() -> None:
    state = _play_states(SEARCH_RULES[1], range(1))[5]
    other = state.round_copy()
    other.play_round([_uniform(random.Random(1).random)] * state.players)
    assert (other.phase, other.outcome, other.legal_actions()) == (Phase.ROUND_OVER, None, ())
    with pytest.raises(IllegalActionError, match="the round copied for search is over"):
        other.apply(0)
    assert other.view(0).legal == ()


def test_copy_is_a_whole_game_that_plays_on_to_its_end() -> None:
    # copy() is fork(): the history kept (a new list), the next rounds dealt, OVER at the end.
    state = State(Rules(players=3), random.Random(8))
    rng = bots_rng(8)
    bots = [RandomBot(f"r{s}", rng) for s in range(3)]
    for _ in range(10):
        state.apply(bots[state.turn].act(state.view()))
    other = state.copy()
    assert other.events == state.events and other.events is not state.events
    played = len(state.events)
    while other.phase is not Phase.OVER:
        other.apply(other.legal_actions()[0])
    assert other.outcome is not None and other.round >= 2 and len(state.events) == played


@pytest.mark.parametrize("rules", SEARCH_RULES, ids=range(len(SEARCH_RULES)))
def test_play_round_plays_by_the_rules_of_apply(rules: Rules) -> None:
    # From any state, the trick loop asking policies ends the round exactly where the
    # legal actions applied one by one end, given the same random numbers.
    states = _play_states(rules, range(6))
    for i, state in enumerate(states):
        fast, slow = state.round_copy(), state.round_copy()
        r1, r2 = random.Random(i), random.Random(i)
        fast.play_round([_uniform(r1.random)] * rules.players)
        won = fast.tricks_won
        assert won == _play_out_by_apply(slow, r2.random)
        assert r1.random() == r2.random()
        assert fast.hands == slow.hands
        assert (fast.phase, fast.turn, fast.trick_number) == (Phase.ROUND_OVER, -1, fast.hand_size)
        assert sum(won) == sum(state.tricks_won) + state.hand_size - state.trick_number + 1
    assert len(states) > 100


class _Stop(Exception):
    """A policy gives up (a player quits, say)."""


@pytest.mark.parametrize("stop", ["raise", "illegal"])
@pytest.mark.parametrize("rules", SEARCH_RULES, ids=range(len(SEARCH_RULES)))
def test_a_round_stopped_by_a_policy_is_left_at_that_decision(rules: Rules, stop: str) -> None:
    # Every way out of the one trick loop keeps its state: a policy that raises at its
    # k-th decision, or chooses a card its seat does not hold, leaves the game exactly
    # where applying the k-1 plays before it leaves it (mid-trick or between tricks), with
    # the facts that policy was given.
    for seed in range(3):
        start = State(rules, random.Random(seed))
        while start.phase is not Phase.PLAY:
            start.apply(start.legal_actions()[0])
        decisions = sum(h.bit_count() for h in start.hands)  # at most: knocks skip none
        for k in range(1, decisions + 1, 3):
            fast, slow = start.copy(), start.copy()
            chosen: list[int] = []
            given: list[TrickFacts] = []

            def policy(
                facts: TrickFacts, k: int = k, chosen: list[int] = chosen,
                given: list[TrickFacts] = given,
            ) -> int:  # fmt: skip
                if len(chosen) == k - 1:
                    given.append(facts)
                    if stop == "raise":
                        raise _Stop
                    return next(c for c in range(52) if not facts.hand >> c & 1)
                chosen.append(cards_in(facts.legal)[len(chosen) % facts.legal.bit_count()])
                return chosen[-1]

            expected = _Stop if stop == "raise" else IllegalActionError
            try:
                fast.play_round([policy] * rules.players)
            except expected:
                pass
            else:
                continue  # the round ended first
            for action in chosen:
                slow.apply(action)
            assert fast.phase is Phase.PLAY
            assert (fast.turn, fast.facts()) == (given[0].seat, given[0])
            for name in STATE_FIELDS:
                if name not in ("_deck", "_view_parts", "_tricks_kept"):  # what views keep
                    assert getattr(fast, name) == getattr(slow, name), (seed, k, name)
            assert [fast.view(s) for s in range(rules.players)] == [
                slow.view(s) for s in range(rules.players)
            ]


def test_play_round_of_a_whole_game_state_records_the_round() -> None:
    # On the game's own state (not a copy), the loop records each action and deals on.
    state = State(Rules(players=3), random.Random(4))
    state.play_round([_uniform(random.Random(1).random)] * 3)
    assert [type(ev) for ev in state.events].count(TrickWon) == 7
    assert state.phase in (Phase.TRUMP, Phase.OVER)
    assert [type(ev) for ev in state.events].count(Deal) == (2 if state.outcome is None else 1)
    with pytest.raises(ValueError, match="no card to play in phase"):
        state.play_round([_uniform(random.Random(1).random)] * 3)


def test_the_tricks_built_on_from_the_last_are_those_of_a_walk_from_the_rounds_start() -> None:
    # State.tricks walks on from the tricks it built last (this round's only): at every
    # step of whole games, they equal a fork's, which walks the round from its start, and
    # a view built after each step holds them.
    for seed, rules in enumerate(SEARCH_RULES):
        state = State(rules, random.Random(seed))
        rng = random.Random(100 + seed)
        rounds_seen = set()
        while state.phase is not Phase.OVER:
            if seed % 2:  # some games ask at every step, others only now and then
                assert state.tricks == state.fork().tricks
            elif rng.random() < 0.3:
                assert state.view().tricks == state.fork().tricks
            if state.tricks:
                rounds_seen.add(state.round)
            state.apply(rng.choice(state.legal_actions()))
        assert len(rounds_seen) >= 2


def test_view_of_a_search_copy_follows_its_play() -> None:
    state = _play_states(SEARCH_RULES[0], range(1))[3]
    other = state.round_copy()
    before = state.view()
    assert other.view() == before._replace(trick=(), tricks=())
    other.apply(other.legal_actions()[0])
    assert other.view().hand_counts != before.hand_counts
    assert state.view() == before


# --------------------------------------------------------------------- fork


def test_fork_keeps_the_history_and_plays_on_as_the_game_would() -> None:
    # A fork is a whole game: same events (a new list), its own lists, and with a copy of
    # the deck it deals the next rounds exactly as the game does.
    state = State(Rules(players=3, dogs_life="once-per-game"), random.Random(8))
    rng = random.Random(3)
    for _ in range(9):
        state.apply(rng.choice(state.legal_actions()))
    fork = state.fork()
    for name in STATE_FIELDS:
        if name != "_deck":
            assert getattr(fork, name) == getattr(state, name), name
        if isinstance(getattr(state, name), list):
            assert getattr(fork, name) is not getattr(state, name), name
    assert copy.deepcopy(state).events == state.events
    while state.phase is not Phase.OVER:
        action = rng.choice(state.legal_actions())
        state.apply(action)
        fork.apply(action)
    assert fork.events == state.events and fork.outcome == state.outcome
    assert [type(e) for e in state.events].count(Deal) >= 2


def test_fork_with_hands_deals_the_hidden_cards_anew_and_rewrites_the_deal() -> None:
    # Seat 1 leads 3c to trick 1 and seat 2 follows with Ac; seats 0 and 2 then swap
    # what they still hold: the fork's deal shows each seat's played card, then its new hand.
    rules = Rules(players=3, start_cards=3)
    decks = [deal(0, ["Kd Qd 4s", "3c 5h 9h", "Ac Jd 2s"], "2h")]
    state = apply_all(new_state(rules, 0, decks), "3c Ac")
    assert state.turn == 0
    hands = state.hands[:]
    hands[0], hands[2] = hands[2], hands[0]  # seat 0 holds 3 cards, seat 2 only 2
    with pytest.raises(ValueError, match="seat 0 holds 3 cards, not 2"):
        state.fork(hands=hands)
    swap = [sum(BIT[c] for c in cards(h)) for h in ("Jd Kd 2s", "5h 9h", "Qd 4s")]
    fork = state.fork(hands=swap)
    dealt = next(e for e in fork.events if type(e) is Deal).hands
    assert dealt == (tuple(cards("Jd Kd 2s")), tuple(cards("3c 5h 9h")), tuple(cards("Ac Qd 4s")))
    assert fork.view(0).hand == tuple(sorted(cards("Jd Kd 2s")))
    assert next(e for e in state.events if type(e) is Deal).hands[0] == tuple(cards("Kd Qd 4s"))
    assert fork.legal_actions() == tuple(cards("Jd Kd 2s"))  # seat 0 is void in clubs now
    seen = [sum(BIT[c] for c in cards(h)) for h in ("Jd Kd Ac", "5h 9h", "Qd 4s")]
    with pytest.raises(ValueError, match="Ac is held twice or was seen by the table"):
        state.fork(hands=seen)
    twice = [sum(BIT[c] for c in cards(h)) for h in ("Jd Kd 2s", "5h 9h", "Qd 2s")]
    with pytest.raises(ValueError, match="2s is held twice"):
        state.fork(hands=twice)


def test_a_pickled_game_plays_on_as_the_game_does() -> None:
    # OpenSpiel serializes states by pickling; a compiled State pickles by its FIELDS.
    state = State(Rules(players=3, dogs_life="once-per-game"), random.Random(8))
    rng = random.Random(3)
    for _ in range(9):
        state.apply(rng.choice(state.legal_actions()))
    again = pickle.loads(pickle.dumps(state))
    assert type(again) is State and again is not state
    for name in STATE_FIELDS:
        if name != "_deck":
            assert getattr(again, name) == getattr(state, name), name
    assert again.hands is not state.hands and again.events is not state.events
    while state.phase is not Phase.OVER:
        action = rng.choice(state.legal_actions())
        state.apply(action)
        again.apply(action)
    assert again.events == state.events and again.outcome == state.outcome


def test_games_under_other_rules_between_keep_each_rules_own() -> None:
    # A round reads its rule settings once per Rules value (kept until other rules come):
    # a game under rules A, then one under B, then A again plays A's rules again.
    a = Rules(players=3, start_cards=5, lead="dealer-left", trump="fixed")
    b = Rules(players=3, start_cards=7, sweep_wins=False, final_round_trump=False)

    def game(rules: Rules, seed: int) -> list[Any]:
        players = [RandomBot(f"r{s}", bots_rng(seed)) for s in range(3)]
        return play_game(rules, players, seed).events

    first = game(a, 4)
    under_b = game(b, 4)
    assert game(a, 4) == first != under_b
    assert first[0].hand_size == 5 and under_b[0].hand_size == 7
    methods = [e.method for e in first if type(e).__name__ == "TrumpSet"]
    assert methods[0] == "turned-up" and set(methods[1:]) == {"fixed"} and len(methods) > 1
    assert game(Rules(**{**a.__dict__}), 4) == first  # an equal value, not the same one


def test_a_view_counts_each_hand_and_rebuilds_the_round_s_tricks() -> None:
    # The view's hand counts (a table of 13-bit masks) and tricks (built as tuples) are
    # those of the hands and events themselves, in every suit and round.
    from kow.events import Trick

    for seed in range(3):
        state = State(Rules(players=5), random.Random(seed))
        rng = random.Random(seed)
        while state.phase is not Phase.OVER:
            view = state.view()
            assert view.hand_counts == tuple(hand.bit_count() for hand in state.hands)
            won = [e for e in state.events[state._first_play :] if type(e) is TrickWon]
            assert [type(t) for t in view.tricks] == [Trick] * len(won)
            assert [(t.number, t.winner, t.card) for t in view.tricks] == [
                (e.number, e.winner, e.card) for e in won
            ]
            state.apply(rng.choice(state.legal_actions()))


def test_each_trump_set_is_found_at_the_index_of_its_fields() -> None:
    # set_trump reads the round's TrumpSet from a table by an int of its fields.
    from typing import get_args

    from kow.engine._round import _TRUMP_SETS, _trump_set_index
    from kow.events import TrumpMethod

    found = [
        _TRUMP_SETS[_trump_set_index(suit, method, chosen_by)]
        for suit in range(-1, 4)
        for method in get_args(TrumpMethod)
        for chosen_by in (None, *range(7))
    ]
    assert [tuple(event) for event in found] == [
        (None if suit < 0 else suit, method, chosen_by)
        for suit in range(-1, 4)
        for method in get_args(TrumpMethod)
        for chosen_by in (None, *range(7))
    ]
    assert len(set(map(id, found))) == len(found) == len(_TRUMP_SETS)
