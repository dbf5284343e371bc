"""The command line: exit codes, where output goes, reproducibility, files never half-written."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import python_prints

from kow import __version__
from kow.cli import main
from kow.log import rules_to_log
from kow.rules import Rules
from kow.settings import MAX_GAMES

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> tuple[int, str, str]:
    """Run ``kow`` in-process; return (exit code, stdout, stderr)."""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def kow_process(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m kow`` in a new process."""
    return subprocess.run(
        [sys.executable, "-m", "kow", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
        check=False,
    )


def test_version_and_help() -> None:
    code, out, _ = run("--version")
    assert code == 0
    assert out.strip() == f"kow, version {__version__}"
    code, out, _ = run("--help")
    assert code == 0 and "simulate" in out


def test_simulate_help_explains_every_option() -> None:
    code, out, _ = run("simulate", "--help")
    assert code == 0
    for option in (
        "--seed", "--games", "--bots", "--dealer", "--players", "--start-cards",
        "--dogs-life", "--fixed-trump", "--no-final-round-trump", "--lead",
        "--eliminated-vote", "--no-sweep-wins", "--output", "--pretty",
    ):  # fmt: skip
        assert option in out, option


def test_no_help_names_an_option_by_its_older_name() -> None:
    # analyze's help said "the same log, --seed and --iterations give the same output"
    # after --iterations became --deals (its older name, kept working); verify's said
    # "give --search-iterations" for --search-deals.
    old_names = {
        name
        for command in main.commands.values()
        for param in command.params
        if isinstance(param, click.Option)
        for name in [o for o in param.opts if o.startswith("--")][1:]
    }
    assert old_names == {"--iterations", "--search-iterations"}
    for command in main.commands.values():
        text = " ".join((command.help or "").split())
        for old in old_names:
            assert not re.search(re.escape(old) + r"(?![\w-])", text), (command.name, old)
    code, out, _ = run("analyze", "--help")
    assert code == 0
    assert "the same log, --seed and --deals give the same output" in " ".join(out.split())


def test_one_game_is_one_json_object_on_stdout_only() -> None:
    code, out, err = run("simulate", "--seed", "7")
    assert code == 0
    assert err == ""
    assert out.count("\n") == 1
    game = json.loads(out)
    assert game["format"] == "kow-log" and game["version"] == 1
    assert game["seed"] == 7
    assert game["rules"]["players"] == 4
    assert [p["kind"] for p in game["players"]] == ["heuristic"] * 4
    assert game["result"]["winner"] in range(4)
    assert game["result"]["rounds_played"] == len(game["rounds"])


def test_pretty_is_the_same_value() -> None:
    _, compact, _ = run("simulate", "--seed", "7")
    _, pretty, _ = run("simulate", "--seed", "7", "--pretty")
    assert pretty.count("\n") > 50
    assert json.loads(pretty) == json.loads(compact)


def test_games_give_json_lines_whose_seeds_replay_each_game_alone() -> None:
    code, out, _ = run("simulate", "--seed", "5", "--games", "4", "--players", "3")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 4
    games = [json.loads(line) for line in lines]
    assert games[0]["seed"] == 5
    assert len({g["seed"] for g in games}) == 4
    for line, game in zip(lines, games, strict=True):
        _, alone, _ = run("simulate", "--seed", str(game["seed"]), "--players", "3")
        assert alone == line + "\n"


def test_no_seed_draws_one_and_records_it() -> None:
    _, out, _ = run("simulate", "--bots", "random")
    seed = json.loads(out)["seed"]
    _, again, _ = run("simulate", "--bots", "random", "--seed", str(seed))
    assert again == out


def test_rule_options_reach_the_log() -> None:
    code, out, _ = run(
        "simulate", "--seed", "3", "--players", "5", "--start-cards", "6",
        "--dogs-life", "once-per-player", "--fixed-trump", "--no-final-round-trump",
        "--lead", "dealer-left", "--eliminated-vote", "--no-sweep-wins", "--dealer", "2",
        "--bots", "random,heuristic,random,heuristic,random",
    )  # fmt: skip
    assert code == 0
    game = json.loads(out)
    assert game["rules"] == {
        "players": 5,
        "start_cards": 6,
        "dogs_life": "once-per-player",
        "trump": "fixed",
        "final_round_trump": False,
        "lead": "dealer-left",
        "eliminated_vote": True,
        "sweep_wins": False,
    }
    assert game["rounds"][0]["dealer"] == 2
    assert game["rounds"][0]["hand_size"] == 6
    assert [p["kind"] for p in game["players"]] == [
        "random", "heuristic", "random", "heuristic", "random",
    ]  # fmt: skip


def test_rule_options_default_to_the_rules_defaults() -> None:
    """No rule option given: the log's rules are Rules(), and --help shows its defaults."""
    code, out, _ = run("simulate", "--seed", "3", "--bots", "random")
    assert code == 0
    assert json.loads(out)["rules"] == rules_to_log(Rules())
    _, shown, _ = run("simulate", "--help")
    for default in ("[default: 4; 2<=x<=7]", "[default: off]", "[default: final-round-trump]"):
        assert default in " ".join(shown.split()), default
    by_name = {p.name: p for p in main.commands["simulate"].params}
    for field, value in rules_to_log(Rules()).items():
        if field not in ("trump", "eliminated_vote"):  # flags: --fixed-trump, --eliminated-vote
            assert by_name[field].default == value, field


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--players", "1"], "1"),
        (["--players", "8"], "8"),
        (
            ["--players", "7", "--start-cards", "8"],
            "'--start-cards': must be 1 to 7 with 7 players (players x cards + 1 <= 52",
        ),
        (["--start-cards", "0"], "0"),
        (["--bots", "clever"], "'clever' is not a bot kind: choose from random, heuristic"),
        (["--bots", "random,random"], "gives 2 kinds for 4 seats"),
        (
            ["--dealer", "4"],
            "'--dealer': must be a seat 0 to 3 with 4 players, not 4",
        ),
        (["--seed", "-3"], "-3"),
        (["--seed", "abc"], "abc"),
        (["--games", "0"], "0"),
        (["--dogs-life", "sometimes"], "sometimes"),
        (["--lead", "left"], "left"),
    ],
)
def test_usage_errors_exit_2_naming_the_value(args: list[str], named: str) -> None:
    code, out, err = run("simulate", *args)
    assert code == 2
    assert out == ""
    assert named in err
    assert "Traceback" not in err


