"""The command line: parse options, build rules and players, run the game loop, write output.

It holds no game logic. What only one command needs is imported inside that command, so
``kow --help`` stays fast.
"""

from __future__ import annotations

import functools
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any, TypeVar

import click

from . import __version__
from .rules import DOGS_LIFE, LEADS, MAX_PLAYERS, MAX_SEED, MIN_PLAYERS, Rules, max_start_cards

F = TypeVar("F", bound=Callable[..., Any])


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="kow")
def main() -> None:
    """Knock-Out Whist for the command line.

    Simulate seeded bot games as JSON logs with `kow simulate`. Rules and log format:
    docs/rules.md and docs/log-format.md.
    """


# ----------------------------------------------------------------------------- shared options


def rule_options(f: F) -> F:
    """Add every rule option to a command, and pass it a ``rules`` (a :class:`Rules`).

    The options are ``--players``, ``--start-cards``, ``--dogs-life``, ``--fixed-trump``,
    ``--no-final-round-trump``, ``--lead``, ``--eliminated-vote`` and ``--no-sweep-wins``;
    ``docs/rules.md`` gives the source of each.
    """

    @functools.wraps(f)
    def wrapper(
        *args: Any,
        players: int,
        start_cards: int,
        dogs_life: str,
        fixed_trump: bool,
        final_round_trump: bool,
        lead: str,
        eliminated_vote: bool,
        sweep_wins: bool,
        **kwargs: Any,
    ) -> Any:
        most = max_start_cards(players)
        if start_cards > most:
            raise click.BadParameter(
                f"{start_cards} is too many for {players} players: allowed 1 to {most} "
                "(players x cards + 1 <= 52, so a card is left to turn up)",
                param_hint="'--start-cards'",
            )
        rules = Rules(
            players=players,
            start_cards=start_cards,
            dogs_life=dogs_life,  # type: ignore[arg-type]
            trump="fixed" if fixed_trump else "winner-chooses",
            final_round_trump=final_round_trump,
            lead=lead,  # type: ignore[arg-type]
            eliminated_vote=eliminated_vote,
            sweep_wins=sweep_wins,
        )
        return f(*args, rules=rules, **kwargs)

    options = [
        click.option(
            "--players", type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS), default=4,
            show_default=True, help="Number of players, each for themselves.",
        ),
        click.option(
            "--start-cards", type=click.IntRange(min=1), default=7, show_default=True,
            help="Cards dealt in round 1; one fewer each round (players x cards + 1 <= 52).",
        ),
        click.option(
            "--dogs-life", type=click.Choice(DOGS_LIFE), default="off", show_default=True,
            help="Dog's life: once per game (traditional) or once per player (rules text).",
        ),
        click.option(
            "--fixed-trump", is_flag=True,
            help="Round 1's turned-up suit stays trump all game; nobody chooses.",
        ),
        click.option(
            "--final-round-trump/--no-final-round-trump", default=True, show_default=True,
            help="Whether the final 1-card round has a trump.",
        ),
        click.option(
            "--lead", type=click.Choice(LEADS), default="most-tricks", show_default=True,
            help="Who leads rounds 2 on: last round's most tricks, or the dealer's left.",
        ),
        click.option(
            "--eliminated-vote", is_flag=True,
            help="Knocked-out players vote for the next trump.",
        ),
        click.option(
            "--sweep-wins/--no-sweep-wins", default=True, show_default=True,
            help="Whether winning every trick of a round wins the game at once.",
        ),
    ]  # fmt: skip
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper  # type: ignore[return-value]


def check_dealer(dealer: int | None, rules: Rules) -> None:
    """Raise a usage error when ``dealer`` is not a seat of a game under ``rules``."""
    if dealer is not None and dealer >= rules.players:
        raise click.BadParameter(
            f"{dealer} is not a seat: seats are 0 to {rules.players - 1} "
            f"with {rules.players} players",
            param_hint="'--dealer'",
        )


