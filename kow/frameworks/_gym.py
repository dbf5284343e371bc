"""What the two gym-style environments share: the spaces, a seat's arrays, the render modes.

:mod:`kow.frameworks.pettingzoo` (every seat an agent) and :mod:`kow.frameworks.gymnasium`
(one seat against kow's bots) show a seat the same thing: a ``Dict`` of ``observation``
(float32, :func:`~kow.frameworks.encoding.observation` of the seat's view, bounded by
:func:`~kow.frameworks.encoding.observation_bounds`) and ``action_mask`` (int8, 57: 1 at
the ids the seat may take now). Both render a game as text (:data:`RENDER_MODES`,
:func:`check_render_mode`, :func:`render`). Needs Gymnasium and numpy: only those two
adapters, which check that they are installed, import it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..engine import State
from ..events import Seat
from ..rules import Rules
from .encoding import (
    NUM_ACTIONS,
    fill_action_mask,
    fill_observation,
    legal_action_ids,
    observation_bounds,
)

__all__ = [
    "RENDER_MODES",
    "action_mask",
    "check_render_mode",
    "observation_space",
    "observe",
    "render",
]

RENDER_MODES = ("human", "ansi")
"""The render modes: ``"human"`` prints the text, ``"ansi"`` returns it (each environment's
``metadata["render_modes"]``)."""


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
    view = game.view(seat)
    tensor = np.zeros(size, _FLOAT32)
    # Written through its memoryview (of floats: format "f"), whose item assignment
    # costs about two thirds of numpy's; typed Any, as a Tensor of floats.
    floats: Any = tensor.data
    fill_observation(view, floats)
    mask = np.zeros(NUM_ACTIONS, _INT8)
    if acting:  # the view's legal actions: the game's, the seat being the one to act
        fill_action_mask(view, mask)
    return {"observation": tensor, "action_mask": mask}


_FLOAT32 = np.dtype(np.float32)
_INT8 = np.dtype(np.int8)


def check_render_mode(mode: str | None) -> str | None:
    """Return ``mode`` if it is None or one of :data:`RENDER_MODES`.

    Raises :class:`ValueError` naming the modes otherwise.
    """
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {mode!r}")
    return mode


def render(mode: str | None, text: Callable[[], str]) -> str | None:
    """Show the text ``text()`` as the render ``mode`` asks: an environment's ``render()``.

    ``"ansi"`` returns the text, ``"human"`` prints it and returns None; without a render
    mode (None) it warns through Gymnasium's logger, does not call ``text`` and returns
    None.
    """
    if mode is None:
        gymnasium.logger.warn("render() called without a render mode: give render_mode")
        return None
    shown = text()
    if mode == "human":
        print(shown)
        return None
    return shown