def test_the_deals_options_keep_their_older_names() -> None:
    # --search-deals was --search-iterations, and kow analyze's --deals was --iterations:
    # both older names still work, with the same meaning.
    game = ["simulate", "--seed", "3", "--players", "2", "--bots", "search,random"]
    new = CliRunner().invoke(main, [*game, "--search-deals", "2"])
    old = CliRunner().invoke(main, [*game, "--search-iterations", "2"])
    assert new.exit_code == old.exit_code == 0 and new.stdout == old.stdout
    assert json.loads(new.stdout)["players"][0]["settings"] == {"iterations": 2}
    analyze = ["analyze", "-", "--json", "--seed", "1", "-j", "1", "-q", "--game", "1"]
    a = CliRunner().invoke(main, [*analyze, "--deals", "2"], input=new.stdout)
    b = CliRunner().invoke(main, [*analyze, "--iterations", "2"], input=new.stdout)
    assert a.exit_code == b.exit_code == 0 and a.stdout == b.stdout
    assert json.loads(a.stdout)["iterations"] == 2
    assert "--search-deals, --search-iterations N" in CliRunner().invoke(
        main, ["simulate", "--help"]
    ).stdout


def test_output_file_is_written_whole(tmp_path: Path) -> None:
    target = tmp_path / "games.jsonl"
    code, out, _ = run("simulate", "--seed", "2", "--games", "3", "-o", str(target))
    assert code == 0 and out == ""
    _, direct, _ = run("simulate", "--seed", "2", "--games", "3")
    assert target.read_text() == direct
    assert [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]


