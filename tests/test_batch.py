"""Batches of a run (kow.batch): any split of the games, over processes or shards, gives
the bytes of the whole run in one process."""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kow import batch, log
from kow.batch import GameError, Run, auto_jobs, game_text, ordered_map, run_text
from kow.engine import View
from kow.game import bots_rng, game_seed, run_game
from kow.players import BOT_KINDS, Player, make_bot
from kow.rules import Rules

ROOT = Path(__file__).resolve().parent.parent

RUNS = [
    Run(1, Rules(), ("random",) * 4),
    Run(2, Rules(players=5, dogs_life="once-per-game", eliminated_vote=True, sweep_wins=False),
        ("heuristic", "random", "heuristic", "random", "random")),
    Run(3, Rules(players=3, start_cards=9, trump="fixed"), ("heuristic",) * 3, dealer=2,
        pretty=True),
]  # fmt: skip

needs_fork = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(),
    reason="the bad bot is registered in this process only; spawned workers do not see it",
)


def joined(items: Iterator[tuple[str, int]]) -> tuple[str, int]:
    texts, counts = zip(*items, strict=True)
    return "".join(texts), sum(counts)


@pytest.mark.parametrize("run", RUNS, ids=range(len(RUNS)))
def test_jobs_give_the_same_bytes_in_the_same_order(run: Run) -> None:
    one, games = joined(run_text(run, 0, 37, jobs=1))
    assert games == 37
    assert joined(run_text(run, 0, 37, jobs=2)) == (one, 37)
    assert joined(run_text(run, 5, 20, jobs=3)) == joined(run_text(run, 5, 20, jobs=1))


@pytest.mark.parametrize("run", RUNS, ids=range(len(RUNS)))
def test_shards_concatenate_to_the_whole_run(run: Run) -> None:
    whole, _ = joined(run_text(run, 0, 30))
    cuts = [0, 1, 7, 8, 19, 30]
    shards = [joined(run_text(run, a, b - a))[0] for a, b in zip(cuts, cuts[1:], strict=False)]
    assert "".join(shards) == whole


def test_game_text_is_the_log_of_that_game() -> None:
    run = RUNS[1]
    seed = game_seed(run.seed, 4)
    rng = bots_rng(seed)  # one generator that all the game's bots share
    players = [make_bot(kind, f"{kind}-{s}", rng) for s, kind in enumerate(run.kinds)]
    events = run_game(run.rules, players, seed).events
    text = game_text(run, 4)
    assert text == log.dumps(log.build(seed, run.rules, players, events)) + "\n"
    assert json.loads(text)["seed"] == seed


class Cheat(Player):
    """Plays the first legal card until round 2, then a card it does not hold."""

    kind = "cheat"

    def __init__(self, name: str, rng: object) -> None:
        super().__init__(name)

    def act(self, view: View) -> int:
        if view.round >= 2 and view.phase == "play":
            return next(c for c in range(52) if c not in view.hand)
        return view.legal[0]


