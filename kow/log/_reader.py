"""Read JSON values from a stream piece by piece: the reader of ``kow verify``, ``replay``.

Memory stays flat in the number of values, time linear in the input, and every fault is
placed by line and column. It takes what jq and RFC 8259 take, and refuses what they
refuse, with three choices where they differ or are silent:

- a UTF-8 byte-order mark is skipped at the start of the input (RFC 8259 section 8.1
  lets a reader ignore it; jq 1.6 does), and refused anywhere else (as jq does);
- ``NaN``, ``Infinity`` and ``-Infinity``, which Python's json module reads and jq 1.6
  too, are refused: RFC 8259 has no such numbers;
- gzip-compressed input (``.jsonl.gz``, from a file or a pipe) is read as the text it
  holds, found by its magic bytes, not by its name.

Two things JSON allows are beyond what it reads: nesting deeper than :data:`MAX_DEPTH`
levels, and an integer of more digits than Python converts (4,300 by default,
``sys.get_int_max_str_digits()``). Each is placed at the bracket or the number itself,
and is a fault of that value alone: :func:`iter_games_and_faults` goes on with the next value, as
far as the input allows. A key repeated in an object, which JSON allows but readers take
differently, is read as jq reads it (the last one holds); :func:`iter_games_and_faults` can name it
as a fault instead (``kow verify`` does).
"""

from __future__ import annotations

import codecs
import json
import re
import sys
from collections.abc import Callable, Collection, Iterator
from dataclasses import KW_ONLY, dataclass
from typing import IO, TYPE_CHECKING, Any, NamedTuple, TypeAlias

from ._canon import measure
from ._gzip import gunzip

if TYPE_CHECKING:
    from .types import GameLog

__all__ = [
    "MAX_DEPTH",
    "GameOrFault",
    "LogReadError",
    "Prove",
    "ProveLine",
    "iter_games_and_faults",
    "iter_games",
    "iter_values",
]


class LogReadError(ValueError):
    """Raised for input that cannot be read as JSON; ``line`` and ``column`` give the place.

    ``line`` and ``column`` count from 1; ``column`` counts characters. It is None only
    when the place within the line is not known.
    """

    def __init__(self, message: str, line: int, column: int | None = None) -> None:
        place = f"line {line}" + (f", column {column}" if column is not None else "")
        super().__init__(f"{place}: {message}")
        self.line = line
        self.column = column


@dataclass(frozen=True)
class GameOrFault:
    """One value of a stream as :func:`iter_games_and_faults` reads it.

    ``line`` (from 1) is where the value starts. ``value`` is the value read (``None``
    when it could not be read). ``fault`` is what is wrong with this value alone, placed
    at the fault itself (a nesting too deep, a number too long, a repeated key), or
    ``None``; the value of a repeated key is still read, as jq reads it (the last holds).
    ``text`` is the value's text when it is canonical for the key ``orders`` the reader
    was given (compact, each object's keys in one of those orders, no escape: what kow
    writes, ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)``), else None.
    ``proof`` is what the reader's ``prove`` returned for the value and its text (then
    ``text`` is that text), or None: not proved, or no ``prove`` given.
    """

    line: int
    value: Any
    fault: LogReadError | None = None
    _: KW_ONLY
    text: str | None = None
    proof: object | None = None


MAX_DEPTH = 512
"""The deepest nesting of arrays and objects read: JSON sets none; a game log needs 6.
Python's own limit lies above it on every supported version, so it is the one met."""
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
_AFTER_LITERAL = _WHITESPACE + '[]{},:"'
"""What may follow a number, ``true``, ``false`` or ``null`` at the top level: jq (and
RFC 8259) read ``1true`` or ``01`` as one bad token, where json would read two values."""
_GZIP = b"\x1f\x8b"
_BOM = "\ufeff"
_CONSTANT = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)', re.DOTALL)
"""A JSON string, to skip, or a constant of Python's json that JSON lacks, to find."""
_SURROGATE_HINT = re.compile(r"\\u[dD][89a-fA-F]")
"""What starts a surrogate escape, or an escaped backslash and text that looks like one."""
_LOW_SURROGATE = re.compile(r"\\u[dD][c-fC-F]")
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[][{}:,]|-?(\d+)(\.\d+)?([eE][-+]?\d+)?', re.DOTALL)
"""A string, a mark of structure or a number (its integer digits, fraction, exponent):
what :func:`_scan` walks, on the slow path only, to place a fault in a value read."""

