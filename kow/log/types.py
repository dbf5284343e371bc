"""The log format, version 1, as types: one TypedDict per object of ``schema.json``.

A log read from JSON (:func:`kow.log.load`, :func:`~kow.log.loads`,
:func:`~kow.log.iter_games`) or built (:func:`kow.log.build`) is a plain ``dict`` at run
time, as fast and as small as ever; these types tell a type checker its keys, so that
``mypy --strict`` refuses a misspelt key (``game["round"]``) or a value used as what it
is not (a seat that may be null). pokerkit's ``HandHistory`` is the model of a typed
record. The names end in ``Log`` (``GameLog``, ``RoundLog``...): :mod:`kow.events`
holds the engine's ``Play``, ``Vote`` and ``Deal``.

Each type mirrors one object of the schema, key for key (``tests/log/test_log_types.py``
keeps them in step): a required key is a key of the class itself, a key the schema may
leave out (``abandoned``, a play's ``card`` or ``knock``) is a key of a ``total=False``
subclass (Python 3.10 has no ``NotRequired``, and the run time needs Click alone).
A seat is an ``int`` (0-based, clockwise), a card two characters (``"Th"``), a suit one
letter (``c d h s``); ``None`` is the log's ``null``. A value the schema limits to a few
words is a ``Literal`` of them where kow writes it from a typed value (the rule settings,
``trump_method``), and ``str`` where the words come from outside the types (a suit
letter, a player's kind).

The types describe a log, not the proof that a value is one: a value read from a file
is typed :class:`GameLog` as :func:`json.load` types its result ``Any``, and only
:func:`kow.verify.verify_game` checks that it is one. ``docs/log-format.md`` says what
each field means.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from ..events import Seat, TrumpMethod
from ..rules import DogsLife, LeadRule, TrumpRule

__all__ = [
    "CutCardLog",
    "CutLog",
    "GameLog",
    "PlayLog",
    "PlayerLog",
    "ResultLog",
    "RoundLog",
    "RulesLog",
    "TerminationValue",
    "TrickLog",
    "VoteLog",
]


class RulesLog(TypedDict):
    """Every rule setting of the game (the schema's ``$defs/rules``): the fields of
    :class:`kow.rules.Rules`, as :meth:`~kow.rules.Rules.to_dict` gives them."""

    players: int
    start_cards: int
    dogs_life: DogsLife
    trump: TrumpRule
    final_round_trump: bool
    lead: LeadRule
    eliminated_vote: bool
    sweep_wins: bool


class SettingsLog(TypedDict):
    """A searching bot's settings (``$defs/player/properties/settings``, since 0.5.0):
    its ``iterations`` per decision (a ``search`` bot's deals)."""

    iterations: int


class _PlayerKeys(TypedDict):
    seat: Seat
    name: str
    kind: str


class PlayerLog(_PlayerKeys, total=False):
    """One seat's player (``$defs/player``): its ``seat``, ``name`` as shown on screen,
    ``kind`` (a bot kind, ``"agent"`` or ``"human"``) and, for a searching bot, the
    ``settings`` it played with (``{"iterations": 100}``)."""

    settings: SettingsLog


class _PlaySeat(TypedDict):
    seat: Seat


class PlayLog(_PlaySeat, total=False):
    """One play of a trick (``$defs/play``): ``{seat, card}``, or ``{seat, knock: True}``
    for a player on a dog's life who passes; never both. Read the card with
    ``play.get("card")`` (None: a knock)."""

    card: str
    knock: Literal[True]


class TrickLog(TypedDict):
    """One trick (``$defs/trick``): its ``number`` from 1 in the round, who acts first,
    the ``plays`` in turn order, and who took it (None only for a trick cut short)."""

    number: int
    leader: Seat
    plays: list[PlayLog]
    winner: Seat | None


class CutCardLog(TypedDict):
    """One tied player's card in a tie-cutting pass (``$defs/cut_card``)."""

    seat: Seat
    card: str


class VoteLog(TypedDict):
    """One knocked-out player's vote for trump (``$defs/vote``): a suit letter."""

    seat: Seat
    suit: str


class CutLog(TypedDict):
    """The cut before a deal (a round's ``cut``): ``by`` the seat to the dealer's right,
    at ``position`` 1..51 cards from the top."""

    by: Seat
    position: int


class RoundLog(TypedDict):
    """One round, a deal and its tricks (``$defs/round``).

    ``hands`` and ``tricks_won`` are indexed by seat, ``None`` for a seat not in the
    round; ``trump``, ``trump_method`` and ``leader`` are None only in a round cut short
    before trump was set (``trump`` is None too under ``trump_method`` ``"none"``);
    ``tie_cut`` holds the passes of a tie cut, each a list of cards, or None; ``votes``
    is None unless the rules let knocked-out players vote; ``tricks_won`` is None until
    the round ends.
    """

    number: int
    hand_size: int
    dealer: Seat
    cut: CutLog
    hands: list[list[str] | None]
    turned_up: str | None
    trump: str | None
    trump_method: TrumpMethod | None
    trump_chosen_by: Seat | None
    tie_cut: list[list[CutCardLog]] | None
    votes: list[VoteLog] | None
    leader: Seat | None
    dogs_life: list[Seat]
    tricks: list[TrickLog]
    tricks_won: list[int | None] | None
    eliminated: list[Seat]
    dogs_life_granted: list[Seat]
    revived: list[Seat]


TerminationValue = Literal["last-standing", "sweep", "final-trick"]
"""Why a game ended, as the log writes it: the values of :class:`kow.events.Termination`."""


class _ResultKeys(TypedDict):
    winner: Seat | None
    rounds_played: int


class ResultLog(_ResultKeys, total=False):
    """The game's result: the ``winner`` (None in a game cut short), why the game ended
    (``termination``; None in a game cut short) and the number of rounds played.

    ``termination`` is the engine's :attr:`Outcome.termination
    <kow.events.Outcome.termination>`; kow writes it since 0.6.0, and a
    log without it is still a log: read it with ``result.get("termination")``.
    """

    termination: TerminationValue | None


class _GameKeys(TypedDict):
    format: Literal["kow-log"]
    version: Literal[1]
    kow_version: str
    seed: int | None
    rules: RulesLog
    players: list[PlayerLog]
    rounds: list[RoundLog]
    result: ResultLog


class GameLog(_GameKeys, total=False):
    """One game's log, version 1 (the schema itself).

    ``format`` ``"kow-log"``, ``version`` 1, the ``kow_version`` that wrote it, the
    ``seed`` that replays it (None: the deals came from outside kow), the ``rules``, the
    ``players`` in seat order, the ``rounds`` in order and the ``result``; ``abandoned``,
    ``True``, only in a game cut short (read it with ``game.get("abandoned", False)``).
    """

    abandoned: Literal[True]
