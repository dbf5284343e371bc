"""``kow analyze`` and :mod:`kow.runs.analysis`: the search bot's values of each logged decision.

A planted blunder (a dog's-life knock that loses the round for sure, where playing the
card takes a trick for sure) is marked, and nothing else of that seat is; the best action
is never marked; the output does not depend on --jobs, --game or --seat; bad input exits
with the code and message of the other commands; the JSON validates against the shipped
schema; and ``kow play`` offers the analysis of the game just played.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import agent_log, apply_all, deal, new_state, play_stacked
from jsonschema import Draft202012Validator

from kow import log
from kow.cli import main
from kow.cli.commands.analyze import ANALYSIS_ITERATIONS
from kow.events import KNOCK
from kow.log import LoggedPlayer, rules_to_log
from kow.rules import Rules
from kow.runs import analysis
from kow.runs.analysis import BLUNDER, analyze_game

ROOT = Path(__file__).resolve().parents[2]
VALIDATOR = Draft202012Validator(analysis.schema())


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    """Return the exit code, stdout and stderr of ``kow ARGS``."""
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def lines_of(text: str) -> list[dict[str, Any]]:
    """Return the JSON objects of ``text``, one per line."""
    return [json.loads(line) for line in text.splitlines()]


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two games of mixed bots (random ones blunder) with dog's lives, so knocks too."""
    path = tmp_path_factory.mktemp("analysis") / "games.jsonl"
    code, _, err = run(
        "simulate", "--seed", "3", "--games", "2", "--bots", "heuristic,random,random,heuristic",
        "--dogs-life", "once-per-player", "-o", str(path),
    )  # fmt: skip
    assert code == 0, err
    return path


# ----------------------------------------------------------------------------- a planted blunder

PLANTED_RULES = Rules(players=3, start_cards=3, dogs_life="once-per-game")
PLANTED_DECKS = [
    # Round 1, trump diamonds: seat 0 takes two tricks, seat 1 one, seat 2 none (every
    # play of seats 1 and 2 forced), so seat 2 plays round 2 on a dog's life.
    deal(2, ["As Ah 2c", "3s 3h Kc", "2s 2h 5c"], turned_up="9d"),
    # Round 2, trump hearts (named by seat 0, who leads): 2c, 3c, then seat 2 holds 4c.
    # Played, 4c is the highest club of a trick with no trump: a trick for sure. Knocked,
    # it must be played at the last trick, led by another seat: a club can only win it
    # against a lower club led, and 2c and 3c are gone, so no trick for sure.
    deal(0, ["2c Qh", "3c Kh", "4c"]),
]
PLANTED_NUMBER = 13
"""The knock's place among the game's actions: 9 plays of round 1, the trump choice, 2c,
3c, then the knock."""


def planted_game() -> Any:
    """Return the whole game in which seat 2 knocks (the blunder), as a log of people."""
    game = play_stacked(
        PLANTED_RULES, 2, PLANTED_DECKS,
        ["As Ah 2c h 2c Qh", "3s 3h Kc 3c Kh", "2s 2h 5c knock 4c"],
    )  # fmt: skip
    for player in game["players"]:
        player["kind"] = "human"
    return game


def good_game() -> Any:
    """Return the same game where seat 2 plays 4c instead, cut short just after it."""
    state = new_state(PLANTED_RULES, 2, PLANTED_DECKS)
    apply_all(state, "As 3s 2s Ah 3h 2h 2c Kc 5c h 2c 3c 4c")
    players = [LoggedPlayer(f"p{s}", "human") for s in range(3)]
    return log.build(0, PLANTED_RULES, players, events=state.events, abandoned=True)


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("planted") / "planted.json"
    path.write_text(log.dumps(planted_game()) + "\n", encoding="utf-8")
    return path


