"""Tests for kow.verify: real games verify as legal, planted faults are found, bad input is safe.

The verifier is a second implementation of the rules, so these tests use the engine only to
produce logs; every expected outcome is written here from the rules, not taken from the engine.
"""

from __future__ import annotations

import copy
import functools
import io
import itertools
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import python_prints
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kow import log as kow_log
from kow.game import bots_rng, game_seed, play_game
from kow.players import make_bot
from kow.rules import Rules
from kow.verify import Fault, GameFault, JsonVerdict, UnreadableInput, Verdict, verify_game

Log = dict[str, Any]

# -- making logs ----------------------------------------------------------------------------


@functools.cache
def _log_text(players: int, seed: int, kind: str, options: tuple[tuple[str, Any], ...]) -> str:
    rules = Rules(players=players, **dict(options))
    rng = bots_rng(seed)
    bots = [make_bot(kind, f"b{s}", rng) for s in range(players)]
    state = play_game(rules, bots, seed)
    return json.dumps(kow_log.build(seed, rules, bots, events=state.events))


def make_log(players: int = 4, seed: int = 1, kind: str = "heuristic", **options: Any) -> Log:
    """Return a fresh (deep) copy of the engine's log of one game, as parsed JSON."""
    text = _log_text(players, seed, kind, tuple(sorted(options.items())))
    result: Log = json.loads(text)
    return result


def assert_legal(lg: Log) -> None:
    """Assert the log verifies."""
    fault = verify_game(lg)
    assert fault is None, f"{fault} (seed {lg['seed']}, rules {lg['rules']})"


VARIANTS: list[dict[str, Any]] = [
    {},
    {"dogs_life": "once-per-game"},
    {"dogs_life": "once-per-player"},
    {"trump": "fixed"},
    {"final_round_trump": False},
    {"lead": "dealer-left"},
    {"eliminated_vote": True},
    {"sweep_wins": False},
    {"dogs_life": "once-per-game", "eliminated_vote": True, "lead": "dealer-left"},
    {"dogs_life": "once-per-player", "sweep_wins": False, "final_round_trump": False},
    {"trump": "fixed", "eliminated_vote": True, "dogs_life": "once-per-player"},
    {"eliminated_vote": True, "sweep_wins": False, "dogs_life": "once-per-game"},
    {
        "dogs_life": "once-per-player",
        "trump": "winner-chooses",
        "final_round_trump": False,
        "lead": "dealer-left",
        "eliminated_vote": True,
        "sweep_wins": False,
    },
]


# -- (a) real games are legal ---------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(f"{k}={v[k]}" for k in v))
def test_engine_games_verify(players: int, variant: dict[str, Any]) -> None:
    for index, kind in itertools.product(range(3), ("heuristic", "random")):
        assert_legal(make_log(players, game_seed(players * 31 + 7, index), kind, **variant))


@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("start_cards", [1, 2, 3])
def test_short_games_verify(players: int, start_cards: int) -> None:
    for variant in ({}, {"final_round_trump": False, "dogs_life": "once-per-game"}):
        for index in range(4):
            seed = game_seed(start_cards * 100 + players, index)
            assert_legal(make_log(players, seed, "random", start_cards=start_cards, **variant))


