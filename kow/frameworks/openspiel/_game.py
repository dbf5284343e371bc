"""The OpenSpiel game under one set of rules: its name, type and sizes, and its observers."""

from __future__ import annotations

from typing import Any

import pyspiel

from ...cards import DECK_SIZE
from ...log import rules_to_log
from ...rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from ..encoding import NUM_ACTIONS
from ._observer import KnockOutWhistObserver
from ._state import KnockOutWhistState, Table

__all__ = ["GAME_NAME", "GAME_TYPE", "KnockOutWhistGame", "max_game_length"]

GAME_NAME = "python_knock_out_whist"
"""The name the game is registered under: ``pyspiel.load_game(GAME_NAME)``."""

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Knock-Out Whist (kow)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=rules_to_log(Rules()),
)
"""The game's type: sequential, explicit chance, imperfect information, constant sum."""


def max_game_length(rules: Rules) -> int:
    """Return an upper bound of the player decisions in one game under ``rules``.

    Each round of hand size ``h`` (``start_cards`` down to 1) has at most ``players * h``
    plays or knocks (every seat acts at most once per trick), one trump choice and
    ``players - 1`` votes: ``players * (C * (C + 1) / 2 + C)`` for ``C`` start cards.
    Chance nodes are not counted.

    >>> max_game_length(Rules())
    140
    """
    c = rules.start_cards
    return rules.players * (c * (c + 1) // 2 + c)


class KnockOutWhistGame(pyspiel.Game):
    """The game under one set of rules: its type, sizes and observers.

    ``params``: the game parameters (the fields of :class:`~kow.rules.Rules`, all of them,
    as ``pyspiel.load_game`` passes them). :attr:`rules` holds them as kow's value.
    Raises :class:`~kow.rules.RulesError` for a value the rules do not allow.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        rules = Rules(**{**rules_to_log(Rules()), **given})
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=DECK_SIZE,
            num_players=rules.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_game_length(rules),
        )
        super().__init__(GAME_TYPE, info, given)
        self.rules = rules
        self._table = Table(rules)

    def new_initial_state(self) -> KnockOutWhistState:
        """Return the state before the first dealer is drawn (a chance node)."""
        return KnockOutWhistState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> KnockOutWhistObserver:
        """Return an observer: the information state with perfect recall, else the observation.

        ``iig_obs_type`` (a ``pyspiel.IIGObservationType``; default: the observation) must
        ask for public information and the seat's own private information. Raises
        :class:`ValueError` for any other type, or for observer ``params``.
        """
        perfect_recall = False
        if iig_obs_type is not None:
            if (
                not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            ):
                raise ValueError(
                    "the observer shows public information and one seat's own cards: "
                    "public_info=True and private_info=SINGLE_PLAYER"
                )
            perfect_recall = iig_obs_type.perfect_recall
        if params:
            raise ValueError(f"the observer takes no parameters, not {params!r}")
        return KnockOutWhistObserver(self.rules, perfect_recall)
