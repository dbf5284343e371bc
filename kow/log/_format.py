"""The log format, version 1, as JSON-ready values: build a game's log, dump and load it.

``docs/log-format.md`` documents every field. Cards are two characters (``Th``), a suit on
its own is one letter (``c d h s``) and no trump is ``null``. Keys come in a fixed order
and the output is ASCII, so the same game always gives the same bytes.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict
from typing import IO, TYPE_CHECKING, Any, Final, Protocol, cast

from ..cards import NAMES, SUITS
from ..events import (
    Deal,
    Event,
    EventVisitor,
    GameEnd,
    Knock,
    Lead,
    Play,
    RoundEnd,
    TieCut,
    TrickWon,
    TrumpSet,
    TurnedUp,
    Vote,
)
from ..rules import Rules, RulesError
from ..settings import check_bool, check_seed
from ..verify import KINDS, MAX_ITERATIONS, MAX_NAME, SETTINGS, check_name
from ..version import __version__

if TYPE_CHECKING:  # typing only: a process that writes logs imports neither
    from .types import GameLog, PlayerLog, PlayLog, ResultLog, RoundLog, RulesLog, SettingsLog

__all__ = [
    "FORMAT",
    "MAX_NAME",
    "VERSION",
    "LogFormatError",
    "PlayerInfo",
    "build",
    "check_name",
    "check_players",
    "dump",
    "dumps",
    "load",
    "loads",
    "rules_from_log",
    "rules_to_log",
    "schema",
]

FORMAT: Final = "kow-log"
VERSION: Final = 1


def rules_to_log(rules: Rules) -> RulesLog:
    """Return ``rules`` as the log's ``rules`` object: a new dict, one key per field of
    :class:`~kow.rules.Rules`, in field order.

    >>> rules_to_log(Rules(players=3))["players"]
    3
    """
    return cast("RulesLog", asdict(rules))  # its keys are the fields (tests/log/test_log_types.py)


def rules_from_log(data: Mapping[str, Any]) -> Rules:
    """Return the :class:`~kow.rules.Rules` of a log's ``rules`` object.

    Raises :class:`~kow.rules.RulesError` for an unknown or missing key (its ``setting``
    is the key, its ``allowed`` None) or a value out of range.

    >>> rules_from_log({**rules_to_log(Rules()), "jokers": True})
    Traceback (most recent call last):
    ...
    kow.rules.RulesError: unknown rule setting 'jokers'
    """
    names = set(Rules.__dataclass_fields__)
    unknown = sorted(set(data) - names)
    if unknown:
        raise RulesError(unknown[0], None, None, message=f"unknown rule setting {unknown[0]!r}")
    missing = sorted(names - set(data))
    if missing:
        raise RulesError(missing[0], None, None, message=f"missing rule setting {missing[0]!r}")
    return Rules(**data)


class PlayerInfo(Protocol):
    """What the log says of a player: its ``name`` and ``kind`` (any player has both),
    and its ``settings`` when it has that attribute (:func:`settings_of`)."""

    @property
    def name(self) -> str: ...

    @property
    def kind(self) -> str: ...


def settings_of(player: object) -> tuple[tuple[str, int], ...]:
    """Return the ``(name, value)`` settings of ``player`` that a log records: its
    ``settings`` attribute (:attr:`kow.players.Player.settings`), or none without one.

    Raises :class:`ValueError` for settings that are not ``(str, int)`` pairs of ints 1
    or more, each name once.
    """
    settings = getattr(player, "settings", ())
    try:
        pairs = tuple((name, value) for name, value in settings)
    except (TypeError, ValueError):
        raise ValueError(f"settings must be (name, value) pairs, not {settings!r}") from None
    names = [name for name, _ in pairs]
    for name, value in pairs:
        if not isinstance(name, str) or isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"settings must be (str, int) pairs, not {settings!r}")
        if value < 1:
            raise ValueError(f"the setting {name!r} is {value}: a setting is 1 or more")
    if len(set(names)) != len(names):
        raise ValueError(f"settings name a setting twice: {settings!r}")
    return tuple(sorted(pairs))


def _player_log(seat: int, player: PlayerInfo) -> PlayerLog:
    """Return the ``players`` item of ``player`` at ``seat``: ``settings`` only when it
    has some (a searching bot's), so that the logs of other players are as before."""
    item: PlayerLog = {"seat": seat, "name": player.name, "kind": player.kind}
    settings = settings_of(player)
    if settings:
        item["settings"] = cast("SettingsLog", dict(settings))
    return item


def check_players(players: Sequence[PlayerInfo], seats: int | None = None) -> None:
    """Raise :class:`ValueError` unless every player has a name and a kind that a log may
    hold, and, given ``seats`` (the rules' ``players``), there is one player a seat.

    ``players[seat]``: anything with a ``name`` and a ``kind`` (:class:`PlayerInfo`).
    The message names the seat and the value, as ``kow verify`` does
    (``players[2].name: ...``); a kind must be one of the format's (``KINDS``: the bot
    kinds, ``human`` and ``agent``); a missing attribute raises :class:`TypeError`. Every
    writer of logs calls it before writing, so kow never writes a player that it refuses.
    """
    for seat, player in enumerate(players):
        name = getattr(player, "name", None)
        kind = getattr(player, "kind", None)
        if not isinstance(name, str) or not isinstance(kind, str):
            raise TypeError(
                f"players[{seat}] is {player!r}: give each seat's name and kind, e.g. "
                "kow.log.LoggedPlayer('ada', 'agent')"
            )
        check_name(name, f"players[{seat}].name")
        if kind not in KINDS:
            raise ValueError(
                f"players[{seat}].kind: {kind!r} is no kind of the log format; one of "
                f"{', '.join(KINDS)} ('agent': a program playing through an adapter)"
            )
        try:
            settings = settings_of(player)
        except ValueError as err:
            raise ValueError(f"players[{seat}].settings: {err}") from None
        for key, value in settings:
            if key not in SETTINGS.get(kind, ()) or value > MAX_ITERATIONS:
                raise ValueError(
                    f"players[{seat}].settings: {key}={value} is not a setting a {kind} player"
                    f" records (the format's: {SETTINGS})"
                )
    if seats is not None and len(players) != seats:
        raise ValueError(
            f"players: {len(players)} given for {seats} seats (rules.players): one a seat"
        )


class LogFormatError(ValueError):
    """Raised by :func:`loads` and :func:`load` for JSON that is not one kow log."""


def build(
    seed: int | None,
    rules: Rules,
    players: Sequence[PlayerInfo],
    *,
    events: Iterable[Event],
    abandoned: bool = False,
) -> GameLog:
    """Return the version-1 log (a JSON-ready dict, typed :class:`~kow.log.GameLog`) of a
    game from its events.

    ``seed`` is the seed the deals came from, or None (logged as null) when they came
    from outside kow, such as an OpenSpiel game's chance nodes: the log's hands, cuts and
    tie cuts still replay it. ``players[seat]`` gives each seat's ``name`` and ``kind``
    (``"agent"`` for a program playing through a framework adapter); ``events`` are the
    game's (:attr:`State.events <kow.engine.State.events>`). ``result.termination`` says
    why the game ended, as the engine's :class:`~kow.events.Outcome` does (its value:
    ``"last-standing"``, ``"sweep"`` or ``"final-trick"``). A game cut short
    (``abandoned``) has ``result.winner`` and ``result.termination`` null and
    ``abandoned: true``; a trick cut short has ``winner`` null.

    Raises :class:`ValueError` (naming the value) for a seed that is not an int 0 to
    2^53-1 (:func:`kow.settings.check_seed`) or a player's name that is not one (see
    :func:`check_name`) or players that are not one a seat (``rules.players``), and
    :class:`TypeError` for rules that are not :class:`~kow.rules.Rules` or a player
    without a name and a kind.
    """
    if seed is not None:
        seed = check_seed(seed)
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a kow.rules.Rules, not {rules!r}")
    check_players(players, rules.players)
    abandoned = check_bool("abandoned", abandoned)
    builder = _Builder(rules)
    for event in events:
        event.accept(builder)
    rounds = builder.rounds
    if builder.plays:
        rnd = rounds[-1]
        rnd["tricks"].append(
            {
                "number": len(rnd["tricks"]) + 1,
                "leader": builder.plays[0]["seat"],
                "plays": builder.plays,
                "winner": None,
            }
        )
    result = builder.result
    if result["winner"] is None:
        result["rounds_played"] = len(rounds)
    game: GameLog = {
        "format": FORMAT,
        "version": VERSION,
        "kow_version": __version__,
        "seed": seed,
        "rules": rules_to_log(rules),
        "players": [_player_log(seat, p) for seat, p in enumerate(players)],
        "rounds": rounds,
        "result": result,
    }
    if abandoned:
        game["abandoned"] = True
    return game


class _Builder(EventVisitor):
    """Gather a game's events into the log's rounds and result (see :func:`build`)."""

    round: RoundLog
    """The round in progress: set by its deal, the first event of a round."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.rounds: list[RoundLog] = []
        self.plays: list[PlayLog] = []
        self.result: ResultLog = {"winner": None, "rounds_played": 0, "termination": None}

    def on_deal(self, event: Deal) -> None:
        self.round = {
            "number": event.round,
            "hand_size": event.hand_size,
            "dealer": event.dealer,
            "cut": {"by": event.cut_by, "position": event.cut_position},
            "hands": [None if h is None else [NAMES[c] for c in h] for h in event.hands],
            "turned_up": None,
            "trump": None,
            "trump_method": None,
            "trump_chosen_by": None,
            "tie_cut": None,
            "votes": [] if self.rules.eliminated_vote else None,
            "leader": None,
            "dogs_life": list(event.dogs_life),
            "tricks": [],
            "tricks_won": None,
            "eliminated": [],
            "dogs_life_granted": [],
            "revived": [],
        }
        self.rounds.append(self.round)

    def on_turned_up(self, event: TurnedUp) -> None:
        self.round["turned_up"] = NAMES[event.card]

    def on_tie_cut(self, event: TieCut) -> None:
        self.round["tie_cut"] = [
            [{"seat": cut.seat, "card": NAMES[cut.card]} for cut in cut_pass]
            for cut_pass in event.passes
        ]

    def on_vote(self, event: Vote) -> None:
        votes = self.round["votes"]
        assert votes is not None  # a list under rules.eliminated_vote, the only rule with votes
        votes.append({"seat": event.seat, "suit": SUITS[event.suit]})

    def on_trump_set(self, event: TrumpSet) -> None:
        self.round["trump"] = None if event.suit is None else SUITS[event.suit]
        self.round["trump_method"] = event.method
        self.round["trump_chosen_by"] = event.chosen_by

    def on_lead(self, event: Lead) -> None:
        self.round["leader"] = event.seat

    def on_play(self, event: Play) -> None:
        self.plays.append({"seat": event.seat, "card": NAMES[event.card]})

    def on_knock(self, event: Knock) -> None:
        self.plays.append({"seat": event.seat, "knock": True})

    def on_trick_won(self, event: TrickWon) -> None:
        self.round["tricks"].append(
            {
                "number": event.number,
                "leader": event.leader,
                "plays": self.plays,
                "winner": event.winner,
            }
        )
        self.plays = []

    def on_round_end(self, event: RoundEnd) -> None:
        self.round["tricks_won"] = list(event.tricks_won)
        self.round["eliminated"] = list(event.eliminated)
        self.round["dogs_life_granted"] = list(event.dogs_life_granted)
        self.round["revived"] = list(event.revived)

    def on_game_end(self, event: GameEnd) -> None:
        self.result = {
            "winner": event.outcome.winner,
            "rounds_played": event.outcome.rounds_played,
            "termination": event.outcome.termination.value,
        }


def dumps(log: GameLog, pretty: bool = False) -> str:
    """Return ``log`` as JSON text: one compact line, or indented for reading when ``pretty``.

    Pretty text indents by 2 and keeps each list or object that fits in 100 columns on
    one line (a hand, a play, a trick's plays). The text is ASCII (other characters
    escaped) and has no trailing newline. Both forms load to the same value.

    Raises :class:`ValueError` for a player's name that no log may hold (see
    :func:`check_name`): kow writes no log that ``kow verify`` refuses for it.
    """
    players = log.get("players") if isinstance(log, dict) else None
    if isinstance(players, list):
        for seat, player in enumerate(players):
            if isinstance(player, dict) and "name" in player:
                check_name(player["name"], f"players[{seat}].name")
    pretty = check_bool("pretty", pretty)
    if pretty:
        return _pretty(log, 0)
    return json.dumps(log, separators=(",", ":"))


def dump(log: GameLog, stream: IO[str], pretty: bool = False) -> None:
    """Write ``log`` to the text ``stream`` as :func:`dumps` gives it, then a newline."""
    stream.write(dumps(log, pretty) + "\n")


def loads(text: str | bytes) -> GameLog:
    """Return the one game log held by ``text`` (JSON, ``str`` or UTF-8 ``bytes``).

    The log is a plain dict, typed :class:`~kow.log.GameLog`. Checks only that it is one
    JSON object with ``"format": "kow-log"`` and version 1: :func:`kow.verify.verify_game`
    checks the rest. Raises :class:`~kow.log.LogReadError` (with the line and column)
    for text that is not JSON, and :class:`LogFormatError` for JSON that is not one kow
    log.
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"loads reads str or UTF-8 bytes, not {type(text).__name__}")
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    return load(io.BytesIO(data))