def test_longest_games_verify() -> None:
    for players in range(2, 8):
        lg = make_log(players, 3, "random", start_cards=51 // players, sweep_wins=False)
        assert_legal(lg)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 7),
    seed=st.integers(0, 2**53 - 1),
    kind=st.sampled_from(["heuristic", "random"]),
    dogs_life=st.sampled_from(["off", "once-per-game", "once-per-player"]),
    trump=st.sampled_from(["winner-chooses", "fixed"]),
    final_round_trump=st.booleans(),
    lead=st.sampled_from(["most-tricks", "dealer-left"]),
    eliminated_vote=st.booleans(),
    sweep_wins=st.booleans(),
    data=st.data(),
)
def test_random_games_verify(
    players: int, seed: int, kind: str, data: st.DataObject, **options: Any
) -> None:
    start_cards = data.draw(st.integers(1, 51 // players), label="start_cards")
    assert_legal(make_log(players, seed, kind, start_cards=start_cards, **options))


def test_dog_that_takes_the_only_trick_of_the_final_round_is_revived_and_wins() -> None:
    lg = make_log(3, 17, "random", start_cards=2, dogs_life="once-per-game")
    last = lg["rounds"][-1]
    assert last["hand_size"] == 1 and last["dogs_life"] == [0] and last["tricks_won"][0] == 1
    assert last["revived"] == [0] and lg["result"]["winner"] == 0
    assert verify_game(lg) is None
    last["revived"] = []
    fault = verify_game(lg)
    assert fault is not None and fault.round == 2 and fault.seat == 0
    assert "is not listed as revived" in fault.message


# -- a hand-made game -------------------------------------------------------------------------


def tiny_game() -> Log:
    """Return a legal 2-player game with 2 cards, written by hand from the rules.

    Round 1: seat 0 deals, seat 1 cuts and leads; 5s turned up, so spades are trump. Seat 0
    takes Kh with Ah, then leads 2c to seat 1's 3c: one trick each. Round 2: seat 1 deals,
    seat 0 cuts. Seats 0 and 1 tied, so they cut from the dealer's left (seat 0): Jc beats 9c
    and seat 1 chooses hearts and leads 4d; seat 0's Qd wins (no trump played), a sweep.
    """
    return {
        "format": "kow-log",
        "version": 1,
        "kow_version": "0.1.0",
        "seed": 42,
        "rules": {
            "players": 2,
            "start_cards": 2,
            "dogs_life": "off",
            "trump": "winner-chooses",
            "final_round_trump": True,
            "lead": "most-tricks",
            "eliminated_vote": False,
            "sweep_wins": True,
        },
        "players": [
            {"seat": 0, "name": "Ann", "kind": "human"},
            {"seat": 1, "name": "Bob", "kind": "random"},
        ],
        "rounds": [
            {
                "number": 1,
                "hand_size": 2,
                "dealer": 0,
                "cut": {"by": 1, "position": 20},
                "hands": [["Ah", "2c"], ["Kh", "3c"]],
                "turned_up": "5s",
                "trump": "s",
                "trump_method": "turned-up",
                "trump_chosen_by": None,
                "tie_cut": None,
                "votes": None,
                "leader": 1,
                "dogs_life": [],
                "tricks": [
                    {
                        "number": 1,
                        "leader": 1,
                        "plays": [{"seat": 1, "card": "Kh"}, {"seat": 0, "card": "Ah"}],
                        "winner": 0,
                    },
                    {
                        "number": 2,
                        "leader": 0,
                        "plays": [{"seat": 0, "card": "2c"}, {"seat": 1, "card": "3c"}],
                        "winner": 1,
                    },
                ],
                "tricks_won": [1, 1],
                "eliminated": [],
                "dogs_life_granted": [],
                "revived": [],
            },
            {
                "number": 2,
                "hand_size": 1,
                "dealer": 1,
                "cut": {"by": 0, "position": 7},
                "hands": [["Qd"], ["4d"]],
                "turned_up": None,
                "trump": "h",
                "trump_method": "chosen",
                "trump_chosen_by": 1,
                "tie_cut": [[{"seat": 0, "card": "9c"}, {"seat": 1, "card": "Jc"}]],
                "votes": None,
                "leader": 1,
                "dogs_life": [],
                "tricks": [
                    {
                        "number": 1,
                        "leader": 1,
                        "plays": [{"seat": 1, "card": "4d"}, {"seat": 0, "card": "Qd"}],
                        "winner": 0,
                    }
                ],
                "tricks_won": [1, 0],
                "eliminated": [1],
                "dogs_life_granted": [],
                "revived": [],
            },
        ],
        "result": {"winner": 0, "rounds_played": 2},
    }


def test_tiny_game_is_legal() -> None:
    assert verify_game(tiny_game()) is None


def test_a_null_seed_and_an_agent_are_legal() -> None:
    # A game played through a framework adapter: its deals came from outside kow.
    lg = tiny_game()
    lg["seed"] = None
    lg["players"][1]["kind"] = "agent"
    assert verify_game(lg) is None
    entry = Verdict().check(lg, file="f", game=1, line=1)
    assert entry is None
    lg["players"][1]["kind"] = "Agent"
    fault = verify_game(lg)
    assert fault is not None and fault.message == (
        "players[1].kind: expected one of 'random', 'heuristic', 'search', 'ismcts', "
        "'agent', 'human', got 'Agent'"
    )


def test_tiny_game_tie_cut_with_two_passes() -> None:
    lg = tiny_game()
    lg["rounds"][1]["tie_cut"] = [
        [{"seat": 0, "card": "9c"}, {"seat": 1, "card": "9h"}],
        [{"seat": 0, "card": "Ac"}, {"seat": 1, "card": "2c"}],
    ]
    # Seat 0 now wins the cut, so seat 0 chooses and leads: the log must say so.
    assert verify_game(lg) == Fault(
        2,
        None,
        1,
        message="trump chosen by seat 1 but should be by seat 0, who took the most tricks last"
        " round",
    )
    rnd = lg["rounds"][1]
    rnd["trump_chosen_by"] = 0
    rnd["leader"] = 0
    rnd["tricks"][0] = {
        "number": 1,
        "leader": 0,
        "plays": [{"seat": 0, "card": "Qd"}, {"seat": 1, "card": "4d"}],
        "winner": 0,
    }
    assert verify_game(lg) is None
    rnd["tie_cut"].append([{"seat": 0, "card": "3c"}])
    fault = verify_game(lg)
    assert fault is not None and "extra pass 3" in fault.message


def test_tiny_game_revoke_is_found() -> None:
    lg = tiny_game()
    # Seat 0 holds Ah of the led suit h but trumps... with a club.
    lg["rounds"][0]["tricks"][0]["plays"][1]["card"] = "2c"
    lg["rounds"][0]["tricks"][1]["plays"][0]["card"] = "Ah"
    fault = verify_game(lg)
    assert fault == Fault(1, 1, 0, message="seat 0 played 2c but holds Ah of the led suit h")
    assert str(fault) == "round 1, trick 1: seat 0 played 2c but holds Ah of the led suit h"


def test_tiny_game_trump_beats_led_suit() -> None:
    lg = tiny_game()
    rnd = lg["rounds"][1]
    rnd["trump"] = "d"  # 4d and Qd are both trumps now: Qd still wins
    assert verify_game(lg) is None
    rnd["tricks"][0]["winner"] = 1
    assert verify_game(lg) == Fault(
        2, 1, 1, message="trick winner is seat 1 but seat 0 played the highest trump Qd"
    )


def test_tiny_game_without_sweep_wins() -> None:
    lg = tiny_game()
    lg["rules"]["sweep_wins"] = False
    # Seat 1 took no trick in the 1-card round: knocked out all the same.
    assert verify_game(lg) is None
    lg["rules"]["dogs_life"] = "once-per-game"
    assert verify_game(lg) is None  # no dog's life in the final round


def test_fault_str() -> None:
    assert str(Fault(None, None, None, message="x")) == "x"
    assert str(Fault(3, None, 2, message="y")) == "round 3: y"
    assert str(Fault(3, 5, None, message="z")) == "round 3, trick 5: z"


# -- the verdict on a run of logs ---------------------------------------------------------------

REVOKE = "seat 0 played 2c but holds Ah of the led suit h"


def revoked_game() -> Log:
    """Return :func:`tiny_game` with a revoke in round 1, trick 1 (seat 0 holds Ah)."""
    lg = tiny_game()
    lg["rounds"][0]["tricks"][0]["plays"][1]["card"] = "2c"
    lg["rounds"][0]["tricks"][1]["plays"][0]["card"] = "Ah"
    return lg


def test_verdict_counts_legal_faulty_and_unreadable() -> None:
    verdict = Verdict()
    assert verdict.check(tiny_game(), file="g.jsonl", game=1, line=1) is None
    entry = verdict.check(revoked_game(), file="g.jsonl", game=2, line=3)
    assert entry == GameFault("g.jsonl", 2, 3, seed=42, fault=Fault(1, 1, 0, message=REVOKE))
    assert str(entry) == f"g.jsonl: game 2 (seed 42): round 1, trick 1: {REVOKE}"
    bad = verdict.unreadable_input("bad.json", "line 1, column 2: not JSON")
    assert bad == UnreadableInput("bad.json", "line 1, column 2: not JSON")
    assert str(bad) == "bad.json: line 1, column 2: not JSON"
    assert (verdict.games, verdict.legal, verdict.faulty) == (2, 1, 1)
    expected = {
        "faults": [
            {
                "file": "g.jsonl",
                "game": 2,
                "line": 3,
                "seed": 42,
                "round": 1,
                "trick": 1,
                "seat": 0,
                "message": REVOKE,
                "text": f"round 1, trick 1: {REVOKE}",
            }
        ],
        "unreadable": [{"file": "bad.json", "message": "line 1, column 2: not JSON"}],
        "games": 2,
        "legal": 1,
        "faulty": 1,
    }
    # The faults are written as they are found, the counts once known (flat memory): the
    # text is what json.dumps gives for the whole verdict, keys in this order.
    out = io.StringIO()
    writer = JsonVerdict(out)
    writer.fault(entry)
    writer.close(verdict)
    assert out.getvalue() == json.dumps(expected, indent=2) + "\n"
    empty = io.StringIO()
    JsonVerdict(empty).close(Verdict())
    no_faults = {"faults": [], "unreadable": [], "games": 0, "legal": 0, "faulty": 0}
    assert empty.getvalue() == json.dumps(no_faults, indent=2) + "\n"
    assert verdict.summary(2) == "2 games in 2 files: 1 legal, 1 faulty, 1 unreadable input"


def test_verdict_summary_singular_and_empty_input() -> None:
    verdict = Verdict()
    verdict.check(tiny_game(), file="stdin", game=1, line=1)
    assert verdict.summary(1) == "1 game in 1 file: 1 legal, 0 faulty"
    assert verdict.summary(2) == "1 game in 2 files: 1 legal, 0 faulty"
    assert Verdict().summary(0) == "0 games in 0 files: 0 legal, 0 faulty"
    verdict.unreadable_input("bad.json", "not JSON")
    verdict.unreadable_input("bad2.json", "not JSON")
    assert verdict.summary(3) == "1 game in 3 files: 1 legal, 0 faulty, 2 unreadable inputs"


@pytest.mark.parametrize(
    ("log", "seed"),
    [
        ({**revoked_game(), "seed": True}, None),
        ({**revoked_game(), "seed": "42"}, None),
        ({**revoked_game(), "seed": None}, None),
        ({**revoked_game(), "seed": 2**60}, 2**60),
        ([1], None),
        ({"seed": 7}, 7),
    ],
)
def test_verdict_seed_is_an_int_or_none(log: object, seed: int | None) -> None:
    entry = Verdict().check(log, file="f", game=1, line=1)
    assert entry is not None and entry.seed == seed
    assert entry.to_dict()["seed"] == seed
    shown = "" if seed is None else f" (seed {seed})"
    assert str(entry) == f"f: game 1{shown}: {entry.fault}"


# -- (b) planted faults -------------------------------------------------------------------------

POOL_OPTIONS: list[tuple[int, dict[str, Any]]] = [
    (4, {}),
    (5, {"dogs_life": "once-per-game", "eliminated_vote": True}),
    (3, {"dogs_life": "once-per-player"}),
    (6, {"sweep_wins": False, "dogs_life": "once-per-game", "lead": "dealer-left"}),
    (7, {"eliminated_vote": True}),
    (2, {}),
]


def pool() -> Iterator[Log]:
    """Yield fresh copies of a varied set of legal engine logs.

    A log the verifier rejects fails the test that draws it, naming the fault: an engine
    fault must not shrink the pool unseen.
    """
    for index in range(12):
        for players, options in POOL_OPTIONS:
            for kind in ("heuristic", "random"):
                lg = make_log(players, game_seed(900 + players, index), kind, **options)
                assert_legal(lg)
                yield lg


def find(
    want: Callable[[Log, int, dict[str, Any]], Any],
) -> tuple[Log, int, dict[str, Any], Any]:
    """Return the first (log, round index, round, found) in the pool where ``want`` is truthy."""
    for lg in pool():
        for i, rnd in enumerate(lg["rounds"]):
            found = want(lg, i, rnd)
            if found:
                return lg, i, rnd, found
    raise AssertionError("no log in the pool fits")


def check(lg: Log, round_: int | None, trick: int | None, seat: int | None, phrase: str) -> None:
    fault = verify_game(lg)
    assert fault is not None, "the planted fault was not found"
    assert (fault.round, fault.trick, fault.seat) == (round_, trick, seat), str(fault)
    assert phrase in fault.message, str(fault)


def test_plant_result_winner_changed() -> None:
    lg = make_log(4, 1)
    winner = lg["result"]["winner"]
    lg["result"]["winner"] = (winner + 1) % 4
    check(lg, None, None, (winner + 1) % 4, f"but seat {winner} won the game")


def test_a_log_without_termination_is_legal_and_one_with_the_right_one_too() -> None:
    lg = tiny_game()  # written as kow 0.5.0 wrote logs: no result.termination
    assert "termination" not in lg["result"]
    assert verify_game(lg) is None
    # The 1-card round's only trick ends the game, before any sweep (the engine's order).
    lg["result"]["termination"] = "final-trick"
    assert verify_game(lg) is None
    lg["result"]["termination"] = "sweep"
    assert verify_game(lg) == Fault(
        None, None, 0,
        message="result.termination is 'sweep' but the game ended 'final-trick': seat 0 took "
        "the only trick of the 1-card round in round 2",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("ended", "planted"),
    [("sweep", "last-standing"), ("last-standing", "final-trick"), ("final-trick", "sweep")],
)
def test_plant_result_termination_changed(ended: str, planted: str) -> None:
    lg, _, _, _ = find(
        lambda lg, i, rnd: i == 0 and lg["result"]["termination"] == ended
    )
    assert lg["result"]["termination"] == ended  # the engine's, and the oracle agrees
    winner = lg["result"]["winner"]
    lg["result"]["termination"] = planted
    check(lg, None, None, winner, f"result.termination is {planted!r} but the game ended {ended!r}")


def test_a_game_cut_short_has_no_termination() -> None:
    lg = make_log(4, 1)
    lg["abandoned"] = True
    lg["result"]["winner"] = None
    assert lg["result"]["termination"] is not None
    check(lg, None, None, None, "result.termination is ")
    lg["result"]["termination"] = None
    assert verify_game(lg) is None


def test_plant_trick_winner_changed() -> None:
    lg = make_log(4, 1)
    trick = lg["rounds"][0]["tricks"][2]
    real = trick["winner"]
    other = next(p["seat"] for p in trick["plays"] if p["seat"] != real)
    trick["winner"] = other
    check(lg, 1, 3, other, f"trick winner is seat {other} but seat {real} played")


def test_plant_card_not_held() -> None:
    lg = make_log(4, 1)
    rnd = lg["rounds"][1]
    dealt = {card for hand in rnd["hands"] if hand for card in hand}
    play = rnd["tricks"][0]["plays"][1]
    suit = play["card"][1]
    stranger = next(r + suit for r in "23456789TJQKA" if r + suit not in dealt)
    play["card"] = stranger
    check(lg, 2, 1, play["seat"], f"seat {play['seat']} played {stranger} but does not hold it")


def test_plant_revoke() -> None:
    def revocable(lg: Log, i: int, rnd: dict[str, Any]) -> Any:
        tricks = rnd["tricks"]
        for t, trick in enumerate(tricks):
            cards = [p for p in trick["plays"] if "card" in p]
            if len(cards) < 2:
                continue
            led = cards[0]["card"][1]
            for play in cards[1:]:
                if play["card"][1] != led:
                    continue
                for t2 in range(t + 1, len(tricks)):
                    for later in tricks[t2]["plays"]:
                        if later["seat"] == play["seat"] and later.get("card", "x" + led)[1] != led:
                            return t, play, later
        return None

    lg, i, rnd, (t, play, later) = find(revocable)
    held = play["card"]
    play["card"], later["card"] = later["card"], held
    led = next(p["card"] for p in rnd["tricks"][t]["plays"] if "card" in p)[1]
    message = f"seat {play['seat']} played {play['card']} but holds {held} of the led suit {led}"
    check(lg, i + 1, t + 1, play["seat"], message)


def test_plant_play_out_of_turn() -> None:
    lg = make_log(5, 2)
    plays = lg["rounds"][0]["tricks"][1]["plays"]
    plays[1], plays[2] = plays[2], plays[1]
    seat, due = plays[1]["seat"], plays[2]["seat"]
    check(lg, 1, 2, seat, f"seat {seat} played out of turn: seat {due} was to play")


def test_plant_wrong_dealer() -> None:
    lg = make_log(4, 1)
    rnd = lg["rounds"][1]
    right = rnd["dealer"]
    rnd["dealer"] = (right + 1) % 4
    check(lg, 2, None, (right + 1) % 4, f"but should be seat {right}")
    assert str(verify_game(lg)).startswith(f"round 2: dealer is seat {(right + 1) % 4}")


def test_plant_wrong_cutter() -> None:
    lg = make_log(4, 1)
    cut = lg["rounds"][0]["cut"]
    right = cut["by"]
    cut["by"] = lg["rounds"][0]["dealer"]
    check(lg, 1, None, cut["by"], f"but should be by seat {right}, the dealer's right")


def _no_sweep_elimination(lg: Log, i: int, rnd: dict[str, Any]) -> Any:
    swept = any(w == rnd["hand_size"] for w in rnd["tricks_won"] if w is not None)
    if rnd["eliminated"] and not (swept and lg["rules"]["sweep_wins"]):
        return rnd["eliminated"][0]
    return None


def test_plant_missing_knock_out() -> None:
    lg, i, rnd, seat = find(_no_sweep_elimination)
    rnd["eliminated"].remove(seat)
    check(lg, i + 1, None, seat, f"seat {seat} took no trick but is not eliminated")


def test_plant_extra_elimination() -> None:
    lg = make_log(4, 1)
    rnd = lg["rounds"][0]
    seat = max(range(4), key=lambda s: rnd["tricks_won"][s])
    rnd["eliminated"] = sorted(rnd["eliminated"] + [seat])
    took = rnd["tricks_won"][seat]
    tricks = f"{took} trick" + "s" * (took != 1)
    check(lg, 1, None, seat, f"seat {seat} is eliminated but took {tricks}")


def test_plant_wrong_tie_cut() -> None:
    lg, i, rnd, _ = find(lambda lg, i, rnd: rnd["tie_cut"])
    first = rnd["tie_cut"][0]
    first.reverse()
    check(lg, i + 1, None, first[0]["seat"], "tie cut pass 1 should be cut by seats")


def test_plant_tie_cut_where_none_is_needed() -> None:
    lg, i, rnd, _ = find(lambda lg, i, rnd: i > 0 and rnd["tie_cut"] is None)
    rnd["tie_cut"] = [[{"seat": rnd["leader"], "card": "As"}]]
    check(lg, i + 1, None, None, "tie_cut should be null")


def test_plant_wrong_trump_method() -> None:
    lg, i, rnd, _ = find(lambda lg, i, rnd: rnd["trump_method"] == "chosen")
    rnd["trump_method"] = "fixed"
    check(lg, i + 1, None, None, "trump_method is 'fixed' but should be 'chosen'")


def test_plant_turned_up_changed() -> None:
    lg = make_log(4, 1)
    rnd = lg["rounds"][0]
    dealt = {card for hand in rnd["hands"] for card in hand}
    suit = rnd["turned_up"][1]
    other = next(r + s for s in "cdhs" if s != suit for r in "23456789TJQKA" if r + s not in dealt)
    rnd["turned_up"] = other
    check(lg, 1, None, None, f"trump is {suit} but the turned-up card {other} makes it {other[1]}")


def test_plant_duplicate_card() -> None:
    lg = make_log(4, 1)
    hands = lg["rounds"][2]["hands"]
    a, b = [s for s in range(4) if hands[s]][:2]
    hands[b][-1] = hands[a][0]
    check(lg, 3, None, b, f"card {hands[a][0]} is dealt twice: to seat {a} and seat {b}")


def test_plant_knock_by_non_dog() -> None:
    lg = make_log(4, 1)
    play = lg["rounds"][0]["tricks"][0]["plays"][2]
    play.pop("card")
    play["knock"] = True
    check(lg, 1, 1, play["seat"], f"seat {play['seat']} knocked but is not on a dog's life")


def test_plant_knock_on_last_trick() -> None:
    def dog_plays_last(lg: Log, i: int, rnd: dict[str, Any]) -> Any:
        last = rnd["tricks"][-1] if len(rnd["tricks"]) == rnd["hand_size"] else None
        if last is None:
            return None
        return next((p for p in last["plays"] if p["seat"] in rnd["dogs_life"]), None)

    lg, i, rnd, play = find(dog_plays_last)
    play.pop("card")
    play["knock"] = True
    check(lg, i + 1, rnd["hand_size"], play["seat"], "knocked on the last trick")


def test_plant_tricks_won_altered() -> None:
    lg = make_log(4, 1)
    won = lg["rounds"][0]["tricks_won"]
    real = won[3]
    won[3] = real + 1
    tricks = f"{real} trick" + "s" * (real != 1)
    check(lg, 1, None, 3, f"tricks_won[3] is {real + 1} but seat 3 won {tricks}")


def test_plant_rounds_played_altered() -> None:
    lg = make_log(4, 1)
    lg["result"]["rounds_played"] += 1
    n = len(lg["rounds"])
    check(lg, None, None, None, f"result.rounds_played is {n + 1} but the log has {n} rounds")


def test_plant_wrong_hand_size() -> None:
    lg = make_log(4, 1)
    lg["rounds"][1]["hand_size"] = 7
    check(lg, 2, None, None, "hand size is 7 but should be 6")


def test_plant_wrong_leader() -> None:
    lg = make_log(4, 1)
    rnd = lg["rounds"][0]
    right = rnd["leader"]
    rnd["leader"] = rnd["dealer"]
    check(lg, 1, None, rnd["dealer"], f"but should be seat {right} (the dealer's left)")


def test_plant_dog_keeps_the_lead() -> None:
    def dog_wins_early(lg: Log, i: int, rnd: dict[str, Any]) -> Any:
        for t, trick in enumerate(rnd["tricks"][:-1]):
            if trick["winner"] in rnd["dogs_life"]:
                return t + 1
        return None

    lg, i, rnd, t = find(dog_wins_early)
    nxt = rnd["tricks"][t]
    dog = rnd["tricks"][t - 1]["winner"]
    right = nxt["leader"]
    nxt["leader"] = dog
    check(lg, i + 1, t + 1, dog, f"trick leader is seat {dog} but should be seat {right}")


def test_plant_missing_dog_life() -> None:
    lg, i, rnd, _ = find(lambda lg, i, rnd: rnd["dogs_life_granted"])
    seat = rnd["dogs_life_granted"][0]
    rnd["dogs_life_granted"].remove(seat)
    rnd["eliminated"] = sorted(rnd["eliminated"] + [seat])
    check(lg, i + 1, None, seat, "is eliminated but should be granted a dog's life")


def test_plant_vote_out_of_order() -> None:
    lg, i, rnd, _ = find(lambda lg, i, rnd: rnd["votes"] and len(rnd["votes"]) >= 2)
    rnd["votes"].reverse()
    seat = rnd["votes"][0]["seat"]
    check(lg, i + 1, None, seat, f"seat {seat} voted out of turn")


def test_plant_missing_vote() -> None:
    lg, i, rnd, _ = find(lambda lg, i, rnd: rnd["votes"])
    missing = rnd["votes"].pop()["seat"]
    check(lg, i + 1, None, missing, f"seat {missing} is knocked out but did not vote")


def test_plant_log_cut_short() -> None:
    lg = make_log(4, 1)
    lg["rounds"].pop()
    lg["result"]["rounds_played"] -= 1
    check(lg, None, None, None, "but the game is not over")


def test_plant_round_after_the_end() -> None:
    lg = make_log(4, 1)
    lg["rounds"].append(copy.deepcopy(lg["rounds"][-1]))
    n = len(lg["rounds"])
    check(lg, n, None, None, f"round {n} follows the end of the game")


# -- abandoned games ---------------------------------------------------------------------------


class _Quit(Exception):
    pass


class _Quitter:
    """Wrap a bot so that it quits (raises) on its ``after``-th decision."""

    def __init__(self, bot: Any, after: int) -> None:
        self._bot = bot
        self._left = after

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._bot, name)
        if not callable(attr) or name.startswith("_"):
            return attr

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            self._left -= 1
            if self._left < 0:
                raise _Quit
            return attr(*args, **kwargs)

        return wrapped


def abandoned_log(players: int, seed: int, after: int, **options: Any) -> Log | None:
    rules = Rules(players=players, **options)
    rng = bots_rng(seed)
    bots: list[Any] = [make_bot("random", f"b{s}", rng) for s in range(players)]
    bots[seed % players] = _Quitter(bots[seed % players], after)
    events: list[Any] = []
    try:
        play_game(rules, bots, seed, on_event=events.append)
    except _Quit:
        lg: Log = json.loads(json.dumps(kow_log.build(seed, rules, bots, events=events)))
        lg["abandoned"] = True
        return lg
    return None


@pytest.mark.parametrize(
    "options",
    [{}, {"dogs_life": "once-per-game", "eliminated_vote": True}, {"lead": "dealer-left"}],
)
def test_abandoned_games_verify(options: dict[str, Any]) -> None:
    seen = 0
    for players, seed, after in itertools.product((2, 3, 5), range(6), range(0, 40, 3)):
        lg = abandoned_log(players, seed, after, **options)
        if lg is None:
            continue
        seen += 1
        assert lg["result"]["winner"] is None
        assert verify_game(lg) is None, (players, seed, after, str(verify_game(lg)))
        del lg["abandoned"]  # the same log claiming to be whole is not over
        assert verify_game(lg) is not None
    assert seen > 50


def test_abandoned_game_has_no_winner() -> None:
    lg = abandoned_log(3, 1, 10)
    assert lg is not None
    lg["result"]["winner"] = 0
    check(lg, None, None, 0, "a game cut short has no winner")


def test_abandoned_must_be_true() -> None:
    lg = make_log(4, 1)
    lg["abandoned"] = False
    check(lg, None, None, None, "abandoned: expected true")


# -- (c) hostile input -----------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, [], "kow-log", 1, True, 1.5, {}, [{}], b"x"])
def test_not_a_log(value: object) -> None:
    fault = verify_game(value)
    assert fault is not None and fault.round is None


def _set(lg: Log, path: tuple[Any, ...], value: object) -> Log:
    node: Any = lg
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return lg


HOSTILE = [
    (("format",), "kow-log2", "format: expected 'kow-log'"),
    (("version",), True, "version: expected 1, got true"),
    (("version",), 2, "version: expected 1, got 2"),
    (("kow_version",), 1, "kow_version: expected a string"),
    (("seed",), True, "seed: expected an int"),
    (("seed",), "x", "seed: expected an int from 0 to 9007199254740991 or null, got 'x'"),
    (("seed",), -1, "seed: -1 is out of range"),
    (("seed",), 2**53, "seed: 9007199254740992 is out of range"),
    (("seed",), 10**100, "seed: a 333-bit int is out of range"),
    (("seed",), 10**5000, "is out of range"),
    (("seed",), 1.0, "seed: expected an int"),
    (("seed",), float("inf"), "or null, got a number past the range of a float"),
    (("rounds", 0, "dealer"), -float("inf"), "dealer: expected a seat (an int), got a number past"),
    (("rules", "players"), True, "rules.players: expected an int from 2 to 7, got true"),
    (("rules", "players"), 8, "rules.players: 8 is out of range 2 to 7"),
    (("rules", "start_cards"), 13, "rules.start_cards: 13 is out of range 1 to 12"),
    (("rules", "dogs_life"), "twice", "rules.dogs_life: expected one of"),
    (("rules", "dogs_life"), ["off"], "rules.dogs_life: expected one of"),
    (("rules", "final_round_trump"), 1, "rules.final_round_trump: expected true or false"),
    (("players",), {}, "players: expected an array"),
    (("players", 0, "seat"), True, "players[0].seat: expected a seat"),
    (("players", 2, "seat"), 3, "players[2].seat is 3 but should be 2"),
    (("players", 1, "kind"), "robot", "players[1].kind: expected one of"),
    (("rounds",), None, "rounds: expected an array, got null"),
    (("rounds", 0), [], "rounds[0]: expected an object, got an array"),
    (("rounds", 0, "dealer"), 99, "rounds[0].dealer: 99 is not a seat (0 to 3)"),
    (("rounds", 0, "dealer"), 10**100, "rounds[0].dealer: a 333-bit int is not a seat"),
    (("rounds", 0, "dealer"), False, "rounds[0].dealer: expected a seat (an int), got false"),
    (("rounds", 0, "cut", "position"), 52, "rounds[0].cut.position: 52 is out of range 1 to 51"),
    (("rounds", 0, "cut"), None, "rounds[0].cut: expected an object, got null"),
    (("rounds", 0, "hands", 1, 0), "1h", "rounds[0].hands[1][0]: '1h' is not a card"),
    (("rounds", 0, "hands", 1, 0), "11h", "rounds[0].hands[1][0]: '11h' is not a card"),
    (("rounds", 0, "hands", 1, 0), "ah", "rounds[0].hands[1][0]: 'ah' is not a card"),
    (("rounds", 0, "hands", 1, 0), 14, "rounds[0].hands[1][0]: 14 is not a card"),
    (("rounds", 0, "turned_up"), "Xs", "rounds[0].turned_up: 'Xs' is not a card"),
    (("rounds", 0, "trump"), "spades", "rounds[0].trump: 'spades' is not a suit"),
    (("rounds", 0, "tricks", 0, "plays", 2, "card"), "1h", "plays[2].card: '1h' is not a card"),
    (("rounds", 0, "tricks", 0, "plays", 2, "seat"), 99, "plays[2].seat: 99 is not a seat"),
    (("rounds", 0, "tricks", 0, "plays", 2, "seat"), True, "plays[2].seat: expected a seat"),
    (("rounds", 0, "tricks", 0, "plays", 2, "knock"), True, "has either a 'card' or 'knock'"),
    (("rounds", 0, "tricks", 0, "winner"), None, "tricks[0].winner: expected a seat"),
    (("rounds", 0, "tricks", 0, "number"), True, "tricks[0].number: expected an int, got true"),
    (("rounds", 0, "tricks_won"), [1, 2, 3], "expected 4 counts (one per seat), got 3"),
    (("rounds", 0, "eliminated"), [3, 1], "seats must be ascending without repeats"),
    (("rounds", 0, "eliminated"), [1, 1], "seats must be ascending without repeats"),
    (("result",), [], "result: expected an object, got an array"),
    (("result", "rounds_played"), True, "result.rounds_played: expected an int, got true"),
    (("result", "winner"), "0", "result.winner: expected a seat (an int), got '0'"),
    (("result", "termination"), "won", "result.termination: expected one of 'last-standing', "
     "'sweep', 'final-trick', got 'won'"),
    (("result", "termination"), None, "result.termination: expected one of 'last-standing', "
     "'sweep', 'final-trick', got null"),
    (("result", "termination"), ["sweep"], "result.termination: expected one of"),
]


@pytest.mark.parametrize(
    ("path", "value", "phrase"),
    HOSTILE,
    ids=[f"{'.'.join(map(str, p))}-{i}" for i, (p, _, _) in enumerate(HOSTILE)],
)
def test_hostile_values(path: tuple[Any, ...], value: object, phrase: str) -> None:
    lg = _set(make_log(4, 1), path, value)
    fault = verify_game(lg)
    assert fault is not None
    assert phrase in fault.message, str(fault)
    assert not fault.message.startswith("internal error")


def test_a_log_that_is_an_array_is_named_with_json_word() -> None:
    fault = verify_game([make_log(4, 1)])
    assert fault is not None
    assert fault.message == "the log is not a JSON object: got an array"


@pytest.mark.parametrize("name", ["h\x1b]0;pwned\x07", "a\x00b", "two\nlines", "tab\there"])
def test_a_name_that_is_not_printable_is_a_fault(name: str) -> None:
    lg = _set(make_log(4, 1), ("players", 2, "name"), name)
    fault = verify_game(lg)
    assert fault is not None and (fault.round, fault.trick, fault.seat) == (None, None, None)
    code = next(c for c in name if ord(c) < 32)
    assert fault.message == (
        f"players[2].name: {name!r} has a control character (U+{ord(code):04X}); "
        "names are printable text"
    )


def test_an_empty_name_is_a_fault_as_in_the_schema() -> None:
    lg = _set(make_log(4, 1), ("players", 0, "name"), "")
    fault = verify_game(lg)
    assert fault is not None
    assert fault.message == "players[0].name: '' is empty; every player has a name"


def test_names_of_any_printable_text_stay_legal() -> None:
    lg = _set(make_log(4, 1), ("players", 1, "name"), 'Zoë 😀 "x" \\ y')
    assert verify_game(lg) is None


def test_structure_message_names_the_place() -> None:
    lg = _set(make_log(4, 1), ("rounds", 1, "tricks", 0, "plays", 2, "card"), "1h")
    assert str(verify_game(lg)) == (
        "round 2, trick 1: rounds[1].tricks[0].plays[2].card: '1h' is not a card"
    )


def test_missing_and_unknown_keys() -> None:
    lg = make_log(4, 1)
    del lg["rounds"][0]["tricks"][0]["leader"]
    check(lg, 1, 1, None, "rounds[0].tricks[0]: missing key 'leader'")
    lg = make_log(4, 1)
    lg["rounds"][0]["colour"] = "red"
    check(lg, 1, None, None, "rounds[0]: unknown key 'colour'")
    lg = make_log(4, 1)
    lg["rules"][1] = 2
    check(lg, None, None, None, "rules: unknown key 1")


def _paths(node: object, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], object]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*path, key), value
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield (*path, index), value
            yield from _paths(value, (*path, index))


