"""Fit the search bot's ``searcher`` card model on the decisions of kow's ``ismcts`` bot.

Usage::

    python benchmarks/fit_models.py [--games N] [--seed S] [--jobs J] [-o FILE]
    python benchmarks/fit_models.py --logs FILE [FILE ...] [-o FILE]

Without ``--logs`` it plays ``N`` games (default 150) of four ``ismcts`` bots at their
default 1,200 iterations, ``kow simulate --seed S --bots ismcts,ismcts,ismcts,ismcts``
(seed 2 by default: not the seed of the strength runs that measure the bot using it), and
fits the table on every card decision of more than one legal action that an ``ismcts``
seat made; with ``--logs`` it reads those decisions from logs of kow games (plain or
gzip JSON lines). The shipped table was fitted with ``--logs
benchmarks/data/ismcts-seed2.jsonl.gz``, the log of those 150 games (seed 2) as kow
wrote them; ``tests/test_models.py`` fits it again and checks that the result is the
shipped file, byte for byte. It writes ``kow/players/searcher.json`` (or ``-o FILE``): per context
and class of :mod:`kow.players.models`, the weight of a card of that class.

The model is a conditional logit over classes: in a decision the chance of a card is its
class's weight over the sum of the weights of the legal cards. The weights are the
maximum-likelihood ones, found by the minorize-maximize iteration of Hunter (2004) for
Luce's choice model, with one pseudo-decision per class that pulls a rarely seen class
towards weight 1; a class never available keeps weight 1. The sums are exactly rounded
(``math.fsum``) and the weights kept to four significant digits, so the same games give
the same file on every Python. Pure Python, standard library and kow only.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from kow.entries import number_type
from kow.events import KNOCK, Phase
from kow.log import iter_games
from kow.players.models import CLASSES, CONTEXTS, KNOCK_CLASS, TABLE_FILE, card_class, context
from kow.rules import GAMES, JOBS, SEED
from kow.runs.analysis import decisions

ROOT = Path(__file__).resolve().parent.parent
ITERATIONS = 300
"""Rounds of the minorize-maximize iteration (the weights move by less than 1e-6 by then)."""
PRIOR = 1.0
"""Pseudo-decisions per class pulling its weight towards 1."""

Choice = tuple[tuple[int, ...], int]
"""One decision: the number of legal actions of each class, and the class chosen."""


def choices(paths: list[Path], kind: str = "ismcts") -> list[Counter[Choice]]:
    """Return, per context, how often each decision of a ``kind`` seat was seen in ``paths``."""
    found: list[Counter[Choice]] = [Counter() for _ in CONTEXTS]
    for path in paths:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rb") as stream:
            for _, game in iter_games(stream):
                seats = [s for s, p in enumerate(game["players"]) if p["kind"] == kind]
                for d in decisions(game, seats):
                    facts = d.view.facts
                    if d.view.phase is not Phase.PLAY or facts is None:
                        continue
                    counts = [0] * len(CLASSES)
                    if facts.may_knock:
                        counts[KNOCK_CLASS] += 1
                    m = facts.legal
                    while m:
                        low = m & -m
                        counts[card_class(facts, low.bit_length() - 1)] += 1
                        m ^= low
                    chosen = KNOCK_CLASS if d.chosen == KNOCK else card_class(facts, d.chosen)
                    found[context(facts)][(tuple(counts), chosen)] += 1
    return found


def fit(seen: Counter[Choice]) -> list[float]:
    """Return the weight of each class fitted on the decisions ``seen`` of one context."""
    k = len(CLASSES)
    weights = [1.0] * k
    chosen = [0.0] * k
    for (_, c), times in seen.items():
        chosen[c] += times
    rows = [
        ([(j, n) for j, n in enumerate(counts) if n], times) for (counts, _), times in seen.items()
    ]
    for _ in range(ITERATIONS):
        spread: list[list[float]] = [[] for _ in range(k)]
        for present, times in rows:
            total = math.fsum(n * weights[j] for j, n in present)
            for j, n in present:
                spread[j].append(times * n / total)
        weights = [(chosen[j] + PRIOR) / (math.fsum(spread[j]) + PRIOR) for j in range(k)]
    return [float(f"{w:.4g}") for w in weights]


def _shown(path: Path) -> str:
    """Return ``path`` relative to the repository when it is inside it, else its name."""
    full = path.resolve()
    return str(full.relative_to(ROOT)) if full.is_relative_to(ROOT) else path.name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", nargs="+", type=Path, metavar="FILE")
    parser.add_argument("--games", type=number_type(GAMES.lo, GAMES.hi, GAMES.what), default=150)
    parser.add_argument("--seed", type=number_type(SEED.lo, SEED.hi, SEED.what), default=2)
    parser.add_argument("--jobs", type=number_type(JOBS.lo, JOBS.hi, JOBS.what), default=2)
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "kow" / "players" / TABLE_FILE)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kow-fit-") as tmp:
        if args.logs:
            paths = args.logs
            source = {"logs": [_shown(p) for p in paths]}
        else:
            log = Path(tmp) / "ismcts.jsonl"
            command = ["simulate", "--seed", str(args.seed), "--games", str(args.games),
                       "--bots", "ismcts,ismcts,ismcts,ismcts", "--quiet"]  # fmt: skip
            print(f"fit_models.py: kow {' '.join(command)}", file=sys.stderr)
            with open(log, "wb") as out:
                subprocess.run([sys.executable, "-m", "kow", *command, "--jobs", str(args.jobs)],
                               stdout=out, check=True)  # fmt: skip
            paths = [log]
            source = {"command": "kow " + " ".join(command)}
        try:
            seen = choices(paths)
        except OSError as e:
            raise SystemExit(f"fit_models.py: {e.filename}: {e.strerror or e}") from None
        except (ValueError, KeyError, TypeError) as e:  # LogReadError, ReplayError
            raise SystemExit(f"fit_models.py: not logs of kow games ({e})") from None
    if not any(seen):
        raise SystemExit("fit_models.py: no decision of an ismcts seat in the games: nothing "
                         "to fit (the table is left as it was)")  # fmt: skip
    table = {
        "what": "the searcher card model of kow.players.models: weights[context][class]",
        "fitted_by": "python benchmarks/fit_models.py",
        "fitted_on": source,
        "decisions": [sum(c.values()) for c in seen],
        "contexts": list(CONTEXTS),
        "classes": list(CLASSES),
        "weights": [fit(c) for c in seen],
    }
    text = json.dumps(table, indent=1) + "\n"
    part = args.output.with_name(args.output.name + ".part")
    try:
        part.write_text(text, encoding="utf-8")
        part.replace(args.output)
    except OSError as e:
        raise SystemExit(f"fit_models.py: {args.output}: {e.strerror or e}") from None
    print(f"fit_models.py: {sum(table['decisions'])} decisions; wrote {args.output}",
          file=sys.stderr)  # fmt: skip


if __name__ == "__main__":
    main()
