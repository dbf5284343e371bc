"""``kow play`` at the table (issue 24): forced moves that play themselves, the ``played``
command, the running score of a sitting, and long texts in a pager on a terminal.

The screen itself (the pager) runs under pexpect; the rest through the command line with
scripted entries, worked out as in :mod:`test_play` by playing the same seed with a
stand-in.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_play import UTF8, play

from kow import log
from kow.cli import main
from kow.engine.view import View
from kow.events import BOT_NAMES, Phase
from kow.game import bots_rng, play_game
from kow.players import Player, make_bot
from kow.rules import Rules
from kow.screen import GLUE, Screen


class Recorder(Player):
    """Stands in for a person: takes the first legal action, and records for each
    decision the entry typed and whether it was forced (a single legal card)."""

    kind = "human"

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.decisions: list[tuple[str, bool, int]] = []

    def act(self, view: View) -> int:
        action = view.legal[0]
        if view.phase is Phase.PLAY:
            entry = str(sorted(view.hand).index(action) + 1)
        else:
            entry = "1"
        forced = view.phase is Phase.PLAY and len(view.legal) == 1
        self.decisions.append((entry, forced, view.hand_size))
        return action


def recorded(rules: Rules, seed: int) -> tuple[list[tuple[str, bool, int]], dict[str, Any]]:
    """Return the decisions of a person at seat 0 against heuristic bots, and the log."""
    you = Recorder("You")
    rng = bots_rng(seed)
    players: list[Player] = [you]
    players += [make_bot("heuristic", BOT_NAMES[i], rng) for i in range(rules.players - 1)]
    state = play_game(rules, players, seed)
    return you.decisions, log.build(seed, rules, players, events=state.events)  # type: ignore[return-value]


def reaching_the_last_round(rules: Rules) -> int:
    """Return a seed whose game takes the person at seat 0 to the 1-card round."""
    for seed in range(200):
        decisions, game = recorded(rules, seed)
        if any(size == 1 for _, _, size in decisions):
            return seed
    raise AssertionError("no seed takes seat 0 to the last round")


# ----------------------------------------------------------------------------- forced moves

RULES = Rules(players=3, start_cards=4)


def test_auto_forced_plays_a_single_legal_card_and_says_so(tmp_path: Path) -> None:
    seed = reaching_the_last_round(RULES)
    decisions, expected = recorded(RULES, seed)
    forced = [d for d in decisions if d[1]]
    assert forced and len(forced) < len(decisions)
    entries = [entry for entry, is_forced, _ in decisions if not is_forced]
    path = tmp_path / "g.jsonl"
    code, out, err = play(
        "--seed", str(seed), "--players", "3", "--start-cards", "4", "--auto-forced",
        "--log", str(path), entries=entries,
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(path.read_text()) == expected, "the same game, with fewer entries"
    said = [x for x in out.splitlines() if "plays itself" in x]
    assert len(said) == len(forced)
    assert any(x.startswith("One card each this round: your ") for x in said)
    assert any(x.startswith("Your last card, ") for x in said)


def test_auto_at_a_prompt_turns_it_on_and_plays_a_forced_move_at_once() -> None:
    seed = reaching_the_last_round(RULES)
    decisions, expected = recorded(RULES, seed)
    k = next(i for i, d in enumerate(decisions) if d[1])  # the first forced move
    entries = [e for e, _, _ in decisions[:k]] + ["auto"]
    entries += [e for e, is_forced, _ in decisions[k + 1 :] if not is_forced]
    code, out, err = play(
        "--seed", str(seed), "--players", "3", "--start-cards", "4", entries=entries
    )  # fmt: skip
    assert code == 0, err
    assert "Forced moves now play themselves (a single legal card); auto again to stop." in out
    winner = expected["players"][expected["result"]["winner"]]["name"]
    assert f"*** {winner} win" in out


def test_auto_again_turns_it_off() -> None:
    seed = reaching_the_last_round(RULES)
    decisions, _ = recorded(RULES, seed)
    k = next(i for i, d in enumerate(decisions) if not d[1])  # a choice: auto plays nothing
    typed = [e for e, _, _ in decisions]
    entries = [*typed[:k], "auto", "auto", *typed[k:]]
    code, out, err = play(
        "--seed", str(seed), "--players", "3", "--start-cards", "4", entries=entries
    )  # fmt: skip
    assert code == 0, err
    assert "Forced moves now wait for you; auto again to have them play themselves." in out
    assert "plays itself" not in out


def test_forced_lines_name_the_card_and_why() -> None:
    from conftest import apply_all, deal, new_state

    from kow.cli.human import HumanPlayer

    rules = Rules(players=3, start_cards=4)
    # Dealer 0, seat 1 leads A♣; you (seat 0) hold one club, 7♣: the one card you may play.
    state = apply_all(
        new_state(rules, 0, [deal(0, ["7c 3h 4h 5h", "Ac Kc Qc 2d", "4c 5c 6c Ad"], "2s")]),
        "Ac 4c",
    )
    assert state.turn == 0
    lines: list[str] = []
    human = HumanPlayer("You", Screen(["You", "Ada", "Ben"], rules), lambda _: "quit",
                        write=lines.append, auto_forced=True)  # fmt: skip
    assert human.play(state.view()) == 5  # 7c
    assert lines == [
        "7\u2663 is the one card you may play: it plays itself. (auto is on: type auto at a"
        " prompt to stop it.)"
    ]


# ----------------------------------------------------------------------------- played


def test_played_lists_the_rounds_cards_by_suit_and_the_voids_shown() -> None:
    from conftest import apply_all, deal, new_state

    from kow.cli.human import HumanPlayer

    rules = Rules(players=3, start_cards=4)
    # Seat 1 leads A♣; seat 2 follows 4♣; you, with no club, play 2♥ (void in clubs);
    # seat 1 won and leads K♣, seat 2 follows 5♣: your turn again.
    state = apply_all(
        new_state(rules, 0, [deal(0, ["2h 3h 4h 5h", "Ac Kc Qc 2d", "4c 5c 6c Ad"], "2s")]),
        "Ac 4c 2h Kc 5c",
    )
    assert state.turn == 0
    lines: list[str] = []
    answers = iter(["played", "quit"])
    human = HumanPlayer("You", Screen(["You", "Ada", "Ben"], rules), lambda _: next(answers),
                        write=lines.append)  # fmt: skip
    with pytest.raises(Exception, match="quit"):
        human.play(state.view())
    start = next(i for i, x in enumerate(lines) if x.startswith("Played in round"))
    shown = [x.replace(GLUE, " ") for x in lines[start : start + 6]]
    assert shown == [
        "Played in round 1 (5 cards), by suit, high to low:",
        "  \u2663 clubs     A K 5 4",
        "  \u2666 diamonds  -",
        "  \u2665 hearts    2",
        "  \u2660 spades    -",
        "Known void (did not follow the led suit): You \u2663.",
    ]


def test_played_before_any_card_and_with_no_void() -> None:
    from conftest import deal, new_state

    from kow.cli.human import HumanPlayer

    rules = Rules(players=3, start_cards=4)
    state = new_state(rules, 2, [deal(2, ["2h 3h 4h 5h", "Ac Kc Qc 2d", "4c 5c 6c Ad"], "2s")])
    assert state.turn == 0  # dealer 2: you lead
    lines: list[str] = []
    answers = iter(["played", "quit"])
    human = HumanPlayer("You", Screen(["You", "Ada", "Ben"], rules), lambda _: next(answers),
                        write=lines.append)  # fmt: skip
    with pytest.raises(Exception, match="quit"):
        human.play(state.view())
    assert "No card has been played yet in round 1." in lines
    assert "Nobody has shown a void this round." in lines


def test_played_in_a_whole_game_at_every_prompt() -> None:
    seed = reaching_the_last_round(RULES)
    decisions, _ = recorded(RULES, seed)
    entries = [x for e, _, _ in decisions for x in ("played", e)]
    code, out, err = play(
        "--seed", str(seed), "--players", "3", "--start-cards", "4", entries=entries
    )  # fmt: skip
    assert code == 0, err
    assert out.count("by suit, high to low:") + out.count("No card has been played yet") == len(
        decisions
    )


# ----------------------------------------------------------------------------- the score


def test_the_running_score_counts_each_game_won(monkeypatch: pytest.MonkeyPatch) -> None:
    import kow.cli.commands.play as commands

    rules = Rules(players=3, start_cards=3)
    monkeypatch.setattr(commands, "draw_seed", lambda: 8)
    first, game1 = recorded(rules, 7)
    second, game2 = recorded(rules, 8)
    entries = [*(e for e, _, _ in first), "y", *(e for e, _, _ in second), "n"]
    code, out, err = play(
        "--seed", "7", "--players", "3", "--start-cards", "3", entries=entries
    )  # fmt: skip
    assert code == 0, err
    names = ["You", "Ada", "Ben"]
    wins = [0, 0, 0]
    scores = [x.replace(GLUE, " ") for x in out.splitlines() if x.startswith("Games won")]
    for number, game in enumerate((game1, game2), 1):
        wins[game["result"]["winner"]] += 1
        counted = " \u00b7 ".join(f"{n} {w}" for n, w in zip(names, wins, strict=True))
        assert scores[number - 1] == f"Games won so far ({number} played): {counted}"
    assert len(scores) == 2
    # After the summary, before the seed's line.
    assert out.index("The game, round by round:") < out.index("Games won so far (1 played)")
    assert out.index("Games won so far (1 played)") < out.index("Seed 7: play this deal again")


def test_an_abandoned_game_counts_for_nobody() -> None:
    code, out, err = play("--seed", "7", entries=["quit"])
    assert code == 1
    assert "Games won so far" not in out


# ----------------------------------------------------------------------------- the pager

pexpect = pytest.importorskip("pexpect") if sys.platform != "win32" else None
PAGED = {"PAGER": "sed -e s/^/PAGED:/", "LC_ALL": "C.UTF-8", "TERM": "xterm"}
ENV = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "LESS")}


@pytest.mark.skipif(pexpect is None, reason="pexpect needs a POSIX terminal")
def test_kow_rules_on_a_terminal_goes_through_the_pager() -> None:
    assert pexpect is not None
    out = io.StringIO()
    child = pexpect.spawn(sys.executable, ["-m", "kow", "rules"], env={**ENV, **PAGED},
                          encoding="utf-8", timeout=30, dimensions=(24, 80))  # fmt: skip
    child.logfile_read = out
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    lines = [x for x in out.getvalue().split("\r\n") if x]
    assert len(lines) > 20
    assert all(x.startswith("PAGED:") for x in lines), lines[:3]


def test_kow_rules_piped_is_not_paged() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kow", "rules"], env={**ENV, **PAGED}, capture_output=True,
        text=True, timeout=60, check=True,
    )  # fmt: skip
    assert "PAGED:" not in done.stdout
    assert done.stdout == CliRunner().invoke(main, ["rules"]).stdout


@pytest.mark.skipif(pexpect is None, reason="pexpect needs a POSIX terminal")
def test_rules_at_a_prompt_goes_through_the_pager_on_a_terminal() -> None:
    assert pexpect is not None
    out = io.StringIO()
    child = pexpect.spawn(
        sys.executable, ["-m", "kow", "play", "--seed", "7", "--delay", "0"],
        env={**ENV, **PAGED}, encoding="utf-8", timeout=30, dimensions=(24, 80),
    )  # fmt: skip
    child.logfile_read = out
    child.expect("Your card: ")
    child.sendline("rules")
    child.expect("Your card: ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    between = out.getvalue().split("rules\r\n", 1)[1].split("Your hand")[0]
    paged = [x for x in between.split("\r\n") if x.startswith("PAGED:")]
    assert len(paged) > 20, between[:500]
    assert any("Sources:" in x for x in paged)


def test_rules_at_a_prompt_piped_is_written_whole() -> None:
    code, out, _ = play("--seed", "7", entries=["rules", "quit"], env={**UTF8, **PAGED})
    assert code == 1
    assert "Sources:" in out and "PAGED:" not in out