@pytest.mark.parametrize("replacement", [None, True, 10**100, "1h", [], {}])
def test_every_value_replaced_is_a_fault(replacement: object) -> None:
    base = make_log(3, 5, "random", start_cards=3, dogs_life="once-per-game")
    assert verify_game(base) is None
    count = 0
    for path, value in _paths(base):
        if value == replacement and type(value) is type(replacement):
            continue
        if isinstance(value, bool) or path == ("kow_version",) or path[-1] == "name":
            continue  # a rule switch may be legal either way; names are free text
        if replacement == "1h" and path[-1] == "kow_version":
            continue
        if replacement is None and path == ("seed",):
            continue  # a null seed is legal: the deals came from outside kow
        lg = _set(copy.deepcopy(base), path, replacement)
        fault = verify_game(lg)
        assert fault is not None, (path, replacement)
        assert not fault.message.startswith("internal error"), (path, str(fault))
        count += 1
    assert count > 50


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True)
    | st.text(max_size=4)
    | st.sampled_from(["Ah", "1h", "11h", "h", "kow-log", "vote", "chosen"]),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(value=JSON)
def test_arbitrary_json_never_raises(value: object) -> None:
    fault = verify_game(value)
    assert fault is not None
    assert not fault.message.startswith("internal error"), str(fault)


