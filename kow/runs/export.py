"""Flat tables of logged games: one row per game, round, trick or play (``kow export``).

Each table is a fixed tuple of columns (:data:`COLUMNS`), the same whatever the input, so
the tables of many files stack and join. ``docs/tables.md`` documents every column. In
short: every row starts with the keys ``file``, ``game`` (the game's place in its file,
from 1) and ``seed`` (empty for a log whose seed is null: its deals came from outside
kow); rounds add ``round``, tricks ``trick``, plays ``play`` (each from 1). Seats are
ints, 0-based and clockwise; cards and suits are in the log's notation (``Th``, ``h``). A
fact that is a list by seat takes one column per seat, ``NAME_0`` to ``NAME_6`` (kow
seats at most 7), empty for a seat the game does not have.

The facts come from the engine, not from a second statement of the rules: each game is
replayed through the engine, and its rows are read off the engine's events. A game whose
log is, byte for byte, what kow writes of the engine's game is legal
(:func:`kow.log.replay_exact`); any other is checked with :func:`kow.verify.verify_game`
(its fault, if any, is the error) and replayed with :func:`kow.log.replay_game`. Who won
a trick, with which card, its led suit and why a game ended are the engine's (a trick cut
short by an abandoned game takes its led suit from the engine's state); whether a card was
winning the trick once played is :func:`kow.engine.trick.beats`. Followed suit and trumped
are read off the card's suit, the trick's led suit and trump.

:mod:`kow.runs.export_loop` is ``kow export``'s loop over a log reader's records.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple, TypeAlias, TypedDict

from ..cards import NAMES, NO_CARD, NO_SUIT, SUIT_OF, SUITS, Card, Suit
from ..engine.trick import beats
from ..events import (
    Deal,
    EventVisitor,
    GameEnd,
    Knock,
    Lead,
    Outcome,
    Play,
    RoundEnd,
    Seat,
    TrickWon,
    TrumpSet,
    TurnedUp,
)
from ..log import GameLog, replay_exact, replay_game, rules_to_log
from ..rules import MAX_PLAYERS, Rules
from ..verify import Fault, verify_game

__all__ = [
    "COLUMNS",
    "FORMULA_STARTS",
    "TABLES",
    "TYPES",
    "Cell",
    "IllegalGameError",
    "PlayRow",
    "Row",
    "TrickRow",
    "cells",
    "csv_text",
    "rows",
    "tables_rows",
]

Cell: TypeAlias = str | int | bool | None
"""One value of a row: ``None`` is an empty cell."""
Row: TypeAlias = tuple[Cell, ...]
"""One row, its values in the order of its table's :data:`COLUMNS`."""

TABLES = ("games", "rounds", "tricks", "plays")
"""The tables, coarsest first."""


def _per_seat(name: str) -> tuple[str, ...]:
    """Return the columns of a fact by seat: ``NAME_0`` to ``NAME_6``."""
    found = _SEAT_COLUMNS.get(name)
    if found is None:
        found = _SEAT_COLUMNS[name] = tuple(f"{name}_{seat}" for seat in range(MAX_PLAYERS))
    return found


_SEAT_COLUMNS: dict[str, tuple[str, ...]] = {}
"""The columns of each fact by seat, made once (:func:`_per_seat`)."""


_KEYS = {"file": str, "game": int, "seed": int}
"""The key columns every row starts with, and their types."""


class _GameKey(TypedDict):
    """The key columns every row starts with, in order (:data:`_KEYS`): where the game
    was read. The named rows take them by ``**``; :func:`_row` puts them first."""

    file: str
    game: int
    seed: int | None


_RULE_TYPES = {name: type(value) for name, value in rules_to_log(Rules()).items()}
_RULES = tuple(_RULE_TYPES)
"""The log's rule settings, in field order: the columns ``rules_NAME``."""
_ROUND_END = ("eliminated", "dogs_life_granted", "revived")


def _seats(name: str, kind: type) -> dict[str, type]:
    """Return the columns of a fact by seat, ``NAME_0`` to ``NAME_6``, each of type ``kind``."""
    return dict.fromkeys(_per_seat(name), kind)


