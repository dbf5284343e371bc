"""Batches of a run (kow.runs.batch): any split of the games, over processes or shards, gives
the bytes of the whole run in one process."""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest

from kow import log
from kow.engine.view import View
from kow.events import Phase
from kow.game import bots_rng, game_seed, play_game
from kow.players import BOT_KINDS, Player, game_seconds, make_bot
from kow.rules import Rules
from kow.runs import _pool, batch
from kow.runs.batch import GameError, Run, auto_jobs, run_bytes, run_text

ROOT = Path(__file__).resolve().parents[2]

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
def test_run_bytes_is_the_text_utf8_encoded_whatever_the_jobs(run: Run) -> None:
    text, _ = joined(run_text(run, 3, 25, jobs=1))
    for jobs in (1, 2):
        items = list(run_bytes(run, 3, 25, jobs=jobs))
        assert all(type(data) is bytes for data, _ in items)
        assert b"".join(data for data, _ in items) == text.encode()
        assert sum(count for _, count in items) == 25
    assert len(list(run_bytes(run, 3, 25, jobs=1))) == 25  # one game at a time


@pytest.mark.skipif(not _pool._forks(), reason="views need forked workers")
def test_run_bytes_views_are_the_blocks_in_memory_shared_with_the_workers() -> None:
    run = RUNS[0]
    text, _ = joined(run_text(run, 3, 25, jobs=1))
    kinds: set[type] = set()
    copied = []
    games = 0
    for data, count in run_bytes(run, 3, 25, jobs=2, views=True):
        kinds.add(type(data))
        copied.append(bytes(data))  # before the next is asked for
        games += count
    assert kinds == {memoryview} and len(copied) == 13 and games == 25  # blocks of 2 games
    assert b"".join(copied) == text.encode()
    assert {type(data) for data, _ in run_bytes(run, 3, 25, jobs=1, views=True)} == {bytes}


@pytest.mark.parametrize("run", RUNS, ids=range(len(RUNS)))
def test_shards_concatenate_to_the_whole_run(run: Run) -> None:
    whole, _ = joined(run_text(run, 0, 30))
    cuts = [0, 1, 7, 8, 19, 30]
    shards = [joined(run_text(run, a, b - a))[0] for a, b in zip(cuts, cuts[1:], strict=False)]
    assert "".join(shards) == whole


def test_a_game_of_a_run_is_the_log_of_that_game() -> None:
    run = RUNS[1]
    seed = game_seed(run.seed, 4)
    rng = bots_rng(seed)  # one generator that all the game's bots share
    players = [make_bot(kind, f"{kind}-{s}", rng) for s, kind in enumerate(run.kinds)]
    events = play_game(run.rules, players, seed).events
    text, count = joined(run_text(run, 4, 1))
    assert count == 1
    assert text == log.dumps(log.build(seed, run.rules, players, events=events)) + "\n"
    assert json.loads(text)["seed"] == seed


class Cheat(Player):
    """Plays the first legal card until round 2, then a card it does not hold."""

    kind = "cheat"

    def __init__(self, name: str, rng: object) -> None:
        super().__init__(name)

    def act(self, view: View) -> int:
        if view.round >= 2 and view.phase is Phase.PLAY:
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


class _Capture:
    """An executor of 2 workers that records the items it is given and plays none."""

    workers = 2

    def __init__(self) -> None:
        self.seen: list[object] = []

    def map(self, func, items):  # type: ignore[no-untyped-def]
        self.seen.append(items)
        yield "first block"


def test_a_long_run_lists_no_blocks_up_front() -> None:
    # 10^12 games: the blocks are a range, made as they are played, so memory stays flat.
    capture = _Capture()
    assert next(run_text(RUNS[0], 0, 10**12, executor=capture)) == ("first block", 200)
    assert capture.seen == [range(5 * 10**9)]  # blocks of 200 games


def test_blocks_are_small_and_many() -> None:
    assert batch._block_size(20000, 2) == 200
    assert batch._block_size(100, 2) == 7
    assert batch._block_size(1, 4) == 1


HEURISTIC = game_seconds(["heuristic"] * 4, 7)  # about 0.3 ms
SEARCH_ONE = game_seconds(["search", "heuristic", "heuristic", "heuristic"], 7)  # about 0.4 s
SEARCH_ALL = game_seconds(["search"] * 4, 7)  # about 1.5 s


def test_game_seconds_weighs_each_bot_kind_and_the_cards() -> None:
    assert HEURISTIC == pytest.approx(4 * 1.5e-6 * 49)
    assert game_seconds(["random", "heuristic"], 7) == game_seconds(["heuristic"] * 2, 7)
    assert SEARCH_ONE == pytest.approx(HEURISTIC + 4e-7 * 100 * 4 * 7**4)
    assert SEARCH_ALL == pytest.approx(HEURISTIC + 4 * (SEARCH_ONE - HEURISTIC))
    assert game_seconds(["search"] * 4, 7, search_iterations=5) == pytest.approx(
        HEURISTIC + 4 * 4e-7 * 5 * 4 * 7**4
    )
    # 2 players with 20 cards: one search seat measured 13 s a game
    assert game_seconds(["search", "heuristic"], 20) == pytest.approx(12.8, abs=0.05)


