"""The log's JSON Schema (``kow/log/schema.json``, :func:`kow.log.schema`).

The schema is a valid draft 2020-12 schema that documents every field of
``docs/log-format.md``. Every log kow writes validates against it: ``kow simulate`` over
many seeds and every rule variant, and ``kow play --log`` for a finished game and for a game
abandoned at each decision. Logs with a planted fault do not.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import agent_log, random_variants
from jsonschema import Draft202012Validator

from kow import log
from kow.cards import NAMES, SUITS
from kow.cli import main
from kow.engine.view import View
from kow.events import KNOCK, Phase
from kow.game import drive, new_game
from kow.players import BOT_KINDS, Player
from kow.rules import DOGS_LIFE, LEADS, TRUMPS, Rules
from kow.settings import MAX_SEED

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = log.schema()
VALIDATOR = Draft202012Validator(SCHEMA)


def check(game: Any) -> None:
    """Assert that ``game`` validates, naming the first faults."""
    errors = sorted(VALIDATOR.iter_errors(game), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])


def simulate(*args: str) -> list[Any]:
    """Return the logs that ``kow simulate ARGS`` writes, one per JSON line."""
    result = CliRunner().invoke(main, ["simulate", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def features(game: Any) -> set[str]:
    """Return the notable things that happen in ``game``, to show a variant was exercised."""
    found = set()
    for rnd in game["rounds"]:
        found.add(f"method:{rnd['trump_method']}")
        tricks = rnd["tricks"]
        checks = {
            "knocked-out seat": None in rnd["hands"],
            "no turned-up card in round 1": rnd["number"] == 1 and rnd["turned_up"] is None,
            "tie cut": rnd["tie_cut"] is not None,
            "votes": bool(rnd["votes"]),
            "tied vote": rnd["trump_method"] == "vote" and rnd["trump_chosen_by"] is not None,
            "dog's life": bool(rnd["dogs_life"]),
            "dog's life granted": bool(rnd["dogs_life_granted"]),
            "revived": bool(rnd["revived"]),
            "knock": any("knock" in p for t in tricks for p in t["plays"]),
            "sweep": any(w == rnd["hand_size"] for w in rnd["tricks_won"] or ()),
            "trick cut short": any(t["winner"] is None for t in tricks),
            "round cut short": rnd["tricks_won"] is None,
        }
        found.update(name for name, happened in checks.items() if happened)
    return found


# ----------------------------------------------------------------------------- the schema


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"] == "https://kow.invalid/log-v1.schema.json"
    assert SCHEMA["title"] and SCHEMA["description"]


def test_schema_loads_the_shipped_file_afresh() -> None:
    text = (ROOT / "kow" / "log" / "schema.json").read_text(encoding="utf-8")
    assert text.isascii()
    first = log.schema()
    assert first == json.loads(text) == SCHEMA
    first["title"] = "changed"
    assert log.schema()["title"] != "changed", "each call returns a new dict"


def object_schemas(node: Any, path: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield each schema with ``properties``, skipping the conditions (if/then/else)."""
    if isinstance(node, dict):
        if "properties" in node:
            yield path, node
        for key, value in node.items():
            if key not in ("if", "then", "else"):
                yield from object_schemas(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from object_schemas(value, f"{path}/{i}")


def test_every_property_has_a_description_and_no_other_key_is_allowed() -> None:
    schemas = dict(object_schemas(SCHEMA))
    assert len(schemas) >= 10
    for path, node in schemas.items():
        assert node.get("additionalProperties") is False, path
        assert set(node.get("required", ())) <= set(node["properties"]), path
        for name, prop in node["properties"].items():
            assert isinstance(prop.get("description"), str) and prop["description"], (path, name)


def test_defs_hold_the_notation() -> None:
    defs = SCHEMA["$defs"]
    assert {"card", "suit", "seat", "play", "trick", "round", "rules"} <= set(defs)
    assert defs["card"]["pattern"] == "^[2-9TJQKA][cdhs]$"
    assert defs["suit"]["enum"] == list(SUITS) == ["c", "d", "h", "s"]
    assert (defs["seat"]["minimum"], defs["seat"]["maximum"]) == (0, 6)
    seed = SCHEMA["properties"]["seed"]
    assert (seed["type"], seed["minimum"], seed["maximum"]) == (["integer", "null"], 0, MAX_SEED)
    assert MAX_SEED == 2**53 - 1 == 9007199254740991
    rules = defs["rules"]["properties"]
    assert rules["dogs_life"]["enum"] == list(DOGS_LIFE)
    assert rules["trump"]["enum"] == list(TRUMPS)
    assert rules["lead"]["enum"] == list(LEADS)
    kinds = defs["player"]["properties"]["kind"]["enum"]
    assert kinds == [*BOT_KINDS, "agent", "human"]
    assert SCHEMA["properties"]["abandoned"] == {
        "description": SCHEMA["properties"]["abandoned"]["description"],
        "const": True,
    }
    assert "abandoned" not in SCHEMA["required"]


def doc_keys() -> dict[str, list[str]]:
    """Return the keys of each table of ``docs/log-format.md``, by section, in order."""
    text = (ROOT / "docs" / "log-format.md").read_text(encoding="utf-8")
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    tables = {s.splitlines()[0]: re.findall(r"^\| `(\w+)` \|", s, flags=re.M) for s in sections}
    return {title: keys for title, keys in tables.items() if keys}


def test_schema_lists_the_documented_keys_in_the_documented_order() -> None:
    defs = SCHEMA["$defs"]
    assert doc_keys() == {
        "Top level": list(SCHEMA["properties"]),
        "`rules`": list(defs["rules"]["properties"]),
        "Each round": list(defs["round"]["properties"]),
        "Each trick": list(defs["trick"]["properties"]),
    }


def test_logs_write_keys_in_schema_order() -> None:
    defs = SCHEMA["$defs"]
    (game,) = simulate("--seed", "11", "--players", "5", "--eliminated-vote")
    assert list(game) == list(SCHEMA["properties"])[:-1]  # all but "abandoned"
    assert list(game["rules"]) == list(defs["rules"]["properties"])
    for rnd in game["rounds"]:
        assert list(rnd) == list(defs["round"]["properties"])
        for trick in rnd["tricks"]:
            assert list(trick) == list(defs["trick"]["properties"])
            for play in trick["plays"]:
                assert list(play) in (["seat", "card"], ["seat", "knock"])


# ----------------------------------------------------------------------------- simulate

VARIANTS: list[tuple[str, list[str], int, set[str]]] = [
    # (id, options, games, what must happen in those games)
    *[
        (f"players-{n}", ["--players", str(n)], 6, {"method:chosen", "tie cut"})
        for n in range(2, 8)
    ],
    ("dogs-life-once-per-game", ["--dogs-life", "once-per-game"], 8,
     {"dog's life granted", "knock"}),
    ("dogs-life-once-per-player", ["--dogs-life", "once-per-player", "--players", "6"], 8,
     {"dog's life granted", "knock", "revived"}),
    ("fixed-trump", ["--fixed-trump"], 8, {"method:fixed"}),
    ("no-final-round-trump", ["--no-final-round-trump", "--no-sweep-wins"], 8,
     {"method:none"}),
    ("lead-dealer-left", ["--lead", "dealer-left"], 8, {"method:chosen"}),
    ("eliminated-vote", ["--eliminated-vote", "--players", "6"], 8,
     {"method:vote", "votes", "tied vote"}),
    ("no-sweep-wins", ["--no-sweep-wins"], 8, {"knocked-out seat"}),
    ("start-cards-1", ["--start-cards", "1"], 10, {"method:turned-up"}),
    ("start-cards-1-no-final-trump", ["--start-cards", "1", "--no-final-round-trump"], 5,
     {"method:none", "no turned-up card in round 1"}),
    ("start-cards-6", ["--start-cards", "6"], 8, set()),
    ("start-cards-8", ["--start-cards", "8", "--players", "6"], 8, set()),
    ("random-bots", ["--bots", "random"], 8, {"sweep"}),
    ("mixed-bots-dealer", ["--bots", "random,heuristic,random", "--players", "3",
                           "--dealer", "2"], 5, set()),
    ("traditional", ["--players", "5", "--dogs-life", "once-per-game", "--no-sweep-wins",
                     "--eliminated-vote"], 8, {"votes", "dog's life granted"}),
    ("fixed-no-final-dealer-left", ["--players", "3", "--start-cards", "8", "--fixed-trump",
                                    "--no-final-round-trump", "--lead", "dealer-left",
                                    "--dogs-life", "once-per-player"], 6,
     {"method:fixed", "dog's life"}),
    ("everything-off-default", ["--players", "7", "--dogs-life", "once-per-player",
                                "--fixed-trump", "--no-final-round-trump", "--lead",
                                "dealer-left", "--eliminated-vote", "--no-sweep-wins"], 6,
     {"method:fixed", "knock"}),
    ("vote-dogs-dealer-left", ["--players", "7", "--start-cards", "6", "--eliminated-vote",
                               "--dogs-life", "once-per-player", "--lead", "dealer-left"], 6,
     {"votes", "knock"}),
    ("most-cards-2-players", ["--players", "2", "--start-cards", "25"], 1, set()),
    ("most-cards-7-players", ["--players", "7", "--start-cards", "7", "--no-sweep-wins",
                              "--dogs-life", "once-per-player", "--bots", "random"], 3, set()),
]  # fmt: skip


ALL_VARIANTS = VARIANTS + random_variants(25, 2053, "1")


@pytest.mark.parametrize(
    ("index", "args", "games", "expected"),
    [(i, a, g, e) for i, (_, a, g, e) in enumerate(ALL_VARIANTS)],
    ids=[v[0] for v in ALL_VARIANTS],
)
def test_simulated_logs_validate(
    index: int, args: list[str], games: int, expected: set[str]
) -> None:
    logs = simulate("--seed", str(1000 + 37 * index), "--games", str(games), *args)
    assert len(logs) == games
    found: set[str] = set()
    for game in logs:
        check(game)
        assert "abandoned" not in game and game["result"]["winner"] is not None
        found |= features(game)
    assert expected <= found, f"not exercised: {sorted(expected - found)}"


def test_seed_bounds_validate() -> None:
    for seed in (0, MAX_SEED):
        (game,) = simulate("--seed", str(seed), "--players", "3")
        assert game["seed"] == seed
        check(game)


def test_a_null_seed_and_an_agent_validate_and_a_seed_as_text_does_not() -> None:
    game = agent_log(None)
    assert (game["seed"], game["players"][0]["kind"]) == (None, "agent")
    check(game)
    check(agent_log(5))
    assert fault_paths(dict(game, seed="x")) == {("seed",)}
    assert fault_paths(dict(game, seed=True)) == {("seed",)}
    robot = copy.deepcopy(game)
    robot["players"][0]["kind"] = "robot"
    assert fault_paths(robot) == {("players", 0, "kind")}


def test_golden_logs_validate() -> None:
    count = 0
    for path in sorted((ROOT / "tests" / "golden").glob("*.json*")):
        text = path.read_text(encoding="utf-8")
        games = [json.loads(text)] if path.suffix == ".json" else map(json.loads, text.splitlines())
        for game in games:
            check(game)
            count += 1
    assert count >= 3


# ----------------------------------------------------------------------------- kow play


class Scripted(Player):
    """Stands in for a person at ``kow play``: plays a seeded random legal action.

    Each decision appends to ``decisions`` the lines typed for it (an empty line at the
    hot seat's "pass the keyboard" prompt, then the entry) and how many events the game
    had when asked, which is what the log holds if the person quits there.
    """

    kind = "human"

    def __init__(
        self, name: str, game: HotSeatGame, rng: random.Random, shared: dict[str, Any]
    ) -> None:
        super().__init__(name)
        self.game, self.rng, self.shared = game, rng, shared

    def act(self, view: View) -> int:
        lines = [""] if self.shared["last"] != self.name else []  # Enter at "pass the keyboard"
        self.shared["last"] = self.name
        action = self.rng.choice(view.legal)
        if view.phase != Phase.PLAY:
            lines.append(SUITS[action])
        else:
            lines.append("knock" if action == KNOCK else NAMES[action])
        self.shared["decisions"].append((lines, len(self.game.state.events), view.phase.value))
        return action


class HotSeatGame:
    """A game with a person in every seat, played through once in process."""

    def __init__(self, rules: Rules, seed: int) -> None:
        self.rules, self.seed = rules, seed
        shared: dict[str, Any] = {"last": None, "decisions": []}
        rng = random.Random(seed)
        self.players = [
            Scripted(f"Player {i + 1}", self, rng, shared) for i in range(rules.players)
        ]
        self.decisions: list[tuple[list[str], int, str]] = shared["decisions"]
        self.state = new_game(rules, seed)
        drive(self.state, self.players)

    def log_at(self, decision: int | None) -> dict[str, Any]:
        """Return the log ``kow play`` saves on a quit at ``decision`` (None: the whole game)."""
        if decision is None:
            return log.build(self.seed, self.rules, self.players, events=self.state.events)  # type: ignore[return-value]
        events = self.state.events[: self.decisions[decision][1]]
        return log.build(self.seed, self.rules, self.players, events=events, abandoned=True)  # type: ignore[return-value]

    def play(self, decision: int | None, path: Path) -> dict[str, Any]:
        """Run ``kow play`` typing the script up to ``decision`` (then quit); return the log."""
        upto = self.decisions if decision is None else self.decisions[:decision]
        lines = [line for typed, _, _ in upto for line in typed]
        if decision is not None:
            lines += self.decisions[decision][0][:-1] + ["quit"]
        r = self.rules
        args = ["play", "--seed", str(self.seed), "--humans", str(r.players),
                "--players", str(r.players), "--dogs-life", r.dogs_life, "--lead", r.lead,
                "--log", str(path)]  # fmt: skip
        args += ["--eliminated-vote"] if r.eliminated_vote else []
        args += ["--no-sweep-wins"] if not r.sweep_wins else []
        result = CliRunner().invoke(main, args, input="\n".join(lines) + "\n")
        assert result.exit_code == (0 if decision is None else 1), result.output
        saved: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return saved


HOT_SEAT_RULES = Rules(
    players=4, dogs_life="once-per-player", eliminated_vote=True, sweep_wins=False
)


@pytest.fixture(scope="module")
def hot_seat() -> HotSeatGame:
    # Seed 2: the game has a trump choice, votes, a tied vote, a tie cut, a dog's life,
    # a knock and a revival.
    return HotSeatGame(HOT_SEAT_RULES, 2)


def test_hot_seat_game_has_every_kind_of_decision(hot_seat: HotSeatGame) -> None:
    full = hot_seat.log_at(None)
    assert {"method:chosen", "method:vote", "tied vote", "tie cut", "knock", "revived"} <= (
        features(full)
    )
    assert {phase for _, _, phase in hot_seat.decisions} == {"play", "trump", "vote"}


def test_finished_play_log_validates(hot_seat: HotSeatGame, tmp_path: Path) -> None:
    game = hot_seat.play(None, tmp_path / "game.json")
    assert game == hot_seat.log_at(None), "the saved log is the game replayed"
    assert "abandoned" not in game and game["result"]["winner"] is not None
    assert {p["kind"] for p in game["players"]} == {"human"}
    check(game)


def test_play_log_abandoned_at_every_decision_validates(hot_seat: HotSeatGame) -> None:
    found: set[str] = set()
    for decision in range(len(hot_seat.decisions)):
        game = hot_seat.log_at(decision)
        assert game["abandoned"] is True and game["result"]["winner"] is None
        check(game)
        found |= features(game)
    assert {"method:None", "trick cut short", "round cut short", "votes"} <= found


@pytest.mark.parametrize("phase", ["trump", "vote", "knock", "play"])
def test_play_log_abandoned_in_the_cli_is_the_one_validated(
    hot_seat: HotSeatGame, phase: str, tmp_path: Path
) -> None:
    decision = next(
        i
        for i, (typed, _, p) in enumerate(hot_seat.decisions)
        if (phase == "knock" and typed[-1] == "knock")
        or (p == phase and (phase != "play" or i > 5))
    )
    game = hot_seat.play(decision, tmp_path / "left.json")
    assert game == hot_seat.log_at(decision)
    check(game)


@pytest.mark.parametrize("entry", ["quit\n", ""])
def test_quit_at_the_first_prompt_saves_a_valid_abandoned_log(entry: str, tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    result = CliRunner().invoke(main, ["play", "--seed", "3", "--log", str(path)], input=entry)
    assert result.exit_code == 1
    game = json.loads(path.read_text(encoding="utf-8"))
    assert game["abandoned"] is True
    assert game["result"] == {"winner": None, "rounds_played": 1, "termination": None}
    last = game["rounds"][-1]
    assert last["tricks_won"] is None and last["tricks"][-1]["winner"] is None
    check(game)


# ----------------------------------------------------------------------------- faults


@pytest.fixture(scope="module")
def base() -> dict[str, Any]:
    """A short valid log with a tie cut, votes, a dog's life and a knock."""
    (game,) = simulate(
        "--seed", "22", "--players", "4", "--start-cards", "4",
        "--dogs-life", "once-per-game", "--no-sweep-wins", "--eliminated-vote",
    )  # fmt: skip
    assert {"tie cut", "votes", "dog's life", "knock"} <= features(game)
    check(game)
    return game  # type: ignore[no-any-return]


def first_path(game: Any, test: Any) -> list[str | int]:
    """Return the path of the first value in ``game`` (depth first) for which ``test`` holds."""

    def walk(node: Any, path: list[str | int]) -> list[str | int] | None:
        if test(node):
            return path
        if isinstance(node, dict):
            items: Any = node.items()
        else:
            items = enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            found = walk(value, [*path, key])
            if found is not None:
                return found
        return None

    found = walk(game, [])
    assert found is not None
    return found


def fault_paths(game: Any) -> set[tuple[str | int, ...]]:
    """Return where the schema finds faults in ``game``."""
    return {tuple(e.absolute_path) for e in VALIDATOR.iter_errors(game)}


def faults_within(game: Any, path: list[str | int]) -> bool:
    """Return whether the schema finds a fault in ``game``, and each one at or under ``path``."""
    paths = fault_paths(game)
    return bool(paths) and all(p[: len(path)] == tuple(path) for p in paths)


def put(game: Any, path: list[str | int], value: Any) -> dict[str, Any]:
    """Return a copy of ``game`` with ``value`` at ``path``."""
    game = copy.deepcopy(game)
    node: Any = game
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return game  # type: ignore[no-any-return]


OBJECTS: dict[str, list[str | int]] = {
    "log": [],
    "rules": ["rules"],
    "player": ["players", 0],
    "round": ["rounds", 0],
    "cut": ["rounds", 0, "cut"],
    "trick": ["rounds", 0, "tricks", 0],
    "play": ["rounds", 0, "tricks", 0, "plays", 0],
    "result": ["result"],
}


@pytest.mark.parametrize("where", [*OBJECTS, "tie cut", "vote"])
def test_unknown_key_is_rejected(base: dict[str, Any], where: str) -> None:
    if where == "tie cut":
        path = first_path(base, lambda n: isinstance(n, dict) and "tie_cut" in n and n["tie_cut"])
        path += ["tie_cut", 0, 0]
    elif where == "vote":
        path = first_path(base, lambda n: isinstance(n, dict) and n.get("votes"))
        path += ["votes", 0]
    else:
        path = OBJECTS[where]
    game = put(base, [*path, "comment"], "x")
    assert tuple(path) in fault_paths(game)


def test_missing_key_is_rejected(base: dict[str, Any]) -> None:
    for path in (["seed"], ["rules", "sweep_wins"], ["rounds", 0, "cut"], ["result", "winner"]):
        game = copy.deepcopy(base)
        node: Any = game
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
        assert fault_paths(game) == {tuple(path[:-1])}, path


HANDS: list[str | int] = ["rounds", 0, "hands", 0, 0]
PLAY0: list[str | int] = ["rounds", 0, "tricks", 0, "plays", 0]

FAULTS: list[tuple[str, list[str | int], Any]] = [
    ("card 1h", HANDS, "1h"),
    ("card 11h", HANDS, "11h"),
    ("card 10h", HANDS, "10h"),
    ("card th", HANDS, "th"),
    ("card AH", HANDS, "AH"),
    ("card Ax", HANDS, "Ax"),
    ("card as int", HANDS, 12),
    ("played card 1h", [*PLAY0, "card"], "1h"),
    ("turned-up 11h", ["rounds", 0, "turned_up"], "11h"),
    ("seat 7 plays", [*PLAY0, "seat"], 7),
    ("seat -1 plays", [*PLAY0, "seat"], -1),
    ("seat 7 deals", ["rounds", 0, "dealer"], 7),
    ("seat 7 wins", ["result", "winner"], 7),
    ("seat as text", ["rounds", 0, "leader"], "0"),
    ("seat true", ["rounds", 0, "leader"], True),
    ("version 2", ["version"], 2),
    ("version '1'", ["version"], "1"),
    ("version true", ["version"], True),
    ("format", ["format"], "kow"),
    ("seed as text", ["seed"], "11"),
    ("seed -1", ["seed"], -1),
    ("seed 2^53", ["seed"], 2**53),
    ("seed 1.5", ["seed"], 1.5),
    ("trump_method magic", ["rounds", 0, "trump_method"], "magic"),
    ("trump H", ["rounds", 0, "trump"], "H"),
    ("trump hearts", ["rounds", 0, "trump"], "hearts"),
    ("dogs_life sometimes", ["rules", "dogs_life"], "sometimes"),
    ("rules trump", ["rules", "trump"], "loser-chooses"),
    ("rules lead", ["rules", "lead"], "left"),
    ("rules 8 players", ["rules", "players"], 8),
    ("rules 1 player", ["rules", "players"], 1),
    ("rules 0 cards", ["rules", "start_cards"], 0),
    ("rules 13 cards for 4", ["rules", "start_cards"], 13),
    ("rules bool as text", ["rules", "sweep_wins"], "false"),
    ("player kind", ["players", 0, "kind"], "robot"),
    ("player name", ["players", 0, "name"], ""),
    ("cut position 0", ["rounds", 0, "cut", "position"], 0),
    ("cut position 52", ["rounds", 0, "cut", "position"], 52),
    ("round number 0", ["rounds", 0, "number"], 0),
    ("abandoned false", ["abandoned"], False),
    ("kow_version", ["kow_version"], 1),
]


@pytest.mark.parametrize(("path", "value"), [f[1:] for f in FAULTS], ids=[f[0] for f in FAULTS])
def test_fault_is_rejected(base: dict[str, Any], path: list[str | int], value: Any) -> None:
    assert tuple(path) in fault_paths(put(base, path, value))


@pytest.mark.parametrize(
    "play",
    [{"seat": 0, "card": "Ah", "knock": True}, {"seat": 0}, {"seat": 0, "knock": False},
     {"card": "Ah"}, {"seat": 0, "card": None}, {"seat": 0, "knock": True, "extra": 1}],
)  # fmt: skip
def test_play_is_a_card_or_a_knock_never_both(base: dict[str, Any], play: Any) -> None:
    assert faults_within(put(base, PLAY0, play), PLAY0)


def test_finished_game_must_be_complete(base: dict[str, Any]) -> None:
    assert fault_paths(put(base, ["result", "winner"], None)) == {("result", "winner")}
    assert ("rounds", 0, "tricks_won") in fault_paths(put(base, ["rounds", 0, "tricks_won"], None))
    path: list[str | int] = ["rounds", 0, "tricks", 0, "winner"]
    assert tuple(path) in fault_paths(put(base, path, None))
    assert ("rounds", 0, "leader") in fault_paths(put(base, ["rounds", 0, "leader"], None))


def test_abandoned_game_has_no_winner(base: dict[str, Any]) -> None:
    game = put(base, ["abandoned"], True)
    assert ("result", "winner") in fault_paths(game)
    assert ("result", "termination") in fault_paths(game)
    check(put(put(game, ["result", "winner"], None), ["result", "termination"], None))


def test_termination_is_one_of_three_and_optional(base: dict[str, Any]) -> None:
    assert base["result"]["termination"] in ("last-standing", "sweep", "final-trick")
    assert fault_paths(put(base, ["result", "termination"], "knock-out")) == {
        ("result", "termination")
    }
    assert fault_paths(put(base, ["result", "termination"], None)) == {("result", "termination")}
    old = put(base, ["result"], {k: v for k, v in base["result"].items() if k != "termination"})
    check(old)  # a log of kow 0.5.0, with no termination, is still valid
    check(put(abandoned(old), ["result"], {"winner": None, "rounds_played": 4}))


def test_round_before_trump_has_no_tricks(base: dict[str, Any]) -> None:
    game = put(abandoned(base), ["rounds", 0, "trump_method"], None)
    assert fault_paths(game) == {  # yet round 1 has a trump, a leader and tricks
        ("rounds", 0, key) for key in ("trump", "leader", "tricks", "tricks_won")
    }
    cut_short = dict(game["rounds"][0], trump=None, leader=None, tricks=[], tricks_won=None,
                     eliminated=[], dogs_life_granted=[], revived=[])  # fmt: skip
    game = put(game, ["rounds"], [cut_short])
    game["result"]["rounds_played"] = 1
    check(game)


def abandoned(game: Any) -> dict[str, Any]:
    """Return a copy of ``game`` marked abandoned (so any round may be cut short)."""
    game = put(put(game, ["abandoned"], True), ["result", "winner"], None)
    return put(game, ["result", "termination"], None)


def round_with(game: Any, number: int, **change: Any) -> dict[str, Any]:
    """Return a copy of ``game`` whose round ``number`` (from 1) has ``change`` applied."""
    for index, rnd in enumerate(game["rounds"]):
        if rnd["number"] == number:
            return put(game, ["rounds", index], dict(rnd, **change))
    raise AssertionError(f"no round {number}")


ROUND_FAULTS = [
    # (round number, change, why it is wrong), checked in an abandoned game
    (1, {"trump": None}, "turned-up, but no trump"),
    (1, {"turned_up": None}, "turned-up, but no card turned up"),
    (1, {"trump_chosen_by": 1}, "turned-up, yet somebody chose"),
    (1, {"trump_method": "none"}, "no trump, yet a trump suit and a turned-up card"),
    (1, {"leader": None}, "trump set, but no leader"),
    (3, {"tricks_won": None}, "round not over, yet seats knocked out"),
    (2, {"trump_method": "turned-up"}, "a card is turned up in round 1 only"),
    (2, {"trump_chosen_by": None}, "chosen, but no chooser"),
    (2, {"trump_method": "fixed"}, "fixed, yet somebody chose"),
    (4, {"votes": None}, "a vote, but no votes"),
]


@pytest.mark.parametrize(
    ("number", "change"), [f[:2] for f in ROUND_FAULTS], ids=[f[2] for f in ROUND_FAULTS]
)
def test_round_fields_agree_with_trump_method(
    base: dict[str, Any], number: int, change: dict[str, Any]
) -> None:
    game = abandoned(base)
    check(game)
    methods = [r["trump_method"] for r in game["rounds"]]
    assert methods == ["turned-up", "chosen", "chosen", "vote"]
    if "tricks_won" in change:
        assert game["rounds"][number - 1]["eliminated"], "the change must leave a fault"
    assert faults_within(round_with(game, number, **change), ["rounds", number - 1])
