"""The settings of a run and their bounds, each stated once: a seed, the games, the first
game, the processes, a bot's deals per decision, an analysis's deals per decision.

Each is an :class:`IntSetting` (its name, bounds and what it is in words) whose check
raises :class:`SettingError` naming the value. The library's functions check their
arguments with it, and the command line's options (``kow.cli._options.Count.of``) read
the typed text with the same bounds and words, so both refuse the same values with the
same message. The rule settings of a game are :class:`kow.rules.Rules`.
"""

from __future__ import annotations

import operator
import os
from typing import NamedTuple

from .entries import allowed_range

__all__ = [
    "ANALYSIS_DEALS",
    "FIRST_GAME",
    "GAMES",
    "JOBS",
    "MAX_GAMES",
    "MAX_ITERATIONS",
    "MAX_JOBS",
    "MAX_SEED",
    "SEARCH_ITERATIONS",
    "SEED",
    "IntSetting",
    "SettingError",
    "check_analysis_iterations",
    "check_bool",
    "check_first_game",
    "check_games",
    "check_int",
    "check_iterations",
    "check_jobs",
    "check_seed",
    "draw_seed",
    "is_int",
    "plain_integer",
]

MAX_SEED = 2**53 - 1
"""Seeds are ints 0..2^53-1, which every JSON tool (jq, JavaScript, pandas) reads exactly."""

MAX_JOBS = 4 * (os.cpu_count() or 1)
"""The most processes a run may ask for (``--jobs``): more than 4 per CPU only adds start-up."""
MAX_GAMES = 10**12
"""The most games one run plays, and the last first game: more than any run can play."""
MAX_ITERATIONS = 100_000
"""The most deals (``search``) or iterations (``ismcts``) a bot may take per decision
(near a minute a decision)."""


class SettingError(ValueError):
    """Raised for a setting of a game or a run outside what is allowed; names the value.

    ``setting`` names the setting (``seed``, ``jobs``, a field of :class:`Rules`...),
    ``value`` is the value given and ``allowed`` says in words what is allowed. The
    library raises it, and the command line refuses the same value of the option with the
    same words (a usage error, exit 2): each check is stated once, and used by both.
    """

    def __init__(
        self, setting: str, value: object, allowed: str | None, *, message: str = ""
    ) -> None:
        super().__init__(message or f"{setting} must be {allowed}, not {value!r}")
        self.setting = setting
        self.value = value
        self.allowed = allowed


def check_int(setting: str, value: object, *, lo: int, hi: int | None, what: str) -> int:
    """Return ``value`` as a plain int from ``lo`` to ``hi`` (no bound when None), or raise
    :class:`SettingError`: "VALUE is not WHAT: allowed LO to HI", the words of the
    command line's options (:func:`kow.entries.parse_number`).

    Any integer type counts as its int (a numpy integer, say: what :func:`operator.index`
    takes), but not a bool, a float or a string.

    >>> check_int("jobs", 3, lo=1, hi=8, what="a number of processes")
    3
    >>> check_int("jobs", True, lo=1, hi=8, what="a number of processes")
    Traceback (most recent call last):
    ...
    kow.settings.SettingError: True is not a number of processes: allowed 1 to 8
    """
    number = plain_integer(value)
    if not is_int(number) or number < lo or (hi is not None and number > hi):  # type: ignore[operator]
        allowed = allowed_range(lo, hi)
        raise SettingError(
            setting, value, allowed, message=f"{value!r} is not {what}: allowed {allowed}"
        )
    return int(number)  # type: ignore[call-overload,no-any-return]  # an int, checked


def check_bool(setting: str, value: object) -> bool:
    """Return ``value`` if it is True or False, else raise :class:`SettingError`.

    A numpy bool counts as its bool; 0, 1 and strings do not.

    >>> check_bool("pretty", 1)
    Traceback (most recent call last):
    ...
    kow.settings.SettingError: pretty must be true or false, not 1
    """
    if isinstance(value, bool):
        return value
    kind = type(value)
    if kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_"):  # numpy 2 and 1
        return bool(value)
    raise SettingError(setting, value, "true or false")