Prove: TypeAlias = Callable[[Any, str], object]
"""What proves a value read canonical, given the value and its text as read: a callable
that returns a proof (anything but None), or None for a value it does not prove.

A proof vouches that the text is the value's canonical text for the reader's ``orders``
(compact, each object's keys in one of those orders): then no key is repeated (an
object's canonical text writes each key once) and it nests no deeper than it reads.
:func:`kow.log.replay_exact` is one: a text it proves is, byte for byte, the text kow's
writer writes of the engine's game (compact, the keys in the order of the log's types,
:data:`~kow.log._records.KEY_ORDERS`), and that of the value read, since json reads it as that.
It must raise nothing but what interrupts a run (:class:`KeyboardInterrupt`).
"""

ProveLine: TypeAlias = Callable[[str], "tuple[Any, object] | None"]
"""What proves a game from its line alone, before json reads it: a callable given the
text of a line (a value that starts it, up to its ``\\n``, which holds no backslash)
that returns the pair ``(value, proof)`` (:class:`kow.log.LineReplay` is one), or None
for a line it does not prove.

A proof vouches for the text as :data:`Prove`'s does, and that the text is one value.
The value it returns stands for the one json would read: it may leave out what the
proof holds (:func:`kow.log.replay_line` leaves out a game's ``rounds``, which its proof,
the replayed state, holds). It must raise nothing but what interrupts a run
(:class:`KeyboardInterrupt`).
"""

# The states of a top-level array read element by element.
_TOP, _OPENED, _AFTER_COMMA, _AFTER_ELEMENT = range(4)


class _Constant(Exception):  # noqa: N818 (not an error of the input yet: it is placed)
    """Raised by the decoder on NaN, Infinity or -Infinity, which JSON does not have."""


def _refuse_constant(name: str) -> Any:
    """Refuse one of json's constants that JSON lacks (the decoder's ``parse_constant``)."""
    raise _Constant(name)


def iter_games(stream: IO[bytes]) -> Iterator[tuple[int, GameLog]]:
    """Yield ``(line, game)`` for each game in ``stream``, reading it piece by piece.

    The input may hold one value, JSON Lines, values simply concatenated (``kow simulate
    --pretty``), or JSON arrays of games: each element of a top-level array is a game of
    its own, read in turn, so an array of many games is read in flat memory too. It may be
    gzip-compressed and start with a byte-order mark. ``line`` (from 1) is where each game
    starts; ``game`` is the value read, typed :class:`~kow.log.GameLog` (a plain dict at
    run time), though only :func:`kow.verify.verify_game` proves that it is one. Memory
    stays flat in the number of games: only the game being read is held. Time is linear
    in the input, however big one game is. A key repeated in an object is read as jq
    reads it: the last one holds.

    Raises :class:`LogReadError` at the first place that cannot be read (an error of the
    stream, or gzip data cut short or corrupt), is not UTF-8 or not JSON (``NaN`` and
    ``Infinity`` included), or holds a value nested deeper than :data:`MAX_DEPTH`, a
    number too long or a value too big (64 MiB) to read. An error writing elsewhere is
    never raised from here.

    >>> import io
    >>> list(iter_games(io.BytesIO(b'{"a": 1}\\n[{"b": 2},\\n {"c": 3}]')))
    [(1, {'a': 1}), (2, {'b': 2}), (3, {'c': 3})]
    """
    return _raising(_values(stream, arrays=True, unique_keys=False))


def iter_values(stream: IO[bytes]) -> Iterator[tuple[int, Any]]:
    """Yield ``(line, value)`` for each JSON value in ``stream``, as :func:`iter_games`
    reads it, but with a top-level array as one value."""
    return _raising(_values(stream, arrays=False, unique_keys=False))


