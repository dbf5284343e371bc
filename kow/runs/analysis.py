"""A logged game annotated by the search bot, decision by decision (``kow analyze``).

Like a chess engine annotating a PGN: for each decision of a logged game, the search bot,
given that seat's :class:`~kow.engine.view.View` only, plays every legal action out in the same
sampled deals (:func:`kow.players.search.sample`) and estimates each one's chance of
winning the game and of taking a trick this round, with 95% intervals. A decision whose
chosen action was worth clearly less than the best one found is a *blunder*: the paired
difference of their game-win values, deal by deal, must have its 95% lower bound above
:data:`BLUNDER` (two points of win chance), so sampling noise alone marks nothing, and
the best action is never marked.

Analyzed: trump choices, and card plays and knocks. Not analyzed: a decision with a
single legal action, and votes (a knocked-out seat has nothing at stake). Seats are
0-based and clockwise; chances are fractions 0..1. Each decision draws its deals from
``random.Random("kow-analysis:SEED:GAME_SEED:NUMBER")`` (the analysis seed, the log's
``seed`` or ``null``, the decision's place in the game), so an analysis depends on the
game, the seed and the deals per decision alone: not on ``--jobs``, the process, the
file the game is in, or which seats are analyzed. ``docs/analysis.md`` describes the
output.
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Callable, Collection, Iterator, Sequence
from importlib import resources
from typing import Any, NamedTuple

from ..cards import NAMES, SUITS, Card, Suit
from ..engine.view import View
from ..events import KNOCK, Action, Knock, Phase, Play, Seat, action_name
from ..log import GameLog, RulesLog, replay, round_actions
from ..players.search import sample
from ..players.value import mean
from ..screen import GLUE, Screen, sorted_hand
from ..settings import check_analysis_iterations, check_jobs, check_seed
from ..version import __version__
from .executors import Executor, TaskError, check_executor
from .stats import Z95, wilson

__all__ = [
    "BLUNDER",
    "DEFAULT_ITERATIONS",
    "FORMAT",
    "SECONDS_PER_DEAL",
    "VERSION",
    "ActionValue",
    "Decision",
    "DecisionAnalysis",
    "GameAnalysis",
    "SeatSummary",
    "action_text",
    "analyze_game",
    "decisions",
    "evaluate",
    "iter_analysis",
    "schema",
    "text_lines",
    "to_dict",
]

FORMAT = "kow-analysis"
"""The ``format`` of an analysis's JSON (see :func:`to_dict`)."""
VERSION = 1
"""The version of that JSON's format (``kow/runs/analysis.schema.json``)."""

DEFAULT_ITERATIONS = 200
"""Deals sampled per decision by default: twice the search bot's own 100, for tighter
intervals. A whole 4-player game (about 50 decisions with a choice) takes about 3 s in one
process of pure Python on a 2-core machine (about half that where kow is compiled), so a
game of ``kow play`` is analyzed while one waits. The paired differences behind the
blunder rule are far tighter than the values' own intervals (about +-4 points here)."""

SECONDS_PER_DEAL = 0.00026
"""About what one deal of one decision costs an analysis, in seconds (a 4-player game of
50 decisions at 200 deals each took 2.6 s in pure Python): the cost
:func:`~kow.runs.batch.auto_jobs` weighs against starting processes."""

BLUNDER = 0.02
"""The blunder threshold, as a fraction of win chance (2 points): a chosen action is a
blunder when the 95% lower bound of its loss against the best action is above it."""


class ActionValue(NamedTuple):
    """The search's estimate of one legal action, over the decision's sampled deals.

    ``action``: a card 0..51, :data:`~kow.events.KNOCK`, or a suit 0..3 (a trump choice).
    ``survival``: the share of deals (0..1) in which the seat takes a trick this round,
    with its 95% Wilson interval ``survival_low`` .. ``survival_high``. ``win``: the mean
    of the seat's estimated chance of winning the game (0..1, see
    :func:`kow.players.search.sample`), with ``win_low`` .. ``win_high``: the mean plus
    or minus 1.96 standard errors, clipped to 0..1.
    """

    action: Action
    survival: float
    survival_low: float
    survival_high: float
    win: float
    win_low: float
    win_high: float


