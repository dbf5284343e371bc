"""Measure a bot change on the same deals: one kow against another, paired game by game.

Usage::

    python benchmarks/paired.py --against REF [--tree REF2] [--bots search,heuristic,...]
        [--games N] [--seed S] [--jobs J] [--search-iterations N] [--json FILE]
        [-- RULE OPTIONS OF kow simulate, e.g. --preset traditional --players 5]

The first kind of ``--bots`` is the bot under test; the others are its opponents. It
sits at every seat in turn (the opponents keep their order around the table), and for
each seat both kows play the same ``--games`` seeded games: ``kow simulate --seed S``
deals the same cards and gives every bot the same random numbers in both, so the only
difference between a pair of games is the change between the two kows. A game counts
1 when the bot under test wins it.

REF (``--against``, the old kow: a tag, branch or commit) is installed as
``benchmarks/speed.py --against`` installs it, in a cached virtual environment; the new
kow is the working tree, or ``--tree REF2`` installed the same way. Both must accept the
``kow simulate`` options given.

It prints each kow's win rate with its 95% Wilson interval, and the difference (new -
old, in points) with a 95% interval from the paired differences (normal approximation,
fine for hundreds of pairs): an interval that excludes 0 is a measured change. It also
counts the pairs each kow alone won and the games both kows played identically (the
same log). ``--json FILE`` writes the figures. An installed commit's games are kept and
read again by later runs with the same arguments (see :func:`play`), so measuring
several changes against one commit plays its games once. Deterministic: the same options give the
same figures on any machine and for any ``--jobs``.

``benchmarks/strength.py --paired-against`` plays and pairs its runs with this module's
functions (:func:`play`, :func:`pair_games`, :func:`paired_figures`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import subprocess
import sys
import tempfile
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed import (  # noqa: E402
    CLEAN_ENV,
    VERSION_FIELD,
    Kow,
    cache_root,
    install,
    working_tree,
)

from kow.entries import number_type  # noqa: E402
from kow.runs.stats import wilson  # noqa: E402
from kow.settings import GAMES, JOBS, SEARCH_ITERATIONS, SEED, IntSetting  # noqa: E402

Z95 = 1.959963984540054
"""The two-sided 95% point of the normal distribution."""


class Settings(NamedTuple):
    """What decides a ``kow simulate`` run's games besides the bots.

    ``seed``: the run's seed (game ``i`` has seed ``game_seed(seed, i)``); ``games``: how
    many; ``rules``: ``kow simulate`` options (``--preset traditional``, ...);
    ``search_iterations``: the search bots' deals per decision, None for their default;
    ``jobs``: processes (no effect on the games). An :class:`argparse.Namespace` with
    these attributes does as well.
    """

    seed: int
    games: int
    rules: Sequence[str]
    search_iterations: int | None
    jobs: int


def play(kow: Kow, bots: Sequence[str], opts: Settings, tmp: Path) -> list[bytes]:
    """Return the logs (one line each) of ``kow simulate`` with ``bots``, one per seat.

    The logs of an installed commit are kept in its cached environment (its folder
    ``paired/``, named by a hash of the arguments but the number of games) and read from
    there the next time: the same commit and arguments give the same games, whatever
    ``--jobs``, and game ``i`` is the same in a run of any length, so a kept run serves
    any run of as many games or fewer, and a longer run plays only the games it lacks
    (``--first-game``). The working tree's are never kept.
    """
    args = ["simulate", "--seed", str(opts.seed), "--bots", ",".join(bots), "--quiet",
            *opts.rules]  # fmt: skip
    if opts.search_iterations is not None:
        args += ["--search-iterations", str(opts.search_iterations)]
    kept = None
    have: list[bytes] = []
    if kow.home.resolve().is_relative_to(cache_root().resolve()):
        # Game i of a run is the same whatever its number of games: a run kept of at
        # least as many games serves a shorter one, and a shorter one is played on.
        key = hashlib.sha256("\0".join(args).encode()).hexdigest()[:20]
        kept = kow.home / "paired" / f"{key}.jsonl"
        if kept.exists():
            with open(kept, "rb") as f:
                have = list(f)
            print(f"paired.py: {kow.label}: {min(len(have), opts.games)} games kept in {kept}",
                  file=sys.stderr)  # fmt: skip
            if len(have) >= opts.games:
                return have[: opts.games]
    args += ["--games", str(opts.games - len(have)), "--jobs", str(opts.jobs)]
    if have:
        args += ["--first-game", str(len(have))]
    with tempfile.TemporaryFile(dir=tmp) as out:
        done = subprocess.run(kow.command(args), stdout=out, stderr=subprocess.PIPE,
                              cwd=kow.cwd, env=CLEAN_ENV)  # fmt: skip
        if done.returncode != 0:
            tail = done.stderr.decode(errors="replace").strip().splitlines()[-10:]
            raise SystemExit(f"paired.py: {kow.label}: kow {' '.join(args)} failed "
                             f"(exit {done.returncode}):\n" + "\n".join(tail))  # fmt: skip
        out.seek(0)
        lines = have + list(out)
    if kept is not None:
        kept.parent.mkdir(exist_ok=True)
        part = kept.with_suffix(".part")
        part.write_bytes(b"".join(lines))
        part.replace(kept)
    return lines


def winner(line: bytes) -> int:
    """The winning seat of a game's log line."""
    won: int = json.loads(line)["result"]["winner"]
    return won


