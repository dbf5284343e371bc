"""The stop signals (kow.stopping): a command's stop, blocks it must not cut, compiled code.

Each test that sends a signal runs in a Python of its own, so that pytest's handlers and
its other tests are left alone. The commands' exit codes and messages under signals are
pinned by their own tests (test_simulate_cli, test_tournament, test_pool, test_cluster).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kow import stopping
from kow.stopping import STOP_SIGNALS, Stopped, stop_code, stop_said

ROOT = Path(__file__).resolve().parent.parent

posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def run(script: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` in a Python of its own and return what it did."""
    return subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, check=False, timeout=60)  # fmt: skip


@posix
def test_the_stop_signals_are_ctrl_c_sigterm_and_sighup() -> None:
    assert STOP_SIGNALS == (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@posix
def test_a_stop_names_itself_and_gives_the_shells_exit_code() -> None:
    term, hup = Stopped(signal.SIGTERM), Stopped(signal.SIGHUP)
    assert (term.code, term.name, hup.code, hup.name) == (143, "SIGTERM", 129, "SIGHUP")
    assert [stop_code(s) for s in (KeyboardInterrupt(), term, hup)] == [130, 143, 129]
    assert [stop_said(s) for s in (KeyboardInterrupt(), term)] == [
        "Interrupted",
        "Stopped by SIGTERM",
    ]
    assert not isinstance(term, Exception)  # no `except Exception` stops it


# ----------------------------------------------------------------------------- a command's stop

SIGNALLED = """
import signal, sys
from kow.stopping import Stopped, stop_signals
try:
    with stop_signals():
        signal.raise_signal(signal.SIG{name})
        print("not stopped")
except (KeyboardInterrupt, Stopped) as stop:
    print(type(stop).__name__, getattr(stop, "name", ""))
print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)
"""


@posix
@pytest.mark.parametrize(("name", "raised"), [("INT", "KeyboardInterrupt "),
                                              ("TERM", "Stopped SIGTERM"),
                                              ("HUP", "Stopped SIGHUP")])  # fmt: skip
def test_stop_signals_makes_each_stop_an_exception_and_restores_the_handlers(
    name: str, raised: str
) -> None:
    done = run(SIGNALLED.replace("{name}", name))
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{raised}\nTrue\n", "")


HELD = """
import signal, sys
from kow.stopping import Stopped, stop_signals, stops_held
done = []
try:
    with stop_signals():
        with stops_held():
            signal.raise_signal(signal.SIG{name})
            done.append("in the block, after the signal")
            signal.raise_signal(signal.SIGTERM)  # a second stop: ignored
            done.append("still in the block")
        done.append("after the block")
except (KeyboardInterrupt, Stopped) as stop:
    done.append(type(stop).__name__ + " " + getattr(stop, "name", ""))
print(done)
"""


@posix
@pytest.mark.parametrize(("name", "raised"), [("INT", "KeyboardInterrupt "),
                                              ("HUP", "Stopped SIGHUP")])  # fmt: skip
def test_a_stop_in_a_held_block_ends_the_command_at_the_blocks_end(name: str, raised: str) -> None:
    done = run(HELD.replace("{name}", name))
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"['in the block, after the signal', 'still in the block', '{raised}']\n"
    )


NESTED = """
import signal, threading
from kow.stopping import Stopped, stop_signals, stops_held
done = []
try:
    with stop_signals():
        with stops_held():
            with stops_held():  # the outer block's part
                signal.raise_signal(signal.SIGTERM)
            done.append("after the inner block")
            try:
                with stops_held():
                    raise ValueError("raised in the block")
            except ValueError as err:
                done.append(str(err))
        done.append("after the outer block")
except Stopped as stop:
    done.append(stop.name)
try:
    with stops_held():
        raise LookupError("no stop held")
except LookupError as err:
    done.append(str(err))
def elsewhere():
    with stops_held():
        done.append("a thread's block holds nothing")
thread = threading.Thread(target=elsewhere)
thread.start()
thread.join()
print(done)
"""


@posix
def test_a_held_block_within_another_is_its_part_and_lets_exceptions_out() -> None:
    done = run(NESTED)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "['after the inner block', 'raised in the block', 'SIGTERM', 'no stop held',"
        " \"a thread's block holds nothing\"]\n"
    )


IGNORED = """
import signal
from kow.stopping import signals_ignored
with signals_ignored():
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.raise_signal(number)
    print("all passed")
print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)
"""


