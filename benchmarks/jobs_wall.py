"""Time ``kow simulate --jobs 2`` against ``--jobs 1`` by the wall clock: issue 35's target.

Run from a kow checkout on a quiet machine: ``python benchmarks/jobs_wall.py`` (about a
minute per commit: 100,000 games of ``random`` and ``heuristic`` bots). The target asks
``--jobs 2`` to take at most 1/1.8 of the wall time of ``--jobs 1`` on a 2-core machine,
with the same bytes.

Each ``--tree REF`` (default ``HEAD``; give it again for more, e.g. ``--tree start-37
--tree HEAD`` for before and after) is installed compiled, as ``benchmarks/speed.py``
installs it, in its cached virtual environment (``~/.cache/kow-bench/<commit>/<python>``:
made the first time, a few minutes). For each kind of bots, ``python -m kow simulate
--seed 1 --games N --bots KIND --jobs J -o FILE`` runs for J = 1 and 2, interleaved (1,
2, 2, 1, 1, 2: other work on the machine slows both alike), ``--repeat`` times each
(default 3), each to a file of its own removed before the run (so that no run pays for
deleting the last one's 530 MB), timed from start to exit. Also printed: the CPU (user +
system) of each run, the process with its workers (``os.wait4``), and the bound on two
idle cores that it gives (``--jobs 1``'s CPU over half of ``--jobs 2``'s); and the load
average before and after. Every file must be the same bytes (compared as ``cmp`` does):
the script exits with status 1 if any differs. ``--json FILE`` keeps the figures.
See docs/performance.md ("Issue 35, fourth steps: --jobs 2").
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed import CLEAN_ENV, Kow, check_output_file, install  # noqa: E402

from kow.entries import number_type  # noqa: E402

BOTS = ("random", "heuristic")
"""The kinds of bots timed: issue 35's two rows."""


def timed(kow: Kow, bots: str, games: int, jobs: int, output: Path) -> dict[str, float]:
    """Run ``kow simulate`` of ``games`` games of ``bots`` with ``jobs`` to ``output`` (removed
    first); return its wall seconds and CPU seconds (user + system, workers included), or
    end the script if it fails."""
    output.unlink(missing_ok=True)
    args = ["simulate", "--seed", "1", "--games", str(games), "--bots", bots, "--quiet",
            "--jobs", str(jobs), "-o", str(output)]  # fmt: skip
    start = time.perf_counter()
    proc = subprocess.Popen(
        kow.command(args), cwd=kow.cwd, env=CLEAN_ENV, stdout=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"jobs_wall.py: {' '.join(kow.command(args))} failed")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime}


def load() -> str:
    """Return the load averages (1, 5, 15 minutes), or a dash where there are none."""
    try:
        return ", ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "-"


def row(kow: Kow, bots: str, games: int, repeat: int, tmp: Path) -> dict[str, Any]:
    """Time ``--jobs 1`` and ``--jobs 2`` of ``kow``, interleaved; print and return the figures.

    Exits with status 1 when any run's file differs from the first's.
    """
    runs: dict[int, list[dict[str, float]]] = {1: [], 2: []}
    first = tmp / "first.jsonl"
    before = load()
    for i in range(repeat):
        for jobs in (1, 2) if i % 2 == 0 else (2, 1):
            output = tmp / f"jobs{jobs}.jsonl"
            runs[jobs].append(timed(kow, bots, games, jobs, output))
            if not first.exists():
                output.rename(first)
            elif not filecmp.cmp(first, output, shallow=False):
                sys.exit(f"jobs_wall.py: {kow.label} {bots}: --jobs {jobs} wrote other bytes")
    wall = {jobs: statistics.median(run["wall"] for run in runs[jobs]) for jobs in runs}
    cpu = {jobs: statistics.median(run["cpu"] for run in runs[jobs]) for jobs in runs}
    pairs = [one["wall"] / two["wall"] for one, two in zip(runs[1], runs[2], strict=True)]
    figures = {
        "tree": kow.label, "bots": bots, "games": games, "load_before": before,
        "load_after": load(), "jobs1_wall": wall[1], "jobs2_wall": wall[2],
        "ratio": wall[1] / wall[2], "pair_ratio_min": min(pairs), "pair_ratio_max": max(pairs),
        "jobs1_cpu": cpu[1], "jobs2_cpu": cpu[2], "bound": cpu[1] / (cpu[2] / 2), "runs": runs,
    }  # fmt: skip
    print(
        f"{kow.label}, {bots}: --jobs 1 {_seconds(runs[1], 'wall')} s,"
        f" --jobs 2 {_seconds(runs[2], 'wall')} s: ratio {figures['ratio']:.2f}"
        f" (pairs {min(pairs):.2f} to {max(pairs):.2f}); CPU {_seconds(runs[1], 'cpu')} s"
        f" and {_seconds(runs[2], 'cpu')} s: bound on 2 idle cores {figures['bound']:.2f};"
        f" load {before} before, {figures['load_after']} after; the same bytes",
        flush=True,
    )
    for path in (first, tmp / "jobs1.jsonl", tmp / "jobs2.jsonl"):
        path.unlink(missing_ok=True)
    return figures


def _seconds(runs: list[dict[str, float]], key: str) -> str:
    """Return the ``key`` seconds of ``runs``, in the order run, as ``7.02, 7.10, 7.20``."""
    return ", ".join(f"{run[key]:.2f}" for run in runs)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="jobs_wall.py", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tree", metavar="REF", action="append",
        help="a git ref to install compiled and time (again for more; default HEAD)",
    )  # fmt: skip
    parser.add_argument(
        "--games", metavar="N", type=number_type(1, None, "a number of games"), default=100_000,
        help="games per run (default 100000)",
    )  # fmt: skip
    parser.add_argument(
        "--repeat", metavar="N", type=number_type(1, None, "a number of runs"), default=3,
        help="runs of each --jobs (default 3)",
    )  # fmt: skip
    parser.add_argument("--bots", nargs="+", choices=BOTS, default=list(BOTS))
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    parser.add_argument("--timeout", type=float, default=3600.0, help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    if opts.json is not None:
        check_output_file(parser, opts.json)
    print(f"jobs_wall.py: {os.cpu_count()} CPUs, load {load()}", flush=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="kow-jobs-wall-") as name:
        tmp = Path(name)
        kows = [install(ref, tmp, opts.timeout) for ref in opts.tree or ["HEAD"]]
        for kow in kows:
            for bots in opts.bots:
                rows.append(row(kow, bots, opts.games, opts.repeat, tmp))
    if opts.json is not None:
        Path(opts.json).write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
