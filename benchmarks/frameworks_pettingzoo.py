"""Measure random play through the PettingZoo and Gymnasium environments, and the engine alone.

Run from a kow checkout with the extras installed (``pip install '.[pettingzoo]'``):
``python benchmarks/frameworks_pettingzoo.py`` (about half a minute), ``--seconds S`` for
the time spent on each figure, ``--json FILE`` to save the figures too.

Every figure is steps per second of random play, 4 players and the default rules, in
this process, best of three runs (each about a third of ``--seconds``); every game
is played to its end and a new one dealt (seeds 0, 1, 2, ...):

- **engine alone**: ``State.apply`` with a legal action drawn uniformly
  (``random.Random``) from ``State.legal_actions()``: no framework, no observation.
- **engine + observation**: the same, building the observation tensor of the seat to
  act (``kow.frameworks.encoding.observation`` of its view, a list) before each action: what any
  adapter must pay for.
- **PettingZoo raw_env** and **PettingZoo env()**: the AEC loop of PettingZoo's
  documentation (``agent_iter``, ``last()``, a legal id drawn from the action mask with
  a seeded numpy ``Generator``, ``step``), without and with the standard wrappers. A
  step is an action taken; the steps of terminated agents (``None``) are not counted
  but their time is.
- **Gymnasium**: ``KnockOutWhistEnv`` with three ``random`` bots; a step is one of the
  learner's (``step()``), the bots' actions in between included in its time but not
  counted. ``actions/s`` counts every seat's actions, for comparison with the others.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from kow.events import Event, Knock, Phase, Play, TrumpSet, Vote  # noqa: E402
from kow.frameworks.encoding import observation  # noqa: E402
from kow.game import new_game  # noqa: E402
from kow.rules import Rules  # noqa: E402

Counts = tuple[int, int]
"""``(steps, actions)`` played in one timed run."""


def engine_alone(seconds: float, observe: bool = False) -> Counts:
    """Play random games through ``State.apply`` for ``seconds``; return the counts."""
    rules = Rules()
    draw = random.Random(1).random
    steps = 0
    seed = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        state = new_game(rules, seed)
        seed += 1
        while state.phase is not Phase.OVER:
            if observe:
                observation(state.view())
            legal = state.legal_actions()
            state.apply(legal[int(draw() * len(legal))])
            steps += 1
    return steps, steps


def pettingzoo(seconds: float, wrapped: bool) -> Counts:
    """Play random games through the AEC environment for ``seconds``; return the counts."""
    from kow.frameworks.pettingzoo import env, raw_env

    table = env() if wrapped else raw_env()
    rng = np.random.default_rng(1)
    steps = 0
    seed = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        table.reset(seed=seed)
        seed += 1
        for _ in table.agent_iter():
            obs, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))  # type: ignore[index]
            steps += 1
    return steps, steps


def gymnasium(seconds: float) -> Counts:
    """Play random games through the Gymnasium environment for ``seconds``; return the
    learner's steps and every seat's actions."""
    from kow.frameworks.gymnasium import KnockOutWhistEnv

    table = KnockOutWhistEnv(bots="random")
    rng = np.random.default_rng(1)
    steps = actions = 0
    seed = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        obs, _ = table.reset(seed=seed)
        seed += 1
        terminated = False
        while not terminated:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, _, terminated, _, _ = table.step(action)
            steps += 1
        assert table.game is not None
        actions += sum(map(is_action, table.game.events))
    return steps, actions


def is_action(event: Event) -> bool:
    """Return whether ``event`` records a seat's decision: a card, a knock, a vote, or a
    trump named by a seat."""
    if isinstance(event, TrumpSet):
        return event.chosen_by is not None
    return isinstance(event, (Play, Knock, Vote))


def best_rate(run: Callable[[float], Counts], seconds: float) -> tuple[float, float]:
    """Return the best ``(steps/s, actions/s)`` of three runs of ``seconds / 3`` each."""
    best = (0.0, 0.0)
    for _ in range(3):
        start = time.perf_counter()
        steps, actions = run(seconds / 3)
        took = time.perf_counter() - start
        if steps / took > best[0]:
            best = (steps / took, actions / took)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="time per figure")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    args = parser.parse_args(argv)
    runs: list[tuple[str, Callable[[float], Counts]]] = [
        ("engine alone", engine_alone),
        ("engine + observation", lambda s: engine_alone(s, observe=True)),
        ("PettingZoo raw_env", lambda s: pettingzoo(s, wrapped=False)),
        ("PettingZoo env()", lambda s: pettingzoo(s, wrapped=True)),
        ("Gymnasium (3 random bots)", gymnasium),
    ]
    rows = []
    for label, run in runs:
        steps, actions = best_rate(run, args.seconds)
        rows.append({"what": label, "steps_per_s": steps, "actions_per_s": actions})
        print(f"{label}: {steps:,.0f} steps/s", file=sys.stderr, flush=True)
    print("| random play, 4 players | steps/s | actions/s | µs/step |")
    print("|---|---:|---:|---:|")
    for row in rows:
        print(f"| {row['what']} | {row['steps_per_s']:,.0f} | {row['actions_per_s']:,.0f} "
              f"| {1e6 / row['steps_per_s']:.1f} |")  # type: ignore[operator]  # fmt: skip
    if args.json:
        figures: dict[str, Any] = {
            "python": platform.python_implementation() + " " + platform.python_version(),
            "machine": platform.machine(),
            "seconds": args.seconds,
            "rows": rows,
        }
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
