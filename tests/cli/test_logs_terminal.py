"""``kow replay`` and ``kow analyze`` on a terminal: lines wrapped as ``kow play`` wraps them.

Each runs under pexpect in a pseudo-terminal of a given width (issue 20, kind 11): every
line fits it, no word is split, and a pipe gets the same words, unwrapped.
"""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pytest

if sys.platform == "win32":  # pragma: no cover
    pytest.skip("pexpect needs a POSIX terminal", allow_module_level=True)

pexpect = pytest.importorskip("pexpect")

from click.testing import CliRunner  # noqa: E402

from kow.cli import main  # noqa: E402
from kow.screen import visible_width  # noqa: E402

SGR = re.compile(r"\x1b\[[0-9;:]*m")
ENV = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "g.jsonl"
    args = ["simulate", "--seed", "5", "--players", "4", "--start-cards", "3"]
    result = CliRunner().invoke(main, [*args, "--bots", "heuristic,random,search,heuristic"])
    assert result.exit_code == 0
    path.write_text(result.stdout)
    return path


def on_terminal(cols: int, *args: str) -> list[str]:
    """Return the lines ``kow ARGS``, run here, writes to a terminal ``cols`` wide (the
    pager: cat)."""
    env = {**ENV, "LC_ALL": "C.UTF-8", "TERM": "xterm", "PAGER": "cat"}
    log = io.StringIO()
    child = pexpect.spawn(sys.executable, ["-m", "kow", *args], env=env, encoding="utf-8",
                          timeout=60, dimensions=(200, cols), cwd=os.getcwd())  # fmt: skip
    child.logfile_read = log
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, log.getvalue()
    return SGR.sub("", log.getvalue()).replace("\r\n", "\n").rstrip("\n").split("\n")


def piped(*args: str) -> list[str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout.rstrip("\n").split("\n")


def words(lines: list[str]) -> list[str]:
    return " ".join(lines).split()


@pytest.mark.parametrize(
    ("cols", "args"),
    [(34, ["replay"]), (60, ["replay", "--round", "2"]),
     (30, ["analyze", "--iterations", "4", "--game", "1"]), (52, ["analyze", "--iterations", "4"])],
)  # fmt: skip
def test_lines_fit_the_terminal_and_no_word_is_split(
    logged: Path, cols: int, args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(logged.parent)  # a short name: a word wider than the line stands alone
    shown = on_terminal(cols, *args, logged.name)
    assert [x for x in shown if visible_width(x) > cols] == []
    assert any(x.startswith("  ") and not x.startswith("   ") for x in shown[1:4])  # Seats:
    plain = piped(*args, "--no-color", logged.name)
    assert words(shown) == words(plain)  # the same words: none split, none lost
    assert len(shown) > len(plain)  # wrapped: not a vacuous test
    assert any(visible_width(x) > cols for x in plain)


@pytest.mark.parametrize("command", ["rules", "replay"])
def test_a_failing_pager_leaves_the_text_shown_and_says_so(command: str, logged: Path) -> None:
    # Issue 33, 4: PAGER=false showed nothing and kow exited 0.
    args = ["rules"] if command == "rules" else ["replay", str(logged), "--game", "1"]
    env = {**ENV, "LC_ALL": "C.UTF-8", "TERM": "xterm", "PAGER": "false"}
    log = io.StringIO()
    child = pexpect.spawn(sys.executable, ["-m", "kow", *args], env=env, encoding="utf-8",
                          timeout=60, dimensions=(50, 100), cwd=os.getcwd())  # fmt: skip
    child.logfile_read = log
    child.expect(pexpect.EOF)
    child.close()
    text = SGR.sub("", log.getvalue())
    assert child.exitstatus == 0
    assert "Warning: the pager 'false' failed (exit status 1); shown without it." in text
    assert ("Knock-Out Whist" if command == "rules" else "Game 1 of") in text