def test_unwritable_output_is_an_error_and_leaves_the_old_file(tmp_path: Path) -> None:
    code, _, err = run("simulate", "-o", str(tmp_path / "missing" / "x.json"))
    assert code == 2 and "cannot write" in err and "missing" in err
    code, _, err = run("simulate", "-o", str(tmp_path))
    assert code == 2 and "is a folder" in err
    if os.geteuid() != 0:  # root writes anywhere; the read-only case needs a normal user
        folder = tmp_path / "ro"
        folder.mkdir()
        old = folder / "old.json"
        old.write_text("keep me")
        folder.chmod(0o555)
        try:
            code, _, err = run("simulate", "-o", str(old))
        finally:
            folder.chmod(0o755)
        assert code == 2 and "cannot write" in err
        assert old.read_text() == "keep me"


def test_an_interrupted_run_replaces_the_old_file_with_its_finished_games_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "games.jsonl"
    target.write_text("previous run\n")

    import kow.game

    calls = {"n": 0}
    real = kow.game.play_game

    def failing(*args: object, **kwargs: object) -> object:
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(kow.game, "play_game", failing)
    result = CliRunner().invoke(
        main, ["simulate", "--seed", "4", "--games", "5", "--jobs", "1", "-o", str(target)]
    )
    assert result.exit_code == 130
    whole = CliRunner().invoke(main, ["simulate", "--seed", "4", "--games", "2"]).output
    assert target.read_text() == whole  # games 0 and 1, whole; the third never began
    assert [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]


def test_same_command_twice_is_byte_identical_whatever_the_hash_seed() -> None:
    args = ("simulate", "--seed", "11", "--games", "20", "--players", "5",
            "--dogs-life", "once-per-game", "--eliminated-vote")  # fmt: skip
    first = kow_process(*args, env={"PYTHONHASHSEED": "1"})
    second = kow_process(*args, env={"PYTHONHASHSEED": "987"})
    assert first.returncode == 0 and first.stderr == ""
    assert first.stdout == second.stdout
    assert len(first.stdout.splitlines()) == 20


def test_closed_pipe_is_quiet() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "kow", "simulate", "--games", "2000", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert json.loads(first)["seed"] == 1
    assert err == b""
    assert proc.returncode == 141  # stopped at once by the closed pipe, as cat would be


def test_python_m_kow_works() -> None:
    proc = kow_process("--version")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"kow, version {__version__}"


def test_schema_command_prints_the_shipped_schema() -> None:
    from kow.log import schema

    code, out, err = run("schema")
    assert code == 0 and err == ""
    assert json.loads(out) == schema()
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_output_through_a_link_replaces_the_target_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "target.json"
    target.write_text("old\n")
    target.chmod(0o600)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    code, _, _ = run("simulate", "--seed", "1", "-o", str(link))
    assert code == 0
    assert link.is_symlink()
    assert json.loads(target.read_text())["seed"] == 1
    assert target.stat().st_mode & 0o777 == 0o600


def test_output_to_a_device_writes_through_it() -> None:
    code, out, err = run("simulate", "--games", "2", "-o", os.devnull)
    assert code == 0 and out == "" and err == ""
    assert not Path(os.devnull).is_file()


def test_empty_output_path_is_a_usage_error() -> None:
    code, _, err = run("simulate", "-o", "")
    assert code == 2 and "give a file path" in err


