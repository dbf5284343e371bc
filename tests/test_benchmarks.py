"""The benchmarks' options read numbers as kow's own options do (kow.entries.number_type)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kow.settings import MAX_JOBS

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
SCRIPTS = sorted(BENCHMARKS.glob("*.py"))


def test_no_script_reads_a_number_with_int() -> None:
    """``type=int`` takes ``'٣'`` as 3; the examples and benchmarks use number_type."""
    for script in [*SCRIPTS, *sorted((ROOT / "examples").glob("*.py"))]:
        text = script.read_text(encoding="utf-8")
        assert not re.search(r"type\s*=\s*int\b", text), script.name


NEEDS = {"frameworks_openspiel.py": "pyspiel", "frameworks_pettingzoo.py": "pettingzoo"}


def usage_error(script: str, args: list[str]) -> str:
    """Run ``benchmarks/SCRIPT ARGS``, check that it is a usage error (exit 2, nothing on
    stdout), and return the last line of its stderr."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True, text=True, cwd=ROOT, timeout=120, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    return done.stderr.splitlines()[-1]


@pytest.mark.parametrize(
    ("script", "option", "message"),
    [
        ("ceiling.py", "--games", "is not a number of games: allowed 1 to 1000000000000"),
        ("ceiling.py", "--jobs", f"is not a number of processes: allowed 1 to {MAX_JOBS}"),
        ("decision_time.py", "--iterations", "is not a number of deals: allowed 1 to 100000"),
        ("frameworks_openspiel.py", "--players", "is not a number of players: allowed 2 to 7"),
        ("frameworks_openspiel.py", "--seed", "is not a seed: allowed 0 to 9007199254740991"),
        ("jobs.py", "--repeat", "is not a number of runs: allowed 1 or more"),
        ("jobs_wall.py", "--games", "is not a number of games: allowed 1 or more"),
        ("signals.py", "--tries", "is not a number of tries: allowed 1 or more"),
        ("speed.py", "--repeat", "is not a number of runs: allowed 1 or more"),
        ("strength.py", "--games", "is not a number of games: allowed 1 to 1000000000000"),
        ("strength.py", "--search-iterations", "is not a number of deals: allowed 1 to 100000"),
        ("cluster.py", "--repeat", "is not a number of runs: allowed 1 to 100"),
        ("online.py", "--tables", "is not a number of tables: allowed 1 to 1000"),
    ],
)
def test_a_benchmark_refuses_digits_of_another_script_as_a_usage_error(
    script: str, option: str, message: str
) -> None:
    if script in NEEDS and importlib.util.find_spec(NEEDS[script]) is None:
        pytest.skip(f"{NEEDS[script]} is not installed")
    assert usage_error(script, [option, "٣"]) == (
        f"{script}: error: argument {option}: '٣' {message}, in the digits 0-9"
    )


# --- benchmarks/strength.py --paired-against: paired figures, the seer's share ---------

sys.path.insert(0, str(BENCHMARKS))
import paired  # noqa: E402
import strength  # noqa: E402
from ceiling import seer_game  # noqa: E402

from kow.game import game_seed  # noqa: E402

Pair = paired.Pair
Triple = strength.Triple


def test_paired_figures_of_hand_made_pairs() -> None:
    """Five pairs: old won 2, new 3; differences 0, -1, +1, +1, 0 (mean 0.2, variance 0.7)."""
    pairs = [Pair(1, 1), Pair(1, 0), Pair(0, 1), Pair(0, 1), Pair(0, 0)]
    f = paired.paired_figures(pairs)
    assert (f.pairs, f.old_wins, f.new_wins, f.only_new_won, f.only_old_won) == (5, 2, 3, 2, 1)
    assert (f.old_rate, f.new_rate) == (0.4, 0.6)
    assert f.difference == pytest.approx(0.2)
    # 0.2 -+ 1.959964 * sqrt(0.7 / 5) = 0.2 -+ 0.733351
    assert f.difference_ci95 == pytest.approx((-0.533351, 0.933351), abs=1e-6)
    assert f.old_ci95 == pytest.approx((0.117621, 0.769276), abs=1e-6)  # Wilson, 2 of 5
    assert f.new_ci95 == pytest.approx((0.230724, 0.882379), abs=1e-6)  # Wilson, 3 of 5
    same = paired.paired_figures([Pair(1, 1), Pair(0, 0), Pair(0, 0)])
    assert (same.difference, same.difference_ci95) == (0.0, (0.0, 0.0))
    with pytest.raises(ValueError, match="no pairs"):
        paired.paired_figures([])


