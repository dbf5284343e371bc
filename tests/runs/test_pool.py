"""kow's worker pool (kow.runs._pool): results in order, errors at their turn, workers that end."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kow import stopping
from kow.runs import _pool
from kow.runs._pool import ordered_map, streamed_map

ROOT = Path(__file__).resolve().parents[2]

needs_fork = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(),
    reason="these workers are forked: functions defined in a test are not importable anew",
)


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
def _bytes_or_not(item: int) -> bytes | str | None:
    """Return bytes for even items (sent unpickled), None or a str for odd ones."""
    if item % 2 == 0:
        return bytes([item]) * (item * 5000)  # up to ~100 kB: more than a pipe's buffer
    return None if item % 3 == 0 else str(item)


def test_ordered_map_hands_bytes_over_as_they_are_between_other_results() -> None:
    got = list(ordered_map(_bytes_or_not, range(21), jobs=2))
    assert got == [_bytes_or_not(item) for item in range(21)]
    assert got[3] is None and got[5] == "5" and got[20] == bytes([20]) * 100_000


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
    real = stopping.stops_blocked

    @contextmanager
    def lands_when_let_in() -> Iterator[None]:
        with real():
            yield
        raise KeyboardInterrupt  # as a Ctrl-C held back during the fork lands

    monkeypatch.setattr(_pool, "stops_blocked", lands_when_let_in)
    with pytest.raises(KeyboardInterrupt):
        list(ordered_map(_sleep_after_first, range(6), jobs=2))
    assert multiprocessing.active_children() == []  # the worker just started was killed


_WATCHED = """
import os, sys, time
from kow.runs._pool import ordered_map, streamed_map
from tests.runs.test_pool import _sleep_after_first
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


# ------------------------------------------ views: bytes handed over in memory shared with workers


shares_memory = pytest.mark.skipif(
    not _pool._forks(), reason="workers share memory where they fork (not on macOS, Windows)"
)


def _block(item: int) -> bytes:
    """Return bytes that tell the item, of a length that depends on it (simulate's blocks)."""
    return f"{item:06d}".encode() * (1000 + item * 37)


def _shm_names() -> set[str]:
    """Return the names in /dev/shm (POSIX shared memory and named semaphores), if any."""
    try:
        return set(os.listdir("/dev/shm"))
    except OSError:
        return set()


@shares_memory
def test_ordered_map_views_hand_bytes_over_in_shared_memory_in_order() -> None:
    before = _shm_names()
    got: list[bytes] = []
    views: Iterator[object] = ordered_map(_block, range(40), jobs=2, views=True)
    for value in views:
        assert isinstance(value, memoryview)  # the worker's slot, not a copy through its pipe
        time.sleep(0.002)  # the workers run ahead meanwhile: they must not touch this slot
        got.append(bytes(value))
    assert got == [_block(item) for item in range(40)]  # 40 results through 3 slots a worker
    assert multiprocessing.active_children() == []
    assert _shm_names() == before  # nothing named was made, so nothing is left behind


@shares_memory
def test_a_view_is_released_when_the_next_result_is_asked_for() -> None:
    it = ordered_map(_block, range(6), jobs=2, views=True)
    first = next(it)
    assert first == _block(0)
    assert next(it) == _block(1)
    with pytest.raises(ValueError, match="released"):
        bytes(first)  # its slot may hold another result now: using it fails loudly
    it.close()
    assert multiprocessing.active_children() == []


@shares_memory
def test_views_hand_a_result_too_big_for_a_slot_down_the_pipe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_pool, "SLOT_BYTES", len(_block(10)))
    got = list(ordered_map(_block, range(12), jobs=2, views=True))
    assert [type(value) for value in got[9:]] == [memoryview, memoryview, bytes]
    assert [bytes(value) for value in got[11:]] == [_block(11)]  # a bytes result stays valid


def test_views_fall_back_to_the_pipe_where_workers_are_spawned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_pool, "_forks", lambda: False)  # as on macOS and Windows
    got = list(ordered_map(_block, range(5), jobs=2, views=True))
    assert got == [_block(item) for item in range(5)]
    assert all(type(value) is bytes for value in got)