TYPES: dict[str, dict[str, type]] = {
    "games": {
        **_KEYS, "kow_version": str, **{f"rules_{n}": t for n, t in _RULE_TYPES.items()},
        "winner": int, "termination": str, "rounds_played": int, "abandoned": bool,
        **_seats("name", str), **_seats("kind", str),
        **_seats("eliminated_round", int), **_seats("dogs_life_round", int),
    },
    "rounds": {
        **_KEYS, "round": int, "hand_size": int, "dealer": int, "players_in": int,
        "turned_up": str, "trump": str, "trump_method": str, "trump_chosen_by": int,
        "leader": int,
        **_seats("hand", str), **_seats("tricks_won", int), **_seats("dogs_life", bool),
        **{column: bool for fact in _ROUND_END for column in _per_seat(fact)},
    },
    "tricks": {
        **_KEYS, "round": int, "trick": int, "leader": int, "led_suit": str, "cards": int,
        "knocks": int, "winning_card": str, "winner": int, "trumped": bool,
    },
    "plays": {
        **_KEYS, "round": int, "trick": int, "play": int, "seat": int, "knock": bool,
        "card": str, "lead": bool, "followed_suit": bool, "trumped": bool, "winning": bool,
        "won": bool,
    },
}  # fmt: skip
"""The type of every column of each table, in column order: ``int`` (seats included),
``bool`` or ``str``, whatever the input. An empty cell is a missing value of the column's
type. Read the CSV with these types rather than letting a reader guess them: a column
empty in every row (``hand_6`` of 4-player games) would be guessed as text or as ints.
``docs/tables.md`` turns them into pandas dtypes and DuckDB types."""

COLUMNS: dict[str, tuple[str, ...]] = {table: tuple(types) for table, types in TYPES.items()}
"""The columns of each table, in order (``docs/tables.md`` says what each holds)."""


class IllegalGameError(ValueError):
    """Raised for a log that is not a legal game: ``fault`` is its first fault.

    ``fault`` is the :class:`kow.verify.Fault` that :func:`kow.verify.verify_game` found
    (its ``round``, ``trick`` and ``seat`` place it).
    """

    def __init__(self, fault: Fault) -> None:
        super().__init__(str(fault))
        self.fault = fault


def rows(game: GameLog, table: str, *, file: str, index: int) -> list[Row]:
    """Return the rows of one logged game in ``table``, in the order played.

    ``game`` is a parsed version-1 log (``docs/log-format.md``); ``file`` and ``index``
    (from 1) say where it was read, for the key columns ``file`` and ``game``. Each row
    holds the values of ``COLUMNS[table]``: str, int, bool, or None (empty).

    Raises :class:`ValueError` for a ``table`` not in :data:`TABLES`,
    :class:`IllegalGameError` for a game that :func:`kow.verify.verify_game` faults, and
    :class:`kow.log.ReplayError` when the engine does not replay a game the verifier
    passed (a fault of kow's: the two statements of the rules disagree).
    """
    return tables_rows(game, (table,), file=file, index=index)[table]


def tables_rows(
    game: GameLog, tables: Sequence[str], *, file: str, index: int, text: str | None = None
) -> dict[str, list[Row]]:
    """Return the rows of one logged game in each of ``tables``, checking it once.

    The game is replayed once, and one walk of its events feeds every table asked for:
    what :func:`rows` gives for each table, table by table, at the cost of one. The result
    maps each of ``tables`` (in the order given) to its rows, in the order played.
    ``game``, ``file`` and ``index`` are as :func:`rows` takes them; ``text``, when given,
    is the game's compact text (:attr:`kow.log.GameRecord.text`): a game whose replay
    writes that text again is proved legal by it (:func:`kow.log.replay_exact`) and is not
    verified; any other is verified first, as without ``text``. Raises what :func:`rows`
    raises, the same for a game with its text or without.
    """
    for table in tables:
        if table not in COLUMNS:
            raise ValueError(f"no table {table!r}: the tables are {', '.join(TABLES)}")
    state = None if text is None else replay_exact(game, text)
    if state is None:  # not proved legal by the replay: the oracle names any fault
        fault = verify_game(game)
        if fault is not None:
            raise IllegalGameError(fault)
        state = replay_game(game, text=text)
    walk = _Walk(tables, game, _GameKey(file=file, game=index, seed=game["seed"]))
    walk.visit(state.events)
    return walk.finish(state.led)


