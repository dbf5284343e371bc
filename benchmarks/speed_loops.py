"""Time one of kow's loops in this process, for ``speed.py --against``; print one JSON line.

``benchmarks/speed.py --against REF`` runs this file's text with each kow's own Python
(``python -c TEXT LOOP N [ITERATIONS]``, from a folder where that Python imports its own
kow), so it uses only what kow 0.5.0 (commit f8a4a8d) and every later kow offer: the
engine's ``new_game``, ``State.legal_actions``/``apply``/``phase``, ``drive``,
``bots_rng``, ``make_bot`` and the PettingZoo ``raw_env`` (``kow.pettingzoo`` in 0.5.0,
``kow.frameworks.pettingzoo`` since). It can also be run as a script:
``python benchmarks/speed_loops.py apply 10``. Every loop is seeded, 4 players and the
default rules; ``LOOP`` is one of:

- ``apply N``: games with seeds 0 to N-1, each ``new_game`` then a legal action drawn
  uniformly (``random.Random(1)``) from ``State.legal_actions()`` and applied with
  ``State.apply``, to the end of the game. Work: actions applied (steps).
- ``pettingzoo N``: the AEC loop of PettingZoo's documentation over ``raw_env()``
  (``reset(seed=i)`` for i = 0 to N-1, ``agent_iter``, ``last()``, a legal id drawn from
  the action mask with ``numpy.random.default_rng(1)``, ``step``), as
  ``benchmarks/frameworks_pettingzoo.py`` plays it. Work: actions taken (the ``None``
  steps of terminated agents not counted, their time counted).
- ``decision N [ITERATIONS]``: as ``benchmarks/decision_time.py`` times it, games with
  seeds 1 to N of one ``search`` bot (ITERATIONS deals per decision, default the bot's
  own) at seat 0 against three ``heuristic`` bots, every bot drawing from
  ``bots_rng(seed)``; each decision of the search bot with more than one legal action is
  timed with ``time.perf_counter``. Work: those decisions.

Printed: ``{"loop", "work", "seconds", "median_decision", "digest"}``: ``seconds`` is the
wall time of the whole loop (imports and set-up not counted; ``median_decision`` the
median seconds of a timed decision, ``decision`` only), ``digest`` the SHA-256 of every
action chosen, in order, so that two kows can be checked to have played the same games.
Bad arguments end the script with exit status 2 and a message on stderr.
"""

from __future__ import annotations

import hashlib
import json
import random
import statistics
import sys
import time
from typing import Any

LOOPS = ("apply", "pettingzoo", "decision")


def digest(actions: list[int]) -> str:
    """Return the SHA-256 (hex) of ``actions`` written as decimal ints, one per line."""
    return hashlib.sha256("".join(f"{a}\n" for a in actions).encode()).hexdigest()


def apply_loop(games: int) -> dict[str, Any]:
    """Play ``games`` games of random legal actions through ``State.apply``; see above."""
    from kow.events import Phase
    from kow.game import new_game
    from kow.rules import Rules

    rules = Rules()
    draw = random.Random(1).random
    over = Phase.OVER
    actions: list[int] = []
    chose = actions.append
    start = time.perf_counter()
    for seed in range(games):
        state = new_game(rules, seed)
        while state.phase is not over:
            legal = state.legal_actions()
            action = legal[int(draw() * len(legal))]
            state.apply(action)
            chose(action)
    seconds = time.perf_counter() - start
    return {"work": len(actions), "seconds": seconds, "digest": digest(actions)}


def pettingzoo_loop(games: int) -> dict[str, Any]:
    """Play ``games`` games of random legal actions through PettingZoo's ``raw_env``."""
    import numpy as np

    try:
        from kow.frameworks.pettingzoo import raw_env
    except ImportError:  # kow 0.5.0 to issue 22: the adapters at the package's top
        from kow.pettingzoo import raw_env  # type: ignore[import-not-found,no-redef]

    table = raw_env()
    rng = np.random.default_rng(1)
    flatnonzero = np.flatnonzero
    actions: list[int] = []
    chose = actions.append
    start = time.perf_counter()
    for seed in range(games):
        table.reset(seed=seed)
        for _ in table.agent_iter():
            obs, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            action = int(rng.choice(flatnonzero(obs["action_mask"])))  # type: ignore[index]
            table.step(action)
            chose(action)
    seconds = time.perf_counter() - start
    return {"work": len(actions), "seconds": seconds, "digest": digest(actions)}


def decision_loop(games: int, iterations: int | None) -> dict[str, Any]:
    """Time a search bot's decisions against three heuristic bots; see above."""
    from kow.game import bots_rng, drive, new_game
    from kow.players import Player, make_bot
    from kow.rules import Rules

    class Timed(Player):
        """Time ``inner``'s decisions that had more than one legal action."""

        def __init__(self, inner: Player) -> None:
            super().__init__(inner.name)
            self.inner = inner
            self.kind = inner.kind
            self.times: list[float] = []
            self.actions: list[int] = []

        def act(self, view: Any) -> int:
            start = time.perf_counter()
            action = self.inner.act(view)
            took = time.perf_counter() - start
            if len(view.legal) > 1:
                self.times.append(took)
            self.actions.append(action)
            return action

    rules = Rules()
    times: list[float] = []
    actions: list[int] = []
    start = time.perf_counter()
    for seed in range(1, games + 1):
        rng = bots_rng(seed)
        bot = Timed(make_bot("search", "b", rng, search_iterations=iterations))
        others = [make_bot("heuristic", f"h{s}", rng) for s in range(1, 4)]
        drive(new_game(rules, seed), [bot, *others])
        times += bot.times
        actions += bot.actions
    seconds = time.perf_counter() - start
    return {
        "work": len(times),
        "seconds": seconds,
        "median_decision": statistics.median(times) if times else None,
        "digest": digest(actions),
    }


USAGE = "usage: speed_loops.py {apply,pettingzoo} GAMES | decision GAMES [ITERATIONS]"
ARITY = {"apply": (2,), "pettingzoo": (2,), "decision": (2, 3)}
"""The number of arguments each loop takes, its name included."""


def usage_error(message: str) -> None:
    """End the script with exit status 2, the usage and ``message`` on stderr."""
    print(f"{USAGE}\nspeed_loops.py: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def count(text: str, what: str) -> int:
    """Return ``text`` as an int of at least 1 (ASCII digits), or :func:`usage_error`."""
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        usage_error(f"{text!r} is not {what}: allowed 1 or more, in the digits 0-9")
    return int(text)


def main(argv: list[str]) -> None:
    """Run the loop ``argv`` names (``LOOP GAMES [ITERATIONS]``) and print its figures."""
    if not argv or argv[0] not in ARITY:
        named = repr(argv[0]) if argv else "nothing"
        usage_error(f"the loop is one of {', '.join(LOOPS)}, not {named}")
    if len(argv) not in ARITY[argv[0]]:
        allowed = " or ".join(str(n - 1) for n in ARITY[argv[0]])
        usage_error(f"{argv[0]} takes {allowed} argument{'s' if allowed != '1' else ''}, "
                    f"not {len(argv) - 1}")  # fmt: skip
    games = count(argv[1], "a number of games")
    if argv[0] == "apply":
        found = apply_loop(games)
    elif argv[0] == "pettingzoo":
        found = pettingzoo_loop(games)
    else:
        deals = count(argv[2], "a number of deals") if len(argv) == 3 else None
        found = decision_loop(games, deals)
    print(json.dumps({"loop": argv[0], **found}))


if __name__ == "__main__":
    main(sys.argv[1:])
