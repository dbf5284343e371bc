"""kow.frameworks.gymnasium: the checker, registration, episodes, illegal actions, bots, logs."""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

try:
    import gymnasium
    import numpy as np
    from gymnasium.utils.env_checker import check_env
except ImportError as missing:  # pip install '.[test]' (or '.[gymnasium]') brings them
    pytest.skip(f"{missing.name} is not installed", allow_module_level=True)

from kow.cli import main
from kow.engine import State
from kow.events import Phase
from kow.frameworks._gym import RENDER_MODES, check_render_mode, render
from kow.frameworks.encoding import legal_action_ids, observation, observation_text
from kow.frameworks.gymnasium import ENV_ID, ILLEGAL_REWARD, KnockOutWhistEnv
from kow.log import schema
from kow.players import HeuristicBot
from kow.rules import Rules, RulesError
from kow.verify import verify_game

VARIANT: dict[str, Any] = {
    "bots": "random",
    "players": 3,
    "start_cards": 5,
    "dogs_life": "once-per-game",
    "eliminated_vote": True,
}


def game_of(table: KnockOutWhistEnv) -> State:
    assert table.game is not None
    return table.game


def episode(
    table: KnockOutWhistEnv, seed: int, rng: np.random.Generator
) -> tuple[list[dict[str, Any]], float, dict[str, Any]]:
    """Play one episode with random legal actions; return the observations, the last
    reward and the last info."""
    obs, _ = table.reset(seed=seed)
    seen = [obs]
    while True:
        obs, reward, terminated, truncated, info = table.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        assert truncated is False
        seen.append(obs)
        if terminated:
            return seen, reward, info
        assert reward == 0.0 and info == {}


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


# ----------------------------------------------------------------------------- Gymnasium's checker


@pytest.mark.parametrize("settings", [{}, VARIANT], ids=["default", "variant"])
def test_gymnasium_env_checker(
    settings: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    made = gymnasium.make(ENV_ID, **settings)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(made.unwrapped)  # with its spec: every render mode is checked too
    assert [str(w.message) for w in caught] == []
    assert "seat 0, phase play, to act: " in capsys.readouterr().out  # "human" printed


def test_make_builds_the_registered_environment() -> None:
    made = gymnasium.make(ENV_ID, seat=2, bots=["random", "heuristic", "random"], players=4)
    table = made.unwrapped
    assert isinstance(table, KnockOutWhistEnv)
    assert (table.seat, table.bots, table.rules) == (2, ("random", "heuristic", "random"), Rules())
    obs, info = made.reset(seed=9)
    assert info == {"seed": 9} and obs["action_mask"].any()
    assert gymnasium.spec(ENV_ID).entry_point == "kow.frameworks.gymnasium:KnockOutWhistEnv"
    again = gymnasium.make("kow.frameworks.gymnasium:" + ENV_ID, players=3)
    assert again.unwrapped.rules == Rules(players=3)  # type: ignore[attr-defined]


def test_spaces() -> None:
    table = KnockOutWhistEnv(players=3, start_cards=5)
    assert table.action_space == gymnasium.spaces.Discrete(57)
    box = table.observation_space["observation"]
    assert box.dtype == np.float32 and box.low.min() == 0.0  # type: ignore[attr-defined]
    assert sorted(set(box.high.tolist())) == [1.0, 2.0, 5.0]  # type: ignore[attr-defined]  # one-hot, votes, counts
    assert table.observation_space["action_mask"].shape == (57,)


# ----------------------------------------------------------------------------- episodes


@pytest.mark.parametrize("settings", [{}, VARIANT], ids=["default", "variant"])
def test_an_episode_ends_with_the_games_result(settings: dict[str, Any], tmp_path: Path) -> None:
    table = KnockOutWhistEnv(seat=1, **settings)
    rng = np.random.default_rng(1)
    rewards = {0.0: 0, 1.0: 0}
    for seed in range(30):
        seen, reward, info = episode(table, seed, rng)
        game = game_of(table)
        assert game.outcome is not None
        logged = table.log()
        winner = logged["result"]["winner"]
        assert winner == game.outcome.winner == info["winner"]
        assert info["termination"] == game.outcome.termination.value
        assert logged["result"].get("termination") == info["termination"]  # the log says it
        assert reward == (1.0 if winner == 1 else 0.0)
        rewards[reward] += 1
        assert all(table.observation_space.contains(obs) for obs in seen)
        assert not seen[-1]["action_mask"].any()
    assert rewards[0.0] and rewards[1.0]  # the learner won some and lost some
    jsonschema.Draft202012Validator(schema()).validate(logged)
    assert verify_game(logged) is None
    kinds = [p["kind"] for p in logged["players"]]
    assert kinds[1] == "agent" and logged["players"][1]["name"] == "agent-1"
    assert set(kinds) - {"agent"} == {settings.get("bots", "heuristic")}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(logged) + "\n")
    assert invoke("verify", str(path))[:2] == (0, "1 game in 1 file: 1 legal, 0 faulty\n")
    code, out, _ = invoke("replay", str(path), "--ascii")
    assert code == 0 and "1 agent-1 (agent)" in out.splitlines()[1]
    code, out, _ = invoke("analyze", str(path), "--iterations", "2", "--seat", "1", "--json", "-q")
    assert code == 0 and json.loads(out.splitlines()[0])["decisions"]


