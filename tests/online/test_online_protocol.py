"""The online protocol's messages against its JSON Schema (``kow/online/protocol.schema.json``).

- Every frame a real :class:`~kow.online.server.Server` sends over whole games (2, 4 and 7
  players, a dog's life, knocked-out players' votes, a spectator who joins late, faulty
  actions, the server stopping) is one of the schema's server messages, and each game's
  log passes the log's own schema.
- :func:`~kow.online.protocol.read_client` accepts exactly what the schema's client
  messages allow (generated messages, hypothesis), and refuses the rest with the code
  that names the fault.
- Events and views read back (:func:`event_of`, :func:`view_of`) as they were, but for a
  deal's other hands, which a seat is never told.

Every server listens on 127.0.0.1 (a free port) and every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from kow import log
from kow.events import Deal, Event, Phase
from kow.game import new_game
from kow.log import rules_to_log
from kow.online.protocol import (
    CLIENT_TYPES,
    MAX_MESSAGE,
    PROTOCOL,
    ProtocolError,
    dumps,
    read_client,
    schema,
)
from kow.online.server import Server
from kow.online.views import event_json, event_of, view_json, view_of
from kow.rules import Rules

pytestmark = pytest.mark.timeout(120)

HOST = "127.0.0.1"
WAIT = 20.0
"""The longest a client waits for one message."""

SCHEMA = schema()


def _validator(side: str) -> Draft202012Validator:
    """Return a validator of one side's messages (``client`` or ``server``)."""
    return Draft202012Validator({**SCHEMA, "oneOf": [{"$ref": f"#/$defs/{side}"}]})


CLIENT = _validator("client")
SERVER = _validator("server")
VIEW = Draft202012Validator({**SCHEMA, "oneOf": [{"$ref": "#/$defs/view"}]})
EVENT = Draft202012Validator({**SCHEMA, "oneOf": [{"$ref": "#/$defs/event"}]})
LOG = Draft202012Validator(log.schema())


def test_schema_is_a_valid_draft_2020_12_schema_with_every_message() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$id"] == "https://kow.invalid/protocol-v1.schema.json"
    defs = SCHEMA["$defs"]
    client = [d["$ref"].rsplit("_", 1)[1] for d in defs["client"]["oneOf"]]
    assert tuple(client) == CLIENT_TYPES
    server = [d["$ref"].split("server_", 1)[1] for d in defs["server"]["oneOf"]]
    assert server == [
        "welcome", "seats", "game", "event", "catchup", "turn", "waiting", "game_over",
        "error", "closed",
    ]  # fmt: skip
    for name in client:
        assert defs[f"client_{name}"]["properties"]["type"] == {"const": name}
        assert defs[f"client_{name}"]["additionalProperties"] is False


def test_schema_shares_the_logs_definitions() -> None:
    defs, logged = SCHEMA["$defs"], log.schema()["$defs"]
    assert defs["rules"]["properties"] == logged["rules"]["properties"]
    assert defs["rules"]["allOf"] == logged["rules"]["allOf"]
    for name in ("seat", "card", "suit", "trump_method", "termination"):
        assert defs[name] == logged[name]
    assert defs["name"]["not"] == logged["player"]["properties"]["name"]["not"]
    assert defs["player_kind"]["enum"] == logged["player"]["properties"]["kind"]["enum"]


def test_kow_schema_protocol_prints_the_shipped_schema() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "kow", "schema", "protocol"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 0 and proc.stderr == ""
    assert json.loads(proc.stdout) == SCHEMA


def test_docs_protocol_md_tells_every_message_and_error_code() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")
    defs = SCHEMA["$defs"]
    for side in ("client", "server"):
        for ref in defs[side]["oneOf"]:
            name = defs[ref["$ref"].rsplit("/", 1)[1]]["properties"]["type"]["const"]
            assert f"### `{name}`" in text, name
    codes = defs["server_error"]["properties"]["code"]["enum"]
    table = text.split("## Errors", 1)[1].split("## Versioning", 1)[0]
    assert [c for c in codes if f"| `{c}` |" not in table] == []
    for event in defs["event"]["oneOf"]:
        kind = defs[event["$ref"].rsplit("/", 1)[1]]["properties"]["kind"]["const"]
        assert f"| `{kind}` |" in text, kind


# ----------------------------------------------------------------------------- whole games