class IntSetting(NamedTuple):
    """An int setting of a game or a run, stated once: its name, bounds and what it is.

    :meth:`check` is what the library calls; the command line's option of the setting
    (``kow.cli._options.Count.of(SETTING)``) reads the typed text with these bounds and
    words, so both refuse the same values with the same message.
    """

    name: str
    lo: int
    hi: int | None
    what: str
    """What a value is, for the message: "a seed", "a number of games"."""

    def check(self, value: object) -> int:
        """Return ``value`` as a plain int within the bounds (see :func:`check_int`)."""
        return check_int(self.name, value, lo=self.lo, hi=self.hi, what=self.what)


SEED = IntSetting("seed", 0, MAX_SEED, "a seed")
"""A seed of a run, a game or an analysis (``--seed``): 0 to 2^53-1."""
GAMES = IntSetting("games", 1, MAX_GAMES, "a number of games")
"""The number of games of a run (``--games``)."""
FIRST_GAME = IntSetting("first_game", 0, MAX_GAMES, "a game number")
"""The first game (0-based) of a part of a run (``--first-game``)."""
JOBS = IntSetting("jobs", 1, MAX_JOBS, "a number of processes")
"""The processes of a run (``--jobs``)."""
SEARCH_ITERATIONS = IntSetting("search_iterations", 1, MAX_ITERATIONS, "a number of deals")
"""A search bot's deals (or an ismcts bot's iterations) per decision (``--search-deals``)."""
ANALYSIS_DEALS = IntSetting("iterations", 2, MAX_ITERATIONS, "a number of deals")
"""The deals per decision of an analysis, two at least for an interval
(``kow analyze --deals``)."""


def draw_seed() -> int:
    """Return a fresh seed (0 to 10^9 - 1) from the operating system's random source, for
    games and runs given no seed (``kow play``, ``kow simulate``, an online table)."""
    import secrets

    return secrets.randbelow(10**9)


def check_seed(seed: object) -> int:
    """Return ``seed`` as an int, or raise :class:`SettingError` unless it is a kow seed.

    A seed is an int 0 to 2^53-1 (:data:`MAX_SEED`, exact in every JSON tool), or any
    integer type holding one (a numpy integer, say), but not a bool or a float
    (:data:`SEED`). ``--seed`` and every function of the library that takes a seed check
    it so.

    >>> check_seed(7)
    7
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    kow.settings.SettingError: -1 is not a seed: allowed 0 to 9007199254740991
    """
    return SEED.check(seed)


def check_games(count: object) -> int:
    """Return the number of games of a run as an int (:data:`GAMES`: 1 to
    :data:`MAX_GAMES`). Raises :class:`SettingError` naming the value."""
    return GAMES.check(count)


def check_first_game(first: object) -> int:
    """Return the first game (0-based) of a part of a run as an int (:data:`FIRST_GAME`:
    0 to :data:`MAX_GAMES`). Raises :class:`SettingError` naming the value."""
    return FIRST_GAME.check(first)


def check_jobs(jobs: object) -> int:
    """Return the processes of a run as an int (:data:`JOBS`: 1 to :data:`MAX_JOBS`).
    Raises :class:`SettingError` naming the value."""
    return JOBS.check(jobs)


def check_iterations(
    iterations: object, setting: str = SEARCH_ITERATIONS.name, what: str = SEARCH_ITERATIONS.what
) -> int:
    """Return a bot's deals or iterations per decision as an int (:data:`SEARCH_ITERATIONS`:
    1 to :data:`MAX_ITERATIONS`); ``setting`` and ``what`` name it (``ismcts_iterations``,
    "a number of iterations"). Raises :class:`SettingError` naming the value."""
    return SEARCH_ITERATIONS._replace(name=setting, what=what).check(iterations)


def check_analysis_iterations(iterations: object) -> int:
    """Return the deals per decision of an analysis as an int (:data:`ANALYSIS_DEALS`:
    2 to :data:`MAX_ITERATIONS`). Raises :class:`SettingError` naming the value."""
    return ANALYSIS_DEALS.check(iterations)


def plain_integer(value: object) -> object:
    """Return ``value`` as a plain int when it is of an integer type (a numpy integer), but
    not a bool; else ``value`` as it is.

    >>> plain_integer(True), plain_integer(3.0), plain_integer(7)
    (True, 3.0, 7)
    """
    if isinstance(value, (bool, int, float, str)) or not hasattr(type(value), "__index__"):
        return value
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:  # a numpy bool, say
        return value


def is_int(value: object) -> bool:
    """Return whether ``value`` is an int and not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)
