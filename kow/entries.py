"""What a person types: the one reader of numbers and choices from text.

Every place that turns typed text into a number or a choice goes through this module: the
prompts of ``kow play`` (a card's number, a suit's number, the hand-over, play again, the
analysis offer), every command-line option that takes a seat, a game or a count
(through :class:`kow.cli._options.Count`), and the integer options of scripts built on
argparse, kow's examples and benchmarks among them (:func:`number_type`). A number is
written with the ASCII digits ``0-9`` only: Python's ``int()`` also reads other scripts'
digits (``٣``) and ``str.isdigit()`` is also true of superscripts (``²``, which ``int()``
refuses), so neither decides alone. An entry has at most :data:`MAX_ENTRY` characters.
Every refusal is an :class:`EntryError` whose message says what was typed (escaped, cut
short when long) and what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

__all__ = [
    "MAX_ENTRY",
    "EntryError",
    "allowed_range",
    "check_entry",
    "is_number",
    "number_type",
    "parse_choice",
    "parse_number",
    "shown",
]

MAX_ENTRY = 100
"""The most characters in one typed entry or option value read as a number (the longest
card, ``queen of diamonds``, has 17); a longer one is refused, unread."""

SHOWN = 30
"""The most characters of an entry repeated in a message about it."""

T = TypeVar("T")


class EntryError(ValueError):
    """Raised for an entry that is refused; ``str(err)`` says what was typed and what is
    allowed."""


def shown(text: str) -> str:
    """Return ``text`` as a message quotes it: in quotes, every character that is not
    printable escaped (as ``repr`` writes it), cut to :data:`SHOWN` characters when longer.

    >>> shown("²"), shown("a\\x1b[2Jb")
    ("'²'", "'a\\\\x1b[2Jb'")
    >>> shown("9" * 40)
    "'999999999999999999999999999999...'"
    """
    if len(text) <= SHOWN:
        return repr(text)
    quoted = repr(text[:SHOWN])
    return f"{quoted[:-1]}...{quoted[-1]}"


def check_entry(text: str, what: str = "an entry") -> str:
    """Return ``text`` without the spaces around it; refuse it when it is too long.

    Raises :class:`EntryError` when ``text`` has more than :data:`MAX_ENTRY` characters
    (the message calls it ``what``).

    >>> check_entry("  10h ")
    '10h'
    """
    if len(text) > MAX_ENTRY:
        raise EntryError(f"{shown(text)} is too long: {what} has at most {MAX_ENTRY} characters")
    return text.strip()


def is_number(text: str) -> bool:
    """Return whether ``text`` is meant as a number: digits of any script (``7``, ``²``,
    ``٣``, ``½``), perhaps after a sign, and nothing else but spaces around.

    Such text is read by :func:`parse_number` (which takes only ``0-9``), so that a
    number in another script is refused as a number, not as a card or a name.

    >>> is_number("7"), is_number(" ²"), is_number("-1"), is_number("10h"), is_number("")
    (True, True, True, False, False)
    """
    body = text.strip().lstrip("+-")
    return body.isnumeric()


def allowed_range(low: int, high: int | None = None) -> str:
    """Return the whole numbers ``low`` to ``high`` (no upper bound when None) in words, as
    every message about a number says them: here and in the library's checks of values
    (:func:`kow.settings.check_int`).

    >>> allowed_range(1, 7), allowed_range(0), allowed_range(1, 1)
    ('1 to 7', '0 or more', 'only 1')
    """
    return (
        f"{low} or more" if high is None else f"only {low}" if low == high else f"{low} to {high}"
    )


def parse_number(text: str, low: int, high: int | None = None, *, what: str = "a number") -> int:
    """Return the whole number that ``text`` writes in the digits ``0-9``, from ``low`` to
    ``high`` (no upper bound when None). Spaces around are ignored; a sign, ``_``, a
    decimal point or a digit of another script is refused.

    ``what`` names the thing asked for in the message (``"a card's number"``). Raises
    :class:`EntryError` naming the text (escaped) and the numbers allowed, or, past
    :data:`MAX_ENTRY` characters, the limit.

    >>> parse_number(" 07", 1, 7)
    7
    >>> parse_number("²", 1, 7, what="a card's number")
    Traceback (most recent call last):
    ...
    kow.entries.EntryError: '²' is not a card's number: allowed 1 to 7, in the digits 0-9
    >>> parse_number("8", 1, 7, what="a card's number")
    Traceback (most recent call last):
    ...
    kow.entries.EntryError: '8' is not a card's number: allowed 1 to 7
    """
    body = check_entry(text, what)
    allowed = allowed_range(low, high)
    if not (body.isascii() and body.isdigit()):
        raise EntryError(f"{shown(text)} is not {what}: allowed {allowed}, in the digits 0-9")
    value = int(body)  # at most MAX_ENTRY digits, far below int()'s own limit
    if value < low or (high is not None and value > high):
        raise EntryError(f"{shown(text)} is not {what}: allowed {allowed}")
    return value


def number_type(low: int, high: int | None = None, what: str = "a number") -> Callable[[str], int]:
    """Return argparse's ``type`` for a whole number from ``low`` to ``high`` (no upper
    bound when None), read by :func:`parse_number`: the digits ``0-9`` only, as kow's own
    options read it (``type=int`` would take ``'٣'`` as 3).

    ``what`` names the value in the message. A value refused raises
    :class:`argparse.ArgumentTypeError` with :func:`parse_number`'s message, which argparse
    shows as a usage error (exit 2) naming the option, the value and the numbers allowed.

    >>> import argparse
    >>> parser = argparse.ArgumentParser(prog="bench")
    >>> _ = parser.add_argument("--games", type=number_type(1, 1000, "a number of games"))
    >>> parser.parse_args(["--games", "12"]).games
    12
    >>> number_type(1, 1000, "a number of games")("٣")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '٣' is not a number of games: allowed 1 to 1000, in the digits 0-9
    """

    def number(text: str) -> int:
        try:
            return parse_number(text, low, high, what=what)
        except EntryError as err:
            import argparse  # only when a value is refused: kow's own commands use Click

            raise argparse.ArgumentTypeError(str(err)) from None

    return number


def parse_decimal(text: str, low: int, high: int, *, what: str = "a number") -> float:
    """Return the number that ``text`` writes in the digits ``0-9`` with at most one
    decimal point (``0.25``, ``.5``, ``3``), from ``low`` to ``high``. Spaces around are
    ignored; a sign, an exponent, ``nan``, ``inf`` or a digit of another script is refused.

    Raises :class:`EntryError` naming the text (escaped) and the numbers allowed.

    >>> parse_decimal(" .5", 0, 10)
    0.5
    >>> parse_decimal("1e1", 0, 10)
    Traceback (most recent call last):
    ...
    kow.entries.EntryError: '1e1' is not a number: allowed 0 to 10, in the digits 0-9 and one '.'
    """
    body = check_entry(text, what)
    whole, _, fraction = body.partition(".")
    digits = whole + fraction
    if not (digits and digits.isascii() and digits.isdigit()):
        raise EntryError(
            f"{shown(text)} is not {what}: allowed {allowed_range(low, high)}, in the digits "
            "0-9 and one '.'"
        )
    value = float(body)
    if not low <= value <= high:
        raise EntryError(f"{shown(text)} is not {what}: allowed {allowed_range(low, high)}")
    return value


def parse_choice(text: str, choices: Mapping[str, T], what: str) -> T:
    """Return the value of the answer that ``text`` gives among ``choices`` (keys in lower
    case; ``text`` in any case, spaces around ignored).

    ``what`` says what the answers mean, for the message (``"y to play again, n to
    stop"``). Raises :class:`EntryError` naming the text (escaped) and ``what``.

    >>> parse_choice(" Y", {"y": True, "n": False}, "y or n")
    True
    >>> parse_choice("yes²", {"y": True, "n": False}, "y or n")
    Traceback (most recent call last):
    ...
    kow.entries.EntryError: 'yes²' is not an answer here: type y or n
    """
    key = check_entry(text).lower()
    if key not in choices:
        raise EntryError(f"{shown(text)} is not an answer here: type {what}")
    return choices[key]