def side_won(line: bytes, seats: Collection[int]) -> int:
    """Return 1 when the game's winner sits at one of ``seats`` (the side under test), else 0.

    A side of two seats (two search bots against two ismcts bots, say) wins a game when
    either of its seats wins it.

    >>> side_won(b'{"result": {"winner": 2}}', (0, 2))
    1
    >>> side_won(b'{"result": {"winner": 1}}', (0, 2))
    0
    """
    return int(winner(line) in seats)


class Pair(NamedTuple):
    """One deal and seating played by both kows: 1 if the side under test won, else 0."""

    old: int
    new: int


def pair_games(
    before: Sequence[bytes], after: Sequence[bytes], seats: Collection[int]
) -> tuple[list[Pair], int]:
    """Pair the old kow's logs ``before`` with the new kow's ``after``, game by game.

    ``seats``: the seats of the side under test. Returns the pairs and how many games
    both kows played identically (the same log but for ``"kow_version"``). Raises
    :class:`ValueError` when the two runs have not the same number of games.
    """
    pairs = []
    same = 0
    for a, b in zip(before, after, strict=True):
        pairs.append(Pair(side_won(a, seats), side_won(b, seats)))
        same += VERSION_FIELD.sub(b"", a, 1) == VERSION_FIELD.sub(b"", b, 1)
    return pairs, same


class PairedFigures(NamedTuple):
    """The figures of paired games: each kow's wins and rate, and the new - old difference.

    Rates and differences are fractions (0.031 is 3.1 points); ``*_ci95`` are 95%
    intervals ``(low, high)``: Wilson's for the rates, the normal approximation of the
    mean of the paired differences for ``difference``. ``only_new_won`` and
    ``only_old_won`` count the pairs that one kow alone won.
    """

    pairs: int
    old_wins: int
    new_wins: int
    old_rate: float
    new_rate: float
    old_ci95: tuple[float, float]
    new_ci95: tuple[float, float]
    difference: float
    difference_ci95: tuple[float, float]
    only_new_won: int
    only_old_won: int


def paired_figures(pairs: Sequence[Pair]) -> PairedFigures:
    """Return the figures of ``pairs`` (see :class:`PairedFigures`).

    The difference's interval is the mean of the differences (new - old, each -1, 0 or
    1) plus or minus 1.96 standard errors (sample variance, n - 1): fine for hundreds of
    pairs, and of zero width for one pair. Raises :class:`ValueError` for no pairs.

    >>> f = paired_figures([Pair(1, 1), Pair(0, 1), Pair(0, 0), Pair(0, 1)])
    >>> f.old_wins, f.new_wins, f.difference, f.only_new_won, f.only_old_won
    (1, 3, 0.5, 2, 0)
    """
    n = len(pairs)
    if n == 0:
        raise ValueError("no pairs of games")
    old_wins = sum(p.old for p in pairs)
    new_wins = sum(p.new for p in pairs)
    diffs = [p.new - p.old for p in pairs]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return PairedFigures(
        pairs=n,
        old_wins=old_wins,
        new_wins=new_wins,
        old_rate=old_wins / n,
        new_rate=new_wins / n,
        old_ci95=wilson(old_wins, n),
        new_ci95=wilson(new_wins, n),
        difference=mean,
        difference_ci95=(mean - half, mean + half),
        only_new_won=sum(1 for p in pairs if p.new > p.old),
        only_old_won=sum(1 for p in pairs if p.old > p.new),
    )


