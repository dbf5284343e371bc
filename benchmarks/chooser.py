"""Measure the trump chooser's chance of winning the game: value.py's CHOOSER table again.

Usage::

    python benchmarks/chooser.py LOG [LOG ...] [--json FILE]

Reads logs of kow games (JSON lines, plain or gzip; ``-`` for stdin; abandoned games are
skipped; a file that is not such a log ends the script, exit 1) and, for every round
whose trump was named by a player (``trump_method`` "chosen": the player with the most
tricks of the round before, rules text 'Mise en place' 5), counts whether that player
went on to win the game, by the number of players in the round (``k``, those dealt in)
and its cards (``h``). Prints, per cell, the rounds, the chooser's win rate with its 95%
Wilson interval, and :data:`kow.players.value.CHOOSER`'s figure, which was measured the
same way over games of heuristic bots. To measure it for another bot, play its games
first, for example ``kow simulate --seed 3 --games 500 --bots search -o search.jsonl``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path
from typing import IO

from kow.log import iter_games
from kow.players.value import CHOOSER
from kow.runs.stats import wilson


def count(
    stream: IO[bytes], rounds: Counter[tuple[int, int]], wins: Counter[tuple[int, int]]
) -> int:
    """Add the chosen-trump rounds of the games in ``stream``; return the games read."""
    games = 0
    for _, game in iter_games(stream):
        result = game.get("result")
        if not isinstance(result, dict) or result.get("winner") is None:
            continue  # abandoned, or not a game's log: no winner to count for
        games += 1
        winner = result["winner"]
        for rnd in game["rounds"]:
            chooser = rnd.get("trump_chosen_by")
            if rnd.get("trump_method") != "chosen" or chooser is None:
                continue
            if rnd.get("tricks_won") is None:
                continue
            k = sum(1 for t in rnd["tricks_won"] if t is not None)  # type: ignore[misc, union-attr]
            cell = (k, rnd["hand_size"])
            rounds[cell] += 1
            wins[cell] += chooser == winner
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", metavar="LOG")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    args = parser.parse_args()
    rounds: Counter[tuple[int, int]] = Counter()
    wins: Counter[tuple[int, int]] = Counter()
    games = 0
    for name in args.logs:
        if name == "-":
            games += count(sys.stdin.buffer, rounds, wins)
            continue
        opener = gzip.open if name.endswith(".gz") else open
        try:
            with opener(name, "rb") as stream:
                games += count(stream, rounds, wins)
        except OSError as e:
            raise SystemExit(f"chooser.py: {name}: {e.strerror or e}") from None
        except (ValueError, KeyError, TypeError) as e:  # LogReadError: not JSON lines
            raise SystemExit(f"chooser.py: {name}: not a log of kow games ({e})") from None
    rows = []
    print(f"{games} games; the trump chooser's chance of winning the game")
    print("| players | cards | rounds | chooser won | 95% interval | CHOOSER |")
    print("|---|---|---|---|---|---|")
    for cell in sorted(rounds):
        n, w = rounds[cell], wins[cell]
        low, high = wilson(w, n)
        table = CHOOSER.get(cell)
        rows.append({"players": cell[0], "cards": cell[1], "rounds": n, "chooser_won": w,
                     "rate": w / n, "ci95": [low, high], "chooser_table": table})  # fmt: skip
        shown = "-" if table is None else f"{table:.2f}"
        print(f"| {cell[0]} | {cell[1]} | {n} | {w / n:.2f} | {low:.2f} - {high:.2f} | {shown} |")
    if args.json:
        try:
            Path(args.json).write_text(json.dumps({"games": games, "cells": rows}, indent=2) + "\n")
        except OSError as e:
            raise SystemExit(f"chooser.py: {args.json}: {e.strerror or e}") from None


if __name__ == "__main__":
    main()
