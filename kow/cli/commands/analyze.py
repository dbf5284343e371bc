"""``kow analyze``: annotate each decision of logged games with the search bot's values.

The options and the output: :func:`kow.runs.analysis_plan.plan_analysis` reads and checks
the games and lists their decisions, each game replayed once;
:func:`~kow.runs.analysis_plan.run_plan` values them; this module writes the analyzes
as text or JSON, and shows the progress.
"""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING

import click

from ...settings import ANALYSIS_DEALS, JOBS, SEED
from ...stopping import Stopped, stop_code, stop_said, stops_held
from .._files import atomic_output, replaced_whole
from .._inputs import one_stdin, open_error, same_file, say, title
from .._options import (
    PATH,
    Count,
    ascii_option,
    cluster_executor,
    cluster_option,
    json_option,
    no_color_option,
    output_option,
    quiet_option,
    refuse_jobs_with_cluster,
)
from .._pipes import reader_may_leave, write_out
from .._terminal import Progress, color_fits, suits_fit

if TYPE_CHECKING:
    from ...log import InputError
    from ...runs.analysis_plan import AnalysisPlan, PlanError

ANALYSIS_ITERATIONS = 200
"""``kow analyze --deals``'s default: :data:`kow.runs.analysis.DEFAULT_ITERATIONS`, named
here so that ``kow --help`` imports no engine (a test holds them equal)."""


@click.command()
@click.argument("file", metavar="FILE", type=PATH)
@click.option(
    "--game", "game_number", type=Count(1, None, "a game number"), default=None, metavar="K",
    help="Analyze only game K of the file (counting from 1) [default: every game].",
)  # fmt: skip
@click.option(
    "--seat", default=None, metavar="SEAT",
    help="Analyze only this player's decisions: a seat (0-based, clockwise) or a name in"
    " the log [default: every seat].",
)  # fmt: skip
@click.option(
    "--deals", "--iterations", "iterations", type=Count.of(ANALYSIS_DEALS),
    default=ANALYSIS_ITERATIONS, show_default=True, metavar="N",
    help="Deals sampled per decision, 2 to 100000; more gives tighter intervals"
    " (--iterations: the same, its older name).",
)  # fmt: skip
@click.option(
    "--seed", type=Count.of(SEED), default=0, show_default=True, metavar="INT",
    help="Seed of the analysis's deals (0 to 2^53-1): the same seed, the same output.",
)  # fmt: skip
@json_option("One JSON object per game, one per line (kow schema analysis gives its schema).")
@output_option("the analysis")
@click.option(
    "--jobs", "-j", type=Count.of(JOBS), default=None, metavar="N",
    show_default="one per CPU, fewer for little work",
    help="Processes analyzing decisions at once; the output does not depend on it.",
)  # fmt: skip
@cluster_option
@ascii_option
@no_color_option
@quiet_option
def analyze(
    *,
    file: str,
    game_number: int | None,
    seat: str | None,
    iterations: int,
    seed: int,
    as_json: bool,
    output: str | None,
    jobs: int | None,
    cluster: str | None,
    ascii_only: bool,
    no_color: bool,
    quiet: bool,
) -> None:
    """Annotate each decision of logged games with the search bot's values.

    For each trump choice, card and knock with more than one legal action, the search
    bot, given that seat's view only, plays every legal action out in the same sampled
    deals and estimates its chance of winning the game and of taking a trick this
    round, with 95% intervals. A choice worth clearly less than the best found is a
    blunder (??): its loss in win chance, deal by deal, has a 95% lower bound above 2
    points. Votes and forced actions are not analyzed.

    FILE (or - for stdin) holds logs of kow play or kow simulate, in any form verify
    reads; it is read up to the last game analyzed (with --game K, up to game K) and
    those games are checked before any analysis: at the first fault (bytes that can't be
    read, a game that is not legal), the games before it are analyzed and written, then
    the fault is named (exit 1). --seat analyzes the games that have
    that seat or player and skips the others. Text for people,
    or --json for tools. Seeded: the same log, --seed and --deals give the same
    output whatever --jobs or --cluster is. A progress bar shows on stderr when it is a terminal.
    Exit 1 for input that can't be read or a game that is not legal (its place named),
    2 for a FILE that can't be opened or a --game or --seat the input does not have.
    Stopped (Ctrl-C, SIGTERM, SIGHUP), it ends between two games, says how many it
    analyzed and where they are (a file given to -o is left as it was), and exits 130,
    143 or 129.
    """

    from ...log import read_logs
    from ...runs.analysis_plan import PlanError, plan_analysis
    from ...screen import terminal_width

    if output not in (None, "-") and file != "-" and same_file(output, file):
        raise click.BadParameter(
            f"{output!r} is the input {file!r}: the analysis would replace the games it is"
            " read from; give another file",
            param_hint="'-o' / '--output'",
        )
    one_stdin((file,), "'FILE'")  # not a closed stdin, read as empty
    refuse_jobs_with_cluster(jobs, cluster)
    try:  # read whole, so that a fault anywhere is named before the long work
        plan = plan_analysis(read_logs([file]), game=game_number, seat=seat)
    except PlanError as err:
        raise click.ClickException(str(err)) from None
    for note in plan.notes:
        say(note)  # games that repeat others
    # The games before the first fault are analyzed, then the fault is named (exit 1).
    pending = None if plan.fault is None else _click_error(plan.fault, file)
    if not plan.games:  # no game before the fault, or none has that seat: say why
        assert pending is not None  # a plan with no game has a fault
        raise pending
    to_stdout = output in (None, "-")
    screen_out = to_stdout and sys.stdout.isatty()
    color = to_stdout and color_fits(sys.stdout, no_color=no_color)
    encoding = sys.stdout.encoding if to_stdout else "utf-8"
    symbols = suits_fit(encoding, ascii_only=ascii_only)
    width = terminal_width() if screen_out else None  # as kow play wraps; a file: none
    show = not quiet and sys.stderr.isatty()
    kept = not replaced_whole(output)  # stdout, a device or a pipe keeps what it got
    written = [0]  # games whose analysis is written whole
    try:
        _write_analyses(
            plan, output, written, as_json=as_json, seed=seed, iterations=iterations, jobs=jobs,
            cluster=cluster, show=show, screen_out=screen_out, symbols=symbols, color=color,
            width=width,
        )  # fmt: skip
    except (KeyboardInterrupt, Stopped) as stop:  # stop_signals ignores any more now
        where = "stdout" if to_stdout else repr(output)
        kept_said = (
            f"{where} was left as it was (not written)"
            if not kept
            else "none was written"
            if not written[0]
            else f"the analyses of the first {written[0]} are written whole to {where}"
        )
        with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
            click.echo(
                f"{stop_said(stop)} after analyzing {written[0]} of {len(plan.games)}"
                f" game{'s' if len(plan.games) != 1 else ''}: {kept_said}.",
                err=True,
            )
        click.get_current_context().exit(stop_code(stop))
    if pending is not None:  # the games before it are analyzed and written
        raise pending


