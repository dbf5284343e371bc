"""The examples: each jq recipe and win-rate script, run on small simulated files.

Every figure is checked against the same figure computed here in Python from the same file.
The jq tests skip when ``jq`` is not on PATH, the pandas tests when pandas is not installed.
"""

from __future__ import annotations

import csv
import functools
import gzip
import importlib.util
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
from optional import needs

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
RECIPES = EXAMPLES / "recipes.sh"
WIN_RATES = EXAMPLES / "win_rates.py"
WIN_RATES_PANDAS = EXAMPLES / "win_rates_pandas.py"

needs_jq = pytest.mark.skipif(shutil.which("jq") is None, reason="jq is not on PATH")
needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not on PATH")


def simulate(path: Path, *options: str) -> list[dict[str, Any]]:
    """Write ``kow simulate OPTIONS`` to ``path``; return its games."""
    with path.open("w") as out:
        subprocess.run(
            [sys.executable, "-m", "kow", "simulate", *options], stdout=out, cwd=ROOT, check=True
        )
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[dict[str, Any]]]]:
    """Return small simulated files by name: ``(path, games)``.

    ``mixed``: 4 mixed bots then 3 (seat 3 sits in only some games); ``dogs``: a dog's life
    with no sweep wins, 5 players.
    """
    tmp = tmp_path_factory.mktemp("examples")
    four = simulate(tmp / "four.jsonl", "--seed", "11", "--games", "60",
                    "--bots", "heuristic,random,random,random")  # fmt: skip
    three = simulate(tmp / "three.jsonl", "--seed", "12", "--games", "30", "--players", "3",
                     "--bots", "random,heuristic,heuristic")  # fmt: skip
    mixed = tmp / "mixed.jsonl"
    mixed.write_text((tmp / "four.jsonl").read_text() + (tmp / "three.jsonl").read_text())
    dogs = simulate(tmp / "dogs.jsonl", "--seed", "13", "--games", "40", "--players", "5",
                    "--dogs-life", "once-per-game", "--no-sweep-wins")  # fmt: skip
    return {"mixed": (mixed, four + three), "dogs": (tmp / "dogs.jsonl", dogs)}