@pytest.mark.parametrize(
    ("games", "seconds", "cpus", "expected"),
    [
        (1, HEURISTIC, 8, 1),
        (50, HEURISTIC, 8, 1),  # a short cheap run stays in one process
        (100, HEURISTIC, 8, 1),
        (300, HEURISTIC, 8, 2),  # 0.09 s of work: two processes of 0.03 s or more
        (2000, HEURISTIC, 8, 8),
        (10**6, HEURISTIC, 8, 8),
        (10**6, HEURISTIC, 1, 1),
        (20, SEARCH_ONE, 8, 8),  # 20 games of a search bot: 7.7 s, every CPU
        (20, SEARCH_ALL, 2, 2),
        (3, SEARCH_ALL, 8, 3),  # no process without a game to play
        (1, game_seconds(["search", "heuristic"], 3, search_iterations=1), 8, 1),
    ],
)
def test_auto_jobs_gives_each_process_enough_work(
    games: int, seconds: float, cpus: int, expected: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cpus)), raising=False)
    assert auto_jobs(games, seconds) == expected


def test_auto_jobs_asks_more_work_of_a_spawned_process(monkeypatch: pytest.MonkeyPatch) -> None:
    # Where a worker is a new Python importing kow (macOS, Windows), 0.2 s of work each.
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    assert _pool.start_seconds() == 0.03  # forked here
    monkeypatch.setattr(batch, "start_seconds", lambda: 0.2)
    assert auto_jobs(300, HEURISTIC) == 1
    assert auto_jobs(2000, HEURISTIC) == 2  # 0.59 s of work
    assert auto_jobs(20, SEARCH_ONE) == 8


# ----------------------------------------------------- the library checks as the CLI does


def _as_typed(message: str, value: object, text: str) -> str:
    """Return the library's ``message`` about ``value`` as the option words it about the
    same value typed as ``text``: the same words, the value quoted as typed."""
    shown = repr(value)
    return repr(text) + message[len(shown) :] if message.startswith(shown) else message


def _simulate_error(*args: str) -> str:
    """Return the message of ``kow simulate ARGS``'s usage error (exit 2)."""
    from click.testing import CliRunner

    from kow.cli import main

    result = CliRunner().invoke(main, ["simulate", *args])
    assert result.exit_code == 2, result.output
    return " ".join(result.stderr.split()).split(": ", 1)[1].rstrip(".")


@pytest.mark.parametrize(
    ("field", "value", "option", "text"),
    [
        ("seed", -1, "--seed", "-1"),
        ("seed", 2**53, "--seed", str(2**53)),
        ("dealer", 4, "--dealer", "4"),
    ],
)
def test_run_refuses_what_simulate_refuses_with_the_same_message(
    field: str, value: int, option: str, text: str
) -> None:
    settings: dict[str, object] = {"seed": 1, "rules": Rules(), "kinds": ("heuristic",) * 4}
    settings[field] = value
    with pytest.raises(ValueError) as caught:
        Run(**settings)  # type: ignore[arg-type]
    cli = (
        _simulate_error(option, text)
        if field == "seed"
        else _simulate_error("--seed", "1", option, text)
    )
    # The same words; where the library names its field ("dealer must be ..."), the
    # command names the option before them instead.
    assert _as_typed(str(caught.value), value, text).removeprefix(f"{field} ") in cli


@pytest.mark.parametrize("seed", [True, False, 1.0, "1", None, -1, 2**53, 2**64])
def test_run_refuses_a_seed_that_is_not_a_kow_seed(seed: object) -> None:
    with pytest.raises(ValueError, match=r"is not a seed: allowed 0 to 9007199254740991$"):
        Run(seed, Rules(), ("heuristic",) * 4)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"pretty": 1}, "pretty must be true or false, not 1"),
        ({"kinds": ("heuristic", "clever")},
         "'clever' is not a bot kind: choose from random, heuristic, search, ismcts"),
        ({"kinds": ("random",) * 3}, "('random', 'random', 'random') gives 3 kinds for 4 seats"),
        ({"dealer": True}, "dealer must be a seat 0 to 3 with 4 players, not True"),
        ({"bot_options": (("search_iterations", 0),)},
         "0 is not a number of deals: allowed 1 to 100000"),
        ({"bot_options": (("depth", 3),)}, "unexpected keyword argument 'depth'"),
    ],
)  # fmt: skip
def test_run_names_each_bad_setting(settings: dict[str, object], message: str) -> None:
    given: dict[str, object] = {"seed": 1, "rules": Rules(), "kinds": ("heuristic",) * 4}
    with pytest.raises((ValueError, TypeError)) as caught:
        Run(**{**given, **settings})  # type: ignore[arg-type]
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("args", "option", "text"),
    [((-1, 1, 1), "--first-game", "-1"), ((0, 0, 1), "--games", "0"),
     ((0, True, 1), None, None), ((0, 1, 0), "--jobs", "0"), ((0, 1, 1.5), None, None)],
)  # fmt: skip
def test_run_text_checks_its_span_before_any_game(
    args: tuple[object, object, object], option: str | None, text: str | None
) -> None:
    run = Run(1, Rules(), ("heuristic",) * 4)
    with pytest.raises(ValueError) as caught:
        first, count, jobs = args
        run_text(run, first, count, jobs=jobs)  # type: ignore[arg-type]  # raises at the call
    if option is not None and text is not None:
        value = args[("--first-game", "--games", "--jobs").index(option)]
        assert _as_typed(str(caught.value), value, text) in _simulate_error(
            "--seed", "1", option, text
        )


