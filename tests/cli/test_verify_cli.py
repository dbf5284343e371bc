"""``kow verify`` and ``kow replay`` on files: verdicts, places, exit codes, hostile input."""

from __future__ import annotations

import io
import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import agent_log

from kow.cli import main
from kow.log import LoggedPlayer, LogReadError, iter_games, replay, rules_from_log


def invoke(*args: str, input: bytes | str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def games_text() -> str:
    code, out, _ = invoke("simulate", "--seed", "9", "--games", "6", "--dogs-life", "once-per-game")
    assert code == 0
    return out


@pytest.fixture()
def games(games_text: str) -> list[Any]:
    return [json.loads(line) for line in games_text.splitlines()]


def write(path: Path, games: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(g) + "\n" for g in games))
    return str(path)


def test_legal_file_exits_0_with_a_summary(tmp_path: Path, games: list[dict[str, Any]]) -> None:
    code, out, err = invoke("verify", write(tmp_path / "g.jsonl", games))
    assert code == 0 and err == ""
    assert out == "6 games in 1 file: 6 legal, 0 faulty\n"


def test_faulty_game_is_named_with_its_place(tmp_path: Path, games: list[dict[str, Any]]) -> None:
    trick = games[3]["rounds"][0]["tricks"][1]
    right = trick["winner"]
    trick["winner"] = (right + 1) % 4
    path = write(tmp_path / "g.jsonl", games)
    code, out, _ = invoke("verify", path)
    assert code == 1
    first, summary = out.splitlines()
    assert first.startswith(f"{path}: game 4 (seed {games[3]['seed']}): round 1, trick 2: ")
    assert f"trick winner is seat {(right + 1) % 4} but seat {right}" in first
    assert summary == "6 games in 1 file: 5 legal, 1 faulty"


def test_json_verdict(tmp_path: Path, games: list[dict[str, Any]]) -> None:
    games[1]["rounds"][0]["dealer"] = (games[1]["rounds"][0]["dealer"] + 1) % 4
    code, out, _ = invoke("verify", "--json", write(tmp_path / "g.jsonl", games))
    assert code == 1
    verdict = json.loads(out)
    assert verdict["games"] == 6 and verdict["legal"] == 5 and verdict["faulty"] == 1
    fault = verdict["faults"][0]
    assert fault["game"] == 2 and fault["line"] == 2 and fault["round"] == 1
    assert fault["seed"] == games[1]["seed"]
    assert "dealer" in fault["message"]