def test_the_learner_acts_at_its_turns_and_sees_its_own_view() -> None:
    table = KnockOutWhistEnv(seat=2, **VARIANT)
    obs, _ = table.reset(seed=4)
    rng = np.random.default_rng(4)
    game = game_of(table)
    steps = 0
    while True:
        assert game.turn == 2
        assert obs["observation"].tolist() == observation(game.view(2))
        assert list(np.flatnonzero(obs["action_mask"])) == legal_action_ids(game)
        assert np.array_equal(table.action_masks(), obs["action_mask"].astype(bool))
        assert table.action_masks().dtype == bool
        obs, _, terminated, _, _ = table.step(int(rng.choice(legal_action_ids(game))))
        steps += 1
        if terminated:
            break
    learner = sum(1 for e in game.events if getattr(e, "seat", None) == 2 and type(e).__name__
                  in ("Play", "Knock", "Vote"))  # fmt: skip
    trump_choices = sum(1 for e in game.events if getattr(e, "chosen_by", None) == 2)
    assert steps == learner + trump_choices
    assert not table.action_masks().any()


def test_a_knocked_out_learner_watches_the_game_to_its_end() -> None:
    """The step that knocks the learner out plays the rest of the game: reward 0."""
    table = KnockOutWhistEnv(seat=0, bots="heuristic")
    rng = np.random.default_rng(2)
    for seed in range(40):
        episode(table, seed, rng)
        game = game_of(table)
        rounds = table.log()["rounds"]
        out_in = next((r["number"] for r in rounds if 0 in r["eliminated"]), None)
        if out_in is not None and out_in < len(rounds):
            assert "abandoned" not in table.log()
            assert all(r["hands"][0] is None for r in rounds[out_in:])
            assert game.outcome is not None and game.outcome.winner != 0
            with pytest.raises(gymnasium.error.ResetNeeded, match="the episode is over"):
                table.step(0)
            return
    pytest.fail("the learner was never knocked out before the last round")


def test_an_illegal_action_ends_the_episode_as_documented() -> None:
    table = KnockOutWhistEnv()
    obs, _ = table.reset(seed=3)
    game = game_of(table)
    legal = legal_action_ids(game)
    events = list(game.events)
    bad = next(i for i in range(57) if i not in legal)
    after, reward, terminated, truncated, info = table.step(bad)
    assert (reward, terminated, truncated) == (ILLEGAL_REWARD, True, False)
    assert info["illegal_action"] is True and info["action"] == bad
    assert info["legal_actions"] == legal
    assert info["reason"] == "seat 0 does not hold 2c"
    assert game.events == events
    assert np.array_equal(after["observation"], obs["observation"])
    assert not after["action_mask"].any()
    logged = table.log()
    assert logged["abandoned"] is True and verify_game(logged) is None
    with pytest.raises(gymnasium.error.ResetNeeded):
        table.step(legal[0])
    for weird in (57, -1, 2.5, None, True):
        table.reset(seed=3)
        assert table.step(weird)[1:3] == (ILLEGAL_REWARD, True)  # type: ignore[arg-type]
    table.reset(seed=3)
    assert table.step(True)[4]["reason"] == "True is not an action id"


def test_step_before_reset() -> None:
    with pytest.raises(gymnasium.error.ResetNeeded, match="call reset"):
        KnockOutWhistEnv().step(0)


# ----------------------------------------------------------------------------- bots and seats


def test_bots_by_kind_and_by_seat() -> None:
    table = KnockOutWhistEnv(seat=1, bots=["random", "heuristic", "ismcts"])
    table.reset(seed=1)
    assert [(p.kind, p.name) for p in table.players] == [
        ("random", "random-0"), ("agent", "agent-1"), ("heuristic", "heuristic-2"),
        ("ismcts", "ismcts-3"),
    ]  # fmt: skip
    table = KnockOutWhistEnv(bots="random", players=3)
    table.reset(seed=1)
    assert [p.kind for p in table.players] == ["agent", "random", "random"]


