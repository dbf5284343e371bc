"""Check the shape of a log's values: types, keys, ranges, cards and seats.

Part of the verifier, which is deliberately independent of the engine: this module imports
nothing from :mod:`kow` and states the log format (``docs/log-format.md``, version 1) on its
own. It holds the format's constants (keys, ranks, suits, the names of each setting) and
:class:`Shape`, the typed accessors the rules walk reads every value through. Each accessor
returns the value with its type checked, or stops the walk with the first fault (a
:class:`Stop`) naming the key path, so no wrong type or missing key can raise anything else.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NoReturn

__all__ = [
    "DOGS_LIFE",
    "END_KEYS",
    "FORMAT",
    "KINDS",
    "LEADS",
    "MAX_CUT",
    "MAX_KOW_VERSION",
    "MAX_NAME",
    "MAX_PLAYERS",
    "MAX_SEED",
    "MIN_PLAYERS",
    "RANKS",
    "ROUND_KEYS",
    "RULE_KEYS",
    "SUITS",
    "TERMINATIONS",
    "TOP_KEYS",
    "TRICK_KEYS",
    "TRUMPS",
    "TRUMP_METHODS",
    "NOT_TEXT",
    "VERSION",
    "Shape",
    "Stop",
    "check_name",
    "rank_of",
    "show",
    "show_seats",
    "name_fault",
    "suit_of",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
FORMAT = "kow-log"
VERSION = 1
MAX_SEED = 2**53 - 1  # every JSON tool reads such ints exactly
MIN_PLAYERS = 2
MAX_PLAYERS = 7
MAX_CUT = 51
MAX_KOW_VERSION = 64  # kow_version: 1 to 64 printable ASCII characters, as the schema says
DOGS_LIFE = ("off", "once-per-game", "once-per-player")
TRUMPS = ("winner-chooses", "fixed")
LEADS = ("most-tricks", "dealer-left")
TERMINATIONS = ("last-standing", "sweep", "final-trick")  # result.termination: since 0.6.0
KINDS = ("random", "heuristic", "search", "ismcts", "agent", "human")  # agent: since 0.5.0
TRUMP_METHODS = ("turned-up", "chosen", "fixed", "vote", "none")
MAX_ITERATIONS = 100_000
SETTINGS = {"search": ("iterations",), "ismcts": ("iterations",)}
"""The settings a player of each kind may record (``players[i].settings``, since 0.5.0):
a ``search`` bot's deals and an ``ismcts`` bot's iterations per decision, each an int 1
to :data:`MAX_ITERATIONS`. Other kinds record none."""

MAX_NAME = 64
"""The most characters (code points) in a player's name: a name fits a line of any screen,
and a hand-made log cannot make ``replay`` or ``analyze`` repeat megabytes at each trick."""
NOT_TEXT = (
    "\\u0000-\\u001f\\u007f-\\u00a0\\u00ad\\u0600-\\u0605\\u061c\\u06dd\\u070f"
    "\\u0890\\u0891\\u08e2\\u1680\\u180e\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u206f"
    "\\u3000\\ud800-\\udfff\\ue000-\\uf8ff\\ufeff\\ufff9-\\ufffb"
)
"""The characters no name may hold, as the inside of a regular expression's class: the C0
and C1 control characters and DEL (a terminal takes them as commands), the line and
paragraph separators, the controls of bidirectional text (they reorder what follows), the
other invisible format characters (a soft hyphen, a zero-width space or joiner, a word
joiner, a byte-order mark...: two names that look the same could differ), the spaces
other than U+0020 (a no-break space, an ideographic space), the private-use characters
(each font shows them its own way) and the surrogates (no character: an undecodable byte
carried from the command line). These are the characters of the Basic Multilingual Plane
that the screen would show escaped (:func:`kow.screen.printable`). Stated
as ranges, not as :meth:`str.isprintable` (whose answer changes with the Unicode version
of the interpreter), so every Python gives the same verdict, and the JSON Schema's
name has ``"not": {"pattern": "[NOT_TEXT]"}`` word for word."""
_NOT_TEXT = re.compile(f"[{NOT_TEXT}]")
_BIDI_OR_LINE = frozenset([0x061C, 0x200E, 0x200F, *range(0x2028, 0x202F), *range(0x2066, 0x206A)])


def name_fault(value: object) -> str | None:
    r"""Return why ``value`` is not a player's name, or None when it is one: the one rule.

    A name is a string of 1 to :data:`MAX_NAME` characters, none of them in
    :data:`NOT_TEXT`. Every writer of logs (:func:`kow.log.build`, :func:`kow.log.dumps`,
    ``kow simulate``, ``kow play --name``, the adapters' ``log()``), the verifier and the
    JSON Schema follow it. The reason starts with the value, shortened (see :func:`show`).

    >>> name_fault("Zoë") is None
    True
    >>> name_fault("tab\there")
    "'tab\\there' has a control character (U+0009); names are printable text"
    >>> name_fault("caf\udce9")
    "'caf\\udce9' holds an undecodable byte 0xe9 (a lone surrogate); names are text"
    >>> name_fault("Jo\u200dan"), name_fault("Ada\u00a0Lovelace")  # invisible or unlike a space
    ... # doctest: +NORMALIZE_WHITESPACE
    ("'Jo\\u200dan' has an invisible format character (U+200D); names are printable text",
     "'Ada\\xa0Lovelace' has a space other than U+0020 (U+00A0); names are printable text")
    >>> name_fault("x" * 65)
    "'xxxxxxxxxxxxxxxxxxxx...' has 65 characters; a name has at most 64"
    """
    if not isinstance(value, str):
        return f"expected a string, got {show(value)}"
    if not value:
        return "'' is empty; every player has a name"
    if len(value) > MAX_NAME:
        return f"{show(value)} has {len(value)} characters; a name has at most {MAX_NAME}"
    found = _NOT_TEXT.search(value)
    if found is None:
        return None
    code = ord(found.group())
    if 0xDC80 <= code <= 0xDCFF:
        return (
            f"{show(value)} holds an undecodable byte 0x{code - 0xDC00:02x} (a lone "
            "surrogate); names are text"
        )
    if 0xD800 <= code <= 0xDFFF:
        return f"{show(value)} holds the lone surrogate U+{code:04X}, which is no character"
    if code <= 0x9F:
        return f"{show(value)} has a control character (U+{code:04X}); names are printable text"
    if code in _BIDI_OR_LINE:
        return (
            f"{show(value)} has a line separator or a bidirectional control (U+{code:04X}); "
            "names are printable text"
        )
    what = {"Zs": "a space other than U+0020", "Co": "a private-use character"}.get(
        unicodedata.category(found.group()), "an invisible format character"
    )
    return f"{show(value)} has {what} (U+{code:04X}); names are printable text"


def check_name(name: object, what: str = "name") -> str:
    """Return ``name`` if it is a player's name, else raise :class:`ValueError` naming it.

    A name is a string of 1 to :data:`MAX_NAME` (64) characters with no control character,
    line separator, bidirectional control or lone surrogate (an undecodable byte): the
    one rule of ``docs/log-format.md`` (:func:`name_fault`), which ``kow verify`` and the
    JSON Schema apply to every log read; ``kow.log.check_name`` is this function.
    ``what`` names the value in the message, e.g. ``players[2].name``.

    >>> check_name("Zoë")
    'Zoë'
    >>> check_name("a" * 70, "--name")
    Traceback (most recent call last):
    ...
    ValueError: --name: 'aaaaaaaaaaaaaaaaaaaa...' has 70 characters; a name has at most 64
    """
    fault = name_fault(name)
    if fault is not None:
        raise ValueError(f"{what}: {fault}")
    return name  # type: ignore[return-value]  # name_fault checked that it is a str


TOP_KEYS = ("format", "version", "kow_version", "seed", "rules", "players", "rounds", "result")
RULE_KEYS = (
    "players",
    "start_cards",
    "dogs_life",
    "trump",
    "final_round_trump",
    "lead",
    "eliminated_vote",
    "sweep_wins",
)
ROUND_KEYS = (
    "number",
    "hand_size",
    "dealer",
    "cut",
    "hands",
    "turned_up",
    "trump",
    "trump_method",
    "trump_chosen_by",
    "tie_cut",
    "votes",
    "leader",
    "dogs_life",
    "tricks",
)
END_KEYS = ("tricks_won", "eliminated", "dogs_life_granted", "revived")
TRICK_KEYS = ("number", "leader", "plays", "winner")


class Stop(Exception):
    """Carry the first fault out of the walk.

    ``round`` and ``trick`` count from 1 and ``seat`` is 0-based, each ``None`` when the
    fault is not tied to one; :func:`kow.verify.verify_game` turns them into a ``Fault``.
    """

    def __init__(
        self, round: int | None, trick: int | None, seat: int | None, *, message: str
    ) -> None:
        super().__init__(message)
        self.round = round
        self.trick = trick
        self.seat = seat
        self.message = message


def rank_of(card: str) -> int:
    """Return the rank of a checked card, 0 (two) to 12 (ace).

    >>> rank_of("Th"), rank_of("2c"), rank_of("As")
    (8, 0, 12)
    """
    return RANKS.index(card[0])


def suit_of(card: str) -> str:
    """Return the suit letter of a checked card.

    >>> suit_of("Th")
    'h'
    """
    return card[1]


def show(value: object) -> str:
    """Describe a JSON value briefly, for a message (never raises, never long).

    >>> show(None), show(True), show(7), show("x" * 30), show([1]), show(2**70)
    ('null', 'true', '7', "'xxxxxxxxxxxxxxxxxxxx...'", 'an array', 'a 71-bit int')
    >>> show(2.5), show(float("inf")), show(float("-inf")), show(float("nan"))
    ('2.5', 'a number past the range of a float', 'a number past the range of a float', 'NaN')

    A number written past the range of a float (``1e400``) or Python's ``Infinity`` reads
    as an infinite float; ``NaN`` is Python's word, not JSON.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if value.bit_length() > 64:
            return f"a {value.bit_length()}-bit int"
        return str(value)
    if isinstance(value, str):
        text = value if len(value) <= 20 else value[:20] + "..."
        return repr(text)
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (_INFINITY, -_INFINITY):
            return "a number past the range of a float"
        return repr(value)
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


_INFINITY = float("inf")


def show_seats(seats: list[int]) -> str:
    """Write a list of seats for a message.

    >>> show_seats([0, 2])
    '[0, 2]'
    """
    return "[" + ", ".join(str(s) for s in seats) + "]"


def _is_card(value: str) -> bool:
    """Return whether ``value`` is a card in canonical notation: rank then suit (``"Th"``)."""
    return len(value) == 2 and value[0] in RANKS and value[1] in SUITS


def _at(path: str, message: str) -> str:
    return f"{path}: {message}" if path else message


class Shape:
    """Read a log's values with their types checked; ``fail`` stops at the first fault.

    ``round`` and ``trick`` are where the walk is (from 1, ``None`` outside one): every
    fault is placed there. ``n`` is the number of seats, once ``rules.players`` is read.
    """

    def __init__(self) -> None:
        self.round: int | None = None
        self.trick: int | None = None
        self.n = 0

    def fail(self, message: str, seat: int | None = None) -> NoReturn:
        """Stop the walk with a fault at the current round and trick.

        Raises :class:`Stop`, always.
        """
        raise Stop(self.round, self.trick, seat, message=message)

    def obj(
        self, value: object, path: str, keys: tuple[str, ...], *, optional: tuple[str, ...] = ()
    ) -> dict[str, object]:
        """Return an object that has every key of ``keys``, and others only from ``optional``
        (``value`` itself when it has ``keys`` alone, else a copy)."""
        if not isinstance(value, dict):
            self.fail(_at(path, f"expected an object, got {show(value)}"))
        for key in keys:
            if key not in value:
                self.fail(_at(path, f"missing key {key!r}"))
        if len(value) == len(keys):  # every key is one of keys: no other to look for
            return value
        out: dict[str, object] = {key: value[key] for key in keys}
        for other in value:  # any JSON key, maybe not a str (a name of its own: mypyc types
            # a loop's name by its first use)
            if not isinstance(other, str) or (other not in keys and other not in optional):
                self.fail(_at(path, f"unknown key {show(other)}"))
            out[other] = value[other]
        return out

    def list_(self, value: object, path: str) -> list[object]:
        """Return a copy of a list."""
        if not isinstance(value, list):
            self.fail(f"{path}: expected an array, got {show(value)}")
        return list(value)

    def int_(self, value: object, path: str, *, lo: int, hi: int) -> int:
        """Return an int (not a bool) from ``lo`` to ``hi``, both included."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{path}: expected an int from {lo} to {hi}, got {show(value)}")
        if not lo <= value <= hi:
            self.fail(f"{path}: {show(value)} is out of range {lo} to {hi}")
        return value

    def any_int(self, value: object, path: str) -> int:
        """Return an int (not a bool) of any size."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{path}: expected an int, got {show(value)}")
        return value

    def seat_at(self, value: object, path: str, *, index: int, key: str) -> int:
        """Return a seat, as :meth:`seat` does at ``PATH[INDEX].KEY``: that path is made only
        for a fault (the walk reads a seat of every play)."""
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < self.n:
            return value
        return self.seat(value, f"{path}[{index}].{key}")

    def card_at(self, value: object, path: str, *, index: int, key: str = "") -> str:
        """Return a card, as :meth:`card` does at ``PATH[INDEX]`` (``.KEY`` after it when
        given): that path is made only for a fault (the walk reads every card dealt and
        played)."""
        if isinstance(value, str) and _is_card(value):
            return value
        return self.card(value, f"{path}[{index}].{key}" if key else f"{path}[{index}]")

    def obj_at(
        self,
        value: object,
        path: str,
        *,
        index: int,
        keys: tuple[str, ...],
        optional: tuple[str, ...],
    ) -> dict[str, object]:
        """Return an object, as :meth:`obj` does at ``PATH[INDEX]``: that path is made only
        for a fault (the walk reads every play)."""
        if isinstance(value, dict):
            found = 0
            for key in keys:
                found += key in value
            if found == len(keys):
                for other in value:
                    if not isinstance(other, str) or (other not in keys and other not in optional):
                        break
                else:
                    return value
        return self.obj(value, f"{path}[{index}]", keys, optional=optional)

    def seat(self, value: object, path: str) -> int:
        """Return a seat: an int from 0 to ``n - 1``."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{path}: expected a seat (an int), got {show(value)}")
        if not 0 <= value < self.n:
            self.fail(f"{path}: {show(value)} is not a seat (0 to {self.n - 1})")
        return value

    def opt_seat(self, value: object, path: str) -> int | None:
        """Return a seat, or ``None`` for null."""
        return None if value is None else self.seat(value, path)

    def bool_(self, value: object, path: str) -> bool:
        """Return true or false."""
        if not isinstance(value, bool):
            self.fail(f"{path}: expected true or false, got {show(value)}")
        return value

    def str_(self, value: object, path: str) -> str:
        """Return a string."""
        if not isinstance(value, str):
            self.fail(f"{path}: expected a string, got {show(value)}")
        return value

    def ascii_text(self, value: object, path: str, most: int) -> str:
        """Return a string of 1 to ``most`` printable ASCII characters (space to ``~``).

        Nothing else can reach a terminal or a table from such a field: no control
        character, escape sequence or bidirectional override.
        """
        text = self.str_(value, path)
        if not 1 <= len(text) <= most or not (text.isascii() and text.isprintable()):
            self.fail(
                f"{path}: {show(text)} is not 1 to {most} printable ASCII characters (space to '~')"
            )
        return text

    def choice(self, value: object, path: str, allowed: tuple[str, ...]) -> str:
        """Return a string that is one of ``allowed``."""
        if not isinstance(value, str) or value not in allowed:
            names = ", ".join(repr(a) for a in allowed)
            self.fail(f"{path}: expected one of {names}, got {show(value)}")
        return value

    def card(self, value: object, path: str) -> str:
        """Return a card in canonical notation: rank then suit (``"Th"``)."""
        if not isinstance(value, str) or not _is_card(value):
            self.fail(f"{path}: {show(value)} is not a card")
        return value

    def opt_card(self, value: object, path: str) -> str | None:
        """Return a card, or ``None`` for null."""
        return None if value is None else self.card(value, path)

    def opt_suit(self, value: object, path: str) -> str | None:
        """Return a suit letter (``"c"``, ``"d"``, ``"h"``, ``"s"``), or ``None`` for null."""
        if value is None:
            return None
        if not isinstance(value, str) or len(value) != 1 or value not in SUITS:
            self.fail(f"{path}: {show(value)} is not a suit ('c', 'd', 'h', 's' or null)")
        return value

    def seat_list(self, value: object, path: str) -> list[int]:
        """Return a list of seats, ascending without repeats."""
        items = self.list_(value, path)
        seats = [self.seat(item, f"{path}[{i}]") for i, item in enumerate(items)]
        if any(a >= b for a, b in zip(seats, seats[1:], strict=False)):
            self.fail(f"{path}: seats must be ascending without repeats, got {show_seats(seats)}")
        return seats
