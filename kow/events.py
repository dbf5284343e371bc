"""The vocabulary of a game: seats, actions, phases, and one record per kind of event.

The engine (:mod:`kow.engine`) appends an event to :attr:`State.events
<kow.engine.State.events>` for every change it makes, and that one list feeds the log
(:mod:`kow.log`), the screen (:mod:`kow.screen`), tournaments and replays. Each kind of
event is a :class:`~typing.NamedTuple` with named fields; consumers read them by name,
and walk a game's events with an :class:`EventVisitor` (python-chess's
``pgn.BaseVisitor`` is the model) instead of testing kinds one by one.

A game in events, in order: per round a :class:`Deal`; in round 1 a :class:`TurnedUp`
card; the knocked-out players' :class:`Vote` s (a variant); a :class:`TieCut` when the
most-tricks player must be found by cutting; a :class:`TrumpSet`; the :class:`Lead`;
then per trick a :class:`Play` or :class:`Knock` per seat and a :class:`TrickWon` (saying
how the trick was won: :class:`WonBy`); a
:class:`RoundEnd`; and last a :class:`GameEnd` with the game's :class:`Outcome`.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal, NamedTuple, TypeAlias

from .cards import NAMES, SUITS, Card, Suit

__all__ = [
    "BOT_NAMES",
    "CLOCKWISE",
    "KNOCK",
    "Action",
    "CutCard",
    "Deal",
    "Event",
    "EventVisitor",
    "GameEnd",
    "Knock",
    "Lead",
    "Outcome",
    "Phase",
    "Play",
    "RoundEnd",
    "Seat",
    "Termination",
    "TieCut",
    "Trick",
    "TrickWon",
    "TrumpMethod",
    "TrumpSet",
    "TurnedUp",
    "Vote",
    "WonBy",
    "AGENT",
    "HUMAN",
    "NOT_BOTS",
    "action_name",
    "clockwise",
    "new_cut_card",
    "new_deal",
    "new_game_end",
    "new_lead",
    "new_outcome",
    "new_round_end",
    "new_tie_cut",
    "new_trick_won",
    "new_trump_set",
    "new_turned_up",
    "seat_name",
    "seats_of",
]

Seat: TypeAlias = int
"""A seat at the table: 0-based, clockwise (seat 1 is seat 0's left)."""
Action: TypeAlias = int
"""A decision: a card 0..51 or :data:`KNOCK` in the play phase; a suit 0..3 in the vote and
trump phases."""

KNOCK: Final[Action] = 52
"""The action of a player on a dog's life who passes this trick (seed 002: "frapper")."""

HUMAN = "human"
"""The kind of a person at the keyboard (``kow play``): a player's ``kind``, as logged."""
AGENT = "agent"
"""The kind of a program that drove its seat through a framework adapter (OpenSpiel,
PettingZoo, Gymnasium), as logged; kow cannot play it again."""
BOT_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus")
"""The names kow gives the bots at a table with people (``kow play``, an online table), in
seat order, skipping any a person holds; ``kow replay`` names a logged bot so too."""
NOT_BOTS = (HUMAN, AGENT)
"""The kinds of the log's players that are not kow bots (those are
:data:`kow.players.BOT_KINDS`)."""


def seat_name(kind: str, seat: Seat) -> str:
    """Return the name kow gives a player it seats itself: ``KIND-SEAT``.

    The bots of ``kow simulate`` and ``kow tournament`` and of the Gymnasium environment,
    and the agents of the framework adapters, are so named in their logs; ``kow replay``
    shows a bot so named with a table name instead.

    >>> seat_name("heuristic", 0), seat_name(AGENT, 3)
    ('heuristic-0', 'agent-3')
    """
    return f"{kind}-{seat}"


TrumpMethod: TypeAlias = Literal["turned-up", "chosen", "fixed", "vote", "none"]
"""How a round's trump was set; the log's ``trump_method``."""


def clockwise(first: Seat, players: int) -> tuple[Seat, ...]:
    """Return the ``players`` seats clockwise from ``first``, ``first`` included.

    >>> clockwise(2, 4)
    (2, 3, 0, 1)
    """
    return CLOCKWISE[players][first]


def seats_of(values: Sequence[object]) -> int:
    """Return an int with bit ``s`` set for each seat ``s`` whose value is true: a hand
    holding a card, a seat in the game (the engine's tables of seats are so indexed).

    >>> seats_of([True, False, True])
    5
    """
    bits = 0
    for s in range(len(values)):
        if values[s]:
            bits |= 1 << s
    return bits


CLOCKWISE: Final[tuple[tuple[tuple[Seat, ...], ...], ...]] = tuple(
    tuple(tuple((first + i) % n for i in range(n)) for first in range(n)) for n in range(8)
)
"""The seats in clockwise order: ``CLOCKWISE[players][first]`` is :func:`clockwise`'s
tuple, made once for every table of 0 to 7 players (the trick loop reads it)."""


class Phase(enum.Enum):
    """The kind of decision a game awaits."""

    VOTE = "vote"
    """A knocked-out player votes for the next trump (``eliminated_vote``); action: a suit."""
    TRUMP = "trump"
    """The chooser names trump; action: a suit."""
    PLAY = "play"
    """The seat to act plays a card, or knocks on a dog's life."""
    OVER = "over"
    """The game is over."""
    ROUND_OVER = "round-over"
    """A round copied for search (:meth:`State.round_copy <kow.engine.State.round_copy>`)
    is played out; the game goes on in the state it was copied from. No action is legal."""


def action_name(action: object, phase: Phase = Phase.PLAY) -> str:
    """Return the notation of ``action``: a card name, ``"knock"``, or a suit letter.

    The one way an action is written as text: in the log's terms (the analysis's JSON,
    provenance's differences, an illegal action's message). ``phase`` says what the int
    means: a card or :data:`KNOCK` in the play phase, a suit in the others. Anything
    that is not an action of ``phase`` is shown as its ``repr``.

    >>> action_name(8 + 26), action_name(KNOCK), action_name(3, Phase.TRUMP)
    ('Th', 'knock', 's')
    """
    if type(action) is not int:
        return repr(action)
    if phase is not Phase.PLAY:
        return SUITS[action] if 0 <= action < 4 else repr(action)
    if action == KNOCK:
        return "knock"
    return NAMES[action] if 0 <= action < 52 else repr(action)


class Termination(enum.Enum):
    """Why a game ended."""

    LAST_STANDING = "last-standing"
    """Every other player is knocked out (rules text, 'Victoire')."""
    SWEEP = "sweep"
    """The winner took every trick of a round (rules text, 'Déroulement du jeu' 6)."""
    FINAL_TRICK = "final-trick"
    """The winner took the only trick of the 1-card round (rules text, 'Victoire')."""


class Outcome(NamedTuple):
    """How a finished game ended: ``winner`` (a seat), ``termination`` and ``rounds_played``."""

    winner: Seat
    termination: Termination
    rounds_played: int


new_outcome: Callable[[tuple[Any, ...]], Outcome] = functools.partial(tuple.__new__, Outcome)
"""Return the :class:`Outcome` of a tuple of its fields in this order:
``(winner, termination, rounds_played)``.

The engine's fast way, once a game (see :data:`new_trick_won`); elsewhere
``Outcome(winner=...)``.
"""


# ----------------------------------------------------------------------------- events


class Deal(NamedTuple):
    """A round begins: the deck is cut and dealt (rules text, 'Mise en place' 1-2).

    ``round`` counts from 1; ``hand_size``: the cards of a full hand; ``cut_by``: the
    dealer's right, who cut at ``cut_position`` (1..51); ``hands[seat]``: the cards dealt,
    in the order dealt, or None for a seat out of the game; ``dogs_life``: the seats on a
    dog's life, who get one card.
    """

    round: int
    hand_size: int
    dealer: Seat
    cut_by: Seat
    cut_position: int
    hands: tuple[tuple[Card, ...] | None, ...]
    dogs_life: tuple[Seat, ...]

    def accept(self, visitor: EventVisitor) -> None:
        """Call ``visitor.on_deal(self)``."""
        visitor.on_deal(self)


new_deal: Callable[[tuple[Any, ...]], Deal] = functools.partial(tuple.__new__, Deal)
"""Return the :class:`Deal` of a tuple of its fields in this order: ``(round, hand_size,
dealer, cut_by, cut_position, hands, dogs_life)``.

The engine's fast way (see :data:`new_trick_won`); elsewhere ``Deal(round=..., ...)``.
"""


class TurnedUp(NamedTuple):
    """Round 1's next card is turned up; its suit is trump (rules text, 'Mise en place' 3)."""

    card: Card

    def accept(self, visitor: EventVisitor) -> None:
        """Call ``visitor.on_turned_up(self)``."""
        visitor.on_turned_up(self)


new_turned_up: Callable[[tuple[Any, ...]], TurnedUp] = functools.partial(tuple.__new__, TurnedUp)
"""Return the :class:`TurnedUp` of a tuple of its fields in this order: ``(card)``.

The engine's fast way, once a game (see :data:`new_trick_won`); elsewhere ``TurnedUp(card=...)``.
"""


class CutCard(NamedTuple):
    """One card of a tie cut: ``seat`` cut ``card``."""

    seat: Seat
    card: Card


new_cut_card: Callable[[tuple[Any, ...]], CutCard] = functools.partial(tuple.__new__, CutCard)
"""Return the :class:`CutCard` of a tuple of its fields in this order: ``(seat, card)``.

The engine's fast way, for each card of a tie cut (see :data:`new_trick_won`); elsewhere
``CutCard(seat=..., card=...)``.
"""


class TieCut(NamedTuple):
    """Players tied for the most tricks cut for the highest card, again while tied.

    ``passes``: each pass's cards, in the order cut (rules text, 'Mise en place' 5).
    """

    passes: tuple[tuple[CutCard, ...], ...]

    def accept(self, visitor: EventVisitor) -> None:
        """Call ``visitor.on_tie_cut(self)``."""
        visitor.on_tie_cut(self)


new_tie_cut: Callable[[tuple[Any, ...]], TieCut] = functools.partial(tuple.__new__, TieCut)
"""Return the :class:`TieCut` of a tuple of its fields in this order: ``(passes)``.

The engine's fast way, for a round's tie cut (see :data:`new_trick_won`); elsewhere
``TieCut(passes=...)``.
"""


class Vote(NamedTuple):
    """A knocked-out ``seat`` votes for ``suit`` as trump (rules text, 'Variantes')."""

    seat: Seat
    suit: Suit

    def accept(self, visitor: EventVisitor) -> None:
        """Call ``visitor.on_vote(self)``."""
        visitor.on_vote(self)


class TrumpSet(NamedTuple):
    """The round's trump is set: ``suit`` (None: no trump), by ``method``.

    ``chosen_by``: the seat that named it (a choice, or a tied vote settled), else None.
    """

    suit: Suit | None
    method: TrumpMethod
    chosen_by: Seat | None

    def accept(self, visitor: EventVisitor) -> None:
        """Call ``visitor.on_trump_set(self)``."""
        visitor.on_trump_set(self)


new_trump_set: Callable[[tuple[Any, ...]], TrumpSet] = functools.partial(tuple.__new__, TrumpSet)
"""Return the :class:`TrumpSet` of a tuple of its fields in this order: ``(suit, method,
chosen_by)``.

The engine's fast way (see :data:`new_trick_won`); elsewhere ``TrumpSet(suit=..., ...)``.
"""


class Lead(NamedTuple):
    """``seat`` leads the round's first trick."""

    seat: Seat

    def accept(self, visitor: EventVisitor) -> None:
        """Call ``visitor.on_lead(self)``."""
        visitor.on_lead(self)


new_lead: Callable[[tuple[Any, ...]], Lead] = functools.partial(tuple.__new__, Lead)
"""Return the :class:`Lead` of a tuple of its fields in this order: ``(seat)``.

The engine's fast way, once a round (see :data:`new_trick_won`); elsewhere ``Lead(seat=...)``.
"""


class Play(NamedTuple):
    """``seat`` plays ``card`` to the trick."""

    seat: Seat
    card: Card

    @property
    def action(self) -> Action:
        """The action: the card."""
        return self.card

    def accept(self, visitor: EventVisitor) -> None:
        """Call ``visitor.on_play(self)``."""
        visitor.on_play(self)


class Knock(NamedTuple):
    """``seat``, on a dog's life, knocks: it passes this trick and keeps its card."""

    seat: Seat

    @property
    def action(self) -> Action:
        """The action: :data:`KNOCK`."""
        return KNOCK

    def accept(self, visitor: EventVisitor) -> None:
        """Call ``visitor.on_knock(self)``."""
        visitor.on_knock(self)


class WonBy(enum.Enum):
    """Why a trick's winning card won it (rules text, 'Déroulement du jeu' 3).

    The highest trump wins a trick, else the highest card of the led suit; a card of
    another suit (a discard) never wins. Which of these decided a trick is one member, and
    :func:`kow.engine.trick.won_by` tells which. A dog's-life card wins by the same rule (who
    leads next differs: see :attr:`TrickWon.next_leader`).
    """

    HIGHEST_TRUMP = "highest-trump"
    """The highest of two or more trumps: trumps were led and followed, or several
    players trumped another led suit."""
    ONLY_TRUMP = "only-trump"
    """The only trump, played on another led suit."""
    HIGHEST_OF_LED = "highest-of-led"
    """The highest card of the led suit, which others followed; nobody trumped (or there
    is no trump, or the led suit is not trump)."""
    ONLY_OF_LED = "only-of-led"
    """The only card of the led suit: nobody else followed it, nor trumped. A trump led
    that nobody else follows is one (not :attr:`ONLY_TRUMP`)."""
    ONLY_CARD = "only-card"
    """The only card played: every other seat of the trick knocked (a dog's life)."""


class TrickWon(NamedTuple):
    """Trick ``number`` (from 1), led by ``leader``, is won by ``winner``.

    ``next_leader`` leads the next trick: the winner, or the player to its left when it
    won on a dog's life (seed 002); None after the round's last trick. ``card``: the
    winning card; ``led``: the led suit (the suit of the trick's first card, after any
    knock), 0..3; ``why``: how the card won (:class:`WonBy`). The engine's trick loop
    decides them all; a log holds ``winner`` only, and replaying it gives the rest.
    """

    number: int
    leader: Seat
    winner: Seat
    next_leader: Seat | None
    card: Card
    led: Suit
    why: WonBy

    def accept(self, visitor: EventVisitor) -> None:
        """Call ``visitor.on_trick_won(self)``."""
        visitor.on_trick_won(self)


new_trick_won: Callable[[tuple[Any, ...]], TrickWon] = functools.partial(tuple.__new__, TrickWon)
"""Return the :class:`TrickWon` of a tuple of its fields in this order: ``(number, leader,
winner, next_leader, card, led, why)``.

The fast way, for the engine's trick loop; elsewhere ``TrickWon(number=..., ...)`` reads
better. The engine makes its events by these constructors (``new_deal``,
``new_trump_set``, ``new_trick_won``, ``new_round_end``), each defined beside its class
with its field order, and no other code builds those records by position.
``functools.partial`` over ``tuple.__new__`` is the fastest callable that names its class
(see :data:`kow.engine.view.new_trick_facts`); a keyword call such as ``Deal(round=...,
...)`` costs more, in every round of every game (docs/performance.md, "Design choices").
The events that hold one field
(:class:`TurnedUp`, :class:`Lead`, :class:`GameEnd`) are built by keyword: they have no
order to get wrong, and a keyword costs little there.
"""


class RoundEnd(NamedTuple):
    """A round ends.

    ``tricks_won[seat]``: tricks taken (None for a seat not dealt in); ``eliminated``:
    seats knocked out now; ``dogs_life_granted``: seats that play the next round on a
    dog's life; ``revived``: seats on a dog's life that took a trick. Each ascending.
    """

    tricks_won: tuple[int | None, ...]
    eliminated: tuple[Seat, ...]
    dogs_life_granted: tuple[Seat, ...]
    revived: tuple[Seat, ...]

    def accept(self, visitor: EventVisitor) -> None:
        """Call ``visitor.on_round_end(self)``."""
        visitor.on_round_end(self)


new_round_end: Callable[[tuple[Any, ...]], RoundEnd] = functools.partial(tuple.__new__, RoundEnd)
"""Return the :class:`RoundEnd` of a tuple of its fields in this order: ``(tricks_won,
eliminated, dogs_life_granted, revived)``.

The engine's fast way (see :data:`new_trick_won`); elsewhere ``RoundEnd(tricks_won=...,
...)``.
"""


class GameEnd(NamedTuple):
    """The game is over: its :class:`Outcome`."""

    outcome: Outcome

    def accept(self, visitor: EventVisitor) -> None:
        """Call ``visitor.on_game_end(self)``."""
        visitor.on_game_end(self)


new_game_end: Callable[[tuple[Any, ...]], GameEnd] = functools.partial(tuple.__new__, GameEnd)
"""Return the :class:`GameEnd` of a tuple of its fields in this order: ``(outcome)``.

The engine's fast way, once a game (see :data:`new_trick_won`); elsewhere ``GameEnd(outcome=...)``.
"""


Event: TypeAlias = (
    Deal | TurnedUp | TieCut | Vote | TrumpSet | Lead | Play | Knock | TrickWon | RoundEnd | GameEnd
)
"""Any event."""


class Trick(NamedTuple):
    """A finished trick: ``number`` (from 1), ``leader``, ``plays`` in turn order, ``winner``.

    ``card``, ``led`` and ``why``: the winning card, the led suit and how the card won,
    as its :class:`TrickWon` says.
    """

    number: int
    leader: Seat
    plays: tuple[Play | Knock, ...]
    winner: Seat
    card: Card
    led: Suit
    why: WonBy


class EventVisitor:
    """Receive a game's events one at a time; override the kinds of interest.

    ``event.accept(visitor)`` calls the method for the event's kind; :meth:`visit` walks
    a whole list. Every method does nothing here.
    """

    def visit(self, events: list[Event] | tuple[Event, ...]) -> None:
        """Pass each event of ``events`` to its method, in order."""
        for event in events:
            event.accept(self)

    def on_deal(self, event: Deal) -> None:
        """A round's deal."""

    def on_turned_up(self, event: TurnedUp) -> None:
        """Round 1's turned-up card."""

    def on_tie_cut(self, event: TieCut) -> None:
        """A tie cut for the most tricks."""

    def on_vote(self, event: Vote) -> None:
        """A knocked-out player's vote."""

    def on_trump_set(self, event: TrumpSet) -> None:
        """The round's trump."""

    def on_lead(self, event: Lead) -> None:
        """The round's first leader."""

    def on_play(self, event: Play) -> None:
        """A card played."""

    def on_knock(self, event: Knock) -> None:
        """A knock on a dog's life."""

    def on_trick_won(self, event: TrickWon) -> None:
        """A trick's end."""

    def on_round_end(self, event: RoundEnd) -> None:
        """A round's end."""

    def on_game_end(self, event: GameEnd) -> None:
        """The game's end."""
