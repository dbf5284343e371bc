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
are read off the card's suit, the trick's led suit and trump. The walk of the events into
rows is :mod:`kow.runs._rows` (compiled). The CSV text of the log's own text (the file's
name, the players' names and kinds) is the csv module's; the engine's cells (ints,
booleans, cards, suits), which CSV writes as they are, are joined by compiled code
(:func:`tables_text`).

:mod:`kow.runs.export_loop` is ``kow export``'s loop over a log reader's records.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast

from ..log import GameLog, replay_exact, replay_game, rules_to_log
from ..rules import MAX_PLAYERS, Rules
from ..verify import Fault, verify_game
from ._rows import Walked, csv_cells, rows_text, walk

if TYPE_CHECKING:
    from ..engine import State

__all__ = [
    "COLUMNS",
    "FORMULA_STARTS",
    "TABLES",
    "TYPES",
    "Cell",
    "IllegalGameError",
    "Row",
    "cells",
    "csv_text",
    "rows",
    "tables_rows",
    "tables_text",
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
    game: GameLog,
    tables: Sequence[str],
    *,
    file: str,
    index: int,
    text: str | None = None,
    replayed: State | None | Literal[False] = False,
) -> dict[str, list[Row]]:
    """Return the rows of one logged game in each of ``tables``, checking it once.

    The game is replayed once, and one walk of its events feeds every table asked for:
    what :func:`rows` gives for each table, table by table, at the cost of one. The result
    maps each of ``tables`` (in the order given) to its rows, in the order played.
    ``game``, ``file`` and ``index`` are as :func:`rows` takes them; ``text``, when given,
    is the game's compact text (:attr:`kow.log.GameRecord.text`): a game whose replay
    writes that text again is proved legal by it (:func:`kow.log.replay_exact`) and is not
    verified; any other is verified first, as without ``text``. ``replayed`` is what
    ``replay_exact(game, text)`` returned when the caller ran it already (the reader's
    proof, :attr:`kow.log.GameRecord.proof`): then it is not run again; False (the
    default) when it did not. Raises what :func:`rows` raises, the same for a game with
    its text or without, replayed or not.
    """
    state = _replayed(game, tables, text=text, replayed=replayed)
    key = (file, index, game["seed"])
    asked = ("rounds" in tables, "tricks" in tables, "plays" in tables)
    walked = walk(state.events, state.led, key=key, players=len(game["players"]), tables=asked)
    made = {"rounds": walked.rounds, "tricks": walked.tricks, "plays": walked.plays}
    out: dict[str, list[Row]] = {}
    for table in tables:
        out[table] = [_games_row(game, walked, key)] if table == "games" else made[table]
    return out


def _replayed(
    game: GameLog,
    tables: Sequence[str],
    *,
    text: str | None,
    replayed: State | None | Literal[False],
) -> State:
    """Return the game's last state, replayed once (or ``replayed``), for
    :func:`tables_rows` and :func:`tables_text`, which document the arguments and what
    they raise: the tables are checked first, then the game."""
    for table in tables:
        if table not in COLUMNS:
            raise ValueError(f"no table {table!r}: the tables are {', '.join(TABLES)}")
    state = replayed
    if state is False:  # not replayed yet
        state = None if text is None else replay_exact(game, text)
    if state is None:  # not proved legal by the replay: the oracle names any fault
        fault = verify_game(game)
        if fault is not None:
            raise IllegalGameError(fault)
        state = replay_game(game, text=text)
    return state


