"""The rule settings of a game: one frozen value, one named field per rule.

The defaults are those of the rules text (seeds 000/001/003). ``docs/rules.md`` gives the
source of each rule and the option that changes it.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Mapping
from dataclasses import KW_ONLY, asdict, dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast

from .entries import allowed_range

if TYPE_CHECKING:
    from .log import RulesLog

__all__ = [
    "ANALYSIS_DEALS",
    "DOGS_LIFE",
    "FIRST_GAME",
    "GAMES",
    "JOBS",
    "LEADS",
    "MAX_GAMES",
    "MAX_ITERATIONS",
    "MAX_JOBS",
    "MAX_PLAYERS",
    "MAX_SEED",
    "MIN_PLAYERS",
    "PRESETS",
    "Rules",
    "SEARCH_ITERATIONS",
    "SEED",
    "IntSetting",
    "RulesError",
    "SettingError",
    "TRUMPS",
    "check_analysis_iterations",
    "check_bool",
    "check_first_game",
    "check_games",
    "check_int",
    "check_iterations",
    "check_jobs",
    "check_rules",
    "check_seed",
    "preset_of",
]

MAX_SEED = 2**53 - 1
"""Seeds are ints 0..2^53-1, which every JSON tool (jq, JavaScript, pandas) reads exactly."""
MIN_PLAYERS = 2
MAX_PLAYERS = 7
DOGS_LIFE = ("off", "once-per-game", "once-per-player")
TRUMPS = ("winner-chooses", "fixed")
LEADS = ("most-tricks", "dealer-left")

DogsLife = Literal["off", "once-per-game", "once-per-player"]
TrumpRule = Literal["winner-chooses", "fixed"]
LeadRule = Literal["most-tricks", "dealer-left"]


MAX_JOBS = 4 * (os.cpu_count() or 1)
"""The most processes a run may ask for (``--jobs``): more than 4 per CPU only adds start-up."""
MAX_GAMES = 10**12
"""The most games one run plays, and the last first game (16 years at 2,000 games/s)."""
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
    kow.rules.SettingError: True is not a number of processes: allowed 1 to 8
    """
    number = _integer(value)
    if not _is_int(number) or number < lo or (hi is not None and number > hi):  # type: ignore[operator]
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
    kow.rules.SettingError: pretty must be true or false, not 1
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
"""A search bot's deals (or an ismcts bot's iterations) per decision (``--search-iterations``)."""
ANALYSIS_DEALS = IntSetting("iterations", 2, MAX_ITERATIONS, "a number of deals")
"""The deals per decision of an analysis, two at least for an interval
(``kow analyze --iterations``)."""


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
    kow.rules.SettingError: -1 is not a seed: allowed 0 to 9007199254740991
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


class RulesError(SettingError):
    """Raised for a rule setting outside what the rules allow; the message names the value.

    ``setting`` names the setting at fault (a field of :class:`Rules`, or ``"dealer"``),
    ``value`` is the value given and ``allowed`` says in words what is allowed; the
    message reads "SETTING must be ALLOWED, not VALUE". For an unknown or missing key of a
    log's ``rules`` object, ``setting`` is that key and ``allowed`` is None.
    """


