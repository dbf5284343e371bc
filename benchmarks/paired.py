"""Measure a bot change on the same deals: one kow against another, paired game by game.

Usage::

    python benchmarks/paired.py --against REF [--tree REF2] [--bots search,heuristic,...]
        [--games N] [--seed S] [--jobs J] [--search-iterations N] [--json FILE]
        [-- RULE OPTIONS OF kow simulate, e.g. --preset traditional --players 5]

The first kind of ``--bots`` is the bot under test; the others are its opponents. It
sits at every seat in turn (the opponents keep their order around the table), and for
each seat both kows play the same ``--games`` seeded games: ``kow simulate --seed S``
deals the same cards and gives every bot the same random numbers in both, so the only
difference between a pair of games is the change between the two kows. A game counts
1 when the bot under test wins it.

REF (``--against``, the old kow: a tag, branch or commit) is installed as
``benchmarks/speed.py --against`` installs it, in a cached virtual environment; the new
kow is the working tree, or ``--tree REF2`` installed the same way. Both must accept the
``kow simulate`` options given.

It prints each kow's win rate with its 95% Wilson interval, and the difference (new -
old, in points) with a 95% interval from the paired differences (normal approximation,
fine for hundreds of pairs): an interval that excludes 0 is a measured change. It also
counts the pairs each kow alone won and the games both kows played identically (the
same log). ``--json FILE`` writes the figures. An installed commit's games are kept and
read again by later runs with the same arguments (see :func:`play`), so measuring
several changes against one commit plays its games once. Deterministic: the same options give the
same figures on any machine and for any ``--jobs``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed import (  # noqa: E402
    CLEAN_ENV,
    VERSION_FIELD,
    Kow,
    cache_root,
    install,
    working_tree,
)

from kow.entries import number_type  # noqa: E402
from kow.rules import GAMES, JOBS, SEARCH_ITERATIONS, SEED, IntSetting  # noqa: E402
from kow.runs.stats import wilson  # noqa: E402

Z95 = 1.959963984540054
"""The two-sided 95% point of the normal distribution."""


def play(kow: Kow, bots: list[str], opts: argparse.Namespace, tmp: Path) -> list[bytes]:
    """Return the logs (one line each) of ``kow simulate`` with ``bots``.

    The logs of an installed commit are kept in its cached environment (its folder
    ``paired/``, named by a hash of the arguments) and read from there the next time:
    the same commit and arguments give the same games, whatever ``--jobs``. The working
    tree's are never kept.
    """
    args = ["simulate", "--seed", str(opts.seed), "--games", str(opts.games), "--bots",
            ",".join(bots), "--quiet", *opts.rules]  # fmt: skip
    if opts.search_iterations is not None:
        args += ["--search-iterations", str(opts.search_iterations)]
    kept = None
    if kow.home.resolve().is_relative_to(cache_root().resolve()):
        key = hashlib.sha256("\0".join(args).encode()).hexdigest()[:20]
        kept = kow.home / "paired" / f"{key}.jsonl"
        if kept.exists():
            print(f"paired.py: {kow.label}: the games kept in {kept}", file=sys.stderr)
            with open(kept, "rb") as f:
                return list(f)
    args += ["--jobs", str(opts.jobs)]
    with tempfile.TemporaryFile(dir=tmp) as out:
        done = subprocess.run(kow.command(args), stdout=out, stderr=subprocess.PIPE,
                              cwd=kow.cwd, env=CLEAN_ENV)  # fmt: skip
        if done.returncode != 0:
            tail = done.stderr.decode(errors="replace").strip().splitlines()[-10:]
            raise SystemExit(f"paired.py: {kow.label}: kow {' '.join(args)} failed "
                             f"(exit {done.returncode}):\n" + "\n".join(tail))  # fmt: skip
        out.seek(0)
        lines = list(out)
    if kept is not None:
        kept.parent.mkdir(exist_ok=True)
        part = kept.with_suffix(".part")
        part.write_bytes(b"".join(lines))
        part.replace(kept)
    return lines


def winner(line: bytes) -> int:
    """The winning seat of a game's log line."""
    won: int = json.loads(line)["result"]["winner"]
    return won


