"""Shared helpers for the hand-crafted tests: stacked deals, scripted players, logs.

A hand-crafted game is written as the decks the engine draws, in order (each round's deal,
then each tie-cut pass), plus each seat's script of actions. Cards and suits are written
as text (``"Th"``, ``"h"``) and ``"knock"`` is a dog's-life knock.
"""

from __future__ import annotations

import ast
import difflib
import inspect
import itertools
import json
import os
import random
import re
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import shadowed  # noqa: F401 -- first: refuses a checkout whose sources compiled modules shadow
from hypothesis import HealthCheck, settings

import kow.log._reader
from kow.cards import parse_card, parse_suit
from kow.engine import State
from kow.engine.deal import StackedDeck, deal_deck
from kow.engine.view import View
from kow.events import KNOCK, Phase
from kow.game import play_game
from kow.log import GameRecord, InputEnd, build
from kow.log._canon import measure
from kow.players import Player
from kow.rules import Rules

# CI machines are shared and slow at times: no test may fail for taking long per example.
settings.register_profile("kow", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("kow")

pytest_plugins = ["optional"]  # skips for a missing package, and CI's KOW_TEST_REQUIRE_ALL


def python_prints(code: str, *, timeout: float = 60) -> list[str]:
    """Run ``code`` in a new Python (this one: ``python -c``) and return the lines it
    prints; raise :class:`subprocess.CalledProcessError` if it fails. For what a fresh
    process loads or builds: the modules it imports, tables made on first use."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=timeout)  # fmt: skip
    return done.stdout.splitlines()


def readable_lines(text: str) -> list[str]:
    """Return ``text`` as lines to diff: JSON spread one value a line, other text as it is.

    A whole JSON document, or each JSON line of a log, is spread with ``indent=1`` (keys in
    their order), so that two logs differing in one card differ in one line.

    >>> readable_lines('{"a":[1,2]}')
    ['{', ' "a": [', '  1,', '  2', ' ]', '}']
    """
    try:
        return json.dumps(json.loads(text), indent=1, ensure_ascii=False).splitlines()
    except ValueError:
        pass
    out: list[str] = []
    for line in text.splitlines():
        try:
            out.extend(json.dumps(json.loads(line), indent=1, ensure_ascii=False).splitlines())
        except ValueError:
            out.append(line)
    return out


def first_difference(pinned: str, got: str, *, limit: int = 60) -> str:
    """Return the start of a unified diff from ``pinned`` to ``got`` (readable lines).

    At most ``limit`` lines, the first difference first; empty when the texts' readable
    lines are equal (they may still differ in bytes: spacing, a final newline).
    """
    diff = difflib.unified_diff(readable_lines(pinned), readable_lines(got), "pinned", "now",
                                lineterm="")  # fmt: skip
    return "\n".join(itertools.islice(diff, limit))


def cards(text: str) -> list[int]:
    """Return the cards of ``text``, space-separated (``"Ah 10c"``), in order."""
    return [parse_card(t) for t in text.split()]


def deal(dealer: int, hands: Sequence[str | None], turned_up: str | None = None) -> list[int]:
    """Return the deck order dealing ``hands`` (text by seat; None: not dealt in)."""
    return deal_deck(
        dealer,
        [None if h is None else cards(h) for h in hands],
        None if turned_up is None else parse_card(turned_up),
    )


# A round whose four tricks are won four ways (kow.events.WonBy), hearts trump: seat 0
# leads (dealer 2). Seat 1 wins trick 1 as the highest club; seat 2 trick 2 as the only
# trump on diamonds; seat 1 trick 3 as the higher of two trumps on spades; and seat 1
# trick 4 with 3h, a trump led that nobody else can follow: the only card of the led suit.
REASONS_RULES = Rules(players=3, start_cards=4)
REASONS_DECKS = [
    deal(2, ["9c 6d 8h Td", "Kc 4d Qh 3h", "2c 5h 7s Ac"], "2h"),
    deal(1, [None, "2c 3c 4c", "5c 6c 7c"]),
]
REASONS_ROUND_1 = "9c Kc 2c  4d 5h 6d  7s 8h Qh  3h Ac Td"


# A game of four players, 3 cards, first dealer 0 (the deal goes 1, 2, 3, 0), hearts
# turned up. Round 1: seat 2 takes tricks 1 and 3, seat 3 trick 2; seats 0 and 1 are
# knocked out. Round 2 (dealer 2): seat 2 chooses hearts; seats 2 and 3 take a trick
# each. Round 3 (dealer 3): seats 2 and 3 tie, cut 9c/9d (a tie of rank), then 4c/Jd:
# seat 3 chooses diamonds and wins the only trick with 2d. (play_stacked(TIE_CUT_RULES,
# 0, TIE_CUT_DECKS, TIE_CUT_SCRIPTS) plays it; the log tests replay it.)
TIE_CUT_RULES = Rules(players=4, start_cards=3)
TIE_CUT_DECKS = [
    deal(0, ["7c 8d 9s", "3c 4c 5d", "Ac Kd As", "Qc 3h 4s"], "2h"),
    deal(2, [None, None, "Kh Qh", "Ah 2s"]),
    deal(3, [None, None, "Ac", "2d"]),
    cards("9c 9d"),
    cards("4c Jd"),
]
TIE_CUT_SCRIPTS = ["7c 8d 9s", "3c 5d 4c", "Ac Kd As h Kh Qh Ac", "Qc 3h 4s Ah 2s d 2d"]
TIE_CUT_ACTIONS = "3c Ac Qc 7c  Kd 3h 8d 5d  4s 9s 4c As  h Kh Ah 2s Qh  d 2d Ac".split()
"""The game's actions in the order taken: 12 plays, a trump choice and 4 plays, a trump
choice and 2 plays."""


def action(text: str | int, phase: Phase = Phase.PLAY) -> int:
    """Return the action written ``text``: a card, ``"knock"``, or a suit (vote/trump)."""
    if isinstance(text, int):
        return text
    if phase is not Phase.PLAY:
        return parse_suit(text)
    if text == "knock":
        return KNOCK
    return parse_card(text)


class ScriptedPlayer(Player):
    """Return the given actions in order (card text, ``"knock"`` or suit text).

    ``views`` records every view this player was given. Raises :class:`AssertionError`
    when asked to act after its script is used up.
    """

    kind = "human"  # it stands in for a person at the keyboard

    def __init__(self, name: str, script: str | Sequence[str | int] = ()) -> None:
        super().__init__(name)
        self.script = list(script.split() if isinstance(script, str) else script)
        self.views: list[View] = []

    def act(self, view: View) -> int:
        self.views.append(view)
        if not self.script:
            raise AssertionError(f"{self.name} (seat {view.seat}) has no action left")
        return action(self.script.pop(0), view.phase)


def new_state(rules: Rules, dealer: int, decks: Sequence[Sequence[int]], seed: int = 0) -> State:
    """Return a new game with the given first dealer and stacked decks."""
    return State(rules, random.Random(seed), dealer=dealer, deck=StackedDeck(decks))


def apply_all(state: State, actions: str | Sequence[str | int]) -> State:
    """Apply ``actions`` (text, space-separated when a string) in turn; return ``state``."""
    for a in actions.split() if isinstance(actions, str) else actions:
        state.apply(action(a, state.phase))
    return state


def log_of(state: State, seed: int = 0) -> Any:
    """Return the log so far of ``state`` (players named ``p0``, ``p1``, ...)."""
    players = [ScriptedPlayer(f"p{s}") for s in range(state.players)]
    return build(seed, state.rules, players, events=state.events)


def play_stacked(
    rules: Rules,
    dealer: int,
    decks: Sequence[Sequence[int]],
    scripts: Sequence[str | Sequence[str | int]],
    seed: int = 0,
) -> Any:
    """Play a whole stacked game with scripted players and return its log dict.

    ``scripts[seat]`` is that seat's actions in order. Raises :class:`AssertionError`
    when a script is not used up, so a game that ends earlier than written fails.
    """
    players = [ScriptedPlayer(f"p{s}", script) for s, script in enumerate(scripts)]
    state = play_game(rules, players, seed, dealer=dealer, deck=StackedDeck(decks))
    left = {p.name: p.script for p in players if p.script}
    assert not left, f"scripts not used up: {left}"
    return build(seed, rules, players, events=state.events)


def plays(trick: dict[str, Any]) -> list[tuple[int, str]]:
    """Return a log trick's plays as ``(seat, card or "knock")`` pairs."""
    return [(p["seat"], "knock" if p.get("knock") else p["card"]) for p in trick["plays"]]


def random_variants(
    count: int, seed: int, iterations: str
) -> list[tuple[str, list[str], int, set[str]]]:
    """Return ``count`` seeded random combinations of every rule option (2 games each).

    Each is ``(name, simulate arguments, games, features expected)``; ``iterations`` is the
    search bots' ``--search-iterations`` (a draw from ``iterations`` split on commas).
    """
    from kow.players import BOT_KINDS
    from kow.rules import DOGS_LIFE, LEADS

    rng = random.Random(seed)
    out: list[tuple[str, list[str], int, set[str]]] = []
    for i in range(count):
        players = rng.randint(2, 7)
        args = ["--players", str(players), "--start-cards", str(rng.randint(1, 51 // players))]
        args += ["--dogs-life", rng.choice(DOGS_LIFE), "--lead", rng.choice(LEADS)]
        # Not the ismcts bot: 1,200 iterations a decision (no option sets fewer) would make
        # these the slowest tests of the suite; test_provenance plays it in a game of its own.
        kinds = [kind for kind in BOT_KINDS if kind != "ismcts"]
        args += ["--bots", ",".join(rng.choice(kinds) for _ in range(players))]
        choices = iterations.split(",")
        args += [
            "--search-iterations",
            choices[0] if len(choices) == 1 else str(rng.randint(int(choices[0]), int(choices[1]))),
        ]
        for flag in ("--fixed-trump", "--no-final-round-trump", "--eliminated-vote",
                     "--no-sweep-wins"):  # fmt: skip
            if rng.random() < 0.5:
                args.append(flag)
        out.append((f"random-{i}", args, 2, set()))
    return out


class FirstLegalAgent(Player):
    """Stands in for a program at a framework adapter (kind ``agent``): the first legal
    action, drawing nothing from the game's bots' generator."""

    kind = "agent"

    def act(self, view: View) -> int:
        return view.legal[0]


def agent_log(seed: int | None) -> Any:
    """Return the log of a short game (3 players, 5 cards) as a framework adapter writes
    one: seat 0 an agent named ``ppo``, seats 1 and 2 heuristic bots (``heuristic-1``,
    ``heuristic-2``), the log's ``seed`` given (None: null, the deals came from outside
    kow). The deals are those of kow's seed 5, the bots draw from ``bots_rng(5)``.
    """
    from kow.game import bots_rng
    from kow.players import make_bot

    rules = Rules(players=3, start_cards=5)
    rng = bots_rng(5)
    players = [FirstLegalAgent("ppo")]
    players += [make_bot("heuristic", f"heuristic-{s}", rng) for s in (1, 2)]  # type: ignore[misc]
    state = play_game(rules, players, 5)
    return build(seed, rules, players, events=state.events)


def source_of(module: ModuleType) -> str:
    """Return the source of ``module``, also when it is compiled (its ``.py`` lies beside
    the ``.so``, where inspect looks for none)."""
    try:
        return inspect.getsource(module)
    except (OSError, TypeError):
        assert module.__file__ is not None
        source = Path(module.__file__).parent / (module.__name__.rpartition(".")[2] + ".py")
        return source.read_text()


def documented_order(module: ModuleType, name: str) -> tuple[str, ...]:
    """Return the field order that the docstring of ``module.name`` (a fast constructor of
    a record, see :data:`kow.engine.view.new_trick_facts`) writes as ``(a, b, ...)``."""
    tree = ast.parse(source_of(module))
    body = tree.body
    for node, after in zip(body, body[1:], strict=False):
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and target.id == name:
            assert isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
            found = re.search(r"``\(([^)]*)\)``", after.value.value)  # type: ignore[arg-type]
            assert found, f"{name}'s docstring writes no order"
            return tuple(found.group(1).replace("\n", " ").replace(" ", "").split(","))
    raise AssertionError(f"no {name} in {module}")


STOPS = [("SIGINT", 130, "Interrupted"), ("SIGTERM", 143, "Stopped by SIGTERM"),
         ("SIGHUP", 129, "Stopped by SIGHUP")]  # fmt: skip
"""The stop signals a long command must end cleanly on: name, exit code, what it says."""


def stopped(args: list[str], signame: str, started: Any) -> tuple[int, str, bytes]:
    """Run ``kow ARGS`` (stdout to a file) until ``started(stdout)`` holds, then send it
    the signal ``signame``; return its exit code, its stderr and its stdout.

    ``started`` must not move the file's offset (no seek or read): the child writes at
    the offset it shares with this process. See :func:`lines_written`.
    """
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([sys.executable, "-m", "kow", *args], stdout=out,
                                stderr=subprocess.PIPE, cwd=root)  # fmt: skip
        _, err = signal_when(proc, lambda: started(out), signame)
        out.seek(0)
        return proc.returncode, err.decode(), out.read()


def signal_when(proc: Any, ready: Any, signame: str) -> tuple[bytes, bytes]:
    """Wait (60 s at most) until ``ready()`` holds, then send ``proc`` (a
    :class:`subprocess.Popen`) the signal ``signame``; return its stdout and stderr.

    Fails if the process ends first or never gets ready; the process is killed however
    this ends.
    """
    import signal
    import time

    try:
        deadline = time.monotonic() + 60
        while not ready():
            assert proc.poll() is None, "it ended before the signal"
            assert time.monotonic() < deadline, "it never got ready for the signal"
            time.sleep(0.02)
        proc.send_signal(getattr(signal, signame))
        out, err = proc.communicate(timeout=60)
        return out, err
    finally:
        proc.kill()


def lines_written(lines: int) -> Any:
    """Return a test of a run's stdout for :func:`stopped`: ``lines`` lines written.

    Read with ``pread``, which leaves the offset the child writes at where it is.
    """

    def enough(out: Any) -> bool:
        size = os.fstat(out.fileno()).st_size
        return os.pread(out.fileno(), size, 0).count(b"\n") >= lines

    return enough


# ------------------------------------------------------------------ the log reader's records


def seen(items: list[GameRecord | InputEnd], *, games: bool = True) -> list[tuple[Any, ...]]:
    """Return what each of :func:`kow.log.read_logs`' ``items`` says, but a record's proof
    (faults as their text); ``games``: with each record's game (False: without it, for
    records whose games are read differently)."""
    said: list[tuple[Any, ...]] = []
    for item in items:
        if isinstance(item, InputEnd):
            said.append((item.label, item.games, item.opened, item.why, item.note))
        else:
            fault = None if item.fault is None else str(item.fault)
            game = (item.game,) if games else ()
            said.append((item.label, item.index, item.line, *game, item.read, fault,
                         item.note, item.text))  # fmt: skip
    return said


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the reader's measures: one entry (the text's length) per value measured."""
    calls: list[int] = []

    def counted(value: Any, orders: Any, deepest: int = -1) -> tuple[int, int]:
        found = measure(value, orders, deepest)
        calls.append(found[0])
        return found

    monkeypatch.setattr(kow.log._reader, "measure", counted)
    return calls


def self_signed(folder: Path) -> tuple[Path, Path]:
    """Make a self-signed certificate for 127.0.0.1 and localhost and its key in
    ``folder`` (``cert.pem``, ``key.pem``), for the TLS tests; skip the test without
    openssl."""
    import shutil
    import subprocess

    if shutil.which("openssl") is None:
        pytest.skip("openssl makes the test's certificate")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip
    return cert, key
