"""The command line's plumbing (kow.cli._terminal, _files, _pipes): encodings without ♠, colour.

Every command is run with stdout and stderr in cp1252, latin-1 and ascii (what a redirect
on Windows or ``PYTHONIOENCODING`` gives): no traceback, suits as letters, names that
cannot be shown escaped, and data (JSON) byte for byte what a UTF-8 terminal gets.
"""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from kow.cli import main
from kow.cli._terminal import FALLBACK, color_fits

ROOT = Path(__file__).resolve().parents[2]
NARROW = ["cp1252", "latin-1", "ascii"]
"""Encodings that cannot show ♠."""


def kow(*args: str, encoding: str, stdin: str = "") -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m kow`` with stdin, stdout and stderr in ``encoding``; bytes out."""
    env = {**os.environ, "PYTHONIOENCODING": encoding, "LC_ALL": "C.UTF-8"}
    env.pop("NO_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "kow", *args],
        input=stdin.encode(encoding),
        capture_output=True,
        env=env,
        cwd=ROOT,
        check=False,
        timeout=120,
    )


# ----------------------------------------------------------------------------- the handler


def test_fallback_writes_suits_as_letters_and_escapes_the_rest() -> None:
    text = "Q♠ 10♥ ♧♢ 张伟 é 😀"
    assert text.encode("ascii", FALLBACK) == b"Qs 10h cd \\u5f20\\u4f1f \\u00e9 \\ud83d\\ude00"
    assert text.encode("cp1252", FALLBACK) == (
        "Qs 10h cd \\u5f20\\u4f1f é \\ud83d\\ude00".encode("cp1252")
    )
    assert "ok".encode("ascii", FALLBACK) == b"ok"
    with pytest.raises(UnicodeDecodeError):  # it only encodes
        b"\xff".decode("ascii", FALLBACK)


@given(st.text(), st.sampled_from(NARROW))
def test_json_written_through_the_fallback_is_the_same_value(value: str, encoding: str) -> None:
    # A JSON writer with ensure_ascii=False, through the handler, still gives valid JSON
    # with the same value (characters beyond U+FFFF as surrogate pairs): suit symbols
    # aside, which become letters.
    value = value.translate({ord(c): None for c in "♣♦♥♠♧♢♡♤"})
    written = json.dumps({"name": value}, ensure_ascii=False).encode(encoding, FALLBACK)
    assert json.loads(written.decode(encoding)) == {"name": value}


# ----------------------------------------------------------------------------- every command


COMMANDS = [[], *([c] for c in sorted(main.commands))]


@pytest.mark.parametrize("encoding", NARROW)
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "kow")
def test_help_in_a_narrow_encoding(encoding: str, command: list[str]) -> None:
    # In-process: Click's runner gives stdout in the encoding, and kow's main fits it.
    wide = CliRunner().invoke(main, [*command, "--help"])
    narrow = CliRunner(charset=encoding).invoke(main, [*command, "--help"])
    assert (wide.exit_code, narrow.exit_code) == (0, 0), narrow.output
    assert narrow.exception is None
    # The same text, with what the encoding lacks written as letters or escapes.
    assert narrow.stdout_bytes == wide.stdout.encode(encoding, FALLBACK)
    if "Q♠" in wide.stdout:
        assert "Q♠" not in narrow.stdout and "Qs" in narrow.stdout


@pytest.mark.parametrize("encoding", NARROW)
def test_play_help_shows_suits_as_letters(encoding: str) -> None:
    done = kow("play", "--help", encoding=encoding)
    assert (done.returncode, done.stderr) == (0, b"")
    utf8 = kow("play", "--help", encoding="utf-8")
    assert done.stdout == utf8.stdout.decode("utf-8").encode(encoding, FALLBACK)
    assert b"Traceback" not in done.stdout and b"\xe2" not in done.stdout  # no UTF-8 ♠


@pytest.mark.parametrize("encoding", NARROW)
def test_data_on_stdout_is_the_same_bytes(encoding: str, tmp_path: Path) -> None:
    utf8 = kow("simulate", "--seed", "1", "--players", "3", encoding="utf-8")
    done = kow("simulate", "--seed", "1", "--players", "3", encoding=encoding)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == utf8.stdout
    assert json.loads(done.stdout) == json.loads(utf8.stdout)
    assert kow("schema", encoding=encoding).stdout == kow("schema", encoding="utf-8").stdout
    log = tmp_path / "g.json"
    log.write_bytes(done.stdout)
    verdict = kow("verify", "--json", str(log), encoding=encoding)
    assert verdict.returncode == 0 and json.loads(verdict.stdout)["legal"] == 1


@pytest.mark.parametrize("encoding", NARROW)
def test_replay_in_a_narrow_encoding(encoding: str, tmp_path: Path) -> None:
    log = tmp_path / "g.json"
    log.write_bytes(kow("simulate", "--seed", "1", "--players", "3", encoding="utf-8").stdout)
    done = kow("replay", str(log), encoding=encoding)
    assert (done.returncode, done.stderr) == (0, b"")
    # What a UTF-8 terminal shows with --ascii: suits as letters, c d h s.
    assert done.stdout == kow("replay", str(log), "--ascii", encoding="utf-8").stdout
    assert b"Seats, clockwise: 0 Ada (heuristic)" in done.stdout


@pytest.mark.parametrize("encoding", NARROW)
def test_play_with_a_name_the_encoding_lacks(encoding: str, tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    args = ["play", "--seed", "1", "--name", "张伟", "--log", str(log)]
    done = kow(*args, encoding=encoding, stdin="quit\n")
    assert done.returncode == 1  # quitting leaves the game unfinished, as always
    assert done.stderr.decode(encoding) == (
        f"Game abandoned (you quit); the game so far is saved in {log}. Seed 1.\n"
    )
    out = done.stdout.decode(encoding)
    assert "Traceback" not in out
    assert "\\u5f20\\u4f1f, your hand" in out
    # The screen is the one a UTF-8 terminal gets with --ascii, escapes aside.
    log.unlink()  # else the second game is added after the first (issue 33, 6)
    utf8 = kow(*args, "--ascii", encoding="utf-8", stdin="quit\n")
    assert done.stdout == utf8.stdout.decode("utf-8").encode(encoding, FALLBACK)
    game = json.loads(log.read_text(encoding="utf-8"))
    assert game["players"][0]["name"] == "张伟"
    assert game["abandoned"] is True


@pytest.mark.parametrize("encoding", NARROW)
def test_usage_error_naming_a_symbol(encoding: str) -> None:
    # Error messages go to stderr, which gets the same handling.
    done = kow("replay", "♠.json", encoding=encoding)
    assert done.returncode == 2
    err = done.stderr.decode(encoding)
    assert "cannot open 's.json'" in err and "Traceback" not in err


def test_utf8_streams_are_left_alone() -> None:
    done = kow("replay", "♠.json", encoding="utf-8")
    assert "cannot open '♠.json'" in done.stderr.decode("utf-8")


# ----------------------------------------------------------------------------- colour


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("environ", "no_color", "expected"),
    [
        ({"TERM": "xterm-256color"}, False, True),
        ({}, False, True),
        ({"TERM": "xterm"}, True, False),
        ({"TERM": "dumb"}, False, False),
        ({"TERM": "xterm", "NO_COLOR": "1"}, False, False),
        ({"TERM": "xterm", "NO_COLOR": ""}, False, True),  # no-color.org: empty is unset
    ],
)
def test_color_fits(environ: dict[str, str], no_color: bool, expected: bool) -> None:
    assert color_fits(Tty(), no_color=no_color, environ=environ) is expected
    assert color_fits(io.StringIO(), no_color=no_color, environ=environ) is False


def test_color_fits_a_closed_stream() -> None:
    with open(os.devnull, "w") as stream:
        pass
    assert color_fits(stream, environ={}) is False  # isatty raises ValueError


@pytest.mark.parametrize(("term", "escapes"), [("xterm", True), ("dumb", False)])
def test_replay_on_a_terminal_follows_term(term: str, escapes: bool, tmp_path: Path) -> None:
    log = tmp_path / "g.json"
    log.write_bytes(kow("simulate", "--seed", "1", "--players", "3", encoding="utf-8").stdout)
    main_fd, screen_fd = pty.openpty()
    env = {**os.environ, "TERM": term, "PAGER": "cat", "LC_ALL": "C.UTF-8"}
    env.pop("NO_COLOR", None)
    with subprocess.Popen(
        [sys.executable, "-m", "kow", "replay", str(log), "--round", "1"],
        stdin=subprocess.DEVNULL, stdout=screen_fd, stderr=screen_fd, env=env, cwd=ROOT,
    ) as proc:  # fmt: skip
        os.close(screen_fd)
        shown = b""
        while True:
            try:
                chunk = os.read(main_fd, 65536)
            except OSError:  # the terminal closed: the replay is over
                break
            if not chunk:
                break
            shown += chunk
        assert proc.wait(timeout=60) == 0
    os.close(main_fd)
    assert b"=== Round 1: 7 cards each ===" in shown
    assert (b"\x1b[" in shown) is escapes


# ------------------------------------------------- outputs: gzip by name, stale temporary files
# issue 20, kind 10: "-o NAME.gz" wrote plain text that gzip readers refuse; a SIGKILL left a
# hidden .kow-*.tmp beside the output that no later run noticed.


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "--seed", "3", "--games", "4"],
        ["export", "{games}", "--table", "plays"],
        ["analyze", "{games}", "--game", "1", "--seat", "0", "--iterations", "2", "--json"],
    ],
)
def test_an_output_named_gz_is_gzip_and_the_same_bytes_each_time(
    command: list[str], tmp_path: Path
) -> None:
    import gzip

    games = tmp_path / "games.jsonl"
    assert _run("simulate", "--seed", "3", "--games", "2", "-o", str(games))[0] == 0
    args = [str(games) if a == "{games}" else a for a in command]
    code, plain, _ = _run(*args)
    assert code == 0
    packed = []
    for name in ("a.out.gz", "b.out.GZ"):
        assert _run(*args, "-o", str(tmp_path / name)) == (0, "", "")
        packed.append((tmp_path / name).read_bytes())
    assert packed[0] == packed[1]  # no name, no time in the header: deterministic
    data = packed[0]
    assert data[:4] == b"\x1f\x8b\x08\x00" and data[4:8] == b"\0\0\0\0"  # no FNAME, mtime 0
    assert gzip.decompress(data).decode() == plain
    if command[0] == "simulate":  # and kow's readers take it back
        assert (
            _run("verify", str(tmp_path / "a.out.gz"))[1]
            == "4 games in 1 file: 4 legal, 0 faulty\n"
        )


def test_stale_temporary_files_are_removed_or_named(tmp_path: Path) -> None:
    from kow.cli import _files

    host = _files._host()
    dead = tmp_path / f".kow-999999999@{host}-abc.tmp"  # this machine, no such process
    live = tmp_path / f".kow-{os.getpid()}@{host}-def.tmp"  # a run writing here now
    other = tmp_path / ".kow-12@another-host-ghi.tmp"  # can't be told: named once old
    older = tmp_path / ".kow-x1y2z3.tmp"  # of kow 0.5: named once old
    unrelated = tmp_path / ".other-1.tmp"
    for path in (dead, live, other, older, unrelated):
        path.write_text("half")
    old = _files.STALE_AFTER + 60
    for path in (other, older):
        os.utime(path, (path.stat().st_mtime - old, path.stat().st_mtime - old))
    code, out, err = _run(
        "simulate", "--seed", "1", "--games", "1", "-o", str(tmp_path / "g.jsonl")
    )
    assert code == 0 and out == ""
    assert not dead.exists()
    assert all(p.exists() for p in (live, other, older, unrelated))
    assert f"kow: removed {str(dead)!r}" in err
    assert f"{str(other)!r} looks left by a kow that was stopped" in err
    assert f"{str(older)!r} looks left by a kow that was stopped" in err
    assert str(live) not in err and str(unrelated) not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [live.name, other.name, older.name, unrelated.name, "g.jsonl"]
    )


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_the_temporary_file_of_a_killed_run_goes_at_the_next_run(tmp_path: Path) -> None:
    import signal
    import time

    out = tmp_path / "games.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "kow", "simulate", "--seed", "1", "--games", "100000",
         "--jobs", "1", "--quiet", "-o", str(out)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while not list(tmp_path.glob(".kow-*.tmp")):
        assert time.monotonic() < deadline, "the run never made its temporary file"
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    (left,) = tmp_path.glob(".kow-*.tmp")
    assert left.name.startswith(f".kow-{proc.pid}@")
    code, _, err = _run("simulate", "--seed", "1", "--games", "1", "-o", str(out))
    assert code == 0
    assert err == (
        f"kow: removed {str(left)!r}, left by a kow that was stopped while writing"
        f" (process {proc.pid})\n"
    )
    assert [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]


def test_a_pager_that_fails_leaves_the_text_shown_plainly_and_says_so(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 33, 4: PAGER=false showed nothing and kow exited 0.
    from kow.cli._terminal import page

    monkeypatch.setenv("PAGER", "false")
    page("\x1b[1mbold\x1b[0m text\n")
    out, err = capfd.readouterr()
    assert out == "bold text\n"
    assert err == "Warning: the pager 'false' failed (exit status 1); shown without it.\n"
    monkeypatch.setenv("PAGER", "cat")  # a pager that works shows it once, and says nothing
    page("text\n")
    assert capfd.readouterr() == ("text\n", "")
