"""The JSON log format, version 1: build a log from a game's events, dump and load it.

``docs/log-format.md`` documents every field. Cards are two characters (``Th``), a suit on
its own is one letter (``c d h s``) and no trump is ``null``. Keys come in a fixed order
and the output is ASCII, so the same game always gives the same bytes.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from importlib import resources
from typing import IO, Any

from . import __version__
from .cards import NAMES, SUITS
from .engine import (
    E_GAME_END,
    E_KNOCK,
    E_LEAD,
    E_PLAY,
    E_ROUND,
    E_ROUND_END,
    E_TIE_CUT,
    E_TRICK,
    E_TRUMP,
    E_TURNED_UP,
    E_VOTE,
    Event,
)
from .players import Player
from .rules import Rules

__all__ = [
    "FORMAT",
    "VERSION",
    "LogReadError",
    "build",
    "dumps",
    "events",
    "iter_games",
    "schema",
    "text",
]

FORMAT = "kow-log"
VERSION = 1


def build(
    seed: int,
    rules: Rules,
    players: Sequence[Player],
    events: Iterable[Event],
    abandoned: bool = False,
) -> dict[str, Any]:
    """Return the version-1 log (a JSON-ready dict) of a game from its events.

    ``players[seat]`` gives each seat's ``name`` and ``kind``. A game cut short
    (``abandoned``) has ``result.winner`` null and ``abandoned: true``; a trick cut short
    has ``winner`` null.
    """
    rounds: list[dict[str, Any]] = []
    rnd: dict[str, Any] = {}
    plays: list[dict[str, Any]] = []
    result: dict[str, Any] = {"winner": None, "rounds_played": 0}
    for ev in events:
        kind = ev[0]
        if kind == E_PLAY:
            plays.append({"seat": ev[1], "card": NAMES[ev[2]]})
        elif kind == E_KNOCK:
            plays.append({"seat": ev[1], "knock": True})
        elif kind == E_TRICK:
            rnd["tricks"].append(
                {"number": ev[1], "leader": ev[2], "plays": plays, "winner": ev[3]}
            )
            plays = []
        elif kind == E_ROUND:
            _, number, hand_size, dealer, cut_by, cut_position, hands, dogs = ev
            rnd = {
                "number": number,
                "hand_size": hand_size,
                "dealer": dealer,
                "cut": {"by": cut_by, "position": cut_position},
                "hands": [None if h is None else [NAMES[c] for c in h] for h in hands],
                "turned_up": None,
                "trump": None,
                "trump_method": None,
                "trump_chosen_by": None,
                "tie_cut": None,
                "votes": [] if rules.eliminated_vote else None,
                "leader": None,
                "dogs_life": list(dogs),
                "tricks": [],
                "tricks_won": None,
                "eliminated": [],
                "dogs_life_granted": [],
                "revived": [],
            }
            rounds.append(rnd)
        elif kind == E_TURNED_UP:
            rnd["turned_up"] = NAMES[ev[1]]
        elif kind == E_TIE_CUT:
            rnd["tie_cut"] = [
                [{"seat": s, "card": NAMES[c]} for s, c in cut_pass] for cut_pass in ev[1]
            ]
        elif kind == E_VOTE:
            rnd["votes"].append({"seat": ev[1], "suit": SUITS[ev[2]]})
        elif kind == E_TRUMP:
            rnd["trump"] = None if ev[1] is None else SUITS[ev[1]]
            rnd["trump_method"] = ev[2]
            rnd["trump_chosen_by"] = ev[3]
        elif kind == E_LEAD:
            rnd["leader"] = ev[1]
        elif kind == E_ROUND_END:
            rnd["tricks_won"] = list(ev[1])
            rnd["eliminated"] = list(ev[2])
            rnd["dogs_life_granted"] = list(ev[3])
            rnd["revived"] = list(ev[4])
        elif kind == E_GAME_END:
            result = {"winner": ev[1], "rounds_played": ev[2]}
    if plays:
        rnd["tricks"].append(
            {
                "number": len(rnd["tricks"]) + 1,
                "leader": plays[0]["seat"],
                "plays": plays,
                "winner": None,
            }
        )
    if result["winner"] is None:
        result["rounds_played"] = len(rounds)
    game = {
        "format": FORMAT,
        "version": VERSION,
        "kow_version": __version__,
        "seed": seed,
        "rules": rules.to_dict(),
        "players": [
            {"seat": seat, "name": p.name, "kind": p.kind} for seat, p in enumerate(players)
        ],
        "rounds": rounds,
        "result": result,
    }
    if abandoned:
        game["abandoned"] = True
    return game


def dumps(log: dict[str, Any], pretty: bool = False) -> str:
    """Return ``log`` as JSON text: one compact line, or indented for reading when ``pretty``.

    Pretty text indents by 2 and keeps each list or object that fits in 100 columns on
    one line (a hand, a play, a trick's plays). The text is ASCII (other characters
    escaped) and has no trailing newline. Both forms load to the same value.
    """
    if pretty:
        return _pretty(log, 0)
    return json.dumps(log, separators=(",", ":"))


def text(
    seed: int,
    rules: Rules,
    players: Sequence[Player],
    events: Iterable[Event],
    abandoned: bool = False,
) -> str:
    """Return the compact JSON text of a game's log: ``dumps(build(...))``, made faster.

    Takes the arguments of :func:`build` and returns the same bytes as
    ``dumps(build(seed, rules, players, events, abandoned))``, but writes the text
    straight from the events with precomputed pieces instead of building dicts and
    encoding them (the standard ``json.dumps`` costs more than playing the game).
    ``tests/test_log.py`` checks that the two agree.
    """
    out = [_HEAD, str(seed), _rules_players(rules, tuple([(p.name, p.kind) for p in players]))]
    rounds: list[str] = []
    tricks: list[str] = []
    plays: list[str] = []
    head = ""  # the round's keys from "number" to "hands", then its later facts:
    turned_up = trump = method = chosen_by = tie_cut = leader = _NULL
    votes: list[str] | None = None
    dogs = ""
    winner = None
    rounds_played = 0
    play_text = _PLAY_TEXT
    play_event = E_PLAY
    trick_head = _TRICK_HEAD
    trick_tail = _TRICK_TAIL
    for ev in events:
        kind = ev[0]
        if kind == play_event:
            plays.append(play_text[ev[1]][ev[2]])
        elif kind == E_TRICK:
            tricks.append(trick_head[ev[1]][ev[2]] + ",".join(plays) + trick_tail[ev[3]])
            plays = []
        elif kind == E_KNOCK:
            plays.append(_KNOCK_TEXT[ev[1]])
        elif kind == E_ROUND:
            if head:
                rounds.append(
                    _round(head, turned_up, trump, method, chosen_by, tie_cut, votes, leader,
                           dogs, tricks, None)
                )  # fmt: skip
                tricks = []
            _, number, hand_size, dealer, cut_by, cut_position, hands, dog_seats = ev
            head = (
                f'{{"number":{number},"hand_size":{hand_size},"dealer":{dealer},'
                f'"cut":{{"by":{cut_by},"position":{cut_position}}},"hands":['
                + ",".join(["null" if h is None else _hand(h) for h in hands])
                + "]"
            )
            turned_up = trump = method = chosen_by = tie_cut = leader = _NULL
            votes = [] if rules.eliminated_vote else None
            dogs = ",".join(map(str, dog_seats))
        elif kind == E_TRUMP:
            trump = _NULL if ev[1] is None else _QUOTED_SUITS[ev[1]]
            method = _string(ev[2])
            chosen_by = _NULL if ev[3] is None else str(ev[3])
        elif kind == E_LEAD:
            leader = str(ev[1])
        elif kind == E_ROUND_END:
            rounds.append(
                _round(head, turned_up, trump, method, chosen_by, tie_cut, votes, leader,
                       dogs, tricks, ev)
            )  # fmt: skip
            tricks = []
            head = ""
        elif kind == E_TURNED_UP:
            turned_up = _QUOTED_NAMES[ev[1]]
        elif kind == E_TIE_CUT:
            tie_cut = (
                "["
                + ",".join(
                    "[" + ",".join([_CUT_TEXT[s][c] for s, c in cut_pass]) + "]"
                    for cut_pass in ev[1]
                )
                + "]"
            )
        elif kind == E_VOTE:
            assert votes is not None
            votes.append(f'{{"seat":{ev[1]},"suit":{_QUOTED_SUITS[ev[2]]}}}')
        elif kind == E_GAME_END:
            winner = ev[1]
            rounds_played = ev[2]
    if plays:
        tricks.append(
            f'{{"number":{len(tricks) + 1},"leader":{_SEAT_OF_PLAY[plays[0]]},'
            f'"plays":[{",".join(plays)}],"winner":null}}'
        )
    if head:
        rounds.append(
            _round(head, turned_up, trump, method, chosen_by, tie_cut, votes, leader, dogs,
                   tricks, None)
        )  # fmt: skip
    if winner is None:
        rounds_played = len(rounds)
    out.append(",".join(rounds))
    out.append(
        f'],"result":{{"winner":{"null" if winner is None else winner},'
        f'"rounds_played":{rounds_played}}}'
    )
    out.append(',"abandoned":true}' if abandoned else "}")
    return "".join(out)


_NULL = "null"
_HEAD = f'{{"format":"{FORMAT}","version":{VERSION},"kow_version":{json.dumps(__version__)},"seed":'
_QUOTED_NAMES = tuple(f'"{name}"' for name in NAMES)
_QUOTED_SUITS = tuple(f'"{suit}"' for suit in SUITS)
_PLAY_TEXT = tuple(
    tuple(f'{{"seat":{seat},"card":"{name}"}}' for name in NAMES) for seat in range(7)
)
"""``_PLAY_TEXT[seat][card]``: the text of a play."""
_CUT_TEXT = _PLAY_TEXT
"""``_CUT_TEXT[seat][card]``: the text of a tie cut's card (the same shape as a play)."""
_TRICK_HEAD = tuple(
    tuple(f'{{"number":{number},"leader":{leader},"plays":[' for leader in range(7))
    for number in range(27)
)
"""``_TRICK_HEAD[number][leader]``: a trick's text up to its plays (numbers 1..26)."""
_TRICK_TAIL = tuple(f'],"winner":{winner}}}' for winner in range(7))
"""``_TRICK_TAIL[winner]``: a trick's text after its plays."""
_KNOCK_TEXT = tuple(f'{{"seat":{seat},"knock":true}}' for seat in range(7))
_SEAT_OF_PLAY = {t: seat for seat in range(7) for t in (*_PLAY_TEXT[seat], _KNOCK_TEXT[seat])}
"""The seat of each play's text, for the leader of a trick cut short."""