def test_the_planted_game_is_legal_and_knocks_where_it_should() -> None:
    from kow.verify import verify_game

    game = planted_game()
    assert verify_game(game) is None
    trick = game["rounds"][1]["tricks"][0]
    assert trick["plays"][2] == {"seat": 2, "knock": True} and trick["winner"] == 1
    assert game["rounds"][1]["eliminated"] == [0, 2]
    assert verify_game(good_game()) is None


def test_a_planted_blunder_is_marked_with_the_sure_trick_as_the_better_choice(
    planted: Path,
) -> None:
    code, out, err = run("analyze", str(planted), "--seat", "2", "--json", "--iterations", "40")
    assert code == 0, err
    (result,) = lines_of(out)
    assert result["seats"] == [2]
    (decision,) = result["decisions"]  # every other action of seat 2 was forced
    assert decision["number"] == PLANTED_NUMBER
    assert (decision["round"], decision["trick"], decision["seat"]) == (2, 1, 2)
    assert decision["hand"] == ["4c"] and decision["trump"] == "h"
    assert decision["trick_plays"] == [{"seat": 0, "card": "2c"}, {"seat": 1, "card": "3c"}]
    assert (decision["chosen"], decision["best"], decision["blunder"]) == ("knock", "4c", True)
    values = {v["action"]: v for v in decision["values"]}
    assert values["4c"]["survival"] == 1 and values["knock"]["survival"] == 0
    assert values["knock"]["win"] == 0 < values["4c"]["win_low"]
    # The loss is the same in every deal: its interval has no width.
    assert decision["loss"] == decision["loss_low"] == values["4c"]["win"] > BLUNDER
    assert result["summary"] == [
        {"seat": 2, "decisions": 1, "blunders": 1, "mean_loss": decision["loss"]}
    ]


def test_the_planted_blunder_is_marked_among_every_seats_decisions_and_in_the_text(
    planted: Path,
) -> None:
    result = analyze_game(planted_game(), iterations=40)
    marked = [d for d in result.decisions if d.blunder and d.seat == 2]
    assert [d.number for d in marked] == [PLANTED_NUMBER]
    code, out, err = run("analyze", str(planted), "--seat", "2", "--ascii", "--iterations", "40")
    assert code == 0, err
    lines = out.splitlines()
    at = lines.index("Round 2, trick 1: p2, after p0 2c, p1 3c. Hand 4c; trump h; 0 tricks won.")
    assert lines[at + 1].startswith("  knock ??: win 0% (0-0%), trick 0%. Better 4c: ")
    assert "  p2: 1 decision, 1 blunder, mean loss " in out


def test_the_sure_trick_taken_is_no_blunder(tmp_path: Path) -> None:
    path = tmp_path / "good.json"
    path.write_text(log.dumps(good_game()) + "\n", encoding="utf-8")
    code, out, err = run("analyze", str(path), "--seat", "2", "--json", "--iterations", "40")
    assert code == 0, err
    (decision,) = lines_of(out)[0]["decisions"]
    assert (decision["chosen"], decision["best"], decision["blunder"]) == ("4c", "4c", False)
    assert decision["loss"] == decision["loss_low"] == decision["loss_high"] == 0


# ----------------------------------------------------------------------------- the rule


def test_the_best_action_is_never_marked(games: Path) -> None:
    found: list[Any] = []
    for line in games.read_text().splitlines():
        found += analyze_game(json.loads(line), iterations=30).decisions
    assert len(found) > 40
    for d in found:
        wins = [v.win for v in d.values]
        assert d.value_of(d.best).win == max(wins)
        if d.chosen == d.best:
            assert not d.blunder and d.loss == d.loss_low == d.loss_high == 0
        else:
            assert d.value_of(d.chosen).win < d.value_of(d.best).win
            assert d.loss_low <= d.loss <= d.loss_high
            assert d.blunder == (d.loss_low > BLUNDER)
    # Both sides of the rule are exercised: blunders, near misses, and best choices.
    assert any(d.blunder for d in found)
    assert any(d.chosen != d.best and not d.blunder for d in found)
    assert any(d.chosen == d.best for d in found)
    assert any(d.chosen == KNOCK for d in found), "a knock was analyzed"


