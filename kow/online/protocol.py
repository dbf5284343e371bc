"""The online protocol, version 1: its messages, their bounds, and the JSON of events and views.

One message is one WebSocket text frame holding one JSON object whose ``type`` names it
(docs/protocol.md lists every message and field; ``kow schema protocol`` prints the JSON
Schema, ``protocol.schema.json``). Cards are written as the log writes them (``"Ah"``,
``"Td"``), suits as letters (``"c" "d" "h" "s"``), seats as 0-based ints, clockwise.

A client sends (:data:`CLIENT_TYPES`): ``hello`` (take or retake a seat, or watch),
``open`` (open a table on a ``kow serve`` server), ``start`` (the host starts a game),
``action`` (a decision, naming the ``turn`` it answers) and ``leave``. Everything a
client sends is read here by :func:`read_client`, which checks each field and its bounds
and raises :class:`ProtocolError` naming the fault; the server never sees anything else.

What a seat is told of the game, events and views as that seat may know them, is
:mod:`kow.online.views`'s.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any, Final, Literal, NamedTuple, TypeAlias

from ..cards import NAMES, SUITS
from ..events import (
    AGENT,
    HUMAN,
    KNOCK,
    Action,
    Phase,
)
from ..rules import Rules, RulesError
from ..verify import name_fault

__all__ = [
    "CLIENT_TYPES",
    "CODE_LENGTH",
    "DEFAULT_PORT",
    "KINDS",
    "MAX_MESSAGE",
    "PROTOCOL",
    "Act",
    "ClientMessage",
    "Hello",
    "Leave",
    "Open",
    "ProtocolError",
    "Start",
    "action_json",
    "action_of",
    "CARD_OF",
    "brief",
    "check_code",
    "dumps",
    "quoted",
    "read_client",
    "schema",
    "seats_json",
    "shown_code",
]

PROTOCOL: Final = 1
"""The protocol's version: a ``hello`` or ``open`` of another version is refused."""

DEFAULT_PORT: Final = 7412
"""The port ``kow host`` and ``kow serve`` listen on unless ``--listen`` says otherwise."""

MAX_MESSAGE: Final = 4096
"""The most bytes one message from a client may hold; a longer one closes the connection
(WebSocket close code 1009). The largest legal message, an ``open`` with every rule, is
under 1,000 bytes."""

CODE_LENGTH: Final = 16
"""Characters of a table's code: base-32 letters and digits (80 bits from the system's
random source, :mod:`secrets`), shown as four groups of four (``kow join`` takes either
form, any case)."""

KINDS: Final = (HUMAN, AGENT)
"""The kinds a client may play as: a person (``human``) or a program (``agent``); the log
records it."""

CLIENT_TYPES: Final = ("hello", "open", "start", "action", "leave")
"""The ``type`` of every message a client may send."""

_SECRET_LENGTH = 43
"""Characters of a seat's secret (``secrets.token_urlsafe(32)``)."""

_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")


class ProtocolError(ValueError):
    """Raised for a message that breaks the protocol; ``code`` names the fault for programs
    (``"bad-json"``, ``"bad-message"``, ``"unknown-type"``...; docs/protocol.md lists them),
    the message says it for people, naming the bad value."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# ----------------------------------------------------------------------------- client messages


class Hello(NamedTuple):
    """Take a seat at table ``table`` (its code) as ``name``, a person or a program
    (``kind``: :data:`KINDS`); with ``secret``, retake the seat it was given; with
    ``watch``, watch the table instead (no seat, nothing hidden shown)."""

    table: str
    name: str | None
    kind: str
    secret: str | None
    watch: bool


class Open(NamedTuple):
    """Open a table on a ``kow serve`` server and sit at it as its host.

    ``rules``: the game's :class:`~kow.rules.Rules`; ``bots``: the bot kind of the seats
    nobody takes (``random``, ``heuristic``, ``search``, ``ismcts``); ``hints``: whether
    the people may ask for the search bot's hint; ``away``: seconds a seat whose player
    has gone waits before a bot plays its turns; ``seed``: the first game's seed (None:
    drawn); ``name`` and ``kind``: the host's, as in :class:`Hello`.
    """

    rules: Rules
    bots: str
    hints: bool
    away: float
    seed: int | None
    name: str
    kind: str


class Start(NamedTuple):
    """The host starts the next game: bots take the open seats."""


class Act(NamedTuple):
    """A decision for the turn numbered ``turn`` (from the ``turn`` message): ``action``
    is a card (``"Ah"``), ``"knock"``, or a suit letter (a trump choice or a vote), as
    the text the client sent, read against the seat's legal actions by the server."""

    turn: int
    action: str


