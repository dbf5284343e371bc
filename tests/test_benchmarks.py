"""The benchmarks' options read numbers as kow's own options do (kow.entries.number_type)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kow.rules import MAX_JOBS

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
SCRIPTS = sorted(BENCHMARKS.glob("*.py"))


def test_no_script_reads_a_number_with_int() -> None:
    """``type=int`` takes ``'٣'`` as 3; the examples and benchmarks use number_type."""
    for script in [*SCRIPTS, *sorted((ROOT / "examples").glob("*.py"))]:
        text = script.read_text(encoding="utf-8")
        assert not re.search(r"type\s*=\s*int\b", text), script.name


NEEDS = {"frameworks_openspiel.py": "pyspiel", "frameworks_pettingzoo.py": "pettingzoo"}


@pytest.mark.parametrize(
    ("script", "option", "message"),
    [
        ("ceiling.py", "--games", "is not a number of games: allowed 1 to 1000000000000"),
        ("ceiling.py", "--jobs", f"is not a number of processes: allowed 1 to {MAX_JOBS}"),
        ("decision_time.py", "--iterations", "is not a number of deals: allowed 1 to 100000"),
        ("frameworks_openspiel.py", "--players", "is not a number of players: allowed 2 to 7"),
        ("frameworks_openspiel.py", "--seed", "is not a seed: allowed 0 to 9007199254740991"),
        ("jobs.py", "--repeat", "is not a number of runs: allowed 1 or more"),
        ("signals.py", "--tries", "is not a number of tries: allowed 1 or more"),
        ("speed.py", "--repeat", "is not a number of runs: allowed 1 or more"),
        ("strength.py", "--games", "is not a number of games: allowed 1 to 1000000000000"),
    ],
)
def test_a_benchmark_refuses_digits_of_another_script_as_a_usage_error(
    script: str, option: str, message: str
) -> None:
    if script in NEEDS and importlib.util.find_spec(NEEDS[script]) is None:
        pytest.skip(f"{NEEDS[script]} is not installed")
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), option, "٣"],
        capture_output=True, text=True, cwd=ROOT, timeout=120, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines()[-1] == (
        f"{script}: error: argument {option}: '٣' {message}, in the digits 0-9"
    )
