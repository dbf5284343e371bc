"""The online server: whole games over the loopback address, what each seat is told,
dropped players and their stand-ins, hostile clients, and a table reopened from its log.

Servers listen on 127.0.0.1 only; every wait is bounded (tests/online_support.py).
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import time
from typing import Any

import pytest
from online_support import WAIT, Agent, random_choice, running_server

from kow import log
from kow.online.client import Connection, JoinError
from kow.online.protocol import MAX_MESSAGE, PROTOCOL
from kow.online.reopen import ReopenError, reopen
from kow.online.server import Limits
from kow.online.table import TableSettings
from kow.rules import Rules
from kow.runs.provenance import check_against_seed
from kow.verify import verify_game

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")

VARIANTS = {
    "4 players": Rules(players=4),
    "2 players": Rules(players=2),
    "7 players": Rules(players=7),
    "dog's life once per game": Rules(players=4, dogs_life="once-per-game"),
    "dog's life once per player": Rules(players=5, dogs_life="once-per-player"),
    "votes": Rules(players=4, eliminated_vote=True),
    "fixed trump, dealer's left leads": Rules(players=3, trump="fixed", lead="dealer-left"),
}


def _cards(value: Any) -> list[str]:
    """Return every string in ``value`` (a message) that is a card's name."""
    if isinstance(value, str):
        return [value] if CARD.match(value) else []
    if isinstance(value, dict):
        return [c for v in value.values() for c in _cards(v)]
    if isinstance(value, list):
        return [c for v in value for c in _cards(v)]
    return []