def test_a_single_legal_action_and_votes_are_not_analyzed() -> None:
    game = planted_game()
    every = analysis.decisions(game)
    assert all(len(d.view.legal) > 1 for d in every)
    assert {d.seat for d in every} == {0, 2}, "seat 1's every action was forced"
    assert [d.number for d in every if d.seat == 2] == [PLANTED_NUMBER]


# ----------------------------------------------------------------------------- reproducible


def test_jobs_1_and_2_give_the_same_bytes(games: Path) -> None:
    for form in (["--json"], ["--ascii"]):
        outs = []
        for jobs in ("1", "2"):
            code, out, err = run("analyze", str(games), "--iterations", "20", "-j", jobs, *form)
            assert code == 0, err
            outs.append(out)
        assert outs[0] == outs[1]
        assert outs[0].count("Round ") + outs[0].count('"number":') > 40


def test_the_seed_decides_the_values(games: Path) -> None:
    args = ["analyze", str(games), "--game", "1", "--iterations", "20", "--json"]
    first, again, other = (run(*args, *more)[1] for more in ([], ["--seed", "0"], ["--seed", "1"]))
    assert first == again != other
    assert lines_of(first)[0]["analysis_seed"] == 0 and lines_of(other)[0]["analysis_seed"] == 1


def test_game_and_seat_pick_the_same_analyses_out_of_the_whole(games: Path) -> None:
    base = ["analyze", str(games), "--iterations", "20", "--json"]
    whole = lines_of(run(*base)[1])
    assert [g["game"] for g in whole] == [1, 2]
    assert lines_of(run(*base, "--game", "2")[1]) == whole[1:]
    one = lines_of(run(*base, "--seat", "1")[1])
    for picked, full in zip(one, whole, strict=True):
        assert picked["seats"] == [1] and picked["decisions"]
        assert picked["decisions"] == [d for d in full["decisions"] if d["seat"] == 1]
        assert picked["summary"] == [s for s in full["summary"] if s["seat"] == 1]
    # A name as logged or as shown picks the same seat (seat 1 is "random-1", shown "Ben").
    assert lines_of(run(*base, "--seat", "random-1")[1]) == one
    assert lines_of(run(*base, "--seat", "BEN")[1]) == one


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["NOPE"], 2, "Invalid value for 'FILE': cannot open 'NOPE': No such file or directory"),
        (["DIR"], 2, "cannot open 'DIR': Is a directory"),
        (["GAMES", "--game", "3"], 2, "'--game': GAMES holds 2 games, so there is no game 3"),
        (["GAMES", "--seat", "4"], 2,
         "'--seat': '4' is not a seat: allowed 0 to 3 (0-based: game 1 of GAMES has 4 seats)"),
        (["GAMES", "--seat", "-1"], 2, "'-1' is not a seat: allowed 0 to 3, in the digits 0-9"),
        (["GAMES", "--seat", "Zed"], 2, "game 1 of GAMES has no player named 'Zed': give a seat"
         " number or one of 0 'heuristic-0' (shown as 'Ada'), 1 'random-1' (shown as 'Ben')"),
        (["GAMES", "--iterations", "1"], 2,
         "'--iterations': '1' is not a number of deals: allowed 2 to 100000"),
        (["GAMES", "-o", "GAMES"], 2, "is the input"),
        (["CORRUPT"], 1, "Error: CORRUPT: line 2, column 6: not JSON"),
        (["EMPTY"], 1, "Error: EMPTY: holds no game, so there is none to analyze"),
        (["ILLEGAL"], 1, "Error: ILLEGAL: game 2 (seed "),
    ],
)  # fmt: skip
def test_bad_input_exits_with_the_code_and_place(
    games: Path, tmp_path: Path, args: list[str], code: int, message: str
) -> None:
    text = games.read_text()
    first, second = text.splitlines()
    files = {
        "GAMES": games,
        "DIR": tmp_path,
        "NOPE": tmp_path / "nope.jsonl",
        "CORRUPT": tmp_path / "corrupt.jsonl",
        "EMPTY": tmp_path / "empty.jsonl",
        "ILLEGAL": tmp_path / "illegal.jsonl",
    }
    files["CORRUPT"].write_text(first + '\n{"a" 1}\n')
    files["EMPTY"].write_text("")
    files["ILLEGAL"].write_text(first + "\n" + second.replace('"winner":', '"winner":9,"x":', 1))
    args = [str(files.get(a, a)) for a in args]
    message = message.replace("GAMES", str(games)).replace("DIR", str(tmp_path))
    for name in ("NOPE", "CORRUPT", "EMPTY", "ILLEGAL"):
        message = message.replace(name, str(files[name]))
    got, out, err = run("analyze", "--iterations", "2", *args)
    assert got == code
    if args[0] in (str(files["CORRUPT"]), str(files["ILLEGAL"])):  # game 1 before the fault
        assert out.startswith(f"Game 1 of {args[0]}, seed ") and "Game 2" not in out
    else:
        assert out == ""
    assert message in " ".join(err.split()), err
    assert "Traceback" not in err


