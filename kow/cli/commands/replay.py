"""``kow replay``: tell a logged game trick by trick, as ``kow play`` shows it.

The options and the output: the game is read by :func:`kow.log.read_logs`, checked by
:func:`kow.verify.verify_game`, replayed by :func:`kow.log.replay` and told by
:class:`kow.screen.Screen`.
"""

from __future__ import annotations

import sys

import click

from .._inputs import one_stdin, open_error, say
from .._inputs import title as title_of
from .._options import PATH, Count, ascii_option, no_color_option
from .._terminal import FALLBACK, color_fits, page, suits_fit


@click.command()
@click.argument("file", metavar="FILE", type=PATH)
@click.option(
    "--game", "game_number", type=Count(1, None, "a game number"), default=1,
    show_default=True,
    metavar="N", help="Which game of a file of several (counting from 1).",
)  # fmt: skip
@click.option(
    "--round", "round_number", type=Count(1, None, "a round number"), default=None,
    metavar="R",
    help="Show only round R.",
)  # fmt: skip
@ascii_option
@no_color_option
def replay(
    *, file: str, game_number: int, round_number: int | None, ascii_only: bool, no_color: bool
) -> None:
    """Tell a logged game trick by trick, as `kow play` shows it, with every hand.

    FILE (or - for stdin) may hold one game or many, in any form verify reads (JSON
    Lines, concatenated, an array; gzip-compressed or not); long output goes through a
    pager when stdout is a terminal. Bots that simulate named by kind and seat
    (heuristic-0) are shown with table names, as play gives them: "Ada (heuristic)".
    """
    import collections

    from ...log import GameLog, InputEnd, ReplayError, read_logs, rules_from_log
    from ...log import replay as replay_log
    from ...runs.names import table_names
    from ...screen import Screen, terminal_width
    from ...verify import verify_game

    game: GameLog | None = None
    read_fault = None
    count = 0
    label = file
    one_stdin((file,), "'FILE'")  # not a closed stdin, read as empty
    for item in read_logs([file]):  # read up to game N
        label = item.label
        if isinstance(item, InputEnd):
            error = item.error()
            if error is not None and not error.opened:
                raise open_error(file, error.why)
            if error is not None:
                raise click.ClickException(str(error))
            say(item.note)
            break
        say(item.note)  # a game that repeats an earlier one
        count = item.index
        if count == game_number:
            game, read_fault = item.game, item.fault
            break
    if count == 0:
        raise click.ClickException(f"{label}: holds no game, so there is none to replay")
    if count != game_number:
        raise click.BadParameter(
            f"{label} holds {count} game{'s' if count != 1 else ''}, so there is no game "
            f"{game_number}",
            param_hint="'--game'",
        )
    fault = str(read_fault) if read_fault is not None else verify_game(game)
    if fault is not None:
        seed = game.get("seed") if isinstance(game, dict) else None
        named = f" (seed {seed})" if isinstance(seed, int) and not isinstance(seed, bool) else ""
        raise click.ClickException(  # the game named as verify and export name it
            f"{label}: game {game_number}{named} is not a legal game, so it can't be replayed:"
            f" {fault}"
        )
    assert game is not None  # a legal game (a null read is a fault)
    rounds = len(game["rounds"])
    if round_number is not None and round_number > rounds:
        raise click.BadParameter(
            f"game {game_number} has {rounds} round{'s' if rounds != 1 else ''}, "
            f"so there is no round {round_number}",
            param_hint="'--round'",
        )
    color = color_fits(sys.stdout, no_color=no_color)
    symbols = suits_fit(sys.stdout.encoding, ascii_only=ascii_only)
    try:
        # One state, advanced in place by each action: keep it once the replay ends.
        (state,) = collections.deque(replay_log(game), maxlen=1)
    except ReplayError as err:  # verify_game and the engine disagree: a fault of kow's
        raise click.ClickException(
            f"{label}: game {game_number} can't be replayed: {err}"
        ) from None
    names = table_names(game["players"])
    logged = game["players"]
    shown: GameLog = {
        **game,
        "players": [{**p, "name": n} for p, n in zip(logged, names, strict=True)],
    }
    screen = Screen(names, rules_from_log(game["rules"]), symbols=symbols, color=color)
    title = title_of(game_number, label, game["seed"])
    width = terminal_width() if sys.stdout.isatty() else None  # as kow play wraps; a pipe: none
    lines = screen.narrate(shown, state.events, title, round=round_number, width=width)
    text = "\n".join(lines)
    if sys.stdout.isatty():
        encoding = sys.stdout.encoding  # the pager's: it would write "?" for what it lacks
        text = text.encode(encoding, FALLBACK).decode(encoding)
        page(text + "\n", color=color)
    else:
        click.echo(text, color=color)
