"""docs/frameworks.md's code runs as written and gives what it says."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from optional import needs

from kow.cli import main
from kow.frameworks.encoding import information_state_size, observation_size
from kow.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "frameworks.md").read_text(encoding="utf-8")


def _blocks(heading: str) -> list[str]:
    """Return the python blocks of the section under ``## heading``."""
    section = DOC.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def _run(code: str, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@needs("numpy", "pyspiel")
def test_the_openspiel_code_plays_games_and_logs_them(tmp_path: Path) -> None:
    code = "\n".join(_blocks("OpenSpiel"))
    code += (
        "\nimport json\n"
        "json.dump({'returns': returns, 'winner': log['result']['winner'],"
        " 'kinds': [p['kind'] for p in log['players']], 'seed': log['seed']},"
        " open('out.json', 'w'))\n"
    )
    lines = _run(code, tmp_path).splitlines()
    first = json.loads(lines[0])  # the random game's returns, as the doc prints them
    assert sorted(first) == [0.0, 0.0, 1.0]
    out = json.loads((tmp_path / "out.json").read_text())
    assert sorted(out["returns"]) == [0.0, 0.0, 1.0]
    assert out["returns"][out["winner"]] == 1.0
    assert out["kinds"] == ["agent", "search", "heuristic"] and out["seed"] is None


@needs("numpy", "pettingzoo")
def test_the_pettingzoo_code_writes_a_log_kow_verify_accepts(tmp_path: Path) -> None:
    (code,) = _blocks("PettingZoo")
    _run(code, tmp_path)
    game = json.loads((tmp_path / "game.json").read_text())
    assert game["seed"] == 7 and [p["kind"] for p in game["players"]] == ["agent"] * 3
    assert game["rules"]["dogs_life"] == "once-per-game" and "abandoned" not in game
    result = CliRunner().invoke(main, ["verify", str(tmp_path / "game.json")])
    assert (result.exit_code, result.output) == (0, "1 game in 1 file: 1 legal, 0 faulty\n")


@needs("numpy", "gymnasium")
def test_the_gymnasium_code_plays_one_game_to_its_end(tmp_path: Path) -> None:
    (code,) = _blocks("Gymnasium")
    code += (
        "\nimport json\n"
        "json.dump({'reward': reward, 'winner': info['winner'], 'seed': log['seed'],"
        " 'kinds': [p['kind'] for p in log['players']]}, open('out.json', 'w'))\n"
    )
    _run(code, tmp_path)
    out = json.loads((tmp_path / "out.json").read_text())
    assert out["reward"] == (1.0 if out["winner"] == 0 else 0.0)
    assert out["seed"] == 7 and out["kinds"] == ["agent"] + ["heuristic"] * 3


def test_the_sizes_the_doc_gives_are_the_encoding_s() -> None:
    for players, cards in ((4, 7), (7, 7), (2, 25)):
        rules = Rules(players=players, start_cards=cards)
        assert f"{observation_size(rules):,} and {information_state_size(rules):,}" in DOC