def test_an_illegal_game_is_named_after_the_games_before_it_are_analyzed(
    games: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(games.read_text() + '{"format": "kow-log"}\n')
    output = tmp_path / "out.txt"
    output.write_text("before")
    code, out, err = run("analyze", str(bad), "--iterations", "2", "-o", str(output))
    assert code == 1 and out == ""
    assert f"{bad}: game 3: " in err and "can't be analyzed" in err
    whole, _, _ = run("analyze", str(games), "--iterations", "2", "-o", str(tmp_path / "w"))
    alone = (tmp_path / "w").read_text().replace(str(games), str(bad))
    assert output.read_text() == alone  # games 1 and 2, as they are analyzed alone


# ----------------------------------------------------------------------------- JSON


def test_the_schema_ships_and_kow_schema_analysis_prints_it() -> None:
    schema = analysis.schema()
    Draft202012Validator.check_schema(schema)
    text = (ROOT / "kow" / "runs" / "analysis.schema.json").read_text(encoding="utf-8")
    assert text.isascii() and json.loads(text) == schema
    code, out, _ = run("schema", "analysis")
    assert code == 0 and json.loads(out) == schema
    code, out, _ = run("schema")  # the log's, as before
    assert code == 0 and json.loads(out) == log.schema()
    code, _, err = run("schema", "tables")
    assert code == 2 and "'tables' is not one of 'log', 'analysis'" in err


def test_every_property_has_a_description_and_no_other_key_is_allowed() -> None:
    schema = analysis.schema()
    nodes = [schema, *schema["$defs"].values()]
    objects = [n for n in nodes if "properties" in n]
    assert len(objects) >= 5
    for node in objects:
        assert node["additionalProperties"] is False
        assert set(node["required"]) <= set(node["properties"])
        assert all(p.get("description") for p in node["properties"].values())


def test_the_json_validates_and_keeps_the_schema_order(games: Path, planted: Path) -> None:
    schema = analysis.schema()
    checked = 0
    for path in (games, planted):
        code, out, err = run("analyze", str(path), "--iterations", "10", "--json")
        assert code == 0, err
        for result in lines_of(out):
            errors = [e.message for e in VALIDATOR.iter_errors(result)]
            assert errors == []
            assert list(result) == list(schema["properties"])
            for d in result["decisions"]:
                assert list(d) == list(schema["$defs"]["decision"]["properties"])
                checked += 1
            assert out.isascii()
    assert checked > 40
    bad = dict(lines_of(run("analyze", str(planted), "--iterations", "2", "--json")[1])[0])
    bad["decisions"][0]["chosen"] = "10c"
    assert list(VALIDATOR.iter_errors(bad)), "a card written 10c is refused"


def test_a_game_with_a_null_seed_and_an_agent_is_analyzed(tmp_path: Path) -> None:
    # A game played through a framework adapter: its deals came from outside kow.
    game = agent_log(None)
    path = tmp_path / "os.json"
    path.write_text(log.dumps(game) + "\n", encoding="utf-8")
    code, out, err = run("analyze", str(path), "--iterations", "10", "--json")
    assert (code, err) == (0, "")
    (result,) = lines_of(out)
    assert list(VALIDATOR.iter_errors(result)) == []
    assert (result["game"], result["seed"], result["analysis_seed"]) == (1, None, 0)
    assert result["players"] == [
        {"seat": 0, "name": "ppo", "kind": "agent"},
        {"seat": 1, "name": "heuristic-1", "kind": "heuristic"},
        {"seat": 2, "name": "heuristic-2", "kind": "heuristic"},
    ]
    numbers = [d.number for d in analysis.decisions(game)]
    assert [d["number"] for d in result["decisions"]] == numbers and numbers
    found = analyze_game(game, iterations=10)
    assert found.seed is None and analysis.to_dict(found, str(path)) == result
    assert run("analyze", str(path), "--iterations", "10", "--json")[1] == out  # seeded
    code, out, err = run("analyze", str(path), "--iterations", "10", "--ascii")
    assert (code, err) == (0, "")
    assert out.splitlines()[:2] == [
        f"Game 1 of {path}, no seed (dealt outside kow)",
        "Seats: 0 ppo (agent), 1 Ada (heuristic), 2 Ben (heuristic).",
    ]


def test_the_cli_default_is_the_library_default() -> None:
    assert ANALYSIS_ITERATIONS == analysis.DEFAULT_ITERATIONS


# ----------------------------------------------------------------------------- kow play


def test_kow_play_offers_the_analysis_of_the_game_just_played(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "cli"))
    from test_play import UTF8, script

    entries, _ = script(Rules(players=3), 21, humans=1)
    path = tmp_path / "game.jsonl"
    args = ["play", "--seed", "21", "--players", "3", "--ascii", "--log", str(path)]
    played = CliRunner(env=UTF8).invoke(main, args, input="\n".join([*entries, "a", "n"]) + "\n")
    assert played.exit_code == 0, played.stderr
    out = played.stdout
    offer = "Type a to see how the search bot rates your decisions in this game."
    assert out.count(offer) == 1
    assert out.index(offer) < out.index("Play again, with a new seed? [y/n] a\n")
    assert out.count("Play again, with a new seed? [y/n] ") == 2
    shown = out[out.index("Game 1 of this sitting, seed 21") :]
    # The same as kow analyze on the log (but for the wrapping of long lines).
    code, again, err = run("analyze", str(path), "--seat", "0", "--ascii")
    assert code == 0, err
    body = again[again.index("\n") :]  # all but the title, which names the file
    assert " ".join(body.split()) in " ".join(shown.split())
    assert "\n  You: " in shown and body.count("Round ") > 3
    assert f"As JSON: kow analyze {path} --game 1 --seat 0 --json" in " ".join(out.split())
    declined = CliRunner(env=UTF8).invoke(main, args[:-2], input="\n".join([*entries, "n"]) + "\n")
    assert declined.exit_code == 0 and "this sitting" not in declined.stdout


