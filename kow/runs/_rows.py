"""The walk of a game's events into the rows of ``kow export``'s tables, and the rows'
CSV cells, compiled.

:func:`walk` reads a replayed game's events once, in order, dispatching on each event's
type, and makes the rows of the ``rounds``, ``tricks`` and ``plays`` tables positionally,
in the order of their columns (:data:`kow.runs.export.COLUMNS`, which names them;
``tests/runs/test_export.py`` checks each row against its columns by name), and the facts
the ``games`` row needs of the events. :func:`rows_text` writes those rows as CSV lines
(their cells are the engine's: ints, booleans and kow's own notation, which CSV writes as
they are); :mod:`kow.runs.export` makes the ``games`` row, and the csv module writes it,
the rows' key cells and any other row, from the cells of :func:`csv_cells`. Compiled
by mypyc (``setup.py``): it runs for every event and every cell of every game exported,
where a Python :class:`~kow.events.EventVisitor` cost about a third of ``kow export
--table all`` and the cells made in Python a sixth.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, cast

from ..cards import NAMES, NO_CARD, NO_SUIT, SUIT_OF, SUITS
from ..engine.trick import beats
from ..events import Deal, GameEnd, Knock, Lead, Play, RoundEnd, TrickWon, TrumpSet, TurnedUp
from ..rules import MAX_PLAYERS

__all__ = ["Walked", "csv_cells", "rows_text", "walk"]

# The events' classes as C statics: compiled code reads a module's global names from its
# dict, at every use.
_PLAY: Final = Play
_KNOCK: Final = Knock
_TRICK_WON: Final = TrickWon
_DEAL: Final = Deal
_TURNED_UP: Final = TurnedUp
_TRUMP_SET: Final = TrumpSet
_LEAD: Final = Lead
_ROUND_END: Final = RoundEnd
_GAME_END: Final = GameEnd
_SEATS: Final = MAX_PLAYERS
# The cards' tables likewise (another module's names are read from this one's dict).
_NAMES: Final = NAMES
_SUITS: Final = SUITS
_SUIT_OF: Final = SUIT_OF

_Row = tuple[str | int | bool | None, ...]
"""A row (:data:`kow.runs.export.Row`)."""


class Walked:
    """What :func:`walk` read of a game's events.

    ``rounds``, ``tricks``, ``plays``: the rows of each table (empty for a table not asked
    for), each a tuple in its columns' order, the key columns (``file``, ``game``, ``seed``)
    first; ``tricks_text``, ``plays_text``: with ``text_key`` (the CSV text of the key
    cells), those tables' rows as their CSV lines instead (:func:`rows_text` of them, in
    pieces to join; ``tricks`` and ``plays`` are then empty), else None;
    ``eliminated_round[seat]`` and ``dogs_life_round[seat]``: the round in which the seat
    was knocked out, or first played on a dog's life (None: never), one per seat of the
    game; ``end``: the game's end (its ``outcome``), or None for a game cut short.
    """

    def __init__(self, players: int, text_key: str | None = None) -> None:
        self.rounds: list[_Row] = []
        self.tricks: list[_Row] = []
        self.plays: list[_Row] = []
        self.tricks_text: list[str] | None = None if text_key is None else []
        self.plays_text: list[str] | None = None if text_key is None else []
        self.text_key = text_key
        self.eliminated_round: list[int | None] = [None] * players
        self.dogs_life_round: list[int | None] = [None] * players
        self.end: GameEnd | None = None


class _Round:
    """The round in progress: its deal and what has been set since."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.turned_up: str | None = None
        self.trump_set: TrumpSet | None = None
        self.trump: int = NO_SUIT
        self.leader: int | None = None
        self.trick = 1  # the number of the trick in progress


class _Trick:
    """The trick in progress: who played or knocked, in turn (``seats``), each one's card
    (NO_CARD for a knock), whether it led the trick and whether it was winning it once
    played; ``winning``: the card winning it so far (NO_CARD: none yet)."""

    def __init__(self) -> None:
        self.seats: list[int] = []
        self.cards: list[int] = []
        self.leads: list[bool] = []
        self.winnings: list[bool] = []
        self.winning = NO_CARD