def _numbers(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    return []


def _leaks(frames: list[dict[str, Any]], seat: int | None, game: log.GameLog) -> list[str]:
    """Return each card a seat (None: a spectator) was told that it may not know.

    Before the game is over a seat may know its own hand of the current round and the
    cards the table has seen this round (played, turned up, cut in a tie); every other
    card named in a frame is a leak. The seed may not be told before the game is over.
    """
    found = []
    hand: set[str] = set()
    public: set[str] = set()
    rounds = iter(game["rounds"])
    for frame in frames:
        if frame["type"] == "game_over":
            break
        if frame["type"] == "event":
            event = frame["event"]
            if event["kind"] == "deal":
                rnd = next(rounds)
                dealt = rnd["hands"][seat] if seat is not None else None
                hand, public = set(dealt or ()), set()
                assert event["hand"] == (dealt or []), "a seat is told its own hand"
            elif event["kind"] in ("play", "turned-up"):
                public.add(event["card"])
            elif event["kind"] == "tie-cut":
                public.update(c["card"] for p in event["passes"] for c in p)
        for card in _cards(frame):
            if card not in hand and card not in public:
                found.append(f"{frame['type']}: {card}")
        if game["seed"] in _numbers(frame) and game["seed"] > 10_000:
            found.append(f"{frame['type']}: the seed")
        assert "seed" not in json.dumps(frame), frame
    return found


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_no_frame_tells_a_seat_or_a_spectator_what_it_may_not_know(variant: str) -> None:
    rules = VARIANTS[variant]
    with running_server() as server:
        table = server.open(TableSettings(rules, seed=424_242_424 + rules.players, away=30))
        agents = [
            Agent(
                Connection.join(server.address, table.code, name=f"P{i}", kind="agent"),
                choose=random_choice(i),
            )
            for i in range(rules.players)
        ]
        spectator = Agent(Connection.join(server.address, table.code, watch=True))
        for agent in [*agents, spectator]:
            agent.start()
        agents[0].connection.send({"type": "start"})
        for agent in [*agents, spectator]:
            agent.join()
    over = agents[0].frames[-1]
    assert over["type"] == "game_over" and over["finished"]
    game = over["log"]
    assert verify_game(game) is None
    assert game["seed"] == 424_242_424 + rules.players
    for seat, agent in enumerate(agents):
        assert agent.frames[-1] == over  # everyone gets the same log once it is over
        assert agent.turns > 0
        assert _leaks(agent.frames, seat, game) == []
    assert _leaks(spectator.frames, None, game) == []
    assert spectator.turns == 0


def test_the_leak_check_finds_a_card_a_seat_may_not_know() -> None:
    # The check above must be able to fail: a frame naming another seat's card is a leak.
    game: Any = {"seed": 7, "rounds": [{"hands": [["Ah", "Kd"], ["2c", "3c"]]}]}
    deal = {"kind": "deal", "hand": ["Ah", "Kd"], "dealt": [2, 2]}
    frames = [{"type": "event", "event": deal}, {"type": "turn", "view": {"hand": ["Ah", "2c"]}}]
    assert _leaks(frames, 0, game) == ["turn: 2c"]


def test_a_whole_game_with_two_network_players_and_two_bots_verifies(tmp_path: Any) -> None:
    path = str(tmp_path / "table.jsonl")
    with running_server() as server:
        settings = TableSettings(Rules(players=4), seed=99, bots="heuristic", log_path=path)
        table = server.open(settings)
        ann = Agent(Connection.join(server.address, table.code, name="Ann")).start()
        bob = Agent(Connection.join(server.address, table.code, name="Bob", kind="agent")).start()
        ann.connection.send({"type": "start"})
        ann.join()
        bob.join()
    with open(path, encoding="utf-8") as stream:
        (line,) = stream.readlines()
    game = log.loads(line)
    assert [(p["name"], p["kind"]) for p in game["players"]] == [
        ("Ann", "human"), ("Bob", "agent"), ("Ada", "heuristic"), ("Ben", "heuristic"),
    ]  # fmt: skip
    assert game["seed"] == 99 and not game.get("abandoned")
    assert verify_game(game) is None
    assert check_against_seed(game) is None
    assert ann.frames[-1]["log"] == game
    assert ann.frames[-1]["wins"][game["result"]["winner"]] == 1


def test_a_dropped_player_is_played_by_a_stand_in_then_rejoins_its_seat() -> None:
    with running_server() as server:
        table = server.open(TableSettings(Rules(players=3, start_cards=7), seed=5, away=0.3))
        ann = Agent(Connection.join(server.address, table.code, name="Ann"), choose=_slowly)
        ann.start()
        bob = Agent(Connection.join(server.address, table.code, name="Bob"), stop_after=2)
        bob.start()
        secret = bob.connection.welcome["secret"]
        ann.connection.send({"type": "start"})
        bob.join()  # gone after two turns
        time.sleep(0.8)  # the stand-in plays Bob's turns meanwhile
        seats = [f for f in ann.frames if f["type"] == "seats"][-1]["seats"]
        assert seats[1]["status"] == "away"
        back = Connection.join(server.address, table.code, secret=secret)
        assert back.welcome["seat"] == 1 and back.welcome["secret"] == secret
        again = Agent(back).start()
        ann.join()
        again.join()
    kinds = [f["type"] for f in again.frames]
    assert kinds[:3] == ["seats", "game", "catchup"]  # the digest of the game so far
    catchup = again.frames[2]["events"]
    assert catchup[0]["kind"] == "deal" and catchup[0]["hand"]  # its own hand, told again
    over = again.frames[-1]
    assert over["type"] == "game_over" and over["finished"]
    assert verify_game(over["log"]) is None
    assert bob.turns == 2 and again.turns > 0
    game = over["log"]
    bobs = [p for r in game["rounds"] for t in r["tricks"] for p in t["plays"] if p["seat"] == 1]
    assert len(bobs) > bob.turns + again.turns  # the stand-in played the rest
    assert game["players"][1] == {"seat": 1, "name": "Bob", "kind": "human"}


def _slowly(view: dict[str, Any]) -> str:
    time.sleep(0.1)
    return str(view["legal"][0])


def test_a_seat_is_retaken_only_with_its_secret_and_wrong_codes_are_slowed() -> None:
    with running_server(Limits(penalty=0.2)) as server:
        table = server.open(TableSettings(Rules(players=2)))
        Connection.join(server.address, table.code, name="Ann")
        with pytest.raises(JoinError) as err:
            Connection.join(server.address, table.code, secret="x" * 43)
        assert err.value.code == "bad-secret"
        start = time.monotonic()
        with pytest.raises(JoinError) as err:
            Connection.join(server.address, "A" * 16, name="Eve")
        assert err.value.code == "bad-code"
        assert time.monotonic() - start >= 0.4  # the second failure waits twice as long
        with pytest.raises(JoinError) as err:
            Connection.join(server.address, table.code, name="ann")
        assert err.value.code == "name-taken"


def test_a_table_reopened_from_its_log_goes_on_with_the_same_game(tmp_path: Any) -> None:
    path = str(tmp_path / "table.jsonl")
    rules = Rules(players=3)
    with running_server() as server:  # the whole game in one go: what the reopened one must be
        whole = server.open(TableSettings(rules, seed=31, log_path=str(tmp_path / "whole.jsonl")))
        ones = [Agent(Connection.join(server.address, whole.code, name=n)) for n in ("Ann", "Bob")]
        for a in ones:
            a.start()
        ones[0].connection.send({"type": "start"})
        for a in ones:
            a.join()
    with running_server() as server:  # the same, stopped mid-game
        table = server.open(TableSettings(rules, seed=31, log_path=path))
        ann = Agent(Connection.join(server.address, table.code, name="Ann"), stop_after=6)
        bob = Agent(Connection.join(server.address, table.code, name="Bob"))
        ann.start(), bob.start()
        ann.connection.send({"type": "start"})
        ann.join()
        time.sleep(0.5)
        server.call(lambda: table.close("the server stopped"))
        bob.join()
    assert bob.frames[-1]["type"] in ("closed", "game_over")
    stopped = log.loads(open(path, encoding="utf-8").read())
    assert stopped["abandoned"] is True
    reopened = reopen(path)
    assert reopened.names == ("Ann", "Bob", "Ada") and reopened.seed == 31
    with running_server() as server:
        table = server.open(TableSettings(reopened.rules, log_path=path))
        server.call(lambda: table.resume_from(reopened))
        with pytest.raises(JoinError) as err:  # a new name takes no held seat
            Connection.join(server.address, table.code, name="Eve")
        assert err.value.code == "table-full"
        ann = Agent(Connection.join(server.address, table.code, name="Ann"))
        bob = Agent(Connection.join(server.address, table.code, name="Bob"))
        assert (ann.connection.welcome["seat"], bob.connection.welcome["seat"]) == (0, 1)
        ann.start(), bob.start()
        ann.connection.send({"type": "start"})
        ann.join(), bob.join()  # type: ignore[func-returns-value]
    continued = open(path, encoding="utf-8").read()
    assert continued == open(tmp_path / "whole.jsonl", encoding="utf-8").read()
    assert check_against_seed(log.loads(continued)) is None


def test_reopen_refuses_a_finished_game_and_a_file_that_is_no_log(tmp_path: Any) -> None:
    done = tmp_path / "done.jsonl"
    with running_server() as server:
        table = server.open(TableSettings(Rules(players=2), seed=3, log_path=str(done)))
        ann = Agent(Connection.join(server.address, table.code, name="Ann")).start()
        ann.connection.send({"type": "start"})
        ann.join()
    with pytest.raises(ReopenError, match=r"done.jsonl, line 1: the last game is finished"):
        reopen(str(done))
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"format": "kow"}\n')
    with pytest.raises(ReopenError, match=r"junk.jsonl, line 1: not a kow log"):
        reopen(str(junk))
    with pytest.raises(ReopenError, match=r"missing.jsonl: cannot be read"):
        reopen(str(tmp_path / "missing.jsonl"))


