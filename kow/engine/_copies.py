"""States made for search: a copy of the decision in play, a view's decision with guessed
hands, or a whole game forked with its hidden hands dealt anew.

Part of the engine: :meth:`State.round_copy <kow.engine.State.round_copy>`,
:meth:`State.from_view <kow.engine.State.from_view>` and
:meth:`State.fork <kow.engine.State.fork>` call these. The first two keep no history and
stop when their round ends, so copying costs a few lists of ints; a fork keeps the whole
game and plays on to its end (what a framework's clone and resample need).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ..cards import BIT, NAMES, NO_CARD, NO_SUIT, Mask, cards_in
from ..events import Deal, Phase, Play
from ._round import ALL_SUITS
from .deal import Deck, ShuffledDeck, left_of
from .view import View

if TYPE_CHECKING:
    from ._state import State

__all__ = ["BLANK", "copy_state", "fork_state", "state_from_view"]

# Phase's members as plain names: an enum's member read from a module that is not compiled
# is a Python attribute look-up, about 700 instructions (a search makes a state per deal).
_PLAY: Final = Phase.PLAY
_TRUMP: Final = Phase.TRUMP

BLANK: Final = random.Random(0)
"""Given as ``rng``, makes ``State(rules, BLANK)`` a blank state for a copy to fill in.

