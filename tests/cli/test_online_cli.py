"""``kow host``, ``kow join`` and ``kow serve``: their usage errors and refusals, and a
whole game through the real commands in pseudo-terminals (issue 32).

Everything listens on 127.0.0.1 only, on a port the system picks (``--listen
127.0.0.1:0``), and every wait has a timeout, so the tests run in parallel and stop by
themselves. The seats file of ``kow join`` goes to a temporary ``XDG_STATE_HOME``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import self_signed

from kow.cli import main

if sys.platform == "win32":  # pragma: no cover
    pytest.skip("pexpect needs a POSIX terminal", allow_module_level=True)

pexpect = pytest.importorskip("pexpect")

KOW = [sys.executable, "-m", "kow"]
PROMPT = r"(Your card|Knock or play your card|Suit): "
LOBBY = r"Lobby \(start, seats, help, quit\): "


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(LC_ALL="C.UTF-8", TERM="xterm", NO_COLOR="1", XDG_STATE_HOME=str(tmp_path / "state"))
    return env


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


# ----------------------------------------------------------------------------- usage errors


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["host", "--name", "Ada", "--listen", "127.0.0.1:port"], "'port'"),
        (["host", "--name", "Ada", "--listen", "127.0.0.1:70000"], "'70000'"),
        (["host", "--name", "Ada", "--listen", "::1:80"], "'::1:80'"),
        (["host", "--name", "Ada", "--certfile", "no-such.pem"], "'no-such.pem'"),
        (["host", "--name", "Ada", "--keyfile", "key.pem"], "--keyfile"),
        (["host", "--name", "Ada", "--log", "no/such/folder/t.jsonl"], "no/such/folder"),
        (["host", "--name", "Ada", "--log", "t.jsonl.gz"], "t.jsonl.gz"),
        (["host", "--name", "Ada", "--bots", "random,search"], "'random,search'"),
        (["host", "--name", "Ada", "--bots", "clever"], "clever"),
        (["host", "--name", "Ada", "--away", "-1"], "-1"),
        (["host", "--name", "Ada", "--players", "9"], "9"),
        (["host", "--name", "A\x07da"], "--name"),
        (["host", "--name", "Ada", "--server", "127.0.0.1:1", "--log", "t.jsonl"], "--log"),
        (["host", "--name", "Ada", "--cafile", "c.pem"], "--cafile"),
        (["join", "http://example.org", "ABCD-EFGH-JKMN-PQRS"], "'http://example.org'"),
        (["join", "127.0.0.1:7412", "ABC"], '"ABC"'),
        (["join", "127.0.0.1:7412", "ABCD-EFGH-JKMN-PQR1"], "ABCD-EFGH-JKMN-PQR1"),
        (["serve", "--listen", "[::1"], "'[::1'"),
        (["serve", "--max-tables", "0"], "'0'"),
        (["serve", "--per-address", "x"], "'x'"),
    ],
)
def test_a_bad_value_is_a_usage_error_naming_it(
    args: list[str], named: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, output = _run(*args)
    assert code == 2, output
    assert named in output
    assert "Traceback" not in output


@pytest.mark.parametrize(
    ("address", "port"),
    [
        ("127.0.0.1:99999", "99999"),
        ("127.0.0.1:-5", "-5"),
        ("127.0.0.1:0", "0"),
        ("127.0.0.1:x", "x"),
        ("[::1]:70000", "70000"),
        ("wss://example.org:65536", "65536"),
    ],
)
def test_join_names_a_port_out_of_range_and_the_ports_allowed(address: str, port: str) -> None:
    # Was: "'127.0.0.1:99999' is not an address: give HOST:PORT", not naming the port.
    code, output = _run("join", address, "ABCD-EFGH-JKMN-PQRS", "--name", "Ben")
    assert code == 2
    assert output.endswith(
        f"Error: Invalid value for 'ADDRESS': {port!r} in {address!r} is not a port:"
        " allowed 1 to 65535\n"
    )
    code, output = _run("host", "--name", "Ann", "--server", address)
    assert code == 2
    assert output.endswith(f"{port!r} in {address!r} is not a port: allowed 1 to 65535\n")


def test_serve_log_must_be_a_folder(tmp_path: Path) -> None:
    path = tmp_path / "file.txt"
    path.write_text("x")
    code, output = _run("serve", "--log", str(path))
    assert code == 2
    assert "is not a folder" in output and "file.txt" in output


def test_join_without_a_name_and_no_terminal_is_a_usage_error() -> None:
    code, output = _run("join", "127.0.0.1:1", "ABCD-EFGH-JKMN-PQRS")
    assert code == 2
    assert "--name" in output


# ----------------------------------------------------------------------------- refusals


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_join_where_no_server_answers_is_one_line_exit_1(tmp_path: Path) -> None:
    port = _free_port()
    result = subprocess.run(
        [*KOW, "join", f"127.0.0.1:{port}", "ABCD-EFGH-JKMN-PQRS", "--name", "Ben"],
        capture_output=True, text=True, env=_env(tmp_path), timeout=30, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.startswith("Error: no kow server answers at ws://127.0.0.1:")
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("command", "said", "trusted"),
    [
        (["join", "{url}", "ABCD-EFGH-JKMN-PQRS", "--name", "Ben"], "host",
         "Error: no table has that code"),
        (["host", "--name", "Ann", "--server", "{url}"], "server", "Table opened on wss://"),
    ],
)  # fmt: skip
def test_a_tls_server_not_trusted_is_said_so_with_the_option_that_trusts_it(
    tmp_path: Path, command: list[str], said: str, trusted: str
) -> None:
    # A server answered: "no kow server answers" with OpenSSL's text was wrong.
    import ssl

    from online_support import HOST, WAIT

    from kow.online.addresses import Listen
    from kow.online.running import ServerThread
    from kow.online.server import Limits, Server

    cert, key = self_signed(tmp_path)
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(cert, key)
    thread = ServerThread(Server(limits=Limits(), open_tables=True), Listen(HOST, 0), tls)
    port = thread.start()[0][1]
    try:
        url = f"wss://127.0.0.1:{port}"
        args = [arg.format(url=url) for arg in command]
        env = {"XDG_STATE_HOME": str(tmp_path / "state")}
        result = CliRunner().invoke(main, args, env=env, input="")
        assert result.exit_code == 1, result.output
        assert result.output == (
            f"Error: the server at {url}/ answered, but its certificate is not trusted"
            f" (self-signed certificate): pass the {said}'s certificate with --cafile FILE"
            " (the PEM file of its --certfile)\n"
        )
        result = CliRunner().invoke(main, [*args, "--cafile", str(cert)], env=env, input="")
        assert trusted in result.output  # trusted: the server answers
    finally:
        thread.stop("the test is over", WAIT)


@pytest.mark.parametrize("command", ["host", "serve"])
def test_tls_files_that_do_not_load_are_said_wrong_in_plain_words(
    tmp_path: Path, command: str
) -> None:
    # Was: "'bad.pem' hold no certificate and matching private key (PEM): [SSL] PEM lib
    # (_ssl.c:3905)", whatever the fault, and the same for a key that is not the
    # certificate's.
    cert, key = self_signed(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    _, other_key = self_signed(other)
    bad = tmp_path / "bad.pem"
    bad.write_text("not a certificate\n")
    cases = [
        (["--certfile", str(bad)], f"'--certfile': {str(bad)!r} holds no certificate (PEM)"),
        (["--certfile", str(key)], f"'--certfile': {str(key)!r} holds no certificate (PEM)"),
        (
            ["--certfile", str(cert)],
            f"'--certfile': {str(cert)!r} holds a certificate but no private key (PEM): add"
            " the key to the file, or give it with --keyfile",
        ),
        (
            ["--certfile", str(cert), "--keyfile", str(bad)],
            f"'--keyfile': {str(bad)!r} holds no private key (PEM)",
        ),
        (
            ["--certfile", str(cert), "--keyfile", str(other_key)],
            f"'--keyfile': {str(cert)!r} holds a certificate, but the private key in"
            f" {str(other_key)!r} is not its key",
        ),
    ]
    for args, said in cases:
        code, output = _run(command, *NAME[command], "--listen", "127.0.0.1:0", *args)
        assert code == 2, output
        assert output.endswith(f"Error: Invalid value for {said}\n"), output
        assert "_ssl.c" not in output and " hold " not in output


def test_a_cafile_with_no_certificate_is_said_so_without_openssl_s_source_line(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "bad.pem"
    bad.write_text("not a certificate\n")
    code, output = _run("join", "127.0.0.1:1", "ABCD-EFGH-JKMN-PQRS", "--cafile", str(bad))
    assert code == 2
    assert output.endswith(
        f"Error: Invalid value for '--cafile': {str(bad)!r} holds no certificate (PEM)\n"
    )


NAME = {"host": ["--name", "Ada"], "serve": []}


@pytest.mark.parametrize("command", ["host", "serve"])
def test_a_port_in_use_is_refused_naming_it(command: str, tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            [*KOW, command, "--listen", f"127.0.0.1:{port}", *NAME[command]],
            capture_output=True, text=True, env=_env(tmp_path), timeout=30,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
    assert result.returncode == 1
    assert f"cannot listen on --listen 127.0.0.1:{port}: the port is in use" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """A ``kow serve`` on 127.0.0.1 (a port of the system's choice) and its address."""
    process = subprocess.Popen(
        [*KOW, "serve", "--listen", "127.0.0.1:0", "--log", str(tmp_path / "logs")],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=_env(tmp_path),
    )  # fmt: skip
    try:
        assert process.stderr is not None
        deadline = time.monotonic() + 30
        address = ""
        while time.monotonic() < deadline:
            line = process.stderr.readline()
            found = re.search(r"Listening on (127\.0\.0\.1:\d+)", line)
            if found:
                address = found.group(1)
                break
        assert address, "kow serve said not where it listens"
        yield process, address
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)


