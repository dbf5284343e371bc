"""Time the bots' decisions in a 7-card round of 4 players: the figure docs/bots.md gives.

Usage: ``python benchmarks/decision_time.py [--kind search] [--games N] [--iterations N]``.
Plays ``--games`` games (default 10, seeds 1..N) of one bot of ``--kind`` against three
heuristic bots, 4 players and the default rules, in this process, and times each of its
decisions in round 1 (7 cards each) with ``time.perf_counter``. Prints the slowest
decision, the mean, and the slowest by trick number, as a table. Run it on a quiet
machine: the figure is wall-clock time, so other work inflates it. The installed kow
is what is timed (``pip install .`` compiles the bots' hot modules; a checkout run with
``KOW_PURE_PYTHON=1`` or an editable install is pure Python and slower).
"""

from __future__ import annotations

import argparse
import time

from kow.engine.view import View
from kow.entries import number_type
from kow.game import bots_rng, drive, new_game
from kow.players import Player, make_bot
from kow.rules import GAMES, SEARCH_ITERATIONS, Rules


class Timed(Player):
    """Time ``inner``'s decisions of round 1 that had more than one legal action."""

    def __init__(self, inner: Player) -> None:
        super().__init__(inner.name)
        self.inner = inner
        self.kind = inner.kind
        self.times: list[tuple[float, int]] = []  # (seconds, trick number)

    def act(self, view: View) -> int:
        start = time.perf_counter()
        action = self.inner.act(view)
        took = time.perf_counter() - start
        if view.round == 1 and len(view.legal) > 1:
            self.times.append((took, view.trick_number))
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", default="search")
    parser.add_argument("--games", type=number_type(GAMES.lo, GAMES.hi, GAMES.what), default=10)
    parser.add_argument(
        "--iterations",
        type=number_type(SEARCH_ITERATIONS.lo, SEARCH_ITERATIONS.hi, SEARCH_ITERATIONS.what),
        default=None,
        help="search iterations",
    )
    args = parser.parse_args()
    rules = Rules()
    times: list[tuple[float, int]] = []
    for seed in range(1, args.games + 1):
        rng = bots_rng(seed)
        bot = Timed(make_bot(args.kind, "b", rng, search_iterations=args.iterations))
        others = [make_bot("heuristic", f"h{s}", rng) for s in range(1, 4)]
        drive(new_game(rules, seed), [bot, *others])
        times += bot.times
    slowest = max(times)
    print(f"{args.kind}: {len(times)} decisions of round 1 (7 cards, 4 players), {args.games} games")
    print(f"slowest {slowest[0]:.3f} s (trick {slowest[1]}), mean {sum(t for t, _ in times) / len(times):.3f} s")
    print("| trick | decisions | slowest s | mean s |")
    print("|---|---|---|---|")
    for trick in range(1, 8):
        at = [t for t, n in times if n == trick]
        if at:
            print(f"| {trick} | {len(at)} | {max(at):.3f} | {sum(at) / len(at):.3f} |")


if __name__ == "__main__":
    main()
