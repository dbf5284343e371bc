"""The reader of the commands that read logs (kow.log.read_logs): one record per game,
one end per input, in order; faults of an input end it, the next input is read."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from click.testing import CliRunner

from kow.cli import main
from kow.log import GameRecord, InputEnd, InputError, read_logs


def simulated(seed: int, games: int) -> str:
    """Return ``games`` games of random bots from ``seed``, as JSON Lines."""
    result = CliRunner().invoke(
        main, ["simulate", "--seed", str(seed), "--games", str(games), "--bots", "random"]
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_each_game_is_a_named_record_and_each_input_ends(tmp_path: Path) -> None:
    text = simulated(1, 3)
    first = tmp_path / "a.jsonl"
    first.write_text(text, encoding="utf-8")
    second = tmp_path / "b.jsonl.gz"
    second.write_bytes(gzip.compress(text.splitlines(keepends=True)[0].encode()))
    items = list(read_logs([str(first), str(second)]))
    assert [type(item).__name__ for item in items] == [
        "GameRecord", "GameRecord", "GameRecord", "InputEnd", "GameRecord", "InputEnd",
    ]  # fmt: skip
    records = [item for item in items if isinstance(item, GameRecord)]
    assert [(r.label, r.index, r.line) for r in records] == [
        (str(first), 1, 1), (str(first), 2, 2), (str(first), 3, 3), (str(second), 1, 1),
    ]  # fmt: skip
    assert [r.game for r in records[:3]] == [json.loads(line) for line in text.splitlines()]
    assert all(r.fault is None and r.note is None for r in records)
    # The bytes read so far, in all the inputs: the first file's size once it is read.
    assert records[2].read == first.stat().st_size
    assert records[3].read == first.stat().st_size + second.stat().st_size
    assert items[3] == InputEnd(str(first), 3, opened=True, why=None, note=None)
    assert items[3].error() is None


def test_an_input_that_cannot_be_opened_or_read_ends_with_why(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(simulated(2, 1), encoding="utf-8")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(good.read_text(encoding="utf-8") + "{not json\n", encoding="utf-8")
    missing = str(tmp_path / "missing.jsonl")
    items = list(read_logs([missing, str(bad), str(good)]))
    assert isinstance(items[0], InputEnd)
    assert (items[0].opened, items[0].why, items[0].games) == (
        False, "No such file or directory", 0,
    )  # fmt: skip
    error = items[0].error()
    assert isinstance(error, InputError) and not error.opened
    assert str(error) == f"{missing}: cannot open: No such file or directory"
    assert isinstance(items[1], GameRecord) and items[1].index == 1
    assert isinstance(items[2], InputEnd) and items[2].opened and items[2].games == 1
    assert str(items[2].error()).startswith(f"{bad}: line 2, column 2: not JSON")
    assert isinstance(items[3], GameRecord) and items[3].label == str(good)  # read on


def test_a_game_repeated_whole_is_noted_once_then_counted(tmp_path: Path) -> None:
    line = simulated(3, 1)
    path = tmp_path / "twice.jsonl"
    path.write_text(line * 3, encoding="utf-8")
    items = list(read_logs([str(path)]))
    notes = [item.note for item in items]
    assert notes == [
        None,
        f"{path}: game 2 (line 2) repeats game 1 whole",
        None,
        f"{path}: 2 games in all repeat an earlier game whole",
    ]


def test_a_fault_of_one_game_is_its_records_and_reading_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "keys.jsonl"
    path.write_text('{"a": 1, "a": 2}\n' + simulated(4, 1), encoding="utf-8")
    first, second, end = read_logs([str(path)])
    assert isinstance(first, GameRecord) and first.fault is not None
    assert 'the key "a" is repeated' in str(first.fault)
    assert isinstance(second, GameRecord) and second.fault is None and second.index == 2
    assert isinstance(end, InputEnd) and end.why is None and end.games == 2