def line(winner: int, version: str = "0.5.0") -> bytes:
    return f'{{"kow_version":"{version}","result":{{"winner":{winner}}}}}\n'.encode()


def test_a_side_of_two_seats_wins_when_either_seat_wins() -> None:
    """The 2-against-2 table: the search pair at seats 0 and 2 wins when seat 0 or 2 wins."""
    assert [paired.side_won(line(w), (0, 2)) for w in range(4)] == [1, 0, 1, 0]
    assert [paired.side_won(line(w), (1,)) for w in range(4)] == [0, 1, 0, 0]
    before = [line(0), line(1), line(2), line(3, "0.5.0")]
    after = [line(2), line(2), line(1), line(3, "0.6.0")]
    pairs, same = paired.pair_games(before, after, (0, 2))
    assert pairs == [Pair(1, 1), Pair(0, 1), Pair(1, 0), Pair(0, 0)]
    assert same == 1  # the last two logs differ only in "kow_version"
    with pytest.raises(ValueError):
        paired.pair_games(before, after[:3], (0, 2))


def test_the_seatings_of_a_paired_run() -> None:
    assert strength.seatings(("search", "ismcts", "search", "ismcts")) == [
        strength.Seating(("search", "ismcts", "search", "ismcts"), (0, 2)),
        strength.Seating(("ismcts", "search", "ismcts", "search"), (1, 3)),
    ]
    one = strength.seatings(("search", "heuristic", "heuristic", "heuristic"))
    assert [s.seats for s in one] == [(0,), (1,), (2,), (3,)]
    assert one[2].bots == ("heuristic", "heuristic", "search", "heuristic")
    assert strength.PAIRED == (
        "search-vs-random", "search-vs-heuristic", "search-vs-ismcts", "search-ismcts-2v2",
        "search25-vs-heuristic", "search50-vs-heuristic", "search200-vs-heuristic",
    )  # fmt: skip


def test_the_share_of_the_seers_edge() -> None:
    assert strength.edge_share(0.30, 0.35, 4) == pytest.approx(0.5)
    assert strength.edge_share(0.25, 0.35, 4) == 0.0
    assert strength.edge_share(0.20, 0.30, 5) == 0.0
    assert strength.edge_share(0.15, 0.35, 4) == pytest.approx(-1.0)
    assert strength.edge_share(0.30, 0.25, 4) is None  # the seer at chance: no edge
    # 40 games: the seer wins 30 (75%), the new bot exactly those, the old bot 16 (40%):
    # the old bot keeps (0.40 - 0.25) / (0.75 - 0.25) = 30% of the edge, the new one 100%.
    games = [Triple(1, 1, 1)] * 15 + [Triple(0, 1, 1)] * 15 + [Triple(1, 0, 0)]
    games += [Triple(0, 0, 0)] * 9
    found = strength.share_intervals(games, 4)
    assert found.new == (1.0, 1.0)  # the new bot keeps the whole edge in every resample
    assert found.old == pytest.approx((0.0, 0.583333), abs=1e-6)  # random.Random(1)
    assert strength.share_intervals(games[::-1], 4) == found  # the games' order is no matter
    # The seer at chance in some resample: the ratio is unbounded, no interval.
    assert strength.share_intervals([Triple(0, 0, 1)] + [Triple(0, 0, 0)] * 3, 4) == (None, None)
    with pytest.raises(ValueError, match="no games"):
        strength.share_intervals([], 4)