def load(stream: IO[bytes]) -> GameLog:
    """Return the one game log read from the binary ``stream``; see :func:`loads`.

    Raises :class:`TypeError` for a text stream (open the file with ``"rb"``) or anything
    that is not a stream, before reading.
    """
    if isinstance(stream, io.TextIOBase) or not callable(getattr(stream, "read", None)):
        raise TypeError(
            f"load reads a binary stream, e.g. open(path, 'rb'), not {type(stream).__name__}"
        )
    from ._reader import iter_values  # here: kow simulate writes logs and reads none

    games = iter_values(stream)
    found = next(games, None)
    if found is None:
        raise LogFormatError("the input holds no game")
    line, game = found
    if next(games, None) is not None:
        raise LogFormatError("the input holds more than one value: read it with iter_games")
    if not isinstance(game, dict):
        raise LogFormatError(f"line {line}: a log is a JSON object, not {type(game).__name__}")
    if game.get("format") != FORMAT or game.get("version") != VERSION:
        raise LogFormatError(
            f"line {line}: not a kow log of version {VERSION} "
            f"(format {game.get('format')!r}, version {game.get('version')!r})"
        )
    return cast("GameLog", game)  # its format and version are checked; verify_game checks the rest


def schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of log version 1, as a new dict.

    It is ``kow/log/schema.json``, shipped in the package: every field of
    ``docs/log-format.md`` with its type, allowed values and meaning. It checks a log's
    shape, not the game (see :mod:`kow.verify`). kow itself does not need ``jsonschema``;
    to validate with it: ``jsonschema.Draft202012Validator(schema()).validate(log)``.

    >>> s = schema()
    >>> s["$id"], s["properties"]["version"]["const"]
    ('https://kow.invalid/log-v1.schema.json', 1)
    """
    from importlib import resources  # here, when asked: a costly import

    text = resources.files("kow.log").joinpath("schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


_WIDTH = 100


def _pretty(value: Any, indent: int, column: int = 0) -> str:
    """Format ``value`` whose first character lands at ``column``, nested at ``indent``."""
    flat = json.dumps(value, separators=(", ", ": "))
    if not isinstance(value, (dict, list)) or not value or column + len(flat) <= _WIDTH:
        return flat
    inner = indent + 2
    pad = " " * inner
    if isinstance(value, dict):
        items = []
        for k, v in value.items():
            key = json.dumps(k) + ": "
            items.append(pad + key + _pretty(v, inner, inner + len(key)))
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + _pretty(v, inner, inner) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
