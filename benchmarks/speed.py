"""Measure kow's speed and memory, and print the figures as tables.

Run from a kow checkout: ``python benchmarks/speed.py`` (about two minutes), ``--quick``
for a rough pass, ``--million`` to add the peak memory of a million-game run (a few
minutes more), ``--json FILE`` to save the figures too.

Every figure is for the whole process, start-up included, as a user sees it
(``python -m kow simulate ... > /dev/null``), except the engine core, which is timed
in-process the way the search bot uses it: copy a state at the start of a round and play
random legal cards to the end of the round. Each figure is the median of several runs.
See docs/performance.md for a recorded run and what the figures mean.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The environment of the timed processes: with compiled modules cached, as in an install."""


def kow_run(args: list[str], output: str = os.devnull) -> tuple[float, float]:
    """Run ``python -m kow ARGS > output``; return (wall seconds, peak RSS in MiB)."""
    with open(output, "wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "kow", *args], stdout=out, cwd=ROOT, env=ENV)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"kow {' '.join(args)} failed with exit code {proc.returncode}")
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    return seconds, usage.ru_maxrss * scale / 2**20


def median_run(args: list[str], repeat: int, output: str = os.devnull) -> tuple[float, float]:
    """Return the median wall seconds and the highest peak RSS of ``repeat`` runs."""
    runs = [kow_run(args, output) for _ in range(repeat)]
    return statistics.median(s for s, _ in runs), max(m for _, m in runs)


def card_plays(path: str) -> int:
    """Return the card plays (knocks not counted) in a JSON Lines file of games."""
    plays = 0
    with open(path) as f:
        for line in f:
            game = json.loads(line)
            for rnd in game["rounds"]:
                for trick in rnd["tricks"]:
                    plays += sum(1 for p in trick["plays"] if "card" in p)
    return plays


def simulate_args(bots: str, players: int, games: int, seed: int = 1) -> list[str]:
    return ["simulate", "--bots", bots, "--players", str(players), "--games", str(games),
            "--seed", str(seed), "--quiet"]  # fmt: skip


def bench_simulate(
    bots: str, players: int, games: int, repeat: int, jobs: int | None = 1
) -> dict[str, Any]:
    """Time ``kow simulate`` and count its card plays; return the figures.

    ``jobs`` None runs without ``--jobs``, as a user types it (one process per CPU).
    """
    args = simulate_args(bots, players, games) + ([] if jobs is None else ["--jobs", str(jobs)])
    seconds, peak = median_run(args, repeat)  # timed with stdout to /dev/null
    with tempfile.TemporaryDirectory() as tmp:  # one more run, to count the plays
        path = os.path.join(tmp, "games.jsonl")
        kow_run(args, path)
        plays = card_plays(path)
    return {
        "bots": bots, "players": players, "games": games,
        "jobs": f"default ({os.cpu_count()} CPUs)" if jobs is None else str(jobs),
        "seconds": seconds, "games_per_s": games / seconds, "plays": plays,
        "plays_per_s": plays / seconds, "us_per_play": seconds / plays * 1e6, "peak_mib": peak,
    }  # fmt: skip


def bench_playout(players: int, seconds: float = 2.0) -> dict[str, Any]:
    """Time copy + playout from round starts, as the search bot uses the engine."""
    from kow.engine import PLAY
    from kow.game import new_game
    from kow.rules import Rules

    rules = Rules(players=players)
    roots = []
    for seed in range(64):
        state = new_game(rules, seed)
        while state.phase != PLAY:  # a trump choice or a vote first
            state.apply(state.legal_actions()[0])
        roots.append(state)
    cards = [sum(h.bit_count() for h in root.hands) for root in roots]
    rnd = random.Random(5).random
    best = 0.0
    for _ in range(3):
        plays = copies = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / 3:
            for root, n in zip(roots, cards, strict=True):
                root.copy().playout(rnd)
                plays += n
            copies += len(roots)
        rate = plays / (time.perf_counter() - start)
        best = max(best, rate)
    return {"players": players, "plays_per_s": best, "us_per_play": 1e6 / best,
            "plays_per_copy": statistics.mean(cards)}  # fmt: skip


def bench_startup(args: list[str], repeat: int) -> float:
    """Return the median wall milliseconds of ``python -m kow ARGS`` (or ``python`` args)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, *args], stdout=subprocess.DEVNULL, cwd=ROOT, env=ENV, check=True
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "date": datetime.date.today().isoformat(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_implementation() + " " + platform.python_version(),
        "system": platform.platform(),
        "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }


def table(rows: list[dict[str, Any]], columns: list[tuple[str, str, str]]) -> str:
    """Return a Markdown table: ``columns`` are (heading, key, format)."""
    head = "| " + " | ".join(h for h, _, _ in columns) + " |"
    rule = "|" + "|".join("---:" if f else "---" for _, _, f in columns) + "|"
    lines = [head, rule]
    for row in rows:
        cells = [format(row[k], f) if f else str(row[k]) for _, k, f in columns]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and runs")
    parser.add_argument("--million", action="store_true", help="add a 1,000,000-game run")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    opts = parser.parse_args()
    games = 4000 if opts.quick else 20000
    repeat = 1 if opts.quick else 3
    out: dict[str, Any] = {"machine": machine()}
    # Compile and cache every module once (a run with each bot), as installing does.
    kow_run(simulate_args("random,heuristic,random,heuristic", 4, 2) + ["--jobs", "2"])
    print(f"kow speed, {out['machine']['date']}: {out['machine']['cpu']}, "
          f"{out['machine']['cores']} cores, {out['machine']['python']}\n")  # fmt: skip

    cols = [("bots", "bots", ""), ("players", "players", "d"), ("jobs", "jobs", ""),
            ("games", "games", ",d"), ("games/s", "games_per_s", ",.0f"),
            ("card plays/s", "plays_per_s", ",.0f"), ("µs per play", "us_per_play", ".2f"),
            ("peak MiB", "peak_mib", ".1f")]  # fmt: skip
    main_rows = []
    for bots in ("random", "heuristic"):
        for jobs in (1, 2, None):
            main_rows.append(bench_simulate(bots, 4, games, repeat, jobs))
    out["simulate"] = main_rows
    print(f"## kow simulate, whole process (--games {games}, full log, stdout to /dev/null)\n")
    print(table(main_rows, cols))
    for bots in ("random", "heuristic"):
        one, two, _ = (r for r in main_rows if r["bots"] == bots)
        print(f"\n{bots}: 2 jobs are {one['seconds'] / two['seconds']:.2f}x as fast as 1", end="")
    print("\n")

    by_players = []
    for players in range(2, 8):
        for bots in ("random", "heuristic"):
            by_players.append(bench_simulate(bots, players, games // 4, repeat))
    out["players"] = by_players
    print(f"## Cost against work: 2 to 7 players (--games {games // 4})\n")
    print(table(by_players, cols[:2] + cols[4:7]))

    core = [bench_playout(p, 1.0 if opts.quick else 3.0) for p in range(2, 8)]
    out["playout"] = core
    print("\n## Engine core: copy a state at a round's start, play random cards to its end\n")
    print(table(core, [("players", "players", "d"), ("cards per copy", "plays_per_copy", ".0f"),
                       ("card plays/s", "plays_per_s", ",.0f"),
                       ("µs per play", "us_per_play", ".2f")]))  # fmt: skip

    memory = []
    sizes = [10_000, 100_000] + ([1_000_000] if opts.million else [])
    for n in sizes:
        seconds, peak = kow_run(simulate_args("random", 4, n) + ["--jobs", "1"])
        memory.append({"games": n, "seconds": seconds, "peak_mib": peak})
    out["memory"] = memory
    print("\n## Peak memory of kow simulate --bots random --jobs 1 (stdout to /dev/null)\n")
    print(table(memory, [("games", "games", ",d"), ("seconds", "seconds", ".1f"),
                         ("peak MiB", "peak_mib", ".1f")]))  # fmt: skip

    runs = 5 if opts.quick else 21
    startup = [
        {"command": "python -c pass", "ms": bench_startup(["-c", "pass"], runs)},
        {"command": "python -c 'import click'", "ms": bench_startup(["-c", "import click"], runs)},
        {"command": "kow --version", "ms": bench_startup(["-m", "kow", "--version"], runs)},
        {"command": "kow --help", "ms": bench_startup(["-m", "kow", "--help"], runs)},
    ]
    for row in startup:
        row["over_python"] = row["ms"] - startup[0]["ms"]
    out["startup"] = startup
    print("\n## Start-up (median wall time; 'over python': minus python -c pass)\n")
    print(table(startup, [("command", "command", ""), ("ms", "ms", ".0f"),
                          ("over python", "over_python", ".0f")]))  # fmt: skip
    if opts.json:
        Path(opts.json).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
