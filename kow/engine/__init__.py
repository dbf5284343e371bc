"""The rules engine: the state of one game, its legal actions, and the one trick loop.

The engine does no I/O and owns no global randomness: its cards come from a
:class:`~kow.engine.deal.Deck` (by default shuffled by the seeded :class:`random.Random` passed
in), and every draw is made in a fixed order. Every change is appended to
:attr:`State.events` as a named record (see :mod:`kow.events`), and that list feeds the
log, the screen and replays.

Decisions come in three phases (:class:`~kow.events.Phase`): a knocked-out player votes
for trump under ``eliminated_vote`` (the action is a suit 0..3), the chooser names trump
(a suit), and the seat to act plays a card 0..51, or :data:`~kow.events.KNOCK` on a dog's
life. :meth:`State.apply` takes one action; :meth:`State.play_round` plays a round's
cards from policies (bots, search rollouts). Both go through the one trick loop, the only
code that plays a card, ends a trick and picks the next leader; a round is set up and
ended by :mod:`kow.engine._round`, and states for search are made by
:mod:`kow.engine._copies`.

Seats are 0-based and clockwise; cards are ints and hands are masks (:mod:`kow.cards`),
so copying a state for search is copying a few lists of ints.
"""

from ._state import IllegalActionError, State, action_name

__all__ = ["IllegalActionError", "State", "action_name"]
