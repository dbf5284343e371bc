"""Measure kow's speed and memory, and print the figures as tables.

Run from a kow checkout: ``python benchmarks/speed.py`` (the checkout's own kow, pure Python;
about ten minutes on a 2-core machine), ``--quick``
for a rough pass, ``--million`` to add the peak memory of a million-game run (a few
minutes more), ``--json FILE`` to save the figures too.

Every figure is for the whole process, start-up included, as a user sees it
(``python -m kow simulate ... > /dev/null``), except the engine core, which is timed
in-process the way the search bot uses it: copy a state at the start of a round and play
random legal cards to the end of the round. Each figure is the median of several runs.
See docs/performance.md for a recorded run and what the figures mean.

Against an older kow: ``python benchmarks/speed.py --against REF`` (REF a tag such as
``v0.2.0``, a branch or a commit) times that release and the working tree side by side,
to tell whether a change made kow faster or slower:

- REF is exported with ``git archive`` and ``pip install``-ed (with the Click version
  this Python has) into a virtual environment made by the Python running this script.
  The environment is kept in ``~/.cache/kow-bench/<commit>/<python>`` (or under
  ``$XDG_CACHE_HOME``) and reused by later runs; stderr says where it is. For the
  ``pettingzoo`` row, this Python's PettingZoo, Gymnasium and numpy releases are added
  to it (once); the working tree's Python must have them.
- It runs these rows, in this order (``--only ROW ...`` runs some of them), 4 players
  and the default rules throughout:

  - ``random``, ``heuristic``, ``search``: ``python -m kow simulate --bots KIND --seed 1
    --quiet --jobs 1 > /dev/null`` (one process), 10,000, 8,000 and 5 games;
  - ``verify``, ``export``, ``export-all``: ``python -m kow verify LOG``, ``python -m kow
    export --table plays LOG > /dev/null`` and ``python -m kow export --table all -o DIR
    LOG`` (the four tables compared file by file), where LOG is 2,000 games of random
    bots (``simulate --seed 2``) written once by the old kow, the same file for both kows;
  - ``pettingzoo``, ``apply``, ``decision``: a loop of ``benchmarks/speed_loops.py``, run
    with each kow's own Python (``python -c``) and timed inside it (imports and start-up
    not counted): PettingZoo's ``raw_env`` with random legal actions (800 games), the
    engine's ``new_game`` + ``State.apply`` with random legal actions (6,000 games), and
    each decision of a ``search`` bot with more than one legal action, against three
    ``heuristic`` bots (10 games; the median seconds of a decision, as
    ``benchmarks/decision_time.py`` times it).

  - ``tuned-random``, ``tuned-heuristic``: the CPU (user + system) of each kow's
    ``simulate`` row (10,000 and 8,000 games) over that of ``benchmarks/tuned_simulator.py``
    playing the same games (issue 35's yardstick, run by this Python), whose output must
    be the new kow's bytes but for ``"kow_version"``; printed as a third table.

  - ``export-share``: the CPU of each kow's ``export --table all -o DIR LOG`` over that
    of its ``simulate --bots random --seed 7 --jobs 1 > LOG`` which wrote LOG (10,000
    games; issue 35's target is 3 or less), each kow exporting its own log, the four
    tables of both kows compared file by file; printed as a fourth table.

  ``--quick`` plays fewer games (``AGAINST_GAMES_QUICK``) and runs each 3 times, not 5.
- Each whole-process row first runs each kow once to a file and compares the files:
  simulate's games must be the same bytes but for the ``"kow_version"`` field (or the
  same games with fields that the log gained since the old kow, such as 0.5.0's lack of
  ``result.termination``: the row says ``yes + fields`` and names them), and verify's
  and export's stdout the same bytes. Each loop prints a digest of every action chosen,
  and every run of both kows must print the same. Then each kow runs ``--repeat`` times
  (default 5, 3 with ``--quick``), interleaved (old, new, new, old, old, new, ...) so
  that other work on the machine slows both alike: the old kow from a folder outside the
  checkout, the working tree from the checkout's root.
- It prints two tables, the whole processes and the loops: the median seconds and rate
  (games/s, steps/s, or seconds per searched decision) of each kow and their ratio
  ("new/old speed": old seconds / new seconds, above 1 the working tree is faster), with
  the lowest and highest ratio of the runs taken side by side as a guide to the noise.
  ``--json FILE`` keeps every figure and run. It exits with status 1 if any row's
  outputs differ (after printing the tables).
- ``--tree REF2`` times REF2, installed the same way, instead of the working tree: it
  compares two commits, and ``--against v0.2.0 --tree v0.2.0`` shows the noise.
- A kow that fails or runs past ``--timeout`` seconds ends the script with the command
  and the end of its stderr. There is no engine-core or memory figure in this mode.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from typing import Any, NamedTuple, NoReturn, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kow.entries import EntryError, number_type, parse_decimal  # noqa: E402  (this checkout's kow)

T = TypeVar("T")

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The environment of the timed processes: with compiled modules cached, as in an install."""