_BASE_PATHS = list(_paths(json.loads(_log_text(3, 5, "random", (("start_cards", 3),)))))


@settings(max_examples=300, deadline=None)
@given(where=st.sampled_from(_BASE_PATHS), value=JSON, drop=st.booleans())
def test_arbitrary_value_anywhere_never_raises(
    where: tuple[tuple[Any, ...], object], value: object, drop: bool
) -> None:
    lg = make_log(3, 5, "random", start_cards=3)
    path, _ = where
    if drop:
        node: Any = lg
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    else:
        _set(lg, path, value)
    fault = verify_game(lg)
    if fault is not None:
        assert not fault.message.startswith("internal error"), str(fault)


def test_deep_nesting_and_huge_ints_never_raise() -> None:
    deep: list[Any] = []
    node = deep
    for _ in range(100_000):
        node.append([])
        node = node[0]
    for value in (deep, {"format": deep}, 10**10000, {"format": "kow-log", "version": 10**10000}):
        fault = verify_game(value)
        assert fault is not None and not fault.message.startswith("internal error")


# -- the checking loop of kow verify ---------------------------------------------------------


def _records(tmp_path: Any, texts: dict[str, str]) -> Iterator[Any]:
    """Return kow.log.read_logs over files named and filled by ``texts`` (None: missing)."""
    names = []
    for name, text in texts.items():
        path = tmp_path / name
        if text is not None:
            path.write_text(text, encoding="utf-8")
        names.append(str(path))
    return kow_log.read_logs(names)


