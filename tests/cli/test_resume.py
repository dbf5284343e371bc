"""``kow play --resume FILE``: an abandoned game continued from its log.

A game left part-way (``quit``) and resumed must write the same log, byte for byte, as the
game played in one go with the same entries; that log verifies, against its seed too.
Logs that can't be resumed are refused with the reason: exit 2 for a file that is not
one abandoned game of ``kow play`` or an option that is not the game's, exit 1 for a log
that can't be read, is not legal, or is not the game its seed gives.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_play import UTF8, script

from kow import log
from kow.cli import main
from kow.rules import Rules


def run(*args: str, entries: list[str]) -> tuple[int, str, str]:
    result = CliRunner(env=UTF8).invoke(main, list(args), input="\n".join(entries) + "\n")
    return result.exit_code, result.stdout, result.stderr


def left_at(path: Path, *, rules_args: list[str], seed: int, entries: list[str], at: int) -> None:
    """Play the game of ``seed`` with the first ``at`` entries, then quit, saving to ``path``."""
    code, out, err = run(
        "play", "--seed", str(seed), *rules_args, "--log", str(path),
        entries=[*entries[:at], "quit"],
    )  # fmt: skip
    assert code == 1, err
    assert json.loads(path.read_bytes() if path.suffix != ".gz" else gzip.decompress(
        path.read_bytes()))["abandoned"] is True  # fmt: skip


CASES = [
    (Rules(players=4), [], 11, "heuristic"),
    (Rules(players=3, dogs_life="once-per-game"), ["--players", "3", "--dogs-life",
     "once-per-game", "--bots", "random"], 5, "random"),
    (Rules(players=5), ["--players", "5", "--bots", "heuristic,random,search,heuristic",
     "--search-iterations", "4"], 3, "heuristic,random,search,heuristic"),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "args", "seed", "bots"), CASES)
def test_a_resumed_game_is_the_game_played_in_one_go(
    rules: Rules, args: list[str], seed: int, bots: str, tmp_path: Path
) -> None:
    entries, expected = script(rules, seed, humans=1, bots=bots)
    if "--search-iterations" in args:  # the script's search bot plays at its default
        entries, expected = _script_with_iterations(rules, seed, bots, iterations=4)
    whole = tmp_path / "whole.jsonl"
    code, out, err = run("play", "--seed", str(seed), *args, "--log", str(whole), entries=entries)
    assert code == 0, err
    assert json.loads(whole.read_text()) == expected
    for at in (1, len(entries) // 2, len(entries) - 1):
        part = tmp_path / f"part{at}.jsonl"
        left_at(part, rules_args=args, seed=seed, entries=entries, at=at)
        extra = ["--search-iterations", "4"] if "--search-iterations" in args else []
        code, out, err = run("play", "--resume", str(part), *extra, entries=entries[at:])
        assert code == 0, err
        assert "Resuming the game left in" in out
        assert part.read_bytes() == whole.read_bytes(), f"left after {at} entries"
        code, out, err = run("verify", "--against-seed", *extra, str(part), entries=[])
        assert code == 0, out + err
        assert "each the game its seed gives" in err


def _script_with_iterations(
    rules: Rules, seed: int, bots: str, *, iterations: int
) -> tuple[list[str], dict[str, Any]]:
    """The script of :func:`test_play.script` with search bots at ``iterations`` deals."""
    from test_play import FirstLegal

    from kow.events import BOT_NAMES
    from kow.game import bots_rng, play_game
    from kow.players import make_bot

    entries: list[str] = []
    players: list[Any] = [FirstLegal("You", entries, [])]
    rng = bots_rng(seed)
    kinds = bots.split(",")
    players += [
        make_bot(kinds[i], BOT_NAMES[i], rng, search_iterations=iterations)
        for i in range(rules.players - 1)
    ]
    state = play_game(rules, players, seed)
    return entries, log.build(seed, rules, players, events=state.events)  # type: ignore[return-value]


def test_a_game_left_twice_and_written_to_another_log(tmp_path: Path) -> None:
    rules = Rules(players=4)
    entries, expected = script(rules, 21, humans=1)
    first = tmp_path / "first.jsonl.gz"
    left_at(first, rules_args=[], seed=21, entries=entries, at=3)
    kept = first.read_bytes()
    second = tmp_path / "second.jsonl"
    code, out, err = run(
        "play", "--resume", str(first), "--log", str(second), entries=[*entries[3:9], "quit"]
    )
    assert code == 1, err
    assert first.read_bytes() == kept, "--log names another file: FILE is left as it was"
    code, out, err = run("play", "--resume", str(second), entries=entries[9:])
    assert code == 0, err
    assert json.loads(second.read_text()) == expected


def test_the_current_round_so_far_is_told_on_resuming(tmp_path: Path) -> None:
    rules = Rules(players=4)
    entries, expected = script(rules, 11, humans=1)
    path = tmp_path / "g.jsonl"
    at = len(expected["rounds"][0]["tricks"]) + 2  # into round 2
    left_at(path, rules_args=[], seed=11, entries=entries, at=at)
    code, out, err = run("play", "--resume", str(path), entries=["quit"])
    assert code == 1
    start = out.index("Resuming the game left in")
    told = out[start:]
    assert "=== Round 2: 6 cards each ===" in told
    assert "=== Round 1" not in told, "only the current round is told again"


def abandoned(tmp_path: Path, seed: int = 11, at: int = 4) -> tuple[Path, dict[str, Any]]:
    entries, _ = script(Rules(players=4), seed, humans=1)
    path = tmp_path / "g.jsonl"
    left_at(path, rules_args=[], seed=seed, entries=entries, at=at)
    return path, json.loads(path.read_text())


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [("--seed", "12", "12 is not the game's"), ("--bots", "random", "random is not the game's"),
     ("--players", "5", "5 is not the game's"), ("--level", "hard", "hard is not the game's"),
     ("--preset", "traditional", "traditional is not the game's"),
     ("--name", "Zed", "'Zed' is not the game's"), ("--humans", "2", "2 is not the game's"),
     ("--dealer", "3", None)],
)  # fmt: skip
def test_options_that_differ_from_the_game_are_usage_errors(
    option: str, value: str, said: str | None, tmp_path: Path
) -> None:
    path, game = abandoned(tmp_path)
    if option == "--dealer":
        value = str((game["rounds"][0]["dealer"] + 1) % 4)
        said = f"{value} is not the game's"
    kept = path.read_bytes()
    code, out, err = run("play", "--resume", str(path), option, value, entries=["quit"])
    assert code == 2, err
    assert option in err and said in " ".join(err.split()), err  # type: ignore[operator]
    assert path.read_bytes() == kept


def test_options_equal_to_the_games_are_taken(tmp_path: Path) -> None:
    path, game = abandoned(tmp_path)
    code, out, err = run(
        "play", "--resume", str(path), "--seed", "11", "--bots", "heuristic", "--players", "4",
        "--name", "You", entries=["quit"],
    )  # fmt: skip
    assert code == 1, err  # quit again
    assert "Game abandoned (you quit)" in err


def _write(path: Path, games: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(g) + "\n" for g in games))


def test_logs_that_cant_be_resumed_are_refused_with_the_reason(tmp_path: Path) -> None:
    path, game = abandoned(tmp_path)
    cases: list[tuple[str, Any, int, str]] = []
    finished = CliRunner().invoke(main, ["simulate", "--seed", "3"]).stdout
    cases.append(("finished", json.loads(finished), 2, "holds a finished game, won by"))
    cases.append(("last", [game, json.loads(finished)], 2, "holds a finished game last (game 2)"))
    cases.append(("none", [], 1, "holds no game"))
    illegal = json.loads(json.dumps(game))
    illegal["rounds"][0]["tricks"][0]["plays"][0]["card"] = "Zz"
    cases.append(("illegal", illegal, 1, "not a legal game"))
    other_seed = json.loads(json.dumps(game))
    other_seed["seed"] = 12
    cases.append(("seed", other_seed, 1, "not the game its seed gives"))
    bots_only = json.loads(json.dumps(game))
    bots_only["players"][0]["kind"] = "random"
    cases.append(("bots", bots_only, 2, "is not a game of kow play"))
    no_seed = json.loads(json.dumps(game))
    no_seed["seed"] = None
    cases.append(("noseed", no_seed, 2, "no seed"))
    for name, value, code_wanted, said in cases:
        target = tmp_path / f"{name}.jsonl"
        if isinstance(value, list):
            _write(target, value)
        else:
            _write(target, [value])
        code, out, err = run("play", "--resume", str(target), entries=["quit"])
        assert code == code_wanted, (name, err)
        assert said in " ".join(err.split()), (name, err)
        assert "Traceback" not in err
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"seed": 1,\n')
    code, out, err = run("play", "--resume", str(broken), entries=[])
    assert code == 1 and "broken.jsonl" in err and "line" in err, err
    code, out, err = run("play", "--resume", str(tmp_path / "missing.jsonl"), entries=[])
    assert code == 2 and "cannot open" in err, err
    code, out, err = run("play", "--resume", "-", entries=[])
    assert code == 2 and "stdin is the keyboard" in err, err


def test_a_log_edited_so_a_bot_chose_otherwise_is_not_the_game_of_its_seed(
    tmp_path: Path,
) -> None:
    """A bot's last card swapped for another legal one: legal, but not the seed's game."""
    from kow.verify import verify_game

    for at in range(2, 12):
        path, game = abandoned(tmp_path, at=at)
        rnd = game["rounds"][-1]
        trick = rnd["tricks"][-1] if rnd["tricks"] else None
        if trick is None or trick["winner"] is not None or not trick["plays"]:
            continue
        play = trick["plays"][-1]
        played = {p["card"] for t in rnd["tricks"] for p in t["plays"] if "card" in p}
        others = [
            c for c in rnd["hands"][play["seat"]]
            if c[1] == play["card"][1] and c not in played
        ]  # fmt: skip
        if play["seat"] == 0 or not others:
            continue
        play["card"] = others[0]
        if verify_game(game) is not None:
            continue
        _write(path, [game])
        code, out, err = run("play", "--resume", str(path), entries=["quit"])
        assert code == 1, err
        said = " ".join(err.split())
        assert "not the game its seed gives" in said and f"play is {others[0]}" in said, err
        return
    raise AssertionError("no legal edit found: choose another seed")


def test_a_hot_seat_game_resumed_asks_for_the_keyboard_first(tmp_path: Path) -> None:
    rules = Rules(players=4)
    entries, expected = script(rules, 8, humans=2, bots="random")
    args = ["--humans", "2", "--bots", "random"]
    whole = tmp_path / "whole.jsonl"
    code, _, err = run("play", "--seed", "8", *args, "--log", str(whole), entries=entries)
    assert code == 0, err
    at = next(i for i in range(len(entries) // 2, len(entries)) if entries[i])  # a card
    part = tmp_path / "part.jsonl"
    left_at(part, rules_args=args, seed=8, entries=entries, at=at)
    code, out, err = run("play", "--resume", str(part), entries=["", *entries[at:]])
    assert code == 0, err
    after = out[out.index("Resuming the game left in") :]
    assert after.index("Pass the keyboard to") < after.index("your hand")  # no hand shown first
    assert part.read_bytes() == whole.read_bytes()
    assert json.loads(part.read_text()) == expected


def test_quit_and_resume_in_a_terminal(tmp_path: Path) -> None:
    """On a terminal (pexpect): left in round 2 with quit, resumed, finished; the log is
    the one-go game's."""
    import io
    import os
    import sys

    pexpect = pytest.importorskip("pexpect")
    if sys.platform == "win32":  # pragma: no cover
        pytest.skip("pexpect needs a POSIX terminal")
    rules = Rules(players=4)
    entries, expected = script(rules, 11, humans=1)
    at = len(expected["rounds"][0]["tricks"]) + 2  # trick 3 of round 2
    path = tmp_path / "g.jsonl"
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(LC_ALL="C.UTF-8", TERM="xterm")

    def session(*args: str, typed: list[str], last: str) -> tuple[int, str]:
        out = io.StringIO()
        command = ["-m", "kow", "play", "--delay", "0", *args]
        child = pexpect.spawn(
            sys.executable, command, env=env, encoding="utf-8", timeout=30, dimensions=(24, 80)
        )
        child.logfile_read = out
        for entry in typed:
            child.expect("Your card: ")
            child.sendline(entry)
        child.expect(last)
        if last != "Your card: ":
            child.sendline("n")
        else:
            child.sendline("quit")
        child.expect(pexpect.EOF)
        child.close()
        return child.exitstatus, out.getvalue()

    code, out = session("--seed", "11", "--log", str(path), typed=entries[:at], last="Your card: ")
    assert code == 1
    assert json.loads(path.read_text())["abandoned"] is True
    code, out = session("--resume", str(path), typed=entries[at:], last=r"\[y/n\] ")
    assert code == 0
    shown = " ".join(out.split())  # the lines are wrapped to the terminal's width
    assert "Resuming the game left in" in shown and ", at round 2, trick 3." in shown
    assert "=== Round 2: 6 cards each ===" in shown
    assert json.loads(path.read_text()) == expected


