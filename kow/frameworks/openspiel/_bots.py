"""Bots in the OpenSpiel game: kow's bots as OpenSpiel bots (:class:`KowBot`), and a
seeded resampler for OpenSpiel's IS-MCTS bot (:func:`resampler`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

import pyspiel

from ...players import Player, make_bot
from ...players.base import check_rng
from ...settings import check_seed
from ..encoding import action_id

if TYPE_CHECKING:
    from ._game import KnockOutWhistGame
    from ._state import KnockOutWhistState

__all__ = ["KowBot", "resampler"]


def resampler(rng: random.Random) -> Callable[[KnockOutWhistState, int], KnockOutWhistState]:
    """Return a resampler for OpenSpiel's ``ISMCTSBot.set_resampler`` drawing from ``rng``.

    Left alone, the bot passes ``resample_from_infostate`` a new unseeded
    ``pyspiel.UniformProbabilitySampler`` each time, so its searches differ from run to
    run; with ``bot.set_resampler(resampler(random.Random(seed)))`` they do not. Raises
    :class:`TypeError` when ``rng`` is not a :class:`random.Random`.
    """
    draw = check_rng(rng).random

    def resample(state: KnockOutWhistState, seat: int) -> KnockOutWhistState:
        return state.resample_from_infostate(seat, draw)

    return resample


class KowBot(pyspiel.Bot):
    """One of kow's bots as an OpenSpiel bot: it answers from its seat's view of the engine.

    ``kind``: ``"random"``, ``"heuristic"``, ``"search"`` or ``"ismcts"``
    (:func:`kow.players.make_bot`); ``seed`` seeds its own ``random.Random``; ``name``
    (default: the kind) is its name in a log, where its ``kind`` is the bot's.
    ``search_iterations`` and ``ismcts_iterations`` set those bots' effort. Use it on
    states of :class:`KnockOutWhistGame` only (with :func:`pyspiel.evaluate_bots` or a
    loop of your own). Raises :class:`ValueError` for an unknown kind.
    """

    def __init__(
        self,
        game: KnockOutWhistGame,
        kind: str,
        seed: int,
        *,
        name: str | None = None,
        search_iterations: int | None = None,
        ismcts_iterations: int | None = None,
    ) -> None:
        pyspiel.Bot.__init__(self)
        self.game = game
        self.player: Player = make_bot(
            kind,
            name or kind,
            random.Random(check_seed(seed)),  # an int 0 to 2^53-1, as --seed
            search_iterations=search_iterations,
            ismcts_iterations=ismcts_iterations,
        )

    @property
    def name(self) -> str:
        """The bot's name, for the log."""
        return self.player.name

    @property
    def kind(self) -> str:
        """The bot's kind, for the log."""
        return self.player.kind

    def step(self, state: KnockOutWhistState) -> int:
        """Return the action id the bot chooses for the seat to act in ``state``.

        Raises :class:`ValueError` at a chance or terminal node.
        """
        engine = state.engine
        if engine is None or state.is_chance_node() or state.is_terminal():
            raise ValueError("a bot acts at a decision node only")
        view = engine.view(engine.turn)
        return action_id(self.player.act(view), view.phase)

    def restart_at(self, state: KnockOutWhistState) -> None:
        """Do nothing: kow's bots keep no memory between decisions."""

    def inform_action(self, state: KnockOutWhistState, player_id: int, action: int) -> None:
        """Do nothing: the bot reads each decision from the engine."""