@needs_fork
def test_views_fall_back_to_the_pipe_where_the_system_gives_no_shared_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refused(*args: object) -> None:
        raise OSError(38, "Function not implemented")  # sem_open in some containers

    monkeypatch.setattr(_pool, "_Slots", refused)
    got = list(ordered_map(_block, range(5), jobs=2, views=True))
    assert got == [_block(item) for item in range(5)]
    assert all(type(value) is bytes for value in got)


@shares_memory
def test_views_end_as_the_pool_ends_when_a_worker_dies_or_the_reader_stops() -> None:
    before = _shm_names()
    with pytest.raises(RuntimeError, match="worker process 1 ended unexpectedly"):
        for value in ordered_map(_die_at_five, range(12), jobs=2, views=True):
            assert value < 5
    it = ordered_map(_block, range(100), jobs=2, views=True)
    assert next(it) == _block(0)
    time.sleep(0.2)  # the workers fill their slots and wait for them to be given back
    it.close()  # killed while waiting
    assert multiprocessing.active_children() == []
    assert _shm_names() == before


def test_ordered_map_with_one_job_or_one_item_stays_in_this_process() -> None:
    assert list(ordered_map(_fail_at_seven, [3], jobs=4)) == [3]
    assert list(ordered_map(_fail_at_seven, range(7), jobs=1)) == list(range(7))


# ------------------------------------------------------- streamed_map: a pool for the whole run


def _echo_big(item: str) -> str:
    """Return the item, twice: results and items both bigger than a pipe's buffer."""
    return item * 2


def test_streamed_map_keeps_order_with_items_and_results_bigger_than_a_pipe() -> None:
    # 300 kB items one way and 600 kB results the other: were the pipes read in turn
    # only, parent and worker would wait on each other for ever.
    items = [str(i % 10) * 300_000 for i in range(12)]
    assert list(streamed_map(_echo_big, items, jobs=2)) == [item * 2 for item in items]
    assert multiprocessing.active_children() == []


def test_streamed_map_reads_its_items_as_the_workers_need_them() -> None:
    read: list[int] = []

    def items() -> Iterator[int]:
        for item in range(100):
            read.append(item)
            yield item

    it = streamed_map(abs, items(), jobs=2, ahead=3)
    assert next(it) == 0
    assert len(read) == 6  # 3 per worker sent ahead, no more
    assert list(it) == list(range(1, 100)) and len(read) == 100
    assert multiprocessing.active_children() == []


def test_streamed_map_hands_bytes_over_and_raises_an_error_at_its_turn() -> None:
    got = list(streamed_map(_bytes_or_not, range(21), jobs=3))
    assert got == [_bytes_or_not(item) for item in range(21)]
    done: list[int] = []
    with pytest.raises(ValueError, match="seven"):
        for value in streamed_map(_fail_at_seven, iter(range(20)), jobs=3):
            done.append(value)
    assert done == [0, 1, 2, 3, 4, 5, 6]
    assert multiprocessing.active_children() == []


def test_streamed_map_raises_an_error_of_its_items_as_it_comes() -> None:
    def items() -> Iterator[int]:
        yield from range(5)
        raise OSError("the input went away")

    done: list[int] = []
    with pytest.raises(OSError, match="went away"):
        for value in streamed_map(abs, items(), jobs=2):
            done.append(value)
    assert done == [0] or done == []  # read ahead: the error comes before the results
    assert multiprocessing.active_children() == []


@needs_fork
def test_streamed_map_names_a_worker_that_died_and_kills_busy_ones_when_closed() -> None:
    got: list[int] = []
    with pytest.raises(RuntimeError, match=r"worker process 1 ended unexpectedly \(exit code -9\)"):
        for value in streamed_map(_die_at_five, iter(range(12)), jobs=2):
            got.append(value)
    assert got == [0, 1, 2, 3, 4]
    it = streamed_map(_sleep_after_first, iter(range(6)), jobs=2)
    assert next(it) == 0
    it.close()  # both workers are asleep in items 1 and 2: killed, not awaited
    assert multiprocessing.active_children() == []


def _pid(_: int) -> int:
    return os.getpid()


def test_streamed_map_with_one_job_stays_in_this_process() -> None:
    assert list(streamed_map(_pid, [1, 2], jobs=1)) == [os.getpid()] * 2
    assert os.getpid() not in streamed_map(_pid, [1, 2], jobs=2)
