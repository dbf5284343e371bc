"""Load an online server: many tables of remote bots at once, over loopback.

Run: ``python benchmarks/online.py [--tables T] [--games G] [--rate R] [--json FILE]``.

One server process (:class:`kow.online.server.Server`, clients may open tables, its logs
in a temporary folder, listening on 127.0.0.1 on a free port) and this process as the one
client process: ``T`` tables of 4 remote bots each, every bot its own WebSocket
connection (asyncio). At each table one bot opens it (``open``), three join with its code
(``hello``), and the opener starts each of its ``G`` games once all four sit. A bot answers
each ``turn`` at once with its first legal action, and sends it again a moment later if
the server refuses it as ``too-fast`` (``--rate`` sets the server's ``Limits.rate``; by
default the server's own). All tables play at once.

It reports:

- **games per second**: the games finished, over the wall time from the first start to
  the last game's end;
- **the round trip of a decision**: from sending an ``action`` to receiving the server's
  ``event`` of that decision (the play, knock, vote or trump), median and 99th
  percentile, in ms; an answer sent again after ``too-fast`` counts from its first send;
- **the server's peak memory**: ``VmHWM`` of its process (``/proc/PID/status``), MiB;
- **games lost**: games of the ``T * G`` that did not finish (a table whose games did
  not all end within the time allowed);
- **the logs**: ``kow verify`` on every table's log file, its summary line and exit code.

``--json FILE`` writes the figures (``-``: to stdout, and the table then goes to stderr).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kow.entries import number_type

SERVER = """\
import asyncio, signal, sys
from kow.online.server import Limits, Server

async def main(folder, per_address, tables, rate):
    limits = Limits(per_address=per_address, tables=tables, connections=per_address)
    if rate:
        limits = limits._replace(rate=rate)
    server = Server(open_tables=True, log_folder=folder, limits=limits)
    task = asyncio.ensure_future(
        server.serve("127.0.0.1", 0, ready=lambda a: print(a[0][1], flush=True))
    )
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        await task
    except asyncio.CancelledError:
        pass

asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])))
"""
"""The server process's program: its log folder, limits and rate come as arguments."""

IDLE = 60.0
"""Seconds a bot waits for a message before its table counts as lost."""


TURN = re.compile(
    r'^\{"type":"turn","turn":(\d+),"view":\{"seat":\d+,"phase":"\w+","legal":\["([^"]+)"'
)
"""The start of a ``turn`` as the server writes it (compact JSON, keys in its order): a
bot reads its number and first legal action without parsing the whole view."""


class Bot:
    """One remote bot: a connection, its seat, and the round trips it measured (s)."""

    def __init__(self, port: int, first: dict[str, Any], games: int) -> None:
        self.url, self.first, self.games = f"ws://127.0.0.1:{port}/", first, games
        self.trips: list[float] = []
        self.finished = 0
        self.too_fast = 0
        self.errors: list[str] = []
        self.welcome: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.started: float | None = None
        self.ended: float | None = None
        self.heard = time.monotonic()
        self.ws: Any = None

    async def run(self, code: asyncio.Future[str] | None = None) -> None:
        """Sit (opening the table, or joining it by ``code``), play ``games`` games, leave."""
        from websockets.asyncio.client import connect

        first = self.first
        if code is not None:
            first = {**first, "table": await code}
        async with connect(self.url, open_timeout=IDLE, max_size=1 << 22, compression=None) as ws:
            self.ws = ws
            await ws.send(json.dumps(first))
            welcome = json.loads(await asyncio.wait_for(ws.recv(), IDLE))
            self.welcome.set_result(welcome)
            if welcome["type"] != "welcome":
                self.errors.append(str(welcome))
                return
            seat, opener = welcome["seat"], welcome["host"]
            answer: str | None = None
            sent, waiting, starts = 0.0, False, 0
            async for text in ws:
                self.heard = time.monotonic()
                turn = TURN.match(text)  # type: ignore[arg-type]
                if turn is not None:
                    answer = f'{{"type":"action","turn":{turn[1]},"action":"{turn[2]}"}}'
                    sent, waiting = time.perf_counter(), True
                    await ws.send(answer)
                    continue
                if text.startswith(('{"type":"waiting"', '{"type":"event"')) and not waiting:  # type: ignore[arg-type]
                    continue
                message = json.loads(text)
                kind = message["type"]
                if kind == "event":
                    event = message["event"]
                    who = event.get("chosen_by") if event["kind"] == "trump" else event.get("seat")
                    if event["kind"] in ("play", "knock", "vote", "trump") and who == seat:
                        self.trips.append(time.perf_counter() - sent)
                        waiting = False
                elif kind == "turn":  # not in the expected form: read it whole
                    answer = json.dumps({"type": "action", "turn": message["turn"],
                                         "action": message["view"]["legal"][0]})  # fmt: skip
                    sent, waiting = time.perf_counter(), True
                    await ws.send(answer)
                elif kind == "error":
                    if message["code"] == "too-fast" and answer is not None:
                        self.too_fast += 1
                        await asyncio.sleep(0.05)
                        await ws.send(answer)
                    else:
                        self.errors.append(f"{message['code']}: {message['message']}")
                elif kind == "seats" and opener and not message["playing"]:
                    everyone = all(s["status"] == "here" for s in message["seats"])
                    if everyone and message["games"] == self.finished == starts:
                        if self.started is None:
                            self.started = time.perf_counter()
                        starts += 1
                        await ws.send(json.dumps({"type": "start"}))
                elif kind == "game_over":
                    self.finished += message["finished"] is True
                    self.ended = time.perf_counter()
                    if self.finished == self.games:
                        break
                elif kind == "closed":
                    break
            await ws.send(json.dumps({"type": "leave"}))