def _hand(cards: tuple[int, ...]) -> str:
    return "[" + ",".join([_QUOTED_NAMES[c] for c in cards]) + "]"


def _string(value: str) -> str:
    quoted = _STRINGS.get(value)
    if quoted is None:
        quoted = json.dumps(value)
    return quoted


_STRINGS = {m: f'"{m}"' for m in ("turned-up", "chosen", "fixed", "vote", "none")}


def _ints(values: tuple[int | None, ...]) -> str:
    text = _INTS.get(values)
    if text is None:
        text = ",".join(["null" if v is None else str(v) for v in values])
        if len(_INTS) < 10_000:
            _INTS[values] = text
    return text


_INTS: dict[tuple[int | None, ...], str] = {}
"""The text of short lists of ints met so far (the same few recur in every game)."""


def _round(
    head: str,
    turned_up: str,
    trump: str,
    method: str,
    chosen_by: str,
    tie_cut: str,
    votes: list[str] | None,
    leader: str,
    dogs: str,
    tricks: list[str],
    end: Event | None,
) -> str:
    """Return the text of one round from its pieces; ``end`` is its E_ROUND_END event."""
    if end is None:
        won = 'null,"eliminated":[],"dogs_life_granted":[],"revived":[]}'
    else:
        won = (
            f'[{_ints(end[1])}],"eliminated":[{_ints(end[2])}],'
            f'"dogs_life_granted":[{_ints(end[3])}],"revived":[{_ints(end[4])}]}}'
        )
    return (
        f'{head},"turned_up":{turned_up},"trump":{trump},"trump_method":{method},'
        f'"trump_chosen_by":{chosen_by},"tie_cut":{tie_cut},'
        f'"votes":{"null" if votes is None else "[" + ",".join(votes) + "]"},'
        f'"leader":{leader},"dogs_life":[{dogs}],"tricks":[{",".join(tricks)}],'
        f'"tricks_won":{won}'
    )