def iter_games_and_faults(
    stream: IO[bytes],
    *,
    unique_keys: bool = False,
    orders: Collection[tuple[str, ...]] | None = None,
    prove: Prove | None = None,
    prove_line: ProveLine | None = None,
) -> Iterator[GameOrFault]:
    """Yield an :class:`GameOrFault` for each game in ``stream``, read as :func:`iter_games`
    reads them, but going on after a fault of one game alone.

    A game nested deeper than :data:`MAX_DEPTH` or holding an integer too long to read
    (and, with ``unique_keys``, an object that repeats a key) is an item with its
    ``fault``, placed at the bracket, the number or the repeated key; reading goes on
    after that game's end. Raises :class:`LogReadError` as :func:`iter_games` does for
    every other fault, and for these when the input ends inside the game, since then
    there is nothing to go on with. With ``orders`` (the key orders of the objects kow
    writes, each a tuple of keys), each game whose text is canonical for them comes with
    that ``text``. With ``orders`` and ``prove`` too, ``prove(game, text)`` is called
    first for each game (an object) whose text holds no backslash, ``text`` its text as
    read: when it returns something but None, that is the item's ``proof``, and its text
    is taken as canonical, unmeasured (``prove`` vouches that it is; see :data:`Prove`);
    when it returns None, the game is read as without ``prove``. With ``orders`` and
    ``prove_line``, each value outside an array that starts a line, whose line is read
    whole and holds no backslash, is first given to ``prove_line`` as its line's text
    (without the ``\\n``): a line it proves is that item (its value and ``proof`` as
    ``prove_line`` returns them, its ``text`` the line), and json does not read it; else
    the line is read as without ``prove_line`` (see :data:`ProveLine`). ``prove`` and
    ``prove_line`` must raise nothing but what interrupts a run
    (:class:`KeyboardInterrupt`), which is let through.

    >>> import io
    >>> [(e.line, e.value, str(e.fault)) for e in iter_games_and_faults(
    ...     io.BytesIO(b'{"a": 1, "a": 2}\\n{"b": 3}'), unique_keys=True)]
    ... # doctest: +NORMALIZE_WHITESPACE
    [(1, {'a': 2}, 'line 1, column 10: ambiguous: the key "a" is repeated in this object
      (readers differ: jq takes the last one, others the first)'),
     (2, {'b': 3}, 'None')]
    """
    return _values(
        stream,
        arrays=True,
        unique_keys=unique_keys,
        orders=orders,
        prove=prove,
        prove_line=prove_line,
    )


def _raising(items: Iterator[GameOrFault]) -> Iterator[tuple[int, Any]]:
    """Yield ``(line, value)`` for each of ``items``; raise the first one's fault."""
    for item in items:
        if item.fault is not None:
            raise item.fault
        yield item.line, item.value


class _Keys:
    """The decoder's ``object_pairs_hook`` that notes whether an object repeated a key."""

    def __init__(self) -> None:
        self.repeated = False

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        """Return the object of ``pairs`` (the last of a repeated key holds, as in jq)."""
        value = dict(pairs)
        if len(value) != len(pairs):
            self.repeated = True
        return value


