"""kow.frameworks.pettingzoo: PettingZoo's API and seed tests, views, masks, rewards, logs."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

try:
    import numpy as np
    from pettingzoo.test import api_test, seed_test
except ImportError as missing:  # pip install '.[test]' (or '.[pettingzoo]') brings them
    pytest.skip(f"{missing.name} is not installed", allow_module_level=True)

from kow.cards import cards_in
from kow.cli import main
from kow.engine import State
from kow.events import Deal, Phase
from kow.frameworks.encoding import (
    KNOCK_ID,
    NUM_ACTIONS,
    SUIT_IDS,
    action_text,
    legal_action_ids,
    observation,
    observation_fields,
    observation_size,
    observation_text,
)
from kow.frameworks.pettingzoo import ILLEGAL_REWARD, env, raw_env
from kow.game import bots_rng, new_game
from kow.log import schema
from kow.players import make_bot
from kow.rules import Rules, RulesError
from kow.verify import verify_game

VARIANT: dict[str, Any] = {
    "players": 3,
    "start_cards": 5,
    "dogs_life": "once-per-game",
    "eliminated_vote": True,
}
SETTINGS = [pytest.param({}, id="default"), pytest.param(VARIANT, id="variant")]
VARIANT_FLAGS = ["--players", "3", "--start-cards", "5", "--dogs-life", "once-per-game",
                 "--eliminated-vote"]  # fmt: skip


def game_of(table: Any) -> State:
    game = table.unwrapped.game
    assert isinstance(game, State)
    return game


def play_random(table: Any, seed: int, rng: np.random.Generator) -> list[tuple[str, Any]]:
    """Play one game with random legal actions; return ``(agent, last())`` at each turn."""
    table.reset(seed=seed)
    seen = []
    for agent in table.agent_iter():
        last = table.last()
        seen.append((agent, last))
        obs, _, terminated, truncated, _ = last
        if terminated or truncated:
            table.step(None)
        else:
            table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


def offsets(rules: Rules) -> dict[str, int]:
    """Return where each field of the observation starts."""
    out = {}
    at = 0
    for name, size in observation_fields(rules):
        out[name] = at
        at += size
    return out


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


# ----------------------------------------------------------------------------- PettingZoo's tests


@pytest.mark.parametrize("settings", SETTINGS)
@pytest.mark.parametrize("make", [env, raw_env], ids=["env", "raw_env"])
def test_pettingzoo_api_test(make: Any, settings: dict[str, Any]) -> None:
    table = make(**settings)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(table, num_cycles=1000)
    # The two warnings left are about names PettingZoo lists for its own games only:
    # a Dict observation (with the action mask) is its classic games' convention.
    messages = {str(w.message) for w in caught}
    assert messages <= {
        "Observation is not a NumPy array",
        "Observation space for each agent probably should be gymnasium.spaces.box or "
        "gymnasium.spaces.discrete",
    }


@pytest.mark.parametrize("settings", SETTINGS)
def test_pettingzoo_seed_test(settings: dict[str, Any]) -> None:
    seed_test(lambda: env(**settings), num_cycles=500)


def test_metadata_agents_and_spaces() -> None:
    table = raw_env(players=5, start_cards=9)
    assert table.metadata["name"] == "knock_out_whist_v0"
    assert table.metadata["is_parallelizable"] is False
    assert table.metadata["render_modes"] == ["human", "ansi"]
    assert table.possible_agents == ["seat_0", "seat_1", "seat_2", "seat_3", "seat_4"]
    space = table.observation_space("seat_3")
    assert space is table.observation_space("seat_3")
    box = space["observation"]
    assert box.shape == (observation_size(Rules(players=5, start_cards=9)),)
    assert box.dtype == np.float32
    assert space["action_mask"].shape == (NUM_ACTIONS,) and space["action_mask"].dtype == np.int8
    assert table.action_space("seat_0").n == 57
    high = dict(zip(*np.unique(box.high, return_counts=True), strict=True))  # type: ignore[attr-defined, call-overload, var-annotated]
    fields = dict(observation_fields(Rules(players=5, start_cards=9)))
    counts = fields["hand_counts"] + fields["tricks_won"] + fields["previous_tricks_won"]
    assert high == {1.0: box.shape[0] - counts - 4, 9.0: counts, 4.0: 4}


def test_bounds_hold_at_the_largest_counts() -> None:
    """Two players with 25 cards: hand counts reach 25, the bound, and stay inside it."""
    table = raw_env(players=2, start_cards=25)
    seen = play_random(table, 3, np.random.default_rng(3))
    space = table.observation_space("seat_0")
    start = offsets(table.rules)["hand_counts"]
    assert space["observation"].high[start] == 25.0  # type: ignore[attr-defined]
    first = seen[0][1][0]["observation"]
    assert list(first[start : start + 2]) == [25.0, 25.0]
    assert all(space.contains(last[0]) for _, last in seen)


def test_bad_settings_and_render_mode() -> None:
    with pytest.raises(RulesError, match="players must be 2 to 7, not 9"):
        raw_env(players=9)
    with pytest.raises(TypeError, match="colour"):
        raw_env(colour="red")
    with pytest.raises(ValueError, match="render_mode must be None, 'human' or 'ansi'"):
        raw_env(render_mode="rgb_array")


# ----------------------------------------------------------------------------- what an agent sees


def test_each_agent_observes_its_own_view() -> None:
    table = raw_env(**VARIANT)
    rng = np.random.default_rng(11)
    hand = offsets(table.rules)["hand"]
    checked = 0
    for seed in range(11, 15):
        table.reset(seed=seed)
        game = game_of(table)
        while game.outcome is None:
            for seat, agent in enumerate(table.agents):
                obs = table.observe(agent)["observation"]
                assert obs.dtype == np.float32
                assert obs.tolist() == observation(game.view(seat))
                held = np.flatnonzero(obs[hand : hand + 52])
                assert list(held) == list(cards_in(game.hands[seat]))
                checked += 1
            mask = table.observe(table.agent_selection)["action_mask"]
            table.step(int(rng.choice(np.flatnonzero(mask))))
    assert checked > 300


def test_another_seats_hidden_cards_change_nothing_it_sees() -> None:
    """Swap a card between seats 1 and 2: seat 0's observation stays, theirs change."""
    table = raw_env()
    table.reset(seed=4)
    game = game_of(table)
    assert game.phase is Phase.PLAY
    before = {agent: table.observe(agent)["observation"] for agent in table.agents}
    hands = list(game.hands)
    one, two = cards_in(hands[1])[0], cards_in(hands[2])[0]
    hands[1] ^= (1 << one) | (1 << two)
    hands[2] ^= (1 << one) | (1 << two)
    table.game = game.fork(hands=hands)
    after = {agent: table.observe(agent)["observation"] for agent in table.agents}
    for agent in ("seat_0", "seat_3"):
        assert np.array_equal(before[agent], after[agent]), agent
    for agent in ("seat_1", "seat_2"):
        assert not np.array_equal(before[agent], after[agent]), agent


