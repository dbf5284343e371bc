"""Time the bots' decisions in a 7-card round of 4 players: the figure docs/bots.md gives.

Usage: ``python benchmarks/decision_time.py [--kind KIND ...] [--games N] [--iterations N]``.
For each kind of ``--kind`` (default ``search``), plays ``--games`` games (default 10,
seeds 1..N) of one bot of that kind against three heuristic bots, 4 players and the
default rules, in this process, and times each of its decisions with more than one legal
action with ``time.perf_counter``. Prints the median decision of the games, and the
slowest and mean decision of round 1 (7 cards each), with the slowest by trick number
as a table; with several kinds, the ratio of the first kind's median to each other's
(``--kind search ismcts``: issue 21's time target). Run it on a quiet
machine: the figure is wall-clock time, so other work inflates it. The installed kow
is what is timed (``pip install .`` compiles the bots' hot modules; a checkout run with
``KOW_PURE_PYTHON=1`` or an editable install is pure Python and slower).
"""

from __future__ import annotations

import argparse
import statistics
import time

from kow.engine.view import View
from kow.entries import number_type
from kow.game import bots_rng, drive, new_game
from kow.players import BOT_KINDS, Player, make_bot
from kow.rules import Rules
from kow.settings import GAMES, SEARCH_ITERATIONS


class Timed(Player):
    """Time ``inner``'s decisions of round 1 that had more than one legal action."""

    def __init__(self, inner: Player) -> None:
        super().__init__(inner.name)
        self.inner = inner
        self.kind = inner.kind
        self.times: list[tuple[float, int]] = []  # (seconds, trick of round 1 or 0)

    def act(self, view: View) -> int:
        start = time.perf_counter()
        action = self.inner.act(view)
        took = time.perf_counter() - start
        if len(view.legal) > 1:
            self.times.append((took, view.trick_number if view.round == 1 else 0))
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--kind", nargs="+", default=["search"], choices=sorted(BOT_KINDS), help="bot kinds to time"
    )
    parser.add_argument("--games", type=number_type(GAMES.lo, GAMES.hi, GAMES.what), default=10)
    parser.add_argument(
        "--iterations",
        type=number_type(SEARCH_ITERATIONS.lo, SEARCH_ITERATIONS.hi, SEARCH_ITERATIONS.what),
        default=None,
        help="search iterations",
    )
    args = parser.parse_args()
    rules = Rules()
    medians = {}
    for kind in args.kind:
        times: list[tuple[float, int]] = []
        for seed in range(1, args.games + 1):
            rng = bots_rng(seed)
            bot = Timed(make_bot(kind, "b", rng, search_iterations=args.iterations))
            others = [make_bot("heuristic", f"h{s}", rng) for s in range(1, 4)]
            drive(new_game(rules, seed), [bot, *others])
            times += bot.times
        first = [(t, n) for t, n in times if n]
        slowest = max(first)
        medians[kind] = statistics.median(t for t, _ in times)
        print(f"{kind}: {len(times)} searched decisions in {args.games} games, median "
              f"{medians[kind]:.4f} s; {len(first)} in round 1 (7 cards, 4 players): slowest "
              f"{slowest[0]:.3f} s (trick {slowest[1]}), mean "
              f"{sum(t for t, _ in first) / len(first):.3f} s")  # fmt: skip
        print("| trick | decisions | slowest s | mean s |")
        print("|---|---|---|---|")
        for trick in range(1, 8):
            at = [t for t, n in first if n == trick]
            if at:
                print(f"| {trick} | {len(at)} | {max(at):.3f} | {sum(at) / len(at):.3f} |")
    kinds = list(medians)
    for kind in kinds[1:]:
        print(f"median {kinds[0]} / median {kind}: {medians[kinds[0]] / medians[kind]:.2f}")


if __name__ == "__main__":
    main()
