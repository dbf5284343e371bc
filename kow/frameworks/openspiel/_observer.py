"""What one seat may know, for OpenSpiel's observers: the information state or the
observation as a float32 array and as text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ...rules import Rules
from ..encoding import information_state_fields, observation_fields

if TYPE_CHECKING:
    from ._state import KnockOutWhistState

__all__ = ["KnockOutWhistObserver"]


class KnockOutWhistObserver:
    """One seat's information state (``perfect_recall``) or observation, for OpenSpiel.

    ``tensor`` is a flat float32 array; ``dict`` names its pieces, the fields of
    :func:`~kow.frameworks.encoding.information_state_fields` or
    :func:`~kow.frameworks.encoding.observation_fields` in order (``trick`` shaped ``(players,
    53)``, ``tricks`` ``(start_cards, players, 53)``, ``trick_leaders`` ``(start_cards,
    players)``, the rest flat), each a view into ``tensor``.
    """

    def __init__(self, rules: Rules, perfect_recall: bool) -> None:
        fields = information_state_fields(rules) if perfect_recall else observation_fields(rules)
        p, c = rules.players, rules.start_cards
        shapes = {"trick": (p, 53), "tricks": (c, p, 53), "trick_leaders": (c, p)}
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(sum(size for _, size in fields), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, size in fields:
            self.dict[name] = self.tensor[at : at + size].reshape(shapes.get(name, (size,)))
            at += size
        self._seat_at = 0  # "seat" is the first field of both layouts

    def set_from(self, state: KnockOutWhistState, player: int) -> None:
        """Write what ``player`` may know in ``state`` into :attr:`tensor`."""
        values = state.tensor(player, self.perfect_recall)
        if values is None:
            self.tensor.fill(0.0)
            self.tensor[self._seat_at + player] = 1.0
        else:
            self.tensor[:] = values

    def string_from(self, state: KnockOutWhistState, player: int) -> str:
        """Return what ``player`` may know in ``state``, as text."""
        return state.text(player, self.perfect_recall)
