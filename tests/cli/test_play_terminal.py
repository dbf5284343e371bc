"""``kow play`` in a pseudo-terminal, where the screen is the subject (issue 11).

Each test runs ``python -m kow play`` under pexpect and reads what the program wrote to
the terminal, escapes included: the private clear between people at one keyboard, the
opening lines, keys typed while the bots play, line editing, ``TERM=dumb`` and the width
of every line. The entries a person would type come from :func:`test_play.script`.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

if sys.platform == "win32":  # pragma: no cover
    pytest.skip("pexpect needs a POSIX terminal", allow_module_level=True)

pexpect = pytest.importorskip("pexpect")

from test_play import script  # noqa: E402  (after the skips above)

from kow.cards import parse_card  # noqa: E402
from kow.cli.session import PRIVATE_CLEAR  # noqa: E402
from kow.rules import Rules  # noqa: E402
from kow.screen import Screen, visible_width  # noqa: E402

PROMPT = (
    r"(?:(?:Your card|Knock or play your card|Suit):"
    r"|Pass the keyboard to (?P<to>[^\r\n]+?), then press Enter\.) "
)
"""Every prompt of a game (not the "Play again" one at its end)."""

AGAIN = r"Play again, with a new seed\? \[y/n\] "
SGR = re.compile(r"\x1b\[[0-9;:]*m")
"""A Select Graphic Rendition escape: colour, bold, dim, reset."""
CLEARS = ("\x1b[H", "\x1b[2J", "\x1b[3J", "\x1bc")
"""Escapes that move an old screen out of sight: home, erase screen or scrollback, reset."""

# The environment of every run: no COLUMNS or LINES (they would override the terminal's
# size) and no NO_COLOR (colour is part of what is tested).
BASE_ENV = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}


class Run:
    """``kow play ARGS`` in a pseudo-terminal of ``rows`` x ``cols``; ``out`` is every
    character the program wrote, as written (the terminal's CR LF line ends included)."""

    def __init__(
        self, *args: str, rows: int = 24, cols: int = 80, term: str = "xterm", shell: str = ""
    ) -> None:
        env = {**BASE_ENV, "LC_ALL": "C.UTF-8", "TERM": term}
        command = [sys.executable, "-m", "kow", "play", *args]
        if shell:  # run inside sh, with `shell` after kow; "$@" is kow's command line
            command = ["/bin/sh", "-c", f'"$@"; {shell}', "sh", *command]
        self.log = io.StringIO()
        self.child = pexpect.spawn(
            command[0], command[1:], env=env, encoding="utf-8", timeout=20,
            dimensions=(rows, cols),
        )  # fmt: skip
        self.child.logfile_read = self.log

    @property
    def out(self) -> str:
        return self.log.getvalue()

    def expect(self, pattern: Any) -> re.Match[str]:
        self.child.expect(pattern)
        return self.child.match  # type: ignore[no-any-return]

    def answer(self, entries: list[str]) -> None:
        """Type ``entries`` in turn, each once its prompt shows; an empty entry must meet a
        "pass the keyboard" prompt and any other a card or suit prompt."""
        for i, entry in enumerate(entries):
            match = self.expect(PROMPT)
            passing = match.group("to") is not None
            assert passing == (entry == ""), (i, entry, match.group(0))
            self.child.sendline(entry)

    def end(self) -> int:
        """Wait for the program to end; return its exit status."""
        self.child.expect(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus  # type: ignore[no-any-return]

    def close(self) -> None:
        self.child.close(force=True)


@pytest.fixture
def runs() -> Any:
    """Start runs with ``runs(*args, ...)``; each is closed at the end of the test."""
    started: list[Run] = []

    def start(*args: str, **kwargs: Any) -> Run:
        started.append(Run(*args, **kwargs))
        return started[-1]

    yield start
    for run in started:
        run.close()


def plain(text: str) -> str:
    """Return ``text`` without its SGR escapes."""
    return SGR.sub("", text)


def screen_lines(out: str) -> list[str]:
    """Return the lines written, without SGR escapes."""
    return plain(out).split("\r\n")


# ----------------------------------------------------------------------------- hot seat

HOT_SEAT = ["--humans", "2", "--name", "Ann", "--name", "Bob", "--players", "3", "--seed", "3",
            "--delay", "0"]  # fmt: skip


def hand_over(run: Run) -> tuple[str, str, str]:
    """Play the hot-seat game of seed 3 until the second person's hand shows; return the
    first person's name, the other's, and the card the first played (as shown)."""
    entries, _ = script(Rules(players=3), 3, humans=2)
    assert entries[0] == "" and entries[2] == "", entries[:4]
    first = run.expect(PROMPT).group("to")
    assert first in ("Ann", "Bob")
    other = "Bob" if first == "Ann" else "Ann"
    run.child.sendline("")
    run.expect(PROMPT)
    run.child.sendline(entries[1])
    played = run.expect(rf"\n  {first} plays (\S+)\r\n").group(1)
    assert run.expect(PROMPT).group("to") == other
    run.child.sendline("")
    run.expect(rf"{other}, your hand \(trump [^\r\n]*\r\n")
    run.expect(PROMPT)
    return first, other, plain(played)


def test_the_hand_over_clears_screen_and_scrollback_before_the_next_hand(runs: Any) -> None:
    run = runs(*HOT_SEAT)
    first, other, played = hand_over(run)
    out = run.out
    shown = out.index(f"{first}, your hand")
    handed = out.index(f"Pass the keyboard to {other}")
    assert PRIVATE_CLEAR in out[shown:handed], "no private clear before the hand-over"
    assert PRIVATE_CLEAR == "\x1b[H\x1b[2J\x1b[3J"  # home, erase screen, erase scrollback
    cleared = out.index(PRIVATE_CLEAR, shown) + len(PRIVATE_CLEAR)
    seen_by_other = out[cleared : out.index(f"{other}, your hand")]
    hand_line = plain(out[shown : out.index("\r\n", shown)])
    hand = hand_line.split("):", 1)[1].strip()
    cards = re.findall(r"\d+ (\S+)", hand)
    assert len(cards) == 7 and played in cards, (hand_line, played)
    assert f"{first}, your hand" not in seen_by_other
    assert hand not in plain(seen_by_other)
    # Not one of the cards the first person still holds is named before the other's
    # hand shows (the lines since their last turn name the cards played only).
    unplayed = [c for c in cards if c != played]
    assert [c for c in unplayed if c in plain(seen_by_other)] == []
    assert f"{first} plays {played}" in plain(seen_by_other), "the missed plays are shown"
    run.child.sendline("quit")
    assert run.end() == 1


def test_the_hand_over_as_a_terminal_shows_it(runs: Any) -> None:
    # The bytes fed to a terminal emulator with a scrollback: on a short screen the first
    # hand has scrolled into the scrollback before the hand-over; after it, the screen and
    # the scrollback hold the "pass the keyboard" prompt alone.
    pyte = pytest.importorskip("pyte")
    run = runs(*HOT_SEAT)
    first, other, _ = hand_over(run)
    out = run.out
    prompt = f"Pass the keyboard to {other}, then press Enter."
    handed = out.index(prompt) + len(prompt)
    before = out.index(PRIVATE_CLEAR, out.index(f"{first}, your hand"))

    def terminal(text: str, rows: int) -> tuple[list[str], list[str]]:
        screen = pyte.HistoryScreen(80, rows, history=1000)
        pyte.Stream(screen).feed(text)
        history = ["".join(line[x].data for x in range(80)) for line in screen.history.top]
        return [x.rstrip() for x in history], [x.rstrip() for x in screen.display]

    history, display = terminal(out[:before], 4)
    assert any(f"{first}, your hand" in line for line in history), display
    history, display = terminal(out[:handed], 4)
    assert history == [] and [x for x in display if x] == [prompt]
    history, display = terminal(out[:handed], 30)
    assert history == [] and [x for x in display if x] == [prompt]
    run.child.sendline("quit")
    assert run.end() == 1


@pytest.mark.parametrize("at", ["first", "second"])
def test_quit_at_the_hand_over_ends_the_game(runs: Any, at: str) -> None:
    run = runs(*HOT_SEAT)
    to = run.expect(PROMPT).group("to")
    if at == "second":
        run.child.sendline("")
        run.expect(PROMPT)
        run.child.sendline(script(Rules(players=3), 3, humans=2)[0][1])
        to = run.expect(PROMPT).group("to")
    assert to in ("Ann", "Bob")
    run.child.sendline("quit")
    assert run.end() == 1
    out = plain(run.out)
    assert "Game abandoned (you quit). Seed 3." in out
    assert f"{to}, your hand" not in out
    assert out.count("your hand") == (0 if at == "first" else 1)


def test_the_opening_lines_stay_until_the_first_hand_over(runs: Any) -> None:
    run = runs(*HOT_SEAT, rows=24)
    run.expect(PROMPT)
    out = run.out
    assert out.endswith(", then press Enter. ")
    for clear in CLEARS:
        assert clear not in out, clear
    lines = screen_lines(out)
    title = lines.index("Knock-Out Whist, seed 3")
    assert lines[title + 1] == "Seats, clockwise: 0 Ann, 1 Bob, 2 Ada (heuristic)"
    assert len(lines) - title <= 24, "the opening lines have scrolled off the screen"
    assert "Turned up: 2♠." in lines[title:]
    run.child.sendline("quit")
    assert run.end() == 1


# ----------------------------------------------------------------------------- keys


def test_keys_typed_while_the_bots_play_are_dropped(runs: Any) -> None:
    run = runs("--seed", "21", "--players", "3", "--delay", "0.5")
    run.expect(PROMPT)
    start = len(run.out)
    run.child.sendline("1")  # the last card of trick 1: then Ben wins it and leads,
    run.expect("You play")  # 0.5 s after each, before the next prompt
    run.child.send("junk\r")
    run.expect(PROMPT)
    typed = plain(run.out[start:])
    # Keys typed while the bots play are not shown (echo is off until the prompt).
    assert "junk" not in typed, typed
    run.child.sendline("hand")  # a known entry, to be read after anything left over
    run.expect(r"Your hand \(trump ")
    run.expect(PROMPT)
    assert "'junk' is not a card" not in run.out
    assert "is not a card" not in run.out[start:]
    run.child.sendline("quit")
    assert run.end() == 1


def test_keys_typed_as_a_game_ends_reach_neither_the_prompt_nor_the_shell(runs: Any) -> None:
    # 3 players, 2 cards, seed 0: you lead the last trick and win the game by a sweep.
    # Keys typed while the two bots follow are dropped; "n" then ends kow with 0, and the
    # shell that started kow reads only what is typed after that.
    args = ["--seed", "0", "--players", "3", "--start-cards", "2", "--delay", "0.3"]
    entries, game = script(Rules(players=3, start_cards=2), 0, humans=1)
    assert len(entries) == 2 and game["result"]["winner"] == 0
    shell = 'echo "EXIT=$?"; printf "SHELL READS: "; read x; echo "[$x]"'
    run = runs(*args, shell=shell)
    run.answer(entries)
    run.expect("You play")  # then 0.3 s after each bot's card and after the trick
    run.child.send("junk\r")
    run.expect(AGAIN)
    run.child.sendline("n")
    assert run.expect(r"EXIT=(\d+)").group(1) == "0"
    run.expect("SHELL READS: ")
    run.child.sendline("ok")
    assert run.expect(r"\[(.*)\]\r\n").group(1) == "ok"
    assert run.end() == 0
    out = plain(run.out)
    assert "Type y to play again" not in out
    assert "junk" not in out, "keys typed while the bots play are neither shown nor read"


def test_line_editing_and_history_at_a_prompt(runs: Any) -> None:
    pytest.importorskip("readline")
    run = runs("--seed", "21", "--players", "3", "--delay", "0")
    run.expect(PROMPT)
    start = len(run.out)
    run.child.sendline("table")
    run.expect(PROMPT)
    run.child.send("\x1b[A")  # up arrow: the last entry again
    run.child.send("\r")
    run.expect(PROMPT)
    run.child.send("xhand\x01\x04\r")  # ctrl-A to the start, ctrl-D deletes the x
    run.expect(PROMPT)
    out = screen_lines(run.out[start:])
    assert sum(x.startswith("Tricks this round: ") for x in out) == 2, out
    assert sum(x.startswith("Round 1 of at most 7, 7 cards each.") for x in out) == 2
    assert sum(x.startswith("Your hand (trump ") for x in out) == 1, out
    assert not any("is not a card" in x or "\x1b[A" in x for x in out), out
    run.child.sendline("quit")
    assert run.end() == 1


# ----------------------------------------------------------------------------- the screen


@pytest.mark.parametrize(("term", "colour"), [("dumb", False), ("xterm", True)])
def test_term_dumb_gets_no_colour(runs: Any, term: str, colour: bool) -> None:
    entries, _ = script(Rules(players=3), 21, humans=1)
    run = runs("--seed", "21", "--players", "3", "--delay", "0", term=term)
    run.answer(entries)
    run.expect(AGAIN)
    run.child.sendline("n")
    assert run.end() == 0
    out = run.out
    assert "wins the game" in out and "The game, round by round:" in out
    assert bool(SGR.search(out)) is colour, sorted(set(SGR.findall(out)))
    if colour:
        assert "\x1b[1mKnock-Out Whist, seed 21\x1b[0m\r\n" in out
    else:
        assert out.startswith("Knock-Out Whist, seed 21\r\n")


CARD = r"(?:10|[2-9JQKA])[♣♦♥♠]"
HAND_HEADER = re.compile(r"(?:Your|\S.*?, your) hand \(trump [^)]*\):(.*)")
HAND_BODY = re.compile(rf"(?: +\*?\d+ {CARD})+ *")
PROMPT_LINE = re.compile(
    r"(Your card|Knock or play your card|Suit): |Play again, with a new seed\? "
)


def shown_hands(lines: list[str]) -> list[list[str]]:
    """Return every hand shown in ``lines``: its entries "N CARD" in order, read from the
    hand line and its continuation lines. Each of those lines must hold whole cards only,
    and the hand must be followed by a prompt or the trump choice."""
    hands = []
    for i, line in enumerate(lines):
        header = HAND_HEADER.fullmatch(line)
        if header is None:
            continue
        body = [header.group(1)]
        j = i + 1
        while lines[j].startswith(" "):
            body.append(lines[j])
            j += 1
        for part in body:
            assert HAND_BODY.fullmatch(part), (part, lines[i:j])
        assert PROMPT_LINE.match(lines[j]) or "hoose trump: " in lines[j], lines[i : j + 1]
        hands.append([t.lstrip("*") for t in re.findall(rf"\*?\d+ {CARD}", " ".join(body))])
    return hands


def hands_of_seat_0(game: dict[str, Any]) -> list[list[str]]:
    """Return the hands seat 0 is shown in the logged ``game``, in order: at each trump
    choice and before each card it plays; entries "N CARD", sorted as on screen."""
    screen = Screen(["x"] * game["rules"]["players"], Rules(players=game["rules"]["players"]))
    shown = []

    def show(hand: list[int]) -> None:
        shown.append([f"{n} {screen.card(c)}" for n, c in enumerate(sorted(hand), 1)])

    for rnd in game["rounds"]:
        if rnd["hands"][0] is None:
            continue
        hand = [parse_card(c) for c in rnd["hands"][0]]
        if rnd["trump_method"] == "chosen" and rnd["trump_chosen_by"] == 0:
            show(hand)
        for trick in rnd["tricks"]:
            for play in trick["plays"]:
                if play["seat"] == 0:
                    show(hand)
                    hand.remove(parse_card(play["card"]))
    return shown


@pytest.mark.parametrize(
    ("players", "seed", "cols"), [(3, 5, 40), (3, 21, 40), (7, 4, 80), (4, 3, 80)]
)
def test_every_line_fits_the_width_and_no_card_is_split(
    runs: Any, players: int, seed: int, cols: int
) -> None:
    entries, game = script(Rules(players=players), seed, humans=1)
    run = runs("--seed", str(seed), "--players", str(players), "--delay", "0",
               rows=30, cols=cols)  # fmt: skip
    run.answer(entries)
    run.expect(AGAIN)
    run.child.sendline("n")
    assert run.end() == 0
    lines = screen_lines(run.out)
    written = [x for x in lines if not PROMPT_LINE.match(x)]
    too_wide = [x for x in written if visible_width(x) > cols]
    assert too_wide == []
    assert not any("\x1b" in x or "\r" in x for x in written)
    assert any(x.startswith("    ") for x in written), "no line was wrapped: a vacuous test"
    hands = shown_hands(lines)
    assert hands == hands_of_seat_0(game)
    if cols == 40:
        assert any(len(h) >= 5 for h in hands)  # too wide for one line of 40 columns
    assert len(hands) == sum(1 for e in entries if e)  # one hand shown per decision


# ----------------------------------------------------------------------------- whole games


@pytest.mark.parametrize(("humans", "seed"), [(2, 5), (1, 5)])
def test_a_whole_game_then_another_then_quit(
    runs: Any, tmp_path: Path, humans: int, seed: int
) -> None:
    entries, expected = script(Rules(players=3), seed, humans=humans)
    path = tmp_path / "games.jsonl"
    run = runs("--seed", str(seed), "--players", str(3), "--humans", str(humans),
               "--delay", "0", "--log", str(path))  # fmt: skip
    if humans > 1:
        run.child.delaybeforesend = None  # 90 entries: no pause before each
    run.answer(entries)
    run.expect(AGAIN)
    # Each hand-over but the first (no hand shown yet) clears before its prompt, and
    # each clears once Enter is pressed.
    passes = entries.count("")
    assert run.out.count(PRIVATE_CLEAR) == (2 * passes - 1 if passes else 0)
    first = screen_lines(run.out)
    winner = expected["players"][expected["result"]["winner"]]["name"]
    assert any(x.startswith(f"*** {winner} win") for x in first), winner
    top = first.index("The game, round by round:")
    # The running score of the sitting closes the summary (issue 24), then the seed.
    score = next(i for i, x in enumerate(first) if x.startswith("Games won so far (1 played): "))
    assert f"{winner} 1" in " ".join(first[score : score + 2])  # wrap writes GLUE as a space
    end = first.index(f"Seed {seed}: play this deal again with --seed {seed}.")
    assert score < end
    numbered = [x for x in first[top + 1 : score] if re.match(r"  \d+\. ", x)]
    assert all(x.startswith("    ") for x in first[top + 1 : score] if x not in numbered)
    rounds = expected["result"]["rounds_played"]
    assert [int(x.split(".")[0]) for x in numbered] == list(range(1, rounds + 1))
    # The path, one word longer than a line, may stand alone on the next line.
    assert re.match(rf"Log saved to\s+{re.escape(str(path))}\.", " ".join(first[end + 1 :]))
    run.child.sendline("y")
    again = int(run.expect(r"Knock-Out Whist, seed (\d+)\D").group(1))
    assert again != seed
    run.expect(PROMPT)
    run.child.sendline("quit")
    assert run.end() == 1
    said = " ".join(plain(run.out).split())  # the message is wrapped to the width
    assert f"Game abandoned (you quit); the game so far is saved in {path}. Seed " in said
    lines = path.read_text().splitlines()
    assert len(lines) == 2
    games = [json.loads(x) for x in lines]
    assert games[0] == expected, "the first game's log is the game scripted"
    assert len(games[0]["rounds"]) == len(numbered)
    assert "abandoned" not in games[0]
    assert games[1]["abandoned"] is True and games[1]["seed"] == again
    assert games[1]["result"]["winner"] is None


def test_a_game_left_after_play_again_is_named_by_its_own_seed(runs: Any) -> None:
    entries, _ = script(Rules(players=3), 21, humans=1)
    run = runs("--seed", "21", "--players", "3", "--delay", "0")
    run.answer(entries)
    run.expect(AGAIN)
    run.child.sendline("y")
    again = int(run.expect(r"Knock-Out Whist, seed (\d+)\D").group(1))
    run.expect(PROMPT)
    run.child.sendline("quit")
    assert run.end() == 1
    assert again != 21
    assert re.findall(r"Game abandoned \(you quit\)\. Seed (\d+)\.", plain(run.out)) == [str(again)]