def parse_bots(text: str, seats: int, option: str = "--bots") -> list[str]:
    """Return one bot kind per seat from ``KIND`` or ``KIND,KIND,...`` (one per seat).

    Raises :class:`click.BadParameter` naming an unknown kind or a wrong count.
    """
    from .players import BOT_KINDS

    kinds = [k.strip() for k in text.split(",")]
    for kind in kinds:
        if kind not in BOT_KINDS:
            raise click.BadParameter(
                f"{kind!r} is not a bot kind: choose from {', '.join(BOT_KINDS)}",
                param_hint=f"'{option}'",
            )
    if len(kinds) == 1:
        return kinds * seats
    if len(kinds) != seats:
        raise click.BadParameter(
            f"{text!r} gives {len(kinds)} kinds for {seats} seats: "
            f"give one kind for all seats, or {seats} separated by commas",
            param_hint=f"'{option}'",
        )
    return kinds


def draw_seed() -> int:
    """Return a fresh seed from the operating system, for runs given no ``--seed``."""
    import secrets

    return secrets.randbelow(10**9)


seed_option = click.option(
    "--seed", type=click.IntRange(0, MAX_SEED), default=None, metavar="INT",
    help="Seed of the run (0 to 2^63-1); drawn at random and recorded when omitted.",
)  # fmt: skip
dealer_option = click.option(
    "--dealer", type=click.IntRange(min=0), default=None, metavar="SEAT",
    help="First dealer's seat (0-based, clockwise); drawn from the seed when omitted.",
)  # fmt: skip


@contextmanager
def atomic_output(path: str | None) -> Iterator[IO[str]]:
    """Yield a text stream for ``path``, or stdout for None or ``-``.

    A file is written to a temporary file in the same folder and renamed over ``path``
    only when the block ends without error, so an existing file is never left
    half-written. Raises :class:`click.BadParameter` when the folder can't be written.
    """
    if path is None or path == "-":
        yield sys.stdout
        return
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise click.BadParameter(f"{path!r} is a folder, not a file", param_hint="'--output'")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".kow-", suffix=".tmp", dir=folder)
    except OSError as err:
        raise click.BadParameter(
            f"cannot write {path!r}: {err.strerror or err}", param_hint="'--output'"
        ) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as stream:
            yield stream
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _quiet_broken_pipe() -> None:
    """Leave quietly after the reader of stdout went away (e.g. ``| head -n 1``)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(0)


# ----------------------------------------------------------------------------- simulate


@main.command()
@seed_option
@click.option(
    "--games", type=click.IntRange(min=1), default=1, show_default=True,
    help="Number of games; more than one gives JSON Lines, one game per line.",
)  # fmt: skip
@click.option(
    "--bots", default="heuristic", show_default=True, metavar="KIND[,KIND...]",
    help="Bot kind for every seat, or one per seat: random, heuristic.",
)  # fmt: skip
@dealer_option
@rule_options
@click.option(
    "--output", "-o", default=None, metavar="FILE",
    help="Write the logs to FILE (replaced whole at the end) instead of stdout.",
)  # fmt: skip
@click.option("--pretty", is_flag=True, help="Indent the JSON for reading.")
def simulate(
    seed: int | None,
    games: int,
    bots: str,
    dealer: int | None,
    rules: Rules,
    output: str | None,
    pretty: bool,
) -> None:
    """Play seeded bot games and print one JSON log per game.

    Each log records its game's own seed, which replays that game alone with the same
    options. The same seed and options always give the same bytes.
    """
    from . import log
    from .game import PlayerError, bot_rng, game_seed, run_game
    from .players import make_bot

    check_dealer(dealer, rules)
    kinds = parse_bots(bots, rules.players)
    if seed is None:
        seed = draw_seed()
    with atomic_output(output) as out:
        try:
            for index in range(games):
                gseed = game_seed(seed, index)
                players = [
                    make_bot(kind, f"{kind}-{s}", bot_rng(gseed, s)) for s, kind in enumerate(kinds)
                ]
                try:
                    state = run_game(rules, players, gseed, dealer)
                except PlayerError as err:
                    raise click.ClickException(f"game {index} (seed {gseed}): {err}") from None
                out.write(log.dumps(log.build(gseed, rules, players, state.events), pretty))
                out.write("\n")
            out.flush()
        except BrokenPipeError:
            _quiet_broken_pipe()