def _values(
    stream: IO[bytes],
    arrays: bool,
    unique_keys: bool,
    *,
    orders: Collection[tuple[str, ...]] | None = None,
    prove: Prove | None = None,
    prove_line: ProveLine | None = None,
) -> Iterator[GameOrFault]:
    """Yield the values of ``stream``, or the elements of its top-level arrays (``arrays``),
    with a repeated key as a fault (``unique_keys``), and the text of each value that is
    canonical for ``orders`` (when given), or that ``prove`` proves (with ``orders``:
    :func:`iter_games_and_faults`).

    Each value is read by json at C speed; with ``unique_keys`` or ``orders``, one walk
    of it (:func:`~._canon.measure`) proves in most cases that its text repeats no key:
    its text is canonical (then it nests no deeper than :data:`MAX_DEPTH` either), or has
    as many colons as its objects have keys (every key has its colon; a repeated one
    leaves its value fewer keys). Only a value that it does not prove so is read again,
    by a hook that notes a repeated key. Only a value with a backslash in its text is
    searched for a lone surrogate escape. A value that ``prove`` proves is not measured:
    its text is canonical, so it repeats no key and nests no deeper than read; one that
    ``prove_line`` proves from its line is not read by json either.
    """
    if orders is None:
        prove = prove_line = None  # a proof stands for the measure against orders
    keys = _Keys() if unique_keys else None
    decoder = json.JSONDecoder(parse_constant=_refuse_constant)
    checker = json.JSONDecoder(parse_constant=_refuse_constant, object_pairs_hook=keys)
    measured = orders if orders is not None else () if unique_keys else None
    source = _Source(stream)
    text = ""
    pos = 0
    line = 1  # the line of text[pos]
    line_start = 0  # where that line starts in text; below 0 when it started in text dropped
    eof = False
    state = _TOP
    scanned, last_newline = "", -1  # the text last looked at, and where its last "\n" is
    while True:
        while pos < len(text) and text[pos] in _WHITESPACE:
            if text[pos] == "\n":
                line += 1
                line_start = pos + 1
            pos += 1
        if pos >= len(text):
            if not eof:
                text, eof = source.more("", line, pos - line_start)
                line_start -= pos
                pos = 0
                continue
            if state == _TOP:
                return
            why = "Expecting ',' delimiter" if state == _AFTER_ELEMENT else "Expecting value"
            raise _fault(why, text, pos, line=line, line_start=line_start, ended=True)
        if state:  # inside a top-level array: the commas and the end are read here
            char = text[pos]
            if state == _AFTER_ELEMENT:
                if char not in ",]":
                    raise _fault(
                        "Expecting ',' delimiter", text, pos, line=line, line_start=line_start
                    )
                state = _AFTER_COMMA if char == "," else _TOP
                pos += 1
                continue
            if state == _OPENED and char == "]":
                state = _TOP
                pos += 1
                continue
        elif arrays and text[pos] == "[":
            state = _OPENED
            pos += 1
            continue
        if not eof and pos > 1:
            if scanned is not text:
                scanned, last_newline = text, text.rfind("\n")
            if pos > last_newline:
                # A value after the last line read whole, so likely cut short by the read
                # (JSON Lines): the text before it is dropped first, so that json's failure
                # on what is read of it counts the lines of this value's text alone (its
                # error counts them from the text's start). The character before it stays
                # (_utf16 looks at it); the places are counted as after a read.
                cut = pos - 1
                text, pos, line_start = text[cut:], 1, line_start - cut
                scanned, last_newline = text, len(text)  # dropped once a read
        if prove_line is not None and not state and text[pos] == "{":
            newline = text.find("\n", pos)
            if newline > pos:  # the line is read whole
                whole = text[pos:newline]
                by_line = prove_line(whole) if whole.find("\\") < 0 else None
                if by_line is not None:  # proved: canonical, one value, so the line is it
                    proved_value, line_proof = by_line  # the pair ProveLine gives
                    yield GameOrFault(line, proved_value, text=whole, proof=line_proof)
                    pos = newline
                    continue
        fault: LogReadError | None = None
        canonical: str | None = None
        proof: object | None = None
        repeated = False
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as err:
            if not eof and (
                err.pos >= len(text) - _LOOKAHEAD or err.msg.startswith("Unterminated string")
            ):
                # Cut short by the end of the text read so far: read on and decode again.
                text, eof = source.more(text[pos:], line, pos - line_start)
                line_start -= pos
                pos = 0
                continue
            if _deeper(text, pos, err.pos):  # a fault before json's own (it has no limit)
                scan = _scan(text, pos, keys=False)
                at = err.pos if scan.at is None else scan.at
                raise _fault(
                    scan.why, text, at, line=line, line_start=line_start, kind="not readable"
                ) from None
            raise _fault(
                _json_message(err.msg),
                text,
                err.pos,
                line=line,
                line_start=line_start,
                ended=eof,
            ) from None
        except _Constant as err:
            # All before it is JSON (json reads in order), so the first one outside a
            # string is the one: found only now, so JSON without them pays nothing.
            found = (m.start(1) for m in _CONSTANT.finditer(text, pos) if m.group(1))
            at = next(found, pos)
            raise _fault(
                f"{err} is not a JSON value", text, at, line=line, line_start=line_start
            ) from None
        except (RecursionError, ValueError) as err:  # too deep, or an integer too long
            scan = _scan(text, pos, keys=False)
            if not eof and (scan.end is None or scan.end > len(text) - _LOOKAHEAD):
                text, eof = source.more(text[pos:], line, pos - line_start)
                line_start -= pos
                pos = 0
                continue
            if scan.at is None:  # not found by the scan: placed at the value's start
                why = "nested too deep" if isinstance(err, RecursionError) else str(err)
                raise LogReadError(f"not readable: {why}", line, pos - line_start + 1) from None
            fault = _fault(
                scan.why, text, scan.at, line=line, line_start=line_start, kind="not readable"
            )
            if scan.end is None:  # the input ends inside the value: nothing to go on with
                raise fault from None
            value, end = None, scan.end
        if fault is None and not isinstance(value, (dict, list, str)):
            if not eof and end > len(text) - _LOOKAHEAD:
                # A number or literal near the end of the text may go on: "12" + "3", or
                # "1." + "5" (json read "1." as 1 and stopped at the ".", the end of what
                # it was given), or "true" + "x".
                text, eof = source.more(text[pos:], line, pos - line_start)
                line_start -= pos
                pos = 0
                continue
            if state == _TOP and end < len(text) and text[end] not in _AFTER_LITERAL:
                raise _fault("Invalid literal", text, pos, line=line, line_start=line_start)
        if fault is None and isinstance(value, (dict, list, str)):  # found in one scan
            backslash = text.find("\\", pos, end)  # none: no escape, so no lone surrogate
            lone = None if backslash < 0 else _lone_surrogate(text, pos, end)
            if lone is not None:
                why = f"a lone surrogate escape ({text[lone : lone + 6]}) is not a character"
                raise _fault(why, text, lone, line=line, line_start=line_start)
            length = count = -1
            if prove is not None and backslash < 0 and isinstance(value, dict):
                proof = prove(value, text[pos:end])
            if proof is None and measured is not None and isinstance(value, (dict, list)):
                length, count = measure(value, measured, MAX_DEPTH)
            if proof is not None:
                # Proved (kow's writer's text of the engine's game, say): canonical, as
                # prove vouches, so it repeats no key and nests no deeper than read.
                canonical = text[pos:end]
            elif length == end - pos and backslash < 0:
                # The canonical text (so no deeper than read), and no key is repeated:
                # every other text of the value is longer.
                canonical = text[pos:end] if orders is not None else None
            elif isinstance(value, (dict, list)) and _deeper(text, pos, end):
                scan = _scan(text, pos, keys=False)
                fault = _fault(
                    scan.why,
                    text,
                    scan.at or pos,
                    line=line,
                    line_start=line_start,
                    kind="not readable",
                )
                value = None
            elif keys is not None and count >= 0 and count != text.count(":", pos, end):
                # A colon in a string, or a key repeated: read again to tell.
                keys.repeated = False
                checker.raw_decode(text, pos)
                repeated = keys.repeated
            if repeated:
                scan = _scan(text, pos, keys=True)
                fault = _fault(
                    scan.why,
                    text,
                    scan.at or pos,
                    line=line,
                    line_start=line_start,
                    kind="ambiguous",
                )
        yield GameOrFault(line, value, fault, text=canonical, proof=proof)
        if state:
            state = _AFTER_ELEMENT
        newline = text.rfind("\n", pos, end)
        if newline >= 0:
            line += text.count("\n", pos, end)
            line_start = newline + 1
        pos = end


