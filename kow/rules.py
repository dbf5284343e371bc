"""The rule settings of a game: one frozen value, one named field per rule.

The defaults are those of the rules text (seeds 000/001/003). ``docs/rules.md`` gives the
source of each rule and the option that changes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, replace
from types import MappingProxyType
from typing import Any, Literal

from .settings import SettingError, is_int, plain_integer

__all__ = [
    "DOGS_LIFE",
    "LEADS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PRESETS",
    "Rules",
    "RulesError",
    "TRUMPS",
    "check_rules",
    "max_start_cards",
    "preset_of",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 7
DOGS_LIFE = ("off", "once-per-game", "once-per-player")
TRUMPS = ("winner-chooses", "fixed")
LEADS = ("most-tricks", "dealer-left")

DogsLife = Literal["off", "once-per-game", "once-per-player"]
TrumpRule = Literal["winner-chooses", "fixed"]
LeadRule = Literal["most-tricks", "dealer-left"]


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

    Fields (each is a key of the log's ``rules`` object: :func:`kow.log.rules_to_log`):

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
            object.__setattr__(self, name, plain_integer(getattr(self, name)))
        if not is_int(self.players) or not (MIN_PLAYERS <= self.players <= MAX_PLAYERS):
            raise RulesError("players", self.players, f"{MIN_PLAYERS} to {MAX_PLAYERS}")
        most = max_start_cards(self.players)
        if not is_int(self.start_cards) or not (1 <= self.start_cards <= most):
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
        seat = plain_integer(seat)
        if not is_int(seat) or not 0 <= seat < self.players:  # type: ignore[operator]
            raise RulesError(
                what, seat, f"a seat 0 to {self.players - 1} with {self.players} players"
            )
        return int(seat)  # type: ignore[call-overload,no-any-return]  # an int, checked


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


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise RulesError(name, value, f"one of {', '.join(allowed)}")
