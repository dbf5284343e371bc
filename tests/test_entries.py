"""What a person types (``kow.entries``), at every prompt of ``kow play`` and in every
option that takes a seat, a game or a count.

The prompts are driven through the command line with piped input: a script of the entries
that play a game to its end (worked out by playing the same seed with a stand-in that
takes the first legal action), with odd text typed before the entries of each kind of
prompt.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kow import log
from kow.cards import CardError, parse_card
from kow.cli import main
from kow.engine.view import View
from kow.entries import (
    MAX_ENTRY,
    EntryError,
    check_entry,
    is_number,
    number_type,
    parse_number,
    shown,
)
from kow.events import Phase
from kow.game import bots_rng, play_game
from kow.players import Player, make_bot
from kow.rules import Rules
from kow.verify import verify_game

UTF8 = {"LC_ALL": "C.UTF-8", "LC_CTYPE": None, "LANG": None}

# ----------------------------------------------------------------------------- the parser


@given(st.text(max_size=12))
def test_a_number_is_the_digits_0_to_9_and_nothing_else(text: str) -> None:
    body = text.strip()
    ascii_digits = body != "" and all("0" <= c <= "9" for c in body)
    try:
        value = parse_number(text, 0, None)
    except EntryError as err:
        assert not ascii_digits
        assert shown(text) in str(err) and "in the digits 0-9" in str(err)
    else:
        assert ascii_digits and value == int(body)


@pytest.mark.parametrize("text", ["²", "¹", "٣", "½", "3²", "１", "-1", "+1", "1_0", "1.0", "0x1"])
def test_digits_python_half_accepts_are_refused_by_name(text: str) -> None:
    with pytest.raises(EntryError) as caught:
        parse_number(text, 1, 7, what="a card's number")
    allowed = "allowed 1 to 7, in the digits 0-9"
    assert str(caught.value) == f"{text!r} is not a card's number: {allowed}"


def test_a_number_out_of_range_names_the_range() -> None:
    assert parse_number(" 7 ", 1, 7) == 7
    with pytest.raises(EntryError, match=r"^'8' is not a seat: allowed 0 to 3$"):
        parse_number("8", 0, 3, what="a seat")
    with pytest.raises(EntryError, match=r"^'0' is not a game number: allowed 1 or more$"):
        parse_number("0", 1, None, what="a game number")


def test_number_type_reads_an_argparse_option_as_kow_reads_a_number(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="script.py")
    parser.add_argument("--games", type=number_type(1, 1000, "a number of games"), default=5)
    assert parser.parse_args([]).games == 5
    assert parser.parse_args(["--games", " 012 "]).games == 12
    for value, allowed in [
        ("٣", "allowed 1 to 1000, in the digits 0-9"),  # int("٣") == 3
        ("²", "allowed 1 to 1000, in the digits 0-9"),
        ("-1", "allowed 1 to 1000, in the digits 0-9"),
        ("1001", "allowed 1 to 1000"),
    ]:
        with pytest.raises(SystemExit) as exit_:
            parser.parse_args(["--games", value])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("usage: script.py")
        assert err.splitlines()[-1] == (
            f"script.py: error: argument --games: {value!r} is not a number of games: {allowed}"
        )
    with pytest.raises(argparse.ArgumentTypeError, match=r"^'0' is not a seat: allowed 1 or more$"):
        number_type(1, None, "a seat")("0")


def test_an_entry_past_the_limit_is_refused_unread() -> None:
    assert check_entry("x" * MAX_ENTRY) == "x" * MAX_ENTRY
    with pytest.raises(EntryError) as caught:
        parse_number("9" * 5000, 0, None)  # past int()'s own limit of 4300 digits
    assert str(caught.value) == (
        f"'{'9' * 30}...' is too long: a number has at most {MAX_ENTRY} characters"
    )


def test_messages_show_control_characters_escaped() -> None:
    with pytest.raises(EntryError) as caught:
        parse_number("\x1b]0;pwned\x07", 1, 7)
    assert "\x1b" not in str(caught.value) and "'\\x1b]0;pwned\\x07'" in str(caught.value)


def test_is_number_tells_a_number_in_any_script_from_a_card() -> None:
    assert [is_number(t) for t in ("2", "²", "٣", "-1", "10h", "h10", "", "ten")] == [
        True, True, True, True, False, False, False, False,
    ]  # fmt: skip


def test_reading_a_long_card_entry_takes_time_linear_in_its_length() -> None:
    # One word of 300,000 characters took 25 s: every cut of it was copied and looked up.
    start = time.perf_counter()
    for text in ("h" * 300_000, "9" * 300_000 + "h", "10" * 150_000):
        with pytest.raises(CardError):
            parse_card(text)
    assert time.perf_counter() - start < 1.0


# ----------------------------------------------------------------------------- options


def run(*args: str, stdin: str = "") -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def one_game(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("games") / "game.jsonl"
    code, out, _ = run("simulate", "--seed", "3", "--players", "3", "--start-cards", "3")
    assert code == 0
    path.write_text(out)
    return str(path)


COUNTS = [
    (["simulate"], "--seed", "a seed", "0 to 9007199254740991"),
    (["simulate"], "--games", "a number of games", "1 to 1000000000000"),
    (["simulate"], "--first-game", "a game number", "0 to 1000000000000"),
    (["simulate"], "--players", "a number of players", "2 to 7"),
    (["simulate"], "--start-cards", "a number of cards", "1 or more"),
    (["simulate"], "--dealer", "a seat", "0 or more"),
    (["simulate"], "--jobs", "a number of processes", "1 to "),
    (["simulate"], "--search-deals", "a number of deals", "1 to 100000"),
    (["tournament"], "--games", "a number of games", "1 to 1000000000000"),
    (["play"], "--humans", "a number of people", "1 to 7"),
    (["replay", "GAMES"], "--game", "a game number", "1 or more"),
    (["replay", "GAMES"], "--round", "a round number", "1 or more"),
    (["analyze", "GAMES"], "--game", "a game number", "1 or more"),
    (["analyze", "GAMES"], "--deals", "a number of deals", "2 to 100000"),
    (["analyze", "GAMES"], "--seed", "a seed", "0 to 9007199254740991"),
    (["analyze", "GAMES"], "--jobs", "a number of processes", "1 to "),
]


@pytest.mark.parametrize(("command", "option", "what", "allowed"), COUNTS)
@pytest.mark.parametrize("value", ["²", "abc", "٣", "-1", "--json", "1e3", "9" * 200])
def test_every_option_of_a_count_refuses_what_is_not_digits(
    command: list[str], option: str, what: str, allowed: str, value: str, one_game: str
) -> None:
    args = [one_game if a == "GAMES" else a for a in command]
    code, out, err = run(*args, f"{option}={value}")
    assert code == 2 and out == ""
    message = " ".join(err.split())
    assert f"Invalid value for '{option}'" in message
    if len(value) > MAX_ENTRY:
        assert f"is too long: {what} has at most {MAX_ENTRY} characters" in message
    else:
        assert f"{value!r} is not {what}: allowed {allowed}" in message
        assert "in the digits 0-9" in message


def test_play_with_no_humans_says_where_bots_play_alone() -> None:
    code, out, err = run("play", "--humans", "0")
    assert code == 2 and out == ""
    message = " ".join(err.split())
    assert "'0' is not a number of people: allowed 1 to 7; bots alone play with kow simulate" in (
        message
    )
    code, out, err = run("play", "--humans", "9")  # too many: no word of bots alone
    assert code == 2 and out == ""
    assert " ".join(err.split()).endswith("'9' is not a number of people: allowed 1 to 7")


def test_seed_abc_says_what_a_seed_is() -> None:
    code, _, err = run("simulate", "--seed", "abc")
    assert code == 2
    assert "'abc' is not a seed: allowed 0 to 9007199254740991, in the digits 0-9" in err
    assert "integer range" not in err


@pytest.mark.parametrize(
    ("seat", "message"),
    [
        ("²", "'²' is not a seat: allowed 0 to 2, in the digits 0-9 (0-based: game 1 of"),
        ("--5", "'--5' is not a seat: allowed 0 to 2, in the digits 0-9"),
        ("٣", "'٣' is not a seat: allowed 0 to 2, in the digits 0-9"),
        ("3", "'3' is not a seat: allowed 0 to 2 (0-based: game 1 of"),
        ("--json", "has no player named '--json'"),
    ],
)
def test_analyze_seat_refuses_odd_values_as_a_usage_error(
    seat: str, message: str, one_game: str
) -> None:
    code, out, err = run("analyze", one_game, "--iterations", "2", "--seat", seat)
    assert code == 2 and out == ""
    assert message in " ".join(err.split())
    if seat == "--json":
        assert "looks like an option: put the seat right after --seat" in " ".join(err.split())


def test_analyze_seat_still_takes_a_number_or_a_name(one_game: str) -> None:
    for seat in ("1", " 01 ", "ben"):
        code, out, err = run("analyze", one_game, "--iterations", "2", "--seat", seat, "--json")
        assert code == 0, err
        assert {d["seat"] for d in json.loads(out)["decisions"]} == {1}


def test_analyze_seat_takes_a_name_that_reads_as_a_number(one_game: str, tmp_path: Path) -> None:
    game = json.loads(Path(one_game).read_text())
    game["players"][1]["name"], game["players"][2]["name"] = "²", "-1"
    path = tmp_path / "numbers.jsonl"
    path.write_text(json.dumps(game) + "\n")
    for seat, expected in (("²", 1), ("-1", 2), ("2", 2)):  # 0-9: a seat number first
        code, out, err = run("analyze", str(path), "--iterations", "2", "--seat", seat, "--json")
        assert code == 0, err
        assert {d["seat"] for d in json.loads(out)["decisions"]} == {expected}
    code, _, err = run("analyze", str(path), "--iterations", "2", "--seat", "³")
    assert code == 2 and "'³' is not a seat: allowed 0 to 2, in the digits 0-9" in err


# ----------------------------------------------------------------------------- prompts


class Entry(NamedTuple):
    """One line of a script: the kind of prompt it answers and the text typed."""

    kind: str
    text: str


class FirstLegal(Player):
    """Stands in for a person: takes the first legal action, noting the entries typed."""

    kind = "human"

    def __init__(self, name: str, entries: list[Entry], last: list[str]) -> None:
        super().__init__(name)
        self.entries = entries
        self.last = last

    def act(self, view: View) -> int:
        if self.last and self.last[0] != self.name:
            self.entries.append(Entry("hand-over", ""))
        self.last[:] = [self.name]
        action = view.legal[0]
        if view.phase is Phase.PLAY:
            self.entries.append(Entry("card", str(sorted(view.hand).index(action) + 1)))
        else:
            self.entries.append(Entry("suit" if view.phase is Phase.TRUMP else "vote", "1"))
        return action


GAME = Rules(players=3, start_cards=4, eliminated_vote=True)
"""Two people and a bot; with seed 45 the people choose a trump, and one votes."""
SEED = 45
KINDS = ("card", "suit", "vote", "hand-over", "again", "analysis")


@functools.cache
def game_script() -> tuple[tuple[Entry, ...], str]:
    """Return the entries that play seed 45 to its end, then ask for the analysis and
    stop; and the game's log line."""
    entries: list[Entry] = []
    last: list[str] = ["Player 1"]  # the game asks Player 1 to take the keyboard too
    players: list[Player] = [FirstLegal(f"Player {i}", entries, last) for i in (1, 2)]
    players.append(make_bot("heuristic", "Ada", bots_rng(SEED)))
    state = play_game(GAME, players, SEED)
    entries.insert(0, Entry("hand-over", ""))
    entries += [Entry("analysis", "a"), Entry("again", "n")]
    assert {e.kind for e in entries} == set(KINDS)
    return tuple(entries), log.dumps(log.build(SEED, GAME, players, events=state.events))


