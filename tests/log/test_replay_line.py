"""kow.log.replay_line proves a game from its line alone (kow export with jobs 1 reads with
it): the deals, decisions and plays are read off the text as kow writes it, json reads the
rest, and the game is proved only when the engine's game, written again, is the line byte
for byte. read_logs' ``prove_line`` takes it: a line it proves is not read by json."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from conftest import seen

from kow.cli import main
from kow.engine import State
from kow.log import GameRecord, InputEnd, read_logs, replay_exact, replay_line
from kow.runs.export import TABLES
from kow.runs.export_loop import ExportedGame, export_games

VARIANTS = {
    "rules text": [],
    "traditional": ["--preset", "traditional"],  # the dog's life: knocks
    "dog's life once per player": ["--dogs-life", "once-per-player"],
    "votes": ["--eliminated-vote", "--players", "5"],
    "fixed trump, dealer's left leads": ["--fixed-trump", "--lead", "dealer-left"],
    "2 players": ["--players", "2"],
    "7 players": ["--players", "7", "--no-sweep-wins"],
}


def simulated(seed: int, games: int, *options: str) -> list[str]:
    """Return the lines of ``games`` games of random bots from ``seed`` under ``options``."""
    result = CliRunner().invoke(
        main,
        ["simulate", "--seed", str(seed), "--games", str(games), "--bots", "random", *options],
    )
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_replay_line_proves_kows_games_of_every_variant() -> None:
    lines = [line for options in VARIANTS.values() for line in simulated(5, 12, *options)]
    text = "\n".join(lines)
    # Every form the line's reader meets is here: knocks, votes, tie cuts, a trump chosen,
    # a seat not dealt in (a dog's life left out of a deal: null), a turned-up card.
    for part in ('"knock":true', '"votes":[{', '"tie_cut":[[', '"trump_method":"chosen"',
                 '"trump_method":"vote"', ',null', '"turned_up":"'):  # fmt: skip
        assert part in text, part
    for line in lines:
        proved = replay_line(line)
        assert proved is not None, line[:200]
        game, state = proved.game, proved.state
        read = json.loads(line)
        del read["rounds"]
        assert game == read and list(game) == list(read)  # the keys in the log's order
        exact = replay_exact(json.loads(line), line)
        assert isinstance(state, State) and exact is not None
        assert state.events == exact.events and state.outcome == exact.outcome


def test_replay_line_refuses_a_line_it_does_not_prove_and_raises_nothing() -> None:
    (line,) = simulated(8, 1)
    game = json.loads(line)
    plays = game["rounds"][0]["tricks"][0]["plays"]
    first, second = plays[0]["card"], plays[1]["card"]
    swapped = line.replace(f'"card":"{first}"', '"card":"XX"', 1)
    swapped = swapped.replace(f'"card":"{second}"', f'"card":"{first}"', 1)
    swapped = swapped.replace('"card":"XX"', f'"card":"{second}"', 1)  # two plays swapped
    assert swapped != line
    older = dict(game, kow_version="0.0.1")
    named = json.loads(line)
    named["players"][0]["name"] = 'say "hi"'  # an escape: \" in the text
    refused = {
        "two plays swapped": swapped,
        "spaced out": json.dumps(game, indent=1),
        "another kow version": json.dumps(older, separators=(",", ":")),
        "an escape in a name": json.dumps(named, separators=(",", ":"), ensure_ascii=False),
        "cut short": line[: len(line) // 2],
        "one more character": line + " ",
        "a second value": line + line,
        "a card past the deck": line.replace('"card":"', '"card":"Z', 1),
        "an empty object": "{}",
        "empty": "",
        "not JSON": '{"format":"kow-log",,"rounds":[],"result":{}}',
        "a seat of two digits": line.replace('{"seat":', '{"seat":1', 1),
    }
    assert replay_line(line) is not None
    for why, text in refused.items():
        assert replay_line(text) is None, why
    # Every cut of the line, and the line with one character dropped: never an exception,
    # and a proof only of a legal game's text that replay_exact proves too, with the same
    # game (a name one letter shorter is a name).
    proved: list[int] = []
    for at in range(len(line)):
        for text in (line[:at], line[:at] + line[at + 1 :]):
            if agrees_with_replay_exact(text):
                proved.append(at)
    # Still legal: a letter of a name dropped (another name), or a digit of a cut's
    # position (a cut of another depth: the deck replayed is the hands logged).
    names = [range(*m.span(1)) for m in re.finditer(r'"name":"([^"]*)"', line)]
    cuts = [range(*m.span(1)) for m in re.finditer(r'"position":(\d+)', line)]
    assert [len(name) for name in names] == [8, 8, 8, 8] and cuts
    assert all(any(at in span for span in names + cuts) for at in proved), proved
    assert set(proved) >= {at for name in names for at in name}


def agrees_with_replay_exact(text: str) -> bool:
    """Return whether ``replay_line`` proves ``text``, checking that it proves only what
    :func:`replay_exact` proves of the text parsed, with the same game."""
    proved = replay_line(text)
    if proved is None:
        return False
    game, state = proved.game, proved.state
    parsed = json.loads(text)
    exact = replay_exact(parsed, text)
    assert exact is not None and exact.events == state.events
    del parsed["rounds"]
    assert game == parsed
    return True


def test_a_line_prove_line_proves_is_not_read_by_json(tmp_path: Path, measured: list[int]) -> None:
    lines = simulated(3, 3)
    refused_line = lines[1]
    # Line 5 repeats a key (a fault of its game alone, placed there), line 6 repeats
    # game 1 whole, and the input ends in a value cut short (placed after it, on line 8).
    text = "\n".join([*lines, "", '{"a": 1, "a": 2}', lines[0], '{"b": ']) + "\n"
    path = tmp_path / "g.jsonl"
    path.write_text(text, encoding="utf-8")
    asked: list[str] = []

    def marked(line: str) -> tuple[Any, object] | None:
        asked.append(line)
        if line not in lines or line == refused_line:
            return None
        return {"head": len(asked)}, ("proof", len(asked))

    items = list(read_logs([str(path)], prove_line=marked))
    assert measured == [len(refused_line), len('{"a":2}')]  # the others: not read
    plain = list(read_logs([str(path)]))
    assert seen(items, games=False) == seen(plain, games=False)
    # Asked of each line that starts with an object, read whole (the last, cut short, as
    # often as the reader reads on before it finds it ends there).
    assert asked[:6] == [*lines, '{"a": 1, "a": 2}', lines[0], '{"b": ']
    assert set(asked[6:]) <= {'{"b": '}
    records = [item for item in items if isinstance(item, GameRecord)]
    assert [r.game for r in records] == [
        {"head": 1}, json.loads(lines[1]), {"head": 3}, {"a": 2}, {"head": 5}
    ]  # fmt: skip
    assert [r.proof for r in records] == [("proof", 1), None, ("proof", 3), None, ("proof", 5)]
    assert [r.text for r in records] == [lines[0], lines[1], lines[2], None, lines[0]]
    assert str(records[3].fault).startswith('line 5, column 10: ambiguous: the key "a"')
    assert records[4].note == f"{path}: game 5 (line 6) repeats game 1 whole"
    end = items[-1]
    assert isinstance(end, InputEnd) and end.why is not None
    assert end.why.startswith("line 8, column 1: not JSON")


def test_export_of_lines_proved_by_replay_line_is_the_same_text(tmp_path: Path) -> None:
    lines = [line for options in VARIANTS.values() for line in simulated(11, 3, *options)]
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    plain = list(export_games(read_logs([str(path)]), TABLES))
    records = list(read_logs([str(path)], prove=replay_exact, prove_line=replay_line))
    assert all(isinstance(r.proof, State) for r in records if isinstance(r, GameRecord))
    assert all("rounds" not in r.game for r in records if isinstance(r, GameRecord))
    proved = list(export_games(records, TABLES, proved=True))
    assert len(plain) == len(lines) + 1
    assert [item.text for item in proved if isinstance(item, ExportedGame)] == [
        item.text for item in plain if isinstance(item, ExportedGame)
    ]


def test_replay_line_gives_each_game_its_own_rules_and_players() -> None:
    # The rules and players read of one game's text are kept for the next game with the
    # same text: each game gets its own copy, equal to json's, and a change to one game's
    # does not reach another's.
    first, second = simulated(4, 2, "--players", "3")
    one, two = replay_line(first), replay_line(second)
    assert one is not None and two is not None
    assert one.game["players"] == two.game["players"] == json.loads(second)["players"]
    assert one.game["rules"] == two.game["rules"] == json.loads(second)["rules"]
    one.game["players"][0]["name"] = "changed"
    one.game["rules"]["players"] = 9
    again = replay_line(second)
    assert again is not None and again.game["players"] == json.loads(second)["players"]
    assert two.game["rules"] == json.loads(second)["rules"]
    assert again.game["players"] is not two.game["players"]
    assert again.game["players"][1] is not two.game["players"][1]
