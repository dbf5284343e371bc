#!/usr/bin/env python3
"""Load kow's flat tables into pandas and answer three questions with them.

``load(path, table)`` runs ``kow export PATH --table TABLE`` (games, rounds, tricks or
plays; ``docs/tables.md`` gives every column) and reads its CSV into a DataFrame, each
column with its type from ``kow.runs.export.TYPES`` as a nullable dtype (``Int64``,
``boolean``, ``string``), so that ints and booleans stay so where a cell is empty, and a
column empty in every row keeps its type too. Then:
how the games ended, how a card fares in a trick by how it was played, and how often a
player on a dog's life came back, by bot kind. Usage::

    pip install pandas
    kow simulate --seed 1 --games 300 --dogs-life once-per-player \\
        --bots heuristic,random,random,random > dogs.jsonl
    python examples/tables_pandas.py dogs.jsonl

kow must be importable by this Python (it runs ``python -m kow export``). Exits 1 with
kow's message on stderr when the file can't be exported.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys

from kow.runs.export import TYPES

PROG = "tables_pandas.py"

try:
    import pandas as pd
except ImportError:
    print(f"{PROG}: pandas is not installed; run: pip install pandas", file=sys.stderr)
    sys.exit(1)

PANDAS = {int: "Int64", bool: "boolean", str: "string"}
"""The nullable pandas dtype of each type of ``kow.runs.export.TYPES``."""

BY_SEAT = ["hand", "tricks_won", "dogs_life", "eliminated", "dogs_life_granted", "revived"]
"""The rounds table's facts by seat: columns ``hand_0`` .. ``hand_6`` and so on."""


class ExportError(Exception):
    """``kow export`` failed; the message is its own."""


def load(path: str, table: str) -> pd.DataFrame:
    """Return one table of the games in ``path`` (``kow export``'s CSV) as a DataFrame."""
    done = subprocess.run(
        [sys.executable, "-m", "kow", "export", path, "--table", table],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise ExportError(done.stderr.strip().removeprefix("Error: "))
    dtype = {column: PANDAS[kind] for column, kind in TYPES[table].items()}
    return pd.read_csv(io.StringIO(done.stdout), dtype=dtype)


def endings(games: pd.DataFrame) -> pd.DataFrame:
    """Return games and mean rounds played by why the game ended."""
    return games.groupby("termination").agg(
        games=("game", "size"), mean_rounds=("rounds_played", "mean")
    )


def card_fates(plays: pd.DataFrame) -> pd.DataFrame:
    """Return, by how each card was played, how often it was winning the trick once
    played and how often it took it. Knocks play no card and are left out."""
    cards = plays[~plays["knock"]]
    how = pd.Series("discard", index=cards.index)
    how[cards["trumped"]] = "trumped"
    how[cards["followed_suit"]] = "followed suit"
    how[cards["lead"]] = "lead"
    table = cards.groupby(how.rename("played")).agg(
        cards=("card", "size"), winning=("winning", "mean"), won=("won", "mean")
    )
    return table.reindex(["lead", "followed suit", "trumped", "discard"])


def dogs_lives(rounds: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Return, by bot kind, the rounds played on a dog's life and how many ended revived.

    The columns by seat become rows (one per seat per round) with ``wide_to_long``, and
    each seat's kind comes from the games table, by the keys ``file``, ``game`` and seat.
    """
    seats = pd.wide_to_long(
        rounds, stubnames=BY_SEAT, i=["file", "game", "round"], j="seat", sep="_"
    ).reset_index()
    seats = seats.dropna(subset=["dogs_life"])  # seats 4 to 6 of a 4-player game: empty
    kinds = pd.wide_to_long(
        games[["file", "game", *(f"kind_{s}" for s in range(7))]],
        stubnames="kind", i=["file", "game"], j="seat", sep="_",
    ).reset_index()  # fmt: skip
    on_dogs_life = seats[seats["dogs_life"]].merge(kinds, on=["file", "game", "seat"])
    table = on_dogs_life.groupby("kind").agg(rounds=("round", "size"), revived=("revived", "sum"))
    table["rate"] = table["revived"] / table["rounds"]
    return table


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = argparse.ArgumentParser(prog=PROG, description="Study kow's flat tables.")
    parser.add_argument("path", help="a file of kow game logs (kow simulate); read 3 times")
    args = parser.parse_args(argv)
    try:
        games, rounds, plays = (load(args.path, t) for t in ("games", "rounds", "plays"))
    except ExportError as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 1
    fmt = "{:.3f}".format
    print(endings(games).to_string(float_format=fmt))
    print()
    print(card_fates(plays).to_string(float_format=fmt))
    print()
    lives = dogs_lives(rounds, games)
    print(lives.to_string(float_format=fmt) if len(lives) else "No player was on a dog's life.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
