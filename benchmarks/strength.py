"""Measure the bots' strength: every figure of docs/bots.md, as JSON files and a table.

Usage: ``python benchmarks/strength.py [--games N] [--jobs J] [--only NAME ...]``,
``--list`` to list the runs (and the pairs of each paired run). Each run is a ``kow
tournament`` with 4 players, the default rules and seed 1: the first kind named against
the others, the kinds rotating through the seats over the same seeds. Its JSON result
goes to ``benchmarks/results/strength/NAME.json`` and a Markdown table row to stdout.
The same command gives the same results on any machine and for any ``--jobs``, but for
the milliseconds per decision, which are wall-clock time.

Without ``--games`` each run plays its own number of games (``--list``; see ``GAMES``):
docs/bots.md's figures are those of ``python benchmarks/strength.py`` with no option,
45 minutes on a 2-core machine that other work shared for part of the time (the table of
one search and three ismcts bots, 600 games, took 18 of them).

The runs:

- ``A-vs-B``: one bot of kind A against three of kind B, for every pair of the kinds
  random, heuristic, ismcts and search (the matrix of docs/bots.md).
- ``search-ismcts-2v2``: two search bots and two ismcts bots (search, ismcts, search,
  ismcts around the table, rotated).
- ``searchN-vs-heuristic``: the search bot with N deals per decision (``--search-
  iterations N``) against three heuristic bots: strength against effort.

Paired against another kow: ``python benchmarks/strength.py --paired-against REF [--only
NAME ...] [--games N] [--jobs J] [--seer]`` measures the runs of the search bot
(``search-vs-*``, ``searchN-vs-heuristic`` and ``search-ismcts-2v2``) on the same deals
for the working tree and REF (a tag, branch or commit; ``f8a4a8d`` is 0.5.0), installed
and played as ``benchmarks/paired.py`` installs and plays it (its games kept in its
cached environment). Each seating of a run is a ``kow simulate --seed 1`` run of both
kows: in a one-against-three run the search bot sits at each seat in turn, and in the
2-against-2 table the search pair sits at seats 0 and 2, then at 1 and 3; a game counts
1 when a search seat wins it. ``--games`` is the pairs per run (rounded up to a multiple
of its seatings; default ``PAIRED_GAMES``) and ``--search-iterations`` sets the search
bots' deals per decision in every run. For each run it prints a Markdown row: each
kow's win rate with its 95% Wilson interval, the paired difference new - old in points
with its 95% interval, and the pairs that one kow alone won; the JSON goes to
``benchmarks/results/strength/paired/NAME.json`` (``--results DIR`` elsewhere).

``--seer`` adds, for ``search-vs-heuristic`` and ``search-vs-ismcts``, the win rate of
``benchmarks/ceiling.py``'s seer (the search bot's method seeing every hand) on the very
same games: the seer sits in the search bot's seat, with the same seed and the
opponents drawing from the same generator (every game's first deal is checked against
both kows' logs). It gives the share of the seer's edge over chance that each kow's
bot keeps, ``(bot - 1/4) / (seer - 1/4)``, with a 95% interval from a paired bootstrap
over the games (:func:`share_intervals`).
"""

from __future__ import annotations

import argparse
import collections
import functools
import itertools
import json
import pathlib
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any, NamedTuple

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from ceiling import SeerGame, seer_game  # noqa: E402
from paired import Pair, PairedFigures, Settings, pair_games, paired_figures, play  # noqa: E402
from speed import Kow, install, working_tree  # noqa: E402

from kow.entries import number_type  # noqa: E402
from kow.events import Seat  # noqa: E402
from kow.game import game_seed  # noqa: E402
from kow.rules import Rules
from kow.runs.executors import Processes  # noqa: E402
from kow.runs.stats import wilson  # noqa: E402
from kow.runs.tournament import play_tournament  # noqa: E402
from kow.settings import JOBS, MAX_GAMES, SEARCH_ITERATIONS  # noqa: E402

KINDS = ("random", "heuristic", "ismcts", "search")
SEED = 1