No draw is made from it: :class:`~kow.engine.State` returns at once, with no attribute
set, and the functions here set every one. (``object.__new__(State)`` cannot do this once
``State`` is compiled, and a compiled ``State.__new__`` runs ``__init__``.)"""
_UNDRAWN: Final = ShuffledDeck(random.Random(0))
"""The deck of every state made by :func:`state_from_view`, shared: such a state deals no
round, so nothing draws from it (a fork deep-copies it). Made once: seeding a generator
costs about 30,000 instructions, more than the rest of the state (a search makes one
such state per deal)."""


def copy_state(state: State) -> State:
    """Return a copy of the decision in play, for search: it keeps no history.

    The copy has the same hands, trick and trick counts, records no events, and stops
    (:attr:`phase` ROUND_OVER) when the round ends instead of dealing the next one. For the
    play and trump phases.
    """
    # One line per slot, faster than a loop over the slots (docs/performance.md, "Design
    # choices"): copying is paid once per simulated deal. test_engine checks that no slot
    # is left out.
    other: State = type(state)(state.rules, BLANK)
    other.rules = state.rules
    other.players = state.players
    other.events = []
    other.recording = False
    other.phase = state.phase
    other.turn = state.turn
    other.outcome = state.outcome
    other.round = state.round
    other.hand_size = state.hand_size
    other.dealer = state.dealer
    other.trump = state.trump
    other.trump_method = state.trump_method
    other.trump_chosen_by = state.trump_chosen_by
    other.turned_up = state.turned_up
    other.leader = state.leader
    other.hands = state.hands[:]
    other.in_game = state.in_game[:]
    other.in_round = state.in_round
    other.knocked_out = state.knocked_out
    other.dogs_life = state.dogs_life
    other.dogs_life_used = state.dogs_life_used[:]
    other.dogs_life_open = state.dogs_life_open
    other.tricks_won = state.tricks_won[:]
    other.previous_tricks_won = state.previous_tricks_won
    other.allowed = state.allowed
    other.votes = state.votes[:]
    other.seen = state.seen
    other.trick_number = state.trick_number
    other.trick_leader = state.trick_leader
    other.trick_order = state.trick_order
    other.trick_played = state.trick_played
    other.led = state.led
    other.winning_card = state.winning_card
    other.winning_seat = state.winning_seat
    other._first_play = other._trick_start = 0
    other._trick_seen = state._trick_seen
    other._deck = state._deck
    other._on_dogs_life = state._on_dogs_life[:]
    other._left = state._left
    other._most_tricks = state._most_tricks
    other._voters = state._voters[:]
    other._fixed_suit = state._fixed_suit
    other._pending_method = state._pending_method
    other._view_parts = None
    other._tricks_kept = None
    return other


def state_from_view(cls: type[State], view: View, hands: Sequence[Mask]) -> State:
    """Return the decision of ``view`` with ``hands`` (masks by seat) filled in, for search.

    ``hands[view.seat]`` must be the view's own hand; the other hands are a guess at
    the hidden cards (a determinization), each holding as many cards as
    ``view.hand_counts`` says. The state is like :meth:`round_copy`'s: no history, and it
    stops at the end of the round. For the play and trump phases.

    Raises :class:`ValueError` when a hand has the wrong size, or in another phase.
    """
    phase = view.phase
    if phase is not _PLAY and phase is not _TRUMP:
        raise ValueError(f"no search in phase {phase.value!r}")
    rules = view.rules
    players = rules.players
    counts = view.hand_counts
    for seat in range(players):
        if _count(hands[seat]) != counts[seat]:
            raise ValueError(
                f"seat {seat} holds {counts[seat]} cards, not {hands[seat].bit_count()}"
            )
    state: State = cls(view.rules, BLANK)
    state.rules = rules
    state.players = players
    state.events = []
    state.recording = False
    state.phase = phase
    state.turn = view.seat
    state.outcome = None
    state.round = view.round
    state.hand_size = view.hand_size
    state.dealer = view.dealer
    state.trump = NO_SUIT if view.trump is None else view.trump
    state.trump_method = view.trump_method
    state.trump_chosen_by = view.trump_chosen_by
    state.turned_up = view.turned_up
    state.leader = -1 if view.leader is None else view.leader
    state.hands = list(hands)
    state.in_game = [s in view.in_round for s in range(players)]
    state.in_round = view.in_round
    state.knocked_out = view.knocked_out
    state.dogs_life = view.dogs_life
    used = [False] * players
    for seat in view.dogs_life_used:
        used[seat] = True
    state.dogs_life_used = used
    state.dogs_life_open = view.dogs_life_open
    state.tricks_won = list(view.tricks_won)
    state.previous_tricks_won = (
        None if view.previous_tricks_won is None else list(view.previous_tricks_won)
    )
    state.allowed = view.legal if phase is _TRUMP else ALL_SUITS
    state.votes = list(view.votes)
    state.seen = view.seen
    state.trick_number = view.trick_number
    state.trick_leader = view.trick_order[0] if view.trick_order else -1
    state.trick_order = view.trick_order
    state.trick_played = len(view.trick)
    state.led = NO_SUIT if view.led is None else view.led
    state.winning_card = NO_CARD if view.winning_card is None else view.winning_card
    state.winning_seat = -1 if view.winning_seat is None else view.winning_seat
    state._first_play = state._trick_start = 0
    trick_seen = view.seen  # the cards seen before the current trick's first card
    for play in view.trick:
        if type(play) is Play:
            trick_seen ^= BIT[play.card]
    state._trick_seen = trick_seen
    state._deck = _UNDRAWN  # never drawn: a copy deals no round
    state._on_dogs_life = [s in view.dogs_life for s in range(players)]
    state._left = left_of(view.dealer, state.in_game)
    state._most_tricks = view.seat if phase is _TRUMP else -1
    state._voters = []
    state._fixed_suit = NO_SUIT
    state._pending_method = "chosen"
    state._view_parts = None
    state._tricks_kept = None
    return state


def _count(cards: Mask) -> int:
    """Return how many cards the mask ``cards`` holds (``int.bit_count``, which compiled
    code calls as a Python method)."""
    count = 0
    while cards:
        cards &= cards - 1
        count += 1
    return count


def fork_state(
    state: State, deck: Deck | None = None, hands: Sequence[Mask] | None = None
) -> State:
    """Return a complete, independent copy of the game ``state``, to play on to its end.

    Unlike :func:`copy_state`, the fork keeps the history (its :attr:`events` are a new
    list of the same events) and deals the next rounds. ``deck`` is where its later cards
    come from; by default a deep copy of the game's deck, so the fork deals what the game
    would. ``hands`` (masks by seat), when given, replace the cards still held: a guess at
    the hidden cards for a search that plays whole games (OpenSpiel's resampling). Each
    seat must hold as many cards as now, no card may be held twice or have been seen by
    the table (played or turned up), and the round's :class:`~kow.events.Deal` is
    rewritten to match: each seat's cards already played, in order, then its new hand (a
    seat whose hand is unchanged keeps its deal as it was).

    Raises :class:`ValueError` for such a fault in ``hands``, naming the seat or card.
    """
    other: State = copy_state(state)
    other.events = state.events[:]
    other.recording = state.recording
    other.previous_tricks_won = (
        None if state.previous_tricks_won is None else state.previous_tricks_won[:]
    )
    other._first_play = state._first_play
    other._trick_start = state._trick_start
    other._deck = copy.deepcopy(state._deck) if deck is None else deck
    if hands is not None:
        _redeal(other, hands)
    return other


def _redeal(state: State, hands: Sequence[Mask]) -> None:
    """Give ``state`` the cards ``hands`` still held, and rewrite its round's deal to match."""
    if len(hands) != state.players:
        raise ValueError(f"{len(hands)} hands given for {state.players} seats")
    held = 0
    for seat, hand in enumerate(hands):
        count = state.hands[seat].bit_count()
        if hand.bit_count() != count:
            raise ValueError(f"seat {seat} holds {count} cards, not {hand.bit_count()}")
        if hand & held or hand & state.seen:
            card = (hand & (held | state.seen)).bit_length() - 1
            raise ValueError(f"{NAMES[card]} is held twice or was seen by the table")
        held |= hand
    events = state.events
    start = max(i for i, event in enumerate(events) if type(event) is Deal)
    deal: Deal = events[start]  # type: ignore[assignment]
    played: list[list[int]] = [[] for _ in range(state.players)]
    for event in events[start:]:
        if type(event) is Play:
            played[event.seat].append(event.card)
    # A seat whose cards are unchanged keeps its deal as it was, in the order dealt: the
    # seat resampled for sees the same deal (its information state is unchanged).
    dealt = tuple(
        old
        if old is None or hands[seat] == state.hands[seat]
        else tuple(played[seat]) + cards_in(hands[seat])
        for seat, old in enumerate(deal.hands)
    )
    events[start] = deal._replace(hands=dealt)
    state.hands = list(hands)
    state._view_parts = None
