"""The JSON log format, version 1: build, dump, load, read many, and replay a game.

- :func:`build` turns a game's events into its log (a JSON-ready dict); :func:`dumps` /
  :func:`dump` write it, :func:`loads` / :func:`load` read one back (the json module's
  verbs, as in pokerkit's hand histories).
- :func:`iter_games` streams the games of a file (one game, JSON Lines, concatenated
  values, or the elements of JSON arrays; gzip-compressed or not) in flat memory, placing
  any fault by line and column (:class:`LogReadError`); :func:`iter_games_and_faults`
  reads the same, going on after a fault of one game alone (:class:`GameOrFault`);
  :func:`read_logs` reads the games of files in turn, one named :class:`GameRecord` per game and an
  :class:`InputEnd` per file (the reader of the commands that read logs).
- :func:`replay` steps through a logged game with the engine, yielding its state after
  each action; its last state rebuilds the same log; :func:`replay_game` gives that
  last state at less cost (one comparison with the log, at the end); :func:`replay_exact`
  gives it only for a log that is, byte for byte, the engine's game (a legal game), and
  :func:`replay_line` the same from a game's text alone, without parsing it whole.
  :func:`round_actions` reads a logged round's actions in order (each a
  :class:`LoggedAction`), for tools that walk decisions.
- :func:`game_text` is the fast writer: the bytes of ``dumps(build(...))`` written
  straight from a game's events; :class:`GameWriter` writes a run's games with it, the
  players checked once (``kow simulate``).
- :func:`rules_to_log` and :func:`rules_from_log` turn :class:`~kow.rules.Rules` into the
  log's ``rules`` object and back: the format converts from the core, never the reverse.
- :class:`GameLog` and the types of its parts (:class:`RoundLog`, :class:`TrickLog`,
  :class:`PlayLog`...) mirror the schema's objects, key for key: a log is a plain dict
  at run time, and ``mypy --strict`` checks the keys its readers use.
- :func:`schema` is the JSON Schema of the format, shipped in the package.
- :func:`check_name` is the one rule of a player's name (1 to :data:`MAX_NAME`
  characters, no control character, no undecodable byte), followed by every writer,
  by ``kow verify`` and by the schema; :func:`check_players` applies it to a game's seats.

``docs/log-format.md`` documents every field. The module imports no bot: a log names its
players by ``name`` and ``kind`` only. The readers (:func:`iter_games`, and
:func:`read_logs` and its records for many files), the replay and the typed records are
imported on first use of their names (:data:`_LAZY`), so that a process that only writes
logs (``kow simulate``) does not load them.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_names
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
    rules_from_log,
    rules_to_log,
    schema,
)
from ._writer import GameWriter, game_text

if TYPE_CHECKING:  # at run time, __getattr__ imports them on first use
    from ._reader import MAX_DEPTH, GameOrFault, LogReadError, iter_games, iter_games_and_faults
    from ._records import GameRecord, InputEnd, InputError, input_label, read_logs
    from ._replay import (
        LineReplay,
        LoggedAction,
        LoggedPlayer,
        ReplayError,
        replay,
        replay_exact,
        replay_game,
        replay_line,
        round_actions,
    )
    from .types import (
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

_LAZY = {
    "MAX_DEPTH": "_reader",
    "GameOrFault": "_reader",
    "LogReadError": "_reader",
    "iter_games": "_reader",
    "iter_games_and_faults": "_reader",
    "GameRecord": "_records",
    "InputEnd": "_records",
    "InputError": "_records",
    "input_label": "_records",
    "read_logs": "_records",
    "LineReplay": "_replay",
    "LoggedAction": "_replay",
    "LoggedPlayer": "_replay",
    "ReplayError": "_replay",
    "replay": "_replay",
    "replay_exact": "_replay",
    "replay_game": "_replay",
    "replay_line": "_replay",
    "round_actions": "_replay",
    "CutCardLog": "types",
    "CutLog": "types",
    "GameLog": "types",
    "PlayerLog": "types",
    "PlayLog": "types",
    "ResultLog": "types",
    "RoundLog": "types",
    "RulesLog": "types",
    "SettingsLog": "types",
    "TerminationValue": "types",
    "TrickLog": "types",
    "VoteLog": "types",
}
"""The names imported on first use, each with its module in this package."""


__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals())


__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "MAX_NAME",
    "VERSION",
    "CutCardLog",
    "CutLog",
    "GameLog",
    "GameOrFault",
    "GameRecord",
    "GameWriter",
    "InputEnd",
    "InputError",
    "LineReplay",
    "LogFormatError",
    "LogReadError",
    "LoggedAction",
    "LoggedPlayer",
    "PlayLog",
    "PlayerInfo",
    "PlayerLog",
    "ReplayError",
    "ResultLog",
    "RoundLog",
    "RulesLog",
    "SettingsLog",
    "TerminationValue",
    "TrickLog",
    "VoteLog",
    "build",
    "check_name",
    "check_players",
    "dump",
    "dumps",
    "game_text",
    "input_label",
    "iter_games",
    "iter_games_and_faults",
    "load",
    "loads",
    "read_logs",
    "replay",
    "replay_exact",
    "replay_line",
    "replay_game",
    "round_actions",
    "rules_from_log",
    "rules_to_log",
    "schema",
]
