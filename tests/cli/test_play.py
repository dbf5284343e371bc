"""``kow play``: whole games driven through the command line with scripted input.

The script for the human seats is worked out by playing the same seed with a stand-in
that always takes the first legal action and notes what a person would type for it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kow import log
from kow.cli import main
from kow.engine.view import View
from kow.events import BOT_NAMES, Phase
from kow.game import bots_rng, play_game
from kow.players import Player, make_bot
from kow.rules import Rules


class FirstLegal(Player):
    """Stands in for a person: takes the first legal action and records the entry typed."""

    kind = "human"

    def __init__(self, name: str, entries: list[str], hot_seat: list[str | None]) -> None:
        super().__init__(name)
        self.entries = entries
        self.hot_seat = hot_seat

    def act(self, view: View) -> int:
        if self.hot_seat and self.hot_seat[0] != self.name:
            self.entries.append("")  # Enter at the "pass the keyboard" screen
        if self.hot_seat:
            self.hot_seat[0] = self.name
        action = view.legal[0]
        if view.phase is Phase.PLAY:
            self.entries.append(str(sorted(view.hand).index(action) + 1))
        else:
            self.entries.append("1")
        return action


def script(
    rules: Rules, seed: int, humans: int, bots: str = "heuristic"
) -> tuple[list[str], dict[str, Any]]:
    """Return the entries a person would type, and the log of the game they give."""
    names = ["You"] if humans == 1 else [f"Player {i + 1}" for i in range(humans)]
    entries: list[str] = []
    hot_seat: list[str | None] = [None] if humans > 1 else []
    kinds = bots.split(",") * (rules.players - humans) if "," not in bots else bots.split(",")
    players: list[Player] = [FirstLegal(n, entries, hot_seat) for n in names]
    rng = bots_rng(seed)  # one generator that all the game's bots share, as in kow play
    players += [make_bot(kinds[i], BOT_NAMES[i], rng) for i in range(rules.players - humans)]
    state = play_game(rules, players, seed)
    return entries, log.build(seed, rules, players, events=state.events)  # type: ignore[return-value]


UTF8 = {"LC_ALL": "C.UTF-8", "LC_CTYPE": None, "LANG": None}


def play(
    *args: str, entries: list[str], env: dict[str, str | None] | None = None
) -> tuple[int, str, str]:
    result = CliRunner(env=env or UTF8).invoke(
        main, ["play", *args], input="\n".join(entries) + "\n"
    )
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("players", range(2, 8))
def test_whole_game_against_bots(players: int, tmp_path: Path) -> None:
    seed = 40 + players
    entries, expected = script(Rules(players=players), seed, humans=1)
    path = tmp_path / "game.json"
    code, out, err = play(
        "--seed", str(seed), "--players", str(players), "--log", str(path), entries=entries
    )
    assert code == 0, err
    winner = expected["result"]["winner"]
    name = "You" if winner == 0 else BOT_NAMES[winner - 1]
    verb = "win" if name == "You" else "wins"
    assert f"*** {name} {verb} the game" in out
    assert f"Seed {seed}: play this deal again with --seed {seed}." in out
    assert json.loads(path.read_text()) == expected, "the saved log is the game replayed"
    for number, rnd in enumerate(expected["rounds"], 1):
        assert f"=== Round {number}: " in out
        for seat in rnd["eliminated"]:
            name = expected["players"][seat]["name"]
            assert any(
                name in line for line in out.splitlines() if line.endswith(" knocked out.")
            ), name


def test_hot_seat_hides_hands_between_people() -> None:
    rules = Rules(players=4)
    entries, expected = script(rules, 8, humans=3, bots="random")
    code, out, err = play("--seed", "8", "--humans", "3", "--bots", "random", entries=entries)
    assert code == 0, err
    assert "Pass the keyboard to Player 2, then press Enter." in out
    assert "Pass the keyboard to Player 1, then press Enter." in out
    assert "Player 2, your hand (trump" in out
    # Before the first human turn too: no hand shows before someone presses Enter.
    assert out.index("Pass the keyboard to") < out.index("your hand")
    winner = expected["players"][expected["result"]["winner"]]["name"]
    assert f"*** {winner} wins the game" in out


def test_dogs_life_game_announces_dogs_lives() -> None:
    rules = Rules(players=5, dogs_life="once-per-game")
    for seed in range(100):
        entries, expected = script(rules, seed, humans=1)
        granted = [s for r in expected["rounds"] for s in r["dogs_life_granted"]]
        if granted:
            break
    code, out, err = play("--seed", str(seed), "--players", "5", "--dogs-life", "once-per-game",
                          entries=entries)  # fmt: skip
    assert code == 0, err
    names = ["You", *BOT_NAMES]
    first = next(r for r in expected["rounds"] if r["dogs_life_granted"])
    (seat,) = first["dogs_life_granted"]  # once per game: the first knock-out is one player
    verb = "get" if seat == 0 else "gets"
    assert f"{names[seat]} {verb} a dog's life: one card next round." in out
    assert "on a dog's life, with 1 card." in out


def test_illegal_entries_get_one_reason_each() -> None:
    # Seed 3: the bots lead A♠ 2♠ 3♠ before you; you hold 10♠ as your only spade.
    entries, _ = script(Rules(), 3, humans=1)
    bad = ["5h", "Qs", "xyz", "knock", "9", "1"]
    code, out, _ = play("--seed", "3", entries=bad + entries)
    assert code == 0
    assert "Your hand (trump ♣):   1 5♣   2 8♣   3 10♦   4 Q♦   5 K♦   6 6♥  *7 10♠" in out
    reasons = [
        "You don't hold 5♥.",
        "You don't hold Q♠.",
        "'xyz' is not a card or a command: try 10h, a number, or help.",
        "Only a player on a dog's life may knock.",
        "'9' is not a card's number: allowed 1 to 7.",
        "You must follow spades: you hold 10♠.",
    ]
    position = 0
    for reason in reasons:
        assert out.count(reason) == 1, reason
        assert out.index(reason) > position
        position = out.index(reason)


def test_cards_written_any_way_are_accepted() -> None:
    entries, _ = script(Rules(), 3, humans=1)
    first = ["10♠"] + entries[1:]
    code, out, _ = play("--seed", "3", entries=first)
    assert code == 0
    assert "You play 10♠" in out
    code, out, _ = play("--seed", "3", "--ascii", entries=["ts"] + entries[1:])
    assert code == 0 and "You play 10s" in out and out.isascii()


@pytest.mark.parametrize("locale", [{"LANG": "C"}, {"LC_ALL": "POSIX"}])
def test_c_locale_shows_suits_as_letters(locale: dict[str, str | None]) -> None:
    entries, _ = script(Rules(), 3, humans=1)
    env: dict[str, str | None] = {"LC_ALL": None, "LC_CTYPE": None, "LANG": None, **locale}
    code, out, _ = play("--seed", "3", entries=entries, env=env)
    assert code == 0
    assert "Your hand (trump c):   1 5c   2 8c   3 10d" in out
    assert not any(symbol in out for symbol in "♣♦♥♠")


@pytest.mark.parametrize(("entry", "code"), [("quit", 1), (None, 1)])
def test_quit_or_end_of_input_saves_an_abandoned_log(
    entry: str | None, code: int, tmp_path: Path
) -> None:
    path = tmp_path / "left.json"
    entries = [entry] if entry else []
    result = CliRunner().invoke(
        main, ["play", "--seed", "3", "--log", str(path)], input="\n".join(entries)
    )
    assert result.exit_code == code
    assert "Game abandoned" in result.stderr and "Traceback" not in result.stderr
    game = json.loads(path.read_text())
    assert game["abandoned"] is True
    assert game["result"]["winner"] is None
    assert [p["seat"] for p in game["rounds"][0]["tricks"][0]["plays"]] == [1, 2, 3]


def test_usage_errors() -> None:
    for args, named in [
        (["--humans", "5"], "5 humans do not fit 4 seats"),
        (["--name", "A", "--name", "B"], "2 names given for 1 human"),
        (["--humans", "2", "--name", "A", "--name", "A"], "names must be distinct"),
        (["--bots", "x"], "'x' is not a bot kind"),
        (["--delay", "-1"], "'-1' is not a number of seconds: allowed 0 to 10, in the digits"),
        (["--delay", "²"], "'²' is not a number of seconds: allowed 0 to 10, in the digits"),
        (["--delay", "nan"], "'nan' is not a number of seconds"),
        (["--delay", "10.5"], "'10.5' is not a number of seconds: allowed 0 to 10"),
        (["--log", "-"], "give a file path"),
    ]:
        result = CliRunner().invoke(main, ["play", *args], input="")
        assert result.exit_code == 2, args
        assert named in result.stderr, (args, result.stderr)


def test_trump_choice_accepts_letters_names_symbols_and_numbers() -> None:
    from kow.cli.human import HumanPlayer
    from kow.screen import Screen

    rules = Rules(players=2)
    screen = Screen(["You", "Ada"], rules)
    view = View(
        seat=0, phase=Phase.TRUMP, legal=(0, 1, 2, 3), facts=None, rules=rules, round=2,
        hand_size=6, dealer=1, leader=None, trump=None, trump_method=None,
        trump_chosen_by=None, turned_up=None, in_round=(0, 1), dogs_life=(), dogs_life_used=(),
        dogs_life_open=(), knocked_out=(),
        previous_tricks_won=(3, 4), tricks_won=(0, 0), tricks=(), trick_number=0,
        tricks_left=6, trick_order=(), hand_counts=(3, 6), votes=(), hand=(0, 13, 26),
        hand_mask=0b100000000000010000000000001, seen=0, trick=(), led=None,
        winning_card=None, winning_seat=None,
    )  # fmt: skip
    for typed, suit in [("h", 2), ("hearts", 2), ("♥", 2), ("4", 3), ("C", 0)]:
        lines: list[str] = []
        answers = iter(["bogus", typed])
        human = HumanPlayer("You", screen, lambda _, a=answers: next(a), write=lines.append)  # type: ignore[misc]
        assert human.choose_trump(view) == suit
        assert sum("is not a suit" in line for line in lines) == 1


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX terminal")
def test_full_game_in_a_real_terminal() -> None:
    pexpect = pytest.importorskip("pexpect")
    entries, expected = script(Rules(players=3), 21, humans=1)
    child = pexpect.spawn(
        sys.executable, ["-m", "kow", "play", "--seed", "21", "--players", "3", "--delay", "0"],
        env={**os.environ, "LC_ALL": "C.UTF-8", "TERM": "xterm"}, encoding="utf-8", timeout=20,
        dimensions=(24, 80),
    )  # fmt: skip
    for entry in entries:
        child.expect(r"(Your card|Knock or play your card|Suit): ")
        child.sendline(entry)
    child.expect(r"\*\*\* (\w+) wins? the game")
    winner = expected["players"][expected["result"]["winner"]]["name"]
    assert child.match.group(1) == winner
    child.expect(r"Play again, with a new seed\? \[y/n\] ")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_knocked_out_human_is_told_the_bots_play_on() -> None:
    entries, expected = script(Rules(), 0, humans=1)
    out_round = next(r["number"] for r in expected["rounds"] if 0 in r["eliminated"])
    assert out_round < expected["result"]["rounds_played"]
    code, out, _ = play("--seed", "0", entries=entries)
    assert code == 0
    note = "Nobody at the keyboard is left in: the bots play the game out now."
    assert out.count(note) == 1
    assert out.index(f"Round {out_round} over.") < out.index(note)


def test_hint_names_a_legal_card_and_the_chance_of_a_trick() -> None:
    entries, _ = script(Rules(), 3, humans=1)
    code, out, _ = play("--seed", "3", "--search-iterations", "20", entries=["hint", *entries])
    assert code == 0
    # Seed 3: you must follow spades with 10♠, your only spade.
    (line,) = [x for x in out.splitlines() if x.startswith("Hint:")]
    assert line.startswith("Hint: play 10♠. Your chance of a trick this round: ")
    assert line.endswith("% (20 deals).") and len(line) <= 80


def test_hint_reads_the_view_only_and_repeats_for_one_seed() -> None:
    import random

    from kow.cli.human import HumanPlayer, Quit
    from kow.game import new_game
    from kow.screen import Screen

    rules = Rules()
    view = new_game(rules, 5).view()
    screen = Screen(["You", "Ada", "Ben", "Cleo"], rules, symbols=False)
    lines: list[list[str]] = [[], []]
    for i in range(2):
        answers = iter(["hint", "quit"])
        human = HumanPlayer(
            "You", screen, lambda _, a=answers: next(a), write=lines[i].append,  # type: ignore[misc]
            hint_rng=random.Random("kow-hint:5:0"), hint_iterations=15,
        )  # fmt: skip
        with pytest.raises(Quit):
            human.play(view)
    hints = [[x for x in got if x.startswith("Hint:")] for got in lines]
    assert len(hints[0]) == 1 and hints[0] == hints[1]
    played = hints[0][0].split("play ")[1].split(".")[0]
    assert played in {screen.card(c) for c in view.legal}


def test_end_of_input_at_the_hand_over_still_saves_the_log(tmp_path: Path) -> None:
    entries, _ = script(Rules(players=4), 8, humans=3, bots="random")
    cut = entries.index("")  # the first "pass the keyboard" prompt
    path = tmp_path / "hot.json"
    result = CliRunner(env=UTF8).invoke(
        main,
        ["play", "--seed", "8", "--humans", "3", "--bots", "random", "--log", str(path)],
        input="\n".join(entries[:cut]) + "\n",
    )
    assert result.exit_code == 1
    assert "Game abandoned (end of input)" in result.stderr
    assert "Aborted" not in result.stderr + result.stdout
    assert json.loads(path.read_text())["abandoned"] is True


def test_screen_says_who_leads_after_a_dogs_life_card_wins() -> None:
    # Three players, 2 cards; seat 0 (You) plays on a dog's life with Ac. Trick 1: Ada
    # leads 2c, Ben plays 3c, You win with Ac; your hand is empty, and the lead passes
    # to your left, Ada (seed 002).
    from kow.cards import parse_card as c
    from kow.events import Deal, Lead, Play, TrickWon, WonBy
    from kow.screen import Screen

    screen = Screen(["You", "Ada", "Ben"], Rules(players=3), symbols=False)
    hands = ((c("Ac"),), (c("2c"), c("4d")), (c("3c"), c("5d")))
    lines: list[str] = []
    for ev in [
        Deal(2, 2, 2, 1, 10, hands, (0,)),
        Lead(1),
        Play(1, c("2c")),
        Play(2, c("3c")),
        Play(0, c("Ac")),
        TrickWon(
            number=1,
            leader=1,
            winner=0,
            next_leader=1,
            card=c("Ac"),
            led=0,
            why=WonBy.HIGHEST_OF_LED,
        ),
    ]:
        lines += screen.event(ev)  # type: ignore[arg-type]
    assert lines[-2].strip().startswith("You win trick 1 of 2 with Ac (highest club).")
    assert lines[-1] == "  Ada leads, on the dog's-life winner's left."


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX terminal")
@pytest.mark.parametrize(("sig", "code", "name"), [(15, 143, "SIGTERM"), (1, 129, "SIGHUP")])
def test_a_signal_mid_game_saves_an_abandoned_log(
    tmp_path: Path, sig: int, code: int, name: str
) -> None:
    # `kill` or a closed terminal ends the game as Ctrl-C does: the log is kept.
    pexpect = pytest.importorskip("pexpect")
    saved = tmp_path / "game.json"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "kow", "play", "--seed", "21", "--players", "3", "--delay", "0",
         "--log", str(saved)],
        env={**os.environ, "LC_ALL": "C.UTF-8", "TERM": "xterm"}, encoding="utf-8", timeout=20,
    )  # fmt: skip
    try:
        child.expect(r"(Your card|Knock or play your card|Suit): ")
        child.kill(sig)
        child.expect(pexpect.EOF)
        child.wait()  # the screen may close before kow exits: close(force) would kill it
    finally:
        child.close(force=True)
    assert child.exitstatus == code
    game = json.loads(saved.read_text())
    assert game["abandoned"] is True and game["seed"] == 21
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX terminal")
@pytest.mark.parametrize(("first", "second"), [(15, 1), (2, 15), (1, 15), (1, 2)])
def test_the_first_of_two_signals_counts_and_the_log_is_still_saved(
    tmp_path: Path, first: int, second: int
) -> None:
    # A closing terminal sends more than one signal; the second must not cut the save.
    # Sent back to back, both may be pending at once: then the lower number is handled
    # first, and that one gives the exit code.
    pexpect = pytest.importorskip("pexpect")
    saved = tmp_path / "game.json"
    saved.write_text('{"old": 1}\n')
    child = pexpect.spawn(
        sys.executable,
        ["-m", "kow", "play", "--seed", "5", "--delay", "0", "--log", str(saved)],
        env={**os.environ, "LC_ALL": "C.UTF-8", "TERM": "xterm"}, encoding="utf-8", timeout=20,
    )  # fmt: skip
    try:
        child.expect(r"(Your card|Knock or play your card|Suit): ")
        child.kill(first)
        child.kill(second)
        child.expect(pexpect.EOF)
        child.wait()  # the screen may close before kow exits: close(force) would kill it
    finally:
        child.close(force=True)
    assert child.exitstatus in (128 + first, 128 + second)
    assert "Traceback" not in (child.before or "")
    old, game = saved.read_text().splitlines()  # what the file held is kept (issue 33, 6)
    assert old == '{"old": 1}' and json.loads(game)["abandoned"] is True
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_piped_entries_refused_again_and_again_end_the_game(tmp_path: Path) -> None:
    # `yes 1 | kow play`: "1" is refused forever once only other cards may be played.
    path = tmp_path / "game.json"
    code, out, err = play("--seed", "3", "--log", str(path), entries=["1"] * 500)
    assert code == 1
    assert "Game abandoned (20 entries in a row were refused)" in err
    assert out.count("You must follow") <= 20
    assert json.loads(path.read_text())["abandoned"] is True


def test_a_closed_screen_keeps_the_log(tmp_path: Path) -> None:
    # The screen's reader has gone (`kow play ... | head -n 3` once head has left): the
    # game so far is saved. stdout is a pipe whose read end is closed before kow starts,
    # so the first line written fails at once.
    path = tmp_path / "game.json"
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "kow", "play", "--seed", "1", "--delay", "0", "--log",
             str(path)],
            input="1\n" * 50, stdout=write_end, stderr=subprocess.PIPE, text=True,
            timeout=120, cwd=Path(__file__).resolve().parents[2],
        )  # fmt: skip
    finally:
        os.close(write_end)
    assert result.returncode == 1
    assert "Game abandoned (the screen's output closed)" in result.stderr
    assert "Traceback" not in result.stderr
    assert json.loads(path.read_text())["abandoned"] is True


def test_unknown_bot_kinds_are_refused_at_a_table_of_people() -> None:
    code, _, err = play("--players", "2", "--humans", "2", "--bots", "foo,bar", entries=[])
    assert code == 2 and "'foo' is not a bot kind" in err


@pytest.mark.parametrize(
    ("level", "kind"), [("easy", "random"), ("medium", "heuristic"), ("hard", "search")]
)
def test_level_sets_the_kind_of_every_bot(level: str, kind: str, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, out, err = play("--seed", "3", "--level", level, "--log", str(path), entries=["quit"])
    assert code == 1, err
    game = json.loads(path.read_text())
    assert [p["kind"] for p in game["players"]] == ["human", kind, kind, kind]
    assert all(f"{name} ({kind})" in out for name in BOT_NAMES[:3]), out


def test_without_level_or_bots_the_bots_are_medium(tmp_path: Path) -> None:
    # The default is --bots heuristic, the level medium: the same game either way.
    entries, _ = script(Rules(), 6, humans=1)
    logs: list[Any] = []
    for args in ([], ["--level", "medium"], ["--bots", "heuristic"]):
        path = tmp_path / f"game{len(logs)}.json"
        code, _, err = play("--seed", "6", "--log", str(path), *args, entries=entries)
        assert code == 0, err
        logs.append(path.read_text())
    assert logs[0] == logs[1] == logs[2]
    assert [p["kind"] for p in json.loads(logs[0])["players"]][1:] == ["heuristic"] * 3


def test_level_and_bots_together_are_a_usage_error() -> None:
    code, out, err = play("--level", "easy", "--bots", "random", entries=[])
    assert code == 2 and out == ""
    assert "give --level or --bots, not both" in err and "'--level'" in err


def test_an_unknown_level_names_the_levels() -> None:
    code, out, err = play("--level", "expert", entries=[])
    assert code == 2 and out == ""
    assert "'expert' is not one of 'easy', 'medium', 'hard'" in err


# --------------------------------------------------------------------------- the table


def test_quit_at_the_hand_over_quits_and_shows_no_hand() -> None:
    code, out, err = play("--seed", "8", "--humans", "3", "--bots", "random", entries=["quit"])
    assert code == 1
    assert "your hand" not in out
    assert "Game abandoned (you quit)" in err


def test_after_the_hand_over_a_person_sees_what_they_missed() -> None:
    entries, expected = script(Rules(players=3), 3, humans=2)
    code, out, err = play("--seed", "3", "--humans", "2", "--players", "3", entries=entries)
    assert code == 0, err
    # Player 2 leads trick 1; the first hand-over to Player 2 after that trick shows it.
    first = expected["rounds"][0]["tricks"][0]
    assert first["leader"] == 1
    recap = out.split("Since your last turn:\n")[1]  # Player 2's second turn
    recap = recap[: recap.index("\n\n")].splitlines()  # type: ignore[assignment]
    names = ["Player 1", "Player 2", "Ada"]
    # From the play after Player 2's own: a person is not told back what they did.
    played = [f"  {names[p['seat']]} plays " for p in first["plays"][1:]]
    assert [line[: len(p)] for line, p in zip(recap, played, strict=False)] == played
    winner = names[first["winner"]]
    assert any(line.startswith(f"  {winner} wins trick 1 of 7 with ") for line in recap)


def test_help_lists_every_command_and_last_names_the_last_trick() -> None:
    from kow.cli.human import COMMANDS

    entries, _ = script(Rules(players=3), 21, humans=1)
    code, out, _ = play(
        "--seed", "21", "--players", "3", entries=["last", "help", entries[0], "last", *entries[1:]]
    )
    assert code == 0
    assert "No trick has been played yet." in out
    width = max(len(name) for name, _ in COMMANDS)  # "played"
    for name, what in COMMANDS:
        assert f"  {name:<{width}}  {what}" in out
    from kow.cards import CARD_FORMS

    for form in CARD_FORMS:
        assert f"\n  {form}\n" in out
    (last,) = [x for x in out.splitlines() if x.startswith("Last trick: ")]
    assert " wins trick 1 of 7 with " in last or " win trick 1 of 7 with " in last


def test_rules_at_a_prompt_prints_the_rulebook_of_the_game() -> None:
    from kow.rulebook import rule_lines

    entries, _ = script(Rules(players=3, dogs_life="once-per-game"), 21, humans=1)
    code, out, _ = play(
        "--seed", "21", "--players", "3", "--preset", "traditional", entries=["rules", *entries]
    )
    assert code == 0
    book = rule_lines(Rules(players=3, dogs_life="once-per-game", sweep_wins=False), 80)
    assert "\n".join(book) in out


def test_the_end_sums_up_the_game_and_offers_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kow.cli.commands.play

    monkeypatch.setattr(kow.cli.commands.play, "draw_seed", lambda: 5)  # the second game
    first, expected = script(Rules(players=3), 21, humans=1)
    second, _ = script(Rules(players=3), 5, humans=1)
    path = tmp_path / "games.jsonl"
    code, out, err = play(
        "--seed", "21", "--players", "3", "--log", str(path), entries=[*first, "y", *second, "n"]
    )
    assert code == 0, err
    summary = out.split("The game, round by round:\n")[1].splitlines()
    rounds = expected["rounds"]
    assert [line.split(".")[0] for line in summary[: len(rounds)]] == [
        f"  {r['number']}" for r in rounds
    ]
    assert "Knock-Out Whist, seed 5" in out
    assert out.count("Play again, with a new seed? [y/n] ") == 2
    games = [json.loads(line) for line in path.read_text().splitlines()]
    assert [g["seed"] for g in games] == [21, 5] and games[0] == expected
    assert f"Logs of the 2 games saved to {path}." in out.replace("\n  ", " ")


def test_a_knocked_out_person_waits_no_more(monkeypatch: pytest.MonkeyPatch) -> None:
    import kow.cli.session

    slept: list[str] = []
    monkeypatch.setattr(kow.cli.session.time, "sleep", lambda s: slept.append("sleep"))  # type: ignore[attr-defined]
    real_write = kow.cli.session.Terminal.write

    def write(self: kow.cli.session.Terminal, text: str) -> None:
        if "the bots play the game out now" in text:
            slept.append("note")
        real_write(self, text)

    monkeypatch.setattr(kow.cli.session.Terminal, "write", write)
    entries, _ = script(Rules(), 0, humans=1)
    code, out, _ = play("--seed", "0", "--delay", "0.01", entries=entries)
    assert code == 0
    assert slept.count("note") == 1 and slept.index("note") > 10
    assert slept[slept.index("note") + 1 :] == []  # no pause once you are out


def test_a_knocked_out_person_who_votes_is_told_so() -> None:
    rules = Rules(players=4, eliminated_vote=True)
    for seed in range(50):
        entries, expected = script(rules, seed, humans=1)
        out_round = next((r["number"] for r in expected["rounds"] if 0 in r["eliminated"]), None)
        if out_round is not None and out_round < expected["result"]["rounds_played"] - 1:
            break
    code, out, _ = play("--seed", str(seed), "--eliminated-vote", entries=entries)
    assert code == 0
    assert "From now on you only vote for each round's trump; the bots play the tricks." in out
    assert "You are knocked out, but you vote for this round's trump:" in out
    assert "trump none" not in out and "bots play on" not in out


def test_a_slow_hint_says_it_is_thinking() -> None:
    import random

    from kow.cli.human import HumanPlayer, Quit
    from kow.game import new_game
    from kow.screen import Screen

    rules = Rules()
    view = new_game(rules, 5).view()
    screen = Screen(["You", "Ada", "Ben", "Cleo"], rules, symbols=False)
    for after, thinking in [(0.0, True), (60.0, False)]:
        lines: list[str] = []
        answers = iter(["hint", "quit"])
        human = HumanPlayer(
            "You", screen, lambda _, a=answers: next(a), write=lines.append,  # type: ignore[misc]
            hint_rng=random.Random(1), hint_iterations=200, thinking_after=after,
        )  # fmt: skip
        with pytest.raises(Quit):
            human.play(view)
        hints = [i for i, x in enumerate(lines) if x.startswith("Hint:")]
        assert len(hints) == 1
        assert (lines[hints[0] - 1] == "Thinking...") is thinking


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a named pipe")
def test_a_pipe_given_to_log_gets_each_game_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    import kow.cli.commands.play

    monkeypatch.setattr(kow.cli.commands.play, "draw_seed", lambda: 5)
    first, _ = script(Rules(players=3), 21, humans=1)
    second, _ = script(Rules(players=3), 5, humans=1)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []

    def read() -> None:
        # Each game opens the pipe anew. The reader keeps its end open throughout, as a
        # reader that closed between games could drop a game written into the pipe in that
        # moment (a pipe with no reader left loses its data): read until two lines came.
        fd = os.open(fifo, os.O_RDONLY)
        data = b""
        deadline = time.monotonic() + 30
        try:
            while data.count(b"\n") < 2 and time.monotonic() < deadline:
                chunk = os.read(fd, 1 << 16)
                if chunk:
                    data += chunk
                else:  # no writer at this moment: the next game's is coming
                    time.sleep(0.01)
        finally:
            os.close(fd)
        got.extend(data.decode("utf-8").splitlines())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    code, _, err = play(
        "--seed", "21", "--players", "3", "--log", str(fifo), entries=[*first, "y", *second, "n"]
    )
    reader.join(timeout=10)
    assert code == 0, err
    assert [json.loads(line)["seed"] for line in got] == [21, 5]


DOGS_LIFE_RULES = Rules(players=3, start_cards=4, dogs_life="once-per-game")


def _dogs_life_view() -> View:
    """Round 2 of a 3-player game: you, on a dog's life with 2♥, may knock or play."""
    from conftest import apply_all, deal, new_state

    rules = DOGS_LIFE_RULES
    decks = [
        deal(0, ["2h 3h 4h 5h", "Ac Kc Qc 2d", "4c 5c 6c Ad"], "2s"),
        deal(1, ["2h", "2c 3c 4d", "5c Kd 7h"]),
    ]
    state = apply_all(new_state(rules, 0, decks), "Ac 4c 2h Kc 5c 3h Qc 6c 4h 2d Ad 5h h 2c 5c")
    assert state.turn == 0
    return state.view()


