"""The one interface that every player, bot or human, implements."""

from __future__ import annotations

import random
from collections.abc import Callable

from ..cards import Mask, Suit
from ..engine.view import Policy, View
from ..events import Action, Phase
from ..settings import check_iterations
from ..verify import check_name

__all__ = ["Player", "SearchingBot", "TrumpPolicy", "check_rng"]

TrumpPolicy = Callable[[tuple[Suit, ...], Mask], Suit]
"""A trump choice from the allowed suits (sorted, 0..3) and the chooser's hand (a mask)."""


def check_rng(rng: object) -> random.Random:
    """Return ``rng`` if it is a :class:`random.Random` (a bot's only source of chance),
    else raise :class:`TypeError` naming it."""
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random (see kow.game.bots_rng), not {rng!r}")
    return rng


class Player:
    """A player: given a :class:`~kow.engine.view.View` of its own seat, return an action.

    Subclasses implement :meth:`play` (return a card 0..51 or :data:`~kow.events.KNOCK`),
    :meth:`choose_trump` and :meth:`vote` (return a suit 0..3). Each receives only the
    view of its own seat; the engine checks every action it returns.

    ``kind`` names the player's type in the log (``"random"``, ``"heuristic"``,
    ``"search"``, ``"human"``); ``name`` is its name there.
    """

    kind = "player"

    @property
    def settings(self) -> tuple[tuple[str, int], ...]:
        """Return the ``(name, value)`` settings the player plays with, sorted by name,
        as a log records them (``players[i].settings``) and an entrant gives them
        (:class:`~kow.players.Entrant`): none but for a searching bot."""
        return ()

    card_policy: Policy | None = None
    """Optional: the same decision as :meth:`play`, from the trick's facts alone.

    A bot that has one (a :data:`~kow.engine.view.Policy`) has its cards chosen by the engine's
    trick loop (:meth:`State.play_round <kow.engine.State.play_round>`), which gives it
    the :class:`~kow.engine.view.TrickFacts` of its seat instead of a whole view: the facts its
    seat may know, so it still sees no other hand. Bots without one (humans, ``search``)
    get a full :class:`~kow.engine.view.View` for every decision.
    """

    card_policy_draws: bool = True
    """Whether :attr:`card_policy` draws chance (from a generator), so that it must be asked
    even when its seat has a single legal card, to keep the game's draws. False for a
    policy that is a function of the facts alone: the engine then plays a single legal
    card without asking (see :meth:`State.play_round <kow.engine.State.play_round>`)."""

    trump_policy: TrumpPolicy | None = None
    """Optional: the same decision as :meth:`choose_trump`, from the allowed suits (sorted,
    0..3) and its own hand as a mask; used with :attr:`card_policy`."""

    def __init__(self, name: str) -> None:
        self.name = check_name(name)  # the log's rule: kow writes no name it then refuses

    def act(self, view: View) -> Action:
        """Return this player's action for ``view``, dispatching on ``view.phase``.

        Raises :class:`ValueError` when the game awaits no decision.
        """
        if view.phase is Phase.PLAY:
            return self.play(view)
        if view.phase is Phase.TRUMP:
            return self.choose_trump(view)
        if view.phase is Phase.VOTE:
            return self.vote(view)
        raise ValueError(f"no decision in phase {view.phase.value!r}")

    def play(self, view: View) -> Action:
        """Return a card from ``view.legal``, or KNOCK when it is legal."""
        raise NotImplementedError

    def choose_trump(self, view: View) -> Suit:
        """Return the trump suit (0..3) from ``view.legal``, having seen the new hand."""
        raise NotImplementedError

    def vote(self, view: View) -> Suit:
        """Return the suit (0..3) this knocked-out player votes for as next trump."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class SearchingBot(Player):
    """A bot that searches each play and trump choice, with an effort of ``iterations``.

    Subclasses give :meth:`search`. A single legal action is taken at once, without a
    search; votes (knocked out, with nothing at stake) are a suit drawn uniformly from
    ``rng``. ``rng`` is the bot's only source of chance (in kow's games, the generator
    the game's bots share: :func:`kow.game.bots_rng`); ``iterations`` sets the effort,
    never the clock, so seeded games stay reproducible. Raises
    :class:`~kow.settings.SettingError` (a :class:`ValueError`) when ``iterations`` is not an
    int 1 to :data:`~kow.settings.MAX_ITERATIONS` (a numpy integer counts as its int),
    :class:`ValueError` for a name no log may hold (:func:`kow.log.check_name`) and
    :class:`TypeError` when ``rng`` is not a :class:`random.Random`.
    """

    def __init__(self, name: str, rng: random.Random, iterations: int) -> None:
        super().__init__(name)
        self.rng = check_rng(rng)
        self.iterations = check_iterations(iterations, "iterations", "a number of iterations")

    @property
    def settings(self) -> tuple[tuple[str, int], ...]:
        """Return the bot's settings: its ``iterations`` per decision."""
        return (("iterations", self.iterations),)

    def search(self, view: View) -> Action:
        """Return the action chosen by searching ``view`` (play or trump phase, several
        legal actions)."""
        raise NotImplementedError

    def play(self, view: View) -> Action:
        """Return the card (or KNOCK) the search chooses; a single legal one at once."""
        legal = view.legal
        return legal[0] if len(legal) == 1 else self.search(view)

    def choose_trump(self, view: View) -> Suit:
        """Return the suit the search chooses; a single allowed one at once."""
        legal = view.legal
        return legal[0] if len(legal) == 1 else self.search(view)

    def vote(self, view: View) -> Suit:
        """Return a suit drawn uniformly from the allowed ones."""
        return view.legal[int(self.rng.random() * len(view.legal))]
