"""Chance nodes of the OpenSpiel game: the cards each draw of the engine takes, chosen
one chance node at a time.

The engine draws from a :class:`ChanceDeck` holding the cards chosen so far; a draw not
yet chosen raises :class:`NeedCards`, and the state waits for those cards as a
:class:`Drawing`. Every deck is cut at :data:`CUT_POSITION`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CUT_POSITION", "START", "ChanceDeck", "Drawing", "NeedCards"]

CUT_POSITION = 26
"""Where every deck of these games is cut (the cut does not change the cards dealt)."""

START = -1
"""The pending "action" of a game whose first deal awaits its cards."""


class NeedCards(Exception):
    """Raised by :class:`ChanceDeck` when the engine draws cards not yet chosen."""

    def __init__(self, count: int) -> None:
        super().__init__(f"{count} cards to draw")
        self.count = count


class ChanceDeck:
    """The engine's deck (:class:`~kow.engine.deal.Deck`): the cards chosen by chance nodes.

    ``draws``: the cards of each draw of the action in play, in order. :meth:`draw`
    returns them in turn and raises :class:`NeedCards` for a draw not yet chosen.
    """

    __slots__ = ("_draws", "_next")

    def __init__(self, draws: tuple[tuple[int, ...], ...] = ()) -> None:
        self._draws = draws
        self._next = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> ChanceDeck:
        other = ChanceDeck(self._draws)
        other._next = self._next
        return other

    def cut(self) -> int:
        """Return :data:`CUT_POSITION`: the cut does not change the cards dealt."""
        return CUT_POSITION

    def draw(self, count: int) -> tuple[int, ...]:
        """Return the next draw's cards; raise :class:`NeedCards` when not yet chosen."""
        at = self._next
        if at < len(self._draws):
            cards = self._draws[at]
            if len(cards) != count:  # the engine is deterministic: never happens
                raise RuntimeError(f"draw {at} chose {len(cards)} cards, the engine asks {count}")
            self._next = at + 1
            return cards
        raise NeedCards(count)


class Drawing:
    """An action waiting for cards: what chance nodes have chosen for it so far.

    ``pending``: the action id (or ``START``, the game's first deal); ``draws``: the
    draws completed; ``drawn``: the cards of the draw in progress, of ``need`` in all;
    ``left``: the cards not drawn in it, ascending; ``kind``: ``"deal"`` or ``"cut"`` (a
    tie cut).
    """

    __slots__ = ("pending", "draws", "drawn", "left", "need", "kind")

    def __init__(self, pending: int, draws: tuple[tuple[int, ...], ...], need: int, *, kind: str):
        self.pending = pending
        self.draws = draws
        self.drawn: list[int] = []
        self.left = list(range(52))
        self.need = need
        self.kind = kind

    def __deepcopy__(self, memo: dict[int, Any]) -> Drawing:
        other = Drawing(self.pending, self.draws, self.need, kind=self.kind)
        other.drawn = self.drawn[:]
        other.left = self.left[:]
        return other