def test_k_knocks_an_empty_entry_asks_again_and_a_wrong_one_mentions_knock() -> None:
    from kow.cli.human import HumanPlayer
    from kow.events import KNOCK
    from kow.screen import Screen

    view = _dogs_life_view()
    assert KNOCK in view.legal
    lines: list[str] = []
    answers = iter(["", "xyz", "k"])
    human = HumanPlayer("You", Screen(["You", "Ada", "Ben"], DOGS_LIFE_RULES),
                        lambda _: next(answers), write=lines.append)  # fmt: skip
    assert human.play(view) == KNOCK
    assert not any(line.startswith("Commands:") for line in lines)  # Enter alone: no help
    assert "'xyz' is not a card or a command: try 10h, a number, knock, or help." in lines


def test_last_reaches_back_to_the_round_before_and_rules_shows_the_hand_again() -> None:
    entries, game = script(Rules(players=3), 0, humans=1)
    # Seed 0: you play 7 cards in round 1 and stay in; "last" at your first decision of
    # round 2 shows round 1's last trick.
    assert 0 not in game["rounds"][0]["eliminated"]
    code, out, _ = play(
        "--seed", "0", "--players", "3",
        entries=[*entries[:7], "last", "rules", *entries[7:]],
    )  # fmt: skip
    assert code == 0
    (last,) = [x for x in out.splitlines() if x.startswith("Last trick")]
    assert last.startswith("Last trick (round 1): ") and " trick 7 of 7 with " in last
    after_rules = out.split("Source:")[-1]
    assert "Your hand (trump " in after_rules.split("Your card:")[0]


