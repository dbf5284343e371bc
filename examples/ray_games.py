#!/usr/bin/env python3
"""kow's games as Ray tasks among a program's own: win rates by seat, counted on the cluster.

Usage::

    pip install '.[ray]' in kow's folder
    python examples/ray_games.py --games 4000 --seed 1
    python examples/ray_games.py --address auto   # a cluster that `ray start` runs

A run of ``heuristic`` against three ``random`` bots is played by kow's executor of Ray
tasks (``kow.runs.executors.on_ray``): the blocks of games are Ray tasks, handed back in
order, the same bytes as ``kow simulate --seed SEED --bots heuristic,random,random,random``.
As each block comes back, the program sends it to a Ray task of its own that counts the
winners' seats; the counts are summed at the end. Without ``--address`` the program starts
a Ray runtime of 2 CPUs on this machine (even if ``ray start`` runs one here) and stops it
at the end; with ``--address``, Ray connects as it does (and waits as long). The output is
the same at every run: it depends on the seed and the games alone.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

from kow.entries import number_type
from kow.rules import Rules
from kow.runs.batch import Run, run_text
from kow.settings import GAMES, SEED

PROG = "ray_games.py"

try:
    import ray

    from kow.runs.executors import on_ray
except ImportError:
    hint = "Ray is not installed; run: pip install '.[ray]' in kow's folder"
    print(f"{PROG}: {hint}", file=sys.stderr)
    sys.exit(1)

KINDS = ("heuristic", "random", "random", "random")


@ray.remote
def seat_wins(text: str) -> list[int]:
    """The program's own task: each seat's wins among a block of kow's logs."""
    wins = [0] * len(KINDS)
    for line in text.splitlines():
        wins[json.loads(line)["result"]["winner"]] += 1
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=number_type(GAMES.lo, 100_000, GAMES.what), default=4000)
    parser.add_argument("--seed", type=number_type(SEED.lo, SEED.hi, SEED.what), default=1)
    parser.add_argument("--address", help="a Ray cluster's address (default: start one here)")
    args = parser.parse_args()

    if args.address is None:
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
                 logging_level="ERROR")  # type: ignore[arg-type]  # fmt: skip
    else:
        try:
            ray.init(address=args.address, log_to_driver=False, logging_level="ERROR")  # type: ignore[arg-type]
        except (ValueError, ConnectionError, RuntimeError) as err:  # Ray's words for it
            reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            sys.exit(f"{PROG}: no Ray cluster at {args.address!r}: {reason}")
    try:
        run = Run(args.seed, Rules(), KINDS)
        digest = hashlib.sha256()
        counted = []
        for text, _ in run_text(run, 0, args.games, executor=on_ray()):
            digest.update(text.encode())
            counted.append(seat_wins.remote(text))  # scheduled beside kow's own tasks
        wins = [sum(seat) for seat in zip(*ray.get(counted), strict=True)]
    finally:
        ray.shutdown()
    print(f"{args.games} games, seed {args.seed}, bots {','.join(KINDS)}, on Ray")
    for seat, (kind, won) in enumerate(zip(KINDS, wins, strict=True)):
        print(f"seat {seat} ({kind}): {won} wins, {won / args.games:.1%}")
    print(f"sha256 of the logs: {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print(f"{PROG}: stopped", file=sys.stderr)
        sys.exit(130)
