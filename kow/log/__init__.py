"""The JSON log format, version 1: build, dump, load, read many, and replay a game.

- :func:`build` turns a game's events into its log (a JSON-ready dict); :func:`dumps` /
  :func:`dump` write it, :func:`loads` / :func:`load` read one back (the json module's
  verbs, as in pokerkit's hand histories).
- :func:`iter_games` streams the games of a file (one game, JSON Lines, concatenated
  values, or the elements of JSON arrays; gzip-compressed or not) in flat memory, placing
  any fault by line and column (:class:`LogReadError`); :func:`iter_entries` reads the
  same, going on after a fault of one game alone (:class:`Entry`); :func:`read_logs` reads
  the games of files in turn, one named :class:`GameRecord` per game and an
  :class:`InputEnd` per file (the reader of the commands that read logs).
- :func:`replay` steps through a logged game with the engine, yielding its state after
  each action; its last state rebuilds the same log; :func:`replay_game` gives that
  last state at less cost (one comparison with the log, at the end).
- :class:`GameLog` and the types of its parts (:class:`RoundLog`, :class:`TrickLog`,
  :class:`PlayLog`...) mirror the schema's objects, key for key: a log is a plain dict
  at run time, and ``mypy --strict`` checks the keys its readers use.
- :func:`schema` is the JSON Schema of the format, shipped in the package.
- :func:`check_name` is the one rule of a player's name (1 to :data:`MAX_NAME`
  characters, no control character, no undecodable byte), followed by every writer,
  by ``kow verify`` and by the schema; :func:`check_players` applies it to a game's seats.

``docs/log-format.md`` documents every field. The module imports no bot: a log names its
players by ``name`` and ``kind`` only.
"""

from ._format import (
    FORMAT,
    MAX_NAME,
    VERSION,
    LogFormatError,
    PlayerInfo,
    build,
    check_name,
    check_players,
    dump,
    dumps,
    load,
    loads,
    schema,
)
from ._reader import MAX_DEPTH, Entry, LogReadError, iter_entries, iter_games
from ._records import GameRecord, InputEnd, InputError, input_label, read_logs
from ._replay import LoggedPlayer, ReplayError, replay, replay_game
from ._types import (
    CutCardLog,
    CutLog,
    GameLog,
    PlayerLog,
    PlayLog,
    ResultLog,
    RoundLog,
    RulesLog,
    SettingsLog,
    TerminationValue,
    TrickLog,
    VoteLog,
)

__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "MAX_NAME",
    "VERSION",
    "CutCardLog",
    "CutLog",
    "Entry",
    "GameLog",
    "GameRecord",
    "InputEnd",
    "InputError",
    "LogFormatError",
    "LogReadError",
    "LoggedPlayer",
    "PlayLog",
    "PlayerInfo",
    "PlayerLog",
    "SettingsLog",
    "ReplayError",
    "ResultLog",
    "RoundLog",
    "RulesLog",
    "TerminationValue",
    "TrickLog",
    "VoteLog",
    "build",
    "check_name",
    "check_players",
    "dump",
    "dumps",
    "iter_entries",
    "input_label",
    "iter_games",
    "load",
    "loads",
    "read_logs",
    "replay",
    "replay_game",
    "schema",
]
