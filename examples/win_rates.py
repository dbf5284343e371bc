#!/usr/bin/env python3
"""Print win rates by seat and by bot kind from kow game logs.

Usage::

    kow simulate --seed 1 --games 1000 --bots heuristic,random,random,random > mixed.jsonl
    python examples/win_rates.py mixed.jsonl
    kow simulate --seed 1 --games 100 | python examples/win_rates.py -

A seat's win rate is its wins / the games it sat in. A kind's win rate is the wins by
seats of that kind / its seat-games (games x seats of that kind, summed over the games).
The logs are read with :func:`kow.log.iter_games`, as ``kow verify`` reads them: JSON
Lines, ``kow simulate --pretty`` output, JSON arrays of games, gzip-compressed or not.
Games cut short (``"abandoned": true``, winner ``null``) are skipped, with a note on
stderr. Exits 1 with a message naming the file and line on input it cannot read.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from kow.log import LogReadError, iter_games

PROG = "win_rates.py"


class InputError(Exception):
    """The input cannot be read as kow game logs; the message says where and why."""


def seat_kinds_and_winner(game: Any) -> tuple[list[str], int | None]:
    """Return ``(kinds by seat, winning seat or None)`` of one log; raise ValueError."""
    if not isinstance(game, dict):
        raise ValueError("not a JSON object")
    players = game.get("players")
    if not isinstance(players, list) or not players:
        raise ValueError("no 'players' list: not a kow game log")
    kinds = []
    for seat, player in enumerate(players):
        if not isinstance(player, dict) or not isinstance(player.get("kind"), str):
            raise ValueError(f"players[{seat}] has no 'kind'")
        kinds.append(player["kind"])
    result = game.get("result")
    winner = result.get("winner", "missing") if isinstance(result, dict) else "missing"
    if winner is not None and (
        isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < len(kinds)
    ):
        raise ValueError(f"'result.winner' is {winner!r}, not a seat of this game")
    return kinds, winner


def read_games(stream: BinaryIO, name: str) -> Iterator[tuple[list[str], int | None]]:
    """Yield ``(kinds by seat, winner)`` per game; raise InputError naming the line."""
    try:
        for line, game in iter_games(stream):
            try:
                yield seat_kinds_and_winner(game)
            except ValueError as e:
                raise InputError(f"{name}, line {line}: {e}") from None
    except LogReadError as e:  # e says where: "line 3, column 7: not JSON: ..."
        raise InputError(f"{name}, {e}") from None
    except OSError as e:
        raise InputError(f"{name}: cannot read: {e.strerror}") from None


def tally(games: Iterable[tuple[list[str], int | None]]) -> dict[str, Any]:
    """Return the counts behind the tables: played and won, by seat and by kind."""
    counts: dict[str, Any] = {
        "games": 0, "abandoned": 0,
        "seat_games": Counter(), "seat_wins": Counter(),
        "kind_games": Counter(), "kind_wins": Counter(),
    }  # fmt: skip
    for kinds, winner in games:
        if winner is None:
            counts["abandoned"] += 1
            continue
        counts["games"] += 1
        counts["seat_games"].update(range(len(kinds)))
        counts["kind_games"].update(kinds)
        counts["seat_wins"][winner] += 1
        counts["kind_wins"][kinds[winner]] += 1
    return counts


def table(header: list[str], rows: list[list[object]]) -> str:
    """Return rows as text: first column left-aligned, the others right-aligned."""
    cells = [header] + [[f"{c:.3f}" if isinstance(c, float) else str(c) for c in r] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return "\n".join(
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in cells
    )


def report(counts: dict[str, Any]) -> str:
    """Return the two tables: by seat, then by kind."""
    seats = sorted(counts["seat_games"])
    kinds = sorted(counts["kind_games"])

    def row(key: object, played: Counter[Any], wins: Counter[Any]) -> list[object]:
        return [key, played[key], wins[key], wins[key] / played[key]]

    by_seat = [row(s, counts["seat_games"], counts["seat_wins"]) for s in seats]
    by_kind = [row(k, counts["kind_games"], counts["kind_wins"]) for k in kinds]
    return (
        table(["seat", "games", "wins", "win rate"], by_seat)
        + "\n\n"
        + table(["kind", "seat-games", "wins", "win rate"], by_kind)
    )


def open_input(path: str) -> tuple[BinaryIO, str]:
    """Return the binary stream and display name of ``path`` (``-``: stdin)."""
    if path == "-":
        return sys.stdin.buffer, "<stdin>"
    try:
        return open(path, "rb"), path
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from None


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Print win rates by seat and by bot kind from kow game logs."
    )
    parser.add_argument("path", help="a file of kow game logs (kow simulate), or - for stdin")
    args = parser.parse_args(argv)
    try:
        stream, name = open_input(args.path)
        with stream:
            counts = tally(read_games(stream, name))
        if counts["abandoned"]:
            print(f"{PROG}: skipped {counts['abandoned']} abandoned game(s)", file=sys.stderr)
        if not counts["games"]:
            raise InputError(f"{name}: no finished games")
    except InputError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 1
    print(report(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