@pytest.mark.parametrize("settings", SETTINGS)
def test_action_mask_is_the_engines_legal_actions(settings: dict[str, Any]) -> None:
    table = raw_env(**settings)
    rng = np.random.default_rng(5)
    ids_seen: set[int] = set()
    for seed in range(12):
        table.reset(seed=seed)
        game = game_of(table)
        while game.outcome is None:
            assert table.agent_selection == f"seat_{game.turn}"
            for agent in table.agents:
                mask = table.observe(agent)["action_mask"]
                if agent == table.agent_selection:
                    assert list(np.flatnonzero(mask)) == legal_action_ids(game)
                else:
                    assert not mask.any()
            legal = legal_action_ids(game)
            ids_seen.update(legal)
            table.step(int(rng.choice(legal)))
    if settings:  # the variant's knocks and votes show in the masks
        assert KNOCK_ID in ids_seen and set(SUIT_IDS) <= ids_seen


@pytest.mark.parametrize("settings", SETTINGS)
def test_rewards_at_the_end_match_the_outcome(settings: dict[str, Any]) -> None:
    table = env(**settings)
    rng = np.random.default_rng(6)
    winners = set()
    for seed in range(8):
        seen = play_random(table, seed, rng)
        game = game_of(table)
        assert game.outcome is not None
        winner = f"seat_{game.outcome.winner}"
        winners.add(winner)
        final = {agent: last for agent, last in seen if last[2]}
        assert set(final) == set(table.possible_agents)
        assert {agent: last[1] for agent, last in final.items()} == {
            agent: 1.0 if agent == winner else 0.0 for agent in table.possible_agents
        }
        assert all(last[1] == 0 for _, last in seen if not last[2])
        assert table.log()["result"]["winner"] == game.outcome.winner
    assert len(winners) > 1


def test_a_knocked_out_seat_stays_an_agent_until_the_end() -> None:
    table = raw_env(players=4, start_cards=5)
    rng = np.random.default_rng(8)
    for seed in range(20):
        table.reset(seed=seed)
        game = game_of(table)
        out_while_playing = False
        while game.outcome is None:
            if game.knocked_out:
                out_while_playing = True
                assert table.agents == table.possible_agents
                for seat in game.knocked_out:
                    assert table.terminations[f"seat_{seat}"] is False
                    assert table.agent_selection != f"seat_{seat}"
            table.step(int(rng.choice(legal_action_ids(game))))
        if out_while_playing:
            assert all(table.terminations.values())
            return
    pytest.fail("no seat was knocked out before the end in 20 games")


