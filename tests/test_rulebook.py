"""The rulebook (kow.rulebook), `kow rules`, and --preset on every command with rule options."""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kow.cli import main
from kow.log import rules_to_log
from kow.rulebook import (
    MIN_WIDTH,
    SOURCES,
    SUMMARY_WIDTH,
    Rule,
    rule_lines,
    rulebook,
    rules_summary,
)
from kow.rules import DOGS_LIFE, LEADS, PRESETS, TRUMPS, Rules, preset_of

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, columns: int | None = None) -> tuple[int, str, str]:
    """Run ``kow`` in-process; return (exit code, stdout, stderr)."""
    env = {"COLUMNS": str(columns)} if columns else None
    result = CliRunner().invoke(main, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def flat(text: str) -> str:
    """Return ``text`` with every run of spaces and newlines as one space (unwrapped)."""
    return " ".join(text.split())


def rule(rules: Rules, title: str) -> Rule:
    (found,) = [r for r in rulebook(rules) if r.title == title]
    return found


def titles(rules: Rules) -> list[str]:
    return [r.title for r in rulebook(rules)]


def every_rules() -> list[Rules]:
    """Every combination of the settings (at 4 players, 7 cards; and 1 card, 2 players)."""
    out = []
    for dogs, trump, last, lead, vote, sweep in itertools.product(
        DOGS_LIFE, TRUMPS, (True, False), LEADS, (True, False), (True, False)
    ):
        base = Rules(
            dogs_life=dogs,  # type: ignore[arg-type]
            trump=trump,  # type: ignore[arg-type]
            final_round_trump=last,
            lead=lead,  # type: ignore[arg-type]
            eliminated_vote=vote,
            sweep_wins=sweep,
        )
        out += [base, dataclasses.replace(base, players=2, start_cards=1)]
    return out


# --------------------------------------------------------------------------- the text


def test_the_rules_come_in_the_order_of_play() -> None:
    assert titles(Rules()) == [
        "Players and cards", "Rounds", "The deal", "Trump in round 1",
        "Trump in later rounds", "Ties for the most tricks", "Tricks", "Knock-out", "Leads",
        "The final round", "Sweep", "Winning",
    ]  # fmt: skip
    assert titles(Rules(dogs_life="once-per-game", eliminated_vote=True)) == [
        "Players and cards", "Rounds", "The deal", "Trump in round 1",
        "Trump in later rounds", "Knocked-out players vote for trump",
        "Ties for the most tricks", "Tricks", "Knock-out", "Dog's life", "Leads",
        "The final round", "Sweep", "Winning",
    ]  # fmt: skip


def test_the_tricks_rule_states_follow_suit_and_trump() -> None:
    text = rule(Rules(), "Tricks").text
    assert "You must follow suit" in text
    assert "The highest trump wins the trick" in text
    assert rule(Rules(), "Tricks").source.startswith("the rules text, 'Déroulement du jeu' 2")


def test_dogs_life_off_knocks_out_and_describes_no_dogs_life() -> None:
    knock = rule(Rules(), "Knock-out")
    assert "each player who took no trick is knocked out" in knock.text
    assert "There is no dog's life in this game." in knock.text
    assert "'Déroulement du jeu' 5 makes it optional" in knock.source
    assert "Dog's life" not in titles(Rules())
    assert not any("dog's life" in r.text for r in rulebook(Rules()) if r.title != "Knock-out")


def test_dogs_life_once_per_game_is_the_traditional_rule_of_002_and_004() -> None:
    dog = rule(Rules(dogs_life="once-per-game"), "Dog's life")
    assert dog.text.startswith("Once per game, a player who takes no trick gets a dog's life")
    assert "If several take no trick in that same round, each gets one." in dog.text
    assert dog.source.startswith("source 002, 'Elimination'; source 004 (the traditional rule)")
    assert (
        "The one exception is the dog's life"
        in rule(Rules(dogs_life="once-per-game"), "Knock-out").text
    )


def test_dogs_life_once_per_player_is_the_rules_text() -> None:
    dog = rule(Rules(dogs_life="once-per-player"), "Dog's life")
    assert dog.text.startswith("Each player, the first time they take no trick")
    assert dog.source.startswith("the rules text, 'Déroulement du jeu' 5")
    assert "knock on the table" in dog.text and "kow's choice" in dog.source


def test_sweep_on_and_off() -> None:
    on = rule(Rules(), "Sweep")
    assert on.text.startswith("A player who takes every trick of a round wins the game at once")
    assert "'Rafle'" in on.source
    off = rule(Rules(sweep_wins=False), "Sweep")
    assert off.text.startswith("There is no sweep rule")
    assert off.source == "sources 002 and 004, which have no sweep rule (the rules text has one)"
    assert "a player sweeps" in rule(Rules(), "Winning").text
    assert "sweeps" not in rule(Rules(sweep_wins=False), "Winning").text


def test_trump_variants() -> None:
    chosen = rule(Rules(), "Trump in later rounds")
    assert "the player who took the most tricks last round looks at their new hand" in chosen.text
    fixed = rule(Rules(trump="fixed", eliminated_vote=True), "Trump in later rounds")
    assert fixed.text.startswith("Round 1's trump suit stays trump in every round.")
    assert "'Atout fixe" in fixed.source
    # Fixed trump comes before the vote: no vote rule.
    assert "Knocked-out players vote for trump" not in titles(
        Rules(trump="fixed", eliminated_vote=True)
    )
    vote = rule(Rules(eliminated_vote=True), "Knocked-out players vote for trump")
    assert "kow's choice" in vote.source
    last = rule(Rules(final_round_trump=False), "The final round")
    assert "It is played with no trump" in last.text
    assert "'Sans atout lors de la manche finale'" in last.source
    single = rule(Rules(start_cards=1, final_round_trump=False), "Trump in round 1")
    assert "no card is turned up" in single.text


def test_leads_and_the_tie_cut() -> None:
    most = rule(Rules(), "Leads")
    assert "the player who took the most tricks last round leads it" in most.text
    left = rule(Rules(lead="dealer-left"), "Leads")
    assert left.text.startswith("In every round, the player on the dealer's left leads")
    assert "later rounds: kow's choice" in left.source
    # With no one choosing trump and the dealer's left leading, no tie cut is ever needed.
    assert "Ties for the most tricks" not in titles(Rules(trump="fixed", lead="dealer-left"))
    assert (
        "picks the one who leads the round's first trick."
        in rule(Rules(trump="fixed"), "Ties for the most tricks").text
    )


def test_start_cards_name_the_round_count_and_the_variant() -> None:
    five = rule(Rules(start_cards=5), "Rounds")
    assert "Round 1 deals 5 cards" in five.text and "at most 5 rounds" in five.text
    assert "'Variantes de taille de main'" in five.source
    assert "Variantes" not in rule(Rules(), "Rounds").source


@pytest.mark.parametrize("rules", every_rules(), ids=str)
def test_every_variant_is_latin_1_and_each_rule_has_a_source(rules: Rules) -> None:
    book = rulebook(rules)
    assert book[0].title == "Players and cards" and book[-1].title == "Winning"
    for r in book:
        assert r.title and r.text and r.source, r
        assert any(name in r.source for name in ("rules text", "source 00", "kow's choice")), r
        for part in r:
            part.encode("latin-1")
    for width in (MIN_WIDTH, 63, 100):
        lines = rule_lines(rules, width)
        assert all(len(line) <= width and line == line.rstrip() for line in lines)
        # Only the rules' titles start with a number and a full stop.
        numbered = [line for line in lines if re.match(r"\d+\. ", line)]
        assert numbered == [f"{i}. {r.title}" for i, r in enumerate(book, 1)]
        # The sources are "source 002", never "seed 002": --seed is something else.
        assert "seed" not in " ".join(lines).lower()


@pytest.mark.parametrize("width", [40, 41, 57, 80, 100])
def test_lines_fit_the_width_and_keep_every_word(width: int) -> None:
    rules = Rules(dogs_life="once-per-game", eliminated_vote=True, final_round_trump=False)
    lines = rule_lines(rules, width)
    assert max(map(len, lines)) <= width
    assert max(map(len, lines)) > width - 12  # the width is used, not just respected
    words = " ".join(lines).split()
    assert " ".join(rule_lines(rules, 1000)).split() == words  # no word broken
    assert lines[0] == "Knock-Out Whist: the rules of this game"
    assert sum(line == "Sources:" for line in lines) == 1
    numbered = [line for line in lines if re.match(r"\d+\. ", line)]
    assert numbered == [f"{i}. {title}" for i, title in enumerate(titles(rules), 1)]


def test_narrower_than_40_wraps_at_40() -> None:
    assert rule_lines(Rules(), 10) == rule_lines(Rules(), 40)


def test_presets_and_preset_of() -> None:
    assert dict(PRESETS["traditional"]) == {"dogs_life": "once-per-game", "sweep_wins": False}
    assert dict(PRESETS["rules-text"]) == {}
    assert preset_of(Rules(players=6, dogs_life="once-per-game", sweep_wins=False)) == (
        "traditional"
    )
    assert preset_of(Rules(players=2)) == "rules-text"
    assert preset_of(Rules(dogs_life="once-per-game")) is None
    assert preset_of(Rules(start_cards=6, dogs_life="once-per-game", sweep_wins=False)) is None


# --------------------------------------------------------------------------- the sources

SEEDS = Path("/work/shared/seeds")


def test_the_legend_names_each_source_so_a_reader_can_recognise_it() -> None:
    assert rule_lines(Rules(), 80)[3:15] == [
        "",
        "Sources:",
        "   The rules text: one text in three languages, a full guide with variants, tips",
        "   and a glossary. Source 000 is the French, headed 'Comment jouer'; 001 the",
        "   Italian, 'Come si gioca'; 003 the Portuguese, 'Como Jogar'. kow's defaults",
        "   are its rules. Its sections are cited by their French headings.",
        "   Source 002: a French rules sheet titled 'Knock out whist', starting \"Nombre",
        "   de joueurs: de 2 à 7 joueurs\". The traditional rules, with the dog's life in",
        "   full.",
        "   Source 004: a French paragraph titled 'Knock Out Whist', starting \"C'est un",
        '   jeu de levées simple, adapté aux enfants". The traditional rules, in brief.',
        "   kow's choice: what the sources leave open.",
    ]
    SOURCES.encode("latin-1")
    assert "seed" not in SOURCES.lower()


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the source documents are not here")
def test_the_legend_quotes_each_source_as_it_starts() -> None:
    def start(number: str) -> str:
        (path,) = SEEDS.glob(f"{number}_*.txt")
        return path.read_text(encoding="utf-8")[:200]

    for number, quoted in [
        ("000", "Comment jouer"),
        ("001", "Come si gioca"),
        ("003", "Como Jogar"),
        ("002", "Knock out whist\nNombre de joueurs: de 2 à 7 joueurs"),
        ("004", "Knock Out Whist\n\nC'est un jeu de levées simple, adapté aux enfants"),
    ]:
        assert start(number).startswith(quoted), number
        for part in filter(None, quoted.split("\n")):  # the title, then the first words
            assert part in SOURCES, part


def test_rules_cite_sources_not_seeds() -> None:
    traditional = Rules(dogs_life="once-per-game", sweep_wins=False)
    assert rule(traditional, "Players and cards").source == (
        "the rules text, 'Joueurs', 'Jeu de cartes'; source 002; source 004"
    )
    assert rule(traditional, "Sweep").source == (
        "sources 002 and 004, which have no sweep rule (the rules text has one)"
    )
    lines = rule_lines(traditional, 100)
    assert lines[1] == (
        "4 players; round 1 deals 7 cards. These are the traditional rules of sources 002 and "
        "004 (preset"
    )
    assert "   From: the rules text, 'Joueurs', 'Jeu de cartes'; source 002; source 004." in lines
    _, out, _ = run("rules", "--preset", "traditional", "--json")
    assert "seed" not in out.lower()


# --------------------------------------------------------------------------- what the text says


def test_the_ten_is_10_on_the_screen_and_t_in_the_logs() -> None:
    assert rule(Rules(), "Players and cards").text == (
        "4 players play, each for themselves (2 to 7 may play). One deck of 52 cards, no "
        "jokers. In each suit the cards rank, from high to low: A K Q J 10 9 8 7 6 5 4 3 2. "
        "The screen shows the ten as 10; the logs write it T (Th is the ten of hearts). Suits "
        "have no order: only the trump suit beats the others."
    )
    assert "kow writes the 10 as T" not in flat(" ".join(rule_lines(Rules())))


def test_one_round_leaves_out_every_rule_of_later_rounds() -> None:
    rules = Rules(start_cards=1, dogs_life="once-per-game", sweep_wins=False)
    assert titles(rules) == [
        "Players and cards", "Rounds", "The deal", "Trump in round 1", "Tricks",
        "Dog's life", "Leads", "The final round", "Winning",
    ]  # fmt: skip
    texts = {r.title: r.text for r in rulebook(rules)}
    assert texts["Rounds"] == (
        "The game is a single round of 1 card each, so a single trick: round 1 is also the "
        "final round, and no rule of later rounds applies. The sources deal 7 cards in round 1."
    )
    assert texts["The deal"] == (
        "The dealer is drawn at random. The whole deck is shuffled; the player on the "
        "dealer's right cuts, and the dealer deals one card to each player, clockwise, "
        "starting on their left."
    )
    assert texts["Dog's life"] == (
        "No one gets a dog's life in this game: a dog's life is played in the next round, "
        "and this game has only one."
    )
    assert texts["Leads"] == "The player on the dealer's left leads the only trick."
    assert texts["The final round"] == (
        "Round 1 is the final round here: it deals 1 card each ('la carte'). Whoever wins "
        "its only trick wins the game; everyone else is knocked out."
    )
    assert texts["Winning"] == (
        "The game ends with its only round: the winner of its only trick wins. There is never "
        "a tie: every trick has one winner."
    )
    assert not texts["Tricks"].endswith("The winner of a trick leads the next one.")
    assert titles(Rules(start_cards=1)) == [
        "Players and cards", "Rounds", "The deal", "Trump in round 1", "Tricks", "Leads",
        "The final round", "Winning",
    ]  # fmt: skip


@pytest.mark.parametrize("rules", [r for r in every_rules() if r.start_cards == 1], ids=str)
def test_no_one_round_variant_speaks_of_a_second_round(rules: Rules) -> None:
    later = {
        "Trump in later rounds", "Knocked-out players vote for trump",
        "Ties for the most tricks", "Knock-out", "Sweep",
    }  # fmt: skip
    assert not later & set(titles(rules))
    text = " ".join(r.text for r in rulebook(rules))
    for words in ("round 2", "later round,", "each later round", "last round", "sweep",
                  "next one", "in the next round, a player", "knock on the table",
                  "--eliminated-vote"):  # fmt: skip
        assert words not in text, words
    if rules.dogs_life == "off":
        assert "dog's life" not in text


def test_kow_rules_with_one_card_and_the_traditional_preset() -> None:
    code, out, _ = run("rules", "--start-cards", "1", "--preset", "traditional", columns=100)
    assert code == 0
    assert out.splitlines()[1] == "4 players; round 1 deals 1 card."
    numbered = [line for line in out.splitlines() if re.match(r"\d+\. ", line)]
    assert numbered == [
        "1. Players and cards", "2. Rounds", "3. The deal", "4. Trump in round 1",
        "5. Tricks", "6. Dog's life", "7. Leads", "8. The final round", "9. Winning",
    ]  # fmt: skip


def test_the_vote_under_fixed_trump_or_with_two_players_has_no_effect() -> None:
    fixed = rule(Rules(trump="fixed", eliminated_vote=True), "Trump in later rounds")
    assert fixed.text == (
        "Round 1's trump suit stays trump in every round. No one chooses it. The knocked-out "
        "players' vote (--eliminated-vote) has no effect under fixed trump: there is no "
        "choice of trump to vote on."
    )
    assert "do not vote" not in fixed.text
    two = Rules(players=2, eliminated_vote=True)
    assert "Knocked-out players vote for trump" not in titles(two)
    assert rule(two, "Trump in later rounds").text.endswith(
        "which is trump for this round. The knocked-out players' vote (--eliminated-vote) has "
        "no effect with 2 players: once one is knocked out, the game is over."
    )
    assert rule(Rules(players=3, eliminated_vote=True), "Trump in later rounds").text.endswith(
        "which is trump for this round unless the knocked-out players vote (below)."
    )
    assert "--eliminated-vote" not in rule(Rules(trump="fixed"), "Trump in later rounds").text


# --------------------------------------------------------------------------- rules_summary


def test_rules_summary_of_the_presets_and_of_single_changes() -> None:
    assert rules_summary(Rules(dogs_life="once-per-game", sweep_wins=False)) == (
        "4 players, 7 cards; dog's life once per game; no sweep rule (preset traditional)"
    )
    assert rules_summary(Rules()) == (
        "4 players, 7 cards; no dog's life; a sweep wins (preset rules-text)"
    )
    assert rules_summary(Rules(players=2, start_cards=1)) == (
        "2 players, 1 card; no dog's life; a sweep wins"
    )
    assert rules_summary(Rules(start_cards=6, dogs_life="once-per-game", sweep_wins=False)) == (
        "4 players, 6 cards; dog's life once per game; no sweep rule"
    )
    assert rules_summary(Rules(dogs_life="once-per-player")) == (
        "4 players, 7 cards; dog's life once per player; a sweep wins"
    )
    assert rules_summary(Rules(trump="fixed")) == (
        "4 players, 7 cards; no dog's life; fixed trump; a sweep wins"
    )
    assert rules_summary(Rules(final_round_trump=False)) == (
        "4 players, 7 cards; no dog's life; no final-round trump; a sweep wins"
    )
    assert rules_summary(Rules(lead="dealer-left")) == (
        "4 players, 7 cards; no dog's life; dealer's left leads; a sweep wins"
    )
    assert rules_summary(Rules(eliminated_vote=True)) == (
        "4 players, 7 cards; no dog's life; knocked-out players vote; a sweep wins"
    )
    # Too long with the defaults named: they are left out, the sweep first; the changes stay.
    assert rules_summary(Rules(trump="fixed", lead="dealer-left")) == (
        "4 players, 7 cards; no dog's life; fixed trump; dealer's left leads"
    )
    assert rules_summary(Rules(trump="fixed", lead="dealer-left", eliminated_vote=True)) == (
        "4 players, 7 cards; fixed trump; dealer's left leads; knocked-out players vote"
    )


PHRASES = {
    "dogs_life": {"once-per-game": "dog's life once per game",
                  "once-per-player": "dog's life once per player"},
    "trump": {"fixed": "fixed trump"},
    "final_round_trump": {False: "no final-round trump"},
    "lead": {"dealer-left": "dealer's left leads"},
    "eliminated_vote": {True: "knocked-out players vote"},
    "sweep_wins": {False: "no sweep rule"},
}  # fmt: skip


@pytest.mark.parametrize("rules", every_rules(), ids=str)
def test_rules_summary_names_every_change_and_the_preset(rules: Rules) -> None:
    line = rules_summary(rules)
    parts = line.removesuffix(f" (preset {preset_of(rules)})").split("; ")
    cards = "1 card" if rules.start_cards == 1 else f"{rules.start_cards} cards"
    assert parts[0] == f"{rules.players} players, {cards}"
    changed = [
        PHRASES[name][value]  # type: ignore[index]
        for name, value in rules_to_log(rules).items()
        if value in PHRASES.get(name, {})  # type: ignore[operator]
    ]
    assert [p for p in parts[1:] if p not in ("no dog's life", "a sweep wins")] == changed
    assert line.endswith(f" (preset {preset_of(rules)})") == (preset_of(rules) is not None)
    assert "\n" not in line and not line.endswith(".")
    line.encode("ascii")
    # Within 78 columns, unless every part it names is a change (or the players and cards).
    assert len(line) <= SUMMARY_WIDTH or len(parts) == 1 + len(changed)
    # A default is left out only when naming it would pass 78 columns: the sweep first.
    no_dogs = rules.dogs_life == "off" and "no dog's life" not in parts
    no_sweep = rules.sweep_wins and "a sweep wins" not in parts
    assert not no_dogs or no_sweep or not rules.sweep_wins
    if no_sweep:
        assert len(line) + len("; a sweep wins") + (no_dogs and len("; no dog's life")) > 78
    if no_dogs:
        assert len(line) + len("; no dog's life") > 78


# --------------------------------------------------------------------------- kow rules


def test_kow_rules_prints_the_default_rulebook_on_stdout() -> None:
    code, out, err = run("rules", columns=80)
    assert (code, err) == (0, "")
    assert out.splitlines() == rule_lines(Rules(), 80)
    words = flat(out)
    assert "These are the rules text's rules (preset rules-text)." in words
    assert "There is no dog's life in this game." in words


def test_kow_rules_dogs_life_once_per_game_names_002_and_004() -> None:
    code, out, _ = run("rules", "--dogs-life", "once-per-game", columns=100)
    assert code == 0
    out = flat(out)
    assert "9. Dog's life" in out
    assert "Once per game, a player who takes no trick gets a dog's life" in out
    assert "From: source 002, 'Elimination'; source 004 (the traditional rule);" in out
    assert "A player who takes every trick of a round wins the game at once" in out


def test_kow_rules_preset_traditional_is_once_per_game_and_no_sweep() -> None:
    code, out, _ = run("rules", "--preset", "traditional", "--json")
    assert code == 0
    data = json.loads(out)
    traditional = {"dogs_life": "once-per-game", "sweep_wins": False}
    assert data["rules"] == {**rules_to_log(Rules()), **traditional}
    assert data["preset"] == "traditional"
    sweep = [r for r in data["rulebook"] if r["title"] == "Sweep"]
    assert sweep[0]["text"].startswith("There is no sweep rule")
    _, text, _ = run("rules", "--preset", "traditional", columns=100)
    text = flat(text)
    assert "These are the traditional rules of sources 002 and 004" in text
    assert "There is no sweep rule" in text and "Once per game" in text


def test_an_option_given_overrides_the_preset() -> None:
    _, out, _ = run("rules", "--preset", "traditional", "--sweep-wins", "--json")
    data = json.loads(out)
    assert data["rules"]["sweep_wins"] is True
    assert data["rules"]["dogs_life"] == "once-per-game"
    assert data["preset"] is None
    # Given before or after --preset, and even when equal to the default: it still wins.
    _, out, _ = run("rules", "--dogs-life", "off", "--preset", "traditional", "--json")
    assert json.loads(out)["rules"]["dogs_life"] == "off"
    assert json.loads(out)["rules"]["sweep_wins"] is False
    _, out, _ = run("rules", "--preset", "rules-text", "--dogs-life", "once-per-player", "--json")
    assert json.loads(out)["rules"] == {**rules_to_log(Rules()), "dogs_life": "once-per-player"}


def test_a_bad_preset_is_a_usage_error_naming_it_and_the_allowed_ones() -> None:
    for command in ("rules", "simulate", "tournament", "play"):
        code, out, err = run(command, "--preset", "modern")
        assert code == 2, command
        assert out == ""
        assert "'modern' is not one of 'traditional', 'rules-text'" in err, command


def test_every_command_with_rule_options_has_preset_and_says_what_it_sets() -> None:
    for command in ("rules", "simulate", "tournament", "play"):
        code, out, _ = run(command, "--help", columns=200)
        assert code == 0
        out = flat(out).replace("once- per-game", "once-per-game")  # Click's help breaks there
        assert "--preset [traditional|rules-text]" in out, command
        assert "traditional: --dogs-life once-per-game --no-sweep-wins (sources 002, 004)" in out
        assert "rules-text: the defaults (sources 000/001/003)" in out


def test_every_line_fits_40_columns() -> None:
    variants = [
        [],
        ["--preset", "traditional"],
        ["--dogs-life", "once-per-player", "--eliminated-vote", "--lead", "dealer-left",
         "--no-final-round-trump"],
    ]  # fmt: skip
    for args in variants:
        code, out, _ = run("rules", *args, columns=40)
        assert code == 0
        lines = out.splitlines()
        assert len(lines) > 80
        assert 38 <= max(map(len, lines)) <= 40


def test_wide_terminals_get_at_most_100_columns() -> None:
    _, out, _ = run("rules", columns=300)
    assert out.splitlines() == rule_lines(Rules(), 100)


def test_rules_checks_its_options_like_simulate() -> None:
    code, _, err = run("rules", "--players", "7", "--start-cards", "8")
    assert code == 2
    assert "'--start-cards': must be 1 to 7 with 7 players (players x cards + 1 <= 52" in err


def test_an_ascii_stdout_gets_the_rules_without_accents() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "kow", "rules", "--dogs-life", "once-per-player"],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii", "COLUMNS": "80"},
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    text = result.stdout.decode("ascii")
    assert "'Deroulement du jeu' 5" in text and "'Elimination'" in text
    assert len(text.splitlines()) == len(rule_lines(Rules(dogs_life="once-per-player"), 80))


