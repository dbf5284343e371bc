"""Tournaments: bots against each other over many seeded games, with honest error bars.

A tournament of ``games`` games between ``bots`` (one entrant per seat: a bot kind at
its settings, written ``search:iterations=1000`` or just ``heuristic``, see
:class:`kow.players.Entrant`) plays each seed of
the run once per rotation of the bots through the seats: game ``i`` uses seed
``game_seed(seed, i // players)`` with the bots turned ``i % players`` seats clockwise,
so every bot plays every seat's cards of a seed (with ``games`` a multiple of the
number of players, every bot meets the same deals). Each game's result depends only on
the seed, the rules and the bots, never on how many processes run the games.

Games end in order: :func:`game_results` yields them as they come and a :class:`Tally`
adds them up, so a tournament stopped early (Ctrl-C) still has the results of games
``0..played-1``, the same as a whole tournament of that many games with the same seed.
:func:`play_tournament` does both at once. The library does no printing; ``kow
tournament`` shows the results.

The games are played in :mod:`kow.runs.tournament._play`, counted in
:mod:`kow.runs.tournament._results` and shown in :mod:`kow.runs.tournament._tables`.
"""

from ._play import game_results, play_tournament, tournament_game
from ._results import GameResult, KindResult, SeatResult, Tally, Totals, Tournament
from ._tables import CSV_COLUMNS, csv_rows, seat_table_lines, table_lines

__all__ = [
    "CSV_COLUMNS",
    "GameResult",
    "KindResult",
    "SeatResult",
    "Tally",
    "Totals",
    "Tournament",
    "csv_rows",
    "game_results",
    "play_tournament",
    "seat_table_lines",
    "table_lines",
    "tournament_game",
]