# ----------------------------------------------------------------------------- seeds


@pytest.mark.parametrize(("settings", "flags"), [({}, []), (VARIANT, VARIANT_FLAGS)])
def test_a_seeded_game_is_kow_simulates(settings: dict[str, Any], flags: list[str]) -> None:
    """Heuristic bots acting through the environment, sharing bots_rng(seed), play the game
    of ``kow simulate --seed`` exactly: same deals, same actions, same result."""
    for seed in (3, 12345):
        code, out, _ = invoke("simulate", "--seed", str(seed), *flags)
        assert code == 0
        expected = json.loads(out)
        table = env(**settings)
        table.reset(seed=seed)
        rng = bots_rng(seed)
        bots = [make_bot("heuristic", f"heuristic-{s}", rng) for s in range(table.rules.players)]
        game = game_of(table)
        for agent in table.agent_iter():
            if table.terminations[agent]:
                table.step(None)
                continue
            seat = int(agent.removeprefix("seat_"))
            action = bots[seat].act(game.view(seat))
            table.step(action + 53 if game.phase is not Phase.PLAY else action)
        logged = table.log()
        assert logged["seed"] == seed
        for key in ("rules", "rounds", "result"):  # the rounds hold the deals
            assert logged[key] == expected[key], key
        assert [e for e in game.events if isinstance(e, Deal)][0] == new_game(
            Rules(**settings), seed
        ).events[0]


def test_reset_without_a_seed_draws_one_and_records_it() -> None:
    table = raw_env()
    table.reset(seed=3)
    table.reset()
    drawn = table.seed
    assert isinstance(drawn, int) and 0 <= drawn < 2**53 and drawn != 3
    assert table.log()["seed"] == drawn
    table.reset()
    assert table.seed != drawn
    table.reset(seed=3)
    assert table.seed == 3
    table.reset()
    assert table.seed == drawn  # seeded: the same seeds follow
    fresh = raw_env()
    fresh.reset()
    assert isinstance(fresh.seed, int) and fresh.log()["seed"] == fresh.seed


@pytest.mark.parametrize("bad", [-1, 2**53, 1.5, "7", True])
def test_a_seed_outside_kows_seeds_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match=r"is not a seed: allowed 0 to 9007199254740991"):
        raw_env().reset(seed=bad)


# ----------------------------------------------------------------------------- illegal actions


def test_raw_env_refuses_an_illegal_action_naming_it() -> None:
    table = raw_env()
    table.reset(seed=3)
    game = game_of(table)
    agent = table.agent_selection
    legal = legal_action_ids(game)
    bad = next(i for i in range(52) if i not in legal)
    events = len(game.events)
    with pytest.raises(ValueError) as refused:
        table.step(bad)
    message = str(refused.value)
    assert message.startswith(f"{agent} cannot take action {bad} (")
    assert "legal: " + ", ".join(f"{i} (" for i in legal[:1]) in message
    assert all(f"{i} (" in message.split("legal: ")[1] for i in legal)
    assert len(game.events) == events and table.agent_selection == agent
    with pytest.raises(ValueError, match="action 55 is not a card"):
        table.step(55)


def test_env_ends_the_game_on_an_illegal_action() -> None:
    table = env()
    table.reset(seed=3)
    offender = table.agent_selection
    legal = legal_action_ids(game_of(table))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns of the illegal move
        table.step(next(i for i in range(52) if i not in legal))
    assert all(table.terminations.values())
    rewards = {}
    for agent in table.agent_iter():
        rewards[agent] = table.last()[1]
        table.step(None)
    assert rewards == {a: ILLEGAL_REWARD if a == offender else 0.0 for a in table.possible_agents}
    logged = table.log()
    assert logged["abandoned"] is True and logged["result"]["winner"] is None
    assert verify_game(logged) is None


# ----------------------------------------------------------------------------- the log


@pytest.mark.parametrize(("settings", "seed"), [({}, 21), (VARIANT, 22)])
def test_the_log_verifies_replays_and_analyzes(
    settings: dict[str, Any], seed: int, tmp_path: Path
) -> None:
    table = env(**settings)
    play_random(table, seed, np.random.default_rng(seed))
    logged = table.log()
    assert "abandoned" not in logged
    assert logged["players"] == [
        {"seat": s, "name": f"seat_{s}", "kind": "agent"} for s in range(table.rules.players)
    ]
    assert logged["result"]["winner"] == game_of(table).outcome.winner  # type: ignore[union-attr]
    jsonschema.Draft202012Validator(schema()).validate(logged)
    assert verify_game(logged) is None
    path = tmp_path / "game.json"
    path.write_text(json.dumps(logged) + "\n")
    assert invoke("verify", str(path))[:2] == (0, "1 game in 1 file: 1 legal, 0 faulty\n")
    code, out, _ = invoke("replay", str(path), "--ascii")
    assert code == 0
    assert "0 seat_0 (agent)" in out.splitlines()[1]
    code, out, _ = invoke("analyze", str(path), "--iterations", "2", "--seat", "0", "--json", "-q")
    assert code == 0
    analysis = json.loads(out.splitlines()[0])
    assert analysis["seed"] == seed and analysis["decisions"]


