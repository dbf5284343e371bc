"""Measure ``--cluster local`` against ``--jobs``: its speed-up, its start-up, its cost per task.

Run: ``python benchmarks/cluster.py [--python PY] [--repeat N] [--quick] [--json FILE]``.
``PY`` is the Python whose installed kow is timed (default: this one); it needs Ray
(``pip install '.[ray]'``). Every kow command runs from a folder outside the checkout,
so the installed build is what runs. It measures, in this order:

- **the bytes**: ``kow simulate --bots heuristic --seed 1 --games G`` with ``--jobs 1``,
  ``--jobs 2`` and ``--cluster local`` to files, compared byte for byte (sha256 shown);
- **speed-up**: the wall seconds of those three, ``--repeat`` times each, interleaved, and
  of ``kow tournament --bots search,heuristic,heuristic,heuristic --games T --seed 1``
  (the work a cluster is for) with ``--jobs 1``, ``--jobs 2`` and ``--cluster local``; the
  tournaments' results must be the same but for the time per decision;
- **start-up**: ``kow simulate --games 1 --cluster local`` against ``--jobs 1`` (a local
  Ray runtime started and stopped);
- **cost per task**: in one process connected to a local Ray runtime of 2 CPUs, the
  seconds per item of ``on_ray().map`` over ``N`` items that do nothing
  (``abs``), against kow's own pool of 2 processes (``Processes(2)``) on the same items.

Prints a table per part; ``--json FILE`` keeps every time. Medians throughout.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kow.entries import number_type

SEARCH = "search,heuristic,heuristic,heuristic"


def run(python: str, args: list[str], cwd: str, out: str | None = None) -> float:
    """Run ``python -m kow ARGS`` in ``cwd`` (stdout to ``out`` or nowhere); return wall s."""
    started = time.perf_counter()
    with open(out or os.devnull, "wb") as sink:
        done = subprocess.run([python, "-m", "kow", *args], cwd=cwd, stdout=sink,
                              stderr=subprocess.PIPE, check=False)  # fmt: skip
    seconds = time.perf_counter() - started
    if done.returncode:
        sys.exit(f"kow {' '.join(args)} failed ({done.returncode}): {done.stderr.decode()}")
    return seconds


def digest(path: str) -> str:
    """Return the sha256 of a file's bytes, hex."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def tournament_results(path: str) -> Any:
    """Return a tournament's JSON results without its wall-clock times."""
    result = json.loads(Path(path).read_text())
    for row in result["results"]:
        row.pop("mean_decision_ms")
    return result


def timed_rows(python: str, cwd: str, rows: dict[str, list[str]], repeat: int) -> dict[str, Any]:
    """Run each row ``repeat`` times, interleaved; return each row's seconds."""
    seconds: dict[str, list[float]] = {name: [] for name in rows}
    for turn in range(repeat):
        order = list(rows) if turn % 2 == 0 else list(reversed(rows))
        for name in order:
            seconds[name].append(run(python, rows[name], cwd))
    return seconds


def task_cost(python: str, items: int) -> dict[str, float]:
    """Return the seconds per item of Ray tasks and of kow's pool, timed in ``python``."""
    code = f"""
import json, time, ray
from kow.runs.executors import Processes, on_ray, ray_connection
items = range({items})
out = {{}}
with ray_connection("local"):
    list(on_ray().map(abs, range(50)))  # workers started
    start = time.perf_counter(); list(on_ray().map(abs, items))
    out["ray"] = (time.perf_counter() - start) / {items}
start = time.perf_counter(); list(Processes(2).map(abs, items))
out["processes"] = (time.perf_counter() - start) / {items}
print(json.dumps(out))
"""
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True,
                          cwd=tempfile.gettempdir())  # fmt: skip
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default=sys.executable, help="the Python whose kow to time")
    parser.add_argument("--repeat", type=number_type(1, 100, "a number of runs"), default=3,
                        help="runs of each row (default 3)")  # fmt: skip
    parser.add_argument("--quick", action="store_true", help="fewer games and tasks")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    args = parser.parse_args()
    games, tournament, items = (20_000, 40, 500) if args.quick else (100_000, 200, 3000)
    figures: dict[str, Any] = {"python": args.python, "games": games, "tournament": tournament}
    with tempfile.TemporaryDirectory(prefix="kow-cluster-") as tmp:
        sim = ["simulate", "--bots", "heuristic", "--seed", "1", "--games", str(games), "-q"]
        tour = ["tournament", "--bots", SEARCH, "--games", str(tournament), "--seed", "1",
                "--json"]  # fmt: skip
        ways = {"--jobs 1": ["--jobs", "1"], "--jobs 2": ["--jobs", "2"],
                "--cluster local": ["--cluster", "local"]}  # fmt: skip
        print(f"# The bytes: simulate, {games:,} games of heuristic bots", file=sys.stderr)
        sums = {}
        for name, way in ways.items():
            path = f"{tmp}/{name.replace(' ', '')}.jsonl"
            run(args.python, [*sim, *way, "-o", path], tmp)
            sums[name] = digest(path)
            print(f"{name:16} sha256 {sums[name]}", file=sys.stderr)
        figures["sha256"] = sums
        if len(set(sums.values())) != 1:
            sys.exit("the outputs differ")
        results = {}
        for name, way in ways.items():
            path = f"{tmp}/t{name.replace(' ', '')}.json"
            run(args.python, [*tour, *way], tmp, out=path)
            results[name] = tournament_results(path)
        if any(each != results["--jobs 1"] for each in results.values()):
            sys.exit("the tournaments' results differ")
        figures["tournament_results"] = results["--jobs 1"]["results"]
        print("the tournaments' results are the same", file=sys.stderr)
        rows = {f"simulate {name}": [*sim, *way] for name, way in ways.items()}
        rows |= {f"tournament {name}": [*tour, *way] for name, way in ways.items()}
        rows |= {"start-up --jobs 1": ["simulate", "--games", "1", "--jobs", "1"],
                 "start-up --cluster local": ["simulate", "--games", "1", "--cluster", "local"]}
        seconds = timed_rows(args.python, tmp, rows, args.repeat)
    figures["seconds"] = seconds
    print("\n| row | median s | runs (s) | against --jobs 1 |\n|---|---:|---|---:|")
    for name, each in seconds.items():
        base = seconds.get(name.rsplit(" ", 2)[0] + " --jobs 1", each)
        ratio = statistics.median(base) / statistics.median(each)
        runs = ", ".join(f"{s:.2f}" for s in each)
        print(f"| {name} | {statistics.median(each):.2f} | {runs} | {ratio:.2f}x |")
    cost = task_cost(args.python, items)
    figures["seconds_per_task"] = cost
    ray_ms, pool_ms = cost["ray"] * 1000, cost["processes"] * 1000
    print(f"\ncost per item over {items} items that do nothing: Ray tasks {ray_ms:.2f} ms,"
          f" kow's 2 processes {pool_ms:.3f} ms")  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
