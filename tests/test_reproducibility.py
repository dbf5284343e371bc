"""Seeded output is the same bytes on every supported Python and in both builds.

Every bot kind (``search`` and ``ismcts`` with few iterations), a few rule variants and
``kow analyze --json`` are run here and their output's SHA-256 compared with the hashes
pinned in ``tests/reproducibility.sha256`` (``sha256sum``'s format: the hash, two spaces,
the case). CI runs this file on the oldest and the newest supported Python (``.ci/run``)
as well as the whole suite on the default one, pure and compiled, so a choice that
depends on the interpreter fails here. Five of the seven cases differed between Python
3.10/3.11 and 3.12/3.13 before the search's means were summed exactly (issue 20:
``sum()`` adds floats with compensation from 3.12 on).

Each case's text is kept beside its hash, in ``tests/reproducibility/CASE.txt``, so that a
failure shows a diff from the first differing line (JSON spread one value a line), not
only a hash; a test checks that each text has its pinned hash.

After an intended change to a bot, regenerate the hashes and texts with
``KOW_REGEN_GOLDEN=1 python -m pytest -n 0 tests/test_reproducibility.py``, as for the
golden logs, and say why in the commit.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import first_difference

from kow.cli import main
from kow.players import BOT_KINDS
from kow.rules import Rules
from kow.runs.batch import Run, run_text

PINNED = Path(__file__).resolve().parent / "reproducibility.sha256"
TEXTS = PINNED.with_suffix("")
"""The folder of the cases' texts, ``CASE.txt``, beside the hashes."""

SEARCH_GAME = [
    "simulate", "--seed", "1", "--first-game", "26", "--players", "3",
    "--dogs-life", "once-per-player", "--lead", "dealer-left", "--no-sweep-wins",
    "--bots", "search,heuristic,random", "--search-iterations", "12",
]  # fmt: skip
"""A 3-player game with a dog's life; its search bot chose differently on 3.10 and 3.13."""
HEURISTIC_GAME = ["simulate", "--seed", "3", "--bots", "heuristic,random,heuristic,random"]

COMMANDS = {
    # The game of the issue: game 41 of the run, at the search bot's default 100 deals.
    "simulate-issue-game": [
        "simulate", "--seed", "1", "--first-game", "40",
        "--bots", "heuristic,random,search,heuristic",
    ],
    "simulate-search-variant": SEARCH_GAME,
    "simulate-fixed-trump": [
        "simulate", "--seed", "9", "--games", "3", "--players", "3", "--start-cards", "8",
        "--fixed-trump", "--no-final-round-trump", "--bots", "random,heuristic,search",
        "--search-iterations", "6",
    ],
}  # fmt: skip
"""Cases run as ``kow ARGS``: the name, then the arguments."""

RUNS = {
    "ismcts-vote-variant": Run(
        seed=1,
        rules=Rules(players=5, eliminated_vote=True, dogs_life="once-per-game"),
        kinds=("search", "ismcts", "heuristic", "random", "search"),
        bot_options=(("search_iterations", 16), ("ismcts_iterations", 40)),
    ),
    "ismcts-two-players": Run(
        seed=2,
        rules=Rules(players=2, start_cards=9, trump="fixed", lead="dealer-left"),
        kinds=("ismcts", "search"),
        bot_options=(("search_iterations", 8), ("ismcts_iterations", 30)),
    ),
}
"""Cases run through :class:`kow.runs.batch.Run` (``ismcts_iterations`` has no option), and the
game of each run that they play."""
RUN_GAME = {"ismcts-vote-variant": 34, "ismcts-two-players": 0}

RETIRED = {"mixture-search-dogs-life": "df33805"}
"""Pinned cases whose code has left kow, each with the commit that still plays it: issue
21's search variants (a mixture of card models, docs/bots.md "What was tried"). Their
hashes stay in ``tests/reproducibility.sha256`` unchanged, as that commit's record; no
case here produces them."""


ANALYSES = {
    "analyze-heuristic-game": HEURISTIC_GAME,
    "analyze-search-variant": SEARCH_GAME,
}
"""Cases of ``kow analyze - --json --iterations 12 --seed 5`` on the game of a command."""
ANALYZE = ["analyze", "-", "--json", "--iterations", "12", "--seed", "5", "-j", "1", "-q"]

CASES = sorted([*COMMANDS, *RUNS, *ANALYSES])


def pinned() -> dict[str, str]:
    """Return the pinned hashes by case."""
    lines = PINNED.read_text().splitlines() if PINNED.exists() else []
    return {case: digest for digest, case in (line.split("  ", 1) for line in lines)}


def pinned_text(case: str) -> str | None:
    """Return the pinned text of ``case``, or None when there is none."""
    path = TEXTS / f"{case}.txt"
    return path.read_bytes().decode() if path.exists() else None


def kow(args: list[str], input: str | None = None) -> str:
    """Return the stdout of ``kow ARGS``, which must succeed."""
    result = CliRunner().invoke(main, [*args, "-q", "-j", "1"] if args[0] == "simulate" else args,
                                input=input)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return result.stdout


def output(case: str) -> str:
    """Return the output of ``case``."""
    if case in COMMANDS:
        return kow(COMMANDS[case])
    if case in RUNS:
        index = RUN_GAME[case]
        return "".join(text for text, _ in run_text(RUNS[case], index, 1))
    return kow(ANALYZE, input=kow(ANALYSES[case]))


def test_the_cases_cover_every_bot_kind() -> None:
    kinds = {k for run in RUNS.values() for k in run.kinds}
    for args in COMMANDS.values():
        kinds.update(args[args.index("--bots") + 1].split(","))
    assert kinds == set(BOT_KINDS)
    assert sorted(pinned()) == sorted([*CASES, *RETIRED])
    assert sorted(p.stem for p in TEXTS.glob("*.txt")) == CASES


@pytest.mark.parametrize("case", CASES)
def test_each_pinned_text_has_the_pinned_hash(case: str) -> None:
    text = pinned_text(case)
    assert text is not None, f"{TEXTS.name}/{case}.txt is missing"
    assert hashlib.sha256(text.encode()).hexdigest() == pinned()[case]


@pytest.mark.parametrize("case", CASES)
def test_seeded_output_has_the_pinned_bytes(case: str) -> None:
    text = output(case)
    assert text.endswith("\n")
    digest = hashlib.sha256(text.encode()).hexdigest()
    if os.environ.get("KOW_REGEN_GOLDEN"):
        hashes = {**pinned(), case: digest}  # a retired case's hash is kept as it was
        PINNED.write_text("".join(f"{hashes[c]}  {c}\n" for c in sorted(hashes)))
        TEXTS.mkdir(exist_ok=True)
        (TEXTS / f"{case}.txt").write_bytes(text.encode())
    if digest != pinned().get(case):
        kept = pinned_text(case)
        shown = "no pinned text" if kept is None else first_difference(kept, text)
        pytest.fail(f"{case}: not the pinned bytes (sha256 {digest})\n{shown}", pytrace=False)