def test_log_before_reset_says_so() -> None:
    with pytest.raises(RuntimeError, match="call reset"):
        raw_env().log()


# ----------------------------------------------------------------------------- render


def test_render_ansi_and_human(capsys: pytest.CaptureFixture[str]) -> None:
    table = raw_env(render_mode="ansi")
    table.reset(seed=3)
    game = game_of(table)
    assert table.render() == observation_text(game.view(game.turn))
    rng = np.random.default_rng(3)
    while game.outcome is None:
        table.step(int(rng.choice(legal_action_ids(game))))
    outcome = game.outcome
    assert table.render() == (
        f"game over: seat {outcome.winner} wins ({outcome.termination.value}, "
        f"{outcome.rounds_played} rounds)"
    )
    human = raw_env(render_mode="human")
    human.reset(seed=3)
    assert capsys.readouterr().out == observation_text(game_of(human).view()) + "\n"
    assert human.render() is None
    quiet = raw_env()
    quiet.reset(seed=3)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None


def test_a_bool_is_no_action_and_a_finished_game_takes_no_step() -> None:
    table = raw_env(players=2, start_cards=1)
    table.reset(seed=3)
    with pytest.raises(ValueError, match=r"cannot take action True: True is not an action id"):
        table.step(True)
    while table.agents:
        agent = table.agent_selection
        if table.terminations[agent]:
            table.step(None)
        else:
            table.step(int(np.flatnonzero(table.observe(agent)["action_mask"])[0]))
    with pytest.raises(ValueError, match="the game is over and every agent has stepped"):
        table.step(0)


@pytest.mark.parametrize("call", ["step", "last", "observe", "render", "log"])
def test_before_reset_each_call_says_to_reset_first(call: str) -> None:
    table = raw_env(render_mode="ansi")
    calls = {"step": lambda: table.step(0), "last": table.last,
             "observe": lambda: table.observe("seat_0"), "render": table.render,
             "log": table.log}  # fmt: skip
    with pytest.raises(RuntimeError) as refused:
        calls[call]()  # type: ignore[operator]
    assert str(refused.value) == f"no game yet: call reset() before {call}()"


@pytest.mark.parametrize(
    ("agent", "named"), [("seat_9", "'seat_9'"), ("seat_3", "'seat_3'"), (0, "0"), ([], "[]")]
)
def test_an_agent_that_is_none_of_the_games_is_refused_naming_the_agents(
    agent: Any, named: str
) -> None:
    table = raw_env(players=3)
    table.reset(seed=3)
    message = f"{named} is no agent of this game: seat_0 to seat_2"
    for call in (table.observe, table.observation_space, table.action_space):
        with pytest.raises(ValueError) as refused:
            call(agent)
        assert str(refused.value) == message
    with pytest.raises(ValueError) as refused:
        raw_env().observation_space("seat_9")  # before reset too
    assert str(refused.value) == "'seat_9' is no agent of this game: seat_0 to seat_3"


@pytest.mark.parametrize("bad", [np.array([3]), np.array([[3]]), np.array(3.0)])
def test_an_array_that_is_not_one_integer_is_no_action(bad: np.ndarray) -> None:
    table = raw_env()
    table.reset(seed=3)
    agent = table.agent_selection
    events = len(game_of(table).events)
    with pytest.raises(ValueError) as refused:
        table.step(bad)  # type: ignore[arg-type]
    legal = ", ".join(f"{i} ({action_text(i)})" for i in legal_action_ids(game_of(table)))
    assert str(refused.value) == (
        f"{agent} cannot take action {bad!r}: {bad!r} is not an action id; legal: {legal}"
    )
    assert len(game_of(table).events) == events and table.agent_selection == agent
    table.step(np.array(legal_action_ids(game_of(table))[0]))  # type: ignore[arg-type]  # one integer: taken
    assert len(game_of(table).events) > events


def test_numpy_integers_are_rule_values() -> None:
    table = raw_env(players=np.int64(3), start_cards=np.int32(4))
    assert (table.rules.players, type(table.rules.players)) == (3, int)
    table.reset(seed=np.int64(5))
    assert table.log()["rules"]["start_cards"] == 4 and table.seed == 5