@lru_cache(maxsize=64)
def _rules_players(rules: Rules, players: tuple[tuple[str, str], ...]) -> str:
    """Return the text from the key ``rules`` to the start of ``rounds``' list.

    ``players`` holds each seat's ``(name, kind)``. Cached: a run repeats them every game.
    """
    listed = [
        {"seat": seat, "name": name, "kind": kind} for seat, (name, kind) in enumerate(players)
    ]
    return (
        ',"rules":'
        + json.dumps(rules.to_dict(), separators=(",", ":"))
        + ',"players":'
        + json.dumps(listed, separators=(",", ":"))
        + ',"rounds":['
    )


def schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of log version 1, as a new dict.

    It is ``kow/log_schema.json``, shipped in the package: every field of
    ``docs/log-format.md`` with its type, allowed values and meaning. It checks a log's
    shape, not the game (see :mod:`kow.verify`). kow itself does not need ``jsonschema``;
    to validate with it: ``jsonschema.Draft202012Validator(schema()).validate(log)``.

    >>> s = schema()
    >>> s["$id"], s["properties"]["version"]["const"]
    ('https://kow.invalid/log-v1.schema.json', 1)
    """
    text = resources.files("kow").joinpath("log_schema.json").read_text(encoding="utf-8")
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


# ----------------------------------------------------------------------------- reading


class LogReadError(ValueError):
    """Raised for input that cannot be read as JSON; ``line`` and ``column`` give the place.

    ``line`` and ``column`` count from 1 (``column`` None when not known).
    """

    def __init__(self, message: str, line: int, column: int | None = None) -> None:
        place = f"line {line}" + (f", column {column}" if column is not None else "")
        super().__init__(f"{place}: {message}")
        self.line = line
        self.column = column


_CHUNK = 1 << 16
_MAX_VALUE = 64 << 20  # no game log comes near 64 MiB; past that, the input is not a log
_WHITESPACE = " \t\r\n"
_LOOKAHEAD = 16
"""How far before the end of the text json may stop for want of more of it.