def test_bad_bots_seats_and_settings() -> None:
    with pytest.raises(
        ValueError, match="'alphazero' is not a bot kind: choose from random, heuristic, search"
    ):
        KnockOutWhistEnv(bots="alphazero")
    with pytest.raises(ValueError, match="one per other seat \\(3 with 4 players\\), not 2"):
        KnockOutWhistEnv(bots=["random", "random"])
    with pytest.raises(RulesError, match="seat must be a seat 0 to 2 with 3 players, not 3"):
        KnockOutWhistEnv(seat=3, players=3)
    with pytest.raises(RulesError, match="start_cards must be 1 to"):
        KnockOutWhistEnv(start_cards=30)
    with pytest.raises(ValueError, match="render_mode"):
        KnockOutWhistEnv(render_mode="rgb_array")


# ----------------------------------------------------------------------------- seeds


def test_a_seeded_episode_is_reproducible() -> None:
    def run(table: KnockOutWhistEnv) -> tuple[list[list[float]], Any]:
        seen, _, _ = episode(table, 77, np.random.default_rng(5))
        return [obs["observation"].tolist() for obs in seen], table.log()

    first = run(KnockOutWhistEnv(**VARIANT))
    second = run(KnockOutWhistEnv(**VARIANT))
    assert first == second
    assert first[1]["seed"] == 77
    other, _, _ = episode(KnockOutWhistEnv(**VARIANT), 78, np.random.default_rng(5))
    assert [o["observation"].tolist() for o in other] != first[0]


def test_reset_without_a_seed_draws_one_from_np_random() -> None:
    table = KnockOutWhistEnv()
    table.reset(seed=5)
    _, info = table.reset()
    drawn = table.seed
    assert info == {"seed": drawn} and drawn != 5 and 0 <= drawn < 2**53  # type: ignore[operator]
    assert table.log()["seed"] == drawn
    table.reset(seed=5)
    table.reset()
    assert table.seed == drawn
    with pytest.raises(ValueError, match=r"^-3 is not a seed: allowed 0 to 9007199254740991$"):
        table.reset(seed=-3)


@pytest.mark.parametrize("seed", [1, 31])
def test_a_heuristic_learner_plays_kow_simulates_game(seed: int) -> None:
    """With a heuristic bot choosing the learner's actions, the episode is the game of
    ``kow simulate --seed S --bots heuristic,random,random,random``: the same deals, and the
    random bots draw from bots_rng(S) as there."""
    code, out, _ = invoke(
        "simulate", "--seed", str(seed), "--bots", "heuristic,random,random,random"
    )
    assert code == 0
    expected = json.loads(out)
    table = KnockOutWhistEnv(seat=0, bots="random")
    table.reset(seed=seed)
    learner = HeuristicBot("me", random.Random(0))  # draws only to vote: not here
    game = game_of(table)
    terminated = False
    while not terminated:
        action = learner.act(game.view(0))
        action_id = action if game.phase is Phase.PLAY else 53 + action
        _, _, terminated, _, _ = table.step(action_id)
    logged = table.log()
    for key in ("seed", "rules", "rounds", "result"):
        assert logged[key] == expected[key], key
    assert [p["kind"] for p in logged["players"]] == ["agent", "random", "random", "random"]


# ----------------------------------------------------------------------------- render


def test_render(capsys: pytest.CaptureFixture[str]) -> None:
    table = KnockOutWhistEnv(render_mode="ansi")
    table.reset(seed=3)
    game = game_of(table)
    assert table.render() == observation_text(game.view(0))
    episode(table, 3, np.random.default_rng(3))
    outcome = game_of(table).outcome
    assert outcome is not None
    assert table.render().endswith(  # type: ignore[union-attr]
        f"\ngame over: seat {outcome.winner} wins ({outcome.termination.value}, "
        f"{outcome.rounds_played} rounds)"
    )
    human = KnockOutWhistEnv(render_mode="human")
    human.reset(seed=3)
    assert capsys.readouterr().out == observation_text(game_of(human).view(0)) + "\n"
    quiet = KnockOutWhistEnv()
    quiet.reset(seed=3)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None


def test_render_modes_shared_by_both_environments(capsys: pytest.CaptureFixture[str]) -> None:
    """One statement of the render modes and of what each does (kow.frameworks._gym)."""
    pettingzoo = pytest.importorskip("kow.frameworks.pettingzoo")
    assert KnockOutWhistEnv.metadata["render_modes"] == list(RENDER_MODES) == ["human", "ansi"]
    assert pettingzoo.raw_env.metadata["render_modes"] == list(RENDER_MODES)
    assert check_render_mode(None) is None
    assert check_render_mode("ansi") == "ansi"
    with pytest.raises(ValueError, match="render_mode must be None, 'human' or 'ansi', not 'x'"):
        check_render_mode("x")
    asked: list[str] = []

    def text() -> str:
        asked.append("text")
        return "the text"

    assert render("ansi", text) == "the text"
    assert render("human", text) is None
    assert capsys.readouterr().out == "the text\n"
    with pytest.warns(UserWarning, match="render\\(\\) called without a render mode"):
        assert render(None, text) is None
    assert asked == ["text", "text"]  # not asked without a mode