RUNS: dict[str, tuple[tuple[str, ...], int | None, int]] = {}
"""Run name -> (bots by seat, search iterations or None for the default, games)."""
GAMES = {
    # Games per run: the targets of issue 13 (search against ismcts and heuristic bots,
    # the 2-against-2 table) get intervals of about +-3.5 points, cheap runs about +-2;
    # tables of three search or ismcts bots, far from the others, get a rough figure.
    "random-vs-heuristic": 2000,
    "heuristic-vs-random": 2000,
    "ismcts-vs-heuristic": 1000,
    "search-vs-heuristic": 2000,
    "search-vs-ismcts": 600,
    "search-ismcts-2v2": 400,
    "search-vs-random": 500,
    "ismcts-vs-random": 250,
    "random-vs-search": 250,
    "heuristic-vs-search": 250,
    "ismcts-vs-search": 250,
    "random-vs-ismcts": 150,
    "heuristic-vs-ismcts": 150,
}
for _a in KINDS:
    for _b in KINDS:
        if _a != _b:
            _name = f"{_a}-vs-{_b}"
            RUNS[_name] = ((_a, _b, _b, _b), None, GAMES[_name])
RUNS["search-ismcts-2v2"] = (("search", "ismcts", "search", "ismcts"), None, 400)
for _n, _games in ((25, 1000), (50, 1000), (200, 500)):
    RUNS[f"search{_n}-vs-heuristic"] = (
        ("search", "heuristic", "heuristic", "heuristic"),
        _n,
        _games,
    )

PAIRED = tuple(name for name, (bots, _, _) in RUNS.items() if bots[0] == "search")
"""The runs ``--paired-against`` measures: those whose first kind is the search bot."""
PAIRED_GAMES = {name: RUNS[name][2] for name in PAIRED} | {
    # Issue 21: at least 1,500 paired games against ismcts bots.
    "search-vs-ismcts": 1500,
    "search-ismcts-2v2": 1500,
}
"""Pairs per paired run without ``--games``."""
SEER_RUNS = ("search-vs-heuristic", "search-vs-ismcts")
"""The runs ``--seer`` adds the seer to."""
RESAMPLES = 2000
"""The bootstrap's resamples of the games, for the interval of a share of the seer's edge."""


class Seating(NamedTuple):
    """One seating of a paired run: the bots by seat, and the seats of the side under test."""

    bots: tuple[str, ...]
    seats: tuple[Seat, ...]


def seatings(bots: Sequence[str]) -> list[Seating]:
    """Return the seatings of a paired run whose table is ``bots`` (one kind per seat).

    The side under test is the seats of ``bots[0]``'s kind; the table is turned one seat
    clockwise at a time, and a seating met before is not played again: one against three
    gives each seat in turn, two against two alternating gives two seatings.

    >>> [s.seats for s in seatings(["search", "ismcts", "search", "ismcts"])]
    [(0, 2), (1, 3)]
    >>> seatings(["search", "heuristic", "heuristic"])[1]
    Seating(bots=('heuristic', 'search', 'heuristic'), seats=(1,))
    """
    n = len(bots)
    found: list[Seating] = []
    for turn in range(n):
        table = tuple(bots[(seat - turn) % n] for seat in range(n))
        seating = Seating(table, tuple(s for s in range(n) if table[s] == bots[0]))
        if seating not in found:
            found.append(seating)
    return found


class Triple(NamedTuple):
    """One deal and seat, played by the old kow's bot, the new kow's and the seer: 1 if won."""

    old: int
    new: int
    seer: int


def edge_share(bot: float, seer: float, players: int) -> float | None:
    """Return the share of the seer's edge over chance that a bot keeps.

    ``bot`` and ``seer`` are win rates (fractions) on the same games of ``players``
    players; the share is ``(bot - 1/players) / (seer - 1/players)``: 1 when the bot wins
    as often as the seer, 0 at chance, below 0 under it. None when the seer is no better
    than chance (no edge to share).

    >>> edge_share(0.30, 0.35, 4)
    0.5
    >>> edge_share(0.30, 0.25, 4) is None
    True
    """
    chance = 1 / players
    edge = seer - chance
    if edge <= 0:
        return None
    return (bot - chance) / edge