def test_the_checking_loop_counts_each_game_and_gives_the_exit_code(tmp_path: Any) -> None:
    legal = json.dumps(make_log(seed=1)) + "\n"
    broken = make_log(seed=2)
    broken["rounds"][0]["dealer"] = (broken["rounds"][0]["dealer"] + 1) % 4
    verdict = Verdict()
    items = list(verdict.run(_records(tmp_path, {"a.jsonl": legal + json.dumps(broken)})))
    checked = [item for item in items if hasattr(item, "fault") and hasattr(item, "record")]
    assert [c.record.index for c in checked] == [1, 2]
    assert checked[0].fault is None and checked[0].note is None
    assert checked[1].fault is not None and checked[1].fault.game == 2
    assert (verdict.games, verdict.legal, verdict.faulty) == (2, 1, 1)
    assert verdict.return_code == 1
    verdict = Verdict()
    assert len(list(verdict.run(_records(tmp_path, {"b.jsonl": legal * 2})))) == 3
    assert (verdict.games, verdict.legal, verdict.return_code) == (2, 2, 0)


def test_the_checking_loop_counts_inputs_unopened_and_unreadable(tmp_path: Any) -> None:
    legal = json.dumps(make_log(seed=1)) + "\n"
    verdict = Verdict()
    list(verdict.run(_records(tmp_path, {"bad.jsonl": legal + "{not json", "ok.jsonl": legal})))
    assert [u.file for u in verdict.unreadable] == [str(tmp_path / "bad.jsonl")]
    assert (verdict.games, verdict.legal, verdict.unopened, verdict.return_code) == (2, 2, 0, 1)
    verdict = Verdict()
    list(verdict.run(_records(tmp_path, {"gone.jsonl": None, "ok.jsonl": legal})))  # type: ignore[dict-item]
    assert str(verdict.unreadable[0]).endswith("gone.jsonl: cannot open: No such file or directory")
    assert (verdict.games, verdict.unopened, verdict.return_code) == (1, 1, 2)


