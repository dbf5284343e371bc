"""Hold what the rules walk knows of the table: the rules, who is in, and seats around it.

Part of the verifier, which is deliberately independent of the engine: this module imports
nothing from :mod:`kow`. :class:`Rules` is the log's ``rules`` object once read,
:class:`Game` is what carries from one round to the next, and :func:`after`,
:func:`before` and :func:`from_left` find seats clockwise among those still in the game.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

__all__ = ["Game", "Rules", "after", "before", "from_left"]


@dataclass(frozen=True)
class Rules:
    """The eight rules of the log's ``rules`` object, with their types checked."""

    players: int
    start_cards: int
    dogs_life: str
    _: KW_ONLY
    trump: str
    final_round_trump: bool
    lead: str
    eliminated_vote: bool
    sweep_wins: bool


class Game:
    """What carries from one round to the next."""

    def __init__(self, rules: Rules, n: int) -> None:
        self.rules = rules
        self.in_game = [True] * n
        self.dogs_life: list[int] = []
        self.dogs_life_used: set[int] = set()
        self.dealer: int | None = None
        self.won: list[int | None] = []
        self.first_trump: str | None = None
        self.over = False
        self.winner: int | None = None
        self.termination: str | None = None
        """Why the game ended, once it is over: one of ``_shape.TERMINATIONS``."""


def after(seat: int, in_game: list[bool]) -> int:
    """Return the next seat clockwise after ``seat`` that is in the game.

    ``in_game`` has one item per seat. Returns ``seat`` itself when no other seat is in.

    >>> after(3, [True, False, True, True])
    0
    """
    n = len(in_game)
    for step in range(1, n + 1):
        other = (seat + step) % n
        if in_game[other]:
            return other
    return seat


def before(seat: int, in_game: list[bool]) -> int:
    """Return the previous seat (anticlockwise) before ``seat`` that is in the game.

    >>> before(2, [True, False, True, True])
    0
    """
    n = len(in_game)
    for step in range(1, n + 1):
        other = (seat - step) % n
        if in_game[other]:
            return other
    return seat


def from_left(dealer: int, seats: list[int], in_game: list[bool]) -> list[int]:
    """Order ``seats`` clockwise, starting from the dealer's left (next seat in the game).

    >>> from_left(1, [0, 1, 3], [True, False, True, True])
    [3, 0, 1]
    """
    left = after(dealer, in_game)
    n = len(in_game)
    return sorted(seats, key=lambda s: (s - left) % n)