def test_help_without_symbols_gives_each_way_once() -> None:
    from kow.cli.human import CARD_HELP, help_lines

    lines = help_lines(CARD_HELP, symbols=False)
    assert "\u2665" not in "".join(lines)
    suits = next(x for x in lines if x.strip().startswith("suits:"))
    assert suits.count("c d h s") == 1
    for line in lines:
        if ": " in line:
            items = line.split(": ", 1)[1].split(", ")
            assert len(items) == len(set(items)), line


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Ann", "ann"], "names must be distinct (in any case) and not blank: 'Ann', 'ann'"),
        (["A" * 21, "Bob"], f"{'A' * 21!r} has 21 characters; a name has at most 20"),
    ],
)
def test_names_differ_in_more_than_case_and_are_short(names: list[str], message: str) -> None:
    args = [a for n in names for a in ("--name", n)]
    code, _, err = play("--humans", "2", *args, entries=[])
    assert code == 2
    assert message in " ".join(err.split())


def test_a_bot_never_shares_a_name_with_a_person_in_another_case() -> None:
    code, out, _ = play("--seed", "1", "--name", "ada", entries=["quit"])
    assert code == 1
    assert "Seats, clockwise: 0 ada, 1 Ben (heuristic), 2 Cleo (heuristic), 3 Dev" in " ".join(
        out.split()
    )


