"""Runs on a Ray cluster (``--cluster``, :mod:`kow.runs.executors`), tested on a real one.

The module starts one Ray runtime of 2 CPUs (this test process is its driver, as a
researcher's program would be) and runs kow against it, by the command line with
``RAY_ADDRESS`` (``--cluster ray``), by its address, through a Ray Client server
(``ray://``), and by the library. ``--cluster local`` starts a runtime of its own. Every
output is compared with ``--jobs 1``'s. All tests here run in one xdist worker
(``xdist_group``), so that this suite holds one such runtime at a time; a runtime that
something else runs on the machine is left alone and changes no result.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

try:
    import ray
except ImportError as missing:  # pip install '.[test]' (or '.[ray]') brings it
    pytest.skip(f"{missing.name} is not installed", allow_module_level=True)

from kow.game import game_seed
from kow.rules import Rules
from kow.runs import executors
from kow.runs.batch import Run, run_text
from kow.runs.executors import BlockError, ClusterError, TaskError, _ray_tasks, on_ray

pytestmark = [pytest.mark.xdist_group("ray"), pytest.mark.timeout(240)]

ROOT = Path(__file__).resolve().parents[2]
KOW = [sys.executable, "-m", "kow"]


@pytest.fixture(scope="module")
def gcs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start a Ray runtime of 2 CPUs with this process as its driver; yield its address.

    ``address="local"``: a runtime of its own even when the machine runs another (``ray
    start``, another job's), which ``ray.init()`` would join instead."""
    os.environ["RAY_AUTH_MODE"] = "disabled"  # this runtime's clients need no token
    context = ray.init(
        address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
        logging_level="ERROR", object_store_memory=200 * 2**20,  # type: ignore[arg-type]
    )  # fmt: skip
    try:
        yield context.address_info["gcs_address"]  # type: ignore[attr-defined]
    finally:
        ray.shutdown()


def env(gcs: str | None = None) -> dict[str, str]:
    """Return the environment of a kow run: ``RAY_ADDRESS`` set to ``gcs`` (or unset)."""
    out = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    out["RAY_AUTH_MODE"] = "disabled"
    if gcs is not None:
        out["RAY_ADDRESS"] = gcs
    return out


