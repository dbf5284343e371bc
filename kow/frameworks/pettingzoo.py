"""Knock-Out Whist as a PettingZoo AEC environment: one agent per seat, each seeing its own view.

Install with ``pip install '.[pettingzoo]'`` in kow's folder. Built as PettingZoo's classic
games are:
:func:`env` is :class:`raw_env` wrapped with PettingZoo's standard wrappers, and
``raw_env(**settings)`` takes the fields of :class:`~kow.rules.Rules` as keywords::

    from kow.frameworks.pettingzoo import env
    game = env(players=3, dogs_life="once-per-game")
    game.reset(seed=7)
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, info = game.last()
        ...

======================  ==========================================================
name                    ``knock_out_whist_v0``
agents                  ``seat_0`` .. ``seat_{P-1}`` (seats: 0-based, clockwise)
action space            ``Discrete(57)``: the ids of :mod:`kow.frameworks.encoding` (card 0..51,
                        knock 52, suit 53..56)
observation space       ``Dict(observation=Box(0, high, (observation_size,), float32),
                        action_mask=Box(0, 1, (57,), int8))``
rewards                 at the game's end, 1 to the winner and 0 to every other seat
======================  ==========================================================

The environment decides none of the rules: it asks kow's engine (a
:class:`~kow.engine.State`) whose turn it is (``agent_selection`` is always the seat to
act), what is legal (the action mask: :func:`kow.frameworks.encoding.legal_action_ids`) and how
the game ends, and applies each action with :meth:`State.apply
<kow.engine.State.apply>`. An agent observes its own :class:`~kow.engine.view.View` only
(:func:`kow.frameworks.encoding.observation`): its hand and what the table has seen; its mask is
all zeros unless it is to act. A knocked-out seat stays among the agents until the game
ends, acting only to vote (``eliminated_vote``), and is rewarded 0.

``reset(seed=S)`` deals ``kow.game.new_game(rules, S)``, the game of ``kow simulate
--seed S`` with the same rules; ``reset()`` draws the game's seed from the environment's
generator (seeded by the last ``reset(seed=...)``, else from the operating system) and
keeps it in :attr:`raw_env.seed`. :meth:`raw_env.log` gives the game's kow log (v1),
which ``kow verify``, ``kow replay`` and ``kow analyze`` read.

An illegal action: :func:`env`'s ``TerminateIllegalWrapper`` ends the game, -1 to the
agent that took it and 0 to the others (PettingZoo's classic convention; the log then
says the game was abandoned); :class:`raw_env` raises :class:`ValueError`, as it does for
an agent that is none of the game's (``observe("seat_9")``). Before the first ``reset()``,
:class:`raw_env`'s ``step``, ``last``, ``observe``, ``render`` and ``log`` raise
:class:`RuntimeError` saying to call it.
"""

from __future__ import annotations

import operator
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as err:  # the extra is not installed
    raise ImportError(
        "kow.frameworks.pettingzoo needs PettingZoo: pip install '.[pettingzoo]' in kow's"
        f" folder ({err})"
    ) from err

from ..engine import State
from ..entries import shown
from ..events import AGENT, Seat
from ..game import check_seed, new_game
from ..log import GameLog, LoggedPlayer, build
from ..rules import Rules
from ..settings import MAX_SEED
from ._gym import RENDER_MODES, check_render_mode, observation_space, observe, render
from .encoding import (
    NUM_ACTIONS,
    action_text,
    engine_action,
    legal_action_ids,
    observation_size,
    observation_text,
    result_text,
)

__all__ = ["ILLEGAL_REWARD", "env", "raw_env"]

Last = tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]
"""What :meth:`raw_env.last` returns: observation, reward, terminated, truncated, info."""

ILLEGAL_REWARD = -1.0
"""The reward of an agent whose illegal action ends the game in :func:`env`."""