def test_the_seer_is_dealt_the_game_kow_simulate_deals() -> None:
    """The seer in the search bot's seat: game i of ``kow simulate --seed 1``, same deal."""
    bots = ("heuristic", "search", "heuristic", "heuristic")
    done = subprocess.run(
        [sys.executable, "-m", "kow", "simulate", "--seed", "1", "--games", "2", "--bots",
         ",".join(bots), "--search-iterations", "2", "--quiet", "--jobs", "1"],
        capture_output=True, cwd=ROOT, timeout=120, check=True,
    )  # fmt: skip
    logs = done.stdout.splitlines()
    game = seer_game(bots, 1, game_seed(1, 1))
    assert strength.first_deal(logs[1]) == (game.dealer, game.hands)
    assert strength.first_deal(logs[0]) != (game.dealer, game.hands)  # another game's deal
    assert len(game.hands) == 4 and all(len(hand) == 7 for hand in game.hands)


def kow_changed_since_head() -> bool:
    done = subprocess.run(
        ["git", "--no-optional-locks", "status", "--porcelain", "--", "kow", "pyproject.toml"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    return done.returncode != 0 or bool(done.stdout.strip())


def test_strength_paired_against_head_is_no_change(tmp_path: Path) -> None:
    """HEAD installed against the working tree (the same kow): the same games, difference 0."""
    if kow_changed_since_head():
        pytest.skip("kow/ differs from HEAD (or no git): HEAD is not the working tree's kow")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "KOW_PURE_PYTHON": "1"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "strength.py"), "--paired-against", "HEAD",
         "--only", "search-vs-heuristic", "--games", "1", "--search-iterations", "2",
         "--jobs", "1", "--seer", "--results", str(tmp_path / "out")],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "out" / "search-vs-heuristic.json").read_text())
    assert data["run"] == "search-vs-heuristic"
    assert data["old"].startswith("HEAD (") and data["new"].startswith("working tree")
    assert (data["seed"], data["games_per_seating"], data["search_iterations"]) == (1, 1, 2)
    assert data["pairs"] == data["identical_games"] == 4  # one game at each of 4 seats
    assert data["old_wins"] == data["new_wins"]
    assert (data["difference"], data["difference_ci95"]) == (0.0, [0.0, 0.0])
    assert (data["only_new_won"], data["only_old_won"]) == (0, 0)
    assert [s["seats"] for s in data["seatings"]] == [[0], [1], [2], [3]]
    seer = data["seer"]
    assert (seer["games"], seer["deals_checked"], seer["chance"]) == (4, 4, 0.25)
    assert seer["wins"] == sum(s["seer_wins"] for s in data["seatings"])
    assert set(seer) >= {"rate", "ci95", "old_share", "new_share", "old_share_ci95"}
    table = done.stdout.splitlines()
    assert len(table) == 3 and table[0].startswith("| run | pairs | old: HEAD (")
    assert table[2].startswith("| search-vs-heuristic | 4 | ")
    assert "| +0.0 [+0.0, +0.0] | 0 / 0 |" in table[2]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seer"], "--seer goes with --paired-against"),
        (["--paired-against", "no-such-ref-21"], "argument --paired-against: 'no-such-ref-21' "
         "is no commit of this repository (allowed: a tag, branch or commit)"),
        (["--paired-against", "HEAD", "--only", "random-vs-search"],
         "argument --only: 'random-vs-search' is not a run of the search bot; with "
         "--paired-against allowed: search-vs-random, search-vs-heuristic, search-vs-ismcts, "
         "search-ismcts-2v2, search25-vs-heuristic, search50-vs-heuristic, "
         "search200-vs-heuristic"),
    ],
)  # fmt: skip
def test_strength_refuses_options_that_do_not_go_together(args: list[str], message: str) -> None:
    assert usage_error("strength.py", args) == f"strength.py: error: {message}"


@pytest.mark.parametrize(
    ("script", "args", "message"),
    [
        ("chooser.py", ["NOTALOG"], "not a log of kow games (line 1, column 1: not JSON"),
        ("chooser.py", ["MISSING"], "No such file or directory"),
    ],
)
def test_a_file_that_is_no_log_ends_the_script_with_its_name(
    script: str, args: list[str], message: str, tmp_path: Path
) -> None:
    (tmp_path / "notalog").write_text("root:x:0:0\n")
    (tmp_path / "empty").write_text("")
    names = {"NOTALOG": "notalog", "MISSING": "missing", "EMPTY": "empty", "OUT": "out.json"}
    argv = [str(tmp_path / names[a]) if a in names else a for a in args]
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *argv],
                          capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    assert done.returncode == 1
    assert message in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "out.json").exists()