class Decision(NamedTuple):
    """One decision of a logged game, to analyze.

    ``number``: the action's place among all the game's actions (votes, trump choices,
    plays and knocks, in the order taken), from 1; ``round`` from 1; ``trick`` from 1 (None
    for a trump choice); ``seat``; ``view``: what the seat could see then; ``chosen``: the
    action the log records.
    """

    number: int
    round: int
    trick: int | None
    seat: Seat
    view: View
    chosen: Action


class DecisionAnalysis(NamedTuple):
    """The analysis of one decision.

    ``number``, ``round``, ``trick``, ``seat``: as in :class:`Decision`. ``phase``:
    :attr:`Phase.PLAY <kow.events.Phase.PLAY>` or :attr:`Phase.TRUMP
    <kow.events.Phase.TRUMP>`. What the seat knew: ``hand`` (sorted by suit, then rank),
    ``trump`` (None: no trump, or not yet named), ``trick_plays`` (the current trick's
    plays before it) and ``tricks_won`` (its tricks this round so far). ``values``: one
    :class:`ActionValue` per legal action, in the order of ``view.legal``; ``chosen``:
    the log's action; ``best``: the action with the highest mean ``win`` (the chosen one
    on a tie). ``loss``: the mean, over the deals, of the best action's win value minus
    the chosen one's (0 when it is the best), with its 95% interval ``loss_low`` ..
    ``loss_high``; ``blunder``: whether ``loss_low`` is above the threshold (never for
    the best action). ``deals``: the deals sampled.
    """

    number: int
    round: int
    trick: int | None
    seat: Seat
    phase: Phase
    hand: tuple[Card, ...]
    trump: Suit | None
    trick_plays: tuple[Play | Knock, ...]
    tricks_won: int
    values: tuple[ActionValue, ...]
    chosen: Action
    best: Action
    loss: float
    loss_low: float
    loss_high: float
    blunder: bool
    deals: int

    def value_of(self, action: Action) -> ActionValue:
        """Return the :class:`ActionValue` of ``action``; raises :class:`KeyError` if it
        was not legal."""
        for value in self.values:
            if value.action == action:
                return value
        raise KeyError(action)


class SeatSummary(NamedTuple):
    """One seat's decisions in an analysis: how many were analyzed, the blunders among
    them, and the mean ``loss`` (a fraction of win chance; None with no decision)."""

    seat: Seat
    decisions: int
    blunders: int
    mean_loss: float | None


class GameAnalysis(NamedTuple):
    """The analysis of one logged game.

    ``game``: its place in its file, from 1; ``seed``: the log's ``seed`` (None when the
    log's is null: its deals came from outside kow); ``players``: ``(name, kind)`` by
    seat, as logged; ``rules``: the log's ``rules``; ``seats``: the seats analyzed,
    ascending; ``decisions``: their analyzed decisions, in the order taken;
    ``analysis_seed``, ``iterations`` (deals per decision) and ``threshold``
    (:data:`BLUNDER` unless given): the settings.
    """

    game: int
    seed: int | None
    players: tuple[tuple[str, str], ...]
    rules: RulesLog
    seats: tuple[Seat, ...]
    decisions: tuple[DecisionAnalysis, ...]
    analysis_seed: int
    iterations: int
    threshold: float

    def summary(self) -> list[SeatSummary]:
        """Return a :class:`SeatSummary` for each seat analyzed, in seat order."""
        out = []
        for seat in self.seats:
            mine = [d for d in self.decisions if d.seat == seat]
            loss = mean([d.loss for d in mine]) if mine else None
            blunders = sum(d.blunder for d in mine)
            out.append(
                SeatSummary(seat=seat, decisions=len(mine), blunders=blunders, mean_loss=loss)
            )
        return out