async def watch(bots: list[Bot], done: asyncio.Event) -> None:
    """Close the connection of any bot that has heard nothing for :data:`IDLE` seconds
    (its table counts as lost), until ``done``."""
    while not done.is_set():
        await asyncio.sleep(1)
        now = time.monotonic()
        for bot in bots:
            if bot.ws is not None and bot.finished < bot.games and now - bot.heard > IDLE:
                bot.errors.append(f"nothing heard for {IDLE:g} s")
                await bot.ws.close()


async def table(port: int, games: int, index: int, bots: list[Bot]) -> list[Bot]:
    """Open one table of 4 remote bots and play ``games`` games at it; return its bots
    (each also added to ``bots``, for the watch)."""
    hello = {"type": "hello", "protocol": 1, "kind": "agent"}
    opener = Bot(port, {"type": "open", "protocol": 1, "name": f"T{index}-0", "kind": "agent",
                        "rules": {"players": 4}, "bots": "random"}, games)  # fmt: skip
    loop = asyncio.get_running_loop()
    code: asyncio.Future[str] = loop.create_future()
    others = [Bot(port, {**hello, "name": f"T{index}-{s}"}, games) for s in (1, 2, 3)]
    bots += [opener, *others]
    tasks = [asyncio.ensure_future(opener.run())]
    welcome = await opener.welcome
    if welcome["type"] != "welcome":
        code.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return [opener]
    code.set_result(welcome["table"])
    tasks += [asyncio.ensure_future(b.run(code)) for b in others]
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for bot, result in zip([opener, *others], results, strict=True):
        if isinstance(result, BaseException):
            bot.errors.append(f"{type(result).__name__}: {result}")
    return [opener, *others]


async def load(port: int, tables: int, games: int) -> tuple[list[list[Bot]], float]:
    """Play every table at once; return each table's bots and the wall seconds."""
    started = time.perf_counter()
    bots: list[Bot] = []
    done = asyncio.Event()
    watcher = asyncio.ensure_future(watch(bots, done))
    played = await asyncio.gather(*(table(port, games, i, bots) for i in range(tables)))
    done.set()
    await watcher
    return list(played), time.perf_counter() - started


