"""Tournaments: the Wilson interval, rotation through the seats, --jobs independence, and
the results so far of a tournament stopped early."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
import types
from collections.abc import Generator, Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from kow.cli import main
from kow.rules import Rules
from kow.runs import tournament
from kow.runs.stats import wilson
from kow.runs.tournament import (
    CSV_COLUMNS,
    GameResult,
    Tally,
    _play,
    csv_rows,
    game_results,
    play_tournament,
    table_lines,
    tournament_game,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (50, 100, 0.4038, 0.5962),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 4, 0.0456, 0.6994),
        (400, 1000, 0.3701, 0.4307),
    ],
)
def test_wilson_interval_on_known_values(wins: int, games: int, low: float, high: float) -> None:
    lo, hi = wilson(wins, games)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


def test_wilson_interval_is_exact_at_no_win_and_every_win() -> None:
    # wilson(0, 6) began at 2.7755575615628914e-17: centre - half, equal but for rounding.
    assert wilson(0, 6) == (0.0, 0.3903342879021653)
    assert wilson(6, 6) == (0.6096657120978346, 1.0)
    for games in range(1, 500):
        assert wilson(0, games)[0] == 0.0 and wilson(games, games)[1] == 1.0
        low, high = wilson(games // 3, games)
        assert 0.0 <= low <= games // 3 / games <= high <= 1.0


def test_tournament_json_gives_a_bot_with_no_win_an_interval_from_exactly_zero() -> None:
    result = CliRunner().invoke(main, [
        "tournament", "--bots", "ismcts:iterations=50,heuristic,random", "--players", "3",
        "--games", "6", "--seed", "1", "--json",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    ci95 = {row["entrant"]: row["ci95"] for row in json.loads(result.stdout)["results"]}
    assert ci95["random"] == [0.0, 0.3903342879021653]


def test_wilson_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError):
        wilson(5, 4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_bots_rotate_through_the_seats_over_one_seed() -> None:
    rules = Rules(players=3)
    bots = ("random", "heuristic", "heuristic")
    games = [tournament_game(rules, bots, 5, index=i) for i in range(6)]
    assert [g.seed for g in games[:3]] == [5, 5, 5]
    assert games[3].seed == games[4].seed != 5
    assert [g.seats[0] for g in games] == [0, 1, 2, 0, 1, 2]
    assert all(sorted(g.seats) == [0, 1, 2] for g in games)
    for g in games:
        assert 0 <= g.winner < 3
        assert all(1 <= r <= 7 for r in g.rounds)
        assert g.rounds[g.winner] == max(g.rounds)


def _stable(result: dict[str, object]) -> dict[str, object]:
    """Drop the wall-clock timing, the only part of a result that varies between runs."""
    out = dict(result)
    out["results"] = [
        {k: v for k, v in r.items() if k != "mean_decision_ms"}
        for r in result["results"]  # type: ignore[attr-defined]
    ]
    return out


def test_results_do_not_depend_on_jobs() -> None:
    rules = Rules(players=4, start_cards=4)
    bots = ("search", "heuristic", "random", "heuristic")
    one = play_tournament(rules, bots, 12, seed=3, jobs=1, search_iterations=3)
    two = play_tournament(rules, bots, 12, seed=3, jobs=2, search_iterations=3)
    strip = [(g.index, g.seed, g.seats, g.winner, g.rounds, g.decisions) for g in one.games]
    assert strip == [(g.index, g.seed, g.seats, g.winner, g.rounds, g.decisions) for g in two.games]
    assert _stable(one.to_dict()) == _stable(two.to_dict())
    kinds = [r.kind for r in one.results()]
    assert kinds == ["search", "heuristic", "random"]
    assert sum(r.wins for r in one.results()) == 12
    assert [(r.seats, r.games, r.seat_games) for r in one.results()] == [
        (1, 12, 12), (2, 12, 24), (1, 12, 12)]  # fmt: skip


def test_tournament_cli_json_is_the_same_for_any_jobs() -> None:
    runner = CliRunner()
    args = ["tournament", "--bots", "search,heuristic,random", "--players", "3",
            "--games", "6", "--seed", "8", "--search-iterations", "2", "--start-cards", "3",
            "--json"]  # fmt: skip
    one = runner.invoke(main, [*args, "--jobs", "1"])
    two = runner.invoke(main, [*args, "--jobs", "2"])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert _stable(a) == _stable(b)
    assert a["games"] == 6 and a["rules"]["players"] == 3
    search = a["results"][0]
    assert search["kind"] == "search" and search["games"] == 6
    assert 0 <= search["ci95"][0] <= search["win_rate"] <= search["ci95"][1] <= 1


def test_tournament_cli_table_and_usage_errors() -> None:
    runner = CliRunner()
    ok = runner.invoke(
        main, ["tournament", "--bots", "heuristic,random", "--players", "2", "--games", "4",
               "--seed", "1"],
    )  # fmt: skip
    assert ok.exit_code == 0, ok.output
    assert "heuristic" in ok.stdout and "95% interval" in ok.stdout
    bad = runner.invoke(main, ["tournament", "--bots", "search,genius", "--players", "2"])
    assert bad.exit_code == 2
    assert "genius" in bad.output
    count = runner.invoke(main, ["tournament", "--bots", "random,random", "--players", "3"])
    assert count.exit_code == 2


def test_the_table_counts_games_and_seats_and_shows_cheap_bots_times() -> None:
    # A kind in two seats: its games are the games, not the seats it held over them.
    rules = Rules(players=3, start_cards=3)
    result = play_tournament(rules, ("random", "heuristic", "heuristic"), 6, seed=1)
    head, random_row, heuristic_row, last = table_lines(result)
    assert head.split() == ["entrant", "seats", "games", "wins", "win", "rate", "95%",
                            "interval", "round", "ms/decision"]  # fmt: skip
    random_, heuristic = result.results()
    assert random_row.split()[:4] == ["random", "1", "6", str(random_.wins)]
    assert heuristic_row.split()[:4] == ["heuristic", "2", "6", str(heuristic.wins)]
    assert random_.wins + heuristic.wins == 6
    assert heuristic.win_rate == heuristic.wins / 12
    assert (
        last == "Win rate: wins per seat held, wins / (games x seats); a fair share is 1/3 = 33.3%."
    )
    for row, kind in ((random_row, random_), (heuristic_row, heuristic)):
        ms = row.split()[-1]  # a bot deciding in microseconds is not shown as 0.00
        assert kind.mean_decision_ms is not None and 0 < kind.mean_decision_ms < 1
        assert float(ms) > 0 and len(ms.lstrip("0.")) == 3, ms
    assert result.to_dict()["results"][1] | {"mean_decision_ms": 0} == {
        "entrant": "heuristic", "kind": "heuristic", "settings": {}, "seats": 2, "games": 6,
        "wins": heuristic.wins,
        "win_rate": heuristic.win_rate, "ci95": [heuristic.low, heuristic.high],
        "mean_round": heuristic.mean_round, "decisions": heuristic.decisions,
        "mean_decision_ms": 0,
    }  # fmt: skip


def test_totals_without_the_games_give_the_same_results() -> None:
    # kow tournament keeps only the totals, so its memory is flat in --games.
    rules = Rules(players=3, start_cards=3)
    bots = ("heuristic", "random", "heuristic")
    kept = play_tournament(rules, bots, 9, seed=4)
    lean = play_tournament(rules, bots, 9, seed=4, keep_games=False)
    assert lean.games == () and len(kept.games) == 9 == lean.played == kept.played
    assert [t[:4] for t in lean.totals] == [t[:4] for t in kept.totals]  # not the seconds
    assert [(r.kind, r.games, r.wins, r.mean_round, r.decisions) for r in lean.results()] == [
        (r.kind, r.games, r.wins, r.mean_round, r.decisions) for r in kept.results()
    ]
    assert sum(t[1] for t in lean.totals) == 9  # one winner a game
    assert lean.totals[0][0] == 9  # every bot is in every game


def test_a_tournament_stopped_early_keeps_the_games_before_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Ctrl-C lands while game 9 is played: games 0..7 (two whole chunks of 4) are counted,
    # and they are the same results as a whole tournament of 8 games.
    rules = Rules(players=4, start_cards=4)
    bots = ("heuristic", "random", "heuristic", "random")
    real = _play.tournament_game

    def interrupted(
        rules: Rules,
        bots: Sequence[str],
        seed: int,
        *,
        index: int,
        search_iterations: int | None = None,
    ) -> GameResult:
        if index == 9:
            raise KeyboardInterrupt
        return real(rules, bots, seed, index=index, search_iterations=search_iterations)

    monkeypatch.setattr(_play, "tournament_game", interrupted)
    tally = Tally(rules, bots, 6, search_iterations=None, planned=40)
    with pytest.raises(KeyboardInterrupt):
        for done in game_results(rules, bots, 40, seed=6):
            tally.add(done)
    stopped = tally.tournament()
    monkeypatch.setattr(_play, "tournament_game", real)
    whole = play_tournament(rules, bots, 8, seed=6)
    assert (stopped.played, stopped.planned, stopped.partial) == (8, 40, True)
    assert [g.index for g in stopped.games] == list(range(8))
    assert [t[:4] for t in stopped.totals] == [t[:4] for t in whole.totals]
    assert _stable(stopped.to_dict()) == {
        **_stable(whole.to_dict()),
        "games_planned": 40,
        "partial": True,
    }
    assert (whole.partial, whole.to_dict()["games_planned"]) == (False, 8)
    # A stopped tournament's CSV says so in every row, as its text and JSON do.
    at = CSV_COLUMNS.index("games_planned")
    assert {tuple(row[at:]) for row in csv_rows(stopped, by_seat=True)[1:]} == {(40, "true")}
    assert {tuple(row[at:]) for row in csv_rows(whole)[1:]} == {(8, "false")}


def test_an_interrupt_anywhere_in_add_counts_all_of_its_games_or_none() -> None:
    # A signal's exception can come between any two instructions: raise one at each in
    # turn, in add and in everything it calls, and check the tally is whole every time.
    rules = Rules(players=3, start_cards=3)
    bots = ("heuristic", "random", "heuristic")
    games = [tournament_game(rules, bots, 2, index=i) for i in range(6)]

    def counted(tally: Tally) -> tuple[object, ...]:
        result = tally.tournament()  # the totals by seat are counted in the same assignment
        return result.played, result.totals, result.seat_totals, len(result.games)

    before = Tally(rules, bots, 2, search_iterations=None)
    before.add(games[:3])
    after = Tally(rules, bots, 2, search_iterations=None)
    after.add(games)
    outcomes = set()
    steps = {"at": 1, "done": 0}  # raise at instruction "at" of the add; "done" so far

    def trace(frame: types.FrameType, event: str, arg: object) -> object:
        frame.f_trace_opcodes = True
        if event == "opcode":
            steps["done"] += 1
            if steps["done"] == steps["at"]:
                raise KeyboardInterrupt
        return trace

    while True:
        tally = Tally(rules, bots, 2, search_iterations=None)
        tally.add(games[:3])
        steps["done"] = 0
        sys.settrace(trace)  # type: ignore[arg-type]
        try:
            tally.add(games[3:])
        except KeyboardInterrupt:
            pass
        else:
            break
        finally:
            sys.settrace(None)
        assert counted(tally) in (counted(before), counted(after)), steps
        outcomes.add(counted(tally) == counted(after))
        steps["at"] += 1
    assert counted(tally) == counted(after)
    assert steps["at"] > 100  # instructions tried
    assert outcomes == {False, True}  # cut short both before and after the counting


def _progress_then_stop(args: list[str], sig: int, *, group: bool) -> tuple[int, str, str, int]:
    """Run ``kow tournament ARGS`` with stderr a terminal; once its progress bar shows 4
    games or more, send ``sig`` (to the whole process group, as a terminal's Ctrl-C does,
    when ``group``). Return the exit code, stdout, stderr, and the games seen on the bar.

    Also checks that no process of the run is left (its workers ended with it).
    """
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "kow", "tournament", *args], stdout=subprocess.PIPE,
        stderr=slave, cwd=ROOT, start_new_session=True,
    )  # fmt: skip
    os.close(slave)
    screen = b""
    seen = 0
    deadline = time.monotonic() + 60
    try:
        while seen < 4:
            assert time.monotonic() < deadline, f"no progress shown: {screen[-300:]!r}"
            if select.select([master], [], [], 0.5)[0]:
                screen += os.read(master, 4096)
                counts = re.findall(rb"(\d+)/1000000", screen)
                seen = int(counts[-1]) if counts else 0
        if group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        out, _ = proc.communicate(timeout=60)
        while select.select([master], [], [], 0.5)[0]:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the run has closed its end
                break
            if not chunk:
                break
            screen += chunk
    finally:
        proc.kill()
        proc.wait()
        os.close(master)
    with pytest.raises(ProcessLookupError):  # no worker outlives the run
        os.killpg(proc.pid, 0)
    text = screen.decode().replace("\r\n", "\n")
    return proc.returncode, out.decode(), text[text.rindex("\n", 0, len(text) - 1) + 1 :], seen


STOPPABLE = ["--bots", "search,heuristic,random,heuristic", "--search-iterations", "10",
             "--seed", "5"]  # fmt: skip


@pytest.mark.parametrize(
    ("sig", "code", "jobs", "group"),
    [
        (signal.SIGINT, 130, "2", True),
        (signal.SIGINT, 130, "1", False),
        (signal.SIGTERM, 143, "2", False),
        (signal.SIGHUP, 129, "1", False),
    ],
)
def test_stopped_tournament_prints_the_partial_results_as_json(
    sig: int, code: int, jobs: str, group: bool
) -> None:
    exit_code, out, last_line, seen = _progress_then_stop(
        [*STOPPABLE, "--games", "1000000", "--jobs", jobs, "--json"], sig, group=group
    )
    assert exit_code == code, last_line
    partial = json.loads(out)
    played = partial["games"]
    assert partial["partial"] is True and partial["games_planned"] == 1000000
    assert 4 <= seen <= played < 1000000
    name = "Interrupted" if sig == signal.SIGINT else f"Stopped by {signal.Signals(sig).name}"
    assert last_line == f"{name} after {played} of 1000000 games: the results are partial.\n"
    # The same as a whole tournament of that many games with the same seed.
    whole = CliRunner().invoke(
        main, ["tournament", *STOPPABLE, "--games", str(played), "--jobs", "1", "--json"]
    )
    assert whole.exit_code == 0, whole.output
    full = json.loads(whole.stdout)
    assert full["partial"] is False and full["games_planned"] == played
    assert _stable(partial) == {**_stable(full), "partial": True, "games_planned": 1000000}
    assert sum(r["wins"] for r in partial["results"]) == played


def test_interrupted_tournament_table_is_marked_partial() -> None:
    exit_code, out, last_line, _ = _progress_then_stop(
        [*STOPPABLE, "--games", "1000000", "--jobs", "2"], signal.SIGINT, group=True
    )
    assert exit_code == 130
    head, *rows = out.splitlines()
    match = re.fullmatch(r"Partial: (\d+) of 1000000 games played, seed 5, bots (\S+)", head)
    assert match is not None and match[2] == "search,heuristic,random,heuristic"
    played = int(match[1])
    assert last_line == f"Interrupted after {played} of 1000000 games: the results are partial.\n"
    whole = CliRunner().invoke(main, ["tournament", *STOPPABLE, "--games", str(played)])
    assert whole.exit_code == 0
    # the same rows but for the last column, milliseconds per decision
    assert [r.rsplit(None, 1)[0] for r in rows] == [
        r.rsplit(None, 1)[0] for r in whole.stdout.splitlines()[1:]
    ]
    assert rows[1].split()[:3] == ["search", "1", str(played)]


def test_no_game_played_gives_no_rates_nor_means() -> None:
    from kow.players.search import DEFAULT_ITERATIONS

    empty = Tally(
        Rules(),
        ["search", "heuristic", "heuristic", "heuristic"],
        7,
        search_iterations=None,
        planned=8,
    )
    result = empty.tournament()
    for r in result.results():
        assert (r.games, r.wins, r.decisions) == (0, 0, 0)
        assert (r.win_rate, r.low, r.high, r.mean_round, r.mean_decision_ms) == (None,) * 5
    data = json.loads(json.dumps(result.to_dict()))
    assert data["search_iterations"] == DEFAULT_ITERATIONS == 100
    assert data["results"][0] == {
        "entrant": "search", "kind": "search", "settings": {"iterations": 100}, "seats": 1,
        "games": 0, "wins": 0, "win_rate": None, "ci95": None,
        "mean_round": None, "decisions": 0, "mean_decision_ms": None,
    }  # fmt: skip
    assert (
        Tally(Rules(), ["search"] * 4, 7, search_iterations=5)
        .tournament()
        .to_dict()["search_iterations"]
        == 5
    )


def test_no_game_played_prints_n_a(monkeypatch: pytest.MonkeyPatch) -> None:
    def nothing(*args: object, **kwargs: object) -> Generator[list[GameResult], None, None]:
        raise KeyboardInterrupt
        yield []

    monkeypatch.setattr(tournament, "game_results", nothing)
    result = CliRunner().invoke(main, ["tournament", "--games", "8", "--seed", "5", "-j", "1"])
    assert result.exit_code == 130
    lines = result.stdout.splitlines()
    assert (
        lines[0]
        == "Partial: 0 of 8 games played, seed 5, bots search,heuristic,heuristic,heuristic"
    )
    assert [line.split() for line in lines[2:4]] == [
        ["search", "1", "0", "0", "n/a", "n/a", "n/a", "n/a"],
        ["heuristic", "3", "0", "0", "n/a", "n/a", "n/a", "n/a"],
    ]
    result = CliRunner().invoke(main, ["tournament", "--games", "8", "--seed", "5", "--json"])
    data = json.loads(result.stdout)
    assert data["search_iterations"] == 100 and data["games"] == 0
    assert {r["win_rate"] for r in data["results"]} == {None}


# ----------------------------------------------------------------------------- entrants

ENTRANTS = "search:iterations=2,search:iterations=6,heuristic,heuristic"
SMALL = ["--start-cards", "4", "--games", "8", "--seed", "3"]


def test_one_kind_at_two_settings_is_two_entrants() -> None:
    rules = Rules(players=4, start_cards=4)
    bots = ENTRANTS.split(",")
    result = play_tournament(rules, bots, 8, seed=3)
    assert [(r.entrant, r.kind, r.settings, r.seats) for r in result.results()] == [
        ("search:iterations=2", "search", (("iterations", 2),), 1),
        ("search:iterations=6", "search", (("iterations", 6),), 1),
        ("heuristic", "heuristic", (), 2),
    ]
    assert sum(r.wins for r in result.results()) == 8
    # The setting is the bots' own: every seat at iterations=2 plays the games that
    # --search-iterations 2 gives plain search bots, and iterations=6 other games.
    same = [tournament_game(rules, ["search:iterations=2"] * 4, 3, index=i) for i in range(4)]
    plain = [
        tournament_game(rules, ["search"] * 4, 3, index=i, search_iterations=2) for i in range(4)
    ]
    other = [tournament_game(rules, ["search:iterations=6"] * 4, 3, index=i) for i in range(4)]
    assert [(g.winner, g.rounds, g.decisions) for g in same] == [
        (g.winner, g.rounds, g.decisions) for g in plain
    ]
    assert [(g.winner, g.rounds) for g in same] != [(g.winner, g.rounds) for g in other]


def test_entrants_results_do_not_depend_on_jobs() -> None:
    args = ["tournament", "--bots", ENTRANTS, *SMALL, "--json", "--by-seat"]
    one, two = (CliRunner().invoke(main, [*args, "-j", jobs]) for jobs in ("1", "2"))
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    a, b = json.loads(one.stdout), json.loads(two.stdout)

    def stable(data: dict[str, object]) -> dict[str, object]:
        out = _stable(data)
        for r in out["results"]:  # type: ignore[attr-defined]
            r["by_seat"] = [
                {k: v for k, v in s.items() if k != "mean_decision_ms"} for s in r["by_seat"]
            ]
        return out

    assert stable(a) == stable(b)
    assert a["bots"] == ENTRANTS.split(",")
    assert [(r["entrant"], r["kind"], r["settings"]) for r in a["results"]] == [
        ("search:iterations=2", "search", {"iterations": 2}),
        ("search:iterations=6", "search", {"iterations": 6}),
        ("heuristic", "heuristic", {}),
    ]


def test_by_seat_adds_up_to_each_entrant() -> None:
    rules = Rules(players=4, start_cards=4)
    result = play_tournament(rules, ENTRANTS.split(","), 8, seed=3, keep_games=False)
    seats = result.seat_results()
    assert [(s.entrant, s.seat) for s in seats] == [
        (e, seat) for e in result.entrants() for seat in range(4)
    ]
    for r in result.results():
        mine = [s for s in seats if s.entrant == r.entrant]
        # 8 games rotate each bot through the 4 seats twice.
        assert [s.seat_games for s in mine] == [2 * r.seats] * 4
        assert sum(s.seat_games for s in mine) == r.seat_games
        assert sum(s.wins for s in mine) == r.wins
        assert sum(s.decisions for s in mine) == r.decisions
    # Each game has one winner, from one seat.
    assert sum(s.wins for s in seats) == 8
    data = result.to_dict(by_seat=True)["results"][2]
    assert [s["seat"] for s in data["by_seat"]] == [0, 1, 2, 3]
    assert "by_seat" not in result.to_dict()["results"][2]


def test_by_seat_table_and_csv() -> None:
    base = ["tournament", "--bots", ENTRANTS, *SMALL, "-j", "1"]
    table = CliRunner().invoke(main, [*base, "--by-seat"])
    assert table.exit_code == 0, table.output
    lines = table.stdout.splitlines()
    at = lines.index(
        "By seat (0-based, clockwise; the first dealer is drawn from each game's seed):"
    )
    assert lines[at + 1].split()[:4] == ["entrant", "seat", "games", "wins"]
    rows = [line.split() for line in lines[at + 2 :]]
    assert [(r[0], r[1], r[2]) for r in rows] == [
        (e, str(seat), "4" if e == "heuristic" else "2")
        for e in ("search:iterations=2", "search:iterations=6", "heuristic")
        for seat in range(4)
    ]
    assert lines[2].split()[:4] == ["search:iterations=2", "1", "8", lines[2].split()[3]]

    import csv
    import io

    done = CliRunner().invoke(main, [*base, "--csv", "--by-seat"])
    assert done.exit_code == 0 and done.stderr == "", done.output
    got = list(csv.DictReader(io.StringIO(done.stdout)))
    assert list(got[0]) == list(CSV_COLUMNS)
    data = json.loads(CliRunner().invoke(main, [*base, "--json", "--by-seat"]).stdout)
    totals, by_seat = got[:3], got[3:]
    for row, r in zip(totals, data["results"], strict=True):
        assert (row["entrant"], row["kind"], row["seat"]) == (r["entrant"], r["kind"], "")
        assert row["iterations"] == str(r["settings"].get("iterations", ""))
        assert (int(row["seats"]), int(row["games"]), int(row["wins"])) == (
            r["seats"],
            r["games"],
            r["wins"],
        )
        assert int(row["seat_games"]) == r["games"] * r["seats"]
        assert float(row["win_rate"]) == r["win_rate"]
        assert [float(row["ci95_low"]), float(row["ci95_high"])] == r["ci95"]
    assert len(by_seat) == 12
    for row in by_seat:
        r = next(r for r in data["results"] if r["entrant"] == row["entrant"])
        s = r["by_seat"][int(row["seat"])]
        assert (int(row["seat_games"]), int(row["wins"])) == (s["seat_games"], s["wins"])
    plain = CliRunner().invoke(main, [*base, "--csv"])
    assert plain.stdout.splitlines() == [
        ",".join(CSV_COLUMNS),
        *[line for line in plain.stdout.splitlines()[1:4]],
    ]
    assert [line.split(",")[:4] for line in plain.stdout.splitlines()[1:]] == [
        ["search:iterations=2", "search", "2", ""],
        ["search:iterations=6", "search", "6", ""],
        ["heuristic", "heuristic", "", ""],
    ]
    assert csv_rows(Tally(Rules(), ["random"] * 4, 1, search_iterations=None).tournament()) == [
        list(CSV_COLUMNS),
        ["random", "random", None, None, 4, 0, 0, 0, None, None, None, None, 0, None, 0, "false"],
    ]


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        ("search:depth=3", "'depth' is not a setting of search: allowed iterations (1 to 100000)"),
        ("ismcts:iteration=3", "'iteration' is not a setting of ismcts: allowed iterations"),
        ("heuristic:iterations=5", "heuristic takes no setting, so 'heuristic:iterations=5' is "
         "not an entrant: settings are for search, ismcts (e.g. search:iterations=1000)"),
        ("search:iterations=0", "search:iterations: '0' is not a number of deals: allowed 1 to "
         "100000"),
        ("ismcts:iterations=100001", "ismcts:iterations: '100001' is not a number of "
         "iterations: allowed 1 to 100000"),
        ("search:iterations=1e3", "'1e3' is not a number of deals: allowed 1 to 100000, in the "
         "digits 0-9"),
        ("search:iterations", "'iterations' in 'search:iterations' is not a setting: write "
         "NAME=VALUE"),
        ("search:iterations=5:iterations=6", "iterations is given twice"),
        ("clever:iterations=5", "'clever' is not a bot kind: choose from random, heuristic, "
         "search, ismcts"),
    ],
)  # fmt: skip
def test_a_bad_entrant_is_a_usage_error_naming_it(bots: str, message: str) -> None:
    done = CliRunner().invoke(main, ["tournament", "--bots", f"{bots},heuristic", "--players", "2"])
    assert done.exit_code == 2 and done.stdout == ""
    assert "Invalid value for '--bots'" in done.stderr
    assert message in " ".join(done.stderr.split()), done.stderr
    assert "Traceback" not in done.stderr


def test_json_and_csv_together_is_a_usage_error() -> None:
    done = CliRunner().invoke(main, ["tournament", "--json", "--csv"])
    assert (done.exit_code, done.stdout) == (2, "")
    assert "give --json or --csv, not both" in done.stderr


def test_search_iterations_is_the_default_of_a_search_entrant_without_its_own() -> None:
    args = ["tournament", "--bots", "search,search:iterations=3", "--players", "2",
            "--start-cards", "3", "--games", "2", "--seed", "1", "--json", "-j", "1"]  # fmt: skip
    data = json.loads(CliRunner().invoke(main, [*args, "--search-iterations", "5"]).stdout)
    assert data["search_iterations"] == 5
    assert [(r["entrant"], r["settings"]) for r in data["results"]] == [
        ("search", {"iterations": 5}), ("search:iterations=3", {"iterations": 3})]  # fmt: skip
    data = json.loads(CliRunner().invoke(main, args).stdout)
    assert data["results"][0]["settings"] == {"iterations": 100}


def test_an_entrant_reads_and_writes_its_notation() -> None:
    from kow.players import Entrant, check_entrants

    assert Entrant.from_text("search") == Entrant("search")
    assert Entrant.from_text(" ismcts : iterations = 0500 ").text() == "ismcts:iterations=500"
    assert Entrant.from_text("search:iterations=7").iterations() == 7
    assert Entrant.from_text("search").iterations(40) == 40
    assert Entrant.from_text("ismcts").iterations() == 1200
    assert Entrant.from_text("random").iterations() is None
    assert check_entrants(["search:iterations=7"], 3) == ["search:iterations=7"] * 3
    with pytest.raises(ValueError, match="gives 2 kinds for 3 seats"):
        check_entrants(["random", "search:iterations=7"], 3)
    with pytest.raises(TypeError):
        check_entrants("random", 3)
    with pytest.raises(ValueError, match="random takes no setting"):
        play_tournament(Rules(players=2), ["random", "random:x=1"], 2, seed=1)


def test_a_setting_outside_a_tournament_says_where_it_belongs() -> None:
    done = CliRunner().invoke(main, ["simulate", "--bots", "search:iterations=5", "--seed", "1"])
    assert (done.exit_code, done.stdout) == (2, "")
    assert "'search:iterations=5' is not a bot kind" in done.stderr
    assert "KIND:NAME=VALUE is for kow tournament; here use --search-deals" in " ".join(
        done.stderr.split()
    )


def test_a_stop_before_any_game_prints_n_a_by_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    def nothing(*args: object, **kwargs: object) -> Generator[list[GameResult], None, None]:
        raise KeyboardInterrupt
        yield []

    monkeypatch.setattr(tournament, "game_results", nothing)
    args = ["tournament", "--bots", "random:iterations=2,random", "--players", "2"]
    assert "random takes no setting" in CliRunner().invoke(main, args).stderr
    args = ["tournament", "--bots", "ismcts:iterations=9,random", "--players", "2", "--games",
            "4", "--seed", "5", "--by-seat"]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 130
    lines = result.stdout.splitlines()
    assert lines[0] == "Partial: 0 of 4 games played, seed 5, bots ismcts:iterations=9,random"
    by_seat = lines[lines.index("") + 3 :]
    assert [line.split() for line in by_seat] == [
        ["ismcts:iterations=9", "0", "0", "0", "n/a", "n/a", "n/a", "n/a"],
        ["ismcts:iterations=9", "1", "0", "0", "n/a", "n/a", "n/a", "n/a"],
        ["random", "0", "0", "0", "n/a", "n/a", "n/a", "n/a"],
        ["random", "1", "0", "0", "n/a", "n/a", "n/a", "n/a"],
    ]
    data = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    assert data["partial"] is True and data["bots"] == ["ismcts:iterations=9", "random"]
    assert data["results"][0]["by_seat"][1] == {
        "seat": 1, "seat_games": 0, "wins": 0, "win_rate": None, "ci95": None,
        "mean_round": None, "decisions": 0, "mean_decision_ms": None,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("bots", "wanted"),
    [("search:iterations=3,heuristic", None), ("heuristic,random", None),
     ("search,search:iterations=3", 100)],
)  # fmt: skip
def test_the_json_shows_search_iterations_only_when_an_entrant_plays_at_it(
    bots: str, wanted: int | None
) -> None:
    # Issue 33, 7: an unused default search_iterations showed beside entrants with their own.
    args = ["tournament", "--bots", bots, "--players", "2", "--start-cards", "2", "--games",
            "2", "--seed", "1", "--json", "-j", "1"]  # fmt: skip
    done = CliRunner().invoke(main, args)
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["search_iterations"] == wanted
