"""What one seat may know: its :class:`View` of the game, and the :class:`TrickFacts` of a play.

Players, bots and humans alike, see a game only through these (house style 4): their
own hand plus what the whole table has seen, never another hand or the deck. Both are
snapshots, built by the engine (:meth:`State.view <kow.engine.State.view>`,
:meth:`State.facts <kow.engine.State.facts>`); later changes to the game do not change
them.

:class:`TrickFacts` is the one bundle of facts that every card decision is made from:
the ``random`` and ``heuristic`` bots' policies, the search bot's rollouts (through the
engine's trick loop, :meth:`State.play_round <kow.engine.State.play_round>`) and its
inference about the other players' hands all read it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Final, NamedTuple, TypeAlias

from ..cards import Card, Mask, Suit, cards_in
from ..events import KNOCK, Action, Knock, Phase, Play, Seat, Trick, TrumpMethod, Vote
from ..rules import Rules
from .trick import legal_cards

__all__ = [
    "CardPolicy",
    "Policy",
    "TrickFacts",
    "View",
    "legal_actions_of",
    "new_trick_facts",
    "new_view",
]


class TrickFacts(NamedTuple):
    """The facts of one card decision, as the seat to play knows them.

    Masks are sets of cards (see :mod:`kow.cards`); where a card or suit may be missing it
    is :data:`~kow.cards.NO_CARD` or :data:`~kow.cards.NO_SUIT` (-1), so that these stay
    plain ints on the engine's hot path.

    - ``seat``: the seat to play (0-based, clockwise).
    - ``hand``: its cards; ``legal``: those it may play (follow suit: see
      :func:`kow.engine.trick.legal_cards`); ``may_knock``: whether it may knock instead (a
      dog's life, on any trick but the round's last).
    - ``seen``: the cards the whole table has seen this round: every card played, and
      round 1's turned-up card.
    - ``winning``: the card winning the trick so far (NO_CARD when leading); ``led``:
      the led suit (NO_SUIT when leading); ``trump``: the trump suit (NO_SUIT for none).
    - ``to_come``: whether a seat plays after it in this trick.
    - ``won``: tricks it has taken this round; ``tricks_left``: tricks of the round not
      yet finished, this one included.
    """

    seat: Seat
    hand: Mask
    legal: Mask
    may_knock: bool
    seen: Mask
    winning: Card
    led: Suit
    trump: Suit
    to_come: bool
    won: int
    tricks_left: int

    def with_hand(self, hand: Mask) -> TrickFacts:
        """Return these facts for a seat holding ``hand`` instead (its legal cards too).

        For inference, which asks what a player would have done with a guessed hand.
        """
        return new_trick_facts(
            (self.seat, hand, legal_cards(hand, self.led), self.may_knock, self.seen,
             self.winning, self.led, self.trump, self.to_come, self.won, self.tricks_left)
        )  # fmt: skip


# The hot records' one fast constructor each (these two, and kow.events' for the events
# the engine makes): a tuple of the fields in the class's order becomes the record, with
# no argument passed per field. functools.partial over tuple.__new__ is the fastest
# callable that names its class; only tuple.__new__ called at once is faster, and it
# would not state the order (docs/performance.md, "Design choices", has the timings).
# Nothing else builds these records by position; a
# test (tests/engine/test_engine.py) holds each class's fields to the order written here.
new_trick_facts: Callable[[tuple[Any, ...]], TrickFacts] = functools.partial(
    tuple.__new__, TrickFacts
)
"""Return the :class:`TrickFacts` of a tuple of its fields in this order: ``(seat, hand,
legal, may_knock, seen, winning, led, trump, to_come, won, tricks_left)``.