def test_numpy_integers_are_taken_as_their_ints_and_give_the_same_bytes() -> None:
    np = pytest.importorskip("numpy")
    plain = Run(7, Rules(players=3), ("heuristic", "random", "heuristic"), dealer=1)
    numpy_run = Run(np.int64(7), Rules(players=np.int32(3)), ["heuristic", "random", "heuristic"],  # type: ignore[arg-type]
                    dealer=np.int8(1))  # fmt: skip
    assert numpy_run == plain and type(numpy_run.seed) is int and type(numpy_run.dealer) is int
    assert joined(run_text(numpy_run, np.int64(2), np.int64(3), jobs=np.int64(1))) == joined(
        run_text(plain, 2, 3, jobs=1)
    )


def test_every_game_of_a_run_is_that_of_the_same_seed_on_the_command_line() -> None:
    # A seed once passed as a float or a bool hashed as "7.0" or "True" for the games
    # after the first: the first game was --seed 7's, the others were not.
    from click.testing import CliRunner

    from kow.cli import main

    cli = CliRunner().invoke(main, ["simulate", "--seed", "7", "--games", "4"]).stdout
    assert joined(run_text(Run(7, Rules(), ("heuristic",) * 4), 0, 4)) == (cli, 4)
    assert [json.loads(line)["seed"] for line in cli.splitlines()] == [
        game_seed(7, i) for i in range(4)
    ]


def test_one_kind_for_every_seat_as_on_the_command_line() -> None:
    assert Run(1, Rules(players=3), ("random",)).kinds == ("random",) * 3


@pytest.mark.parametrize(
    ("games", "seconds", "message"),
    [(True, 1.0, "True is not a number of games: allowed 0 or more"),
     (-1, 1.0, "-1 is not a number of games: allowed 0 or more"),
     (10, float("nan"), "seconds_per_game must be a number of seconds, 0 or more, not nan"),
     (10, "1", "seconds_per_game must be a number of seconds, 0 or more, not '1'")],
)  # fmt: skip
def test_auto_jobs_names_a_bad_argument(games: object, seconds: object, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        auto_jobs(games, seconds)  # type: ignore[arg-type]
    assert str(caught.value) == message
    assert auto_jobs(0, 1.0) == 1  # kow analyze may have no decision to share out


def test_costly_games_come_in_blocks_of_a_few_seconds_with_the_same_bytes() -> None:
    # Issue 33, 5: blocks of up to 200 games whatever their cost (7 minutes a block of
    # ismcts games) showed no progress and lost every game of a stopped block.
    from kow.players import game_seconds
    from kow.runs.batch import BLOCK_SECONDS, Run, run_text

    run = Run(7, Rules(players=3, start_cards=2), ("random",) * 3)
    cheap = list(run_text(run, 0, 40, jobs=2))
    assert [n for _, n in cheap] == [3] * 13 + [1]  # 8 blocks a process, at most 200
    costly = list(run_text(run, 0, 40, jobs=2, seconds_per_game=BLOCK_SECONDS / 2))
    assert [n for _, n in costly] == [2] * 20
    assert "".join(t for t, _ in costly) == "".join(t for t, _ in cheap)
    assert game_seconds(["ismcts"] * 4, 7) > BLOCK_SECONDS  # kow simulate --bots ismcts: 1 a block
    with pytest.raises(ValueError, match="seconds_per_game must be a number of seconds"):
        run_text(run, 0, 4, seconds_per_game=-1.0)


def test_run_text_refuses_games_past_the_runs_last_game_before_playing() -> None:
    # Checked when called, as --first-game and --games are: no game is played.
    from kow.settings import MAX_GAMES, SettingError

    run = Run(seed=1, rules=Rules(), kinds=("random",) * 4)
    past = r"4 games from game 999999999998 go past .* allowed 3 games from there"
    with pytest.raises(SettingError, match=past):
        run_text(run, MAX_GAMES - 2, 4)
    assert len(list(run_text(run, MAX_GAMES - 2, 3))) == 3