def peak_memory(pid: int) -> float:
    """Return process ``pid``'s peak resident memory (VmHWM), MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """Return process ``pid``'s CPU seconds so far (user and system, /proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    """Return the ``share`` (0 to 1) percentile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def measure(tables: int, games: int, rate: float) -> dict[str, Any]:
    """Run the server and the tables; return the figures."""
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="kow-online-") as folder:
        connections = 4 * tables + 8
        server = subprocess.Popen(
            [sys.executable, "-c", SERVER, folder, str(connections), str(tables + 1), str(rate)],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            if not line.strip().isdigit():
                sys.exit("the server did not start (its error is above)")
            port = int(line)
            server_cpu = cpu_seconds(server.pid)
            client_cpu = time.process_time()
            played, wall = asyncio.run(load(port, tables, games))
            memory = peak_memory(server.pid)
            server_cpu = cpu_seconds(server.pid) - server_cpu
            client_cpu = time.process_time() - client_cpu
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
        logs = sorted(str(p) for p in Path(folder).glob("*.jsonl"))
        verified = subprocess.run(
            [sys.executable, "-m", "kow", "verify", *logs],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
    bots = [b for t in played for b in t]
    trips = [t for b in bots for t in b.trips]
    finished = sum(t[0].finished for t in played)
    starts = [t[0].started for t in played if t[0].started is not None]
    ends = [t[0].ended for t in played if t[0].ended is not None]
    span = max(ends) - min(starts) if starts and ends else wall
    errors = sorted({e for b in bots for e in b.errors})
    return {
        "tables": tables,
        "games_per_table": games,
        "bots": len(bots),
        "rate_limit": rate or None,
        "games_finished": finished,
        "games_lost": tables * games - finished,
        "tables_lost": sum(t[0].finished < games for t in played),
        "seconds": round(span, 3),
        "games_per_second": round(finished / span, 2) if span else None,
        "decisions": len(trips),
        "round_trip_ms": {
            "median": round(1000 * statistics.median(trips), 2) if trips else None,
            "p99": round(1000 * percentile(trips, 0.99), 2) if trips else None,
            "max": round(1000 * max(trips), 2) if trips else None,
        },
        "too_fast": sum(b.too_fast for b in bots),
        "server_peak_mib": round(memory, 1),
        "cpu_seconds": {
            "server": round(server_cpu, 2),
            "client": round(client_cpu, 2),
            "wall": round(wall, 2),
        },
        "logs": len(logs),
        "verify": {"exit": verified.returncode, "summary": verified.stdout.splitlines()[:1]},
        "errors": errors[:10],
        "cpus": os.cpu_count(),
        "load_at_start": round(load_before, 2),
    }


def show(f: dict[str, Any]) -> str:
    """Return the figures as lines for people."""
    trip = f["round_trip_ms"]
    verify = f["verify"]["summary"][0] if f["verify"]["summary"] else "(nothing)"
    lines = [
        f"{f['tables']} tables of 4 remote bots, {f['games_per_table']} games each,"
        f" on {f['cpus']} CPUs (load {f['load_at_start']} at the start)",
        f"games finished     {f['games_finished']} ({f['games_lost']} lost)",
        f"games per second   {f['games_per_second']}  ({f['seconds']} s)",
        f"round trip (ms)    median {trip['median']}, p99 {trip['p99']}, max {trip['max']}"
        f"  ({f['decisions']} decisions)",
        f"too-fast refusals  {f['too_fast']}",
        f"server peak memory {f['server_peak_mib']} MiB",
        f"CPU seconds        server {f['cpu_seconds']['server']},"
        f" client {f['cpu_seconds']['client']}, in {f['cpu_seconds']['wall']} s of wall time",
        f"kow verify         {verify} (exit {f['verify']['exit']})",
    ]
    lines += [f"error: {e}" for e in f["errors"]]
    return "\n".join(lines)


def main() -> None:
    """Read the options, measure, report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=number_type(1, 1000, "a number of tables"), default=50)
    parser.add_argument("--games", type=number_type(1, 1000, "a number of games"), default=3)
    parser.add_argument("--rate", type=number_type(0, 100000, "a number of messages a second"),
                        default=0, help="the server's Limits.rate (0: its default)")  # fmt: skip
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON (-: stdout)")
    args = parser.parse_args()
    figures = measure(args.tables, args.games, float(args.rate))
    text = show(figures)
    if args.json == "-":
        print(text, file=sys.stderr)
        print(json.dumps(figures, indent=2))
    else:
        print(text)
        if args.json:
            Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    if figures["games_lost"] or figures["verify"]["exit"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