@contextlib.contextmanager
def _server() -> Iterator[tuple[int, Callable[[], None]]]:
    """Run a :class:`Server` that lets clients open tables, on 127.0.0.1; yield its port
    and a function that stops it (called at the end if not before)."""
    ready: queue.Queue[int] = queue.Queue()
    box: dict[str, Any] = {}

    async def main() -> None:
        server = Server(open_tables=True)
        box["loop"] = asyncio.get_running_loop()
        box["task"] = asyncio.ensure_future(
            server.serve(HOST, 0, ready=lambda a: ready.put(a[0][1]))
        )
        with contextlib.suppress(asyncio.CancelledError):
            await box["task"]

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    port = ready.get(timeout=WAIT)

    def stop() -> None:
        if thread.is_alive():
            box["loop"].call_soon_threadsafe(box["task"].cancel)
            thread.join(WAIT)

    try:
        yield port, stop
    finally:
        stop()


class _Client:
    """A raw WebSocket client in a thread: records every text frame it receives, answers
    each turn (``knock`` when it may, else the first legal action), and sends one faulty
    action of each kind at its first turn. An answer refused as ``too-fast`` (a bot
    answers at once, and the server allows a connection 20 messages a second) is sent
    again a moment later."""

    def __init__(self, port: int, first: dict[str, Any], *, games: int, opener: bool) -> None:
        self.url, self.first = f"ws://{HOST}:{port}/", first
        self.frames: list[str] = []
        self.games, self.opener = games, opener
        self.welcomed = threading.Event()
        self.done = threading.Event()  # all its games are over
        self.turned = threading.Event()  # its first turn came
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.welcomed.wait(WAIT)
        assert self.welcome["type"] == "welcome", self.welcome

    def send(self, message: dict[str, Any]) -> None:
        """Send ``message`` (from any thread)."""
        self.ws.send(dumps(message))

    def _recv(self) -> dict[str, Any] | None:
        try:
            text = self.ws.recv(timeout=WAIT)
        except (ConnectionClosed, TimeoutError):
            return None
        assert isinstance(text, str)
        self.frames.append(text)
        message: dict[str, Any] = json.loads(text)
        return message

    def _run(self) -> None:
        with connect(self.url, open_timeout=WAIT, proxy=None) as self.ws:
            self.send(self.first)
            self.welcome = self._recv() or {"type": "none"}
            self.welcomed.set()
            over = 0
            answer: dict[str, Any] = {}
            while (message := self._recv()) is not None:
                kind = message["type"]
                if kind == "turn":
                    legal, turn = message["view"]["legal"], message["turn"]
                    if not self.turned.is_set():
                        self.turned.set()
                        self.send({"type": "action", "turn": 0, "action": legal[0]})
                        self.send({"type": "action", "turn": turn, "action": "Zz"})
                    action = "knock" if "knock" in legal else legal[0]
                    answer = {"type": "action", "turn": turn, "action": action}
                    self.send(answer)
                elif kind == "error" and message["code"] == "too-fast":
                    time.sleep(0.2)
                    self.send(answer)
                elif kind == "game_over":
                    over += 1
                    if over == self.games:
                        self.done.set()
                    elif self.opener:
                        self.send({"type": "start"})


def _play(rules: Rules, *, seed: int, games: int = 1) -> list[_Client]:
    """Play ``games`` games at one table of ``rules`` with two remote players (the others
    kow's bots) and a spectator who comes after the first turn; stop the server; return
    the clients (their frames)."""
    with _server() as (port, stop):
        opener = _Client(
            port,
            {"type": "open", "protocol": PROTOCOL, "name": "Ann", "rules": rules_to_log(rules),
             "seed": seed, "bots": "heuristic", "away": 30},
            games=games, opener=True,
        )  # fmt: skip
        code = opener.welcome["table"]
        hello = {"type": "hello", "protocol": PROTOCOL, "table": code}
        agent = _Client(port, {**hello, "name": "Bob", "kind": "agent"}, games=games, opener=False)
        opener.send({"type": "start"})
        assert agent.turned.wait(WAIT) or opener.turned.wait(WAIT)
        watcher = _Client(port, {**hello, "watch": True}, games=games, opener=False)
        clients = [opener, agent, watcher]
        for client in clients:
            assert client.done.wait(WAIT * 3), "a game did not end"
        stop()
        for client in clients:
            client.thread.join(WAIT)
    return clients


_SERVER_TYPES = {d["$ref"].split("server_", 1)[1] for d in SCHEMA["$defs"]["server"]["oneOf"]}

