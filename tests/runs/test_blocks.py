"""The streaming of a log's games through an executor in order (:mod:`kow.runs.blocks`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import python_prints

import kow.runs.blocks as blocks
from kow.log import GameRecord, InputEnd, read_logs
from kow.runs.executors import Processes


def _seeds(jobs: list[int]) -> list[int]:
    """A block's work: each game's seed, doubled."""
    return [2 * seed for seed in jobs]


def _job(record: GameRecord, sent: bool) -> int | None:
    """Every game but those of an odd index (not worked on: their result is None)."""
    if record.index % 2:
        return None
    assert record.game is not None  # the job is made before the record leaves its game
    seed: int = record.game["seed"]
    return seed


class MapOnly:
    """An executor with map alone (as Ray tasks): windows of blocks."""

    workers = 2

    def map(self, func: Any, items: Any) -> Any:
        return Processes(2).map(func, items)


@pytest.mark.parametrize("executor", [None, "processes", "map only"])
def test_in_blocks_yields_each_record_with_its_result_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, executor: str | None
) -> None:
    monkeypatch.setattr(blocks, "BLOCK", 3)
    lines = [f'{{"seed":{seed},"x":1}}' for seed in range(17)]
    paths = []
    for name, part in (("a", lines[:11]), ("b", []), ("c", lines[11:])):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(line + "\n" for line in part))
        paths.append(str(path))
    run = {None: None, "processes": Processes(2), "map only": MapOnly()}[executor]
    found = list(blocks.in_blocks(read_logs(paths), _seeds, job=_job, executor=run))  # type: ignore[arg-type]
    ends = [item.label for item, _ in found if isinstance(item, InputEnd)]
    assert ends == paths
    games = [(item.index, result) for item, result in found if isinstance(item, GameRecord)]
    want = [(i, None if i % 2 else 2 * seed) for i, seed in enumerate(range(11), start=1)]
    want += [(i, None if i % 2 else 2 * seed) for i, seed in enumerate(range(11, 17), start=1)]
    assert games == want


def test_importing_blocks_leaves_the_executors_unloaded() -> None:
    # kow verify of one process imports kow.runs.blocks: not multiprocessing's machinery.
    code = "import sys, kow.runs.blocks; print('kow.runs.executors' in sys.modules)"
    assert python_prints(code) == ["False"]
