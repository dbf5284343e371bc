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

What a seat is told of the game is built here too: :func:`event_json` gives the event as
that seat may know it (another seat's dealt cards never leave the server: a deal tells
a seat its own hand and only the *number* of cards of the others), and :func:`view_json`
the seat's :class:`~kow.engine.view.View` when it must decide. :func:`event_of` and
:func:`view_of` read them back on the client, so that the terminal client shows them with
the same :class:`~kow.screen.Screen` and :class:`~kow.cli.human.HumanPlayer` as ``kow play``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any, Final, Literal, NamedTuple, TypeAlias

from ..cards import NAMES, NO_CARD, NO_SUIT, SUITS, Card, CardError, Suit, cards_in, mask_of
from ..engine.view import TrickFacts, View
from ..events import (
    AGENT,
    HUMAN,
    KNOCK,
    Action,
    CutCard,
    Deal,
    Event,
    GameEnd,
    Knock,
    Lead,
    Outcome,
    Phase,
    Play,
    RoundEnd,
    Seat,
    Termination,
    TieCut,
    Trick,
    TrickWon,
    TrumpSet,
    TurnedUp,
    Vote,
    WonBy,
)
from ..rules import Rules, RulesError
from ..verify._shape import name_fault

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
    "dumps",
    "event_json",
    "event_of",
    "read_client",
    "schema",
    "view_json",
    "view_of",
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
        raise ProtocolError("bad-json", f"not JSON: {_short(err)}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad-json", f"a message is a JSON object, not {_kind(data)}")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        allowed = ", ".join(CLIENT_TYPES)
        raise ProtocolError("unknown-type", f"unknown message type {_show(kind)}; one of {allowed}")
    fields = _FIELDS[kind]
    unknown = sorted(set(data) - set(fields) - {"type"})
    if unknown:
        raise ProtocolError("bad-message", f"{kind}: unknown field {_show(unknown[0])}")
    missing = [f for f, required in fields.items() if required and f not in data]
    if missing:
        raise ProtocolError("bad-message", f"{kind}: missing field {missing[0]!r}")
    if kind in ("hello", "open") and (
        type(data["protocol"]) is not int or data["protocol"] != PROTOCOL
    ):
        raise ProtocolError(
            "bad-version",
            f"protocol {_show(data['protocol'])} is not spoken here; this server speaks {PROTOCOL}",
        )
    if kind == "hello":
        return _hello(data)
    if kind == "open":
        return _open(data)
    if kind == "action":
        turn = data["turn"]
        if type(turn) is not int or not 0 <= turn < 1 << 53:
            raise ProtocolError("bad-message", f"action: turn {_show(turn)} is not a turn number")
        action = data["action"]
        if not isinstance(action, str) or not 1 <= len(action) <= 8:
            raise ProtocolError("bad-message", f"action: {_show(action)} is not an action")
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
        raise ProtocolError("bad-message", f"hello: watch {_show(watch)} is not true or false")
    name = data.get("name")
    secret = data.get("secret")
    if name is not None or not (watch or secret is not None):
        name = _name("hello", name)
    if secret is not None and (
        not isinstance(secret, str) or not 1 <= len(secret) <= 2 * _SECRET_LENGTH
    ):
        raise ProtocolError("bad-message", f"hello: secret {_show(secret)} is not a seat's secret")
    return Hello(table, name, _player_kind("hello", data.get("kind", HUMAN)), secret, watch)


def _open(data: Mapping[str, Any]) -> Open:
    raw = data.get("rules", {})
    if not isinstance(raw, dict):
        raise ProtocolError("bad-message", f"open: rules {_show(raw)} is not an object")
    try:
        rules = Rules(**raw)
    except RulesError as err:
        raise ProtocolError("bad-message", f"open: rules: {err}") from None
    except TypeError:
        unknown = sorted(set(raw) - set(Rules.__dataclass_fields__))
        raise ProtocolError("bad-message", f"open: unknown rule {_show(unknown[0])}") from None
    bots = data.get("bots", "heuristic")
    if bots not in BOT_CHOICES:
        raise ProtocolError(
            "bad-message", f"open: bots {_show(bots)} is not one of {', '.join(BOT_CHOICES)}"
        )
    hints = data.get("hints", True)
    if type(hints) is not bool:
        raise ProtocolError("bad-message", f"open: hints {_show(hints)} is not true or false")
    away = data.get("away", 60)
    if type(away) not in (int, float) or not 0 <= away <= MAX_AWAY:
        raise ProtocolError(
            "bad-message", f"open: away {_show(away)} is not a number of seconds 0 to {MAX_AWAY:g}"
        )
    seed = data.get("seed")
    if seed is not None and (type(seed) is not int or not 0 <= seed < 1 << 53):
        raise ProtocolError("bad-message", f"open: seed {_show(seed)} is not an int 0 to 2^53-1")
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
        f"{_show(code)} is not a table code: {CODE_LENGTH} letters and digits 2-7, as printed",
    )


