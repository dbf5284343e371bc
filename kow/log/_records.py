"""Read the games of log files in turn, one named record per game.

The one reader of the commands that read logs (``kow verify``, ``replay``, ``export``,
``analyze``): it opens each input (a path, or ``-`` for stdin), reads its games as
:func:`~kow.log.iter_games_and_faults` reads them (a repeated key is a fault of its game), and
yields a :class:`GameRecord` for each game and an :class:`InputEnd` after each input,
with what to say of games that repeat an earlier game of their input whole. A consumer
that stops at an input that can't be read raises :class:`InputError` from its end.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import KW_ONLY, dataclass
from typing import IO, Any

from ..screen import printable
from . import types
from ._canon import KeyOrders
from ._reader import LogReadError, Prove, ProveLine, iter_games_and_faults

__all__ = ["GameRecord", "InputEnd", "InputError", "input_label", "read_logs"]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of an input, as :func:`read_logs` reads it.

    ``label`` names the input in messages (:func:`input_label`); ``index`` counts the
    games of the input from 1; ``line`` (from 1) is where the game starts; ``game`` is the
    value read (a :class:`~kow.log.GameLog` once :func:`kow.verify.verify_game` says so;
    None when it could not be read); ``read`` is the bytes of the inputs read so far
    (an input that cannot tell, a pipe say, counts 0; gzip input counts its compressed
    bytes); ``fault`` is what makes this game alone unreadable (a repeated key, a nesting
    too deep, an integer too long), or None; ``note`` is what to say on stderr of the
    first game of the input that repeats an earlier one whole, else None; ``text`` is the
    game's text when it is as kow writes it (:data:`KEY_ORDERS`, compact, no escape:
    ``json.dumps(game, separators=(",", ":"), ensure_ascii=False)``), else None;
    ``proof`` is what :func:`read_logs`'s ``prove`` returned for the game and its text
    (:func:`kow.log.replay_exact`'s last state of the game, say), or ``prove_line`` for
    its line (then ``game`` may leave out what the proof holds: see :func:`read_logs`), or
    None when it proved nothing or neither was given.
    """

    label: str
    index: int
    line: int
    _: KW_ONLY
    game: Any
    read: int
    fault: LogReadError | None
    note: str | None
    text: str | None = None
    proof: object | None = None


@dataclass(frozen=True, slots=True)
class InputEnd:
    """The end of one input of :func:`read_logs`: read whole, or stopped by a fault.

    ``games`` counts the games read from it; ``opened`` is False when it could not be
    opened; ``why`` says why it could not be opened (the system's words) or read on
    (placed by line and column), and is None when it was read whole; ``note`` is what to
    say on stderr when more than one of its games repeated an earlier one whole.
    """

    label: str
    games: int
    _: KW_ONLY
    opened: bool
    why: str | None
    note: str | None

    def error(self) -> InputError | None:
        """Return the error of an input that could not be opened or read whole, else None."""
        if self.why is None:
            return None
        return InputError(self.label, self.why, opened=self.opened)


class InputError(ValueError):
    """An input that could not be opened (``opened`` False) or read whole (``why`` says
    why): ``FILE: cannot open: why`` or ``FILE: why``."""

    def __init__(self, label: str, why: str, *, opened: bool) -> None:
        super().__init__(f"{label}: {why}" if opened else f"{label}: cannot open: {why}")
        self.label = label
        self.why = why
        self.opened = opened


def input_label(name: str) -> str:
    r"""Return how messages and outputs name the input ``name``: ``stdin`` for ``-``, else
    the path with anything unprintable escaped (a file name can hold an escape sequence or
    an undecodable byte, and is shown, written to CSV and to JSON like text from a log).

    >>> input_label("-"), input_label("a\x1b[31m.jsonl")
    ('stdin', 'a\\x1b[31m.jsonl')
    """
    return "stdin" if name == "-" else printable(name)