def _write_analyses(
    plan: AnalysisPlan,
    output: str | None,
    written: list[int],
    *,
    as_json: bool,
    seed: int,
    iterations: int,
    jobs: int | None,
    cluster: str | None,
    show: bool,
    screen_out: bool,
    symbols: bool,
    color: bool,
    width: int | None,
) -> None:
    """Analyze the games of ``plan`` and write each to ``output`` (stdout when None or
    -), as text or JSON, counting in ``written[0]`` the games written whole."""
    import json

    from ...log import rules_from_log
    from ...runs.analysis import DecisionAnalysis, text_lines, to_dict
    from ...runs.analysis_plan import PlanError, run_plan
    from ...runs.names import table_names
    from ...screen import Screen, wrap

    with (
        atomic_output(output) as out,
        cluster_executor(cluster, jobs) as executor,
        Progress(plan.decisions, show, "Analyzing") as progress,
        reader_may_leave(out),
    ):
        analyzed = run_plan(plan, seed=seed, iterations=iterations, jobs=jobs, executor=executor)
        try:
            for found in analyzed:
                if isinstance(found, DecisionAnalysis):
                    progress.advance(1)
                    continue
                record, result = found.planned.record, found.analysis
                game, label = record.game, record.label
                if as_json:
                    text = json.dumps(to_dict(result, label), separators=(",", ":"))
                else:
                    names = table_names(game["players"])
                    screen = Screen(
                        names, rules_from_log(game["rules"]), symbols=symbols, color=color
                    )
                    lines = [""] if found.planned is not plan.games[0] else []
                    for each in text_lines(
                        result, screen, title(record.index, label, game["seed"])
                    ):
                        lines += wrap(each, width)
                    text = "\n".join(lines)
                if screen_out:
                    progress.clear()  # the bar's line, on the same screen
                with stops_held():  # a stop ends the run between games, not in one
                    write_out(text, out)
                    written[0] += 1
        except PlanError as err:
            raise click.ClickException(str(err)) from None


def _click_error(fault: InputError | PlanError, file: str) -> click.ClickException:
    """Return the Click error of an analysis's ``fault`` of its input ``file``: a usage
    error (exit 2) for a FILE that can't be opened or a --game or --seat it does not
    have, else a run-time error (exit 1)."""
    from ...log import InputError

    if isinstance(fault, InputError):
        return open_error(file, fault.why) if not fault.opened else click.ClickException(str(fault))
    if fault.option is not None:
        return click.BadParameter(str(fault), param_hint=f"'{fault.option}'")
    return click.ClickException(str(fault))
