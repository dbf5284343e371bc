"""The README's library example runs as written and prints what it says."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_library_example_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Library") :]
    (code,) = re.findall(r"```python\n(.*?)```", section[: section.index("\n## ", 3)], re.S)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Outcome(winner=") and "termination=<Termination." in lines[0]
    assert '  "format": "kow-log",' in lines
    # The replay's states: the last is the game's end, phase "over".
    assert lines[-1].endswith(" over")
    assert sum(line.endswith((" play", " trump", " vote", " over")) for line in lines) > 50


def test_the_quick_start_is_two_commands_and_the_first_tells_a_game() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Quick start") : readme.index("## What it is")]
    (block,) = re.findall(r"```sh\n(.*?)```", section, re.S)
    first, second = block.splitlines()  # exactly two commands
    install = "python3 -m venv .venv && . .venv/bin/activate && "
    assert second == install + "pip install '.[test]' && python -m pytest"  # .ci/run runs it
    assert first == install + "pip install . && kow simulate --seed 7 | kow replay -"
    # The part after the install, run with this checkout's kow: a game a person can read.
    kow = f"{sys.executable} -m kow"
    pipeline = first.rsplit(" && ", 1)[1].replace("kow ", f"{kow} ")
    told = subprocess.run(
        ["sh", "-c", pipeline], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert (told.returncode, told.stderr) == (0, "")
    lines = told.stdout.splitlines()
    assert lines[0] == "Game 1 of stdin, seed 7"
    assert "=== Round 1: 7 cards each ===" in lines
    won = "*** Ben wins the game by taking the only trick of the last round (round 7). ***"
    assert lines[-1] == won
    # The JSON it names is the golden log of seed 7.
    assert "`kow simulate --seed 7 --pretty` prints it indented" in " ".join(section.split())
    pretty = subprocess.run(
        [sys.executable, "-m", "kow", "simulate", "--seed", "7", "--pretty"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert pretty.stdout == (ROOT / "tests" / "golden" / "seed7.json").read_text()


def test_every_install_command_works_from_a_clone() -> None:
    # Issue 33, 9: `pip install 'kow[ray]'` fails where kow is not installed from an index;
    # from a clone, it is `pip install '.[ray]'`.
    root = Path(__file__).resolve().parent.parent
    paths = [root / "README.md", *root.glob("docs/*.md"), *root.glob("examples/*"),
             *root.glob("kow/**/*.py"), *root.glob("benchmarks/*.py")]  # fmt: skip
    for path in paths:
        if path.is_file():
            assert "install 'kow[" not in path.read_text(encoding="utf-8"), path