def run(*args: str | Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run a command with this checkout's kow first on the path (the scripts import it);
    return the finished process (text, stdout and stderr captured)."""
    return subprocess.run(
        [str(a) for a in args], input=stdin, capture_output=True, text=True, check=False,
        env=with_checkout(),
    )  # fmt: skip


def recipe(name: str, path: Path) -> list[dict[str, Any]]:
    """Run one jq recipe; return its output lines as JSON objects."""
    done = run("bash", RECIPES, name, path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return [json.loads(line) for line in done.stdout.splitlines()]


def rate(part: int, whole: int) -> float:
    """Return ``part / whole`` rounded to 3 decimals as jq does it: ``. * 1000 | round / 1000``.

    jq's ``round`` is C's: halves away from zero, where Python's ``round`` goes to even.
    """
    return int(Decimal(part / whole * 1000).quantize(Decimal(1), ROUND_HALF_UP)) / 1000


# jq recipes


@needs_jq
@needs_bash
@pytest.mark.parametrize("name", ["mixed", "dogs"])
def test_wins_by_seat(files: dict[str, Any], name: str) -> None:
    path, games = files[name]
    rows = recipe("wins-by-seat", path)
    assert {r["seat"]: r["wins"] for r in rows} == Counter(g["result"]["winner"] for g in games)
    assert sum(r["wins"] for r in rows) == len(games)
    assert [r["seat"] for r in rows] == sorted(r["seat"] for r in rows)


@needs_jq
@needs_bash
@pytest.mark.parametrize("name", ["mixed", "dogs"])
def test_early_sweeps(files: dict[str, Any], name: str) -> None:
    path, games = files[name]
    for g in games:  # the premise: the winner takes every trick of the last round played
        last = g["rounds"][-1]
        assert last["tricks_won"][g["result"]["winner"]] == last["hand_size"]
    early = sum(g["rounds"][-1]["hand_size"] > 1 for g in games)
    assert recipe("early-sweeps", path) == [
        {"games": len(games), "ended_early": early, "rate": rate(early, len(games))}
    ]
    assert 0 < early < len(games)


@needs_jq
@needs_bash
def test_mean_rounds(files: dict[str, Any]) -> None:
    path, games = files["mixed"]
    assert all(g["result"]["rounds_played"] == len(g["rounds"]) for g in games)
    total = sum(len(g["rounds"]) for g in games)
    assert recipe("mean-rounds", path) == [
        {"games": len(games), "mean_rounds": rate(total, len(games))}
    ]
    assert len(games) <= total <= 7 * len(games)


@needs_jq
@needs_bash
@pytest.mark.parametrize("name", ["mixed", "dogs"])
def test_trump_survival(files: dict[str, Any], name: str) -> None:
    path, games = files[name]
    players: Counter[bool] = Counter()
    survived: Counter[bool] = Counter()
    for g in games:
        r = g["rounds"][0]
        for seat, hand in enumerate(r["hands"]):
            held = any(card[1] == r["trump"] for card in hand)
            players[held] += 1
            survived[held] += seat not in r["eliminated"]
    want = [
        {"held_trump": held, "players": players[held], "survived": survived[held],
         "rate": rate(survived[held], players[held])}
        for held in (False, True)
    ]  # fmt: skip
    rows = recipe("trump-survival", path)
    assert rows == want
    assert sum(r["players"] for r in rows) == sum(len(g["players"]) for g in games)
    assert all(0 <= r["rate"] <= 1 for r in rows)
    if name == "dogs":  # a dog's life for all who took no trick: nobody is out after round 1
        assert all(r["survived"] == r["players"] for r in rows)
    else:
        assert any(r["survived"] < r["players"] for r in rows)


@needs_jq
@needs_bash
@pytest.mark.parametrize("name", ["mixed", "dogs"])
def test_round1_tricks(files: dict[str, Any], name: str) -> None:
    path, games = files[name]
    players: Counter[int] = Counter()
    won: Counter[int] = Counter()
    for g in games:
        for seat, tricks in enumerate(g["rounds"][0]["tricks_won"]):
            players[tricks] += 1
            won[tricks] += seat == g["result"]["winner"]
    rows = recipe("round1-tricks", path)
    assert rows == [
        {"tricks_in_round_1": t, "players": players[t], "won_game": won[t],
         "rate": rate(won[t], players[t])}
        for t in sorted(players)
    ]  # fmt: skip
    assert sum(r["won_game"] for r in rows) == len(games)
    assert sum(r["tricks_in_round_1"] * r["players"] for r in rows) == 7 * len(games)


@needs_jq
@needs_bash
def test_recipes_sh_runs_every_recipe_under_a_heading(files: dict[str, Any]) -> None:
    path, _ = files["mixed"]
    names = run("bash", RECIPES, "--list").stdout.split()
    assert names == ["wins-by-seat", "early-sweeps", "mean-rounds", "trump-survival",
                     "round1-tricks"]  # fmt: skip
    done = run("bash", RECIPES, path)
    assert done.returncode == 0, done.stderr
    headings = [line[3:] for line in done.stdout.splitlines() if line.startswith("## ")]
    assert headings == names


@needs_jq
@needs_bash
def test_recipes_sh_usage_errors(tmp_path: Path) -> None:
    done = run("bash", RECIPES, "no-such-recipe", RECIPES)
    assert done.returncode == 2 and "no-such-recipe" in done.stderr and done.stdout == ""
    done = run("bash", RECIPES, tmp_path / "missing.jsonl")
    assert done.returncode == 1 and "missing.jsonl" in done.stderr and done.stdout == ""
    assert run("bash", RECIPES).returncode == 2


def test_readme_shows_every_recipe_as_written() -> None:
    """Each recipe's jq command appears in examples/README.md, on ``games.jsonl``."""
    script = RECIPES.read_text()
    readme = (EXAMPLES / "README.md").read_text()
    bodies = re.findall(r"^([a-z0-9_]+)\(\) \{\n(jq .*?)\n\}$", script, re.M | re.S)
    names = re.search(r'^RECIPES="(.*)"$', script, re.M)
    assert names is not None
    assert [n for n, _ in bodies] == [n.replace("-", "_") for n in names[1].split()]
    for name, body in bodies:
        command = textwrap.dedent(body).replace('"$1"', "games.jsonl")
        assert command in readme, name
        assert f"examples/recipes.sh {name.replace('_', '-')} games.jsonl" in readme, name


# win_rates.py and win_rates_pandas.py


def expected_rates(games: list[dict[str, Any]]) -> tuple[dict[Any, tuple[int, int]], ...]:
    """Return ``({seat: (games, wins)}, {kind: (seat-games, wins)})`` computed directly."""
    seat_games: Counter[int] = Counter()
    seat_wins: Counter[int] = Counter()
    kind_games: Counter[str] = Counter()
    kind_wins: Counter[str] = Counter()
    for g in games:
        winner = g["result"]["winner"]
        for p in g["players"]:
            seat_games[p["seat"]] += 1
            kind_games[p["kind"]] += 1
            seat_wins[p["seat"]] += p["seat"] == winner
            kind_wins[p["kind"]] += p["seat"] == winner
    return (
        {s: (seat_games[s], seat_wins[s]) for s in seat_games},
        {k: (kind_games[k], kind_wins[k]) for k in kind_games},
    )


def parse_tables(text: str) -> tuple[dict[Any, tuple[int, int, float]], ...]:
    """Return the by-seat and by-kind tables of either script as ``{key: (n, wins, rate)}``."""
    tables: list[dict[Any, tuple[int, int, float]]] = []
    for block in text.strip().split("\n\n"):
        rows = {}
        for line in block.splitlines():
            cells = line.split()
            if len(cells) == 4 and cells[1].isdigit():
                key: Any = int(cells[0]) if cells[0].isdigit() else cells[0]
                rows[key] = (int(cells[1]), int(cells[2]), float(cells[3]))
        tables.append(rows)
    assert len(tables) == 2, text
    return tables[0], tables[1]


def check_rates(text: str, games: list[dict[str, Any]]) -> None:
    """Assert the printed tables match a direct count over ``games``."""
    got = parse_tables(text)
    for table, want in zip(got, expected_rates(games), strict=True):
        assert {k: v[:2] for k, v in table.items()} == want
        assert sum(wins for _, wins, _ in table.values()) == len(games)
        for n, wins, r in table.values():
            assert 0 <= r <= 1 and r == pytest.approx(wins / n, abs=0.0005)


def test_win_rates(files: dict[str, Any]) -> None:
    path, games = files["mixed"]
    done = run(sys.executable, WIN_RATES, path)
    assert done.returncode == 0 and done.stderr == ""
    check_rates(done.stdout, games)
    seats, kinds = parse_tables(done.stdout)
    assert seats[3][0] == 60 and seats[0][0] == 90  # seat 3 sat in the 4-player games only
    assert set(kinds) == {"heuristic", "random"}
    assert done.stdout.splitlines()[0].split() == ["seat", "games", "wins", "win", "rate"]
    from_stdin = run(sys.executable, WIN_RATES, "-", stdin=path.read_text())
    assert from_stdin.returncode == 0 and from_stdin.stdout == done.stdout


def test_win_rates_pandas_agrees(
    files: dict[str, Any], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    main = main_of(WIN_RATES_PANDAS)
    path, games = files["mixed"]
    done = run(sys.executable, WIN_RATES_PANDAS, path)
    assert done.returncode == 0 and done.stderr == ""
    check_rates(done.stdout, games)
    assert parse_tables(done.stdout) == parse_tables(run(sys.executable, WIN_RATES, path).stdout)
    stdin_of(monkeypatch, path.read_bytes())
    assert main(["-"]) == 0
    assert capsys.readouterr() == (done.stdout, "")


def test_win_rates_pandas_without_pandas(files: dict[str, Any]) -> None:
    """With pandas hidden, the script says to install it, on stderr, and exits 1."""
    path, _ = files["mixed"]
    code = (
        "import runpy, sys; sys.modules['pandas'] = None; "
        f"sys.argv = [{str(WIN_RATES_PANDAS)!r}, {str(path)!r}]; "
        f"runpy.run_path({str(WIN_RATES_PANDAS)!r}, run_name='__main__')"
    )
    done = run(sys.executable, "-c", code)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == "win_rates_pandas.py: pandas is not installed; run: pip install pandas\n"


@functools.cache
def script_module(path: Path) -> Any:
    """Import a script as a module (once), to call its ``main(argv)`` in this process."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main_of(path: Path) -> Any:
    """Return a script's ``main``; skip the pandas script when pandas is not installed."""
    if path == WIN_RATES_PANDAS:
        pytest.importorskip("pandas")
    return script_module(path).main


def stdin_of(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    """Make ``sys.stdin`` read ``data``."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


SCRIPTS = pytest.mark.parametrize("script", [WIN_RATES, WIN_RATES_PANDAS], ids=lambda s: s.name)


@SCRIPTS
def test_win_rates_skip_abandoned_games(
    files: dict[str, Any], script: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    main = main_of(script)
    path, games = files["mixed"]
    lines = path.read_text().splitlines()
    cut = json.loads(lines[0])
    cut["result"]["winner"] = None
    cut["abandoned"] = True
    short = tmp_path / "short.jsonl"
    short.write_text("\n".join([json.dumps(cut), *lines[1:]]) + "\n\n")
    assert main([str(short)]) == 0
    out, err = capsys.readouterr()
    assert err == f"{script.name}: skipped 1 abandoned game(s)\n"
    check_rates(out, games[1:])


BAD_INPUTS = {
    "not JSON": (b'{"format": kow-log}\n', "line 3, column 12: not JSON: Expecting value\n"),
    "not a log": (b'{"a": 1}\n', "line 3: no 'players' list"),
    "bad winner": (
        b'{"players": [{"seat": 0, "kind": "random"}], "result": {"winner": 4}}\n',
        "line 3: 'result.winner' is 4, not a seat of this game\n",
    ),
    "not UTF-8": (b'{"players": "\xff"}\n', "line 3, column 14: not UTF-8 text"),
}


@SCRIPTS
@pytest.mark.parametrize("bad", list(BAD_INPUTS))
def test_win_rates_bad_input(
    files: dict[str, Any],
    script: Path,
    bad: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """Input it cannot read: exit 1, one line on stderr naming the file and line."""
    main = main_of(script)
    line, message = BAD_INPUTS[bad]
    path, _ = files["mixed"]
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:2]) + line)
    for argv, name in ([str(broken)], str(broken)), (["-"], "<stdin>"):
        stdin_of(monkeypatch, broken.read_bytes())
        assert main(argv) == 1
        out, err = capsys.readouterr()
        assert out == ""
        assert err.startswith(f"{script.name}: {name}, {message}")
        assert err.count("\n") == 1


@SCRIPTS
def test_win_rates_unreadable_empty_or_misused(
    script: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    main = main_of(script)
    missing = tmp_path / "missing.jsonl"
    assert main([str(missing)]) == 1
    assert capsys.readouterr() == (
        "",
        f"{script.name}: {missing}: cannot read: No such file or directory\n",
    )
    assert main([str(tmp_path)]) == 1
    assert capsys.readouterr().err.startswith(f"{script.name}: {tmp_path}: cannot read: ")
    stdin_of(monkeypatch, b"\n")
    assert main(["-"]) == 1
    assert capsys.readouterr() == ("", f"{script.name}: <stdin>: no finished games\n")
    with pytest.raises(SystemExit) as exit_:
        main([])
    assert exit_.value.code == 2 and "usage:" in capsys.readouterr().err


def test_win_rates_scripts_never_show_a_traceback(tmp_path: Path) -> None:
    """As a process, too: bad input is one line on stderr and exit 1."""
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not json\n")
    done = run(sys.executable, WIN_RATES, broken)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"win_rates.py: {broken}, line 1, column 1: not JSON: Expecting value\n"


@SCRIPTS
def test_win_rates_read_every_file_kow_verify_reads(
    files: dict[str, Any], script: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """kow.log.iter_games reads the logs: --pretty output, arrays and gzip give the same."""
    main = main_of(script)
    path, games = files["mixed"]
    assert main([str(path)]) == 0
    lines = capsys.readouterr().out
    pretty = tmp_path / "pretty.json"
    pretty.write_text("".join(json.dumps(g, indent=2) + "\n" for g in games))
    array = tmp_path / "array.json"
    array.write_text(json.dumps(games))
    packed = tmp_path / "games.jsonl.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    for other in (pretty, array, packed):
        assert main([str(other)]) == 0
        assert capsys.readouterr() == (lines, ""), other.name


# kow export's tables in pandas (tables_pandas.py), and DuckDB on the JSON Lines
# (recipes.sql, duckdb_recipes.py)

TABLES_PANDAS = EXAMPLES / "tables_pandas.py"
DUCKDB_RECIPES = EXAMPLES / "duckdb_recipes.py"
RECIPES_SQL = EXAMPLES / "recipes.sql"
RANKS = "23456789TJQKA"

needs_duckdb = pytest.mark.skipif(
    importlib.util.find_spec("duckdb") is None, reason="duckdb is not installed"
)
needs_pandas = pytest.mark.skipif(
    importlib.util.find_spec("pandas") is None, reason="pandas is not installed"
)


def with_checkout() -> dict[str, str]:
    """Return the environment with this checkout's kow first on the path."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }


def run_script(
    script: Path, *args: str | Path, cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    """Run an example script with this Python and this checkout's kow."""
    return subprocess.run(
        [sys.executable, str(script), *map(str, args)],
        capture_output=True, text=True, check=False, cwd=cwd, env=with_checkout(),
    )  # fmt: skip


def termination(game: dict[str, Any]) -> str:
    """Return why a finished game ended, from its log alone (the engine's order of reasons)."""
    last = game["rounds"][-1]
    if last["hand_size"] == 1:
        why = "final-trick"
    else:
        swept = max(t or 0 for t in last["tricks_won"]) == len(last["tricks"])
        why = "sweep" if game["rules"]["sweep_wins"] and swept else "last-standing"
    assert why == game["result"]["termination"]  # the log says so too (the engine's word)
    return why


def card_plays(games: list[dict[str, Any]]) -> list[tuple[str, bool, bool]]:
    """Return ``(how, winning once played, won)`` for every card played in ``games``."""
    out = []
    for g in games:
        for r in g["rounds"]:
            for t in r["tricks"]:
                played = [p for p in t["plays"] if not p.get("knock")]
                led = played[0]["card"][1]
                winning = played[0]["card"]
                for i, p in enumerate(played):
                    card = p["card"]
                    if i == 0:
                        how, ahead = "lead", True
                    else:
                        if card[1] == led:
                            how = "followed suit"
                        else:
                            how = "trumped" if card[1] == r["trump"] else "discard"
                        higher = RANKS.index(card[0]) > RANKS.index(winning[0])
                        ahead = (card[1] == winning[1] and higher) or (
                            card[1] == r["trump"] != winning[1]
                        )
                        if ahead:
                            winning = card
                    out.append((how, ahead, p["seat"] == t["winner"]))
    return out


def parse_blocks(text: str) -> list[dict[str, list[str]]]:
    """Return each printed table (blocks split by blank lines) as ``{label: [values]}``.

    The values are a row's last cells, as many as the first header line names; the label
    is what comes before them (it may hold a space: ``followed suit``).
    """
    blocks = []
    for block in text.strip().split("\n\n"):
        lines = block.splitlines()
        width = len(lines[0].split())
        rows = {}
        for line in lines[2:]:
            cells = line.split()
            rows[" ".join(cells[:-width])] = cells[-width:]
        blocks.append(rows)
    return blocks


@needs_pandas
@pytest.mark.parametrize("name", ["mixed", "dogs"])
def test_tables_pandas_figures(files: dict[str, Any], name: str) -> None:
    path, games = files[name]
    done = run_script(TABLES_PANDAS, path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    if name == "mixed":
        assert done.stdout.endswith("\n\nNo player was on a dog's life.\n")
        endings, fates = parse_blocks(done.stdout.rsplit("\n\n", 1)[0])
    else:
        endings, fates, lives = parse_blocks(done.stdout)
    ends = Counter(termination(g) for g in games)
    assert {k: int(v[0]) for k, v in endings.items()} == ends
    for why, (count, mean) in endings.items():
        rounds = [g["result"]["rounds_played"] for g in games if termination(g) == why]
        assert float(mean) == pytest.approx(sum(rounds) / int(count), abs=0.0005)
    plays = card_plays(games)
    assert list(fates) == ["lead", "followed suit", "trumped", "discard"]
    for how, (count, winning, won) in fates.items():
        mine = [p for p in plays if p[0] == how]
        assert int(count) == len(mine)
        assert float(winning) == pytest.approx(sum(p[1] for p in mine) / len(mine), abs=0.0005)
        assert float(won) == pytest.approx(sum(p[2] for p in mine) / len(mine), abs=0.0005)
    assert float(fates["discard"][2]) == 0 and float(fates["lead"][1]) == 1
    if name == "dogs":
        on: Counter[str] = Counter()
        back: Counter[str] = Counter()
        for g in games:
            for r in g["rounds"]:
                for seat in r["dogs_life"]:
                    kind = g["players"][seat]["kind"]
                    on[kind] += 1
                    back[kind] += seat in r["revived"]
        assert {k: (int(v[0]), int(v[1])) for k, v in lives.items()} == {
            k: (on[k], back[k]) for k in on
        }
        assert sum(on.values()) > 0


@needs_pandas
def test_tables_pandas_bad_input(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not json\n")
    done = run_script(TABLES_PANDAS, broken)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith(f"tables_pandas.py: {broken}: line 1, column 1: not JSON")
    assert done.stderr.count("\n") == 1


def test_tables_pandas_without_pandas(files: dict[str, Any]) -> None:
    path, _ = files["mixed"]
    code = (
        "import runpy, sys; sys.modules['pandas'] = None; "
        f"sys.argv = [{str(TABLES_PANDAS)!r}, {str(path)!r}]; "
        f"runpy.run_path({str(TABLES_PANDAS)!r}, run_name='__main__')"
    )
    done = run(sys.executable, "-c", code)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "tables_pandas.py: pandas is not installed; run: pip install pandas\n"


def csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@needs_duckdb
@pytest.mark.parametrize("name", ["mixed", "dogs"])
def test_duckdb_recipes_figures(files: dict[str, Any], name: str) -> None:
    path, games = files[name]
    done = run_script(DUCKDB_RECIPES, "wins-by-kind", path)
    assert done.returncode == 0 and done.stderr == ""
    header, *rows = csv_rows(done.stdout)
    assert header == ["kind", "seat_games", "wins", "win_rate"]
    _, kinds = expected_rates(games)
    assert {k: (int(n), int(w)) for k, n, w, _ in rows} == kinds
    assert [r[0] for r in rows] == sorted(kinds)
    for _, n, w, r in rows:
        assert float(r) == pytest.approx(int(w) / int(n), abs=0.0005)

    done = run_script(DUCKDB_RECIPES, "round1-trumps", path)
    header, *rows = csv_rows(done.stdout)
    assert header == ["trumps", "hands", "mean_tricks"]
    hands: Counter[int] = Counter()
    tricks: Counter[int] = Counter()
    for g in games:
        r = g["rounds"][0]
        for hand, won in zip(r["hands"], r["tricks_won"], strict=True):
            trumps = sum(card[1] == r["trump"] for card in hand)
            hands[trumps] += 1
            tricks[trumps] += won
    assert [(int(t), int(n)) for t, n, _ in rows] == sorted(hands.items())
    for t, n, mean in rows:
        assert float(mean) == pytest.approx(tricks[int(t)] / int(n), abs=0.0005)

    done = run_script(DUCKDB_RECIPES, "winner-place", path)
    header, *rows = csv_rows(done.stdout)
    assert header == ["plays", "winner_place", "tricks", "share"]
    places: Counter[tuple[int, int]] = Counter()
    for g in games:
        for r in g["rounds"]:
            for t in r["tricks"]:
                seats = [p["seat"] for p in t["plays"]]
                places[len(seats), seats.index(t["winner"]) + 1] += 1
    assert [(int(a), int(b), int(c)) for a, b, c, _ in rows] == [
        (*k, v) for k, v in sorted(places.items())
    ]
    for plays, _, count, share in rows:
        whole = sum(v for k, v in places.items() if k[0] == int(plays))
        assert float(share) == pytest.approx(int(count) / whole, abs=0.0005)


@needs_duckdb
def test_duckdb_recipes_cli(files: dict[str, Any], tmp_path: Path) -> None:
    path, _ = files["mixed"]
    done = run_script(DUCKDB_RECIPES, "--list")
    names = done.stdout.split()
    assert names == ["wins-by-kind", "round1-trumps", "winner-place"]
    done = run_script(DUCKDB_RECIPES, path)
    assert done.returncode == 0 and done.stderr == ""
    assert [line[3:] for line in done.stdout.splitlines() if line.startswith("## ")] == names
    one = run_script(DUCKDB_RECIPES, "winner-place", path).stdout
    assert done.stdout.endswith("## winner-place\n" + one)
    done = run_script(DUCKDB_RECIPES, "no-such-recipe", path)
    assert done.returncode == 2 and "no recipe 'no-such-recipe'" in done.stderr
    assert run_script(DUCKDB_RECIPES).returncode == 2
    for bad in (tmp_path / "missing.jsonl", ROOT / "README.md"):
        done = run_script(DUCKDB_RECIPES, "wins-by-kind", bad)
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr.startswith(f"duckdb_recipes.py: {bad}: ")
        assert done.stderr.count("\n") == 1


def test_duckdb_recipes_without_duckdb(files: dict[str, Any]) -> None:
    path, _ = files["mixed"]
    code = (
        "import runpy, sys; sys.modules['duckdb'] = None; "
        f"sys.argv = [{str(DUCKDB_RECIPES)!r}, {str(path)!r}]; "
        f"runpy.run_path({str(DUCKDB_RECIPES)!r}, run_name='__main__')"
    )
    done = run(sys.executable, "-c", code)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "duckdb_recipes.py: duckdb is not installed; run: pip install duckdb\n"


def test_readme_shows_every_sql_recipe_as_written() -> None:
    readme = (EXAMPLES / "README.md").read_text()
    recipes = script_module(DUCKDB_RECIPES).recipes()
    assert list(recipes) == ["wins-by-kind", "round1-trumps", "winner-place"]
    for name, sql in recipes.items():
        assert f"```sql\n{sql}\n```" in readme, name
        assert f"python examples/duckdb_recipes.py {name} " in readme, name
        assert "read_ndjson('games.jsonl')" in sql


@needs_pandas
@needs_duckdb
def test_readme_shows_the_real_output_of_the_tables_and_duckdb(tmp_path: Path) -> None:
    """Make the README's files again and run each command of its pandas and DuckDB
    sections: each prints the output shown under it (pandas' tables compared cell by cell,
    since column widths may differ between pandas versions)."""
    readme = (EXAMPLES / "README.md").read_text()
    files = readme.split("## The files used here", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    for command in files.splitlines():
        words = command.split()
        assert words[:2] == ["kow", "simulate"] and words[-2] == ">"
        with (tmp_path / words[-1]).open("w") as out:
            subprocess.run([sys.executable, "-m", "kow", *words[1:-2]], stdout=out, check=True,
                           cwd=tmp_path, env=with_checkout())  # fmt: skip
    sections = readme.split("## Flat tables in pandas", 1)[1].split("\n## Tests", 1)[0]
    pairs = re.findall(r"```sh\n(.*?)\n```\n\n```text\n(.*?)```", sections, re.S)
    assert len(pairs) == 5
    kow = f"{shlex.quote(sys.executable)} -m kow"
    for command, shown in pairs:
        line = re.sub(r"^kow ", f"{kow} ", command)
        line = re.sub(r"^python examples/", f"{shlex.quote(sys.executable)} {EXAMPLES}/", line)
        done = subprocess.run(["bash", "-c", line], capture_output=True, text=True,
                              cwd=tmp_path, env=with_checkout(), check=False)  # fmt: skip
        assert done.returncode == 0 and done.stderr == "", (command, done.stderr)
        if "tables_pandas.py" in command:
            cells = [line.split() for line in done.stdout.splitlines()]
            assert cells == [line.split() for line in shown.splitlines()], command
        else:
            assert done.stdout == shown, command


# A random agent in PettingZoo (pettingzoo_random.py)

PETTINGZOO_RANDOM = EXAMPLES / "pettingzoo_random.py"


@needs("numpy", "pettingzoo")
def test_readme_shows_the_real_output_of_the_pettingzoo_random_agent(tmp_path: Path) -> None:
    """Run each command of the README's PettingZoo section in an empty folder: each prints
    the output shown under it, and the log written is a finished game of four agents."""
    readme = (EXAMPLES / "README.md").read_text()
    section = readme.split("## A random agent in PettingZoo", 1)[1].split("\n## ", 1)[0]
    pairs = re.findall(r"```sh\n(.*?)\n```\n\n```text\n(.*?)```", section, re.S)
    assert [command.split()[:2] for command, _ in pairs] == [
        ["python", "examples/pettingzoo_random.py"],
        ["kow", "verify"],
    ]
    for command, shown in pairs:
        words = command.split()
        if words[0] == "kow":
            args = [sys.executable, "-m", "kow", *words[1:]]
        else:
            args = [sys.executable, str(PETTINGZOO_RANDOM), *words[2:]]
        done = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path,
                              env=with_checkout(), check=False)  # fmt: skip
        assert (done.returncode, done.stderr) == (0, ""), command
        assert done.stdout == shown, command
    game = json.loads((tmp_path / "game.json").read_text())
    assert [p["kind"] for p in game["players"]] == ["agent"] * 4
    assert "abandoned" not in game and game["result"]["winner"] == 1


@needs("numpy", "pettingzoo")
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "-1"], "'-1' is not a seed: allowed 0 to 9007199254740991, in the digits 0-9"),
        (["--games", "²"], "'²' is not a number of games: allowed 1 to 1000000, in the digits 0-9"),
    ],
)
def test_the_pettingzoo_agent_refuses_odd_numbers_in_one_line(
    args: list[str], message: str
) -> None:
    # --seed -1 ended in numpy's traceback; --games -1 played nothing and said nothing.
    done = subprocess.run([sys.executable, str(PETTINGZOO_RANDOM), *args], capture_output=True,
                          text=True, env=with_checkout(), check=False)  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    option = args[0]
    assert (
        done.stderr.splitlines()[-1] == f"pettingzoo_random.py: error: argument {option}: {message}"
    )


# ----------------------------------------------------------------------------- remote_bot.py

REMOTE_BOT = EXAMPLES / "remote_bot.py"


def test_the_remote_bot_plays_its_games_at_a_real_server_and_their_logs_verify(
    tmp_path: Path,
) -> None:
    from online_support import running_server  # tests/, on the path as for every test

    games = tmp_path / "games.jsonl"
    with running_server(open_tables=True) as server:
        done = subprocess.run(
            [sys.executable, str(REMOTE_BOT), server.address, "--games", "2", "--seed", "1",
             "--players", "3", "--log", str(games)],
            capture_output=True, text=True, check=False, timeout=120, env=with_checkout(),
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"seat 0 at table [A-Z2-7]{4}(-[A-Z2-7]{4}){3}\n", done.stderr)
    logged = [json.loads(line) for line in games.read_text().splitlines()]
    assert len(logged) == 2 and logged[0]["seed"] == 1
    wins = [0, 0, 0]
    lines = done.stdout.splitlines()
    for number, (line, game) in enumerate(zip(lines, logged, strict=True), 1):
        assert game["players"][0] == {"seat": 0, "name": "LowBot", "kind": "agent"}
        assert [p["kind"] for p in game["players"][1:]] == ["heuristic"] * 2
        winner = game["result"]["winner"]
        wins[winner] += 1
        name, rounds = game["players"][winner]["name"], game["result"]["rounds_played"]
        assert line == f"game {number}: {name} (seat {winner}) won in {rounds} rounds;" \
            f" wins by seat {wins}"  # fmt: skip
    verified = subprocess.run(
        [sys.executable, "-m", "kow", "verify", "--against-seed", str(games)],
        capture_output=True, text=True, check=False, timeout=120, env=with_checkout(),
    )  # fmt: skip
    assert verified.returncode == 0
    assert verified.stdout.splitlines()[0] == "2 games in 1 file: 2 legal, 0 faulty"


def test_the_remote_bot_says_in_one_line_that_no_server_answers() -> None:
    done = subprocess.run(
        [sys.executable, str(REMOTE_BOT), "127.0.0.1:1", "--games", "1"],
        capture_output=True, text=True, check=False, timeout=60, env=with_checkout(),
    )  # fmt: skip
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("no kow server at 127.0.0.1:1, or it failed: ")
    assert len(done.stderr.splitlines()) == 1