@dataclass(frozen=True)
class Rules:
    """Every rule setting of one game.

    Fields (each is a key of the log's ``rules`` object):

    - ``players``: 2..7, each for themselves (rules text, "Joueurs").
    - ``start_cards``: cards dealt to each player in round 1; each later round deals one
      fewer, down to 1 (rules text, "Mise en place" 2 and 4, "Variantes": 6 or 8). Allowed:
      1..n with ``players * start_cards + 1 <= 52``, so a card is left to turn up.
    - ``dogs_life``: ``"off"`` (default), ``"once-per-game"`` (the traditional rule,
      seeds 002 and 004) or ``"once-per-player"`` (rules text, "Déroulement" 5).
    - ``trump``: ``"winner-chooses"`` (rules text, "Mise en place" 5) or ``"fixed"``
      (rules text, "Variantes": the turned-up suit of round 1 stays trump).
    - ``final_round_trump``: whether the final 1-card round has a trump (rules text,
      "Variantes": without it, the last round is played with no trump).
    - ``lead``: ``"most-tricks"`` (rules text, "Déroulement" 1) or ``"dealer-left"``.
    - ``eliminated_vote``: knocked-out players vote for the next trump (rules text,
      "Variantes").
    - ``sweep_wins``: a player who wins every trick of a round wins the game at once
      (rules text, "Déroulement" 6).

    Raises :class:`RulesError` on construction for a value outside those ranges.
    """

    players: int = 4
    start_cards: int = 7
    dogs_life: DogsLife = "off"
    _: KW_ONLY
    trump: TrumpRule = "winner-chooses"
    final_round_trump: bool = True
    lead: LeadRule = "most-tricks"
    eliminated_vote: bool = False
    sweep_wins: bool = True

    def __post_init__(self) -> None:
        # Any integer type (a numpy integer, say) counts as its int, kept as a plain int.
        for name in ("players", "start_cards"):
            object.__setattr__(self, name, _integer(getattr(self, name)))
        if not _is_int(self.players) or not (MIN_PLAYERS <= self.players <= MAX_PLAYERS):
            raise RulesError("players", self.players, f"{MIN_PLAYERS} to {MAX_PLAYERS}")
        most = max_start_cards(self.players)
        if not _is_int(self.start_cards) or not (1 <= self.start_cards <= most):
            raise RulesError(
                "start_cards",
                self.start_cards,
                f"1 to {most} with {self.players} players "
                "(players x cards + 1 <= 52, so a card is left to turn up)",
            )
        _check_choice("dogs_life", self.dogs_life, DOGS_LIFE)
        _check_choice("trump", self.trump, TRUMPS)
        _check_choice("lead", self.lead, LEADS)
        for name in ("final_round_trump", "eliminated_vote", "sweep_wins"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(name, getattr(self, name), "true or false")

    def check_seat(self, seat: object, what: str = "seat") -> int:
        """Return ``seat`` as a plain int if it is a seat of this game (0 to players - 1),
        else raise :class:`RulesError`. A numpy integer counts as its int; a bool does not.

        ``what`` names the value in the message, e.g. "dealer".

        >>> Rules(players=3).check_seat(3, "dealer")
        Traceback (most recent call last):
        ...
        kow.rules.RulesError: dealer must be a seat 0 to 2 with 3 players, not 3
        """
        seat = _integer(seat)
        if not _is_int(seat) or not 0 <= seat < self.players:  # type: ignore[operator]
            raise RulesError(
                what, seat, f"a seat 0 to {self.players - 1} with {self.players} players"
            )
        return int(seat)  # type: ignore[call-overload,no-any-return]  # an int, checked

    def to_dict(self) -> RulesLog:
        """Return the settings as the log's ``rules`` object (a new dict, keys in field order)."""
        return cast("RulesLog", asdict(self))  # its keys are the fields (test_log_types.py)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Build rules from a log's ``rules`` object.

        Raises :class:`RulesError` for an unknown or missing key, or a value out of range.
        """
        names = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - names)
        if unknown:
            raise RulesError(unknown[0], None, None, message=f"unknown rule setting {unknown[0]!r}")
        missing = sorted(names - set(data))
        if missing:
            raise RulesError(missing[0], None, None, message=f"missing rule setting {missing[0]!r}")
        return cls(**data)


def check_rules(rules: object) -> Rules:
    """Return ``rules`` if it is a :class:`Rules`, else raise :class:`TypeError` naming it.

    Every entry point that takes a game's rules (:class:`kow.engine.State`,
    :func:`kow.game.new_game`, :class:`kow.runs.batch.Run`) checks them so, with these
    words.

    >>> check_rules({"players": 3})
    Traceback (most recent call last):
    ...
    TypeError: rules must be a kow.rules.Rules, not {'players': 3}
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a kow.rules.Rules, not {rules!r}")
    return rules


PRESETS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        "traditional": MappingProxyType({"dogs_life": "once-per-game", "sweep_wins": False}),
        "rules-text": MappingProxyType({}),
    }
)
"""Named sets of rule settings: preset name to the fields of :class:`Rules` it sets.

A field a preset does not name keeps its default. ``--preset`` on the command line starts
from one, and options given explicitly override it.

- ``"traditional"``: the rules of seeds 002 and 004, a dog's life once per game (seed 002,
  'Elimination'; seed 004) and no sweep rule (neither seed has one). Everything else they
  state agrees with the defaults: 7 cards down to 1, round 1's trump turned up, the
  most-tricks player choosing trump after looking at the new hand (ties cut), the dealer's
  left leading round 1, the game won by the last player left or by the 1-card round's
  trick (seed 004). They do not say who leads later rounds, so the default stays.
- ``"rules-text"``: the defaults, those of the rules text (seeds 000/001/003).
"""


def preset_of(rules: Rules) -> str | None:
    """Return the name of the preset in :data:`PRESETS` that ``rules`` follow, or None.

    The number of players is not part of a preset: any count matches.

    >>> preset_of(Rules(players=3, dogs_life="once-per-game", sweep_wins=False))
    'traditional'
    >>> preset_of(Rules()), preset_of(Rules(dogs_life="once-per-player"))
    ('rules-text', None)
    """
    for name, settings in PRESETS.items():
        if rules == replace(Rules(players=rules.players), **settings):
            return name
    return None


def max_start_cards(players: int) -> int:
    """Return the most cards round 1 can deal to ``players`` players and still turn one up.

    >>> max_start_cards(7), max_start_cards(2)
    (7, 25)
    """
    return (52 - 1) // players


def _integer(value: object) -> object:
    """Return ``value`` as a plain int when it is of an integer type (a numpy integer), but
    not a bool; else ``value`` as it is.

    >>> _integer(True), _integer(3.0), _integer(7)
    (True, 3.0, 7)
    """
    if isinstance(value, (bool, int, float, str)) or not hasattr(type(value), "__index__"):
        return value
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:  # a numpy bool, say
        return value


def _is_int(value: object) -> bool:
    """Return whether ``value`` is an int and not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise RulesError(name, value, f"one of {', '.join(allowed)}")
