"""``kow verify``: check game logs against the rules, and say the verdict.

The options and the output: the reading is :func:`kow.log.read_logs`'s, the checking
loop :meth:`kow.verify.Verdict.run`'s, and the exit status the verdict's
:attr:`~kow.verify.Verdict.return_code`.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from ...stopping import Stopped, stop_code, stop_said
from .._inputs import games_shown, input_bytes, one_stdin, say
from .._options import (
    PATH,
    cluster_option,
    json_option,
    log_executor,
    log_jobs_option,
    quiet_option,
    refuse_jobs_with_cluster,
    search_iterations_option,
)
from .._pipes import reader_may_leave
from .._terminal import Progress

if TYPE_CHECKING:
    from ...log import GameLog
    from ...verify import GameFault, JsonVerdict


@click.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...", type=PATH)
@json_option("Print the verdict as one JSON object.")
@click.option(
    "--against-seed", is_flag=True,
    help="Also check that each legal game is the one its seed gives: the cuts, hands,"
    " turned-up card and tie cuts, and every decision of its kow bots.",
)  # fmt: skip
@search_iterations_option
@log_jobs_option
@cluster_option
@quiet_option
def verify(
    *,
    files: tuple[str, ...],
    as_json: bool,
    against_seed: bool,
    search_iterations: int | None,
    jobs: int | None,
    cluster: str | None,
    quiet: bool,
) -> None:
    """Check game logs against the rules: every deal, trick and knock-out.

    Each FILE (or - for stdin) may hold one game, JSON Lines, concatenated JSON objects
    (simulate --pretty) or JSON arrays of games, and may be gzip-compressed (.jsonl.gz);
    games count from 1 in each file. Prints one line per faulty game with the
    place of its first fault, as it is found, then a summary; an object that repeats a
    key is a fault, placed at the key (replay, export and analyze refuse it too); a game
    that repeats an earlier game of its file whole, and an input with no game, are said
    so on stderr. Exit 0 when every game is legal; 1 when any
    is not, or an input can't be read as JSON (its place is named); 2 when a FILE can't
    be opened, or - is given more than once; 141 when stdout closes first (| head).

    A legal game is one the rules allow; it need not be the game its seed gives (a log
    edited by hand can be legal). With --against-seed, each legal game is also played
    again from its seed, rules and first dealer: its cuts, hands, turned-up card and tie
    cuts must be the seed's, and, when every player is a person, an agent or a kow bot,
    each bot's decision must be the one that bot makes (the decisions of people and of
    agents, programs that played through a framework adapter, are taken from the log; a
    line on stderr names the agents' seats). The first difference is named; a game counts
    as legal only when there is none. A legal game whose seed is null (dealt outside
    kow) has no seed to be checked against: it stays legal, and the summary says it was
    not checked. When every game passes, a line on stderr says how many were checked
    against their seeds; with
    --json, the verdict's "against_seed" counts the games checked, matched, unmatched and
    unseeded. Searching bots play at the settings their log records; give
    --search-deals for logs that record none (older logs; default 100). Logs of
    another kow version may differ for that reason alone.
    With --jobs N (or --cluster), N processes (or Ray tasks) check the games, a few
    hundred at a time, and the output is the same, in the same order.
    A progress bar shows on stderr when it is a terminal and every FILE is a file.
    """
    from ...log import InputEnd, read_logs
    from ...runs.blocks import judging
    from ...verify import Fault, JsonVerdict, Verdict

    if search_iterations is not None and not against_seed:
        raise click.BadParameter("it is used with --against-seed", param_hint="'--search-deals'")
    # The check against each game's seed (it loads the engine and bots), and what it
    # leaves to the log: the agents' decisions.
    also: Callable[[GameLog], Fault | None] | None = None
    note: Callable[[GameLog], str | None] | None = None
    if against_seed:
        from ...runs.provenance import agents_note, seed_check

        also = seed_check(search_iterations)
        note = agents_note

    one_stdin(files)  # checked before reading anything
    refuse_jobs_with_cluster(jobs, cluster)
    verdict = Verdict(against_seed=against_seed)
    shown: list[str] = []  # faults not yet written: a few at a time, never all held
    total = None if quiet or not sys.stderr.isatty() else input_bytes(files)
    progress = Progress(total or 0, total is not None, "Verifying",
                        show_pos=False, item=games_shown)  # fmt: skip
    with reader_may_leave(), log_executor(jobs, cluster) as executor:
        json_out = JsonVerdict(sys.stdout) if as_json else None
        try:
            with progress:  # ended before the summary, so that it starts on a line of its own
                judged = judging(executor)
                checked = verdict.run(read_logs(files), also=also, note=note, judging=judged)
                for item in checked:
                    if isinstance(item, InputEnd):
                        if item.why is None:  # read whole (an unreadable one is counted)
                            say(item.note, progress.clear)  # games that repeat others
                            if not item.games:  # jq's reading: no game is no fault, but say so
                                say(f"{item.label}: no games", progress.clear)
                        continue
                    record = item.record
                    if progress.show:
                        progress.advance(record.read - progress.done, verdict.games)
                    say(record.note, progress.clear)  # a game that repeats another
                    if item.note is not None:  # on stderr: stdout holds the verdict
                        seed = f" (seed {record.game['seed']})"
                        say(f"{record.label}: game {record.index}{seed}: {item.note}",
                            progress.clear)  # fmt: skip
                    if item.fault is not None:
                        _show_fault(item.fault, json_out, shown, progress=progress)
        except (KeyboardInterrupt, Stopped) as stop:  # stop_signals ignores any more now
            if json_out is None:  # the faults found so far: the JSON stays cut short
                _show_fault(None, json_out, shown, progress=progress)
            with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
                click.echo(
                    f"{stop_said(stop)} after checking {games_shown(verdict.games)}: "
                    f"{verdict.legal} legal, {verdict.faulty} faulty so far.",
                    err=True,
                )
            click.get_current_context().exit(stop_code(stop))
        _show_fault(None, json_out, shown, progress=progress)
        if json_out is not None:
            json_out.close(verdict)
        else:
            for unreadable in verdict.unreadable:
                click.echo(str(unreadable), err=True)
            click.echo(verdict.summary(len(files)))
    if verdict.return_code:  # 2 for a FILE that can't be opened, a usage error
        sys.exit(verdict.return_code)
    if against_seed and verdict.games:
        seeded = verdict.games - verdict.unseeded
        said = f"checked against their seeds: {games_shown(seeded)}"
        if seeded:
            said += ", each the game its seed gives"
        if verdict.unseeded:
            said += f"; not checked: {games_shown(verdict.unseeded)} with no seed"
        click.echo(said, err=True)


def _show_fault(
    found: GameFault | None, json_out: JsonVerdict | None, shown: list[str], *, progress: Progress
) -> None:
    """Write the faulty game ``found`` to stdout, in
    the verdict's JSON (``json_out``) or as a line; ``shown`` holds the lines not yet
    written, written 100 at a time, and all at once when ``found`` is None. The
    ``progress`` bar is cleared first, so that a line never starts after it."""
    if found is not None and json_out is not None:
        progress.clear()
        json_out.fault(found)
    elif found is not None:
        shown.append(str(found))
    if shown and (found is None or len(shown) >= 100):
        progress.clear()
        click.echo("\n".join(shown))
        shown.clear()