def csv_text(rows: Iterable[Row], *, spreadsheet_safe: bool = False) -> str:
    """Return ``rows`` as CSV lines, each ended by ``\\n``, their cells as :func:`cells`
    writes them (quoted where CSV needs it), by the csv module.

    >>> csv_text([("a,b", 1, None, True), ("Th", 2, None, False)])
    '"a,b",1,,true\\nTh,2,,false\\n'
    """
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(
        cells(row, spreadsheet_safe=spreadsheet_safe) for row in rows
    )
    return out.getvalue()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a cell that Excel or LibreOffice reads as a formula begins with (OWASP, "CSV
Injection"): a player's name or a file's can."""


def cells(row: Row, *, spreadsheet_safe: bool = False) -> list[str | int]:
    """Return ``row`` as CSV cells: booleans ``true`` / ``false``, None empty.

    ``spreadsheet_safe``: a text cell that begins with one of :data:`FORMULA_STARTS` is
    prefixed with ``'``, so that a spreadsheet shows it as text instead of running it as
    a formula; numbers are never changed. Off by default: the data stay as logged, for
    pandas and DuckDB.

    >>> cells(("g.jsonl", 1, None, True, False, "Th"))
    ['g.jsonl', 1, '', 'true', 'false', 'Th']
    >>> cells(("=cmd|'/c calc'!A1", 7, "-Ada", "Ben"), spreadsheet_safe=True)
    ["'=cmd|'/c calc'!A1", 7, "'-Ada", 'Ben']
    """
    if not spreadsheet_safe:
        return [
            _TEXT[value] if value is None or value.__class__ is bool else value for value in row
        ]
    out: list[str | int] = []
    for value in row:
        if value is None or value.__class__ is bool:
            out.append(_TEXT[value])
        elif isinstance(value, str) and value.startswith(FORMULA_STARTS):
            out.append("'" + value)
        else:
            out.append(value)
    return out


_TEXT: dict[bool | None, str] = {None: "", True: "true", False: "false"}
"""The CSV cell of an empty value and of each boolean (:func:`cells`)."""


class TrickRow(NamedTuple):
    """A row of the ``tricks`` table: its fields are ``COLUMNS["tricks"]``, in order."""

    file: str
    game: int
    seed: int | None
    round: int
    trick: int
    leader: Seat
    led_suit: str | None
    cards: int
    knocks: int
    winning_card: str | None
    winner: Seat | None
    trumped: bool


class PlayRow(NamedTuple):
    """A row of the ``plays`` table: its fields are ``COLUMNS["plays"]``, in order."""

    file: str
    game: int
    seed: int | None
    round: int
    trick: int
    play: int
    seat: Seat
    knock: bool
    card: str | None
    lead: bool
    followed_suit: bool
    trumped: bool
    winning: bool
    won: bool | None


def _row(table: str, key: _GameKey, values: Mapping[str, Cell]) -> Row:
    """Return the row of ``table`` (``games`` or ``rounds``, whose columns by seat make a
    named row type long): the key columns from ``key``, then the cells ``values`` (column
    name to value) in the order of :data:`COLUMNS`, so that no column can be swapped
    silently. Raises :class:`KeyError` naming the columns missing or not of the table."""
    columns = COLUMNS[table][len(_KEYS) :]
    if len(values) != len(columns) or values.keys() != set(columns):
        missing = sorted(set(columns) - values.keys())
        extra = sorted(values.keys() - set(columns))
        raise KeyError(f"the {table} table: columns missing {missing}, not its own {extra}")
    return (key["file"], key["game"], key["seed"], *[values[column] for column in columns])


class _Played(NamedTuple):
    """One play of the trick in progress: whether it was the lead (the trick's first
    card) and winning the trick when it was played."""

    seat: Seat
    card: Card | None  # None: a knock
    lead: bool
    winning: bool


class _Walk(EventVisitor):
    """Walk one game's events and keep the rows of each of ``tables``."""

    def __init__(self, tables: Sequence[str], game: GameLog, keys: _GameKey) -> None:
        self.game = game
        self.keys = keys
        self.players: int = game["rules"]["players"]
        self.out: dict[str, list[Row]] = {table: [] for table in tables}
        self.deal: Deal | None = None  # the round in progress: None once it has ended
        self.turned_up: Card | None = None
        self.trump_set: TrumpSet | None = None
        self.leader: Seat | None = None
        self.trump: Suit = NO_SUIT
        self.trick = 0  # the number of the trick in progress
        self.played: list[_Played] = []
        self.winning: Card = NO_CARD  # the card winning the trick in progress so far
        self.eliminated_round: list[int | None] = [None] * self.players
        self.dogs_life_round: list[int | None] = [None] * self.players
        self.outcome: Outcome | None = None

    def _by_seat(self, name: str, values: Sequence[Cell]) -> dict[str, Cell]:
        """Return the columns ``NAME_0`` to ``NAME_6`` of ``values`` (one per seat of the
        game), None past the game's seats."""
        padded = [*values, *[None] * (MAX_PLAYERS - len(values))]
        return dict(zip(_per_seat(name), padded, strict=True))

    # ----------------------------------------------------------------- events

    def on_deal(self, event: Deal) -> None:
        self.deal = event
        self.turned_up = None
        self.trump_set = None
        self.leader = None
        self.trump = NO_SUIT
        self.trick = 1
        for seat in event.dogs_life:
            if self.dogs_life_round[seat] is None:
                self.dogs_life_round[seat] = event.round

    def on_turned_up(self, event: TurnedUp) -> None:
        self.turned_up = event.card

    def on_trump_set(self, event: TrumpSet) -> None:
        self.trump_set = event
        self.trump = NO_SUIT if event.suit is None else event.suit

    def on_lead(self, event: Lead) -> None:
        self.leader = event.seat

    def on_play(self, event: Play) -> None:
        card = event.card
        lead = self.winning == NO_CARD  # the first card leads (after any knock)
        winning = lead or beats(card, self.winning, self.trump)  # the one statement of the rule
        if winning:
            self.winning = card
        self.played.append(_Played(event.seat, card, lead, winning))

    def on_knock(self, event: Knock) -> None:
        self.played.append(_Played(event.seat, None, False, False))

    def on_trick_won(self, event: TrickWon) -> None:
        self._end_trick(event.led, event)

    def on_round_end(self, event: RoundEnd) -> None:
        assert self.deal is not None
        for seat in event.eliminated:
            self.eliminated_round[seat] = self.deal.round
        self._end_round(event)

    def on_game_end(self, event: GameEnd) -> None:
        self.outcome = event.outcome

    # ----------------------------------------------------------------- rows

    def _end_trick(self, led: Suit, end: TrickWon | None) -> None:
        """Keep the trick's rows: ``led`` is its led suit (NO_SUIT: no card played);
        ``end`` is None for a trick cut short."""
        assert self.deal is not None
        number, trick = self.deal.round, self.trick
        played = self.played
        trump = self.trump
        winner = None if end is None else end.winner
        file, game, seed = self.keys["file"], self.keys["game"], self.keys["seed"]
        # By play: followed suit, trumped (a trump on another led suit); the lead does neither.
        followed: list[bool] = []
        trumped: list[bool] = []
        for p in played:
            suit = NO_SUIT if p.card is None or p.lead else SUIT_OF[p.card]
            followed.append(suit == led != NO_SUIT)
            trumped.append(suit == trump != led and suit != NO_SUIT)
        if "tricks" in self.out:
            knocks = sum(p.card is None for p in played)
            self.out["tricks"].append(
                TrickRow(
                    file,
                    game,
                    seed,
                    number,
                    trick,
                    played[0].seat,  # leader
                    None if led == NO_SUIT else SUITS[led],  # led_suit
                    len(played) - knocks,  # cards
                    knocks,
                    None if end is None else NAMES[end.card],  # winning_card
                    winner,
                    any(trumped),
                )
            )
        if "plays" in self.out:
            add = self.out["plays"].append
            for place, p in enumerate(played, start=1):
                add(
                    PlayRow(
                        file,
                        game,
                        seed,
                        number,
                        trick,
                        place,  # play
                        p.seat,
                        p.card is None,  # knock
                        None if p.card is None else NAMES[p.card],  # card
                        p.lead,
                        followed[place - 1],  # followed_suit
                        trumped[place - 1],
                        p.winning,
                        None if winner is None else p.seat == winner,  # won
                    )
                )
        self.trick += 1
        self.played = []
        self.winning = NO_CARD

    def _end_round(self, end: RoundEnd | None) -> None:
        """Keep the round's row; ``end`` is None for a round cut short."""
        deal = self.deal
        assert deal is not None
        self.deal = None
        if "rounds" not in self.out:
            return
        seats = range(self.players)
        trump = self.trump_set
        in_round = [hand is not None for hand in deal.hands]
        hands = [None if h is None else " ".join(NAMES[c] for c in h) for h in deal.hands]
        on_dogs_life = [seat in deal.dogs_life for seat in seats]
        if end is None:
            tricks: list[Cell] = [None] * self.players
            ends: list[list[Cell]] = [[None] * self.players for _ in _ROUND_END]
        else:
            tricks = list(end.tricks_won)
            ends = [
                [seat in chosen for seat in seats]
                for chosen in (end.eliminated, end.dogs_life_granted, end.revived)
            ]
        self.out["rounds"].append(_row("rounds", self.keys, {
            "round": deal.round,
            "hand_size": deal.hand_size,
            "dealer": deal.dealer,
            "players_in": sum(in_round),
            "turned_up": None if self.turned_up is None else NAMES[self.turned_up],
            "trump": None if trump is None or trump.suit is None else SUITS[trump.suit],
            "trump_method": None if trump is None else trump.method,
            "trump_chosen_by": None if trump is None else trump.chosen_by,
            "leader": self.leader,
            **self._by_seat("hand", hands),
            **self._by_seat("tricks_won", tricks),
            **self._by_seat("dogs_life", on_dogs_life),
            **{
                column: cell
                for fact, values in zip(_ROUND_END, ends, strict=True)
                for column, cell in self._by_seat(fact, values).items()
            },
        }))  # fmt: skip

    def finish(self, led: Suit) -> dict[str, list[Row]]:
        """Close what a game cut short left open, keep the game's row; return the rows
        of each table.

        ``led``: the led suit of the trick in progress when the game stopped (the engine's
        :attr:`State.led <kow.engine.State.led>`; NO_SUIT when none is).
        """
        if self.played:
            self._end_trick(led, None)
        if self.deal is not None:
            self._end_round(None)
        if "games" in self.out:
            game = self.game
            # Read by name in the columns' order (_RULES: the fields of Rules, the keys of
            # RulesLog), so a mapping's view of the typed object: each value is a Cell.
            rules: Mapping[str, Any] = game["rules"]
            outcome = self.outcome
            players = game["players"]
            self.out["games"].append(_row("games", self.keys, {
                "kow_version": game["kow_version"],
                **{f"rules_{name}": rules[name] for name in _RULES},
                "winner": None if outcome is None else outcome.winner,
                "termination": None if outcome is None else outcome.termination.value,
                "rounds_played": game["result"]["rounds_played"],
                "abandoned": bool(game.get("abandoned")),
                **self._by_seat("name", [p["name"] for p in players]),
                **self._by_seat("kind", [p["kind"] for p in players]),
                **self._by_seat("eliminated_round", self.eliminated_round),
                **self._by_seat("dogs_life_round", self.dogs_life_round),
            }))  # fmt: skip
        return self.out