@needs_fork
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_bot_that_cheats_stops_the_run_naming_the_game(
    jobs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(BOT_KINDS, "cheat", Cheat)
    run = Run(5, Rules(players=3), ("random", "random", "cheat"))
    done = 0
    with pytest.raises(GameError) as caught:
        for _, games in run_text(run, 0, 50, jobs=jobs):
            done += games
    err = caught.value
    # The games before the bad one came out whole (all of them with one process).
    assert done <= err.index if jobs > 1 else done == err.index
    assert err.seed == game_seed(5, err.index)
    assert str(err).startswith(f"game {err.index} (seed {err.seed}): cheat player 'cheat-2'")


def test_game_error_crosses_processes_intact() -> None:
    err = pickle.loads(pickle.dumps(GameError(3, 99, "bad card")))
    assert (err.index, err.seed, err.reason) == (3, 99, "bad card")
    assert str(err) == "game 3 (seed 99): bad card"


def test_ordered_map_keeps_order_and_stops_early() -> None:
    assert list(ordered_map(abs, range(-20, 0), jobs=2)) == list(range(20, 0, -1))
    it = ordered_map(abs, range(-1000, 0), jobs=2)
    assert next(it) == 1000
    it.close()  # the pool shuts down without playing the rest
    assert multiprocessing.active_children() == []


def _fail_at_seven(x: int) -> int:
    if x == 7:
        raise ValueError("seven")
    return x


def _unpicklable_at_three(x: int) -> int:
    if x == 3:
        raise _Unpicklable("lambda inside")
    return x


class _Unpicklable(Exception):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.hook = lambda: None  # lambdas do not pickle


def _die_at_five(x: int) -> int:
    if x == 5:
        os.kill(os.getpid(), signal.SIGKILL)
    return x


def _sleep_after_first(x: int) -> int:
    if x:
        time.sleep(120)  # only a kill ends this within the test's timeout
    return x


@needs_fork
def test_ordered_map_raises_an_error_at_its_turn_after_the_results_before_it() -> None:
    got: list[int] = []
    with pytest.raises(ValueError, match="seven"):
        for value in ordered_map(_fail_at_seven, range(20), jobs=3):
            got.append(value)
    assert got == [0, 1, 2, 3, 4, 5, 6]
    assert multiprocessing.active_children() == []


@needs_fork
def test_ordered_map_sends_an_unpicklable_error_as_its_text() -> None:
    with pytest.raises(RuntimeError, match="_Unpicklable: lambda inside"):
        list(ordered_map(_unpicklable_at_three, range(8), jobs=2))


@needs_fork
def test_ordered_map_names_a_worker_that_died() -> None:
    got: list[int] = []
    with pytest.raises(RuntimeError, match=r"worker process 1 ended unexpectedly \(exit code -9\)"):
        for value in ordered_map(_die_at_five, range(12), jobs=2):
            got.append(value)
    assert got == [0, 1, 2, 3, 4]
    assert multiprocessing.active_children() == []


@needs_fork
def test_closing_ordered_map_kills_busy_workers() -> None:
    it = ordered_map(_sleep_after_first, range(6), jobs=2)
    assert next(it) == 0
    it.close()  # both workers are asleep in items 1 and 2: killed, not awaited
    assert multiprocessing.active_children() == []


@needs_fork
def test_a_signal_held_while_a_worker_starts_still_ends_that_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = batch._signals_held

    @contextmanager
    def lands_when_let_in() -> Iterator[None]:
        with real():
            yield
        raise KeyboardInterrupt  # as a Ctrl-C held back during the fork lands

    monkeypatch.setattr(batch, "_signals_held", lands_when_let_in)
    with pytest.raises(KeyboardInterrupt):
        list(ordered_map(_sleep_after_first, range(6), jobs=2))
    assert multiprocessing.active_children() == []  # the worker just started was killed


def test_a_long_run_lists_no_blocks_up_front(monkeypatch: pytest.MonkeyPatch) -> None:
    # 10^12 games: the blocks are a range, made as they are played, so memory stays flat.
    seen: list[object] = []

    def capture(func, items, jobs):  # type: ignore[no-untyped-def]
        seen.append(items)
        return iter(["first block"])

    monkeypatch.setattr(batch, "ordered_map", capture)
    assert next(run_text(RUNS[0], 0, 10**12, jobs=2)) == ("first block", 200)
    assert seen == [range(5 * 10**9)]  # blocks of 200 games


_WATCHED = """
import os, sys, time
from kow.batch import ordered_map
from tests.test_batch import _sleep_after_first
it = ordered_map(_sleep_after_first, range(6), jobs=2)
next(it)
import multiprocessing
print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
time.sleep(120)
"""


@needs_fork
def test_workers_end_when_the_main_process_is_killed() -> None:
    # SIGKILL runs no cleanup: each worker's thread sees the main process go, mid-item.
    proc = subprocess.Popen(
        [sys.executable, "-c", _WATCHED], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    workers = [int(pid) for pid in proc.stdout.readline().split()]
    assert len(workers) == 2
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 20
    while any(_alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived its main process"
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_ordered_map_with_one_job_or_one_item_stays_in_this_process() -> None:
    assert list(ordered_map(_fail_at_seven, [3], jobs=4)) == [3]
    assert list(ordered_map(_fail_at_seven, range(7), jobs=1)) == list(range(7))


def test_blocks_are_small_and_many() -> None:
    assert batch._block_size(20000, 2) == 200
    assert batch._block_size(100, 2) == 7
    assert batch._block_size(1, 4) == 1


@pytest.mark.parametrize(
    ("games", "cpus", "expected"),
    [(1, 8, 1), (99, 8, 1), (250, 8, 2), (10**6, 8, 8), (10**6, 1, 1)],
)
def test_auto_jobs_is_one_per_cpu_and_one_per_100_games(
    games: int, cpus: int, expected: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cpus)), raising=False)
    assert auto_jobs(games) == expected