def test_stdin_concatenated_and_pretty_objects(games_text: str) -> None:
    lines = games_text.splitlines()
    pretty = json.dumps(json.loads(lines[0]), indent=2)
    code, out, _ = invoke("verify", "-", input=pretty + lines[1] + lines[2] + "\n" + pretty)
    assert code == 0
    assert out == "4 games in 1 file: 4 legal, 0 faulty\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"format": "kow-log", "rounds": [', "line 1, column"),
        (
            b'{"players": [{"name": "h\\ud800"}]}',
            "line 1, column 25: not JSON: a lone surrogate escape (\\ud800) is not a character",
        ),
        (bytes(range(256)), "line 1, column 1: not JSON: a NUL byte (0x00)"),  # before 0x80
        (b'{"a": "\xff"}', "not UTF-8 text"),
        (b"[" * 50000, "line 1, column 514: not readable: this array opens level 513"),
        (b"not json at all", "not JSON"),
    ],
)
def test_unreadable_input_exits_1_with_the_place(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, out, err = invoke("verify", str(path))
    assert code == 1
    assert f"{path}: " in err and message in err
    assert "Traceback" not in err and "Traceback" not in out


def test_truncated_file_reports_the_games_before_and_the_place(
    tmp_path: Path, games_text: str
) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_text(games_text[: len(games_text) // 2])
    code, out, err = invoke("verify", str(path))
    assert code == 1
    assert "legal" in out and "unreadable" in out
    assert "not JSON" in err and "line " in err


def test_wrong_types_and_unknown_cards_are_faults_not_crashes(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    game = games[0]
    cases = [
        ("1h", lambda g, v: g["rounds"][0]["hands"][0].__setitem__(0, v), "not a card"),
        ("11h", lambda g, v: g["rounds"][0]["hands"][0].__setitem__(0, v), "not a card"),
        (99, lambda g, v: g["rounds"][0].__setitem__("dealer", v), "99"),
        (10**30, lambda g, v: g.__setitem__("seed", v), "seed"),
        ("x", lambda g, v: g["rules"].__setitem__("players", v), "rules.players"),
        (None, lambda g, v: g.__setitem__("rounds", v), "rounds"),
    ]
    for value, plant, phrase in cases:
        broken = json.loads(json.dumps(game))
        plant(broken, value)  # type: ignore[no-untyped-call]
        code, out, err = invoke("verify", write(tmp_path / "g.json", [broken]))
        assert code == 1, (value, out, err)
        assert phrase in out, (value, out)


def test_missing_file_exits_2(tmp_path: Path) -> None:
    code, _, err = invoke("verify", str(tmp_path / "nope.json"))
    assert code == 2 and "cannot open" in err


@pytest.mark.parametrize("files", [["-", "-"], ["-", "FILE", "-"], ["FILE", "-", "-", "-"]])
def test_stdin_given_twice_is_a_usage_error(
    tmp_path: Path, games: list[dict[str, Any]], games_text: str, files: list[str]
) -> None:
    path = write(tmp_path / "g.jsonl", games)
    args = [path if f == "FILE" else f for f in files]
    code, out, err = invoke("verify", *args, input=games_text)
    assert code == 2
    assert f"'-' (stdin) is given {files.count('-')} times; it may be given once" in err
    assert "'FILE...'" in err
    assert out == "" and "Traceback" not in err  # refused before any file was read


def test_replay_reads_stdin_once(games_text: str) -> None:
    code, out, _ = invoke("replay", "-", "--game", "2", "--ascii", input=games_text)
    assert code == 0 and "Game 2 of stdin" in out
    code, _, err = invoke("replay", "-", "-", input=games_text)
    assert code == 2 and "Got unexpected extra argument (-)" in err


def test_bad_later_value_on_a_line_is_placed_from_the_start_of_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b'{"a": 1}   {"bb": 2, "c": tru}')
    code, _, err = invoke("verify", str(path))
    assert code == 1
    assert f"{path}: line 1, column 27: not JSON: Expecting value" in err.splitlines()
    code, out, _ = invoke("verify", "--json", "-", input='[1]\n{"a": 1}   {"bb": "x\tb"}')
    assert code == 1
    assert json.loads(out)["unreadable"] == [
        {"file": "stdin", "message": "line 2, column 21: not JSON: Invalid control character"}
    ]


def test_big_json_array_is_read_game_by_game(tmp_path: Path, games_text: str) -> None:
    # An array of games, 40 times the 6 games (the user's trial: an array of games, 29 MB,
    # took 413 s): each element is a game, read in turn.
    array = "[" + ",".join(games_text.splitlines() * 40) + "]"
    assert len(array) > 20 * 65536
    path = tmp_path / "array.json"
    path.write_text(array)
    code, out, err = invoke("verify", str(path))
    assert (code, out) == (0, "240 games in 1 file: 240 legal, 0 faulty\n")
    assert err == (
        f"{path}: game 7 (line 1) repeats game 1 whole\n"
        f"{path}: 234 games in all repeat an earlier game whole\n"
    )


def test_reading_is_streamed_in_flat_memory() -> None:
    class Endless:
        """20 MB of small JSON values, made as they are read."""

        line = b'{"format": "kow-log", "padding": "' + b"x" * 60 + b'"}\n'

        def __init__(self) -> None:
            self.left = 20_000_000 // len(self.line)

        def read(self, size: int) -> bytes:
            n = min(self.left, max(1, size // len(self.line)))
            self.left -= n
            return self.line * n

    tracemalloc.start()
    count = sum(1 for _ in iter_games(Endless()))  # type: ignore[arg-type, misc]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert count > 200_000
    assert peak < 2_000_000, f"peak {peak} bytes"


def test_iter_games_gives_lines() -> None:
    stream = io.BytesIO(b'{"a": 1}\n\n  {"b":\n 2}{"c": 3}\n7\n')
    assert list(iter_games(stream)) == [(1, {"a": 1}), (3, {"b": 2}), (4, {"c": 3}), (5, 7)]
    with pytest.raises(LogReadError, match="line 2"):
        list(iter_games(io.BytesIO(b'{"a": 1}\n{"b": }')))


def test_a_replayed_log_rebuilds_the_log(games: list[dict[str, Any]]) -> None:
    from kow import log

    for game in games:
        players = [LoggedPlayer.from_log(p) for p in game["players"]]
        *_, state = replay(game)  # type: ignore[arg-type]
        rules = rules_from_log(game["rules"])
        rebuilt = log.build(game["seed"], rules, players, events=state.events)
        assert rebuilt == game


def test_replay_tells_the_game(tmp_path: Path, games: list[dict[str, Any]]) -> None:
    path = write(tmp_path / "g.jsonl", games)
    code, out, _ = invoke("replay", path, "--game", "2", "--ascii")
    assert code == 0
    game = games[1]
    assert f"seed {game['seed']}" in out
    assert out.count("=== Round ") == len(game["rounds"])
    # simulate's bots (heuristic-0 ...) are shown by the names they have at play's table
    assert [p["name"] for p in game["players"]] == [f"heuristic-{s}" for s in range(4)]
    names = ["Ada", "Ben", "Cleo", "Dev"]
    seats = ", ".join(f"{s} {n} (heuristic)" for s, n in enumerate(names))
    assert out.splitlines()[1] == f"Seats, clockwise: {seats}"
    assert "heuristic-" not in out
    first_play = game["rounds"][0]["tricks"][0]["plays"][0]
    card = first_play["card"].replace("T", "10")
    assert f"  {names[first_play['seat']]} plays {card}" in out
    assert f"*** {names[game['result']['winner']]} wins the game" in out
    code, out, _ = invoke("replay", path, "--game", "2", "--round", "2", "--ascii")
    assert code == 0 and "=== Round 2:" in out and "=== Round 1:" not in out


def test_replay_names_only_simulates_bots(tmp_path: Path, games: list[dict[str, Any]]) -> None:
    # A play log's names are kept; a bot under simulate's name takes a name nobody holds.
    game = games[0]
    game["players"][0].update(name="Ada", kind="human")
    game["players"][2]["name"] = "Ben"
    code, out, _ = invoke("replay", write(tmp_path / "g.json", [game]), "--ascii")
    assert code == 0
    assert out.splitlines()[1] == (
        "Seats, clockwise: 0 Ada (human), 1 Cleo (heuristic), 2 Ben (heuristic), 3 Dev (heuristic)"
    )


def test_a_game_with_a_null_seed_and_an_agent_verifies_and_replays(tmp_path: Path) -> None:
    # As a framework adapter logs a game: the deals came from outside kow.
    game = agent_log(None)
    path = write(tmp_path / "os.json", [game])
    assert invoke("verify", path) == (0, "1 game in 1 file: 1 legal, 0 faulty\n", "")
    code, out, err = invoke("verify", "--json", path)
    assert (code, err) == (0, "")
    assert json.loads(out) == {"games": 1, "legal": 1, "faulty": 0, "unreadable": [], "faults": []}
    code, out, err = invoke("replay", path, "--ascii")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"Game 1 of {path}, no seed (dealt outside kow)"
    # The agent keeps its name; the bots under simulate's names take table names.
    assert lines[1] == "Seats, clockwise: 0 ppo (agent), 1 Ada (heuristic), 2 Ben (heuristic)"
    assert out.count("=== Round ") == len(game["rounds"])
    winner = ["ppo", "Ada", "Ben"][game["result"]["winner"]]
    assert f"*** {winner} wins the game" in out
    # A faulty game with a null seed is placed without one.
    game["rounds"][0]["dealer"] = (game["rounds"][0]["dealer"] + 1) % 3
    code, out, _ = invoke("verify", write(tmp_path / "bad.json", [game]))
    assert code == 1 and out.startswith(f"{tmp_path / 'bad.json'}: game 1: round 1: ")


def test_replay_errors(tmp_path: Path, games: list[dict[str, Any]]) -> None:
    path = write(tmp_path / "g.jsonl", games)
    code, _, err = invoke("replay", path, "--game", "7")
    assert code == 2 and "holds 6 games, so there is no game 7" in err
    code, _, err = invoke("replay", path, "--round", "9")
    assert code == 2 and "so there is no round 9" in err
    games[0]["rounds"][0]["tricks"][0]["winner"] = 9
    code, _, err = invoke("replay", write(tmp_path / "bad.jsonl", games))
    assert code == 1 and f"game 1 (seed {games[0]['seed']}) is not a legal game" in err


@pytest.mark.parametrize(
    ("content", "game", "message"),
    [
        (b"null", "1", "game 1 is not a legal game, so it can't be replayed: the log is not"),
        (b"null {}", "2", "game 2 is not a legal game"),
        (b"", "1", "x.json: holds no game, so there is none to replay"),
        (b"  \n", "1", "x.json: holds no game, so there is none to replay"),
        (b"[]", "1", "x.json: holds no game, so there is none to replay"),
        (b'["h\\ud800"]', "1", "x.json: line 1, column 4: not JSON: a lone surrogate escape"),
        (b'{"a": 1', "1", "not JSON"),
    ],
)
def test_replay_of_unreadable_data_exits_1(
    tmp_path: Path, content: bytes, game: str, message: str
) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(content)
    code, out, err = invoke("replay", str(path), "--game", game, "--ascii")
    assert (code, out) == (1, "")
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("content", [b"", b" \n\t\n", b"[]", b"[\n]\n"])
def test_empty_input_holds_0_games_and_exits_0(tmp_path: Path, content: bytes) -> None:
    # jq reads these as no values (or one empty array): no game, but nothing wrong.
    path = tmp_path / "empty.jsonl"
    path.write_bytes(content)
    code, out, err = invoke("verify", str(path))
    # ... but said on stderr (issue 20, kind 10).
    assert (code, out, err) == (0, "0 games in 1 file: 0 legal, 0 faulty\n", f"{path}: no games\n")
    code, out, err = invoke("verify", "--json", "-", input=content)
    assert (code, err) == (0, "stdin: no games\n")
    assert json.loads(out) == {"games": 0, "legal": 0, "faulty": 0, "unreadable": [], "faults": []}


def test_an_empty_file_among_others_adds_no_game(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    (tmp_path / "empty.jsonl").write_bytes(b"")
    code, out, err = invoke(
        "verify", write(tmp_path / "g.jsonl", games[:2]), str(tmp_path / "empty.jsonl")
    )
    empty = tmp_path / "empty.jsonl"
    assert (code, out, err) == (
        0,
        "2 games in 2 files: 2 legal, 0 faulty\n",
        f"{empty}: no games\n",
    )


def test_a_lone_surrogate_escape_is_unreadable_input(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    # jq 1.6 refuses it; Python's json would read a str that can't be written as UTF-8.
    text = json.dumps(games[0]).replace('"heuristic-1"', '"h\\ud800"', 1)
    assert '"h\\ud800"' in text
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(games[1]) + "\n" + text + "\n")
    column = text.index("\\ud800") + 1
    message = (
        f"{path}: line 2, column {column}: not JSON: "
        "a lone surrogate escape (\\ud800) is not a character"
    )
    code, out, err = invoke("verify", str(path))
    assert (code, out, err) == (
        1,
        "1 game in 1 file: 1 legal, 0 faulty, 1 unreadable input\n",
        message + "\n",
    )
    code, out, err = invoke("replay", str(path), "--game", "2", "--ascii")
    assert (code, out, err) == (1, "", f"Error: {message}\n")


def test_a_surrogate_pair_escape_is_a_character(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    text = json.dumps(games[0]).replace('"heuristic-1"', '"h\\ud83d\\ude00"', 1)
    path = tmp_path / "g.jsonl"
    path.write_text(text + "\n")
    assert invoke("verify", str(path))[:2] == (0, "1 game in 1 file: 1 legal, 0 faulty\n")
    code, out, _ = invoke("replay", str(path))
    assert code == 0 and "h\U0001f600" in out


def test_a_name_with_a_control_character_is_a_fault(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    games[0]["players"][1].update(name="x\x1b]0;pwned\x07", kind="human")
    path = write(tmp_path / "g.jsonl", games[:1])
    code, out, _ = invoke("verify", str(path))
    assert code == 1
    assert out.splitlines()[0] == (
        f"{path}: game 1 (seed {games[0]['seed']}): players[1].name: "
        "'x\\x1b]0;pwned\\x07' has a control character (U+001B); names are printable text"
    )
    code, out, err = invoke("replay", str(path))
    assert (code, out) == (1, "") and "players[1].name" in err and "\x1b" not in err


def test_replay_shows_names_escaped() -> None:
    from kow.runs.names import table_names

    players = [
        {"seat": 0, "name": "a\x1b]0;pwned\x07", "kind": "human"},
        {"seat": 1, "name": "Zoë\n", "kind": "human"},
        {"seat": 2, "name": "random-2", "kind": "random"},
    ]
    assert table_names(players) == ["a\\x1b]0;pwned\\x07", "Zoë\\n", "Ada"]  # type: ignore[arg-type]


def test_a_log_in_an_array_in_an_array_is_named_an_array(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps([[games[0]]]))
    code, out, _ = invoke("verify", str(path))
    assert code == 1
    assert out.splitlines()[0] == f"{path}: game 1: the log is not a JSON object: got an array"


# -------------------------------------------- issue 20: faults of one game, repeated keys, memory


def test_a_game_too_deep_or_too_long_is_placed_and_the_games_after_it_are_checked(
    tmp_path: Path, games_text: str
) -> None:
    # Kind 5: placed at the game's start, and the games after it were never checked.
    lines = games_text.splitlines()[:3]
    deep = lines[1].replace("{", '{"pad": ' + "[" * 600 + "]" * 600 + ", ", 1)
    long = lines[1].replace('"seed":', '"seed": ' + "9" * 5000 + ', "old":', 1)
    for bad, column, why in [
        (deep, len('{"pad": ') + 512, "not readable: this array opens level 513"),
        (long, lines[1].index('"seed":') + 9, "not readable: an integer of 5000 digits"),
    ]:
        path = tmp_path / "g.jsonl"
        path.write_text("\n".join([lines[0], bad, lines[2]]) + "\n")
        code, out, err = invoke("verify", str(path))
        assert (code, err) == (1, "")
        first, summary = out.splitlines()
        assert first.startswith(f"{path}: game 2: line 2, column {column}: {why}")
        assert summary == "3 games in 1 file: 2 legal, 1 faulty"
        code, out, _ = invoke("verify", "--json", str(path))
        fault = json.loads(out)["faults"][0]
        assert (fault["game"], fault["line"], fault["seed"], fault["round"]) == (2, 2, None, None)


def test_a_repeated_key_is_a_fault_for_every_command(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    # Kind 6: a game whose object repeats "winner" was "legal".
    game = games[0]
    winner = game["result"]["winner"]
    other = (winner + 1) % len(game["players"])
    text = json.dumps(game)
    at = text.index('"winner": ')
    # The wrong winner first, the right one last: jq's reading (the last) is legal.
    twice = text[:at] + f'"winner": {other}, ' + text[at:]
    path = tmp_path / "twice.jsonl"
    path.write_text(json.dumps(games[1]) + "\n" + twice + "\n")
    code, out, err = invoke("verify", str(path))
    assert (code, err) == (1, "")
    column = at + len(f'"winner": {other}, ') + 1
    fault = (
        f"{path}: game 2 (seed {game['seed']}): line 2, column {column}: ambiguous: the key"
        ' "winner" is repeated in this object (readers differ: jq takes the last one, others'
        " the first)"
    )
    assert out.splitlines() == [fault, "2 games in 1 file: 1 legal, 1 faulty"]
    # Issue 33, 8: one reading everywhere. replay, export and analyze took the last key.
    code, out, err = invoke("replay", str(path), "--game", "2")
    assert (code, out) == (1, "")
    assert err == (
        f"Error: {path}: game 2 (seed {game['seed']}) is not a legal game, so it can't be"
        f" replayed: line 2, column "
        f'{column}: ambiguous: the key "winner" is repeated in this object (readers differ:'
        " jq takes the last one, others the first)\n"
    )
    assert invoke("replay", str(path), "--game", "1")[0] == 0  # the game before is legal
    code, out, err = invoke("export", str(path), "--table", "games")
    assert code == 1 and len(out.splitlines()) == 2  # the header and game 1
    assert err == f"Error: {fault}; the export stops at a game that is not legal\n"
    code, out, err = invoke("analyze", str(path), "--game", "2", "--iterations", "2")
    assert code == 1
    assert err == f"Error: {fault}; a game that is not legal can't be analyzed\n"


def test_a_game_repeated_whole_is_said_by_every_command(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    # Issue 33, 8: a game repeated whole in a file passed verify without a word.
    path = tmp_path / "twice.jsonl"
    reordered = dict(reversed(list(games[0].items())))  # the same game, keys in another order
    path.write_text("".join(json.dumps(g) + "\n" for g in [games[0], games[1], reordered]))
    said = f"{path}: game 3 (line 3) repeats game 1 whole\n"
    assert invoke("verify", str(path)) == (0, "3 games in 1 file: 3 legal, 0 faulty\n", said)
    code, _, err = invoke("export", str(path), "--table", "games")
    assert (code, err) == (0, said)
    code, _, err = invoke("replay", str(path), "--game", "3")
    assert (code, err) == (0, said)
    code, _, err = invoke("verify", str(path), "--json")
    assert (code, err) == (0, said)
    path.write_text("".join(json.dumps(g) + "\n" for g in games[:2]))
    assert invoke("verify", str(path))[2] == ""  # different games: nothing said


def test_faulty_games_are_not_all_held(tmp_path: Path) -> None:
    # Kind 9: every faulty game's message was kept to the end (4.8 GB for 100 MB of wrong
    # objects, six times that with --json). Peak memory must not grow with their number.
    import contextlib
    import os

    def peak(count: int, *options: str) -> int:
        path = tmp_path / f"wrong-{count}.jsonl"
        path.write_text('{"format": "kow-log", "version": 1, "seed": 7}\n' * count)
        with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
            tracemalloc.start()
            with pytest.raises(SystemExit) as stop:
                main(["verify", *options, str(path)])
            _, top = tracemalloc.get_traced_memory()
            tracemalloc.stop()
        assert stop.value.code == 1
        return top

    for options in ((), ("--json",)):
        few, many = peak(1_000, *options), peak(20_000, *options)
        assert many < few + 500_000, (options, few, many)


# --------------------------------------------------------------------------- progress bar


@pytest.mark.skipif(__import__("sys").platform == "win32", reason="pexpect needs a POSIX terminal")
def test_progress_bar_on_a_terminal_clears_for_faults_and_ends_before_the_summary(
    tmp_path: Path, games_text: str, games: list[dict[str, Any]]
) -> None:
    """On a terminal, ``verify`` shows how far it read and the games checked; a fault's line
    and the summary start on lines of their own; ``--quiet`` shows no bar."""
    import os
    import re
    import sys

    pexpect = pytest.importorskip("pexpect")
    games[2]["rounds"][0]["tricks"][0]["winner"] = 9  # no such seat: game 3 is faulty
    many = tmp_path / "many.jsonl"
    many.write_text(games_text * 500 + "".join(json.dumps(g) + "\n" for g in games))
    root = Path(__file__).resolve().parents[2]

    def shown(*args: str) -> str:
        child = pexpect.spawn(sys.executable, ["-m", "kow", "verify", *args, str(many)],
                              cwd=str(root), encoding="utf-8", timeout=300,
                              dimensions=(24, 100), env=dict(os.environ))  # fmt: skip
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 1
        return str(child.before)

    text = shown()
    assert re.search(r"Verifying\s+\[[#-]+\]\s+\d+%.*\d+ games", text)  # drawn after a second
    lines = text.replace("\r\n", "\n").split("\n")
    # The cursor shown again (Click's bar, at its end) may land on a line of its own.
    lines = [line for line in lines if line.strip("\r") not in ("\x1b[?25h", "\x1b[?25l")]
    fault = f"{many}: game 3003 (seed "
    assert "Verifying" in lines[-4] and "100%" in lines[-4]  # the bar ended on its line
    assert lines[-3].lstrip("\r\x1b[K").startswith(fault)  # then the fault
    assert lines[-2] == "3006 games in 1 file: 3005 legal, 1 faulty"  # and the summary
    quiet = shown("--quiet").replace("\r\n", "\n")
    repeats = f"{many}: game 7 (line 7) repeats game 1 whole\n"  # said at once, on stderr
    assert quiet.startswith(repeats) and "Verifying" not in quiet
    assert f"\n{many}: 2999 games in all repeat an earlier game whole\n{fault}" in quiet
    assert quiet.endswith("\n3006 games in 1 file: 3005 legal, 1 faulty\n")


def test_an_interrupted_verify_says_how_many_games_it_checked(
    games_text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 33, 9: it said only "Interrupted.".
    from kow.verify import Verdict

    real_count = Verdict.count

    def count(self: Verdict, log: object, judged: Any, **kwargs: Any) -> Any:
        if self.games == 3:
            raise KeyboardInterrupt
        return real_count(self, log, judged, **kwargs)

    monkeypatch.setattr(Verdict, "count", count)
    code, out, err = invoke("verify", "-", input=games_text)
    assert (code, out) == (130, "")
    assert err == "Interrupted after checking 3 games: 3 legal, 0 faulty so far.\n"


def _mixed_inputs(tmp_path: Path, games: list[dict[str, Any]]) -> list[str]:
    """Return inputs of every kind of fault: faulty games among good ones, a repeated key,
    a repeated game, an input that stops being JSON, one with no games, one not there."""
    bad = json.loads(json.dumps(games[2]))
    bad["rounds"][0]["tricks"][0]["winner"] = (bad["rounds"][0]["tricks"][0]["winner"] + 1) % 4
    many = tmp_path / "many.jsonl"
    text = "".join(json.dumps(g) + "\n" for g in [*games, bad, *games[:3], bad, *games])
    many.write_text(text + json.dumps(games[1])[:-1] + ', "seed": 1}\n')  # a repeated key
    cut = tmp_path / "cut.jsonl"
    cut.write_text(json.dumps(games[0]) + "\n" + json.dumps(bad) + "\n{not json\n")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    return [str(many), str(cut), str(empty), str(many), str(tmp_path / "absent.jsonl")]


@pytest.mark.parametrize("json_flag", [(), ("--json",)])
def test_jobs_give_the_same_verdict_in_the_same_order(
    tmp_path: Path, games: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch,
    json_flag: tuple[str, ...],
) -> None:  # fmt: skip
    import kow.runs.blocks

    monkeypatch.setattr(kow.runs.blocks, "BLOCK", 2)  # windows of several blocks, on a few games
    inputs = _mixed_inputs(tmp_path, games)
    alone = invoke("verify", *json_flag, *inputs)
    assert alone[0] == 2  # an input not there
    assert alone[1].count("round 1, trick 1: trick winner is seat") == 5
    assert "line 3, column 2: not JSON" in alone[1] + alone[2]
    assert "empty.jsonl: no games" in alone[2]
    for jobs in ("2", "3"):
        assert invoke("verify", "--jobs", jobs, *json_flag, *inputs) == alone
    good = invoke("verify", "--jobs", "2", *json_flag, inputs[0])
    assert good[0] == 1 and good == invoke("verify", *json_flag, inputs[0])


def test_verdict_run_on_processes_checks_as_alone(
    tmp_path: Path, games: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    import kow.runs.blocks
    import kow.verify
    from kow.log import read_logs
    from kow.runs.blocks import judging
    from kow.runs.executors import Processes
    from kow.runs.provenance import seed_check

    monkeypatch.setattr(kow.runs.blocks, "BLOCK", 3)
    inputs = _mixed_inputs(tmp_path, games)[:2]

    def run(executor: Any) -> tuple[list[Any], dict[str, object]]:
        verdict = kow.verify.Verdict(against_seed=True)
        found = [
            (getattr(item, "fault", None), getattr(item, "label", None))
            for item in verdict.run(read_logs(inputs), also=seed_check(), judging=judging(executor))
        ]
        return found, verdict.to_dict()

    alone = run(None)
    assert run(Processes(2)) == alone
    assert alone[1]["games"] == 20 and alone[1]["faulty"] == 4

    class MapOnly:  # an executor with map alone (as Ray tasks): windows of blocks
        workers = 2

        def map(self, func: Any, items: Any) -> Any:
            return Processes(2).map(func, items)

    assert run(MapOnly()) == alone
    # Streamed, a legal game's record comes back without its parsed game (held as text),
    # a faulty one with it (its seed is said).
    bad = json.loads(json.dumps(games[2]))
    bad["rounds"][0]["tricks"][0]["winner"] = (bad["rounds"][0]["tricks"][0]["winner"] + 1) % 4
    compact = tmp_path / "compact.jsonl"  # as kow writes games: each keeps its text
    compact.write_text("".join(json.dumps(g, separators=(",", ":")) + "\n" for g in [*games, bad]))
    verdict = kow.verify.Verdict()
    checked = [
        item for item in verdict.run(read_logs([str(compact)]), judging=judging(Processes(2)))
        if isinstance(item, kow.verify.Checked)
    ]  # fmt: skip
    legal = [item.record for item in checked if item.fault is None]
    faulty = [item for item in checked if item.fault is not None]
    assert legal and all(r.game is None and r.text is not None for r in legal)
    assert faulty and all(isinstance(item.record.game, dict) for item in faulty)
    assert all(item.fault is not None and item.fault.seed is not None for item in faulty)


def test_jobs_and_cluster_together_are_a_usage_error(games_text: str) -> None:
    code, out, err = invoke("verify", "--jobs", "2", "--cluster", "local", "-", input=games_text)
    assert (code, out) == (2, "") and "give --jobs or --cluster, not both" in err
