"""Golden logs pin reproducibility: the same seed and options give these exact bytes.

After an intended change to the engine, a bot or the log format, regenerate them with
``KOW_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py`` and say why in the commit.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import first_difference

from kow.cli import main

GOLDEN = Path(__file__).resolve().parent / "golden"

CASES = {
    "seed7.json": ["simulate", "--seed", "7", "--pretty"],
    "variants.jsonl": [
        "simulate", "--seed", "11", "--games", "3", "--players", "5",
        "--dogs-life", "once-per-game", "--no-sweep-wins", "--eliminated-vote",
        "--bots", "random,heuristic,random,heuristic,random",
    ],
    "fixed-no-final.jsonl": [
        "simulate", "--seed", "4", "--games", "2", "--players", "3", "--start-cards", "8",
        "--fixed-trump", "--no-final-round-trump", "--lead", "dealer-left",
        "--dogs-life", "once-per-player",
    ],
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_log(name: str) -> None:
    result = CliRunner().invoke(main, CASES[name])
    assert result.exit_code == 0, result.stderr
    path = GOLDEN / name
    if os.environ.get("KOW_REGEN_GOLDEN"):
        path.write_text(result.stdout)
    pinned = path.read_text()
    assert result.stdout == pinned, f"{name}: not the golden bytes\n" + first_difference(
        pinned, result.stdout
    )