class ShareIntervals(NamedTuple):
    """95% intervals of the old and the new bot's shares of the seer's edge, or None."""

    old: tuple[float, float] | None
    new: tuple[float, float] | None


def share_intervals(
    games: Sequence[Triple], players: int, *, resamples: int = RESAMPLES, seed: int = 1
) -> ShareIntervals:
    """Return 95% intervals of each bot's :func:`edge_share`, by a paired bootstrap.

    Each of ``resamples`` resamples draws ``len(games)`` games with replacement (from
    ``random.Random(seed)``: the same games give the same intervals), keeping each game's
    three outcomes together, so the correlation of bots and seer on a deal is kept; an
    interval runs from the 2.5th to the 97.5th percentile of the resampled shares. Both
    are None when the seer's edge over chance is not above 0 in every resample: the
    ratio has no bound then. Raises :class:`ValueError` for no games.
    """
    n = len(games)
    if n == 0:
        raise ValueError("no games")
    kinds = sorted(set(games))  # at most 8 kinds of game: count them, not the games
    counts = collections.Counter(games)
    cum = list(itertools.accumulate(counts[k] for k in kinds))
    rng = random.Random(seed)
    olds: list[float] = []
    news: list[float] = []
    for _ in range(resamples):
        drawn = collections.Counter(rng.choices(range(len(kinds)), cum_weights=cum, k=n))
        wins = [sum(drawn[i] * kinds[i][side] for i in drawn) for side in range(3)]
        old = edge_share(wins[0] / n, wins[2] / n, players)
        new = edge_share(wins[1] / n, wins[2] / n, players)
        if old is None or new is None:
            return ShareIntervals(None, None)
        olds.append(old)
        news.append(new)
    k = int(0.025 * resamples)
    olds.sort()
    news.sort()
    return ShareIntervals((olds[k], olds[-1 - k]), (news[k], news[-1 - k]))


def first_deal(line: bytes) -> tuple[int, tuple[tuple[str, ...], ...]]:
    """Return round 1's dealer and hands (card names in the order dealt) of a game's log."""
    first = json.loads(line)["rounds"][0]
    return first["dealer"], tuple(tuple(hand) for hand in first["hands"])


def play_seer(seating: Seating, settings: Settings, logs: Sequence[Sequence[bytes]]) -> list[int]:
    """Play the seer in ``seating``'s search seat on the games of ``settings``; 1 if it won.

    Game ``i`` is ``kow simulate --seed S``'s game ``i`` (seed ``game_seed(S, i)``), played
    by ``settings.jobs`` processes. Ends the script when a game's first deal is not that
    of each log of ``logs`` (the kows' runs of this seating): the pairing would be broken.
    """
    (seat,) = seating.seats
    seeds = [game_seed(settings.seed, i) for i in range(settings.games)]
    play_one = functools.partial(seer_game, seating.bots, seat)
    games: list[SeerGame] = list(Processes(settings.jobs).map(play_one, seeds))
    for i, game in enumerate(games):
        for lines in logs:
            if first_deal(lines[i]) != (game.dealer, game.hands):
                raise SystemExit(
                    f"strength.py: the seer's game {i} (seed {seeds[i]}, {','.join(seating.bots)}) "
                    "is not dealt as kow simulate dealt it: its games would not be paired"
                )
    return [int(game.winner == seat) for game in games]


