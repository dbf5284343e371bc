"""``kow simulate`` at scale: --jobs, --first-game shards, the progress bar and --quiet.

Every split of a run must give the bytes of the whole run in one process, and stdout must
hold nothing but JSON.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import STOPS, lines_written, signal_when, stopped

from kow.cli import main
from kow.settings import MAX_JOBS

ROOT = Path(__file__).resolve().parents[2]


def kow(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m kow ARGS`` in a new process (no threads, so workers fork cleanly)."""
    return subprocess.run(
        [sys.executable, "-m", "kow", *args], capture_output=True, text=True, cwd=ROOT, check=False
    )


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


RUN = ["simulate", "--seed", "5", "--players", "5", "--dogs-life", "once-per-game",
       "--eliminated-vote", "--bots", "random,heuristic,random,random,heuristic"]  # fmt: skip


def test_jobs_2_gives_the_bytes_of_jobs_1() -> None:
    args = ["simulate", "--seed", "1", "--games", "600", "--bots", "random"]
    one = kow(*args, "--jobs", "1")
    two = kow(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 0, two.stderr
    assert two.stdout == one.stdout
    assert two.stderr == one.stderr == ""
    assert len(one.stdout.splitlines()) == 600
    assert kow(*args).stdout == one.stdout  # no --jobs: one process per CPU here
    assert kow(*RUN, "--games", "150", "-j", "3").stdout == kow(*RUN, "--games", "150").stdout


def test_jobs_write_every_line_as_json_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    done = kow(*RUN, "--games", "90", "--jobs", "2", "-o", str(out))
    assert done.returncode == 0 and done.stdout == done.stderr == ""
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert [g["seed"] for g in games][:1] == [5] and len(games) == 90


def test_jobs_2_writes_a_file_and_a_gzip_file_with_the_bytes_of_jobs_1(tmp_path: Path) -> None:
    import gzip

    args = ["simulate", "--seed", "3", "--games", "700", "--bots", "heuristic"]
    one = kow(*args, "--jobs", "1").stdout.encode()
    assert one.count(b"\n") == 700
    for name in ("two.jsonl", "two.jsonl.gz"):  # blocks of 44 games, written from shared memory
        done = kow(*args, "--jobs", "2", "-o", str(tmp_path / name))
        assert done.returncode == 0 and done.stdout == done.stderr == "", done.stderr
    assert (tmp_path / "two.jsonl").read_bytes() == one
    assert gzip.decompress((tmp_path / "two.jsonl.gz").read_bytes()) == one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["two.jsonl", "two.jsonl.gz"]


class _Counted(io.FileIO):
    """A file that counts the writes it is given."""

    writes = 0

    def write(self, data: Any) -> int:
        self.writes += 1
        return super().write(data)


def test_the_binary_writer_writes_a_block_whole_to_a_file_and_in_pieces_to_a_pipe(
    tmp_path: Path,
) -> None:
    from kow.cli.commands.simulate import _PIECE, _binary_writer

    block = b"".join(b'{"seed": %d}\n' % n for n in range(10_000))  # 149 kB
    raw = _Counted(tmp_path / "f.jsonl", "w")
    with io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8") as out:
        _binary_writer(out)(memoryview(block))
        assert raw.writes == 1  # a regular file: the block in one write, from the view
    assert (tmp_path / "f.jsonl").read_bytes() == block
    reader, writer = os.pipe()
    got: list[bytes] = []
    drain = threading.Thread(target=lambda: got.extend(iter(lambda: os.read(reader, 65536), b"")))
    drain.start()
    piped = _Counted(writer, "w")
    with io.TextIOWrapper(io.BufferedWriter(piped), encoding="utf-8") as out:
        _binary_writer(out)(memoryview(block))
        assert piped.writes == len(block) // _PIECE  # a pipe: a buffer's worth at a time (18)
    drain.join()
    os.close(reader)
    assert b"".join(got) == block
    text = io.StringIO()  # no binary buffer: the text, decoded
    _binary_writer(text)(memoryview(block))
    assert text.getvalue() == block.decode()


def test_shards_concatenate_to_the_whole_run() -> None:
    code, whole, _ = run(*RUN, "--games", "25")
    assert code == 0
    shards = [run(*RUN, "--first-game", str(k), "--games", str(m))[1]
              for k, m in ((0, 4), (4, 1), (5, 20))]  # fmt: skip
    assert "".join(shards) == whole
    # A shard of pretty JSON too.
    assert run(*RUN, "--pretty", "--first-game", "3", "--games", "2")[1] == "".join(
        run(*RUN, "--pretty", "--first-game", str(k))[1] for k in (3, 4)
    )


def test_game_k_of_a_run_is_replayed_by_its_own_seed() -> None:
    _, text, _ = run(*RUN, "--first-game", "9")
    seed = json.loads(text)["seed"]
    rest = RUN[:1] + ["--seed", str(seed)] + RUN[3:]
    assert run(*rest)[1] == text


def test_first_game_needs_a_seed() -> None:
    code, out, err = run("simulate", "--first-game", "10", "--games", "2")
    assert code == 2 and out == ""
    assert "--first-game" in err and "--seed" in err


def test_jobs_must_be_positive() -> None:
    code, _, err = run("simulate", "--seed", "1", "--jobs", "0")
    assert code == 2 and "--jobs" in err


def test_jobs_at_most_four_per_cpu() -> None:
    too_many = str(MAX_JOBS + 1)
    code, out, err = run("simulate", "--seed", "1", "--jobs", too_many)
    assert (code, out) == (2, "")
    assert f"'{too_many}' is not a number of processes: allowed 1 to {MAX_JOBS}" in err


def test_no_progress_bar_without_a_terminal() -> None:
    done = kow("simulate", "--seed", "1", "--games", "40", "--bots", "random")
    assert done.returncode == 0 and done.stderr == ""


@pytest.fixture
def terminal():  # type: ignore[no-untyped-def]
    """Start ``python -m kow ARGS`` on a pseudo-terminal; every child is ended at teardown."""
    pexpect = pytest.importorskip("pexpect")
    children = []

    def spawn(*args: str):  # type: ignore[no-untyped-def]
        child = pexpect.spawn(
            sys.executable, ["-m", "kow", *args], cwd=str(ROOT), env=dict(os.environ),
            encoding="utf-8", timeout=60, dimensions=(24, 100),
        )  # fmt: skip
        children.append(child)
        return child

    yield pexpect, spawn
    for child in children:
        child.close(force=True)


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX terminal")
def test_progress_bar_on_a_terminal_and_quiet_silences_it(tmp_path: Path, terminal) -> None:  # type: ignore[no-untyped-def]
    # A run far longer than a second: the bar shows after about one, on the terminal
    # (stderr), while the games go to the file. Stopped once seen.
    pexpect, spawn = terminal
    args = ["simulate", "--seed", "1", "--games", "1000000", "--bots", "random"]
    child = spawn(*args, "-o", str(tmp_path / "a.jsonl"))
    child.expect(r"Simulating.*\d+/1000000")
    child.sendintr()
    child.expect(pexpect.EOF)
    child = spawn(*args, "--quiet", "-o", str(tmp_path / "b.jsonl"))
    child.expect(pexpect.TIMEOUT, timeout=3)
    assert child.before == ""
    child.sendintr()
    child.expect(pexpect.EOF)
    # With worker processes, Ctrl-C stops the whole run at once, exit code 130.
    child = spawn(*args, "--jobs", "2", "-o", str(tmp_path / "c.jsonl"))
    child.expect(r"Simulating.*\d+/1000000")
    child.sendintr()
    child.expect(pexpect.EOF, timeout=30)
    child.close()
    assert child.exitstatus == 130
    # Interrupted runs keep the games they finished, each whole, and no temporary file.
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert set(kept) <= {"a.jsonl", "b.jsonl", "c.jsonl"} and "a.jsonl" in kept
    for name in kept:
        text = (tmp_path / name).read_text()
        assert text.endswith("\n") and all(json.loads(line) for line in text.splitlines())


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not on PATH")
def test_readme_shards_example_gives_the_single_run(tmp_path: Path) -> None:
    # examples/shards.sh, the local case of the README's cluster recipes.
    out = tmp_path / "games.jsonl"
    done = subprocess.run(
        ["bash", str(ROOT / "examples" / "shards.sh"), "3", "47", "4", str(out),
         "--players", "5", "--bots", "random,heuristic,random,random,random"],
        env={**os.environ, "KOW": f"{sys.executable} -m kow"}, cwd=ROOT,
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == done.stderr == ""
    whole = kow("simulate", "--seed", "3", "--games", "47", "--players", "5",
                "--bots", "random,heuristic,random,random,random")  # fmt: skip
    assert out.read_text() == whole.stdout
    assert len(whole.stdout.splitlines()) == 47
    # A shard that fails (a bad option) fails the whole script, with kow's message.
    bad = subprocess.run(
        ["bash", str(ROOT / "examples" / "shards.sh"), "3", "10", "2", str(tmp_path / "x"),
         "--players", "9"],
        env={**os.environ, "KOW": f"{sys.executable} -m kow"}, cwd=ROOT,
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert bad.returncode == 2 and "--players" in bad.stderr
    assert not (tmp_path / "x").exists()


class _Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("stdout_tty", "stderr_tty", "output", "fits"),
    [
        (False, True, None, True),  # games piped on, bar on the terminal
        (True, True, "games.jsonl", True),  # games to a file
        (True, True, None, False),  # games on the screen: a bar would break the JSON
        (True, True, "-", False),
        (False, False, None, False),  # no terminal at all
    ],
)
def test_progress_bar_only_where_it_fits(
    monkeypatch: pytest.MonkeyPatch, stdout_tty: bool, stderr_tty: bool, output: str | None,
    fits: bool,
) -> None:  # fmt: skip
    from kow.cli._terminal import progress_fits

    monkeypatch.setattr(sys, "stdout", _Stream(stdout_tty))
    monkeypatch.setattr(sys, "stderr", _Stream(stderr_tty))
    assert progress_fits(output) is fits


# --------------------------------------------------------------------------- stopped runs

SHARD = ["simulate", "--seed", "8", "--bots", "random", "--first-game", "100", "--games", "4000"]
"""A run of cheap games, long enough that a signal lands mid-way (its games 100..4099)."""


@pytest.mark.parametrize(("signame", "code", "said"), STOPS)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_stopped_run_to_stdout_says_the_shard_that_completes_it(
    signame: str, code: int, said: str, jobs: str
) -> None:
    got, err, out = stopped([*SHARD, "--jobs", jobs], signame, lines_written(10))
    assert got == code, err
    found = re.fullmatch(
        rf"{said} after (\d+) of 4000 games: games 100 to (\d+) of the run are written whole"
        r" to stdout\. To play the rest, run the same command with --first-game (\d+)"
        r" --games (\d+): its output, after this one, makes the whole run\.\n",
        err,
    )
    assert found, err
    done, last, first, rest = map(int, found.groups())
    assert 10 <= done < 4000 and last == 99 + done and first == 100 + done
    assert rest == 4000 - done and out.count(b"\n") == done  # whole games only
    # The shard it names, after this output, is the whole run, byte for byte.
    tail = kow(*SHARD[:-4], "--first-game", str(first), "--games", str(rest))
    assert tail.returncode == 0, tail.stderr
    assert out + tail.stdout.encode() == kow(*SHARD).stdout.encode()


@pytest.mark.parametrize(("signame", "code", "said"), STOPS)
def test_a_stopped_run_to_a_file_keeps_its_finished_games_and_says_the_rest(
    tmp_path: Path, signame: str, code: int, said: str
) -> None:
    target = tmp_path / "games.jsonl"
    target.write_text("previous run\n")
    proc = subprocess.Popen([sys.executable, "-m", "kow", *SHARD, "-o", str(target)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)  # fmt: skip
    out, err = signal_when(
        proc,
        lambda: any(
            p.name.startswith(".kow-") and p.stat().st_size > 20000 for p in tmp_path.iterdir()
        ),  # fmt: skip
        signame,
    )
    assert (proc.returncode, out) == (code, b""), err
    found = re.fullmatch(
        rf"{said} after (\d+) of 4000 games: games 100 to (\d+) of the run are written whole"
        rf" to {re.escape(repr(str(target)))}\. To play the rest, run the same command with"
        r" --first-game (\d+) --games (\d+) and -o naming another file, not"
        rf" {re.escape(repr(str(target)))} \(that would replace these games\):"
        rf" {re.escape(repr(str(target)))} followed by the other file \(cat them, in that"
        r" order\) makes the whole run\.\n",
        err.decode(),
    )
    assert found, err
    done, last, first, rest = map(int, found.groups())
    assert 0 < done < 4000 and last == 99 + done and first == 100 + done
    kept = target.read_bytes()  # the finished games, whole, in place of the old file
    assert kept.count(b"\n") == done and kept.endswith(b"\n")
    assert [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]
    other = tmp_path / "rest.jsonl"  # as the note says: the rest to another file, then cat
    tail = kow(*SHARD[:-4], "--first-game", str(first), "--games", str(rest), "-o", str(other))
    assert tail.returncode == 0, tail.stderr
    assert target.read_bytes() == kept  # the games kept are still there
    assert kept + other.read_bytes() == kow(*SHARD).stdout.encode()


def test_the_note_of_a_run_stopped_with_o_sends_the_rest_to_another_file() -> None:
    # The same command again (-o the same FILE) would replace the games kept in FILE.
    from kow.cli.commands.simulate import _stopped_run

    said = _stopped_run("Interrupted", 22000, games=100000, first_game=0,
                        where="'/tmp/x/big.jsonl'", kept=True, replaced=True)  # fmt: skip
    assert said == (
        "Interrupted after 22000 of 100000 games: games 0 to 21999 of the run are written"
        " whole to '/tmp/x/big.jsonl'. To play the rest, run the same command with"
        " --first-game 22000 --games 78000 and -o naming another file, not"
        " '/tmp/x/big.jsonl' (that would replace these games): '/tmp/x/big.jsonl' followed"
        " by the other file (cat them, in that order) makes the whole run."
    )
    assert "its output, after this one" not in said
    # To stdout, or to a device or a pipe, the same command's output follows this one.
    said = _stopped_run("Interrupted", 22000, games=100000, first_game=0,
                        where="'/dev/stdout'", kept=True)  # fmt: skip
    assert said.endswith("--first-game 22000 --games 78000: its output, after this one,"
                         " makes the whole run.")  # fmt: skip


def test_the_note_of_a_stopped_run_counts_one_game_as_one() -> None:
    from kow.cli.commands.simulate import _stopped_run

    said = _stopped_run("Interrupted", 1, games=1, first_game=7, where="stdout", kept=True)
    assert said == "Interrupted after its one game: they are written whole to stdout."
    said = _stopped_run("Interrupted", 1, games=3, first_game=7, where="stdout", kept=True)
    assert said.startswith("Interrupted after 1 of 3 games: game 7 of the run is written whole")
    assert said.endswith(
        "--first-game 8 --games 2: its output, after this one, makes the whole run."
    )
    said = _stopped_run("Interrupted", 0, games=3, first_game=7, where="stdout", kept=True)
    assert said.startswith("Interrupted after 0 of 3 games: no game was written. To play the rest")
    assert "--first-game 7 --games 3:" in said


def test_the_note_of_a_stopped_run_gives_the_seed_it_drew() -> None:
    # Without --seed the run's seed was drawn: --first-game alone is refused without it,
    # and "the same command again" would draw another run.
    from kow.cli.commands.simulate import _stopped_run

    said = _stopped_run("Interrupted", 40, games=100, first_game=0, where="stdout", kept=True,
                        drawn_seed=12345)  # fmt: skip
    assert said.endswith(
        "run the same command with --seed 12345 --first-game 40 --games 60: its output,"
        " after this one, makes the whole run."
    )
    said = _stopped_run("Stopped by SIGTERM", 40, games=100, first_game=0, where="'g.jsonl'",
                        kept=False, drawn_seed=12345)  # fmt: skip
    assert said.endswith("run the same command again (--seed 12345 --first-game 0 --games 100).")


def test_a_stopped_run_without_a_seed_says_the_seed_it_drew(tmp_path: Path) -> None:
    code, err, out = stopped(["simulate", "--games", "1000000"], "SIGTERM", lines_written(50))
    assert code == 143
    seed = re.search(r"--seed (\d+) --first-game (\d+)", err)
    assert seed is not None, err
    first = int(seed.group(2))
    again = subprocess.run(
        [sys.executable, "-m", "kow", "simulate", "--seed", seed.group(1), "--games", str(first)],
        capture_output=True, check=True, cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    assert again.stdout == out[: len(again.stdout)] and out.count(b"\n") == first


def test_games_past_the_runs_last_game_are_a_usage_error_before_any_game(
    tmp_path: Path,
) -> None:
    # --first-game and --games are each in range, but together end past game 10**12.
    target = tmp_path / "g.jsonl"
    last = "1000000000000"
    code, out, err = run(
        "simulate", "--seed", "1", "--first-game", last, "--games", "2", "-o", str(target)
    )  # fmt: skip
    assert (code, out) == (2, "")
    assert (
        "Invalid value for '--games': 2 games from game 1000000000000 go past the run's last"
        " game (1000000000000): allowed 1 game from there"
    ) in err
    assert not target.exists()
    code, out, _ = run("simulate", "--seed", "1", "--first-game", "999999999999", "--games", "2")
    assert code == 0 and len(out.splitlines()) == 2  # the run's last two games