class Leave(NamedTuple):
    """The player leaves the table for good; its seat is played by a bot from now on."""


ClientMessage: TypeAlias = Hello | Open | Start | Act | Leave

BOT_CHOICES: Final = ("random", "heuristic", "search", "ismcts")
"""The bot kinds an ``open`` may ask for the open seats (:data:`kow.players.BOT_KINDS`;
a test keeps them equal)."""

MAX_AWAY: Final = 3600.0
"""The longest wait, in seconds, before a bot plays for a seat whose player has gone."""


def read_client(text: str | bytes) -> ClientMessage:
    """Return the client message in ``text`` (one frame), checked field by field.

    Raises :class:`ProtocolError`: ``bad-json`` (not one JSON object, or longer than
    :data:`MAX_MESSAGE`), ``unknown-type`` (a ``type`` not in :data:`CLIENT_TYPES`),
    ``bad-version`` (a ``protocol`` other than :data:`PROTOCOL`) or ``bad-message`` (a
    field missing, unknown, of the wrong type or out of its bounds), each naming the value.
    """
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("bad-json", f"a message holds at most {MAX_MESSAGE} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:  # UnicodeDecodeError is a ValueError
        raise ProtocolError("bad-json", f"not JSON: {brief(err)}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad-json", f"a message is a JSON object, not {_kind(data)}")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        allowed = ", ".join(CLIENT_TYPES)
        raise ProtocolError(
            "unknown-type", f"unknown message type {quoted(kind)}; one of {allowed}"
        )
    fields = _FIELDS[kind]
    unknown = sorted(set(data) - set(fields) - {"type"})
    if unknown:
        raise ProtocolError("bad-message", f"{kind}: unknown field {quoted(unknown[0])}")
    missing = [f for f, required in fields.items() if required and f not in data]
    if missing:
        raise ProtocolError("bad-message", f"{kind}: missing field {missing[0]!r}")
    if kind in ("hello", "open") and (
        type(data["protocol"]) is not int or data["protocol"] != PROTOCOL
    ):
        raise ProtocolError(
            "bad-version",
            f"protocol {quoted(data['protocol'])} is not spoken here;"
            f" this server speaks {PROTOCOL}",
        )
    if kind == "hello":
        return _hello(data)
    if kind == "open":
        return _open(data)
    if kind == "action":
        turn = data["turn"]
        if type(turn) is not int or not 0 <= turn < 1 << 53:
            raise ProtocolError("bad-message", f"action: turn {quoted(turn)} is not a turn number")
        action = data["action"]
        if not isinstance(action, str) or not 1 <= len(action) <= 8:
            raise ProtocolError("bad-message", f"action: {quoted(action)} is not an action")
        return Act(turn, action)
    return Start() if kind == "start" else Leave()


_FIELDS: Final[dict[str, dict[str, bool]]] = {
    "hello": {"protocol": True, "table": True, "name": False, "kind": False, "secret": False,
              "watch": False},
    "open": {"protocol": True, "rules": False, "bots": False, "hints": False, "away": False,
             "seed": False, "name": True, "kind": False},
    "start": {},
    "action": {"turn": True, "action": True},
    "leave": {},
}  # fmt: skip
"""Each client message's fields (``type`` aside): whether it is required."""


def _hello(data: Mapping[str, Any]) -> Hello:
    table = check_code(data["table"])
    watch = data.get("watch", False)
    if type(watch) is not bool:
        raise ProtocolError("bad-message", f"hello: watch {quoted(watch)} is not true or false")
    name = data.get("name")
    secret = data.get("secret")
    if name is not None or not (watch or secret is not None):
        name = _name("hello", name)
    if secret is not None and (
        not isinstance(secret, str) or not 1 <= len(secret) <= 2 * _SECRET_LENGTH
    ):
        raise ProtocolError("bad-message", f"hello: secret {quoted(secret)} is not a seat's secret")
    return Hello(table, name, _player_kind("hello", data.get("kind", HUMAN)), secret, watch)


def _open(data: Mapping[str, Any]) -> Open:
    raw = data.get("rules", {})
    if not isinstance(raw, dict):
        raise ProtocolError("bad-message", f"open: rules {quoted(raw)} is not an object")
    try:
        rules = Rules(**raw)
    except RulesError as err:
        raise ProtocolError("bad-message", f"open: rules: {err}") from None
    except TypeError:
        unknown = sorted(set(raw) - set(Rules.__dataclass_fields__))
        raise ProtocolError("bad-message", f"open: unknown rule {quoted(unknown[0])}") from None
    bots = data.get("bots", "heuristic")
    if bots not in BOT_CHOICES:
        raise ProtocolError(
            "bad-message", f"open: bots {quoted(bots)} is not one of {', '.join(BOT_CHOICES)}"
        )
    hints = data.get("hints", True)
    if type(hints) is not bool:
        raise ProtocolError("bad-message", f"open: hints {quoted(hints)} is not true or false")
    away = data.get("away", 60)
    if type(away) not in (int, float) or not 0 <= away <= MAX_AWAY:
        raise ProtocolError(
            "bad-message", f"open: away {quoted(away)} is not a number of seconds 0 to {MAX_AWAY:g}"
        )
    seed = data.get("seed")
    if seed is not None and (type(seed) is not int or not 0 <= seed < 1 << 53):
        raise ProtocolError("bad-message", f"open: seed {quoted(seed)} is not an int 0 to 2^53-1")
    name = _name("open", data["name"])
    return Open(
        rules, bots, hints, float(away), seed, name, _player_kind("open", data.get("kind", HUMAN))
    )


def check_code(code: object) -> str:
    """Return table code ``code`` in its plain form (16 capitals and digits, no dashes).

    Dashes and spaces are dropped and the case folded, so ``abcd-efgh-...`` is read as
    ``ABCDEFGH...``. Raises :class:`ProtocolError` (``bad-message``) naming a value that
    is not a code's form (the server then says whether a table has it).
    """
    if isinstance(code, str) and len(code) <= 40 and code.isascii():  # "ß".upper() is "SS"
        plain = code.replace("-", "").replace(" ", "").upper()
        if len(plain) == CODE_LENGTH and set(plain) <= _ALPHABET:
            return plain
    raise ProtocolError(
        "bad-message",
        f"{quoted(code)} is not a table code: {CODE_LENGTH} letters and digits 2-7, as printed",
    )


def shown_code(code: str) -> str:
    """Return table code ``code`` as shown to people: four groups of four, joined by dashes.

    >>> shown_code("ABCDEFGHJKMNPQRS")
    'ABCD-EFGH-JKMN-PQRS'
    """
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


def _name(kind: str, name: object) -> str:
    fault = name_fault(name)
    if fault is None and isinstance(name, str) and (not name.strip() or name != name.strip()):
        fault = f"{quoted(name)} is blank or has spaces at an end; a name is seen by all"
    if fault is not None:
        raise ProtocolError("bad-message", f"{kind}: name: {fault}")
    return name  # type: ignore[return-value]  # name_fault checked that it is a str


def _player_kind(kind: str, value: object) -> str:
    if value not in KINDS:
        raise ProtocolError(
            "bad-message", f"{kind}: kind {quoted(value)} is not one of {', '.join(KINDS)}"
        )
    return str(value)


def quoted(value: object) -> str:
    """Return ``value`` as JSON, cut to 40 characters: how a message names what it refused.

    >>> quoted("x" * 50)
    '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'
    """
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError, RecursionError):
        text = "a value"
    return text if len(text) <= 40 else text[:37] + "..."


