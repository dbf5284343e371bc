"""A table whose server stopped (SIGTERM) is opened again from its log and its game goes
on: ``kow serve --resume LOG`` and ``kow host --resume LOG`` (issue 32).

The servers listen on 127.0.0.1 only, on ports the system picks; every wait is bounded.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner
from conftest import self_signed
from online_support import WAIT, Agent

from kow import log
from kow.cli import main
from kow.online.client import Connection
from kow.runs.provenance import check_against_seed
from kow.verify import verify_game

KOW = [sys.executable, "-m", "kow"]


def _serve(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], str, Path]:
    """Start ``kow serve`` on 127.0.0.1 (any free port); return it, its address and the
    file its stderr goes to, once it says where it listens."""
    err = tmp_path / f"serve-{time.monotonic_ns()}.err"
    with open(err, "w") as stream:
        server = subprocess.Popen(
            [*KOW, "serve", "--listen", "127.0.0.1:0", *args],
            stderr=stream, stdout=subprocess.DEVNULL, text=True, cwd=tmp_path,
        )  # fmt: skip
    deadline = time.monotonic() + WAIT
    while not (found := re.search(r"Listening on (127\.0\.0\.1:\d+)", err.read_text())):
        assert server.poll() is None and time.monotonic() < deadline, err.read_text()
        time.sleep(0.05)
    return server, found.group(1), err


def _stop(server: subprocess.Popen[str], sig: signal.Signals) -> int:
    server.send_signal(sig)
    return server.wait(WAIT)


def test_a_table_of_kow_serve_stopped_by_sigterm_goes_on_after_serve_resume(
    tmp_path: Path,
) -> None:
    server, address, _ = _serve(tmp_path, "--log", "tables")
    try:
        ann = Connection.open(
            address,
            {"type": "open", "protocol": 1, "rules": {"players": 3}, "name": "Ann", "seed": 31},
        )
        code = ann.welcome["table"]
        first = Agent(ann, stop_after=6)
        bob = Agent(Connection.join(address, code, name="Bob"))
        first.start(), bob.start()
        ann.send({"type": "start"})
        first.join()  # Ann answered six turns, then dropped; Bob waits for her
    finally:
        assert _stop(server, signal.SIGTERM) == 143
    bob.join()
    (path,) = (tmp_path / "tables").iterdir()
    stopped = log.loads(path.read_text())
    assert stopped["abandoned"] is True and verify_game(stopped) is None
    assert [p["name"] for p in stopped["players"]] == ["Ann", "Bob", "Ada"]
    anns = [p for r in stopped["rounds"] for t in r["tricks"] for p in t["plays"] if p["seat"] == 0]
    assert len(anns) == first.turns == 6  # saved on SIGTERM: every decision made so far

    server, address, err = _serve(tmp_path, "--resume", str(path))
    try:
        deadline = time.monotonic() + WAIT
        while not (found := re.search(r"kow join \S+ ([A-Z2-7-]{19})", err.read_text())):
            assert time.monotonic() < deadline, err.read_text()
            time.sleep(0.05)
        code = found.group(1)
        assert "its players (Ann, Bob) join with" in err.read_text()  # not the bot, Ada
        ann2 = Agent(Connection.join(address, code, name="Ann"))
        bob2 = Agent(Connection.join(address, code, name="Bob"))
        assert (ann2.connection.welcome["seat"], bob2.connection.welcome["seat"]) == (0, 1)
        ann2.start(), bob2.start()
        ann2.connection.send({"type": "start"})
        ann2.join(), bob2.join()  # type: ignore[func-returns-value]
    finally:
        assert _stop(server, signal.SIGINT) == 130
    over = ann2.frames[-1]
    assert over["type"] == "game_over" and over["finished"]
    game = log.loads(path.read_text())  # written on to the same file: the whole game
    assert not game.get("abandoned") and game["seed"] == 31
    assert game == over["log"]
    assert check_against_seed(game) is None
    assert game["rounds"][0]["tricks"][:6] == stopped["rounds"][0]["tricks"][:6]


def test_resume_refuses_a_finished_game_and_the_options_the_log_fixes(tmp_path: Path) -> None:
    done = tmp_path / "done.jsonl"
    server, address, _ = _serve(tmp_path, "--log", "t")
    try:
        ann = Connection.open(address, {"type": "open", "protocol": 1, "name": "Ann", "seed": 4,
                                        "rules": {"players": 2}})  # fmt: skip
        agent = Agent(ann).start()
        ann.send({"type": "start"})
        agent.join()
    finally:
        _stop(server, signal.SIGTERM)
    (path,) = (tmp_path / "t").iterdir()
    os.replace(path, done)
    runner = CliRunner()
    result = runner.invoke(main, ["host", "--resume", str(done), "--listen", "127.0.0.1:0"])
    assert result.exit_code == 1
    assert "done.jsonl, line 1: the last game is finished" in result.output
    result = runner.invoke(main, ["serve", "--resume", str(tmp_path / "none.jsonl")])
    assert result.exit_code == 1 and "none.jsonl: cannot be read" in result.output
    # a table stopped mid-game, reopened with an option its log fixes: a usage error
    stopped = tmp_path / "stopped.jsonl"
    game = log.loads(done.read_text())
    game["rounds"] = game["rounds"][:1]
    game["rounds"][0]["tricks"] = game["rounds"][0]["tricks"][:1]
    for key in ("tricks_won",):
        game["rounds"][0][key] = None
    game["rounds"][0].update(eliminated=[], dogs_life_granted=[], revived=[])  # type: ignore[call-arg]
    game["result"] = {"winner": None, "rounds_played": 1, "termination": None}
    game["abandoned"] = True
    stopped.write_text(log.dumps(game) + "\n")
    assert verify_game(game) is None
    for args, named in (
        (["--seed", "5"], "--seed"),
        (["--players", "4"], "--players"),
        (["--bots", "random"], "--bots"),
    ):
        result = runner.invoke(main, ["host", "--resume", str(stopped), *args])
        assert result.exit_code == 2, result.output
        assert f"{named} is not given with --resume" in result.output
    result = runner.invoke(main, ["host", "--resume", str(stopped), "--name", "Zed"])
    assert result.exit_code == 2 and "the host was 'Ann'" in result.output


def test_host_refuses_a_log_its_games_cannot_be_added_to(tmp_path: Path) -> None:
    binary = tmp_path / "old.jsonl"
    binary.write_bytes(b"\x1f\x8b\x08\x00 gzip, not text")
    result = CliRunner().invoke(
        main, ["host", "--name", "Ann", "--listen", "127.0.0.1:0", "--log", str(binary)]
    )
    assert result.exit_code == 2
    assert "old.jsonl' holds something the table's games cannot be added to" in result.output
    assert binary.read_bytes().startswith(b"\x1f\x8b")  # untouched


def test_kow_serve_with_tls_plays_a_game_and_a_client_checks_its_certificate(
    tmp_path: Path,
) -> None:
    import ssl

    import pytest

    from kow.online.client import JoinError

    cert, key = self_signed(tmp_path)
    server, address, err = _serve(tmp_path, "--certfile", str(cert), "--keyfile", str(key))
    try:
        assert "Encrypted (TLS, wss://)" in err.read_text()
        opening = {"type": "open", "protocol": 1, "rules": {"players": 2}, "name": "Ann"}
        with pytest.raises(JoinError, match="CERTIFICATE_VERIFY_FAILED|certificate"):
            Connection.open(f"wss://{address}", opening)  # a certificate nobody vouches for
        with pytest.raises(JoinError):
            Connection.open(f"ws://{address}", opening)  # plain text to a TLS port
        trusted = ssl.create_default_context(cafile=str(cert))
        ann = Connection.open(f"wss://{address}", opening, tls=trusted)
        agent = Agent(ann).start()
        ann.send({"type": "start"})
        agent.join()
    finally:
        _stop(server, signal.SIGTERM)
    over = agent.frames[-1]
    assert over["type"] == "game_over" and over["finished"]
    assert verify_game(over["log"]) is None