def percent(rate: float, ci: Sequence[float] | None) -> str:
    """A rate and its interval as a table cell: ``23.0% [20.9, 25.3]``."""
    if ci is None:
        return f"{100 * rate:.1f}%"
    return f"{100 * rate:.1f}% [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def paired_run(
    name: str, old: Kow, new: Kow, *, opts: argparse.Namespace, tmp: pathlib.Path
) -> dict[str, Any]:
    """Play run ``name`` with both kows (and the seer if asked) and return its figures."""
    bots, iterations, _ = RUNS[name]
    table = seatings(bots)
    per = -(-(opts.games or PAIRED_GAMES[name]) // len(table))
    settings = Settings(SEED, per, (), opts.search_iterations or iterations, opts.jobs)
    seer = opts.seer and name in SEER_RUNS
    pairs: list[Pair] = []
    triples: list[Triple] = []
    same = 0
    rows = []
    for seating in table:
        print(f"strength.py: {name}: {','.join(seating.bots)}", file=sys.stderr, flush=True)
        before = play(old, seating.bots, settings, tmp)
        after = play(new, seating.bots, settings, tmp)
        seating_pairs, seating_same = pair_games(before, after, seating.seats)
        row: dict[str, Any] = {
            "bots": seating.bots,
            "seats": seating.seats,
            "old_wins": sum(p.old for p in seating_pairs),
            "new_wins": sum(p.new for p in seating_pairs),
            "identical_games": seating_same,
        }
        if seer:
            won = play_seer(seating, settings, (before, after))
            triples += [Triple(p.old, p.new, w) for p, w in zip(seating_pairs, won, strict=True)]
            row["seer_wins"] = sum(won)
        rows.append(row)
        pairs += seating_pairs
        same += seating_same
    figures = paired_figures(pairs)
    out: dict[str, Any] = {
        "run": name,
        "old": old.label,
        "new": new.label,
        "seed": SEED,
        "rules": "default",
        "games_per_seating": per,
        "search_iterations": settings.search_iterations,
        **figures._asdict(),
        "identical_games": same,
        "seatings": rows,
    }
    if seer:
        out["seer"] = seer_figures(triples, figures, Rules().players)
    return out


def seer_figures(triples: Sequence[Triple], figures: PairedFigures, players: int) -> dict[str, Any]:
    """Return the seer's win rate on the paired games and each bot's share of its edge."""
    n = len(triples)
    wins = sum(t.seer for t in triples)
    rate = wins / n
    intervals = share_intervals(triples, players)
    return {
        "games": n,
        "wins": wins,
        "rate": rate,
        "ci95": wilson(wins, n),
        "deals_checked": n,
        "chance": 1 / players,
        "old_share": edge_share(figures.old_rate, rate, players),
        "new_share": edge_share(figures.new_rate, rate, players),
        "old_share_ci95": intervals.old,
        "new_share_ci95": intervals.new,
        "share_ci95_method": (
            f"paired bootstrap percentile interval, {RESAMPLES} resamples of the games, "
            "random.Random(1); null when the seer's edge over chance is not above 0 in "
            "every resample"
        ),
    }


def paired_row(data: dict[str, Any]) -> str:
    """The Markdown row of a paired run's figures (see :func:`paired_run`)."""
    d, (lo, hi) = data["difference"], data["difference_ci95"]
    cells = [
        data["run"],
        str(data["pairs"]),
        percent(data["old_rate"], data["old_ci95"]),
        percent(data["new_rate"], data["new_ci95"]),
        f"{100 * d:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]",
        f"{data['only_new_won']} / {data['only_old_won']}",
    ]
    seer = data.get("seer")
    if seer is None:
        cells += ["-", "-", "-"]
    else:
        cells.append(percent(seer["rate"], seer["ci95"]))
        for side in ("old", "new"):
            share = seer[f"{side}_share"]
            cells.append("-" if share is None else percent(share, seer[f"{side}_share_ci95"]))
    return "| " + " | ".join(cells) + " |"


def main_paired(opts: argparse.Namespace) -> None:
    """The ``--paired-against`` mode: see the module's docstring."""
    out = pathlib.Path(opts.results or pathlib.Path(__file__).parent / "results/strength/paired")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="kow-strength-") as name:
        tmp = pathlib.Path(name)
        old = install(opts.paired_against, tmp, opts.timeout)
        new = working_tree(opts.timeout)
        print(f"| run | pairs | old: {old.label} | new: {new.label} | new - old, points | "
              "only new / only old | seer | old keeps | new keeps |")  # fmt: skip
        print("|---|---:|---|---|---|---:|---|---|---|", flush=True)
        for run in opts.only or PAIRED:
            start = time.monotonic()
            data = paired_run(run, old, new, opts=opts, tmp=tmp)
            data["wall_seconds"] = round(time.monotonic() - start, 1)
            (out / f"{run}.json").write_text(json.dumps(data, indent=2) + "\n")
            print(paired_row(data), flush=True)
            print(f"{run}: {data['wall_seconds']} s", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games",
        type=number_type(1, MAX_GAMES, "a number of games"),
        default=None,
        help="games per run (default: its own)",
    )
    parser.add_argument("--jobs", type=number_type(JOBS.lo, JOBS.hi, JOBS.what), default=2)
    parser.add_argument("--only", nargs="*", default=None, choices=list(RUNS), metavar="NAME")
    parser.add_argument("--list", action="store_true", help="list the runs and exit")
    parser.add_argument(
        "--search-iterations",
        type=number_type(SEARCH_ITERATIONS.lo, SEARCH_ITERATIONS.hi, SEARCH_ITERATIONS.what),
        default=None,
        metavar="N",
        help="the search bots' deals per decision in every run (default: the run's own)",
    )
    parser.add_argument(
        "--paired-against",
        metavar="REF",
        help="measure the search bot's runs paired: the working tree against this git ref",
    )
    parser.add_argument(
        "--seer",
        action="store_true",
        help="with --paired-against: the seer on the same games, and each bot's share of its edge",
    )
    parser.add_argument(
        "--results",
        metavar="DIR",
        default=None,
        help="with --paired-against: where the JSON files go "
        "(default: benchmarks/results/strength/paired)",
    )
    parser.add_argument("--timeout", type=float, default=3600, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.list:
        for name, (bots, iterations, games) in RUNS.items():
            pairs = f", {PAIRED_GAMES[name]} pairs paired" if name in PAIRED else ""
            print(
                f"{name}: {','.join(bots)}, iterations {iterations or 'default'}, "
                f"{games} games{pairs}"
            )
        return
    if args.paired_against is None:
        if args.seer:
            parser.error("--seer goes with --paired-against")
    else:
        ref = args.paired_against
        found = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"],
            cwd=pathlib.Path(__file__).parent, capture_output=True, check=False,
        )  # fmt: skip
        if found.returncode != 0:
            parser.error(
                f"argument --paired-against: {ref!r} is no commit of this repository "
                "(allowed: a tag, branch or commit)"
            )
        for name in args.only or ():
            if name not in PAIRED:
                parser.error(
                    f"argument --only: {name!r} is not a run of the search bot; with "
                    f"--paired-against allowed: {', '.join(PAIRED)}"
                )
        main_paired(args)
        return
    out = pathlib.Path(__file__).parent / "results" / "strength"
    out.mkdir(parents=True, exist_ok=True)
    print(
        "| run | first kind | games | win rate | 95% interval | other kind | win rate "
        "| ms/decision |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name in args.only or list(RUNS):
        bots, iterations, games = RUNS[name]
        games = args.games or games
        start = time.monotonic()
        iterations = args.search_iterations or iterations
        result = play_tournament(
            Rules(),
            bots,
            games,
            seed=SEED,
            jobs=args.jobs,
            search_iterations=iterations,
            keep_games=False,
        )
        data = result.to_dict()
        data["wall_seconds"] = round(time.monotonic() - start, 1)
        (out / f"{name}.json").write_text(json.dumps(data, indent=2) + "\n")
        first, other = result.results()[:2]
        print(
            f"| {name} | {first.kind} | {games} | {first.win_rate:.1%} | "
            f"{first.low:.1%} - {first.high:.1%} | {other.kind} | {other.win_rate:.1%} | "
            f"{first.mean_decision_ms:.1f} / {other.mean_decision_ms:.1f} |",
            flush=True,
        )
        print(f"{name}: {data['wall_seconds']} s", file=sys.stderr)


if __name__ == "__main__":
    main()
