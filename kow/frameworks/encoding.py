"""What a seat may know, as the data of game-AI frameworks: action ids, tensors and strings.

The adapters (:mod:`kow.frameworks.openspiel`, :mod:`kow.frameworks.pettingzoo`,
:mod:`kow.frameworks.gymnasium`) share this one statement of how a decision looks to a
learning or search algorithm, so an agent trained through one sees the same numbers
through another. It needs no framework and no
numpy: tensors are flat lists of floats, which the adapters turn into arrays.

- **Action ids** (0..56, :data:`NUM_ACTIONS`): a card is its kow card number, 0..51
  (``suit * 13 + rank``, suits ``c d h s`` and ranks ``2..A``, see :mod:`kow.cards`);
  52 is a knock on a dog's life (:data:`KNOCK_ID`); 53..56 name a suit ``c d h s``, to
  choose trump or, knocked out, to vote for it (:data:`SUIT_IDS`). The ids never depend
  on the rules or the phase.
- **The observation** (:func:`observation`, :func:`observation_text`) is the seat's
  :class:`~kow.engine.view.View`: its own hand and what the table has seen, nothing else.
- **The information state** (:func:`information_state`,
  :func:`information_state_text`) adds what the seat remembers: the text holds every
  event of the game as that seat saw it (perfect recall: other hands only as counts);
  the tensor adds this round's deal of its own hand, each trick of the round and the dog's
  lives granted so far.

The layouts are in :func:`observation_fields` and :func:`information_state_fields`, and
docs/frameworks.md shows them. Seats are 0-based and clockwise.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import cache
from typing import Any, Final, Protocol, SupportsIndex

from ..cards import NAMES, SUITS, cards_in
from ..engine import State
from ..engine.view import View
from ..events import (
    KNOCK,
    Action,
    Deal,
    Event,
    EventVisitor,
    GameEnd,
    Knock,
    Lead,
    Outcome,
    Phase,
    Play,
    RoundEnd,
    Seat,
    TieCut,
    TrickWon,
    TrumpSet,
    TurnedUp,
    Vote,
    action_name,
)
from ..rules import Rules

__all__ = [
    "KNOCK_ID",
    "NUM_ACTIONS",
    "SUIT_IDS",
    "action_id",
    "action_text",
    "Tensor",
    "engine_action",
    "fill_action_mask",
    "fill_observation",
    "information_state",
    "information_state_fields",
    "information_state_size",
    "information_state_text",
    "legal_action_ids",
    "observation",
    "observation_bounds",
    "observation_fields",
    "observation_size",
    "observation_text",
    "result_text",
]

KNOCK_ID = KNOCK
"""The action id of a knock (52), the same as :data:`kow.events.KNOCK`."""
SUIT_IDS: tuple[int, ...] = (53, 54, 55, 56)
"""The action ids naming suits ``c d h s`` (a trump choice or a vote)."""
NUM_ACTIONS = 57
"""The number of distinct action ids: 52 cards, a knock, 4 suits."""


def action_id(action: Action, phase: Phase) -> int:
    """Return the id (0..56) of the engine's ``action`` in ``phase``.

    In play a card (0..51) or :data:`~kow.events.KNOCK` keeps its number; in the vote
    and trump phases suit ``s`` (0..3) becomes ``53 + s``.

    >>> action_id(34, Phase.PLAY), action_id(2, Phase.TRUMP)
    (34, 55)
    """
    return action if phase is _PLAY else SUIT_IDS[action]


def engine_action(action: object, phase: Phase) -> Action:
    """Return the engine's action for id ``action`` (0..56) in ``phase``: the inverse of
    :func:`action_id`.

    ``action`` may be of any integer type (a numpy integer, say), but not a bool.

    Raises :class:`TypeError` for anything that is not an integer (a float, None, a
    bool), and :class:`ValueError` when the id names nothing of that phase (a suit in
    play, a card in a trump choice) or is out of range; whether it is legal is the
    engine's to say.

    >>> engine_action(55, Phase.TRUMP)
    2
    """
    if type(action) is int:  # the common case, without the protocol check (a third of a step)
        value = action
    elif isinstance(action, bool) or not isinstance(action, SupportsIndex):
        raise TypeError(f"{action!r} is not an action id")
    else:
        try:
            value = operator.index(action)  # an int, from a numpy integer say
        except TypeError:  # a numpy array of more than one number, or not of integers
            raise TypeError(f"{action!r} is not an action id") from None
    if phase is _PLAY:  # a C static: ``Phase.PLAY`` is an enum's slow look-up (~900 instructions)
        if 0 <= value <= KNOCK_ID:
            return value
        raise ValueError(f"action {value} is not a card (0-51) or a knock (52)")
    if phase is _OVER:
        raise ValueError("the game is over: no action is taken")
    if SUIT_IDS[0] <= value <= SUIT_IDS[-1]:
        return value - SUIT_IDS[0]
    raise ValueError(f"action {value} is not a suit (53-56) to {phase.value}")


def legal_action_ids(state: State) -> list[int]:
    """Return the ids of the actions the seat to act may take now, ascending (empty when over)."""
    phase = state.phase
    legal = state.legal_actions()
    if phase is _PLAY:
        return list(legal)
    return [SUIT_IDS[s] for s in legal]


def action_text(action: int) -> str:
    """Return the notation of action id ``action``: a card, ``"knock"`` or ``"suit h"``.

    >>> action_text(34), action_text(52), action_text(55)
    ('Th', 'knock', 'suit h')
    """
    if 0 <= action < 52:
        return NAMES[action]
    if action == KNOCK_ID:
        return "knock"
    if SUIT_IDS[0] <= action <= SUIT_IDS[-1]:
        return f"suit {SUITS[action - SUIT_IDS[0]]}"
    return repr(action)


# ----------------------------------------------------------------------------- tensors


@cache
def observation_fields(rules: Rules) -> tuple[tuple[str, int], ...]:
    """Return the observation tensor's fields in order, as ``(name, size)`` pairs.

    With ``P`` players and ``C`` start cards: ``seat`` P (one-hot: whose observation),
    ``phase`` 4 (vote, trump, play, over), ``to_act`` 1 (this seat must act), ``hand`` 52
    (its cards), ``seen`` 52 (cards the table saw this round), ``trick`` 53·P (per seat
    a block of 53: the card it played to the current trick, or 52 for a knock), ``led`` 4
    and ``trump`` 4 (suits; all 0 when none), ``turned_up`` 52, ``winning_seat``,
    ``trick_leader``, ``dealer``, ``leader`` (the round's first), ``in_round``,
    ``dogs_life``, ``knocked_out`` P each, ``hand_counts``, ``tricks_won`` and
    ``previous_tricks_won`` P each (counts, not scaled), ``round`` and ``trick_number``
    C each (one-hot, from 1), ``votes`` 4 (votes cast this round, by suit).
    """
    p, c = rules.players, rules.start_cards
    return (
        ("seat", p), ("phase", 4), ("to_act", 1), ("hand", 52), ("seen", 52),
        ("trick", 53 * p), ("led", 4), ("trump", 4), ("turned_up", 52),
        ("winning_seat", p), ("trick_leader", p), ("dealer", p), ("leader", p),
        ("in_round", p), ("dogs_life", p), ("knocked_out", p), ("hand_counts", p),
        ("tricks_won", p), ("previous_tricks_won", p), ("round", c), ("trick_number", c),
        ("votes", 4),
    )  # fmt: skip


@cache
def information_state_fields(rules: Rules) -> tuple[tuple[str, int], ...]:
    """Return the information state tensor's fields: the observation's, then three more.

    ``dealt`` 52 (the seat's cards as dealt this round), ``dogs_life_used`` P (seats
    granted a dog's life earlier in the game), ``tricks`` C·P·53 (trick ``t`` of this
    round, 1..C, then seat ``s``: a block of 53, the card ``s`` played to it or 52 for a
    knock; the current trick included) and ``trick_leaders`` C·P (each trick's leader).
    """
    p, c = rules.players, rules.start_cards
    return observation_fields(rules) + (
        ("dealt", 52), ("dogs_life_used", p), ("tricks", c * p * 53), ("trick_leaders", c * p),
    )  # fmt: skip


@cache
def _offsets(rules: Rules, info: bool) -> dict[str, int]:
    fields = information_state_fields(rules) if info else observation_fields(rules)
    out: dict[str, int] = {}
    at = 0
    for name, size in fields:
        out[name] = at
        at += size
    out[""] = at
    return out


@cache
def _view_offsets(rules: Rules) -> tuple[int, ...]:
    """Return where each of :func:`observation_fields` starts, in their order, then the
    observation's size: :func:`_fill_view`'s offsets (the information state's first
    fields are the observation's, at the same places)."""
    at = _offsets(rules, False)
    return tuple([at[name] for name, _ in observation_fields(rules)]) + (at[""],)


_LAST_LAYOUT: Final[list[tuple[Any, tuple[int, ...]]]] = [(None, ())]
"""The rules of the last :func:`_observation_offsets` call with their offsets, one pair
replaced whole (so threads never see a mix): hashing a :class:`~kow.rules.Rules` for
:func:`_view_offsets`' cache costs about as much as writing the tensor, and an
environment observes under one set of rules."""


def _observation_offsets(rules: Rules) -> tuple[int, ...]:
    """Return :func:`_view_offsets` ``(rules)``, kept for the same ``rules`` object."""
    last, at = _LAST_LAYOUT[0]
    if last is not rules:
        at = _view_offsets(rules)
        _LAST_LAYOUT[0] = (rules, at)
    return at


_COUNTS = ("hand_counts", "tricks_won", "previous_tricks_won")


def observation_bounds(rules: Rules) -> list[float]:
    """Return the observation tensor's upper bounds under ``rules``, element by element.

    1 for the one-hot and 0/1 fields; ``start_cards`` for the counts of cards and tricks
    (``hand_counts``, ``tricks_won``, ``previous_tricks_won``: a hand or a round holds no
    more); ``players - 1`` for the ``votes`` cast for a suit. Every element is at least 0,
    so ``tensor / bounds`` scales each to 0..1.

    >>> bounds = observation_bounds(Rules(players=3, start_cards=5))
    >>> len(bounds) == observation_size(Rules(players=3, start_cards=5)), max(bounds)
    (True, 5.0)
    """
    bounds: list[float] = []
    for name, size in observation_fields(rules):
        if name in _COUNTS:
            bound = rules.start_cards
        elif name == "votes":
            bound = rules.players - 1
        else:
            bound = 1
        bounds += [float(bound)] * size
    return bounds


def observation_size(rules: Rules) -> int:
    """Return the length of :func:`observation`'s tensor under ``rules``."""
    return _offsets(rules, False)[""]


def information_state_size(rules: Rules) -> int:
    """Return the length of :func:`information_state`'s tensor under ``rules``."""
    return _offsets(rules, True)[""]


class Tensor(Protocol):
    """Where a tensor is written: a mutable sequence of floats indexed by int (a list,
    a numpy array)."""

    def __getitem__(self, index: int, /) -> Any: ...

    def __setitem__(self, index: int, value: float, /) -> None: ...


def _fill_view(out: Any, at: tuple[int, ...], view: View) -> None:
    """Write ``view``'s observation fields into ``out`` (zeros) at offsets ``at``
    (:func:`_view_offsets`).

    ``out`` is a :class:`Tensor`, typed ``Any`` so that the compiled build writes each
    element with one call of the object's ``__setitem__`` (a numpy array's, a list's),
    the value one shared float, and only the elements that are not 0 (:func:`_put`): every
    step of the gym-style environments writes one.
    """
    (
        seat_at, phase_at, to_act_at, hand_at, seen_at, trick_at, led_at, trump_at,
        turned_up_at, winning_seat_at, trick_leader_at, dealer_at, leader_at, in_round_at,
        dogs_life_at, knocked_out_at, hand_counts_at, tricks_won_at, previous_at, round_at,
        trick_number_at, votes_at, _,
    ) = at  # fmt: skip
    _put(out, seat_at + view.seat)
    _put(out, phase_at + _phase_index(view.phase))
    if view.legal:
        _put(out, to_act_at)
    for card in cards_in(view.hand_mask):
        _put(out, hand_at + card)
    for card in cards_in(view.seen):
        _put(out, seen_at + card)
    for play in view.trick:
        # Narrowed by its class, a play's fields are read as a tuple's items in the
        # compiled build (``play.action``, a property, is a Python call).
        if isinstance(play, Play):
            _put(out, trick_at + 53 * play.seat + play.card)
        else:
            _put(out, trick_at + 53 * play.seat + KNOCK)
    if view.led is not None:
        _put(out, led_at + view.led)
    if view.trump is not None:
        _put(out, trump_at + view.trump)
    if view.turned_up is not None:
        _put(out, turned_up_at + view.turned_up)
    if view.winning_seat is not None:
        _put(out, winning_seat_at + view.winning_seat)
    if view.trick_order:
        _put(out, trick_leader_at + view.trick_order[0])
    _put(out, dealer_at + view.dealer)
    if view.leader is not None:
        _put(out, leader_at + view.leader)
    for seat in view.in_round:
        _put(out, in_round_at + seat)
    for seat in view.dogs_life:
        _put(out, dogs_life_at + seat)
    for seat in view.knocked_out:
        _put(out, knocked_out_at + seat)
    _fill_counts(out, hand_counts_at, view.hand_counts)
    _fill_counts(out, tricks_won_at, view.tricks_won)
    previous = view.previous_tricks_won
    if previous is not None:
        _fill_counts(out, previous_at, previous)
    _put(out, round_at + view.round - 1)
    if 1 <= view.trick_number <= view.hand_size:
        _put(out, trick_number_at + view.trick_number - 1)
    for vote in view.votes:
        out[votes_at + vote.suit] += 1.0


def _put(out: Any, at: int) -> None:
    """Write 1.0 at position ``at`` of ``out`` (typed ``Any``, as in :func:`_fill_view`)."""
    out[_position(at)] = _ONE


def _position(at: int) -> object:
    """Return the int ``at`` (0 or more) as an object: made once (:data:`_POSITIONS`), as
    compiled code would box a position above 256 anew at each write (an allocation and
    its release: about 100 instructions, some 25 times an observation)."""
    return _POSITIONS[at] if 0 <= at < _MOST_POSITIONS else at


_ONE: Final[object] = 1.0
_MOST_POSITIONS: Final = 1024
_POSITIONS: Final[tuple[object, ...]] = tuple(range(_MOST_POSITIONS))
"""The positions of a tensor below :data:`_MOST_POSITIONS`, as objects (see :func:`_position`)."""
_COUNTS_AS_FLOATS: Final[tuple[object, ...]] = tuple(float(n) for n in range(64))
"""``_COUNTS_AS_FLOATS[n]``: ``float(n)``, made once (compiled code makes a float per call)."""


def _fill_counts(out: Any, base: int, counts: tuple[int, ...]) -> None:
    """Write ``counts[seat]`` for each seat at ``base + seat`` of ``out`` (zeros: a count
    of 0 is left as it is)."""
    for seat in range(len(counts)):
        count = counts[seat]
        if count:
            out[_position(base + seat)] = (
                _COUNTS_AS_FLOATS[count] if 0 <= count < 64 else float(count)
            )


_VOTE: Final = Phase.VOTE
_TRUMP: Final = Phase.TRUMP
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER


def _phase_index(phase: Phase) -> int:
    """Return the place of ``phase`` in the ``phase`` field: vote, trump, play, over.

    Raises :class:`ValueError` for :attr:`Phase.ROUND_OVER
    <kow.events.Phase.ROUND_OVER>` (a copy for search is observed by no one)."""
    if phase is _PLAY:
        return 2
    if phase is _TRUMP:
        return 1
    if phase is _VOTE:
        return 0
    if phase is _OVER:
        return 3
    raise ValueError(f"{phase!r} is not in tuple")


def observation(view: View) -> list[float]:
    """Return the observation tensor of ``view``: a flat list, laid out as
    :func:`observation_fields` says, of length :func:`observation_size`.

    It holds only what the view holds: the seat's own hand and what the table has seen.
    """
    at = _observation_offsets(view.rules)
    out = [0.0] * at[-1]
    _fill_view(out, at, view)
    return out


def fill_observation(view: View, out: Tensor) -> None:
    """Write the observation tensor of ``view`` into ``out``: the same numbers as
    :func:`observation`, without a list between.

    ``out`` holds :func:`observation_size` zeros, e.g. a fresh numpy array (an adapter
    saves the list's conversion: only the few elements that are not 0 are written).
    """
    _fill_view(out, _observation_offsets(view.rules), view)


def fill_action_mask(view: View, out: Tensor) -> None:
    """Write 1 into ``out`` at the action ids of ``view.legal``: the ids the seat may take
    now, none unless it is the seat to act (:attr:`View.legal <kow.engine.view.View.legal>`).

    ``out`` holds :data:`NUM_ACTIONS` zeros, e.g. a fresh numpy array (int8 for the
    environments' ``action_mask``). For the seat to act, the ids are
    :func:`legal_action_ids` of the game.
    """
    _fill_ids(out, view.legal, view.phase is _PLAY)


def _fill_ids(out: Any, legal: tuple[Action, ...], play: bool) -> None:
    """Write 1 at the ids of the actions ``legal`` (cards and knocks if ``play``, else
    suits) into ``out``, typed ``Any`` as :func:`_fill_view`'s."""
    one: object = 1
    if play:
        for action in legal:
            out[action] = one
    else:
        for suit in legal:
            out[SUIT_IDS[suit]] = one


def information_state(state: State, seat: Seat) -> list[float]:
    """Return ``seat``'s information state tensor in game ``state``: a flat list, laid out
    as :func:`information_state_fields` says, of length :func:`information_state_size`.

    The observation of ``state.view(seat)``, then this round's deal of the seat's own
    hand, the dog's lives granted so far and this round's tricks card by card. ``state``
    must keep its events (a game, not a copy made for search).
    """
    rules = state.rules
    at = _offsets(rules, True)
    out = [0.0] * at[""]
    view = state.view(seat)
    _fill_view(out, _view_offsets(rules), view)
    base = at["dogs_life_used"]
    for s in view.dogs_life_used:
        out[base + s] = 1.0
    events = state.events
    deal_at = max((i for i, e in enumerate(events) if type(e) is Deal), default=-1)
    players = rules.players
    if deal_at < 0:
        return out
    deal: Deal = events[deal_at]  # type: ignore[assignment]
    own = deal.hands[seat]
    for card in own or ():
        out[at["dealt"] + card] = 1.0
    tricks, leaders = at["tricks"], at["trick_leaders"]
    number = 0
    first = True
    for event in events[deal_at + 1 :]:
        if isinstance(event, (Play, Knock)):
            if first:
                out[leaders + players * number + event.seat] = 1.0
                first = False
            out[tricks + 53 * (players * number + event.seat) + event.action] = 1.0
        elif isinstance(event, TrickWon):
            number += 1
            first = True
        elif isinstance(event, RoundEnd):
            break
    return out


# ----------------------------------------------------------------------------- strings


def _seats(seats: Sequence[Seat]) -> str:
    return " ".join(map(str, seats)) if seats else "none"


def _cards(cards: Sequence[int]) -> str:
    return " ".join(NAMES[c] for c in cards) if cards else "none"


def observation_text(view: View) -> str:
    """Return ``view`` as lines of text: the round, the seat's hand, the trick, the counts.

    Only what the view holds: the seat's own hand and what the table has seen. Two views
    give the same text exactly when they hold the same facts for the decision.
    """
    trump = "none" if view.trump is None else SUITS[view.trump]
    lines = [
        f"seat {view.seat}, phase {view.phase.value}"
        + (f", to act: {' '.join(action_text(action_id(a, view.phase)) for a in view.legal)}"
           if view.legal else ""),
        f"round {view.round}, {view.hand_size} cards, dealer {view.dealer}, trump {trump}"
        + ("" if view.turned_up is None else f", turned up {NAMES[view.turned_up]}"),
        f"hand: {_cards(view.hand)}",
        f"in round: {_seats(view.in_round)}; dog's life: {_seats(view.dogs_life)}; "
        f"knocked out: {_seats(view.knocked_out)}",
        f"cards held: {' '.join(map(str, view.hand_counts))}; "
        f"tricks won: {' '.join(map(str, view.tricks_won))}"
        + ("" if view.previous_tricks_won is None
           else f"; last round: {' '.join(map(str, view.previous_tricks_won))}"),
        f"seen: {_cards(cards_in(view.seen))}",
    ]  # fmt: skip
    if view.votes:
        lines.append("votes: " + " ".join(f"{v.seat}:{SUITS[v.suit]}" for v in view.votes))
    if view.trick_number and view.phase is Phase.PLAY:
        plays = " ".join(f"{p.seat}:{action_name(p.action)}" for p in view.trick)
        lines.append(f"trick {view.trick_number}: {plays or 'no card yet'}")
    return "\n".join(lines)


def result_text(outcome: Outcome) -> str:
    """Return a finished game's result as one line of text.

    >>> from kow.events import Termination
    >>> result_text(Outcome(2, Termination.SWEEP, 4))
    'game over: seat 2 wins (sweep, 4 rounds)'
    """
    return (
        f"game over: seat {outcome.winner} wins ({outcome.termination.value}, "
        f"{outcome.rounds_played} rounds)"
    )


class _Narration(EventVisitor):
    """Each event as one seat saw it: other hands only as counts."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.lines: list[str] = [f"seat {seat}"]

    def on_deal(self, event: Deal) -> None:
        own = event.hands[self.seat]
        counts = " ".join("-" if h is None else str(len(h)) for h in event.hands)
        self.lines.append(
            f"round {event.round}: {event.hand_size} cards, dealer {event.dealer}, "
            f"cards dealt {counts}, dog's life {_seats(event.dogs_life)}; "
            f"hand {'none' if own is None else _cards(own)}"
        )

    def on_turned_up(self, event: TurnedUp) -> None:
        self.lines.append(f"turned up {NAMES[event.card]}")

    def on_tie_cut(self, event: TieCut) -> None:
        for cut in event.passes:
            self.lines.append("tie cut " + " ".join(f"{c.seat}:{NAMES[c.card]}" for c in cut))

    def on_vote(self, event: Vote) -> None:
        self.lines.append(f"{event.seat} votes {SUITS[event.suit]}")

    def on_trump_set(self, event: TrumpSet) -> None:
        suit = "none" if event.suit is None else SUITS[event.suit]
        by = "" if event.chosen_by is None else f" by {event.chosen_by}"
        self.lines.append(f"trump {suit} ({event.method}{by})")

    def on_lead(self, event: Lead) -> None:
        self.lines.append(f"{event.seat} leads")

    def on_play(self, event: Play) -> None:
        self.lines.append(f"{event.seat}:{NAMES[event.card]}")

    def on_knock(self, event: Knock) -> None:
        self.lines.append(f"{event.seat}:knock")

    def on_trick_won(self, event: TrickWon) -> None:
        self.lines.append(f"trick {event.number} to {event.winner}")

    def on_round_end(self, event: RoundEnd) -> None:
        won = " ".join("-" if n is None else str(n) for n in event.tricks_won)
        self.lines.append(
            f"round ends: tricks {won}; knocked out {_seats(event.eliminated)}; "
            f"dog's life {_seats(event.dogs_life_granted)}"
        )

    def on_game_end(self, event: GameEnd) -> None:
        outcome = event.outcome
        self.lines.append(f"{outcome.winner} wins ({outcome.termination.value})")


def information_state_text(events: Sequence[Event], seat: Seat) -> str:
    """Return the game so far as ``seat`` saw it, one event a line: perfect recall.

    ``events`` are a game's (:attr:`State.events <kow.engine.State.events>`). Every
    event is public but the deal, of which the seat sees its own hand and the other
    hands' counts, so the text holds no card hidden from it.
    """
    narration = _Narration(seat)
    for event in events:
        event.accept(narration)
    return "\n".join(narration.lines)
