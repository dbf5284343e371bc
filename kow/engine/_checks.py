"""The checks of what :class:`~kow.engine.State`'s public methods are given.

The engine's core may be compiled (mypyc), and compiled code refuses an argument of the
wrong type with its own :class:`TypeError` ("int object expected; got str"), or takes
``True`` as the int 1. So each public method of the state takes ``object`` where a caller
may pass anything, and checks it here (or in a line at its top) before the core sees it,
with kow's own words: the core then sees plain ints, lists and callables only.
``tests/test_entry_types.py`` pins each message, for both builds.

Each check returns the value as the core wants it (a numpy integer as its int, say) or
raises, naming the value and what is allowed.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, cast

from ..cards import BIT, FULL_DECK, NAMES, SUITS, Card, Mask, cards_in
from ..events import KNOCK, Phase, action_name
from ..rules import check_rules
from .deal import Deck
from .trick import legal_cards
from .view import Policy, View

if TYPE_CHECKING:
    from ._state import State

__all__ = [
    "check_cut",
    "check_deck",
    "check_drawn",
    "check_hands",
    "check_policies",
    "check_start",
    "check_view",
    "why_illegal",
]


def check_start(rules: object, rng: object, deck: object) -> None:
    """Check the arguments of ``State(rules, rng, dealer, deck=deck)`` but the dealer
    (which :meth:`Rules.check_seat <kow.rules.Rules.check_seat>` checks).

    Raises :class:`TypeError` naming ``rules`` that are not a :class:`~kow.rules.Rules`,
    an ``rng`` that is not a :class:`random.Random`, or a ``deck`` (when not None) that
    is not a :class:`~kow.engine.deal.Deck`.
    """
    check_rules(rules)
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, not {rng!r}")
    if deck is not None:
        check_deck(deck)


def check_deck(deck: object) -> Deck:
    """Return ``deck`` if it is a :class:`~kow.engine.deal.Deck` (it has ``cut()`` and
    ``draw(count)``), else raise :class:`TypeError` naming it.

    >>> check_deck([3, 7])
    Traceback (most recent call last):
    ...
    TypeError: deck must be a kow.engine.deal.Deck (with cut() and draw(count)), not [3, 7]
    """
    if not (callable(getattr(deck, "cut", None)) and callable(getattr(deck, "draw", None))):
        raise TypeError(
            f"deck must be a kow.engine.deal.Deck (with cut() and draw(count)), not {deck!r}"
        )
    return cast("Deck", deck)


def check_hands(hands: object, players: int) -> list[Mask]:
    """Return ``hands`` as a new list of ``players`` masks (plain ints), one per seat.

    A hand is a mask of cards: an int 0 to 2^52-1 (bit ``c`` set for card ``c``), or any
    integer type holding one (a numpy integer, say), but not a bool. ``hands`` is any
    sequence of them but a string. Raises :class:`ValueError` naming the hands or the
    seat's hand at fault; whether the cards fit the game is the caller's to check.

    >>> check_hands((3, 12), 2)
    [3, 12]
    >>> check_hands([3, -1], 2)
    Traceback (most recent call last):
    ...
    ValueError: seat 1's hand must be a mask of cards (an int 0 to 2^52-1), not -1
    """
    if (type(hands) is list or type(hands) is tuple) and len(hands) == players:
        for hand in hands:  # the common case, made cheap: a search fills many views
            if type(hand) is not int or not 0 <= hand <= FULL_DECK:
                break
        else:
            return list(hands)
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Iterable):
        raise ValueError(f"hands must be {players} masks of cards, one per seat, not {hands!r}")
    given = list(hands)
    if len(given) != players:
        raise ValueError(f"{len(given)} hands given for {players} seats")
    checked = []
    for seat, hand in enumerate(given):
        mask = hand
        if not isinstance(hand, (bool, int, float, str)) and hasattr(type(hand), "__index__"):
            try:
                mask = operator.index(hand)  # a numpy integer, as its int
            except TypeError:  # a numpy bool, say
                pass
        if type(mask) is not int or not 0 <= mask <= FULL_DECK:
            raise ValueError(
                f"seat {seat}'s hand must be a mask of cards (an int 0 to 2^52-1), not {hand!r}"
            )
        checked.append(mask)
    return checked


def check_policies(policies: object, players: int) -> list[Policy]:
    """Return ``policies`` as a list if it is a sequence of ``players`` callables, one per seat.

    Raises :class:`TypeError` naming ``policies`` when it is not a sequence (or is a
    string) or naming the seat whose policy cannot be called, and :class:`ValueError` for
    a wrong count.
    """
    if type(policies) is list and len(policies) == players and all(callable(p) for p in policies):
        return policies  # the common case, made cheap: every playout of a search passes here
    if isinstance(policies, (str, bytes)) or not isinstance(policies, Sequence):
        raise TypeError(
            f"policies must be a sequence of {players} policies, one per seat, not {policies!r}"
        )
    if len(policies) != players:
        raise ValueError(f"{len(policies)} policies given for {players} seats")
    for seat, policy in enumerate(policies):
        if not callable(policy):
            raise TypeError(
                f"seat {seat}'s policy must be a callable given TrickFacts, not {policy!r}"
            )
    return list(policies)


def check_view(view: object) -> View:
    """Return ``view`` if it is a :class:`~kow.engine.view.View`, else raise
    :class:`TypeError` naming it."""
    if not isinstance(view, View):
        raise TypeError(f"view must be a kow.engine.view.View, not {view!r}")
    return view


def check_cut(position: object) -> int:
    """Return a deck's cut ``position`` if it is an int 1 to 51 (a numpy integer taken as
    its int), else raise :class:`ValueError` naming it: what
    :meth:`Deck.cut <kow.engine.deal.Deck.cut>` must return. The engine checks a deck that
    is not one of kow's own (:class:`~kow.engine.deal.ShuffledDeck`,
    :class:`~kow.engine.deal.StackedDeck`).

    >>> check_cut(0)
    Traceback (most recent call last):
    ...
    ValueError: the deck's cut() returned 0: a cut lifts 1 to 51 cards (an int)
    """
    if type(position) is not bool:
        try:
            index = operator.index(position)  # type: ignore[arg-type]
        except TypeError:
            index = 0
        if 1 <= index <= 51:
            return index
    raise ValueError(f"the deck's cut() returned {position!r}: a cut lifts 1 to 51 cards (an int)")


def check_drawn(cards: object, count: int) -> list[Card]:
    """Return the ``count`` cards a deck's ``draw(count)`` returned, as a list of ints 0 to
    51, none twice; else raise :class:`ValueError` naming what it returned.

    >>> check_drawn([3, 3], 2)
    Traceback (most recent call last):
    ...
    ValueError: the deck's draw(2) returned [3, 3]: 2 different cards, each an int 0 to 51
    """
    try:
        items = list(cards)  # type: ignore[call-overload]
        out = [-1 if type(c) is bool else operator.index(c) for c in items]
    except TypeError:
        out = []
    if len(out) == count and all(0 <= c < 52 for c in out) and len(set(out)) == count:
        return out
    shown = repr(cards)
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    raise ValueError(
        f"the deck's draw({count}) returned {shown}: {count} different cards, each an int 0 to 51"
    )


def why_illegal(state: State, action: object) -> str:
    """Return why ``action`` is not legal now in ``state``, in plain words: the message of
    :class:`~kow.engine.IllegalActionError`."""
    seat = state.turn
    phase = state.phase
    if phase is Phase.OVER:
        return "the game is over"
    if phase is Phase.ROUND_OVER:
        return "the round copied for search is over"
    if phase is not Phase.PLAY:
        allowed = ", ".join(SUITS[s] for s in state.allowed)
        return (
            f"seat {seat} must name a suit ({allowed}) to {phase.value}, "
            f"not {action_name(action, phase)}"
        )
    if type(action) is not int or not 0 <= action <= KNOCK:
        return f"seat {seat}: {action!r} is not a card or a knock"
    if action == KNOCK:
        if not state._on_dogs_life[seat]:
            return f"seat {seat} is not on a dog's life and cannot knock"
        return f"seat {seat} must play its dog's-life card on the round's last trick"
    hand = state.hands[seat]
    if not hand & BIT[action]:
        return f"seat {seat} does not hold {NAMES[action]}"
    held = " and ".join(NAMES[c] for c in cards_in(legal_cards(hand, state.led)))
    return f"seat {seat} must follow suit {SUITS[state.led]}: it holds {held}, not {NAMES[action]}"
