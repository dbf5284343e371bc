#!/usr/bin/env python3
"""Run the DuckDB recipes of ``examples/recipes.sql`` on a file of kow game logs.

Each recipe queries the JSON Lines of ``kow simulate`` directly (DuckDB's
``read_ndjson``). They are written on ``'games.jsonl'``; this script runs them on the file
given instead, and prints each result as CSV (a header line, then the rows). Usage::

    pip install duckdb
    python examples/duckdb_recipes.py games.jsonl                 # every recipe
    python examples/duckdb_recipes.py round1-trumps games.jsonl   # one recipe
    python examples/duckdb_recipes.py --list

With every recipe, each result comes under a ``## NAME`` heading. Exits 1 with one line
on stderr when the file can't be read as kow logs, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from pathlib import Path

PROG = "duckdb_recipes.py"
SQL = Path(__file__).resolve().with_name("recipes.sql")
FILE = "'games.jsonl'"
"""How the recipes name their input; replaced by the file given."""


def recipes() -> dict[str, str]:
    """Return the recipes of ``recipes.sql`` by name, each its SQL (comments included)."""
    text = SQL.read_text(encoding="utf-8")
    parts = re.split(r"^-- name: (\S+)\n", text, flags=re.M)
    return {name: body.strip() for name, body in zip(parts[1::2], parts[2::2], strict=True)}


def run(sql: str, path: str) -> None:
    """Run one recipe on ``path`` and print its result as CSV; raise duckdb.Error."""
    import duckdb

    quoted = "'" + path.replace("'", "''") + "'"
    result = duckdb.connect().sql(sql.replace(FILE, quoted))
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(result.columns)
    writer.writerows(result.fetchall())


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = argparse.ArgumentParser(prog=PROG, description="Run the DuckDB recipes on kow logs.")
    parser.add_argument("args", nargs="*", metavar="[RECIPE] FILE")
    parser.add_argument("--list", action="store_true", help="list the recipes")
    args = parser.parse_args(argv)
    known = recipes()
    if args.list:
        print("\n".join(known))
        return 0
    if len(args.args) == 1:
        chosen, path = list(known), args.args[0]
    elif len(args.args) == 2 and args.args[0] in known:
        chosen, path = [args.args[0]], args.args[1]
    elif len(args.args) == 2:
        parser.error(f"no recipe {args.args[0]!r}; the recipes: {', '.join(known)}")
    else:
        parser.error("give a FILE, or a RECIPE and a FILE")
    try:
        import duckdb
    except ImportError:
        print(f"{PROG}: duckdb is not installed; run: pip install duckdb", file=sys.stderr)
        return 1
    try:
        for name in chosen:
            if len(chosen) > 1:
                print(f"## {name}")
            run(known[name], path)
    except duckdb.Error as err:
        first = str(err).strip().splitlines()[0]
        print(f"{PROG}: {path}: {first}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