@posix
def test_no_stop_ends_an_ignoring_block_and_the_handlers_come_back() -> None:
    done = run(IGNORED)
    assert (done.returncode, done.stdout, done.stderr) == (0, "all passed\nTrue\n", "")


# ----------------------------------------------------------------------------- worker processes


@posix
@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal mask")
def test_stops_blocked_blocks_the_three_and_then_unblocks_them() -> None:
    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    with stopping.stops_blocked():
        inside = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    assert set(STOP_SIGNALS) <= inside
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before


WORKER = """
import os, signal, time
from kow.stopping import stops_blocked, stops_left_to_parent
with stops_blocked():
    stops_left_to_parent()
    print(sorted(signal.Signals(n).name for n in signal.pthread_sigmask(signal.SIG_BLOCK, [])))
os.kill(os.getpid(), signal.SIGINT)
os.kill(os.getpid(), signal.SIGHUP)
print("Ctrl-C and SIGHUP ignored", flush=True)
os.kill(os.getpid(), signal.SIGTERM)
time.sleep(5)
print("not ended")
"""


@posix
@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal mask")
def test_a_worker_leaves_ctrl_c_and_sighup_to_its_parent_and_sigterm_ends_it() -> None:
    done = run(WORKER)
    assert done.returncode == -signal.SIGTERM
    assert done.stdout == "[]\nCtrl-C and SIGHUP ignored\n"


# ----------------------------------------------------------------------------- compiled code


@posix
def test_restore_handlers_leaves_alone_a_handler_set_outside_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    set_here: list[tuple[int, object]] = []
    monkeypatch.setattr(signal, "signal", lambda n, h: set_here.append((n, h)))
    stopping.restore_handlers([(signal.SIGTERM, None), (signal.SIGHUP, signal.SIG_IGN)])
    assert set_here == [(signal.SIGHUP, signal.SIG_IGN)]


DEFERRED = """
import signal, sys
from kow.stopping import stop_handlers, stops_deferred
signal.signal(signal.SIGTERM, lambda n, f: sys.exit(7))
signal.signal(signal.SIGHUP, signal.SIG_IGN)
try:
    with stops_deferred(stop_handlers()):
        signal.raise_signal(signal.SIGHUP)  # ignored: stays ignored
        signal.raise_signal(signal.SIGTERM)
        signal.raise_signal(signal.SIGINT)  # the second to land: noted, not sent
        print("the block ran on", flush=True)
except KeyboardInterrupt:
    print("Ctrl-C was sent")
"""


@posix
def test_a_deferred_stop_reaches_the_handlers_at_the_blocks_end_the_first_alone() -> None:
    done = run(DEFERRED)
    assert (done.returncode, done.stdout, done.stderr) == (7, "the block ran on\n", "")


def inside(script: str) -> subprocess.Popen[str]:
    """Start Python on ``script`` and return it once it has printed ``in`` (in its block)."""
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=ROOT, text=True,
    )  # fmt: skip
    assert child.stdout is not None and child.stdout.readline() == "in\n"
    return child


@posix
def test_a_stop_in_a_call_that_never_returns_ends_the_process_after_the_grace() -> None:
    # A call that never returns and never runs a Python handler stands for Ray's core
    # retrying an address for good: a lock acquired twice.
    script = (
        "import threading\n"
        "from kow.stopping import stop_ends_after, stop_handlers, stops_deferred\n"
        "with stops_deferred(stop_handlers()), stop_ends_after(1.0, 'it hangs'):\n"
        "    print('in', flush=True)\n"
        "    lock = threading.Lock(); lock.acquire(); lock.acquire()\n"
    )
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        child = inside(script)
        started = time.monotonic()
        child.send_signal(number)
        _, err = child.communicate(timeout=30)
        assert child.returncode == 128 + number
        assert 0.9 < time.monotonic() - started < 20
        assert err == f"kow: stopped ({signal.Signals(number).name}); it hangs\n"


@posix
def test_a_stop_in_a_call_that_returns_in_time_reaches_the_handlers() -> None:
    script = (
        "import signal, sys, time\n"
        "from kow.stopping import stop_ends_after, stop_handlers, stops_deferred\n"
        "signal.signal(signal.SIGTERM, lambda n, f: sys.exit(7))\n"
        "with stops_deferred(stop_handlers()), stop_ends_after(5.0, 'it hangs'):\n"
        "    print('in', flush=True)\n"
        "    time.sleep(1.5)\n"
        "    print('out', flush=True)\n"
    )
    child = inside(script)
    child.send_signal(signal.SIGTERM)
    out, err = child.communicate(timeout=30)
    assert (child.returncode, out, err) == (7, "out\n", "")