def walk(
    events: Sequence[object],
    led: int,
    *,
    key: tuple[str, int, int | None],
    players: int,
    tables: tuple[bool, bool, bool],
    text_key: str | None = None,
) -> Walked:
    """Return the rows of a game's ``events`` (a replayed :class:`~kow.engine.State`'s).

    ``led``: the led suit of the trick in progress when the game stopped (the engine's
    :attr:`State.led <kow.engine.State.led>`; NO_SUIT when none is), for a game cut short;
    ``key``: the key columns ``(file, game, seed)``; ``players``: the game's seats;
    ``tables``: whether to make the rows of ``rounds``, ``tricks`` and ``plays``;
    ``text_key``: the CSV text of the key cells, to make the ``tricks`` and ``plays`` rows
    as their CSV lines (:attr:`Walked.tricks_text`, :attr:`Walked.plays_text`: the most
    numerous rows, written as they are made).

    Who won a trick, with which card, and its led suit are the engine's (a trick cut short
    takes ``led``); whether a card was winning the trick once played is
    :func:`kow.engine.trick.beats`; followed suit and trumped are read off the card's suit,
    the trick's led suit and trump (neither for the lead, nor for a knock).
    """
    out = Walked(players, text_key)
    rnd: _Round | None = None
    trick = _Trick()
    for event in events:
        kind = type(event)
        if kind is _PLAY:
            play = cast(Play, event)
            card = play.card
            assert rnd is not None
            lead = trick.winning == NO_CARD  # the first card leads (after any knock)
            wins = lead or beats(card, trick.winning, rnd.trump)  # the one statement of the rule
            if wins:
                trick.winning = card
            trick.seats.append(play.seat)
            trick.cards.append(card)
            trick.leads.append(lead)
            trick.winnings.append(wins)
        elif kind is _TRICK_WON:
            assert rnd is not None
            won = cast(TrickWon, event)
            _trick_rows(out, rnd, trick, key=key, tables=tables, led=won.led,
                        winner=won.winner, card=won.card)  # fmt: skip
            trick = _Trick()
        elif kind is _KNOCK:
            trick.seats.append(cast(Knock, event).seat)
            trick.cards.append(NO_CARD)
            trick.leads.append(False)
            trick.winnings.append(False)
        elif kind is _DEAL:
            deal = cast(Deal, event)
            rnd = _Round(deal)
            for seat in deal.dogs_life:
                if out.dogs_life_round[seat] is None:
                    out.dogs_life_round[seat] = deal.round
        elif kind is _LEAD:
            assert rnd is not None
            rnd.leader = cast(Lead, event).seat
        elif kind is _TRUMP_SET:
            assert rnd is not None
            trump_set = cast(TrumpSet, event)
            rnd.trump_set = trump_set
            suit = trump_set.suit
            rnd.trump = NO_SUIT if suit is None else suit
        elif kind is _TURNED_UP:
            assert rnd is not None
            rnd.turned_up = _NAMES[cast(TurnedUp, event).card]
        elif kind is _ROUND_END:
            assert rnd is not None
            end = cast(RoundEnd, event)
            for seat in end.eliminated:
                out.eliminated_round[seat] = rnd.deal.round
            if tables[0]:
                out.rounds.append(_round_row(rnd, end, key=key, players=players))
            rnd = None
        elif kind is _GAME_END:
            out.end = cast(GameEnd, event)
    if trick.seats:  # a trick cut short
        assert rnd is not None
        _trick_rows(out, rnd, trick, key=key, tables=tables, led=led, winner=-1, card=NO_CARD)
    if rnd is not None and tables[0]:  # a round cut short
        out.rounds.append(_round_row(rnd, None, key=key, players=players))
    return out