def test_serve_refuses_a_wrong_code_and_stops_on_sigterm(
    served: tuple[subprocess.Popen[str], str], tmp_path: Path
) -> None:
    process, address = served
    result = subprocess.run(
        [*KOW, "join", address, "ABCD-EFGH-JKMN-PQRS", "--name", "Ben"],
        capture_output=True, text=True, env=_env(tmp_path), timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.strip() == "Error: no table has that code: check the join line"
    assert (tmp_path / "logs").is_dir()
    process.send_signal(signal.SIGTERM)
    assert process.wait(20) == 143


def test_serve_ends_130_on_ctrl_c(served: tuple[subprocess.Popen[str], str]) -> None:
    process, _ = served
    process.send_signal(signal.SIGINT)
    assert process.wait(20) == 130


def test_serve_quiet_still_says_where_it_listens(tmp_path: Path) -> None:
    # -q hides the tables' lines, not the address: with port 0 it is the only way to learn it.
    process = subprocess.Popen(
        [*KOW, "serve", "-q", "--listen", "127.0.0.1:0"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=_env(tmp_path),
    )  # fmt: skip
    try:
        assert process.stderr is not None
        first = process.stderr.readline()
        assert re.fullmatch(r"Listening on 127\.0\.0\.1:\d+[^\n]*\n", first), first
        lines = [process.stderr.readline() for _ in range(2)]
        assert lines[1].startswith("Open a table with: kow host --server 127.0.0.1:"), lines
        process.send_signal(signal.SIGTERM)
        assert process.wait(20) == 143
        assert process.stdout is not None and process.stdout.read() == ""
        assert process.stderr.read() == ""  # not "Stopped; 0 tables closed.": -q hides it
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)


def test_join_asks_the_name_again_after_a_bad_one(tmp_path: Path) -> None:
    # At the name prompt a bad name is said and asked again (as kow play's prompts do), not
    # the end of the program with an error about an option never given. No server needed:
    # the name is asked before connecting (port 9 on 127.0.0.1: nobody answers).
    child = pexpect.spawn(
        KOW[0], [*KOW[1:], "join", "127.0.0.1:9", "ABCD-EFGH-JKMN-PQRS"],
        env=_env(tmp_path), encoding="utf-8", timeout=30,
    )  # fmt: skip
    try:
        child.expect("Your name: ")
        child.sendline("x" * 30)
        child.expect(r"Error: 'x{30}' has 30 characters; a name has at most 20")
        child.expect("Your name: ")
        child.sendline("   ")
        child.expect("Error: .*not blank")
        child.expect("Your name: ")
        child.sendline("Ada")
        child.expect(pexpect.EOF)  # then it connects, and nobody answers on port 9
        assert "--name" not in child.before
    finally:
        child.close(force=True)
    assert child.exitstatus == 1


def test_the_host_banner_wraps_to_a_narrow_terminal_at_spaces(tmp_path: Path) -> None:
    # The banner's lines broke mid-word at the terminal's edge ("SSH t / unnel"); on a
    # terminal they are broken at spaces, the join command whole on its line.
    child = pexpect.spawn(
        KOW[0], [*KOW[1:], "host", "--listen", "127.0.0.1:0", "--name", "Ada"],
        env=_env(tmp_path), encoding="utf-8", timeout=30, dimensions=(24, 60),
    )  # fmt: skip
    try:
        child.expect(LOBBY)
        shown = child.before.replace("\r\n", "\n")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    lines = shown.splitlines()
    assert max(len(line) for line in lines) <= 60
    assert "Unencrypted: fine at home on a network you trust; over the" in lines
    assert "  internet use an SSH tunnel or TLS (--certfile/--keyfile)," in lines
    assert any(re.fullmatch(r"  kow join 127\.0\.0\.1:\d+ [A-Z0-9]{4}(-[A-Z0-9]{4}){3}", line)
               for line in lines)  # fmt: skip


# ----------------------------------------------------------------------------- a whole game


class Player:
    """A ``kow`` command in a pseudo-terminal, and what it wrote so far."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.child = pexpect.spawn(
            KOW[0], [*KOW[1:], *args], env=env, encoding="utf-8", timeout=30,
            dimensions=(40, 200),
        )  # fmt: skip
        self.out = ""

    def expect(self, pattern: str, timeout: float = 30) -> re.Match[str]:
        self.child.expect(pattern, timeout=timeout)
        self.out += self.child.before + (
            self.child.after if isinstance(self.child.after, str) else ""
        )
        match: re.Match[str] = self.child.match
        return match

    def end(self) -> int:
        """Wait for the command's end; return its exit status."""
        self.child.expect(pexpect.EOF, timeout=30)
        self.out += self.child.before
        self.child.close()
        status: int = self.child.exitstatus
        return status

    def step(self, until: str | None) -> bool:
        """Answer the prompt shown now, if any, with the first legal card (or suit 1);
        return whether one was answered. ``until`` shown is kept in :attr:`out` too."""
        try:
            patterns = [PROMPT] if until is None else [PROMPT, re.escape(until)]
            index = self.child.expect(patterns, timeout=0.2)
        except pexpect.TIMEOUT:
            return False
        before = self.child.before
        self.out += before + self.child.after
        if index == 1:
            return False
        hands = [line for line in before.splitlines() if "hand (trump" in line]
        legal = re.search(r"\*(\d+)", hands[-1]) if hands else None
        self.child.sendline(legal.group(1) if legal else "1")
        return True


def _play(players: list[Player], until: str, seconds: float = 120) -> None:
    """Answer every prompt of ``players`` until each has written ``until``."""
    deadline = time.monotonic() + seconds
    while not all(until in p.out for p in players):
        assert time.monotonic() < deadline, f"no {until!r} in {seconds} s"
        for p in players:
            p.step(until if until not in p.out else None)  # done: it still answers its turns


def _ada_hosts_ben(env: dict[str, str], *options: str) -> tuple[Player, Player]:
    """Start ``kow host`` as Ada on 127.0.0.1 (with ``options``), seat Ben by ``kow join``,
    and start the game; return the two terminals."""
    host = Player(["host", "--listen", "127.0.0.1:0", "--name", "Ada", "--delay", "0",
                   *options], env)  # fmt: skip
    line = host.expect(r"kow join (127\.0\.0\.1:\d+) ([A-Z2-7]{4}(?:-[A-Z2-7]{4}){3})")
    host.expect(LOBBY)
    ben = Player(["join", line.group(1), line.group(2), "--name", "Ben", "--delay", "0"], env)
    ben.expect("You sit at seat 1 of table")
    host.expect(r"1 Ben")
    host.child.sendline("start")
    return host, ben


@pytest.mark.timeout(200)
def test_the_host_quitting_mid_game_tells_a_joiner_only_that_the_table_closed(
    tmp_path: Path,
) -> None:
    # Ben saw "Ada left the table: a bot plays for them." just before "Left the table
    # (the table closed: the host closed the table)": the host's client left the table
    # before its process closed it.
    host, ben = _ada_hosts_ben(_env(tmp_path), "--seed", "5")
    host.expect(PROMPT)  # mid-game, at the host's turn
    ben.expect("Knock-Out Whist online, game 1")
    host.child.sendline("quit")
    assert host.end() == 1
    assert ben.end() == 1
    assert "Left the table (the table closed: the host closed the table)." in ben.out
    assert "Ada left the table" not in ben.out and "Ada is away" not in ben.out
    assert "Traceback" not in host.out + ben.out


@pytest.mark.timeout(400)
def test_two_people_play_a_whole_game_one_drops_and_rejoins_and_the_log_verifies(
    tmp_path: Path,
) -> None:
    env = _env(tmp_path)
    log = tmp_path / "table.jsonl"
    host = Player(
        ["host", "--listen", "127.0.0.1:0", "--name", "Ada", "--seed", "11", "--log", str(log),
         "--delay", "0", "--away", "30"],
        env,
    )  # fmt: skip
    line = host.expect(r"kow join (127\.0\.0\.1:\d+) ([A-Z2-7]{4}(?:-[A-Z2-7]{4}){3})")
    address, code = line.group(1), line.group(2)
    host.expect(LOBBY)
    join_line = ["join", address, code, "--name", "Ben", "--delay", "0"]
    ben = Player(join_line, env)
    ben.expect("You sit at seat 1 of table")
    host.expect(r"1 Ben")
    host.child.sendline("start")
    host.expect("Knock-Out Whist online, game 1")
    ben.expect("Knock-Out Whist online, game 1")
    state = json.loads((tmp_path / "state" / "kow" / "seats.json").read_text())
    assert [entry["seat"] for entry in state.values()] == [1]
    assert oct((tmp_path / "state" / "kow" / "seats.json").stat().st_mode & 0o777) == "0o600"

    _play([host, ben], "=== Round 2")  # then Ben's terminal dies mid-round
    ben.child.kill(signal.SIGKILL)
    ben.child.close()
    _play([host], "Ben is away")
    ben = Player(join_line[:3] + ["--delay", "0"], env)  # the same line, no name needed
    ben.expect("Taking your seat back.")
    ben.expect("You sit at seat 1 of table")
    ben.expect(r"Caught up with game 1: round \d+ so far\.")

    _play([host, ben], "Games won so far (1 played)")
    host.expect(LOBBY)
    assert "Type start for the next game, or quit to stop." in host.out
    ben.expect("Waiting for Ada to start the next game")
    host.child.sendline("quit")
    assert host.end() == 0
    assert ben.end() == 0
    assert "the table closed: the host closed the table" in ben.out
    assert "Traceback" not in host.out + ben.out

    game = json.loads(log.read_text(encoding="utf-8"))
    assert [p["name"] for p in game["players"]][:2] == ["Ada", "Ben"]
    assert [p["kind"] for p in game["players"]][:2] == ["human", "human"]
    assert game["seed"] == 11 and not game.get("abandoned")
    verified = subprocess.run(
        [*KOW, "verify", str(log)], capture_output=True, text=True, timeout=60, env=env
    )
    assert verified.returncode == 0
    assert "1 game in 1 file: 1 legal, 0 faulty" in verified.stdout + verified.stderr
    against = subprocess.run(
        [*KOW, "verify", "--against-seed", str(log)], capture_output=True, text=True,
        timeout=120, env=env,
    )  # fmt: skip
    assert against.returncode == 0
    assert "each the game its seed gives" in against.stdout + against.stderr


def test_a_spectator_is_shown_every_hand_once_the_game_is_over() -> None:
    from kow.cli.remote import _hands_dealt
    from kow.rules import Rules
    from kow.screen import Screen

    game = {"rounds": [
        {"number": 1, "hands": [["Kc", "2h"], ["As", "Td"], None]},
        {"number": 2, "hands": [["3c"], [], None]},
    ]}  # fmt: skip
    screen = Screen(["Ann", "Bob", "Cy"], Rules(players=3), symbols=False)
    assert _hands_dealt(game, screen) == [
        "The hands, as dealt:",
        "  Round 1: Ann: Kc 2h; Bob: 10d As",
        "  Round 2: Ann: 3c",
    ]
    assert _hands_dealt({"rounds": [{"number": 1, "hands": [["Zz"]]}]}, screen) == []


@pytest.mark.timeout(200)
def test_the_host_may_quit_while_the_table_waits_for_a_dropped_player(tmp_path: Path) -> None:
    host, ben = _ada_hosts_ben(_env(tmp_path), "--seed", "11", "--away", "60")
    ben.expect("Knock-Out Whist online, game 1")
    ben.child.kill(signal.SIGKILL)  # Ben's terminal dies: his seat is waited for 60 s
    ben.child.close()
    _play([host], "Waiting for Ben...")
    host.expect(re.escape("(quit to leave) "))
    host.child.sendline("seats")  # anything but quit says what may be done
    host.expect(re.escape("It is Ben's turn: type quit to close the table, or wait."))
    host.expect(re.escape("(quit to leave) "))
    host.child.sendline("quit")
    assert host.end() == 1  # mid-game
    assert "you quit" in host.out
    assert "Traceback" not in host.out
