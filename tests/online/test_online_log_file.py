"""A table's log file (kow.online.log_file): what the file held first, then the table's
games, written whole; when a save is due."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kow import log
from kow.events import Event, RoundEnd, TrickWon
from kow.game import bots_rng, play_game
from kow.online import log_file
from kow.online.log_file import SAVE_EVERY, LogFile
from kow.players import make_bot
from kow.rules import Rules


def played(seed: int) -> tuple[log.GameLog, list[Event]]:
    """Return the log and the events of a short seeded game of random bots."""
    rules = Rules(players=2, start_cards=2)
    rng = bots_rng(seed)
    players = [make_bot("random", f"random-{s}", rng) for s in range(2)]
    state = play_game(rules, players, seed)
    return log.build(seed, rules, players, events=state.events), state.events


def game(seed: int) -> log.GameLog:
    """Return the log of a short seeded game of random bots."""
    return played(seed)[0]


def test_the_file_keeps_what_it_held_then_the_finished_games_then_the_one_in_play(
    tmp_path: Path,
) -> None:
    path = tmp_path / "table.jsonl"
    path.write_text('{"an": "earlier game"}')  # no final newline: one is added
    kept = LogFile(str(path))
    first, second = game(1), game(2)
    kept.save(first, final=True)
    kept.save(second, final=False)
    lines = path.read_text().splitlines(keepends=True)
    assert lines == ['{"an": "earlier game"}\n', log.dumps(first) + "\n", log.dumps(second) + "\n"]
    assert kept.games == [log.dumps(first) + "\n"]  # the game in play is not kept
    kept.save(second, final=True)  # the file is rewritten whole: the game in play once
    assert path.read_text().splitlines(keepends=True)[1:] == kept.games
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left


def test_a_reopened_tables_games_stand_in_place_of_what_the_file_held(tmp_path: Path) -> None:
    path = tmp_path / "table.jsonl"
    path.write_text("what the file held\n")
    kept = LogFile(str(path))
    kept.continue_from(["game one\n"])
    kept.save(game(3), final=False)
    assert path.read_text().splitlines()[0] == "game one"


def test_without_a_file_games_are_counted_and_nothing_is_written(tmp_path: Path) -> None:
    kept = LogFile(None)
    kept.save(game(4), final=True)
    assert len(kept.games) == 1 and list(tmp_path.iterdir()) == []
    _, events = played(4)
    assert not any(kept.due(event) for event in events)


def test_a_save_is_due_at_a_rounds_end_and_at_a_tricks_after_save_every(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = LogFile(str(tmp_path / "table.jsonl"))
    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    first, events = played(5)
    kept.save(first, final=False)
    trick = next(e for e in events if isinstance(e, TrickWon))
    round_end = next(e for e in events if isinstance(e, RoundEnd))
    others = [e for e in events if not isinstance(e, (TrickWon, RoundEnd))]
    assert kept.due(round_end) and not kept.due(trick)
    assert others and not any(kept.due(e) for e in others)
    now[0] += SAVE_EVERY
    assert kept.due(trick)


def test_a_file_that_cannot_be_written_raises_and_leaves_no_temporary(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        LogFile(str(tmp_path / "no-such-folder" / "table.jsonl")).save(game(6), final=True)
    with pytest.raises(OSError):
        log_file.write_whole(str(tmp_path), "a folder is not a file\n")
    assert list(tmp_path.iterdir()) == []