The fast way, for the engine's trick loop and the bots' inference (every play of a
search builds one); elsewhere ``TrickFacts(seat=..., ...)`` reads better.
"""


_KNOCK: Final = (KNOCK,)


def legal_actions_of(facts: TrickFacts) -> tuple[Action, ...]:
    """Return the actions the seat of ``facts`` may take, sorted: the cards of
    ``facts.legal``, lowest int first, then :data:`~kow.events.KNOCK` when
    ``facts.may_knock``.

    The one statement of a card decision's legal actions from its facts: the engine's
    :attr:`View.legal`, the random bot and the IS-MCTS tree and rollouts read it, so a
    draw over them picks the same action everywhere. On the bots' hot path: no work
    but the two tuples.
    """
    legal = cards_in(facts.legal)
    return legal + _KNOCK if facts.may_knock else legal


Policy: TypeAlias = Callable[[TrickFacts], Action]
"""A card decision from the facts alone: returns a card of ``facts.legal``, or
:data:`~kow.events.KNOCK` when ``facts.may_knock``. The engine's trick loop asks one per
seat (:meth:`State.play_round <kow.engine.State.play_round>`)."""


class CardPolicy:
    """A :data:`Policy` that the engine's trick loop asks with the facts as plain ints.

    :meth:`decide` takes the fields of :class:`TrickFacts` by keyword (a native call in
    the compiled build: no keyword is parsed at run time) and returns the action; calling
    the policy with a :class:`TrickFacts` must ask :meth:`decide` the same, so that it is
    a :data:`Policy` like any other. The built-in
    bots' policies are subclasses (:mod:`kow.players.policy`): in the installed build
    they are compiled with the engine, and the trick loop (:meth:`State.play_round
    <kow.engine.State.play_round>`) calls :meth:`decide` directly, making no
    :class:`TrickFacts` and no Python call for each card. In that build the class is
    final for Python code, so a policy of your own is a plain callable. (Its subclasses
    give ``__call__`` themselves: mypyc cannot yet inherit it from another compiled
    module.)
    """

    def decide(
        self, *, seat: Seat, hand: Mask, legal: Mask, may_knock: bool, seen: Mask,
        winning: Card, led: Suit, trump: Suit, to_come: bool, won: int, tricks_left: int,
    ) -> Action:  # fmt: skip
        """Return the card or knock for the facts given (see :class:`TrickFacts`)."""
        raise NotImplementedError


class View(NamedTuple):
    """What one seat may know when it must act: its own hand plus what the table has seen.

    Decision:

    - ``seat``: the seat whose view this is (0-based, clockwise); ``phase``: the
      :class:`~kow.events.Phase` of the game; ``legal``: the seat's legal actions, sorted
      (suits 0..3 in the vote and trump phases; cards 0..51 then
      :data:`~kow.events.KNOCK` in play), empty when it is not this seat's turn;
      ``facts``: the :class:`TrickFacts` of its play, when it is its turn to play (else
      None).

    The round:

    - ``rules``; ``round``: from 1; ``hand_size``: the cards of a full hand this round;
      ``dealer``; ``leader``: who led the round's first trick (None before).
    - ``trump``: suit 0..3, or None (no trump, or not set yet); ``trump_method``: how it
      was set (None before); ``trump_chosen_by``: who named it (None when nobody did);
      ``turned_up``: round 1's turned-up card, or None.
    - ``in_round``: the seats dealt in, ascending; ``dogs_life``: seats on a dog's life;
      ``dogs_life_used``: seats granted a dog's life in an earlier round of the game (so
      on one now or past it); ``dogs_life_open``: the seats that taking no trick this
      round would give a dog's life (none in the 1-card round, none once the game's one
      is used, ...: the rule as the engine applies it); ``knocked_out``: seats out of the
      game; each ascending. ``hand_counts[seat]``: cards still held.
    - ``votes``: the votes cast this round, in order.
    - ``tricks_won[seat]``: tricks taken this round (0 for a seat not in it);
      ``previous_tricks_won``: last round's (None in round 1).

    Its hand and the tricks:

    - ``hand``: its cards, sorted by suit then rank; ``hand_mask``: the same as a mask.
    - ``seen``: the mask of the cards the table has seen this round (every card played,
      the turned-up card).
    - ``tricks``: this round's finished :class:`~kow.events.Trick` s;
      ``trick_number``: the current trick's number, from 1; ``tricks_left``: tricks not
      yet finished, the current one included.
    - ``trick``: the current trick's plays so far (:class:`~kow.events.Play` and
      :class:`~kow.events.Knock`), in turn order; ``trick_order``: the seats that play it,
      in order; ``led``: the led suit, or None; ``winning_card`` and ``winning_seat``: the
      card winning it so far and who played it (None before a card is played).
    """

    seat: Seat
    phase: Phase
    legal: tuple[Action, ...]
    facts: TrickFacts | None
    rules: Rules
    round: int
    hand_size: int
    dealer: Seat
    leader: Seat | None
    trump: Suit | None
    trump_method: TrumpMethod | None
    trump_chosen_by: Seat | None
    turned_up: Card | None
    in_round: tuple[Seat, ...]
    dogs_life: tuple[Seat, ...]
    dogs_life_used: tuple[Seat, ...]
    dogs_life_open: tuple[Seat, ...]
    knocked_out: tuple[Seat, ...]
    previous_tricks_won: tuple[int, ...] | None
    tricks_won: tuple[int, ...]
    tricks: tuple[Trick, ...]
    trick_number: int
    tricks_left: int
    trick_order: tuple[Seat, ...]
    hand_counts: tuple[int, ...]
    votes: tuple[Vote, ...]
    hand: tuple[Card, ...]
    hand_mask: Mask
    seen: Mask
    trick: tuple[Play | Knock, ...]
    led: Suit | None
    winning_card: Card | None
    winning_seat: Seat | None


new_view: Callable[[tuple[Any, ...]], View] = functools.partial(tuple.__new__, View)
"""Return the :class:`View` of a tuple of its fields in this order: ``(seat, phase, legal,
facts, rules, round, hand_size, dealer, leader, trump, trump_method, trump_chosen_by,
turned_up, in_round, dogs_life, dogs_life_used, dogs_life_open, knocked_out,
previous_tricks_won, tricks_won, tricks, trick_number, tricks_left, trick_order,
hand_counts, votes, hand, hand_mask, seen, trick, led, winning_card, winning_seat)``.

The fast way, for :meth:`State.view <kow.engine.State.view>` (every decision asks for a
view; see :data:`new_trick_facts` for the measure); elsewhere ``View(seat=..., ...)``.
"""