SCENARIOS: dict[str, tuple[Rules, int, int]] = {
    "4 players, 2 games": (Rules(players=4), 5, 2),
    "2 players": (Rules(players=2), 11, 1),
    "7 players": (Rules(players=7), 3, 1),
    "dog's life": (Rules(players=4, dogs_life="once-per-game"), 1, 2),
    "votes": (Rules(players=5, eliminated_vote=True, dogs_life="once-per-player"), 2, 1),
}


@pytest.fixture(scope="module")
def frames() -> dict[str, list[list[dict[str, Any]]]]:
    """Each scenario's frames, per client (the opener, the agent, the spectator)."""
    out = {}
    for name, (rules, seed, games) in SCENARIOS.items():
        clients = _play(rules, seed=seed, games=games)
        out[name] = [[json.loads(t) for t in c.frames] for c in clients]
    return out


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_every_server_frame_validates(
    frames: dict[str, list[list[dict[str, Any]]]], scenario: str
) -> None:
    rules, _, games = SCENARIOS[scenario]
    for received in frames[scenario]:
        for message in received:
            errors = list(SERVER.iter_errors(message))
            assert not errors, (message, errors[0].message)
        overs = [m for m in received if m["type"] == "game_over"]
        assert len(overs) == games
        for over in overs:
            assert over["finished"] is True
            assert not list(LOG.iter_errors(over["log"]))
            assert over["log"]["rules"] == rules_to_log(rules)
        assert received[-1]["type"] == "closed"  # the server stopped


def test_the_games_show_every_message_and_event(
    frames: dict[str, list[list[dict[str, Any]]]],
) -> None:
    types, kinds, codes = set(), set(), set()
    for per_client in frames.values():
        for received in per_client:
            for message in received:
                types.add(message["type"])
                if message["type"] == "event":
                    kinds.add(message["event"]["kind"])
                elif message["type"] == "catchup":
                    kinds.update(e["kind"] for e in message["events"])
                elif message["type"] == "error":
                    codes.add(message["code"])
    assert types == _SERVER_TYPES
    assert kinds == {
        "deal", "turned-up", "tie-cut", "vote", "trump", "lead", "play", "knock", "trick",
        "round-end", "game-end",
    }  # fmt: skip
    assert {"not-your-turn", "illegal"} <= codes <= {"not-your-turn", "illegal", "too-fast"}


def test_a_seat_is_told_its_own_hand_and_a_spectator_none(
    frames: dict[str, list[list[dict[str, Any]]]],
) -> None:
    opener, agent, watcher = frames["4 players, 2 games"]
    deals = [
        [m["event"] for m in received if m["type"] == "event" and m["event"]["kind"] == "deal"]
        for received in (opener, agent)
    ]
    logs = [m["log"] for m in opener if m["type"] == "game_over"]
    rounds = [r for game in logs for r in game["rounds"]]
    assert len(deals[0]) == len(deals[1]) == len(rounds)
    for seat, seat_deals in enumerate(deals):
        for deal, logged in zip(seat_deals, rounds, strict=True):
            assert deal["hand"] == (logged["hands"][seat] or [])
    caught = [e for m in watcher if m["type"] == "catchup" for e in m["events"]]
    live = [m["event"] for m in watcher if m["type"] == "event"]
    assert [e["hand"] for e in caught + live if e["kind"] == "deal"] == [[]] * len(rounds)


# ----------------------------------------------------------------------------- client messages


CODE = "ABCDEFGHJKMNPQRS"
HELLO = '{"type": "hello", "protocol": 1, "table": "' + CODE + '"'
"""A hello's text up to its table's code: each case adds its own fields and the ``}``."""