def test_piped_play_again_asks_again_on_an_unclear_answer() -> None:
    entries, _ = script(Rules(players=3), 21, humans=1)
    code, out, _ = play("--seed", "21", "--players", "3", entries=[*entries, "maybe", "n"])
    assert code == 0
    assert out.count("Play again, with a new seed? [y/n] ") == 2
    assert (
        "'maybe' is not an answer here: type y to play again, n to stop, a for the analysis"
        " of this game." in " ".join(out.split())
    )


def test_piped_entries_are_echoed_with_control_characters_escaped() -> None:
    code, out, _ = play("--seed", "1", entries=["\x1b[31mred", "quit"])
    assert code == 1
    assert "\\x1b[31mred\n" in out and "\x1b[31m" not in out


def test_hot_seat_without_a_terminal_warns_that_hands_stay_visible() -> None:
    code, out, _ = play("--seed", "3", "--humans", "2", entries=["quit"])
    assert code == 1
    assert "Warning: this screen cannot be erased" in " ".join(out.split())


def test_a_log_that_cannot_be_written_is_named(tmp_path: Path) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full")
    code, _, err = play("--seed", "1", "--log", "/dev/full", entries=["quit"])
    assert code == 1
    assert "cannot write the log to '/dev/full': No space left on device" in err


