"""The names a replay and an analysis show for a log's players, and the seat a name gives.

``kow replay`` and ``kow analyze`` show bots that ``kow simulate`` named by kind and seat
(``heuristic-0``) under table names, as ``kow play`` gives them (:func:`table_names`);
``kow analyze --seat`` takes a seat number or a player's name, as logged or as shown
(:func:`seats_named`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..entries import EntryError, is_number, parse_number
from ..entries import shown as quoted
from ..events import BOT_NAMES, NOT_BOTS, seat_name
from ..screen import printable

if TYPE_CHECKING:
    from ..log import GameLog, PlayerLog

__all__ = ["SeatError", "seats_named", "table_names"]


def table_names(players: list[PlayerLog]) -> list[str]:
    """Return the name a replay shows for each of a log's ``players`` (seat order).

    A bot logged under ``kow simulate``'s name for it, ``KIND-SEAT`` (``heuristic-0``),
    takes the first name of :data:`~kow.events.BOT_NAMES` that no other seat holds, as at
    ``kow play``'s table; every other player (a person, an agent, a bot named otherwise)
    keeps the name logged. The log itself is not changed.

    >>> table_names([{"seat": 0, "name": "heuristic-0", "kind": "heuristic"},
    ...              {"seat": 1, "name": "Ada", "kind": "human"},
    ...              {"seat": 2, "name": "random-2", "kind": "random"},
    ...              {"seat": 3, "name": "agent-3", "kind": "agent"}])
    ['Ben', 'Ada', 'Cleo', 'agent-3']
    """
    logged = [p["name"] for p in players]
    renamed = [
        p["kind"] not in NOT_BOTS and p["name"] == seat_name(p["kind"], p["seat"]) for p in players
    ]
    kept = {name for name, new in zip(logged, renamed, strict=True) if not new}
    free = iter([n for n in BOT_NAMES if n not in kept])
    names = [next(free, name) if new else name for name, new in zip(logged, renamed, strict=True)]
    return [printable(name) for name in names]


class SeatError(ValueError):
    """Raised by :func:`seats_named` for a seat the game does not have, or a name that
    matches no player or several; the message names the game and lists its players."""


def seats_named(text: str, game: GameLog, *, where: str) -> frozenset[int]:
    """Return the seat that ``text`` names in ``game``: a seat number (the digits 0-9,
    0-based), or a player's name as logged or as :func:`table_names` shows it (in any
    case; a name such as ``²`` or ``-1`` too, which is refused as a number when nobody
    has it). ``where`` names the game in messages (``game 2 of g.jsonl``).

    Raises :class:`SeatError` for a seat the game does not have, or a name that matches
    no player or several.
    """
    players = game["players"]
    shown = table_names(players)
    listed = ", ".join(
        f"{p['seat']} {p['name']!r}" + (f" (shown as {name!r})" if name != p["name"] else "")
        for p, name in zip(players, shown, strict=True)
    )
    wanted = text.strip().casefold()
    found = {
        p["seat"]
        for p, name in zip(players, shown, strict=True)
        if wanted in (str(p["name"]).casefold(), name.casefold())
    }
    # The digits 0-9 are a seat number; other text that reads as a number (``²``, ``-1``)
    # is a player's name when one is so named, else a number refused as such.
    if wanted.isascii() and wanted.isdigit() or is_number(text) and not found:
        try:
            seat = parse_number(text, 0, len(players) - 1, what="a seat")
        except EntryError as err:
            raise SeatError(f"{err} (0-based: {where} has {len(players)} seats)") from None
        return frozenset({seat})
    if len(found) != 1:
        what = "no player" if not found else f"{len(found)} players"
        option = (
            f" ({quoted(text)} looks like an option: put the seat right after --seat)"
            if text.startswith("-") and not found
            else ""
        )
        raise SeatError(
            f"{where} has {what} named {quoted(text)}: give a seat number or one of {listed}"
            + option
        )
    return frozenset(found)