# --- benchmarks/speed.py --against: its rows, and the check that both kows agree -------

import speed  # noqa: E402

LOOP_ARGS = {"apply": ["3"], "pettingzoo": ["2"], "decision": ["1", "2"]}
"""Tiny runs of each loop of benchmarks/speed_loops.py: games (and the search's deals)."""
OLD = "f8a4a8d"
"""kow 0.5.0, the oldest kow whose API the loops must work with."""


def run_loop_text(loop: str, cwd: Path) -> dict[str, object]:
    """Run speed_loops.py's text as --against does (``python -c``) in ``cwd``."""
    if loop == "pettingzoo" and importlib.util.find_spec("pettingzoo") is None:
        pytest.skip("pettingzoo is not installed")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-c", speed.LOOPS.read_text(encoding="utf-8"), loop, *LOOP_ARGS[loop]],
        capture_output=True, text=True, cwd=cwd, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


@pytest.mark.parametrize("loop", list(LOOP_ARGS))
def test_a_loop_runs_on_the_working_tree_and_chooses_as_kow_050(loop: str, tmp_path: Path) -> None:
    """Each loop runs on the working tree and on kow 0.5.0's source (pure Python), and
    both choose the same actions: the seeded games are the same."""
    new = run_loop_text(loop, ROOT)
    assert set(new) == {"loop", "work", "seconds", "digest"} | (
        {"median_decision"} if loop == "decision" else set()
    )
    assert new["loop"] == loop and isinstance(new["work"], int) and new["work"] > 0
    assert re.fullmatch("[0-9a-f]{64}", str(new["digest"]))
    assert run_loop_text(loop, ROOT)["digest"] == new["digest"]  # seeded: the same again
    have = subprocess.run(["git", "cat-file", "-e", f"{OLD}^{{commit}}"], cwd=ROOT, check=False)
    if have.returncode != 0:
        pytest.skip(f"{OLD} is not in this clone")
    with subprocess.Popen(["git", "archive", OLD, "kow"], cwd=ROOT, stdout=subprocess.PIPE) as a:
        subprocess.run(["tar", "-x", "-C", str(tmp_path)], stdin=a.stdout, check=True)
    old = run_loop_text(loop, tmp_path)
    assert (old["work"], old["digest"]) == (new["work"], new["digest"])


def test_the_apply_loop_plays_the_games_of_its_seeds() -> None:
    """``apply 3``: games with seeds 0, 1 and 2 to the end, 237 actions in all."""
    assert run_loop_text("apply", ROOT)["work"] == 237


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "the loop is one of apply, pettingzoo, decision, not nothing"),
        (["simulate", "3"], "the loop is one of apply, pettingzoo, decision, not 'simulate'"),
        (["apply"], "apply takes 1 argument, not 0"),
        (["decision", "1", "2", "3"], "decision takes 1 or 2 arguments, not 3"),
        (["apply", "٣"], "'٣' is not a number of games: allowed 1 or more, in the digits 0-9"),
        (["decision", "1", "0"], "'0' is not a number of deals: allowed 1 or more, in the "
         "digits 0-9"),
    ],
)  # fmt: skip
def test_a_loop_refuses_bad_arguments_as_a_usage_error(args: list[str], message: str) -> None:
    assert usage_error("speed_loops.py", args) == f"speed_loops.py: error: {message}"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--only", "apply"], "--tree, --repeat and --only go with --against"),
        (["--against", "HEAD", "--only", "replay"], "argument --only: invalid choice: 'replay' "
         "(choose from 'random', 'heuristic', 'search', 'verify', 'export', 'export-all', "
         "'pettingzoo', 'apply', 'decision', 'tuned-random', 'tuned-heuristic', "
         "'export-share')"),
        (["--against", "HEAD", "--million"], "--million does not go with --against"),
    ],
)  # fmt: skip
def test_speed_refuses_options_that_do_not_go_together(args: list[str], message: str) -> None:
    assert usage_error("speed.py", args) == f"speed.py: error: {message}"


def refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Return the last line speed.py's options print when they refuse ``args`` (exit 2)."""
    with pytest.raises(SystemExit) as stop:
        speed.parse_options(args)
    assert stop.value.code == 2
    return capsys.readouterr().err.splitlines()[-1]


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("-1", "allowed 1 to 86400, in the digits 0-9 and one '.'"),
        ("0", "allowed 1 to 86400"),
        ("0.5", "allowed 1 to 86400"),
        ("soon", "allowed 1 to 86400, in the digits 0-9 and one '.'"),
        ("nan", "allowed 1 to 86400, in the digits 0-9 and one '.'"),
        ("86401", "allowed 1 to 86400"),
    ],
)
def test_speed_refuses_a_timeout_that_is_no_time_as_a_usage_error(
    value: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    message = refused(["--against", "HEAD", "--timeout", value], capsys)
    assert message == (
        f"speed.py: error: argument --timeout: '{value}' is not a number of seconds: {why}"
    )


def test_speed_reads_a_timeout_in_seconds() -> None:
    assert speed.parse_options(["--against", "HEAD", "--timeout", "2.5"]).timeout == 2.5
    assert speed.parse_options(["--against", "HEAD"]).timeout == 600.0


@pytest.mark.parametrize("value", ["0", "-3"])
def test_speed_refuses_a_repeat_below_one(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(["--against", "HEAD", "--repeat", value], capsys).startswith(
        f"speed.py: error: argument --repeat: '{value}' is not a number of runs: allowed 1 or more"
    )


def test_speed_refuses_at_the_start_a_json_file_it_could_not_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = tmp_path / "nowhere" / "x.json"
    assert refused(["--against", "HEAD", "--json", str(gone)], capsys) == (
        f"speed.py: error: argument --json: cannot write '{gone}': its folder "
        f"'{gone.parent}' does not exist"
    )
    assert refused(["--quick", "--json", str(tmp_path)], capsys) == (
        f"speed.py: error: argument --json: cannot write '{tmp_path}': it is a folder"
    )
    assert speed.parse_options(["--json", str(tmp_path / "x.json")]).json == str(
        tmp_path / "x.json"
    )
    monkeypatch.setattr(speed.os, "access", lambda path, mode: False)  # type: ignore[attr-defined]  # as if read-only
    assert refused(["--json", str(tmp_path / "x.json")], capsys) == (
        f"speed.py: error: argument --json: cannot write '{tmp_path / 'x.json'}': its folder "
        f"'{tmp_path}' is not writable"
    )


def test_the_figures_are_written_whole_or_not_at_all(tmp_path: Path) -> None:
    path = tmp_path / "figures.json"
    speed.write_json(str(path), {"rows": [1, 2]})
    assert json.loads(path.read_text()) == {"rows": [1, 2]}
    with pytest.raises(TypeError):  # a figure JSON cannot write: the old file stays whole
        speed.write_json(str(path), {"rows": [1, 2], "bad": object()})
    assert json.loads(path.read_text()) == {"rows": [1, 2]}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figures.json"]  # no temporary left


def test_the_runs_alternate_which_kow_goes_first() -> None:
    order: list[str] = []
    runs = speed.interleaved(4, lambda side: order.append(side) or len(order))  # type: ignore[func-returns-value]
    assert order == ["old", "new", "new", "old", "old", "new", "new", "old"]
    assert runs == {"old": [1, 4, 5, 8], "new": [2, 3, 6, 7]}


def test_the_figures_of_a_row() -> None:
    """Seconds per run, old 2, 4, 3 and new 1, 1, 2: medians 3 and 1, pairs 2, 4, 1.5."""
    f = speed.figures({"old": [2.0, 4.0, 3.0], "new": [1.0, 1.0, 2.0]}, {"old": 60, "new": 60})
    assert (f["old_seconds"], f["new_seconds"], f["old_rate"], f["new_rate"]) == (3, 1, 20, 60)
    assert (f["speed_ratio"], f["pair_ratio_min"], f["pair_ratio_max"]) == (3, 1.5, 4)


def test_outputs_compared_but_for_the_kow_version(tmp_path: Path) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    old.write_bytes(line(0, "0.5.0") + line(1, "0.5.0"))
    new.write_bytes(line(0, "0.6.0") + line(1, "0.6.0"))
    assert speed.first_difference(old, new) == (None, ())
    new.write_bytes(line(0, "0.6.0") + line(2, "0.6.0"))
    assert speed.first_difference(old, new) == ("game 2 differs", ())
    new.write_bytes(line(0) + line(1) + b"x\n")
    assert speed.first_difference(old, new, "line") == (
        "the new kow wrote more lines (line 3 on)",
        (),
    )


def test_a_new_kow_may_add_fields_to_the_games_not_change_them(tmp_path: Path) -> None:
    """0.5.0's games against a later kow's: ``result.termination`` added, nothing else."""
    old, new = tmp_path / "old", tmp_path / "new"
    game = '{"kow_version":"V","rounds":[{"n":1},{"n":2}],"result":{"winner":W}}\n'
    old.write_text(game.replace("V", "0.5.0").replace("W", "0") + game.replace("W", "1"))
    added = game.replace('"winner":W', '"winner":W,"termination":"sweep"')
    new.write_text(added.replace("V", "0.6.0").replace("W", "0") + added.replace("W", "1"))
    assert speed.first_difference(old, new) == (None, ("result.termination",))
    assert speed.first_difference(old, new, "line") == ("line 1 differs", ())  # bytes only
    new.write_text(added.replace("W", "0") + added.replace("W", "1").replace('"n":2', '"n":3'))
    assert speed.first_difference(old, new) == ("game 2 differs", ())
    assert speed.added_fields({"a": [{"b": 1}]}, {"a": [{"b": 1, "c": 0}], "d": 3}) == [
        "d", "a[].c"
    ]  # fmt: skip
    assert speed.added_fields({"a": 1, "b": 2}, {"b": 2, "a": 1}) is None  # reordered
    assert speed.added_fields({"a": 1}, {"b": 1}) is None  # a field gone
    assert speed.added_fields({"a": [1, 2]}, {"a": [1, 2, 3]}) is None
    assert speed.added_fields({"a": 1}, {"a": True}) is None  # equal in Python, not in JSON


def test_the_loops_compared_by_their_choices() -> None:
    same = {"old": [{"work": 5, "digest": "a" * 64}] * 2, "new": [{"work": 5, "digest": "a" * 64}]}
    assert speed.loop_difference(same) is None
    other = {**same, "new": [{"work": 6, "digest": "b" * 64}]}
    assert speed.loop_difference(other) == (
        "the kows chose different actions (5 old, 6 new; SHA-256 aaaaaaaaaaaa... and "
        "bbbbbbbbbbbb...)"
    )
    unsteady = {**same, "old": [{"work": 5, "digest": "a" * 64}, {"work": 5, "digest": "c" * 64}]}
    assert speed.loop_difference(unsteady) == (
        "the old kow's runs chose different actions from one another"
    )


TINY = {"random": 2, "heuristic": 2, "search": 1, "log": 3, "pettingzoo": 1, "apply": 2,
        "decision": 1, "export-share": 2}  # fmt: skip


def against(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, old_python: str, only: list[str]
) -> dict[str, object]:
    """Run --against in this process with the working tree on both sides, ``old_python``
    running the old one; return what --json saved."""
    home = ROOT / "kow"
    old = speed.Kow("old tree", old_python, ROOT, home, {"kow": "?", "click": None})
    new = speed.Kow("working tree", sys.executable, ROOT, home, {"kow": "?", "click": None})
    monkeypatch.setattr(speed, "install", lambda ref, cwd, timeout: old)
    monkeypatch.setattr(speed, "working_tree", lambda timeout: new)
    monkeypatch.setattr(speed, "AGAINST_GAMES_QUICK", TINY)
    monkeypatch.setattr(speed, "CLEAN_ENV", {k: v for k, v in speed.CLEAN_ENV.items()
                                             if k != "PYTHONPATH"})  # fmt: skip
    out = tmp_path / "figures.json"
    opts = speed.argparse.Namespace(against="OLD", tree=None, quick=True, repeat=1, only=only,  # type: ignore[attr-defined]
                                    timeout=120.0, json=str(out))  # fmt: skip
    try:
        speed.main_against(opts)
    finally:
        assert out.exists()
    found: dict[str, object] = json.loads(out.read_text())
    return found


def test_against_times_every_row_asked_and_checks_both_agree(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    found = against(monkeypatch, tmp_path, sys.executable, ["apply", "random", "verify"])
    rows = found["against"]["rows"]  # type: ignore[index]
    assert [r["row"] for r in rows] == ["random", "verify", "apply"]  # in the order of ROWS
    assert [r["same"] for r in rows] == [True, True, True]
    assert [r["what"] for r in rows[:2]] == [
        "kow simulate --bots random --players 4 --games 2 --seed 1 --quiet --jobs 1",
        "kow verify LOG",
    ]
    assert [r["unit"] for r in rows] == ["games/s", "games/s", "steps/s"]
    assert rows[2]["old_steps"] == rows[2]["new_steps"] > 0
    assert all(len(r["old_runs"]) == len(r["new_runs"]) == 1 for r in rows)
    assert found["against"]["log"] == {  # type: ignore[index]
        "games": 3, "seed": 2, "bots": "random", "players": 4
    }  # fmt: skip
    printed = capsys.readouterr().out
    assert "| random | simulate --bots random | 2 |" in printed
    assert "| verify | verify LOG | 3 |" in printed
    assert "| apply | new_game + State.apply, random legal actions | 2 |" in printed
    assert printed.rstrip().endswith("the same actions (the loops).")
    assert [r["added_fields"] for r in rows[:2]] == [[], []]


def test_export_share_weighs_each_kows_export_against_its_simulate(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    found = against(monkeypatch, tmp_path, sys.executable, ["export-share"])
    (row,) = found["against"]["rows"]  # type: ignore[index]
    assert (row["row"], row["games"], row["same"]) == ("export-share", 2, True)
    for side in ("old", "new"):
        simulated, exported = row["runs"][f"{side}-simulate"], row["runs"][f"{side}-export"]
        assert len(simulated) == len(exported) == 1 and min(simulated + exported) > 0
        assert row[f"{side}_share"] == exported[0] / simulated[0]
    assert row["share_min"] == row["share_max"] == row["new_share"]
    printed = capsys.readouterr().out
    assert "## CPU of export --table all over simulate's" in printed
    assert "| export-share | 2 |" in printed


def test_export_share_compares_the_games_tables_without_their_versions() -> None:
    # Each kow exports the log it wrote, whose kow_version is its own.
    games = b'file,game,seed,kow_version,winner\nLOG,1,7,0.5.0,2\n"a,b",2,,0.6.0,1\n'
    assert speed.without_version(games) == b'file,game,seed,winner\nLOG,1,7,2\n"a,b",2,,1\n'
    plays = b"file,game,seed,round\nLOG,1,7,1\n"
    assert speed.without_version(plays) == plays


def test_against_refuses_outputs_that_differ(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An old kow whose ``verify`` writes one more line: the row says NO, and exit 1."""
    fake = tmp_path / "python"
    fake.write_text(f'#!/bin/sh\n"{sys.executable}" "$@"\nstatus=$?\n'
                    '[ "$3" = verify ] && echo "one more line"\nexit $status\n')  # fmt: skip
    fake.chmod(0o755)
    with pytest.raises(SystemExit) as stop:
        against(monkeypatch, tmp_path, str(fake), ["verify", "export"])
    assert stop.value.code == 1
    rows = json.loads((tmp_path / "figures.json").read_text())["against"]["rows"]
    assert [(r["row"], r["same"], r["difference"]) for r in rows] == [
        ("verify", False, "the old kow wrote more lines (line 2 on)"),
        ("export", True, None),
    ]
    printed = capsys.readouterr().out
    assert "| verify | verify LOG | 3 |" in printed and printed.count("| NO |") == 1
    assert printed.rstrip().endswith(
        "The outputs differ on the verify row: the old kow wrote more lines (line 2 on) "
        "(the kow_version field aside)."
    )


# --- benchmarks/online.py: a short load of a real server ---------------------------------


def test_the_online_load_reports_every_figure_and_verifies_its_logs() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "online.py"), "--tables", "2", "--games", "1",
         "--json", "-"],
        capture_output=True, text=True, cwd=ROOT, timeout=240, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert (figures["tables"], figures["games_per_table"], figures["bots"]) == (2, 1, 8)
    assert (figures["games_finished"], figures["games_lost"], figures["tables_lost"]) == (2, 0, 0)
    assert figures["games_per_second"] > 0 and figures["seconds"] > 0
    trip = figures["round_trip_ms"]
    assert figures["decisions"] > 2 * 20  # a game of 4 players asks dozens of decisions
    assert 0 < trip["median"] <= trip["p99"] <= trip["max"]
    assert 10 < figures["server_peak_mib"] < 1000
    assert figures["logs"] == 2
    assert figures["verify"] == {"exit": 0, "summary": ["2 games in 2 files: 2 legal, 0 faulty"]}
    assert figures["errors"] == []
    assert "round trip (ms)" in done.stderr and "games per second" in done.stderr


# --- benchmarks/signals.py: what a stopped simulate -o FILE may leave (issue 33) ------

import signals  # noqa: E402


def test_signals_accepts_the_file_left_as_it_was_or_the_games_said() -> None:
    game = b'{"result": {"winner": 0}}\n'
    left = "Stopped by SIGTERM after 0 of 1000000 games: 'g' was left as it was (not written)."
    assert signals.kept_fault(b"earlier run\n", left) == []
    said = "... after 2 of 9 games: games 0 to 1 of the run are written whole to 'g'. ..."
    assert signals.kept_fault(game * 2, said) == []
    assert signals.kept_fault(game, "game 0 of the run is written whole to 'g'.") == []


def test_signals_finds_a_file_that_does_not_hold_what_the_run_said() -> None:
    game = b'{"result": {"winner": 0}}\n'
    said = "games 0 to 1 of the run are written whole to 'g'."
    assert signals.kept_fault(game * 3, said) == ["3 lines kept (last whole: True), 2 said"]
    assert signals.kept_fault(game + game[:9], said)[0].startswith("1 lines kept")
    assert signals.kept_fault(game + b"{}\n", said)[0].startswith("a kept line is not")
    assert signals.kept_fault(game * 2, "Stopped.") != []
    assert signals.kept_fault(b"earlier run\n", said) == ["the earlier file kept, but not said"]


# --- benchmarks/jobs_wall.py: --jobs 2 against --jobs 1, the same bytes -------------------

import jobs_wall  # noqa: E402


def test_jobs_wall_times_both_jobs_and_checks_their_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tree = speed.Kow("working tree", sys.executable, ROOT, ROOT / "kow")
    figures = jobs_wall.row(tree, "random", 30, 2, tmp_path)
    assert [len(figures["runs"][jobs]) for jobs in (1, 2)] == [2, 2]
    assert figures["ratio"] == figures["jobs1_wall"] / figures["jobs2_wall"] > 0
    assert figures["pair_ratio_min"] <= figures["pair_ratio_max"]
    assert "working tree, random: --jobs 1 " in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []  # each file removed
    real = jobs_wall.timed

    def other_bytes(kow: speed.Kow, bots: str, games: int, jobs: int, output: Path) -> object:
        found = real(kow, bots, games, jobs, output)
        if jobs == 2:
            output.write_bytes(output.read_bytes()[:-1] + b" ")
        return found

    monkeypatch.setattr(jobs_wall, "timed", other_bytes)
    with pytest.raises(SystemExit, match="random: --jobs 2 wrote other bytes"):
        jobs_wall.row(tree, "random", 30, 1, tmp_path)