def kow_run(args: list[str], output: str = os.devnull) -> tuple[float, float]:
    """Run ``python -m kow ARGS > output``; return (wall seconds, peak RSS in MiB)."""
    with open(output, "wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "kow", *args], stdout=out, cwd=ROOT, env=ENV)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"kow {' '.join(args)} failed with exit code {proc.returncode}")
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    return seconds, usage.ru_maxrss * scale / 2**20


def median_run(args: list[str], repeat: int, output: str = os.devnull) -> tuple[float, float]:
    """Return the median wall seconds and the highest peak RSS of ``repeat`` runs."""
    runs = [kow_run(args, output) for _ in range(repeat)]
    return statistics.median(s for s, _ in runs), max(m for _, m in runs)


def card_plays(path: str) -> int:
    """Return the card plays (knocks not counted) in a JSON Lines file of games."""
    plays = 0
    with open(path) as f:
        for line in f:
            game = json.loads(line)
            for rnd in game["rounds"]:
                for trick in rnd["tricks"]:
                    plays += sum(1 for p in trick["plays"] if "card" in p)
    return plays


def simulate_args(bots: str, players: int, games: int, seed: int = 1) -> list[str]:
    return ["simulate", "--bots", bots, "--players", str(players), "--games", str(games),
            "--seed", str(seed), "--quiet"]  # fmt: skip


def bench_simulate(
    bots: str, players: int, games: int, repeat: int, jobs: int | None = 1
) -> dict[str, Any]:
    """Time ``kow simulate`` and count its card plays; return the figures.

    ``jobs`` None runs without ``--jobs``, as a user types it (one process per CPU).
    """
    args = simulate_args(bots, players, games) + ([] if jobs is None else ["--jobs", str(jobs)])
    seconds, peak = median_run(args, repeat)  # timed with stdout to /dev/null
    with tempfile.TemporaryDirectory() as tmp:  # one more run, to count the plays
        path = os.path.join(tmp, "games.jsonl")
        kow_run(args, path)
        plays = card_plays(path)
    return {
        "bots": bots, "players": players, "games": games,
        "jobs": f"default ({os.cpu_count()} CPUs)" if jobs is None else str(jobs),
        "seconds": seconds, "games_per_s": games / seconds, "plays": plays,
        "plays_per_s": plays / seconds, "us_per_play": seconds / plays * 1e6, "peak_mib": peak,
    }  # fmt: skip


def bench_playout(players: int, seconds: float = 2.0) -> dict[str, Any]:
    """Time copy + play_round from round starts, as the search bot uses the engine.

    Every seat plays a uniformly random legal action (one draw each), through the
    engine's one trick loop (``State.play_round``).
    """
    from kow.cards import cards_in
    from kow.engine.view import TrickFacts
    from kow.events import KNOCK, Phase
    from kow.game import new_game
    from kow.rules import Rules

    rules = Rules(players=players)
    roots = []
    for seed in range(64):
        state = new_game(rules, seed)
        while state.phase is not Phase.PLAY:  # a trump choice or a vote first
            state.apply(state.legal_actions()[0])
        roots.append(state)
    cards = [sum(h.bit_count() for h in root.hands) for root in roots]
    rnd = random.Random(5).random

    def uniform(facts: TrickFacts) -> int:
        actions = cards_in(facts.legal) + ((KNOCK,) if facts.may_knock else ())
        return actions[int(rnd() * len(actions))]

    policies = [uniform] * players
    # A round's copy for search: round_copy() since issue 22, copy() before (--against).
    copy = [getattr(root, "round_copy", root.copy) for root in roots]
    best = 0.0
    for _ in range(3):
        plays = copies = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / 3:
            for copy_root, n in zip(copy, cards, strict=True):
                copy_root().play_round(policies)
                plays += n
            copies += len(roots)
        rate = plays / (time.perf_counter() - start)
        best = max(best, rate)
    return {"players": players, "plays_per_s": best, "us_per_play": 1e6 / best,
            "plays_per_copy": statistics.mean(cards)}  # fmt: skip


def bench_startup(args: list[str], repeat: int) -> float:
    """Return the median wall milliseconds of ``python -m kow ARGS`` (or ``python`` args)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, *args], stdout=subprocess.DEVNULL, cwd=ROOT, env=ENV, check=True
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "date": datetime.date.today().isoformat(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_implementation() + " " + platform.python_version(),
        "system": platform.platform(),
        "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }


def table(rows: list[dict[str, Any]], columns: list[tuple[str, str, str]]) -> str:
    """Return a Markdown table: ``columns`` are (heading, key, format)."""
    head = "| " + " | ".join(h for h, _, _ in columns) + " |"
    rule = "|" + "|".join("---:" if f else "---" for _, _, f in columns) + "|"
    lines = [head, rule]
    for row in rows:
        cells = [format(row[k], f) if f else str(row[k]) for _, k, f in columns]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# --- --against REF: an older kow and the working tree, side by side -------------------

ROWS = ("random", "heuristic", "search", "verify", "export", "export-all", "pettingzoo", "apply",
        "decision", "tuned-random", "tuned-heuristic", "export-share")  # fmt: skip
"""The rows of ``--against``, in the order they run and print; ``--only`` names some."""
SIMULATE_ROWS = ("random", "heuristic", "search")
"""``kow simulate`` with 4 bots of the row's kind."""
LOG_ROWS = {"verify": ["verify"], "export": ["export", "--table", "plays"],
            "export-all": ["export", "--table", "all", "-o", "DIR"]}  # fmt: skip
"""The commands that read the log, before its file name (``DIR``: a folder of each kow's,
for the four tables of ``export-all``, compared file by file)."""
EXPORT_TABLES = ("games", "rounds", "tricks", "plays")
"""The tables ``export --table all`` writes to its folder, one CSV file each."""
LOOP_ROWS = ("pettingzoo", "apply", "decision")
"""The loops of ``benchmarks/speed_loops.py``, timed inside the process."""
TUNED_ROWS = {"tuned-random": "random", "tuned-heuristic": "heuristic"}
"""The rows that weigh each kow's CPU against ``benchmarks/tuned_simulator.py``'s, by bots."""
TUNED = Path(__file__).resolve().with_name("tuned_simulator.py")
SHARE_SEED = 7
"""The ``--seed`` of the ``export-share`` row's games."""

AGAINST_GAMES = {"random": 10_000, "heuristic": 8_000, "search": 5, "log": 2_000,
                 "pettingzoo": 800, "apply": 6_000, "decision": 10,
                 "tuned-random": 10_000, "tuned-heuristic": 8_000,
                 "export-share": 10_000}  # fmt: skip
"""Games per run of each row (``"log"``: the games in the log that ``verify`` and
``export`` read): two to four seconds a run for kow 0.5.0 on the machine of
docs/performance.md, but nine for ``export --table plays``, which reads about 220 games a
second (a ``search`` game takes about a second; ``decision``: one ``search`` bot against
three ``heuristic`` bots). A full run takes about six minutes there."""
AGAINST_GAMES_QUICK = {"random": 4_000, "heuristic": 4_000, "search": 2, "log": 600,
                       "pettingzoo": 200, "apply": 1_500, "decision": 3,
                       "tuned-random": 4_000, "tuned-heuristic": 4_000,
                       "export-share": 2_000}  # fmt: skip
LOG_SEED = 2
"""The ``--seed`` of the log that ``verify`` and ``export`` read (the simulate rows use 1)."""
FRAMEWORK = ("pettingzoo", "gymnasium", "numpy")
"""What the ``pettingzoo`` row imports besides kow (kow's ``[pettingzoo]`` extra)."""
LOOPS = Path(__file__).resolve().with_name("speed_loops.py")
"""The loops' script, run as ``python -c TEXT`` so that each kow's Python imports its kow."""
CLEAN_ENV = {k: v for k, v in ENV.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
"""The environment of both kows in --against mode: nothing on the path but their own."""
VERSION_FIELD = re.compile(rb'"kow_version":"[^"]*"')
PROBE = """\
import importlib.metadata, json, sys
import kow
try:
    click = importlib.metadata.version("click")
except importlib.metadata.PackageNotFoundError:
    click = None
print(json.dumps({"kow": getattr(kow, "__version__", "?"), "file": kow.__file__,
                  "python": sys.version, "click": click}))
"""
"""Run by each kow's Python to say which kow and Click it imports."""


@dataclass
class Kow:
    """One kow to time: ``python -m kow`` run from ``cwd``."""

    label: str  # "v0.2.0 (8b000399)" or "working tree"
    python: str
    cwd: Path
    home: Path  # the folder its kow package must be imported from
    info: dict[str, Any] | None = None  # what PROBE printed

    def command(self, args: list[str]) -> list[str]:
        return [self.python, "-m", "kow", *args]


def say(message: str) -> None:
    print(f"speed.py: {message}", file=sys.stderr, flush=True)


def fail(what: str, cmd: list[str], cwd: Path, why: str, stderr: str) -> NoReturn:
    """End the script: name the command that failed and show the end of its stderr."""
    tail = "\n".join(stderr.rstrip().splitlines()[-20:]) or "(nothing on stderr)"
    raise SystemExit(
        f"speed.py: {what} failed ({why}):\n  {shlex.join(cmd)}\n  (in {cwd})\n"
        f"--- end of its stderr ---\n{tail}"
    )


def run_checked(
    what: str,
    cmd: list[str],
    cwd: Path,
    timeout: float,
    stdout: Any,
    *,
    shown: list[str] | None = None,
) -> float:
    """Run ``cmd`` with stdout to ``stdout``; return its wall seconds, or :func:`fail`.

    ``shown``: the command as a failure names it, when ``cmd`` is too long to read.
    """
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        try:
            proc = subprocess.run(
                cmd, stdout=stdout, stderr=err, cwd=cwd, env=CLEAN_ENV, timeout=timeout
            )
        except subprocess.TimeoutExpired:
            proc = None
        except OSError as e:
            fail(what, shown or cmd, cwd, str(e), "")
        seconds = time.perf_counter() - start
        if proc is None or proc.returncode != 0:
            err.seek(0)
            text = err.read().decode(errors="replace")
            why = f"still running after {timeout:g} s, killed" if proc is None else (
                f"exit code {proc.returncode}")  # fmt: skip
            fail(what, shown or cmd, cwd, why, text)
    return seconds


def time_kow(kow: Kow, args: list[str], timeout: float, output: str = os.devnull) -> float:
    """Return the wall seconds of ``python -m kow ARGS > output``, or end the script."""
    with open(output, "wb") as out:
        return run_checked(kow.label, kow.command(args), kow.cwd, timeout, out)


def probe(kow: Kow, timeout: float) -> dict[str, Any]:
    """Return which kow (version, file), Python and Click ``kow`` runs, or end the script."""
    with tempfile.TemporaryFile() as out:
        cmd = [kow.python, "-c", PROBE]
        run_checked(f"importing {kow.label}", cmd, kow.cwd, timeout, out)
        out.seek(0)
        info: dict[str, Any] = json.loads(out.read())
    if not Path(info["file"]).resolve().is_relative_to(kow.home.resolve()):
        raise SystemExit(
            f"speed.py: {kow.label} imports kow from {info['file']}, not from {kow.home}"
        )
    return info


def git(*args: str, error: str = "") -> str:
    """Return the stdout of a read-only git command in the checkout, or end the script."""
    proc = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"speed.py: {error or 'git ' + shlex.join(args) + ' failed'}\n"
                         f"{proc.stderr.strip()}".strip())  # fmt: skip
    return proc.stdout.strip()


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "kow-bench"


def install(ref: str, cwd: Path, timeout: float) -> Kow:
    """Return a kow for git ref ``ref``, installed in a cached virtual environment.

    The environment is ``cache_root()/<commit>/<python>``; a file ``kow-bench.json`` in
    it marks a finished install (one without it is made again). It is made anew if its
    Python no longer is the one running this script.
    """
    sha = git("rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}",
              error=f"{ref!r} is no commit of the repository at {ROOT}")  # fmt: skip
    label = f"{ref} ({sha[:10]})"
    impl = sys.implementation.name
    venv = cache_root() / sha / f"{impl}-{platform.python_version()}"
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    kow = Kow(label, str(python), cwd, venv)
    marker = venv / "kow-bench.json"
    if marker.exists():
        kow.info = probe(kow, timeout)
        if kow.info["python"] == sys.version:
            say(f"{label}: reusing the virtual environment {venv}")
            return kow
        say(f"{label}: {venv} was made by another Python; making it again")
    if venv.exists():
        shutil.rmtree(venv)
    say(f"{label}: installing into a new virtual environment {venv}")
    with tempfile.TemporaryDirectory(prefix="kow-bench-src-") as tmp:
        with subprocess.Popen(["git", "archive", "--format=tar", sha], cwd=ROOT,
                              stdout=subprocess.PIPE) as archive:  # fmt: skip
            assert archive.stdout is not None
            with tarfile.open(fileobj=archive.stdout, mode="r|") as tar:
                if hasattr(tarfile, "data_filter"):  # Python 3.12, and fixes of 3.10 and 3.11
                    tar.extractall(tmp, filter="data")
                else:
                    tar.extractall(tmp)  # the repository's own files: trusted
        if archive.returncode != 0:
            raise SystemExit(f"speed.py: git archive {sha} failed")
        run_checked("making a virtual environment", [sys.executable, "-m", "venv", str(venv)],
                    Path(tmp), timeout, subprocess.DEVNULL)  # fmt: skip
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", tmp]
        click = click_version()
        if click is None:
            run_checked(f"installing {label}", pip, Path(tmp), timeout, subprocess.DEVNULL)
        else:  # the same Click as the working tree's, so that both start alike
            run_checked(f"installing {label} with click=={click}", pip + [f"click=={click}"],
                        Path(tmp), timeout, subprocess.DEVNULL)  # fmt: skip
    kow.info = probe(kow, timeout)
    marker.write_text(json.dumps({"ref": ref, "commit": sha, **kow.info}, indent=2) + "\n")
    return kow


def click_version() -> str | None:
    """Return the version of Click installed for this Python, if any."""
    import importlib.metadata

    try:
        return importlib.metadata.version("click")
    except importlib.metadata.PackageNotFoundError:
        return None


def working_tree(timeout: float) -> Kow:
    """Return the checkout's kow, run from its root as the other modes do."""
    kow = Kow("working tree", sys.executable, ROOT, ROOT / "kow")
    kow.info = probe(kow, timeout)
    head = git("rev-parse", "HEAD")[:10]
    # --no-optional-locks: status must not write the index, which others are using.
    changed = git("--no-optional-locks", "status", "--porcelain", "--untracked-files=no")
    n = len(changed.splitlines())
    kow.label = f"working tree (HEAD {head}" + (
        f", {n} file{'s' if n > 1 else ''} changed)" if n else ")"
    )
    return kow


class Comparison(NamedTuple):
    """How two kows' outputs compare.

    ``first``: the first difference, said in words (None: the same). ``added``: the
    fields that the new kow's games have and the old kow's lack, every other byte being
    the same (a field added to the log since the old kow, as ``result.termination``), as
    paths (``rounds[].tricks[].won_by``) in the order first met.
    """

    first: str | None
    added: tuple[str, ...] = ()


def first_difference(old: Path, new: Path, unit: str = "game") -> Comparison:
    """Compare two outputs line by line, ignoring ``"kow_version"``.

    ``unit`` names a line in the answer. ``"game"``: one game of JSON a line, as simulate
    writes; two games that differ only by fields the new one adds (:func:`added_fields`)
    are the same game, and the comparison lists those fields. Other outputs must be the
    same bytes.
    """
    added: dict[str, None] = {}  # an ordered set
    with open(old, "rb") as a, open(new, "rb") as b:
        for n, (x, y) in enumerate(zip_longest(a, b), 1):
            if x is None or y is None:
                longer = "old" if y is None else "new"
                return Comparison(f"the {longer} kow wrote more {unit}s ({unit} {n} on)")
            if VERSION_FIELD.sub(b"", x, 1) == VERSION_FIELD.sub(b"", y, 1):
                continue
            fields = game_fields_added(x, y) if unit == "game" else None
            if fields is None:
                return Comparison(f"{unit} {n} differs")
            added.update(dict.fromkeys(fields))
    return Comparison(None, tuple(added))


def game_fields_added(old: bytes, new: bytes) -> list[str] | None:
    """Return the fields that game ``new`` adds to game ``old`` (JSON texts), or None when
    it is not ``old`` plus fields (``"kow_version"`` aside)."""
    try:
        a, b = json.loads(old), json.loads(new)
    except ValueError:
        return None
    if not (isinstance(a, dict) and isinstance(b, dict)):
        return None
    a.pop("kow_version", None)
    b.pop("kow_version", None)
    return added_fields(a, b)


def added_fields(old: Any, new: Any, path: str = "") -> list[str] | None:
    """Return the paths of the keys that JSON value ``new`` adds to ``old``, or None when
    ``new`` is not ``old`` plus keys.

    Plus keys: every key of ``old`` is in ``new``, in the same order and with a value
    that is the old one plus keys; lists have the same length; other values are equal
    and of the same type (``1`` is not ``true``). A path joins keys with ``.``, with
    ``[]`` for a list's items: ``rounds[].tricks[].won_by``. ``path`` is the prefix of
    ``new``'s keys (``""`` at the top, else ending in ``.``).

    >>> added_fields({"a": [{"b": 1}, {"b": 2}]}, {"a": [{"b": 1, "c": 0}, {"b": 2}], "d": 3})
    ['d', 'a[].c']
    >>> added_fields({"a": 1, "b": 2}, {"b": 2, "a": 1}) is None  # the order changed
    True
    """
    if isinstance(old, dict) and isinstance(new, dict):
        if [key for key in new if key in old] != list(old):
            return None
        found = [path + key for key in new if key not in old]
        for key, value in old.items():
            more = added_fields(value, new[key], f"{path}{key}.")
            if more is None:
                return None
            found += [p for p in more if p not in found]
        return found
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return None
        found = []
        items = f"{path[:-1]}[]." if path else "[]."
        for x, y in zip(old, new, strict=True):
            more = added_fields(x, y, items)
            if more is None:
                return None
            found += [p for p in more if p not in found]
        return found
    return [] if type(old) is type(new) and old == new else None


def interleaved(repeat: int, run: Callable[[str], T]) -> dict[str, list[T]]:
    """Return ``run(side)`` of ``repeat`` runs of each side, ``"old"`` and ``"new"``.

    The runs alternate which side goes first (old, new, new, old, old, new, ...), so that
    other work on the machine slows both alike and neither always leads.
    """
    runs: dict[str, list[T]] = {"old": [], "new": []}
    for i in range(repeat):
        for side in ("old", "new") if i % 2 == 0 else ("new", "old"):
            runs[side].append(run(side))
    return runs


def figures(runs: dict[str, list[float]], work: dict[str, int]) -> dict[str, Any]:
    """Return a row's figures from each side's seconds per run (lower is faster).

    ``work``: each side's work per run (games, steps or decisions). Keys: ``old_seconds``
    and ``new_seconds`` (the medians), ``old_rate`` and ``new_rate`` (work per median
    second), ``speed_ratio`` (old seconds / new seconds: above 1 the new kow is faster),
    ``pair_ratio_min`` and ``pair_ratio_max`` (of the runs taken side by side), and the
    runs themselves.
    """
    old_s, new_s = statistics.median(runs["old"]), statistics.median(runs["new"])
    pairs = [o / n for o, n in zip(runs["old"], runs["new"], strict=True)]
    return {
        "old_work": work["old"], "new_work": work["new"],
        "old_seconds": old_s, "new_seconds": new_s,
        "old_rate": work["old"] / old_s, "new_rate": work["new"] / new_s,
        "speed_ratio": old_s / new_s, "pair_ratio_min": min(pairs), "pair_ratio_max": max(pairs),
        "old_runs": runs["old"], "new_runs": runs["new"],
    }  # fmt: skip


@dataclass
class Sides:
    """The two kows of an --against run, and what every row shares."""

    old: Kow
    new: Kow
    repeat: int  # timed runs of each kow per row
    timeout: float  # seconds one command may take
    tmp: Path  # a folder outside the checkout, for the outputs compared

    def __getitem__(self, side: str) -> Kow:
        return self.old if side == "old" else self.new

    @property
    def log(self) -> Path:
        """The log that ``verify`` and ``export`` read, written by the old kow."""
        return self.tmp / "log.jsonl"


def bench_process(
    sides: Sides, row: str, args: list[str], *, games: int, unit: str = "game"
) -> dict[str, Any]:
    """Check that both kows write the same bytes with ``args``, then time both; return the row.

    ``python -m kow ARGS`` runs once for each kow with stdout to a file (which also
    compiles and caches what each imports), the two files are compared by
    :func:`first_difference` (``unit`` names a line: ``"game"`` lets the new kow's log
    add fields, which the row's ``added_fields`` lists), then each runs ``sides.repeat``
    times with stdout to /dev/null, interleaved. ``games``: the games it plays or reads.
    """
    say(f"{row}: kow {shlex.join(args)}: one run each to compare the output, "
        f"then {sides.repeat} x 2 timed")  # fmt: skip
    outputs = {side: sides.tmp / f"{side}.out" for side in ("old", "new")}
    for side, path in outputs.items():
        time_kow(sides[side], args, sides.timeout, str(path))
    compared = first_difference(outputs["old"], outputs["new"], unit)
    runs = interleaved(sides.repeat, lambda side: time_kow(sides[side], args, sides.timeout))
    return {
        "row": row, "games": games, "unit": "games/s",
        "what": "kow " + shlex.join("LOG" if a == str(sides.log) else a for a in args),
        **figures(runs, {"old": games, "new": games}),
        "same": compared.first is None, "difference": compared.first,
        "added_fields": list(compared.added),
    }  # fmt: skip


def bench_export_all(sides: Sides, row: str, *, games: int) -> dict[str, Any]:
    """Time ``kow export --table all -o DIR LOG`` of both kows, as :func:`bench_process`
    times a command, each kow writing to a folder of its own; the outputs compared are
    the four tables, one after the other (:data:`EXPORT_TABLES`)."""
    folders = {side: sides.tmp / f"{side}-tables" for side in ("old", "new")}

    def args(side: str) -> list[str]:
        return [a if a != "DIR" else str(folders[side]) for a in LOG_ROWS[row]] + [str(sides.log)]

    say(f"{row}: kow {shlex.join(args('new'))}: one run each to compare the tables, "
        f"then {sides.repeat} x 2 timed")  # fmt: skip
    outputs = {side: sides.tmp / f"{side}.out" for side in ("old", "new")}
    for side, path in outputs.items():
        time_kow(sides[side], args(side), sides.timeout)
        with open(path, "wb") as out:
            for table in EXPORT_TABLES:
                out.write((folders[side] / f"{table}.csv").read_bytes())
    compared = first_difference(outputs["old"], outputs["new"], "line")
    runs = interleaved(sides.repeat, lambda side: time_kow(sides[side], args(side), sides.timeout))
    return {
        "row": row, "games": games, "unit": "games/s",
        "what": "kow " + shlex.join("LOG" if a == str(sides.log) else a for a in LOG_ROWS[row]),
        **figures(runs, {"old": games, "new": games}),
        "same": compared.first is None, "difference": compared.first,
        "added_fields": list(compared.added),
    }  # fmt: skip


def run_loop(kow: Kow, args: list[str], timeout: float) -> dict[str, Any]:
    """Return what ``benchmarks/speed_loops.py ARGS`` printed, run by ``kow``'s Python."""
    with tempfile.TemporaryFile() as out:
        cmd = [kow.python, "-c", LOOPS.read_text(encoding="utf-8"), *args]
        shown = [kow.python, "-c", f"$(cat {LOOPS})", *args]
        run_checked(kow.label, cmd, kow.cwd, timeout, out, shown=shown)
        out.seek(0)
        found: dict[str, Any] = json.loads(out.read())
    return found


def loop_difference(results: dict[str, list[dict[str, Any]]]) -> str | None:
    """Say how the loops' runs chose different actions, or None when every run chose alike."""
    for side in ("old", "new"):
        if len({r["digest"] for r in results[side]}) > 1:
            return f"the {side} kow's runs chose different actions from one another"
    old, new = results["old"][0], results["new"][0]
    if old["digest"] != new["digest"]:
        return (f"the kows chose different actions ({old['work']:,} old, {new['work']:,} new; "
                f"SHA-256 {old['digest'][:12]}... and {new['digest'][:12]}...)")  # fmt: skip
    return None


def bench_loop(sides: Sides, row: str, games: int) -> dict[str, Any]:
    """Time a loop of ``benchmarks/speed_loops.py`` in each kow, interleaved; return the row.

    ``apply`` and ``pettingzoo``: the seconds of the whole loop, and steps per second;
    ``decision``: the median seconds of a searched decision (the rate: decisions per
    second of that median). Every run must choose the same actions (compared by digest).
    The row keeps what each run printed (``old_printed``, ``new_printed``).
    """
    what = LOOP_WHAT[row]
    say(f"{row}: {what}, {games:,} games, {sides.repeat} x 2 timed runs")
    results = interleaved(sides.repeat, lambda side: run_loop(sides[side], [row, str(games)],
                                                              sides.timeout))  # fmt: skip
    key = "median_decision" if row == "decision" else "seconds"
    for side, found in results.items():
        if any(r[key] is None for r in found):
            raise SystemExit(f"speed.py: {sides[side].label}: the search bot had no decision "
                             f"to time in {games} games")  # fmt: skip
    runs = {side: [r[key] for r in found] for side, found in results.items()}
    work = {side: 1 if row == "decision" else found[0]["work"] for side, found in results.items()}
    difference = loop_difference(results)
    return {
        "row": row, "what": what, "games": games,
        "unit": "s per decision" if row == "decision" else "steps/s",
        "old_steps": results["old"][0]["work"], "new_steps": results["new"][0]["work"],
        **figures(runs, work), "same": difference is None, "difference": difference,
        "old_printed": results["old"], "new_printed": results["new"],
    }  # fmt: skip


LOOP_WHAT = {
    "pettingzoo": "PettingZoo raw_env, random legal actions",
    "apply": "new_game + State.apply, random legal actions",
    "decision": "a search bot's decisions against 3 heuristic bots",
}
"""Each loop's row, as the table names it."""


def add_framework(kow: Kow, timeout: float) -> None:
    """Give ``kow``'s Python the PettingZoo, Gymnasium and numpy of this Python.

    An installed kow's environment gets this Python's releases with pip, once (they stay
    in the cached environment); the working tree runs with this Python, which must have
    them. Ends the script when this Python lacks one, or pip fails.
    """
    wanted = package_versions(sys.executable, ROOT, timeout)
    missing = [name for name, version in wanted.items() if version is None]
    if missing:
        raise SystemExit(
            f"speed.py: the pettingzoo row needs {', '.join(missing)} for this Python "
            f"({sys.executable}): pip install '.[pettingzoo]', or leave the row out with --only"
        )
    if kow.home.resolve() == (ROOT / "kow").resolve():
        return
    if package_versions(kow.python, kow.cwd, timeout) == wanted:
        return
    pins = [f"{name}=={version}" for name, version in wanted.items()]
    say(f"{kow.label}: installing {' '.join(pins)} into {kow.home}")
    pip = [kow.python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *pins]
    run_checked(f"installing {' '.join(pins)} for {kow.label}", pip, kow.cwd, timeout,
                subprocess.DEVNULL)  # fmt: skip


VERSIONS = """\
import importlib.metadata, json, sys
def version(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None
print(json.dumps({name: version(name) for name in sys.argv[1:]}))
"""
"""Run by a Python to say which release of each package named it has (None: none)."""


def package_versions(python: str, cwd: Path, timeout: float) -> dict[str, str | None]:
    """Return the release of each of :data:`FRAMEWORK` that ``python`` has (None: none)."""
    with tempfile.TemporaryFile() as out:
        run_checked(f"asking {python} for its packages", [python, "-c", VERSIONS, *FRAMEWORK],
                    cwd, timeout, out)  # fmt: skip
        out.seek(0)
        found: dict[str, str | None] = json.loads(out.read())
    return found


def rate(games_per_s: float) -> str:
    """Games per second, with decimals only when few (search bots)."""
    return format(games_per_s, ",.0f" if games_per_s >= 100 else ".2f")


def cpu_seconds(what: str, cmd: list[str], cwd: Path, timeout: float, output: str) -> float:
    """Run ``cmd > output`` and return the CPU seconds (user + system) it took."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(output, "wb") as out:
        run_checked(what, cmd, cwd, timeout, out)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def bench_tuned(sides: Sides, row: str, games: int) -> dict[str, Any]:
    """Weigh each kow's CPU against the tuned pure-Python simulator's; return the row.

    ``kow simulate --bots KIND --seed 1 --jobs 1`` (each kow) and
    ``benchmarks/tuned_simulator.py --bots KIND --seed 1`` (run by this Python) play the
    same ``games`` games: the simulator's output must be the new kow's bytes but for
    ``"kow_version"``. Then the three run ``sides.repeat`` times each, interleaved (the
    order turning), stdout to /dev/null, and the row gives each kow's median CPU seconds
    (user + system) over the simulator's (``old_share``, ``new_share``: issue 35's target
    is a new share of 0.5 or less), with the lowest and highest of the new kow's shares
    taken run by run.
    """
    bots = TUNED_ROWS[row]
    args = simulate_args(bots, 4, games) + ["--jobs", "1"]
    tuned = [sys.executable, str(TUNED), "--bots", bots, "--seed", "1", "--games", str(games)]
    say(f"{row}: kow {shlex.join(args)} against {TUNED.name}: one run to compare, "
        f"then {sides.repeat} x 3 timed")  # fmt: skip
    commands = {"old": sides.old.command(args), "new": sides.new.command(args), "tuned": tuned}
    cwds = {"old": sides.old.cwd, "new": sides.new.cwd, "tuned": sides.tmp}
    outputs = {side: sides.tmp / f"{side}.out" for side in ("new", "tuned")}
    for side, path in outputs.items():
        cpu_seconds(side, commands[side], cwds[side], sides.timeout, str(path))
    compared = first_difference(outputs["tuned"], outputs["new"])
    runs: dict[str, list[float]] = {"old": [], "new": [], "tuned": []}
    order = ["old", "new", "tuned"]
    for i in range(sides.repeat):
        for side in order[i % 3 :] + order[: i % 3]:
            runs[side].append(cpu_seconds(side, commands[side], cwds[side], sides.timeout,
                                          os.devnull))  # fmt: skip
    medians = {side: statistics.median(found) for side, found in runs.items()}
    shares = [n / t for n, t in zip(runs["new"], runs["tuned"], strict=True)]
    return {
        "row": row, "bots": bots, "games": games, "what": f"simulate --bots {bots} / tuned",
        "old_cpu": medians["old"], "new_cpu": medians["new"], "tuned_cpu": medians["tuned"],
        "old_share": medians["old"] / medians["tuned"],
        "new_share": medians["new"] / medians["tuned"],
        "share_min": min(shares), "share_max": max(shares), "runs": runs,
        "same": compared.first is None and not compared.added, "difference": compared.first,
        "added_fields": list(compared.added),
    }  # fmt: skip


def bench_export_share(sides: Sides, row: str, games: int) -> dict[str, Any]:
    """Weigh each kow's CPU of ``export --table all`` against its ``simulate`` of the same
    games; return the row.

    Each kow simulates ``games`` games of random bots (``--seed`` :data:`SHARE_SEED`,
    ``--jobs 1``) to a log of its own, then exports its log to a folder of its own; the
    two logs must be the same games (:func:`first_difference`) and the four tables the
    same bytes. Then each kow's simulate and export run ``sides.repeat`` times,
    interleaved (old, new, new, old, ...), and the row gives each kow's median CPU
    seconds (user + system) of both and their ratio (export over simulate), with the
    lowest and highest of the new kow's ratios taken run by run.
    """
    args = simulate_args("random", 4, games, SHARE_SEED) + ["--jobs", "1"]
    logs = {side: sides.tmp / f"{side}-share.jsonl" for side in ("old", "new")}
    folders = {side: sides.tmp / f"{side}-share-tables" for side in ("old", "new")}

    def export(side: str) -> list[str]:
        return sides[side].command(["export", "--table", "all", "-o", str(folders[side]),
                                    str(logs[side])])  # fmt: skip

    say(f"{row}: kow {shlex.join(args)} > LOG, then kow export --table all -o DIR LOG: "
        f"one run each to compare, then {sides.repeat} x 4 timed")  # fmt: skip
    for side in ("old", "new"):
        cpu_seconds(side, sides[side].command(args), sides[side].cwd, sides.timeout,
                    str(logs[side]))  # fmt: skip
    compared = first_difference(logs["old"], logs["new"])
    tables = {side: sides.tmp / f"{side}-share.csv" for side in ("old", "new")}
    for side in ("old", "new"):
        cpu_seconds(side, export(side), sides[side].cwd, sides.timeout, os.devnull)
        with open(tables[side], "wb") as out:
            for table in EXPORT_TABLES:  # the file column names each kow's log: LOG here
                text = (folders[side] / f"{table}.csv").read_bytes()
                out.write(without_version(text.replace(str(logs[side]).encode(), b"LOG")))
    tabled = first_difference(tables["old"], tables["new"], "line")
    runs: dict[str, list[float]] = {"old-simulate": [], "old-export": [], "new-simulate": [],
                                    "new-export": []}  # fmt: skip
    for i in range(sides.repeat):
        for side in ("old", "new") if i % 2 == 0 else ("new", "old"):
            kow = sides[side]
            runs[f"{side}-simulate"].append(
                cpu_seconds(side, kow.command(args), kow.cwd, sides.timeout, str(logs[side])))
            runs[f"{side}-export"].append(
                cpu_seconds(side, export(side), kow.cwd, sides.timeout, os.devnull))
    medians = {name: statistics.median(found) for name, found in runs.items()}
    ratios = [e / s for e, s in zip(runs["new-export"], runs["new-simulate"], strict=True)]
    return {
        "row": row, "games": games, "what": "export --table all / simulate, CPU",
        **{name.replace("-", "_") + "_cpu": value for name, value in medians.items()},
        "old_share": medians["old-export"] / medians["old-simulate"],
        "new_share": medians["new-export"] / medians["new-simulate"],
        "share_min": min(ratios), "share_max": max(ratios), "runs": runs,
        "same": compared.first is None and tabled.first is None,
        "difference": compared.first or tabled.first, "added_fields": list(compared.added),
    }  # fmt: skip


def without_version(table: bytes) -> bytes:
    """Return a CSV ``table`` of ``kow export`` without its ``kow_version`` column (the
    games table's; each kow writes its own version there), any other table as it is."""
    import csv
    import io

    rows = list(csv.reader(io.StringIO(table.decode("utf-8"), newline="")))
    if not rows or "kow_version" not in rows[0]:
        return table
    column = rows[0].index("kow_version")
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(
        row[:column] + row[column + 1 :] for row in rows
    )
    return out.getvalue().encode("utf-8")


def run_rows(sides: Sides, rows: list[str], plan: dict[str, int]) -> list[dict[str, Any]]:
    """Run ``rows`` (names of :data:`ROWS`, in that order) with the games of ``plan``."""
    done = []
    log = sides.log
    if any(row in LOG_ROWS for row in rows):
        args = simulate_args("random", 4, plan["log"], LOG_SEED) + ["--jobs", "1"]
        say(f"the log: kow {shlex.join(args)}, by the old kow, to {log}")
        time_kow(sides.old, args, sides.timeout, str(log))
    for row in rows:
        if row in SIMULATE_ROWS:
            args = simulate_args(row, 4, plan[row]) + ["--jobs", "1"]
            done.append({"bots": row, **bench_process(sides, row, args, games=plan[row])})
        elif row == "export-all":
            done.append(bench_export_all(sides, row, games=plan["log"]))
        elif row in LOG_ROWS:
            args = [*LOG_ROWS[row], str(log)]
            done.append(bench_process(sides, row, args, games=plan["log"], unit="line"))
        elif row in TUNED_ROWS:
            done.append(bench_tuned(sides, row, plan[row]))
        elif row == "export-share":
            done.append(bench_export_share(sides, row, plan[row]))
        else:
            done.append(bench_loop(sides, row, plan[row]))
    return done


def print_tables(rows: list[dict[str, Any]], repeat: int, log_games: int) -> None:
    """Print the rows of the whole processes and of the loops as two Markdown tables."""
    runs = f"median of {repeat} runs" if repeat > 1 else "one run"
    ratios = [("new/old speed", "speed_ratio", ".3f"), ("lowest pair", "pair_ratio_min", ".3f"),
              ("highest pair", "pair_ratio_max", ".3f")]  # fmt: skip
    processes = [r for r in rows
                 if r["row"] not in LOOP_ROWS and r["row"] not in TUNED_ROWS
                 and r["row"] != "export-share"]  # fmt: skip
    if processes:
        print(f"\n## Whole process (python -m kow ... > /dev/null), {runs}\n")
        notes = []
        if any(r["row"] in SIMULATE_ROWS for r in processes):
            notes.append("simulate: 4 players, --seed 1 --jobs 1.")
        if any(r["row"] in LOG_ROWS for r in processes):
            notes.append(f"LOG: {log_games:,} games of random bots (simulate --seed {LOG_SEED}), "
                         "written once by the old kow.")  # fmt: skip
        print(" ".join(notes) + "\n")
        shown = [{**r, "command": command_shown(r), "old": rate(r["old_rate"]),
                  "new": rate(r["new_rate"]), "same_output": same_output(r)}
                 for r in processes]  # fmt: skip
        print(table(shown, [("row", "row", ""), ("command", "command", ""),
                            ("games", "games", ",d"), ("old s", "old_seconds", ".2f"),
                            ("new s", "new_seconds", ".2f"), ("old games/s", "old", "s"),
                            ("new games/s", "new", "s"), *ratios,
                            ("same output", "same_output", "")]))  # fmt: skip
        added: dict[tuple[str, ...], list[str]] = {}
        for r in processes:
            if r["same"] and r["added_fields"]:
                added.setdefault(tuple(r["added_fields"]), []).append(r["row"])
        for fields, names in added.items():
            print(f"\n+ fields ({', '.join(names)}): the same games, but the new kow's log adds "
                  f"{', '.join(fields)}.")  # fmt: skip
    loops = [r for r in rows if r["row"] in LOOP_ROWS]
    if loops:
        print(f"\n## In one process: the loop alone, timed inside (not start-up), {runs}\n")
        print("4 players, default rules, seeded (benchmarks/speed_loops.py); a step is an "
              "action.\n")  # fmt: skip
        shown = [{**r, **loop_cells(r), "same_choices": "yes" if r["same"] else "NO"}
                 for r in loops]  # fmt: skip
        print(table(shown, [("row", "row", ""), ("loop", "what", ""), ("games", "games", ",d"),
                            ("work", "work", "s"), ("old", "old", "s"), ("new", "new", "s"),
                            ("unit", "unit", ""), *ratios,
                            ("same choices", "same_choices", "")]))  # fmt: skip
    tuned = [r for r in rows if r["row"] in TUNED_ROWS]
    if tuned:
        print(f"\n## CPU against benchmarks/tuned_simulator.py (user + system s), {runs}\n")
        print("simulate: 4 players, --seed 1 --jobs 1; the simulator plays the same games and "
              "writes the same bytes.\n")  # fmt: skip
        shown = [{**r, "same_output": "yes" if r["same"] else "NO"} for r in tuned]
        print(table(shown, [("row", "row", ""), ("games", "games", ",d"),
                            ("old kow s", "old_cpu", ".2f"), ("new kow s", "new_cpu", ".2f"),
                            ("tuned s", "tuned_cpu", ".2f"), ("old/tuned", "old_share", ".3f"),
                            ("new/tuned", "new_share", ".3f"), ("lowest", "share_min", ".3f"),
                            ("highest", "share_max", ".3f"),
                            ("same output", "same_output", "")]))  # fmt: skip
    shares = [r for r in rows if r["row"] == "export-share"]
    if shares:
        print(f"\n## CPU of export --table all over simulate's, the same games (user + system s), "
              f"{runs}\n")  # fmt: skip
        print(f"simulate --bots random --seed {SHARE_SEED} --jobs 1 > LOG, then export --table all "
              "-o DIR LOG; each kow its own log.\n")  # fmt: skip
        shown = [{**r, "same_output": "yes" if r["same"] else "NO"} for r in shares]
        print(table(shown, [("row", "row", ""), ("games", "games", ",d"),
                            ("old simulate s", "old_simulate_cpu", ".2f"),
                            ("old export s", "old_export_cpu", ".2f"),
                            ("new simulate s", "new_simulate_cpu", ".2f"),
                            ("new export s", "new_export_cpu", ".2f"),
                            ("old export/simulate", "old_share", ".2f"),
                            ("new export/simulate", "new_share", ".2f"),
                            ("lowest", "share_min", ".2f"), ("highest", "share_max", ".2f"),
                            ("same output", "same_output", "")]))  # fmt: skip
    print("\nnew/old speed above 1: the new kow is faster. 'Lowest/highest pair': the ratio of")
    print("the runs taken side by side, a guide to the noise.")


def same_output(row: dict[str, Any]) -> str:
    """Return a whole-process row's cell "same output": yes, yes + fields, or NO."""
    if not row["same"]:
        return "NO"
    return "yes + fields" if row["added_fields"] else "yes"


def command_shown(row: dict[str, Any]) -> str:
    """Return a whole-process row's command, short: without the options every row shares."""
    if row["row"] in SIMULATE_ROWS:
        return f"simulate --bots {row['row']}"
    return shlex.join([*LOG_ROWS[row["row"]], "LOG"])


def loop_cells(row: dict[str, Any]) -> dict[str, str]:
    """Return a loop row's cells: its work, and each side's figure."""
    if row["row"] == "decision":
        return {"work": f"{row['new_steps']:,} decisions", "old": f"{row['old_seconds']:.4f}",
                "new": f"{row['new_seconds']:.4f}"}  # fmt: skip
    return {"work": f"{row['new_steps']:,} steps", "old": f"{row['old_rate']:,.0f}",
            "new": f"{row['new_rate']:,.0f}"}  # fmt: skip


def main_against(opts: argparse.Namespace) -> None:
    """The --against mode: see the module's docstring."""
    repeat = opts.repeat or (3 if opts.quick else 5)
    plan = AGAINST_GAMES_QUICK if opts.quick else AGAINST_GAMES
    rows = [row for row in ROWS if row in (opts.only or ROWS)]
    out: dict[str, Any] = {"machine": machine()}
    with tempfile.TemporaryDirectory(prefix="kow-bench-") as name:
        tmp = Path(name)  # outside the checkout: the installed kows run from here
        old = install(opts.against, tmp, opts.timeout)
        new = install(opts.tree, tmp, opts.timeout) if opts.tree else working_tree(opts.timeout)
        if "pettingzoo" in rows:
            for kow in (old, new):
                add_framework(kow, opts.timeout)
        m = out["machine"]
        load = "" if m["load"] is None else f", load {m['load']:.2f} at the start"
        print(f"kow speed, {m['date']}: {m['cpu']}, {m['cores']} cores, {m['python']}{load}\n")
        for side, kow in (("old", old), ("new", new)):
            assert kow.info is not None
            print(f"- {side}: kow {kow.info['kow']}, {kow.label}, Click {kow.info['click']}",
                  flush=True)  # fmt: skip
        done = run_rows(Sides(old, new, repeat, opts.timeout, tmp), rows, plan)
    out["against"] = {
        "repeat": repeat,
        "old": {"label": old.label, **(old.info or {})},
        "new": {"label": new.label, **(new.info or {})},
        "log": {"games": plan["log"], "seed": LOG_SEED, "bots": "random", "players": 4},
        "rows": done,
    }
    print_tables(done, repeat, plan["log"])
    if opts.json:
        write_json(opts.json, out)
    differ = [r for r in done if not r["same"]]
    if differ:
        for r in differ:
            print(f"\nThe outputs differ on the {r['row']} row: {r['difference']} "
                  "(the kow_version field aside).")  # fmt: skip
        raise SystemExit(1)
    print("\nBoth kows gave the same output on every row: the same bytes but for the "
          "kow_version field\n(simulate, verify, export; simulate's games may gain fields), "
          "the same actions (the loops).")  # fmt: skip


MAX_TIMEOUT = 86_400
"""The longest ``--timeout`` allowed, in seconds: a day."""


def timeout_seconds(text: str) -> float:
    """Return the seconds of ``--timeout``: 1 to :data:`MAX_TIMEOUT`, in the digits 0-9 and
    one decimal point, as kow's own options read seconds.

    Raises :class:`argparse.ArgumentTypeError` naming the value and what is allowed, which
    argparse shows as a usage error (exit 2).
    """
    try:
        return parse_decimal(text, 1, MAX_TIMEOUT, what="a number of seconds")
    except EntryError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def check_output_file(parser: argparse.ArgumentParser, name: str) -> None:
    """Refuse, as a usage error (exit 2), a ``--json`` file that could not be written:
    a folder, or a file whose folder does not exist or is not writable. Checked at the
    start, so that a long run does not end without its figures."""
    path = Path(name)
    folder = path.parent
    if path.is_dir():
        why = "it is a folder"
    elif not folder.is_dir():
        why = f"its folder {str(folder)!r} does not exist"
    elif not os.access(folder, os.W_OK | os.X_OK):
        why = f"its folder {str(folder)!r} is not writable"
    else:
        return
    parser.error(f"argument --json: cannot write {name!r}: {why}")


def write_json(name: str, figures: dict[str, Any]) -> None:
    """Write ``figures`` as indented JSON to the file ``name``, whole or not at all: to a
    temporary file in the same folder, then renamed over ``name``."""
    path = Path(name)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(figures, indent=2) + "\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def parse_options(argv: list[str] | None = None) -> argparse.Namespace:
    """Return the command line's options (``argv``, else ``sys.argv[1:]``) once checked.

    A bad value or options that do not go together end the script as a usage error
    (exit 2) naming them.
    """
    parser = argparse.ArgumentParser(prog="speed.py", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and runs")
    parser.add_argument("--million", action="store_true", help="add a 1,000,000-game run")
    parser.add_argument(
        "--json", metavar="FILE", help="also write the figures to FILE (in a folder that exists)"
    )
    parser.add_argument(
        "--against",
        metavar="REF",
        help="time this git ref (tag, branch, commit) and the working tree",
    )
    parser.add_argument(
        "--tree", metavar="REF", help="with --against: time this ref instead of the working tree"
    )
    parser.add_argument(
        "--repeat",
        metavar="N",
        type=number_type(1, None, "a number of runs"),
        help="with --against: runs of each (default 5, 3 with --quick)",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        choices=ROWS,
        metavar="ROW",
        help=f"with --against: only these rows ({', '.join(ROWS)}; default all)",
    )
    parser.add_argument(
        "--timeout",
        metavar="SECONDS",
        type=timeout_seconds,
        default=600.0,
        help=f"with --against: longest time for one command, 1 to {MAX_TIMEOUT} (default 600)",
    )
    opts = parser.parse_args(argv)
    if opts.against is None:
        if opts.tree is not None or opts.repeat is not None or opts.only is not None:
            parser.error("--tree, --repeat and --only go with --against")
    elif opts.million:
        parser.error("--million does not go with --against")
    if opts.json is not None:
        check_output_file(parser, opts.json)
    return opts


def main() -> None:
    opts = parse_options()
    if opts.against is not None:
        try:
            main_against(opts)
        except KeyboardInterrupt:
            say("interrupted")
            raise SystemExit(130) from None
        return
    games = 4000 if opts.quick else 20000
    repeat = 1 if opts.quick else 3
    out: dict[str, Any] = {"machine": machine()}
    # Compile and cache every module once (a run with each bot), as installing does.
    kow_run(simulate_args("random,heuristic,random,heuristic", 4, 2) + ["--jobs", "2"])
    print(f"kow speed, {out['machine']['date']}: {out['machine']['cpu']}, "
          f"{out['machine']['cores']} cores, {out['machine']['python']}\n")  # fmt: skip

    cols = [("bots", "bots", ""), ("players", "players", "d"), ("jobs", "jobs", ""),
            ("games", "games", ",d"), ("games/s", "games_per_s", ",.0f"),
            ("card plays/s", "plays_per_s", ",.0f"), ("µs per play", "us_per_play", ".2f"),
            ("peak MiB", "peak_mib", ".1f")]  # fmt: skip
    main_rows = []
    for bots in ("random", "heuristic"):
        for jobs in (1, 2, None):
            main_rows.append(bench_simulate(bots, 4, games, repeat, jobs))
    out["simulate"] = main_rows
    print(f"## kow simulate, whole process (--games {games}, full log, stdout to /dev/null)\n")
    print(table(main_rows, cols))
    for bots in ("random", "heuristic"):
        one, two, _ = (r for r in main_rows if r["bots"] == bots)
        print(f"\n{bots}: 2 jobs are {one['seconds'] / two['seconds']:.2f}x as fast as 1", end="")
    print("\n")

    by_players = []
    for players in range(2, 8):
        for bots in ("random", "heuristic"):
            by_players.append(bench_simulate(bots, players, games // 4, repeat))
    out["players"] = by_players
    print(f"## Cost against work: 2 to 7 players (--games {games // 4})\n")
    print(table(by_players, cols[:2] + cols[4:7]))

    core = [bench_playout(p, 1.0 if opts.quick else 3.0) for p in range(2, 8)]
    out["playout"] = core
    print("\n## Engine core: copy a state at a round's start, play random cards to its end\n")
    print(table(core, [("players", "players", "d"), ("cards per copy", "plays_per_copy", ".0f"),
                       ("card plays/s", "plays_per_s", ",.0f"),
                       ("µs per play", "us_per_play", ".2f")]))  # fmt: skip

    memory = []
    sizes = [10_000, 100_000] + ([1_000_000] if opts.million else [])
    for n in sizes:
        seconds, peak = kow_run(simulate_args("random", 4, n) + ["--jobs", "1"])
        memory.append({"games": n, "seconds": seconds, "peak_mib": peak})
    out["memory"] = memory
    print("\n## Peak memory of kow simulate --bots random --jobs 1 (stdout to /dev/null)\n")
    print(table(memory, [("games", "games", ",d"), ("seconds", "seconds", ".1f"),
                         ("peak MiB", "peak_mib", ".1f")]))  # fmt: skip

    runs = 5 if opts.quick else 21
    startup = [
        {"command": "python -c pass", "ms": bench_startup(["-c", "pass"], runs)},
        {"command": "python -c 'import click'", "ms": bench_startup(["-c", "import click"], runs)},
        {"command": "kow --version", "ms": bench_startup(["-m", "kow", "--version"], runs)},
        {"command": "kow --help", "ms": bench_startup(["-m", "kow", "--help"], runs)},
    ]
    for row in startup:
        row["over_python"] = row["ms"] - startup[0]["ms"]  # type: ignore[operator]
    out["startup"] = startup
    print("\n## Start-up (median wall time; 'over python': minus python -c pass)\n")
    print(table(startup, [("command", "command", ""), ("ms", "ms", ".0f"),
                          ("over python", "over_python", ".0f")]))  # fmt: skip
    if opts.json:
        write_json(opts.json, out)


if __name__ == "__main__":
    main()