# ----------------------------------------------------------------------------- hostile clients


def connect(url: str, **options: Any) -> Any:
    """Return a plain WebSocket connection to ``url`` (no proxy), closed by the test."""
    from websockets.sync.client import connect as ws_connect

    return contextlib.ExitStack().enter_context(ws_connect(url, **options))


def _raw(port: int, data: bytes) -> bytes:
    """Send ``data`` on a plain TCP connection and return what comes back (bounded)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(data)
        sock.settimeout(5)
        try:
            return sock.recv(4096)
        except (TimeoutError, OSError):
            return b""


def test_a_table_finishes_its_game_through_a_thousand_hostile_frames() -> None:
    limits = Limits(rate=1000, faults=10_000, penalty=0.001, hello_seconds=1.0, per_address=64)
    sent = 0
    with running_server(limits) as server:
        table = server.open(TableSettings(Rules(players=4), seed=17, away=0.5))
        url = f"ws://{server.address}/"
        ann = Agent(Connection.join(server.address, table.code, name="Ann")).start()
        # Mallory holds seat 1 and misbehaves on it; the game must not notice.
        mallory = connect(url, open_timeout=5)
        mallory.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "table": table.code,
                                 "name": "Mallory"}))  # fmt: skip
        welcome = json.loads(mallory.recv(timeout=5))
        assert welcome["seat"] == 1
        ann.connection.send({"type": "start"})
        junk: list[str | bytes] = [
            "",
            "{",
            "[]",
            "null",
            "42",
            '"hello"',
            "\x00\x01",
            "[" * 900 + "]" * 900,
            '{"type": "hello"}',
            '{"type": "start"}',
            '{"type": "dance"}',
            '{"type": "action"}',
            '{"type": "action", "turn": -1, "action": "Ah"}',
            '{"type": "action", "turn": 1, "action": 5}',
            '{"type": "action", "turn": 1, "action": "Ah", "extra": 1}',
            '{"type": "action", "turn": 1e300, "action": "Ah"}',
            '{"type": "action", "turn": true, "action": "knock"}',
            b"\xff\xfe\x00binary",
            json.dumps({"type": "action", "turn": 10**30, "action": "As"}),
        ]
        for _ in range(40):
            for frame in junk:
                mallory.send(frame)
                sent += 1
        # another seat's turns and illegal actions, for every turn number near the present
        for turn in range(0, 300, 3):
            for action in ("Ah", "knock", "h", "10h", "ZZ"):
                mallory.send(json.dumps({"type": "action", "turn": turn, "action": action}))
                sent += 1
        assert sent >= 1000
        errors = 0
        mallory.socket.settimeout(10)
        with pytest.raises(Exception):  # noqa: B017 - read until the server has answered all
            while errors < 2000:
                reply = json.loads(mallory.recv(timeout=3))
                errors += reply["type"] == "error"
        assert errors >= 900  # each faulty frame is answered with an error naming it
        mallory.close()
        # strangers: wrong codes, wrong secrets, silence, raw bytes, an oversized frame
        for _ in range(3):
            with pytest.raises(JoinError):
                Connection.join(server.address, "B" * 16, name="Eve")
            with pytest.raises(JoinError):
                Connection.join(server.address, table.code, secret="nope")
        silent = connect(url, open_timeout=5)
        assert json.loads(silent.recv(timeout=5))["code"] == "too-slow"  # no hello in 1 s
        with pytest.raises(Exception):  # noqa: B017 - then closed by the server
            silent.recv(timeout=5)
        big = connect(url, open_timeout=5, max_size=None)
        with pytest.raises(Exception):  # noqa: B017 - too big: closed
            big.send("x" * (MAX_MESSAGE + 1))
            big.recv(timeout=5)
        assert _raw(server.port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").startswith(b"HTTP/1.1 4")
        _raw(server.port, bytes(range(256)) * 20)
        ann.join()  # Mallory gone, a stand-in played her seat after the wait
        over = ann.frames[-1]
        assert over["type"] == "game_over" and over["finished"]
        assert verify_game(over["log"]) is None
        # the server still seats newcomers
        late = Connection.join(server.address, table.code, name="Zoe")
        assert late.welcome["seat"] in (1, 2, 3)


def test_per_address_and_flood_limits_close_only_the_offender() -> None:
    with running_server(Limits(per_address=3, rate=5, faults=15)) as server:
        table = server.open(TableSettings(Rules(players=2)))
        url = f"ws://{server.address}/"
        held = [connect(url, open_timeout=5) for _ in range(3)]
        fourth = connect(url, open_timeout=5)
        refusal = json.loads(fourth.recv(timeout=5))
        assert refusal["code"] == "too-many-connections"
        for ws in held:
            ws.close()
        time.sleep(0.2)
        ann = Connection.join(server.address, table.code, name="Ann")
        for _ in range(50):
            ann.send({"type": "action", "turn": 1, "action": "Ah"})
        codes = []
        while True:
            message = ann.receive(timeout=WAIT)
            if message is None:
                break
            if message["type"] == "error":
                codes.append(message["code"])
        assert "too-fast" in codes and "not-your-turn" in codes
        assert ann.ended is not None and "faulty" in ann.ended
        # the table is still there: Ann takes her seat again with her secret
        back = Connection.join(server.address, table.code, secret=ann.welcome["secret"])
        assert back.welcome["seat"] == 0


_PLAYER = """
import sys
from kow.online.client import Connection
connection = Connection.join(sys.argv[1], sys.argv[2], name="Bob")
with open(sys.argv[3], "w") as stream:
    stream.write(connection.welcome["secret"])
