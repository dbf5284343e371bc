"""Time the default --jobs: runs of costly bots spread over processes, cheap short runs not.

Run from a kow checkout: ``python benchmarks/jobs.py`` (about five minutes: the search
runs are long in one process). Each case is a whole command as a user types it, with no
``--jobs`` (the default that ``kow.runs.batch.auto_jobs`` chooses), timed from start to exit,
its output read through a pipe; the figure is the median of ``--repeat`` runs (default
3). For each case it also counts the worker processes the default started (in an extra
run, polled through ``/proc``; Linux only), and checks that every run of a ``simulate``
case wrote the same bytes.

``--tree DIR`` adds another kow checkout, timed the same way and interleaved with the
working tree (one run of each in turn, so that other work on the machine slows both
alike): to compare the default before and after a change, export the older commit and
give its folder, e.g. ``git archive HEAD | tar -x -C /tmp/kow-before`` then ``python
benchmarks/jobs.py --tree /tmp/kow-before``. The two must play the same games: the
script exits with status 1 if a ``simulate`` case differs. ``--only WORDS`` keeps the
cases whose command holds WORDS (give it again for more); ``--json FILE`` saves the
figures. See docs/performance.md.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kow.entries import number_type  # noqa: E402  (this checkout's kow: the path above)

CASES: list[list[str]] = [
    ["tournament", "--bots", "search,heuristic,heuristic,heuristic", "--games", "20",
     "--seed", "1"],
    ["simulate", "--bots", "search", "--games", "20", "--seed", "1"],
    ["simulate", "--bots", "search", "--games", "20", "--seed", "1",
     "--search-iterations", "5"],
    ["simulate", "--bots", "heuristic", "--games", "50", "--seed", "1"],
    ["simulate", "--bots", "heuristic", "--games", "300", "--seed", "1"],
    ["simulate", "--bots", "heuristic", "--games", "1000", "--seed", "1"],
    ["simulate", "--bots", "random", "--games", "2000", "--seed", "1"],
    ["tournament", "--bots", "heuristic,random,random,random", "--games", "200", "--seed", "1"],
]  # fmt: skip
"""The commands timed, after ``python -m kow``: costly bots for few games, and cheap bots
for short runs that must stay in one process (and long enough ones that need not)."""


def kow(args: list[str]) -> list[str]:
    """Return the command that runs kow with ``args`` (from the checkout it runs in)."""
    return [sys.executable, "-m", "kow", *args]


def environment(tree: Path) -> dict[str, str]:
    """Return the environment for a kow of ``tree``: its folder first on the import path."""
    return dict(os.environ, PYTHONPATH=str(tree))


def timed(tree: Path, args: list[str]) -> tuple[float, str]:
    """Run ``kow ARGS`` from ``tree``; return its wall-clock seconds and its stdout's SHA-256."""
    start = time.perf_counter()
    done = subprocess.run(
        kow(args), cwd=tree, env=environment(tree), capture_output=True, check=False
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)} in {tree} failed:\n{done.stderr.decode()[-2000:]}")
    return seconds, hashlib.sha256(done.stdout).hexdigest()


def children(pid: int) -> set[int]:
    """Return the ids of the live processes whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == str(pid) and fields[0] != "Z":
            found.add(int(entry.name))
    return found


def workers(tree: Path, args: list[str]) -> int:
    """Return how many worker processes ``kow ARGS`` starts (0: it plays in one process).

    Watches the run for at most 3 seconds (workers start at once), then ends it.
    """
    proc = subprocess.Popen(
        kow(args), cwd=tree, env=environment(tree),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    seen: set[int] = set()
    deadline = time.monotonic() + 3
    while proc.poll() is None and time.monotonic() < deadline:
        seen |= children(proc.pid)
        time.sleep(0.005)
    proc.kill()
    proc.wait()
    return len(seen)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=None, help="another kow checkout to time")
    parser.add_argument(
        "--repeat", type=number_type(1, None, "a number of runs"), default=3,
        help="runs of each (default 3)",
    )  # fmt: skip
    parser.add_argument(
        "--only", action="append", default=[],
        help="keep the cases whose command holds this (may be given again: any of them)",
    )  # fmt: skip
    parser.add_argument("--json", type=Path, default=None, help="save the figures here")
    args = parser.parse_args()
    trees = {"this": ROOT} if args.tree is None else {"other": args.tree.resolve(), "this": ROOT}
    cases = [case for case in CASES if any(w in " ".join(case) for w in args.only or [""])]
    figures = []
    differ = False
    print("| command (no --jobs) | kow | workers | median s | runs s |")
    print("|---|---|---:|---:|---|")
    for case in cases:
        times: dict[str, list[float]] = {name: [] for name in trees}
        digests = set()
        for turn in range(args.repeat):
            order = list(trees.items())
            for name, tree in order if turn % 2 == 0 else reversed(order):
                seconds, digest = timed(tree, case)
                times[name].append(seconds)
                digests.add(digest)
        if case[0] == "simulate" and len(digests) > 1:
            differ = True
            print(f"DIFFERENT OUTPUT: {' '.join(case)}", file=sys.stderr)
        for name, tree in trees.items():
            count = workers(tree, case)
            median = statistics.median(times[name])
            runs = ", ".join(f"{t:.2f}" for t in times[name])
            print(f"| `kow {' '.join(case)}` | {name} | {count} | {median:.2f} | {runs} |")
            figures.append(
                {"command": case, "kow": str(trees[name]), "workers": count,
                 "median_s": median, "runs_s": times[name]}
            )  # fmt: skip
        sys.stdout.flush()
    if args.json is not None:
        machine = {
            "date": datetime.date.today().isoformat(),
            "cpus": len(os.sched_getaffinity(0)),
            "python": f"{platform.python_implementation()} {platform.python_version()}",
            "load": os.getloadavg()[0],
        }
        args.json.write_text(json.dumps({"machine": machine, "runs": figures}, indent=2) + "\n")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
