"""Time random play through the OpenSpiel game, and through kow's engine alone.

Usage: ``python benchmarks/frameworks_openspiel.py [--games N] [--players N]
[--start-cards N] [--seed N] [--repeat N] [--json FILE]``. Needs the extra ``openspiel``
(``pip install '.[openspiel]'`` in kow's folder).

Both loops play ``--games`` whole games (default 200; 4 players and 7 cards unless told),
choosing uniformly among the legal actions with ``random.Random(--seed)``:

- **OpenSpiel**: ``pyspiel.load_game("python_knock_out_whist")`` from Python, the way an
  agent drives it: at a chance node one of ``chance_outcomes()`` drawn by its
  probability, else one of ``legal_actions()``; then ``apply_action``. A *step* is one
  ``apply_action``, chance nodes (the dealer and each card dealt or cut) included; a
  *decision* is a step of a seat.
- **engine**: ``kow.engine.State`` with its own shuffled deck (no chance nodes):
  ``legal_actions()`` then ``apply()``, one decision each.

It prints steps and decisions per second for each (the best of ``--repeat`` runs,
default 3: other work on the machine only slows a run), and the engine's decisions per
second over the adapter's. The installed kow is what is timed; an editable install is
pure Python but for the modules compiled in place.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from typing import Any

import pyspiel

import kow.frameworks.openspiel  # noqa: F401  (registers the game)
from kow.engine import State
from kow.entries import number_type
from kow.events import Phase
from kow.frameworks.openspiel import GAME_NAME
from kow.log import rules_to_log
from kow.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, RulesError
from kow.settings import GAMES, SEED


def openspiel_play(game: Any, games: int, seed: int) -> tuple[float, int, int]:
    """Return ``(seconds, steps, decisions)`` of ``games`` random games through pyspiel."""
    rng = random.Random(seed)
    rnd = rng.random
    steps = decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                pick = rnd()
                action = outcomes[-1][0]
                for outcome, p in outcomes:
                    pick -= p
                    if pick < 0:
                        action = outcome
                        break
            else:
                legal = state.legal_actions()
                action = legal[int(rnd() * len(legal))]
                decisions += 1
            state.apply_action(action)
            steps += 1
    return time.perf_counter() - start, steps, decisions


def engine_play(rules: Rules, games: int, seed: int) -> tuple[float, int]:
    """Return ``(seconds, decisions)`` of ``games`` random games on the engine alone."""
    rng = random.Random(seed)
    rnd = rng.random
    decisions = 0
    start = time.perf_counter()
    for i in range(games):
        state = State(rules, random.Random(seed * 1_000_003 + i))
        while state.phase is not Phase.OVER:
            legal = state.legal_actions()
            state.apply(legal[int(rnd() * len(legal))])
            decisions += 1
    return time.perf_counter() - start, decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=number_type(GAMES.lo, GAMES.hi, GAMES.what), default=200)
    parser.add_argument(
        "--players", type=number_type(MIN_PLAYERS, MAX_PLAYERS, "a number of players"), default=4
    )
    parser.add_argument("--start-cards", type=number_type(1, 51, "a number of cards"), default=7)
    parser.add_argument("--seed", type=number_type(SEED.lo, SEED.hi, SEED.what), default=1)
    parser.add_argument("--repeat", type=number_type(1, None, "a number of runs"), default=3)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    try:
        rules = Rules(players=args.players, start_cards=args.start_cards)
    except RulesError as err:
        parser.error(str(err))
    game = pyspiel.load_game(GAME_NAME, rules_to_log(rules))
    spiel = min(openspiel_play(game, args.games, args.seed) for _ in range(args.repeat))
    alone = min(engine_play(rules, args.games, args.seed) for _ in range(args.repeat))
    seconds, steps, decisions = spiel
    figures = {
        "games": args.games,
        "rules": rules_to_log(rules),
        "openspiel": {
            "seconds": round(seconds, 3),
            "steps": steps,
            "decisions": decisions,
            "steps_per_second": round(steps / seconds),
            "decisions_per_second": round(decisions / seconds),
        },
        "engine": {
            "seconds": round(alone[0], 3),
            "decisions": alone[1],
            "decisions_per_second": round(alone[1] / alone[0]),
        },
        "machine": {"python": f"{platform.python_implementation()} {platform.python_version()}"},
    }
    ratio = figures["engine"]["decisions_per_second"] / figures["openspiel"]["decisions_per_second"]
    print(f"{args.games} random games, {args.players} players, {args.start_cards} start cards")
    print(f"{'loop':<10} {'steps/s':>9} {'decisions/s':>12} {'steps':>8} {'decisions':>10}")
    o, e = figures["openspiel"], figures["engine"]
    print(f"{'openspiel':<10} {o['steps_per_second']:>9,} {o['decisions_per_second']:>12,} "
          f"{o['steps']:>8} {o['decisions']:>10}")  # fmt: skip
    print(f"{'engine':<10} {'':>9} {e['decisions_per_second']:>12,} {'':>8} {e['decisions']:>10}")
    print(f"the engine alone makes {ratio:.1f} times the adapter's decisions per second")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
