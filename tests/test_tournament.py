"""Tournaments: the Wilson interval, rotation through the seats, and --jobs independence."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kow.cli import main
from kow.rules import Rules
from kow.tournament import play_tournament, tournament_game, wilson


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


def test_wilson_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError):
        wilson(5, 4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_bots_rotate_through_the_seats_over_one_seed() -> None:
    rules = Rules(players=3)
    bots = ("random", "heuristic", "heuristic")
    games = [tournament_game(rules, bots, 5, i) for i in range(6)]
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
    assert [r.games for r in one.results()] == [12, 24, 12]


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