def typed(setting: IntSetting) -> object:
    """argparse's ``type`` for ``setting``: its bounds and words, as kow's options read it."""
    return number_type(setting.lo, setting.hi, setting.what)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="REF", required=True, help="the old kow (git ref)")
    parser.add_argument("--tree", metavar="REF", help="the new kow (default: the working tree)")
    parser.add_argument(
        "--bots",
        default="search,heuristic,heuristic,heuristic",
        help="the bot under test, then its opponents (default: %(default)s)",
    )
    parser.add_argument(
        "--games", type=typed(GAMES), default=100, help="games per seat (default 100)"  # type: ignore[arg-type]
    )
    parser.add_argument("--seed", type=typed(SEED), default=1, help="the run's seed (default 1)")  # type: ignore[arg-type]
    parser.add_argument("--jobs", type=typed(JOBS), default=2, help="processes (default 2)")  # type: ignore[arg-type]
    parser.add_argument(
        "--search-iterations", type=typed(SEARCH_ITERATIONS), default=None, metavar="N"  # type: ignore[arg-type]
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    parser.add_argument("--timeout", type=float, default=3600, help=argparse.SUPPRESS)
    parser.add_argument(
        "rules",
        nargs="*",
        metavar="RULE-OPTION",
        help="kow simulate options after --, e.g. -- --preset traditional",
    )
    opts = parser.parse_args()
    kinds = opts.bots.split(",")
    players = len(kinds)
    settings = Settings(opts.seed, opts.games, opts.rules, opts.search_iterations, opts.jobs)
    with tempfile.TemporaryDirectory(prefix="kow-paired-") as name:
        tmp = Path(name)
        old = install(opts.against, tmp, opts.timeout)
        new = install(opts.tree, tmp, opts.timeout) if opts.tree else working_tree(opts.timeout)
        pairs: list[Pair] = []
        same = 0
        for seat in range(players):
            bots = kinds[1:]
            bots.insert(seat, kinds[0])
            print(f"paired.py: {kinds[0]} at seat {seat}: {','.join(bots)}", file=sys.stderr)
            before = play(old, bots, settings, tmp)
            after = play(new, bots, settings, tmp)
            seat_pairs, seat_same = pair_games(before, after, (seat,))
            pairs += seat_pairs
            same += seat_same
    figures = paired_figures(pairs)
    n = figures.pairs
    old_wins = figures.old_wins
    new_wins = figures.new_wins
    mean = figures.difference
    dlo, dhi = figures.difference_ci95
    out: dict[str, Any] = {
        "old": old.label,
        "new": new.label,
        "bots": kinds,
        "rules": opts.rules,
        "seed": opts.seed,
        "games_per_seat": opts.games,
        "search_iterations": opts.search_iterations,
        **figures._asdict(),
        "identical_games": same,
    }
    lo, hi = out["old_ci95"]
    nlo, nhi = out["new_ci95"]
    print(f"{kinds[0]} against {','.join(kinds[1:])}, {' '.join(opts.rules) or 'default rules'}, "
          f"{opts.games} games x {players} seats, seed {opts.seed}")  # fmt: skip
    print(f"  old {old.label}: {old_wins}/{n} = {100 * old_wins / n:.1f}% "
          f"[{100 * lo:.1f}, {100 * hi:.1f}]")  # fmt: skip
    print(f"  new {new.label}: {new_wins}/{n} = {100 * new_wins / n:.1f}% "
          f"[{100 * nlo:.1f}, {100 * nhi:.1f}]")  # fmt: skip
    print(f"  new - old: {100 * mean:+.2f} points, 95% [{100 * dlo:+.2f}, "
          f"{100 * dhi:+.2f}]; only new won {out['only_new_won']}, only old won "
          f"{out['only_old_won']}; identical games {same}/{n}")  # fmt: skip
    if opts.json:
        Path(opts.json).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
