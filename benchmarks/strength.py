"""Measure the bots' strength: the figures of docs/bots.md, as JSON files and a table.

Usage: ``python benchmarks/strength.py [--games N] [--jobs J] [--only NAME ...]``.
docs/bots.md used ``--only heuristic-vs-random search100-vs-heuristic`` (4000 games) and
``--games 1000 --only search5-vs-heuristic search10-vs-heuristic search20-vs-heuristic
search50-vs-heuristic`` for the table of strength against iterations.
Each run is a ``kow tournament`` with 4 players and the default rules; its JSON result
goes to ``benchmarks/results/NAME.json`` and a Markdown table row to stdout. The same
command gives the same results (but for the milliseconds per decision) on any machine.
"""

from __future__ import annotations

import argparse
import json
import pathlib

from kow.rules import Rules
from kow.tournament import play_tournament

RUNS = {
    "heuristic-vs-random": (("heuristic", "random", "random", "random"), None),
    "search5-vs-heuristic": (("search", "heuristic", "heuristic", "heuristic"), 5),
    "search10-vs-heuristic": (("search", "heuristic", "heuristic", "heuristic"), 10),
    "search20-vs-heuristic": (("search", "heuristic", "heuristic", "heuristic"), 20),
    "search50-vs-heuristic": (("search", "heuristic", "heuristic", "heuristic"), 50),
    "search100-vs-heuristic": (("search", "heuristic", "heuristic", "heuristic"), 100),
}
SEED = 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=list(RUNS), choices=list(RUNS))
    args = parser.parse_args()
    out = pathlib.Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    print("| run | iterations | games | win rate | 95% interval | ms/decision |")
    print("|---|---|---|---|---|---|")
    for name in args.only:
        bots, iterations = RUNS[name]
        result = play_tournament(Rules(), bots, args.games, SEED, args.jobs, iterations)
        data = result.to_dict()
        (out / f"{name}.json").write_text(json.dumps(data, indent=2) + "\n")
        first = result.results()[0]
        print(
            f"| {name} | {iterations or '-'} | {first.games} | {first.win_rate:.1%} | "
            f"{first.low:.1%} - {first.high:.1%} | {first.mean_decision_ms:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
