"""The one interface that every player, bot or human, implements."""

from __future__ import annotations

from collections.abc import Callable

from ..engine import PLAY, TRUMP, VOTE, View

__all__ = ["Player"]


class Player:
    """A player: given a :class:`~kow.engine.View`, return an action.

    Subclasses implement :meth:`play` (return a card 0..51 or :data:`~kow.engine.KNOCK`),
    :meth:`choose_trump` and :meth:`vote` (return a suit 0..3). Each receives only the
    view of its own seat; the engine checks every action it returns.

    ``kind`` names the player's type in the log (``"random"``, ``"heuristic"``, ``"human"``).
    """

    kind = "player"

    play_fast: Callable[..., int] | None = None
    """Optional: the same decision as :meth:`play`, from a few facts instead of a view.

    A bot that defines it is called by the engine's fast loop (see
    :meth:`State.run <kow.engine.State.run>`) as ``play_fast(legal, hand, seen, best,
    led, to_come, won, tricks_left, trump)`` and returns an action of ``legal``:

    - ``legal``: the legal actions, as in :attr:`View.legal <kow.engine.View.legal>`;
    - ``hand``: its own cards, a hand mask (see :mod:`kow.cards`);
    - ``seen``: the mask of the cards played this round, the turned-up card included;
    - ``best``: the card winning the trick so far, -1 when nothing is played yet;
    - ``led``: the led suit 0..3, -1 before the lead; ``trump``: 0..3, -1 for none;
    - ``to_come``: whether a player acts after it in this trick;
    - ``won``: tricks it has won this round; ``tricks_left``: tricks of the round not
      finished, this one included.

    These are facts its seat may know, so the bot still sees no other hand. Bots without
    it (humans, ``search``) get a full :class:`~kow.engine.View` for every decision.
    """

    choose_trump_fast: Callable[[tuple[int, ...], int], int] | None = None
    """Optional: the same decision as :meth:`choose_trump`, from the allowed suits (sorted,
    0..3) and its own hand as a mask; called by the fast loop when defined."""

    def __init__(self, name: str) -> None:
        self.name = name

    def act(self, view: View) -> int:
        """Return this player's action for ``view``, dispatching on ``view.phase``."""
        if view.phase == PLAY:
            return self.play(view)
        if view.phase == TRUMP:
            return self.choose_trump(view)
        if view.phase == VOTE:
            return self.vote(view)
        raise ValueError(f"no decision in phase {view.phase!r}")

    def play(self, view: View) -> int:
        """Return a card from ``view.legal``, or KNOCK when it is legal."""
        raise NotImplementedError

    def choose_trump(self, view: View) -> int:
        """Return the trump suit (0..3) from ``view.legal``, having seen the new hand."""
        raise NotImplementedError

    def vote(self, view: View) -> int:
        """Return the suit (0..3) this knocked-out player votes for as next trump."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"
