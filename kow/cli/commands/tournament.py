"""``kow tournament``: measure bots against each other over many seeded games.

The options and the output: the games and the tally are
:mod:`kow.runs.tournament`'s; this module prints the results as a table, JSON or CSV.
"""

from __future__ import annotations

import contextlib
import sys

import click

from ...rules import Rules
from ...settings import GAMES
from ...stopping import Stopped
from .._options import (
    ENTRANTS_HELP,
    Count,
    bots_option,
    cluster_executor,
    cluster_option,
    draw_seed,
    jobs_option,
    json_option,
    parse_entrants,
    refuse_jobs_with_cluster,
    rule_options,
    search_iterations_option,
    seed_option,
)
from .._pipes import reader_may_leave, write_out
from .._terminal import Progress


@click.command()
@bots_option("search,heuristic,heuristic,heuristic", ENTRANTS_HELP, "ENTRANT[,ENTRANT...]")
@click.option(
    "--games", type=Count.of(GAMES), default=400, show_default=True,
    help="Games to play; a multiple of --players gives every bot every seat equally.",
)  # fmt: skip
@seed_option
@rule_options
@search_iterations_option
@jobs_option
@cluster_option
@click.option(
    "--by-seat", is_flag=True,
    help="Also give each entrant's results from each seat (0-based, clockwise).",
)  # fmt: skip
@json_option("Print the results as one JSON object.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the results as CSV, a row per entrant.")
def tournament(
    *,
    bots: str,
    games: int,
    seed: int | None,
    rules: Rules,
    search_iterations: int | None,
    jobs: int | None,
    cluster: str | None,
    by_seat: bool,
    as_json: bool,
    as_csv: bool,
) -> None:
    """Measure bots against each other over many seeded games.

    The bots rotate through the seats over the same seeds, so each bot plays each
    seat's cards. An entrant is a bot kind at its settings (search:iterations=1000), so
    one kind at two settings is two entrants. Prints, per entrant: the seats it holds in
    each game, the games, its wins, its win rate per seat (wins / (games x seats)) with
    its 95% Wilson interval, mean round reached, and mean time per decision; --by-seat
    adds the same from each seat. The results are the same whatever --jobs or --cluster
    is (but for the time per decision). Stopped early (Ctrl-C, SIGTERM, SIGHUP), it
    prints the results of the games finished, marked partial (the same as a whole
    tournament of that many games), and exits 130, 143 or 129.
    """
    import json

    from ...game import PlayerError
    from ...players import game_seconds
    from ...runs.batch import BlockError, WorkerError, auto_jobs
    from ...runs.tournament import Tally, csv_rows, game_results, seat_table_lines, table_lines

    if as_json and as_csv:
        raise click.UsageError("give --json or --csv, not both: each is the whole output")
    refuse_jobs_with_cluster(jobs, cluster)
    kinds = parse_entrants(bots, rules.players)
    counted = f"{games} game{'s' if games != 1 else ''}"
    if games % rules.players and len(set(kinds)) > 1:
        click.echo(
            f"Note: {counted} is not a multiple of {rules.players} players, so the bots "
            "do not sit in every seat equally often.",
            err=True,
        )
    if seed is None:
        seed = draw_seed()
    tally = Tally(
        rules, kinds, seed=seed, search_iterations=search_iterations, planned=games,
        keep_games=False,
    )  # fmt: skip
    stop: KeyboardInterrupt | Stopped | None = None
    try:
        with (
            cluster_executor(cluster, jobs) as executor,
            Progress(games, sys.stderr.isatty(), "Playing") as progress,
        ):
            if executor is None:
                cost = game_seconds(kinds, rules.start_cards, search_iterations)
                jobs = jobs or auto_jobs(games, cost)
            results = game_results(
                rules, kinds, games, seed=seed, jobs=jobs or 1,
                search_iterations=search_iterations, executor=executor,
            )  # fmt: skip
            with contextlib.closing(results):  # on a stop or an error, end the workers at once
                for done in results:
                    tally.add(done)
                    progress.advance(len(done))
    except (PlayerError, WorkerError, BlockError) as err:
        raise click.ClickException(str(err)) from None
    except (KeyboardInterrupt, Stopped) as err:  # stop_signals ignores any more now
        stop = err
    result = tally.tournament()
    with reader_may_leave():
        if as_json:
            write_out(json.dumps(result.to_dict(by_seat=by_seat), indent=2))
        elif as_csv:
            import csv
            import io

            text = io.StringIO()
            csv.writer(text, lineterminator="\n").writerows(csv_rows(result, by_seat=by_seat))
            write_out(text.getvalue(), end="")
        else:
            played = f"Partial: {result.played} of {counted} played" if result.partial else counted
            click.echo(f"{played}, seed {seed}, bots {','.join(kinds)}")
            click.echo("\n".join(table_lines(result)))
            if by_seat:
                click.echo("\n".join(["", *seat_table_lines(result)]))
    if stop is not None:
        said = "Interrupted" if isinstance(stop, KeyboardInterrupt) else f"Stopped by {stop.name}"
        whole = "partial" if result.partial else "whole"
        click.echo(f"{said} after {result.played} of {counted}: the results are {whole}.", err=True)
        click.get_current_context().exit(130 if isinstance(stop, KeyboardInterrupt) else stop.code)