REFUSED = [
    ("not json", "bad-json"),
    ("{", "bad-json"),
    ("[1, 2]", "bad-json"),
    ('"hello"', "bad-json"),
    ("x" * (MAX_MESSAGE + 1), "bad-json"),
    (b"\xff\xfe", "bad-json"),
    ("{}", "unknown-type"),
    ('{"type": "welcome"}', "unknown-type"),
    ('{"type": 5}', "unknown-type"),
    ('{"type": "hello", "protocol": 2, "table": "' + CODE + '", "name": "A"}', "bad-version"),
    ('{"type": "hello", "protocol": "1", "table": "' + CODE + '", "name": "A"}', "bad-version"),
    ('{"type": "open", "protocol": 0, "name": "A"}', "bad-version"),
    ('{"type": "hello", "table": "' + CODE + '", "name": "A"}', "bad-message"),
    ('{"type": "hello", "protocol": 1, "name": "A"}', "bad-message"),
    (HELLO + "}", "bad-message"),
    ('{"type": "hello", "protocol": 1, "table": "ABCD", "name": "A"}', "bad-message"),
    (HELLO + ', "name": "A", "x": 1}', "bad-message"),
    (HELLO + ', "name": "\\u001b[2J"}', "bad-message"),
    (HELLO + ', "name": "A", "kind": "bot"}', "bad-message"),
    (HELLO + ', "watch": 1}', "bad-message"),
    (HELLO + ', "secret": null}', "bad-message"),
    (HELLO + ', "name": "A", "secret": ""}', "bad-message"),
    ('{"type": "open", "protocol": 1, "name": "A", "rules": {"players": 8}}', "bad-message"),
    ('{"type": "open", "protocol": 1, "name": "A", "rules": {"start_cards": 13}}', "bad-message"),
    ('{"type": "open", "protocol": 1, "name": "A", "rules": {"colour": "red"}}', "bad-message"),
    ('{"type": "open", "protocol": 1, "name": "A", "rules": []}', "bad-message"),
    ('{"type": "open", "protocol": 1, "name": "A", "bots": "human"}', "bad-message"),
    ('{"type": "open", "protocol": 1, "name": "A", "away": 3601}', "bad-message"),
    ('{"type": "open", "protocol": 1, "name": "A", "away": true}', "bad-message"),
    ('{"type": "open", "protocol": 1, "name": "A", "seed": -1}', "bad-message"),
    ('{"type": "open", "protocol": 1, "name": "A", "seed": 9007199254740992}', "bad-message"),
    ('{"type": "open", "protocol": 1, "name": "A", "hints": "yes"}', "bad-message"),
    ('{"type": "action", "turn": -1, "action": "Ah"}', "bad-message"),
    ('{"type": "action", "turn": 1.5, "action": "Ah"}', "bad-message"),
    ('{"type": "action", "turn": 1, "action": ""}', "bad-message"),
    ('{"type": "action", "turn": 1, "action": "123456789"}', "bad-message"),
    ('{"type": "action", "turn": 1}', "bad-message"),
    ('{"type": "start", "now": true}', "bad-message"),
    ('{"type": "leave", "why": "tired"}', "bad-message"),
]