class _Scan(NamedTuple):
    """What :func:`_scan` found in a value: the first fault's place and why, and its end.

    ``at`` is None when no fault was found; ``end`` is None when the value does not end
    in the text scanned.
    """

    at: int | None
    why: str
    end: int | None


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_INNERMOST = re.compile(r"\[\]|\{\}")


def _deeper(text: str, start: int, end: int) -> bool:
    """Return whether the JSON ``text[start:end]`` nests deeper than :data:`MAX_DEPTH`.

    Linear time at C speed: only a value with more brackets than the limit is looked at,
    its brackets kept (strings dropped) and its innermost pairs taken away, one level a
    pass, as many passes as it is deep (a game log: 6).

    >>> _deeper("[" * 513 + "]" * 513, 0, 1026), _deeper('["[[[["]', 0, 8)
    (True, False)
    """
    if text.count("[", start, end) + text.count("{", start, end) <= MAX_DEPTH:
        return False
    brackets = re.sub(r"[^][{}]", "", _STRING.sub("", text[start:end]))
    for _ in range(MAX_DEPTH):
        if not brackets:
            return False
        brackets = _INNERMOST.sub("", brackets)
    return bool(brackets)


def _scan(text: str, start: int, keys: bool) -> _Scan:
    """Walk the JSON value that starts at ``text[start]`` to place its first fault of
    those json cannot tell where they are: a nesting deeper than :data:`MAX_DEPTH`, an
    integer longer than Python reads, and (``keys``) a key that an object repeats.

    Only on the slow path, once such a fault is known: a walk in Python, token by token.
    It trusts the text to be JSON; the end it gives is where the brackets balance.
    """
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)() or None
    objects: list[set[str] | None] = []  # per open bracket: an object's keys, or None
    key_next = False  # the next string is a key
    at: int | None = None
    why = ""
    for token in _TOKEN.finditer(text, start):
        first = token.group()[0]
        if first in "[{":
            if len(objects) == MAX_DEPTH and at is None:
                what = "array" if first == "[" else "object"
                at, why = (
                    token.start(),
                    f"this {what} opens level {MAX_DEPTH + 1}; "
                    + (f"at most {MAX_DEPTH} levels of nesting are read"),
                )
            objects.append(set() if first == "{" else None)
            key_next = first == "{"
            continue
        if first in "]}":
            if objects:
                objects.pop()
        elif first == ",":
            key_next = bool(objects) and objects[-1] is not None
            continue
        elif first == ":":
            key_next = False
            continue
        elif first == '"':
            seen = objects[-1] if objects else None
            if key_next and keys and seen is not None and at is None:
                key = json.loads(token.group())
                if key in seen:
                    at, why = (
                        token.start(),
                        (
                            f"the key {token.group()} is repeated in this object (readers differ: "
                            "jq takes the last one, others the first)"
                        ),
                    )
                seen.add(key)
            key_next = False
        else:  # a number
            digits = token.group(1)
            whole = token.group(2) is None and token.group(3) is None
            if whole and limit is not None and len(digits) > limit and at is None:
                at, why = (
                    token.start(),
                    (f"an integer of {len(digits)} digits; at most {limit} are read"),
                )
        if not objects:
            return _Scan(at, why, token.end())
    return _Scan(at, why, None)


