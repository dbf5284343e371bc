"""Rule settings (kow.rules): their checks, and what each setting does in play.

Each setting gets a hand-crafted deal (see ``conftest.py``) whose outcome is written here,
played under the setting and, where it tells, under the default for contrast.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import pytest
from conftest import apply_all, cards, deal, log_of, new_state, play_stacked, plays

from kow.engine import IllegalActionError
from kow.events import Phase
from kow.game import bots_rng, play_game
from kow.log import build, rules_from_log, rules_to_log
from kow.players import make_bot
from kow.rules import DOGS_LIFE, LEADS, TRUMPS, Rules, RulesError, max_start_cards

# --------------------------------------------------------------------------- the value


def test_defaults_are_the_rules_text() -> None:
    assert rules_to_log(Rules()) == {
        "players": 4,
        "start_cards": 7,
        "dogs_life": "off",
        "trump": "winner-chooses",
        "final_round_trump": True,
        "lead": "most-tricks",
        "eliminated_vote": False,
        "sweep_wins": True,
    }


def test_rules_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().players = 3  # type: ignore[misc]


@pytest.mark.parametrize("players", range(2, 8))
def test_players_and_start_cards_in_range(players: int) -> None:
    most = 51 // players
    assert max_start_cards(players) == most
    for start in (1, most):
        assert Rules(players=players, start_cards=start).start_cards == start
    for start in (0, -1, most + 1):
        with pytest.raises(RulesError, match=f"start_cards must be 1 to {most}"):
            Rules(players=players, start_cards=start)


@pytest.mark.parametrize("players", [0, 1, 8, 52, "4", 4.0, None])
def test_players_out_of_range(players: Any) -> None:
    with pytest.raises(RulesError, match=f"players must be 2 to 7, not {players!r}"):
        Rules(players=players, start_cards=1)


@pytest.mark.parametrize(
    ("field", "value"),
    [("dogs_life", "on"), ("dogs_life", None), ("trump", "loser-chooses"), ("lead", "left"),
     ("start_cards", "7"), ("start_cards", 7.0), ("final_round_trump", 1),
     ("eliminated_vote", "yes"), ("sweep_wins", None)],
)
def test_bad_settings(field: str, value: Any) -> None:
    with pytest.raises(RulesError, match=field) as err:
        Rules(**{field: value})
    assert repr(value) in str(err.value)
    assert isinstance(err.value, ValueError)


def test_every_choice_accepted() -> None:
    combos = itertools.product(DOGS_LIFE, TRUMPS, LEADS, (False, True), (False, True))
    for dogs, trump, lead, vote, sweep in combos:
        r = Rules(dogs_life=dogs, trump=trump, lead=lead, eliminated_vote=vote, sweep_wins=sweep)  # type: ignore[arg-type]
        assert rules_from_log(rules_to_log(r)) == r


def test_from_dict_checks_keys() -> None:
    data = rules_to_log(Rules())
    with pytest.raises(RulesError, match="unknown rule setting 'jokers'"):
        rules_from_log({**data, "jokers": True})
    del data["lead"]  # type: ignore[misc]
    with pytest.raises(RulesError, match="missing rule setting 'lead'"):
        rules_from_log(data)
    with pytest.raises(RulesError, match="players"):
        rules_from_log({**rules_to_log(Rules()), "players": 9})


# --------------------------------------------------------------------------- start_cards


@pytest.mark.parametrize("start", [6, 7, 8])
def test_start_cards(start: int) -> None:
    # Two players, spades turned up. Seat 1 holds clubs and Ad; seat 0 holds 3s and
    # diamonds. Seat 0 trumps trick 1 and leads 2d; seat 1 takes Ad, then every club.
    # Round 2 deals one card fewer; seat 1, with most tricks, chooses trump.
    clubs = " ".join(r + "c" for r in "AKQJT98"[: start - 1])
    diamonds = " ".join(r + "d" for r in "2345678"[: start - 1])
    hearts = " ".join(r + "h" for r in "2345678"[: start - 1])
    spades = " ".join(r + "s" for r in "AKQJT98"[: start - 1])
    rules = Rules(players=2, start_cards=start)
    decks = [
        deal(0, [f"3s {diamonds}", f"{clubs} Ad"], "2s"),
        deal(1, [hearts, spades]),
    ]
    state = new_state(rules, 0, decks)
    c = clubs.split()
    d = diamonds.split()
    rest = [x for pair in zip(c[1:], d[1:], strict=True) for x in pair]
    apply_all(state, [c[0], "3s", d[0], "Ad", *rest])
    r1, r2 = log_of(state)["rounds"]
    assert r1["hand_size"] == start
    assert [len(h) for h in r1["hands"]] == [start, start]
    assert len(r1["tricks"]) == start
    assert r1["tricks_won"] == [1, start - 1]
    assert r2["hand_size"] == start - 1
    assert [len(h) for h in r2["hands"]] == [start - 1, start - 1]
    assert (state.phase, state.turn, state.hand_size) == (Phase.TRUMP, 1, start - 1)


# --------------------------------------------------------------------------- trump


# Three players, 3 cards, spades turned up; each takes one trick in round 1.
TIE3_DEAL = deal(0, ["4c 4d Ah", "Ac 2d 2h", "3c Ad 3h"], "2s")
TIE3_CUT = [cards("Kc 5d Kh"), cards("3c 7s")]  # the round-2 cut: seat 1 wins
TIE3_PLAYS = "Ac 3c 4c  2d Ad 4d  3h Ah 2h"


@pytest.mark.parametrize("final_round_trump", [True, False])
def test_trump_fixed(final_round_trump: bool) -> None:
    # Round 2: spades stays trump; the tie cut (for the lead alone) gives the lead to
    # seat 1; seat 0 trumps Kd with As; seat 2 is out. Round 3: seats 0 and 1 cut, seat 0
    # wins it and leads Kh, and seat 1's 2s trumps it, unless the last round has no trump.
    rules = Rules(players=3, start_cards=3, trump="fixed", final_round_trump=final_round_trump)
    decks = [
        TIE3_DEAL,
        deal(1, ["As 4d", "Ad Kd", "2d 3d"]),
        *TIE3_CUT,
        deal(0, ["Kh", "2s", None]),
        cards("2c 3c"),
    ]
    log = play_stacked(rules, 0, decks, ["4c 4d Ah 4d As Kh", "Ac 2d 2h Ad Kd 2s",
                                         "3c Ad 3h 2d 3d"])
    r1, r2, r3 = log["rounds"]
    assert (r1["trump"], r1["trump_method"]) == ("s", "turned-up")
    assert (r2["trump"], r2["trump_method"], r2["trump_chosen_by"]) == ("s", "fixed", None)
    assert len(r2["tie_cut"]) == 2
    assert r2["leader"] == 1
    assert [t["winner"] for t in r2["tricks"]] == [1, 0]
    assert r2["eliminated"] == [2]
    assert r3["dealer"] == 0  # seat 2, next after seat 1, is out
    assert r3["tie_cut"] == [[{"seat": 1, "card": "2c"}, {"seat": 0, "card": "3c"}]]
    assert r3["leader"] == 0
    if final_round_trump:
        assert (r3["trump"], r3["trump_method"]) == ("s", "fixed")
        assert log["result"]["winner"] == 1
    else:
        assert (r3["trump"], r3["trump_method"]) == (None, "none")
        assert log["result"]["winner"] == 0


def test_trump_fixed_never_asks_for_a_choice() -> None:
    state = new_state(Rules(players=3, start_cards=3, trump="fixed"), 0,
                      [TIE3_DEAL, deal(1, ["As 4d", "Ad Kd", "2d 3d"]), *TIE3_CUT])
    apply_all(state, TIE3_PLAYS)
    assert (state.phase, state.turn, state.trump) == (Phase.PLAY, 1, 3)


# Three players, 2 cards, hearts turned up. Seat 1 takes trick 1; seat 2 trumps trick 2;
# seat 0 is out. Round 2 (1 card): seats 1 and 2 tie; seat 2 wins the cut (Kc, 3d).
FINAL_DECKS = [
    deal(0, ["3c Kd", "Ac Kc", "2c 3h"], "2h"),
    deal(1, [None, "Ah", "5c"]),
    cards("Kc 3d"),
]


def test_final_round_without_trump() -> None:
    rules = Rules(players=3, start_cards=2, final_round_trump=False)
    log = play_stacked(rules, 0, FINAL_DECKS, ["3c Kd", "Ac Kc Ah", "2c 3h 5c"])
    r1, r2 = log["rounds"]
    assert [t["winner"] for t in r1["tricks"]] == [1, 2]
    assert (r2["trump"], r2["trump_method"], r2["trump_chosen_by"]) == (None, "none", None)
    assert r2["turned_up"] is None
    # The tie is still cut, for the lead; Ah does not follow clubs and, with no trump, loses.
    assert r2["tie_cut"] == [[{"seat": 2, "card": "Kc"}, {"seat": 1, "card": "3d"}]]
    assert plays(r2["tricks"][0]) == [(2, "5c"), (1, "Ah")]
    assert log["result"] == {"winner": 2, "rounds_played": 2, "termination": "final-trick"}


def test_final_round_with_trump() -> None:
    log = play_stacked(Rules(players=3, start_cards=2), 0, FINAL_DECKS,
                       ["3c Kd", "Ac Kc Ah", "2c 3h h 5c"])
    r2 = log["rounds"][1]
    assert (r2["trump"], r2["trump_method"], r2["trump_chosen_by"]) == ("h", "chosen", 2)
    assert log["result"] == {"winner": 1, "rounds_played": 2, "termination": "final-trick"}


def test_one_card_game_without_trump() -> None:
    # start_cards=1: round 1 is the final round, so no card is turned up.
    rules = Rules(players=2, start_cards=1, final_round_trump=False)
    log = play_stacked(rules, 0, [deal(0, ["Ah", "2c"])], ["Ah", "2c"])
    r1 = log["rounds"][0]
    assert (r1["turned_up"], r1["trump"], r1["trump_method"]) == (None, None, "none")
    assert (r1["leader"], r1["tricks"][0]["winner"]) == (1, 1)
    assert log["result"] == {"winner": 1, "rounds_played": 1, "termination": "final-trick"}


def test_one_card_game_with_trump() -> None:
    rules = Rules(players=2, start_cards=1)
    log = play_stacked(rules, 0, [deal(0, ["Ah", "2c"], "5h")], ["Ah", "2c"])
    r1 = log["rounds"][0]
    assert (r1["turned_up"], r1["trump"], r1["trump_method"]) == ("5h", "h", "turned-up")
    assert log["result"] == {"winner": 0, "rounds_played": 1, "termination": "final-trick"}


# --------------------------------------------------------------------------- eliminated_vote
#
# Four players, 3 cards, first dealer 3, hearts turned up: seats 1 and 3 take no trick.
# Round 2: the dealer is 0, whose left is seat 2 (the next seat still in the game), so the
# knocked-out seats vote in the order 3, 1. Seat 0 took most tricks.

VOTE_DECKS = [
    deal(3, ["Ac Kd 5s", "3c 4d 5c", "Qc Ad 3s", "2c 2d 2s"], "2h"),
    deal(0, ["Ah 2c", None, "Kh 3c", None]),
]
VOTE_ROUND_1 = "Ac 3c Qc 2c  Kd 4d Ad 2d  3s 2s 5s 5c"


def test_vote_majority() -> None:
    state = new_state(Rules(players=4, start_cards=3, eliminated_vote=True), 3, VOTE_DECKS)
    apply_all(state, VOTE_ROUND_1)
    assert (state.phase, state.turn) == (Phase.VOTE, 3)
    apply_all(state, "s")
    assert (state.phase, state.turn) == (Phase.VOTE, 1)
    apply_all(state, "s")
    r1, r2 = log_of(state)["rounds"]
    assert r1["votes"] == []
    assert r1["eliminated"] == [1, 3]
    assert r2["votes"] == [{"seat": 3, "suit": "s"}, {"seat": 1, "suit": "s"}]
    assert (r2["trump"], r2["trump_method"], r2["trump_chosen_by"]) == ("s", "vote", None)
    assert (state.phase, state.turn, r2["leader"]) == (Phase.PLAY, 0, 0)


def test_vote_tie_settled_by_most_tricks_player() -> None:
    state = new_state(Rules(players=4, start_cards=3, eliminated_vote=True), 3, VOTE_DECKS)
    apply_all(state, VOTE_ROUND_1 + " h s")
    assert (state.phase, state.turn) == (Phase.TRUMP, 0)
    assert state.legal_actions() == (2, 3)
    assert state.view().legal == (2, 3)
    with pytest.raises(IllegalActionError, match=r"seat 0 must name a suit \(h, s\)"):
        apply_all(state, "c")
    apply_all(state, "s")
    r2 = log_of(state)["rounds"][1]
    assert (r2["trump"], r2["trump_method"], r2["trump_chosen_by"]) == ("s", "vote", 0)
    assert (state.phase, state.turn) == (Phase.PLAY, 0)


def test_vote_off_most_tricks_chooses() -> None:
    state = new_state(Rules(players=4, start_cards=3), 3, VOTE_DECKS)
    apply_all(state, VOTE_ROUND_1)
    assert (state.phase, state.turn, state.legal_actions()) == (Phase.TRUMP, 0, (0, 1, 2, 3))
    assert log_of(state)["rounds"][1]["votes"] is None


def test_fixed_trump_takes_precedence_over_vote() -> None:
    rules = Rules(players=4, start_cards=3, eliminated_vote=True, trump="fixed")
    state = new_state(rules, 3, VOTE_DECKS)
    apply_all(state, VOTE_ROUND_1)
    r2 = log_of(state)["rounds"][1]
    assert (r2["trump"], r2["trump_method"], r2["votes"]) == ("h", "fixed", [])
    assert (state.phase, state.turn) == (Phase.PLAY, 0)


# --------------------------------------------------------------------------- lead

# Four players, 3 cards, dealer 0: after round 1 seats 0 and 1 are out; seat 2 took two
# tricks and seat 3 one. Round 2's dealer is 2, whose left is 3.
LEAD_DECKS = [
    deal(0, ["7c 8d 9s", "3c 4c 5d", "Ac Kd As", "Qc 3h 4s"], "2h"),
    deal(2, [None, None, "Kh Qh", "Ah 2s"]),
]
LEAD_ROUND_1 = "3c Ac Qc 7c  Kd 3h 8d 5d  4s 9s 4c As"


@pytest.mark.parametrize(("lead", "leader"), [("most-tricks", 2), ("dealer-left", 3)])
def test_lead(lead: str, leader: int) -> None:
    state = new_state(Rules(players=4, start_cards=3, lead=lead), 0, LEAD_DECKS)  # type: ignore[arg-type]
    assert state.turn == 1  # round 1: the dealer's left, under either rule
    apply_all(state, LEAD_ROUND_1)
    assert (state.phase, state.turn) == (Phase.TRUMP, 2)  # the most-tricks player chooses
    apply_all(state, "s")
    assert (state.phase, state.turn, state.leader) == (Phase.PLAY, leader, leader)
    assert log_of(state)["rounds"][1]["leader"] == leader


def test_dealer_left_tie_cut_only_for_trump() -> None:
    state = new_state(Rules(players=3, start_cards=3, lead="dealer-left"), 0,
                      [TIE3_DEAL, deal(1, ["As 4d", "Ad Kd", "2d 3d"]), *TIE3_CUT])
    apply_all(state, TIE3_PLAYS)
    assert (state.phase, state.turn) == (Phase.TRUMP, 1)
    apply_all(state, "d")
    r2 = log_of(state)["rounds"][1]
    assert len(r2["tie_cut"]) == 2
    assert (r2["trump_chosen_by"], r2["leader"]) == (1, 2)


def test_dealer_left_and_fixed_trump_need_no_cut() -> None:
    # No tie cut is drawn: the stacked decks hold none, and would run out.
    rules = Rules(players=3, start_cards=3, lead="dealer-left", trump="fixed")
    state = new_state(rules, 0, [TIE3_DEAL, deal(1, ["As 4d", "Ad Kd", "2d 3d"])])
    apply_all(state, TIE3_PLAYS)
    r2 = log_of(state)["rounds"][1]
    assert (r2["tie_cut"], r2["trump"], r2["leader"]) == (None, "s", 2)
    assert (state.phase, state.turn) == (Phase.PLAY, 2)


# --------------------------------------------------------------------------- sweep_wins
#
# Three players, 3 cards, dealer 0, hearts turned up: seat 1 takes every trick.

SWEEP_DECKS = [
    deal(0, ["5s 6d 7d", "As Ks Qs", "3s 4c 5c"], "2h"),
    deal(1, ["2d", "Ad Kd", "3d"]),
]
SWEEP_ROUND_1 = "As 3s 5s  Ks 4c 6d  Qs 5c 7d"


@pytest.mark.parametrize("dogs_life", DOGS_LIFE)
def test_sweep_wins_at_once(dogs_life: str) -> None:
    # Before any dog's life: nobody gets one.
    state = new_state(Rules(players=3, start_cards=3, dogs_life=dogs_life), 0, SWEEP_DECKS)  # type: ignore[arg-type]
    apply_all(state, SWEEP_ROUND_1)
    r1 = log_of(state)["rounds"][0]
    assert [t["winner"] for t in r1["tricks"]] == [1, 1, 1]
    assert (r1["eliminated"], r1["dogs_life_granted"]) == ([0, 2], [])
    assert log_of(state)["result"] == {"winner": 1, "rounds_played": 1, "termination": "sweep"}


@pytest.mark.parametrize("dogs_life", ["once-per-game", "once-per-player"])
def test_sweep_without_sweep_wins_grants_every_dogs_life(dogs_life: str) -> None:
    # Surprising consequence 3: under once-per-game too, both players who took nothing in
    # the sweep get a dog's life, and the game goes on.
    rules = Rules(players=3, start_cards=3, dogs_life=dogs_life, sweep_wins=False)  # type: ignore[arg-type]
    state = new_state(rules, 0, SWEEP_DECKS)
    apply_all(state, SWEEP_ROUND_1)
    r1, r2 = log_of(state)["rounds"]
    assert (r1["eliminated"], r1["dogs_life_granted"]) == ([], [0, 2])
    assert r2["dogs_life"] == [0, 2]
    assert r2["hands"] == [["2d"], ["Ad", "Kd"], ["3d"]]
    assert (state.phase, state.turn) == (Phase.TRUMP, 1)


def test_sweep_wins_off_without_dogs_life_changes_nothing_here() -> None:
    on = play_stacked(Rules(players=3, start_cards=3), 0, SWEEP_DECKS,
                      ["5s 6d 7d", "As Ks Qs", "3s 4c 5c"])
    off = play_stacked(Rules(players=3, start_cards=3, sweep_wins=False), 0, SWEEP_DECKS,
                       ["5s 6d 7d", "As Ks Qs", "3s 4c 5c"])
    # The same game, ended by a sweep under the rule and by knock-outs without it.
    assert on["result"] == {"winner": 1, "rounds_played": 1, "termination": "sweep"}
    assert off["result"] == {"winner": 1, "rounds_played": 1, "termination": "last-standing"}
    same = {"rules": None, "result": None}
    assert {**off, **same} == {**on, **same}


def _bot_game(rules: Rules, seed: int, kinds: tuple[str, ...] = ("random", "heuristic")) -> Any:
    rng = bots_rng(seed)
    bots = [
        make_bot(kinds[(seat + seed) % len(kinds)], f"b{seat}", rng)
        for seat in range(rules.players)
    ]
    return build(seed, rules, bots, events=play_game(rules, bots, seed).events)


def test_sweep_wins_off_without_dogs_life_changes_nothing() -> None:
    # Surprising consequence 2: with no dog's life, a player who sweeps leaves everyone
    # else knocked out anyway. Same seed, same log, apart from the rules; and the games
    # that end before the 1-card round (a sweep) are many, so the two rules were compared
    # where they could differ.
    ended_early = 0
    for seed in range(60):
        players = 2 + seed % 6
        base = Rules(players=players, start_cards=min(7, max_start_cards(players)),
                     trump=TRUMPS[seed % 2], lead=LEADS[seed // 2 % 2],  # type: ignore[arg-type]
                     eliminated_vote=seed % 3 == 0, final_round_trump=seed % 5 != 0)
        on = _bot_game(base, seed)
        off = _bot_game(dataclasses.replace(base, sweep_wins=False), seed)
        assert off["rules"]["sweep_wins"] is False
        same = {"rules": None, "result": None}
        assert {**off, **same} == {**on, **same}
        assert off["result"]["winner"] == on["result"]["winner"]
        if on["result"]["termination"] == "sweep":  # without the rule, the others are out
            assert off["result"]["termination"] == "last-standing"
        else:
            assert off["result"] == on["result"]
        ended_early += on["result"]["rounds_played"] < base.start_cards
    assert ended_early >= 40


ALL_SETTINGS = list(
    itertools.product(DOGS_LIFE, TRUMPS, (True, False), LEADS, (False, True), (True, False))
)


@pytest.mark.parametrize(
    ("dogs_life", "trump", "final_round_trump", "lead", "eliminated_vote", "sweep_wins"),
    ALL_SETTINGS,
)
def test_winner_takes_every_trick_of_the_last_round(
    dogs_life: Any, trump: Any, final_round_trump: bool, lead: Any, eliminated_vote: bool,
    sweep_wins: bool,
) -> None:
    # Surprising consequence 1: under every setting, the game ends on a round in which the
    # winner took every trick (a sweep), whether or not sweep_wins is on.
    for seed in range(3):
        players = 2 + (seed * 2 + len(dogs_life)) % 6
        rules = Rules(players=players, start_cards=min(6, max_start_cards(players)),
                      dogs_life=dogs_life, trump=trump, final_round_trump=final_round_trump,
                      lead=lead, eliminated_vote=eliminated_vote, sweep_wins=sweep_wins)
        log = _bot_game(rules, seed)
        last = log["rounds"][-1]
        winner = log["result"]["winner"]
        assert last["tricks_won"][winner] == last["hand_size"]
        assert {t["winner"] for t in last["tricks"]} == {winner}
        assert log["result"]["rounds_played"] == len(log["rounds"])


def test_an_integer_of_another_type_is_taken_as_its_int() -> None:
    np = pytest.importorskip("numpy")

    rules = Rules(players=np.int64(3), start_cards=np.int16(5))
    assert (rules.players, rules.start_cards) == (3, 5)
    assert type(rules.players) is int and type(rules.start_cards) is int
    rules.check_seat(np.int64(2))
    with pytest.raises(RulesError, match="seat must be a seat 0 to 2 with 3 players, not 3"):
        rules.check_seat(np.int64(3))
    with pytest.raises(RulesError, match="players must be 2 to 7, not 3.0"):
        Rules(players=3.0)  # type: ignore[arg-type]


def test_setting_checks_take_numpy_values_as_their_own_and_refuse_bools() -> None:
    import pytest

    from kow.settings import SettingError, check_bool, check_int, check_seed

    np = pytest.importorskip("numpy")
    assert check_bool("pretty", np.True_) is True
    assert check_seed(np.uint64(2**53 - 1)) == 2**53 - 1
    assert type(check_int("jobs", np.int8(3), lo=1, hi=8, what="a number of processes")) is int
    for bad in (True, np.True_, 3.0, np.float64(3), "3", None):
        with pytest.raises(SettingError, match=r"is not a number of processes: allowed 1 to 8$"):
            check_int("jobs", bad, lo=1, hi=8, what="a number of processes")
    with pytest.raises(SettingError, match="^pretty must be true or false, not 1$"):
        check_bool("pretty", 1)