def decisions(game: GameLog, seats: Collection[Seat] | None = None) -> list[Decision]:
    """Return the decisions of a logged game to analyze, in the order taken.

    ``game`` is a version-1 log (check it first with :func:`kow.verify.verify_game`);
    ``seats``: only these seats' decisions (None: every seat's). Trump choices and card
    plays (knocks included) with more than one legal action; not votes. Each comes with
    the seat's :class:`~kow.engine.view.View` at the time, from :func:`kow.log.replay`. Raises
    :class:`kow.log.ReplayError` for a log that the engine does not replay.
    """
    actions = [a for n, rnd in enumerate(game["rounds"], 1) for a in round_actions(rnd, n)]
    out: list[Decision] = []
    for number, state in enumerate(replay(game), start=1):
        if number > len(actions):
            continue  # the state after the last action: let replay finish its checks
        logged = actions[number - 1]
        seat = logged.seat
        if seat is None:
            continue
        if state.phase is Phase.VOTE or (seats is not None and seat not in seats):
            continue
        view = state.view(seat)
        if len(view.legal) > 1:
            out.append(
                Decision(
                    number=number,
                    round=view.round,
                    trick=logged.trick,
                    seat=seat,
                    view=view,
                    chosen=logged.action,
                )
            )
    return out


def evaluate(
    decision: Decision,
    *,
    seed: int,
    game_seed: int | None,
    iterations: int = DEFAULT_ITERATIONS,
    threshold: float = BLUNDER,
) -> DecisionAnalysis:
    """Return the analysis of one ``decision`` of the game whose log seed is ``game_seed``.

    Samples ``iterations`` deals (at least 2) from the decision's view alone, drawing
    from ``random.Random(f"kow-analysis:{seed}:{game_seed}:{decision.number}")``
    (``game_seed`` None, for a log whose seed is null, is written ``null`` there), and
    plays every legal action out in each (:func:`kow.players.search.sample`). The loss
    interval is that of the paired differences (best minus chosen, deal by deal): their
    mean plus or minus 1.96 standard errors. Raises :class:`ValueError` for
    ``iterations < 2`` or a vote.
    """
    if iterations < 2:
        raise ValueError(f"iterations must be at least 2, not {iterations}")
    view = decision.view
    logged = "null" if game_seed is None else game_seed
    rng = random.Random(f"kow-analysis:{seed}:{logged}:{decision.number}")
    found = sample(view, rng, iterations)
    n = iterations
    values = []
    for i, action in enumerate(found.actions):
        wins = found.values[i]
        survived = sum(found.survived[i])
        mean, half = _mean_half(wins)
        s_low, s_high = wilson(survived, n)
        values.append(
            ActionValue(
                action=action,
                survival=survived / n,
                survival_low=s_low,
                survival_high=s_high,
                win=mean,
                win_low=max(0.0, mean - half),
                win_high=min(1.0, mean + half),
            )
        )
    chosen = found.actions.index(decision.chosen)
    top = max(v.win for v in values)
    best = chosen if values[chosen].win == top else [v.win for v in values].index(top)
    if best == chosen:
        loss = low = high = 0.0
    else:
        differences = [b - c for b, c in zip(found.values[best], found.values[chosen], strict=True)]
        loss, half = _mean_half(differences)
        low, high = loss - half, loss + half
    return DecisionAnalysis(
        number=decision.number,
        round=decision.round,
        trick=decision.trick,
        seat=decision.seat,
        phase=view.phase,
        hand=tuple(sorted_hand(view.hand)),
        trump=view.trump if view.phase is Phase.PLAY else None,
        trick_plays=view.trick,
        tricks_won=view.tricks_won[decision.seat],
        values=tuple(values),
        chosen=decision.chosen,
        best=found.actions[best],
        loss=loss,
        loss_low=low,
        loss_high=high,
        blunder=best != chosen and low > threshold,
        deals=n,
    )


def _mean_half(xs: Sequence[float]) -> tuple[float, float]:
    """Return the mean of ``xs`` (two or more) and 1.96 standard errors of it.

    Both sums are exactly rounded (:func:`kow.players.value.mean`), so the values and
    blunder marks are the same on every Python version.
    """
    n = len(xs)
    centre = mean(xs)
    variance = math.fsum((x - centre) * (x - centre) for x in xs) / (n - 1)
    return centre, Z95 * math.sqrt(variance / n)


