"""What the two gym-style environments share: the observation space and a seat's arrays.

:mod:`kow.frameworks.pettingzoo` (every seat an agent) and :mod:`kow.frameworks.gymnasium`
(one seat against kow's bots) show a seat the same thing: a ``Dict`` of ``observation``
(float32, :func:`~kow.frameworks.encoding.observation` of the seat's view, bounded by
:func:`~kow.frameworks.encoding.observation_bounds`) and ``action_mask`` (int8, 57: 1 at
the ids the seat may take now). Needs Gymnasium and numpy: only those two adapters, which
check that they are installed, import it.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from ..engine import State
from ..events import Seat
from ..rules import Rules
from .encoding import NUM_ACTIONS, fill_observation, legal_action_ids, observation_bounds

__all__ = ["action_mask", "observation_space", "observe"]


def observation_space(rules: Rules) -> spaces.Dict:
    """Return the space of a seat's observations under ``rules`` (a new object)."""
    high = np.array(observation_bounds(rules), dtype=np.float32)
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )


def action_mask(game: State, acting: bool) -> np.ndarray:
    """Return 57 int8: 1 at the ids legal in ``game`` now if ``acting``, else all 0."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if acting:
        mask[legal_action_ids(game)] = 1
    return mask


def observe(game: State, seat: Seat, size: int, *, acting: bool) -> dict[str, np.ndarray]:
    """Return what ``seat`` may know now as arrays: ``observation`` and ``action_mask``.

    ``size`` is the observation's length (the space's shape); ``acting``: whether the seat
    may act now (else its mask is all 0).
    """
    tensor = np.zeros(size, dtype=np.float32)
    fill_observation(game.view(seat), tensor)
    return {"observation": tensor, "action_mask": action_mask(game, acting)}
