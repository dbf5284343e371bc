"""Measure the bots' strength: every figure of docs/bots.md, as JSON files and a table.

Usage: ``python benchmarks/strength.py [--games N] [--jobs J] [--only NAME ...]``,
``--list`` to list the runs. Each run is a ``kow tournament`` with 4 players, the
default rules and seed 1: the first kind named against the others, the kinds rotating
through the seats over the same seeds. Its JSON result goes to
``benchmarks/results/strength/NAME.json`` and a Markdown table row to stdout. The same
command gives the same results on any machine and for any ``--jobs``, but for the
milliseconds per decision, which are wall-clock time.

Without ``--games`` each run plays its own number of games (``--list``; see ``GAMES``):
docs/bots.md's figures are those of ``python benchmarks/strength.py`` with no option,
45 minutes on a 2-core machine that other work shared for part of the time (the table of
one search and three ismcts bots, 600 games, took 18 of them).

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

from kow.entries import number_type
from kow.rules import JOBS, MAX_GAMES, Rules
from kow.runs.tournament import play_tournament

KINDS = ("random", "heuristic", "ismcts", "search")
SEED = 1

RUNS: dict[str, tuple[tuple[str, ...], int | None, int]] = {}
"""Run name -> (bots by seat, search iterations or None for the default, games)."""
GAMES = {
    # Games per run: the targets of issue 13 (search against ismcts and heuristic bots,
    # the 2-against-2 table) get intervals of about +-3.5 points, cheap runs about +-2;
    # tables of three search or ismcts bots, far from the others, get a rough figure.
    "random-vs-heuristic": 2000,
    "heuristic-vs-random": 2000,
    "ismcts-vs-heuristic": 1000,
    "search-vs-heuristic": 2000,
    "search-vs-ismcts": 600,
    "search-ismcts-2v2": 400,
    "search-vs-random": 500,
    "ismcts-vs-random": 250,
    "random-vs-search": 250,
    "heuristic-vs-search": 250,
    "ismcts-vs-search": 250,
    "random-vs-ismcts": 150,
    "heuristic-vs-ismcts": 150,
}
for _a in KINDS:
    for _b in KINDS:
        if _a != _b:
            _name = f"{_a}-vs-{_b}"
            RUNS[_name] = ((_a, _b, _b, _b), None, GAMES[_name])
RUNS["search-ismcts-2v2"] = (("search", "ismcts", "search", "ismcts"), None, 400)
for _n, _games in ((25, 1000), (50, 1000), (200, 500)):
    RUNS[f"search{_n}-vs-heuristic"] = (
        ("search", "heuristic", "heuristic", "heuristic"),
        _n,
        _games,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games",
        type=number_type(1, MAX_GAMES, "a number of games"),
        default=None,
        help="games per run (default: its own)",
    )
    parser.add_argument("--jobs", type=number_type(JOBS.lo, JOBS.hi, JOBS.what), default=2)
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
        result = play_tournament(Rules(), bots, games, seed=SEED, jobs=args.jobs, search_iterations=iterations, keep_games=False)
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