def test_a_screen_that_fails_still_keeps_the_log(tmp_path: Path) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full")
    path = tmp_path / "game.json"
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "kow", "play", "--seed", "1", "--log", str(path)],
            input="1\nquit\n", stdout=full, stderr=subprocess.PIPE, text=True, timeout=60,
        )  # fmt: skip
    assert result.returncode == 1
    assert "Game abandoned (the terminal failed: No space left on device)" in result.stderr
    game = json.loads(path.read_text())
    assert game["abandoned"] is True and game["seed"] == 1


def test_the_summary_names_dogs_lives() -> None:
    rules = Rules(players=5, dogs_life="once-per-game")
    for seed in range(100):
        entries, expected = script(rules, seed, humans=1)
        granted = [r for r in expected["rounds"] if r["dogs_life_granted"]]
        if granted:
            break
    code, out, _ = play("--seed", str(seed), "--players", "5", "--dogs-life", "once-per-game",
                        entries=entries)  # fmt: skip
    assert code == 0
    names = ["You", *BOT_NAMES]
    summary = " ".join(out.split("The game, round by round:")[1].split())
    rnd = granted[0]
    who = ", ".join(names[s] for s in rnd["dogs_life_granted"])
    assert f"{rnd['number']}. " in summary and f"Dog's life: {who}." in summary