def analyze_game(
    game: GameLog,
    *,
    index: int = 1,
    seed: int = 0,
    iterations: int = DEFAULT_ITERATIONS,
    seats: Collection[Seat] | None = None,
    threshold: float = BLUNDER,
    jobs: int = 1,
    on_decision: Callable[[], None] | None = None,
    executor: Executor | None = None,
) -> GameAnalysis:
    """Return the analysis of a logged game: each decision of ``seats`` (None: all).

    ``game`` is a version-1 log, legal (check it first with
    :func:`kow.verify.verify_game`); ``index``: its place in its file, from 1; ``seed``:
    the analysis seed; ``iterations``: deals per decision (at least 2); ``jobs``:
    processes (the result is the same for any); ``on_decision`` is called as each
    decision's analysis is done, in order; ``executor`` analyzes the decisions
    elsewhere instead, on a Ray cluster say (:func:`kow.runs.executors.on_ray`), with
    the same result (give it or ``jobs``, not both). See :func:`decisions` and
    :func:`evaluate`. Raises :class:`kow.log.ReplayError` for a log the engine does not
    replay, :class:`~kow.runs.executors.TaskError` for a decision whose Ray task failed
    (its ``item`` is then the decision's ``number``), and
    :class:`~kow.settings.SettingError` (a :class:`ValueError`) as ``kow analyze`` does for
    its options, with the same message: ``seed`` not an int 0 to 2^53-1, ``iterations``
    not 2 to 100000, ``jobs`` not 1 to :data:`~kow.settings.MAX_JOBS` (a numpy integer counts
    as its int; a bool or a float does not).
    """
    chosen_seats = tuple(range(len(game["players"]))) if seats is None else seats
    todo = decisions(game, tuple(sorted(set(chosen_seats))))
    analyzed = iter_analysis(
        game, todo, index=index, seed=seed, iterations=iterations, seats=seats,
        threshold=threshold, jobs=jobs, executor=executor,
    )  # fmt: skip
    for found in analyzed:
        if isinstance(found, GameAnalysis):
            return found
        if on_decision is not None:
            on_decision()
    raise AssertionError("iter_analysis ends with the game's analysis")  # pragma: no cover


def iter_analysis(
    game: GameLog,
    todo: Sequence[Decision],
    *,
    index: int = 1,
    seed: int = 0,
    iterations: int = DEFAULT_ITERATIONS,
    seats: Collection[Seat] | None = None,
    threshold: float = BLUNDER,
    jobs: int = 1,
    executor: Executor | None = None,
) -> Iterator[DecisionAnalysis | GameAnalysis]:
    """Yield the analysis of each of the decisions ``todo`` of ``game`` as it is done, in
    order, then the game's :class:`GameAnalysis`: :func:`analyze_game` without its replay.

    ``todo`` is :func:`decisions` of ``game`` for ``seats`` (None: every seat), found
    once; the other arguments and what it raises are :func:`analyze_game`'s (but a
    ReplayError: the game is not replayed here).
    """
    seed = check_seed(seed)
    iterations = check_analysis_iterations(iterations)
    mapper = check_executor(executor, check_jobs(jobs))
    players = tuple((p["name"], p["kind"]) for p in game["players"])
    chosen_seats = tuple(range(len(players))) if seats is None else tuple(sorted(set(seats)))
    work = functools.partial(
        evaluate, seed=seed, game_seed=game["seed"], iterations=iterations, threshold=threshold
    )
    done = []
    try:
        for result in mapper.map(work, todo):
            done.append(result)
            yield result
    except TaskError as err:  # named by the decision's number, as the output names it
        raise TaskError(todo[err.item].number, err.tries, err.reason) from None
    yield GameAnalysis(
        game=index,
        seed=game["seed"],
        players=players,
        rules=game["rules"].copy(),
        seats=chosen_seats,
        decisions=tuple(done),
        analysis_seed=seed,
        iterations=iterations,
        threshold=threshold,
    )


# ----------------------------------------------------------------------------- JSON


action_text = action_name
"""The name this module gave :func:`kow.events.action_name` before 0.6, kept for its importers."""


