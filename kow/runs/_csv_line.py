"""Write a row of ``kow export``'s tables as a CSV line, at compiled speed.

:func:`plain_line` writes the rows whose cells need no quoting, which is every row of a
log kow wrote: what the csv module writes of them, cell for cell, without a call per
cell through Python. A row with a cell that CSV must quote (or that a spreadsheet would
read as a formula) is left to the csv module (:func:`kow.runs.export.csv_text`).
"""

from __future__ import annotations

__all__ = ["plain_line", "plain_text"]


def plain_text(rows: list[object], spreadsheet_safe: bool) -> str | None:
    """Return the CSV lines of ``rows`` as :func:`plain_line` writes each, or None when
    one of them needs more (one call for a game's rows of a table).

    >>> plain_text([("a", 1), ("b", None)], False), plain_text([("a", 1), ("b,", 2)], False)
    ('a,1\\nb,\\n', None)
    """
    lines: list[str] = []
    for row in rows:
        line = plain_line(row, spreadsheet_safe)
        if line is None:
            return None
        lines.append(line)
    return "".join(lines)


def plain_line(row: object, spreadsheet_safe: bool) -> str | None:
    """Return ``row`` as one CSV line ended by ``\\n``, as ``csv.writer`` (its default
    dialect, ``lineterminator="\\n"``) writes :func:`~kow.runs.export.cells` of it, or
    None when a cell needs more: a string that is not printable or holds a comma or a
    double quote (CSV quotes it), one that starts like a formula under
    ``spreadsheet_safe`` (:data:`~kow.runs.export.FORMULA_STARTS`: ``=``, ``+``,
    ``-``, ``@``; tab and carriage return are not printable), a value of another type, or
    a row of fewer than two cells (CSV quotes a lone empty cell), or a row that is not a
    tuple.

    >>> plain_line(("g.jsonl", 1, None, True, False, "Th", -3), False)
    'g.jsonl,1,,true,false,Th,-3\\n'
    >>> plain_line(("a,b", 1), False), plain_line(("=1", 2), True), plain_line((1,), False)
    (None, None, None)
    """
    if not isinstance(row, tuple) or len(row) < 2:
        return None
    out: list[str] = []
    for value in row:
        if value is None:
            out.append("")
        elif isinstance(value, bool):
            out.append("true" if value else "false")
        elif isinstance(value, int):
            out.append(str(value))
        elif isinstance(value, str):
            if not value.isprintable() or "," in value or '"' in value:
                return None
            if spreadsheet_safe and value and value[0] in "=+-@":
                return None
            out.append(value)
        else:
            return None
    return ",".join(out) + "\n"
