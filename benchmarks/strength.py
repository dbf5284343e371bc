"""Measure the bots' strength: every figure of docs/bots.md, as JSON files and a table.

Usage: ``python benchmarks/strength.py [--games N] [--jobs J] [--only NAME ...]``,
``--list`` to list the runs. Each run is a ``kow tournament`` with 4 players, the
default rules and seed 1: the first kind named against the others, the kinds rotating
through the seats over the same seeds. Its JSON result goes to
``benchmarks/results/strength/NAME.json`` and a Markdown table row to stdout. The same
command gives the same results on any machine and for any ``--jobs``, but for the
milliseconds per decision, which are wall-clock time.

Without ``--games`` each run plays its own number of games (the ``games`` column of
``--list``): enough for a 95% interval of about +-3 points on the figures the issue sets
a target for, fewer where a kind is far from the others. docs/bots.md gives the command
and the hours each took on a 2-core machine.

The runs:

- ``A-vs-B``: one bot of kind A against three of kind B, for every pair of the kinds
  random, heuristic, ismcts and search (the matrix of docs/bots.md).
- ``search-ismcts-2v2``: two search bots and two ismcts bots (search, ismcts, search,
  ismcts around the table, rotated).
- ``searchN-vs-heuristic``: the search bot with N deals per decision (``--search-
  iterations N``) against three heuristic bots: strength against effort.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

from kow.rules import Rules
from kow.tournament import play_tournament

KINDS = ("random", "heuristic", "ismcts", "search")
SEED = 1

RUNS: dict[str, tuple[tuple[str, ...], int | None, int]] = {}
"""Run name -> (bots by seat, search iterations or None for the default, games)."""
GAMES = {
    # Enough for a 95% interval of about +-2 points where games are cheap, +-3 to 4 for
    # the targets of issue 13, fewer where three ismcts or search bots make games slow.
    "heuristic": 2000,
    "random": 2000,
    "search": 500,
    "ismcts": 300,
}
for _a in KINDS:
    for _b in KINDS:
        if _a != _b:
            _games = GAMES[_b] if _a in ("random", "heuristic") else min(GAMES[_b], 1000)
            RUNS[f"{_a}-vs-{_b}"] = ((_a, _b, _b, _b), None, _games)
RUNS["search-vs-heuristic"] = (("search", "heuristic", "heuristic", "heuristic"), None, 2000)
RUNS["search-vs-ismcts"] = (("search", "ismcts", "ismcts", "ismcts"), None, 600)
RUNS["search-ismcts-2v2"] = (("search", "ismcts", "search", "ismcts"), None, 400)
for _n in (25, 50, 200):
    RUNS[f"search{_n}-vs-heuristic"] = (("search", "heuristic", "heuristic", "heuristic"), _n, 1000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="games per run (default: its own)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None, choices=list(RUNS), metavar="NAME")
    parser.add_argument("--list", action="store_true", help="list the runs and exit")
    args = parser.parse_args()
    if args.list:
        for name, (bots, iterations, games) in RUNS.items():
            print(f"{name}: {','.join(bots)}, iterations {iterations or 'default'}, {games} games")
        return
    out = pathlib.Path(__file__).parent / "results" / "strength"
    out.mkdir(parents=True, exist_ok=True)
    print("| run | first kind | games | win rate | 95% interval | other kind | win rate | ms/decision |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.only or list(RUNS):
        bots, iterations, games = RUNS[name]
        games = args.games or games
        start = time.monotonic()
        result = play_tournament(Rules(), bots, games, SEED, args.jobs, iterations, keep_games=False)
        data = result.to_dict()
        data["wall_seconds"] = round(time.monotonic() - start, 1)
        (out / f"{name}.json").write_text(json.dumps(data, indent=2) + "\n")
        first, other = result.results()[:2]
        print(
            f"| {name} | {first.kind} | {games} | {first.win_rate:.1%} | "
            f"{first.low:.1%} - {first.high:.1%} | {other.kind} | {other.win_rate:.1%} | "
            f"{first.mean_decision_ms:.1f} / {other.mean_decision_ms:.1f} |",
            flush=True,
        )
        print(f"{name}: {data['wall_seconds']} s", file=sys.stderr)


if __name__ == "__main__":
    main()