def typed(setting: IntSetting) -> object:
    """argparse's ``type`` for ``setting``: its bounds and words, as kow's options read it."""
    return number_type(setting.lo, setting.hi, setting.what)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="REF", required=True, help="the old kow (git ref)")
    parser.add_argument("--tree", metavar="REF", help="the new kow (default: the working tree)")
    parser.add_argument(
        "--bots",
        default="search,heuristic,heuristic,heuristic",
        help="the bot under test, then its opponents (default: %(default)s)",
    )
    parser.add_argument(
        "--games", type=typed(GAMES), default=100, help="games per seat (default 100)"
    )
    parser.add_argument("--seed", type=typed(SEED), default=1, help="the run's seed (default 1)")
    parser.add_argument("--jobs", type=typed(JOBS), default=2, help="processes (default 2)")
    parser.add_argument(
        "--search-iterations", type=typed(SEARCH_ITERATIONS), default=None, metavar="N"
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    parser.add_argument("--timeout", type=float, default=3600, help=argparse.SUPPRESS)
    parser.add_argument(
        "rules",
        nargs="*",
        metavar="RULE-OPTION",
        help="kow simulate options after --, e.g. -- --preset traditional",
    )
    opts = parser.parse_args()
    kinds = opts.bots.split(",")
    players = len(kinds)
    with tempfile.TemporaryDirectory(prefix="kow-paired-") as name:
        tmp = Path(name)
        old = install(opts.against, tmp, opts.timeout)
        new = install(opts.tree, tmp, opts.timeout) if opts.tree else working_tree(opts.timeout)
        pairs: list[tuple[int, int]] = []
        same = 0
        for seat in range(players):
            bots = kinds[1:]
            bots.insert(seat, kinds[0])
            print(f"paired.py: {kinds[0]} at seat {seat}: {','.join(bots)}", file=sys.stderr)
            before = play(old, bots, opts, tmp)
            after = play(new, bots, opts, tmp)
            for a, b in zip(before, after, strict=True):
                pairs.append((int(winner(a) == seat), int(winner(b) == seat)))
                same += VERSION_FIELD.sub(b"", a, 1) == VERSION_FIELD.sub(b"", b, 1)
    n = len(pairs)
    old_wins = sum(a for a, _ in pairs)
    new_wins = sum(b for _, b in pairs)
    diffs = [b - a for a, b in pairs]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    out: dict[str, Any] = {
        "old": old.label,
        "new": new.label,
        "bots": kinds,
        "rules": opts.rules,
        "seed": opts.seed,
        "games_per_seat": opts.games,
        "search_iterations": opts.search_iterations,
        "pairs": n,
        "old_wins": old_wins,
        "new_wins": new_wins,
        "old_rate": old_wins / n,
        "new_rate": new_wins / n,
        "old_ci95": list(wilson(old_wins, n)),
        "new_ci95": list(wilson(new_wins, n)),
        "difference": mean,
        "difference_ci95": [mean - half, mean + half],
        "only_new_won": sum(1 for a, b in pairs if b > a),
        "only_old_won": sum(1 for a, b in pairs if a > b),
        "identical_games": same,
    }
    lo, hi = out["old_ci95"]
    nlo, nhi = out["new_ci95"]
    print(f"{kinds[0]} against {','.join(kinds[1:])}, {' '.join(opts.rules) or 'default rules'}, "
          f"{opts.games} games x {players} seats, seed {opts.seed}")  # fmt: skip
    print(f"  old {old.label}: {old_wins}/{n} = {100 * old_wins / n:.1f}% "
          f"[{100 * lo:.1f}, {100 * hi:.1f}]")  # fmt: skip
    print(f"  new {new.label}: {new_wins}/{n} = {100 * new_wins / n:.1f}% "
          f"[{100 * nlo:.1f}, {100 * nhi:.1f}]")  # fmt: skip
    print(f"  new - old: {100 * mean:+.2f} points, 95% [{100 * (mean - half):+.2f}, "
          f"{100 * (mean + half):+.2f}]; only new won {out['only_new_won']}, only old won "
          f"{out['only_old_won']}; identical games {same}/{n}")  # fmt: skip
    if opts.json:
        Path(opts.json).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