@pytest.mark.parametrize(("text", "code"), REFUSED)
def test_read_client_refuses_with_the_faults_code(text: str | bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        read_client(text)
    assert caught.value.code == code
    assert str(caught.value)  # a sentence for people
    if isinstance(text, str) and len(text) < MAX_MESSAGE:
        with contextlib.suppress(ValueError):
            assert not CLIENT.is_valid(json.loads(text))


def test_a_whole_number_with_a_fraction_is_no_int() -> None:
    """JSON Schema counts 1.0 as an integer; kow does not (docs/protocol.md says so)."""
    text = '{"type": "hello", "protocol": 1.0, "table": "' + CODE + '", "name": "A"}'
    assert CLIENT.is_valid(json.loads(text))
    with pytest.raises(ProtocolError) as caught:
        read_client(text)
    assert caught.value.code == "bad-version"
    with pytest.raises(ProtocolError) as caught:
        read_client('{"type": "action", "turn": 3.0, "action": "Ah"}')
    assert caught.value.code == "bad-message"


ACCEPTED = [
    {"type": "hello", "protocol": 1, "table": CODE, "name": "Zoë"},
    {"type": "hello", "protocol": 1, "table": "abcd-efgh-jkmn-pqrs", "name": "A", "kind": "agent"},
    {"type": "hello", "protocol": 1, "table": "ABCD EFGH JKMN PQRS", "secret": "s" * 43},
    {"type": "hello", "protocol": 1, "table": CODE, "secret": "s", "name": None, "watch": False},
    {"type": "hello", "protocol": 1, "table": CODE, "watch": True},
    {"type": "open", "protocol": 1, "name": "Host"},
    {"type": "open", "protocol": 1, "name": "H", "rules": {"players": 3, "start_cards": 17},
     "bots": "search", "hints": False, "away": 0.5, "seed": 9007199254740991, "kind": "agent"},
    {"type": "open", "protocol": 1, "name": "H", "seed": None},
    {"type": "start"},
    {"type": "action", "turn": 7, "action": "Ah"},
    {"type": "action", "turn": 0, "action": "knock"},
    {"type": "leave"},
]  # fmt: skip


@pytest.mark.parametrize("message", ACCEPTED)
def test_read_client_accepts_what_the_schema_allows(message: dict[str, Any]) -> None:
    assert CLIENT.is_valid(message), next(CLIENT.iter_errors(message)).message
    read = read_client(json.dumps(message))
    assert type(read).__name__.lower().replace("act", "action") == message["type"]


def test_read_client_reads_each_field() -> None:
    hello = read_client(json.dumps(ACCEPTED[1]))
    assert hello == ("ABCDEFGHJKMNPQRS", "A", "agent", None, False)
    opened = read_client(json.dumps(ACCEPTED[6]))
    assert opened == (
        Rules(players=3, start_cards=17),
        "search",
        False,
        0.5,
        9007199254740991,
        "H",
        "agent",
    )
    assert read_client('{"type": "action", "turn": 7, "action": "Ah"}') == (7, "Ah")


# Values for each field, good and bad (no float that is a whole number, which JSON Schema
# counts as an integer and kow does not, and no NaN).
_ODD = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=6),
    st.floats(allow_nan=False).filter(lambda x: not x.is_integer()),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=1),
)  # fmt: skip
_NAMES = st.one_of(
    st.sampled_from(["Ann", "Zoë", "x" * 64, "x" * 65, "", "tab\there", "\u202e", "caf\udce9"]),
    st.text(max_size=70),
)
_CODES = st.one_of(
    st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", min_size=16, max_size=16),
    st.text("abcdefghijklmnopqrstuvwxyz234567- ", min_size=14, max_size=42),
    st.sampled_from(["ABCD-EFGH-JKMN-PQRS", "ßßßßßßßßßßßßßßßß", "0000000000000000", "ABCD"]),
)
_RULES = st.dictionaries(
    st.sampled_from([*Rules.__dataclass_fields__, "colour"]),
    st.one_of(
        st.integers(0, 26),
        st.sampled_from(["off", "once-per-game", "once-per-player", "winner-chooses", "fixed",
                         "most-tricks", "dealer-left", "nope"]),
        st.booleans(), _ODD,
    ),
    max_size=4,
)  # fmt: skip
_GOOD_RULES = st.fixed_dictionaries(
    {},
    optional={
        "players": st.integers(2, 7), "start_cards": st.integers(1, 7),
        "dogs_life": st.sampled_from(["off", "once-per-game", "once-per-player"]),
        "trump": st.sampled_from(["winner-chooses", "fixed"]), "final_round_trump": st.booleans(),
        "lead": st.sampled_from(["most-tricks", "dealer-left"]),
        "eliminated_vote": st.booleans(), "sweep_wins": st.booleans(),
    },
)  # fmt: skip
_FIELDS: dict[str, dict[str, tuple[st.SearchStrategy[Any], st.SearchStrategy[Any]]]] = {
    "hello": {
        "protocol": (st.just(1), _ODD), "table": (_CODES, _ODD),
        "name": (_NAMES, _ODD), "kind": (st.sampled_from(["human", "agent"]), _ODD),
        "secret": (st.text(min_size=1, max_size=86), st.text(min_size=87, max_size=90) | _ODD),
        "watch": (st.booleans(), _ODD),
    },
    "open": {
        "protocol": (st.just(1), _ODD), "rules": (_GOOD_RULES, _RULES | _ODD),
        "bots": (st.sampled_from(["random", "heuristic", "search", "ismcts"]), _ODD),
        "hints": (st.booleans(), _ODD),
        "away": (st.integers(0, 3600) | st.floats(0, 3600), st.integers(-5, 4000) | _ODD),
        "seed": (st.integers(0, 2**53 - 1) | st.none(), st.integers(2**53 - 2, 2**53 + 2) | _ODD),
        "name": (_NAMES, _ODD), "kind": (st.sampled_from(["human", "agent"]), _ODD),
    },
    "start": {},
    "action": {
        "turn": (st.integers(0, 2**53 - 1), st.integers(-2, 2**53 + 2) | _ODD),
        "action": (st.sampled_from(["Ah", "knock", "c", "12345678"]), st.text(max_size=10) | _ODD),
    },
    "leave": {},
}  # fmt: skip
"""Each client message's fields: a strategy of good values, one of any (mostly bad)."""


