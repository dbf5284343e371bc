"""Signal parallel runs at random moments and check that each one ends cleanly.

Run from a kow checkout: ``python benchmarks/signals.py`` (100 tries, a few minutes).
Each try starts ``python -m kow simulate --games 1000000 --jobs 2 -o FILE`` over a file
holding an earlier run, waits until its temporary file appears, sleeps a random 0 to 0.6
s, and sends SIGTERM, SIGINT (Ctrl-C) or SIGHUP (``--signals``). Two busy processes run
beside it all along, as on a loaded machine. A try passes when the run exits within 15
s with 128 + the signal, prints no traceback, leaves the earlier file as it was or
holds the finished games whole (as many as it says: issue 33), leaves no temporary file,
and no process of the run is left. The script stops at the first hang
and prints what the run's processes were doing (``PYTHONFAULTHANDLER``).

``--tree DIR`` runs the kow of another checkout, to compare versions. The result is a
count, not a time: it needs no quiet machine. See docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kow.entries import number_type  # noqa: E402  (this checkout's kow: the path above)
from kow.settings import SEED  # noqa: E402


def live_with(word: str) -> list[int]:
    """Return the ids of live (not zombie) processes whose command line holds ``word``."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if word in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def pipe_holders(proc: subprocess.Popen[bytes]) -> list[tuple[int, str]]:
    """Return (pid, command line) of each process holding the write end of proc's pipes."""
    assert proc.stdout is not None and proc.stderr is not None
    pipes = {f"pipe:[{os.fstat(f.fileno()).st_ino}]" for f in (proc.stdout, proc.stderr)}
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            links = {os.readlink(fd) for fd in (entry / "fd").iterdir()}
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if links & pipes and int(entry.name) != os.getpid():
            found.append((int(entry.name), cmdline.strip()))
    return found


def kept_fault(held: bytes, said: str) -> list[str]:
    """Return what is wrong with the file a stopped run left, given what it ``said``.

    A stopped ``simulate -o FILE`` leaves FILE as it was when no game had finished, or
    holds each finished game whole, one JSON line each, as many as it says on stderr
    ("games 0 to N-1 of the run are written whole"; issue 33).
    """
    if held == b"earlier run\n":
        return [] if "left as it was" in said else ["the earlier file kept, but not said"]
    found = re.search(r"games? (?:(\d+) to )?(\d+) of the run (?:are|is) written whole", said)
    if found is None:
        return ["the earlier file changed, and the run does not say it kept games"]
    count = int(found.group(2)) + 1 - int(found.group(1) or found.group(2))
    lines = held.split(b"\n")
    if lines[-1] != b"" or len(lines) - 1 != count:
        return [f"{len(lines) - 1} lines kept (last whole: {lines[-1] == b''}), {count} said"]
    try:
        if not all(json.loads(line)["result"] for line in lines[:-1]):
            return ["a kept game has no result"]
    except (ValueError, KeyError, TypeError) as fault:
        return [f"a kept line is not a whole game: {fault}"]
    return []


def one_try(tree: Path, rng: random.Random, signals: list[signal.Signals]) -> str:
    """Signal one run; return "" when it ended cleanly, else what went wrong."""
    folder = Path(tempfile.mkdtemp(prefix="kow-signals-"))
    target = folder / "games.jsonl"
    target.write_text("earlier run\n")
    env = dict(os.environ, PYTHONFAULTHANDLER="1")
    command = [sys.executable, "-m", "kow", "simulate", "--games", "1000000", "--jobs", "2"]
    proc = subprocess.Popen(
        [*command, "-o", str(target)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tree, env=env,
    )  # fmt: skip
    while not any(p.name.startswith(".kow-") for p in folder.iterdir()):
        time.sleep(0.002)
    time.sleep(rng.uniform(0, 0.6))
    sig = rng.choice(signals)
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        temp = [p for p in folder.iterdir() if p.name.startswith(".kow-")]
        size = temp[0].stat().st_size if temp else -1
        time.sleep(1)
        grown = temp[0].stat().st_size - size if temp and temp[0].exists() else 0
        states = subprocess.run(
            ["ps", "-o", "pid,ppid,stat,wchan:24,etime", "-p",
             ",".join(map(str, live_with(str(target)))) or str(proc.pid)],
            capture_output=True, text=True, check=False,
        ).stdout  # fmt: skip
        holders = pipe_holders(proc)
        states += f"holding the run's stdout or stderr: {holders}\n"
        for pid in live_with(str(target)) + [pid for pid, _ in holders]:
            # the fault handler prints every thread's stack
            if pid != proc.pid:
                os.kill(pid, signal.SIGABRT)
        time.sleep(0.5)
        proc.send_signal(signal.SIGABRT)
        _, err = proc.communicate(timeout=10)
        for pid in live_with(str(target)):
            os.kill(pid, signal.SIGKILL)
        text = err.decode()
        if len(text) > 6000:
            text = text[:3000] + "\n...\n" + text[-3000:]
        return (
            f"HANG after {signal.Signals(sig).name} (output grew {grown} bytes in 1 s)\n"
            f"{states}\n{text}"
        )
    faults = []
    if proc.returncode != 128 + sig:
        faults.append(f"exit {proc.returncode}, not {128 + sig}")
    if b"Traceback" in err:
        faults.append("traceback:\n" + err.decode()[-1500:])
    if sorted(p.name for p in folder.iterdir()) != ["games.jsonl"]:
        faults.append(f"files left: {sorted(p.name for p in folder.iterdir())}")
    else:
        faults.extend(kept_fault(target.read_bytes(), err.decode(errors="replace")))
    if live_with(str(target)):
        faults.append("workers outlived the run")
    return "; ".join(faults)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=number_type(1, None, "a number of tries"), default=100)
    parser.add_argument(
        "--seed", type=number_type(SEED.lo, SEED.hi, SEED.what), default=1,
        help="seed of the moments and signals",
    )  # fmt: skip
    parser.add_argument("--tree", type=Path, default=ROOT, help="kow checkout to run")
    parser.add_argument(
        "--signals", default="TERM,INT,HUP", help="signals to choose from (default: %(default)s)"
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    signals = [signal.Signals[f"SIG{name.strip().upper()}"] for name in args.signals.split(",")]
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    bad = 0
    try:
        for number in range(1, args.tries + 1):
            fault = one_try(args.tree, rng, signals)
            if fault:
                bad += 1
                print(f"try {number}: {fault}", flush=True)
                if fault.startswith("HANG"):
                    break
    finally:
        for process in busy:
            process.kill()
    print(f"{number} tries, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