def test_the_further_check_and_its_note_see_each_legal_seeded_game(tmp_path: Any) -> None:
    legal = json.dumps(make_log(seed=1)) + "\n"
    seen: list[int] = []

    def also(game: Any) -> Fault | None:
        seen.append(game["seed"])
        return Fault(None, None, None, message="not the game of its seed")

    verdict = Verdict(against_seed=True)
    items = list(verdict.run(_records(tmp_path, {"a.jsonl": legal}), also=also,
                             note=lambda game: f"seed {game['seed']} noted"))  # fmt: skip
    assert seen == [1]
    assert (
        items[0].note == "seed 1 noted" and str(items[0].fault.fault) == "not the game of its seed"
    )
    assert (verdict.unmatched, verdict.faulty, verdict.return_code) == (1, 1, 1)


def test_the_oracle_is_imported_on_the_first_check_not_with_the_name_rule() -> None:
    # kow.log and the players read the name rule of kow.verify; a process that only
    # writes logs (kow simulate) loads none of the oracle's walk (issue 35's start-up).
    code = (
        "import sys, kow.log, kow.players\n"
        "before = 'kow.verify._walk' in sys.modules\n"
        "from kow.verify import verify_game\n"
        "fault = verify_game({})\n"
        "print(before, 'kow.verify._walk' in sys.modules, fault.message)"
    )
    assert python_prints(code) == ["False True missing key 'format'"]