def play(entries: list[str], path: Path) -> tuple[int, str, str]:
    """Play the game of :data:`SEED` with ``entries`` piped in; return code, out, err.

    The analysis at the end takes 2 deals a decision, and so does a hint, so that an
    example takes well under a second.
    """
    from kow.cli import session
    from kow.runs.analysis import analyze_game

    args = ["play", "--seed", str(SEED), "--players", "3", "--start-cards", "4"]
    args += ["--eliminated-vote", "--humans", "2", "--search-iterations", "2"]
    args += ["--log", str(path)]
    quick = functools.partial(analyze_game, iterations=2)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(session, "analyze_game", quick)
        patch.setattr("kow.cli.commands.play.draw_seed", lambda: 7)  # a game played again
        result = CliRunner(env=UTF8).invoke(main, args, input="\n".join(entries) + "\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result.exit_code, result.stdout, result.stderr


def with_typed(odd: dict[str, str]) -> list[str]:
    """Return the script with ``odd[kind]`` typed before the first entry of each kind."""
    out: list[str] = []
    for entry in game_script()[0]:
        if entry.kind in odd:
            out.append(odd.pop(entry.kind))
        out.append(entry.text)
    return out


LINE = st.text(st.characters(exclude_characters="\n\r", exclude_categories=("Cs",)), max_size=40)  # type: ignore[arg-type]
"""Text typed on one line: any character but a line's end. Lone surrogates cannot be
encoded as the test runner's input; bytes that are not UTF-8, which Python reads as
them, are typed by :func:`test_bytes_that_are_not_utf8_are_refused_and_the_game_goes_on`."""


@settings(max_examples=40)
@given(
    odd=st.fixed_dictionaries(
        {},
        optional={
            kind: st.one_of(LINE, st.sampled_from(["²", "¹", "٣", "-1", "0", "99", "x" * 101]))
            for kind in KINDS
        },
    )
)
def test_any_text_at_any_prompt_leaves_no_traceback_and_keeps_the_log(
    odd: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("play") / "games.jsonl"
    code, out, err = play(with_typed(dict(odd)), path)
    assert code in (0, 1), err
    assert "Traceback" not in out + err
    games = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert games and games[0]["seed"] == SEED
    for game in games:
        assert verify_game(game) is None
    assert games[-1].get("abandoned", False) is (code == 1 and "Game abandoned" in err)
    if code == 0:  # played to the end, and stopped at "Play again?"
        assert out.count("Play again, with a new seed? [y/n] ") >= 1
    else:
        assert ("Game abandoned" in err) or ("Stopped after the game" in err)


@pytest.mark.parametrize(
    "typed", ["²", "¹", "٣", "0", "-1", "9", "x" * 5000], ids=lambda t: t[:3].encode().hex()
)
def test_odd_text_at_each_prompt_is_refused_and_the_game_goes_on(
    typed: str, tmp_path: Path
) -> None:
    path = tmp_path / "games.jsonl"
    code, out, err = play(with_typed(dict.fromkeys(KINDS, typed)), path)
    assert code == 0, err
    entries, expected = game_script()
    assert path.read_text(encoding="utf-8") == expected + "\n", "the same game, played out"
    said = " ".join(out.split())
    if len(typed) > MAX_ENTRY:
        too_long = f"'{typed[:30]}...' is too long: an entry has at most {MAX_ENTRY} characters."
        assert said.count(too_long) == 6  # card, suit, vote, hand-over, play again twice
    else:
        digits = "" if typed.isascii() and typed.isdigit() else ", in the digits 0-9"
        assert f"{typed!r} is not a card's number: allowed 1 to " in said
        assert said.count(f"{typed!r} is not a suit's number: allowed 1 to 4{digits}.") == 2
        answer = "is not an answer here: type y to play again, n to stop, a for the analysis"
        assert said.count(f"{typed!r} {answer}") == 2  # before the analysis, and after it
    assert f"Game 1 of this sitting, seed {SEED}" in said


def test_piped_answers_refused_at_play_again_end_as_refused_entries_do(tmp_path: Path) -> None:
    # `yes maybe | kow play` once the game is over: it stopped silently with exit 0.
    path = tmp_path / "games.jsonl"
    entries = [e.text for e in game_script()[0][:-2]]
    code, out, err = play([*entries, *["maybe"] * 30], path)
    assert code == 1
    assert out.count("'maybe' is not an answer here") == 20
    assert "Stopped after the game (20 entries in a row were refused)" in " ".join(err.split())
    assert path.read_text(encoding="utf-8") == game_script()[1] + "\n"
    code, _, err = play(entries, path)  # end of input at "Play again?" is no
    assert code == 0 and err == ""


def test_a_long_piped_line_is_refused_in_linear_time(tmp_path: Path) -> None:
    # 300,000 characters on one line took 25 s; 10 MB ran for hours.
    line = "9" * 3_000_000 + "h"
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "kow", "play", "--seed", "3", "--log", str(tmp_path / "g.json")],
        input=line + "\nquit\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert time.perf_counter() - start < 10
    assert done.returncode == 1
    said = " ".join(done.stdout.split())
    assert f"'{'9' * 30}...' is too long: an entry has at most {MAX_ENTRY} characters." in said
    assert len(done.stdout) < 10_000, "the long line is not echoed whole"
    assert json.loads((tmp_path / "g.json").read_text())["abandoned"] is True


@pytest.mark.parametrize("raw", [b"\xff\xfe", b"\xed\xa0\x80", b"\xc3"], ids=bytes.hex)
def test_bytes_that_are_not_utf8_are_refused_and_the_game_goes_on(
    raw: bytes, tmp_path: Path
) -> None:
    # A terminal in another encoding sends bytes that are not UTF-8; Python reads them
    # as lone surrogates (surrogateescape), which must be refused, escaped, like any text.
    done = subprocess.run(
        [sys.executable, "-m", "kow", "play", "--seed", "3", "--log", str(tmp_path / "g.json")],
        input=raw + b"\nquit\n", capture_output=True, timeout=60,
    )  # fmt: skip
    out = done.stdout.decode("utf-8")  # what kow wrote is UTF-8, with no surrogate
    escaped = "".join(f"\\udc{b:02x}" for b in raw)
    assert f"'{escaped}' is not a card or a command: try " in " ".join(out.split())
    assert done.returncode == 1, done.stderr
    assert b"Traceback" not in done.stdout + done.stderr
    assert json.loads((tmp_path / "g.json").read_text())["abandoned"] is True