def test_seat_skips_the_games_without_it(tmp_path: Path) -> None:
    # A 2-player game, then a 3-player one: seat 2 is only in the second.
    two = run("simulate", "--players", "2", "--start-cards", "3", "--seed", "1")
    three = run("simulate", "--players", "3", "--start-cards", "3", "--seed", "2")
    assert two[0] == 0 and three[0] == 0
    both = tmp_path / "both.jsonl"
    both.write_text(two[1] + three[1])
    code, out, err = run("analyze", str(both), "--seat", "2", "--iterations", "2", "--json")
    assert code == 0, err
    found = lines_of(out)
    assert [g["game"] for g in found] == [2]
    assert {d["seat"] for d in found[0]["decisions"]} == {2}
    code, out, err = run("analyze", str(both), "--seat", "5", "--iterations", "2")
    assert code == 2 and out == ""
    assert "'5' is not a seat: allowed 0 to 1 (0-based: game 1 of" in err


def _judged(loss: float, low: float, high: float) -> analysis.DecisionAnalysis:
    """Return a decision between 2c (chosen) and 3c (best) with these losses, no blunder."""
    from kow.cards import parse_card
    from kow.events import Phase

    two, three = parse_card("2c"), parse_card("3c")
    values = tuple(
        analysis.ActionValue(
            action=c,
            survival=0.5,
            survival_low=0.4,
            survival_high=0.6,
            win=win,
            win_low=win - 0.1,
            win_high=win + 0.1,
        )
        for c, win in ((two, 0.30), (three, 0.30 + loss))
    )
    return analysis.DecisionAnalysis(
        number=1,
        round=1,
        trick=1,
        seat=0,
        phase=Phase.PLAY,
        hand=(two, three),
        trump=None,
        trick_plays=(),
        tricks_won=0,
        values=values,
        chosen=two,
        best=three,
        loss=loss,
        loss_low=low,
        loss_high=high,
        blunder=False,
        deals=10,
    )


