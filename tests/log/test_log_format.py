"""The log format's verbs (:mod:`kow.log`): build, dump, dumps, load, loads and schema.

- :func:`~kow.log.build` of a hand-crafted game: its keys, a game cut short, the votes.
- :func:`~kow.log.dumps`: compact JSON on one line, or pretty with short lists kept on one
  line; ASCII only. :func:`~kow.log.dump` writes it and a newline.
- :func:`~kow.log.loads` / :func:`~kow.log.load` read one log back (text, bytes, a binary
  stream) and refuse JSON that is not one kow log (:class:`~kow.log.LogFormatError`) or
  text that is not JSON (:class:`~kow.log.LogReadError`, placed by line and column).
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import (
    TIE_CUT_DECKS,
    TIE_CUT_RULES,
    TIE_CUT_SCRIPTS,
    agent_log,
    apply_all,
    deal,
    new_state,
    play_stacked,
)
from jsonschema import Draft202012Validator

import kow
from kow import log
from kow.cli import main
from kow.log import LogFormatError, LoggedPlayer, LogReadError, rules_from_log, rules_to_log
from kow.rules import Rules

# Four players, 3 cards, first dealer 0, hearts turned up; seat 3 wins in round 3 after a
# tie cut (the tie-cut game of tests/conftest.py).
RULES, DECKS, SCRIPTS = TIE_CUT_RULES, TIE_CUT_DECKS, TIE_CUT_SCRIPTS
PLAYERS = [LoggedPlayer(f"p{s}", "human") for s in range(4)]


@pytest.fixture(scope="module")
def crafted() -> Any:
    return play_stacked(RULES, 0, DECKS, SCRIPTS, seed=17)


@pytest.fixture(scope="module")
def line() -> str:
    """One line of ``kow simulate``: a compact log, without its newline."""
    result = CliRunner().invoke(main, ["simulate", "-q", "--seed", "4", "--players", "3"])
    assert result.exit_code == 0
    (text,) = result.stdout.splitlines()
    return text


# ----------------------------------------------------------------------------- build


def test_build_gives_the_documented_keys_in_order(crafted: Any) -> None:
    assert list(crafted) == [
        "format", "version", "kow_version", "seed", "rules", "players", "rounds", "result",
    ]  # fmt: skip
    assert (crafted["format"], crafted["version"]) == (log.FORMAT, log.VERSION) == ("kow-log", 1)
    assert crafted["kow_version"] == kow.__version__
    assert crafted["seed"] == 17
    assert crafted["rules"] == rules_to_log(RULES)
    assert crafted["players"][1] == {"seat": 1, "name": "p1", "kind": "human"}
    assert crafted["result"] == {"winner": 3, "rounds_played": 3, "termination": "final-trick"}
    r3 = crafted["rounds"][2]
    assert r3["tie_cut"] == [
        [{"seat": 2, "card": "9c"}, {"seat": 3, "card": "9d"}],
        [{"seat": 2, "card": "4c"}, {"seat": 3, "card": "Jd"}],
    ]
    assert (r3["trump"], r3["trump_method"], r3["trump_chosen_by"]) == ("d", "chosen", 3)
    assert r3["votes"] is None, "no eliminated_vote: votes are null"


def test_build_of_a_game_cut_short_in_a_trick() -> None:
    # Round 2: seat 2 chose hearts and led Kh; then the game stopped.
    state = apply_all(new_state(RULES, 0, DECKS), "3c Ac Qc 7c Kd 3h 8d 5d 4s 9s 4c As h Kh")
    game = log.build(5, RULES, PLAYERS, events=state.events, abandoned=True)
    assert list(game)[-1] == "abandoned" and game["abandoned"] is True
    assert game["result"] == {"winner": None, "rounds_played": 2, "termination": None}
    r2 = game["rounds"][1]
    assert r2["tricks"] == [
        {"number": 1, "leader": 2, "plays": [{"seat": 2, "card": "Kh"}], "winner": None}
    ]
    assert r2["tricks_won"] is None
    assert (r2["eliminated"], r2["dogs_life_granted"], r2["revived"]) == ([], [], [])
    not_marked = log.build(5, RULES, PLAYERS, events=state.events)
    assert "abandoned" not in not_marked
    assert not_marked["result"] == {"winner": None, "rounds_played": 2, "termination": None}


def test_build_of_no_events_has_no_rounds() -> None:
    game = log.build(0, RULES, PLAYERS, events=[], abandoned=True)
    assert game["rounds"] == []
    assert game["result"] == {"winner": None, "rounds_played": 0, "termination": None}


def test_build_lists_votes_only_under_the_eliminated_vote(crafted: Any) -> None:
    rules = Rules(players=3, start_cards=2, lead="dealer-left", eliminated_vote=True)
    decks = [deal(0, ["2c 3c", "Ac 4d", "Kc 5d"], "2h"), deal(1, [None, "As", "Ks"])]
    # Round 1: seat 1 takes Ac, seat 2 takes 5d (3c is a discard): seat 0 is knocked out.
    # Round 2: seat 0 votes spades; the dealer's left (seat 2) leads Ks, As wins the game.
    game = play_stacked(rules, 0, decks, ["2c 3c s", "Ac 4d As", "Kc 5d Ks"])
    r1, r2 = game["rounds"]
    assert r1["votes"] == [], "nobody is out yet: no votes, but a list"
    assert r1["eliminated"] == [0]
    assert r2["votes"] == [{"seat": 0, "suit": "s"}]
    assert (r2["trump"], r2["trump_method"], r2["trump_chosen_by"]) == ("s", "vote", None)
    assert game["result"] == {"winner": 1, "rounds_played": 2, "termination": "final-trick"}
    assert all(rnd["votes"] is None for rnd in crafted["rounds"])


def test_build_logs_a_null_seed_and_the_agent_kind() -> None:
    # A game played through a framework adapter: its deals came from outside kow.
    game = agent_log(None)
    assert game["seed"] is None
    assert game["players"][0] == {"seat": 0, "name": "ppo", "kind": "agent"}
    text = log.dumps(game)
    assert '"seed":null,' in text
    assert log.loads(text) == game
    *_, state = log.replay(game)  # the hands, cuts and tie cuts replay it, seed or none
    rebuilt = log.build(None, rules_from_log(game["rules"]), PLAYERS[:3], events=state.events)
    assert rebuilt["rounds"] == game["rounds"] and rebuilt["seed"] is None


# ----------------------------------------------------------------------------- dumps, dump


def test_compact_text_is_one_line_without_spaces(crafted: Any) -> None:
    text = log.dumps(crafted)
    assert text == json.dumps(crafted, separators=(",", ":"))
    assert "\n" not in text and ": " not in text and ", " not in text
    assert text.startswith('{"format":"kow-log","version":1,"kow_version":')
    assert text.endswith(',"result":{"winner":3,"rounds_played":3,"termination":"final-trick"}}')


def test_pretty_text_keeps_short_lists_on_one_line(crafted: Any) -> None:
    lines = log.dumps(crafted, pretty=True).splitlines()
    assert lines[:3] == ["{", '  "format": "kow-log",', '  "version": 1,']
    for expected in (
        '    {"seat": 0, "name": "p0", "kind": "human"},',
        '      "cut": {"by": 3, "position": 26},',
        '      "hands": [["7c", "8d", "9s"], ["3c", "4c", "5d"], ["Ac", "Kd", "As"], '
        '["Qc", "3h", "4s"]],',
        '      "tricks_won": [0, 0, 2, 1],',
        '            {"seat": 1, "card": "3c"},',  # a trick of four plays is too long
        '          "plays": [{"seat": 2, "card": "Kh"}, {"seat": 3, "card": "Ah"}],',
        '        [{"seat": 2, "card": "9c"}, {"seat": 3, "card": "9d"}],',
        '  "result": {"winner": 3, "rounds_played": 3, "termination": "final-trick"}',
    ):
        assert expected in lines, expected
    assert lines[-1] == "}"
    assert max(map(len, lines)) <= 100


def test_pretty_text_puts_each_hand_on_its_line_when_the_hands_are_long() -> None:
    result = CliRunner().invoke(main, ["simulate", "-q", "--seed", "6", "--players", "7",
                                       "--pretty"])  # fmt: skip
    text = result.stdout
    game = json.loads(text)
    lines = text.splitlines()
    hands = game["rounds"][0]["hands"]
    assert '      "hands": [' in lines
    for seat, hand in enumerate(hands):
        comma = "," if seat < len(hands) - 1 else ""
        assert "        [" + ", ".join(f'"{c}"' for c in hand) + "]" + comma in lines
    assert text == log.dumps(game, pretty=True) + "\n"


@pytest.mark.parametrize("n", [89, 90])
def test_pretty_text_keeps_what_fits_in_100_columns_on_one_line(n: int) -> None:
    # '{"k": ["x...x"]}' is 11 + n columns: one line up to n = 89.
    text = log.dumps({"k": ["x" * n]}, pretty=True)  # type: ignore[typeddict-item, typeddict-unknown-key]
    assert text.count("\n") == (0 if n == 89 else 4)
    assert json.loads(text) == {"k": ["x" * n]}
    # Within an object too long for one line, '  "k": ["x...x"],' is 12 + n columns (with
    # its comma; the comma is not counted): one line up to n = 89.
    lines = log.dumps({"k": ["x" * n], "a": "y" * 100}, pretty=True).splitlines()  # type: ignore[typeddict-item, typeddict-unknown-key]
    if n == 89:
        assert '  "k": ["' + "x" * 89 + '"],' in lines
    else:
        assert lines[1:4] == ['  "k": [', '    "' + "x" * 90 + '"', "  ],"]


def test_text_is_ascii_and_names_round_trip(crafted: Any) -> None:
    players = [LoggedPlayer(name, "human") for name in ("Zoë", "🂡 ace", 'say "hi"', "back\\slash")]
    state = new_state(RULES, 0, DECKS)
    game = log.build(0, RULES, players, events=state.events, abandoned=True)
    for pretty in (False, True):
        text = log.dumps(game, pretty)
        assert text.isascii()
        assert '"Zo\\u00eb"' in text
        assert [p["name"] for p in log.loads(text)["players"]] == [p.name for p in players]


@pytest.mark.parametrize("pretty", [False, True])
def test_dump_writes_dumps_and_a_newline(crafted: Any, pretty: bool) -> None:
    stream = io.StringIO()
    log.dump(crafted, stream, pretty)
    text = stream.getvalue()
    assert text == log.dumps(crafted, pretty) + "\n"
    assert not text.endswith("\n\n")
    if not pretty:
        assert text.count("\n") == 1
    assert log.loads(text) == crafted


def test_pretty_and_compact_load_to_the_same_value(line: str) -> None:
    game = log.loads(line)
    pretty = log.dumps(game, pretty=True)
    assert pretty != line and pretty.count("\n") > 40
    assert log.loads(pretty) == log.loads(log.dumps(game)) == game
    assert log.dumps(log.loads(pretty)) == line


# ----------------------------------------------------------------------------- loads, load


def test_loads_of_a_simulate_line_returns_the_dict(line: str) -> None:
    game = log.loads(line)
    assert isinstance(game, dict)
    assert game == json.loads(line)
    assert game["format"] == "kow-log" and game["seed"] == 4
    assert len(game["players"]) == 3
    assert log.loads(line.encode()) == game
    assert log.loads(line + "\n") == game
    assert log.loads("\n\n  " + line + "  \n") == game


def test_load_reads_a_binary_stream(line: str) -> None:
    stream = io.BytesIO(line.encode() + b"\n")
    game = log.load(stream)
    assert game == json.loads(line)
    assert stream.read() == b"", "the stream is read to its end"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 2]", "line 1: a log is a JSON object, not list"),
        ("7", "line 1: a log is a JSON object, not int"),
        ('"kow-log"', "line 1: a log is a JSON object, not str"),
        ("\n\nnull", "line 3: a log is a JSON object, not NoneType"),
        ("{}", "line 1: not a kow log of version 1 (format None, version None)"),
        ('{"format": "other", "version": 1}',
         "line 1: not a kow log of version 1 (format 'other', version 1)"),
        ('{"format": "kow-log", "version": 2}',
         "line 1: not a kow log of version 1 (format 'kow-log', version 2)"),
        ('{"format": "kow-log", "version": "1"}',
         "line 1: not a kow log of version 1 (format 'kow-log', version '1')"),
        ("", "the input holds no game"),
        (" \n\t\n", "the input holds no game"),
        ("{} {}", "the input holds more than one value: read it with iter_games"),
        ("[1]\n7", "the input holds more than one value: read it with iter_games"),
    ],
)  # fmt: skip
def test_json_that_is_not_one_kow_log_is_refused(text: str, message: str) -> None:
    for given in (text, text.encode()):
        with pytest.raises(LogFormatError) as err:
            log.loads(given)
        assert str(err.value) == message
    with pytest.raises(LogFormatError) as err:
        log.load(io.BytesIO(text.encode()))
    assert str(err.value) == message
    assert issubclass(LogFormatError, ValueError)


def test_two_logs_are_more_than_one_value(line: str) -> None:
    with pytest.raises(LogFormatError, match="more than one value"):
        log.loads(line + "\n" + line + "\n")


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ('{"format": "kow-log",\n "version": }', (2, 13), "line 2, column 13: not JSON: "
         "Expecting value"),
        ("[1,", (1, 4), "line 1, column 4: not JSON: Expecting value (the input ends here:"
         " cut short?)"),
        ('{"a": 1} x', (1, 10), "line 1, column 10: not JSON: Expecting value"),
        ('\n\n  {"a" 1}', (3, 8), "line 3, column 8: not JSON: Expecting ':' delimiter"),
    ],
)  # fmt: skip
def test_text_that_is_not_json_is_placed(text: str, where: tuple[int, int], message: str) -> None:
    with pytest.raises(LogReadError) as err:
        log.loads(text)
    assert (err.value.line, err.value.column) == where
    assert str(err.value) == message
    assert not isinstance(err.value, LogFormatError)


def test_bytes_that_are_not_utf8_are_placed() -> None:
    with pytest.raises(LogReadError) as err:
        log.loads(b'{"a":\n"\xff"}')
    assert (err.value.line, err.value.column) == (2, 2)
    assert "not UTF-8 text (byte 8 of the file is 0xff)" in str(err.value)


# ----------------------------------------------------------------------------- schema


def test_build_refuses_a_kind_the_format_does_not_have() -> None:
    players = [LoggedPlayer("p0", "human"), LoggedPlayer("p1", "scripted")]
    with pytest.raises(ValueError, match=r"players\[1\]\.kind: 'scripted' is no kind of the log"):
        log.build(0, RULES, players, events=[])


def test_the_logs_built_here_validate_against_the_schema(crafted: Any) -> None:
    schema = log.schema()
    validator = Draft202012Validator(schema)
    assert list(schema["properties"]) == [*crafted, "abandoned"]
    game = crafted
    assert list(validator.iter_errors(game)) == []
    made_up = dict(crafted, players=[dict(p, kind="scripted") for p in crafted["players"]])
    assert [e.absolute_path[-1] for e in validator.iter_errors(made_up)] == ["kind"] * 4
    state = apply_all(new_state(RULES, 0, DECKS), "3c Ac")
    cut_short = log.build(0, RULES, PLAYERS, events=state.events, abandoned=True)
    assert list(validator.iter_errors(cut_short)) == []
    wrong = dict(game, version=2)
    assert [e.absolute_path[0] for e in validator.iter_errors(wrong)] == ["version"]
    schema["title"] = "changed"
    assert log.schema()["title"] != "changed", "each call returns a new dict"


def test_load_and_loads_refuse_what_they_cannot_read_by_name() -> None:
    binary = r"^load reads a binary stream, e.g. open\(path, 'rb'\), not StringIO$"
    with pytest.raises(TypeError, match=binary):
        log.load(io.StringIO("{}"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="^load reads a binary stream"):
        log.load("game.json")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="^loads reads str or UTF-8 bytes, not int$"):
        log.loads(5)  # type: ignore[arg-type]
    with pytest.raises(log.LogReadError, match="not UTF-8"):
        log.loads('{"a": "\udce9"}')  # a lone surrogate: no UnicodeEncodeError


# ----------------------------------------------------------------------------- termination


def test_termination_is_the_engines_and_the_documented_count_holds() -> None:
    # docs/log-format.md counts how 1,000 games of seed 1 ended with jq; its output is
    # written there. The same count, from the logs, and every value the engine's.
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "log-format.md").read_text()
    section = doc[doc.index("How a run's games ended") :]
    command = section.split("```sh\n", 1)[1].split("\n```", 1)[0]
    shown = section.split("```text\n", 1)[1].split("\n```", 1)[0]
    assert command.startswith("kow simulate --seed 1 --games 1000 -q | jq -n -c 'reduce")
    result = CliRunner().invoke(main, ["simulate", "--seed", "1", "--games", "1000", "-q"])
    assert result.exit_code == 0
    counts: dict[str, int] = {}
    for line in result.stdout.splitlines():
        game = json.loads(line)
        why = game["result"]["termination"]
        counts[why] = counts.get(why, 0) + 1
        *_, state = log.replay(game)
        assert state.outcome is not None and why == state.outcome.termination.value
    assert json.loads(shown) == counts == {"sweep": 653, "final-trick": 347}
