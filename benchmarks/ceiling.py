"""How well could any search bot do? A player that sees every hand, against each kind.

Usage: ``python benchmarks/ceiling.py [--against ismcts] [--games N] [--jobs J]``.

The *seer* is a deliberate cheat, for measurement only: it is handed the game's
:class:`~kow.engine.State` and, at each decision, plays every legal action out on the
true deal to the end of the round, every seat then following the heuristic bot's rules
(``heuristic_card``, the search bot's rollout policy), and keeps the action whose
outcome scores best (``round_value``): the search bot's method with the hidden cards
known. Against three heuristic bots that model is exact, so it shows what perfect
information is worth; against players unlike the heuristic it shows what the search
bot's method can reach at best. docs/bots.md quotes both.

It plays 4-player games with the default rules, the seer against three bots of
``--against``, rotating the seats over the same seeds as ``kow tournament --seed 1``
does (game ``i`` has seed ``game_seed(1, i // 4)`` and the seer sits at seat ``i % 4``),
and prints the seer's win rate with its 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import functools

from kow.engine import State
from kow.engine.view import View
from kow.entries import number_type
from kow.events import Phase
from kow.game import bots_rng, drive, game_seed, new_game
from kow.players import Player, make_bot
from kow.players.policy import heuristic_card
from kow.players.value import round_value
from kow.rules import GAMES, JOBS, Rules
from kow.runs._pool import ordered_map
from kow.runs.stats import wilson

SEED = 1


class Seer(Player):
    """Choose as the search bot would with the hidden cards known (it reads ``state``)."""

    kind = "seer"

    def __init__(self, name: str, state: State) -> None:
        super().__init__(name)
        self.state = state

    def act(self, view: View) -> int:
        legal = view.legal
        if len(legal) == 1 or view.phase is Phase.VOTE:
            return legal[0]
        policies = [heuristic_card] * view.rules.players
        best, best_value = legal[0], -1.0
        for action in legal:
            state = self.state.round_copy()
            if view.phase is Phase.PLAY:
                state.play_round(policies, first=action, ask_forced=False)
            else:
                state.apply(action)
                state.play_round(policies, ask_forced=False)
            value = round_value(state.tricks_won, view.seat, view)
            if value > best_value:
                best, best_value = action, value
        return best


def seer_wins(against: str, index: int) -> bool:
    """Play game ``index`` of the run and return whether the seer won it."""
    rules = Rules()
    n = rules.players
    seed = game_seed(SEED, index // n)
    seat = index % n
    state = new_game(rules, seed)
    rng = bots_rng(seed)
    players = [
        Seer("seer", state) if s == seat else make_bot(against, f"{against}-{s}", rng)
        for s in range(n)
    ]
    drive(state, players)
    return state.winner == seat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="ismcts")
    parser.add_argument("--games", type=number_type(GAMES.lo, GAMES.hi, GAMES.what), default=300)
    parser.add_argument("--jobs", type=number_type(JOBS.lo, JOBS.hi, JOBS.what), default=2)
    args = parser.parse_args()
    play = functools.partial(seer_wins, args.against)
    wins = sum(ordered_map(play, range(args.games), args.jobs))
    low, high = wilson(wins, args.games)
    print(
        f"seer vs 3 {args.against}: {wins} of {args.games} games, {wins / args.games:.1%} "
        f"(95% interval {low:.1%} - {high:.1%})"
    )


if __name__ == "__main__":
    main()