def _trick_rows(
    out: Walked,
    rnd: _Round,
    done: _Trick,
    *,
    key: tuple[str, int, int | None],
    tables: tuple[bool, bool, bool],
    led: int,
    winner: int,
    card: int,
) -> None:
    """Keep a trick's rows: ``led`` is its led suit (NO_SUIT: no card played); ``winner``
    and its winning ``card`` are -1 and NO_CARD for a trick cut short."""
    file, game, seed = key
    seats, cards, leads = done.seats, done.cards, done.leads
    number = rnd.deal.round
    trick = rnd.trick
    rnd.trick = trick + 1
    trump = rnd.trump
    won = None if winner < 0 else winner
    if tables[1]:
        knocks = 0
        trumped = False
        for place in range(len(seats)):
            played = cards[place]
            if played == NO_CARD:
                knocks += 1
            elif not leads[place]:
                if _trumped(_SUIT_OF[played], trump, led):
                    trumped = True
        text = out.tricks_text
        if text is None:
            out.tricks.append((
                file, game, seed, number, trick, seats[0],
                None if led == NO_SUIT else _SUITS[led],  # led_suit
                len(seats) - knocks, knocks,  # cards, knocks
                None if card == NO_CARD else _NAMES[card],  # winning_card
                won, trumped,
            ))  # fmt: skip
        else:  # the same cells as their CSV text, as rows_text writes the row above
            text.append(cast(str, out.text_key))
            text.append(_int_cell(number))
            text.append(_int_cell(trick))
            text.append(_int_cell(seats[0]))
            text.append("," if led == NO_SUIT else _SUIT_CELL[led])
            text.append(_int_cell(len(seats) - knocks))
            text.append(_int_cell(knocks))
            text.append("," if card == NO_CARD else _CARD_CELL[card])
            text.append("," if won is None else _int_cell(won))
            text.append(_LAST_CELL[trumped])
    if tables[2]:
        plays = out.plays
        text = out.plays_text
        for place in range(len(seats)):
            played = cards[place]
            seat = seats[place]
            lead = leads[place]
            knock = played == NO_CARD
            suit = NO_SUIT if knock or lead else _SUIT_OF[played]
            followed = suit == led and led != NO_SUIT
            trumped = _trumped(suit, trump, led)
            winning = done.winnings[place]
            if text is None:
                plays.append((
                    file, game, seed, number, trick, place + 1, seat, knock,
                    None if knock else _NAMES[played],  # card
                    lead, followed, trumped, winning,
                    None if winner < 0 else seat == winner,  # won
                ))  # fmt: skip
                continue
            # The same cells as their CSV text, as rows_text writes the row above.
            text.append(cast(str, out.text_key))
            text.append(_int_cell(number))
            text.append(_int_cell(trick))
            text.append(_int_cell(place + 1))
            text.append(_int_cell(seat))
            text.append(_AFTER_TRUE if knock else _AFTER_FALSE)
            text.append("," if knock else _CARD_CELL[played])
            text.append(_FLAGS_CELLS[8 * lead + 4 * followed + 2 * trumped + winning])
            if winner < 0:
                text.append(",\n")
            else:
                text.append(_LAST_CELL[seat == winner])


def _trumped(suit: int, trump: int, led: int) -> bool:
    """Return whether a card of ``suit`` played to a trick led in ``led`` trumps it: a
    trump, on a trick not led in trumps (``suit`` :data:`NO_SUIT`: a knock or the lead,
    which trump nothing)."""
    return suit != NO_SUIT and suit == trump and trump != led


def _round_row(
    rnd: _Round, end: RoundEnd | None, *, key: tuple[str, int, int | None], players: int
) -> _Row:
    """Return the round's row; ``end`` is None for a round cut short."""
    deal = rnd.deal
    trump = rnd.trump_set
    hands: list[str | int | bool | None] = [None] * _SEATS
    on_dogs_life: list[str | int | bool | None] = [None] * _SEATS
    tricks_won: list[str | int | bool | None] = [None] * _SEATS
    eliminated: list[str | int | bool | None] = [None] * _SEATS
    granted: list[str | int | bool | None] = [None] * _SEATS
    revived: list[str | int | bool | None] = [None] * _SEATS
    players_in = 0
    for seat in range(players):
        hand = deal.hands[seat]
        if hand is not None:
            players_in += 1
            hands[seat] = " ".join([_NAMES[card] for card in hand])
        on_dogs_life[seat] = seat in deal.dogs_life
        if end is not None:
            tricks_won[seat] = end.tricks_won[seat]
            eliminated[seat] = seat in end.eliminated
            granted[seat] = seat in end.dogs_life_granted
            revived[seat] = seat in end.revived
    suit = None if trump is None else trump.suit
    return (
        key[0], key[1], key[2], deal.round, deal.hand_size, deal.dealer, players_in,
        rnd.turned_up,
        None if suit is None else _SUITS[suit],  # trump
        None if trump is None else trump.method,  # trump_method
        None if trump is None else trump.chosen_by,  # trump_chosen_by
        rnd.leader,
        *hands, *tricks_won, *on_dogs_life, *eliminated, *granted, *revived,
    )  # fmt: skip


_TEXT: Final = ("false", "true")
"""The CSV cell of each boolean (:func:`csv_cells`)."""


