"""The JSON log format, version 1: build a log from a game's events, dump and load it.

``docs/log-format.md`` documents every field. Cards are two characters (``Th``), a suit on
its own is one letter (``c d h s``) and no trump is ``null``. Keys come in a fixed order
and the output is ASCII, so the same game always gives the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import Any

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

__all__ = ["FORMAT", "VERSION", "build", "dumps", "schema"]

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