turns = 0
while (message := connection.receive(timeout=30)) is not None:
    if message["type"] == "turn":
        turns += 1
        connection.act(message["turn"], message["view"]["legal"][0])
        print("turn", turns, flush=True)
"""


def test_a_player_killed_mid_trick_rejoins_its_seat_with_its_secret(tmp_path: Any) -> None:
    import signal
    import subprocess
    import sys

    with running_server() as server:
        table = server.open(TableSettings(Rules(players=3, start_cards=7), seed=8, away=60))
        ann = Agent(Connection.join(server.address, table.code, name="Ann"), choose=_slowly)
        ann.start()
        secret_file = tmp_path / "secret"
        bob = subprocess.Popen(
            [sys.executable, "-c", _PLAYER, server.address, table.code, str(secret_file)],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + WAIT
            while not secret_file.exists() or not secret_file.read_text():
                assert time.monotonic() < deadline and bob.poll() is None
                time.sleep(0.05)
            ann.connection.send({"type": "start"})
            assert bob.stdout is not None
            while bob.stdout.readline().strip() != "turn 3":
                assert time.monotonic() < deadline
        finally:
            bob.send_signal(signal.SIGKILL)
            bob.wait(WAIT)
        while not any(
            f["type"] == "seats" and f["seats"][1]["status"] == "away" for f in list(ann.frames)
        ):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        back = Connection.join(server.address, table.code, secret=secret_file.read_text())
        assert back.welcome["seat"] == 1
        again = Agent(back).start()
        ann.join()
        again.join()
    assert [f["type"] for f in again.frames][1:3] == ["game", "catchup"]
    over = again.frames[-1]
    assert over["type"] == "game_over" and over["finished"] and again.turns > 0
    assert verify_game(over["log"]) is None
    assert check_against_seed(over["log"]) is None


def test_a_tables_log_keeps_what_its_file_held(tmp_path: Any) -> None:
    path = tmp_path / "sitting.jsonl"
    earlier = '{"an": "earlier game"}\n'
    path.write_text(earlier)
    with running_server() as server:
        table = server.open(TableSettings(Rules(players=2), seed=12, log_path=str(path)))
        ann = Agent(Connection.join(server.address, table.code, name="Ann"), games=2).start()
        ann.connection.send({"type": "start"})
        deadline = time.monotonic() + WAIT
        while sum(f["type"] == "game_over" for f in list(ann.frames)) < 1:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        ann.connection.send({"type": "start"})
        ann.join()
    first, *games = path.read_text().splitlines(keepends=True)
    assert first == earlier  # never replaced: the table's games come after it
    assert [log.loads(g)["seed"] for g in games][0] == 12 and len(games) == 2


def test_reopen_keeps_earlier_games_of_other_seatings_and_counts_only_the_same(
    tmp_path: Any,
) -> None:
    # The trial's table: a third person joined between games, then the server stopped.
    path = tmp_path / "table.jsonl"
    with running_server() as server:  # game 1: Ann alone with bots; game 2: Ann and Bob
        table = server.open(TableSettings(Rules(players=3), seed=5, log_path=str(path)))
        ann = Agent(Connection.join(server.address, table.code, name="Ann"), games=2)
        ann.start()
        ann.connection.send({"type": "start"})
        deadline = time.monotonic() + WAIT
        while not any(f["type"] == "game_over" for f in list(ann.frames)):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        bob = Agent(Connection.join(server.address, table.code, name="Bob"), stop_after=3)
        bob.start()
        ann.connection.send({"type": "start"})
        bob.join()
        time.sleep(0.3)
        server.call(lambda: table.close("the server stopped"))
        ann.join()
    first, second = path.read_text().splitlines(keepends=True)
    again = reopen(str(path))
    assert again.names[:2] == ("Ann", "Bob") and again.logs == (first,)
    assert again.wins == (0, 0, 0)  # game 1 had other seats: not in this table's score
    assert log.loads(second)["abandoned"] is True
    with running_server() as server:
        table = server.open(TableSettings(again.rules, log_path=str(path)))
        server.call(lambda: table.resume_from(again))
        back = Connection.join(server.address, table.code, name="bob")  # any case
        assert back.welcome["seat"] == 1


@pytest.mark.parametrize("name", ["   ", "Ada ", " Ada"])
def test_a_blank_name_or_one_with_spaces_at_an_end_is_refused(name: str) -> None:
    from kow.online.protocol import ProtocolError, read_client

    hello = {"type": "hello", "protocol": PROTOCOL, "table": "A" * 16, "name": name}
    with pytest.raises(ProtocolError, match="blank or has spaces at an end"):
        read_client(json.dumps(hello))


def test_the_server_names_a_table_by_its_number_when_it_opens_and_closes() -> None:
    # The closing line said "A table closed: nobody is left at it.", naming none.
    lines: list[str] = []
    with running_server(open_tables=True) as running:
        running.server.say = lines.append  # the operator's lines (kow serve's stderr)
        opening = {"type": "open", "protocol": PROTOCOL, "rules": {"players": 3}}
        for name in ("Ann", "Bob"):
            connection = Connection.open(running.address, {**opening, "name": name})
            connection.close()  # its last player left: the table closes
            deadline = time.monotonic() + WAIT
            while not any("closed" in line for line in lines[-1:]):
                assert time.monotonic() < deadline, lines
                time.sleep(0.02)
    assert lines == [
        "Table 1 opened (3 seats).",
        "Table 1 closed: nobody is left at it.",
        "Table 2 opened (3 seats).",
        "Table 2 closed: nobody is left at it.",
    ]
