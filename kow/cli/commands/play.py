"""``kow play``: a game at this keyboard against bots, or with friends (hot seat).

The options: the sitting at the keyboard is :class:`kow.cli.session.Sitting`'s, a game
resumed from its log :func:`kow.cli._resume.resume_game`'s.
"""

from __future__ import annotations

import contextlib
import os
import sys

import click

from ...rules import MAX_PLAYERS, Rules
from .._options import (
    LEVELS,
    PATH,
    Count,
    Seconds,
    ascii_option,
    bots_option,
    dealer_option,
    draw_seed,
    level_kinds,
    no_color_option,
    people,
    rule_options,
    search_iterations_option,
    seed_option,
)
from .._terminal import color_fits, suits_fit


@click.command()
@click.option(
    "--humans", default=1, show_default=True,
    type=Count(1, MAX_PLAYERS, "a number of people", hint="bots alone play with kow simulate"),
    help="People at this keyboard (hot seat); they take seats 0, 1, ...",
)  # fmt: skip
@click.option(
    "--name", "names", multiple=True, metavar="NAME",
    help="A human's name, once per human in seat order (default: You, or Player 1, 2...).",
)  # fmt: skip
@bots_option(
    "heuristic",
    "Bot kind for the other seats, or one per bot seat: random, heuristic, search, ismcts.",
)
@click.option(
    "--level", type=click.Choice(list(LEVELS)), default=None,
    help="The bots' level, for every bot seat: easy = random (any legal card), medium ="
    " heuristic (the rules text's tips), hard = search (plays out deals it samples). Not"
    " with --bots. [default: medium, as --bots heuristic]",
)  # fmt: skip
@seed_option
@dealer_option
@rule_options
@search_iterations_option
@click.option(
    "--log", "log_path", default=None, metavar="FILE", type=PATH,
    help="Save the log of each game played to FILE, after the games it held (one JSON"
    " line a game, as simulate writes them; gzip if FILE ends in .gz), even if you quit.",
)  # fmt: skip
@click.option(
    "--resume", default=None, metavar="FILE", type=PATH,
    help="Continue the abandoned game that --log kept at the end of FILE, with its seats,"
    " bots, rules and seed; it is written back to FILE, after the games before it (or to"
    " --log FILE).",
)  # fmt: skip
@click.option(
    "--auto-forced",
    is_flag=True,
    help="Forced moves (a single legal card) play themselves; auto at a prompt toggles it.",
)
@ascii_option
@no_color_option
@click.option(
    "--delay", type=Seconds(0, 10), default=None, metavar="SECONDS",
    help="Pause after each bot play [default: 0.6, or 0 when input is not a terminal].",
)  # fmt: skip
def play(
    *,
    humans: int,
    names: tuple[str, ...],
    bots: str,
    level: str | None,
    seed: int | None,
    dealer: int | None,
    rules: Rules,
    search_iterations: int | None,
    log_path: str | None,
    resume: str | None,
    auto_forced: bool,
    ascii_only: bool,
    no_color: bool,
    delay: float | None,
) -> None:
    """Play a game at this keyboard against bots, or with friends (hot seat).

    Type a card as 10h, Th, h10, 10 h, Q♠ or queen of spades, or by its number in your
    hand. Commands at every prompt: help, hand, table, last, played (this round's cards
    and known voids), hint (the search bot's suggestion), auto (forced moves play
    themselves), knock (on a dog's life), rules, quit. After a game, the running score
    of the sitting; play again with a new seed and the same options, or first type a for
    the search bot's analysis of your decisions (as kow analyze gives it). --resume FILE
    continues a game left before its end (docs/play.md).
    """
    from ...events import BOT_NAMES
    from ...game import PlayerError
    from ...rulebook import rule_lines
    from ...screen import wrap
    from ..session import LogWriteError, Sitting, Terminal

    if log_path == "-":
        raise click.BadParameter("give a file path; stdout shows the game", param_hint="'--log'")
    resumed = None
    kept = ""  # a log is never replaced: what its file held is kept before the new games
    if resume is not None:
        from .._resume import resume_game

        resumed = resume_game(resume, search_iterations=search_iterations, log_path=log_path)
        rules, seed = resumed.rules, resumed.seed
        search_iterations = resumed.search_iterations  # the log's own, when it records them
        if log_path is None or _same_path(log_path, resume):
            kept = resumed.kept  # the sitting's games before the abandoned one
        log_path = resumed.log_path
        human_names, kinds = list(resumed.humans), list(resumed.kinds)
        humans = len(human_names)
    else:
        human_names = people(names, humans, rules.players)
        kinds = level_kinds(level, bots, rules.players - humans)
    if (
        log_path is not None
        and not kept
        and os.path.isfile(log_path)
        and not (resume is not None and _same_path(log_path, resume))
    ):
        from .._resume import kept_text

        kept = kept_text(log_path)
    bot_seats = rules.players - humans
    if seed is None:
        seed = draw_seed()
    interactive = sys.stdin.isatty()
    color = color_fits(sys.stdout, no_color=no_color)
    symbols = suits_fit(sys.stdout.encoding, ascii_only=ascii_only)
    taken = {n.casefold() for n in human_names}
    free_names = [n for n in BOT_NAMES if n.casefold() not in taken]
    if resumed is not None:
        free_names = list(resumed.bot_names)
    terminal = Terminal(
        sys.stdin, sys.stdout, interactive=interactive, screen=sys.stdout.isatty(), color=color
    )
    sitting = Sitting(
        rules, human_names, kinds, bot_names=free_names[:bot_seats], terminal=terminal,
        dealer=dealer, search_iterations=search_iterations, log_path=log_path,
        delay=(0.6 if interactive else 0.0) if delay is None else delay, symbols=symbols,
        rulebook=lambda: rule_lines(rules, min(terminal.width, 100)), auto_forced=auto_forced,
        kept=kept,
    )  # fmt: skip
    try:
        ending = sitting.play(seed, draw_seed, resume=None if resumed is None else resumed.resume)
    except PlayerError as err:
        raise click.ClickException(str(err)) from None
    except LogWriteError as err:
        raise click.ClickException(
            f"cannot write the log to {err.path!r}: {err.strerror}"
        ) from None
    if ending.code:
        with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
            terminal.write("")
        if ending.finished:  # left at "Play again?": the game itself was played out
            saved = f"; the games are saved in {log_path}" if log_path else ""
            message = f"Stopped after the game ({ending.reason}){saved}. Seed {ending.seed}."
        else:
            saved = f"; the game so far is saved in {log_path}" if log_path else ""
            message = f"Game abandoned ({ending.reason}){saved}. Seed {ending.seed}."
        with contextlib.suppress(OSError):
            width = terminal.width if sys.stderr.isatty() else None  # a log file: one line
            click.echo("\n".join(wrap(message, width)), err=True)
        sys.exit(ending.code)


def _same_path(one: str, other: str) -> bool:
    """Return whether the paths ``one`` and ``other`` name the same file."""
    return os.path.realpath(one) == os.path.realpath(other)
