"""Read JSON values from a stream piece by piece: the reader of ``kow verify``, ``replay``.

Memory stays flat in the number of values, time linear in the input, and every fault is
placed by line and column.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from typing import IO, Any

__all__ = ["LogReadError", "iter_games"]


class LogReadError(ValueError):
    """Raised for input that cannot be read as JSON; ``line`` and ``column`` give the place.

    ``line`` and ``column`` count from 1 (``column`` None when not known).
    """

    def __init__(self, message: str, line: int, column: int | None = None) -> None:
        place = f"line {line}" + (f", column {column}" if column is not None else "")
        super().__init__(f"{place}: {message}")
        self.line = line
        self.column = column


_CHUNK = 1 << 16
_MAX_VALUE = 64 << 20  # no game log comes near 64 MiB; past that, the input is not a log
_WHITESPACE = " \t\r\n"
_LOOKAHEAD = 16
"""How far before the end of the text json may stop for want of more of it.

json's scanner looks at most 9 characters past the place it reports (``-Infinity``), and
a number, whitespace or structure cut short by the end fails at or near the end; only a
string cut short is reported further back, at its start. A failure further back than this
is a real fault, reported at once rather than after reading on to the end or the cap.
"""


def iter_games(stream: IO[bytes]) -> Iterator[tuple[int, Any]]:
    """Yield ``(line, value)`` for each JSON value in ``stream``, reading it piece by piece.

    The input may hold one value, JSON Lines, or values simply concatenated; ``line`` (from
    1) is where each value starts. Memory stays flat in the number of values: only the
    value being read is held. Time is linear in the input, however big one value is.

    Raises :class:`LogReadError` at the first place that is not UTF-8 or not JSON, or holds
    a value too deep, a number too long or a value too big (64 MiB) to read.
    """
    decoder = json.JSONDecoder()
    utf8 = codecs.getincrementaldecoder("utf-8")()
    text = ""
    pos = 0
    line = 1  # the line of text[pos]
    line_start = 0  # where that line starts in text; below 0 when it started in text dropped
    offset = 0  # bytes read before this chunk, for the place of bad UTF-8
    eof = False
    while True:
        while pos < len(text) and text[pos] in _WHITESPACE:
            if text[pos] == "\n":
                line += 1
                line_start = pos + 1
            pos += 1
        if pos >= len(text):
            if eof:
                return
            text, eof, offset = _more(stream, utf8, "", offset, line)
            line_start -= pos
            pos = 0
            continue
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as err:
            if not eof and (
                err.pos >= len(text) - _LOOKAHEAD or err.msg.startswith("Unterminated string")
            ):
                # Cut short by the end of the text read so far: read on and decode again.
                text, eof, offset = _more(stream, utf8, text[pos:], offset, line)
                line_start -= pos
                pos = 0
                continue
            bad_line = line + text.count("\n", pos, err.pos)
            newline = text.rfind("\n", pos, err.pos)
            column = err.pos - (line_start if newline < 0 else newline + 1) + 1
            raise LogReadError(f"not JSON: {_json_message(err.msg)}", bad_line, column) from None
        except RecursionError:
            raise LogReadError("not readable: the JSON is nested too deep", line) from None
        except ValueError as err:  # an integer past Python's digit limit
            why = "a number has too many digits" if "digits" in str(err) else str(err)
            raise LogReadError(f"not readable: {why}", line) from None
        if not eof and end > len(text) - _LOOKAHEAD and isinstance(value, (int, float)):
            # A number near the end of the text may go on: "12" + "3", or "1." + "5" (json
            # read "1." as 1 and stopped at the ".", the end of what it was given).
            text, eof, offset = _more(stream, utf8, text[pos:], offset, line)
            line_start -= pos
            pos = 0
            continue
        yield line, value
        newline = text.rfind("\n", pos, end)
        if newline >= 0:
            line += text.count("\n", pos, end)
            line_start = newline + 1
        pos = end


def _more(
    stream: IO[bytes], utf8: codecs.IncrementalDecoder, rest: str, offset: int, line: int
) -> tuple[str, bool, int]:
    """Read on after ``rest``, the start of a value not yet whole; return (text, eof, offset).

    It reads as much as ``rest`` holds (at least ``_CHUNK``), so the text of a big value
    doubles with each read and is decoded O(log n) times: linear time in all, where a
    fixed chunk would decode it n / ``_CHUNK`` times, quadratic. Small values read one
    chunk at a time, so memory stays flat. A read stops near ``_MAX_VALUE``.
    """
    if len(rest) > _MAX_VALUE:
        raise LogReadError("not readable: a value runs past 64 MiB without ending", line)
    chunk = stream.read(max(_CHUNK, min(len(rest), _MAX_VALUE + 1 - len(rest))))
    eof = not chunk
    try:
        text = rest + utf8.decode(chunk, final=eof)
    except UnicodeDecodeError as err:
        where = line + rest.count("\n") + chunk.count(b"\n", 0, max(0, err.start))
        raise LogReadError(
            f"not UTF-8 text (byte {offset + err.start + 1} of the file is {chunk[err.start]:#04x})"
            if err.start < len(chunk)
            else "not UTF-8 text (it ends inside a character)",
            where,
        ) from None
    return text, eof, offset + len(chunk)


def _json_message(message: str) -> str:
    """Return json's error message to follow its place: without the trailing " at".

    "Unterminated string starting at" becomes "... starting here" (the place is where the
    string starts); "Invalid control character at" becomes "Invalid control character".
    """
    message = message.removesuffix(" at")
    return message + " here" if message.endswith(" starting") else message
