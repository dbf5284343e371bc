#!/usr/bin/env python3
"""Step kow's PettingZoo environment with a random agent at every seat, and keep a game's log.

Usage::

    pip install '.[pettingzoo]' in kow's folder
    python examples/pettingzoo_random.py --games 5 --seed 1 --log game.json
    kow verify game.json

Each agent takes a legal action drawn uniformly from its action mask, with a numpy
generator seeded by ``--seed``; game ``i`` is dealt from ``kow.game.game_seed(SEED, i)``,
the seed of game ``i`` of ``kow simulate --seed SEED``. So the output is the same at every
run. Prints each game's winner and steps (actions taken), then the wins per seat;
``--log FILE`` writes the last game's kow log, which ``kow verify``, ``kow replay`` and
``kow analyze`` read.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter

from kow.entries import number_type
from kow.game import game_seed
from kow.log import dump
from kow.settings import GAMES, SEED

PROG = "pettingzoo_random.py"

try:
    import numpy as np

    from kow.frameworks.pettingzoo import env
except ImportError:
    hint = "PettingZoo is not installed; run: pip install '.[pettingzoo]' in kow's folder"
    print(f"{PROG}: {hint}", file=sys.stderr)
    sys.exit(1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--games", type=number_type(1, 1_000_000, GAMES.what), default=5,
        help="games to play (default 5)",
    )  # fmt: skip
    parser.add_argument(
        "--seed", type=number_type(SEED.lo, SEED.hi, SEED.what), default=1,
        help="seed of the run, 0 to 2^53-1 (default 1)",
    )  # fmt: skip
    parser.add_argument("--log", metavar="FILE", help="write the last game's kow log to FILE")
    args = parser.parse_args(argv)

    table = env()  # the default rules: 4 players, 7 cards down to 1
    rng = np.random.default_rng(args.seed)
    wins: Counter[str] = Counter()
    for index in range(args.games):
        table.reset(seed=game_seed(args.seed, index))
        steps = 0
        winner = None
        for agent in table.agent_iter():
            obs, reward, terminated, truncated, info = table.last()
            if terminated or truncated:
                if reward == 1:
                    winner = agent
                table.step(None)  # a finished agent steps with None
                continue
            legal = np.flatnonzero(obs["action_mask"])
            table.step(int(rng.choice(legal)))
            steps += 1
        wins[winner] += 1  # type: ignore[index]
        print(f"game {index + 1} (seed {table.seed}): {winner} wins after {steps} steps")
    print("wins: " + ", ".join(f"{agent} {wins[agent]}" for agent in table.possible_agents))
    if args.log:
        # Written whole: to a temporary file beside it, then renamed over it.
        folder = os.path.dirname(os.path.abspath(args.log))
        with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, encoding="utf-8") as out:
            dump(table.log(), out)
        os.replace(out.name, args.log)
        print(f"the log of game {args.games} is in {args.log}: try kow verify {args.log}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