def env(render_mode: str | None = None, **settings: Any) -> AECEnv:
    """Return the environment wrapped as PettingZoo's classic games are.

    :class:`raw_env` (same arguments) inside ``TerminateIllegalWrapper`` (an illegal
    action ends the game: :data:`ILLEGAL_REWARD` to its agent, 0 to the others),
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``. The wrappers pass
    attribute reads through, so ``env().log()`` works; ``env().unwrapped`` is the
    :class:`raw_env`.
    """
    wrapped: AECEnv = raw_env(render_mode=render_mode, **settings)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # noqa: N801 -- PettingZoo's name for the unwrapped environment
    """Knock-Out Whist for ``rules.players`` agents, one per seat (see the module's text).

    ``settings`` are the fields of :class:`~kow.rules.Rules` (``players=3``,
    ``start_cards=5``, ``dogs_life="once-per-game"``, ...; the rules text's defaults
    otherwise); ``render_mode`` is None, ``"human"`` (print the text of the seat to act
    after each change) or ``"ansi"`` (:meth:`render` returns it).

    Raises :class:`~kow.rules.RulesError` (a :class:`ValueError`) for a setting out of
    range, :class:`TypeError` for an unknown setting and :class:`ValueError` for an
    unknown render mode.
    """

    metadata: dict[str, Any] = {
        "name": "knock_out_whist_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, render_mode: str | None = None, **settings: Any) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.rules = Rules(**settings)
        """The rules of every game this environment deals."""
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: observation_space(self.rules) for agent in self.possible_agents
        }
        self._size = observation_size(self.rules)
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self.game: State | None = None
        """The engine's state of the game in play (None before :meth:`reset`)."""
        self.seed: int | None = None
        """The seed of the game in play: the one given to :meth:`reset`, or drawn."""
        self.np_random: np.random.Generator | None = None
        """Draws the seeds of games reset without one; seeded by ``reset(seed=...)``."""

    def observation_space(self, agent: str) -> spaces.Dict:
        """Return ``agent``'s observation space (the same object at every call).

        Raises :class:`ValueError` for an agent that is none of :attr:`possible_agents`.
        """
        try:
            return self.observation_spaces[agent]
        except (KeyError, TypeError):  # TypeError: a key that cannot be one (a list)
            raise self._no_agent(agent) from None

    def action_space(self, agent: str) -> spaces.Discrete:
        """Return ``agent``'s action space, ``Discrete(57)`` (the same object at every call).

        Raises :class:`ValueError` for an agent that is none of :attr:`possible_agents`.
        """
        try:
            return self.action_spaces[agent]
        except (KeyError, TypeError):
            raise self._no_agent(agent) from None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: ``kow.game.new_game(rules, seed)``, round 1 dealt.

        ``seed``: 0..2^53-1, the seed of ``kow simulate --seed``; it also seeds the
        generator that draws the seeds of later resets without one. Without it the seed
        is drawn from that generator (from the operating system's entropy if never
        seeded) and kept in :attr:`seed`. ``options`` are ignored.

        Raises :class:`ValueError` for a seed outside 0..2^53-1.
        """
        if seed is not None:
            seed = check_seed(seed)
            self.np_random, _ = seeding.np_random(seed)
        elif self.np_random is None:
            self.np_random, _ = seeding.np_random()
        self.seed = seed if seed is not None else int(self.np_random.integers(MAX_SEED + 1))
        self.game = new_game(self.rules, self.seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.turn]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Return what ``agent``'s seat may know now: ``observation`` and ``action_mask``.

        ``observation`` is :func:`kow.frameworks.encoding.observation` of the seat's own
        :class:`~kow.engine.view.View` (float32, length
        :func:`~kow.frameworks.encoding.observation_size`);
        ``action_mask`` (int8, 57) is 1 at the ids the seat may take now, all 0 unless it
        is the seat to act.

        Raises :class:`ValueError` for an agent that is none of :attr:`possible_agents`,
        and :class:`RuntimeError` before the first :meth:`reset`.
        """
        try:  # as _seat and _game say, inline: the environment observes at every step
            seat = self._seat_of[agent]
        except (KeyError, TypeError):
            raise self._no_agent(agent) from None
        game = self.game
        if game is None:
            raise RuntimeError("no game yet: call reset() before observe()")
        return observe(game, seat, self._size, acting=seat == game.turn)

    def last(self, observe: bool = True) -> Last:
        """Return PettingZoo's ``(observation, reward, terminated, truncated, info)`` of
        :attr:`agent_selection` (the observation None if not ``observe``).

        Raises :class:`RuntimeError` before the first :meth:`reset`.
        """
        if self.game is None:  # as _game says, inline: the loop asks at every step
            raise RuntimeError("no game yet: call reset() before last()")
        agent = self.agent_selection  # PettingZoo's AECEnv.last, without its call
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        """Apply ``action`` (an id 0..56) for :attr:`agent_selection`, the seat to act.

        The engine then plays on to the next decision; :attr:`agent_selection` becomes the
        seat that must make it. At the game's end every agent is terminated, the winner
        rewarded 1 and the others 0. A terminated agent steps with None, as PettingZoo's
        API says.

        Raises :class:`ValueError` (changing nothing) for an action the rules do not allow
        now, naming the agent, the action, why and the legal ids; :class:`RuntimeError`
        before the first :meth:`reset`.
        """
        game = self.game
        if game is None:  # as _game says, inline
            raise RuntimeError("no game yet: call reset() before step()")
        agent = self.agent_selection
        if not self.agents:
            raise ValueError("the game is over and every agent has stepped: call reset()")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            game.apply(engine_action(action, game.phase))
        except (TypeError, ValueError) as err:  # kow.engine.IllegalActionError among them
            legal = ", ".join(_shown(i) for i in legal_action_ids(game))
            raise ValueError(
                f"{agent} cannot take action {_shown(action)}: {err}; legal: {legal}"
            ) from None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        outcome = game.outcome
        if outcome is None:
            self.agent_selection = self.possible_agents[game.turn]
        else:
            for other in self.agents:
                self.rewards[other] = 1.0 if self._seat_of[other] == outcome.winner else 0.0
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """Show the :func:`~kow.frameworks.encoding.observation_text` of the seat to act, or
        the result once the game is over, in the render mode
        (:func:`kow.frameworks._gym.render`: ``"ansi"`` returns the text, ``"human"`` prints
        it, None warns).

        Raises :class:`RuntimeError` before the first :meth:`reset` (but for None).
        """
        return render(self.render_mode, self._text)

    def _text(self) -> str:
        """Return the text of the seat to act, or the result once the game is over."""
        game = self._game("render()")
        outcome = game.outcome
        return observation_text(game.view()) if outcome is None else result_text(outcome)

    def close(self) -> None:
        """Release nothing: the environment holds no window or process."""

    def log(self) -> GameLog:
        """Return the game so far as kow's log, version 1 (a JSON-ready dict).

        Every seat is a player of kind ``"agent"`` named after its agent (``seat_0``);
        the seed is :attr:`seed`. A game not over (cut short by an illegal action, say)
        is logged as abandoned. :func:`kow.log.dump` writes it; ``kow verify``, ``kow
        replay`` and ``kow analyze`` read it.

        Raises :class:`RuntimeError` before the first :meth:`reset`.
        """
        game = self._game("log()")
        players = [LoggedPlayer(agent, AGENT) for agent in self.possible_agents]
        return build(
            self.seed, self.rules, players, events=game.events, abandoned=game.outcome is None
        )

    def _game(self, call: str) -> State:
        """Return the game in play; raise :class:`RuntimeError` saying to call
        :meth:`reset` before ``call`` (``"observe()"``) if there is none yet."""
        if self.game is None:
            raise RuntimeError(f"no game yet: call reset() before {call}")
        return self.game

    def _seat(self, agent: str) -> Seat:
        """Return ``agent``'s seat (``"seat_2"``: 2); raise :meth:`_no_agent` for any other."""
        try:
            return self._seat_of[agent]
        except (KeyError, TypeError):
            raise self._no_agent(agent) from None

    def _no_agent(self, agent: object) -> ValueError:
        """Return the error for ``agent``, none of this game's: it names the agents there are."""
        name = shown(agent) if isinstance(agent, str) else repr(agent)
        first, last = self.possible_agents[0], self.possible_agents[-1]
        return ValueError(f"{name} is no agent of this game: {first} to {last}")


def _shown(action: Any) -> str:
    """Return an action id with its notation, ``"34 (Th)"``; anything else as its repr."""
    if isinstance(action, bool):
        return repr(action)
    try:
        value = operator.index(action)
    except TypeError:
        return repr(action)
    return f"{value} ({action_text(value)})" if 0 <= value < NUM_ACTIONS else str(value)
