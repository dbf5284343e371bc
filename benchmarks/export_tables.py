"""Time ``kow export --table all -o DIR`` (one pass) against one export per table.

Run from a kow checkout: ``python benchmarks/export_tables.py`` (about two minutes for
the default 10,000 games on one core). It writes the games once, ``kow simulate --seed 1
--games N`` (its time is printed too, as the yardstick the issue used), then times, each
as a whole command from start to exit: ``kow export GAMES --table T -o T.csv`` for each
table in turn, and ``kow export GAMES --table all -o DIR``. Each figure is the median of
``--repeat`` runs (default 1), the two ways interleaved so that other work on the
machine slows both alike: wall-clock seconds, and the CPU seconds (user and system) of
the command, which other work slows far less. It checks that each table of the one pass
is the same bytes as that table exported alone, and exits with status 1 if one differs.
``--json FILE`` saves the figures. See docs/tables.md.
"""

from __future__ import annotations

import argparse
import datetime
import filecmp
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kow.entries import number_type  # noqa: E402  (this checkout's kow: the path above)
from kow.settings import GAMES  # noqa: E402

TABLES = ("games", "rounds", "tricks", "plays")
"""The tables of ``kow export``, each exported alone and all in one pass."""


def cpu() -> float:
    """Return the CPU seconds (user and system) of the ended child processes so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(args: list[str], folder: Path) -> tuple[float, float]:
    """Run ``kow ARGS`` (this checkout's) in ``folder``; return its wall-clock seconds and
    its CPU seconds (its worker processes' included).

    Exits with the command's error when it fails.
    """
    start, used = time.perf_counter(), cpu()
    done = subprocess.run(
        [sys.executable, "-m", "kow", *args], cwd=folder,
        env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, check=False,
    )  # fmt: skip
    seconds, used = time.perf_counter() - start, cpu() - used
    if done.returncode != 0:
        sys.exit(f"kow {' '.join(args)} failed:\n{done.stderr.decode()[-2000:]}")
    return seconds, used


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=number_type(GAMES.lo, GAMES.hi, GAMES.what), default=10_000,
        help="games simulated and exported (default 10000)",
    )  # fmt: skip
    parser.add_argument(
        "--repeat", type=number_type(1, None, "a number of runs"), default=1,
        help="runs of each way (default 1)",
    )  # fmt: skip
    parser.add_argument("--json", type=Path, default=None, help="save the figures here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kow-export-bench-") as name:
        folder = Path(name)
        simulate = ["simulate", "--seed", "1", "--games", str(args.games), "-o", "g.jsonl"]
        simulated = timed(simulate, folder)
        separate: list[tuple[float, float]] = []  # the four exports, summed, per run
        each: dict[str, list[tuple[float, float]]] = {table: [] for table in TABLES}
        one_pass: list[tuple[float, float]] = []
        for turn in range(args.repeat):
            for way in ("separate", "all") if turn % 2 == 0 else ("all", "separate"):
                if way == "all":
                    one_pass.append(
                        timed(["export", "g.jsonl", "--table", "all", "-o", "all"], folder)
                    )
                    continue
                wall = used = 0.0
                for table in TABLES:
                    seconds = timed(
                        ["export", "g.jsonl", "--table", table, "-o", f"{table}.csv"], folder
                    )
                    each[table].append(seconds)
                    wall, used = wall + seconds[0], used + seconds[1]
                separate.append((wall, used))
        differ = [
            t
            for t in TABLES
            if not filecmp.cmp(folder / f"{t}.csv", folder / "all" / f"{t}.csv", shallow=False)
        ]
    for table in differ:
        print(f"DIFFERENT OUTPUT: the {table} table", file=sys.stderr)
    rows = [
        (f"kow simulate --seed 1 --games {args.games} -o g.jsonl", [simulated]),
        *[(f"kow export g.jsonl --table {t} -o {t}.csv", each[t]) for t in TABLES],
        ("the four exports above, summed", separate),
        ("kow export g.jsonl --table all -o all", one_pass),
    ]
    print("| command | wall s (median) | CPU s (median) | runs: wall s / CPU s |")
    print("|---|---:|---:|---|")
    for command, runs in rows:
        shown = ", ".join(f"{w:.1f} / {c:.1f}" for w, c in runs)
        wall = statistics.median(w for w, _ in runs)
        used = statistics.median(c for _, c in runs)
        print(f"| `{command}` | {wall:.1f} | {used:.1f} | {shown} |")
    for what, at in (("wall-clock", 0), ("CPU", 1)):
        ratio = statistics.median(r[at] for r in separate) / statistics.median(
            r[at] for r in one_pass
        )
        print(f"One pass, {what} time: {ratio:.2f} times as fast as the four exports.")
    if args.json is not None:
        machine = {
            "date": datetime.date.today().isoformat(),
            "cpus": len(os.sched_getaffinity(0)),
            "python": f"{platform.python_implementation()} {platform.python_version()}",
            "load": os.getloadavg()[0],
        }
        figures = [
            {"command": c, "wall_s": [w for w, _ in r], "cpu_s": [u for _, u in r]} for c, r in rows
        ]
        args.json.write_text(
            json.dumps({"machine": machine, "games": args.games, "runs": figures}, indent=2) + "\n"
        )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