def csv_cells(
    rows: Iterable[_Row], formula_starts: tuple[str, ...] | None, *, ints_as_text: bool = False
) -> list[list[str | int]]:
    """Return each of ``rows`` as its CSV cells (:func:`kow.runs.export.cells`, which
    documents them): booleans ``true`` / ``false``, None empty, ints and text as they are;
    with ``formula_starts``, a text cell that begins with one of them is prefixed with
    ``'``. ``ints_as_text``: each int as its decimal text, which is what the csv module
    writes of it (small ones from a table, made once). The csv module writes the cells."""
    out: list[list[str | int]] = []
    for row in rows:
        made: list[str | int] = []
        for value in row:
            if value is None:
                made.append("")
            elif value is True:
                made.append(_TEXT[1])
            elif value is False:
                made.append(_TEXT[0])
            elif isinstance(value, str):
                if formula_starts is not None and value.startswith(formula_starts):
                    made.append("'" + value)
                else:
                    made.append(value)
            elif ints_as_text and isinstance(value, int):
                made.append(_INT_TEXT[value] if 0 <= value < 64 else str(value))
            else:
                made.append(value)
        out.append(made)
    return out


_INT_TEXT: Final = tuple(str(i) for i in range(64))
"""The decimal text of each int below 64 (seats, rounds, tricks, plays, cards)."""


def rows_text(rows: Sequence[tuple[object, ...]], key: str) -> str:
    """Return :func:`walk`'s rows of one table as CSV lines, each ended by ``\\n``.

    ``key`` is the CSV text of the rows' key cells (``file``, ``game``, ``seed``: the same
    in every row of a game), as the csv module writes them (quoted where CSV needs it,
    made spreadsheet-safe when asked: :func:`kow.runs.export.tables_text`); each row's key
    cells are not read. Its other cells are the engine's: ints, booleans, None, and text
    of kow's own notation (cards, suits, hands of cards joined by spaces, the trump's
    method), which never holds a comma, a quote or a line break nor begins as a formula
    does, so the csv module would write each as it is: this joins them as it would, a
    table's text in one join (``tests/runs/test_export.py`` compares the two on every
    variant's games)."""
    parts: list[str] = []  # one join of the table: each cell's text after its comma
    for row in rows:
        parts.append(key)
        for place in range(3, len(row)):
            value = row[place]  # an object: no check of the row's union type cell by cell
            if value is None:
                parts.append(",")
            elif value is True:
                parts.append(_AFTER_TRUE)
            elif value is False:
                parts.append(_AFTER_FALSE)
            elif isinstance(value, str):
                after = _CARD_AFTER_COMMA.get(value)  # a card or suit, or other text
                parts.append("," + value if after is None else after)
            else:
                parts.append(_int_cell(cast(int, value)))
        parts.append("\n")
    return "".join(parts)


_AFTER_FALSE: Final = "," + _TEXT[0]
_AFTER_TRUE: Final = "," + _TEXT[1]
"""Each boolean's CSV cell after its comma (:func:`rows_text`)."""
_FLAGS_CELLS: Final = tuple(
    "".join("," + _TEXT[(flags >> bit) & 1] for bit in (3, 2, 1, 0)) for flags in range(16)
)
"""The cells of four booleans in a row, after their commas, by ``8 * a + 4 * b + 2 * c +
d`` (a play's ``lead``, ``followed_suit``, ``trumped`` and ``winning``)."""
_LAST_CELL: Final = ("," + _TEXT[0] + "\n", "," + _TEXT[1] + "\n")
"""A boolean as a row's last cell (a play's ``won``, a trick's ``trumped``) and the
line's end."""
_CARD_CELL: Final = tuple("," + name for name in NAMES)
"""Each card's CSV cell after its comma, by the card."""
_SUIT_CELL: Final = tuple("," + suit for suit in SUITS)
"""Each suit's CSV cell after its comma, by the suit."""


def _int_cell(value: int) -> str:
    """Return an int's CSV cell after its comma, as :func:`rows_text` writes it."""
    return _INT_AFTER_COMMA[value] if 0 <= value < 64 else "," + str(value)


_INT_AFTER_COMMA: Final = tuple("," + text for text in _INT_TEXT)
"""Each int below 64's CSV cell after its comma (:func:`rows_text`)."""
_CARD_AFTER_COMMA: Final = {text: "," + text for text in (*NAMES, *SUITS)}
"""Each card's and suit's CSV cell after its comma (:func:`rows_text`): most of the text
cells (a table's look-up, not a new string each)."""