def _round(x: float) -> float:
    """Return ``x`` to 4 decimal places (a hundredth of a point), as the JSON gives it."""
    return round(x, 4) + 0.0  # + 0.0: never -0.0


def to_dict(analysis: GameAnalysis, file: str) -> dict[str, Any]:
    """Return the JSON form of ``analysis``, keys in the order of the schema.

    ``file`` names the input (``stdin`` for -). Chances and losses are fractions 0..1
    rounded to 4 decimal places; actions as :func:`kow.events.action_name` writes them. The schema
    is :func:`schema`; ``docs/analysis.md`` describes every field.
    """
    out_decisions = []
    for d in analysis.decisions:
        phase = d.phase
        out_decisions.append(
            {
                "number": d.number,
                "round": d.round,
                "trick": d.trick,
                "seat": d.seat,
                "phase": phase.value,
                "hand": [NAMES[c] for c in d.hand],
                "trump": None if d.trump is None else SUITS[d.trump],
                "trick_plays": [
                    {"seat": p.seat, "knock": True}
                    if isinstance(p, Knock)
                    else {"seat": p.seat, "card": NAMES[p.card]}
                    for p in d.trick_plays
                ],
                "tricks_won": d.tricks_won,
                "chosen": action_name(d.chosen, phase),
                "best": action_name(d.best, phase),
                "loss": _round(d.loss),
                "loss_low": _round(d.loss_low),
                "loss_high": _round(d.loss_high),
                "blunder": d.blunder,
                "values": [
                    {
                        "action": action_name(v.action, phase),
                        "survival": _round(v.survival),
                        "survival_low": _round(v.survival_low),
                        "survival_high": _round(v.survival_high),
                        "win": _round(v.win),
                        "win_low": _round(v.win_low),
                        "win_high": _round(v.win_high),
                    }
                    for v in d.values
                ],
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "kow_version": __version__,
        "file": file,
        "game": analysis.game,
        "seed": analysis.seed,
        "analysis_seed": analysis.analysis_seed,
        "iterations": analysis.iterations,
        "threshold": analysis.threshold,
        "players": [
            {"seat": s, "name": name, "kind": kind}
            for s, (name, kind) in enumerate(analysis.players)
        ],
        "seats": list(analysis.seats),
        "decisions": out_decisions,
        "summary": [
            {
                "seat": s.seat,
                "decisions": s.decisions,
                "blunders": s.blunders,
                "mean_loss": None if s.mean_loss is None else _round(s.mean_loss),
            }
            for s in analysis.summary()
        ],
    }


def schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of an analysis's JSON, version 1, as a new dict.

    It is ``kow/runs/analysis.schema.json``, shipped in the package next to the log's
    (:func:`kow.log.schema`); ``kow schema analysis`` prints it.

    >>> schema()["properties"]["format"]["const"]
    'kow-analysis'
    """
    text = resources.files("kow.runs").joinpath("analysis.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


# ----------------------------------------------------------------------------- text


def text_lines(analysis: GameAnalysis, screen: Screen, title: str) -> list[str]:
    """Return the analysis as lines for people: a header, two lines per decision, a summary.

    ``screen`` writes the cards and names (``screen.names[seat]``; symbols and colour as
    it is set); ``title`` is the first line. Each decision's first line places it (round,
    trick, who, the plays before it, the hand, trump); its second gives the chosen action
    with its chance of winning the game (and 95% interval) and of a trick this round,
    then the best action found, or, for a blunder (marked ``??``, as in chess), the
    better action and the points of win chance lost. Words that belong together are
    joined by :data:`~kow.screen.GLUE`: write the lines through :func:`kow.screen.wrap`.
    """
    names = screen.names
    seats = ", ".join(
        f"{s}{GLUE}{names[s]}{GLUE}({kind})" for s, (_, kind) in enumerate(analysis.players)
    )
    lines = [
        screen.bold(title),
        f"Seats: {seats}.",
        f"The search bot's estimates from each player's view, {analysis.iterations} deals a "
        f"decision (analysis seed {analysis.analysis_seed}): win, the chance of winning the "
        "game; trick, of taking a trick this round; ?? marks a blunder, an action at least "
        f"{_bar(analysis.threshold)} points of win chance worse than the best, beyond the "
        "sampling error.",
    ]
    for d in analysis.decisions:
        lines += ["", _place(d, screen), "  " + _verdict(d, screen, analysis.threshold)]
    lines += ["", screen.bold("Summary:")]
    for s in analysis.summary():
        blunders = f"{s.blunders}{GLUE}blunder{'s' if s.blunders != 1 else ''}"
        if s.mean_loss is None:
            lines.append(f"  {names[s.seat]}: no decision with a choice.")
            continue
        count = f"{s.decisions}{GLUE}decision{'s' if s.decisions != 1 else ''}"
        lines.append(
            f"  {names[s.seat]}: {count}, {blunders}, mean loss {_points(s.mean_loss)}{GLUE}points."
        )
    return lines


def _place(d: DecisionAnalysis, screen: Screen) -> str:
    """Return the line that places decision ``d``: round, trick, who, what came before."""
    name = screen.names[d.seat]
    hand = " ".join(screen.card(c) for c in d.hand)
    if d.phase is Phase.TRUMP:
        return f"Round {d.round}: {screen.does(d.seat, 'names')} trump. Hand {hand}."
    if d.trick_plays:
        doing = f"{name}, after {screen.plays(d.trick_plays)}"
    else:
        doing = screen.does(d.seat, "leads")
    trump = "no trump" if d.trump is None else f"trump{GLUE}{screen.suit(d.trump)}"
    won = f"{d.tricks_won}{GLUE}trick{'s' if d.tricks_won != 1 else ''} won"
    return f"Round {d.round}, trick {d.trick}: {doing}. Hand {hand}; {trump}; {won}."


def _action(action: Action, phase: Phase, screen: Screen) -> str:
    if phase is Phase.TRUMP:
        return screen.suit(action, long=True)
    return "knock" if action == KNOCK else screen.card(action)


def _chances(v: ActionValue) -> str:
    return (
        f"win{GLUE}{v.win:.0%}{GLUE}({v.win_low * 100:.0f}-{v.win_high:.0%}), "
        f"trick{GLUE}{v.survival:.0%}"
    )


def _points(fraction: float) -> str:
    """Return a fraction of win chance in points (hundredths), to one decimal place;
    never ``-0.0`` (a bound just under 0 is shown as 0.0).

    >>> _points(0.02), _points(-0.0004), _points(0.0125), _points(-0.031)
    ('2.0', '0.0', '1.2', '-3.1')
    """
    return f"{round(fraction * 100, 1) + 0.0:.1f}"


def _bar(threshold: float) -> str:
    """Return a blunder threshold (a fraction of win chance) in points, as given.

    >>> _bar(0.02), _bar(0.0125), _bar(0.07)
    ('2', '1.25', '7')
    """
    return f"{threshold * 100:g}"


def _interval(d: DecisionAnalysis) -> str:
    return f"(95%:{GLUE}{_points(d.loss_low)}{GLUE}to{GLUE}{_points(d.loss_high)})"


def _verdict(d: DecisionAnalysis, screen: Screen, threshold: float) -> str:
    """Return the line that judges decision ``d``: the choice, its values, the best one;
    ``threshold``: the analysis's blunder threshold, a fraction of win chance."""
    chosen = _action(d.chosen, d.phase, screen)
    mark = f"{GLUE}{screen.bold('??')}" if d.blunder else ""
    line = f"{chosen}{mark}: {_chances(d.value_of(d.chosen))}."
    if d.best == d.chosen:
        return line + " Best."
    best = _action(d.best, d.phase, screen)
    points = f"{_points(d.loss)}{GLUE}points"
    if d.blunder:
        better = _chances(d.value_of(d.best))
        return f"{line} Better {best}: {better}; {points} lost {_interval(d)}."
    why = (
        "within the sampling error"
        if d.loss_low <= 0
        else f"not a blunder: its 95% lower bound is under {_bar(threshold)}{GLUE}points"
    )
    return f"{line} Best found {best}, by {points} {_interval(d)}: {why}."