def _lone_surrogate(text: str, start: int, end: int) -> int | None:
    """Return where the first lone surrogate escape of the JSON ``text[start:end]`` is.

    A ``\\uD800``-``\\uDBFF`` escape is whole only when a ``\\uDC00``-``\\uDFFF``
    escape comes right after it; any other is lone. jq refuses one (Python's json reads
    it as a surrogate, which is no character and cannot be written as UTF-8). Returns
    None when there is none. ``text[start:end]`` must be JSON json has read, so every
    backslash is in a string, and each escape there is whole. Time is linear in the text.

    >>> text = r'["\\ud83d\\ude00", "\\\\ud800", "a\\uDC00"]'
    >>> _lone_surrogate(text, 0, len(text)), text[30:]
    (30, '\\\\uDC00"]')
    """
    at = start
    while found := _SURROGATE_HINT.search(text, at, end):
        escape = found.start()
        at = escape + 2
        back = escape
        while back > start and text[back - 1] == "\\":
            back -= 1
        if (escape - back) % 2:  # the second backslash of "\\\\", then a plain "u"
            continue
        if text[escape + 3] in "89abAB" and _LOW_SURROGATE.match(text, escape + 6, end):
            at = escape + 12  # a whole pair
            continue
        return escape
    return None


def _fault(
    message: str,
    text: str,
    at: int,
    *,
    line: int,
    line_start: int,
    kind: str = "not JSON",
    ended: bool = False,
) -> LogReadError:
    """Return the error "``kind``: ``message``" placed at ``text[at]``, in the line
    ``line`` that starts at ``line_start`` or in one after it. ``ended``: ``text`` holds
    the input's end, so a fault at its end says that the input stops there."""
    if ended and (at >= len(text.rstrip()) or message.startswith("Unterminated string")):
        message += (
            " (the input ends in it: cut short?)"
            if at < len(text)
            else (" (the input ends here: cut short?)")
        )
    if text.startswith(_BOM, at):
        message = "a byte-order mark (U+FEFF) may only start the input"
    elif text.startswith("\0", at) and kind == "not JSON":
        message = (
            "NUL bytes between ASCII characters: this looks like UTF-16 text (with no "
            "byte-order mark), and logs are UTF-8"
            if _utf16(text, at)
            else "a NUL byte (0x00), which JSON has nowhere (in a string, write \\u0000)"
        )
    newline = text.rfind("\n", max(line_start, 0), at)
    bad_line = line + text.count("\n", max(line_start, 0), at)
    column = at - (line_start if newline < 0 else newline + 1) + 1
    return LogReadError(f"{kind}: {message}", bad_line, column)


def _utf16(text: str, at: int) -> bool:
    """Return whether the NUL at ``text[at]`` is one of NULs that alternate with ASCII
    characters, as UTF-16 read as UTF-8 gives (``{\\0"\\0`` or ``\\0{\\0"``).

    >>> _utf16('{\\x00"\\x00a\\x00"\\x00', 1), _utf16('{"a": \\x00}', 6)
    (True, False)
    """
    for start in (at - 1, at):
        window = text[max(start, 0) : start + 16]
        odd, even = window[1::2], window[0::2]
        for nuls, chars in ((odd, even), (even, odd)):
            if (
                len(window) >= 4
                and nuls == "\0" * len(nuls)
                and chars.isascii()
                and "\0" not in chars
            ):
                return True
    return False


