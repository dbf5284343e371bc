"""A player's name: one rule (kow.log.check_name), followed by every writer, verify and
the JSON Schema, so that kow never writes a name it then refuses (issue 20, kinds 4, 9
and 12)."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kow import log
from kow.cli import main
from kow.game import bots_rng, play_game
from kow.log import LoggedPlayer, check_name, game_text
from kow.players import make_bot
from kow.rules import Rules
from kow.verify import MAX_NAME, NOT_TEXT, verify_game

jsonschema = pytest.importorskip("jsonschema")

RULES = Rules(players=3)


def _game(names: list[str]) -> Any:
    """Return the log of a seeded heuristic game whose seats bear ``names``."""
    rng = bots_rng(5)
    bots = [make_bot("heuristic", f"heuristic-{s}", rng) for s in range(3)]
    state = play_game(RULES, bots, 5)
    return log.build(5, RULES, [LoggedPlayer(n, "heuristic") for n in names], events=state.events)


GOOD = _game(["a", "b", "c"])
NAME_SCHEMA = log.schema()["$defs"]["player"]["properties"]["name"]
NAME_VALIDATOR = jsonschema.Draft202012Validator(NAME_SCHEMA)

# Any text, surrogates (undecodable bytes) and controls included, short and long.
TEXT = st.text(st.characters(exclude_categories=()), max_size=80) | st.sampled_from(
    ["", "x" * MAX_NAME, "x" * (MAX_NAME + 1), "caf\udce9", "a\tb", "\x9b[31m", "a\u202eb"]
)


@settings(max_examples=300, deadline=None)
@given(name=TEXT)
def test_check_name_verify_and_the_schema_agree_on_every_text(name: str) -> None:
    try:
        check_name(name)
        accepted = True
    except ValueError:
        accepted = False
    game = json.loads(json.dumps(GOOD))
    game["players"][1]["name"] = name
    fault = verify_game(game)
    assert (fault is None) == accepted, fault
    assert NAME_VALIDATOR.is_valid(name) == accepted
    if not accepted:
        assert fault is not None and fault.message.startswith("players[1].name: ")


@settings(max_examples=100, deadline=None)
@given(name=TEXT)
def test_what_a_writer_writes_verify_reads_as_legal(name: str) -> None:
    players = [LoggedPlayer(name, "human"), LoggedPlayer("b", "heuristic"),
               LoggedPlayer("c", "heuristic")]  # fmt: skip
    rng = bots_rng(5)
    bots = [make_bot("heuristic", f"h{s}", rng) for s in range(3)]
    events = play_game(RULES, bots, 5).events
    writers = {
        "build": lambda: log.dumps(log.build(5, RULES, players, events=events)),
        "game_text": lambda: game_text(5, RULES, players, events=events),
    }
    for writer, write in writers.items():
        try:
            text = write()  # type: ignore[no-untyped-call]
        except ValueError as err:
            assert str(err).startswith("players[0].name: "), writer
            with pytest.raises(ValueError):
                check_name(name)
            continue
        [(_, game)] = list(log.iter_games(io.BytesIO(text.encode())))
        assert verify_game(game) is None, writer
        assert game["players"][0]["name"] == name


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("tab\there", "'tab\\there' has a control character (U+0009); names are printable text"),
        ("caf\udce9",
         "'caf\\udce9' holds an undecodable byte 0xe9 (a lone surrogate); names are text"),
        ("\ud83d", "'\\ud83d' holds the lone surrogate U+D83D, which is no character"),
        ("x\x1b]0;t\x07",
         "'x\\x1b]0;t\\x07' has a control character (U+001B); names are printable text"),
        ("a\u202eb", "'a\\u202eb' has a line separator or a bidirectional control (U+202E); "
                     "names are printable text"),
        ("x" * 65, "'xxxxxxxxxxxxxxxxxxxx...' has 65 characters; a name has at most 64"),
        ("", "'' is empty; every player has a name"),
        # Issue 33, 9: invisible characters were names, then shown escaped everywhere.
        ("Jo\u200dan", "'Jo\\u200dan' has an invisible format character (U+200D); names are "
                       "printable text"),
        ("Ada\u00ad", "'Ada\\xad' has an invisible format character (U+00AD); names are "
                      "printable text"),
        ("\ufeffBen", "'\\ufeffBen' has an invisible format character (U+FEFF); names are "
                      "printable text"),
        ("Ada\u00a0L", "'Ada\\xa0L' has a space other than U+0020 (U+00A0); names are "
                       "printable text"),
        ("\ue000", "'\\ue000' has a private-use character (U+E000); names are printable text"),
    ],
)  # fmt: skip
def test_every_writer_refuses_early_naming_the_value(name: str, message: str) -> None:
    players = [LoggedPlayer(name, "agent"), LoggedPlayer("b", "agent"), LoggedPlayer("c", "agent")]
    events = play_game(RULES, [make_bot("random", str(s), random.Random(s)) for s in range(3)],
                       1).events  # fmt: skip
    for write in (
        lambda: log.build(1, RULES, players, events=events),
        lambda: game_text(1, RULES, players, events=events),
        lambda: log.dumps({**GOOD, "players": [{"seat": 0, "name": name, "kind": "agent"}]}),  # type: ignore[typeddict-item]
    ):
        with pytest.raises(ValueError) as caught:
            write()
        assert str(caught.value) == f"players[0].name: {message}"
    with pytest.raises(ValueError) as caught:
        make_bot("random", name, random.Random(1))
    assert str(caught.value) == f"name: {message}"
    game = json.loads(json.dumps(GOOD))
    game["players"][0]["name"] = name
    assert str(verify_game(game)) == f"players[0].name: {message}"


def test_play_refuses_an_invisible_character_in_a_name() -> None:
    result = CliRunner().invoke(main, ["play", "--name", "Jo\u200dan"], input="")
    assert (result.exit_code, result.stdout) == (2, "")
    assert "'Jo\\u200dan' has an invisible format character (U+200D)" in result.stderr


def test_play_refuses_an_undecodable_byte_in_a_name_as_such() -> None:
    result = CliRunner().invoke(main, ["play", "--name", "caf\udce9"], input="")
    assert result.exit_code == 2
    assert "'caf\\udce9' holds an undecodable byte 0xe9 (a lone surrogate)" in result.stderr
    assert "control character" not in result.stderr


def test_the_openspiel_adapter_refuses_to_log_a_name_it_would_not_read() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import kow.frameworks.openspiel  # noqa: F401  -- registers the game

    state = pyspiel.load_game("python_knock_out_whist", {"players": 2}).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match=r"^players\[1\]\.name: 'b\\tb' has a control"):
        state.log([LoggedPlayer("a", "agent"), LoggedPlayer("b\tb", "agent")])


def test_the_schema_states_the_rule_word_for_word() -> None:
    # "not pattern", not "^[^...]*$": Python's $ matches before a final newline.
    assert NAME_SCHEMA["not"] == {"pattern": f"[{NOT_TEXT}]"}
    assert (NAME_SCHEMA["minLength"], NAME_SCHEMA["maxLength"]) == (1, MAX_NAME)
    assert not re.search(NAME_SCHEMA["not"]["pattern"], "Zoë 😀")


# "0.5.0\n": the schema's pattern once ended in $, which Python's re matches before a
# final newline, so jsonschema took what verify refused.
@pytest.mark.parametrize("version", ["", "0.5\x1b]0;x\x07", "v" * 65, "0.5.0\n"])
def test_a_version_that_is_no_version_is_a_fault_in_verify_and_the_schema(version: str) -> None:
    game = json.loads(json.dumps(GOOD))
    game["kow_version"] = version
    fault = verify_game(game)
    assert fault is not None and fault.message.startswith("kow_version: ")
    validator = jsonschema.Draft202012Validator(log.schema()["properties"]["kow_version"])
    assert not validator.is_valid(version)


def test_a_huge_name_is_refused_by_verify_and_replay_in_bounded_memory(tmp_path: Path) -> None:
    # A 50 MB name once passed verify, and replay then took 17 GB writing it at every trick.
    game = json.loads(json.dumps(GOOD))
    game["players"][0]["name"] = "x" * 5_000_000
    path = tmp_path / "big.json"
    path.write_text(json.dumps(game), encoding="ascii")
    code = (
        "import resource, sys\n"
        "from kow.cli import main\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit:\n"
        "    pass\n"
        # VmHWM, this program's own peak: ru_maxrss survives exec, so it would count the
        # pytest worker that forked it (hundreds of MB late in a run).
        "try:\n"
        "    peak = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
        "    print(peak.split()[1], file=sys.stderr)\n"
        "except OSError:\n"
        "    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
    )
    for command in ("verify", "replay", "export", "analyze"):
        args = [command, str(path)] + (["--table", "games"] if command == "export" else [])
        proc = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True
        )
        assert "has 5000000 characters; a name has at most 64" in proc.stderr + proc.stdout
        assert len(proc.stdout) < 1000, command
        peak_kb = int(proc.stderr.split()[-1])
        assert peak_kb < 400_000, (command, peak_kb)  # a few times the file, never per trick


def test_no_pattern_of_the_schema_takes_a_final_newline() -> None:
    # Python's re (which jsonschema uses) matches $ before a final newline.
    s = log.schema()
    card = jsonschema.Draft202012Validator({**s["$defs"]["card"], "$defs": s["$defs"]})
    assert card.is_valid("Th") and not card.is_valid("Th\n")
    assert NAME_VALIDATOR.is_valid("Ann") and not NAME_VALIDATOR.is_valid("Ann\n")


def test_every_character_a_name_refuses_would_show_escaped_and_the_reverse() -> None:
    # The rule refuses what kow.screen.printable escapes, in the Basic Multilingual Plane
    # (unassigned characters aside: their printability changes with the Unicode version).
    import unicodedata

    not_text = re.compile(f"[{NOT_TEXT}]")
    for code in range(0x10000):
        char = chr(code)
        if unicodedata.category(char) == "Cn":
            continue
        assert bool(not_text.match(char)) == (not char.isprintable()), hex(code)