def test_main_help_points_to_kow_rules_not_to_docs() -> None:
    code, out, _ = run("--help")
    assert code == 0
    assert "kow rules" in out and "kow schema" in out
    assert "docs/" not in out


# --------------------------------------------------------------------------- other commands


def test_simulate_preset_traditional_logs_the_resolved_rules() -> None:
    code, out, _ = run("simulate", "--preset", "traditional", "--seed", "1")
    assert code == 0
    rules = json.loads(out)["rules"]
    assert rules["dogs_life"] == "once-per-game"
    assert rules["sweep_wins"] is False
    assert rules == {**rules_to_log(Rules()), "dogs_life": "once-per-game", "sweep_wins": False}
    # The preset is the same game as its options spelt out, and rules-text as none.
    _, spelt, _ = run("simulate", "--dogs-life", "once-per-game", "--no-sweep-wins", "--seed", "1")
    assert spelt == out
    _, plain, _ = run("simulate", "--seed", "1")
    _, text, _ = run("simulate", "--preset", "rules-text", "--seed", "1")
    assert text == plain != out


def test_simulate_preset_with_an_override() -> None:
    _, out, _ = run("simulate", "--preset", "traditional", "--sweep-wins", "--players", "3",
                    "--seed", "2")  # fmt: skip
    rules = json.loads(out)["rules"]
    assert (rules["dogs_life"], rules["sweep_wins"], rules["players"]) == (
        "once-per-game", True, 3,
    )  # fmt: skip


def test_tournament_takes_the_preset() -> None:
    code, out, _ = run(
        "tournament", "--preset", "traditional", "--bots", "random", "--players", "3",
        "--games", "3", "--seed", "4", "--jobs", "1", "--json",
    )  # fmt: skip
    assert code == 0
    rules = json.loads(out)["rules"]
    assert (rules["dogs_life"], rules["sweep_wins"], rules["players"]) == (
        "once-per-game", False, 3,
    )  # fmt: skip
