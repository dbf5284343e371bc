"""kow.frameworks.openspiel: the game in OpenSpiel, chance nodes, hidden cards, IS-MCTS, logs.

Skipped when ``open_spiel`` is not installed (``pip install '.[openspiel]' in kow's folder``).
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from kow.log import rules_to_log

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError as missing:  # pip install '.[test]' (or '.[openspiel]') brings them
    pytest.skip(f"{missing.name} is not installed", allow_module_level=True)

from conftest import cards, deal

import kow.frameworks.openspiel as ko
from kow.cards import card_name, cards_in
from kow.engine import IllegalActionError
from kow.events import CutCard, Phase, TieCut
from kow.frameworks.encoding import (
    information_state_fields,
    information_state_size,
    observation_size,
)
from kow.log import LoggedPlayer, build, replay, schema
from kow.rules import Rules, RulesError
from kow.verify import verify_game

ROOT = Path(__file__).resolve().parents[2]
CHANCE = pyspiel.PlayerId.CHANCE

VARIANTS = [
    {},
    {"players": 3, "start_cards": 5, "dogs_life": "once-per-game", "trump": "fixed",
     "eliminated_vote": True},
    {"players": 2, "start_cards": 4, "dogs_life": "once-per-player", "final_round_trump": False,
     "lead": "dealer-left", "sweep_wins": False},
    {"players": 5, "start_cards": 4, "eliminated_vote": True, "dogs_life": "once-per-player"},
    {"players": 7, "start_cards": 3},
]  # fmt: skip


def load(**params: Any) -> Any:
    return pyspiel.load_game(ko.GAME_NAME, params)


def apply(state: Any, actions: list[int]) -> Any:
    """Apply ``actions`` (chance outcomes and action ids) in order; return ``state``."""
    for action in actions:
        legal = state.legal_actions()
        assert action in legal, (action, legal, str(state))
        state.apply_action(action)
    return state


def play_randomly(state: Any, rng: random.Random, stop: Any = None) -> Any:
    """Play uniformly at random (chance nodes too) until the end, or until ``stop(state)``."""
    while not state.is_terminal() and not (stop and stop(state)):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def past(events: int) -> Any:
    """Return a ``stop`` for :func:`play_randomly`: a decision once the game has ``events``."""
    return lambda state: not state.is_chance_node() and len(state.engine.events) > events


# ----------------------------------------------------------------------------- loading


def test_the_game_loads_with_the_rules_defaults() -> None:
    game = load()
    kind = game.get_type()
    assert kind.short_name == "python_knock_out_whist"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (2, 7)
    assert kind.provides_information_state_string and kind.provides_information_state_tensor
    assert kind.provides_observation_string and kind.provides_observation_tensor
    assert game.get_parameters() == rules_to_log(Rules())
    assert game.rules == Rules()
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 57
    assert game.max_chance_outcomes() == 52
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.max_game_length() == 4 * (28 + 7) == 140
    assert game.information_state_tensor_shape() == [information_state_size(Rules())]
    assert game.observation_tensor_shape() == [observation_size(Rules())]
    assert ko.GAME_NAME in pyspiel.registered_names()


def test_every_rule_is_a_parameter() -> None:
    params = {"players": 3, "start_cards": 5, "dogs_life": "once-per-game", "trump": "fixed",
              "eliminated_vote": True}  # fmt: skip
    game = load(**params)
    rules = Rules(**params)  # type: ignore[arg-type]
    assert game.rules == rules
    assert game.get_parameters() == rules_to_log(rules)
    assert game.num_players() == 3
    assert game.max_game_length() == 3 * (15 + 5)
    assert game.information_state_tensor_size() == information_state_size(rules)
    # A preset is its settings given as the parameters.
    traditional = Rules(players=5, dogs_life="once-per-game", sweep_wins=False)
    assert load(**rules_to_log(traditional)).rules == traditional


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 8}, "players must be 2 to 7, not 8"),
        ({"start_cards": 13}, "start_cards must be 1 to 12 with 4 players"),
        ({"dogs_life": "sometimes"},
         "dogs_life must be one of off, once-per-game, once-per-player, not 'sometimes'"),
        ({"lead": "left"}, "lead must be one of most-tricks, dealer-left, not 'left'"),
    ],
)  # fmt: skip
def test_a_value_the_rules_do_not_allow_is_refused(params: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=re.escape(message)):
        load(**params)


def test_an_unknown_parameter_is_refused() -> None:
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'preset'"):
        load(preset="traditional")


@pytest.mark.parametrize(
    "params", VARIANTS, ids=lambda p: ",".join(map(str, p.values())) or "defaults"
)
def test_openspiel_random_simulation(params: dict[str, Any]) -> None:
    pyspiel.random_sim_test(load(**params), num_sims=3, serialize=True, verbose=False)


# ----------------------------------------------------------------------------- chance


def test_the_first_node_draws_the_first_dealer() -> None:
    state = load(players=5).new_initial_state()
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(seat, 0.2) for seat in range(5)]
    assert state.engine is None
    assert state.action_to_string(CHANCE, 3) == "dealer 3"
    state.apply_action(3)
    assert state.is_chance_node() and state.engine is None
    assert len(state.chance_outcomes()) == 52
    assert state.action_to_string(CHANCE, 34) == "deal Th"


def test_a_deal_never_draws_a_card_twice() -> None:
    state = load(players=3, start_cards=4).new_initial_state()
    state.apply_action(0)
    drawn: list[int] = []
    rng = random.Random(5)
    for k in range(3 * 4 + 1):  # 12 cards dealt, then the turned-up card
        outcomes = state.chance_outcomes()
        assert [c for c, _ in outcomes] == [c for c in range(52) if c not in drawn]
        assert all(p == pytest.approx(1 / (52 - k)) for _, p in outcomes)
        card = rng.choice([c for c, _ in outcomes])
        drawn.append(card)
        state.apply_action(card)
    assert not state.is_chance_node()
    dealt = state.engine.events[0].hands
    assert [dealt[s][0] for s in (1, 2, 0)] == drawn[:3]  # one at a time from the dealer's left
    assert state.engine.turned_up == drawn[-1]


def test_chance_outcomes_chosen_by_hand_give_those_hands() -> None:
    hands = ["Kd Qd 4s", "3c 5h 9h", "Ac Jd 2s"]
    state = apply(load(players=3, start_cards=3).new_initial_state(), [0, *deal(0, hands, "2h")])
    engine = state.engine
    assert state.current_player() == 1  # the dealer's left leads round 1
    assert [set(cards_in(h)) for h in engine.hands] == [set(cards(h)) for h in hands]
    assert engine.trump == cards("2h")[0] // 13
    log = state.log()
    assert log["rounds"][0]["hands"] == [h.split() for h in hands]
    assert log["rounds"][0]["turned_up"] == "2h"
    assert log["rounds"][0]["cut"] == {"by": 2, "position": 26}
    assert log["abandoned"] is True and log["seed"] is None
    assert [p["kind"] for p in log["players"]] == ["agent"] * 3
    assert [p["name"] for p in log["players"]] == ["agent-0", "agent-1", "agent-2"]


def tie_cut_game() -> Any:
    """Return a 2-player game of 2 cards whose round 1 ends 1-1, at its first chance node after.

    Dealer 0; seat 1 holds Ah 2c, seat 0 Ac 2h; diamonds are trump. Seat 1 leads Ah and
    takes it over 2h; it leads 2c and seat 0 takes it with Ac.
    """
    state = apply(load(players=2, start_cards=2).new_initial_state(),
                  [0, *deal(0, ["Ac 2h", "Ah 2c"], "3d")])  # fmt: skip
    apply(state, cards("Ah 2h 2c"))
    assert not state.is_chance_node()
    apply(state, cards("Ac"))  # the round ends: round 2 is dealt, then the tie is cut
    return state


def test_a_tie_for_most_tricks_is_cut_by_chance_nodes() -> None:
    state = tie_cut_game()
    assert state.current_player() == CHANCE
    assert state.engine.round == 1 and state.engine.phase is Phase.PLAY  # before the action
    apply(state, cards("9s 5h"))  # round 2's deal: seat 0 (the new dealer's left), seat 1
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 52  # a tie cut draws from a fresh deck
    assert state.action_to_string(CHANCE, cards("Kc")[0]) == "cut Kc"
    apply(state, cards("Kc"))
    assert cards("Kc")[0] not in [c for c, _ in state.chance_outcomes()]
    apply(state, cards("Kd"))  # seats 0 and 1 tie on kings: they cut again
    assert len(state.chance_outcomes()) == 52
    apply(state, cards("2s Kc"))  # seat 1 cuts the higher card, and chooses trump
    engine = state.engine
    assert state.current_player() == 1 and engine.phase is Phase.TRUMP and engine.round == 2
    assert engine.events[-1] == TieCut(
        ((CutCard(0, cards("Kc")[0]), CutCard(1, cards("Kd")[0])),
         (CutCard(0, cards("2s")[0]), CutCard(1, cards("Kc")[0])))
    )  # fmt: skip
    assert state.legal_actions() == [53, 54, 55, 56]
    assert "tie cut 0:Kc 1:Kd\ntie cut 0:2s 1:Kc" in state.information_state_string(0)
    log = state.log()
    assert log["rounds"][1]["tie_cut"] == [
        [{"seat": 0, "card": "Kc"}, {"seat": 1, "card": "Kd"}],
        [{"seat": 0, "card": "2s"}, {"seat": 1, "card": "Kc"}],
    ]
    assert log["rounds"][1]["hands"] == [["9s"], ["5h"]]
    assert verify_game(log) is None


def test_a_chance_node_says_what_it_draws_for() -> None:
    state = tie_cut_game()
    text = state.information_state_string(0)
    assert text.endswith("\nseat 0 chose Ac; deal: 0 of 2 cards drawn")
    assert text.startswith("seat 0\nround 1")
    apply(state, cards("9s"))
    assert state.observation_string(1).endswith("seat 0 chose Ac; deal: 1 of 2 cards drawn")
    with pytest.raises(ValueError, match="decision or terminal node"):
        state.resample_from_infostate(0, random.Random(1).random)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state = apply(load(players=3, start_cards=3).new_initial_state(),
                  [0, *deal(0, ["Kd Qd 4s", "3c 5h 9h", "Ac Jd 2s"], "2h")])  # fmt: skip
    before, history = str(state), state.history()
    with pytest.raises(IllegalActionError, match="seat 1 does not hold Kd"):
        state.apply_action(cards("Kd")[0])
    with pytest.raises(ValueError, match="action 55 is not a card"):
        state.apply_action(55)
    assert (str(state), state.history()) == (before, history)
    clone = state.clone()
    clone.apply_action(cards("3c")[0])
    assert str(state) == before and str(clone) != before
    assert state.legal_actions() == sorted(cards("3c 5h 9h"))


# ----------------------------------------------------------------------------- hidden cards


def two_deals() -> tuple[Any, Any]:
    """Return two games at the same public point whose deals differ only in seats 1 and 2.

    3 players, dealer 0: seat 0 holds Kd Qd 4s in both; seats 1 and 2 swap cards but seat
    1 still leads Ah, and seat 2, void in hearts in both deals, is to play.
    """
    game = load(players=3, start_cards=3)
    one = apply(
        game.new_initial_state(),
        [0, *deal(0, ["Kd Qd 4s", "Ah 5c 9s", "Ks 7c 2c"], "2h"), *cards("Ah")],
    )
    two = apply(
        game.new_initial_state(),
        [0, *deal(0, ["Kd Qd 4s", "Ah 7c 2c", "Ks 5c 9s"], "2h"), *cards("Ah")],
    )
    assert one.current_player() == two.current_player() == 2
    return one, two


def test_a_seat_knows_nothing_of_the_cards_hidden_from_it() -> None:
    one, two = two_deals()
    assert str(one) != str(two)
    for a, b in [(one, two), (one.clone(), two.clone())]:
        assert a.information_state_string(0) == b.information_state_string(0)
        assert a.observation_string(0) == b.observation_string(0)
        assert a.information_state_tensor(0) == b.information_state_tensor(0)
        assert a.observation_tensor(0) == b.observation_tensor(0)
    for name in ("Ks", "5c", "9s", "7c", "2c"):
        assert name not in one.information_state_string(0)
        assert name not in one.observation_string(0)
    for seat in (1, 2):  # their own hands differ, so what they know differs
        assert one.information_state_string(seat) != two.information_state_string(seat)
        assert one.observation_string(seat) != two.observation_string(seat)
        assert one.information_state_tensor(seat) != two.information_state_tensor(seat)
        assert one.observation_tensor(seat) != two.observation_tensor(seat)
    assert "hand Kd Qd 4s" in one.information_state_string(0)


def test_the_observer_names_the_pieces_of_the_tensors() -> None:
    game = load(players=3, start_cards=3)
    one, _ = two_deals()
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert list(observer.dict) == [name for name, _ in information_state_fields(game.rules)]
    assert observer.dict["tricks"].shape == (3, 3, 53)
    assert observer.dict["trick"].shape == (3, 53)
    observer.set_from(one, 0)
    assert np.flatnonzero(observer.dict["hand"]).tolist() == sorted(cards("Kd Qd 4s"))
    assert np.flatnonzero(observer.dict["trick"][1]).tolist() == cards("Ah")
    assert observer.dict["seat"].tolist() == [1.0, 0.0, 0.0]
    assert observer.tensor.tolist() == one.information_state_tensor(0)
    assert observer.string_from(one, 0) == one.information_state_string(0)
    plain = game.make_py_observer()
    plain.set_from(one, 2)
    assert plain.tensor.tolist() == one.observation_tensor(2)
    assert "tricks" not in plain.dict and plain.dict["to_act"].tolist() == [1.0]
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(ValueError, match="private_info=SINGLE_PLAYER"):
        game.make_py_observer(public)
    fresh = game.new_initial_state()
    assert fresh.information_state_tensor(1) == [0.0, 1.0, 0.0] + [0.0] * (
        information_state_size(game.rules) - 3
    )
    assert fresh.observation_string(1) == "seat 1\nbefore the deal: the first dealer is to be drawn"


def test_resampling_keeps_what_the_seat_knows_and_deals_the_rest_anew() -> None:
    game = load(players=4, start_cards=5, dogs_life="once-per-game")
    rng = random.Random(11)
    checked = 0
    for seed in range(6):
        state = play_randomly(game.new_initial_state(), random.Random(seed), stop=past(12))
        if state.is_terminal():
            continue
        seat = state.current_player()
        before = str(state)
        others = {}
        for _ in range(8):
            other = state.resample_from_infostate(seat, rng.random)
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.observation_string(seat) == state.observation_string(seat)
            assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
            assert other.legal_actions() == state.legal_actions()
            assert other.engine.hands[seat] == state.engine.hands[seat]
            hidden = tuple(h for s, h in enumerate(other.engine.hands) if s != seat)
            assert [h.bit_count() for h in hidden] == [
                h.bit_count() for s, h in enumerate(state.engine.hands) if s != seat
            ]
            others[hidden] = other
        assert len(others) > 1  # the hidden cards differ between samples
        assert str(state) == before  # the state resampled from is unchanged
        for other in others.values():  # a resampled game plays on to its end
            done = play_randomly(other, random.Random(seed))
            assert sum(done.returns()) == 1.0 and verify_game(done.log()) is None
        checked += 1
    assert checked >= 4


def test_resampling_refuses_a_seat_that_is_not_one_and_a_draw_outside_0_1() -> None:
    game = load(players=3, start_cards=3)
    state = play_randomly(game.new_initial_state(), random.Random(2), stop=past(5))
    with pytest.raises(ValueError, match="player_id must be a seat 0 to 2, not -1"):
        state.resample_from_infostate(-1, random.Random(1).random)
    with pytest.raises(ValueError, match="player_id must be a seat 0 to 2, not 3"):
        state.resample_from_infostate(3, random.Random(1).random)
    with pytest.raises(ValueError, match=r"probability_sampler gave 1.0, not a float in \[0, 1\)"):
        state.resample_from_infostate(0, lambda: 1.0)


def test_a_log_needs_each_seat_s_name_and_kind() -> None:
    state = play_randomly(load(players=3, start_cards=2).new_initial_state(), random.Random(4))
    with pytest.raises(TypeError, match=r"players\[0\] is 'a': give each seat's name and kind"):
        state.log(["a", "b", "c"])


def test_without_openspiel_the_import_says_what_to_install() -> None:
    code = "import sys; sys.modules['pyspiel'] = None\nimport kow.frameworks.openspiel"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 1
    needs = (
        "ImportError: kow.frameworks.openspiel needs OpenSpiel: pip install '.[openspiel]' in"
        " kow's folder"
    )
    assert needs in done.stderr


# ----------------------------------------------------------------------------- returns, logs


@pytest.mark.parametrize("params", VARIANTS[:3], ids=["defaults", "variants-3", "variants-2"])
def test_a_whole_game_returns_one_to_its_winner_and_logs_it(
    params: dict[str, Any], tmp_path: Path
) -> None:
    game = load(**params)
    state = game.new_initial_state()
    rng = random.Random(len(params))
    returns = []
    while not state.is_terminal():
        returns.append(state.returns())
        state.apply_action(rng.choice(state.legal_actions()))
    assert all(r == [0.0] * game.num_players() for r in returns)
    log = state.log()
    winner = log["result"]["winner"]
    assert state.returns() == [1.0 if s == winner else 0.0 for s in range(game.num_players())]
    assert state.engine.outcome.winner == winner
    assert "abandoned" not in log and log["seed"] is None
    jsonschema.Draft202012Validator(schema()).validate(log)
    assert verify_game(log) is None
    *_, last = replay(log)
    assert build(None, last.rules, log_players(log), events=last.events) == log
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    for command, said in [
        (["verify", path], "1 legal, 0 faulty"),
        (["replay", path], f"Game 1 of {path}, no seed (dealt outside kow)"),
        (["analyze", path, "--seat", "0", "--iterations", "4", "--jobs", "1"], "Summary:"),
    ]:
        done = subprocess.run([sys.executable, "-m", "kow", *map(str, command)],
                              capture_output=True, text=True, check=False, cwd=ROOT)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert said in done.stdout, command


def log_players(log: dict[str, Any]) -> list[LoggedPlayer]:
    return [LoggedPlayer.from_log(p) for p in log["players"]]


def test_a_game_cut_short_is_logged_as_abandoned() -> None:
    with pytest.raises(ValueError, match="round 1 is not dealt"):
        load().new_initial_state().log()
    state = play_randomly(load(players=3).new_initial_state(), random.Random(2), stop=past(20))
    log = state.log([LoggedPlayer("me", "agent"), LoggedPlayer("a", "random"),
                     LoggedPlayer("b", "heuristic")])  # fmt: skip
    assert log["abandoned"] is True and log["result"]["winner"] is None
    assert [p["name"] for p in log["players"]] == ["me", "a", "b"]
    assert verify_game(log) is None
    with pytest.raises(ValueError, match="2 players given for a 3-player game"):
        state.log([LoggedPlayer("me", "agent")] * 2)


# ----------------------------------------------------------------------------- bots


def test_kow_bots_play_through_evaluate_bots() -> None:
    game = load(players=3, start_cards=4)
    state = game.new_initial_state()
    bots = [ko.KowBot(game, "random", 1), ko.KowBot(game, "heuristic", 2, name="heu"),
            ko.KowBot(game, "search", 3, search_iterations=20)]  # fmt: skip
    returns = pyspiel.evaluate_bots(state, bots, 7)
    assert state.is_terminal() and returns == state.returns()
    assert sorted(returns) == [0.0, 0.0, 1.0]
    log = state.log(bots)
    assert [(p["name"], p["kind"]) for p in log["players"]] == [
        ("random", "random"),
        ("heu", "heuristic"),
        ("search", "search"),
    ]
    assert log["result"]["winner"] == returns.index(1.0)
    assert verify_game(log) is None
    with pytest.raises(ValueError, match="decision node"):
        bots[0].step(game.new_initial_state())
    with pytest.raises(ValueError, match="'clever' is not a bot kind"):
        ko.KowBot(game, "clever", 1)


def test_a_kow_bot_answers_with_an_action_id() -> None:
    # Seat 0 of tie_cut_game must name trump after the tie cut: a suit id 53..56.
    state = tie_cut_game()
    apply(state, cards("9s 5h Kc 2s"))
    assert state.current_player() == 0 and state.engine.phase is Phase.TRUMP
    assert ko.KowBot(state.get_game(), "heuristic", 1).step(state) in (53, 54, 55, 56)


def test_openspiel_ismcts_plays_kow_bots_to_the_end() -> None:
    game = load(players=3, start_cards=3)
    for number, kinds in enumerate([("heuristic", "search"), ("search", "heuristic")]):
        evaluator = mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(number))
        searcher = ismcts.ISMCTSBot(game, evaluator, 0.7, 100,
                                    random_state=np.random.RandomState(number))  # fmt: skip
        searcher.set_resampler(ko.resampler(random.Random(number)))
        bots = [ko.KowBot(game, kind, seat, search_iterations=30)
                for seat, kind in enumerate(kinds, 1)]  # fmt: skip
        chance = random.Random(number)
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chance.choice(state.legal_actions()))
            elif state.current_player() == 0:
                state.apply_action(int(searcher.step(state)))
                moves += 1
            else:
                state.apply_action(bots[state.current_player() - 1].step(state))
        assert moves > 0
        returns = state.returns()
        assert sum(returns) == 1.0 and sorted(returns) == [0.0, 0.0, 1.0]
        log = state.log([LoggedPlayer("ismcts", "agent"), *bots])
        assert returns[log["result"]["winner"]] == 1.0
        assert verify_game(log) is None


def test_the_default_sampler_of_openspiel_ismcts_works_too() -> None:
    # Without set_resampler, OpenSpiel passes a pyspiel.UniformProbabilitySampler.
    game = load(players=3, start_cards=3)
    state = play_randomly(game.new_initial_state(), random.Random(4),
                          stop=lambda s: not s.is_chance_node())  # fmt: skip
    searcher = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(), 0.7, 30)
    assert searcher.step(state) in state.legal_actions()
    other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(0) == state.information_state_string(0)


def test_action_strings_are_kows_notation() -> None:
    state = tie_cut_game()
    apply(state, cards("9s 5h Kc 2s"))
    assert [state.action_to_string(0, a) for a in (34, 52, 53, 56)] == [
        "Th", "knock", "suit c", "suit s"
    ]  # fmt: skip
    assert card_name(34) == "Th"


# ----------------------------------------------------------------------------- the package


def test_importing_kow_loads_no_framework() -> None:
    code = (
        "import sys, kow, kow.cli, kow.frameworks.encoding; "
        "print(sorted({'pyspiel', 'numpy'} & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT)  # fmt: skip
    assert done.stdout == "[]\n"


# ----------------------------------------------------------------------------- the example


def test_the_example_prints_what_examples_readme_shows(tmp_path: Path) -> None:
    """Run the commands of examples/README.md's OpenSpiel section: each prints the output
    shown (the example but for the seconds it took), and the logs written are legal."""
    readme = (ROOT / "examples" / "README.md").read_text()
    section = readme.split("## OpenSpiel's IS-MCTS against kow's search bot", 1)[1]
    pairs = re.findall(r"```sh\n(.*?)\n```\n\n```text\n(.*?)```", section.split("\n## ")[0], re.S)
    assert [command for command, _ in pairs] == [
        "python examples/openspiel_ismcts.py --log ismcts.jsonl",
        "kow verify ismcts.jsonl",
    ]
    programs = {"python": [sys.executable], "kow": [sys.executable, "-m", "kow"]}
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    took = re.compile(r"took \d+\.\d s")
    for command, shown in pairs:
        program, *args = command.replace("examples/", f"{ROOT}/examples/").split()
        done = subprocess.run([*programs[program], *args], capture_output=True, text=True,
                              check=False, cwd=tmp_path, env=env)  # fmt: skip
        assert done.returncode == 0 and done.stderr == "", done.stderr
        assert took.sub("took S", done.stdout) == took.sub("took S", shown), command
    assert took.search(pairs[0][1])
    games = [json.loads(line) for line in (tmp_path / "ismcts.jsonl").read_text().splitlines()]
    wins = sum(g["result"]["winner"] == 0 for g in games)
    assert f"IS-MCTS won {wins} of {len(games)}:" in pairs[0][1]
    assert {(p["name"], p["kind"]) for g in games for p in g["players"]} == {
        ("openspiel-ismcts", "agent"),
        ("search-1", "search"),
        ("search-2", "search"),
    }


def test_the_example_refuses_bad_options_in_one_line() -> None:
    digits = "in the digits 0-9"
    example = Path(__file__).resolve().parents[2] / "examples" / "openspiel_ismcts.py"
    for args, message in (
        (["--games", "0"], "argument --games: '0' is not a count: allowed 1 to 100000"),
        (["--players", "9"], "argument --players: '9' is not a number of players: allowed 2 to 7"),
        (["--seed", "²"], f"argument --seed: '²' is not a seed: allowed 0 to 4000000, {digits}"),
        (["--seed", "-1"], f"argument --seed: '-1' is not a seed: allowed 0 to 4000000, {digits}"),
        (
            ["--start-cards", "20"],
            "start_cards must be 1 to 17 with 3 players (players x cards"
            " + 1 <= 52, so a card is left to turn up), not 20",
        ),
    ):
        done = subprocess.run(
            [sys.executable, str(example), *args], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.splitlines()[-1] == f"openspiel_ismcts.py: error: {message}"