def tables_text(
    game: GameLog,
    tables: Sequence[str],
    *,
    file: str,
    index: int,
    text: str | None = None,
    replayed: State | None | Literal[False] = False,
    spreadsheet_safe: bool = False,
) -> dict[str, str]:
    """Return the CSV lines of one logged game in each of ``tables``: for each table (in
    the order given), :func:`csv_text` of its :func:`tables_rows`, byte for byte.

    Takes and raises what :func:`tables_rows` does; ``spreadsheet_safe`` as :func:`cells`
    takes it. The csv module writes the ``games`` row, whose cells hold the log's own
    text (players' names and kinds), and the key cells of the other tables' rows once a
    game; their other cells, the engine's, are joined by compiled code as the csv module
    would write them: the ``tricks`` and ``plays`` rows as the walk makes them
    (:func:`~kow.runs._rows.walk` with ``text_key``), the ``rounds`` rows by
    :func:`kow.runs._rows.rows_text`.
    """
    state = _replayed(game, tables, text=text, replayed=replayed)
    key_cells = (file, index, game["seed"])
    key = csv_text([key_cells], spreadsheet_safe=spreadsheet_safe)[:-1]
    asked = ("rounds" in tables, "tricks" in tables, "plays" in tables)
    walked = walk(state.events, state.led, key=key_cells, players=len(game["players"]),
                  tables=asked, text_key=key)  # fmt: skip
    out: dict[str, str] = {}
    for table in tables:
        if table == "games":
            row = _games_row(game, walked, key_cells)
            out[table] = csv_text([row], spreadsheet_safe=spreadsheet_safe)
        elif table == "plays":
            out[table] = "".join(cast("list[str]", walked.plays_text))
        elif table == "tricks":
            out[table] = "".join(cast("list[str]", walked.tricks_text))
        else:
            out[table] = rows_text(walked.rounds, key)
    return out


def csv_text(rows: Iterable[Row], *, spreadsheet_safe: bool = False) -> str:
    """Return ``rows`` as CSV lines, each ended by ``\\n``, their cells as :func:`cells`
    writes them (quoted where CSV needs it), by the csv module.

    >>> csv_text([("a,b", 1, None, True), ("Th", 2, None, False)])
    '"a,b",1,,true\\nTh,2,,false\\n'
    """
    out = io.StringIO()
    starts = FORMULA_STARTS if spreadsheet_safe else None
    csv.writer(out, lineterminator="\n").writerows(csv_cells(rows, starts, ints_as_text=True))
    return out.getvalue()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a cell that Excel or LibreOffice reads as a formula begins with (OWASP, "CSV
Injection"): a player's name or a file's can."""


def cells(row: Row, *, spreadsheet_safe: bool = False) -> list[str | int]:
    """Return ``row`` as CSV cells: booleans ``true`` / ``false``, None empty.

    ``spreadsheet_safe``: a text cell that begins with one of :data:`FORMULA_STARTS` is
    prefixed with ``'``, so that a spreadsheet shows it as text instead of running it as
    a formula; numbers are never changed. Off by default: the data stay as logged, for
    pandas and DuckDB. (:func:`kow.runs._rows.csv_cells`, compiled, makes them.)

    >>> cells(("g.jsonl", 1, None, True, False, "Th"))
    ['g.jsonl', 1, '', 'true', 'false', 'Th']
    >>> cells(("=cmd|'/c calc'!A1", 7, "-Ada", "Ben"), spreadsheet_safe=True)
    ["'=cmd|'/c calc'!A1", 7, "'-Ada", 'Ben']
    """
    (made,) = csv_cells([row], FORMULA_STARTS if spreadsheet_safe else None)
    return made


def _games_row(game: GameLog, walked: Walked, key: tuple[str, int, int | None]) -> Row:
    """Return the game's row of the ``games`` table, in its columns' order
    (:data:`COLUMNS`; ``tests/runs/test_export.py`` checks it by name)."""
    # Read by name in the columns' order (_RULES: the fields of Rules, the keys of
    # RulesLog), so a mapping's view of the typed object: each value is a Cell.
    rules: Mapping[str, Any] = game["rules"]
    outcome = None if walked.end is None else walked.end.outcome
    players = game["players"]
    padding = [None] * (MAX_PLAYERS - len(players))
    return (
        *key,
        game["kow_version"],
        *[rules[name] for name in _RULES],
        None if outcome is None else outcome.winner,
        None if outcome is None else outcome.termination.value,
        game["result"]["rounds_played"],
        bool(game.get("abandoned")),
        *[p["name"] for p in players], *padding,
        *[p["kind"] for p in players], *padding,
        *walked.eliminated_round, *padding,
        *walked.dogs_life_round, *padding,
    )  # fmt: skip