json's scanner looks at most 9 characters past the place it reports (``-Infinity``), and
a number, whitespace or structure cut short by the end fails at or near the end; only a
string cut short is reported further back, at its start. A failure further back than this
is a real fault, reported at once rather than after reading on to the end or the cap.
"""


def iter_games(stream: IO[bytes]) -> Iterator[tuple[int, Any]]:
    """Yield ``(line, value)`` for each JSON value in ``stream``, reading it piece by piece.

    The input may hold one value, JSON Lines, or values simply concatenated; ``line`` (from
    1) is where each value starts. Memory stays flat in the number of values: only the
    value being read is held. Time is linear in the input, however big one value is.

    Raises :class:`LogReadError` at the first place that is not UTF-8 or not JSON, or holds
    a value too deep, a number too long or a value too big (64 MiB) to read.
    """
    decoder = json.JSONDecoder()
    utf8 = codecs.getincrementaldecoder("utf-8")()
    text = ""
    pos = 0
    line = 1  # the line of text[pos]
    line_start = 0  # where that line starts in text; below 0 when it started in text dropped
    offset = 0  # bytes read before this chunk, for the place of bad UTF-8
    eof = False
    while True:
        while pos < len(text) and text[pos] in _WHITESPACE:
            if text[pos] == "\n":
                line += 1
                line_start = pos + 1
            pos += 1
        if pos >= len(text):
            if eof:
                return
            text, eof, offset = _more(stream, utf8, "", offset, line)
            line_start -= pos
            pos = 0
            continue
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as err:
            if not eof and (
                err.pos >= len(text) - _LOOKAHEAD or err.msg.startswith("Unterminated string")
            ):
                # Cut short by the end of the text read so far: read on and decode again.
                text, eof, offset = _more(stream, utf8, text[pos:], offset, line)
                line_start -= pos
                pos = 0
                continue
            bad_line = line + text.count("\n", pos, err.pos)
            newline = text.rfind("\n", pos, err.pos)
            column = err.pos - (line_start if newline < 0 else newline + 1) + 1
            raise LogReadError(f"not JSON: {_json_message(err.msg)}", bad_line, column) from None
        except RecursionError:
            raise LogReadError("not readable: the JSON is nested too deep", line) from None
        except ValueError as err:  # an integer past Python's digit limit
            why = "a number has too many digits" if "digits" in str(err) else str(err)
            raise LogReadError(f"not readable: {why}", line) from None
        if not eof and end > len(text) - _LOOKAHEAD and isinstance(value, (int, float)):
            # A number near the end of the text may go on: "12" + "3", or "1." + "5" (json
            # read "1." as 1 and stopped at the ".", the end of what it was given).
            text, eof, offset = _more(stream, utf8, text[pos:], offset, line)
            line_start -= pos
            pos = 0
            continue
        yield line, value
        newline = text.rfind("\n", pos, end)
        if newline >= 0:
            line += text.count("\n", pos, end)
            line_start = newline + 1
        pos = end


def _more(
    stream: IO[bytes], utf8: codecs.IncrementalDecoder, rest: str, offset: int, line: int
) -> tuple[str, bool, int]:
    """Read on after ``rest``, the start of a value not yet whole; return (text, eof, offset).

    It reads as much as ``rest`` holds (at least ``_CHUNK``), so the text of a big value
    doubles with each read and is decoded O(log n) times: linear time in all, where a
    fixed chunk would decode it n / ``_CHUNK`` times, quadratic. Small values read one
    chunk at a time, so memory stays flat. A read stops near ``_MAX_VALUE``.
    """
    if len(rest) > _MAX_VALUE:
        raise LogReadError("not readable: a value runs past 64 MiB without ending", line)
    chunk = stream.read(max(_CHUNK, min(len(rest), _MAX_VALUE + 1 - len(rest))))
    eof = not chunk
    try:
        text = rest + utf8.decode(chunk, final=eof)
    except UnicodeDecodeError as err:
        where = line + rest.count("\n") + chunk.count(b"\n", 0, max(0, err.start))
        raise LogReadError(
            f"not UTF-8 text (byte {offset + err.start + 1} of the file is {chunk[err.start]:#04x})"
            if err.start < len(chunk)
            else "not UTF-8 text (it ends inside a character)",
            where,
        ) from None
    return text, eof, offset + len(chunk)


def _json_message(message: str) -> str:
    """Return json's error message to follow its place: without the trailing " at".

    "Unterminated string starting at" becomes "... starting here" (the place is where the
    string starts); "Invalid control character at" becomes "Invalid control character".
    """
    message = message.removesuffix(" at")
    return message + " here" if message.endswith(" starting") else message


def events(game: dict[str, Any]) -> list[Event]:
    """Return the events of a game from its log, as the engine recorded them.

    ``game`` must be a log that :func:`kow.verify.verify_game` accepts; the events feed
    the same screen as ``kow play`` (see :mod:`kow.screen`).
    """
    cards = {name: c for c, name in enumerate(NAMES)}
    suits = {s: i for i, s in enumerate(SUITS)}
    out: list[Event] = []
    for rnd in game["rounds"]:
        hands = tuple(None if h is None else tuple(cards[c] for c in h) for h in rnd["hands"])
        out.append(
            (E_ROUND, rnd["number"], rnd["hand_size"], rnd["dealer"], rnd["cut"]["by"],
             rnd["cut"]["position"], hands, tuple(rnd["dogs_life"]))
        )  # fmt: skip
        if rnd["turned_up"] is not None:
            out.append((E_TURNED_UP, cards[rnd["turned_up"]]))
        for vote in rnd["votes"] or ():
            out.append((E_VOTE, vote["seat"], suits[vote["suit"]]))
        if rnd["tie_cut"]:
            passes = tuple(tuple((c["seat"], cards[c["card"]]) for c in p) for p in rnd["tie_cut"])
            out.append((E_TIE_CUT, passes))
        if rnd["trump_method"] is not None:
            trump = None if rnd["trump"] is None else suits[rnd["trump"]]
            out.append((E_TRUMP, trump, rnd["trump_method"], rnd["trump_chosen_by"]))
        if rnd["leader"] is not None:
            out.append((E_LEAD, rnd["leader"]))
        for trick in rnd["tricks"]:
            for p in trick["plays"]:
                if p.get("knock"):
                    out.append((E_KNOCK, p["seat"]))
                else:
                    out.append((E_PLAY, p["seat"], cards[p["card"]]))
            if trick["winner"] is not None:
                out.append((E_TRICK, trick["number"], trick["leader"], trick["winner"]))
        if rnd["tricks_won"] is not None:
            out.append(
                (E_ROUND_END, tuple(rnd["tricks_won"]), tuple(rnd["eliminated"]),
                 tuple(rnd["dogs_life_granted"]), tuple(rnd["revived"]))
            )  # fmt: skip
    if game["result"]["winner"] is not None:
        out.append((E_GAME_END, game["result"]["winner"], game["result"]["rounds_played"]))
    return out
