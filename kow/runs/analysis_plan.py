"""The analysis of the games of a log file: ``kow analyze``'s loop, each game replayed once.

:func:`plan_analysis` reads the games to analyze from a log reader's records
(:func:`kow.log.read_logs`) up to the last one wanted, checks each against the rules,
finds the seats asked for, and replays it once to list its decisions
(:func:`~kow.runs.analysis.decisions`): the plan knows how many decisions there are
before the long work starts. :func:`run_plan` then values each decision
(:func:`~kow.runs.analysis.iter_analysis`), with no second replay. A fault met in reading
(bytes that can't be read, a game that is not legal) ends the plan there: the games
before it are analyzed, then the fault is raised.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import KW_ONLY, dataclass
from typing import NamedTuple

from ..log import GameRecord, InputEnd, InputError, ReplayError
from ..verify import Fault, GameFault, verify_game
from .analysis import SECONDS_PER_DEAL, Decision, DecisionAnalysis, GameAnalysis, iter_analysis
from .analysis import decisions as decisions_of
from .batch import auto_jobs
from .executors import Executor, TaskError
from .names import SeatError, seats_named

__all__ = ["AnalysedGame", "AnalysisPlan", "PlanError", "PlannedGame", "plan_analysis", "run_plan"]


class PlanError(ValueError):
    """A fault of the input or of the options of an analysis, its place named.

    ``option`` is the option it is a fault of (``--game``, ``--seat``: a usage error), or
    None for a fault of the input (a game that is not legal, an input with no game).
    """

    def __init__(self, message: str, *, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class PlannedGame(NamedTuple):
    """One game of a plan: its ``record``, the ``seats`` to analyze (None: every seat) and
    its ``decisions`` to value, in the order taken."""

    record: GameRecord
    seats: frozenset[int] | None
    decisions: list[Decision]


class AnalysedGame(NamedTuple):
    """One game of a plan, analyzed: the ``planned`` game and its ``analysis``."""

    planned: PlannedGame
    analysis: GameAnalysis


@dataclass(frozen=True)
class AnalysisPlan:
    """The games of an input to analyze, each replayed once to list its decisions.

    ``games`` are the games to analyze, in order; ``decisions`` counts their decisions;
    ``notes`` are what to say on stderr of the input read (games that repeat an earlier
    one whole); ``fault`` is what stopped the reading (:class:`~kow.log.InputError` or
    :class:`PlanError`), to raise once the ``games`` are analyzed, or at once when there
    are none; None when every game wanted was read.
    """

    games: tuple[PlannedGame, ...]
    _: KW_ONLY
    decisions: int
    notes: tuple[str, ...]
    fault: InputError | PlanError | None


def plan_analysis(
    records: Iterable[GameRecord | InputEnd], *, game: int | None = None, seat: str | None = None
) -> AnalysisPlan:
    """Return the plan of the analysis of the games of ``records`` (one input's).

    ``game``: only the game of that index (from 1; the input is read up to it), else
    every game; ``seat``: only that seat's decisions, a seat number or a player's name
    (:func:`~kow.runs.names.seats_named`), in the games that have it (the others are
    skipped), else every seat's. Each game is verified, then replayed once. The plan's
    ``fault`` is, in this order: the input's :class:`~kow.log.InputError`; a
    :class:`PlanError` for an input with no game, for no game ``game`` (``option``
    ``--game``) or a game that is not legal (the games before it are planned); else, when
    no game has ``seat``, the first game's refusal (``option`` ``--seat``). Raises
    :class:`PlanError` for a game the engine does not replay (a fault of kow's).
    """
    notes: list[str] = []
    wanted: list[GameRecord] = []
    fault: InputError | PlanError | None = None
    count = 0
    label = "stdin"
    for item in records:
        if item.note is not None:
            notes.append(item.note)
        label = item.label
        if isinstance(item, InputEnd):
            fault = item.error()
            break
        count = item.index
        if game is None or count == game:
            wanted.append(item)
            if game is not None:
                break
    if fault is None and count == 0:
        fault = PlanError(f"{label}: holds no game, so there is none to analyze")
    elif fault is None and not wanted:
        games = f"{count} game{'s' if count != 1 else ''}"
        fault = PlanError(f"{label} holds {games}, so there is no game {game}", option="--game")
    planned: list[PlannedGame] = []
    refused: list[PlanError] = []
    total = 0
    for record in wanted:
        if record.fault is not None:  # of reading: refused as not legal, as verify reads it
            found: Fault | None = Fault(None, None, None, message=str(record.fault))
        else:
            found = verify_game(record.game)
        if found is not None:
            logged = record.game.get("seed") if isinstance(record.game, dict) else None
            known = isinstance(logged, int) and not isinstance(logged, bool)
            place = GameFault(label, record.index, record.line,
                              seed=logged if known else None, fault=found)  # fmt: skip
            fault = PlanError(f"{place}; a game that is not legal can't be analyzed")
            break
        seats = None
        if seat is not None:
            try:
                seats = seats_named(seat, record.game, where=f"game {record.index} of {label}")
            except SeatError as err:  # games of one file may have other tables
                refused.append(PlanError(str(err), option="--seat"))
                continue
        try:
            todo = decisions_of(record.game, seats)
        except ReplayError as err:  # verify_game and the engine disagree: a fault of kow's
            raise PlanError(
                f"{label}: game {record.index} can't be replayed (a fault of kow's): {err}"
            ) from None
        total += len(todo)
        planned.append(PlannedGame(record, seats, todo))
    if not planned and fault is None:
        fault = refused[0]
    return AnalysisPlan(tuple(planned), decisions=total, notes=tuple(notes), fault=fault)


def run_plan(
    plan: AnalysisPlan,
    *,
    seed: int,
    iterations: int,
    jobs: int | None = None,
    executor: Executor | None = None,
) -> Iterator[DecisionAnalysis | AnalysedGame]:
    """Yield the analysis of each decision of ``plan`` as it is done, and each game's once
    its decisions are: :func:`~kow.runs.analysis.iter_analysis` for each game in turn.

    ``seed`` and ``iterations`` are the analysis's; ``jobs``: processes, None for
    :func:`~kow.runs.batch.auto_jobs`'s choice for the plan's decisions at
    :data:`~kow.runs.analysis.SECONDS_PER_DEAL` a deal; ``executor`` analyzes elsewhere
    instead (then ``jobs`` is not used). Raises :class:`PlanError` for a decision whose
    task failed on a cluster (its game, action and the seed named), and
    :class:`~kow.settings.SettingError` for a bad ``seed``, ``iterations`` or ``jobs``.
    """
    if executor is None and jobs is None:
        jobs = auto_jobs(plan.decisions, iterations * SECONDS_PER_DEAL)
    for planned in plan.games:
        record = planned.record
        analyzed = iter_analysis(
            record.game, planned.decisions, index=record.index, seed=seed,
            iterations=iterations, seats=planned.seats, jobs=jobs or 1, executor=executor,
        )  # fmt: skip
        try:
            for found in analyzed:
                if isinstance(found, GameAnalysis):
                    yield AnalysedGame(planned, found)
                else:
                    yield found
        except TaskError as err:
            raise PlanError(
                f"{record.label}: game {record.index}, the decision at action {err.item}"
                f" (analysis seed {seed}): {err}"
            ) from None
