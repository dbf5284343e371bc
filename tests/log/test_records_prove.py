"""read_logs' ``prove`` (kow export with jobs 1 passes kow.log.replay_exact): a game whose
text it proves is taken as canonical and not measured; any other is read as without it,
its faults, notes and digests the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import seen

from kow.cli import main
from kow.engine import State
from kow.log import GameRecord, InputEnd, read_logs, replay_exact


def simulated(seed: int, games: int) -> list[str]:
    """Return the lines of ``games`` games of random bots from ``seed``."""
    result = CliRunner().invoke(
        main, ["simulate", "--seed", str(seed), "--games", str(games), "--bots", "random"]
    )
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_a_proved_game_is_not_measured_and_carries_its_proof(
    tmp_path: Path, measured: list[int]
) -> None:
    lines = simulated(3, 3)
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    asked: list[tuple[int, str]] = []

    def marked(game: Any, text: str) -> object:
        asked.append((game["seed"], text))
        return ("proved", game["seed"])

    items = list(read_logs([str(path)], prove=marked))
    records = [item for item in items if isinstance(item, GameRecord)]
    seeds = [json.loads(line)["seed"] for line in lines]
    assert measured == []
    assert asked == list(zip(seeds, lines, strict=True))  # each game's text as read
    assert [r.proof for r in records] == [("proved", seed) for seed in seeds]
    assert [r.text for r in records] == lines
    plain = list(read_logs([str(path)]))
    assert len(measured) == 3 and measured == [len(line) for line in lines]
    assert [r.proof for r in plain if isinstance(r, GameRecord)] == [None, None, None]
    assert seen(plain) == seen(items)


def test_replay_exact_proves_kows_games_with_their_last_state(tmp_path: Path) -> None:
    lines = simulated(4, 2)
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    records = [r for r in read_logs([str(path)], prove=replay_exact) if isinstance(r, GameRecord)]
    assert [type(r.proof) for r in records] == [State, State]
    for record, line in zip(records, lines, strict=True):
        assert isinstance(record.proof, State) and record.proof.outcome is not None
        assert record.text == line


def test_a_game_prove_refuses_is_read_as_without_it(tmp_path: Path, measured: list[int]) -> None:
    lines = simulated(5, 2)
    game = json.loads(lines[0])
    key = f'"seed":{game["seed"]},'
    assert lines[0].count(key) == 1
    repeated = lines[0].replace(key, key + key)  # the same game, its seed given twice
    spaced = json.dumps(game, separators=(", ", ": "), ensure_ascii=False)
    other = json.loads(lines[1])
    other["kow_version"] = "0.0.1"  # canonical, legal, not kow's text of today
    old = json.dumps(other, separators=(",", ":"), ensure_ascii=False)
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join([repeated, spaced, old, lines[0], "[[1.0, -0]]"]) + "\n")
    asked: list[str] = []

    def refuses(value: Any, text: str) -> None:
        asked.append(text)

    without = seen(list(read_logs([str(path)])))
    count = len(measured)
    assert seen(list(read_logs([str(path)], prove=refuses))) == without
    assert len(measured) == 2 * count == 2 * 5
    assert asked == [repeated, spaced, old, lines[0]]  # the objects: the array is not one
    proved = list(read_logs([str(path)], prove=replay_exact))
    assert seen(proved) == without
    assert [r.proof is None for r in proved if isinstance(r, GameRecord)] == [
        True, True, True, False, True,
    ]  # fmt: skip
    faults = [said[5] for said in without[:5]]
    assert faults[0] is not None and faults[0].startswith(
        f'line 1, column {repeated.index(key) + len(key) + 1}: ambiguous: the key "seed" is'
        " repeated"
    )
    assert faults[1:] == [None] * 4
    texts = [said[7] for said in without[:5]]
    assert texts == [None, None, old, lines[0], None]
    notes = [said[6] for said in without[:5]]  # the spaced game repeats the proved one
    assert notes == [None, None, None, f"{path}: game 4 (line 4) repeats game 2 whole", None]


def test_a_game_repeated_whole_and_proved_is_still_noted(tmp_path: Path) -> None:
    lines = simulated(6, 2)
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join([lines[0], lines[1], lines[0], lines[0]]) + "\n")
    items = list(read_logs([str(path)], prove=replay_exact))
    assert seen(items) == seen(list(read_logs([str(path)])))
    records = [r for r in items if isinstance(r, GameRecord)]
    assert all(isinstance(r.proof, State) for r in records)
    assert [r.note for r in records] == [
        None, None, f"{path}: game 3 (line 3) repeats game 1 whole", None,
    ]  # fmt: skip
    end = items[-1]
    assert isinstance(end, InputEnd)
    assert end.note == f"{path}: 2 games in all repeat an earlier game whole"


def test_an_interrupt_in_prove_ends_the_reading(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(simulated(7, 2)) + "\n")

    def interrupted(value: Any, text: str) -> object:
        raise KeyboardInterrupt

    found = read_logs([str(path)], prove=interrupted)
    with pytest.raises(KeyboardInterrupt):
        next(found)
    with pytest.raises(StopIteration):  # the reader is done, its file closed
        next(found)
