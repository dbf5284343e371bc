#!/usr/bin/env python3
"""Print win rates by seat and by bot kind from kow game logs, with pandas.

The same figures as ``win_rates.py``, from a DataFrame with one row per seat per game
(``game``, ``seat``, ``kind``, ``won``), a handy shape for your own questions. Usage::

    pip install pandas
    python examples/win_rates_pandas.py mixed.jsonl
    kow simulate --seed 1 --games 100 | python examples/win_rates_pandas.py -

The logs are read with :func:`kow.log.iter_games`, as ``kow verify`` reads them (JSON
Lines, ``kow simulate --pretty`` output, arrays of games, gzip-compressed or not). Games
cut short (``"abandoned": true``, winner ``null``) are skipped, with a note on stderr.
Exits 1 with a message naming the file and line on input it cannot read.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, BinaryIO

from kow.log import LogReadError, iter_games

PROG = "win_rates_pandas.py"

try:
    import pandas as pd
except ImportError:
    print(f"{PROG}: pandas is not installed; run: pip install pandas", file=sys.stderr)
    sys.exit(1)


class InputError(Exception):
    """The input cannot be read as kow game logs; the message says where and why."""


def seat_rows(game: Any, number: int) -> list[dict[str, Any]]:
    """Return one row per seat of one log (``won`` None when abandoned); raise ValueError."""
    if not isinstance(game, dict):
        raise ValueError("not a JSON object")
    players, result = game.get("players"), game.get("result")
    if not isinstance(players, list) or not players or not isinstance(result, dict):
        raise ValueError("no 'players' list or 'result': not a kow game log")
    if not all(isinstance(p, dict) and isinstance(p.get("kind"), str) for p in players):
        raise ValueError("a player has no 'kind'")
    winner = result.get("winner", "missing")
    if winner is not None and (
        isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < len(players)
    ):
        raise ValueError(f"'result.winner' is {winner!r}, not a seat of this game")
    return [
        {
            "game": number,
            "seat": s,
            "kind": p["kind"],
            "won": None if winner is None else s == winner,
        }
        for s, p in enumerate(players)
    ]


def load(stream: BinaryIO, name: str) -> pd.DataFrame:
    """Return the seat rows of every game; raise InputError naming the line."""
    rows: list[dict[str, Any]] = []
    try:
        for number, (line, game) in enumerate(iter_games(stream), 1):
            try:
                rows += seat_rows(game, number)
            except ValueError as e:
                raise InputError(f"{name}, line {line}: {e}") from None
    except LogReadError as e:  # e says where: "line 3, column 7: not JSON: ..."
        raise InputError(f"{name}, {e}") from None
    except OSError as e:
        raise InputError(f"{name}: cannot read: {e.strerror}") from None
    return pd.DataFrame(rows, columns=["game", "seat", "kind", "won"])


def rates(seats: pd.DataFrame, by: str, played: str) -> pd.DataFrame:
    """Return games played, wins and win rate grouped by column ``by``."""
    table = seats.groupby(by).agg(**{played: ("won", "size"), "wins": ("won", "sum")})
    table["win rate"] = table["wins"] / table[played]
    return table


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Print win rates by seat and by bot kind from kow game logs."
    )
    parser.add_argument("path", help="a file of kow game logs (kow simulate), or - for stdin")
    args = parser.parse_args(argv)
    try:
        if args.path == "-":
            seats = load(sys.stdin.buffer, "<stdin>")
        else:
            try:
                stream = open(args.path, "rb")
            except OSError as e:
                raise InputError(f"{args.path}: cannot read: {e.strerror}") from None
            with stream:
                seats = load(stream, args.path)
        abandoned = seats[seats["won"].isna()]["game"].nunique()
        if abandoned:
            print(f"{PROG}: skipped {abandoned} abandoned game(s)", file=sys.stderr)
        seats = seats[seats["won"].notna()].astype({"won": bool})
        if seats.empty:
            name = "<stdin>" if args.path == "-" else args.path
            raise InputError(f"{name}: no finished games")
    except InputError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 1
    fmt = "{:.3f}".format
    print(rates(seats, "seat", "games").to_string(float_format=fmt))
    print()
    print(rates(seats, "kind", "seat-games").to_string(float_format=fmt))
    return 0


if __name__ == "__main__":
    sys.exit(main())