def brief(err: Exception) -> str:
    """Return the message of ``err``, cut to 80 characters."""
    text = str(err)
    return text if len(text) <= 80 else text[:77] + "..."


def _kind(value: object) -> str:
    return {list: "an array", str: "a string", type(None): "null", bool: "true or false"}.get(
        type(value), "a number"
    )


# ----------------------------------------------------------------------------- actions


def action_json(action: Action, phase: Phase) -> str:
    """Return ``action`` as the protocol writes it: a card (``"Ah"``) or ``"knock"`` in the
    play phase, a suit letter in the trump and vote phases.

    >>> action_json(51, Phase.PLAY), action_json(52, Phase.PLAY), action_json(2, Phase.VOTE)
    ('As', 'knock', 'h')
    """
    if phase is Phase.PLAY:
        return "knock" if action == KNOCK else NAMES[action]
    return SUITS[action]


def action_of(text: str, phase: Phase) -> Action:
    """Return the action written ``text`` in ``phase`` (:func:`action_json`'s form, exactly).

    Raises :class:`ProtocolError` (``illegal``) for text that is no action of the phase;
    whether the seat may take it is the engine's to say.
    """
    if phase is Phase.PLAY:
        if text == "knock":
            return KNOCK
        card = CARD_OF.get(text)
        if card is not None:
            return card
        raise ProtocolError("illegal", f'{quoted(text)} is not a card such as "Ah" or "knock"')
    if len(text) == 1 and text in SUITS:
        return SUITS.index(text)
    raise ProtocolError("illegal", f"{quoted(text)} is not a suit: c, d, h or s")