def shown_code(code: str) -> str:
    """Return table code ``code`` as shown to people: four groups of four, joined by dashes.

    >>> shown_code("ABCDEFGHJKMNPQRS")
    'ABCD-EFGH-JKMN-PQRS'
    """
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


def _name(kind: str, name: object) -> str:
    fault = name_fault(name)
    if fault is not None:
        raise ProtocolError("bad-message", f"{kind}: name: {fault}")
    return name  # type: ignore[return-value]  # name_fault checked that it is a str


def _player_kind(kind: str, value: object) -> str:
    if value not in KINDS:
        raise ProtocolError(
            "bad-message", f"{kind}: kind {_show(value)} is not one of {', '.join(KINDS)}"
        )
    return str(value)


def _show(value: object) -> str:
    """Return ``value`` as JSON, cut to 40 characters (a message names what it refused)."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError, RecursionError):
        text = "a value"
    return text if len(text) <= 40 else text[:37] + "..."


def _short(err: Exception) -> str:
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
        card = _CARDS.get(text)
        if card is not None:
            return card
        raise ProtocolError("illegal", f'{_show(text)} is not a card such as "Ah" or "knock"')
    if len(text) == 1 and text in SUITS:
        return SUITS.index(text)
    raise ProtocolError("illegal", f"{_show(text)} is not a suit: c, d, h or s")


_CARDS: Final = {name: card for card, name in enumerate(NAMES)}


# ----------------------------------------------------------------------------- events


def event_json(event: Event, seat: Seat | None) -> dict[str, Any]:
    """Return ``event`` as seat ``seat`` may know it (None: a spectator), as a JSON object.

    Every event is public but a deal: a deal tells ``seat`` its own cards (``hand``) and
    every seat only the number of cards dealt (``dealt``, 0 for a seat out of the game),
    never another seat's cards. The object's ``kind`` names the event (``deal``,
    ``turned-up``, ``tie-cut``, ``vote``, ``trump``, ``lead``, ``play``, ``knock``,
    ``trick``, ``round-end``, ``game-end``); the other fields are the event's own, named
    as in :mod:`kow.events`.
    """
    if isinstance(event, Play):
        return {"kind": "play", "seat": event.seat, "card": NAMES[event.card]}
    if isinstance(event, TrickWon):
        return {
            "kind": "trick", "number": event.number, "leader": event.leader,
            "winner": event.winner, "next_leader": event.next_leader,
            "card": NAMES[event.card], "led": SUITS[event.led], "why": event.why.value,
        }  # fmt: skip
    if isinstance(event, Deal):
        own = event.hands[seat] if seat is not None else None
        return {
            "kind": "deal", "round": event.round, "hand_size": event.hand_size,
            "dealer": event.dealer, "cut_by": event.cut_by,
            "cut_position": event.cut_position,
            "dealt": [0 if h is None else len(h) for h in event.hands],
            "hand": [] if own is None else [NAMES[c] for c in own],
            "dogs_life": list(event.dogs_life),
        }  # fmt: skip
    if isinstance(event, Knock):
        return {"kind": "knock", "seat": event.seat}
    if isinstance(event, Lead):
        return {"kind": "lead", "seat": event.seat}
    if isinstance(event, TrumpSet):
        return {
            "kind": "trump", "suit": _suit(event.suit), "method": event.method,
            "chosen_by": event.chosen_by,
        }  # fmt: skip
    if isinstance(event, TurnedUp):
        return {"kind": "turned-up", "card": NAMES[event.card]}
    if isinstance(event, Vote):
        return {"kind": "vote", "seat": event.seat, "suit": SUITS[event.suit]}
    if isinstance(event, TieCut):
        return {
            "kind": "tie-cut",
            "passes": [[{"seat": c.seat, "card": NAMES[c.card]} for c in p] for p in event.passes],
        }
    if isinstance(event, RoundEnd):
        return {
            "kind": "round-end", "tricks_won": list(event.tricks_won),
            "eliminated": list(event.eliminated),
            "dogs_life_granted": list(event.dogs_life_granted), "revived": list(event.revived),
        }  # fmt: skip
    outcome = event.outcome
    return {
        "kind": "game-end", "winner": outcome.winner,
        "termination": outcome.termination.value, "rounds_played": outcome.rounds_played,
    }  # fmt: skip


def event_of(data: Mapping[str, Any], seat: Seat | None) -> Event:
    """Return the event that :func:`event_json` wrote for ``seat``.

    A deal's hands are ``seat``'s own cards for ``seat``, an empty tuple for each other
    seat dealt in (what it holds is not told) and None for a seat out of the game, so that
    the screen tells who is in. Raises :class:`ProtocolError` (``bad-message``) for an
    object that is not such an event.
    """
    try:
        event: Event = _EVENTS[data["kind"]](data, seat)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, CardError) as err:
        raise ProtocolError("bad-message", f"not an event: {_short(err)}") from None
    return event


def _deal(d: Mapping[str, Any], seat: Seat | None) -> Deal:
    hands = tuple(
        None if n == 0 else tuple(_card(c) for c in d["hand"]) if s == seat else ()
        for s, n in enumerate(d["dealt"])
    )
    return Deal(
        d["round"], d["hand_size"], d["dealer"], d["cut_by"], d["cut_position"], hands,
        tuple(d["dogs_life"]),
    )  # fmt: skip


_EVENTS: Final[dict[str, Any]] = {
    "deal": _deal,
    "play": lambda d, s: Play(d["seat"], _card(d["card"])),
    "knock": lambda d, s: Knock(d["seat"]),
    "lead": lambda d, s: Lead(d["seat"]),
    "turned-up": lambda d, s: TurnedUp(_card(d["card"])),
    "vote": lambda d, s: Vote(d["seat"], SUITS.index(d["suit"])),
    "trump": lambda d, s: TrumpSet(_suit_of(d["suit"]), d["method"], d["chosen_by"]),
    "tie-cut": lambda d, s: TieCut(
        tuple(tuple(CutCard(c["seat"], _card(c["card"])) for c in p) for p in d["passes"])
    ),
    "trick": lambda d, s: TrickWon(
        d["number"],
        d["leader"],
        d["winner"],
        d["next_leader"],
        _card(d["card"]),
        SUITS.index(d["led"]),
        WonBy(d["why"]),
    ),  # fmt: skip
    "round-end": lambda d, s: RoundEnd(
        tuple(d["tricks_won"]),
        tuple(d["eliminated"]),
        tuple(d["dogs_life_granted"]),
        tuple(d["revived"]),
    ),  # fmt: skip
    "game-end": lambda d, s: GameEnd(
        Outcome(d["winner"], Termination(d["termination"]), d["rounds_played"])
    ),
}


def _card(text: object) -> Card:
    card = _CARDS.get(text) if isinstance(text, str) else None
    if card is None:
        raise CardError(f"{_show(text)} is not a card")
    return card


def _suit(suit: Suit | None) -> str | None:
    return None if suit is None or suit == NO_SUIT else SUITS[suit]


def _suit_of(text: object) -> Suit | None:
    if text is None:
        return None
    if not isinstance(text, str) or len(text) != 1 or text not in SUITS:
        raise ValueError(f"{_show(text)} is not a suit")
    return SUITS.index(text)


# ----------------------------------------------------------------------------- views


def view_json(view: View) -> dict[str, Any]:
    """Return seat ``view.seat``'s :class:`~kow.engine.view.View` as a JSON object.

    The fields are the view's own (see :class:`~kow.engine.view.View`), with cards, suits
    and actions written as the protocol writes them (``legal`` in the form an ``action``
    message sends back); ``hand_mask`` is left out (it is ``hand``). The view holds only
    what its seat may know: its own hand and what the table has seen.
    """
    phase = view.phase
    return {
        "seat": view.seat,
        "phase": phase.value,
        "legal": [action_json(a, phase) for a in view.legal],
        "facts": None if view.facts is None else _facts_json(view.facts),
        "rules": view.rules.to_dict(),
        "round": view.round,
        "hand_size": view.hand_size,
        "dealer": view.dealer,
        "leader": view.leader,
        "trump": _suit(view.trump),
        "trump_method": view.trump_method,
        "trump_chosen_by": view.trump_chosen_by,
        "turned_up": None if view.turned_up is None else NAMES[view.turned_up],
        "in_round": list(view.in_round),
        "dogs_life": list(view.dogs_life),
        "dogs_life_used": list(view.dogs_life_used),
        "dogs_life_open": list(view.dogs_life_open),
        "knocked_out": list(view.knocked_out),
        "previous_tricks_won": None
        if view.previous_tricks_won is None
        else list(view.previous_tricks_won),
        "tricks_won": list(view.tricks_won),
        "tricks": [_trick_json(t) for t in view.tricks],
        "trick_number": view.trick_number,
        "tricks_left": view.tricks_left,
        "trick_order": list(view.trick_order),
        "hand_counts": list(view.hand_counts),
        "votes": [{"seat": v.seat, "suit": SUITS[v.suit]} for v in view.votes],
        "hand": [NAMES[c] for c in view.hand],
        "seen": [NAMES[c] for c in cards_in(view.seen)],
        "trick": [_play_json(p) for p in view.trick],
        "led": _suit(view.led),
        "winning_card": None if view.winning_card is None else NAMES[view.winning_card],
        "winning_seat": view.winning_seat,
    }


def view_of(data: Mapping[str, Any]) -> View:
    """Return the :class:`~kow.engine.view.View` that :func:`view_json` wrote.

    Raises :class:`ProtocolError` (``bad-message``) for an object that is not one.
    """
    try:
        phase = Phase(data["phase"])
        hand = tuple(_card(c) for c in data["hand"])
        facts = data["facts"]
        return View(
            seat=data["seat"],
            phase=phase,
            legal=tuple(action_of(a, phase) for a in data["legal"]),
            facts=None if facts is None else _facts_of(facts),
            rules=Rules.from_dict(data["rules"]),
            round=data["round"],
            hand_size=data["hand_size"],
            dealer=data["dealer"],
            leader=data["leader"],
            trump=_suit_of(data["trump"]),
            trump_method=data["trump_method"],
            trump_chosen_by=data["trump_chosen_by"],
            turned_up=None if data["turned_up"] is None else _card(data["turned_up"]),
            in_round=tuple(data["in_round"]),
            dogs_life=tuple(data["dogs_life"]),
            dogs_life_used=tuple(data["dogs_life_used"]),
            dogs_life_open=tuple(data["dogs_life_open"]),
            knocked_out=tuple(data["knocked_out"]),
            previous_tricks_won=None
            if data["previous_tricks_won"] is None
            else tuple(data["previous_tricks_won"]),
            tricks_won=tuple(data["tricks_won"]),
            tricks=tuple(_trick_of(t) for t in data["tricks"]),
            trick_number=data["trick_number"],
            tricks_left=data["tricks_left"],
            trick_order=tuple(data["trick_order"]),
            hand_counts=tuple(data["hand_counts"]),
            votes=tuple(Vote(v["seat"], SUITS.index(v["suit"])) for v in data["votes"]),
            hand=hand,
            hand_mask=mask_of(hand),
            seen=mask_of(_card(c) for c in data["seen"]),
            trick=tuple(_play_of(p) for p in data["trick"]),
            led=_suit_of(data["led"]),
            winning_card=None if data["winning_card"] is None else _card(data["winning_card"]),
            winning_seat=data["winning_seat"],
        )
    except ProtocolError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, CardError) as err:
        raise ProtocolError("bad-message", f"not a view: {_short(err)}") from None


def _facts_json(facts: TrickFacts) -> dict[str, Any]:
    return {
        "seat": facts.seat,
        "hand": [NAMES[c] for c in cards_in(facts.hand)],
        "legal": [NAMES[c] for c in cards_in(facts.legal)],
        "may_knock": facts.may_knock,
        "seen": [NAMES[c] for c in cards_in(facts.seen)],
        "winning": None if facts.winning == NO_CARD else NAMES[facts.winning],
        "led": _suit(facts.led),
        "trump": _suit(facts.trump),
        "to_come": facts.to_come,
        "won": facts.won,
        "tricks_left": facts.tricks_left,
    }


def _facts_of(d: Mapping[str, Any]) -> TrickFacts:
    led = _suit_of(d["led"])
    trump = _suit_of(d["trump"])
    return TrickFacts(
        seat=d["seat"],
        hand=mask_of(_card(c) for c in d["hand"]),
        legal=mask_of(_card(c) for c in d["legal"]),
        may_knock=bool(d["may_knock"]),
        seen=mask_of(_card(c) for c in d["seen"]),
        winning=NO_CARD if d["winning"] is None else _card(d["winning"]),
        led=NO_SUIT if led is None else led,
        trump=NO_SUIT if trump is None else trump,
        to_come=bool(d["to_come"]),
        won=d["won"],
        tricks_left=d["tricks_left"],
    )


def _play_json(play: Play | Knock) -> dict[str, Any]:
    if isinstance(play, Knock):
        return {"seat": play.seat, "knock": True}
    return {"seat": play.seat, "card": NAMES[play.card]}


def _play_of(d: Mapping[str, Any]) -> Play | Knock:
    return Knock(d["seat"]) if d.get("knock") else Play(d["seat"], _card(d["card"]))


def _trick_json(trick: Trick) -> dict[str, Any]:
    return {
        "number": trick.number, "leader": trick.leader,
        "plays": [_play_json(p) for p in trick.plays], "winner": trick.winner,
        "card": NAMES[trick.card], "led": SUITS[trick.led], "why": trick.why.value,
    }  # fmt: skip


def _trick_of(d: Mapping[str, Any]) -> Trick:
    return Trick(
        d["number"], d["leader"], tuple(_play_of(p) for p in d["plays"]), d["winner"],
        _card(d["card"]), SUITS.index(d["led"]), WonBy(d["why"]),
    )  # fmt: skip


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