def read_logs(
    names: Iterable[str], *, prove: Prove | None = None, prove_line: ProveLine | None = None
) -> Iterator[GameRecord | InputEnd]:
    """Yield a :class:`GameRecord` for each game of the inputs ``names``, in order, and an
    :class:`InputEnd` after each input.

    Each name is a path or ``-`` (stdin), opened when the inputs before it are read; it
    may hold one game, JSON Lines, concatenated values or arrays of games, gzip-compressed
    or not (:func:`~kow.log.iter_games_and_faults`, with a repeated key a fault). An input that
    can't be opened, or can't be read on (not JSON, not UTF-8, a stream's error), ends
    with its ``why``, and the next input is read; an input with no game (empty, or
    ``[]``) ends with ``games`` 0, as jq reads it. Holds one game and a 16-byte digest
    per game of the input read so far. Raises nothing of the input's.

    ``prove`` (:data:`~kow.log._reader.Prove`; :func:`kow.log.replay_exact`, say) is called with
    each game and its text, when the text holds no backslash, before the reader measures
    it (:func:`~kow.log.iter_games_and_faults`): a game it proves (it returns something
    but None, the record's ``proof``) is taken as written canonically, as kow writes it,
    and is not measured; its digest and note are as without ``prove``. A game it does
    not prove is read as without ``prove``, its faults the same. ``prove_line``
    (:data:`~kow.log._reader.ProveLine`; :func:`kow.log.replay_line`, say) is given first
    the line of each game of JSON Lines whose line holds no backslash: a game it proves
    is not read by json, and its record's ``game`` is the value it returns (with
    :func:`~kow.log.replay_line`, the game less its ``rounds``, which the ``proof``'s
    events hold); its ``text``, digest and note are as without it. Lets through what
    interrupts a run (:class:`KeyboardInterrupt`), as ``prove`` and ``prove_line`` must
    raise nothing else.
    """
    before = 0  # the bytes of the inputs read whole
    for name in names:
        label = input_label(name)
        try:
            stream: IO[bytes] = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115
        except OSError as err:
            yield InputEnd(label, 0, opened=False, why=str(err.strerror or err), note=None)
            continue
        seen: dict[bytes, int] = {}  # a game's digest: its index
        repeated = 0
        index = 0
        why = None
        with stream:
            tell = stream.tell if stream.seekable() else None
            try:
                games = iter_games_and_faults(
                    stream, unique_keys=True, orders=_ORDERED, prove=prove, prove_line=prove_line
                )
                for entry in games:
                    index += 1
                    note = None
                    if entry.fault is None:
                        first = seen.setdefault(_digest(entry.value, entry.text), index)
                        if first != index:
                            repeated += 1
                            if repeated == 1:
                                note = (
                                    f"{label}: game {index} (line {entry.line}) repeats game"
                                    f" {first} whole"
                                )
                    read = before + tell() if tell is not None else 0
                    yield GameRecord(label, index, entry.line, game=entry.value, read=read,
                                     fault=entry.fault, note=note, text=entry.text,
                                     proof=entry.proof)  # fmt: skip
            except LogReadError as err:
                why = str(err)
            except OSError as err:
                why = f"cannot read: {err.strerror or err}"
            if tell is not None:
                before += tell()
        note = None
        if why is None and repeated > 1:
            note = f"{label}: {repeated} games in all repeat an earlier game whole"
        yield InputEnd(label, index, opened=True, why=why, note=note)


def _key_orders(*objects: type) -> dict[frozenset[str], tuple[str, ...]]:
    """Return the order of the keys of each object of the log's ``objects`` (TypedDicts,
    their keys in the order kow writes them), by their set: the required keys and any of
    the optional ones. A set that two objects order differently is left out."""
    orders: dict[frozenset[str], tuple[str, ...]] = {}
    clashes: set[frozenset[str]] = set()
    for kind in objects:
        keys = tuple(kind.__annotations__)
        optional = [key for key in keys if key in kind.__optional_keys__]  # type: ignore[attr-defined]
        for size in range(len(optional) + 1):
            for chosen in itertools.combinations(optional, size):
                order = tuple(k for k in keys if k not in optional or k in chosen)
                if orders.setdefault(frozenset(order), order) != order:
                    clashes.add(frozenset(order))
    return {keys: order for keys, order in orders.items() if keys not in clashes}


KEY_ORDERS = _key_orders(
    types.GameLog, types.RulesLog, types.SettingsLog, types.PlayerLog, types.RoundLog,
    types.CutLog, types.CutCardLog, types.VoteLog, types.TrickLog, types.PlayLog,
    types.ResultLog,
)  # fmt: skip
"""The order of the keys of each object of a log, by their set, as kow writes them (the
log's types, key for key): the order of the canonical text of a game (:func:`_digest`)."""
_ORDERED = KeyOrders(KEY_ORDERS.values())


def _digest(game: Any, text: str | None = None) -> bytes:
    """Return 16 bytes that tell ``game`` from any other value (keys in any order).

    The digest is of the game's canonical text: compact, each object's keys in the order
    of :data:`KEY_ORDERS` (any other set of keys sorted); ``text``, when given, is that
    text (the reader proved it: no object need be reordered nor the game written again).
    """
    if text is None:
        text = json.dumps(_ordered(game), separators=(",", ":"), ensure_ascii=False)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _ordered(value: Any) -> Any:
    """Return ``value`` with the keys of each object in their canonical order (:data:`KEY_ORDERS`,
    else sorted)."""
    if isinstance(value, list):
        return [_ordered(item) for item in value]
    if not isinstance(value, dict):
        return value
    order = KEY_ORDERS.get(frozenset(value))
    if order is None:
        order = tuple(sorted(value))
    return {key: _ordered(value[key]) for key in order}