def test_search_bots_need_the_search_iterations_they_played_with(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    args = ["--players", "5", "--bots", "heuristic,random,search,heuristic"]
    code, _, err = run(
        "play", "--seed", "3", *args, "--search-iterations", "4", "--log", str(path),
        entries=[*["1"] * 30, "quit"],
    )  # fmt: skip
    assert code == 1, err
    # Issue 33, 7: the log records the search bot's 4 deals, so it resumes without them.
    code, _, err = run("play", "--resume", str(path), entries=["quit"])
    assert code == 1 and "Game abandoned (you quit)" in err, err
    code, _, err = run("play", "--resume", str(path), "--search-iterations", "5", entries=["quit"])
    assert code == 2 and "5 is not the game's" in " ".join(err.split()), err
    # A log that does not record them (written before kow did) needs them given.
    game = json.loads(path.read_text())
    del game["players"][3]["settings"]
    _write(path, [game])
    code, _, err = run("play", "--resume", str(path), entries=["quit"])
    said = " ".join(err.split())
    assert code == 1 and "not the game its seed gives" in said, err
    assert "seat 3's play is" in said and "give --search-deals" in said
    code, _, err = run("play", "--resume", str(path), "--search-iterations", "4", entries=["quit"])
    assert code == 1 and "Game abandoned (you quit)" in err, err


def test_a_sittings_log_is_resumed_at_its_end_and_its_games_kept(tmp_path: Path) -> None:
    # Issue 33, 6: --resume refused the log of a sitting of several games (a finished game,
    # then an abandoned one), and --log replaced the games an earlier sitting had saved.
    rules, seed, first_seed = Rules(players=4), 11, 3
    first, first_log = script(rules, first_seed, humans=1)
    sitting = tmp_path / "sitting.jsonl"
    code, _, err = run("play", "--seed", str(first_seed), "--log", str(sitting),
                       entries=[*first, "n"])  # fmt: skip
    assert code == 0, err
    assert [json.loads(line) for line in sitting.read_text().splitlines()] == [first_log]
    entries, expected = script(rules, seed, humans=1)
    at = len(entries) // 2
    code, out, err = run("play", "--seed", str(seed), "--log", str(sitting),
                         entries=[*entries[:at], "quit"])  # fmt: skip
    assert code == 1, err
    held = [json.loads(line) for line in sitting.read_text().splitlines()]
    assert held[0] == first_log and held[1]["abandoned"] is True  # the first game is kept
    code, out, err = run("play", "--resume", str(sitting), entries=[*entries[at:], "n"])
    assert code == 0, err
    assert "Resuming the game left in" in out
    assert [json.loads(line) for line in sitting.read_text().splitlines()] == [
        first_log, expected]  # fmt: skip
    assert run("verify", "--against-seed", str(sitting), entries=[])[0] == 0


def test_a_log_given_to_play_keeps_what_its_file_held(tmp_path: Path) -> None:
    rules, seed = Rules(players=4), 11
    entries, expected = script(rules, seed, humans=1)
    path = tmp_path / "games.jsonl"
    path.write_text('{"earlier": "game"}')  # no final newline: one is added
    code, out, err = run("play", "--seed", str(seed), "--log", str(path), entries=[*entries, "n"])
    assert code == 0, err
    assert f"Log saved to {path}, after the games it held." in " ".join(out.split())
    lines = path.read_text().splitlines()
    assert lines[0] == '{"earlier": "game"}' and [json.loads(x) for x in lines[1:]] == [expected]


def test_play_refuses_a_log_whose_content_no_reader_would_find_the_games_after(
    tmp_path: Path,
) -> None:
    # Issue 33's trial: a game added after a line that is not JSON (or after a crash's NULs)
    # could be read back by nothing, though play said it was saved.
    for content in (b"{bad json\n", b'{"a": 1}\n\x00\x00\x00\x00'):
        path = tmp_path / "games.jsonl"
        path.write_bytes(content)
        code, _, err = run("play", "--seed", "3", "--log", str(path), entries=["quit"])
        assert code == 1, err
        assert "line " in err and "give another --log" in err, err
        assert path.read_bytes() == content  # untouched