CARD_OF: Final = {name: card for card, name in enumerate(NAMES)}
"""Each card by its name as the protocol writes it (``"Ah"``)."""


# ----------------------------------------------------------------------------- writing


def schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of every message of protocol version 1, both
    directions, as a new dict.

    It is ``kow/online/protocol.schema.json``, shipped in the package (``kow schema
    protocol`` prints it; docs/protocol.md tells each field's meaning). Its ``$defs``
    ``client`` and ``server`` are the messages of each side; a ``game_over``'s log is
    checked loosely there (its own schema is :func:`kow.log.schema`).

    >>> s = schema()
    >>> s["$id"], s["$defs"]["client_hello"]["properties"]["protocol"]["const"]
    ('https://kow.invalid/protocol-v1.schema.json', 1)
    """
    text = resources.files("kow.online").joinpath("protocol.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def dumps(message: Mapping[str, Any]) -> str:
    """Return ``message`` as one frame's text: compact JSON, non-ASCII kept."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


Status: TypeAlias = Literal["here", "away", "open", "bot", "left"]
"""A seat's state, as ``seats`` messages tell it: a player connected (``here``) or gone
for now (``away``), a seat nobody has taken yet (``open``), a kow bot's seat (``bot``),
a player who left for good, a bot playing for them (``left``)."""


def seats_json(
    names: Sequence[str | None], kinds: Sequence[str], status: Sequence[Status]
) -> list[dict[str, Any]]:
    """Return the ``seats`` array of the table's messages: one object per seat."""
    return [
        {"seat": s, "name": n, "kind": k, "status": st}
        for s, (n, k, st) in enumerate(zip(names, kinds, status, strict=True))
    ]
