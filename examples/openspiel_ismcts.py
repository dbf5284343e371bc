"""OpenSpiel's IS-MCTS (seat 0) against kow's search bot (the other seats): its win rate.

Usage: ``python examples/openspiel_ismcts.py [--games N] [--players N] [--start-cards N]
[--simulations N] [--search-iterations N] [--seed N] [--log FILE]``. Needs
``pip install '.[openspiel]' in kow's folder``.

Plays ``--games`` games of ``python_knock_out_whist`` (``import kow.frameworks.openspiel``
registers it). Seat 0 is OpenSpiel's Python ``ISMCTSBot`` with random rollouts, which
deals the hidden cards with the game's ``resample_from_infostate`` (seeded, with
:func:`kow.frameworks.openspiel.resampler`); the other seats are kow's ``search`` bot through
:class:`kow.frameworks.openspiel.KowBot`. The loop draws the chance
nodes (the first dealer, every card dealt or cut) from ``random.Random(--seed)``; the
bots have seeds of their own, so the same options print the same games. It prints each
game's winner, IS-MCTS's win rate with a 95% Wilson interval, and the time taken.
``--log FILE`` writes the games as kow logs (JSON Lines): ``kow verify FILE`` checks
them, ``kow replay`` and ``kow analyze`` read them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time

from kow.entries import number_type
from kow.log import LoggedPlayer, rules_to_log
from kow.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, RulesError
from kow.runs.stats import wilson

PROG = "openspiel_ismcts.py"

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from kow.frameworks.openspiel import GAME_NAME, KowBot, resampler
except ImportError:
    hint = "OpenSpiel is not installed; run: pip install '.[openspiel]' in kow's folder"
    print(f"{PROG}: {hint}", file=sys.stderr)
    sys.exit(1)

MAX_EXAMPLE_SEED = 4_000_000
"""The largest --seed: game K's numpy generators take seed * 1000 + K, below 2^32."""
UCT_C = 0.7
"""UCB1's exploration constant for returns in 0..1 (Cowling et al. use 0.7)."""


def play(args: argparse.Namespace) -> list[dict[str, object]]:
    """Play the games; print each winner; return their logs."""
    rules = Rules(players=args.players, start_cards=args.start_cards)
    game = pyspiel.load_game(GAME_NAME, rules_to_log(rules))
    chance = random.Random(args.seed)
    logs = []
    for number in range(1, args.games + 1):
        seed = args.seed * 1000 + number
        evaluator = mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(seed))
        searcher = ismcts.ISMCTSBot(
            game, evaluator, UCT_C, args.simulations, random_state=np.random.RandomState(seed)
        )
        searcher.set_resampler(resampler(random.Random(seed)))
        bots = [
            KowBot(game, "search", seed + seat, name=f"search-{seat}",
                   search_iterations=args.search_iterations)
            for seat in range(1, args.players)
        ]  # fmt: skip
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [outcome for outcome, _ in state.chance_outcomes()]  # all equally likely
                state.apply_action(outcomes[int(chance.random() * len(outcomes))])
            elif state.current_player() == 0:
                state.apply_action(int(searcher.step(state)))
            else:
                state.apply_action(bots[state.current_player() - 1].step(state))
        log = state.log([LoggedPlayer("openspiel-ismcts", "agent"), *bots])
        winner = log["result"]["winner"]
        print(f"game {number}: seat {winner} wins ({log['players'][winner]['name']}), "
              f"round {log['result']['rounds_played']}")  # fmt: skip
        logs.append(log)
    return logs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    count = number_type(1, 100_000, "a count")
    parser.add_argument("--games", type=count, default=12, help="games to play")
    parser.add_argument(
        "--players", type=number_type(MIN_PLAYERS, MAX_PLAYERS, "a number of players"), default=3,
        help="2 to 7",
    )  # fmt: skip
    parser.add_argument(
        "--start-cards", type=number_type(1, 51, "a number of cards"), default=4,
        help="round 1's hand size",
    )  # fmt: skip
    parser.add_argument("--simulations", type=count, default=200, help="IS-MCTS's, per move")
    parser.add_argument("--search-iterations", type=count, default=100, help="deals per move")
    parser.add_argument(
        "--seed", type=number_type(0, MAX_EXAMPLE_SEED, "a seed"), default=1,
        help=f"seed of the chance nodes, 0 to {MAX_EXAMPLE_SEED}",
    )  # fmt: skip
    parser.add_argument("--log", metavar="FILE", help="write the games' kow logs here")
    args = parser.parse_args(argv)
    try:
        Rules(players=args.players, start_cards=args.start_cards)
    except RulesError as err:
        parser.error(str(err))
    print(f"OpenSpiel IS-MCTS ({args.simulations} simulations a move) at seat 0 against "
          f"kow's search bot ({args.search_iterations} deals a move)")  # fmt: skip
    print(f"{args.players} players, {args.start_cards} start cards, {args.games} games, "
          f"seed {args.seed}")  # fmt: skip
    start = time.perf_counter()
    logs = play(args)
    took = time.perf_counter() - start
    wins = sum(log["result"]["winner"] == 0 for log in logs)  # type: ignore[index]
    low, high = wilson(wins, len(logs))
    print(f"IS-MCTS won {wins} of {len(logs)}: {wins / len(logs):.3f}, 95% Wilson interval "
          f"{low:.3f} to {high:.3f} (a fair share is {1 / args.players:.3f})")  # fmt: skip
    print(f"took {took:.1f} s")
    if args.log:  # written whole: to a temporary file beside it, then renamed
        folder = os.path.dirname(os.path.abspath(args.log))
        with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, encoding="utf-8") as out:
            for log in logs:
                out.write(json.dumps(log, separators=(",", ":")) + "\n")
        os.replace(out.name, args.log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