def test_the_opening_names_the_rules_in_force() -> None:
    code, out, _ = play("--seed", "1", "--preset", "traditional", entries=["quit"])
    assert code == 1
    opening = " ".join(out.split("=== Round 1")[0].split())
    assert (
        "Rules: 4 players, 7 cards; dog's life once per game; no sweep rule (preset traditional)."
        in opening
    )


def test_a_long_prompt_wraps_like_any_line() -> None:
    from kow.screen import visible_width

    code, out, _ = play(
        "--seed", "3", "--humans", "2", "--name", "Bob", "--name", "Annabelle",
        entries=["quit"], env={**UTF8, "COLUMNS": "40"},
    )  # fmt: skip
    assert code == 1
    lines = out.splitlines()  # seed 3: seat 1 (Annabelle) leads
    assert "Pass the keyboard to Annabelle, then" in lines
    assert "  press Enter. quit" in lines  # the entry (echoed here) follows the prompt
    assert max(visible_width(x) for x in lines if not x.endswith("quit")) <= 40


def test_a_sitting_takes_no_state_in_init_and_its_options_by_keyword() -> None:
    import inspect

    from kow.cli.session import Sitting

    params = inspect.signature(Sitting).parameters
    assert list(params) == [
        "rules", "humans", "bots", "bot_names", "terminal", "dealer", "search_iterations",
        "log_path", "delay", "symbols", "rulebook", "auto_forced", "kept",
    ]  # fmt: skip
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in list(params.values())[3:])