def test_the_text_gives_the_threshold_used_and_no_minus_zero() -> None:
    from kow.screen import Screen

    within = _judged(0.0004, -0.00004, 0.0009)  # its lower bound shows as 0.0, not -0.0
    under = _judged(0.04, 0.03, 0.05)  # a lower bound above 0 but under the threshold, 5
    result = analysis.GameAnalysis(
        game=1,
        seed=7,
        players=(("Ada", "human"), ("Ben", "human")),
        rules=rules_to_log(Rules(players=2)),
        seats=(0,),
        decisions=(within, under),
        analysis_seed=0,
        iterations=10,
        threshold=0.05,
    )
    text = analysis.text_lines(result, Screen(["Ada", "Ben"], Rules(players=2), symbols=False), "T")
    text = [line.replace("\u00a0", " ") for line in text]
    assert "an action at least 5 points of win chance worse" in text[2]
    assert text[5] == (
        "  2c: win 30% (20-40%), trick 50%. Best found 3c, by 0.0 points (95%: 0.0 to 0.1):"
        " within the sampling error."
    )
    assert text[8] == (
        "  2c: win 30% (20-40%), trick 50%. Best found 3c, by 4.0 points (95%: 3.0 to 5.0):"
        " not a blunder: its 95% lower bound is under 5 points."
    )
    assert text[-1] == "  Ada: 2 decisions, 0 blunders, mean loss 2.0 points."
    assert not any("-0.0" in line for line in text)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"iterations": 1}, "1 is not a number of deals: allowed 2 to 100000"),
        ({"iterations": 2.5}, "2.5 is not a number of deals: allowed 2 to 100000"),
        ({"seed": True}, "True is not a seed: allowed 0 to 9007199254740991"),
        ({"seed": -1}, "-1 is not a seed: allowed 0 to 9007199254740991"),
        ({"jobs": 0}, "0 is not a number of processes: allowed 1 to"),
    ],
)
def test_analyse_game_checks_as_analyze_does(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as caught:
        analyze_game(planted_game(), **settings)
    assert str(caught.value).startswith(message)


def test_analyze_keeps_the_games_before_a_fault_then_names_it(tmp_path: Path) -> None:
    # Issue 33, 1: gzip bytes after plain JSON Lines (cat today.jsonl old.jsonl.gz > all),
    # or a line that is not JSON: the whole games before the fault are analyzed.
    import gzip

    from click.testing import CliRunner

    from kow.cli import main

    runner = CliRunner()
    logs = runner.invoke(main, ["simulate", "--seed", "1", "--games", "4"]).output
    lines = logs.splitlines(keepends=True)
    mixed = tmp_path / "all"
    mixed.write_bytes("".join(lines[:2]).encode() + gzip.compress(logs.encode()))
    broken = tmp_path / "broken.jsonl"
    broken.write_text("".join(lines[:3]) + "{bad\n" + lines[3])
    for path, kept, where in ((mixed, 2, "line 3"), (broken, 3, "line 4")):
        result = runner.invoke(
            main, ["analyze", str(path), "--iterations", "2", "--json", "-o", str(tmp_path / "a")]
        )
        assert result.exit_code == 1, result.output
        assert where in result.output
        analyzed = (tmp_path / "a").read_text().splitlines()
        assert [json.loads(a)["game"] for a in analyzed] == list(range(1, kept + 1))


# ----------------------------------------------------------------------------- the plan


def test_analyze_replays_each_game_once(games: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The plan replays each game once to list its decisions, and values them with no second
    # replay (analyze replayed each game twice: once to count its decisions for the bar).
    replayed: list[int] = []
    real = log.replay

    def counted(game: Any) -> Any:
        replayed.append(game["seed"])
        return real(game)

    monkeypatch.setattr("kow.runs.analysis.replay", counted)
    code, out, err = run("analyze", str(games), "--iterations", "2", "--json", "--jobs", "1")
    assert code == 0, err
    seeds = [game["seed"] for game in lines_of(games.read_text(encoding="utf-8"))]
    assert [d["seed"] for d in lines_of(out)] == seeds
    assert replayed == seeds  # once per game, in order


def test_the_plan_counts_the_decisions_it_will_value(games: Path) -> None:
    from kow.log import read_logs
    from kow.runs.analysis_plan import AnalysedGame, plan_analysis, run_plan

    plan = plan_analysis(read_logs([str(games)]), seat="1")
    assert plan.fault is None and len(plan.games) == 2
    assert all(p.seats == frozenset({1}) for p in plan.games)
    steps = list(run_plan(plan, seed=0, iterations=2, jobs=1))
    done = [s for s in steps if isinstance(s, AnalysedGame)]
    assert len(steps) - len(done) == plan.decisions == sum(len(p.decisions) for p in plan.games)
    assert [len(d.analysis.decisions) for d in done] == [len(p.decisions) for p in plan.games]
    assert all(d.seat == 1 for g in done for d in g.analysis.decisions)


def test_a_plan_names_its_fault_and_keeps_the_games_before_it(tmp_path: Path, games: Path) -> None:
    from kow.log import read_logs
    from kow.runs.analysis_plan import PlanError, plan_analysis

    first = games.read_text(encoding="utf-8").splitlines()[0]
    path = tmp_path / "g.jsonl"
    path.write_text(first + '\n{"format": "kow-log"}\n', encoding="utf-8")
    plan = plan_analysis(read_logs([str(path)]))
    assert len(plan.games) == 1 and isinstance(plan.fault, PlanError)
    assert plan.fault.option is None
    assert str(plan.fault).startswith(f"{path}: game 2")
    assert str(plan.fault).endswith("; a game that is not legal can't be analyzed")
    plan = plan_analysis(read_logs([str(path)]), game=3)
    assert not plan.games and isinstance(plan.fault, PlanError)
    assert (plan.fault.option, str(plan.fault)) == (
        "--game",
        f"{path} holds 2 games, so there is no game 3",
    )
    plan = plan_analysis(read_logs([str(path)]), game=1, seat="nobody")
    assert not plan.games and isinstance(plan.fault, PlanError) and plan.fault.option == "--seat"
