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

:func:`seer_game` plays one game with a given seed and seating: ``benchmarks/strength.py
--seer`` uses it to put the seer on exactly the deals and seats of a ``kow simulate``
run.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Sequence
from typing import NamedTuple

from kow.cards import card_name
from kow.engine import State
from kow.engine.view import View
from kow.entries import number_type
from kow.events import Deal, Phase, Seat, seat_name
from kow.game import bots_rng, drive, game_seed, new_game
from kow.players import Player, make_bot
from kow.players.policy import heuristic_card
from kow.players.value import round_value
from kow.rules import Rules
from kow.runs.executors import Processes
from kow.runs.stats import wilson
from kow.settings import GAMES, JOBS

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


class SeerGame(NamedTuple):
    """One game of the seer: the winning seat, and the first round's deal.

    ``dealer``: round 1's dealer; ``hands``: round 1's hands by seat, the cards in the
    order dealt and named as in a log (``"Ah"``): what a log's ``rounds[0]`` holds, to
    check that a game is the one ``kow simulate`` played with the same seed.
    """

    winner: Seat
    dealer: Seat
    hands: tuple[tuple[str, ...], ...]


def seer_game(
    kinds: Sequence[str], seat: Seat, seed: int, *, rules: Rules | None = None
) -> SeerGame:
    """Play one game with the seer at ``seat`` and a bot of ``kinds[s]`` at each other seat.

    ``kinds``: one bot kind per seat, as ``kow simulate --bots`` takes them (the kind at
    ``seat`` is left out: the seer sits there); ``seed``: the game's own seed (that of
    ``kow simulate --seed S``'s game ``i`` is ``game_seed(S, i)``); ``rules``: the
    default rules when None. The game is dealt and its bots are made as ``kow simulate``
    deals and makes them (``new_game(rules, seed)``, bots named ``KIND-SEAT`` drawing
    from ``bots_rng(seed)``, at their default settings), so the seer gets the deals and
    the seat of that game. Raises :class:`ValueError` for a kind that is no bot kind or
    kinds that are not one per seat.
    """
    rules = rules or Rules()
    n = rules.players
    if len(kinds) != n:
        raise ValueError(f"{len(kinds)} kinds given for a {n}-player game")
    state = new_game(rules, seed)
    rng = bots_rng(seed)
    players = [
        Seer("seer", state) if s == seat else make_bot(kind, seat_name(kind, s), rng)
        for s, kind in enumerate(kinds)
    ]
    deal = state.events[0]
    assert isinstance(deal, Deal)
    hands = tuple(tuple(card_name(c) for c in hand or ()) for hand in deal.hands)
    drive(state, players)
    assert state.winner is not None
    return SeerGame(state.winner, deal.dealer, hands)


def seer_wins(against: str, index: int) -> bool:
    """Play game ``index`` of the run and return whether the seer won it."""
    n = Rules().players
    seat = index % n
    return seer_game([against] * n, seat, game_seed(SEED, index // n)).winner == seat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="ismcts")
    parser.add_argument("--games", type=number_type(GAMES.lo, GAMES.hi, GAMES.what), default=300)
    parser.add_argument("--jobs", type=number_type(JOBS.lo, JOBS.hi, JOBS.what), default=2)
    args = parser.parse_args()
    play = functools.partial(seer_wins, args.against)
    wins = sum(Processes(args.jobs).map(play, range(args.games)))
    low, high = wilson(wins, args.games)
    print(
        f"seer vs 3 {args.against}: {wins} of {args.games} games, {wins / args.games:.1%} "
        f"(95% interval {low:.1%} - {high:.1%})"
    )


if __name__ == "__main__":
    main()