@pytest.mark.parametrize(
    ("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)]
)
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("delay", [0.0, 0.1, 0.3])
def test_interrupted_run_exits_by_signal_and_keeps_its_finished_games_whole(
    tmp_path: Path, sig: int, code: int, jobs: str, delay: float
) -> None:
    # With 2 jobs the signal lands while workers start, play or send (it once hung a run
    # under concurrent.futures, about 1 time in 20).
    target = tmp_path / "games.jsonl"
    target.write_text("previous run\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "kow", "simulate", "--games", "1000000", "--jobs", jobs,
         "-o", str(target)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while not any(p.name.startswith(".kow-") for p in tmp_path.iterdir()):
        assert time.monotonic() < deadline, "the run never started writing"
        time.sleep(0.01)
    time.sleep(delay)
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == code, err
    assert b"Traceback" not in err
    kept = target.read_text()
    if kept != "previous run\n":  # games finished before the stop: each kept whole
        count = kept.count("\n")
        assert kept.endswith("\n") and all(json.loads(line) for line in kept.splitlines())
        assert f"games 0 to {count - 1} of the run are written whole".encode() in err or (
            count == 1 and b"game 0 of the run is written whole" in err
        ), err
    else:  # none finished: the file is left as it was
        assert b"was left as it was" in err, err
    assert [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]
    assert _running_with(str(target)) == []  # no worker outlives the run


def _running_with(word: str) -> list[int]:
    """Return the ids of live processes whose command line holds ``word`` (Linux only)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if word in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def test_full_disk_on_stdout_is_one_line_not_a_traceback() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "kow", "simulate", "--games", "3"],
            stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT, check=False,
        )  # fmt: skip
    assert proc.returncode == 1
    assert proc.stderr.strip() == "Error: cannot write the output: No space left on device"


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="no /dev/stdout here")
def test_output_to_dev_stdout_when_it_is_a_pipe() -> None:
    # /dev/stdout then resolves to a pipe ("pipe:[...]"), which is written to directly.
    done = kow_process("simulate", "--seed", "1", "--games", "3", "-o", "/dev/stdout")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 3
    assert done.stdout == kow_process("simulate", "--seed", "1", "--games", "3").stdout


def test_tournament_notes_an_uneven_rotation_on_stderr() -> None:
    args = ["tournament", "--bots", "heuristic,random,random,random", "--seed", "1", "--json"]
    code, out, err = run(*args, "--games", "6")
    assert code == 0 and json.loads(out)["games"] == 6
    assert err == (
        "Note: 6 games is not a multiple of 4 players, so the bots do not sit in every seat "
        "equally often.\n"
    )
    code, out, err = run(*args, "--games", "8")
    assert (code, err) == (0, "")


def test_one_game_is_one_game_not_one_games() -> None:
    args = ["tournament", "--bots", "heuristic,random,random", "--players", "3", "--seed", "1"]
    code, out, err = run(*args, "--games", "1")
    assert code == 0
    assert err.startswith("Note: 1 game is not a multiple of 3 players,")
    assert out.splitlines()[0] == "1 game, seed 1, bots heuristic,random,random"
    code, out, _ = run(*args, "--games", "2")
    assert code == 0 and out.splitlines()[0] == "2 games, seed 1, bots heuristic,random,random"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--players", "2", "--bots", "random,heuristic"],
         "'random,heuristic' gives 2 kinds for 1 seat: give one kind\n"),
        (["play", "--players", "4", "--bots", "random,heuristic"],
         "'random,heuristic' gives 2 kinds for 3 seats: give one kind for all seats, "
         "or 3 separated by commas\n"),
    ],
)  # fmt: skip
def test_bot_count_mismatch_counts_seats_rightly(args: list[str], message: str) -> None:
    code, out, err = run(*args, "--seed", "1")
    assert (code, out) == (2, "")
    assert err.endswith(message)


def test_readme_table_lists_every_command() -> None:
    readme = (ROOT / "README.md").read_text()
    table = {line.split("`")[1].split()[1] for line in readme.splitlines()
             if line.startswith("| `kow ")}  # fmt: skip
    assert table == set(main.commands)


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "--games", "1000000", "--bots", "search", "--search-iterations", "20"],
        ["tournament", "--games", "1000000", "--bots", "random"],
    ],
)
def test_sigterm_ends_the_workers_of_a_run_to_stdout(command: list[str]) -> None:
    # With no file to clean up, a `kill` still ends the workers at once: a search bot's
    # block of games takes minutes, and they used to play it out as orphans.
    # a seed no other test uses (nor the other command, run at the same time under
    # xdist), to find this run's processes
    marker = "918273645" if command[0] == "simulate" else "918273646"
    proc = subprocess.Popen(
        [sys.executable, "-m", "kow", *command, "--jobs", "2", "--seed", marker],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while len(_running_with(marker)) < 3:  # the main process and its two workers
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 143
    if command[0] == "tournament":  # it prints the results so far, marked partial
        assert re.fullmatch(
            rb"Stopped by SIGTERM after \d+ of 1000000 games: the results are partial\.\n", err
        )
    else:  # what it wrote whole, and the shard that plays the rest
        assert re.fullmatch(
            rb"Stopped by SIGTERM after (\d+) of 1000000 games: .* To play the rest, run the same"
            rb" command with --first-game \1 --games \d+: its output, after this one, makes the"
            rb" whole run\.\n",
            err,
        ), err
    assert _running_with(marker) == []


def test_output_path_ending_in_a_slash_is_a_usage_error(tmp_path: Path) -> None:
    kept = tmp_path / "a.json"
    kept.write_text("kept\n")
    for path in (f"{kept}/", f"{tmp_path / 'nothere'}/"):
        code, out, err = run("simulate", "--seed", "1", "-o", path)
        assert code == 2 and out == ""
        assert f"{path!r} ends with '/', so it names a folder" in err
    code, _, err = run("play", "--seed", "1", "--log", f"{kept}/")
    assert code == 2 and "'--log'" in err
    assert kept.read_text() == "kept\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]


def test_too_long_file_name_is_a_usage_error_before_any_game(tmp_path: Path) -> None:
    path = tmp_path / ("x" * 300 + ".json")
    code, out, err = run("simulate", "--seed", "1", "--games", "3000", "-o", str(path))
    assert code == 2 and out == ""
    assert "the file name is 305 bytes; this folder allows 255" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_games_past_the_limit_are_a_usage_error(command: str) -> None:
    code, _, err = run(command, "--games", str(MAX_GAMES + 1))
    assert code == 2 and "is not a number of games: allowed 1 to 1000000000000" in err
    code, _, err = run("simulate", "--seed", "1", "--first-game", str(MAX_GAMES + 1))
    assert code == 2 and "'--first-game'" in err


@pytest.mark.parametrize("option", ["--version", "--help"])
def test_version_and_help_on_a_full_disk_are_one_line(option: str) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "kow", option], stdout=full, stderr=subprocess.PIPE,
            cwd=ROOT, text=True, check=False,
        )  # fmt: skip
    assert proc.returncode == 1
    assert proc.stderr == "Error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize(("games", "shards", "name"), [("0", "4", "GAMES"), ("10", "0", "SHARDS")])
def test_shards_example_refuses_zero(tmp_path: Path, games: str, shards: str, name: str) -> None:
    out = tmp_path / "y.jsonl"
    out.write_text("kept\n")
    proc = subprocess.run(
        ["bash", str(ROOT / "examples" / "shards.sh"), "1", games, shards, str(out)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr == f"shards.sh: {name} must be a whole number from 1, not '0'\n"
    assert out.read_text() == "kept\n"


@pytest.mark.parametrize(
    ("name", "why"),
    [("nowhere/y.jsonl", "no folder"), ("", "is a folder; give a file path")],
)
def test_shards_example_checks_its_output_before_the_run(
    tmp_path: Path, name: str, why: str
) -> None:
    # issue 20, kind 10: it played the whole run, then found it could not write OUTPUT.
    out = tmp_path / name if name else tmp_path
    started = time.monotonic()
    proc = subprocess.run(
        ["bash", str(ROOT / "examples" / "shards.sh"), "1", "1000000000", "2", str(out)],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("shards.sh: ") and why in proc.stderr
    assert str(out) in proc.stderr
    assert time.monotonic() - started < 10  # no game was played
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_a_worker_killed_alone_is_one_error_line(command: str, tmp_path: Path) -> None:
    # As the out-of-memory killer would: the run stops with a message, not a traceback.
    # A seed of its own for each command: the two may run at once (xdist), and each
    # must kill a worker of its own run.
    marker = {"simulate": "827364519", "tournament": "827364520"}[command]
    proc = subprocess.Popen(
        [sys.executable, "-m", "kow", command, "--games", "1000000", "--jobs", "2",
         "--seed", marker, *(["-o", str(tmp_path / "out.jsonl")] if command == "simulate"
                              else ["--bots", "random"])],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while len(workers := [p for p in _running_with(marker) if p != proc.pid]) < 2:
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)
    os.kill(workers[0], signal.SIGKILL)
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 1 and out == ""
    assert re.fullmatch(r"Error: worker process [01] ended unexpectedly \(exit code -9\)\n", err)
    assert _running_with(marker) == []
    assert list(tmp_path.iterdir()) == []


def _closed_early(command: str, tmp_path: Path) -> tuple[int, str]:
    """Run ``kow COMMAND`` with stdout a pipe nobody reads any more (as after ``| head``,
    once head has left); return the exit code and stderr."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "kow", *command.split()], stdout=write_end,
            stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120,
        )  # fmt: skip
    finally:
        os.close(write_end)
    return result.returncode, result.stderr


CLOSED_EARLY = [
    "simulate --seed 1 --games 50",
    "simulate --seed 1 --games 50 --jobs 2",
    "simulate --seed 1 --pretty",
    "verify GAMES",
    "verify BAD GAMES",
    "verify --json GAMES",
    "replay GAMES --game 2",
    "export GAMES --table plays",
    "analyze GAMES --game 2 --iterations 2",
    "analyze GAMES --game 2 --iterations 2 --json",
    "tournament --games 4 --bots random --seed 1",
    "tournament --games 4 --bots random --seed 1 --json",
    "schema",
    "schema analysis",
    "rules",
    "rules --json",
    "--help",
    "--version",
    "verify --help",
]


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A file of 300 legal games (GAMES), and the same with every game faulty (BAD)."""
    folder = tmp_path_factory.mktemp("logs")
    games = folder / "games.jsonl"
    code, _, _ = run("simulate", "--seed", "1", "--games", "300", "-q", "-o", str(games))
    assert code == 0
    bad = folder / "bad.jsonl"
    bad.write_text(games.read_text().replace('"winner":0}', '"winner":1}'))
    return {"GAMES": games, "BAD": bad}


@pytest.mark.parametrize("command", CLOSED_EARLY)
def test_a_closed_stdout_stops_every_command_with_141(
    command: str, logs: dict[str, Path], tmp_path: Path
) -> None:
    # One behaviour for all (README, "signals"): stop at once, no message, exit 141. Never
    # 0, so that a verdict nobody read is not taken for success; never 1, so that the
    # closed stdout is not taken for a fault of an input.
    for name, path in logs.items():
        command = command.replace(name, str(path))
    assert _closed_early(command, tmp_path) == (141, "")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_under_stdout_is_a_write_error_not_an_input_fault(
    logs: dict[str, Path],
) -> None:
    for path in logs.values():
        with open("/dev/full", "w") as full:
            result = subprocess.run(
                [sys.executable, "-m", "kow", "verify", str(path)], stdout=full,
                stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120,
            )  # fmt: skip
        assert (result.returncode, result.stderr) == (
            1, "Error: cannot write the output: No space left on device\n",
        )  # fmt: skip


def test_verify_into_head_stops_at_once_and_blames_no_input(tmp_path: Path) -> None:
    # kow verify many.jsonl | head -n 1, with a fault in every game: more lines than a
    # pipe holds, so verify is still writing when head leaves.
    games = tmp_path / "games.jsonl"
    code, _, _ = run("simulate", "--seed", "2", "--games", "1000", "-q", "-o", str(games))
    assert code == 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text(games.read_text().replace(',"winner":', ',"winner":9,"x":'))
    for path, first, code in [
        (bad, f"{bad}: game 1 (seed 2): ", 141),
        (games, "1000 games in 1 file: 1000 legal, 0 faulty", 0),
    ]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "kow", "verify", str(path)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, text=True,
        )  # fmt: skip
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline().startswith(first)
        proc.stdout.close()  # as head -n 1 does
        assert (proc.wait(timeout=120), proc.stderr.read()) == (code, "")
        proc.stderr.close()


def test_search_iterations_have_a_ceiling() -> None:
    code, out, err = run("simulate", "--bots", "search", "--search-iterations", "100001")
    assert code == 2 and out == ""
    assert "'100001' is not a number of deals: allowed 1 to 100000" in err


def _one_byte_then_closed(*args: str) -> tuple[int, bytes]:
    """Run ``kow ARGS``, read 1 byte of its stdout, then close it (as ``| head -c 1``
    does, while kow is still writing); return the exit code and stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "kow", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(1)
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    return proc.wait(timeout=120), err


def test_one_big_write_into_a_pipe_closed_early_exits_141(
    logs: dict[str, Path], tmp_path: Path
) -> None:
    # verify --json writes its whole verdict (here ~570 KB, far more than a pipe holds) in
    # one write: the reader leaving after 1 byte must still give 141, not 1.
    bad = tmp_path / "bad2000.jsonl"
    first = json.loads(logs["BAD"].read_text().splitlines()[0])
    # 2000 faulty games, each its own (a repeated game is said on stderr)
    bad.write_text("".join(json.dumps({**first, "seed": i}) + "\n" for i in range(2000)))
    assert _one_byte_then_closed("verify", "--json", str(bad)) == (141, b"")
    assert _one_byte_then_closed("verify", str(bad)) == (141, b"")
    assert _one_byte_then_closed("export", str(logs["GAMES"]), "--table", "plays") == (141, b"")
    assert _one_byte_then_closed("simulate", "--seed", "1", "--games", "300", "-q") == (
        141, b"",
    )  # fmt: skip


def _closed(redirect: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``kow ARGS`` from a shell with a standard stream closed by ``redirect``."""
    command = " ".join([sys.executable, "-m", "kow", *args])
    out = "" if redirect == ">&-" else " >&3"
    err = "" if redirect == "2>&-" else " 2>&4"
    script = f"exec 3>&1 4>&2; {command} {redirect}{out}{err}"
    return subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(os.name != "posix", reason="closes a stream with sh")
def test_a_closed_standard_stream_gives_no_traceback(tmp_path: Path) -> None:
    # stdout closed: nowhere to write the games, so exit 1 saying so.
    shut = _closed(">&-", "simulate", "--seed", "1")
    assert shut.returncode == 1 and "stdout is closed" in shut.stderr
    assert "Traceback" not in shut.stderr
    # stderr closed: the data still comes, as without it.
    quiet = _closed("2>&-", "simulate", "--seed", "1")
    assert quiet.returncode == 0 and json.loads(quiet.stdout)["seed"] == 1
    # stdin closed: a log command told to read - refuses it (nothing to read is not an
    # empty input: verify would say "no games" and exit 0), a usage error naming it.
    for words in (["verify", "-"], ["export", "-", "--table", "games"], ["replay", "-"],
                  ["analyze", "-"]):  # fmt: skip
        shut = _closed("<&-", *words)
        assert (shut.returncode, shut.stdout) == (2, ""), words
        assert "cannot read '-': stdin is closed (<&-)" in shut.stderr, words
        assert "Traceback" not in shut.stderr
    # A stdin that is open but empty is still an empty input.
    empty = subprocess.run(
        [sys.executable, "-m", "kow", "verify", "-"], stdin=subprocess.DEVNULL,
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert empty.returncode == 0 and "0 games in 1 file" in empty.stdout


@pytest.mark.parametrize(
    "words",
    [["verify", "x"], ["export", "--table", "games", "x"], ["replay", "x"], ["analyze", "x"],
     ["simulate", "-o", "x"], ["export", "g.jsonl", "--table", "all", "-o", "x"],
     ["analyze", "g.jsonl", "-o", "x"], ["play", "--log", "x"], ["play", "--resume", "x"]],
)  # fmt: skip
def test_file_parameters_complete_as_files(words: list[str]) -> None:
    # Issue 33, 3: with Click's completion loaded, every file parameter completed nothing
    # (a bare string has no completions), taking the shell's own file names away.
    env = {"_KOW_COMPLETE": "bash_complete", "COMP_WORDS": " ".join(["kow", *words]),
           "COMP_CWORD": str(len(words))}  # fmt: skip
    result = CliRunner().invoke(main, [], env=env, prog_name="kow")
    assert (result.exit_code, result.stdout) == (0, "file,x\n")


def test_each_command_is_listed_under_its_own_name() -> None:
    # The group imports a command's module when that command is asked for (COMMANDS).
    from kow.cli.commands import COMMANDS

    assert sorted(main.commands) == sorted(COMMANDS) == [
        "analyze", "export", "host", "join", "play", "replay", "rules", "schema", "serve",
        "simulate", "tournament", "verify",
    ]  # fmt: skip
    for name in COMMANDS:
        command = main.commands[name]
        assert command.name == name and command is main.commands[name]
    assert main.commands.get("simulat") is None


def test_kow_help_lists_each_command_once_in_order_importing_none() -> None:
    # One list of the commands (COMMANDS' summaries), play first, rules last; the
    # commands' modules stay unloaded (their help is their own: kow COMMAND --help).
    code, out, _ = run("--help")
    assert code == 0
    listed = out[out.index("Commands:") :].splitlines()[1:]
    assert [line.split()[0] for line in listed] == [
        "play", "host", "join", "serve", "simulate", "tournament", "verify", "replay",
        "export", "analyze", "schema", "rules",
    ]  # fmt: skip
    assert listed[0].split(None, 1)[1] == "play in the terminal, against bots or with friends"
    assert out.count("simulate") == 1 and "kow COMMAND --help" in out
    loaded = _modules_after(["--help"], "sorted(m for m in sys.modules if '.commands.' in m)")
    assert loaded == "[]"


def _modules_after(args: list[str], shown: str) -> str:
    """Run ``kow ARGS`` in a new process and return ``shown`` (an expression over
    ``sys.modules``) as it prints after the run."""
    code = (
        f"import sys\nfrom kow.cli import main\ntry:\n    main({args!r})\n"
        "except SystemExit as exit:\n    assert exit.code == 0, exit.code\n"
        f"print({shown})\n"
    )
    return python_prints(code)[-1]


def test_simulate_loads_no_reader_of_logs_nor_openssl() -> None:
    # Start-up is a share of a short run's CPU (issue 35): a run that writes logs reads
    # none, takes its seeds' SHA-256 from the interpreter, and reads no package data;
    # one process (--jobs 1) starts no worker, so it loads no multiprocessing.
    unused = {
        "kow.log._reader", "kow.log.types", "kow.log._records", "kow.log._replay", "hashlib",
        "_hashlib", "importlib.resources", "multiprocessing", "pickle", "logging",
        "kow.runs.executors._cluster",
    }  # fmt: skip
    args = ["simulate", "--seed", "1", "--games", "3", "--bots", "random", "--jobs", "1",
            "--quiet", "-o", "/dev/null"]  # fmt: skip
    assert _modules_after(args, f"sorted(set(sys.modules) & {unused!r})") == "[]"


def test_simulate_imports_no_other_command() -> None:
    args = ["simulate", "--seed", "1", "--bots", "random", "--quiet", "-o", "/dev/null"]
    shown = "sorted(m for m in sys.modules if m.startswith('kow.cli.commands.'))"
    assert _modules_after(args, shown) == "['kow.cli.commands.simulate']"