def test_a_closed_terminal_when_typed_keys_are_dropped_is_no_fault(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A terminal closed under kow play (SIGHUP) makes tcflush fail with termios.error,
    which is not an OSError: dropping the keys typed must still end quietly."""
    import io

    termios = pytest.importorskip("termios")
    from kow.cli.session import Terminal

    calls = []

    def closed(fd: int, queue: int) -> None:
        calls.append((fd, queue))
        raise termios.error(5, "Input/output error")

    monkeypatch.setattr(termios, "tcflush", closed)
    stdin = io.StringIO("")
    stdin.fileno = lambda: 0  # type: ignore[method-assign]
    terminal = Terminal(stdin, io.StringIO(), interactive=True, screen=False, color=False)
    terminal.discard_typed()
    assert calls == [(0, termios.TCIFLUSH)]


def test_help_at_play_again_says_what_it_takes() -> None:
    # help works at every prompt, "Play again?" included (new-user trial F7).
    first, _ = script(Rules(players=3), 21, humans=1)
    code, out, err = play("--seed", "21", "--players", "3", entries=[*first, "help", "?", "n"])
    assert code == 0, err
    said = (
        "Type y to play again, n to stop, a for the analysis of this game; quit or exit stops"
        " too."
    )
    assert out.replace("\n  ", " ").count(said) == 2
    assert "is not an answer here" not in out
    assert out.count("Play again, with a new seed? [y/n] ") == 3


@pytest.mark.parametrize("humans", [1, 2])
def test_a_byte_of_another_encoding_piped_in_is_an_entry_refused(
    humans: int, tmp_path: Path
) -> None:
    # Issue 33, 2: under a UTF-8 locale stdin decodes strictly (PYTHONIOENCODING=utf-8
    # gives the same as en_US.UTF-8), and a Latin-1 byte was a traceback that lost the log.
    path = tmp_path / "game.json"
    players = ["--players", "2", "--humans", "2"] if humans == 2 else []
    result = subprocess.run(
        [sys.executable, "-m", "kow", "play", "--seed", "3", "--delay", "0", *players,
         "--log", str(path)],
        input=b"\n" * (humans - 1) + b"Jos\xe9\nquit\n", capture_output=True, timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8"},
        cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    out, err = result.stdout.decode(), result.stderr.decode()
    assert "Traceback" not in err
    assert "'Jos\\udce9' is not a card or a command" in out  # as under C.UTF-8
    assert result.returncode == 1 and "Game abandoned (you quit)" in err
    assert json.loads(path.read_text())["abandoned"] is True


def test_a_fault_mid_game_still_saves_the_game_so_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every way out of kow play keeps --log, even a fault no one foresaw.
    from kow.cli import session

    real_drive = session.drive  # type: ignore[attr-defined]

    def failing_drive(state: Any, players: Any, on_event: Any) -> None:
        def told(event: Any) -> None:
            on_event(event)
            if len(state.events) > 6:
                raise ValueError("unforeseen")

        real_drive(state, players, told)

    monkeypatch.setattr(session, "drive", failing_drive)
    path = tmp_path / "game.json"
    result = CliRunner(env=UTF8).invoke(
        main, ["play", "--seed", "3", "--log", str(path)], input="1\n" * 20
    )
    assert isinstance(result.exception, ValueError)
    game = json.loads(path.read_text())
    assert game["abandoned"] is True and game["seed"] == 3