@st.composite
def _messages(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from([*CLIENT_TYPES, *CLIENT_TYPES, "welcome", None, 3]))
    fields = _FIELDS.get(kind, {}) if isinstance(kind, str) else {}
    message: dict[str, Any] = {} if draw(st.integers(0, 30)) == 0 else {"type": kind}
    for name, (good, bad) in fields.items():
        if draw(st.integers(0, 3)):  # most fields, most of the time, good
            message[name] = draw(good if draw(st.integers(0, 9)) else bad)
    if draw(st.integers(0, 20)) == 0:
        message[draw(st.sampled_from(["extra", "Type", "turn", "name"]))] = 1
    return message


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_messages())
def test_read_client_accepts_exactly_what_the_schema_allows(message: dict[str, Any]) -> None:
    text = json.dumps(message)
    valid = CLIENT.is_valid(message)
    try:
        read_client(text)
    except ProtocolError as err:
        assert not valid, (message, str(err))
        if message.get("type") not in CLIENT_TYPES:
            assert err.code == "unknown-type"
        else:
            assert err.code in ("bad-version", "bad-message")
    else:
        assert valid, (message, next(CLIENT.iter_errors(message)).message)


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_read_client_answers_any_frame_with_a_message_or_a_protocol_error(
    text: str | bytes,
) -> None:
    try:
        message = read_client(text)
    except ProtocolError as err:
        assert err.code in ("bad-json", "unknown-type", "bad-version", "bad-message")
    else:
        assert CLIENT.is_valid(json.loads(text))
        assert type(message).__name__ in ("Hello", "Open", "Start", "Act", "Leave")


# ----------------------------------------------------------------------------- round trips


def _games() -> Iterator[Any]:
    """Yield finished games (states) of several rules, each decision's view kept."""
    for rules, seed in [
        (Rules(), 1),
        (Rules(players=2), 2),
        (Rules(players=7), 3),
        (Rules(players=4, dogs_life="once-per-game"), 4),
        (Rules(players=5, dogs_life="once-per-player", eliminated_vote=True), 5),
        (Rules(players=3, trump="fixed", lead="dealer-left", final_round_trump=False), 6),
    ]:
        state = new_game(rules, seed)
        rng = random.Random(seed)
        views = []
        while state.phase is not Phase.OVER:
            view = state.view(state.turn)
            views.append(view)
            state.apply(rng.choice(view.legal))
        yield state, views


GAMES = list(_games())


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_a_seats_view_reads_back_as_it_was(index: int) -> None:
    _, views = GAMES[index]
    phases = set()
    for view in views:
        data = json.loads(dumps(view_json(view)))
        assert VIEW.is_valid(data), next(VIEW.iter_errors(data)).message
        assert view_of(data) == view
        phases.add(view.phase)
    assert Phase.PLAY in phases


def _as_told(event: Event, seat: int | None) -> Event:
    """Return ``event`` as ``seat`` learns it: a deal's other hands are empty."""
    if not isinstance(event, Deal):
        return event
    hands = tuple(h if h is None or s == seat else () for s, h in enumerate(event.hands))
    return event._replace(hands=hands)


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_every_event_reads_back_as_each_seat_is_told_it(index: int) -> None:
    state, _ = GAMES[index]
    seats: list[int | None] = [*range(state.rules.players), None]
    for event in state.events:
        for seat in seats:
            data = json.loads(dumps(event_json(event, seat)))
            assert EVENT.is_valid(data), next(EVENT.iter_errors(data)).message
            assert event_of(data, seat) == _as_told(event, seat)


def test_a_deal_tells_a_seat_its_own_cards_only() -> None:
    state, _ = GAMES[0]
    deal = state.events[0]
    assert isinstance(deal, Deal)
    told = event_json(deal, 1)
    assert told["dealt"] == [7, 7, 7, 7]
    assert len(told["hand"]) == 7
    others = {c for s, h in enumerate(deal.hands) if s != 1 and h for c in h}
    read = event_of(told, 1)
    assert isinstance(read, Deal)
    assert set(read.hands[1] or ()) == set(deal.hands[1] or ())
    assert not others & set(read.hands[1] or ())
    assert event_json(deal, None)["hand"] == []


def test_event_of_and_view_of_refuse_what_is_no_event_or_view() -> None:
    for bad in ({"kind": "nope"}, {"kind": "play", "seat": 0, "card": "Zz"}, {}):
        with pytest.raises(ProtocolError) as caught:
            event_of(bad, 0)
        assert caught.value.code == "bad-message"
    with pytest.raises(ProtocolError) as caught:
        view_of({"seat": 0})
    assert caught.value.code == "bad-message"
