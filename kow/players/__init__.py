"""Players: the one interface, and the bot kinds by name."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from ..entries import EntryError, parse_number, shown
from ..events import Seat, seat_name
from ..settings import MAX_ITERATIONS, IntSetting, check_iterations
from .base import Player
from .heuristic import HeuristicBot
from .ismcts import ISMCTS_ITERATIONS, IsmctsBot
from .random_bot import RandomBot
from .search import DEFAULT_ITERATIONS, SearchBot

__all__ = [
    "BOT_KINDS",
    "BOT_SETTINGS",
    "Entrant",
    "HeuristicBot",
    "IsmctsBot",
    "Player",
    "RandomBot",
    "SearchBot",
    "check_entrants",
    "check_kind",
    "check_kinds",
    "game_seconds",
    "seat_bot",
    "make_bot",
    "seat_bots",
]

BOT_KINDS: dict[str, Callable[[str, random.Random], Player]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
    "ismcts": IsmctsBot,
}
"""Bot constructors by kind: each takes ``(name, rng)``."""


def check_kind(kind: object) -> str:
    """Return ``kind`` if it is a key of :data:`BOT_KINDS`, else raise :class:`ValueError`.

    >>> check_kind("clever")
    Traceback (most recent call last):
    ...
    ValueError: 'clever' is not a bot kind: choose from random, heuristic, search, ismcts
    """
    if not isinstance(kind, str) or kind not in BOT_KINDS:
        raise ValueError(f"{kind!r} is not a bot kind: choose from {', '.join(BOT_KINDS)}")
    return kind


def check_kinds(kinds: Sequence[str], seats: int, given: object = None) -> list[str]:
    """Return one bot kind per seat from ``kinds``: one kind for every seat, or one per seat.

    ``seats``: the seats bots play (0 when every player is a person: the kinds are then
    checked and none is returned); ``given`` is shown in the message for a wrong count
    (default ``kinds``). ``kow simulate --bots`` and :class:`kow.runs.batch.Run` check so.
    Raises :class:`ValueError` naming an unknown kind (:func:`check_kind`) or a wrong count,
    and :class:`TypeError` for a string (give a sequence of kinds) or a value that is not a
    sequence.
    """
    if isinstance(kinds, str):
        raise TypeError(f"kinds must be a sequence of bot kinds, e.g. ({kinds!r},), not {kinds!r}")
    if not isinstance(kinds, Iterable):
        raise TypeError(f"kinds must be a sequence of bot kinds, e.g. ('random',), not {kinds!r}")
    kinds = [check_kind(kind) for kind in kinds]
    if len(kinds) == 1 or not seats:
        return kinds * seats if len(kinds) == 1 else []
    if len(kinds) != seats:
        wanted = (
            "give one kind"
            if seats == 1
            else f"give one kind for all seats, or {seats} separated by commas"
        )
        shown = tuple(kinds) if given is None else given
        raise ValueError(
            f"{shown!r} gives {len(kinds)} kinds for {seats} seat{'s' if seats != 1 else ''}: "
            + wanted
        )
    return kinds


BOT_SETTINGS: dict[str, dict[str, IntSetting]] = {
    "search": {"iterations": IntSetting("iterations", 1, MAX_ITERATIONS, "a number of deals")},
    "ismcts": {"iterations": IntSetting("iterations", 1, MAX_ITERATIONS, "a number of iterations")},
}
"""The settings an entrant of each kind may give (``search:iterations=1000``), by name,
with their bounds: a ``search`` bot's deals per decision (default
:data:`~kow.players.search.DEFAULT_ITERATIONS`, or ``--search-deals``) and an
``ismcts`` bot's iterations per decision (default
:data:`~kow.players.ismcts.ISMCTS_ITERATIONS`). The other kinds take none."""


class Entrant(NamedTuple):
    """A bot kind at its settings: one entrant of a tournament (``kow tournament --bots``).

    ``kind``: a key of :data:`BOT_KINDS`; ``settings``: the ``(name, value)`` pairs given,
    sorted by name (empty: the kind's defaults). Two entrants are the same entrant when
    their kind and settings are equal, so ``search`` and ``search:iterations=100`` are
    two entrants, even at the same deals. The notation comes in a pair,
    :meth:`from_text` and :meth:`text`.

    >>> Entrant.from_text(" search : iterations = 0100 ")
    Entrant(kind='search', settings=(('iterations', 100),))
    >>> Entrant("ismcts", (("iterations", 50),)).text()
    'ismcts:iterations=50'
    """

    kind: str
    settings: tuple[tuple[str, int], ...] = ()

    @classmethod
    def from_text(cls, text: str) -> Entrant:
        """Return the entrant that ``text`` writes: ``KIND`` or ``KIND:NAME=VALUE[:...]``.

        Spaces around each part are ignored; a value is written in the digits 0-9.
        Raises :class:`ValueError` naming the part at fault and what is allowed: an
        unknown kind (:func:`check_kind`), a setting the kind does not have (with the
        kind's settings and their bounds), a setting given twice, a part that is not
        ``NAME=VALUE``, or a value out of bounds (:data:`BOT_SETTINGS`).

        >>> Entrant.from_text("search:depth=3")
        Traceback (most recent call last):
        ...
        ValueError: 'depth' is not a setting of search: allowed iterations (1 to 100000)
        """
        return _entrant(text)

    def text(self) -> str:
        """Return the entrant's notation: the kind, then ``:NAME=VALUE`` per setting."""
        return self.kind + "".join(f":{name}={value}" for name, value in self.settings)

    def iterations(self, search_iterations: int | None = None) -> int | None:
        """Return the deals (``search``) or iterations (``ismcts``) per decision that the
        entrant's bot uses, or None for a kind with no such setting.

        ``search_iterations``: a ``search`` entrant's deals when it gives none
        (``--search-deals``; None: the bot's default).
        """
        given = dict(self.settings).get("iterations")
        if given is not None:
            return given
        if self.kind == "search":
            return DEFAULT_ITERATIONS if search_iterations is None else search_iterations
        if self.kind == "ismcts":
            return ISMCTS_ITERATIONS
        return None

    def bot(self, name: str, rng: random.Random, *, search_iterations: int | None = None) -> Player:
        """Return a new bot of the entrant named ``name`` drawing chance from ``rng``.

        ``search_iterations``: as for :meth:`iterations`. Raises what :func:`make_bot`
        raises.
        """
        iterations = self.iterations(search_iterations)
        return make_bot(
            self.kind,
            name,
            rng,
            search_iterations=iterations if self.kind == "search" else None,
            ismcts_iterations=iterations if self.kind == "ismcts" else None,
        )


@functools.lru_cache(maxsize=256)
def _entrant(text: str) -> Entrant:
    """Read an entrant's text (see :meth:`Entrant.from_text`); cached, as a tournament
    reads the same few for every game."""
    if not isinstance(text, str):
        raise TypeError(
            f"an entrant is written as text, e.g. 'search:iterations=1000', not {text!r}"
        )
    kind, *parts = [part.strip() for part in text.split(":")]
    kind = check_kind(kind)
    allowed = BOT_SETTINGS.get(kind, {})
    if parts and not allowed:
        having = ", ".join(BOT_SETTINGS)
        raise ValueError(
            f"{kind} takes no setting, so {shown(text.strip())} is not an entrant: "
            f"settings are for {having} (e.g. search:iterations=1000)"
        )
    words = ", ".join(f"{n} ({s.lo} to {s.hi})" for n, s in allowed.items())
    settings: dict[str, int] = {}
    for part in parts:
        name, equals, value = (p.strip() for p in part.partition("="))
        if not equals:
            raise ValueError(
                f"{shown(part)} in {shown(text.strip())} is not a setting: write NAME=VALUE, "
                f"e.g. {kind}:iterations=1000; allowed {words}"
            )
        setting = allowed.get(name)
        if setting is None:
            raise ValueError(f"{shown(name)} is not a setting of {kind}: allowed {words}")
        if name in settings:
            raise ValueError(f"{name} is given twice in {shown(text.strip())}: give it once")
        try:
            settings[name] = parse_number(value, setting.lo, setting.hi, what=setting.what)
        except EntryError as err:
            raise ValueError(f"{kind}:{name}: {err}") from None
    return Entrant(kind, tuple(sorted(settings.items())))


def check_entrants(entrants: Sequence[str], seats: int, given: object = None) -> list[str]:
    """Return one entrant per seat, each as its canonical text (:meth:`Entrant.text`).

    ``entrants``: entrant texts (``"search:iterations=100"``, ``"heuristic"``), one for
    every seat or one per seat, as :func:`check_kinds` takes kinds; ``given`` is shown in
    the message for a wrong count. Raises :class:`ValueError` naming a bad entrant (see
    :meth:`Entrant.from_text`) or a wrong count, and :class:`TypeError` for a string.
    """
    if isinstance(entrants, str):
        raise TypeError(f"entrants must be a sequence, e.g. ({entrants!r},), not {entrants!r}")
    texts = [Entrant.from_text(entrant).text() for entrant in entrants]
    kinds = [text.partition(":")[0] for text in texts]
    check_kinds(kinds, seats, tuple(entrants) if given is None else given)
    if len(texts) == 1:
        return texts * seats
    return texts


def make_bot(
    kind: str,
    name: str,
    rng: random.Random,
    *,
    search_iterations: int | None = None,
    ismcts_iterations: int | None = None,
) -> Player:
    """Return a new bot of ``kind`` named ``name`` drawing chance from ``rng``.

    ``search_iterations`` sets a ``search`` bot's deals per decision and
    ``ismcts_iterations`` an ``ismcts`` bot's iterations per decision (None: their
    defaults); other kinds ignore them, but each is checked whatever the kind, as
    ``--search-deals`` is: an int 1 to :data:`~kow.settings.MAX_ITERATIONS` (a numpy
    integer counts as its int; a bool or a float does not). Raises :class:`ValueError`
    naming the kind and the known kinds when it is unknown,
    :class:`~kow.settings.SettingError` (a :class:`ValueError`) for a bad setting,
    :class:`ValueError` for a name no log may hold (:func:`kow.log.check_name`), and
    :class:`TypeError` when ``rng`` is not a :class:`random.Random`.
    """
    if search_iterations is not None:
        search_iterations = check_iterations(search_iterations)
    if ismcts_iterations is not None:
        ismcts_iterations = check_iterations(
            ismcts_iterations, "ismcts_iterations", "a number of iterations"
        )
    factory = BOT_KINDS[check_kind(kind)]
    if kind == "search" and search_iterations is not None:
        return SearchBot(name, rng, iterations=search_iterations)
    if kind == "ismcts" and ismcts_iterations is not None:
        return IsmctsBot(name, rng, iterations=ismcts_iterations)
    return factory(name, rng)


SEAT_SECONDS = 1.5e-6
"""Seconds a seat of any bot kind costs a game, per square of the round-1 hand size."""
SEARCH_SECONDS = 4e-7
"""Seconds a ``search`` seat adds to a game, per deal sampled per decision, per player and
per fourth power of the round-1 hand size."""
ISMCTS_SECONDS = 6e-7
"""Seconds an ``ismcts`` seat adds to a game, per iteration per decision, per player and
per cube of the round-1 hand size (its playouts are the search's, without a loop over
the legal cards)."""


def game_seconds(
    kinds: Sequence[str], start_cards: int, search_iterations: int | None = None
) -> float:
    """Return a rough estimate of the seconds one game of these bots takes in one process.

    ``kinds``: one bot kind per seat, or an entrant's text (``search:iterations=1000``,
    :class:`Entrant`); ``start_cards``: the hand size of round 1; ``search_iterations``:
    the deals per decision of a ``search`` bot that gives none (None: its default).
    Every seat costs :data:`SEAT_SECONDS` times ``start_cards`` squared (about the cards
    it plays); an ``ismcts`` seat adds :data:`ISMCTS_SECONDS` times its iterations, the
    players and ``start_cards`` cubed; a ``search`` seat adds :data:`SEARCH_SECONDS`
    times its iterations, the players and ``start_cards`` to the fourth (its decisions,
    their legal cards, and the length of each playout). Fitted on a 2-core machine of
    2026 with 2 to 7 players and 3 to 20 cards, pure Python: within a factor of 2 of
    the measured time for every setting tried (4 ``heuristic`` bots with 7 cards: 0.3 ms
    a game; one ``search`` bot with them, at 100 iterations: 0.36 s; the ``ismcts``
    term from one such bot, at 1,200 iterations: about 1 s). Enough to tell a run worth
    several processes (see :func:`kow.runs.batch.auto_jobs`), not to plan one.

    >>> round(game_seconds(["heuristic"] * 4, 7) * 1000, 2)
    0.29
    >>> round(game_seconds(["search", "heuristic", "heuristic", "heuristic"], 7), 2)
    0.38
    >>> round(game_seconds(["search:iterations=1000", "heuristic", "heuristic", "heuristic"], 7), 2)
    3.84
    """
    players = len(kinds)
    seconds = players * SEAT_SECONDS * start_cards**2
    for kind in kinds:
        entrant = Entrant.from_text(kind)
        if entrant.kind == "search":
            deals = entrant.iterations(search_iterations) or 0
            seconds += SEARCH_SECONDS * deals * players * start_cards**4
        elif entrant.kind == "ismcts":
            seconds += ISMCTS_SECONDS * (entrant.iterations() or 0) * players * start_cards**3
    return seconds


def seat_bots(
    kinds: Sequence[str],
    rng: random.Random,
    *,
    search_iterations: int | None = None,
    ismcts_iterations: int | None = None,
) -> list[Player]:
    """Return a bot of each of ``kinds`` (one per seat, in seat order), each named
    ``KIND-SEAT`` (:func:`kow.events.seat_name`), all drawing chance from ``rng``.

    The seating of ``kow simulate``, ``kow tournament`` and the Gymnasium environment's
    bots: ``rng`` is the game's :func:`kow.game.bots_rng`, shared by the bots in turn, so
    the same seed gives the same decisions wherever the game is played. The options and
    the errors are :func:`make_bot`'s.

    >>> [bot.name for bot in seat_bots(["random", "heuristic"], random.Random(0))]
    ['random-0', 'heuristic-1']
    """
    return [
        make_bot(
            kind,
            seat_name(kind, seat),
            rng,
            search_iterations=search_iterations,
            ismcts_iterations=ismcts_iterations,
        )  # fmt: skip
        for seat, kind in enumerate(kinds)
    ]


def seat_bot(kind: str, seat: Seat, rng: random.Random) -> Player:
    """Return a bot of ``kind`` for ``seat`` named ``KIND-SEAT``, drawing from ``rng``: one
    seat of :func:`seat_bots` (with the default options), for a table with other players."""
    return make_bot(kind, seat_name(kind, seat), rng)
