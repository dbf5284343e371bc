"""Knock-Out Whist as a Gymnasium environment: one seat learns, kow's bots hold the others.

Install with ``pip install '.[gymnasium]' in kow's folder``. Importing this module registers
:data:`ENV_ID`, so either of these builds the environment (the keywords are those of
:class:`KnockOutWhistEnv`)::

    import gymnasium
    import kow.frameworks.gymnasium
    table = gymnasium.make("kow/KnockOutWhist-v0", bots="random", players=3)
    table = gymnasium.make("kow.frameworks.gymnasium:kow/KnockOutWhist-v0")  # imports it first

======================  ==========================================================
action space            ``Discrete(57)``: the ids of :mod:`kow.frameworks.encoding` (card 0..51,
                        knock 52, suit 53..56)
observation space       ``Dict(observation=Box(0, high, (observation_size,), float32),
                        action_mask=Box(0, 1, (57,), int8))``, as in
                        :mod:`kow.frameworks.pettingzoo`; also
                        :meth:`~KnockOutWhistEnv.action_masks`
reward                  at the game's end: 1.0 if the learner won, else 0.0; -1.0 for
                        an illegal action (which ends the episode)
episode                 one game: ``terminated`` at its end, never ``truncated``
======================  ==========================================================

The environment decides none of the rules: kow's engine (a :class:`~kow.engine.State`)
says whose turn it is, what is legal and how the game ends, and the bots are played by
kow's one game loop (:func:`kow.game.drive`) until the learner's seat must act. The
learner observes its own :class:`~kow.engine.view.View` only
(:func:`kow.frameworks.encoding.observation`).
A learner knocked out takes no more part (but to vote, under ``eliminated_vote``): the
step that knocked it out plays the game to its end, and the episode ends with 0.0.

``reset(seed=S)`` deals the game of ``kow simulate --seed S`` with the same rules, and the
bots draw from ``kow.game.bots_rng(S)`` as there, so the same seed and the same actions
give the same game; ``reset()`` draws the seed from the environment's ``np_random``.
:meth:`KnockOutWhistEnv.log` gives the game's kow log (v1), which ``kow verify``, ``kow
replay`` and ``kow analyze`` read.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterable, Sequence
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as err:  # the extra is not installed
    raise ImportError(
        "kow.frameworks.gymnasium needs Gymnasium: pip install '.[gymnasium]' in kow's folder"
        f" ({err})"
    ) from err

from ..engine import State
from ..engine.view import View
from ..events import AGENT, Seat, seat_name
from ..game import bots_rng, check_seed, drive, new_game
from ..log import GameLog, build
from ..players import Player, make_bot, seat_bot
from ..rules import Rules
from ..settings import MAX_SEED
from ._gym import RENDER_MODES, action_mask, check_render_mode, observation_space, observe, render
from .encoding import (
    NUM_ACTIONS,
    engine_action,
    legal_action_ids,
    observation_size,
    observation_text,
    result_text,
)

__all__ = ["ENV_ID", "ILLEGAL_REWARD", "KnockOutWhistEnv"]

ENV_ID = "kow/KnockOutWhist-v0"
"""The id registered with Gymnasium when this module is imported."""
ILLEGAL_REWARD = -1.0
"""The reward of an illegal action, which ends the episode (below a loss's 0.0)."""

Observation = dict[str, Any]
"""An observation: ``observation`` (float32) and ``action_mask`` (int8) arrays."""


class _LearnersTurn(Exception):
    """The game awaits the learner's decision: raised to stop :func:`kow.game.drive` there."""


class _Learner(Player):
    """The learner's seat in the game loop: it hands every decision back to the environment.

    Also the learner's player in the log (kind ``"agent"``).
    """

    kind = AGENT

    def act(self, view: View) -> int:
        """Raise :class:`_LearnersTurn`: the environment's caller acts for this seat."""
        raise _LearnersTurn


class KnockOutWhistEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of Knock-Out Whist against kow's bots (see the module's text).

    ``seat``: the learner's seat (0-based, clockwise). ``bots``: the bot kind of every
    other seat (``"random"``, ``"heuristic"``, ``"search"``, ``"ismcts"``: see
    :data:`kow.players.BOT_KINDS`), or a sequence of one kind per other seat, in seat
    order; the bot at seat ``s`` is named ``KIND-s`` in the log, as ``kow simulate`` names
    it. ``settings`` are the fields of :class:`~kow.rules.Rules` (``players=3``,
    ``dogs_life="once-per-game"``, ...). ``render_mode``: None, ``"human"`` (print the
    learner's text at each of its decisions) or ``"ansi"`` (:meth:`render` returns it).

    Raises :class:`ValueError` for an unknown bot kind (naming the kinds), a wrong number
    of kinds, a seat not at the table (:class:`~kow.rules.RulesError`), a setting out of
    range or an unknown render mode; :class:`TypeError` for an unknown setting or ``bots``
    that are neither a kind nor a sequence of kinds.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        seat: Seat = 0,
        bots: str | Sequence[str] = "heuristic",
        render_mode: str | None = None,
        **settings: Any,
    ) -> None:
        check_render_mode(render_mode)
        self.rules = Rules(**settings)
        """The rules of every game this environment deals."""
        self.rules.check_seat(seat, "seat")
        if not isinstance(bots, (str, Iterable)):
            raise TypeError(f"bots must be a bot kind or a sequence of kinds, not {bots!r}")
        kinds = (bots,) if isinstance(bots, str) else tuple(bots)
        others = self.rules.players - 1
        if len(kinds) == 1:
            kinds *= others
        elif len(kinds) != others:
            raise ValueError(
                f"bots: give one kind for every other seat, or one per other seat "
                f"({others} with {self.rules.players} players), not {len(kinds)}"
            )
        for kind in kinds:
            make_bot(kind, "check", random.Random(0))  # ValueError naming the kinds
        self.seat = int(seat)  # a numpy integer, say, checked above
        self.bots = kinds
        """The bots' kinds, in seat order, the learner's seat left out."""
        self.render_mode = render_mode
        self.action_space: spaces.Discrete = spaces.Discrete(NUM_ACTIONS)
        self.observation_space: spaces.Dict = observation_space(self.rules)
        self._size = observation_size(self.rules)
        self.game: State | None = None
        """The engine's state of the game in play (None before :meth:`reset`)."""
        self.seed: int | None = None
        """The seed of the game in play: the one given to :meth:`reset`, or drawn."""
        self.players: list[Player] = []
        """The game's players by seat: the bots and the learner's stand-in (kind ``agent``)."""
        self._over = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game and let the bots act up to the learner's first decision.

        ``seed``: 0..2^53-1, the seed of ``kow simulate --seed``; it also seeds
        ``np_random``, which draws the seed when none is given. ``options`` are ignored.
        Returns the learner's observation and ``{"seed": the game's seed}``.

        Raises :class:`ValueError` for a seed outside 0..2^53-1.
        """
        if seed is not None:
            seed = check_seed(seed)
        super().reset(seed=seed)
        self.seed = seed if seed is not None else int(self.np_random.integers(MAX_SEED + 1))
        rng = bots_rng(self.seed)  # shared by the bots in turn, as in kow simulate
        kinds = iter(self.bots)
        self.players = []
        for seat in range(self.rules.players):
            if seat == self.seat:
                self.players.append(_Learner(seat_name(AGENT, seat)))
            else:
                self.players.append(seat_bot(next(kinds), seat, rng))
        self.game = new_game(self.rules, self.seed)
        self._over = False
        self._play_bots()  # the learner plays a card in round 1: the game cannot end here
        return self._observation(), {"seed": self.seed}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Apply the learner's ``action`` (an id 0..56), then let the bots act until its
        next decision or the game's end.

        Returns ``(observation, reward, terminated, truncated, info)``. At the game's end
        ``terminated`` is True, the reward 1.0 if the learner won and else 0.0, and
        ``info`` holds ``winner`` (a seat) and ``termination`` (why it ended: ``"sweep"``,
        ``"last-standing"``, ``"final-trick"``). An illegal action changes nothing in the
        game and ends the episode at once: reward :data:`ILLEGAL_REWARD`, ``info`` with
        ``illegal_action`` True, the ``action``, the ``legal_actions`` (ids) and the
        engine's ``reason``; the log then says the game was abandoned.

        Raises :class:`gymnasium.error.ResetNeeded` before :meth:`reset` or after the
        episode's end.
        """
        game = self.game
        if game is None:
            raise gymnasium.error.ResetNeeded("no game yet: call reset() first")
        if self._over:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        chosen: object = action
        try:
            move = engine_action(action, game.phase)  # TypeError for a float, say
            chosen = operator.index(action)  # the id, as an int
            game.apply(move)
        except (TypeError, ValueError) as err:  # kow.engine.IllegalActionError among them
            self._over = True
            info = {
                "illegal_action": True,
                "action": chosen,
                "legal_actions": legal_action_ids(game),
                "reason": str(err),
            }
            return self._observation(), ILLEGAL_REWARD, True, False, info
        self._play_bots()
        outcome = game.outcome
        if outcome is None:
            return self._observation(), 0.0, False, False, {}
        self._over = True
        reward = 1.0 if outcome.winner == self.seat else 0.0
        info = {"winner": outcome.winner, "termination": outcome.termination.value}
        return self._observation(), reward, True, False, info

    def action_masks(self) -> np.ndarray:
        """Return the legal actions now as 57 bools (all False unless the learner is to act):
        the method sb3-contrib's ``MaskablePPO`` calls."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        """Show the learner's :func:`~kow.frameworks.encoding.observation_text`, and the
        result once the game is over, in the render mode (:func:`kow.frameworks._gym.render`:
        ``"ansi"`` returns the text, ``"human"`` prints it, None warns)."""
        return render(self.render_mode, self._text)

    def _text(self) -> str:
        """Return the learner's text, and the result once the game is over."""
        game = self._game()
        text = observation_text(game.view(self.seat))
        outcome = game.outcome
        if outcome is not None:
            text += "\n" + result_text(outcome)
        return text

    def log(self) -> GameLog:
        """Return the game so far as kow's log, version 1 (a JSON-ready dict).

        The learner is a player of kind ``"agent"`` named ``agent-SEAT``, the bots are
        logged by their kinds and names; the seed is :attr:`seed`. A game not over (an
        illegal action ended the episode) is logged as abandoned. :func:`kow.log.dump`
        writes it; ``kow verify``, ``kow replay`` and ``kow analyze`` read it.

        Raises :class:`RuntimeError` before the first :meth:`reset`.
        """
        game = self._game()
        return build(
            self.seed, self.rules, self.players, events=game.events, abandoned=game.outcome is None
        )

    def _play_bots(self) -> None:
        """Let the bots act, through the game loop, until the learner must act or the game
        is over."""
        try:
            drive(self._game(), self.players)
        except _LearnersTurn:
            pass
        if self.render_mode == "human":
            self.render()

    def _acting(self) -> bool:
        return self._game().turn == self.seat and not self._over

    def _mask(self) -> np.ndarray:
        return action_mask(self._game(), self._acting())

    def _observation(self) -> Observation:
        return observe(self._game(), self.seat, self._size, acting=self._acting())

    def _game(self) -> State:
        if self.game is None:
            raise RuntimeError("no game yet: call reset() first")
        return self.game


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="kow.frameworks.gymnasium:KnockOutWhistEnv")