class _Source:
    """The text of a stream, read on as a value needs more: plain or gzip, UTF-8, no BOM."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.utf8 = codecs.getincrementaldecoder("utf-8")()
        self.offset = 0  # bytes decoded so far, for the place of bad UTF-8
        self.start = True  # no text yet: a byte-order mark here is skipped
        self.what = "file"  # what byte offsets count in: the file, or the decompressed data
        self.read: Callable[[int], bytes] | None = None  # set at the first read
        self.failed: str | None = None  # a fault found after good bytes, raised next time

    def _first(self, size: int) -> bytes:
        """Read the first bytes, and read on through gzip if they start a gzip stream."""
        first = self.stream.read(size)
        while 0 < len(first) < len(_GZIP):  # a short read: too few bytes to tell
            more = self.stream.read(size)
            if not more:
                break
            first += more
        if not first.startswith(_GZIP):
            self.read = self.stream.read
            return first
        self.what = "decompressed data"
        self.read = gunzip(first, self.stream, self)
        return self.read(size)

    def more(self, rest: str, line: int, column: int) -> tuple[str, bool]:
        """Read on after ``rest``, the start of a value not yet whole; return (text, eof).

        ``rest`` starts at ``line`` and 0-based ``column``, which place a fault found in
        what is read. It reads as much as ``rest`` holds (at least ``_CHUNK``), so the
        text of a big value doubles with each read and is decoded O(log n) times: linear
        time in all, where a fixed chunk would decode it n / ``_CHUNK`` times, quadratic.
        Small values read one chunk at a time, so memory stays flat. A read stops near
        ``_MAX_VALUE``.
        """
        if len(rest) > _MAX_VALUE:
            raise LogReadError(
                "not readable: a value runs past 64 MiB without ending", line, column + 1
            )
        size = max(_CHUNK, min(len(rest), _MAX_VALUE + 1 - len(rest)))
        chunk = b""
        if self.failed is None:
            try:
                chunk = self._first(size) if self.read is None else self.read(size)
            except OSError as err:  # of the stream read: a write's error never comes here
                why = f"cannot read: {err.strerror or err}"
                raise _placed(why, rest, line, column=column) from None
        if self.failed is not None and not chunk:  # the good bytes before it are all read
            raise _placed(self.failed, rest, line, column=column)
        eof = not chunk
        pending = self.utf8.getstate()[0]  # the start of a character cut by the last read
        try:
            text = self.utf8.decode(chunk, final=eof)
        except UnicodeDecodeError as err:
            # The text before the bad byte is handed on, and the fault is raised at the
            # next read, after the values in that text: a bad byte loses no whole game
            # before it, wherever the reads cut the input.
            data = pending + chunk  # what err's positions count in
            why = (
                f"byte {self.offset - len(pending) + err.start + 1} of the {self.what} "
                f"is {data[err.start]:#04x}"
                if err.reason != "unexpected end of data"
                else "it ends inside a character"
            )
            if self.offset == 0 and data.startswith((b"\xff\xfe", b"\xfe\xff")):
                why += ": a UTF-16 byte-order mark, and logs are UTF-8"
            self.failed = f"not UTF-8 text ({why})"
            text = data[: err.start].decode("utf-8", "replace")
            eof = False
        self.offset += len(chunk)
        if self.start and text:
            self.start = False
            text = text.removeprefix(_BOM)
        return rest + text, eof


def _placed(message: str, text: str, line: int, *, column: int) -> LogReadError:
    """Return the error ``message`` placed at the end of ``text``, which starts at ``line``
    and 0-based ``column``."""
    newline = text.rfind("\n")
    if newline < 0:
        return LogReadError(message, line, column + len(text) + 1)
    return LogReadError(message, line + text.count("\n"), len(text) - newline)


def _json_message(message: str) -> str:
    """Return json's error message to follow its place: without the trailing " at".

    "Unterminated string starting at" becomes "... starting here" (the place is where the
    string starts); "Invalid control character at" becomes "Invalid control character".
    """
    message = message.removesuffix(" at")
    return message + " here" if message.endswith(" starting") else message
