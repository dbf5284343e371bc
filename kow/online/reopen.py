"""A table opened again from its log, after its server stopped (``--resume LOG``).

A table's log (:class:`~kow.online.table.Table` writes it whole at every trick) holds its
finished games and, when the server stopped mid-game, that game marked abandoned.
:func:`reopen` reads it back: the finished games are kept as they are (and counted in
the running score), and the abandoned one is played again from its seed up to where it
stopped (:func:`kow.runs.provenance.play_again`), so that its bots' generator stands
where it stood and the rest of the game is the one its seed gives. Its players take their
seats again by their names (their secrets died with the server), with the new table's
code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .. import log
from ..engine import State
from ..events import AGENT, HUMAN
from ..log import rules_from_log
from ..players import BOT_KINDS, Player
from ..rules import Rules

__all__ = ["ReopenError", "Reopened", "reopen"]


class ReopenError(ValueError):
    """Raised for a log that cannot be reopened; the message names the file and the place."""


class Reopened(NamedTuple):
    """A table's log, read back to be opened again.

    ``rules``; ``seed``: the abandoned game's; ``state``: that game where it stopped,
    the next decision awaited; ``names`` and ``kinds``: each seat's, as logged;
    ``bots``: the kow bots of the other seats, in seat order, having made their logged
    decisions; ``logs``: the lines before it (each ending in a newline: earlier games of
    this table, with the same seats or not, or of others), kept first in the table's log;
    ``wins[seat]``: the games each seat won among those played by the same seats.
    """

    rules: Rules
    seed: int
    state: State
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    bots: tuple[Player, ...]
    logs: tuple[str, ...]
    wins: tuple[int, ...]


def reopen(path: str, *, search_iterations: int | None = None) -> Reopened:
    """Read the table log at ``path`` and return its abandoned last game, ready to go on.

    ``search_iterations``: the deals per decision of its search bots, as the table had
    them. Raises :class:`ReopenError` naming the file and the line for a file that
    cannot be read, a line that is not a kow log, a last game that is finished (nothing
    to continue: open a new table), a game with no seed, a game that is not legal, or one
    that is not the game its seed gives; :class:`OSError` is raised as a
    :class:`ReopenError` too.
    """
    from ..runs.provenance import play_again
    from ..verify import verify_game

    try:
        with open(path, encoding="utf-8") as stream:
            lines = [line for line in stream if line.strip()]
    except (OSError, UnicodeDecodeError) as err:
        raise ReopenError(
            f"{path}: cannot be read: {getattr(err, 'strerror', None) or err}"
        ) from None
    if not lines:
        raise ReopenError(f"{path}: holds no game, so there is none to continue")
    games: list[log.GameLog] = []
    for number, line in enumerate(lines, 1):
        try:
            games.append(log.loads(line))
        except ValueError as err:
            raise ReopenError(f"{path}, line {number}: not a kow log: {err}") from None
    *finished, game = games
    where = f"{path}, line {len(lines)}"
    if not game.get("abandoned"):
        raise ReopenError(
            f"{where}: the last game is finished, so there is none to continue: host a new table"
        )
    seed = game["seed"]
    if seed is None:
        raise ReopenError(f"{where}: a game with no seed (dealt outside kow) cannot be continued")
    fault = verify_game(game)
    if fault is not None:
        raise ReopenError(f"{where}: not a legal game, so it cannot be continued: {fault}")
    kinds = tuple(p["kind"] for p in game["players"])
    unknown = [k for k in kinds if k not in BOT_KINDS and k not in (HUMAN, AGENT)]
    if unknown:
        raise ReopenError(f"{where}: a seat of kind {unknown[0]!r}, which kow cannot seat")
    try:
        again = play_again(game, search_iterations=search_iterations)
    except Exception as err:  # noqa: BLE001 - verify_game found it legal: kow's own fault
        raise ReopenError(f"{where}: cannot be played again: {err}") from None
    if again.difference is not None:
        raise ReopenError(
            f"{where}: not the game its seed gives, so it cannot be continued: {again.difference}"
        )
    wins = [0] * len(kinds)
    for done in finished:  # the running score: the games of the same seats (names, kinds)
        winner = done["result"]["winner"]
        if done["players"] == game["players"] and winner is not None:
            wins[winner] += 1
    return Reopened(
        rules=rules_from_log(dict(game["rules"])),
        seed=seed,
        state=again.state,
        names=tuple(p["name"] for p in game["players"]),
        kinds=kinds,
        bots=tuple(b for b in again.bots if b is not None),
        logs=tuple(line if line.endswith("\n") else line + "\n" for line in lines[:-1]),
        wins=tuple(wins),
    )


def bot_kind(kinds: Sequence[str]) -> str:
    """Return the bot kind of a reopened table's open seats: its first bot's, else
    ``heuristic``."""
    return next((k for k in kinds if k in BOT_KINDS), "heuristic")