def kow(*args: str, gcs: str | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run ``kow ARGS`` (from the checkout); return it finished, output as bytes."""
    return subprocess.run(
        [*KOW, *args], capture_output=True, cwd=ROOT, env=env(gcs), check=False, timeout=200
    )


def same_as_one_job(*args: str, gcs: str | None, cluster: str) -> bytes:
    """Run ``kow ARGS`` with ``--jobs 1`` and with ``--cluster CLUSTER``; assert both exit 0
    with the same stdout, bytes for bytes, and that with ``-q`` the cluster's run says
    nothing on stderr (not a word of Ray's); return the stdout."""
    one = kow(*args, "--jobs", "1")
    assert one.returncode == 0, one.stderr
    many = kow(*args, "--cluster", cluster, gcs=gcs)
    assert many.returncode == 0, many.stderr
    assert many.stdout == one.stdout
    if "-q" in args:
        assert many.stderr == b""
    return many.stdout


def free_cpus_come_back() -> bool:
    """Return whether the runtime's 2 CPUs are all free again within 15 s (no task runs)."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if ray.available_resources().get("CPU", 0) == 2:  # type: ignore[no-untyped-call]
            return True
        time.sleep(0.2)
    return False


def block_pids() -> list[int]:
    """Return the processes of this runtime's Ray workers running a kow block now: the
    raylet's children titled ``ray::kow-block`` (another runtime's are left alone)."""
    raylet = ray._private.worker._global_node.all_processes["raylet"][0].process.pid  # type: ignore[attr-defined]
    listing = subprocess.run(["ps", "-eo", "pid=,ppid=,args="], capture_output=True, text=True)
    return [
        int(words[0])
        for words in (line.split() for line in listing.stdout.splitlines())
        if words[1] == str(raylet) and words[2:3] == ["ray::kow-block"]
    ]


# ----------------------------------------------------------------------------- same bytes


def test_simulate_on_the_cluster_is_the_bytes_of_one_process(gcs: str) -> None:
    # 700 games in blocks of about 44 (2 CPUs, 8 blocks each), with rules of their own.
    out = same_as_one_job(
        "simulate", "--seed", "5", "--games", "700", "--players", "3", "--dogs-life",
        "once-per-game", "--bots", "heuristic,random,heuristic", "-q", gcs=gcs, cluster="ray",
    )  # fmt: skip
    assert len(out.splitlines()) == 700
    assert json.loads(out.splitlines()[699])["rules"]["dogs_life"] == "once-per-game"


def test_simulate_shards_on_the_cluster_at_its_address(gcs: str, tmp_path: Path) -> None:
    # --first-game and -o, the cluster named by its address (no RAY_ADDRESS).
    one = kow("simulate", "--seed", "9", "--first-game", "120", "--games", "90", "--pretty")
    path = tmp_path / "shard.json"
    many = kow(
        "simulate", "--seed", "9", "--first-game", "120", "--games", "90", "--pretty",
        "--cluster", gcs, "-o", str(path),
    )  # fmt: skip
    assert many.returncode == 0, many.stderr
    assert many.stdout == b""
    assert path.read_bytes() == one.stdout


def test_simulate_through_a_ray_client_server(gcs: str) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "ray.util.client.server", f"--address={gcs}",
         "--host=127.0.0.1", f"--port={port}", "--mode=legacy"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env(),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None, "the Ray Client server ended (ray[client]?)"
                assert time.monotonic() < deadline, "the Ray Client server did not start"
                time.sleep(0.2)
        same_as_one_job(
            "simulate", "--seed", "2", "--games", "300", "-q", gcs=None,
            cluster=f"ray://127.0.0.1:{port}",
        )  # fmt: skip
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_simulate_on_a_local_runtime_of_its_own_leaves_no_ray_process() -> None:
    def raylets() -> set[int]:
        listing = subprocess.run(["ps", "-eo", "pid=,comm="], capture_output=True, text=True)
        return {int(ln.split()[0]) for ln in listing.stdout.splitlines() if "raylet" in ln}

    before = raylets()
    args = ("simulate", "--seed", "3", "--games", "400", "-q")
    one = kow(*args, "--jobs", "1")
    plain = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}  # a user's
    local = subprocess.run([*KOW, *args, "--cluster", "local"], capture_output=True, cwd=ROOT,
                           env=plain, check=False, timeout=200)  # fmt: skip
    assert (local.returncode, local.stderr) == (0, b"")  # not a word of Ray's with -q
    assert local.stdout == one.stdout
    time.sleep(1)
    assert raylets() <= before


def test_analyze_on_the_cluster_is_the_bytes_of_one_process(gcs: str, tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    games.write_bytes(kow("simulate", "--seed", "4", "--games", "2", "--players", "3").stdout)
    for form in ("--json", "--ascii"):
        out = same_as_one_job(
            "analyze", str(games), "--iterations", "12", "--seed", "8", form, "-q",
            gcs=gcs, cluster="ray",
        )  # fmt: skip
        assert out.count(b"\n") > 1
    first = json.loads(out.splitlines()[0]) if out.startswith(b"{") else None
    assert first is None  # the last form was the text


def test_verify_and_export_on_the_cluster_are_the_bytes_of_one_process(
    gcs: str, tmp_path: Path
) -> None:
    # 130 games, blocks of 25: several Ray tasks; a faulty 71st game among them.
    lines = kow("simulate", "--seed", "6", "--games", "130").stdout.splitlines()
    bad = json.loads(lines[70])
    bad["result"]["rounds_played"] += 1
    games = tmp_path / "games.jsonl"
    games.write_bytes(b"\n".join([*lines[:70], json.dumps(bad).encode(), *lines[71:]]) + b"\n")
    good = tmp_path / "good.jsonl"
    good.write_bytes(b"\n".join(lines) + b"\n")
    for args in (["verify", str(games)], ["export", str(games), "--table", "plays"]):
        one = kow(*args, "--jobs", "1")
        many = kow(*args, "--cluster", "ray", gcs=gcs)
        assert (many.returncode, many.stdout, many.stderr) == (
            one.returncode,
            one.stdout,
            one.stderr,
        )
        assert one.returncode == 1 and b"game 71 (seed " in one.stdout + one.stderr
    out = same_as_one_job("export", str(good), "--table", "tricks", "-q", gcs=gcs, cluster="ray")
    assert out.count(b"\n") > 130 * 10


def test_tournament_on_the_cluster_has_the_results_of_one_process(gcs: str) -> None:
    args = ("tournament", "--bots", "search,heuristic,random", "--players", "3", "--games",
            "60", "--seed", "6", "--search-iterations", "10", "--json", "--by-seat")  # fmt: skip

    def results(done: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
        assert done.returncode == 0, done.stderr
        result: dict[str, Any] = json.loads(done.stdout)
        for row in result["results"]:
            row.pop("mean_decision_ms")  # wall-clock time, not a result
            for seat in row["by_seat"]:
                seat.pop("mean_decision_ms")
        return result

    one = results(kow(*args, "--jobs", "1"))
    assert results(kow(*args, "--cluster", "ray", gcs=gcs)) == one
    assert one["games"] == 60


# ----------------------------------------------------------------------------- stops


def test_a_stopped_simulate_leaves_no_file_and_no_task_running(gcs: str, tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    run = subprocess.Popen(
        [*KOW, "simulate", "--bots", "search", "--search-iterations", "30", "--games", "400",
         "--seed", "1", "--cluster", "ray", "-q", "-o", str(path)],
        cwd=ROOT, env=env(gcs), stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not block_pids():  # both CPUs busy with kow's blocks
        assert time.monotonic() < deadline and run.poll() is None
        time.sleep(0.2)
    run.send_signal(signal.SIGTERM)
    _, stderr = run.communicate(timeout=60)
    assert run.returncode == 143, stderr
    assert b"Stopped by SIGTERM after 0 of 400 games" in stderr
    assert not path.exists()
    assert free_cpus_come_back()
    assert block_pids() == []


def test_an_interrupted_tournament_prints_its_partial_results(gcs: str) -> None:
    run = subprocess.Popen(
        [*KOW, "tournament", "--bots", "search,heuristic,heuristic,heuristic", "--games",
         "4000", "--seed", "1", "--search-iterations", "5", "--cluster", "ray", "--json"],
        cwd=ROOT, env=env(gcs), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not block_pids():
        assert time.monotonic() < deadline and run.poll() is None
        time.sleep(0.2)
    time.sleep(4)  # some games done (about 0.1 s each)
    run.send_signal(signal.SIGINT)
    stdout, stderr = run.communicate(timeout=60)
    assert run.returncode == 130, stderr
    result = json.loads(stdout)
    assert result["partial"] is True
    assert 0 < result["games"] < 4000
    assert f"Interrupted after {result['games']} of 4000 games".encode() in stderr
    assert free_cpus_come_back()


# ----------------------------------------------------------------------------- failures


def test_a_worker_killed_mid_block_is_retried_and_the_bytes_are_the_same(gcs: str) -> None:
    args = ("simulate", "--bots", "search", "--search-iterations", "10", "--games", "16",
            "--seed", "11", "-q")  # fmt: skip
    run = subprocess.Popen(
        [*KOW, *args, "--cluster", "ray"], cwd=ROOT, env=env(gcs),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not (pids := block_pids()):
        assert time.monotonic() < deadline and run.poll() is None
        time.sleep(0.1)
    os.kill(pids[0], signal.SIGKILL)
    stdout, stderr = run.communicate(timeout=200)
    assert run.returncode == 0, stderr
    one = kow(*args, "--jobs", "1")
    assert stdout == one.stdout


def test_a_block_whose_worker_dies_every_time_names_its_games_and_seed(gcs: str) -> None:
    run = Run(11, Rules(), ("search",) * 4, bot_options=(("search_iterations", 20),))
    texts = run_text(run, 0, 24, executor=on_ray(retries=0))  # blocks of 2 games
    done = []
    deadline = time.monotonic() + 60
    with pytest.raises(BlockError) as raised:
        done.append(next(texts))  # the tasks start
        while not (pids := block_pids()):
            assert time.monotonic() < deadline
            time.sleep(0.1)
        os.kill(pids[0], signal.SIGKILL)
        done.extend(texts)
    err = raised.value
    assert done[0][1] == 2, str(err)  # 24 games, 2 CPUs, 8 blocks each
    assert err.games.step == 1 and len(err.games) == 2 and err.games[0] % 2 == 0
    assert err.games[0] == 2 * len(done)  # the blocks before it came back whole
    assert err.seed == game_seed(11, err.games[0])
    start, end = err.games[0], err.games[-1]
    assert re.fullmatch(
        rf"games {start} to {end} \(game {start}'s seed {err.seed}\): its Ray task failed"
        r" once: \w+Error: .+",
        str(err),
    )
    assert free_cpus_come_back()


def _dies_once(item: int, *, marker: str) -> int:
    """Kill this Ray worker the first time block 2 runs (``marker`` not yet made)."""
    if item == 2 and not os.path.exists(marker):
        Path(marker).touch()
        os._exit(1)
    return item * item


def _fails_at_two(item: int) -> int:
    if item == 2:
        raise ValueError("block 2 is refused")
    return item


ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # type: ignore[no-untyped-call]  # the workers can't import it


def test_ray_retries_a_block_whose_worker_died(gcs: str, tmp_path: Path) -> None:
    import functools

    marker = tmp_path / "died"
    func = functools.partial(_dies_once, marker=str(marker))
    assert list(on_ray(retries=1).map(func, range(6))) == [0, 1, 4, 9, 16, 25]
    assert marker.exists()  # it did die once
    marker.unlink()
    with pytest.raises(TaskError) as raised:
        list(on_ray(retries=0, in_flight=2).map(func, range(6)))
    assert (raised.value.item, raised.value.tries) == (2, 1)


def test_an_error_of_the_block_is_raised_at_its_turn_not_retried(gcs: str) -> None:
    seen = []
    with pytest.raises(ValueError, match="block 2 is refused"):
        for value in on_ray(in_flight=3).map(_fails_at_two, range(5)):
            seen.append(value)
    assert seen == [0, 1]


def test_a_worker_with_another_kow_is_refused(gcs: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_ray_tasks, "kow_version", lambda: "0.0.0-other")
    with pytest.raises(ClusterError, match="has kow .*, this process kow 0.0.0-other"):
        list(on_ray().map(abs, [-1]))


def test_the_library_refuses_jobs_with_an_executor_and_bad_settings() -> None:
    run = Run(1, Rules(), ("random",) * 4)
    with pytest.raises(ValueError, match="give jobs or executor, not both"):
        run_text(run, 0, 10, jobs=2, executor=on_ray())
    with pytest.raises(TypeError, match="executor must be a kow.runs.executors.Executor"):
        run_text(run, 0, 10, executor="ray")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="0 is not a number of tasks: allowed 1 to 100000"):
        on_ray(in_flight=0)
    with pytest.raises(ValueError, match="True is not a number of retries: allowed 0 to 100"):
        on_ray(retries=True)
    with pytest.raises(ValueError, match="-1 is not a number of retries: allowed 0 to 100"):
        executors.RayTasks(retries=-1)
    assert on_ray(in_flight=4) == executors.RayTasks(in_flight=4, retries=3)


# ----------------------------------------------------------------------------- usage


def test_cluster_with_jobs_or_an_unknown_cluster_is_a_usage_error() -> None:
    both = kow("simulate", "--games", "3", "--cluster", "local", "--jobs", "2")
    assert both.returncode == 2
    assert b"give --jobs or --cluster, not both" in both.stderr
    unknown = kow("tournament", "--games", "3", "--cluster", "slurm")
    assert unknown.returncode == 2
    assert unknown.stderr.decode().splitlines()[-1] == (
        "Error: Invalid value for '--cluster': 'slurm' is not a cluster: allowed local, ray,"
        " ray://HOST:PORT, HOST:PORT (PORT 1 to 65535)"
    )
    # Before anything else is said or done: no note on the games, no Ray started.
    both = kow("tournament", "--games", "5", "--cluster", "local", "-j", "1")
    assert both.returncode == 2 and b"Note:" not in both.stderr
    assert b"give --jobs or --cluster, not both" in both.stderr
    port = kow("simulate", "--cluster", "ray://head:99999")
    assert port.returncode == 2 and b"(PORT 1 to 65535)" in port.stderr
    long = kow("simulate", "--cluster", "h" * 100_000 + ":1")
    assert long.returncode == 2 and len(long.stderr) < 400
    assert b"'" + b"h" * 60 + b"'... is not a cluster" in long.stderr


def test_an_output_that_cannot_be_written_is_refused_before_ray_starts(tmp_path: Path) -> None:
    started = time.monotonic()
    done = kow("simulate", "--games", "5", "--cluster", "local", "-o", str(tmp_path / "no" / "x"))
    assert done.returncode == 2 and b"Invalid value for '--output'" in done.stderr
    assert time.monotonic() - started < 2.5  # a local Ray runtime takes longer to start


def moved(host: str = "127.0.0.1") -> str:
    """Return what kow adds to a message on a head's address at ``host``: the address
    Ray connects to in its place (this machine's, for a local host), if another."""
    there = ray._private.services.resolve_ip_for_localhost(host)
    return f" (Ray connects to {there} for {host})" if there != host else ""


def refusal(address: str, why: str) -> str:
    """Return kow's stderr for a cluster ``address`` refused for ``why``."""
    return f"Error: no Ray cluster at '{address}': {why}\n"


NOT_RAY = "but not as Ray does (give the head node's GCS port, 6379 by default)"


def test_an_address_where_a_web_server_answers_is_refused_in_seconds() -> None:
    import http.server
    import threading

    server = http.server.HTTPServer(("0.0.0.0", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        address = f"127.0.0.1:{server.server_address[1]}"
        started = time.monotonic()
        done = kow("simulate", "--games", "5", "--cluster", address)
        assert done.returncode == 1
        assert done.stderr.decode() == refusal(
            address, f"something answers there{moved()}, {NOT_RAY}"
        )
        assert time.monotonic() - started < 30  # Ray alone would try for minutes
    finally:
        server.shutdown()


@pytest.mark.parametrize("bind", ["0.0.0.0", "127.0.0.1"])
def test_an_address_where_a_grpc_server_without_ray_answers_is_refused_in_seconds(
    bind: str,
) -> None:
    # A gRPC server with no Ray service. On 127.0.0.1 alone, Ray would connect to this
    # machine's address instead and retry it for good, deaf to Ctrl-C (new-user trial).
    from concurrent.futures import ThreadPoolExecutor

    import grpc

    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    port = server.add_insecure_port(f"{bind}:0")
    server.start()
    try:
        address = f"127.0.0.1:{port}"
        started = time.monotonic()
        done = kow("simulate", "--games", "5", "--cluster", address)
        assert done.returncode == 1 and done.stdout == b""
        if bind == "0.0.0.0" or not moved():
            assert done.stderr.decode() == refusal(
                address, f"something answers there{moved()}, {NOT_RAY}"
            )
        else:
            assert done.stderr.decode() == refusal(address, f"Connection refused{moved()}")
        assert time.monotonic() - started < 30
    finally:
        server.stop(None)


def test_a_head_named_by_the_wrong_form_is_refused_in_seconds(gcs: str) -> None:
    # The GCS's address as Ray Client's: refused as not Ray's, not after Ray's retries.
    started = time.monotonic()
    done = kow("simulate", "--games", "5", "--cluster", f"ray://{gcs}")
    assert done.returncode == 1
    assert done.stderr.decode() == refusal(
        f"ray://{gcs}",
        "something answers there, but not as Ray does (give ray://HOST:10001 for Ray Client)",
    )
    assert time.monotonic() - started < 30


def test_a_bad_ray_address_is_named_as_ray_address() -> None:
    for value in ("http://127.0.0.1:8265", "garbage", "ray://", "head:port"):
        done = subprocess.run(
            [*KOW, "simulate", "--games", "5", "--cluster", "ray"],
            capture_output=True, text=True, cwd=ROOT, check=False, timeout=200,
            env={**env(), "RAY_ADDRESS": value},
        )  # fmt: skip
        assert done.returncode == 1 and done.stdout == ""
        assert done.stderr == (
            f"Error: '{value}' (RAY_ADDRESS) is not a Ray address: give HOST:PORT (a"
            " head's GCS, 6379 by default) or ray://HOST:PORT (Ray Client, 10001 by"
            " default)\n"
        )


def test_an_address_where_nothing_answers_fails_at_once(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port that was free a moment ago: refused
        probe.bind(("0.0.0.0", 0))
        port = probe.getsockname()[1]
    games = tmp_path / "g.jsonl"
    games.write_bytes(kow("simulate", "--seed", "1").stdout)
    started = time.monotonic()
    for args in (("simulate", "--games", "5"), ("analyze", str(games))):
        done = kow(*args, "--cluster", f"127.0.0.1:{port}", "-o", str(tmp_path / "out"))
        assert done.returncode == 1
        assert done.stderr.decode() == refusal(f"127.0.0.1:{port}", f"Connection refused{moved()}")
    assert time.monotonic() - started < 60
    assert not (tmp_path / "out").exists()


def test_a_cluster_that_is_no_str_is_a_type_error() -> None:
    for value in (5, None, b"local"):
        with pytest.raises(TypeError, match="a cluster is a str, not"):
            executors.check_cluster(value)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="a cluster is a str, not"):
            with executors.ray_connection(value):  # type: ignore[arg-type]
                pass


def test_without_ray_installed_cluster_says_how_to_install_it(tmp_path: Path) -> None:
    script = (
        "import sys; sys.modules['ray'] = None\n"
        "from kow.cli import main\n"
        "main(['simulate', '--games', '2', '--cluster', 'local'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 1
    assert done.stderr == (
        "Error: Ray is not installed: pip install '.[ray]' in kow's folder (on every node of"
        " the cluster)\n"
    )


def test_kow_loads_no_ray_unless_a_cluster_is_asked_for() -> None:
    script = (
        "import sys, kow, kow.cli, kow.runs.batch, kow.runs.tournament, kow.runs.analysis\n"
        "from kow.runs import executors\n"
        "from click.testing import CliRunner\n"
        "for args in (['--help'], ['simulate', '--help'], ['simulate', '--games', '3']):\n"
        "    assert CliRunner().invoke(kow.cli.main, args).exit_code == 0\n"
        "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout == "[]\n"


# ----------------------------------------------------------------------------- recipes


def test_the_readme_cluster_recipe_writes_the_bytes_of_simulate(
    gcs: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("#### On a Ray cluster: `--cluster`", 1)[1].split("\n#### ", 1)[0]
    code = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(code) == 1 and "ray.init()  #" in code[0]
    script = code[0].replace("ray.init()  #", "pass  #")  # this process is connected
    script = script.replace("100_000", "300")
    monkeypatch.chdir(tmp_path)
    exec(compile(script, "README.md", "exec"), {})
    one = kow("simulate", "--seed", "1", "--games", "300", "--bots", "heuristic")
    assert (tmp_path / "games.jsonl").read_bytes() == one.stdout


def test_the_ray_example_prints_what_its_readme_shows(tmp_path: Path) -> None:
    readme = (ROOT / "examples" / "README.md").read_text()
    section = readme.split("## kow's games among your own Ray tasks", 1)[1].split("\n## ", 1)[0]
    ((command, shown),) = re.findall(r"```sh\n(.*?)\n```\n\n```text\n(.*?)```", section, re.S)
    words = command.split()
    assert words[:2] == ["python", "examples/ray_games.py"]
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "ray_games.py"), *words[2:]],
        capture_output=True, text=True, cwd=tmp_path, env=env(), check=False, timeout=200,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown
    one = kow(
        "simulate", "--seed", "1", "--games", "4000", "--bots", "heuristic,random,random,random"
    )
    assert (
        shown.splitlines()[-1]
        == f"sha256 of the logs: {hashlib.sha256(one.stdout).hexdigest()[:16]}"
    )
