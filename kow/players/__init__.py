"""Players: the one interface, and the bot kinds by name."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..events import Seat, seat_name
from ..rules import check_iterations
from .base import Player
from .heuristic import HeuristicBot
from .ismcts import ISMCTS_ITERATIONS, IsmctsBot
from .random_bot import RandomBot
from .search import DEFAULT_ITERATIONS, SearchBot

__all__ = [
    "BOT_KINDS",
    "HeuristicBot",
    "IsmctsBot",
    "Player",
    "RandomBot",
    "SearchBot",
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
    and :class:`TypeError` for a string (give a sequence of kinds).
    """
    if isinstance(kinds, str):
        raise TypeError(f"kinds must be a sequence of bot kinds, e.g. ({kinds!r},), not {kinds!r}")
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
    ``--search-iterations`` is: an int 1 to :data:`~kow.rules.MAX_ITERATIONS` (a numpy
    integer counts as its int; a bool or a float does not). Raises :class:`ValueError`
    naming the kind and the known kinds when it is unknown,
    :class:`~kow.rules.SettingError` (a :class:`ValueError`) for a bad setting,
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

    ``kinds``: one bot kind per seat; ``start_cards``: the hand size of round 1;
    ``search_iterations``: a ``search`` bot's deals per decision (None: its default).
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
    """
    players = len(kinds)
    iterations = DEFAULT_ITERATIONS if search_iterations is None else search_iterations
    searches = sum(kind == "search" for kind in kinds)
    trees = sum(kind == "ismcts" for kind in kinds)
    return (
        players * SEAT_SECONDS * start_cards**2
        + searches * SEARCH_SECONDS * iterations * players * start_cards**4
        + trees * ISMCTS_SECONDS * ISMCTS_ITERATIONS * players * start_cards**3
    )


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
